/*
 * t/journal-fixture.h - what the run journal's tests share (t/0340 begin
 * to end, t/0341 killed runs and liveness, t/0342 the parser, t/0343 the
 * state directory): the registers of two CPUs in a state file, the
 * sysroot's settings files, the state directory and the journal files in
 * it, and /proc/PID/stat read here (not by the code under test).
 * Include after t/fixture.h.
 */
#ifndef BARETMA_T_JOURNAL_FIXTURE_H
#define BARETMA_T_JOURNAL_FIXTURE_H

#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "msr/journal/journal.h"
#include "msr/access/msr.h"
#include "msr/open/msr_open.h"
#include "t/fixture.h"

static char base[PATH_MAX], statedir[PATH_MAX], root[PATH_MAX], state[PATH_MAX], trace[PATH_MAX],
	spec[PATH_MAX + 8];

/*
 * Two CPUs of an Ice Lake-like part.  Values are arbitrary leftovers that
 * must come back; hex is lower case without leading zeros so that the
 * state backend's rewrite gives back these bytes.
 */
static const char state_text[] __attribute__((unused)) =
	"# baretma 0340 fixture\n"
	"0 0x30c 0x2f1a3c0\n"
	"0 0x329 0x1f3a5c47\n"
	"0 0x38d 0x333\n"
	"0 0x38e 0x0\n"
	"0 0x38f 0x70000000f\n"
	"0 0x390 0x0\n"
	"0 0x391 0x0\n"
	"1 0x30c 0x51\n"
	"1 0x329 0x80808080\n"
	"1 0x38d 0xb0\n"
	"1 0x38f 0x3\n";

/* Fake sysroot files: first lines as the kernel prints them. */
#define NMI_PATH "/proc/sys/kernel/nmi_watchdog"
#define RDPMC_PATH "/sys/bus/event_source/devices/cpu/rdpmc"
static const char nmi_text[] __attribute__((unused)) = "1\n";
static const char rdpmc_text[] __attribute__((unused)) = "1\n";

/* Fresh registers, sysroot files, empty trace and state dir. */
static inline void fixtures(void)
{
	t_rm_rf(statedir);
	put_file(state, state_text);
	put_file(trace, "");
	t_put_tree(t_in(root, NMI_PATH), nmi_text);
	t_put_tree(t_in(root, RDPMC_PATH), rdpmc_text);
}

static inline struct msr_dev *open_dev(void)
{
	struct msr_dev *dev = NULL;

	if (msr_open(spec, &dev)) {
		printf("# msr_open: %s\n", msr_last_error());
		exit(1);
	}
	/* the journal's store and restore on their own; its gate: t/0311 */
	msr_ungate(dev);
	return dev;
}

/* Names in the state directory, sorted, space-separated ("" when none). */
static inline const char *dir_names(void)
{
	static char out[1024];
	struct dirent **list;
	int n = scandir(statedir, &list, NULL, alphasort);

	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (strcmp(list[i]->d_name, ".") && strcmp(list[i]->d_name, ".."))
			snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s",
				 *out ? " " : "", list[i]->d_name);
		free(list[i]);
	}
	if (n >= 0)
		free(list);
	return out;
}

static inline const char *journal_name(pid_t pid)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "run-%ld.journal", (long)pid);
	return buf;
}

static inline const char *journal_file(pid_t pid)
{
	static char buf[PATH_MAX];

	t_path(buf, "%s/run-%ld.journal", statedir, (long)pid);
	return buf;
}

static inline bool exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* Field 22 of /proc/PID/stat, read here (proc(5)): after the last ')'. */
static inline unsigned long long starttime_of(pid_t pid)
{
	char path[64], buf[2048];
	const char *p;
	unsigned long long v = 0;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	/* fields 3..21 are 19 tokens to skip */
	if (p && sscanf(p + 2, "%*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
			"%*s %*s %*s %*s %*s %*s %llu", &v) != 1)
		v = 0;
	return v;
}

static inline bool is_zombie(pid_t pid)
{
	char path[64];
	const char *p;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	p = strrchr(get_file(path), ')');
	return p && p[1] == ' ' && p[2] == 'Z';
}

/* Write a file by hand into the state dir, mode 0600. */
static inline void put_journal(const char *name, const char *text)
{
	const char *path = t_in(statedir, name);

	put_file(path, text);
	chmod(path, 0600);
}

/* t_journal_fixture - the scratch directory "@tag" with the state
 * directory ($BARETMA_STATE_DIR), the sysroot ($BARETMA_SYSROOT), the
 * registers' state file (@spec) and the trace ($BARETMA_MSR_TRACE). */
static inline void t_journal_fixture(const char *tag)
{
	t_scratch(base, tag);
	t_path(statedir, "%s/state", base);
	t_path(root, "%s/root", base);
	t_path(state, "%s/msr.state", base);
	t_path(trace, "%s/trace", base);
	t_path(spec, "state:%s", state);
	setenv("BARETMA_STATE_DIR", statedir, 1);
	setenv("BARETMA_SYSROOT", root, 1);
	setenv("BARETMA_MSR_TRACE", trace, 1);
}

#endif
