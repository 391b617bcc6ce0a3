/*
 * msr/guard/settings.c - system settings changed with consent, journaled first
 * (msr/guard/settings.h); the table of files and values is below the journal
 * (msr/journal/journal_rules.c).
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "cpu/knobs.h"
#include "msr/guard/settings.h"

static void put_where(char *where, size_t wlen, const char *path)
{
	if (where && wlen)
		cpu_sysfs_path(where, wlen, path);
}

int setting_files(enum setting s, const char *files[SETTING_MAX_FILES])
{
	char full[JOURNAL_PATH_MAX];
	struct stat st;
	const char *f;
	int n = 0;

	if (!setting_file(s, 0))
		return -EINVAL;
	for (int i = 0; (f = setting_file(s, i)); i++) {
		int rc = cpu_sysfs_resolve(full, sizeof(full), f);

		if (rc)
			return rc;
		if (stat(full, &st) == 0)
			files[n++] = f;
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
		put_where(where, wlen, setting_file(s, 0));
		return -ENOENT;
	}
	if (cnt < 0) {
		if (setting_file(s, 0))
			put_where(where, wlen, setting_file(s, 0));
		return cnt;
	}
	put_where(where, wlen, files[0]);
	return cpu_sysfs_read_line(files[0], value, n);
}

/* One file: read, journal the old value, then write (nothing when equal). */
static int change_file(struct journal *j, const char *path, const char *value,
		       char *where, size_t wlen, bool *in_journal)
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
	if (rc) {
		*in_journal = true;
		return rc;
	}
	return setting_write_path(full, value);
}

int setting_change(struct journal *j, enum setting s, const char *value,
		   char *where, size_t wlen, bool *in_journal)
{
	const char *files[SETTING_MAX_FILES];
	bool journal_err = false;
	int n, rc = 0;

	if (!in_journal)
		in_journal = &journal_err;
	*in_journal = false;

	if (!setting_value_ok(s, value))
		return -EINVAL;
	n = setting_files(s, files);
	if (n <= 0) {
		put_where(where, wlen, setting_file(s, 0));
		return n ? n : -ENOENT;
	}
	for (int i = 0; i < n && !rc; i++)
		rc = change_file(j, files[i], value, where, wlen, in_journal);
	return n < 0 ? n : rc;
}
