/*
 * cpu/userfile.h - open a file that the user named through the environment
 * ($BARETMA_MSR_TRACE, $BARETMA_OUTPUT) for a process that may run as
 * root, so that the name cannot make root write where that user could not
 * (project issues 9 and "Left exactly as found", point 4; doc/safety.md "Running
 * as root safely"; cpu/userfile.c); and read a file a user names so that
 * root reads for them only what they could read (issue 27;
 * userfile_open_read, cpu/userfile_read.c).  The user is the invoking
 * one (cpu/trust.h trust_invoking_user): the real uid, or under sudo
 * $SUDO_UID, not root.  For appending:
 *   - An existing file must be a regular file with one link owned by that
 *     user: under sudo a name such as /etc/sudoers (root's) is refused.
 *   - A new file is created 0600 (O_EXCL: nothing planted between the
 *     look and the create is followed) and given to that user and group.
 *     When that user is not the effective one, it is created only in a
 *     directory that user owns, or in one where everyone may create files
 *     and the sticky bit keeps each file its creator's (/tmp): where that
 *     user could have created it.  The directory is checked on its
 *     descriptor and the file created relative to it, so renaming or
 *     relinking the directory's path in between changes nothing.
 *   - A symbolic link, a FIFO or a device at the name is refused without
 *     being opened.
 */
#ifndef BARETMA_USERFILE_H
#define BARETMA_USERFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct stat;

/*
 * userfile_open_append - @path opened for appending (O_APPEND, O_CLOEXEC).
 * Returns the fd, or -errno; a refusal is -EPERM with *@why set ("a
 * symbolic link", "not a regular file", "owned by another user than the
 * invoking user", "a file with other hard links", "a new file in a
 * directory the invoking user does not own", "named under sudo without a
 * valid $SUDO_UID"), else *@why is NULL.
 */
int userfile_open_append(const char *path, const char **why);

/*
 * userfile_remedy - for the message of a refusal, what to name instead:
 * "name a new file: baretma creates it 0600 for uid 0, or one of that
 * uid's own" when the invoking user is the effective one; under sudo or
 * setuid "name a new file in a directory of uid 1000 ($SUDO_UID) or in a
 * sticky one everyone may write, like /tmp: baretma creates it 0600 for
 * that uid; or one of that uid's own files"; when the invoking user is
 * unknown, why (trust_invoking_user).  In @buf (@n bytes).
 */
void userfile_remedy(char *buf, size_t n);

/*
 * userfile_open_read - open @path (relative to @dirfd; AT_FDCWD) for
 * reading when it is a regular file the invoking user could read, never
 * blocking or acting on anything else: an input the user names (a CPUID
 * dump and its pu files, a simulator profile and its `state FILE`, a
 * state file; cpu/userfile_read.c).
 *   - A FIFO given there made the reader wait forever for a writer (the
 *     open, or the read that followed), and merely opening a device can
 *     act (a tape rewinds, a watchdog arms).  So the name is looked at
 *     first (fstatat; with O_NOFOLLOW in @flags a symbolic link is not
 *     followed, and refused: -ELOOP) and anything but a regular file is
 *     refused unopened; then it is opened
 *     O_RDONLY|O_NONBLOCK|O_NOCTTY|O_CLOEXEC|@flags and checked again on
 *     the descriptor (something swapped in between is refused too, and
 *     closed).  O_NONBLOCK does nothing to a regular file's reads.
 *   - When the invoking user (cpu/trust.h trust_invoking_user: $SUDO_UID
 *     under sudo, the real uid under setuid) is not the effective one,
 *     root must not read for them what they could not read themselves
 *     (a message quoting a line of /etc/shadow): before a byte is read, a
 *     forked child takes their uid, gid ($SUDO_GID; without a valid one,
 *     their passwd entry's) and supplementary groups (getgrouplist of
 *     their passwd entry's name; a uid without an entry has its primary
 *     group only) and looks at and opens @path, so the kernel's own rule
 *     decides (modes, ACLs, every directory on the way, root_squash...).
 *     What root then opens must be the file the child opened (st_dev,
 *     st_ino): a swap in between is refused.  Where the invoking user is
 *     the effective one, nothing is forked.
 * Returns the fd, -EINVAL (not a regular file: a FIFO, a device, a
 * socket, a directory), -ELOOP (a link, with O_NOFOLLOW), -EACCES (the
 * invoking user may not read it, or is unknown: userfile_read_denied
 * says which), or -errno (-ENOENT: missing, as the invoking user sees
 * it).
 */
int userfile_open_read(int dirfd, const char *path, int flags);

/*
 * userfile_look - stat(@path) for an input the user names that may be a
 * file or a directory (a CPUID dump), by userfile_open_read's rule: where
 * the invoking user is not the effective one, a child with their ids
 * looks at it first, and opens it when it is a regular file or a
 * directory (to list it), so that root tells them nothing of a path they
 * could not reach (not even whether it exists).  The file it then opens is
 * still checked by userfile_open_read.  Returns 0 with root's stat in
 * @st, -EACCES (the invoking user may not reach or read it; or is
 * unknown), or -errno (-ENOENT: missing, for them too).
 */
int userfile_look(const char *path, struct stat *st);

/*
 * userfile_read_denied - for the message of userfile_open_read's -EACCES:
 * "uid 4242 ($SUDO_UID), on whose behalf baretma runs as uid 0, cannot
 * read it: refused unread (name a file that user can read)", or, when the
 * invoking user is unknown, why (trust_invoking_user).  In @buf (@n
 * bytes; 400 hold the longest).
 */
void userfile_read_denied(char *buf, size_t n);

/*
 * userfile_read_all - all of the regular file open on @fd, read in blocks
 * (the size fstat gives and one byte more: two read() calls for a file
 * that does not change), NUL-terminated in *@buf (malloc'd; free() it),
 * its length in *@len.  @cap: the most bytes accepted, each input kind's
 * own named constant (doc/safety.md "Bad input"); a file larger is not read at
 * all, and one that grows past @cap while it is read is stopped after
 * @cap + 1 bytes.  *@size: the bytes read, or on -EFBIG the file's size
 * (at least @cap + 1).  Returns 0, -EFBIG (over @cap: userfile_cap_text
 * says it), -ENOMEM, -errno.
 */
int userfile_read_all(int fd, size_t cap, char **buf, size_t *len, uint64_t *size);

/*
 * userfile_cap_text - "@size bytes, over the cap of @cap bytes for @kind"
 * ("a simulator profile"), the words of every input over its cap, in @buf
 * (@n bytes): the caller quotes the file before them and adds the remedy.
 */
void userfile_cap_text(char *buf, size_t n, uint64_t size, size_t cap, const char *kind);

/*
 * userfile_dir_is_users - could @uid have created a file in the directory
 * @dir (its fstat)?  When it owns it, or when everyone may create files
 * there and the sticky bit keeps each its creator's (/tmp); group
 * membership is not looked at.  Also bench/output's atomic file writer.
 */
bool userfile_dir_is_users(const struct stat *dir, uid_t uid);

/* USERFILE_NOT_REGULAR - the words for userfile_open_read's -EINVAL in a
 * message: "<subject>: " USERFILE_NOT_REGULAR. */
#define USERFILE_NOT_REGULAR "not a regular file: refused unread"

#endif
