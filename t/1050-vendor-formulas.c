/*
 * t/1050-vendor-formulas - the recipes whose formulas issue 28 brought to
 * the vendor's: Sunny Cove's intel-perf-metrics (PERF_METRICS with
 * INT_MISC.UOP_DROPPING and INT_MISC.CLEARS_COUNT at level 1, and the
 * events of level 2) and the E-cores' level 2, each computed from counts
 * chosen by hand, the expected fractions worked by hand below from the
 * vendor's formula (never computed by the evaluator).
 *
 * Sources (intel/perfmon at commit 6dadedf3aa483393943e044ba5ec88a4507cd040):
 *   ICL/metrics/icelake_metrics.json, BaseFormula of each node ("( 5 )" is
 *   #Pipeline_Width of TMA_Metrics-full.csv's ICL column):
 *     Frontend_Bound   = fe / (fe + bad + ret + be) - INT_MISC.UOP_DROPPING / SLOTS
 *     Backend_Bound    = be / (fe + bad + ret + be) + 5 * INT_MISC.CLEARS_COUNT / SLOTS
 *     Retiring         = ret / (fe + bad + ret + be)
 *     Bad_Speculation  = max(1 - (Frontend_Bound + Backend_Bound + Retiring), 0)
 *     Fetch_Latency    = (5 * IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE
 *                         - INT_MISC.UOP_DROPPING) / SLOTS
 *     Fetch_Bandwidth  = max(0, Frontend_Bound - Fetch_Latency)
 *     Branch_Mispredicts = BR_MISP_RETIRED.ALL_BRANCHES / (BR_MISP_RETIRED.ALL_BRANCHES
 *                         + MACHINE_CLEARS.COUNT) * Bad_Speculation
 *     Machine_Clears   = max(0, Bad_Speculation - Branch_Mispredicts)
 *     Memory_Bound     = (CYCLE_ACTIVITY.STALLS_MEM_ANY + EXE_ACTIVITY.BOUND_ON_STORES)
 *                        / (CYCLE_ACTIVITY.STALLS_TOTAL + (EXE_ACTIVITY.1_PORTS_UTIL
 *                        + Retiring * EXE_ACTIVITY.2_PORTS_UTIL)
 *                        + EXE_ACTIVITY.BOUND_ON_STORES) * Backend_Bound
 *     Core_Bound       = max(0, Backend_Bound - Memory_Bound)
 *     Microcode_Sequencer = (UOPS_RETIRED.SLOTS / UOPS_ISSUED.ANY) * IDQ.MS_UOPS / SLOTS
 *     Heavy_Operations = Microcode_Sequencer + Retiring * (UOPS_DECODED.DEC0
 *                        - UOPS_DECODED.DEC0:c1) / IDQ.MITE_UOPS
 *     Light_Operations = max(0, Retiring - Heavy_Operations)
 *   with fe, bad, ret, be the PERF_METRICS fields (here perf's topdown-*
 *   slot counts, which the formulas divide by their sum: the same ratios)
 *   and SLOTS = TOPDOWN.SLOTS.
 *   E-core_TMA_Metrics.csv (columns CMT, LNL-SKT), #SLOTS = #Pipeline_Width
 *   x CPU_CLK_UNHALTED.CORE (Crestmont 6, Skymont 8):
 *     Frontend_Bound = TOPDOWN_FE_BOUND.ALL_P / #SLOTS, Bad_Speculation =
 *     TOPDOWN_BAD_SPECULATION.ALL_P / #SLOTS, Backend_Bound =
 *     TOPDOWN_BE_BOUND.ALL_P / #SLOTS, Retiring = TOPDOWN_RETIRING.ALL_P / #SLOTS
 *     (Skymont's fixed counters 4-6 count the same slots as TOPDOWN_*.ALL),
 *     IFetch_Latency = TOPDOWN_FE_BOUND.FRONTEND_LATENCY / #SLOTS,
 *     IFetch_Bandwidth = TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH / #SLOTS,
 *     Branch_Mispredicts = TOPDOWN_BAD_SPECULATION.MISPREDICT / #SLOTS,
 *     Machine_Clears = TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS / #SLOTS,
 *     Core_Bound = TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS / #SLOTS,
 *     Resource_Bound = TOPDOWN_BE_BOUND.ALL_P / #SLOTS - Core_Bound.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "msr/recipe/recipe.h"
#include "t/tap.h"

#define EPS 1e-12

struct kv {
	const char *name;
	double v;
};

/* Evaluate @r on the counts @kv (the rest not measured). */
static int eval(const struct recipe *r, const struct kv *kv, int level, struct recipe_result *out,
		struct recipe_error *e)
{
	struct recipe_env env = { .smt_on = false };
	double c[RECIPE_EVENTS_MAX];

	for (int i = 0; i < RECIPE_EVENTS_MAX; i++)
		c[i] = NAN;
	for (; kv->name; kv++) {
		int i = recipe_event_index(r, kv->name);

		if (i < 0) {
			printf("# event %s is no event of %s:%s\n", kv->name, r->name, r->variant);
			return -ENOENT;
		}
		c[i] = kv->v;
	}
	return recipe_eval(r, c, &env, level, out, e);
}

static double extra(const struct recipe_result *r, const char *metric)
{
	for (unsigned i = 0; i < r->nextra; i++)
		if (strcmp(r->extra[i].metric, metric) == 0)
			return r->extra[i].frac;
	return NAN;
}

#define F(m) out.frac[m]

/* The level-1 counts of the Sunny Cove vectors: TOPDOWN.SLOTS 10000, the
 * fields' slot counts ret 3920, bad 980, fe 1960, be 2940 (sum 9800). */
#define ICL_L1(drop, clears) \
	{ "TOPDOWN.SLOTS", 10000 }, { "topdown-retiring", 3920 }, { "topdown-bad-spec", 980 }, \
	{ "topdown-fe-bound", 1960 }, { "topdown-be-bound", 2940 }, \
	{ "INT_MISC.UOP_DROPPING", drop }, { "INT_MISC.CLEARS_COUNT", clears }

/*
 * Sunny Cove, UOP_DROPPING 100, CLEARS_COUNT 40:
 *   Frontend_Bound  = 1960/9800 - 100/10000 = 0.20 - 0.01 = 0.19
 *   Backend_Bound   = 2940/9800 + 5*40/10000 = 0.30 + 0.02 = 0.32
 *   Retiring        = 3920/9800 = 0.40
 *   Bad_Speculation = max(1 - (0.19 + 0.32 + 0.40), 0) = 0.09
 *     (the field alone, 980/9800 = 0.10, is what PERF_METRICS alone gave)
 * Level 2 (CYCLES_0_UOPS_DELIV.CORE 300; BR_MISP 60, MACHINE_CLEARS 20;
 * STALLS_MEM_ANY 60, BOUND_ON_STORES 20, STALLS_TOTAL 100, 1_PORTS 40,
 * 2_PORTS 100; UOPS_RETIRED.SLOTS 4000, UOPS_ISSUED.ANY 5000, IDQ.MS_UOPS
 * 500, DEC0 900, DEC0:c1 600, IDQ.MITE_UOPS 2000):
 *   Fetch_Latency   = (5*300 - 100)/10000 = 0.14; Fetch_Bandwidth = 0.19 - 0.14 = 0.05
 *   Branch_Mispredicts = 60/80 * 0.09 = 0.0675; Machine_Clears = 0.09 - 0.0675 = 0.0225
 *   Memory_Bound    = (60 + 20) / (100 + (40 + 0.40*100) + 20) * 0.32 = 80/200 * 0.32
 *                   = 0.128; Core_Bound = 0.32 - 0.128 = 0.192
 *   Microcode_Sequencer = 4000/5000 * 500/10000 = 0.04
 *   Heavy_Operations = 0.04 + 0.40 * (900 - 600)/2000 = 0.04 + 0.06 = 0.10
 *   Light_Operations = 0.40 - 0.10 = 0.30
 */
static const struct kv icl_l2[] = {
	ICL_L1(100, 40),
	{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 300 },
	{ "BR_MISP_RETIRED.ALL_BRANCHES", 60 }, { "MACHINE_CLEARS.COUNT", 20 },
	{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", 60 }, { "EXE_ACTIVITY.BOUND_ON_STORES", 20 },
	{ "CYCLE_ACTIVITY.STALLS_TOTAL", 100 }, { "EXE_ACTIVITY.1_PORTS_UTIL", 40 },
	{ "EXE_ACTIVITY.2_PORTS_UTIL", 100 }, { "UOPS_RETIRED.SLOTS", 4000 },
	{ "UOPS_ISSUED.ANY", 5000 }, { "IDQ.MS_UOPS", 500 }, { "UOPS_DECODED.DEC0", 900 },
	{ "UOPS_DECODED.DEC0:c1", 600 }, { "IDQ.MITE_UOPS", 2000 }, { NULL, 0 },
};

static void sunny_cove(const struct recipe *r)
{
	static const struct kv l1[] = { ICL_L1(100, 40), { NULL, 0 } };
	struct recipe_result out;
	struct recipe_error e;

	check_int(eval(r, l1, 1, &out, &e), ==, 0, "Sunny Cove level 1");
	check_dbl(out.slots, 10000, EPS, "  SLOTS = TOPDOWN.SLOTS");
	check_dbl(F(TMA_FRONTEND_BOUND), 0.19, EPS, "  tma_frontend_bound 1960/9800 - 100/10000");
	check_dbl(F(TMA_BACKEND_BOUND), 0.32, EPS, "  tma_backend_bound 2940/9800 + 5*40/10000");
	check_dbl(F(TMA_RETIRING), 0.40, EPS, "  tma_retiring 3920/9800");
	check_dbl(F(TMA_BAD_SPECULATION), 0.09, EPS, "  tma_bad_speculation max(1 - 0.91, 0)");
	ok(isnan(F(TMA_FETCH_LATENCY)), "  level 1 asked: no level-2 node");

	check_int(eval(r, icl_l2, 2, &out, &e), ==, 0, "Sunny Cove level 2");
	check_dbl(F(TMA_BAD_SPECULATION), 0.09, EPS, "  tma_bad_speculation as at level 1");
	check_dbl(F(TMA_FETCH_LATENCY), 0.14, EPS, "  tma_fetch_latency (5*300 - 100)/10000");
	check_dbl(F(TMA_FETCH_BANDWIDTH), 0.05, EPS, "  tma_fetch_bandwidth 0.19 - 0.14");
	check_dbl(F(TMA_BRANCH_MISPREDICTS), 0.0675, EPS, "  tma_branch_mispredicts 60/80 * 0.09");
	check_dbl(F(TMA_MACHINE_CLEARS), 0.0225, EPS, "  tma_machine_clears 0.09 - 0.0675");
	check_dbl(F(TMA_MEMORY_BOUND), 0.128, EPS, "  tma_memory_bound 80/200 * 0.32");
	check_dbl(F(TMA_CORE_BOUND), 0.192, EPS, "  tma_core_bound 0.32 - 0.128");
	check_dbl(F(TMA_HEAVY_OPERATIONS), 0.10, EPS, "  tma_heavy_operations 0.04 + 0.40*300/2000");
	check_dbl(F(TMA_LIGHT_OPERATIONS), 0.30, EPS, "  tma_light_operations 0.40 - 0.10");
	ok(out.undefined.what == NULL, "  every node defined");
}

/*
 * No clear and no drop: the fields alone, Bad_Speculation the remainder
 *   1 - (0.20 + 0.30 + 0.40) = 0.10 = 980/9800.
 * CLEARS_COUNT 300 (UOP_DROPPING 100): Backend_Bound = 0.30 + 5*300/10000 =
 *   0.45, 1 - (0.19 + 0.45 + 0.40) = -0.04: Bad_Speculation max(-0.04, 0) = 0,
 *   Branch_Mispredicts 60/80 * 0 = 0, Machine_Clears max(0, 0 - 0) = 0.
 * CYCLES_0_UOPS_DELIV.CORE 500: Fetch_Latency (2500 - 100)/10000 = 0.24 >
 *   Frontend_Bound 0.19: Fetch_Bandwidth max(0, -0.05) = 0.
 * STALLS_MEM_ANY 300 (the rest as above): Memory_Bound = (300 + 20) / 200 *
 *   Backend_Bound = 1.6 * 0.45 = 0.72: Core_Bound max(0, 0.45 - 0.72) = 0.
 * DEC0 3900: Heavy_Operations = 0.04 + 0.40 * 3300/2000 = 0.04 + 0.66 = 0.70
 *   > Retiring: Light_Operations max(0, 0.40 - 0.70) = 0.
 */
static void sunny_cove_clamps(const struct recipe *r)
{
	static const struct kv none[] = { ICL_L1(0, 0), { NULL, 0 } };
	static const struct kv clamp[] = {
		ICL_L1(100, 300),
		{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 500 },
		{ "BR_MISP_RETIRED.ALL_BRANCHES", 60 }, { "MACHINE_CLEARS.COUNT", 20 },
		{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", 300 }, { "EXE_ACTIVITY.BOUND_ON_STORES", 20 },
		{ "CYCLE_ACTIVITY.STALLS_TOTAL", 100 }, { "EXE_ACTIVITY.1_PORTS_UTIL", 40 },
		{ "EXE_ACTIVITY.2_PORTS_UTIL", 100 }, { "UOPS_RETIRED.SLOTS", 4000 },
		{ "UOPS_ISSUED.ANY", 5000 }, { "IDQ.MS_UOPS", 500 }, { "UOPS_DECODED.DEC0", 3900 },
		{ "UOPS_DECODED.DEC0:c1", 600 }, { "IDQ.MITE_UOPS", 2000 }, { NULL, 0 },
	};
	struct recipe_result out;
	struct recipe_error e;

	check_int(eval(r, none, 1, &out, &e), ==, 0, "no drop, no clear");
	check_dbl(F(TMA_FRONTEND_BOUND), 0.20, EPS, "  tma_frontend_bound 1960/9800");
	check_dbl(F(TMA_BACKEND_BOUND), 0.30, EPS, "  tma_backend_bound 2940/9800");
	check_dbl(F(TMA_BAD_SPECULATION), 0.10, EPS, "  tma_bad_speculation 1 - 0.90 = 980/9800");

	check_int(eval(r, clamp, 2, &out, &e), ==, 0, "the clamps");
	check_dbl(F(TMA_BACKEND_BOUND), 0.45, EPS, "  tma_backend_bound 0.30 + 5*300/10000");
	check_dbl(F(TMA_BAD_SPECULATION), 0, EPS, "  tma_bad_speculation max(1 - 1.04, 0) = 0");
	check_dbl(F(TMA_BRANCH_MISPREDICTS), 0, EPS, "  tma_branch_mispredicts 60/80 * 0");
	check_dbl(F(TMA_MACHINE_CLEARS), 0, EPS, "  tma_machine_clears max(0, 0)");
	check_dbl(F(TMA_FETCH_LATENCY), 0.24, EPS, "  tma_fetch_latency (2500 - 100)/10000");
	check_dbl(F(TMA_FETCH_BANDWIDTH), 0, EPS, "  tma_fetch_bandwidth max(0, 0.19 - 0.24)");
	check_dbl(F(TMA_MEMORY_BOUND), 0.72, EPS, "  tma_memory_bound 320/200 * 0.45");
	check_dbl(F(TMA_CORE_BOUND), 0, EPS, "  tma_core_bound max(0, 0.45 - 0.72)");
	check_dbl(F(TMA_HEAVY_OPERATIONS), 0.70, EPS, "  tma_heavy_operations 0.04 + 0.40*3300/2000");
	check_dbl(F(TMA_LIGHT_OPERATIONS), 0, EPS, "  tma_light_operations max(0, 0.40 - 0.70)");
}

/* What level 1 needs: TOPDOWN.SLOTS, the four fields and the two events;
 * without INT_MISC.CLEARS_COUNT it is refused, naming it. */
static void sunny_cove_needs(const struct recipe *r)
{
	static const char *const l1[] = {
		"TOPDOWN.SLOTS", "topdown-retiring", "topdown-bad-spec", "topdown-fe-bound",
		"topdown-be-bound", "INT_MISC.UOP_DROPPING", "INT_MISC.CLEARS_COUNT",
	};
	static const struct kv no_clears[] = {
		{ "TOPDOWN.SLOTS", 10000 }, { "topdown-retiring", 3920 }, { "topdown-bad-spec", 980 },
		{ "topdown-fe-bound", 1960 }, { "topdown-be-bound", 2940 },
		{ "INT_MISC.UOP_DROPPING", 100 }, { NULL, 0 },
	};
	struct recipe_env env = { .smt_on = false };
	struct recipe_result out;
	struct recipe_error e;
	uint32_t mask = 0, want = 0;

	for (size_t i = 0; i < sizeof(l1) / sizeof(l1[0]); i++)
		want |= 1u << recipe_event_index(r, l1[i]);
	check_int(recipe_needed(r, &env, 1, &mask), ==, 0, "level 1's events");
	check_u64(mask, ==, want, "  TOPDOWN.SLOTS, the four fields, UOP_DROPPING, CLEARS_COUNT");
	check_int(recipe_needed(r, &env, 2, &mask), ==, 0, "level 2's events");
	check_u64(mask, ==, (1u << r->nevents) - 1, "  every event of the recipe");
	check_int(eval(r, no_clears, 1, &out, &e), ==, -ENODATA, "no CLEARS_COUNT: -ENODATA");
	check_str(e.event, "INT_MISC.CLEARS_COUNT", "  naming the event");
	check_str(e.metric, "tma_backend_bound", "  in the formula that needs it");
}

/* The passes on Sunny Cove's counters (8 GP, fixed 0-3: the Ice Lake dump's
 * CPUID leaf 0xA): level 1 in one pass, level 2 in two; IDQ.MS_UOPS,
 * UOPS_DECODED.DEC0 (and its :c1) and IDQ.MITE_UOPS on counters 0-3
 * ("Counter": "0,1,2,3" in icelake_core.json). */
static void sunny_cove_passes(const struct recipe *r)
{
	static const char *const low[] = {
		"IDQ.MS_UOPS", "UOPS_DECODED.DEC0", "UOPS_DECODED.DEC0:c1", "IDQ.MITE_UOPS",
	};
	struct recipe_env env = { .smt_on = false };
	struct recipe_pass ps[4];
	uint32_t m1, m2;
	bool low_ok = true;
	int n;

	recipe_needed(r, &env, 1, &m1);
	recipe_needed(r, &env, 2, &m2);
	check_int(recipe_passes(r, &env, m1, 0xff, 0xf, ps, 4), ==, 1, "level 1: one pass");
	check_int(ps[0].n, ==, 7, "  of 7 events");
	n = recipe_passes(r, &env, m2, 0xff, 0xf, ps, 4);
	check_int(n, ==, 2, "level 2 on 8 GP counters: two passes");
	for (int p = 0; p < n; p++)
		for (unsigned k = 0; k < ps[p].n; k++)
			for (size_t j = 0; j < sizeof(low) / sizeof(low[0]); j++)
				if (!strcmp(r->events[ps[p].event[k]].name, low[j]) &&
				    (ps[p].counter[k] < 0 || ps[p].counter[k] > 3))
					low_ok = false;
	ok(low_ok, "  the four 0-3 events on counters 0-3");
}

/* The notes name exactly what each PERF_METRICS recipe leaves out. */
static void notes(const struct recipe *icl)
{
	const struct recipe *glc = recipe_find_variant("intel-perf-metrics", "golden-cove");

	ok(icl->notes && !strncmp(icl->notes, "nothing: ", 9),
	   "sunny-cove: the notes say nothing is left out (%s)", icl->notes ? icl->notes : "NULL");
	ok(glc && glc->notes && strstr(glc->notes, "INT_MISC.UOP_DROPPING / SLOTS") &&
	   strstr(glc->notes, "tma_frontend_bound") && strstr(glc->notes, "tma_fetch_latency") &&
	   strstr(glc->notes, "max(0, ...)"),
	   "golden-cove: the notes name sapphirerapids_metrics.json's UOP_DROPPING terms and "
	   "the clamps");
	/* every recipe says what it leaves out, "nothing: " naming the vendor's
	 * file where it leaves nothing (the issue: "every recipe names in its
	 * output any term it leaves out"; an absent line would say nothing) */
	for (size_t i = 0; i < recipe_count(); i++) {
		const struct recipe *r = recipe_at(i);

		ok(r->notes && r->notes[0], "%s:%s: says what it leaves out (%s)", r->name,
		   r->variant, r->notes ? r->notes : "NULL");
	}
	static const char *const whole[][3] = {
		{ "intel-pre-icl-l1", "skylake", "skl-metrics.json" },
		{ "amd-zen4", "zen4", "amdzen4 pipeline.json" },
		{ "amd-zen5", "zen5", "amdzen5 pipeline.json" },
	};
	for (size_t i = 0; i < sizeof(whole) / sizeof(whole[0]); i++) {
		const struct recipe *r = recipe_find_variant(whole[i][0], whole[i][1]);

		ok(r && r->notes && !strncmp(r->notes, "nothing: ", 9) && strstr(r->notes, whole[i][2]),
		   "%s:%s: nothing left out of %s", whole[i][0], whole[i][1], whole[i][2]);
	}
}

/*
 * Crestmont, width 6, CPU_CLK_UNHALTED.CORE 1000: #SLOTS 6000.
 *   FE 1200, BAD 600, BE 1800, RET 2400 (0.20, 0.10, 0.30, 0.40)
 *   IFetch_Latency 720/6000 = 0.12; IFetch_Bandwidth 480/6000 = 0.08
 *   Branch_Mispredicts 420/6000 = 0.07; Machine_Clears 180/6000 = 0.03
 *   Core_Bound 600/6000 = 0.10; Resource_Bound 1800/6000 - 0.10 = 0.20
 */
static void crestmont(void)
{
	static const struct kv kv[] = {
		{ "CPU_CLK_UNHALTED.CORE", 1000 }, { "TOPDOWN_FE_BOUND.ALL_P", 1200 },
		{ "TOPDOWN_BAD_SPECULATION.ALL_P", 600 }, { "TOPDOWN_BE_BOUND.ALL_P", 1800 },
		{ "TOPDOWN_RETIRING.ALL_P", 2400 }, { "TOPDOWN_FE_BOUND.FRONTEND_LATENCY", 720 },
		{ "TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH", 480 },
		{ "TOPDOWN_BAD_SPECULATION.MISPREDICT", 420 },
		{ "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS", 180 },
		{ "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS", 600 }, { NULL, 0 },
	};
	const struct recipe *r = recipe_find_variant("intel-ecore-l1", "crestmont");
	struct recipe_result out;
	struct recipe_error e;

	if (!ok(r != NULL, "intel-ecore-l1:crestmont"))
		return;
	check_int(eval(r, kv, 2, &out, &e), ==, 0, "Crestmont level 2");
	check_dbl(out.slots, 6000, EPS, "  #SLOTS 6 x 1000");
	check_dbl(F(TMA_FETCH_LATENCY), 0.12, EPS, "  tma_fetch_latency (IFetch_Latency) 720/6000");
	check_dbl(F(TMA_FETCH_BANDWIDTH), 0.08, EPS, "  tma_fetch_bandwidth (IFetch_Bandwidth) 480/6000");
	check_dbl(F(TMA_BRANCH_MISPREDICTS), 0.07, EPS, "  tma_branch_mispredicts 420/6000");
	check_dbl(F(TMA_MACHINE_CLEARS), 0.03, EPS, "  tma_machine_clears 180/6000");
	check_dbl(F(TMA_CORE_BOUND), 0.10, EPS, "  tma_core_bound 600/6000");
	check_dbl(extra(&out, "tma_resource_bound"), 0.20, EPS, "  tma_resource_bound 0.30 - 0.10");
	ok(isnan(F(TMA_HEAVY_OPERATIONS)) && isnan(F(TMA_MEMORY_BOUND)),
	   "  no heavy operations, no memory bound: no such node in the E-core tree");
}

/*
 * Skymont, width 8, CPU_CLK_UNHALTED.CORE 1000: #SLOTS 8000; the fixed-
 * counter variant and the GP one (the same level 2 events):
 *   Bad_Speculation 640/8000 = 0.08; Frontend_Bound 1600/8000 = 0.20
 *   Retiring 3360/8000 = 0.42; Backend_Bound 2400/8000 = 0.30
 *   IFetch_Latency 960/8000 = 0.12; IFetch_Bandwidth 640/8000 = 0.08
 *   Branch_Mispredicts 400/8000 = 0.05; Machine_Clears 240/8000 = 0.03
 *   Core_Bound 800/8000 = 0.10; Resource_Bound 2400/8000 - 0.10 = 0.20
 */
static void skymont(const char *variant, const char *bad, const char *fe, const char *ret)
{
	const struct kv kv[] = {
		{ "CPU_CLK_UNHALTED.CORE", 1000 }, { bad, 640 }, { fe, 1600 }, { ret, 3360 },
		{ "TOPDOWN_BE_BOUND.ALL_P", 2400 }, { "TOPDOWN_FE_BOUND.FRONTEND_LATENCY", 960 },
		{ "TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH", 640 },
		{ "TOPDOWN_BAD_SPECULATION.MISPREDICT", 400 },
		{ "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS", 240 },
		{ "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS", 800 }, { NULL, 0 },
	};
	const struct recipe *r = recipe_find_variant("intel-ecore-l1", variant);
	struct recipe_result out;
	struct recipe_error e;
	char name[64];

	if (!ok(r != NULL, "intel-ecore-l1:%s", variant))
		return;

	snprintf(name, sizeof(name), "%s level 2", variant);
	check_int(eval(r, kv, 2, &out, &e), ==, 0, name);
	check_dbl(out.slots, 8000, EPS, "  #SLOTS 8 x 1000");
	check_dbl(F(TMA_BAD_SPECULATION), 0.08, EPS, "  tma_bad_speculation 640/8000");
	check_dbl(F(TMA_FRONTEND_BOUND), 0.20, EPS, "  tma_frontend_bound 1600/8000");
	check_dbl(F(TMA_RETIRING), 0.42, EPS, "  tma_retiring 3360/8000");
	check_dbl(F(TMA_BACKEND_BOUND), 0.30, EPS, "  tma_backend_bound 2400/8000");
	check_dbl(F(TMA_FETCH_LATENCY), 0.12, EPS, "  tma_fetch_latency 960/8000");
	check_dbl(F(TMA_FETCH_BANDWIDTH), 0.08, EPS, "  tma_fetch_bandwidth 640/8000");
	check_dbl(F(TMA_BRANCH_MISPREDICTS), 0.05, EPS, "  tma_branch_mispredicts 400/8000");
	check_dbl(F(TMA_MACHINE_CLEARS), 0.03, EPS, "  tma_machine_clears 240/8000");
	check_dbl(F(TMA_CORE_BOUND), 0.10, EPS, "  tma_core_bound 800/8000");
	check_dbl(extra(&out, "tma_resource_bound"), 0.20, EPS, "  tma_resource_bound 0.30 - 0.10");
}

int main(void)
{
	const struct recipe *icl = recipe_find_variant("intel-perf-metrics", "sunny-cove");

	if (!ok(icl != NULL, "intel-perf-metrics:sunny-cove"))
		return done_testing();
	sunny_cove(icl);
	sunny_cove_clamps(icl);
	sunny_cove_needs(icl);
	sunny_cove_passes(icl);
	notes(icl);
	crestmont();
	skymont("skymont", "TOPDOWN_BAD_SPECULATION.ALL", "TOPDOWN_FE_BOUND.ALL",
		"TOPDOWN_RETIRING.ALL");
	skymont("skymont-gp", "TOPDOWN_BAD_SPECULATION.ALL_P", "TOPDOWN_FE_BOUND.ALL_P",
		"TOPDOWN_RETIRING.ALL_P");
	return done_testing();
}
