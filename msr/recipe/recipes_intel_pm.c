/*
 * msr/recipe/recipes_intel_pm.c - intel-perf-metrics:sunny-cove, the Top-down of
 * Sunny Cove, Willow Cove and Cypress Cove (Ice Lake, Tiger Lake, Rocket
 * Lake, Ice Lake-SP) as the vendor writes it: IA32_PERF_METRICS's four
 * level-1 fields with fixed counter 3, and general-purpose events beside
 * them (data; msr/recipe/recipe.h).  Its sibling for Golden Cove and later, which
 * PERF_METRICS's eight fields alone make, is in msr/recipe/recipes_intel.c.
 *
 * Sources, cited by key in each row:
 *   [ICLM]  intel/perfmon ICL/metrics/icelake_metrics.json, read at commit
 *           6dadedf3aa483393943e044ba5ec88a4507cd040: the TMA nodes'
 *           BaseFormula (TGL/metrics/tigerlake_metrics.json,
 *           ICX/metrics/icelakex_metrics.json and
 *           RKL/metrics/rocketlake_metrics.json at that commit have the same
 *           formula for every node used here); "( 5 )" in them is
 *           #Pipeline_Width (written `width`).
 *   [CSV]   intel/perfmon TMA_Metrics-full.csv at the same commit, column ICL
 *           (#PERF_METRICS_MSR 1: level 1 from PERF_METRICS; an empty cell
 *           takes the older column's formula): the same formulas, the
 *           source of #PERF_METRICS_SUM and #Pipeline_Width 5.
 *   [ICLJ]  linux tools/perf/pmu-events/arch/x86/icelake/icl-metrics.json:
 *           perf's tma_frontend_bound, tma_backend_bound, tma_retiring and
 *           tma_bad_speculation are [ICLM]'s (topdown-* for PERF_METRICS.*,
 *           tma_info_thread_slots for TOPDOWN.SLOTS).
 *   [PM-ICL] intel/perfmon ICL/events/icelake_core.json at that commit
 *           (TGL/, ICX/, RKL/ *_core.json: the same EventCode, UMask,
 *           CounterMask, EdgeDetect and Counter for every event here; none
 *           has a CounterHTOff): the encodings and the counters.
 *   [ICORE] linux arch/x86/events/intel/core.c: the PERF_METRICS
 *           pseudo-events (topdown-retiring = event 0x00 umask 0x80 ...).
 *
 * Measured: level 1 from fixed counter 3, PERF_METRICS and two
 * general-purpose events (INT_MISC.UOP_DROPPING, INT_MISC.CLEARS_COUNT) in
 * one pass; level 2 adds 14 general-purpose events, counted in passes
 * (msr/recipe/recipe_passes.c: two on Sunny Cove's 8 counters).  No term of
 * [ICLM]'s level-1 and level-2 formulas is left out.
 */
#include "msr/recipe/recipes_intel_rows.h"

/* A PERF_METRICS field (the row macros of msr/recipe/recipes_intel_rows.h beside it). */
#define PM(nm, byte) \
	{ .name = (nm), .ctr = RECIPE_CTR_METRICS, .fixed = (byte), .event = 0x00, \
	  .umask = 0x80 + (byte), .source = "[ICORE] INTEL_TD_METRIC_* pseudo-event; " \
	  "IA32_PERF_METRICS byte " #byte " (linux arch/x86/include/asm/perf_event.h " \
	  "INTEL_PMC_IDX_TD_*)" }

/* [PM-ICL] "Counter" and no "CounterHTOff" (the same counters with SMT on
 * or off): "0,1,2,3,4,5,6,7" (C0_7) or "0,1,2,3" (C0_3); RKL/events/
 * rocketlake_core.json's rows alike (t/data/vendor-events.tsv, model RKL). */
#define C0_7 .counters = 0xFF, .counters_ht_off = 0xFF
#define C0_3 .counters = 0xF, .counters_ht_off = 0xF

static const struct recipe_event icl_pm_events[] = {
	FX("TOPDOWN.SLOTS", 3, 0x00, 0x04, "[PM-ICL] Fixed counter 3, 0x00/0x04"),
	PM("topdown-retiring", 0),
	PM("topdown-bad-spec", 1),
	PM("topdown-fe-bound", 2),
	PM("topdown-be-bound", 3),
	/* level 1: [ICLM] Frontend_Bound and Backend_Bound */
	GP("INT_MISC.UOP_DROPPING", 0x0D, 0x10, "[PM-ICL] 0x0d/0x10: \"TMA slots where uops got "
	   "dropped\"", C0_7),
	GP("INT_MISC.CLEARS_COUNT", 0x0D, 0x01, "[PM-ICL] 0x0D/0x01 CounterMask 1 EdgeDetect 1: "
	   "\"Clears speculative count\"", .cmask = 1, .edge = true, C0_7),
	/* level 2 */
	GP("IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 0x9C, 0x01, "[PM-ICL] CounterMask 5",
	   .cmask = 5, C0_7),
	GP("BR_MISP_RETIRED.ALL_BRANCHES", 0xC5, 0x00, "[PM-ICL]", C0_7),
	GP("MACHINE_CLEARS.COUNT", 0xC3, 0x01, "[PM-ICL] CounterMask 1, EdgeDetect 1", .cmask = 1,
	   .edge = true, C0_7),
	GP("CYCLE_ACTIVITY.STALLS_MEM_ANY", 0xA3, 0x14, "[PM-ICL] CounterMask 20", .cmask = 20, C0_7),
	GP("EXE_ACTIVITY.BOUND_ON_STORES", 0xA6, 0x40, "[PM-ICL] CounterMask 2", .cmask = 2, C0_7),
	GP("CYCLE_ACTIVITY.STALLS_TOTAL", 0xA3, 0x04, "[PM-ICL] CounterMask 4", .cmask = 4, C0_7),
	GP("EXE_ACTIVITY.1_PORTS_UTIL", 0xA6, 0x02, "[PM-ICL]", C0_7),
	GP("EXE_ACTIVITY.2_PORTS_UTIL", 0xA6, 0x04, "[PM-ICL]", C0_7),
	GP("UOPS_RETIRED.SLOTS", 0xC2, 0x02, "[PM-ICL]", C0_7),
	GP("UOPS_ISSUED.ANY", 0x0E, 0x01, "[PM-ICL]", C0_7),
	GP("IDQ.MS_UOPS", 0x79, 0x30, "[PM-ICL] Counter 0,1,2,3", C0_3),
	GP("UOPS_DECODED.DEC0", 0x56, 0x01, "[PM-ICL] Counter 0,1,2,3", C0_3),
	GP("UOPS_DECODED.DEC0:c1", 0x56, 0x01, "[PM-ICL] UOPS_DECODED.DEC0 with CounterMask 1 "
	   "([ICLM] UOPS_DECODED.DEC0:c1), Counter 0,1,2,3", .cmask = 1, C0_3),
	GP("IDQ.MITE_UOPS", 0x79, 0x04, "[PM-ICL] Counter 0,1,2,3", C0_3),
};

#define S_BASE(n) "[ICLM] " n ": BaseFormula"
static const struct recipe_node icl_pm_nodes[] = {
	N("SLOTS", 0, NULL, "TOPDOWN.SLOTS", "[ICLM] Info_Thread_SLOTS = TOPDOWN.SLOTS:perf_metrics"),
	N("PERF_METRICS_SUM", 0, NULL, "topdown\\-fe\\-bound + topdown\\-bad\\-spec + "
	  "topdown\\-retiring + topdown\\-be\\-bound", "[CSV] ICL #PERF_METRICS_SUM"),
	N(FE, 1, NULL, "topdown\\-fe\\-bound / PERF_METRICS_SUM - INT_MISC.UOP_DROPPING / SLOTS",
	  S_BASE("Frontend_Bound") " perf_metrics.frontend_bound / (the four) - "
	  "int_misc.uop_dropping / tma_info_thread_slots"),
	N(BE, 1, NULL, "topdown\\-be\\-bound / PERF_METRICS_SUM + width * INT_MISC.CLEARS_COUNT / SLOTS",
	  S_BASE("Backend_Bound") " perf_metrics.backend_bound / (the four) + ( ( 5 ) * "
	  "int_misc.clears_count ) / tma_info_thread_slots"),
	N(RET, 1, NULL, "topdown\\-retiring / PERF_METRICS_SUM",
	  S_BASE("Retiring") " perf_metrics.retiring / (the four)"),
	N(BAD, 1, NULL, "max(1 - (tma_frontend_bound + tma_backend_bound + tma_retiring), 0)",
	  S_BASE("Bad_Speculation") " max( 1 - ( tma_frontend_bound + tma_backend_bound + "
	  "tma_retiring ) , 0 )"),
	N("tma_fetch_latency", 2, FE, "(width * IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE - "
	  "INT_MISC.UOP_DROPPING) / SLOTS", S_BASE("Fetch_Latency")),
	N("tma_fetch_bandwidth", 2, FE, "max(0, tma_frontend_bound - tma_fetch_latency)",
	  S_BASE("Fetch_Bandwidth")),
	N("tma_branch_mispredicts", 2, BAD, "BR_MISP_RETIRED.ALL_BRANCHES / "
	  "(BR_MISP_RETIRED.ALL_BRANCHES + MACHINE_CLEARS.COUNT) * tma_bad_speculation",
	  S_BASE("Branch_Mispredicts")),
	N("tma_machine_clears", 2, BAD, "max(0, tma_bad_speculation - tma_branch_mispredicts)",
	  S_BASE("Machine_Clears")),
	N("tma_memory_bound", 2, BE, "(CYCLE_ACTIVITY.STALLS_MEM_ANY + EXE_ACTIVITY.BOUND_ON_STORES) / "
	  "(CYCLE_ACTIVITY.STALLS_TOTAL + (EXE_ACTIVITY.1_PORTS_UTIL + tma_retiring * "
	  "EXE_ACTIVITY.2_PORTS_UTIL) + EXE_ACTIVITY.BOUND_ON_STORES) * tma_backend_bound",
	  S_BASE("Memory_Bound")),
	N("tma_core_bound", 2, BE, "max(0, tma_backend_bound - tma_memory_bound)",
	  S_BASE("Core_Bound")),
	/* level 3 in [ICLM], the part of Heavy_Operations from the sequencer */
	N("Microcode_Sequencer", 0, NULL, "UOPS_RETIRED.SLOTS / UOPS_ISSUED.ANY * IDQ.MS_UOPS / SLOTS",
	  S_BASE("Microcode_Sequencer") " ( uops_retired.slots / uops_issued.any ) * idq.ms_uops "
	  "/ tma_info_thread_slots"),
	N("tma_heavy_operations", 2, RET, "Microcode_Sequencer + tma_retiring * "
	  "(UOPS_DECODED.DEC0 - UOPS_DECODED.DEC0:c1) / IDQ.MITE_UOPS", S_BASE("Heavy_Operations")),
	N("tma_light_operations", 2, RET, "max(0, tma_retiring - tma_heavy_operations)",
	  S_BASE("Light_Operations")),
};

/* PERF_METRICS level 1: the kernel's num_topdown_events 4 (cpu/cpu_models.c). */
static const char *const u_icl_pm[] = { "Sunny Cove", "Willow Cove", "Cypress Cove", NULL };

#define ICL_PM_BOUND "8-bit quantisation of the PERF_METRICS fields (each a fraction of " \
	"TOPDOWN.SLOTS in 1/255, within (1 + |S - 255|) / 255 of the true fraction, S the four " \
	"level-1 fields' sum); the general-purpose events are exact counts; level 2 in passes " \
	"(different intervals, the first pass's slots)"
#define ICL_PM_NOTES "nothing: icelake_metrics.json's level-1 and level-2 formulas whole " \
	"(INT_MISC.UOP_DROPPING and INT_MISC.CLEARS_COUNT counted beside PERF_METRICS)"

static const struct recipe recipes_intel_pm[] = {
	{ "intel-perf-metrics", "sunny-cove", u_icl_pm, I, 5, icl_pm_events,
	  RECIPE_N(icl_pm_events), icl_pm_nodes, RECIPE_N(icl_pm_nodes), ICL_PM_BOUND,
	  ICL_PM_NOTES },
};
const struct recipe_table recipes_intel_pm_table = { recipes_intel_pm,
						      RECIPE_N(recipes_intel_pm) };
