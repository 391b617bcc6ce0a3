/*
 * t/1171-report-group.c - `baretma report`'s library end to end on a fleet
 * of documents written here by hand (bench/study/report.h): the hosts
 * grouped by CPU in (family, model, stepping) order, a setting that differs
 * with the hosts on each side, a check's PASS / FAIL / SKIP counts with the
 * failing host's message, a calibration figure's and a Top-down share's
 * statistics and outliers, a group of two not judged, two files of one
 * kind claiming one host both skipped, two hosts of one hostname told apart
 * by their machine-ids, and the exit status; documents given from memory
 * (report_add_data, the seam of fuzz/fuzz_report.c).  The documents carry
 * only what doc/json.md says each schema has; every expected number is
 * worked by hand in the comments (doc/report.md "The robust limit").
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "bench/study/report.h"
#include "t/fixture.h"

static char dir[PATH_MAX];

/* The pieces of a document, each in a buffer of its own (used once per
 * document written). */
static const char *host(const char *name, const char *id)
{
	static char b[160];

	/* the machine-id's first 8 digits are @id's: they tell twins apart */
	snprintf(b, sizeof(b), "\"host\": {\"hostname\": \"%s\", \"machine_id\": "
		 "\"%08lx000000000000000000000000\"}", name, strtoul(id, NULL, 16));
	return b;
}

static const char *cpu(int model, int stepping)
{
	static char b[160];

	snprintf(b, sizeof(b), "{\"vendor\": \"GenuineIntel\", \"family\": 6, \"model\": %d, "
		 "\"stepping\": %d, \"brand\": \"Test CPU %d-%d\"}", model, stepping, model,
		 stepping);
	return b;
}

static const char *env(const char *microcode)
{
	static char b[160];

	snprintf(b, sizeof(b), "{\"microcode\": \"%s\", \"kernel\": \"6.1.0\", "
		 "\"smt_active\": true, \"nmi_watchdog\": 0, \"governor\": null}", microcode);
	return b;
}

/* put_file of @text (t_strf's), which is freed. */
static void put(const char *file, char *text)
{
	put_file(t_in(dir, file), text);
	free(text);
}

/* A calibration file: one measured backend, msr, its bracket's median. */
static void calibration(const char *file, const char *name, const char *id, int model,
			int stepping, const char *microcode, double ticks)
{
	put(file, t_strf("{\"schema\": \"baretma-calibration/3\", %s, \"cpu\": %s, "
		"\"environment\": %s, \"backends\": [{\"backend\": \"msr\", \"measured\": true, "
		"\"bracket\": {\"tsc_ticks\": {\"median\": %g}}}, {\"backend\": \"perf\", "
		"\"measured\": false, \"reason\": \"no perf\"}]}", host(name, id),
		cpu(model, stepping), env(microcode), ticks));
}

static void bench(const char *file, const char *name, const char *id, double retiring)
{
	put(file, t_strf("{\"schema\": \"baretma-bench/2\", %s, \"cpu\": "
		"{\"identity\": %s}, \"environment\": %s, \"kernels\": [{\"name\": "
		"\"retire-light\", \"tma_retiring\": {\"median\": %g, \"bound_pp\": 0.78}}]}",
		host(name, id), cpu(143, 8), env(strcmp(name, "a5") ? "0x2b000590" : "0x2b000603"),
		retiring));
}

static void validate(const char *file, const char *name, const char *id, bool fail)
{
	put(file, t_strf("{\"schema\": \"baretma-validate/1\", %s, \"summary\": "
		"{\"pass\": 1, \"fail\": 0, \"skip\": 1}, \"checks\": [{\"cpu\": 0, \"check\": "
		"\"level1_sum\", \"status\": \"%s\", \"measured\": \"%s\", \"expected\": "
		"\"255 +/- 3\", \"source\": \"topdown.txt\", \"reason\": %s}, {\"cpu\": 0, "
		"\"check\": \"rdpmc_matches_msr\", \"status\": \"SKIP\", \"measured\": null, "
		"\"expected\": null, \"source\": \"x\", \"reason\": \"a CPUID dump\"}]}",
		host(name, id), fail ? "FAIL" : "PASS", fail ? "267" : "255",
		fail ? "\"the bytes do not sum to 255\"" : "null"));
}

static const struct report_group *group_of(const struct report *r, int model, int stepping)
{
	for (unsigned i = 0; i < r->ngroups; i++)
		if (r->groups[i].cpu.model == model && r->groups[i].cpu.stepping == stepping)
			return &r->groups[i];
	return NULL;
}

static const struct report_figure_group *fig_of(const struct report *r,
						const struct report_group *g, const char *item)
{
	for (unsigned i = 0; g && i < g->nfigs; i++)
		if (!strcmp(r->figs[g->figs[i].fig].item, item))
			return &g->figs[i];
	return NULL;
}

static const char *name(const struct report *r, unsigned h)
{
	return r->hosts[h].name;
}

int main(void)
{
	static const double ticks[] = { 3874, 3900, 3874, 3926, 6552 };
	const struct report_group *a, *b, *c;
	const struct report_figure_group *f;
	struct report *r;

	t_scratch(dir, "1171");
	/* group A, Sapphire Rapids-like 6/0x8F stepping 8: five hosts, a5 of
	 * another microcode and a bracket far above the others */
	for (int i = 0; i < 5; i++) {
		char file[32], n[8];

		snprintf(file, sizeof(file), "a%d.cal.json", i + 1);
		snprintf(n, sizeof(n), "a%d", i + 1);
		calibration(file, n, n, 143, 8, i == 4 ? "0x2b000603" : "0x2b000590", ticks[i]);
	}
	/* its Top-down: 30.08, 30.08, 39.84 with bound_pp 0.78 each */
	bench("a1.bench.json", "a1", "a1", 30.08);
	bench("a2.bench.json", "a2", "a2", 30.08);
	bench("a3.bench.json", "a3", "a3", 39.84);
	validate("a1.val.json", "a1", "a1", false);
	validate("a2.val.json", "a2", "a2", false);
	validate("a3.val.json", "a3", "a3", true);
	/* group C: the same model, stepping 6; group B: 6/0x7E stepping 5,
	 * two hosts of one hostname and different machine-ids */
	calibration("c1.json", "c1", "c1", 143, 6, "0x2b000590", 3000);
	calibration("b1.json", "twin", "aaaaaaaa", 126, 5, "0xa6", 9945);
	calibration("b2.json", "twin", "bbbbbbbb", 126, 5, "0xa6", 9000);
	/* two calibration files of one host: both skipped, the host gone */
	calibration("d1.json", "d1", "d1", 126, 5, "0xa6", 1);
	calibration("d1-again.json", "d1", "d1", 126, 5, "0xa6", 2);

	r = report_new(REPORT_K_DEFAULT);
	ok(r != NULL, "report_new");
	check_int(report_add_path(r, dir), ==, 0, "report_add_path reads the directory");
	check_int(report_add_path(r, t_in(dir, "none")), ==, -ENOENT,
		  "report_add_path of a path that does not exist: -ENOENT");
	check_int(report_finish(r), ==, 0, "report_finish");
	check_int(r->files, ==, 16, "16 files read");
	check_int(r->nbad, ==, 2, "2 skipped: the two calibration files of d1");
	ok(r->nskips == 2 && strstr(r->skips[0].cause, "2 calibration files claim host 'd1'") &&
	   strstr(r->skips[1].path, "d1"), "... each named with the cause (%s)",
	   r->nskips ? r->skips[0].cause : "none");
	check_int(r->nhosts, ==, 8, "8 hosts: a1-a5, c1, and twin twice (d1 gone)");
	check_int(r->ngroups, ==, 3, "3 CPU groups");
	ok(r->ngroups == 3 && r->groups[0].cpu.model == 126 && r->groups[1].cpu.stepping == 6 &&
	   r->groups[2].cpu.stepping == 8, "in order: model 0x7E, then 0x8F stepping 6, stepping 8");
	a = group_of(r, 143, 8);
	b = group_of(r, 126, 5);
	c = group_of(r, 143, 6);
	if (!a || !b || !c)
		return done_testing();
	check_int(a->nhosts, ==, 5, "group A: 5 hosts");
	check_str(a->brand, "Test CPU 143-8", "... its brand");
	check_int(c->nhosts, ==, 1, "group C: 1 host");

	/* microcode: 0x2b000590 on a1-a4, 0x2b000603 on a5 */
	ok(a->set[REPORT_SET_MICROCODE].nvalues == 2, "group A: microcode differs (2 values)");
	ok(a->set[REPORT_SET_MICROCODE].v[0].n == 4 &&
	   !strcmp(a->set[REPORT_SET_MICROCODE].v[0].value, "0x2b000590") &&
	   a->set[REPORT_SET_MICROCODE].v[1].n == 1 &&
	   !strcmp(name(r, a->set[REPORT_SET_MICROCODE].v[1].hosts[0]), "a5"),
	   "... 0x2b000590 on 4 hosts, 0x2b000603 on a5");
	ok(a->set[REPORT_SET_KERNEL].nvalues == 1 && a->set[REPORT_SET_SMT_ACTIVE].nvalues == 1 &&
	   !strcmp(a->set[REPORT_SET_SMT_ACTIVE].v[0].value, "true") &&
	   !strcmp(a->set[REPORT_SET_NMI_WATCHDOG].v[0].value, "0") &&
	   !a->set[REPORT_SET_GOVERNOR].v[0].value, "... kernel, smt_active (true), "
	   "nmi_watchdog (0) and governor (null) alike");

	/* checks: level1_sum PASS on a1, a2, FAIL on a3; rdpmc_matches_msr SKIP x3 */
	ok(a->nchecks == 2 && !strcmp(r->checks[a->checks[0].id], "level1_sum") &&
	   a->checks[0].count[REPORT_PASS] == 2 && a->checks[0].count[REPORT_FAIL] == 1 &&
	   a->checks[0].count[REPORT_SKIP] == 0, "level1_sum: 2 PASS, 1 FAIL, 0 SKIP");
	ok(a->nchecks == 2 && a->checks[0].nfail == 1 &&
	   !strcmp(name(r, a->checks[0].fail_hosts[0]), "a3") &&
	   !strcmp(a->checks[0].fail_messages[0], "cpu 0: measured 267; expected 255 +/- 3 -- "
		   "the bytes do not sum to 255"), "... the failing host a3 with its message");
	ok(a->nchecks == 2 && a->checks[1].count[REPORT_SKIP] == 3 &&
	   a->checks[1].count[REPORT_FAIL] == 0, "rdpmc_matches_msr: 3 SKIP, no FAIL");
	check_int(a->fails, ==, 1, "group A: 1 failing check");

	/* the bracket: 3874 3900 3874 3926 6552 -> median 3900, MAD 26, cut
	 * 3.5 x 1.4826 x 26 = 134.9166 (floor 39): a5 above */
	f = fig_of(r, a, "bracket_tsc_ticks");
	ok(f && f->n == 5 && fabs(f->r.st.median - 3900) < 1e-9 && fabs(f->r.st.mad - 26) < 1e-9 &&
	   fabs(f->r.cut - 134.9166) < 1e-9 && fabs(f->r.floor - 39) < 1e-9,
	   "bracket ticks: median 3900, MAD 26, floor 39, cut 134.9166");
	ok(f && f->noutliers == 1 && f->dir[4] == 1 && !strcmp(name(r, f->hosts[4]), "a5"),
	   "... a5 (6552) above, the only outlier");
	ok(f && !strcmp(r->figs[f->fig].unit, "TSC ticks") && !strcmp(r->figs[f->fig].subject, "msr"),
	   "... of backend msr, in TSC ticks");
	/* tma_retiring 30.08 30.08 39.84: median 30.08, MAD 0, floor the
	 * median bound 0.78: a3 9.76 above */
	f = fig_of(r, a, "tma_retiring");
	ok(f && f->n == 3 && f->r.judged && fabs(f->r.cut - 0.78) < 1e-9 && f->noutliers == 1 &&
	   !strcmp(name(r, f->hosts[2]), "a3") && f->dir[2] == 1,
	   "tma_retiring: MAD 0, cut the hosts' median bound_pp 0.78, a3 (39.84) above");
	ok(f && f->nmissing == 0, "... no host of A with a bench document lacks it");
	check_int(a->outliers, ==, 2, "group A: 2 outliers");

	/* group B: two hosts, not judged; told apart by their machine-ids */
	f = fig_of(r, b, "bracket_tsc_ticks");
	ok(f && f->n == 2 && !f->r.judged && f->noutliers == 0 && fabs(f->r.st.median - 9472.5) < 1e-9,
	   "group B: 2 hosts (median 9472.5), not judged, no outlier");
	ok(b->nhosts == 2 && !strcmp(name(r, b->hosts[0]), "twin[aaaaaaaa]") &&
	   !strcmp(name(r, b->hosts[1]), "twin[bbbbbbbb]"),
	   "twins named by hostname and machine-id (%s, %s)", name(r, b->hosts[0]),
	   name(r, b->hosts[1]));
	check_int(r->fails, ==, 1, "1 failing check in all");
	check_int(r->outliers, ==, 2, "2 outliers in all");
	check_int(report_exit_status(r), ==, 1, "exit status 1 (a FAIL, outliers, a file skipped)");
	report_free(r);

	/* Only the good hosts of group C and B: no FAIL, no outlier, no
	 * skip: 0 */
	t_rm_rf(dir);
	t_scratch(dir, "1171");
	calibration("c1.json", "c1", "c1", 143, 6, "0x2b000590", 3000);
	calibration("c2.json", "c2", "c2", 143, 6, "0x2b000590", 3001);
	calibration("c3.json", "c3", "c3", 143, 6, "0x2b000590", 3030);
	validate("c1.val.json", "c1", "c1", false);
	r = report_new(REPORT_K_DEFAULT);
	ok(r && !report_add_path(r, dir) && !report_finish(r), "a fleet without a fault is read");
	/* 3000 3001 3030: median 3001, MAD 1, limit 5.1891, floor 30.01: 3030
	 * (29 above) within the floor */
	f = r ? fig_of(r, &r->groups[0], "bracket_tsc_ticks") : NULL;
	ok(f && fabs(f->r.floor - 30.01) < 1e-9 && f->noutliers == 0,
	   "... 3030 is within the floor 30.01 (1 %% of 3001)");
	check_int(r ? report_exit_status(r) : -1, ==, 0, "... exit status 0");
	report_free(r);

	/* A bundle whose cpuid_dump (skipped unparsed: report_read.c) holds an
	 * escaped quote, an escaped backslash before an escaped quote, and an
	 * escaped backslash just before its closing quote (the JSON text
	 * a\"b\\\"c\\ between the quotes: it ends after the last two
	 * backslashes, not before), and whose "note" before it holds the text
	 * "cpuid_dump": "x". */
	t_rm_rf(dir);
	t_scratch(dir, "1171");
	put("bundle.json", t_strf("{\"schema\": \"baretma-bundle/1\", \"note\": "
		"\"\\\"cpuid_dump\\\": \\\"x\\\"\", \"cpuid_dump\": \"a\\\"b\\\\\\\"c\\\\\", "
		"%s, \"info\": %s, \"environment\": %s, \"validate\": {\"schema\": "
		"\"baretma-validate/1\", \"checks\": [{\"cpu\": 0, \"check\": \"level1_sum\", "
		"\"status\": \"PASS\"}]}, \"calibration\": null}", host("e1", "e1"), cpu(126, 5),
		env("0xa6")));
	r = report_new(REPORT_K_DEFAULT);
	ok(r && !report_add_path(r, dir) && !report_finish(r), "a bundle with quotes in its cpuid_dump");
	ok(r && r->nbad == 0 && r->nhosts == 1 && r->ngroups == 1 && r->groups[0].nchecks == 1 &&
	   r->groups[0].checks[0].count[REPORT_PASS] == 1 &&
	   !strcmp(r->groups[0].brand, "Test CPU 126-5"),
	   "... is read whole: its host, CPU, brand and check (%s)",
	   r && r->nskips ? r->skips[0].cause : "no skip");
	report_free(r);

	/* report_add_data (report.h): one file's bytes, without the file -
	 * read as report_add_path reads a file's, named by the path given. */
	{
		char doc[] = "{\"schema\": \"baretma-validate/1\", \"host\": {\"hostname\": "
			     "\"m1\", \"machine_id\": null}, \"checks\": [{\"cpu\": 0, "
			     "\"check\": \"level1_sum\", \"status\": \"FAIL\", "
			     "\"message\": \"measured 267\"}]}";
		char cut[] = "{\"schema\": \"baretma-validate/1\", \"checks\": [";
		size_t n = strlen(doc);

		r = report_new(REPORT_K_DEFAULT);
		check_int(r ? report_add_data(r, "in/m1.json", doc, n, true) : -1, ==, 0,
			  "report_add_data reads a document from memory");
		check_int(r ? report_add_data(r, "in/cut.json", cut, strlen(cut), false) : -1, ==, 0,
			  "... a truncated one is a skip, not an error");
		check_int(r ? report_add_data(r, "in/x.json", doc, n - 1, false) : 0, ==, -EINVAL,
			  "... no NUL at data[len]: -EINVAL");
		ok(r && !report_finish(r) && r->files == 2 && r->nhosts == 1 && r->nbad == 1 &&
		   !strcmp(r->skips[0].path, "in/cut.json") && strstr(r->skips[0].cause, "truncated") &&
		   !strcmp(r->hosts[0].hostname, "m1") &&
		   !strcmp(r->hosts[0].path[REPORT_VALIDATE], "in/m1.json") &&
		   r->fails == 1, "... 2 files counted, its host and failing check, the skip named "
		   "by the paths given");
		check_int(r ? report_add_data(r, "in/m1.json", doc, n, true) : 0, ==, -EINVAL,
			  "... after report_finish: -EINVAL");
		report_free(r);
	}
	t_rm_rf(dir);
	return done_testing();
}
