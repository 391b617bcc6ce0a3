/*
 * cpu/sysfs.c - /sys and /proc paths under one overridable root
 * ($BARETMA_SYSROOT; hwloc's HWLOC_FSROOT, perf's SYSFS_PATH), so tests can
 * run against a fake tree.  Not from an untrusted environment (cpu/trust.h):
 * the root also feeds the lockdown and msr.allow_writes checks and names the
 * settings files root writes, so another user's root is ignored and the real
 * / is read.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cpu/cpu.h"
#include "cpu/trust.h"

bool cpu_sysfs_root_ignored(char *why, size_t n)
{
	const char *root = getenv("BARETMA_SYSROOT");

	if (why && n)
		why[0] = '\0';
	return root && *root && trust_env_untrusted(why, n);
}

/* $BARETMA_SYSROOT as honoured: NULL when unset, empty or ignored. */
static const char *root_env(void)
{
	const char *root = getenv("BARETMA_SYSROOT");

	return root && *root && !cpu_sysfs_root_ignored(NULL, 0) ? root : NULL;
}

int cpu_sysfs_root_check(void)
{
	const char *root = root_env();
	struct stat st;

	if (!root)
		return 0;
	if (root[0] != '/')
		return -EINVAL;
	if (stat(root, &st) < 0)
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

/* The root without trailing '/' ("/root/" + "/sys/..." would give "//"). */
static const char *root_of(size_t *len)
{
	const char *root = root_env();

	if (!root)
		root = "";
	*len = strlen(root);
	while (*len && root[*len - 1] == '/')
		(*len)--;
	return root;
}

int cpu_sysfs_resolve(char *buf, size_t n, const char *path)
{
	size_t len;
	const char *root = root_of(&len);

	if (!buf || n == 0)
		return -EINVAL;
	if ((size_t)snprintf(buf, n, "%.*s%s", (int)len, root, path) >= n) {
		buf[0] = '\0';
		return -ENAMETOOLONG;
	}
	return 0;
}

char *cpu_sysfs_path(char *buf, size_t n, const char *path)
{
	size_t len;
	const char *root = root_of(&len);

	if (!buf || n == 0)
		return buf;
	if ((size_t)snprintf(buf, n, "%.*s%s", (int)len, root, path) >= n && n > 3)
		memcpy(buf + n - 4, "...", 4);
	return buf;
}

int cpu_sysfs_read_line(const char *path, char *buf, size_t n)
{
	char full[PATH_MAX];
	FILE *f;
	int err;

	if (n == 0)
		return -EINVAL;
	err = cpu_sysfs_resolve(full, sizeof(full), path);
	if (err)
		return err;
	f = fopen(full, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)n, f)) {
		err = ferror(f) ? -EIO : -ENODATA;
		buf[0] = '\0';
		goto out;
	}
	buf[strcspn(buf, "\n")] = '\0';
out:
	fclose(f);
	return err;
}
