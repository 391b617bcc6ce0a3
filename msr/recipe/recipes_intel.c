/*
 * msr/recipe/recipes_intel.c - the Intel Top-down recipes (data; msr/recipe/recipe.h).
 *
 * Sources, cited by key in each row:
 *   [PM-x]   intel/perfmon x/events/<model>_core.json: event encodings (EventCode,
 *            UMask, CounterMask, EdgeDetect, AnyThread, Counter), e.g.
 *            [PM-SKL] SKL/events/skylake_core.json.
 *   [CSV]    intel/perfmon TMA_Metrics-full.csv (TMA 5.2): the formulas of
 *            the big cores, per microarchitecture column (an empty cell
 *            takes the older column's formula); #Pipeline_Width,
 *            #Recovery_Cycles, CORE_CLKS, SLOTS its auxiliary rows.
 *   [ECSV]   intel/perfmon E-core_TMA_Metrics.csv (TMA 4, columns GRT, CMT,
 *            LNL-SKT); [ACSV] intel/perfmon Atom_TMA.csv (TMA 1.2, column TNT).
 *   [SKLJ]   linux tools/perf/pmu-events/arch/x86/skylake/skl-metrics.json
 *            (tma_* MetricExpr); [CLXJ] .../cascadelakex/clx-metrics.json;
 *            [HSWJ] .../haswell/hsw-metrics.json; [BDWJ] .../broadwell/
 *            bdw-metrics.json;
 *            [SPRJ] .../sapphirerapids/spr-metrics.json; [ICLJ] .../icelake/
 *            icl-metrics.json.
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
#include "msr/recipe/recipe_int.h"

#define I CPU_VENDOR_INTEL

#define GP(nm, ev, um, src, ...) \
	{ .name = (nm), .ctr = RECIPE_CTR_GP, .event = (ev), .umask = (um), .source = (src), \
	  __VA_ARGS__ }
#define FX(nm, idx, ev, um, src, ...) \
	{ .name = (nm), .ctr = RECIPE_CTR_FIXED, .fixed = (idx), .event = (ev), .umask = (um), \
	  .source = (src), __VA_ARGS__ }
/* A PERF_METRICS field: perf's pseudo-event 0x00 / 0x80 + byte ([ICORE]). */
#define PM(nm, byte) \
	{ .name = (nm), .ctr = RECIPE_CTR_METRICS, .fixed = (byte), .event = 0x00, \
	  .umask = 0x80 + (byte), .source = "[ICORE] INTEL_TD_METRIC_* pseudo-event; " \
	  "IA32_PERF_METRICS byte " #byte " ([ICORE] INTEL_PMC_IDX_TD_*; [TDTXT])" }
#define N(m, lvl, par, ex, src) \
	{ .metric = (m), .level = (lvl), .parent = (par), .expr = (ex), .source = (src) }

#define L1 1
#define L2 2
#define FE "tma_frontend_bound"
#define BAD "tma_bad_speculation"
#define BE "tma_backend_bound"
#define RET "tma_retiring"

/*
 * Counter constraints (msr/recipe/recipe.h .counters, .counters_ht_off), from
 * each row's [PM-x] "Counter" (SMT on) and "CounterHTOff" (SMT off); the
 * files of Ice Lake and later and of the E-cores have no CounterHTOff (8
 * or 6 counters a thread whatever SMT): their "Counter" holds for both.
 * Bit i = GP counter i.  t/1040 compares every row with the vendors'
 * files (t/data/vendor-events.tsv); a fixed-counter row has none.
 */
#define C03_07 .counters = 0x0F, .counters_ht_off = 0xFF /* "0,1,2,3" / "0,1,2,3,4,5,6,7" */
#define C03    .counters = 0x0F, .counters_ht_off = 0x0F /* "0,1,2,3" (/ "0,1,2,3") */
#define C07    .counters = 0xFF, .counters_ht_off = 0xFF /* "0,1,2,3,4,5,6,7" */
#define C05    .counters = 0x3F, .counters_ht_off = 0x3F /* "0,1,2,3,4,5" */
#define C0     .counters = 0x01, .counters_ht_off = 0x01 /* "0" */

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

/* ============================================ intel-ecore-l1 (E-cores) */

#define S_GRT "[PM-ADL] ADL/events/alderlake_gracemont_core.json"
#define S_CMT "[PM-MTL] MTL/events/meteorlake_crestmont_core.json, [PM-SRF] SRF/events/" \
	"sierraforest_core.json"
#define S_SKT "[PM-LNL] LNL/events/lunarlake_skymont_core.json, [PM-CWF] CWF/events/" \
	"clearwaterforest_core.json (Darkmont)"
#define S_TNT "[PM-EHL] EHL/events/elkhartlake_core.json, [PM-SNR] SNR/events/snowridgex_core.json"

/* Level 2 of every E-core here: the same encodings in [PM-ADL], [PM-MTL], [PM-SRF], [PM-LNL], [PM-CWF]. */
#define ECORE_L2_EVENTS(src, ctr) \
	GP("TOPDOWN_FE_BOUND.FRONTEND_LATENCY", 0x71, 0x72, src, ctr), \
	GP("TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH", 0x71, 0x8D, src, ctr), \
	GP("TOPDOWN_BAD_SPECULATION.MISPREDICT", 0x73, 0x04, src, ctr), \
	GP("TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS", 0x73, 0x03, src, ctr), \
	GP("TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS", 0x74, 0x01, src, ctr)
#define ECORE_CLK(src) FX("CPU_CLK_UNHALTED.CORE", 1, 0x00, 0x02, src ": Fixed counter 1")

static const struct recipe_event grt_events[] = {
	ECORE_CLK(S_GRT),
	GP("TOPDOWN_FE_BOUND.ALL", 0x71, 0x00, S_GRT, C05),
	GP("TOPDOWN_BE_BOUND.ALL", 0x74, 0x00, S_GRT, C05),
	GP("TOPDOWN_RETIRING.ALL", 0xC2, 0x00, S_GRT, C05),
	ECORE_L2_EVENTS(S_GRT, C05),
};

static const struct recipe_event cmt_events[] = {
	ECORE_CLK(S_CMT),
	GP("TOPDOWN_FE_BOUND.ALL_P", 0x71, 0x00, S_CMT, C07),
	GP("TOPDOWN_BAD_SPECULATION.ALL_P", 0x73, 0x00, S_CMT, C07),
	GP("TOPDOWN_BE_BOUND.ALL_P", 0x74, 0x00, S_CMT, C07),
	GP("TOPDOWN_RETIRING.ALL_P", 0x72, 0x00, S_CMT, C07),
	ECORE_L2_EVENTS(S_CMT, C07),
};

/* Skymont/Darkmont with fixed counters 4..6 (CPUID leaf 0x23 sub-leaf 1 EBX bits 4..6). */
static const struct recipe_event skt_events[] = {
	ECORE_CLK(S_SKT),
	FX("TOPDOWN_BAD_SPECULATION.ALL", 4, 0x00, 0x05, S_SKT ": Fixed counter 4"),
	FX("TOPDOWN_FE_BOUND.ALL", 5, 0x00, 0x06, S_SKT ": Fixed counter 5"),
	FX("TOPDOWN_RETIRING.ALL", 6, 0x00, 0x07, S_SKT ": Fixed counter 6"),
	GP("TOPDOWN_BE_BOUND.ALL_P", 0xA4, 0x02, S_SKT, C07),
	ECORE_L2_EVENTS(S_SKT, C07),
};

/* Skymont/Darkmont where leaf 0x23 does not enumerate fixed counters 4..6: the GP forms. */
static const struct recipe_event skt_gp_events[] = {
	ECORE_CLK(S_SKT),
	GP("TOPDOWN_BAD_SPECULATION.ALL_P", 0x73, 0x00, S_SKT, C07),
	GP("TOPDOWN_FE_BOUND.ALL_P", 0x9C, 0x01, S_SKT, C07),
	GP("TOPDOWN_RETIRING.ALL_P", 0xC2, 0x02, S_SKT, C07),
	GP("TOPDOWN_BE_BOUND.ALL_P", 0xA4, 0x02, S_SKT, C07),
	ECORE_L2_EVENTS(S_SKT, C07),
};

#define S_ESLOTS "[ECSV] #SLOTS = #Pipeline_Width * #CLKS, #CLKS = CPU_CLK_UNHALTED.CORE"
/*
 * Level 2 of the E-core tree ([ECSV]) mapped onto tma_*: IFetch_Latency ->
 * tma_fetch_latency, IFetch_Bandwidth -> tma_fetch_bandwidth, Core_Bound ->
 * tma_core_bound; Resource_Bound has no P-core node: tma_resource_bound
 * (perf's alderlake/meteorlake cpu_atom name).  Retiring has no level 2.
 */
#define ECORE_L2_NODES \
	N("tma_fetch_latency", L2, FE, "TOPDOWN_FE_BOUND.FRONTEND_LATENCY / SLOTS", \
	  "[ECSV] IFetch_Latency (GRT, CMT, LNL-SKT)"), \
	N("tma_fetch_bandwidth", L2, FE, "TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH / SLOTS", \
	  "[ECSV] IFetch_Bandwidth"), \
	N("tma_branch_mispredicts", L2, BAD, "TOPDOWN_BAD_SPECULATION.MISPREDICT / SLOTS", \
	  "[ECSV] Branch_Mispredicts"), \
	N("tma_machine_clears", L2, BAD, "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS / SLOTS", \
	  "[ECSV] Machine_Clears"), \
	N("tma_core_bound", L2, BE, "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS / SLOTS", \
	  "[ECSV] Core_Bound"), \
	N("tma_resource_bound", L2, BE, "tma_backend_bound - tma_core_bound", \
	  "[ECSV] Resource_Bound")

static const struct recipe_node grt_nodes[] = {
	N("SLOTS", 0, NULL, "width * CPU_CLK_UNHALTED.CORE", S_ESLOTS " (GRT: 5)"),
	N(FE, L1, NULL, "TOPDOWN_FE_BOUND.ALL / SLOTS", "[ECSV] GRT Frontend_Bound"),
	N(BAD, L1, NULL, "(SLOTS - (TOPDOWN_FE_BOUND.ALL + TOPDOWN_BE_BOUND.ALL + "
	  "TOPDOWN_RETIRING.ALL)) / SLOTS", "[ECSV] GRT Bad_Speculation"),
	N(BE, L1, NULL, "TOPDOWN_BE_BOUND.ALL / SLOTS", "[ECSV] GRT Backend_Bound"),
	N(RET, L1, NULL, "TOPDOWN_RETIRING.ALL / SLOTS", "[ECSV] GRT Retiring"),
	ECORE_L2_NODES,
};

static const struct recipe_node cmt_nodes[] = {
	N("SLOTS", 0, NULL, "width * CPU_CLK_UNHALTED.CORE", S_ESLOTS " (CMT: 6)"),
	N(FE, L1, NULL, "TOPDOWN_FE_BOUND.ALL_P / SLOTS", "[ECSV] CMT Frontend_Bound"),
	N(BAD, L1, NULL, "TOPDOWN_BAD_SPECULATION.ALL_P / SLOTS", "[ECSV] CMT Bad_Speculation"),
	N(BE, L1, NULL, "TOPDOWN_BE_BOUND.ALL_P / SLOTS", "[ECSV] CMT Backend_Bound"),
	N(RET, L1, NULL, "TOPDOWN_RETIRING.ALL_P / SLOTS", "[ECSV] CMT Retiring"),
	ECORE_L2_NODES,
};

/* [ECSV] LNL-SKT names the GP form of bad speculation (ALL_P); the fixed
 * counter's TOPDOWN_BAD_SPECULATION.ALL counts the same slots ([PM-LNL]
 * descriptions: "Fixed Counter: " and the same text). */
static const struct recipe_node skt_nodes[] = {
	N("SLOTS", 0, NULL, "width * CPU_CLK_UNHALTED.CORE", S_ESLOTS " (LNL-SKT: 8)"),
	N(FE, L1, NULL, "TOPDOWN_FE_BOUND.ALL / SLOTS", "[ECSV] LNL-SKT Frontend_Bound"),
	N(BAD, L1, NULL, "TOPDOWN_BAD_SPECULATION.ALL / SLOTS",
	  "[ECSV] LNL-SKT Bad_Speculation, fixed-counter form"),
	N(BE, L1, NULL, "TOPDOWN_BE_BOUND.ALL_P / SLOTS", "[ECSV] LNL-SKT Backend_Bound"),
	N(RET, L1, NULL, "TOPDOWN_RETIRING.ALL / SLOTS", "[ECSV] LNL-SKT Retiring"),
	ECORE_L2_NODES,
};

static const struct recipe_node skt_gp_nodes[] = {
	N("SLOTS", 0, NULL, "width * CPU_CLK_UNHALTED.CORE", S_ESLOTS " (LNL-SKT: 8)"),
	N(FE, L1, NULL, "TOPDOWN_FE_BOUND.ALL_P / SLOTS", "[ECSV] LNL-SKT Frontend_Bound, GP form"),
	N(BAD, L1, NULL, "TOPDOWN_BAD_SPECULATION.ALL_P / SLOTS", "[ECSV] LNL-SKT Bad_Speculation"),
	N(BE, L1, NULL, "TOPDOWN_BE_BOUND.ALL_P / SLOTS", "[ECSV] LNL-SKT Backend_Bound"),
	N(RET, L1, NULL, "TOPDOWN_RETIRING.ALL_P / SLOTS", "[ECSV] LNL-SKT Retiring, GP form"),
	ECORE_L2_NODES,
};

static const struct recipe_event tnt_events[] = {
	ECORE_CLK(S_TNT),
	GP("TOPDOWN_FE_BOUND.ALL", 0x71, 0x00, S_TNT, C03),
	GP("TOPDOWN_BAD_SPECULATION.ALL", 0x73, 0x06, S_TNT, C03),
	GP("TOPDOWN_BE_BOUND.ALL", 0x74, 0x00, S_TNT, C03),
	GP("TOPDOWN_RETIRING.ALL", 0xC2, 0x00, S_TNT, C03),
	GP("TOPDOWN_BAD_SPECULATION.MISPREDICT", 0x73, 0x04, S_TNT, C03),
	GP("TOPDOWN_BAD_SPECULATION.MONUKE", 0x73, 0x02, S_TNT, C03),
};

static const struct recipe_node tnt_nodes[] = {
	N("SLOTS", 0, NULL, "width * CPU_CLK_UNHALTED.CORE",
	  "[ACSV] SLOTS = #Pipeline_Width * CLKS, #Pipeline_Width 4 (TNT)"),
	N(FE, L1, NULL, "TOPDOWN_FE_BOUND.ALL / SLOTS", "[ACSV] TNT Frontend_Bound"),
	N(BAD, L1, NULL, "TOPDOWN_BAD_SPECULATION.ALL / SLOTS", "[ACSV] TNT Bad_Speculation"),
	N(BE, L1, NULL, "TOPDOWN_BE_BOUND.ALL / SLOTS", "[ACSV] TNT Backend_Bound"),
	N(RET, L1, NULL, "TOPDOWN_RETIRING.ALL / SLOTS", "[ACSV] TNT Retiring"),
	N("tma_branch_mispredicts", L2, BAD, "TOPDOWN_BAD_SPECULATION.MISPREDICT / SLOTS",
	  "[ACSV] TNT Branch_Mispredicts"),
	N("tma_machine_clears", L2, BAD, "TOPDOWN_BAD_SPECULATION.MONUKE / SLOTS",
	  "[ACSV] TNT Machine_Clears"),
};

static const char *const u_grt[] = { "Gracemont", NULL };
static const char *const u_cmt[] = { "Crestmont", NULL };
static const char *const u_skt[] = { "Skymont", "Darkmont", NULL };
static const char *const u_tnt[] = { "Tremont", NULL };

#define ECORE_BOUND "48-bit counters (no quantisation); level 1 and level 2 in passes when " \
	"the core has fewer GP counters than events; the E-core's slots are per core (no SMT)"
#define ECORE_NOTES "no level 2 under Retiring (E-core_TMA_Metrics.csv has none); tma_resource_bound is the E-core's other backend node"
#define SKT_GP_NOTES "Skymont/Darkmont without fixed counters 4-6 in CPUID leaf 0x23: the GP " \
	"forms; " ECORE_NOTES
#define TNT_NOTES "no tma_fetch_latency/bandwidth (Atom_TMA.csv sums 4 events each) nor " \
	"Memory_Bound (Atom_TMA.csv: stall cycles, not slots)"

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
	{ "intel-icl-events", "sunny-cove", u_icl, I, 5, icl_events, RECIPE_N(icl_events), icl_nodes,
	  RECIPE_N(icl_nodes), ICL_BOUND, ICL_NOTES },
	{ "intel-icl-events", "golden-cove", u_glc, I, 6, glc_events, RECIPE_N(glc_events), glc_nodes,
	  RECIPE_N(glc_nodes), ICL_BOUND, GLC_NOTES },
	{ "intel-ecore-l1", "gracemont", u_grt, I, 5, grt_events, RECIPE_N(grt_events), grt_nodes,
	  RECIPE_N(grt_nodes), ECORE_BOUND, ECORE_NOTES },
	{ "intel-ecore-l1", "crestmont", u_cmt, I, 6, cmt_events, RECIPE_N(cmt_events), cmt_nodes,
	  RECIPE_N(cmt_nodes), ECORE_BOUND, ECORE_NOTES },
	{ "intel-ecore-l1", "skymont", u_skt, I, 8, skt_events, RECIPE_N(skt_events), skt_nodes,
	  RECIPE_N(skt_nodes), ECORE_BOUND, ECORE_NOTES },
	{ "intel-ecore-l1", "skymont-gp", u_skt, I, 8, skt_gp_events, RECIPE_N(skt_gp_events),
	  skt_gp_nodes, RECIPE_N(skt_gp_nodes), ECORE_BOUND, SKT_GP_NOTES },
	{ "intel-ecore-l1", "tremont", u_tnt, I, 4, tnt_events, RECIPE_N(tnt_events), tnt_nodes,
	  RECIPE_N(tnt_nodes), ECORE_BOUND, TNT_NOTES },
};
const struct recipe_table recipes_intel_table = { recipes_intel, RECIPE_N(recipes_intel) };
