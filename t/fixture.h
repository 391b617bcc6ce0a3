/*
 * t/fixture.h - fixtures shared by baretma's C tests (on top of t/tap.h,
 * which has put_file/get_file).
 *
 * Scratch directories and files: t_scratch(buf, "0300") makes a fresh
 * "$TMPDIR/baretma-0300.XXXXXX" (mkdtemp), t_rm_rf(path) removes a tree
 * (nftw, links not followed); t_in(dir, name) is "dir/name" (or
 * "dir/name" for a name starting with '/': a path under a fake root),
 * t_mkdir_p(path) makes a directory and its parents, t_put_tree(path, text)
 * writes a file after making its directories.  Texts: t_edit(text, from,
 * to) is @text with the first @from replaced.  State files (with
 * msr/access/msr.h included first): t_state_open(file, &rc) opens "state:FILE".
 *
 * The real CPUID dumps' known answers: t_index_load(&ix, $SHARED_CPUID)
 * reads INDEX.tsv, t_index_field(&ix, row, "dump_format") a row's column.
 * t_shared_dumps() is $SHARED_CPUID, the test skipped when it has no
 * dumps; t_data_dir() the directory of the hand-written fixtures ($T_DATA
 * or the source tree's t/data); t_tmp_file("0220-trip") a fresh empty file.
 * With cpu/cpu.h included first: t_cpuid_eq and t_cpuid_reg read one
 * CPUID record of a cpu_source, t_kind_typed finds a core kind of a
 * cpu_info; t_str_eq compares two strings either of which may be NULL.
 *
 * Sudo: t_sudo_as(uid, gid) sets SUDO_USER and, when not NULL, SUDO_UID and
 * SUDO_GID as sudo(8) does for the command it runs (NULL: unset), and
 * t_no_sudo() unsets all three.
 *
 * Environment: t_env_set(&save, NAME, VALUE or NULL) changes one variable
 * for a test and t_env_put_back(&save) puts back what was there; with
 * cpu/cpu_topo.h included first, t_hwloc_dump_env(saved, dir) sets the
 * environment hwloc needs for a CPUID dump directory (cpu_topo_dump_env),
 * as the command line does, and t_hwloc_dump_env_put_back(saved, n) undoes
 * it.  Tests own their process: they may write the environment, the
 * library may not.
 */
#ifndef BARETMA_T_FIXTURE_H
#define BARETMA_T_FIXTURE_H

#include <dirent.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "t/tap.h"

/* ------------------------------------------------ scratch directories */

/* t_scratch - a fresh directory "$TMPDIR/baretma-@tag.XXXXXX" ($TMPDIR, or
 * /tmp when unset or empty) in the PATH_MAX array @buf; exit 1 when it
 * cannot be made. */
#define t_scratch(buf, tag) t_scratch_((buf), sizeof(buf), (tag))
static inline char *t_scratch_(char *buf, size_t n, const char *tag)
{
	const char *t = getenv("TMPDIR");

	t_path_(buf, n, "%s/baretma-%s.XXXXXX", t && *t ? t : "/tmp", tag);
	if (!mkdtemp(buf)) {
		perror("mkdtemp");
		exit(1);
	}
	return buf;
}

static inline int t_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* t_rm_rf - remove @path and all below it, never following a link.
 * Returns 0, or -1 when something could not be removed. */
static inline int t_rm_rf(const char *path)
{
	return nftw(path, t_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* t_in - "@dir/@name", or "@dir@name" when @name starts with '/' (a path
 * under a fake root): one of 8 static buffers, reused in turn. */
static inline const char *t_in(const char *dir, const char *name)
{
	static char buf[8][PATH_MAX];
	static int i;

	i = (i + 1) % 8;
	t_path(buf[i], "%s%s%s", dir, *name == '/' ? "" : "/", name);
	return buf[i];
}

/* t_mkdir_p - make @path and its missing parents (0755). */
static inline void t_mkdir_p(const char *path)
{
	char buf[PATH_MAX];

	t_path(buf, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(buf, 0755);
		*p = '/';
	}
	mkdir(buf, 0755);
}

/* t_put_tree - put_file(@path, @text) after making @path's directories. */
static inline void t_put_tree(const char *path, const char *text)
{
	char dir[PATH_MAX], *slash;

	t_path(dir, "%s", path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		t_mkdir_p(dir);
	}
	put_file(path, text);
}

/* t_host_known - the host every whole document names (doc/json.md "Host",
 * bench/bench.h host_to_json) made known to a test: $BARETMA_SYSROOT set to
 * a fresh scratch directory (into @root, PATH_MAX bytes; t_rm_rf it at the
 * end) whose etc/machine-id holds @id, and this host's nodename as
 * uname(2) gives it into @name (@n bytes).  Call it before the first
 * document: the host is read once per process. */
static inline void t_host_known(char *root, const char *id, char *name, size_t n)
{
	struct utsname u;
	char line[64];

	t_scratch_(root, PATH_MAX, "host");
	snprintf(line, sizeof(line), "%s\n", id);
	t_put_tree(t_in(root, "/etc/machine-id"), line);
	setenv("BARETMA_SYSROOT", root, 1);
	if (uname(&u) < 0) {
		perror("uname");
		exit(1);
	}
	snprintf(name, n, "%s", u.nodename);
}

/* t_tmp_file - a fresh empty file "$TMPDIR/baretma-@tag.XXXXXX" ($TMPDIR,
 * or /tmp when unset or empty): a static buffer, overwritten by the next
 * call; exit 1 when it cannot be made. */
static inline char *t_tmp_file(const char *tag)
{
	static char path[PATH_MAX];
	const char *t = getenv("TMPDIR");
	int fd;

	t_path(path, "%s/baretma-%s.XXXXXX", t && *t ? t : "/tmp", tag);
	fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp");
		exit(1);
	}
	close(fd);
	return path;
}

/* t_data_dir - the hand-written fixtures: $T_DATA, or the source tree's
 * t/data. */
static inline const char *t_data_dir(void)
{
	const char *d = getenv("T_DATA");

	return d ? d : BARETMA_SRCDIR "/t/data";
}

/* t_shared_dumps - $SHARED_CPUID, the directory of the real CPUID dumps;
 * when it is unset or has no INDEX.tsv the whole test is skipped (TAP's
 * "1..0 # SKIP", exit 0). */
static inline const char *t_shared_dumps(void)
{
	const char *s = getenv("SHARED_CPUID");

	if (!s || access(t_in(s, "INDEX.tsv"), R_OK)) {
		printf("1..0 # SKIP no CPUID dumps ($SHARED_CPUID)\n");
		exit(0);
	}
	return s;
}

/* ---------------------------------------------------------------- texts */

/* t_str_eq - @a and @b the same string, or both NULL. */
static inline bool t_str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* t_edit - @text with the first @from replaced by @to: one of two static
 * buffers, reused in turn (an edit of an edit works).  A @from not in
 * @text is a broken fixture: exit 1. */
static inline const char *t_edit(const char *text, const char *from, const char *to)
{
	static char buf[2][16384];
	static int i;
	const char *p = strstr(text, from);

	i ^= 1;
	if (!p) {
		printf("# fixture edit: '%s' not found\n", from);
		exit(1);
	}
	snprintf(buf[i], sizeof(buf[i]), "%.*s%s%s", (int)(p - text), text, to, p + strlen(from));
	return buf[i];
}

#ifdef BARETMA_MSR_H
#include "msr/open/msr_open.h"

/* t_state_open - msr_open("state:@file"), ungated (msr_ungate: the test
 * writes through it as a program of its own would, not as a guarded run);
 * its result in *@rc, the handle (NULL on failure) returned. */
static inline struct msr_dev *t_state_open(const char *file, int *rc)
{
	char spec[PATH_MAX + 8];
	struct msr_dev *dev = NULL;

	t_path(spec, "state:%s", file);
	*rc = msr_open(spec, &dev);
	if (!*rc)
		*rc = msr_ungate(dev);
	return dev;
}
#endif

/* t_journals - how many files of @dir end in "journal" (msr/journal/journal.h's
 * names), -1 when @dir cannot be read. */
static inline int t_journals(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);

		n += len >= 7 && !strcmp(e->d_name + len - 7, "journal");
	}
	closedir(d);
	return n;
}

/* ------------------------------------------------ $SHARED_CPUID/INDEX.tsv */

#define T_INDEX_COLS 40
#define T_INDEX_ROWS 128

struct t_index_row {
	char *col[T_INDEX_COLS]; /* col[0]: the dump's path under $SHARED_CPUID */
	int ncol;
};

/* The known answers of the real CPUID dumps: one row per dump, the
 * header's column names in @hdr. */
struct t_index {
	char *text;
	struct t_index_row hdr, rows[T_INDEX_ROWS];
	int nrows;
};

/* Split @line at tabs in place, empty fields kept (the last column is
 * often empty). */
static inline int t_index_split(char *line, struct t_index_row *r)
{
	char *next;

	line[strcspn(line, "\r\n")] = '\0';
	r->ncol = 0;
	for (char *tok = line; tok && r->ncol < T_INDEX_COLS; tok = next) {
		next = strchr(tok, '\t');
		if (next)
			*next++ = '\0';
		r->col[r->ncol++] = tok;
	}
	return r->ncol;
}

/* t_index_load - @dir/INDEX.tsv into @ix (rows of more than 20 columns);
 * false when it cannot be read.  t_index_free() it. */
static inline bool t_index_load(struct t_index *ix, const char *dir)
{
	char *path = t_strf("%s/INDEX.tsv", dir), *line, *save = NULL;
	FILE *f = fopen(path, "r");
	size_t n = 0, got;

	free(path);
	memset(ix, 0, sizeof(*ix));
	if (!f)
		return false;
	for (size_t cap = 0;; n += got) {
		if (n + 1 >= cap) {
			char *grown = realloc(ix->text, cap = cap ? 2 * cap : 1 << 16);

			if (!grown) {
				printf("Bail out! out of memory\n");
				exit(1);
			}
			ix->text = grown;
		}
		if (!(got = fread(ix->text + n, 1, cap - n - 1, f)))
			break;
	}
	fclose(f);
	ix->text[n] = '\0';
	if ((line = strtok_r(ix->text, "\n", &save)))
		t_index_split(line, &ix->hdr);
	while ((line = strtok_r(NULL, "\n", &save)) && ix->nrows < T_INDEX_ROWS)
		if (t_index_split(line, &ix->rows[ix->nrows]) > 20)
			ix->nrows++;
	return true;
}

/* t_index_field - @r's value in the column named @name, NULL if none. */
static inline const char *t_index_field(const struct t_index *ix, const struct t_index_row *r,
					const char *name)
{
	for (int i = 0; i < ix->hdr.ncol && i < r->ncol; i++)
		if (!strcmp(ix->hdr.col[i], name))
			return r->col[i];
	return NULL;
}

static inline void t_index_free(struct t_index *ix)
{
	free(ix->text);
	ix->text = NULL;
}

/* ----------------------------------------------------------- environment */

struct t_env {
	const char *name; /* NULL: nothing to put back */
	char *old;        /* the value before, NULL when it was unset */
};

/* t_env_set - set $@name to @value (NULL: unset it), keeping the old value
 * in @e for t_env_put_back.  Failure is "Bail out!". */
static inline void t_env_set(struct t_env *e, const char *name, const char *value)
{
	const char *old = getenv(name);

	e->name = name;
	e->old = old ? strdup(old) : NULL;
	if ((old && !e->old) || (value ? setenv(name, value, 1) : unsetenv(name))) {
		printf("Bail out! cannot set %s\n", name);
		exit(1);
	}
}

/* t_env_put_back - $@name as it was before t_env_set. */
static inline void t_env_put_back(struct t_env *e)
{
	if (!e->name)
		return;
	if (e->old)
		setenv(e->name, e->old, 1);
	else
		unsetenv(e->name);
	free(e->old);
	e->name = NULL;
	e->old = NULL;
}

#ifdef BARETMA_CPU_H
/* ------------------------------------------------------------ CPUID */

/* t_cpuid_eq - @s has the record @leaf.@sub of logical CPU @cpu, and it is
 * EAX @a, EBX @b, ECX @c, EDX @d. */
static inline bool t_cpuid_eq(const struct cpu_source *s, unsigned cpu, uint32_t leaf, uint32_t sub,
			      uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	uint32_t r[4];

	return !cpu_source_cpuid(s, cpu, leaf, sub, r) && r[0] == a && r[1] == b && r[2] == c &&
	       r[3] == d;
}

/* t_cpuid_reg - register @i (0 EAX .. 3 EDX) of that record, 0xdeadbeef
 * when @s has none. */
static inline uint32_t t_cpuid_reg(const struct cpu_source *s, unsigned cpu, uint32_t leaf,
				   uint32_t sub, int i)
{
	uint32_t r[4] = { 0 };

	return cpu_source_cpuid(s, cpu, leaf, sub, r) ? 0xdeadbeefu : r[i];
}

/* t_kind_typed - the core kind of @ci with CPUID.1AH:EAX core type @type
 * and native model @native, NULL if none. */
static inline const struct cpu_kind *t_kind_typed(const struct cpu_info *ci, uint8_t type,
						  uint32_t native)
{
	for (unsigned i = 0; i < ci->nkinds; i++)
		if (ci->kinds[i].core_type == type && ci->kinds[i].native_model == native)
			return &ci->kinds[i];
	return NULL;
}
#endif

#ifdef BARETMA_CPU_TOPO_H
/* ---------------------------------------------------- hwloc environment */

/* t_hwloc_dump_env - the environment of cpu_topo_dump_env(@dir), set as
 * the command line sets it before cpu_machine_open; @saved has
 * CPU_TOPO_DUMP_ENV_MAX entries.  Returns the count for the put-back. */
static inline size_t t_hwloc_dump_env(struct t_env *saved, const char *dir)
{
	struct cpu_env_var vars[CPU_TOPO_DUMP_ENV_MAX];
	size_t n = cpu_topo_dump_env(dir, vars);

	for (size_t i = 0; i < n; i++)
		t_env_set(&saved[i], vars[i].name, vars[i].value);
	return n;
}

static inline void t_hwloc_dump_env_put_back(struct t_env *saved, size_t n)
{
	while (n-- > 0)
		t_env_put_back(&saved[n]);
}
#endif

/* ------------------------------------------ a Lunar Lake state file */

/*
 * Lunar Lake's CPU 0 as a state file (the simulator's register store):
 * its P-core has 10 general-purpose counters (IA32_PERFEVTSEL0-9 0x186-
 * 0x18f, IA32_PMC0-9 0xc1-0xca: CPUID leaf 0x23 gp 0x3ff in INDEX.tsv),
 * fixed counters 0-3, PERF_METRICS; IA32_PERF_CAPABILITIES bits 13, 15
 * and 19 (full-width writes, PERF_METRICS, RDPMC metrics-clear); the
 * counters stopped.  FC3 holds @fc3.  (The simulator's clean register file
 * has the same ten counters; a state file lets a test compare the
 * registers after a run with those before, byte for byte.)
 */
static inline void t_put_lnl_state(const char *path, unsigned long long fc3)
{
	char buf[2048];
	size_t o = 0;

	for (unsigned i = 0; i < 10; i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "0 0x%x 0x0\n0 0x%x 0x0\n",
				      0x186 + i, 0xc1 + i);
	snprintf(buf + o, sizeof(buf) - o, "0 0x309 0x0\n0 0x30a 0x0\n0 0x30b 0x0\n"
		 "0 0x30c 0x%llx\n0 0x329 0x0\n0 0x345 0x8a000\n0 0x38d 0x0\n0 0x38e 0x0\n"
		 "0 0x38f 0x7000003ff\n0 0x390 0x0\n0 0x391 0x0\n0 0x392 0x0\n", fc3);
	t_put_tree(path, buf);
}

/*
 * The simulated Lunar Lake of the library's metrics-clear tests (t/0993,
 * t/0995): the state file @state and t/data/sim-two-workloads.profile
 * (t/0454's and t/0992's too): no time-based counting (ghz 0: only the
 * simulator's accesses and its work advance the counters, exactly), and
 * two workloads whose shares the tests work by hand: the work's (retiring
 * 60, bad speculation 20, frontend 20, backend 0; heavy operations 40,
 * branch mispredicts 20, fetch latency 20, memory bound 0) and the
 * readings' own, 1000 cycles an access (retiring 20, bad speculation 20,
 * frontend 20, backend 40; heavy 0, mispredicts 20, fetch latency 20,
 * memory bound 40).  Returns the profile's text (free it).
 */
static inline char *t_lnl_two_workloads(const char *state)
{
	char path[PATH_MAX], text[2048];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/sim-two-workloads.profile", t_data_dir());
	f = fopen(path, "r");
	n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
	if (f)
		fclose(f);
	text[n] = '\0';
	return t_strf("state %s\n%s", state, text);
}

/* ---------------------------------------------------------------- sudo */

static inline void t_sudo_as(const char *uid, const char *gid)
{
	setenv("SUDO_USER", "t-sudo-user", 1);
	if (uid)
		setenv("SUDO_UID", uid, 1);
	else
		unsetenv("SUDO_UID");
	if (gid)
		setenv("SUDO_GID", gid, 1);
	else
		unsetenv("SUDO_GID");
}

static inline void t_no_sudo(void)
{
	unsetenv("SUDO_USER");
	unsetenv("SUDO_UID");
	unsetenv("SUDO_GID");
}

#endif
