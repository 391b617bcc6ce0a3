/*
 * msr/recipe/recipes_intel_icl.c - intel-icl-events, the Top-down of the
 * Ice Lake and later P-cores in the vendor's event form (not
 * #PERF_METRICS_MSR): Sunny/Willow Cove and Golden/Raptor/Redwood Cove
 * from general-purpose events and fixed counter 3, validate's cross-check
 * of PERF_METRICS (data; msr/recipe/recipe.h).  The PERF_METRICS recipes
 * are msr/recipe/recipes_intel.c (Golden Cove and later) and
 * msr/recipe/recipes_intel_pm.c (Sunny Cove).
 *
 * Sources, cited by key in each row:
 *   [PM-x]   intel/perfmon x/events/<model>_core.json: event encodings (EventCode,
 *            UMask, CounterMask, EdgeDetect, Counter), e.g.
 *            [PM-ICL] ICL/events/icelake_core.json.
 *   [CSV]    intel/perfmon TMA_Metrics-full.csv (TMA 5.2): the formulas of
 *            the big cores, per microarchitecture column (an empty cell
 *            takes the older column's formula); #Pipeline_Width, SLOTS
 *            its auxiliary rows.
 *   [ICLJ]   linux tools/perf/pmu-events/arch/x86/icelake/icl-metrics.json
 *            (tma_* MetricExpr).
 *   [ICORE]  linux arch/x86/events/intel/core.c: the kernel's event
 *            constraints (intel_glc_event_constraints).
 */
#include "msr/recipe/recipes_intel_rows.h"

/* ===================================== intel-icl-events (ICL+ P-cores) */

#define S_ICL "[PM-ICL] ICL/events/icelake_core.json, [PM-TGL] TGL/events/tigerlake_core.json"
#define S_GLC "[PM-ADL] ADL/events/alderlake_goldencove_core.json, [PM-SPR] SPR/events/" \
	"sapphirerapids_core.json, [PM-MTL] MTL/events/meteorlake_redwoodcove_core.json"

static const struct recipe_event icl_events[] = {
	FX("TOPDOWN.SLOTS", 3, 0x00, 0x04, S_ICL ": Fixed counter 3"),
	GP("IDQ_UOPS_NOT_DELIVERED.CORE", 0x9C, 0x01, S_ICL, C07),
	GP("INT_MISC.UOP_DROPPING", 0x0D, 0x10, S_ICL, C07),
	GP("TOPDOWN.BACKEND_BOUND_SLOTS", 0xA4, 0x02, S_ICL, C07),
	GP("INT_MISC.CLEARS_COUNT", 0x0D, 0x01, S_ICL ": CounterMask 1, EdgeDetect 1", .cmask = 1,
	   .edge = true, C07),
	GP("UOPS_RETIRED.SLOTS", 0xC2, 0x02, S_ICL, C07),
	GP("IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 0x9C, 0x01, S_ICL ": CounterMask 5",
	   .cmask = 5, C07),
	GP("BR_MISP_RETIRED.ALL_BRANCHES", 0xC5, 0x00, S_ICL, C07),
	GP("MACHINE_CLEARS.COUNT", 0xC3, 0x01, S_ICL ": CounterMask 1, EdgeDetect 1", .cmask = 1,
	   .edge = true, C07),
	/* [ICLJ] tma_memory_bound (perf icelake/pipeline.json the same encodings) */
	GP("CYCLE_ACTIVITY.STALLS_MEM_ANY", 0xA3, 0x14, S_ICL ": CounterMask 20", .cmask = 20, C07),
	GP("EXE_ACTIVITY.BOUND_ON_STORES", 0xA6, 0x40, S_ICL ": CounterMask 2", .cmask = 2, C07),
	GP("CYCLE_ACTIVITY.STALLS_TOTAL", 0xA3, 0x04, S_ICL ": CounterMask 4", .cmask = 4, C07),
	GP("EXE_ACTIVITY.1_PORTS_UTIL", 0xA6, 0x02, S_ICL, C07),
	GP("EXE_ACTIVITY.2_PORTS_UTIL", 0xA6, 0x04, S_ICL, C07),
	/* [ICLJ] tma_heavy_operations, tma_microcode_sequencer */
	GP("UOPS_ISSUED.ANY", 0x0E, 0x01, S_ICL, C07),
	GP("IDQ.MS_UOPS", 0x79, 0x30, S_ICL " (perf icelake/frontend.json)", C03),
	GP("IDQ.MITE_UOPS", 0x79, 0x04, S_ICL " (perf icelake/frontend.json)", C03),
	GP("UOPS_DECODED.DEC0", 0x56, 0x01, S_ICL, C03),
	GP("UOPS_DECODED.DEC0:c1", 0x56, 0x01, S_ICL ": UOPS_DECODED.DEC0 with CounterMask 1 "
	   "([ICLJ] cpu@UOPS_DECODED.DEC0,cmask=1@)", .cmask = 1, C03),
};

#define ICL_DERIVED \
	N(BAD, L1, NULL, "max(1 - (tma_frontend_bound + tma_backend_bound + tma_retiring), 0)", \
	  "[CSV] ICL Bad_Speculation"), \
	N(RET, L1, NULL, "UOPS_RETIRED.SLOTS / SLOTS", "[CSV] ICL Retiring (not #PERF_METRICS_MSR)"), \
	N("tma_fetch_bandwidth", L2, FE, "max(0, tma_frontend_bound - tma_fetch_latency)", \
	  "[CSV] ICL Fetch_Bandwidth"), \
	N("tma_machine_clears", L2, BAD, "max(0, tma_bad_speculation - tma_branch_mispredicts)", \
	  "[CSV] ICL Machine_Clears")

static const struct recipe_node icl_nodes[] = {
	N("SLOTS", 0, NULL, "TOPDOWN.SLOTS", "[CSV] ICL SLOTS (not #PERF_METRICS_MSR)"),
	N(FE, L1, NULL, "(IDQ_UOPS_NOT_DELIVERED.CORE - INT_MISC.UOP_DROPPING) / SLOTS",
	  "[CSV] ICL Frontend_Bound (not #PERF_METRICS_MSR)"),
	N(BE, L1, NULL, "(TOPDOWN.BACKEND_BOUND_SLOTS + width * INT_MISC.CLEARS_COUNT) / SLOTS",
	  "[CSV] ICL Backend_Bound (not #PERF_METRICS_MSR)"),
	ICL_DERIVED,
	N("tma_fetch_latency", L2, FE, "(width * IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE - "
	  "INT_MISC.UOP_DROPPING) / SLOTS", "[CSV] ICL Fetch_Latency"),
	N("tma_branch_mispredicts", L2, BAD, "BR_MISP_RETIRED.ALL_BRANCHES / "
	  "(BR_MISP_RETIRED.ALL_BRANCHES + MACHINE_CLEARS.COUNT) * tma_bad_speculation",
	  "[CSV] SNB column, taken by ICL (#Mispred_Clears_Fraction * Bad_Speculation)"),
	N("Microcode_Sequencer", 0, NULL, "tma_retiring * IDQ.MS_UOPS / UOPS_ISSUED.ANY",
	  "[ICLJ] tma_microcode_sequencer = tma_retiring * tma_info_thread_slots / "
	  "UOPS_ISSUED.ANY * IDQ.MS_UOPS / tma_info_thread_slots"),
	N("tma_heavy_operations", L2, RET, "Microcode_Sequencer + tma_retiring * "
	  "(UOPS_DECODED.DEC0 - UOPS_DECODED.DEC0:c1) / IDQ.MITE_UOPS", "[ICLJ] tma_heavy_operations"),
	N("tma_light_operations", L2, RET, "max(0, tma_retiring - tma_heavy_operations)",
	  "[CSV] ICL Light_Operations"),
	N("tma_memory_bound", L2, BE, "(CYCLE_ACTIVITY.STALLS_MEM_ANY + EXE_ACTIVITY.BOUND_ON_STORES) / "
	  "(CYCLE_ACTIVITY.STALLS_TOTAL + (EXE_ACTIVITY.1_PORTS_UTIL + tma_retiring * "
	  "EXE_ACTIVITY.2_PORTS_UTIL) + EXE_ACTIVITY.BOUND_ON_STORES) * tma_backend_bound",
	  "[ICLJ] tma_memory_bound"),
	N("tma_core_bound", L2, BE, "max(0, tma_backend_bound - tma_memory_bound)",
	  "[CSV] ICL Core_Bound"),
};

static const struct recipe_event glc_events[] = {
	FX("TOPDOWN.SLOTS", 3, 0x00, 0x04, S_GLC ": Fixed counter 3"),
	GP("IDQ_BUBBLES.CORE", 0x9C, 0x01, S_GLC, C07),
	GP("INT_MISC.UOP_DROPPING", 0xAD, 0x10, S_GLC, C07),
	GP("TOPDOWN.BACKEND_BOUND_SLOTS", 0xA4, 0x02, S_GLC, C07),
	GP("UOPS_RETIRED.SLOTS", 0xC2, 0x02, S_GLC, C07),
	GP("IDQ_BUBBLES.CYCLES_0_UOPS_DELIV.CORE", 0x9C, 0x01, S_GLC ": CounterMask 6", .cmask = 6,
	   C07),
	/* Counter "0" in all three files; the kernel's intel_glc_event_constraints
	 * pins 0x08a4 to counter 0 too ([ICORE]). */
	GP("TOPDOWN.BR_MISPREDICT_SLOTS", 0xA4, 0x08, S_GLC ": Counter 0", C0),
	GP("TOPDOWN.MEMORY_BOUND_SLOTS", 0xA4, 0x10, S_GLC, C07),
	GP("UOPS_RETIRED.HEAVY", 0xC2, 0x01, S_GLC, C07),
};

static const struct recipe_node glc_nodes[] = {
	N("SLOTS", 0, NULL, "TOPDOWN.SLOTS", "[CSV] ICL SLOTS, taken by ADL/RPL"),
	N(FE, L1, NULL, "(IDQ_BUBBLES.CORE - INT_MISC.UOP_DROPPING) / SLOTS",
	  "[CSV] ADL/RPL Frontend_Bound (not #PERF_METRICS_MSR)"),
	N(BE, L1, NULL, "TOPDOWN.BACKEND_BOUND_SLOTS / SLOTS",
	  "[CSV] ADL/RPL Backend_Bound (not #PERF_METRICS_MSR)"),
	ICL_DERIVED,
	N("tma_fetch_latency", L2, FE, "(IDQ_BUBBLES.CYCLES_0_UOPS_DELIV.CORE * width - "
	  "INT_MISC.UOP_DROPPING) / SLOTS", "[CSV] ADL/RPL Fetch_Latency"),
	N("tma_branch_mispredicts", L2, BAD, "TOPDOWN.BR_MISPREDICT_SLOTS / SLOTS",
	  "[CSV] ADL/RPL Branch_Mispredicts"),
	N("tma_memory_bound", L2, BE, "TOPDOWN.MEMORY_BOUND_SLOTS / SLOTS",
	  "[CSV] ADL/RPL Memory_Bound"),
	N("tma_core_bound", L2, BE, "max(0, tma_backend_bound - tma_memory_bound)",
	  "[CSV] ICL Core_Bound"),
	N("tma_heavy_operations", L2, RET, "UOPS_RETIRED.HEAVY / SLOTS",
	  "[CSV] ADL/RPL Heavy_Operations"),
	N("tma_light_operations", L2, RET, "max(0, tma_retiring - tma_heavy_operations)",
	  "[CSV] ICL Light_Operations"),
};

static const char *const u_icl[] = { "Sunny Cove", "Willow Cove", NULL };
static const char *const u_glc[] = { "Golden Cove", "Raptor Cove", "Redwood Cove", NULL };

#define ICL_BOUND "48-bit counters (no quantisation); bad speculation is the remainder of " \
	"the other three, clamped at 0 ([CSV]); level 1 in one pass on 8 GP counters, level 2 " \
	"(Sunny Cove: 17 GP events) in passes"
/* What each leaves out of the vendor's event forms (notes: "left out"):
 * nothing - the nodes are TMA_Metrics-full.csv's ICL / ADL/RPL formulas
 * where #PERF_METRICS_MSR is false, and icelake_metrics.json's level 2;
 * they are validate's cross-check of PERF_METRICS (level 1). */
#define ICL_NOTES "nothing: TMA_Metrics-full.csv's ICL formulas in their event form (not " \
	"#PERF_METRICS_MSR: the CLEARS_COUNT and UOP_DROPPING terms included) and " \
	"icelake_metrics.json's level 2 (heavy operations by the microcode sequencer and " \
	"decoder 0, memory bound by the execution stalls); validate's cross-check of PERF_METRICS"
#define GLC_NOTES "nothing: TMA_Metrics-full.csv's ADL/RPL formulas in their event form (not " \
	"#PERF_METRICS_MSR; Bad_Speculation the remainder, as the file derives it, not " \
	"TOPDOWN.BAD_SPEC_SLOTS, counter 0 only); validate's cross-check of PERF_METRICS"

/* ================================================================ table */

static const struct recipe recipes_intel_icl[] = {
	{ "intel-icl-events", "sunny-cove", u_icl, I, 5, icl_events, RECIPE_N(icl_events), icl_nodes,
	  RECIPE_N(icl_nodes), ICL_BOUND, ICL_NOTES },
	{ "intel-icl-events", "golden-cove", u_glc, I, 6, glc_events, RECIPE_N(glc_events), glc_nodes,
	  RECIPE_N(glc_nodes), ICL_BOUND, GLC_NOTES },
};
const struct recipe_table recipes_intel_icl_table = { recipes_intel_icl,
						       RECIPE_N(recipes_intel_icl) };
