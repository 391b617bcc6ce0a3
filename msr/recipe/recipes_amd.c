/*
 * msr/recipe/recipes_amd.c - the AMD Top-down recipes: perf's amdzen4 / amdzen5
 * pipeline utilisation (data; msr/recipe/recipe.h).
 *
 * Sources, cited by key in each row:
 *   [Z4P]  linux tools/perf/pmu-events/arch/x86/amdzen4/pipeline.json: the
 *          PipelineL1 and PipelineL2 metrics (MetricExpr); its events in
 *          [Z4C] amdzen4/core.json, [Z4O] amdzen4/other.json,
 *          [Z4B] amdzen4/branch.json.
 *   [Z5P]  .../amdzen5/pipeline.json; events in [Z5D] amdzen5/decode.json,
 *          [Z5E] amdzen5/execution.json, [Z5L] amdzen5/load-store.json,
 *          [Z5B] amdzen5/branch-prediction.json.
 *   [AMDC] linux arch/x86/events/amd/core.c amd_get_event_constraints_f17h:
 *          every event may use every counter on family 17h and later but the
 *          paired (large increment) event 0x003, used by no recipe here.
 *          The encodings are the AMD PPR's for families 19h/1Ah as perf
 *          lists them (EventCode: PERF_CTL[7:0] and [35:32], UMask).
 *
 * perf's nodes mapped onto the tma_* tree (their name in .source):
 *   frontend_bound -> tma_frontend_bound, bad_speculation ->
 *   tma_bad_speculation, backend_bound -> tma_backend_bound, retiring ->
 *   tma_retiring; smt_contention (dispatch slots given to the other
 *   thread) is a fifth level-1 node with no Intel equivalent, kept under
 *   its own name;  frontend_bound_latency / _by_latency -> tma_fetch_latency,
 *   frontend_bound_bandwidth / _by_bandwidth -> tma_fetch_bandwidth,
 *   bad_speculation_mispredicts / _from_mispredicts -> tma_branch_mispredicts,
 *   bad_speculation_pipeline_restarts / _from_pipeline_restarts ->
 *   tma_machine_clears, backend_bound_memory / _by_memory -> tma_memory_bound,
 *   backend_bound_cpu / _by_cpu -> tma_core_bound, retiring_fastpath /
 *   _from_fastpath -> tma_light_operations, retiring_microcode /
 *   _from_microcode -> tma_heavy_operations.
 * total_dispatch_slots ("6 * ls_not_halted_cyc", "8 * ...") is SLOTS, written
 * "width * ls_not_halted_cyc".  The frontend latency event is perf's
 * cpu@de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6@ (0x8 on
 * Zen 5), named here "...:c6" / ":c8" as TMA_Metrics-full.csv writes a
 * counter mask.
 */
#include "msr/recipe/recipe_int.h"

#define A CPU_VENDOR_AMD

#define GP(nm, ev, um, src, ...) \
	{ .name = (nm), .ctr = RECIPE_CTR_GP, .event = (ev), .umask = (um), .source = (src), \
	  __VA_ARGS__ }
#define N(m, lvl, par, ex, src) \
	{ .metric = (m), .level = (lvl), .parent = (par), .expr = (ex), .source = (src) }

#define FE "tma_frontend_bound"
#define BAD "tma_bad_speculation"
#define BE "tma_backend_bound"
#define RET "tma_retiring"

/* ================================================================ Zen 4 */

static const struct recipe_event zen4_events[] = {
	GP("ls_not_halted_cyc", 0x076, 0x00, "[Z4C] EventCode 0x76"),
	GP("de_src_op_disp.all", 0x0AA, 0x07, "[Z4O] EventCode 0xaa, UMask 0x07"),
	GP("ex_ret_ops", 0x0C1, 0x00, "[Z4C] EventCode 0xc1"),
	GP("de_no_dispatch_per_slot.no_ops_from_frontend", 0x1A0, 0x01,
	   "[Z4O] EventCode 0x1a0, UMask 0x01"),
	GP("de_no_dispatch_per_slot.backend_stalls", 0x1A0, 0x1E, "[Z4O] EventCode 0x1a0, UMask 0x1e"),
	GP("de_no_dispatch_per_slot.smt_contention", 0x1A0, 0x60, "[Z4O] EventCode 0x1a0, UMask 0x60"),
	GP("de_no_dispatch_per_slot.no_ops_from_frontend:c6", 0x1A0, 0x01,
	   "[Z4O] EventCode 0x1a0, UMask 0x01; cmask 6: [Z4P] frontend_bound_latency", .cmask = 6),
	GP("ex_ret_brn_misp", 0x0C3, 0x00, "[Z4B] EventCode 0xc3"),
	GP("resyncs_or_nc_redirects", 0x096, 0x00, "[Z4O] EventCode 0x96"),
	GP("ex_no_retire.load_not_complete", 0x0D6, 0xA2, "[Z4C] EventCode 0xd6, UMask 0xa2"),
	GP("ex_no_retire.not_complete", 0x0D6, 0x02, "[Z4C] EventCode 0xd6, UMask 0x02"),
	GP("ex_ret_ucode_ops", 0x1C2, 0x00, "[Z4C] EventCode 0x1c2"),
};

#define ZEN_L1_NODES(P) \
	N("SLOTS", 0, NULL, "width * ls_not_halted_cyc", P " total_dispatch_slots"), \
	N(FE, 1, NULL, "d_ratio(de_no_dispatch_per_slot.no_ops_from_frontend, SLOTS)", \
	  P " frontend_bound"), \
	N(BAD, 1, NULL, "d_ratio(de_src_op_disp.all - ex_ret_ops, SLOTS)", P " bad_speculation"), \
	N(BE, 1, NULL, "d_ratio(de_no_dispatch_per_slot.backend_stalls, SLOTS)", P " backend_bound"), \
	N("smt_contention", 1, NULL, "d_ratio(de_no_dispatch_per_slot.smt_contention, SLOTS)", \
	  P " smt_contention"), \
	N(RET, 1, NULL, "d_ratio(ex_ret_ops, SLOTS)", P " retiring")
/* Level 2 shared by both: the backend and retiring splits. */
#define ZEN_L2_NODES(P, BSFX, RSFX) \
	N("tma_memory_bound", 2, BE, "tma_backend_bound * d_ratio(ex_no_retire.load_not_complete, " \
	  "ex_no_retire.not_complete)", P " backend_bound" BSFX "memory"), \
	N("tma_core_bound", 2, BE, "tma_backend_bound * (1 - d_ratio(ex_no_retire.load_not_complete, " \
	  "ex_no_retire.not_complete))", P " backend_bound" BSFX "cpu"), \
	N("tma_light_operations", 2, RET, "tma_retiring * (1 - d_ratio(ex_ret_ucode_ops, ex_ret_ops))", \
	  P " retiring" RSFX "fastpath"), \
	N("tma_heavy_operations", 2, RET, "tma_retiring * d_ratio(ex_ret_ucode_ops, ex_ret_ops)", \
	  P " retiring" RSFX "microcode")

static const struct recipe_node zen4_nodes[] = {
	ZEN_L1_NODES("[Z4P]"),
	N("tma_fetch_latency", 2, FE,
	  "d_ratio(6 * de_no_dispatch_per_slot.no_ops_from_frontend:c6, SLOTS)",
	  "[Z4P] frontend_bound_latency"),
	N("tma_fetch_bandwidth", 2, FE, "d_ratio(de_no_dispatch_per_slot.no_ops_from_frontend - "
	  "6 * de_no_dispatch_per_slot.no_ops_from_frontend:c6, SLOTS)",
	  "[Z4P] frontend_bound_bandwidth"),
	N("tma_branch_mispredicts", 2, BAD, "d_ratio(tma_bad_speculation * ex_ret_brn_misp, "
	  "ex_ret_brn_misp + resyncs_or_nc_redirects)", "[Z4P] bad_speculation_mispredicts"),
	N("tma_machine_clears", 2, BAD, "d_ratio(tma_bad_speculation * resyncs_or_nc_redirects, "
	  "ex_ret_brn_misp + resyncs_or_nc_redirects)", "[Z4P] bad_speculation_pipeline_restarts"),
	ZEN_L2_NODES("[Z4P]", "_", "_"),
};

/* ================================================================ Zen 5 */

static const struct recipe_event zen5_events[] = {
	GP("ls_not_halted_cyc", 0x076, 0x00, "[Z5L] EventCode 0x76"),
	GP("de_src_op_disp.all", 0x0AA, 0x07, "[Z5D] EventCode 0xaa, UMask 0x07"),
	GP("ex_ret_ops", 0x0C1, 0x00, "[Z5E] EventCode 0xc1"),
	GP("de_no_dispatch_per_slot.no_ops_from_frontend", 0x1A0, 0x01,
	   "[Z5D] EventCode 0x1a0, UMask 0x01"),
	GP("de_no_dispatch_per_slot.backend_stalls", 0x1A0, 0x1E, "[Z5D] EventCode 0x1a0, UMask 0x1e"),
	GP("de_no_dispatch_per_slot.smt_contention", 0x1A0, 0x60, "[Z5D] EventCode 0x1a0, UMask 0x60"),
	GP("de_no_dispatch_per_slot.no_ops_from_frontend:c8", 0x1A0, 0x01,
	   "[Z5D] EventCode 0x1a0, UMask 0x01; cmask 8: [Z5P] frontend_bound_by_latency", .cmask = 8),
	GP("ex_ret_brn_misp", 0x0C3, 0x00, "[Z5E] EventCode 0xc3"),
	GP("bp_redirects.resync", 0x09F, 0x01, "[Z5B] EventCode 0x9f, UMask 0x01"),
	GP("ex_no_retire.load_not_complete", 0x0D6, 0xA2, "[Z5E] EventCode 0xd6, UMask 0xa2"),
	GP("ex_no_retire.not_complete", 0x0D6, 0x02, "[Z5E] EventCode 0xd6, UMask 0x02"),
	GP("ex_ret_ucode_ops", 0x1C2, 0x00, "[Z5E] EventCode 0x1c2"),
};

static const struct recipe_node zen5_nodes[] = {
	ZEN_L1_NODES("[Z5P]"),
	N("tma_fetch_latency", 2, FE,
	  "d_ratio(8 * de_no_dispatch_per_slot.no_ops_from_frontend:c8, SLOTS)",
	  "[Z5P] frontend_bound_by_latency"),
	N("tma_fetch_bandwidth", 2, FE, "d_ratio(de_no_dispatch_per_slot.no_ops_from_frontend - "
	  "8 * de_no_dispatch_per_slot.no_ops_from_frontend:c8, SLOTS)",
	  "[Z5P] frontend_bound_by_bandwidth"),
	N("tma_branch_mispredicts", 2, BAD, "d_ratio(tma_bad_speculation * ex_ret_brn_misp, "
	  "ex_ret_brn_misp + bp_redirects.resync)", "[Z5P] bad_speculation_from_mispredicts"),
	N("tma_machine_clears", 2, BAD, "d_ratio(tma_bad_speculation * bp_redirects.resync, "
	  "ex_ret_brn_misp + bp_redirects.resync)", "[Z5P] bad_speculation_from_pipeline_restarts"),
	ZEN_L2_NODES("[Z5P]", "_by_", "_from_"),
};

static const char *const u_zen4[] = { "Zen 4", NULL };
static const char *const u_zen5[] = { "Zen 5", NULL };

#define ZEN_BOUND "48-bit counters (no quantisation); 12 events on 6 counters: level 1 " \
	"(6 events) in one pass, level 2 in two more, each with ls_not_halted_cyc, the base " \
	"its counts are scaled to (other intervals); smt_contention is the other thread's " \
	"share of the dispatch slots"

/* Nothing of AMD's level 1 and 2 left out (said, as every recipe says). */
#define ZEN_NOTES(dir) "nothing: Linux's " dir " pipeline.json level-1 and level-2 formulas " \
	"whole (smt_contention a level-1 node of its own, as AMD writes it)"

static const struct recipe recipes_amd[] = {
	{ "amd-zen4", "zen4", u_zen4, A, 6, zen4_events, RECIPE_N(zen4_events), zen4_nodes,
	  RECIPE_N(zen4_nodes), ZEN_BOUND, ZEN_NOTES("amdzen4") },
	{ "amd-zen5", "zen5", u_zen5, A, 8, zen5_events, RECIPE_N(zen5_events), zen5_nodes,
	  RECIPE_N(zen5_nodes), ZEN_BOUND, ZEN_NOTES("amdzen5") },
};
const struct recipe_table recipes_amd_table = { recipes_amd, RECIPE_N(recipes_amd) };
