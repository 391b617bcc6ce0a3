/*
 * t/0221-cpuid-dump-formats.c - which CPUID dump format reads a dump (the
 * format table of cpu/cpu_dump.c): every real dump in $SHARED_CPUID is
 * read as the format its INDEX.tsv row names (column dump_format, written
 * by whoever gathered the dumps: libcpuid's tests/ hold both libcpuid raw
 * files and AIDA64 ones under the same ".test" name, InstLatx64's both
 * AIDA64 layouts); and the format follows the content, never the name: a
 * dump copied under another format's name (".test", ".txt", "pu0", a
 * directory named "x.txt") is read as what it holds, and a report bundle
 * wrapping an AIDA64 text is a bundle.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "cpu/cpu_dump.h"
#include "t/fixture.h"

static char dir[PATH_MAX];

/* The format cpu_dump_load() reads @path as, or "error: ..." */
static const char *format_of(const char *path)
{
	static char buf[1200];
	char *err = NULL;
	struct cpu_dump *d = cpu_dump_load(path, &err);

	if (!d) {
		snprintf(buf, sizeof(buf), "error: %s", err ? err : "(none)");
		free(err);
		return buf;
	}
	snprintf(buf, sizeof(buf), "%s", cpu_dump_format(d));
	cpu_dump_free(d);
	return buf;
}

/* A copy of file @from at @to. */
static void copy_file(const char *from, const char *to)
{
	char cmd[3 * PATH_MAX];

	t_path(cmd, "cp -R '%s' '%s'", from, to);
	if (system(cmd)) {
		printf("Bail out! %s failed\n", cmd);
		exit(1);
	}
}

/* Each row: the format INDEX.tsv names.  The first row of each format is
 * kept in @first for the renaming checks. */
static void test_index(const char *shared, char first[][PATH_MAX], const char *const *names,
		       int nnames)
{
	struct t_index ix;
	int matched = 0, seen[8] = { 0 };

	if (!ok(t_index_load(&ix, shared), "INDEX.tsv reads"))
		return;
	ok(ix.nrows > 40, "INDEX.tsv has %d rows", ix.nrows);
	for (int i = 0; i < ix.nrows; i++) {
		const struct t_index_row *r = &ix.rows[i];
		const char *want = t_index_field(&ix, r, "dump_format"), *got;
		char path[PATH_MAX];

		t_path(path, "%s/%s", shared, r->col[0]);
		got = format_of(path);
		if (!want || strcmp(got, want)) {
			printf("# %s: read as '%s', INDEX.tsv says '%s'\n", r->col[0], got,
			       want ? want : "(no column)");
			continue;
		}
		matched++;
		for (int k = 0; k < nnames; k++)
			if (!strcmp(want, names[k]) && !seen[k]++)
				t_path(first[k], "%s", path);
	}
	ok(matched == ix.nrows, "every dump is read as the format INDEX.tsv names (%d of %d)",
	   matched, ix.nrows);
	for (int k = 0; k < nnames; k++)
		ok(seen[k] > 0, "INDEX.tsv has %d %s dumps", seen[k], names[k]);
	t_index_free(&ix);
}

/* The dump @path of format @want, copied under names that belong to
 * other formats, is still @want. */
static void test_renamed(const char *path, const char *want)
{
	static const char *const names[] = { "x.test", "x.txt", "pu0", "hwloc-cpuid-info", "x" };
	char to[PATH_MAX], sub[PATH_MAX];
	const char *got;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		t_path(sub, "%s/%s-%zu", dir, want, i);
		if (mkdir(sub, 0700)) {
			printf("Bail out! mkdir %s\n", sub);
			exit(1);
		}
		t_path(to, "%s/%s", sub, names[i]);
		copy_file(path, to);
		got = format_of(to);
		if (!ok(!strcmp(got, want), "a %s dump named '%s' is read as %s", want, names[i], want))
			printf("#   got '%s'\n", got);
	}
}

/* A report bundle {"schema": "baretma-bundle/1", "cpuid_dump": TEXT}
 * wrapping the synthetic AIDA64 dump: the bundle's format, not AIDA64's. */
static void test_bundle(void)
{
	char src[PATH_MAX], to[PATH_MAX];
	const char *text;
	FILE *f;

	t_path(src, "%s/cpuid-aida64-synthetic.txt", t_data_dir());
	text = get_file(src);
	check_str(format_of(src), "aida64", "the synthetic AIDA64 dump is AIDA64");
	t_path(to, "%s/bundle.test", dir);
	f = fopen(to, "w");
	if (!f) {
		printf("Bail out! %s\n", to);
		exit(1);
	}
	fputs("{\"schema\": \"baretma-bundle/1\", \"cpuid_dump\": \"", f);
	for (const char *c = text; *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(f, "\\%c", *c);
		else if ((unsigned char)*c < 0x20)
			fprintf(f, "\\u%04x", (unsigned char)*c);
		else
			fputc(*c, f);
	}
	fputs("\"}\n", f);
	fclose(f);
	check_str(format_of(to), "baretma-bundle/1", "a report bundle named '.test' is a bundle");
}

int main(void)
{
	static const char *const names[] = { "libcpuid", "aida64", "aida64-affmask", "hwloc" };
	static char first[4][PATH_MAX];
	const char *shared = getenv("SHARED_CPUID");
	struct stat st;

	t_scratch(dir, "0221");
	test_bundle();
	if (!shared || stat(shared, &st) || !S_ISDIR(st.st_mode)) {
		skip(1, "no $SHARED_CPUID directory: real dumps not checked");
	} else {
		test_index(shared, first, names, 4);
		for (int k = 0; k < 4; k++)
			if (first[k][0])
				test_renamed(first[k], names[k]);
	}
	if (t_rm_rf(dir))
		printf("# could not remove %s\n", dir);
	return done_testing();
}
