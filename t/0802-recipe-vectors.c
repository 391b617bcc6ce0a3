/*
 * t/0802-recipe-vectors - every recipe computed from counts worked by hand
 * from the formulas its table cites (intel/perfmon TMA_Metrics-full.csv,
 * E-core_TMA_Metrics.csv, Atom_TMA.csv; perf's skl/hsw/spr metrics JSON
 * and amdzen4/amdzen5 pipeline.json).  The arithmetic is in the comments;
 * every level-1 vector sums to 100 % by construction, which the formulas
 * do not force (each node is computed on its own).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "msr/recipe/recipe.h"
#include "t/tap.h"

#define EPS 1e-12

struct kv {
	const char *name;
	double v;
};

/* Evaluate recipe @name:@variant on the counts @kv (the rest not measured). */
static int run(const char *name, const char *variant, const struct kv *kv, bool smt, int level,
	       struct recipe_result *out, struct recipe_error *e)
{
	const struct recipe *r = recipe_find_variant(name, variant);
	struct recipe_env env = { .smt_on = smt };
	double c[RECIPE_EVENTS_MAX];

	if (!ok(r != NULL, "recipe %s:%s", name, variant))
		return -ENOENT;
	for (int i = 0; i < RECIPE_EVENTS_MAX; i++)
		c[i] = NAN;
	for (; kv->name; kv++) {
		int i = recipe_event_index(r, kv->name);

		if (!ok(i >= 0, "  event %s in the recipe", kv->name))
			return -ENOENT;
		c[i] = kv->v;
	}
	return recipe_eval(r, c, &env, level, out, e);
}

#define F(m) out.frac[m]

static double extra(const struct recipe_result *r, const char *metric)
{
	for (unsigned i = 0; i < r->nextra; i++)
		if (strcmp(r->extra[i].metric, metric) == 0)
			return r->extra[i].frac;
	return NAN;
}

/*
 * Skylake, SMT off (skl-metrics.json, CSV SKL/KBL):
 *   CORE_CLKS = CPU_CLK_UNHALTED.THREAD = 1000; SLOTS = 4 * 1000 = 4000
 *   FE  = IDQ_UOPS_NOT_DELIVERED.CORE / SLOTS = 800 / 4000 = 0.20
 *   Recovery_Cycles = INT_MISC.RECOVERY_CYCLES = 50
 *   Bad = (UOPS_ISSUED.ANY - RETIRE_SLOTS + 4 * 50) / SLOTS = (2400 - 2000 + 200) / 4000 = 0.15
 *   Ret = RETIRE_SLOTS / SLOTS = 2000 / 4000 = 0.50
 *   BE  = 1 - FE - (UOPS_ISSUED.ANY + 4 * 50) / SLOTS = 1 - 0.2 - 2600/4000 = 0.15
 *   Fetch_Latency = 4 * CYCLES_0_UOPS_DELIV.CORE / SLOTS = 4 * 120 / 4000 = 0.12
 *   Fetch_Bandwidth = 0.20 - 0.12 = 0.08
 *   Branch_Mispredicts = 30 / (30 + 10) * 0.15 = 0.1125; Machine_Clears = 0.0375
 *   Heavy = (RETIRE_SLOTS + MACRO_FUSED - INST_RETIRED.ANY) / SLOTS = (2000 + 100 - 1800) / 4000 = 0.075
 *   Light = 0.50 - 0.075 = 0.425
 *   Memory_Bound (skl-metrics.json, clx-metrics.json) = (STALLS_MEM_ANY +
 *     BOUND_ON_STORES) / (STALLS_TOTAL + (1_PORTS_UTIL + Ret * 2_PORTS_UTIL)
 *     + BOUND_ON_STORES) * BE = (60 + 20) / (100 + (40 + 0.5 * 80) + 20) * 0.15
 *     = 80 / 200 * 0.15 = 0.06
 *   Core_Bound = BE - Memory_Bound = 0.15 - 0.06 = 0.09
 * THREAD_ANY and RECOVERY_CYCLES_ANY are not given: SMT off needs neither.
 */
static void skylake_smt_off(void)
{
	static const struct kv kv[] = {
		{ "CPU_CLK_UNHALTED.THREAD", 1000 }, { "IDQ_UOPS_NOT_DELIVERED.CORE", 800 },
		{ "UOPS_ISSUED.ANY", 2400 }, { "UOPS_RETIRED.RETIRE_SLOTS", 2000 },
		{ "INT_MISC.RECOVERY_CYCLES", 50 },
		{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 120 },
		{ "BR_MISP_RETIRED.ALL_BRANCHES", 30 }, { "MACHINE_CLEARS.COUNT", 10 },
		{ "UOPS_RETIRED.MACRO_FUSED", 100 }, { "INST_RETIRED.ANY", 1800 },
		{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", 60 }, { "EXE_ACTIVITY.BOUND_ON_STORES", 20 },
		{ "CYCLE_ACTIVITY.STALLS_TOTAL", 100 }, { "EXE_ACTIVITY.1_PORTS_UTIL", 40 },
		{ "EXE_ACTIVITY.2_PORTS_UTIL", 80 }, { NULL, 0 },
	};
	struct recipe_result out;
	struct recipe_error e;

	check_int(run("intel-pre-icl-l1", "skylake", kv, false, 2, &out, &e), ==, 0, "Skylake SMT off");
	check_dbl(out.slots, 4000, EPS, "SLOTS = 4 x 1000");
	check_dbl(F(TMA_FRONTEND_BOUND), 0.20, EPS, "tma_frontend_bound 800/4000");
	check_dbl(F(TMA_BAD_SPECULATION), 0.15, EPS, "tma_bad_speculation (2400-2000+200)/4000");
	check_dbl(F(TMA_RETIRING), 0.50, EPS, "tma_retiring 2000/4000 = 50 %");
	check_dbl(F(TMA_BACKEND_BOUND), 0.15, EPS, "tma_backend_bound 1 - 0.2 - 2600/4000");
	check_dbl(F(TMA_FETCH_LATENCY), 0.12, EPS, "tma_fetch_latency 4*120/4000");
	check_dbl(F(TMA_FETCH_BANDWIDTH), 0.08, EPS, "tma_fetch_bandwidth 0.20 - 0.12");
	check_dbl(F(TMA_BRANCH_MISPREDICTS), 0.1125, EPS, "tma_branch_mispredicts 30/40 * 0.15");
	check_dbl(F(TMA_MACHINE_CLEARS), 0.0375, EPS, "tma_machine_clears 0.15 - 0.1125");
	check_dbl(F(TMA_HEAVY_OPERATIONS), 0.075, EPS, "tma_heavy_operations (2000+100-1800)/4000");
	check_dbl(F(TMA_LIGHT_OPERATIONS), 0.425, EPS, "tma_light_operations 0.5 - 0.075");
	check_dbl(F(TMA_MEMORY_BOUND), 0.06, EPS, "tma_memory_bound (60+20)/(100+40+0.5*80+20) * 0.15");
	check_dbl(F(TMA_CORE_BOUND), 0.09, EPS, "tma_core_bound 0.15 - 0.06");
	ok(out.undefined.what == NULL, "every node defined");

	/* Level 1 alone needs none of the level-2 events. */
	static const struct kv l1[] = {
		{ "CPU_CLK_UNHALTED.THREAD", 1000 }, { "IDQ_UOPS_NOT_DELIVERED.CORE", 800 },
		{ "UOPS_ISSUED.ANY", 2400 }, { "UOPS_RETIRED.RETIRE_SLOTS", 2000 },
		{ "INT_MISC.RECOVERY_CYCLES", 50 }, { NULL, 0 },
	};
	check_int(run("intel-pre-icl-l1", "skylake", l1, false, 1, &out, &e), ==, 0, "level 1 alone");
	check_dbl(F(TMA_RETIRING), 0.50, EPS, "  tma_retiring 50 %");
	ok(isnan(F(TMA_FETCH_LATENCY)), "  no level 2");
	check_int(run("intel-pre-icl-l1", "skylake", l1, false, 2, &out, &e), ==, -ENODATA,
		  "level 2 without its events: -ENODATA");
	check_str(e.event, "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", "  names the first missing");
	check_str(e.metric, "tma_fetch_latency", "  in the formula that needs it");
}

/*
 * Skylake, SMT on: the core's clocks and recovery cycles are AnyThread
 * counts halved (CSV CORE_CLKS, #Recovery_Cycles):
 *   CORE_CLKS = THREAD_ANY / 2 = 3000 / 2 = 1500; SLOTS = 4 * 1500 = 6000
 *   (THREAD = 1600 is this thread's own: with it SLOTS would be 6400)
 *   Recovery_Cycles = RECOVERY_CYCLES_ANY / 2 = 150 / 2 = 75
 *   FE  = 900 / 6000 = 0.15
 *   Bad = (3300 - 3000 + 4 * 75) / 6000 = 600 / 6000 = 0.10
 *   Ret = 3000 / 6000 = 0.50
 *   BE  = 1 - 0.15 - (3300 + 300) / 6000 = 0.25
 */
static void skylake_smt_on(void)
{
	static const struct kv kv[] = {
		{ "CPU_CLK_UNHALTED.THREAD_ANY", 3000 }, { "CPU_CLK_UNHALTED.THREAD", 1600 },
		{ "IDQ_UOPS_NOT_DELIVERED.CORE", 900 }, { "UOPS_ISSUED.ANY", 3300 },
		{ "UOPS_RETIRED.RETIRE_SLOTS", 3000 }, { "INT_MISC.RECOVERY_CYCLES_ANY", 150 },
		{ "INT_MISC.RECOVERY_CYCLES", 999 }, { NULL, 0 },
	};
	struct recipe_result out;
	struct recipe_error e;

	check_int(run("intel-pre-icl-l1", "skylake", kv, true, 1, &out, &e), ==, 0, "Skylake SMT on");
	check_dbl(out.slots, 6000, EPS, "SLOTS = 4 x THREAD_ANY/2 = 4 x 1500");
	check_dbl(F(TMA_FRONTEND_BOUND), 0.15, EPS, "tma_frontend_bound 900/6000");
	check_dbl(F(TMA_BAD_SPECULATION), 0.10, EPS, "tma_bad_speculation (3300-3000+4*150/2)/6000");
	check_dbl(F(TMA_RETIRING), 0.50, EPS, "tma_retiring 3000/6000");
	check_dbl(F(TMA_BACKEND_BOUND), 0.25, EPS, "tma_backend_bound 1 - 0.15 - 3600/6000");
	/* The same counts with SMT off: SLOTS = 4 * 1600 = 6400, recovery 999. */
	check_int(run("intel-pre-icl-l1", "skylake", kv, false, 1, &out, &e), ==, 0, "same, SMT off");
	check_dbl(out.slots, 6400, EPS, "  SLOTS = 4 x THREAD = 6400");
	check_dbl(F(TMA_RETIRING), 3000.0 / 6400, EPS, "  tma_retiring 3000/6400");
}

/*
 * Haswell, SMT off (CSV SNB column, which HSW takes; hsw-metrics.json):
 *   SLOTS = 4 * 1000 = 4000; FE = 1000/4000 = 0.25
 *   Bad = (2500 - 2000 + 4 * 25) / 4000 = 600/4000 = 0.15;  Ret = 2000/4000 = 0.50
 *   BE = 1 - (0.25 + 0.15 + 0.50) = 0.10
 *   Fetch_Latency = 4 * min(THREAD, CYCLES_0_UOPS_DELIV.CORE) / SLOTS = 4 * min(1000, 150) / 4000 = 0.15
 *   Heavy = Microcode_Sequencer = RETIRE_SLOTS / UOPS_ISSUED.ANY * IDQ.MS_UOPS / SLOTS
 *         = 2000/2500 * 250 / 4000 = 200/4000 = 0.05; Light = 0.45
 */
static void haswell(void)
{
	static const struct kv kv[] = {
		{ "CPU_CLK_UNHALTED.THREAD", 1000 }, { "IDQ_UOPS_NOT_DELIVERED.CORE", 1000 },
		{ "UOPS_ISSUED.ANY", 2500 }, { "UOPS_RETIRED.RETIRE_SLOTS", 2000 },
		{ "INT_MISC.RECOVERY_CYCLES", 25 },
		{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 150 },
		{ "BR_MISP_RETIRED.ALL_BRANCHES", 20 }, { "MACHINE_CLEARS.COUNT", 20 },
		{ "IDQ.MS_UOPS", 250 },
		/* memory bound (hsw-metrics.json; worked in haswell_broadwell_memory):
		 * IPC = 1000/1000 = 1 (not > 1.8: GE_2), fetch latency 0.15 > 0.1 (RS
		 * empty subtracted): (30 + 10) / (min(1000, 60) + 500 - 470 - 20 + 10)
		 * * 0.10 = 40/80 * 0.10 = 0.05 */
		{ "INST_RETIRED.ANY", 1000 }, { "CYCLE_ACTIVITY.STALLS_LDM_PENDING", 30 },
		{ "RESOURCE_STALLS.SB", 10 }, { "CYCLE_ACTIVITY.CYCLES_NO_EXECUTE", 60 },
		{ "UOPS_EXECUTED.CORE_CYCLES_GE_1", 500 }, { "UOPS_EXECUTED.CORE_CYCLES_GE_2", 470 },
		{ "UOPS_EXECUTED.CORE_CYCLES_GE_3", 400 }, { "RS_EVENTS.EMPTY_CYCLES", 20 },
		{ NULL, 0 },
	};
	/* the min() at work: CYCLES_0 above the thread's cycles (SMT on: a
	 * per-core count): THREAD_ANY = 2000 -> SLOTS 4000; the thread's
	 * cycles with SMT on are THREAD_P's (THREAD_CLKS): 4 * min(600, 700) /
	 * 4000 = 0.6 */
	static const struct kv smt[] = {
		{ "CPU_CLK_UNHALTED.THREAD_ANY", 2000 }, { "CPU_CLK_UNHALTED.THREAD_P", 600 },
		{ "IDQ_UOPS_NOT_DELIVERED.CORE", 2800 }, { "UOPS_ISSUED.ANY", 500 },
		{ "UOPS_RETIRED.RETIRE_SLOTS", 400 }, { "INT_MISC.RECOVERY_CYCLES_ANY", 0 },
		{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 700 },
		{ "BR_MISP_RETIRED.ALL_BRANCHES", 1 }, { "MACHINE_CLEARS.COUNT", 1 },
		{ "IDQ.MS_UOPS", 0 },
		/* BE = 1 - (2800/4000 + 100/4000 + 400/4000) = 0.175; IPC 600/600 = 1;
		 * fetch latency 0.6 > 0.1: (min(600, 100) + 0) / (min(600, 200) +
		 * (800 - 600) / 2 - 0 + 0) * 0.175 = 100/300 * 0.175 */
		{ "INST_RETIRED.ANY", 600 }, { "CYCLE_ACTIVITY.STALLS_LDM_PENDING", 100 },
		{ "RESOURCE_STALLS.SB", 0 }, { "CYCLE_ACTIVITY.CYCLES_NO_EXECUTE", 200 },
		{ "UOPS_EXECUTED.CORE_CYCLES_GE_1", 800 }, { "UOPS_EXECUTED.CORE_CYCLES_GE_2", 600 },
		{ "UOPS_EXECUTED.CORE_CYCLES_GE_3", 500 }, { "RS_EVENTS.EMPTY_CYCLES", 0 },
		{ NULL, 0 },
	};
	struct recipe_result out;
	struct recipe_error e;

	check_int(run("intel-pre-icl-l1", "haswell", kv, false, 2, &out, &e), ==, 0, "Haswell SMT off");
	check_dbl(F(TMA_FRONTEND_BOUND), 0.25, EPS, "tma_frontend_bound 1000/4000");
	check_dbl(F(TMA_BAD_SPECULATION), 0.15, EPS, "tma_bad_speculation (2500-2000+100)/4000");
	check_dbl(F(TMA_RETIRING), 0.50, EPS, "tma_retiring 2000/4000");
	check_dbl(F(TMA_BACKEND_BOUND), 0.10, EPS, "tma_backend_bound 1 - 0.9");
	check_dbl(F(TMA_FETCH_LATENCY), 0.15, EPS, "tma_fetch_latency 4*min(1000,150)/4000");
	check_dbl(F(TMA_FETCH_BANDWIDTH), 0.10, EPS, "tma_fetch_bandwidth 0.25 - 0.15");
	check_dbl(F(TMA_BRANCH_MISPREDICTS), 0.075, EPS, "tma_branch_mispredicts 20/40 * 0.15");
	check_dbl(F(TMA_HEAVY_OPERATIONS), 0.05, EPS, "tma_heavy_operations 2000/2500*250/4000");
	check_dbl(F(TMA_LIGHT_OPERATIONS), 0.45, EPS, "tma_light_operations 0.5 - 0.05");
	check_dbl(F(TMA_MEMORY_BOUND), 0.05, EPS, "tma_memory_bound 40/80 * 0.10");
	check_dbl(F(TMA_CORE_BOUND), 0.05, EPS, "tma_core_bound 0.10 - 0.05");
	check_int(run("intel-pre-icl-l1", "haswell", smt, true, 2, &out, &e), ==, 0, "Haswell SMT on");
	check_dbl(F(TMA_FETCH_LATENCY), 0.6, EPS, "tma_fetch_latency 4*min(600,700)/4000");
	check_dbl(F(TMA_MEMORY_BOUND), 0.175 / 3, EPS, "tma_memory_bound 100/300 * 0.175");
}

/*
 * Haswell and Broadwell tma_memory_bound (hsw-metrics.json, bdw-metrics.json),
 * each branch perf's formula has.  Level 1 of all four vectors: SLOTS = 4 *
 * 1000 = 4000 (SMT on: THREAD_ANY 2000 / 2), FE = 800/4000 = 0.20, Bad =
 * (1800 - 1600 + 4 * 50) / 4000 = 0.10, Ret = 1600/4000 = 0.40, BE = 1 -
 * 0.70 = 0.30.
 *
 * A. Haswell, SMT off.  Fetch latency = 4 * min(1000, 120) / 4000 = 0.12 >
 *    0.1: RS_EVENTS.EMPTY_CYCLES subtracted; IPC = 2000 / 1000 = 2.0 > 1.8:
 *    the 3-uop threshold.
 *      den = min(1000, NO_EXECUTE 200) + GE_1 700 - GE_3 550 - RS 35 + SB 45 = 360
 *      Memory_Bound = (min(1000, LDM 135) + SB 45) / 360 * 0.30 = 180/360 * 0.30 = 0.15
 *      Core_Bound = 0.30 - 0.15 = 0.15
 *    (with GE_2 600 instead, as IPC <= 1.8 would take: 310, 0.1742: the branch matters)
 * B. Haswell, SMT on: the core's UOPS_EXECUTED.CORE_CYCLES_* halved; the
 *    thread's cycles (tma_info_thread_clks) by THREAD_P, fixed counter 1
 *    holding THREAD_ANY: THREAD_P 1000, INST 2000: IPC 2.0 > 1.8.
 *      den = min(1000, 200) + (GE_1 700 - GE_3 400) / 2 - 35 + 45 = 200 + 150 + 10 = 360
 *      Memory_Bound = 180/360 * 0.30 = 0.15
 * C. Broadwell, SMT off, the other branches: fetch latency = 4 * 80 / 4000 =
 *    0.08 <= 0.1: RS not subtracted; IPC = 1500/1000 = 1.5: the 2-uop threshold.
 *      den = STALLS_TOTAL 200 + GE_1 700 - GE_2 585 - 0 + SB 45 = 360
 *      Memory_Bound = (STALLS_MEM_ANY 135 + 45) / 360 * 0.30 = 0.15
 *    Fetch bandwidth = 0.20 - 0.08 = 0.12.
 */
static void haswell_broadwell_memory(void)
{
#define L1_COUNTS { "IDQ_UOPS_NOT_DELIVERED.CORE", 800 }, { "UOPS_ISSUED.ANY", 1800 }, \
	{ "UOPS_RETIRED.RETIRE_SLOTS", 1600 }, { "BR_MISP_RETIRED.ALL_BRANCHES", 1 }, \
	{ "MACHINE_CLEARS.COUNT", 1 }, { "IDQ.MS_UOPS", 0 }, { "RESOURCE_STALLS.SB", 45 }, \
	{ "RS_EVENTS.EMPTY_CYCLES", 35 }
	static const struct kv a[] = {
		L1_COUNTS, { "CPU_CLK_UNHALTED.THREAD", 1000 }, { "INT_MISC.RECOVERY_CYCLES", 50 },
		{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 120 },
		{ "INST_RETIRED.ANY", 2000 }, { "CYCLE_ACTIVITY.STALLS_LDM_PENDING", 135 },
		{ "CYCLE_ACTIVITY.CYCLES_NO_EXECUTE", 200 }, { "UOPS_EXECUTED.CORE_CYCLES_GE_1", 700 },
		{ "UOPS_EXECUTED.CORE_CYCLES_GE_2", 600 }, { "UOPS_EXECUTED.CORE_CYCLES_GE_3", 550 },
		{ NULL, 0 },
	};
	static const struct kv b[] = {
		L1_COUNTS, { "CPU_CLK_UNHALTED.THREAD_ANY", 2000 }, { "CPU_CLK_UNHALTED.THREAD_P", 1000 },
		{ "INT_MISC.RECOVERY_CYCLES_ANY", 100 },
		{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 120 },
		{ "INST_RETIRED.ANY", 2000 }, { "CYCLE_ACTIVITY.STALLS_LDM_PENDING", 135 },
		{ "CYCLE_ACTIVITY.CYCLES_NO_EXECUTE", 200 }, { "UOPS_EXECUTED.CORE_CYCLES_GE_1", 700 },
		{ "UOPS_EXECUTED.CORE_CYCLES_GE_2", 600 }, { "UOPS_EXECUTED.CORE_CYCLES_GE_3", 400 },
		{ NULL, 0 },
	};
	static const struct kv c[] = {
		L1_COUNTS, { "CPU_CLK_UNHALTED.THREAD", 1000 }, { "INT_MISC.RECOVERY_CYCLES", 50 },
		{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 80 },
		{ "INST_RETIRED.ANY", 1500 }, { "CYCLE_ACTIVITY.STALLS_MEM_ANY", 135 },
		{ "CYCLE_ACTIVITY.STALLS_TOTAL", 200 }, { "UOPS_EXECUTED.CYCLES_GE_1_UOP_EXEC", 700 },
		{ "UOPS_EXECUTED.CYCLES_GE_2_UOPS_EXEC", 585 },
		{ "UOPS_EXECUTED.CYCLES_GE_3_UOPS_EXEC", 500 }, { NULL, 0 },
	};
#undef L1_COUNTS
	struct recipe_result out;
	struct recipe_error e;

	check_int(run("intel-pre-icl-l1", "haswell", a, false, 2, &out, &e), ==, 0, "A: Haswell SMT off");
	check_dbl(F(TMA_BACKEND_BOUND), 0.30, EPS, "A: tma_backend_bound 1 - 0.7");
	check_dbl(F(TMA_FETCH_LATENCY), 0.12, EPS, "A: tma_fetch_latency 0.12 > 0.1");
	check_dbl(F(TMA_MEMORY_BOUND), 0.15, EPS, "A: tma_memory_bound 180/360 * 0.30 (IPC 2 > 1.8: GE_3)");
	check_dbl(F(TMA_CORE_BOUND), 0.15, EPS, "A: tma_core_bound 0.30 - 0.15");
	check_int(run("intel-pre-icl-l1", "haswell", b, true, 2, &out, &e), ==, 0, "B: Haswell SMT on");
	check_dbl(out.slots, 4000, EPS, "B: SLOTS = 4 x 2000 / 2");
	check_dbl(F(TMA_BACKEND_BOUND), 0.30, EPS, "B: tma_backend_bound 0.30");
	check_dbl(F(TMA_MEMORY_BOUND), 0.15, EPS, "B: tma_memory_bound 180/(200+300/2-35+45) * 0.30");
	check_dbl(F(TMA_CORE_BOUND), 0.15, EPS, "B: tma_core_bound 0.15");
	check_int(run("intel-pre-icl-l1", "broadwell", c, false, 2, &out, &e), ==, 0, "C: Broadwell");
	check_dbl(F(TMA_FETCH_LATENCY), 0.08, EPS, "C: tma_fetch_latency 4*80/4000 <= 0.1");
	check_dbl(F(TMA_FETCH_BANDWIDTH), 0.12, EPS, "C: tma_fetch_bandwidth 0.20 - 0.08");
	check_dbl(F(TMA_MEMORY_BOUND), 0.15, EPS, "C: tma_memory_bound 180/(200+700-585+45) * 0.30");
	check_dbl(F(TMA_CORE_BOUND), 0.15, EPS, "C: tma_core_bound 0.15");
}

/*
 * Zero denominators: THREAD = 0 is no slots (-EDOM); no mispredicts and no
 * clears leave the split of bad speculation undefined (NAN, as perf prints
 * a division by zero), the rest of the tree is still computed.
 */
static void zeros(void)
{
	static const struct kv kv[] = {
		{ "CPU_CLK_UNHALTED.THREAD", 1000 }, { "IDQ_UOPS_NOT_DELIVERED.CORE", 800 },
		{ "UOPS_ISSUED.ANY", 2000 }, { "UOPS_RETIRED.RETIRE_SLOTS", 2000 },
		{ "INT_MISC.RECOVERY_CYCLES", 0 },
		{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 120 },
		{ "BR_MISP_RETIRED.ALL_BRANCHES", 0 }, { "MACHINE_CLEARS.COUNT", 0 },
		{ "UOPS_RETIRED.MACRO_FUSED", 0 }, { "INST_RETIRED.ANY", 2000 },
		{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", 150 }, { "EXE_ACTIVITY.BOUND_ON_STORES", 50 },
		{ "CYCLE_ACTIVITY.STALLS_TOTAL", 250 }, { "EXE_ACTIVITY.1_PORTS_UTIL", 50 },
		{ "EXE_ACTIVITY.2_PORTS_UTIL", 100 }, { NULL, 0 },
	};
	static const struct kv zero[] = {
		{ "CPU_CLK_UNHALTED.THREAD", 0 }, { "IDQ_UOPS_NOT_DELIVERED.CORE", 0 },
		{ "UOPS_ISSUED.ANY", 0 }, { "UOPS_RETIRED.RETIRE_SLOTS", 0 },
		{ "INT_MISC.RECOVERY_CYCLES", 0 }, { NULL, 0 },
	};
	struct recipe_result out;
	struct recipe_error e;

	check_int(run("intel-pre-icl-l1", "skylake", kv, false, 2, &out, &e), ==, 0,
		  "no mispredicts, no clears: still computed");
	check_dbl(F(TMA_BAD_SPECULATION), 0, EPS, "  tma_bad_speculation (2000-2000+0)/4000 = 0");
	ok(isnan(F(TMA_BRANCH_MISPREDICTS)) && isnan(F(TMA_MACHINE_CLEARS)), "  its split NAN");
	check_str(out.undefined.what, "division by zero", "  undefined: a division by zero");
	check_str(out.undefined.metric, "tma_branch_mispredicts", "  in tma_branch_mispredicts");
	check_dbl(F(TMA_FETCH_LATENCY), 0.12, EPS, "  the other level-2 nodes computed");
	/* BE = 1 - 0.2 - 2000/4000 = 0.3, Ret 0.5: (150+50)/(250+50+0.5*100+50) * 0.3 */
	check_dbl(F(TMA_MEMORY_BOUND), 0.15, EPS, "  tma_memory_bound 200/400 * 0.3");
	check_int(run("intel-pre-icl-l1", "skylake", zero, false, 1, &out, &e), ==, -EDOM,
		  "THREAD = 0: no slots, -EDOM");
	check_str(e.metric, "SLOTS", "  the SLOTS node");
}

/*
 * PERF_METRICS as perf's pseudo-events (spr-metrics.json: field / sum of
 * the four level-1 fields), Golden Cove:
 *   TOPDOWN.SLOTS 10000; retiring 3920, bad-spec 980, fe-bound 1960,
 *   be-bound 2940: sum 9800 (not SLOTS: perf divides by the sum)
 *   Ret = 3920/9800 = 0.40, Bad = 0.10, FE = 0.20, BE = 0.30
 *   heavy-ops 980 -> 0.10, Light = 0.30; br-mispredict 588 -> 0.06,
 *   Machine_Clears = 0.04; fetch-lat 1176 -> 0.12, Fetch_Bandwidth = 0.08;
 *   mem-bound 1764 -> 0.18, Core_Bound = 0.12
 */
static void perf_metrics(void)
{
	static const struct kv kv[] = {
		{ "TOPDOWN.SLOTS", 10000 }, { "topdown-retiring", 3920 }, { "topdown-bad-spec", 980 },
		{ "topdown-fe-bound", 1960 }, { "topdown-be-bound", 2940 },
		{ "topdown-heavy-ops", 980 }, { "topdown-br-mispredict", 588 },
		{ "topdown-fetch-lat", 1176 }, { "topdown-mem-bound", 1764 }, { NULL, 0 },
	};
	static const struct kv l1[] = {
		{ "TOPDOWN.SLOTS", 10000 }, { "topdown-retiring", 3920 }, { "topdown-bad-spec", 980 },
		{ "topdown-fe-bound", 1960 }, { "topdown-be-bound", 2940 }, { NULL, 0 },
	};
	struct recipe_result out;
	struct recipe_error e;

	check_int(run("intel-perf-metrics", "golden-cove", kv, false, 2, &out, &e), ==, 0,
		  "PERF_METRICS level 2");
	check_dbl(out.slots, 10000, EPS, "slots = TOPDOWN.SLOTS");
	check_dbl(F(TMA_RETIRING), 0.40, EPS, "tma_retiring 3920/9800");
	check_dbl(F(TMA_BAD_SPECULATION), 0.10, EPS, "tma_bad_speculation 980/9800");
	check_dbl(F(TMA_FRONTEND_BOUND), 0.20, EPS, "tma_frontend_bound 1960/9800");
	check_dbl(F(TMA_BACKEND_BOUND), 0.30, EPS, "tma_backend_bound 2940/9800");
	check_dbl(F(TMA_HEAVY_OPERATIONS), 0.10, EPS, "tma_heavy_operations 980/9800");
	check_dbl(F(TMA_LIGHT_OPERATIONS), 0.30, EPS, "tma_light_operations 0.40 - 0.10");
	check_dbl(F(TMA_BRANCH_MISPREDICTS), 0.06, EPS, "tma_branch_mispredicts 588/9800");
	check_dbl(F(TMA_MACHINE_CLEARS), 0.04, EPS, "tma_machine_clears 0.10 - 0.06");
	check_dbl(F(TMA_FETCH_LATENCY), 0.12, EPS, "tma_fetch_latency 1176/9800");
	check_dbl(F(TMA_FETCH_BANDWIDTH), 0.08, EPS, "tma_fetch_bandwidth 0.20 - 0.12");
	check_dbl(F(TMA_MEMORY_BOUND), 0.18, EPS, "tma_memory_bound 1764/9800");
	check_dbl(F(TMA_CORE_BOUND), 0.12, EPS, "tma_core_bound 0.30 - 0.18");
	/* Golden Cove level 1 alone: the four level-1 fields (Sunny Cove's
	 * recipe, PERF_METRICS with events: t/1050) */
	check_int(run("intel-perf-metrics", "golden-cove", l1, false, 1, &out, &e), ==, 0,
		  "Golden Cove, level 1 from the four level-1 fields");
	check_dbl(F(TMA_RETIRING), 0.40, EPS, "  tma_retiring 3920/9800");
	ok(isnan(F(TMA_HEAVY_OPERATIONS)) && isnan(F(TMA_MEMORY_BOUND)), "  no level-2 node");
}

/*
 * Ice Lake and Golden Cove GP events (CSV ICL, ADL/RPL, not #PERF_METRICS_MSR):
 * Sunny Cove, width 5, SLOTS = TOPDOWN.SLOTS = 10000:
 *   FE = (2200 - 200) / 10000 = 0.20; BE = (2500 + 5 * 100) / 10000 = 0.30
 *   Ret = 4000 / 10000 = 0.40; Bad = max(1 - 0.9, 0) = 0.10
 *   Fetch_Latency = (5 * 300 - 200) / 10000 = 0.13; Fetch_Bandwidth = 0.07
 *   Branch_Mispredicts = 60 / 80 * 0.10 = 0.075; Machine_Clears = 0.025
 *   (icl-metrics.json) Microcode_Sequencer = Ret * IDQ.MS_UOPS / UOPS_ISSUED.ANY
 *     = 0.40 * 500 / 5000 = 0.04; Heavy = 0.04 + Ret * (UOPS_DECODED.DEC0 -
 *     DEC0:c1) / IDQ.MITE_UOPS = 0.04 + 0.40 * (900 - 600) / 2000 = 0.04 +
 *     0.06 = 0.10; Light = max(0, 0.40 - 0.10) = 0.30
 *   Memory_Bound = (STALLS_MEM_ANY + BOUND_ON_STORES) / (STALLS_TOTAL +
 *     (1_PORTS_UTIL + Ret * 2_PORTS_UTIL) + BOUND_ON_STORES) * BE = (90 + 30)
 *     / (120 + (60 + 0.4 * 75) + 30) * 0.30 = 120 / 240 * 0.30 = 0.15;
 *     Core_Bound = max(0, 0.30 - 0.15) = 0.15
 * Golden Cove, width 6, SLOTS = 12000:
 *   FE = (3000 - 600) / 12000 = 0.20; BE = 3600/12000 = 0.30; Ret = 4800/12000 = 0.40
 *   Bad = 0.10; Fetch_Latency = (300 * 6 - 600) / 12000 = 0.10; Fetch_Bandwidth = 0.10
 *   Branch_Mispredicts = 840/12000 = 0.07, Machine_Clears = 0.03
 *   Memory_Bound = 2400/12000 = 0.20, Core_Bound = 0.10; Heavy = 1200/12000 = 0.10, Light = 0.30
 */
static void icl_events(void)
{
	static const struct kv icl[] = {
		{ "TOPDOWN.SLOTS", 10000 }, { "IDQ_UOPS_NOT_DELIVERED.CORE", 2200 },
		{ "INT_MISC.UOP_DROPPING", 200 }, { "TOPDOWN.BACKEND_BOUND_SLOTS", 2500 },
		{ "INT_MISC.CLEARS_COUNT", 100 }, { "UOPS_RETIRED.SLOTS", 4000 },
		{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 300 },
		{ "BR_MISP_RETIRED.ALL_BRANCHES", 60 }, { "MACHINE_CLEARS.COUNT", 20 },
		{ "UOPS_ISSUED.ANY", 5000 }, { "IDQ.MS_UOPS", 500 }, { "UOPS_DECODED.DEC0", 900 },
		{ "UOPS_DECODED.DEC0:c1", 600 }, { "IDQ.MITE_UOPS", 2000 },
		{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", 90 }, { "EXE_ACTIVITY.BOUND_ON_STORES", 30 },
		{ "CYCLE_ACTIVITY.STALLS_TOTAL", 120 }, { "EXE_ACTIVITY.1_PORTS_UTIL", 60 },
		{ "EXE_ACTIVITY.2_PORTS_UTIL", 75 }, { NULL, 0 },
	};
	static const struct kv glc[] = {
		{ "TOPDOWN.SLOTS", 12000 }, { "IDQ_BUBBLES.CORE", 3000 },
		{ "INT_MISC.UOP_DROPPING", 600 }, { "TOPDOWN.BACKEND_BOUND_SLOTS", 3600 },
		{ "UOPS_RETIRED.SLOTS", 4800 }, { "IDQ_BUBBLES.CYCLES_0_UOPS_DELIV.CORE", 300 },
		{ "TOPDOWN.BR_MISPREDICT_SLOTS", 840 }, { "TOPDOWN.MEMORY_BOUND_SLOTS", 2400 },
		{ "UOPS_RETIRED.HEAVY", 1200 }, { NULL, 0 },
	};
	struct recipe_result out;
	struct recipe_error e;

	check_int(run("intel-icl-events", "sunny-cove", icl, false, 2, &out, &e), ==, 0, "Sunny Cove");
	check_dbl(F(TMA_FRONTEND_BOUND), 0.20, EPS, "tma_frontend_bound (2200-200)/10000");
	check_dbl(F(TMA_BACKEND_BOUND), 0.30, EPS, "tma_backend_bound (2500+5*100)/10000");
	check_dbl(F(TMA_RETIRING), 0.40, EPS, "tma_retiring 4000/10000");
	check_dbl(F(TMA_BAD_SPECULATION), 0.10, 1e-9, "tma_bad_speculation max(1-0.9, 0)");
	check_dbl(F(TMA_FETCH_LATENCY), 0.13, EPS, "tma_fetch_latency (5*300-200)/10000");
	check_dbl(F(TMA_FETCH_BANDWIDTH), 0.07, 1e-9, "tma_fetch_bandwidth 0.20 - 0.13");
	check_dbl(F(TMA_BRANCH_MISPREDICTS), 0.075, 1e-9, "tma_branch_mispredicts 60/80*0.10");
	check_dbl(F(TMA_MACHINE_CLEARS), 0.025, 1e-9, "tma_machine_clears 0.10 - 0.075");
	check_dbl(F(TMA_HEAVY_OPERATIONS), 0.10, 1e-9, "tma_heavy_operations 0.40*500/5000 + 0.40*300/2000");
	check_dbl(F(TMA_LIGHT_OPERATIONS), 0.30, 1e-9, "tma_light_operations 0.40 - 0.10");
	check_dbl(F(TMA_MEMORY_BOUND), 0.15, 1e-9, "tma_memory_bound 120/240 * 0.30");
	check_dbl(F(TMA_CORE_BOUND), 0.15, 1e-9, "tma_core_bound 0.30 - 0.15");
	check_int(run("intel-icl-events", "golden-cove", glc, false, 2, &out, &e), ==, 0, "Golden Cove");
	check_dbl(F(TMA_FRONTEND_BOUND), 0.20, EPS, "tma_frontend_bound (3000-600)/12000");
	check_dbl(F(TMA_BACKEND_BOUND), 0.30, EPS, "tma_backend_bound 3600/12000");
	check_dbl(F(TMA_RETIRING), 0.40, EPS, "tma_retiring 4800/12000");
	check_dbl(F(TMA_BAD_SPECULATION), 0.10, 1e-9, "tma_bad_speculation 1 - 0.9");
	check_dbl(F(TMA_FETCH_LATENCY), 0.10, EPS, "tma_fetch_latency (300*6-600)/12000");
	check_dbl(F(TMA_FETCH_BANDWIDTH), 0.10, 1e-9, "tma_fetch_bandwidth 0.20 - 0.10");
	check_dbl(F(TMA_BRANCH_MISPREDICTS), 0.07, EPS, "tma_branch_mispredicts 840/12000");
	check_dbl(F(TMA_MACHINE_CLEARS), 0.03, 1e-9, "tma_machine_clears 0.10 - 0.07");
	check_dbl(F(TMA_MEMORY_BOUND), 0.20, EPS, "tma_memory_bound 2400/12000");
	check_dbl(F(TMA_CORE_BOUND), 0.10, 1e-9, "tma_core_bound 0.30 - 0.20");
	check_dbl(F(TMA_HEAVY_OPERATIONS), 0.10, EPS, "tma_heavy_operations 1200/12000");
	check_dbl(F(TMA_LIGHT_OPERATIONS), 0.30, 1e-9, "tma_light_operations 0.40 - 0.10");
}

/*
 * The clamps of CSV ICL (taken by ADL/RPL): Fetch_Bandwidth = max(0,
 * Frontend_Bound - Fetch_Latency), Machine_Clears = max(0, Bad_Speculation
 * - Branch_Mispredicts), Core_Bound = max(0, Backend_Bound - Memory_Bound),
 * Light_Operations = max(0, Retiring - Heavy_Operations), each child here
 * above its parent.  Golden Cove, width 6, SLOTS = 12000; level 1 as in
 * icl_events (FE 0.20, BE 0.30, Ret 0.40, Bad 0.10):
 *   Fetch_Latency = (600 * 6 - 600) / 12000 = 0.25 > 0.20: Fetch_Bandwidth
 *     max(0, -0.05) = 0
 *   Branch_Mispredicts = 1440/12000 = 0.12 > 0.10: Machine_Clears max(0, -0.02) = 0
 *   Memory_Bound = 4200/12000 = 0.35 > 0.30: Core_Bound max(0, -0.05) = 0
 *   Heavy_Operations = 6000/12000 = 0.50 > 0.40: Light_Operations max(0, -0.10) = 0
 */
static void icl_events_clamps(void)
{
	static const struct kv glc[] = {
		{ "TOPDOWN.SLOTS", 12000 }, { "IDQ_BUBBLES.CORE", 3000 },
		{ "INT_MISC.UOP_DROPPING", 600 }, { "TOPDOWN.BACKEND_BOUND_SLOTS", 3600 },
		{ "UOPS_RETIRED.SLOTS", 4800 }, { "IDQ_BUBBLES.CYCLES_0_UOPS_DELIV.CORE", 600 },
		{ "TOPDOWN.BR_MISPREDICT_SLOTS", 1440 }, { "TOPDOWN.MEMORY_BOUND_SLOTS", 4200 },
		{ "UOPS_RETIRED.HEAVY", 6000 }, { NULL, 0 },
	};
	struct recipe_result out;
	struct recipe_error e;

	check_int(run("intel-icl-events", "golden-cove", glc, false, 2, &out, &e), ==, 0,
		  "Golden Cove, each child above its parent");
	check_dbl(F(TMA_FETCH_LATENCY), 0.25, EPS, "  tma_fetch_latency (600*6-600)/12000");
	check_dbl(F(TMA_FETCH_BANDWIDTH), 0, EPS, "  tma_fetch_bandwidth max(0, 0.20 - 0.25)");
	check_dbl(F(TMA_BRANCH_MISPREDICTS), 0.12, EPS, "  tma_branch_mispredicts 1440/12000");
	check_dbl(F(TMA_MACHINE_CLEARS), 0, EPS, "  tma_machine_clears max(0, 0.10 - 0.12)");
	check_dbl(F(TMA_MEMORY_BOUND), 0.35, EPS, "  tma_memory_bound 4200/12000");
	check_dbl(F(TMA_CORE_BOUND), 0, EPS, "  tma_core_bound max(0, 0.30 - 0.35)");
	check_dbl(F(TMA_HEAVY_OPERATIONS), 0.50, EPS, "  tma_heavy_operations 6000/12000");
	check_dbl(F(TMA_LIGHT_OPERATIONS), 0, EPS, "  tma_light_operations max(0, 0.40 - 0.50)");
}

/*
 * E-cores (E-core_TMA_Metrics.csv; Atom_TMA.csv for Tremont):
 * Gracemont, width 5: SLOTS = 5 * CPU_CLK_UNHALTED.CORE = 5 * 2000 = 10000
 *   FE = 2500/10000 = 0.25; BE = 3500/10000 = 0.35; Ret = 3000/10000 = 0.30
 *   Bad = (SLOTS - (2500 + 3500 + 3000)) / SLOTS = 1000/10000 = 0.10
 *   Fetch_Latency 1500 -> 0.15, Fetch_Bandwidth 900 -> 0.09 (both measured)
 *   Branch_Mispredicts 700 -> 0.07, Machine_Clears 300 -> 0.03
 *   Core_Bound = ALLOC_RESTRICTIONS 1000 -> 0.10; Resource_Bound = 0.35 - 0.10 = 0.25
 * Crestmont, width 6: SLOTS = 6 * 1000 = 6000; FE 1200 -> 0.2, Bad 600 -> 0.1,
 *   BE 1800 -> 0.3, Ret 2400 -> 0.4
 * Skymont, width 8, fixed counters 4-6: SLOTS = 8 * 1000 = 8000; Bad (FC4)
 *   800 -> 0.1, FE (FC5) 1600 -> 0.2, Ret (FC6) 3200 -> 0.4, BE 2400 -> 0.3
 * Tremont, width 4: SLOTS = 4 * 1000 = 4000; FE 1000 -> 0.25, Bad 400 -> 0.10,
 *   BE 1200 -> 0.30, Ret 1400 -> 0.35; MISPREDICT 300 -> 0.075, MONUKE 100 -> 0.025
 */
static void ecores(void)
{
	static const struct kv grt[] = {
		{ "CPU_CLK_UNHALTED.CORE", 2000 }, { "TOPDOWN_FE_BOUND.ALL", 2500 },
		{ "TOPDOWN_BE_BOUND.ALL", 3500 }, { "TOPDOWN_RETIRING.ALL", 3000 },
		{ "TOPDOWN_FE_BOUND.FRONTEND_LATENCY", 1500 },
		{ "TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH", 900 },
		{ "TOPDOWN_BAD_SPECULATION.MISPREDICT", 700 },
		{ "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS", 300 },
		{ "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS", 1000 }, { NULL, 0 },
	};
	static const struct kv cmt[] = {
		{ "CPU_CLK_UNHALTED.CORE", 1000 }, { "TOPDOWN_FE_BOUND.ALL_P", 1200 },
		{ "TOPDOWN_BAD_SPECULATION.ALL_P", 600 }, { "TOPDOWN_BE_BOUND.ALL_P", 1800 },
		{ "TOPDOWN_RETIRING.ALL_P", 2400 }, { NULL, 0 },
	};
	static const struct kv skt[] = {
		{ "CPU_CLK_UNHALTED.CORE", 1000 }, { "TOPDOWN_BAD_SPECULATION.ALL", 800 },
		{ "TOPDOWN_FE_BOUND.ALL", 1600 }, { "TOPDOWN_RETIRING.ALL", 3200 },
		{ "TOPDOWN_BE_BOUND.ALL_P", 2400 }, { NULL, 0 },
	};
	static const struct kv tnt[] = {
		{ "CPU_CLK_UNHALTED.CORE", 1000 }, { "TOPDOWN_FE_BOUND.ALL", 1000 },
		{ "TOPDOWN_BAD_SPECULATION.ALL", 400 }, { "TOPDOWN_BE_BOUND.ALL", 1200 },
		{ "TOPDOWN_RETIRING.ALL", 1400 }, { "TOPDOWN_BAD_SPECULATION.MISPREDICT", 300 },
		{ "TOPDOWN_BAD_SPECULATION.MONUKE", 100 }, { NULL, 0 },
	};
	struct recipe_result out;
	struct recipe_error e;

	check_int(run("intel-ecore-l1", "gracemont", grt, false, 2, &out, &e), ==, 0, "Gracemont");
	check_dbl(out.slots, 10000, EPS, "SLOTS = 5 x 2000");
	check_dbl(F(TMA_FRONTEND_BOUND), 0.25, EPS, "tma_frontend_bound 2500/10000");
	check_dbl(F(TMA_BAD_SPECULATION), 0.10, EPS, "tma_bad_speculation (10000-9000)/10000");
	check_dbl(F(TMA_BACKEND_BOUND), 0.35, EPS, "tma_backend_bound 3500/10000");
	check_dbl(F(TMA_RETIRING), 0.30, EPS, "tma_retiring 3000/10000");
	check_dbl(F(TMA_FETCH_LATENCY), 0.15, EPS, "tma_fetch_latency 1500/10000");
	check_dbl(F(TMA_FETCH_BANDWIDTH), 0.09, EPS, "tma_fetch_bandwidth 900/10000");
	check_dbl(F(TMA_BRANCH_MISPREDICTS), 0.07, EPS, "tma_branch_mispredicts 700/10000");
	check_dbl(F(TMA_MACHINE_CLEARS), 0.03, EPS, "tma_machine_clears 300/10000");
	check_dbl(F(TMA_CORE_BOUND), 0.10, EPS, "tma_core_bound 1000/10000");
	check_dbl(extra(&out, "tma_resource_bound"), 0.25, EPS, "tma_resource_bound 0.35 - 0.10");
	check_int(run("intel-ecore-l1", "crestmont", cmt, false, 1, &out, &e), ==, 0, "Crestmont");
	check_dbl(out.slots, 6000, EPS, "SLOTS = 6 x 1000");
	check_dbl(F(TMA_FRONTEND_BOUND), 0.2, EPS, "tma_frontend_bound 1200/6000");
	check_dbl(F(TMA_BAD_SPECULATION), 0.1, EPS, "tma_bad_speculation 600/6000");
	check_dbl(F(TMA_BACKEND_BOUND), 0.3, EPS, "tma_backend_bound 1800/6000");
	check_dbl(F(TMA_RETIRING), 0.4, EPS, "tma_retiring 2400/6000");
	check_int(run("intel-ecore-l1", "skymont", skt, false, 1, &out, &e), ==, 0, "Skymont");
	check_dbl(out.slots, 8000, EPS, "SLOTS = 8 x 1000");
	check_dbl(F(TMA_BAD_SPECULATION), 0.1, EPS, "tma_bad_speculation FC4 800/8000");
	check_dbl(F(TMA_FRONTEND_BOUND), 0.2, EPS, "tma_frontend_bound FC5 1600/8000");
	check_dbl(F(TMA_RETIRING), 0.4, EPS, "tma_retiring FC6 3200/8000");
	check_dbl(F(TMA_BACKEND_BOUND), 0.3, EPS, "tma_backend_bound 2400/8000");
	check_int(run("intel-ecore-l1", "tremont", tnt, false, 2, &out, &e), ==, 0, "Tremont");
	check_dbl(out.slots, 4000, EPS, "SLOTS = 4 x 1000");
	check_dbl(F(TMA_FRONTEND_BOUND), 0.25, EPS, "tma_frontend_bound 1000/4000");
	check_dbl(F(TMA_BAD_SPECULATION), 0.10, EPS, "tma_bad_speculation 400/4000");
	check_dbl(F(TMA_BACKEND_BOUND), 0.30, EPS, "tma_backend_bound 1200/4000");
	check_dbl(F(TMA_RETIRING), 0.35, EPS, "tma_retiring 1400/4000");
	check_dbl(F(TMA_BRANCH_MISPREDICTS), 0.075, EPS, "tma_branch_mispredicts 300/4000");
	check_dbl(F(TMA_MACHINE_CLEARS), 0.025, EPS, "tma_machine_clears 100/4000");
}

/*
 * Zen 4 (amdzen4/pipeline.json), width 6: SLOTS = 6 * ls_not_halted_cyc = 6 * 1000 = 6000
 *   frontend_bound = 1200/6000 = 0.20; bad_speculation = (3300 - 3000)/6000 = 0.05
 *   backend_bound = 1320/6000 = 0.22; smt_contention = 180/6000 = 0.03
 *   retiring = 3000/6000 = 0.50 (the five sum to 1.00)
 *   frontend_bound_latency = 6 * 120 / 6000 = 0.12; _bandwidth = (1200 - 720)/6000 = 0.08
 *   bad_speculation_mispredicts = 0.05 * 45 / (45 + 15) = 0.0375; _pipeline_restarts = 0.0125
 *   backend_bound_memory = 0.22 * 300/400 = 0.165; _cpu = 0.22 * 0.25 = 0.055
 *   retiring_microcode = 0.50 * 300/3000 = 0.05; _fastpath = 0.45
 */
static void zen4(void)
{
	static const struct kv kv[] = {
		{ "ls_not_halted_cyc", 1000 }, { "de_no_dispatch_per_slot.no_ops_from_frontend", 1200 },
		{ "de_src_op_disp.all", 3300 }, { "ex_ret_ops", 3000 },
		{ "de_no_dispatch_per_slot.backend_stalls", 1320 },
		{ "de_no_dispatch_per_slot.smt_contention", 180 },
		{ "de_no_dispatch_per_slot.no_ops_from_frontend:c6", 120 },
		{ "ex_ret_brn_misp", 45 }, { "resyncs_or_nc_redirects", 15 },
		{ "ex_no_retire.load_not_complete", 300 }, { "ex_no_retire.not_complete", 400 },
		{ "ex_ret_ucode_ops", 300 }, { NULL, 0 },
	};
	struct recipe_result out;
	struct recipe_error e;

	check_int(run("amd-zen4", "zen4", kv, false, 2, &out, &e), ==, 0, "Zen 4");
	check_dbl(out.slots, 6000, EPS, "total_dispatch_slots 6 x 1000");
	check_dbl(F(TMA_FRONTEND_BOUND), 0.20, EPS, "frontend_bound 1200/6000");
	check_dbl(F(TMA_BAD_SPECULATION), 0.05, EPS, "bad_speculation (3300-3000)/6000");
	check_dbl(F(TMA_BACKEND_BOUND), 0.22, EPS, "backend_bound 1320/6000");
	check_dbl(extra(&out, "smt_contention"), 0.03, EPS, "smt_contention 180/6000");
	check_dbl(F(TMA_RETIRING), 0.50, EPS, "retiring 3000/6000");
	check_dbl(F(TMA_FETCH_LATENCY), 0.12, EPS, "frontend_bound_latency 6*120/6000");
	check_dbl(F(TMA_FETCH_BANDWIDTH), 0.08, EPS, "frontend_bound_bandwidth (1200-720)/6000");
	check_dbl(F(TMA_BRANCH_MISPREDICTS), 0.0375, EPS, "bad_speculation_mispredicts 0.05*45/60");
	check_dbl(F(TMA_MACHINE_CLEARS), 0.0125, EPS, "bad_speculation_pipeline_restarts 0.05*15/60");
	check_dbl(F(TMA_MEMORY_BOUND), 0.165, EPS, "backend_bound_memory 0.22*300/400");
	check_dbl(F(TMA_CORE_BOUND), 0.055, EPS, "backend_bound_cpu 0.22*(1-0.75)");
	check_dbl(F(TMA_HEAVY_OPERATIONS), 0.05, EPS, "retiring_microcode 0.5*300/3000");
	check_dbl(F(TMA_LIGHT_OPERATIONS), 0.45, EPS, "retiring_fastpath 0.5*(1-0.1)");
}

/*
 * Zen 5 (amdzen5/pipeline.json), width 8: SLOTS = 8 * 1000 = 8000
 *   frontend_bound = 1600/8000 = 0.20; bad_speculation = (4400 - 4000)/8000 = 0.05
 *   backend_bound = 1600/8000 = 0.20; smt_contention = 400/8000 = 0.05; retiring = 0.50
 *   frontend_bound_by_latency = 8 * 100 / 8000 = 0.10; _by_bandwidth = (1600 - 800)/8000 = 0.10
 *   bad_speculation_from_mispredicts = 0.05 * 30/(30 + 10) = 0.0375; _from_pipeline_restarts 0.0125
 *   backend_bound_by_memory = 0.20 * 100/400 = 0.05; _by_cpu = 0.15
 *   retiring_from_microcode = 0.50 * 400/4000 = 0.05; _from_fastpath = 0.45
 */
static void zen5(void)
{
	static const struct kv kv[] = {
		{ "ls_not_halted_cyc", 1000 }, { "de_no_dispatch_per_slot.no_ops_from_frontend", 1600 },
		{ "de_src_op_disp.all", 4400 }, { "ex_ret_ops", 4000 },
		{ "de_no_dispatch_per_slot.backend_stalls", 1600 },
		{ "de_no_dispatch_per_slot.smt_contention", 400 },
		{ "de_no_dispatch_per_slot.no_ops_from_frontend:c8", 100 },
		{ "ex_ret_brn_misp", 30 }, { "bp_redirects.resync", 10 },
		{ "ex_no_retire.load_not_complete", 100 }, { "ex_no_retire.not_complete", 400 },
		{ "ex_ret_ucode_ops", 400 }, { NULL, 0 },
	};
	struct recipe_result out;
	struct recipe_error e;

	check_int(run("amd-zen5", "zen5", kv, false, 2, &out, &e), ==, 0, "Zen 5");
	check_dbl(out.slots, 8000, EPS, "total_dispatch_slots 8 x 1000");
	check_dbl(F(TMA_FRONTEND_BOUND), 0.20, EPS, "frontend_bound 1600/8000");
	check_dbl(F(TMA_BAD_SPECULATION), 0.05, EPS, "bad_speculation (4400-4000)/8000");
	check_dbl(F(TMA_BACKEND_BOUND), 0.20, EPS, "backend_bound 1600/8000");
	check_dbl(extra(&out, "smt_contention"), 0.05, EPS, "smt_contention 400/8000");
	check_dbl(F(TMA_RETIRING), 0.50, EPS, "retiring 4000/8000");
	check_dbl(F(TMA_FETCH_LATENCY), 0.10, EPS, "frontend_bound_by_latency 8*100/8000");
	check_dbl(F(TMA_FETCH_BANDWIDTH), 0.10, EPS, "frontend_bound_by_bandwidth (1600-800)/8000");
	check_dbl(F(TMA_BRANCH_MISPREDICTS), 0.0375, EPS, "bad_speculation_from_mispredicts");
	check_dbl(F(TMA_MACHINE_CLEARS), 0.0125, EPS, "bad_speculation_from_pipeline_restarts");
	check_dbl(F(TMA_MEMORY_BOUND), 0.05, EPS, "backend_bound_by_memory 0.2*100/400");
	check_dbl(F(TMA_CORE_BOUND), 0.15, EPS, "backend_bound_by_cpu 0.2*0.75");
	check_dbl(F(TMA_HEAVY_OPERATIONS), 0.05, EPS, "retiring_from_microcode 0.5*0.1");
	check_dbl(F(TMA_LIGHT_OPERATIONS), 0.45, EPS, "retiring_from_fastpath 0.5*0.9");
}

int main(void)
{
	skylake_smt_off();
	skylake_smt_on();
	haswell();
	haswell_broadwell_memory();
	zeros();
	perf_metrics();
	icl_events();
	icl_events_clamps();
	ecores();
	zen4();
	zen5();
	return done_testing();
}
