/*
 * msr/journal/leftovers.h - where a killed baretma may have left the temporary
 * files of its writes (cpu/tmpfile.h), so that `baretma pmu restore`
 * removes them as it puts the registers back.
 *
 * While a process has a write in progress, the state directory
 * (msr/journal/state_dir.h) holds its record "outputs-PID-START.list": the
 * directories of those writes, each with the user the files are made for.
 * The record is rewritten when a directory is added or its last write
 * ends, removed with the last one, and removed by the signal guard's
 * handler with the temporary files (cpu/tmpfile.h's registry).  A record
 * outlives its process only after SIGKILL (or a crash); leftovers_restore
 * then sweeps each of its directories (tmpfile_sweep: only baretma's own
 * names, of writers that no longer run, owned by that user or root) and
 * removes the record.  A state directory is not created for a record:
 * without one, the directories are kept in memory and recorded when the
 * run's journal creates it (journal_begin calls leftovers_sync); without
 * a journal either (nothing of the machine's to restore), the next write
 * into the same directory still sweeps it.
 *
 * Format: the line "baretma-outputs/1\n", then per directory the user's
 * uid in decimal, a tab, the directory's absolute path as the kernel
 * names it (/proc/self/fd), and a NUL byte (a path may hold any other
 * byte).  At most LEFTOVERS_MAX_DIRS directories, LEFTOVERS_RECORD_MAX
 * bytes.
 */
#ifndef BARETMA_LEFTOVERS_H
#define BARETMA_LEFTOVERS_H

#include <sys/types.h>

#define LEFTOVERS_MAX_DIRS   16
#define LEFTOVERS_RECORD_MAX (LEFTOVERS_MAX_DIRS * (4096 + 16) + 64)
#define LEFTOVERS_MAGIC      "baretma-outputs/1\n"

/*
 * leftovers_note - a write into the directory @dirfd for @uid begins:
 * recorded (once per directory; counted).  Best effort: returns 0 when the
 * directory is in the record or kept for it (no state directory yet),
 * else -errno (the state directory refused it, more than
 * LEFTOVERS_MAX_DIRS directories...); then leftovers_forget must not be
 * called for it.  Not thread-safe (the
 * command line's writes).
 */
int leftovers_note(int dirfd, uid_t uid);

/* leftovers_sync - record the directories noted while the state
 * directory was not there, now that it is (journal_begin). */
void leftovers_sync(void);

/* leftovers_forget - a write noted by leftovers_note(@dirfd) ended
 * (renamed or removed): its directory leaves the record with its last
 * write, and the record goes with the last directory. */
void leftovers_forget(int dirfd);

/* What leftovers_restore found. */
struct leftovers_result {
	unsigned records;  /* records of processes no longer running, removed */
	unsigned removed;  /* temporary files removed from their directories */
	unsigned dirs_gone; /* directories that could no longer be opened */
};

/*
 * leftovers_restore - for `pmu restore`: every record in the state
 * directory whose process no longer runs (cpu/proc.h cpu_pid_alive),
 * each of its directories swept, the record removed; a record that is
 * not a regular file of the effective user writable by it alone (the
 * state directory's rule for every file in it: state_dir_file_check), or not
 * in the format, is left and counted as an error.  Returns 0, -ENOENT
 * (no state directory: nothing recorded), -EBADMSG (a record refused or
 * malformed; the others were done) or -errno of the state directory.
 */
int leftovers_restore(struct leftovers_result *r);

#endif
