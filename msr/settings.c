/*
 * msr/settings.c - system settings changed with consent, journaled first
 * (msr/settings.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "cpu/knobs.h"
#include "msr/settings.h"
#include "sigsafe.h"

struct setting_def {
	const char *name;
	const char *files[SETTING_MAX_FILES]; /* relative to the sysroot; NULL ends */
	const char *values[4];                /* accepted by setting_change; NULL ends */
	const char *values_text;              /* the same, for messages */
};

static const struct setting_def defs[] = {
	[SETTING_RDPMC] = {
		"rdpmc",
		{ CPU_KNOB_RDPMC_CPU, CPU_KNOB_RDPMC_CPU_CORE, CPU_KNOB_RDPMC_CPU_ATOM },
		{ "0", "1", "2", NULL },
		"0, 1 or 2",
	},
	[SETTING_NMI_WATCHDOG] = {
		"nmi_watchdog",
		{ CPU_KNOB_NMI_WATCHDOG, NULL, NULL },
		{ "0", "1", NULL, NULL },
		"0 or 1",
	},
	[SETTING_MSR_ALLOW_WRITES] = {
		"msr_allow_writes",
		{ CPU_KNOB_MSR_ALLOW_WRITES, NULL, NULL },
		{ "on", "off", "default", NULL },
		"on, off or default",
	},
};
#define NDEFS (sizeof(defs) / sizeof(defs[0]))

static const struct setting_def *def_of(enum setting s)
{
	return (unsigned)s < NDEFS ? &defs[s] : NULL;
}

const char *setting_name(enum setting s)
{
	const struct setting_def *d = def_of(s);

	return d ? d->name : "?";
}

int setting_of_file(const char *path, enum setting *s)
{
	for (size_t i = 0; path && i < NDEFS; i++)
		for (int f = 0; f < SETTING_MAX_FILES && defs[i].files[f]; f++)
			if (!strcmp(defs[i].files[f], path)) {
				*s = (enum setting)i;
				return 0;
			}
	return -ENOENT;
}

const char *setting_values_text(enum setting s)
{
	const struct setting_def *d = def_of(s);

	return d ? d->values_text : "";
}

static bool value_ok(const struct setting_def *d, const char *value)
{
	for (int i = 0; value && d->values[i]; i++)
		if (strcmp(d->values[i], value) == 0)
			return true;
	return false;
}

bool setting_value_ok(enum setting s, const char *value)
{
	const struct setting_def *d = def_of(s);

	return d && value_ok(d, value);
}

static void put_where(char *where, size_t wlen, const char *path)
{
	if (where && wlen)
		cpu_sysfs_path(where, wlen, path);
}

int setting_files(enum setting s, const char *files[SETTING_MAX_FILES])
{
	const struct setting_def *d = def_of(s);
	char full[JOURNAL_PATH_MAX];
	struct stat st;
	int n = 0;

	if (!d)
		return -EINVAL;
	for (int i = 0; i < SETTING_MAX_FILES && d->files[i]; i++) {
		int rc = cpu_sysfs_resolve(full, sizeof(full), d->files[i]);

		if (rc)
			return rc;
		if (stat(full, &st) == 0)
			files[n++] = d->files[i];
		else if (errno != ENOENT && errno != ENOTDIR)
			return -errno;
	}
	return n;
}

int setting_read(enum setting s, char *value, size_t n, char *where, size_t wlen)
{
	const char *files[SETTING_MAX_FILES];
	int cnt = setting_files(s, files);

	if (cnt == 0) {
		put_where(where, wlen, defs[s].files[0]);
		return -ENOENT;
	}
	if (cnt < 0) {
		if (def_of(s))
			put_where(where, wlen, defs[s].files[0]);
		return cnt;
	}
	put_where(where, wlen, files[0]);
	return cpu_sysfs_read_line(files[0], value, n);
}

int setting_write_path(const char *full, const char *value)
{
	char buf[JOURNAL_SETTING_MAX + 1];
	size_t len = strlen(value);
	int fd, rc;

	if (len >= JOURNAL_SETTING_MAX)
		return -ENAMETOOLONG;
	memcpy(buf, value, len);
	buf[len++] = '\n';
	do
		fd = open(full, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return -errno;
	rc = sigsafe_write_all(fd, buf, len);
	if (close(fd) < 0 && !rc)
		rc = -errno;
	return rc;
}

/* One file: read, journal the old value, then write (nothing when equal). */
static int change_file(struct journal *j, const char *path, const char *value,
		       char *where, size_t wlen)
{
	char cur[JOURNAL_SETTING_MAX], full[JOURNAL_PATH_MAX];
	int rc;

	put_where(where, wlen, path);
	rc = cpu_sysfs_read_line(path, cur, sizeof(cur));
	if (rc)
		return rc;
	if (strlen(cur) + 1 >= sizeof(cur))
		return -EOVERFLOW; /* maybe cut: it could not be put back as it was */
	if (strcmp(cur, value) == 0)
		return 0;
	rc = cpu_sysfs_resolve(full, sizeof(full), path);
	if (rc)
		return rc;
	rc = journal_save_setting(j, path, cur);
	if (rc)
		return rc;
	return setting_write_path(full, value);
}

int setting_change(struct journal *j, enum setting s, const char *value,
		   char *where, size_t wlen)
{
	const struct setting_def *d = def_of(s);
	const char *files[SETTING_MAX_FILES];
	int n, rc = 0;

	if (!d || !value_ok(d, value))
		return -EINVAL;
	n = setting_files(s, files);
	if (n <= 0) {
		put_where(where, wlen, d->files[0]);
		return n ? n : -ENOENT;
	}
	for (int i = 0; i < n && !rc; i++)
		rc = change_file(j, files[i], value, where, wlen);
	return n < 0 ? n : rc;
}
