/* cpu/trust.c - may this process trust its environment (cpu/trust.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/escape.h"
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

/* A uid or gid as sudo(8) writes it (decimal %u): 0 and the value, or
 * -EINVAL. */
static int parse_id(const char *s, uint32_t *v)
{
	uint64_t x = 0;

	if (!s || !*s || (s[0] == '0' && s[1]))
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		x = x * 10 + (uint64_t)(*s - '0');
		if (x >= UINT32_MAX) /* (uid_t)-1 is no user */
			return -EINVAL;
	}
	*v = (uint32_t)x;
	return 0;
}

int trust_invoking_user(uid_t *uid, gid_t *gid, char *who, size_t n)
{
	const char *sudo_uid = set("SUDO_UID");
	char dummy[1];
	uint32_t u, g;

	if (!who || !n) {
		who = dummy;
		n = sizeof(dummy);
	}
	*uid = getuid();
	*gid = getgid();
	if (getuid() != geteuid() || getgid() != getegid()) {
		snprintf(who, n, "uid %u (the real uid)", (unsigned)*uid);
		return 0;
	}
	if (!trust_env_untrusted(NULL, 0)) {
		snprintf(who, n, "uid %u", (unsigned)*uid);
		return 0;
	}
	if (parse_id(sudo_uid, &u)) {
		char raw[64];

		if (sudo_uid) /* the environment's: escaped (cpu/escape.h) */
			snprintf(raw, sizeof(raw), "SUDO_UID '%.32s%s' is not a user id", sudo_uid,
				 strlen(sudo_uid) > 32 ? "..." : "");
		else
			snprintf(raw, sizeof(raw), "SUDO_UID is not set");
		esc_str(who, n, raw);
		return -EINVAL;
	}
	*uid = (uid_t)u;
	*gid = parse_id(set("SUDO_GID"), &g) ? (gid_t)-1 : (gid_t)g;
	snprintf(who, n, "uid %u ($SUDO_UID)", (unsigned)u);
	return 0;
}
