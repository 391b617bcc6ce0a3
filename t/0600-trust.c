/*
 * t/0600-trust - when may baretma trust its environment (cpu/trust.h)?
 * The expected answers come from sudo(8) (it sets SUDO_USER and SUDO_UID
 * for the command it runs) and from the uid/gid pairs set here with
 * setresuid/setresgid in a child (root only; CI runs as root).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu/trust.h"
#include "t/tap.h"

/* In a child: real ids @ruid/@rgid, effective 0; exit 0 when untrusted
 * with the reason @want. */
static int child_ids(uid_t ruid, gid_t rgid, const char *want)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		char why[160];

		if (setresgid(rgid, 0, 0) || setresuid(ruid, 0, 0))
			_exit(3);
		_exit(trust_env_untrusted(why, sizeof(why)) && !strcmp(why, want) ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

int main(void)
{
	char why[160];

	unsetenv("SUDO_USER");
	unsetenv("SUDO_UID");
	if (getuid() == geteuid() && getgid() == getegid()) {
		ok(!trust_env_untrusted(why, sizeof(why)), "own ids, no sudo: trusted");
		check_str(why, "", "no reason when trusted");
	} else {
		skip(2, "this process runs with real ids other than its effective ones");
	}
	setenv("SUDO_USER", "alice", 1);
	ok(trust_env_untrusted(why, sizeof(why)), "SUDO_USER set: untrusted");
	check_str(why, "running under sudo (SUDO_USER=alice)", "the reason names SUDO_USER");
	setenv("SUDO_USER", "", 1);
	setenv("SUDO_UID", "1000", 1);
	ok(trust_env_untrusted(why, sizeof(why)), "SUDO_UID set (SUDO_USER empty): untrusted");
	check_str(why, "running under sudo (SUDO_UID=1000)", "the reason names SUDO_UID");
	unsetenv("SUDO_USER");
	unsetenv("SUDO_UID");
	if (geteuid() == 0) {
		check_int(child_ids(1000, 0, "real uid 1000, effective uid 0"), ==, 0,
			  "setuid-like (real uid 1000, effective 0): untrusted");
		check_int(child_ids(0, 1000, "real gid 1000, effective gid 0"), ==, 0,
			  "setgid-like (real gid 1000, effective 0): untrusted");
	} else {
		skip(2, "not root: cannot make real and effective ids differ");
	}
	return done_testing();
}
