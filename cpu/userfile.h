/*
 * cpu/userfile.h - open a file that the user named through the environment
 * ($BARETMA_MSR_TRACE, $BARETMA_OUTPUT) for a process that may run as
 * root, so that the name cannot make root write where that user could not
 * (project issues 9 and "Left exactly as found", point 4; README "Running
 * as root safely").  The user is the invoking one (cpu/trust.h
 * trust_invoking_user): the real uid, or under sudo $SUDO_UID, not root.
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
#include <sys/types.h>

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
 * reading when it is a regular file, never blocking or acting on anything
 * else: an input the user names (a CPUID dump and its pu files, a
 * simulator profile, a state file, a calibration).  A FIFO given there
 * made the reader wait forever for a writer (the open, or the read that
 * followed), and merely opening a device can act (a tape rewinds, a
 * watchdog arms).  So the name is looked at first (fstatat; with
 * O_NOFOLLOW in @flags a symbolic link is not followed, and refused:
 * -ELOOP) and anything but a regular file is refused unopened; then it is
 * opened O_RDONLY|O_NONBLOCK|O_NOCTTY|O_CLOEXEC|@flags and checked again
 * on the descriptor (something swapped in between is refused too, and
 * closed).  O_NONBLOCK does nothing to a regular file's reads.
 * Returns the fd, -EINVAL (not a regular file: a FIFO, a device, a
 * socket, a directory), -ELOOP (a link, with O_NOFOLLOW) or -errno.
 */
int userfile_open_read(int dirfd, const char *path, int flags);

/*
 * userfile_dir_is_users - could @uid have created a file in the directory
 * @dir (its fstat)?  When it owns it, or when everyone may create files
 * there and the sticky bit keeps each its creator's (/tmp); group
 * membership is not looked at.  Also bench/output's atomic file writer.
 */
struct stat;
bool userfile_dir_is_users(const struct stat *dir, uid_t uid);

/* USERFILE_NOT_REGULAR - the words for userfile_open_read's -EINVAL in a
 * message: "<subject>: " USERFILE_NOT_REGULAR. */
#define USERFILE_NOT_REGULAR "not a regular file: refused unread"

#endif
