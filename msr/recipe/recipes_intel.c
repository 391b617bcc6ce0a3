/*
 * msr/recipe/recipes_intel.c - the Intel Top-down recipes of PERF_METRICS
 * alone (Golden Cove and later) and of the cores before Ice Lake (Sandy
 * Bridge .. Cascade Lake, from events; data; msr/recipe/recipe.h).  The
 * other Intel recipes: Sunny Cove's PERF_METRICS with events
 * (msr/recipe/recipes_intel_pm.c), the Ice Lake and later P-cores' event
 * form (msr/recipe/recipes_intel_icl.c), the E-cores
 * (msr/recipe/recipes_intel_ecore.c); the row macros they share are
 * msr/recipe/recipes_intel_rows.h.
 *
 * Sources, cited by key in each row:
 *   [PM-x]   intel/perfmon x/events/<model>_core.json: event encodings (EventCode,
 *            UMask, CounterMask, EdgeDetect, AnyThread, Counter), e.g.
 *            [PM-SKL] SKL/events/skylake_core.json.
 *   [CSV]    intel/perfmon TMA_Metrics-full.csv (TMA 5.2): the formulas of
 *            the big cores, per microarchitecture column (an empty cell
 *            takes the older column's formula); #Pipeline_Width,
 *            #Recovery_Cycles, CORE_CLKS, SLOTS its auxiliary rows.
 *   [SKLJ]   linux tools/perf/pmu-events/arch/x86/skylake/skl-metrics.json
 *            (tma_* MetricExpr); [CLXJ] .../cascadelakex/clx-metrics.json;
 *            [HSWJ] .../haswell/hsw-metrics.json; [BDWJ] .../broadwell/
 *            bdw-metrics.json;
 *            [SPRJ] .../sapphirerapids/spr-metrics.json.
 *   [TDTXT]  linux tools/perf/Documentation/topdown.txt.
 *   [ICORE]  linux arch/x86/events/intel/core.c and arch/x86/include/asm/
 *            perf_event.h: the PERF_METRICS pseudo-events (topdown-retiring
 *            = event 0x00 umask 0x80 ... topdown-mem-bound umask 0x87,
 *            INTEL_TD_METRIC_*), the pre-ICL topdown-* attributes.
 *
 * SMT (pre-Ice Lake): a thread's events divided by the core's slots, as
 * perf's tma_info_core_core_clks and TMA's CORE_CLKS do with SMT on and
 * #core_wide (EBS_Mode 0): CORE_CLKS = CPU_CLK_UNHALTED.THREAD_ANY / 2,
 * Recovery_Cycles = INT_MISC.RECOVERY_CYCLES_ANY / 2 (AnyThread: both
 * threads' counts, halved).  With SMT off the per-thread events.
 */
#include "msr/recipe/recipes_intel_rows.h"

/* A PERF_METRICS field: perf's pseudo-event 0x00 / 0x80 + byte ([ICORE]). */
#define PM(nm, byte) \
	{ .name = (nm), .ctr = RECIPE_CTR_METRICS, .fixed = (byte), .event = 0x00, \
	  .umask = 0x80 + (byte), .source = "[ICORE] INTEL_TD_METRIC_* pseudo-event; " \
	  "IA32_PERF_METRICS byte " #byte " ([ICORE] INTEL_PMC_IDX_TD_*; [TDTXT])" }

/* ============================================= intel-perf-metrics (ICL+) */

#define S_PMSLOTS "[PM-ICL] ICL/events/icelake_core.json, [PM-SPR] SPR/events/" \
	"sapphirerapids_core.json: TOPDOWN.SLOTS Fixed counter 3, 0x00/0x04"

static const struct recipe_event pm_events[] = {
	FX("TOPDOWN.SLOTS", 3, 0x00, 0x04, S_PMSLOTS),
	PM("topdown-retiring", 0),
	PM("topdown-bad-spec", 1),
	PM("topdown-fe-bound", 2),
	PM("topdown-be-bound", 3),
	PM("topdown-heavy-ops", 4),
	PM("topdown-br-mispredict", 5),
	PM("topdown-fetch-lat", 6),
	PM("topdown-mem-bound", 7),
};

/*
 * perf's metrics divide each field by the sum of the four level-1 fields
 * ([SPRJ] tma_retiring = topdown\-retiring / (topdown\-fe\-bound +
 * topdown\-bad\-spec + topdown\-retiring + topdown\-be\-bound), the same
 * sum for tma_heavy_operations ...).  This recipe reads PERF_METRICS alone,
 * as msr/recipe/topdown.h; what that leaves out of the vendor's formulas is its
 * notes (PM_NOTES, below).  Derived level-2 siblings are parent - child
 * ([TDTXT]; [CSV] clamps them at 0, not done here: a negative value shows
 * the quantisation, as msr/recipe/topdown.h).  Sunny Cove's recipe, which counts
 * the vendor's events beside PERF_METRICS, is msr/recipe/recipes_intel_pm.c.
 */
#define S_PMSUM "[CSV] #PERF_METRICS_SUM; [SPRJ] the denominator of every tma_* of PERF_METRICS"
#define S_PMDIV(m) "[SPRJ] " m " = field / (sum of the four level-1 fields)"
#define S_PMDER(m) "[TDTXT], [CSV] " m " = parent - measured child (not clamped here)"
static const struct recipe_node pm_nodes[] = {
	N("SLOTS", 0, NULL, "TOPDOWN.SLOTS", "[SPRJ] tma_info_thread_slots"),
	N("PERF_METRICS_SUM", 0, NULL, "topdown\\-fe\\-bound + topdown\\-bad\\-spec + "
	  "topdown\\-retiring + topdown\\-be\\-bound", S_PMSUM),
	N(RET, L1, NULL, "topdown\\-retiring / PERF_METRICS_SUM", S_PMDIV("tma_retiring")),
	N(BAD, L1, NULL, "topdown\\-bad\\-spec / PERF_METRICS_SUM", S_PMDIV("tma_bad_speculation")),
	N(FE, L1, NULL, "topdown\\-fe\\-bound / PERF_METRICS_SUM", S_PMDIV("tma_frontend_bound")),
	N(BE, L1, NULL, "topdown\\-be\\-bound / PERF_METRICS_SUM", S_PMDIV("tma_backend_bound")),
	N("tma_heavy_operations", L2, RET, "topdown\\-heavy\\-ops / PERF_METRICS_SUM",
	  S_PMDIV("tma_heavy_operations")),
	N("tma_light_operations", L2, RET, "tma_retiring - tma_heavy_operations",
	  S_PMDER("Light_Operations")),
	N("tma_branch_mispredicts", L2, BAD, "topdown\\-br\\-mispredict / PERF_METRICS_SUM",
	  S_PMDIV("tma_branch_mispredicts")),
	N("tma_machine_clears", L2, BAD, "tma_bad_speculation - tma_branch_mispredicts",
	  S_PMDER("Machine_Clears")),
	N("tma_fetch_latency", L2, FE, "topdown\\-fetch\\-lat / PERF_METRICS_SUM",
	  S_PMDIV("tma_fetch_latency")),
	N("tma_fetch_bandwidth", L2, FE, "tma_frontend_bound - tma_fetch_latency",
	  S_PMDER("Fetch_Bandwidth")),
	N("tma_memory_bound", L2, BE, "topdown\\-mem\\-bound / PERF_METRICS_SUM",
	  S_PMDIV("tma_memory_bound")),
	N("tma_core_bound", L2, BE, "tma_backend_bound - tma_memory_bound",
	  S_PMDER("Core_Bound")),
};
/* Level 2: num_topdown_events 8 (intel_pmu_init_glc and later, cpu/cpu_models.c). */
static const char *const u_pm_l2[] = { "Golden Cove", "Raptor Cove", "Redwood Cove", "Lion Cove",
				       "Cougar Cove", "Panther Cove", "Coyote Cove", NULL };

/*
 * What PERF_METRICS alone leaves out of the vendor's formulas: Golden,
 * Raptor and Redwood Cove (intel/perfmon SPR/metrics/sapphirerapids_metrics.json,
 * GNR/metrics/graniterapids_metrics.json at commit 6dadedf3aa48, [CSV]
 * ADL/RPL) subtract INT_MISC.UOP_DROPPING / SLOTS from Frontend_Bound and
 * Fetch_Latency, and take Bad_Speculation as max(1 - (the other three), 0),
 * so the term comes back there; Lion Cove and later ([CSV] LNL/ARL, PTL)
 * use the fields alone.  Every one clamps Fetch_Bandwidth, Machine_Clears,
 * Core_Bound and Light_Operations at 0 ([CSV] ICL: max( 0 , ... )).  Width
 * 6 on Golden/Raptor/Redwood Cove, 8 on Lion/Cougar Cove: no formula uses it.
 */
#define PM_NOTES "the vendor's - INT_MISC.UOP_DROPPING / SLOTS in tma_frontend_bound and " \
	"tma_fetch_latency on Golden, Raptor and Redwood Cove (and so + it in tma_bad_speculation, " \
	"their remainder there), and on every core the clamps at 0 (max(0, ...)) of " \
	"tma_fetch_bandwidth, tma_machine_clears, tma_core_bound and tma_light_operations"

#define PM_BOUND "8-bit quantisation: each PERF_METRICS field is a fraction of TOPDOWN.SLOTS " \
	"in 1/255, within (1 + |S - 255|) / 255 of the true fraction (S the four level-1 " \
	"fields' sum); perf's topdown-* counts carry the kernel's rounding of them"

/* ====================================== intel-pre-icl-l1 (SNB .. CLX) */

#define S_SKL "[PM-SKL] SKL/events/skylake_core.json, [PM-CLX] CLX/events/cascadelakex_core.json"
#define S_SNB "[PM-SNB] SNB/events/sandybridge_core.json, [PM-IVB] IVB/events/ivybridge_core.json, " \
	"[PM-HSW] HSW/events/haswell_core.json, [PM-BDW] BDW/events/broadwell_core.json"

/* Common to every pre-ICL core (the same encodings in all six JSON files);
 * @idq: IDQ_UOPS_NOT_DELIVERED's constraint (CounterHTOff 0,1,2,3 before
 * Skylake, 0-7 on it). */
#define PRE_CLK_EVENTS(src, idq) \
	FX("CPU_CLK_UNHALTED.THREAD", 1, 0x00, 0x02, src ": Fixed counter 1"), \
	FX("CPU_CLK_UNHALTED.THREAD_ANY", 1, 0x00, 0x02, src ": Fixed counter 1, AnyThread 1", \
	   .any = true), \
	GP("IDQ_UOPS_NOT_DELIVERED.CORE", 0x9C, 0x01, src, idq), \
	GP("UOPS_ISSUED.ANY", 0x0E, 0x01, src, C03_07), \
	GP("UOPS_RETIRED.RETIRE_SLOTS", 0xC2, 0x02, src, C03_07)
#define PRE_L2_EVENTS(src, idq) \
	GP("IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 0x9C, 0x01, src ": CounterMask 4", \
	   .cmask = 4, idq), \
	GP("BR_MISP_RETIRED.ALL_BRANCHES", 0xC5, 0x00, src, C03_07), \
	GP("MACHINE_CLEARS.COUNT", 0xC3, 0x01, src ": CounterMask 1, EdgeDetect 1", .cmask = 1, \
	   .edge = true, C03_07)

static const struct recipe_event skl_events[] = {
	PRE_CLK_EVENTS(S_SKL, C03_07),
	/* [PM-SKL] CounterMask 0; the kernel's skl topdown-recovery-bubbles attr
	 * ([ICORE]) writes cmask=1: the same count for a cycle event. */
	GP("INT_MISC.RECOVERY_CYCLES", 0x0D, 0x01, S_SKL, C03_07),
	GP("INT_MISC.RECOVERY_CYCLES_ANY", 0x0D, 0x01, S_SKL ": AnyThread 1", .any = true, C03_07),
	PRE_L2_EVENTS(S_SKL, C03_07),
	GP("UOPS_RETIRED.MACRO_FUSED", 0xC2, 0x04, S_SKL, C03_07),
	FX("INST_RETIRED.ANY", 0, 0x00, 0x01, S_SKL ": Fixed counter 0"),
	/* [SKLJ] tma_memory_bound's events; STALLS_MEM_ANY CounterHTOff 0,1,2,3 */
	GP("CYCLE_ACTIVITY.STALLS_MEM_ANY", 0xA3, 0x14, S_SKL ": CounterMask 20, CounterHTOff "
	   "0,1,2,3", .cmask = 20, C03),
	GP("EXE_ACTIVITY.BOUND_ON_STORES", 0xA6, 0x40, S_SKL, C03_07),
	GP("CYCLE_ACTIVITY.STALLS_TOTAL", 0xA3, 0x04, S_SKL ": CounterMask 4", .cmask = 4, C03_07),
	GP("EXE_ACTIVITY.1_PORTS_UTIL", 0xA6, 0x02, S_SKL, C03_07),
	GP("EXE_ACTIVITY.2_PORTS_UTIL", 0xA6, 0x04, S_SKL, C03_07),
};

/* CPU_CLK_UNHALTED.THREAD_P: the thread's cycles on a GP counter ("Thread
 * cycles when thread is not in halt state", 0x3C/0x00 in all four JSON
 * files), for THREAD_CLKS below. */
#define SNB_EVENTS(src) \
	PRE_CLK_EVENTS(src, C03), \
	GP("CPU_CLK_UNHALTED.THREAD_P", 0x3C, 0x00, src, C03_07), \
	GP("INT_MISC.RECOVERY_CYCLES", 0x0D, 0x03, src ": CounterMask 1", .cmask = 1, C03_07), \
	GP("INT_MISC.RECOVERY_CYCLES_ANY", 0x0D, 0x03, src ": CounterMask 1, AnyThread 1", \
	   .cmask = 1, .any = true, C03_07), \
	PRE_L2_EVENTS(src, C03), \
	GP("IDQ.MS_UOPS", 0x79, 0x30, src, C03_07)

static const struct recipe_event snb_events[] = {
	SNB_EVENTS(S_SNB),
};

/*
 * Haswell and Broadwell: SNB_EVENTS and the events of perf's
 * tma_memory_bound ([HSWJ], [BDWJ]); tma_info_thread_ipc needs
 * INST_RETIRED.ANY.  "CounterHTOff 0,1,2,3": the event takes only
 * counters 0-3 when the core has 8 (SMT off); so do SNB_EVENTS'
 * IDQ_UOPS_NOT_DELIVERED.* on Sandy Bridge to Broadwell.
 */
#define S_HSW "[PM-HSW] HSW/events/haswell_core.json (perf haswell/pipeline.json)"
#define S_BDW "[PM-BDW] BDW/events/broadwell_core.json (perf broadwell/pipeline.json)"
#define HSW_BDW_MEM_EVENTS(src) \
	FX("INST_RETIRED.ANY", 0, 0x00, 0x01, src ": Fixed counter 0"), \
	GP("RESOURCE_STALLS.SB", 0xA2, 0x08, src, C03_07), \
	GP("RS_EVENTS.EMPTY_CYCLES", 0x5E, 0x01, src, C03_07)

static const struct recipe_event hsw_events[] = {
	SNB_EVENTS(S_HSW),
	HSW_BDW_MEM_EVENTS(S_HSW),
	GP("CYCLE_ACTIVITY.STALLS_LDM_PENDING", 0xA3, 0x06, S_HSW ": CounterMask 6, "
	   "CounterHTOff 0,1,2,3", .cmask = 6, C03),
	GP("CYCLE_ACTIVITY.CYCLES_NO_EXECUTE", 0xA3, 0x04, S_HSW ": CounterMask 4, "
	   "CounterHTOff 0,1,2,3", .cmask = 4, C03),
	/* "from any thread on physical core": the core's cycles (perf halves them with SMT) */
	GP("UOPS_EXECUTED.CORE_CYCLES_GE_1", 0xB1, 0x02, S_HSW ": CounterMask 1", .cmask = 1,
	   C03_07),
	GP("UOPS_EXECUTED.CORE_CYCLES_GE_2", 0xB1, 0x02, S_HSW ": CounterMask 2", .cmask = 2,
	   C03_07),
	GP("UOPS_EXECUTED.CORE_CYCLES_GE_3", 0xB1, 0x02, S_HSW ": CounterMask 3", .cmask = 3,
	   C03_07),
};

static const struct recipe_event bdw_events[] = {
	SNB_EVENTS(S_BDW),
	HSW_BDW_MEM_EVENTS(S_BDW),
	GP("CYCLE_ACTIVITY.STALLS_MEM_ANY", 0xA3, 0x06, S_BDW ": CounterMask 6", .cmask = 6,
	   C03_07),
	GP("CYCLE_ACTIVITY.STALLS_TOTAL", 0xA3, 0x04, S_BDW ": CounterMask 4", .cmask = 4, C03_07),
	/* per thread; CounterHTOff 0,1,2,3 */
	GP("UOPS_EXECUTED.CYCLES_GE_1_UOP_EXEC", 0xB1, 0x01, S_BDW ": CounterMask 1, CounterHTOff "
	   "0,1,2,3", .cmask = 1, C03),
	GP("UOPS_EXECUTED.CYCLES_GE_2_UOPS_EXEC", 0xB1, 0x01, S_BDW ": CounterMask 2, CounterHTOff "
	   "0,1,2,3", .cmask = 2, C03),
	GP("UOPS_EXECUTED.CYCLES_GE_3_UOPS_EXEC", 0xB1, 0x01, S_BDW ": CounterMask 3, CounterHTOff "
	   "0,1,2,3", .cmask = 3, C03),
};

#define S_CC "[CSV] CORE_CLKS (EBS_Mode 0); [SKLJ] tma_info_core_core_clks (#core_wide)"
#define PRE_AUX_NODES \
	N("CORE_CLKS", 0, NULL, \
	  "CPU_CLK_UNHALTED.THREAD_ANY / 2 if smt_on else CPU_CLK_UNHALTED.THREAD", S_CC), \
	N("SLOTS", 0, NULL, "width * CORE_CLKS", \
	  "[CSV] SLOTS = #Pipeline_Width * CORE_CLKS; [SKLJ] tma_info_thread_slots"), \
	N("Recovery_Cycles", 0, NULL, \
	  "INT_MISC.RECOVERY_CYCLES_ANY / 2 if smt_on else INT_MISC.RECOVERY_CYCLES", \
	  "[CSV] #Recovery_Cycles; [SKLJ] tma_bad_speculation")
#define PRE_L1_NODES \
	N(FE, L1, NULL, "IDQ_UOPS_NOT_DELIVERED.CORE / SLOTS", "[CSV] SNB; [SKLJ] tma_frontend_bound"), \
	N(BAD, L1, NULL, "(UOPS_ISSUED.ANY - UOPS_RETIRED.RETIRE_SLOTS + width * Recovery_Cycles) / SLOTS", \
	  "[CSV] SNB; [SKLJ] tma_bad_speculation"), \
	N(RET, L1, NULL, "UOPS_RETIRED.RETIRE_SLOTS / SLOTS", "[CSV] SNB (#Retired_Slots)")
#define PRE_BADSPEC_L2 \
	N("tma_branch_mispredicts", L2, BAD, "BR_MISP_RETIRED.ALL_BRANCHES / " \
	  "(BR_MISP_RETIRED.ALL_BRANCHES + MACHINE_CLEARS.COUNT) * tma_bad_speculation", \
	  "[CSV] SNB (#Mispred_Clears_Fraction); [SKLJ], [HSWJ] tma_branch_mispredicts"), \
	N("tma_machine_clears", L2, BAD, "tma_bad_speculation - tma_branch_mispredicts", \
	  "[CSV] SNB; [SKLJ] tma_machine_clears"), \
	N("tma_fetch_bandwidth", L2, FE, "tma_frontend_bound - tma_fetch_latency", \
	  "[CSV] SNB; [SKLJ], [HSWJ] tma_fetch_bandwidth"), \
	N("tma_light_operations", L2, RET, "tma_retiring - tma_heavy_operations", \
	  "[CSV] SNB; [SKLJ] tma_light_operations")
/* Heavy operations before Skylake: the microcode sequencer ([CSV] SNB..BDW). */
#define PRE_MS_HEAVY \
	N("tma_heavy_operations", L2, RET, \
	  "UOPS_RETIRED.RETIRE_SLOTS / UOPS_ISSUED.ANY * IDQ.MS_UOPS / SLOTS", \
	  "[CSV] SNB Heavy_Operations = Microcode_Sequencer (#Retire_Fraction * IDQ.MS_UOPS / " \
	  "SLOTS); [HSWJ] tma_heavy_operations = tma_microcode_sequencer")

static const struct recipe_node skl_nodes[] = {
	PRE_AUX_NODES,
	PRE_L1_NODES,
	N(BE, L1, NULL, "1 - tma_frontend_bound - (UOPS_ISSUED.ANY + width * Recovery_Cycles) / SLOTS",
	  "[CSV] SKL/KBL; [SKLJ] tma_backend_bound"),
	N("tma_fetch_latency", L2, FE, "width * IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE / SLOTS",
	  "[CSV] SKL/KBL; [SKLJ] tma_fetch_latency"),
	N("tma_heavy_operations", L2, RET,
	  "(UOPS_RETIRED.RETIRE_SLOTS + UOPS_RETIRED.MACRO_FUSED - INST_RETIRED.ANY) / SLOTS",
	  "[CSV] SKL/KBL; [SKLJ] tma_heavy_operations"),
	PRE_BADSPEC_L2,
	N("tma_memory_bound", L2, BE, "(CYCLE_ACTIVITY.STALLS_MEM_ANY + EXE_ACTIVITY.BOUND_ON_STORES) / "
	  "(CYCLE_ACTIVITY.STALLS_TOTAL + (EXE_ACTIVITY.1_PORTS_UTIL + tma_retiring * "
	  "EXE_ACTIVITY.2_PORTS_UTIL) + EXE_ACTIVITY.BOUND_ON_STORES) * tma_backend_bound",
	  "[SKLJ], [CLXJ] tma_memory_bound"),
	N("tma_core_bound", L2, BE, "tma_backend_bound - tma_memory_bound",
	  "[SKLJ], [CLXJ] tma_core_bound"),
};

#define PRE_BE_SNB \
	N(BE, L1, NULL, "1 - (tma_frontend_bound + tma_bad_speculation + tma_retiring)", \
	  "[CSV] SNB; [HSWJ] tma_backend_bound")

/*
 * The thread's cycles where a formula wants them beside the slots (perf's
 * tma_info_thread_clks = CPU_CLK_UNHALTED.THREAD in min() and IPC): with
 * SMT on, fixed counter 1 counts THREAD_ANY for SLOTS in every pass (bench
 * keeps the slots' events in each), so THREAD, on the same counter, would
 * have no pass; its GP form counts the same cycles.
 */
#define THREAD_CLKS_NODE \
	N("THREAD_CLKS", 0, NULL, "CPU_CLK_UNHALTED.THREAD_P if smt_on else CPU_CLK_UNHALTED.THREAD", \
	  "[HSWJ] tma_info_thread_clks = CPU_CLK_UNHALTED.THREAD; its GP form THREAD_P with " \
	  "SMT on (fixed counter 1 holds THREAD_ANY)")

/* Sandy Bridge, Ivy Bridge, Haswell: #Frontend_Latency_Cycles is a min(). */
#define SNB_FETCH_LATENCY \
	N("tma_fetch_latency", L2, FE, "width * min(THREAD_CLKS, " \
	  "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE) / SLOTS", \
	  "[CSV] SNB (#Frontend_Latency_Cycles); [HSWJ] tma_fetch_latency")
static const struct recipe_node snb_nodes[] = {
	PRE_AUX_NODES,
	THREAD_CLKS_NODE,
	PRE_L1_NODES,
	PRE_BE_SNB,
	SNB_FETCH_LATENCY,
	PRE_MS_HEAVY,
	PRE_BADSPEC_L2,
};

/*
 * tma_memory_bound on Haswell and Broadwell ([HSWJ], [BDWJ]): stall cycles
 * on memory over the backend's stall cycles, times tma_backend_bound.  The
 * denominator is perf's whole: its two branches on counts (the 2-uop
 * cycles count as few-uop cycles when IPC > 1.8; the RS-empty cycles are
 * the frontend's when tma_fetch_latency > 0.1) are taken as perf takes
 * them, so both branches' events are counted (msr/recipe/recipe.h).  Haswell's
 * UOPS_EXECUTED.CORE_CYCLES_GE_* count the core: halved with SMT on.
 */
#define S_IPC "[HSWJ], [BDWJ] tma_info_thread_ipc = INST_RETIRED.ANY / tma_info_thread_clks"
#define HSW_BDW_L2_NODES(bsc, num, src) \
	N("IPC", 0, NULL, "INST_RETIRED.ANY / THREAD_CLKS", S_IPC), \
	N("BACKEND_STALL_CYCLES", 0, NULL, bsc, src " tma_memory_bound's denominator"), \
	N("tma_memory_bound", L2, BE, "(" num " + RESOURCE_STALLS.SB) / BACKEND_STALL_CYCLES * " \
	  "tma_backend_bound", src " tma_memory_bound"), \
	N("tma_core_bound", L2, BE, "tma_backend_bound - tma_memory_bound", src " tma_core_bound")
#define RS_EMPTY "(RS_EVENTS.EMPTY_CYCLES if tma_fetch_latency > 0.1 else 0)"
#define HSW_FEW(sfx) "(UOPS_EXECUTED.CORE_CYCLES_GE_3 if IPC > 1.8 else " \
	"UOPS_EXECUTED.CORE_CYCLES_GE_2)" sfx
#define HSW_BSC \
	"min(THREAD_CLKS, CYCLE_ACTIVITY.CYCLES_NO_EXECUTE) + " \
	"(UOPS_EXECUTED.CORE_CYCLES_GE_1 - " HSW_FEW(")") " / 2 - " RS_EMPTY \
	" + RESOURCE_STALLS.SB if smt_on else " \
	"min(THREAD_CLKS, CYCLE_ACTIVITY.CYCLES_NO_EXECUTE) + " \
	"UOPS_EXECUTED.CORE_CYCLES_GE_1 - " HSW_FEW("") " - " RS_EMPTY " + RESOURCE_STALLS.SB"
#define BDW_BSC \
	"CYCLE_ACTIVITY.STALLS_TOTAL + UOPS_EXECUTED.CYCLES_GE_1_UOP_EXEC - " \
	"(UOPS_EXECUTED.CYCLES_GE_3_UOPS_EXEC if IPC > 1.8 else " \
	"UOPS_EXECUTED.CYCLES_GE_2_UOPS_EXEC) - " RS_EMPTY " + RESOURCE_STALLS.SB"

static const struct recipe_node hsw_nodes[] = {
	PRE_AUX_NODES,
	THREAD_CLKS_NODE,
	PRE_L1_NODES,
	PRE_BE_SNB,
	SNB_FETCH_LATENCY,
	PRE_MS_HEAVY,
	PRE_BADSPEC_L2,
	HSW_BDW_L2_NODES(HSW_BSC, "min(THREAD_CLKS, CYCLE_ACTIVITY.STALLS_LDM_PENDING)", "[HSWJ]"),
};

static const struct recipe_node bdw_nodes[] = {
	PRE_AUX_NODES,
	THREAD_CLKS_NODE,
	PRE_L1_NODES,
	PRE_BE_SNB,
	N("tma_fetch_latency", L2, FE, "width * IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE / SLOTS",
	  "[CSV] BDW"),
	PRE_MS_HEAVY,
	PRE_BADSPEC_L2,
	HSW_BDW_L2_NODES(BDW_BSC, "CYCLE_ACTIVITY.STALLS_MEM_ANY", "[BDWJ]"),
};

static const char *const u_snb[] = { "Sandy Bridge", NULL };
static const char *const u_ivb[] = { "Ivy Bridge", NULL };
static const char *const u_hsw[] = { "Haswell", NULL };
static const char *const u_bdw[] = { "Broadwell", NULL };
/* Skylake, Kaby/Coffee/Comet Lake, Skylake-X, Cascade Lake: one uarch in cpu/cpu_models.c. */
static const char *const u_skl[] = { "Skylake", NULL };

#define PRE_BOUND "48-bit counters (no quantisation); 4 GP counters per thread with SMT on " \
	"(8 with it off): level 1 needs 4, level 2 4 more (Skylake 9, Haswell/Broadwell 11), counted in " \
	"further passes (different intervals); with SMT on the core's clocks and recovery cycles are AnyThread " \
	"counts halved (perf's and toplev's per-core split, an approximation for one thread)"
#define PRE_NOTES "no tma_memory_bound/tma_core_bound on Sandy Bridge/Ivy Bridge (not done: " \
	"perf's snb-/ivb-metrics.json have their own stall events)"
#define HSW_BDW_NOTES "no node (tma_memory_bound with both of perf's branches on counts, " \
	"IPC > 1.8 and tma_fetch_latency > 0.1); with SMT on, perf's CPU_CLK_UNHALTED.THREAD " \
	"is counted as its GP form THREAD_P (fixed counter 1 holds THREAD_ANY)"

/* Skylake leaves nothing of perf's skl-metrics.json / clx-metrics.json
 * levels 1 and 2 out: said, as every recipe says what it leaves out. */
#define SKL_NOTES "nothing: skl-metrics.json's and clx-metrics.json's level-1 and level-2 " \
	"formulas whole (with SMT on their AnyThread counts halved, as the files write)"

/* ================================================================ table */

static const struct recipe recipes_intel[] = {
	{ "intel-perf-metrics", "golden-cove", u_pm_l2, I, 6, pm_events, RECIPE_N(pm_events),
	  pm_nodes, RECIPE_N(pm_nodes), PM_BOUND, PM_NOTES },
	{ "intel-pre-icl-l1", "skylake", u_skl, I, 4, skl_events, RECIPE_N(skl_events), skl_nodes,
	  RECIPE_N(skl_nodes), PRE_BOUND, SKL_NOTES },
	{ "intel-pre-icl-l1", "broadwell", u_bdw, I, 4, bdw_events, RECIPE_N(bdw_events), bdw_nodes,
	  RECIPE_N(bdw_nodes), PRE_BOUND, HSW_BDW_NOTES },
	{ "intel-pre-icl-l1", "haswell", u_hsw, I, 4, hsw_events, RECIPE_N(hsw_events), hsw_nodes,
	  RECIPE_N(hsw_nodes), PRE_BOUND, HSW_BDW_NOTES },
	{ "intel-pre-icl-l1", "ivybridge", u_ivb, I, 4, snb_events, RECIPE_N(snb_events), snb_nodes,
	  RECIPE_N(snb_nodes), PRE_BOUND, PRE_NOTES },
	{ "intel-pre-icl-l1", "sandybridge", u_snb, I, 4, snb_events, RECIPE_N(snb_events),
	  snb_nodes, RECIPE_N(snb_nodes), PRE_BOUND, PRE_NOTES },
};
const struct recipe_table recipes_intel_table = { recipes_intel, RECIPE_N(recipes_intel) };
