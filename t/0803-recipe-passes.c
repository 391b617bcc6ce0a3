/*
 * t/0803-recipe-passes - which events a recipe needs (recipe_needed) and
 * how they split into passes on a core's counters (recipe_passes).  The
 * counter counts are the documented ones: 4 GP counters per thread on
 * Skylake with SMT on, 8 with it off, 8 on Golden Cove, 6 on Gracemont,
 * 6 on Zen 4/5 (CPUID leaf 0xA / 0x80000022; intel/perfmon "Counter" fields);
 * the expected passes are counted by hand in the comments.
 */
#include <errno.h>
#include <string.h>

#include "msr/recipe/recipe.h"
#include "t/tap.h"

#define PASSES 8

static const struct recipe *get(const char *name, const char *variant)
{
	const struct recipe *r = recipe_find_variant(name, variant);

	ok(r != NULL, "recipe %s:%s", name, variant);
	return r;
}

static uint32_t bit(const struct recipe *r, const char *event)
{
	int i = recipe_event_index(r, event);

	return i < 0 ? 0 : 1u << i;
}

/* The pass of @event in @p (n passes), or -1. */
static int pass_of(const struct recipe *r, const struct recipe_pass *p, int n, const char *event)
{
	int e = recipe_event_index(r, event);

	for (int i = 0; i < n; i++)
		for (unsigned k = 0; k < p[i].n; k++)
			if (p[i].event[k] == e)
				return i;
	return -1;
}

/* The counter @event got. */
static int counter_of(const struct recipe *r, const struct recipe_pass *p, int n, const char *event)
{
	int e = recipe_event_index(r, event);

	for (int i = 0; i < n; i++)
		for (unsigned k = 0; k < p[i].n; k++)
			if (p[i].event[k] == e)
				return p[i].counter[k];
	return -100;
}

/* No two GP events of a pass share a counter; each counter in @gp_mask. */
static bool distinct(const struct recipe *r, const struct recipe_pass *p, int n, uint32_t gp_mask)
{
	for (int i = 0; i < n; i++) {
		uint32_t used = 0;

		for (unsigned k = 0; k < p[i].n; k++) {
			if (r->events[p[i].event[k]].ctr != RECIPE_CTR_GP)
				continue;
			uint32_t b = 1u << p[i].counter[k];

			if ((used & b) || !(gp_mask & b))
				return false;
			used |= b;
		}
	}
	return true;
}

/*
 * Skylake.  Level 1, SMT off: THREAD (FC1), IDQ_UOPS_NOT_DELIVERED.CORE,
 * UOPS_ISSUED.ANY, UOPS_RETIRED.RETIRE_SLOTS, INT_MISC.RECOVERY_CYCLES: 4 GP
 * events -> one pass on 4 counters.  Level 2 adds 4 GP events (CYCLES_0,
 * BR_MISP, MACHINE_CLEARS.COUNT, MACRO_FUSED), INST_RETIRED.ANY (FC0) and
 * tma_memory_bound's 5 GP events (skl-metrics.json: STALLS_MEM_ANY,
 * BOUND_ON_STORES, STALLS_TOTAL, 1_PORTS_UTIL, 2_PORTS_UTIL): 15 events,
 * 13 of them GP.  On 4 counters: level 1's 4 in the first pass, the other
 * 9 in ceil(9 / 4) = 3 more (the base THREAD on its fixed counter in
 * every pass) -> 4 passes; on 8 counters 4 + 4 in the first, 5 in a
 * second -> 2 passes.  SMT on: THREAD_ANY and RECOVERY_CYCLES_ANY instead.
 */
static void skylake(void)
{
	const struct recipe *r = get("intel-pre-icl-l1", "skylake");
	struct recipe_env off = { false }, on = { true };
	struct recipe_pass p[PASSES];
	uint32_t m1, m2, mon;
	int n;

	if (!r)
		return;
	ok(recipe_needed(r, &off, 1, &m1) == 0 && recipe_needed(r, &off, 2, &m2) == 0 &&
	   recipe_needed(r, &on, 1, &mon) == 0, "needed sets");
	check_u64(m1, ==, bit(r, "CPU_CLK_UNHALTED.THREAD") | bit(r, "IDQ_UOPS_NOT_DELIVERED.CORE") |
		  bit(r, "UOPS_ISSUED.ANY") | bit(r, "UOPS_RETIRED.RETIRE_SLOTS") |
		  bit(r, "INT_MISC.RECOVERY_CYCLES"),
		  "level 1, SMT off: the five events of TMA's pre-ICL level 1");
	check_u64(mon, ==, bit(r, "CPU_CLK_UNHALTED.THREAD_ANY") | bit(r, "IDQ_UOPS_NOT_DELIVERED.CORE") |
		  bit(r, "UOPS_ISSUED.ANY") | bit(r, "UOPS_RETIRED.RETIRE_SLOTS") |
		  bit(r, "INT_MISC.RECOVERY_CYCLES_ANY"), "level 1, SMT on: the AnyThread forms");
	check_int(__builtin_popcount(m2), ==, 15, "level 2, SMT off: 15 events");
	n = recipe_passes(r, &off, m1, 0xF, 0x7, p, PASSES);
	check_int(n, ==, 1, "level 1 on 4 GP counters: one pass");
	ok(distinct(r, p, n, 0xF), "  4 distinct counters");
	check_int(counter_of(r, p, n, "CPU_CLK_UNHALTED.THREAD"), ==, 1, "  THREAD on fixed counter 1");
	n = recipe_passes(r, &off, m2, 0xF, 0x7, p, PASSES);
	check_int(n, ==, 4, "level 2 on 4 GP counters: 13 GP events, 4 passes");
	ok(distinct(r, p, n, 0xF), "  distinct counters in each");
	ok(pass_of(r, p, n, "UOPS_RETIRED.RETIRE_SLOTS") == 0 && pass_of(r, p, n, "INT_MISC.RECOVERY_CYCLES") == 0 &&
	   pass_of(r, p, n, "CPU_CLK_UNHALTED.THREAD") == 0, "  level 1 together in the first");
	check_int(pass_of(r, p, n, "UOPS_RETIRED.MACRO_FUSED"), ==, 1, "  level 2 in the second");
	check_int(recipe_passes(r, &off, m2, 0xFF, 0x7, p, PASSES), ==, 2, "on 8 GP counters: 2 passes");
	check_int(recipe_passes(r, &off, m2, 0xF, 0x7, p, 1), ==, -ENOSPC, "more passes than allowed");
	check_int(recipe_passes(r, &off, m1, 0xF, 0x5, p, PASSES), ==, -ENODEV,
		  "no fixed counter 1: THREAD cannot be counted");
	check_int(recipe_passes(r, &off, 0, 0xF, 0x7, p, PASSES), ==, 0, "nothing to count: 0 passes");
	check_int(recipe_passes(r, &off, 1u << 20, 0xF, 0x7, p, PASSES), ==, -EINVAL,
		  "an event outside the table");
}

/*
 * Haswell, SMT on, level 2: CORE_CLKS is THREAD_ANY (fixed counter 1 with
 * AnyThread) and tma_fetch_latency's min() and the IPC need the thread's
 * cycles: THREAD_P on a GP counter (THREAD, on fixed counter 1, would need
 * a pass of its own and bench keeps THREAD_ANY, the slots' base, in every
 * pass).  GP: 4 level-1 events, THREAD_P, 4 level-2 events of the SNB column
 * and 7 of hsw-metrics.json's tma_memory_bound (RESOURCE_STALLS.SB,
 * RS_EVENTS.EMPTY_CYCLES, CYCLE_ACTIVITY.STALLS_LDM_PENDING and
 * .CYCLES_NO_EXECUTE, UOPS_EXECUTED.CORE_CYCLES_GE_1/2/3): 16 on 4
 * counters -> 4 passes (bench's most, SOURCE_PASSES_MAX).  SMT off (THREAD
 * on fixed counter 1, no THREAD_P), 8 counters: level 1 and the first 4
 * level-2 events fill pass 0, the other 7 pass 1: 2 passes; the events
 * haswell_core.json gives "CounterHTOff": "0,1,2,3" (IDQ_UOPS_NOT_DELIVERED
 * .CORE and .CYCLES_0_UOPS_DELIV.CORE in pass 0, STALLS_LDM_PENDING and
 * CYCLES_NO_EXECUTE in pass 1) each on one of counters 0-3.
 */
static void haswell_smt(void)
{
	const struct recipe *r = get("intel-pre-icl-l1", "haswell");
	struct recipe_env on = { true };
	struct recipe_pass p[PASSES];
	uint32_t m;
	int n;

	if (!r)
		return;
	ok(recipe_needed(r, &on, 2, &m) == 0, "needed");
	ok((m & bit(r, "CPU_CLK_UNHALTED.THREAD_P")) && (m & bit(r, "CPU_CLK_UNHALTED.THREAD_ANY")) &&
	   !(m & bit(r, "CPU_CLK_UNHALTED.THREAD")), "THREAD_ANY and THREAD_P needed, not THREAD");
	ok(m & bit(r, "UOPS_EXECUTED.CORE_CYCLES_GE_2") && m & bit(r, "UOPS_EXECUTED.CORE_CYCLES_GE_3"),
	   "both branches of tma_memory_bound's IPC condition needed");
	n = recipe_passes(r, &on, m, 0xF, 0x7, p, PASSES);
	check_int(n, ==, 4, "4 passes");
	check_int(pass_of(r, p, n, "CPU_CLK_UNHALTED.THREAD_ANY"), ==, 0, "THREAD_ANY with level 1");
	ok(recipe_needed(r, &(struct recipe_env){ false }, 2, &m) == 0, "needed, SMT off");
	n = recipe_passes(r, &(struct recipe_env){ false }, m, 0xFF, 0x7, p, PASSES);
	check_int(n, ==, 2, "SMT off, 8 counters: 2 passes");
	check_int(pass_of(r, p, n, "CYCLE_ACTIVITY.CYCLES_NO_EXECUTE"), ==, 1,
		  "  CYCLES_NO_EXECUTE in the second");
	for (int i = 0; i < n; i++)
		for (unsigned k = 0; k < p[i].n; k++)
			if (r->events[p[i].event[k]].counters_ht_off == 0xF)
				ok(p[i].counter[k] < 4, "  %s on counter %d (0-3)",
				   r->events[p[i].event[k]].name, p[i].counter[k]);
	/* Broadwell, SMT on: the same count (bdw-metrics.json's 7 memory-bound
	 * GP events: RESOURCE_STALLS.SB, RS_EVENTS.EMPTY_CYCLES, STALLS_MEM_ANY,
	 * STALLS_TOTAL, UOPS_EXECUTED.CYCLES_GE_1/2/3): 16 GP on 4 -> 4 passes */
	r = get("intel-pre-icl-l1", "broadwell");
	if (!r)
		return;
	ok(recipe_needed(r, &on, 2, &m) == 0, "Broadwell: needed");
	check_int(recipe_passes(r, &on, m, 0xF, 0x7, p, PASSES), ==, 4, "Broadwell, SMT on: 4 passes");
}

/*
 * Golden Cove: TOPDOWN.BR_MISPREDICT_SLOTS counter 0 only
 * (sapphirerapids_core.json "Counter": "0"); 8 GP events on 8 counters:
 * one pass, that event on counter 0.  Without counter 0: -ENODEV.
 */
static void golden_cove(void)
{
	const struct recipe *r = get("intel-icl-events", "golden-cove");
	struct recipe_pass p[PASSES];
	uint32_t m;
	int n;

	if (!r)
		return;
	ok(recipe_needed(r, NULL, 2, &m) == 0, "needed");
	n = recipe_passes(r, NULL, m, 0xFF, 0xF, p, PASSES);
	check_int(n, ==, 1, "one pass on 8 counters");
	check_int(counter_of(r, p, n, "TOPDOWN.BR_MISPREDICT_SLOTS"), ==, 0, "BR_MISPREDICT_SLOTS on counter 0");
	ok(distinct(r, p, n, 0xFF), "distinct counters");
	check_int(recipe_passes(r, NULL, m, 0xFE, 0xF, p, PASSES), ==, -ENODEV, "no counter 0: -ENODEV");
}

/* Two events pinned to counter 0 cannot share a pass (a recipe made here). */
static void pinned(void)
{
	static const struct recipe_event ev[] = {
		{ .name = "C", .ctr = RECIPE_CTR_FIXED, .fixed = 1 },
		{ .name = "A", .ctr = RECIPE_CTR_GP, .event = 0xA4, .umask = 4, .counters = 1,
		  .counters_ht_off = 1 },
		{ .name = "B", .ctr = RECIPE_CTR_GP, .event = 0xA4, .umask = 8, .counters = 1,
		  .counters_ht_off = 1 },
		{ .name = "D", .ctr = RECIPE_CTR_GP, .event = 0xC2, .umask = 2, .counters = 0x3,
		  .counters_ht_off = 0x3 },
	};
	static const struct recipe_node nd[] = {
		{ .metric = "SLOTS", .level = 0, .expr = "C" },
		{ .metric = "tma_retiring", .level = 1, .expr = "(A + B + D) / SLOTS" },
	};
	static const struct recipe r = { .name = "t", .variant = "t", .events = ev, .nevents = 4,
					 .nodes = nd, .nnodes = 2 };
	struct recipe_pass p[PASSES];
	int n = recipe_passes(&r, NULL, 0xF, 0xFF, 0x7, p, PASSES);

	/* A takes counter 0 in pass 0; B cannot (counter 0 taken) -> pass 1; D
	 * (counters 0-1) joins pass 0 on counter 1. */
	check_int(n, ==, 2, "two counter-0 events: two passes");
	check_int(pass_of(&r, p, n, "A"), ==, 0, "A in pass 0");
	check_int(pass_of(&r, p, n, "B"), ==, 1, "B in pass 1");
	check_int(counter_of(&r, p, n, "D"), ==, 1, "D on counter 1 beside A");
}

/*
 * Constraints that overlap without nesting (a recipe made here): linux
 * arch/x86/events/amd/core.c's family 15h amd_f15_PMC30 (counters 0 and 3,
 * 0x09, EVENT_CONSTRAINT_OVERLAP) beside amd_f15_PMC20 (counters 0-2,
 * 0x07).  A on 0 or 3, B, D, E on 0-2, on 6 counters: A tried first (2
 * counters allowed, the others 3); on counter 0 it would leave B, D, E
 * two counters, so the matching puts it on 3 and B, D, E on 0, 1, 2: one
 * pass.  Keeping A's first counter would take a second pass for E.
 */
static void overlapping(void)
{
	static const struct recipe_event ev[] = {
		{ .name = "C", .ctr = RECIPE_CTR_FIXED, .fixed = 1 },
		{ .name = "A", .ctr = RECIPE_CTR_GP, .event = 0x40, .counters = 0x09,
		  .counters_ht_off = 0x09 },
		{ .name = "B", .ctr = RECIPE_CTR_GP, .event = 0x41, .counters = 0x07,
		  .counters_ht_off = 0x07 },
		{ .name = "D", .ctr = RECIPE_CTR_GP, .event = 0x42, .counters = 0x07,
		  .counters_ht_off = 0x07 },
		{ .name = "E", .ctr = RECIPE_CTR_GP, .event = 0x43, .counters = 0x07,
		  .counters_ht_off = 0x07 },
	};
	static const struct recipe_node nd[] = {
		{ .metric = "SLOTS", .level = 0, .expr = "C" },
		{ .metric = "tma_retiring", .level = 1, .expr = "(A + B + D + E) / SLOTS" },
	};
	static const struct recipe r = { .name = "t", .variant = "t", .events = ev, .nevents = 5,
					 .nodes = nd, .nnodes = 2 };
	struct recipe_pass p[PASSES];
	int n = recipe_passes(&r, NULL, 0x1F, 0x3F, 0x7, p, PASSES);

	check_int(n, ==, 1, "overlapping constraints 0x09 and 0x07: one pass");
	check_int(counter_of(&r, p, n, "A"), ==, 3, "  A (0x09) on counter 3");
	ok(counter_of(&r, p, n, "B") < 3 && counter_of(&r, p, n, "D") < 3 &&
	   counter_of(&r, p, n, "E") < 3, "  B, D, E (0x07) on counters 0-2");
	ok(distinct(&r, p, n, 0x3F), "  distinct counters");
}

/*
 * Zen 4: 12 GP events on 6 counters -> 2 passes; the six of level 1
 * (ls_not_halted_cyc, de_src_op_disp.all, ex_ret_ops, and the three
 * de_no_dispatch_per_slot) fill the first.
 */
static void zen4(void)
{
	const struct recipe *r = get("amd-zen4", "zen4");
	struct recipe_pass p[PASSES];
	uint32_t m1, m2;
	int n;

	if (!r)
		return;
	ok(recipe_needed(r, NULL, 1, &m1) == 0 && recipe_needed(r, NULL, 2, &m2) == 0, "needed");
	check_int(__builtin_popcount(m1), ==, 6, "level 1: 6 events");
	check_int(__builtin_popcount(m2), ==, 12, "level 2: 12 events");
	check_int(recipe_passes(r, NULL, m1, 0x3F, 0, p, PASSES), ==, 1, "level 1 on 6 counters: 1 pass");
	n = recipe_passes(r, NULL, m2, 0x3F, 0, p, PASSES);
	check_int(n, ==, 2, "level 2 on 6 counters: 2 passes");
	check_u64(p[0].n, ==, 6, "first pass: 6 events");
	ok(pass_of(r, p, n, "de_no_dispatch_per_slot.smt_contention") == 0 &&
	   pass_of(r, p, n, "ls_not_halted_cyc") == 0, "  level 1's");
	ok(distinct(r, p, n, 0x3F), "  distinct counters");
}

/*
 * Skymont: fixed counters 4-6 where leaf 0x23 enumerates them (fixed mask
 * 0x77: 0-2 and 4-6); without them the fixed variant cannot count and the
 * GP variant takes 4 GP events + FC1.
 */
static void skymont(void)
{
	const struct recipe *r = get("intel-ecore-l1", "skymont"), *g = get("intel-ecore-l1", "skymont-gp");
	struct recipe_pass p[PASSES];
	uint32_t m;
	int n;

	if (!r || !g)
		return;
	ok(recipe_needed(r, NULL, 1, &m) == 0, "needed");
	n = recipe_passes(r, NULL, m, 0xFF, 0x77, p, PASSES);
	check_int(n, ==, 1, "level 1 with FC4-6: one pass");
	check_int(counter_of(r, p, n, "TOPDOWN_BAD_SPECULATION.ALL"), ==, 4, "  bad speculation on FC4");
	check_int(counter_of(r, p, n, "TOPDOWN_RETIRING.ALL"), ==, 6, "  retiring on FC6");
	check_int(recipe_passes(r, NULL, m, 0xFF, 0x7, p, PASSES), ==, -ENODEV, "no FC4-6: -ENODEV");
	ok(recipe_needed(g, NULL, 1, &m) == 0, "needed (GP form)");
	check_int(recipe_passes(g, NULL, m, 0xFF, 0x7, p, PASSES), ==, 1, "GP form: one pass");
}

/* PERF_METRICS: its fields go with fixed counter 3's pass. */
static void perf_metrics(void)
{
	const struct recipe *r = get("intel-perf-metrics", "golden-cove");
	struct recipe_pass p[PASSES];
	uint32_t m;
	int n;

	if (!r)
		return;
	ok(recipe_needed(r, NULL, 2, &m) == 0, "needed");
	n = recipe_passes(r, NULL, m, 0xFF, 0xF, p, PASSES);
	check_int(n, ==, 1, "one pass");
	check_u64(p[0].n, ==, 9, "  TOPDOWN.SLOTS and the 8 fields");
	check_int(counter_of(r, p, n, "topdown-mem-bound"), ==, 7, "  topdown-mem-bound: byte 7");
	check_int(recipe_passes(r, NULL, m, 0xFF, 0x7, p, PASSES), ==, -ENODEV, "no fixed counter 3");
}

/*
 * An auxiliary node that only a level-2 node uses (a recipe made here):
 * its event X is needed at level 2, not at level 1 (C: SLOTS, A: level 1).
 */
static void aux_only_l2(void)
{
	static const struct recipe_event ev[] = {
		{ .name = "C", .ctr = RECIPE_CTR_FIXED, .fixed = 1 },
		{ .name = "A", .ctr = RECIPE_CTR_GP, .event = 0xC2, .umask = 2 },
		{ .name = "X", .ctr = RECIPE_CTR_GP, .event = 0x79, .umask = 0x30 },
	};
	static const struct recipe_node nd[] = {
		{ .metric = "SLOTS", .level = 0, .expr = "4 * C" },
		{ .metric = "MS", .level = 0, .expr = "X / SLOTS" },
		{ .metric = "tma_retiring", .level = 1, .expr = "A / SLOTS" },
		{ .metric = "tma_heavy_operations", .level = 2, .parent = "tma_retiring", .expr = "MS" },
	};
	static const struct recipe r = { .name = "t", .variant = "t", .events = ev, .nevents = 3,
					 .nodes = nd, .nnodes = 4 };
	uint32_t m1 = 0, m2 = 0;

	ok(recipe_needed(&r, NULL, 1, &m1) == 0 && recipe_needed(&r, NULL, 2, &m2) == 0, "needed");
	check_u64(m1, ==, 0x3, "level 1: C and A, not X (MS only serves level 2)");
	check_u64(m2, ==, 0x7, "level 2: C, A and X");
}

int main(void)
{
	skylake();
	aux_only_l2();
	haswell_smt();
	golden_cove();
	pinned();
	overlapping();
	zen4();
	skymont();
	perf_metrics();
	return done_testing();
}
