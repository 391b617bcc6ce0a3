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
 * honours a variable decides what to do with it (README "Running as root
 * safely").  Reading only; no side effects.
 */
#ifndef BARETMA_TRUST_H
#define BARETMA_TRUST_H

#include <stdbool.h>
#include <stddef.h>

/*
 * trust_env_untrusted - true when the environment may come from another
 * user: getuid() != geteuid(), getgid() != getegid(), or $SUDO_USER or
 * $SUDO_UID set and not empty.  When @why is not NULL it receives the
 * first reason ("running under sudo (SUDO_USER=alice)", "real uid 1000,
 * effective uid 0"), or "" when trusted.
 */
bool trust_env_untrusted(char *why, size_t n);

#endif
