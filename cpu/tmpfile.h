/*
 * cpu/tmpfile.h - the temporary file a file is written through, and what
 * baretma does so that none is ever left behind.
 *
 * A file baretma writes (-o, --openmetrics, --plot, --bundle, cpuid dump
 * -o: bench/output/output_file.h) is written whole into a new file beside
 * it and renamed over it.  That new file is named
 *
 *     .NAME.baretma-PID-START.tmp
 *
 * NAME the file's name, PID the writing process and START its start time
 * (cpu/proc.h: clock ticks after boot), so that a later baretma knows a
 * file as one of its own and whether its writer still runs (a reused PID
 * has another START).  Three things remove it when the write does not end
 * in the rename:
 *   - the writer itself, on an error (tmpfile_release after unlinking);
 *   - a deadly signal: every temporary file of the process is in a
 *     registry (fixed slots, no lock), and tmpfile_unlink_all, which the
 *     signal guard's handler calls (msr/journal/guard_signals.h), removes each;
 *   - after SIGKILL, which no handler sees: the next write into the same
 *     directory (tmpfile_sweep), or `baretma pmu restore` through the
 *     state directory's record of the directories (msr/journal/leftovers.h).
 * The registry also holds other files of the same kind (the record
 * itself), removed by the same handler.
 */
#ifndef BARETMA_TMPFILE_H
#define BARETMA_TMPFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Files of one process in the registry at once (writes in progress). */
#define TMPFILE_SLOTS 16

/* The suffix and the marker between NAME and PID. */
#define TMPFILE_MARK   ".baretma-"
#define TMPFILE_SUFFIX ".tmp"

/*
 * tmpfile_create - create the temporary file for @name in the directory
 * @dirfd: exclusively (O_EXCL, O_NOFOLLOW: nothing planted at the name is
 * followed), write-only, @mode (less the umask), close-on-exec.  Its name
 * (malloc'd) in *@tmp; it is in the registry, slot *@slot, until
 * tmpfile_release.  Returns the descriptor, -ENAMETOOLONG (NAME too long
 * for a temporary name beside it), -ENOSPC (every slot taken: more
 * writes at once than TMPFILE_SLOTS), -ENOMEM or -errno of openat.
 */
int tmpfile_create(int dirfd, const char *name, mode_t mode, char **tmp, int *slot);

/*
 * tmpfile_keep - put the existing file @name of @dirfd in the registry
 * (removed on a deadly signal), slot in *@slot.  Returns 0, -ENOSPC,
 * -ENAMETOOLONG or -errno (of dup'ing @dirfd).
 */
int tmpfile_keep(int dirfd, const char *name, int *slot);

/* tmpfile_release - take @slot out of the registry (after the rename or
 * the unlink: the handler must not unlink what the name then is).  A
 * negative @slot does nothing. */
void tmpfile_release(int slot);

/* tmpfile_unlink_all - unlink every file in the registry.  Async-signal-
 * safe: the signal guard's handler calls it before the process dies. */
void tmpfile_unlink_all(void);

/*
 * tmpfile_parse - is @entry the name of a temporary file of baretma's?
 * Then its writer's PID and START (tmpfile.h's name) in *@pid, *@start.
 */
bool tmpfile_parse(const char *entry, pid_t *pid, unsigned long long *start);

/*
 * tmpfile_sweep - remove from the directory @dirfd the temporary files
 * baretma's writers left there and no longer write: a name of baretma's
 * (tmpfile_parse) whose writer is not alive (cpu/proc.h
 * cpu_pid_alive(PID, START)), a regular file with one link, owned by @uid
 * or by the effective uid (whose files the write would have made there).
 * A file of a live writer, of any other name or owner is left.  Returns
 * the number removed, or -errno (the directory could not be read).
 */
int tmpfile_sweep(int dirfd, uid_t uid);

#endif
