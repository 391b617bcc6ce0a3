/* cpu/trust.c - may this process trust its environment (cpu/trust.h). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cpu/trust.h"

static const char *set(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

bool trust_env_untrusted(char *why, size_t n)
{
	const char *sudo_user = set("SUDO_USER"), *sudo_uid = set("SUDO_UID");
	char buf[160];

	buf[0] = '\0';
	if (getuid() != geteuid())
		snprintf(buf, sizeof(buf), "real uid %u, effective uid %u", (unsigned)getuid(),
			 (unsigned)geteuid());
	else if (getgid() != getegid())
		snprintf(buf, sizeof(buf), "real gid %u, effective gid %u", (unsigned)getgid(),
			 (unsigned)getegid());
	else if (sudo_user || sudo_uid)
		snprintf(buf, sizeof(buf), "running under sudo (%s=%.64s)",
			 sudo_user ? "SUDO_USER" : "SUDO_UID", sudo_user ? sudo_user : sudo_uid);
	if (why && n)
		snprintf(why, n, "%s", buf);
	return buf[0] != '\0';
}
