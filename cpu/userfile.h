/*
 * cpu/userfile.h - open a file that the real user named (an environment
 * variable: $BARETMA_MSR_TRACE, $BARETMA_OUTPUT) for a process that may
 * run as root, so that the name cannot make root write where that user
 * could not: an existing file must be a regular file with one link owned
 * by the real uid; a new one is created 0600 (O_EXCL: nothing planted
 * between the two opens is followed) and given to the real uid and gid; a
 * symbolic link, a FIFO or a device at the name is refused without being
 * opened (issue 9 of the project; README "Running as root safely").
 */
#ifndef BARETMA_USERFILE_H
#define BARETMA_USERFILE_H

/*
 * userfile_open_append - @path opened for appending (O_APPEND, O_CLOEXEC).
 * Returns the fd, or -errno; a refusal is -EPERM with *@why set ("a
 * symbolic link", "not a regular file", "owned by another user than the
 * real uid", "a file with other hard links"), else *@why is NULL.
 */
int userfile_open_append(const char *path, const char **why);

#endif
