/*
 * t/1106-source-caps.c - what a counter source can do, asked by its id
 * (bench/source/avail.h bench_backend_*: fields of its ops), and what its
 * probe found, one entry per source (struct bench_avail.src[]) - issue 29,
 * "Sources that own their capabilities".  Known answers from outside the
 * code under test:
 *   - the order users see the sources in: `bench --backend`'s message
 *     (doc/bad-input.md "unknown backend": "auto, rdpmc, msr, perf,
 *     perf-rdpmc or tsc"), calibrate's --backend list;
 *   - the raw path is rdpmc or msr, the perf side perf or perf-rdpmc
 *     (man baretma-compare: "the raw path (`rdpmc`, else `msr`)", "--perf
 *     perf|perf-rdpmc"; it "times the other read once"), tsc timing only;
 *     the MSR backend is needed by auto, rdpmc and msr only (README
 *     "$BARETMA_MSR": tsc, perf and perf-rdpmc need none);
 *   - RDPMC reads the CPU it runs on (man baretma-stat: "--backend rdpmc
 *     with one CPU"); perf's read(2), perf-rdpmc's user pages and RDPMC
 *     (man baretma-bench, THE PERF SOURCE); the msr backend's bracket is "two
 *     pread()s of the msr device" (the README's quick start);
 *   - the levels the perf probe finds on the simulated perf_event
 *     (BARETMA_PERF=sim:PROFILE): $SHARED_CPUID/INDEX.tsv
 *     expect_topdown_levels (Ice Lake-L 1, Sapphire Rapids 2); Sunny
 *     Cove's level 2 from events in passes (the README's quick start:
 *     "level 2 in passes"); perf-rdpmc reads FC3 and PERF_METRICS only,
 *     so not Ice Lake's recipe with events beside them;
 *   - on the simulated PMU auto measures through msr, rdpmc only when
 *     named (the README's quick start: "backend: msr"; "RDPMC does not
 *     reach the simulator").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/source/source.h"
#include "bench/study/calibrate.h"
#include "cpu/machine.h"
#include "cpu/text.h"
#include "t/tap.h"
#include "t/fixture.h"

static struct cpu_info ci; /* large: kept off the stack */

/* The names of the sources for which @pred holds, in the users' order. */
static const char *which(bool (*pred)(enum bench_backend_id))
{
	static char buf[128];

	buf[0] = '\0';
	for (unsigned i = 0; i < BENCH_NSOURCES; i++)
		if (pred(bench_backend_at(i)))
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
				 buf[0] ? " " : "", bench_backend_name(bench_backend_at(i)));
	return buf;
}

static enum bench_backend_id id_of(const char *name)
{
	enum bench_backend_id id = BENCH_BACKEND_AUTO;

	if (bench_backend_parse(name, &id))
		printf("# no source '%s'\n", name);
	return id;
}

static void test_order(void)
{
	char names[128] = "";

	check_int(BENCH_NSOURCES, ==, source_count(), "one id per registered source, auto aside");
	for (unsigned i = 0; i < BENCH_NSOURCES; i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 i ? ", " : "", bench_backend_name(bench_backend_at(i)));
	check_str(names, "rdpmc, msr, perf, perf-rdpmc, tsc",
		  "the users' order: --backend's message without auto");
	ok(bench_backend_at(BENCH_NSOURCES) == BENCH_BACKEND_AUTO, "past the end: auto");
	for (unsigned i = 0; i < BENCH_NSOURCES; i++)
		ok(bench_backend_index(bench_backend_at(i)) == (int)i,
		   "bench_backend_index inverts bench_backend_at: %s at %u",
		   bench_backend_name(bench_backend_at(i)), i);
	ok(bench_backend_index(BENCH_BACKEND_AUTO) == -1 &&
	   bench_backend_index((enum bench_backend_id)42) == -1, "auto and an unknown id: -1");
	/* calibrate's list is the same order: its want[] by place */
	{
		bool want[CALIB_NBACKENDS];
		char bad[64];

		ok(calib_parse_backends("tsc,perf", want, bad, sizeof(bad)) == 0 &&
		   !want[0] && !want[1] && want[2] && !want[3] && want[4],
		   "calibrate --backend tsc,perf: places 2 and 4 of rdpmc, msr, perf, perf-rdpmc, tsc");
		ok(calib_parse_backends("auto", want, bad, sizeof(bad)) == -EINVAL &&
		   !strcmp(bad, "auto"), "calibrate --backend auto: refused, named");
	}
}

static void test_kinds(void)
{
	enum bench_backend_id perf = id_of("perf"), prd = id_of("perf-rdpmc");

	check_str(which(bench_backend_raw), "rdpmc msr", "raw: the raw path, rdpmc and msr");
	check_str(which(bench_backend_perf_event), "perf perf-rdpmc",
		  "perf_event: compare's perf side, perf and perf-rdpmc");
	check_str(which(bench_backend_timing_only), "tsc", "timing only: tsc");
	check_str(which(bench_backend_uses_msr), "rdpmc msr", "the MSR backend: rdpmc and msr");
	ok(bench_backend_uses_msr(BENCH_BACKEND_AUTO), "and auto");
	check_str(which(bench_backend_rdpmc), "rdpmc perf-rdpmc",
		  "by RDPMC, the CPU it runs on: rdpmc and perf-rdpmc");
	for (unsigned i = 0; i < BENCH_NSOURCES; i++) {
		enum bench_backend_id id = bench_backend_at(i);
		int kinds = bench_backend_raw(id) + bench_backend_perf_event(id) +
			    bench_backend_timing_only(id);

		ok(kinds == 1, "%s is one of raw, perf_event, timing only (%d)",
		   bench_backend_name(id), kinds);
	}
	ok(!bench_backend_raw(BENCH_BACKEND_AUTO) && !bench_backend_perf_event(BENCH_BACKEND_AUTO) &&
	   !bench_backend_timing_only(BENCH_BACKEND_AUTO) && !bench_backend_rdpmc(BENCH_BACKEND_AUTO) &&
	   !bench_backend_raw((enum bench_backend_id)42) && !bench_backend_how(BENCH_BACKEND_AUTO),
	   "auto and an unknown id: no source, none of it");
	ok(bench_backend_other(perf) == prd && bench_backend_other(prd) == perf,
	   "compare's other read: perf <-> perf-rdpmc");
	check_str(bench_backend_how(perf), "read(2)", "perf reads by read(2)");
	check_str(bench_backend_how(prd), "user pages + RDPMC", "perf-rdpmc by its user pages");
	ok(bench_backend_cost(id_of("msr")) &&
	   strstr(bench_backend_cost(id_of("msr")), "two pread()s of the msr device"),
	   "msr: a reading is two pread()s, said with the bracket's cost");
	ok(!bench_backend_cost(id_of("rdpmc")) && !bench_backend_cost(id_of("tsc")) &&
	   !bench_backend_cost(BENCH_BACKEND_AUTO), "rdpmc, tsc: nothing to say");
}

/* One entry per source, in table order; copied and freed whole. */
static void test_entries(void)
{
	struct bench_avail a = { 0 }, b = { 0 };
	bool whole = true, own = true, gone = true;

	check_int(sizeof(a.src) / sizeof(a.src[0]), ==, source_count(), "an entry per source");
	for (size_t i = 0; i < source_count(); i++) {
		ok(source_avail_of(&a, source_at(i)) == &a.src[i] &&
		   source_avail_set(&a, source_at(i)) == &a.src[i],
		   "%s's entry: src[%zu], its place in the table", source_at(i)->name, i);
		a.src[i].why = t_strf("why %zu", i);
	}
	bench_avail_setf(&a, "reason");
	ok(bench_avail_copy(&b, &a) == 0, "copied");
	for (size_t i = 0; i < source_count(); i++) {
		whole &= b.src[i].why && !strcmp(b.src[i].why, a.src[i].why);
		own &= b.src[i].why != a.src[i].why;
	}
	ok(whole && own && b.reason != a.reason && !strcmp(b.reason, "reason"),
	   "every entry's why copied, the copy's own");
	bench_avail_release(&a);
	bench_avail_release(&b);
	for (size_t i = 0; i < source_count(); i++)
		gone &= !a.src[i].why && !b.src[i].why;
	ok(gone && !a.reason && !b.reason, "released: every why freed (ASan: no leak, no double free)");
}

/* INDEX.tsv's expect_topdown_levels of @file, or -1. */
static int index_levels(const struct t_index *ix, const char *file)
{
	for (int i = 0; i < ix->nrows; i++)
		if (!strcmp(ix->rows[i].col[0], file)) {
			const char *v = t_index_field(ix, &ix->rows[i], "expect_topdown_levels");

			return v ? atoi(v) : -1;
		}
	return -1;
}

/* The perf probe on a dump's CPU, without the MSR backend (the raw path
 * cannot measure: the independent sources are probed), through the
 * simulated perf_event. */
static void test_perf_probe(const char *shared, const struct t_index *ix, const char *file,
			    const char *name, unsigned cpu, int max, bool rdpmc)
{
	char path[PATH_MAX];
	struct cpu_machine *m;
	struct bench_avail a = { 0 };
	const struct bench_source_avail *p, *r;
	int level = index_levels(ix, file);

	snprintf(path, sizeof(path), "%s/%s", shared, file);
	if (cpu_machine_open(path, &m, NULL) || level < 1) {
		skip(5, "no dump");
		return;
	}
	cpu_info_identify(cpu_machine_source(m), NULL, &ci);
	bench_topdown_check(m, &ci, cpu, NULL, &a);
	p = source_avail_of(&a, &source_perf);
	r = source_avail_of(&a, &source_perf_rdpmc);
	ok(a.why != TD_OK && p->ok && !p->err && !p->why,
	   "%s: no MSR backend, the perf probe ran and opened (%s)", name, text_or_empty(p->why));
	ok(p->level == level && p->level_max == max,
	   "%s: perf's level %d (INDEX.tsv), up to %d, got %d up to %d", name, level, max,
	   p->level, p->level_max);
	ok(r->level == p->level && r->level_max == p->level_max,
	   "%s: perf-rdpmc's entry: the same group's levels", name);
	if (rdpmc)
		ok(r->ok && !r->why, "%s: perf-rdpmc reads the group's user pages", name);
	else
		ok(!r->ok && r->why && strstr(r->why, "perf-rdpmc reads FC3 and PERF_METRICS alone"),
		   "%s: perf-rdpmc cannot read the recipe's events beside PERF_METRICS: %s", name,
		   text_or_empty(r->why));
	ok(!source_avail_of(&a, &source_rdpmc)->ok && !source_avail_of(&a, &source_msr)->why &&
	   !source_avail_of(&a, &source_tsc)->why, "%s: the other entries untouched", name);
	bench_avail_release(&a);
	cpu_machine_free(m);
}

/* On the simulated PMU, the rdpmc source's entry says "by name only". */
static void test_by_name(const char *shared, const char *prof)
{
	char path[PATH_MAX], spec[PATH_MAX + 8];
	struct cpu_machine *m;
	struct msr_dev *dev = NULL;
	struct bench_avail a = { 0 };
	struct source_choice c;

	snprintf(path, sizeof(path), "%s/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test",
		 shared);
	snprintf(spec, sizeof(spec), "sim:%s", prof);
	if (cpu_machine_open(path, &m, NULL) || msr_open_on(spec, path, &dev)) {
		skip(4, "no dump or no simulator");
		return;
	}
	cpu_info_identify(cpu_machine_source(m), NULL, &ci);
	bench_topdown_check(m, &ci, 7, dev, &a);
	ok(a.why == TD_OK && a.rdpmc_ok && source_avail_of(&a, &source_rdpmc)->by_name,
	   "simulated PMU: Top-down, a simulated RDPMC, rdpmc by name only (%s)",
	   bench_avail_reason(&a));
	ok(source_choose(BENCH_BACKEND_AUTO, false, &a, &c) == 0 && c.src == &source_msr,
	   "auto passes rdpmc over: msr");
	free(c.note);
	ok(source_choose(id_of("rdpmc"), false, &a, &c) == 0 && c.src == &source_rdpmc,
	   "--backend rdpmc: rdpmc");
	free(c.note);
	ok(!source_avail_of(&a, &source_msr)->by_name, "msr is not by name only");
	bench_avail_release(&a);
	msr_close(dev);
	cpu_machine_free(m);
}

int main(void)
{
	const char *shared = t_shared_dumps();
	static char dir[PATH_MAX], run[PATH_MAX], prof[PATH_MAX], spec[PATH_MAX + 8];
	struct t_index ix;

	test_order();
	test_kinds();
	test_entries();
	if (!t_index_load(&ix, shared)) {
		printf("Bail out! no INDEX.tsv\n");
		return 1;
	}
	t_scratch(dir, "1106");
	t_path(prof, "%s/profile", dir);
	t_put_tree(prof, "retiring 40\nbad_speculation 10\nfrontend_bound 20\n"
		   "backend_bound 30\n");
	t_path(spec, "sim:%s", prof);
	t_path(run, "%s/run", dir);
	setenv("BARETMA_STATE_DIR", run, 1);
	setenv("BARETMA_PERF", spec, 1);
	unsetenv("BARETMA_MSR");
	unsetenv("BARETMA_CPUID_DUMP");
	test_perf_probe(shared, &ix, "libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test",
			"Ice Lake-L", 7, 2, false);
	test_perf_probe(shared, &ix, "libcpuid/master-history/intel/x86-64/golden-cove/"
			"sapphire-rapids-ws-xeon-w9.test", "Sapphire Rapids", 40, 2, true);
	unsetenv("BARETMA_PERF");
	test_by_name(shared, prof);
	t_index_free(&ix);
	t_rm_rf(dir);
	return done_testing();
}
