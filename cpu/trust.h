/*
 * cpu/trust.h - may this process trust its environment?
 *
 * baretma runs as root and writes registers and kernel settings.  Its
 * environment variables (BARETMA_*, HWLOC_*) choose files it opens, reads
 * and writes.  When they were set by the same user whose rights the
 * process has (root running baretma in a root shell), they are that
 * user's own choice.  When they may come from another user - the process
 * runs with rights its real user does not have (setuid/setgid: real and
 * effective ids differ), or under sudo (SUDO_USER, SUDO_UID are set by
 * sudo(8) for the command it runs; with `sudo -E` or env_keep rules the
 * invoking user's variables reach root) - they are not, and the code that
 * honours a variable decides what to do with it (doc/safety.md "Running as root
 * safely").  Reading only; no side effects.
 */
#ifndef BARETMA_TRUST_H
#define BARETMA_TRUST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * trust_env_untrusted - true when the environment may come from another
 * user: getuid() != geteuid(), getgid() != getegid(), or $SUDO_USER or
 * $SUDO_UID set and not empty.  When @why is not NULL it receives the
 * first reason ("running under sudo (SUDO_USER=alice)", "real uid 1000,
 * effective uid 0"), or "" when trusted.
 */
bool trust_env_untrusted(char *why, size_t n);

/*
 * trust_invoking_user - the user on whose behalf this process runs: whose
 * own files a name taken from the environment may reach, and who gets the
 * files baretma creates there (cpu/userfile.h).
 *   - real ids other than the effective ones (setuid, setgid): the real
 *     uid and gid; $SUDO_UID is not looked at (the environment is the
 *     caller's own choice then);
 *   - else under sudo ($SUDO_USER or $SUDO_UID set and not empty):
 *     $SUDO_UID and $SUDO_GID, which sudo(8) sets for the command it runs
 *     after applying -E and env_keep (so they are sudo's, not the
 *     invoking user's).  root running sudo gets SUDO_UID=0: root's files
 *     are then that user's own, rightly;
 *   - else the real uid and gid.
 * A uid or gid from sudo must be written as sudo writes it: decimal, no
 * sign, no leading zero, below 4294967295 ((uid_t)-1 means "no user" to
 * chown(2)).  A bad $SUDO_GID leaves *@gid (gid_t)-1: the group of a new
 * file is then left as created (its mode is 0600 anyway).
 * @who (may be NULL; @n bytes): "uid 1000 ($SUDO_UID)", "uid 1000 (the
 * real uid)" or "uid 0"; on -EINVAL, what is wrong with $SUDO_UID.
 * Returns 0, or -EINVAL when under sudo $SUDO_UID is missing or not a
 * user id: the invoking user is unknown, and a file named by the
 * environment must be refused.
 */
int trust_invoking_user(uid_t *uid, gid_t *gid, char *who, size_t n);

#endif
