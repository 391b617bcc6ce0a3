/*
 * cpu/sysfs.c - /sys and /proc paths under one overridable root
 * ($BARETMA_SYSROOT; hwloc's HWLOC_FSROOT, perf's SYSFS_PATH), so tests can
 * run against a fake tree.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cpu/cpu.h"

int cpu_sysfs_root_check(void)
{
	const char *root = getenv("BARETMA_SYSROOT");
	struct stat st;

	if (!root || !*root)
		return 0;
	if (stat(root, &st) < 0)
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

char *cpu_sysfs_path(char *buf, size_t n, const char *path)
{
	const char *root = getenv("BARETMA_SYSROOT");
	size_t len;

	if (!root)
		root = "";
	/* "/root/" + "/sys/..." would give "//": drop the root's trailing '/'. */
	len = strlen(root);
	while (len && root[len - 1] == '/')
		len--;
	snprintf(buf, n, "%.*s%s", (int)len, root, path);
	return buf;
}

int cpu_sysfs_read_line(const char *path, char *buf, size_t n)
{
	char full[4096];
	FILE *f;
	int err = 0;

	if (n == 0)
		return -EINVAL;
	cpu_sysfs_path(full, sizeof(full), path);
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
