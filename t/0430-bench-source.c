/*
 * t/0430-bench-source.c - the counter sources (bench/source/source.h) and the
 * session's bracket (bench/session.h):
 *   - the table: names, order of preference (rdpmc, then msr, then tsc:
 *     bench.h's BENCH_BACKEND_AUTO), what each needs;
 *   - the choice among them from hand-made availability records, against
 *     the rules the harness had before the table (the reasons and notes
 *     the CLI prints, word for word);
 *   - a session on the Ice Lake dump through the state-file backend: one
 *     bracketed pair is reset (frozen, the kernel's order), reading,
 *     reading, then the tamper and overflow checks, read from the MSR
 *     trace; a change by "someone else" (a second handle of the state
 *     file) is reported with what was written and what was found; an
 *     overflow bit is cleared by the next reset inside its frozen window;
 *     the state file ends byte for byte as found;
 *   - the tsc source on this machine: counts nothing, times, checks nothing.
 * Expected values are worked out by hand from msr/pmu/pmu.h and linux
 * perf_event.h (GLOBAL_CTRL_EN_PERF_METRICS, GLOBAL_STATUS_*), intel_pmu_ack_status,
 * commit 59a854e2f3b9; the arithmetic is next to them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/session.h"
#include "bench/source/source.h"
#include "msr/open/msr_open.h"
#include "msr/regs/intel_regs.h"
#include "msr/journal/journal.h"
#include "t/tap.h"

static char *state, *trace;

/* ------------------------------------------------------------- the table */

static void test_table(void)
{
	enum bench_backend_id id;

	check_int(source_count(), ==, 5, "five sources registered");
	ok(source_at(0) == &source_rdpmc && source_at(1) == &source_msr &&
	   source_at(2) == &source_perf_rdpmc && source_at(3) == &source_perf &&
	   source_at(4) == &source_tsc && source_at(5) == NULL,
	   "auto prefers rdpmc, then msr, then perf-rdpmc, then perf, then tsc");
	ok(source_get(BENCH_BACKEND_AUTO) == NULL, "auto is no source");
	ok(source_get(BENCH_BACKEND_RDPMC) == &source_rdpmc &&
	   source_get(BENCH_BACKEND_MSR) == &source_msr &&
	   source_get(BENCH_BACKEND_TSC) == &source_tsc, "each id finds its source");
	check_str(bench_backend_name(BENCH_BACKEND_AUTO), "auto", "name of auto");
	check_str(bench_backend_name(BENCH_BACKEND_RDPMC), "rdpmc", "name of rdpmc");
	check_str(bench_backend_name(BENCH_BACKEND_MSR), "msr", "name of msr");
	check_str(bench_backend_name(BENCH_BACKEND_TSC), "tsc", "name of tsc");
	check_str(bench_backend_name((enum bench_backend_id)42), "?", "name of an unknown id");
	ok(bench_backend_parse("auto", &id) == 0 && id == BENCH_BACKEND_AUTO, "parse auto");
	ok(bench_backend_parse("rdpmc", &id) == 0 && id == BENCH_BACKEND_RDPMC, "parse rdpmc");
	ok(bench_backend_parse("msr", &id) == 0 && id == BENCH_BACKEND_MSR, "parse msr");
	ok(bench_backend_parse("tsc", &id) == 0 && id == BENCH_BACKEND_TSC, "parse tsc");
	ok(bench_backend_parse("perf", &id) == 0 && id == BENCH_BACKEND_PERF, "parse perf");
	check_str(bench_backend_name(BENCH_BACKEND_PERF), "perf", "name of perf");
	ok(bench_backend_parse("perf-rdpmc", &id) == 0 && id == BENCH_BACKEND_PERF_RDPMC,
	   "parse perf-rdpmc");
	id = BENCH_BACKEND_TSC;
	ok(bench_backend_parse("perf_event", &id) == -EINVAL && bench_backend_parse("RDPMC", &id) ==
	   -EINVAL && bench_backend_parse("", &id) == -EINVAL && bench_backend_parse(NULL, &id) ==
	   -EINVAL && id == BENCH_BACKEND_TSC, "perf_event, RDPMC, \"\" and NULL refused, id untouched");
	ok(source_rdpmc.topdown && source_rdpmc.writes_msrs && source_msr.topdown &&
	   source_msr.writes_msrs && !source_tsc.topdown && !source_tsc.writes_msrs,
	   "rdpmc and msr read Top-down and write MSRs; tsc neither");
	ok(source_rdpmc.fault == TD_RDPMC_FAULT && source_msr.fault == TD_OK &&
	   source_tsc.fault == TD_OK, "only rdpmc has a fault of its own (TD_RDPMC_FAULT)");
	ok(source_rdpmc.read_inline == SOURCE_READ_RDPMC && source_tsc.read_inline ==
	   SOURCE_READ_TSC && source_msr.read_inline == SOURCE_READ_CALL,
	   "rdpmc and tsc readings inlined in the bracket, msr called");
}

/* ------------------------------------------------------------- the choice */

/* The rdpmc reasons, as the CLI has printed them (bench_rdpmc_reason). */
#define RDPMC_0 "RDPMC faults in user space (CR4.PCE clear; " \
	"/sys/bus/event_source/devices/cpu/rdpmc = 0: user RDPMC disabled (try: " \
	"--rdpmc-always, which sets it to 2 for the run and puts it back, or --backend msr))"
#define RDPMC_DUMP "RDPMC reads the counters of the CPU baretma runs on, not those " \
	"of a CPUID dump's CPU (a dry run measures through the MSR backend: --backend msr " \
	"with BARETMA_MSR=state:FILE)"

/* Top-down available at @level through the MSR backend; RDPMC as given. */
static struct bench_avail avail_ok(int level, bool rdpmc_ok, int sysfs)
{
	return (struct bench_avail){ .why = TD_OK, .level = level, .msr_ok = true,
				     .rdpmc_ok = rdpmc_ok, .rdpmc_sysfs = sysfs };
}

/* source_choose, freeing the note of @c's previous choice. */
static int choose(enum bench_backend_id want, bool rdpmc_always, struct bench_avail *a,
		  struct source_choice *c)
{
	free(c->note);
	return source_choose(want, rdpmc_always, a, c);
}

static void test_choice_unavailable(void)
{
	struct bench_avail a = { .why = TD_NOT_INTEL };
	struct source_choice c = { 0 };

	bench_avail_setf(&a, "not Intel");

	ok(choose(BENCH_BACKEND_AUTO, false, &a, &c) == 0 && c.src == &source_tsc &&
	   !c.pending && !c.note, "no Top-down: auto takes tsc, no note");
	check_str(bench_avail_reason(&a), "not Intel", "and the reason stays the availability's");
	ok(choose(BENCH_BACKEND_RDPMC, false, &a, &c) == -ENODEV && c.src == NULL &&
	   a.why == TD_NOT_INTEL, "no Top-down: rdpmc asked for is -ENODEV, why unchanged");
	check_str(bench_avail_reason(&a), "not Intel", "and its reason is the availability's");
	ok(choose(BENCH_BACKEND_MSR, false, &a, &c) == -ENODEV && a.why == TD_NOT_INTEL,
	   "no Top-down: msr asked for is -ENODEV");
	ok(choose(BENCH_BACKEND_TSC, false, &a, &c) == 0 && c.src == &source_tsc,
	   "no Top-down: tsc asked for");
	check_str(bench_avail_reason(&a), "not Intel", "tsc asked for keeps the availability's reason");
	ok(choose((enum bench_backend_id)42, false, &a, &c) == -EINVAL,
	   "an unknown id is -EINVAL");
	bench_avail_release(&a);
	free(c.note);
}

static void test_choice_available(void)
{
	struct bench_avail a = avail_ok(2, true, 2);
	struct source_choice c = { 0 };

	ok(choose(BENCH_BACKEND_AUTO, false, &a, &c) == 0 && c.src == &source_rdpmc &&
	   !c.pending && !c.note, "RDPMC works: auto takes rdpmc, no note");
	ok(choose(BENCH_BACKEND_MSR, false, &a, &c) == 0 && c.src == &source_msr &&
	   !c.note, "msr asked for while RDPMC works: no note");
	ok(choose(BENCH_BACKEND_TSC, false, &a, &c) == 0 && c.src == &source_tsc &&
	   a.why == TD_OK, "tsc asked for while Top-down is available");
	check_str(bench_avail_reason(&a),
		  "not measured: --backend tsc was requested (level 2 is available)",
		  "and the reason says it was asked for, with the level");

	bench_avail_release(&a);
	a = avail_ok(1, false, 0);
	ok(choose(BENCH_BACKEND_AUTO, false, &a, &c) == 0 && c.src == &source_msr &&
	   !c.pending, "rdpmc 0: auto takes msr");
	check_str(c.note, RDPMC_0, "and the note says why not rdpmc");
	ok(choose(BENCH_BACKEND_MSR, false, &a, &c) == 0 && c.src == &source_msr,
	   "rdpmc 0: msr asked for");
	check_str(c.note, RDPMC_0, "the same note");
	ok(choose(BENCH_BACKEND_RDPMC, false, &a, &c) == -ENODEV &&
	   a.why == TD_RDPMC_FAULT, "rdpmc 0: rdpmc asked for is -ENODEV, TD_RDPMC_FAULT");
	check_str(bench_avail_reason(&a), RDPMC_0, "and the reason is the rdpmc one");
	bench_avail_release(&a);
	free(c.note);
}

/* --rdpmc-always will set rdpmc to 2: a failed probe at 0 or 1 does not
 * rule rdpmc out, at 2 (or without the sysfs file, or for a dump) it does. */
static void test_choice_promise(void)
{
	struct bench_avail a = avail_ok(1, false, 0);
	struct source_choice c = { 0 };

	ok(choose(BENCH_BACKEND_AUTO, true, &a, &c) == 0 && c.src == &source_rdpmc &&
	   c.pending && !c.note, "rdpmc 0 with the promise: auto takes rdpmc, pending");
	ok(choose(BENCH_BACKEND_RDPMC, true, &a, &c) == 0 && c.src == &source_rdpmc &&
	   c.pending, "rdpmc asked for with the promise: pending");
	ok(choose(BENCH_BACKEND_MSR, true, &a, &c) == 0 && c.src == &source_msr &&
	   !c.pending, "msr asked for with the promise");
	check_str(c.note, RDPMC_0, "still says RDPMC does not work yet");
	a = avail_ok(1, false, 1);
	ok(choose(BENCH_BACKEND_AUTO, true, &a, &c) == 0 && c.src == &source_rdpmc &&
	   c.pending, "rdpmc 1 with the promise: pending");
	a = avail_ok(1, false, 2);
	ok(choose(BENCH_BACKEND_AUTO, true, &a, &c) == 0 && c.src == &source_msr &&
	   !c.pending, "rdpmc already 2: the promise changes nothing, msr");
	a = avail_ok(1, false, -ENOENT);
	ok(choose(BENCH_BACKEND_AUTO, true, &a, &c) == 0 && c.src == &source_msr,
	   "no rdpmc sysfs file: msr");
	a = avail_ok(1, false, 0);
	a.rdpmc_dump = true;
	ok(choose(BENCH_BACKEND_AUTO, true, &a, &c) == 0 && c.src == &source_msr &&
	   !c.pending, "a dump's CPU: never rdpmc, promise or not");
	check_str(c.note, RDPMC_DUMP, "and the note says why");
	free(c.note);
}

/* ------------------------------------------------- a session on a state file */

/* Ice Lake client, cpu 1 (t/0330's fixture): what
 * availability and programming read - the general-purpose counters of the
 * events Ice Lake's recipe counts beside PERF_METRICS too
 * (msr/recipe/recipes_intel_pm.c: IA32_PERFEVTSELx, IA32_PMCx, IA32_A_PMCx). */
static const char icl_state[] =
	"1 0x186 0x0\n1 0xc1 0x0\n1 0x4c1 0x0\n"
	"1 0x187 0x0\n1 0xc2 0x0\n1 0x4c2 0x0\n"
	"1 0x188 0x0\n1 0xc3 0x0\n1 0x4c3 0x0\n"
	"1 0x189 0x0\n1 0xc4 0x0\n1 0x4c4 0x0\n"
	"1 0x18a 0x0\n1 0xc5 0x0\n1 0x4c5 0x0\n"
	"1 0x18b 0x0\n1 0xc6 0x0\n1 0x4c6 0x0\n"
	"1 0x18c 0x0\n1 0xc7 0x0\n1 0x4c7 0x0\n"
	"1 0x18d 0x0\n1 0xc8 0x0\n1 0x4c8 0x0\n"
	"1 0x30c 0x1234\n"
	"1 0x329 0x5566\n"
	"1 0x345 0xf4c5\n"
	"1 0x38d 0x333\n"
	"1 0x38e 0x0\n"
	"1 0x38f 0x70000000f\n"
	"1 0x390 0x0\n"
	"1 0x391 0x0\n";

static struct cpu_machine *icl_machine(void)
{
	const char *shared = getenv("SHARED_CPUID");
	struct cpu_machine *m = NULL;
	char *path;

	if (!shared)
		return NULL;
	path = t_strf("%s/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test", shared);
	if (cpu_machine_open(path, &m, NULL))
		m = NULL;
	free(path);
	return m;
}

/* A second handle of the state file, untraced: another program's change. */
static void other_writes(uint32_t msr, uint64_t val)
{
	char *spec = t_strf("state:%s", state);
	struct msr_dev *dev;

	unsetenv("BARETMA_MSR_TRACE");
	if (msr_open(spec, &dev) || msr_ungate(dev) || msr_write(dev, 1, msr, val))
		printf("# the second handle could not write 0x%x\n", msr);
	msr_close(dev);
	setenv("BARETMA_MSR_TRACE", trace, 1);
	free(spec);
}

/* Programmed GLOBAL_CTRL: 0x70000000f | 1<<35 | 1<<48 = 0x1000f0000000f;
 * frozen (bits 35, 48 and the two events' PMC0-1 clear: msr/pmu/pmu_gp.h
 * gp_reset_with_metrics): 0x70000000c; the events' counters zeroed through
 * IA32_A_PMC0-1 (full-width writes, PERF_CAPABILITIES bit 13) before FC3
 * and PERF_METRICS. */
#define RESET "wr 1 0x38f 0x70000000c\nwr 1 0x4c1 0x0\nwr 1 0x4c2 0x0\n" \
	"wr 1 0x30c 0x0\nwr 1 0x329 0x0\nwr 1 0x38f 0x1000f0000000f\n"
/* A reading: FC3, PERF_METRICS, then the events' IA32_PMC0-1. */
#define READ0 "rd 1 0x30c 0x0\nrd 1 0x329 0x0\nrd 1 0xc1 0x0\nrd 1 0xc2 0x0\n"
/* The tamper check: the events' (GLOBAL_CTRL, PERFEVTSEL0 = UOP_DROPPING
 * 0x43100d, PERFEVTSEL1 = CLEARS_COUNT 0x147010d: t/0330), then fixed
 * counter 3's (FIXED_CTR_CTRL; its GLOBAL_CTRL bits from the one read
 * before: a register read once a check). */
#define TAMPER "rd 1 0x38f 0x1000f0000000f\nrd 1 0x186 0x43100d\nrd 1 0x187 0x147010d\n" \
	"rd 1 0x38d 0x3333\n"

static void test_session_pair(struct session *s)
{
	struct reading a, b;
	struct source_check chk;

	put_file(trace, "");
	check_int(session_begin(s, &a), ==, 0, "begin");
	other_writes(IA32_FIXED_CTR3, 0x9000);    /* the region counts: 0x9000 slots */
	other_writes(IA32_PERF_METRICS, 0x10203040);
	session_end(s, &b, &chk);
	/* reset (frozen), reading a (FC3, PERF_METRICS, PMC0-1), reading b,
	 * then the tamper check, the overflow check (GLOBAL_STATUS) */
	check_str(get_file(trace), RESET READ0
		  "rd 1 0x30c 0x9000\nrd 1 0x329 0x10203040\nrd 1 0xc1 0x0\nrd 1 0xc2 0x0\n"
		  TAMPER "rd 1 0x38e 0x0\n",
		  "pair: reset, read, read, then the checks, nothing between the readings");
	ok(a.v[0] == 0 && a.v[1] == 0 && b.v[0] == 0x9000 && b.v[1] == 0x10203040,
	   "the readings are FC3 and PERF_METRICS as found");
	ok(b.tsc >= a.tsc, "and TSC ticks");
	ok(!chk.tampered && !chk.overflow && !chk.tamper_err && !chk.overflow_err,
	   "nobody else touched them, nothing overflowed");

	/* perf starting on the CPU clears FC3's field: 0x3333 -> 0x0333 */
	check_int(session_begin(s, &a), ==, 0, "begin again");
	other_writes(IA32_FIXED_CTR_CTRL, 0x333);
	session_end(s, &b, &chk);
	ok(chk.tampered && !chk.tamper_err, "a cleared FC3 field is seen");
	check_u64(chk.fcc_from, ==, 0x3333, "from what was written");
	check_u64(chk.fcc_to, ==, 0x333, "to what was found");
	check_u64(chk.gc_from, ==, 0x1000f0000000full, "GLOBAL_CTRL as written");
	check_u64(chk.gc_to, ==, 0x1000f0000000full, "GLOBAL_CTRL as found");
	other_writes(IA32_FIXED_CTR_CTRL, 0x3333);

	/* the hardware sets OVF_PERF_METRICS (bit 48 = 0x1000000000000) */
	check_int(session_begin(s, &a), ==, 0, "begin a third time");
	other_writes(IA32_PERF_GLOBAL_STATUS_SET, GLOBAL_STATUS_OVF_PERF_METRICS);
	session_end(s, &b, &chk);
	ok(chk.overflow && !chk.overflow_err && !chk.tampered, "the overflow is seen");
	put_file(trace, "");
	check_int(session_begin(s, &a), ==, 0, "the next begin");
	check_str(get_file(trace), "wr 1 0x38f 0x70000000c\nwr 1 0x390 0x1000000000000\n"
		  "wr 1 0x4c1 0x0\nwr 1 0x4c2 0x0\n"
		  "wr 1 0x30c 0x0\nwr 1 0x329 0x0\nwr 1 0x38f 0x1000f0000000f\n" READ0,
		  "its reset clears bit 48 frozen, before FC3 then PERF_METRICS");
	session_end(s, &b, &chk);

	put_file(trace, "");
	session_check(s, SOURCE_CHECK_TAMPER, &chk);
	check_str(get_file(trace), TAMPER, "a tamper check alone reads no GLOBAL_STATUS");
	ok(!chk.tampered && !chk.overflow, "and finds the counters as written");
}

static void test_session_state(void)
{
	struct session_options o = { .cpu = 1, .backend = BENCH_BACKEND_MSR };
	struct cpu_machine *m = icl_machine();
	struct journal *j = NULL;
	struct session *s;
	char *spec;

	if (!m) {
		skip(35, "no Ice Lake dump in $SHARED_CPUID");
		return;
	}
	o.machine = m;
	put_file(state, icl_state);
	spec = t_strf("state:%s", state);
	setenv("BARETMA_MSR", spec, 1);

	o.backend = BENCH_BACKEND_RDPMC;
	check_int(session_open(&o, &s), ==, -ENODEV, "rdpmc on a dump's CPU: -ENODEV");
	ok(session_info(s)->avail.why == TD_RDPMC_FAULT && !session_writes_msrs(s),
	   "TD_RDPMC_FAULT, no source to program");
	check_str(bench_avail_reason(&session_info(s)->avail), RDPMC_DUMP, "the reason");
	session_close(s);

	o.backend = BENCH_BACKEND_MSR;
	check_int(session_open(&o, &s), ==, 0, "msr on the dump's cpu 1 (state file)");
	ok(session_info(s)->backend == BENCH_BACKEND_MSR && session_info(s)->level == 1 &&
	   session_info(s)->cpu_used == 1 && session_writes_msrs(s) && session_topdown(s),
	   "msr chosen, level 1 (Ice Lake), cpu 1, programs, reads Top-down");
	/* programming needs the guarded run's journal (msr/access/msr.h write gate) */
	put_file(trace, "");
	check_int(session_program(s, NULL), ==, -EINVAL, "program without a journal: -EINVAL");
	ok(strstr(bench_avail_reason(&session_info(s)->avail), "may do so only in a guarded run "
		  "whose journal saves them first") != NULL, "and says why: %s",
	   bench_avail_reason(&session_info(s)->avail));
	check_str(get_file(trace), "", "nothing read or written");
	check_int(journal_begin(&j, "t/0430", spec, JOURNAL_RUN, false), ==, 0, "a journal");
	journal_set_dev(j, session_dev(s));
	check_int(session_program(s, j), ==, 0, "program with the journal");
	/* the in-use checks (FIXED_CTR_CTRL; the events' PERFEVTSEL0-1 and
	 * GLOBAL_INUSE, absent: skipped), then the icl_state values in
	 * pmu_program's order (msr/pmu/pmu.h), then the events' (msr/pmu/pmu_gp.h) */
	ok(!strncmp(get_file(trace), "rd 1 0x38d 0x333\nrd 1 0x186 0x0\nrd 1 0x187 0x0\n"
		    "rd 1 0x392 0x0 EIO\nrd 1 0x38f 0x70000000f\nrd 1 0x38d 0x333\n"
		    "rd 1 0x30c 0x1234\nrd 1 0x329 0x5566\nsv 1 0x38f 0x70000000f\n"
		    "sv 1 0x38d 0x333\nsv 1 0x30c 0x1234\nsv 1 0x329 0x5566\nwr 1 0x38f 0x0\n",
		    strlen("rd 1 0x38d 0x333\nrd 1 0x186 0x0\nrd 1 0x187 0x0\n"
			   "rd 1 0x392 0x0 EIO\nrd 1 0x38f 0x70000000f\nrd 1 0x38d 0x333\n"
			   "rd 1 0x30c 0x1234\nrd 1 0x329 0x5566\nsv 1 0x38f 0x70000000f\n"
			   "sv 1 0x38d 0x333\nsv 1 0x30c 0x1234\nsv 1 0x329 0x5566\n"
			   "wr 1 0x38f 0x0\n")),
	   "the four registers read, saved in the journal, then the first write");
	ok(strstr(get_file(trace), "sv 1 0x4c1 0x0\nsv 1 0x4c2 0x0\nsv 1 0x186 0x0\n"
		  "sv 1 0x187 0x0\nwr 1 0x38f 0x0\nwr 1 0x4c1 0x0\nwr 1 0x4c2 0x0\n"
		  "wr 1 0x186 0x43100d\nwr 1 0x187 0x147010d\nwr 1 0x390 0x3\n"
		  "wr 1 0x38f 0x1000f0000000f\n") != NULL,
	   "then the events' four registers saved, frozen, programmed (t/0330's values)");
	test_session_pair(s);
	check_int(session_stop(s), ==, 0, "stop");
	check_int(session_stop(s), ==, 0, "a second stop does nothing");
	ok(strcmp(get_file(state), icl_state) != 0, "stop leaves the registers to the journal");
	check_int(journal_restore(j, session_dev(s)), ==, 0, "the journal restores");
	check_str(get_file(state), icl_state, "state file byte for byte as found");
	check_int(journal_end(j), ==, 0, "the journal ends");
	session_close(s);
	setenv("BARETMA_MSR", "/nonexistent/baretma-test/cpu/%u/msr", 1);
	free(spec);
	cpu_machine_free(m);
}

/* ----------------------------------------------------- tsc on this machine */

static void test_session_tsc(void)
{
	struct session_options o = { .cpu = -1, .backend = BENCH_BACKEND_TSC };
	struct reading a, b;
	struct source_check chk;
	struct session *s;
	int rc = session_open(&o, &s);

	if (rc) {
		skip(5, "no live machine to open here");
		session_close(s);
		return;
	}
	ok(session_info(s)->backend == BENCH_BACKEND_TSC && session_info(s)->level == 0 &&
	   !session_writes_msrs(s) && !session_topdown(s), "tsc: level 0, programs nothing");
	check_int(session_program(s, NULL), ==, 0, "program does nothing, successfully");
	memset(&chk, 0xff, sizeof(chk));
	ok(session_begin(s, &a) == 0, "begin");
	session_end(s, &b, &chk);
	ok(session_read_set(s)->n == 0 && session_read_set(s)->ncounts == 0,
	   "no counter in a reading, no count of a pair");
	ok(b.tsc > a.tsc, "TSC ticks went forward: %llu -> %llu",
	   (unsigned long long)a.tsc, (unsigned long long)b.tsc);
	ok(!chk.tampered && !chk.overflow && !chk.tamper_err && !chk.overflow_err,
	   "nothing to check: all clear");
	session_close(s);
}

int main(void)
{
	const char *t = getenv("TMPDIR");
	char *dir = t_strf("%s/baretma-0430.XXXXXX", t && *t ? t : "/tmp");

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	state = t_strf("%s/state", dir);
	trace = t_strf("%s/trace", dir);
	setenv("BARETMA_MSR_TRACE", trace, 1);
	test_table();
	test_choice_unavailable();
	test_choice_available();
	test_choice_promise();
	test_session_state();
	test_session_tsc();
	remove(state);
	remove(trace);
	remove(dir);
	free(state);
	free(trace);
	free(dir);
	return done_testing();
}
