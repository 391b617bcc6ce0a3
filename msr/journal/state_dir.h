/*
 * msr/journal/state_dir.h - the directory that holds baretma's run journals and
 * per-CPU lock files: $BARETMA_STATE_DIR, default /run/baretma (tmpfs:
 * gone at reboot, when the registers are back to their reset values too).
 *
 * What is in it decides what root writes into MSRs and sysfs, so the
 * directory must be the effective user's alone: not a symbolic link, owned
 * by the effective user, not writable by group or others; and no one else
 * may be able to move it aside (its journals hidden, 'pmu restore' would
 * find nothing to restore), so every directory on the way from "/" must be
 * owned by root or the effective user and not writable by group or others
 * unless sticky (/tmp).  The checks are made on the opened directories
 * (fstat of the descriptors), so swapping a name after the check changes
 * nothing; every file in it is then reached with openat() relative to
 * that descriptor.
 *
 * The path to it is walked from "/" one component at a time (openat with
 * O_NOFOLLOW|O_DIRECTORY, mkdirat), never by the kernel's own lookup: a
 * symbolic link among its parents would let whoever owns the link choose
 * where root creates the directory (BARETMA_STATE_DIR=/tmp/x/lnk/baretma
 * with lnk -> /etc made /etc/baretma).  A link is followed only when no one
 * but root can have made or changed it: owned by root, in a directory owned
 * by root and not writable by group or others (/var/run -> /run); its
 * target is walked by the same rule.  Every other link is refused, and the
 * state directory itself is never a link.  (openat2's RESOLVE_NO_SYMLINKS
 * would refuse /var/run too, so it is not used.)
 */
#ifndef BARETMA_STATE_DIR_H
#define BARETMA_STATE_DIR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* Every name baretma makes in the state directory ("cpu<N>.lock",
 * "settings.lock", "run-<PID>.journal", ".run-<PID>.journal.tmp") is
 * shorter than this, so "<state dir>/<name>" always fits in PATH_MAX bytes
 * (JOURNAL_PATH_MAX) once state_dir_open() has accepted the directory. */
#define STATE_DIR_NAME_MAX 64

/*
 * state_dir_path - $BARETMA_STATE_DIR when set and not empty; else, in a
 * dry run (state_dir_dry_run), the dry run's own directory
 * "$TMPDIR/baretma-dry-<euid>" ($TMPDIR from a trusted environment, else
 * /tmp), so that no journal, lock or calibration of a machine that is not
 * this one's registers lands in the real directory; else the default,
 * state_dir_default().  The dry run's string is the calling thread's,
 * valid until its next call.
 */
const char *state_dir_path(void);

/* state_dir_default - "/run/baretma": the real state directory (the test
 * build, t/baretma-hooks, takes $BARETMA_TEST_STATE_DEFAULT instead from
 * a trusted environment: msr/journal/state_dir_hooks.c). */
const char *state_dir_default(void);

/* state_dir_dry_run - does the environment make this a dry run: a CPUID
 * dump ($BARETMA_CPUID_DUMP: the command line exports --cpuid-dump there),
 * an MSR backend other than the device ($BARETMA_MSR=state:FILE or
 * sim:PROFILE), or the perf source's simulator ($BARETMA_PERF=sim:)? */
bool state_dir_dry_run(void);

/* state_dir_is_dry - is state_dir_path() the dry run's own directory (a
 * dry run without $BARETMA_STATE_DIR)? */
bool state_dir_is_dry(void);

/*
 * state_dir_check - is the state directory's name one that means the same
 * directory from every working directory?  A relative $BARETMA_STATE_DIR
 * does not: 'pmu enable' run in one directory and 'pmu restore' (after a
 * crash, from a boot script) run in another would look in two places, and
 * the journal that puts the registers back would not be found.
 * Returns 0, or -EINVAL for a relative $BARETMA_STATE_DIR.
 */
int state_dir_check(void);

/*
 * state_dir_open - open the state directory for openat().
 * @create: make it (mode 0700) when missing; its parent must exist.
 * @dirfd: receives an O_DIRECTORY|O_CLOEXEC descriptor the caller closes.
 * Every directory on the way, from "/" down, is checked as it is reached
 * (on the descriptor): owned by root or the effective user, and not
 * writable by group or others unless sticky (like /tmp).  Whoever could
 * rename an entry of one of them could move the state directory aside,
 * hiding its journals ('pmu restore' would find nothing to restore).  The
 * state directory itself must be the effective user's and writable by no
 * one else.
 * Returns 0, -EINVAL (a relative $BARETMA_STATE_DIR: state_dir_check),
 * -ENAMETOOLONG (the path is longer than PATH_MAX - 2 -
 * STATE_DIR_NAME_MAX bytes: the paths of the files in it, shown in
 * messages, would not fit), -ENOENT (missing and !@create, or a parent
 * missing), -ELOOP (it, or a link among its parents that is not root's
 * own, is a symbolic link; or more than 40 links), -ENOTDIR (something
 * other than a directory in its place or a parent's), -EPERM (it, or a
 * directory on the way, is another user's or writable by others:
 * state_dir_refused says which), -EACCES (cannot be searched or created),
 * or another -errno from openat/mkdirat.
 */
int state_dir_open(bool create, int *dirfd);

/* What state_dir_open() refused, for its message (state_dir_refused). */
enum state_dir_why {
	STATE_DIR_OK = 0,
	STATE_DIR_LINK,     /* a symbolic link (-ELOOP) */
	STATE_DIR_OWNER,    /* owned by another user (-EPERM) */
	STATE_DIR_WRITABLE, /* writable by group or others (and, for a parent, not sticky) */
};

struct state_dir_refusal {
	enum state_dir_why why;
	bool last;          /* the state directory itself, not a directory on the way */
	char path[PATH_MAX]; /* as walked (the link's path, or the directory's) */
	unsigned uid;       /* the directory's owner (STATE_DIR_OWNER, _WRITABLE) */
	unsigned mode;      /* and its permission bits (07777) */
};

/*
 * state_dir_refused - for the message after state_dir_open() said -ELOOP
 * or -EPERM: the state directory walked again, and what it refuses now in
 * @r.  Returns 0, or -ENOENT when the walk now refuses nothing (an -EPERM
 * that came from a file in the directory, not the directory).
 */
int state_dir_refused(struct state_dir_refusal *r);

/*
 * state_dir_write_tmp - write @len bytes of @buf to the new file @tmp in
 * the directory @dirfd: an old @tmp removed first, then created
 * O_EXCL|O_NOFOLLOW (nothing planted at the name is followed), mode
 * exactly 0600 whatever the umask, written in full and fsync'd; on an
 * error @tmp is removed.  Async-signal-safe (the journal's signal path
 * uses it).  Returns 0 or -errno.
 */
int state_dir_write_tmp(int dirfd, const char *tmp, const char *buf, size_t len);

/*
 * state_dir_replace - @buf as the file @name of @dirfd, atomically:
 * state_dir_write_tmp to ".<name>.tmp", renamed over @name (a reader sees
 * the old file or the new, never a part), then the directory fsync'd
 * (any directory: the state directory, or the one of calibrate -o FILE).
 * @name must not be a symbolic link (refused: -ELOOP, nothing written),
 * nor anything else that is not a regular file (a directory: -EISDIR; a
 * FIFO, a device, a socket: -EINVAL; nothing written: renamed over, a
 * device node such as /dev/null would be gone); a regular file in its
 * place is replaced, a link never followed.  Returns 0, -ELOOP, -EISDIR,
 * -EINVAL, -ENAMETOOLONG (".<name>.tmp" longer than NAME_MAX), or
 * -errno.
 */
int state_dir_replace(int dirfd, const char *name, const char *buf, size_t len);

/*
 * The one rule for every file baretma reads from the state directory (the
 * journals, which decide what 'pmu restore' writes to MSRs and settings;
 * the calibrations, whose numbers bench subtracts; the lock files, which
 * name their holder): a regular file, owned by the effective user, that
 * group and others cannot write - what the directory itself must be
 * (state_dir_open).  Another user's file there, or one they could change,
 * came from someone baretma does not believe: it is refused, never read
 * (exit 77).
 * state_dir_file_check - the rule on @st (the file's fstat or fstatat):
 * 0, or -EPERM with the reason in @why (@n bytes; 80 hold the longest):
 * "a symbolic link", "not a regular file", "owned by uid 4242, not uid
 * 0", "writable by others (mode 0666)".
 */
struct stat;
int state_dir_file_check(const struct stat *st, char *why, size_t n);

/*
 * state_dir_file_open - open @name in the state directory @dirfd
 * (state_dir_open) for reading, by that rule: looked at first without
 * following a link (a FIFO or device is never opened), then opened
 * O_RDONLY|O_NOFOLLOW|O_NONBLOCK|O_NOCTTY|O_CLOEXEC and checked again on
 * the descriptor.  Returns the fd, -ENOENT (none), -EPERM (refused: @why
 * as state_dir_file_check), or -errno.
 */
int state_dir_file_open(int dirfd, const char *name, char *why, size_t n);

/*
 * state_dir_file_text - the message for a refused file, raw (the caller
 * escapes the path where it prints), in *@out (on the heap, replaced):
 * "@kind '@path' is @why: refused (what is in the state directory decides
 * what baretma writes to MSRs and what bench subtracts: only regular files
 * of uid 0's, writable by no one else, are read there; remove it, or chown
 * 0 and chmod go-w it if its content is right)".  0 or -ENOMEM.
 */
int state_dir_file_text(char **out, const char *kind, const char *path, const char *why);

#endif
