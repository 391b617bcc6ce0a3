/*
 * msr/sim/sim_events.c - the simulated PMU's own event table: which share of
 * its profile an event select counts (msr/sim/msr_sim.h "General-purpose
 * counters").  The table is the simulator's, written from the events'
 * descriptions (intel/perfmon's <model>/events/ *_core.json files, perf's
 * tools/perf/pmu-events/arch/x86/{skylake,icelake,sapphirerapids,
 * alderlaken,meteorlake,lunarlake,amdzen4,amdzen5}/ JSON, the AMD PPR for
 * family 19h/1Ah), never from the Top-down recipes it is there to test.
 *
 * A row matches by encoding: event select (AMD: 12 bits), unit mask,
 * counter mask (SIM_CMASK_WIDTH: the CPU's pipeline width, as perf's
 * metrics write "cmask=6" on Zen 4, "cmask=8" on Zen 5, "c4" on Skylake),
 * inv and edge, on the core families it names (msr/sim/msr_sim_int.h
 * SIM_FAM_*); AnyThread is no part of the key but a modifier (below).
 * An encoding no row matches counts 0 - as an event the simulated core
 * does not have.  Where one encoding means different events on the
 * models of one family (INT_MISC.RECOVERY_CYCLES is 0x0D/0x03 on Sandy
 * Bridge-Broadwell, 0x0D/0x01 on Skylake-Cascade Lake), every form
 * counts on every model of it: the model does not tell the generations
 * apart within a family.
 *
 * What each quantity counts per cycle, with w the width (slots per cycle)
 * and the profile's shares as fractions:
 *   cycles 1; instructions `ipc`, before Ice Lake at least the thread's
 *     light uops w x (retiring - heavy_operations) (x 1/2 with `smt on`),
 *     whose surplus over them is macro-fused pairs (UOPS_RETIRED.MACRO_FUSED
 *     = instructions - light uops), so that perf's skylake
 *     tma_heavy_operations, (UOPS_RETIRED.RETIRE_SLOTS + MACRO_FUSED -
 *     INST_RETIRED.ANY) / SLOTS, recovers heavy_operations whatever `ipc`
 *     (a fused pair is two instructions and one uop; a heavy instruction
 *     is one instruction and several uops: skl-metrics.json's reading);
 *   slots w;
 *   retiring w x retiring (uops / ops retired);
 *   issued (Intel) w x (retiring + bad_speculation x (1 - R)): the uops
 *     that retire and the bad-speculation slots that are issued uops which
 *     never retire; the other R = 1/2 of bad speculation are recovery
 *     bubbles, INT_MISC.RECOVERY_CYCLES = bad_speculation x R cycles, so
 *     (UOPS_ISSUED.ANY - UOPS_RETIRED.RETIRE_SLOTS + w x RECOVERY_CYCLES)
 *     / slots = bad_speculation (perf's skylake tma_bad_speculation);
 *   dispatched (AMD) w x (retiring + bad_speculation): perf's amdzen
 *     bad_speculation is (de_src_op_disp.all - ex_ret_ops) / slots;
 *   frontend, backend, bad speculation, heavy operations, branch
 *     mispredicts, fetch latency, memory bound, smt contention: w x share
 *     (slots); machine clears w x (bad_speculation - branch_mispredicts);
 *     fetch bandwidth w x (frontend_bound - fetch_latency); core bound
 *     (the E-core's allocation restrictions: backend slots not for want
 *     of memory) w x (backend_bound - memory_bound);
 *   "cycles of" a share (fetch latency: cycles no uop was delivered,
 *     memory bound / backend bound: stall cycles): the share itself;
 *   stall cycles (pre-Ice Lake execution activity, intel/perfmon SKL
 *     CYCLE_ACTIVITY / EXE_ACTIVITY descriptions), with m = memory bound,
 *     c = backend_bound - memory_bound (core bound), r = retiring: of the
 *     memory-bound cycles S = 1/4 have the store buffer full and no load
 *     outstanding (EXE_ACTIVITY.BOUND_ON_STORES m S), the rest execute
 *     nothing with a load outstanding (CYCLE_ACTIVITY.STALLS_MEM_ANY
 *     m (1 - S)); of the core-bound cycles half execute nothing
 *     (CYCLE_ACTIVITY.STALLS_TOTAL = m (1 - S) + c / 2: every stall; on
 *     Haswell CYCLE_ACTIVITY.CYCLES_NO_EXECUTE, the same encoding), half
 *     execute exactly 1 uop (EXE_ACTIVITY.1_PORTS_UTIL c / 2), and no
 *     cycle executes exactly 2 (EXE_ACTIVITY.2_PORTS_UTIL 0); the cycles
 *     that execute at all, 1 - STALLS_TOTAL, are UOPS_EXECUTED's cmask 1
 *     (CYCLES_GE_1_UOP_EXEC), and those less the 1-uop cycles its cmask 2
 *     and 3 (at least 2 = at least 3 uops).  The model's choice: perf's
 *     skylake tma_memory_bound, which weighs the 2-uop cycles by
 *     tma_retiring, has the denominator STALLS_TOTAL + 1_PORTS + r x
 *     2_PORTS + BOUND_ON_STORES = m + c = backend bound and the numerator
 *     STALLS_MEM_ANY + BOUND_ON_STORES = m: it recovers m; perf's haswell
 *     and broadwell tma_memory_bound, whose few-uop cycles are GE_1 - GE_2
 *     or, when IPC > 1.8, GE_1 - GE_3, get c / 2 either way, so the same
 *     m + c in either branch; the store-buffer stalls there are
 *     RESOURCE_STALLS.SB (m S), and the reservation station never drains
 *     (RS_EVENTS.EMPTY_CYCLES 0: the frontend's bubbles leave stalled uops
 *     in it), so perf's fetch-latency branch subtracts 0;
 *   microcode-sequencer uops (IDQ.MS_UOPS, heavy operations before
 *     Golden Cove): the heavy share of retired uops, issued at the
 *     issued/retired ratio, w x heavy x issued / retiring (perf's haswell
 *     tma_microcode_sequencer = RETIRE_SLOTS / UOPS_ISSUED.ANY x
 *     IDQ.MS_UOPS / SLOTS, and icelake's tma_retiring x IDQ.MS_UOPS /
 *     UOPS_ISSUED.ANY: heavy); the other issued uops come from the legacy
 *     decoders (IDQ.MITE_UOPS = issued - MS uops: no DSB, no LSD), whose
 *     decoder 0 decodes one uop in each of its cycles (UOPS_DECODED.DEC0 =
 *     its cmask-1 count = MITE uops / w), so that perf's icelake
 *     tma_heavy_operations, microcode sequencer + retiring x (DEC0 -
 *     DEC0:c1) / MITE uops, is heavy (no multi-uop instruction outside
 *     the sequencer);
 *   flushes (branch mispredicts, machine clears / resyncs): their slots /
 *     SIM_FLUSH_SLOTS (each flush wastes that many slots; perf's level 2
 *     takes only their ratio); every flush is one clear of the pipeline
 *     (INT_MISC.CLEARS_COUNT, "the number of speculative clears due to any
 *     type of branch misprediction or machine clears", intel/perfmon ICL):
 *     w x bad_speculation / SIM_FLUSH_SLOTS, so that icelake_metrics.json's
 *     Backend_Bound term 5 x CLEARS_COUNT / SLOTS is bad_speculation x 5 /
 *     SIM_FLUSH_SLOTS = a quarter of it, taken from Bad_Speculation (the
 *     remainder) - PERF_METRICS is the profile's shares as before;
 *   dropped slots (INT_MISC.UOP_DROPPING, "TMA slots that got dropped due
 *     to non front-end reasons"): 0 - the simulated core drops none.
 * SMT (`smt on`, Intel P-cores): the sibling thread runs the same work in
 * the same cycles, each thread issuing in half of the core's slots; an
 * event without AnyThread counts the thread's half of every quantity but
 * cycles and instructions, with AnyThread (pre-Ice Lake: bit 21) the
 * core's, both threads'; CPU_CLK_UNHALTED.THREAD_ANY counts the cycles
 * either thread is unhalted: the thread's own, both being busy
 * throughout.  So SLOTS = 4 x THREAD_ANY / 2 of perf's skylake SMT
 * metrics is the thread's half.  An event the JSON describes as the
 * physical core's ("from any thread on physical core": Haswell's
 * UOPS_EXECUTED.CORE_CYCLES_GE_*) counts the core's, as with AnyThread.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "msr/regs/amd_regs.h"
#include "msr/regs/intel_regs.h"
#include "msr/sim/msr_sim.h"
#include "msr/sim/msr_sim_int.h"

#define SIM_CMASK_WIDTH (-1)  /* the row's cmask is the pipeline width */
#define SIM_RECOVERY 0.5      /* R: the bad-speculation share of recovery bubbles */
#define SIM_FLUSH_SLOTS 20.0  /* slots one flush wastes */
#define SIM_STORE 0.25        /* S: the memory-bound cycles' share bound on stores */

/* PERF_METRICS node indexes (msr/sim/sim_profile.c node_keys) */
enum { N_RET, N_BAD, N_FE, N_BE, N_HEAVY, N_BR, N_FL, N_MEM };

enum sim_q {
	Q_CYCLES, Q_INST, Q_SLOTS, Q_RETIRING, Q_ISSUED, Q_DISPATCHED, Q_FE, Q_BE, Q_BAD,
	Q_RECOVERY_CYC, Q_HEAVY, Q_BR_SLOTS, Q_CLEAR_SLOTS, Q_BR_FLUSHES, Q_CLEAR_FLUSHES,
	Q_FETCH_LAT, Q_FETCH_LAT_CYC, Q_MEM, Q_MEM_CYC, Q_BE_CYC, Q_SMT_CONT, Q_FETCH_BW, Q_CORE,
	Q_LOAD_STALL_CYC, Q_STORE_CYC, Q_STALL_CYC, Q_PORTS1_CYC, Q_PORTS2_CYC,
	Q_EXEC_GE1_CYC, Q_EXEC_GE2_CYC, Q_RS_EMPTY_CYC, Q_MS_UOPS, Q_MITE_UOPS, Q_DEC0_CYC,
	Q_FUSED, Q_CLEARS, Q_NONE,
};

struct sim_event_row {
	unsigned fam;          /* SIM_FAM_* it applies to */
	uint16_t event;
	uint8_t umask;
	int16_t cmask;         /* SIM_CMASK_WIDTH: the pipeline width */
	bool inv, edge;
	enum sim_q q;
	const char *name;      /* the event's name where it is described */
	bool core;             /* counts the physical core's (file comment, SMT) */
};

#define P_ALL  (SIM_FAM_PRE_ICL | SIM_FAM_ICL | SIM_FAM_GLC)
#define P_TD   (SIM_FAM_ICL | SIM_FAM_GLC)
#define ZEN    (SIM_FAM_ZEN4 | SIM_FAM_ZEN5)
#define ROW(f, e, u, c, q, n) { f, e, u, c, false, false, q, n, false }
#define CORE_ROW(f, e, u, c, q, n) { f, e, u, c, false, false, q, n, true }

/*
 * Sources, per group of rows:
 *   [SKL] intel/perfmon SKL/events/skylake_core.json (HSW, BDW, SNB/IVB the
 *         same where noted); perf skylake/skl-metrics.json tma_* for which
 *         events level 1 and 2 use;
 *   [HSW] [BDW] intel/perfmon HSW/events/haswell_core.json, BDW/events/
 *         broadwell_core.json (perf haswell/, broadwell/pipeline.json);
 *         perf hsw-/bdw-metrics.json tma_memory_bound;
 *   [ICL] intel/perfmon ICL/events/icelake_core.json;
 *   [SPR] intel/perfmon SPR/events/sapphirerapids_core.json (Golden Cove;
 *         ADL/MTL/ARL P-cores the same encodings);
 *   [GRT] intel/perfmon ADL/events/alderlake_gracemont_core.json and perf
 *         alderlaken/adln-metrics.json; [CMT] MTL/events/
 *         meteorlake_crestmont_core.json; [SKT] LNL/events/
 *         lunarlake_skymont_core.json (FC4-6); [TNT]
 *         EHL/events/elkhartlake_core.json, SNR/events/snowridgex_core.json
 *         (perf elkhartlake/, snowridgex/pipeline.json);
 *   [ZEN] perf amdzen4/ and amdzen5/ core.json, other.json, branch.json,
 *         decode.json and pipeline.json (metrics); AMD PPR 19h/1Ah.
 */
static const struct sim_event_row rows[] = {
	/* Intel P-cores: level 1 */
	ROW(P_ALL, 0x3c, 0x00, 0, Q_CYCLES, "CPU_CLK_UNHALTED.THREAD_P [SKL ICL SPR]"),
	ROW(P_ALL, 0xc0, 0x00, 0, Q_INST, "INST_RETIRED.ANY_P [SKL ICL SPR]"),
	ROW(SIM_FAM_PRE_ICL, 0xc2, 0x04, 0, Q_FUSED, "UOPS_RETIRED.MACRO_FUSED [SKL]"),
	ROW(SIM_FAM_PRE_ICL | SIM_FAM_ICL, 0x0e, 0x01, 0, Q_ISSUED, "UOPS_ISSUED.ANY [SKL ICL]"),
	ROW(SIM_FAM_GLC, 0xae, 0x01, 0, Q_ISSUED, "UOPS_ISSUED.ANY [SPR]"),
	ROW(P_ALL, 0xc2, 0x02, 0, Q_RETIRING,
	    "UOPS_RETIRED.RETIRE_SLOTS [SKL] / UOPS_RETIRED.SLOTS [ICL SPR]"),
	ROW(P_ALL, 0x9c, 0x01, 0, Q_FE,
	    "IDQ_UOPS_NOT_DELIVERED.CORE [SKL ICL] / IDQ_BUBBLES.CORE [SPR]"),
	ROW(SIM_FAM_PRE_ICL, 0x0d, 0x03, 1, Q_RECOVERY_CYC,
	    "INT_MISC.RECOVERY_CYCLES [SNB IVB HSW BDW: 0x0D/0x03 c1]"),
	ROW(SIM_FAM_PRE_ICL | SIM_FAM_ICL, 0x0d, 0x01, 0, Q_RECOVERY_CYC,
	    "INT_MISC.RECOVERY_CYCLES [SKL ICL]"),
	ROW(SIM_FAM_PRE_ICL | SIM_FAM_ICL, 0x0d, 0x01, 1, Q_RECOVERY_CYC,
	    "INT_MISC.RECOVERY_CYCLES c1 [SKL; the kernel's topdown-recovery-bubbles]"),
	ROW(SIM_FAM_GLC, 0xad, 0x01, 0, Q_RECOVERY_CYC, "INT_MISC.RECOVERY_CYCLES [SPR]"),
	/* [ICL] the events icelake_metrics.json adds to PERF_METRICS's level 1 */
	{ SIM_FAM_ICL, 0x0d, 0x01, 1, false, true, Q_CLEARS,
	  "INT_MISC.CLEARS_COUNT [ICL: c1 edge]: \"the number of speculative clears due to any "
	  "type of branch misprediction or machine clears\" (the flushes: file comment)", false },
	ROW(SIM_FAM_ICL, 0x0d, 0x10, 0, Q_NONE,
	    "INT_MISC.UOP_DROPPING [ICL]: \"TMA slots where uops got dropped\" (none: file comment)"),
	ROW(P_TD, 0xa4, 0x01, 0, Q_SLOTS, "TOPDOWN.SLOTS_P [ICL SPR]"),
	ROW(P_TD, 0xa4, 0x02, 0, Q_BE, "TOPDOWN.BACKEND_BOUND_SLOTS [ICL SPR]"),
	ROW(SIM_FAM_GLC, 0xa4, 0x04, 0, Q_BAD, "TOPDOWN.BAD_SPEC_SLOTS [SPR: counter 0 only]"),
	/* Intel P-cores: level 2 */
	ROW(SIM_FAM_GLC, 0xa4, 0x08, 0, Q_BR_SLOTS,
	    "TOPDOWN.BR_MISPREDICT_SLOTS [SPR: counter 0 only]"),
	ROW(SIM_FAM_GLC, 0xa4, 0x10, 0, Q_MEM, "TOPDOWN.MEMORY_BOUND_SLOTS [SPR]"),
	ROW(SIM_FAM_GLC, 0xc2, 0x01, 0, Q_HEAVY, "UOPS_RETIRED.HEAVY [SPR]"),
	ROW(P_ALL, 0x9c, 0x01, SIM_CMASK_WIDTH, Q_FETCH_LAT_CYC,
	    "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE [SKL: c4; ICL: c5; SPR: c6]"),
	ROW(P_ALL, 0xc5, 0x00, 0, Q_BR_FLUSHES, "BR_MISP_RETIRED.ALL_BRANCHES [SKL ICL SPR]"),
	{ P_ALL, 0xc3, 0x01, 1, false, true, Q_CLEAR_FLUSHES,
	  "MACHINE_CLEARS.COUNT [SKL ICL SPR: c1 edge]", false },
	/* [SKL] execution-stall cycles (the model: file comment, "stall cycles") */
	ROW(SIM_FAM_PRE_ICL | SIM_FAM_ICL, 0xa3, 0x14, 20, Q_LOAD_STALL_CYC,
	    "CYCLE_ACTIVITY.STALLS_MEM_ANY [SKL ICL: c20]: \"Execution stalls while memory "
	    "subsystem has an outstanding load\""),
	ROW(SIM_FAM_PRE_ICL, 0xa6, 0x40, 0, Q_STORE_CYC,
	    "EXE_ACTIVITY.BOUND_ON_STORES [SKL]: \"Cycles where the Store Buffer was full and "
	    "no outstanding load\""),
	ROW(SIM_FAM_PRE_ICL | SIM_FAM_ICL, 0xa3, 0x04, 4, Q_STALL_CYC,
	    "CYCLE_ACTIVITY.STALLS_TOTAL [SKL BDW ICL: c4]: \"Total execution stalls\" (no uop "
	    "executed); CYCLE_ACTIVITY.CYCLES_NO_EXECUTE [HSW: c4]: \"no execute for this thread\""),
	ROW(SIM_FAM_PRE_ICL | SIM_FAM_ICL, 0xa6, 0x02, 0, Q_PORTS1_CYC,
	    "EXE_ACTIVITY.1_PORTS_UTIL [SKL ICL]: cycles a total of 1 uop executed, RS not empty"),
	ROW(SIM_FAM_PRE_ICL | SIM_FAM_ICL, 0xa6, 0x04, 0, Q_PORTS2_CYC,
	    "EXE_ACTIVITY.2_PORTS_UTIL [SKL ICL]: cycles a total of 2 uops executed, RS not empty"),
	/* [HSW] [BDW] the execution-stall events of perf's haswell/broadwell
	 * tma_memory_bound (the same model: file comment, "stall cycles") */
	ROW(SIM_FAM_PRE_ICL, 0xa3, 0x06, 6, Q_LOAD_STALL_CYC,
	    "CYCLE_ACTIVITY.STALLS_LDM_PENDING [HSW: c6] / STALLS_MEM_ANY [BDW: c6]: "
	    "\"Execution stalls while memory subsystem has an outstanding load\" (on SKL "
	    "this encoding is STALLS_L3_MISS: the family is one model)"),
	ROW(SIM_FAM_PRE_ICL, 0xa2, 0x08, 0, Q_STORE_CYC,
	    "RESOURCE_STALLS.SB [HSW BDW SKL]: \"Cycles stalled due to no store buffers available\""),
	ROW(SIM_FAM_PRE_ICL, 0x5e, 0x01, 0, Q_RS_EMPTY_CYC,
	    "RS_EVENTS.EMPTY_CYCLES [HSW BDW SKL]: cycles the RS is empty (never, here)"),
	ROW(SIM_FAM_PRE_ICL, 0xb1, 0x01, 1, Q_EXEC_GE1_CYC,
	    "UOPS_EXECUTED.CYCLES_GE_1_UOP_EXEC [HSW BDW: 0xB1/0x01 c1, per thread]"),
	ROW(SIM_FAM_PRE_ICL, 0xb1, 0x01, 2, Q_EXEC_GE2_CYC,
	    "UOPS_EXECUTED.CYCLES_GE_2_UOPS_EXEC [HSW BDW: c2]"),
	ROW(SIM_FAM_PRE_ICL, 0xb1, 0x01, 3, Q_EXEC_GE2_CYC,
	    "UOPS_EXECUTED.CYCLES_GE_3_UOPS_EXEC [HSW BDW: c3] (no 2-uop cycles: as c2)"),
	CORE_ROW(SIM_FAM_PRE_ICL, 0xb1, 0x02, 1, Q_EXEC_GE1_CYC,
		 "UOPS_EXECUTED.CORE_CYCLES_GE_1 [HSW: 0xB1/0x02 c1, \"from any thread on "
		 "physical core\"]"),
	CORE_ROW(SIM_FAM_PRE_ICL, 0xb1, 0x02, 2, Q_EXEC_GE2_CYC, "UOPS_EXECUTED.CORE_CYCLES_GE_2 [HSW]"),
	CORE_ROW(SIM_FAM_PRE_ICL, 0xb1, 0x02, 3, Q_EXEC_GE2_CYC,
		 "UOPS_EXECUTED.CORE_CYCLES_GE_3 [HSW] (as GE_2)"),
	ROW(SIM_FAM_PRE_ICL | SIM_FAM_ICL, 0x79, 0x30, 0, Q_MS_UOPS,
	    "IDQ.MS_UOPS [SNB IVB HSW BDW SKL ICL]: uops delivered by the microcode sequencer"),
	/* [ICL] the rest of perf's icelake tma_memory_bound and tma_heavy_operations */
	ROW(SIM_FAM_ICL, 0xa6, 0x40, 2, Q_STORE_CYC,
	    "EXE_ACTIVITY.BOUND_ON_STORES [ICL: c2]: \"Cycles where the Store Buffer was full and "
	    "no loads caused an execution stall\""),
	ROW(SIM_FAM_PRE_ICL | SIM_FAM_ICL, 0x79, 0x04, 0, Q_MITE_UOPS,
	    "IDQ.MITE_UOPS [SKL ICL]: uops delivered by the legacy decode pipeline"),
	ROW(SIM_FAM_ICL, 0x56, 0x01, 0, Q_DEC0_CYC,
	    "UOPS_DECODED.DEC0 [ICL]: \"uops exclusively fetched by decoder 0\""),
	ROW(SIM_FAM_ICL, 0x56, 0x01, 1, Q_DEC0_CYC,
	    "UOPS_DECODED.DEC0 c1 [ICL]: the cycles decoder 0 decoded any (one uop each)"),

	/* Intel E-cores: level 1 (width x CPU_CLK_UNHALTED.CORE slots) */
	ROW(SIM_FAM_ATOM, 0x3c, 0x00, 0, Q_CYCLES, "CPU_CLK_UNHALTED.CORE_P [GRT CMT SKT]"),
	ROW(SIM_FAM_ATOM, 0xc0, 0x00, 0, Q_INST, "INST_RETIRED.ANY_P [GRT CMT SKT]"),
	ROW(SIM_FAM_ATOM, 0xc2, 0x00, 0, Q_RETIRING, "TOPDOWN_RETIRING.ALL [GRT]"),
	ROW(SIM_FAM_ATOM, 0x72, 0x00, 0, Q_RETIRING, "TOPDOWN_RETIRING.ALL [CMT]"),
	ROW(SIM_FAM_ATOM, 0xc2, 0x02, 0, Q_RETIRING, "TOPDOWN_RETIRING.ALL_P [SKT]"),
	ROW(SIM_FAM_ATOM, 0x71, 0x00, 0, Q_FE, "TOPDOWN_FE_BOUND.ALL [GRT CMT]"),
	ROW(SIM_FAM_ATOM, 0x9c, 0x01, 0, Q_FE, "TOPDOWN_FE_BOUND.ALL_P [SKT]"),
	ROW(SIM_FAM_ATOM, 0x73, 0x00, 0, Q_BAD, "TOPDOWN_BAD_SPECULATION.ALL(_P) [GRT CMT SKT]"),
	ROW(SIM_FAM_ATOM, 0x73, 0x06, 0, Q_BAD, "TOPDOWN_BAD_SPECULATION.ALL [TNT: 0x73/0x06]"),
	ROW(SIM_FAM_ATOM, 0x74, 0x00, 0, Q_BE, "TOPDOWN_BE_BOUND.ALL [GRT CMT]"),
	ROW(SIM_FAM_ATOM, 0xa4, 0x02, 0, Q_BE, "TOPDOWN_BE_BOUND.ALL_P [SKT]"),
	/* Intel E-cores: level 2 (perf adln-metrics.json tma_fetch_latency,
	 * tma_branch_mispredicts, tma_machine_clears, tma_memory_bound with
	 * tma_store_bound 0, tma_ms_uops) */
	ROW(SIM_FAM_ATOM, 0x71, 0x72, 0, Q_FETCH_LAT, "TOPDOWN_FE_BOUND.FRONTEND_LATENCY [GRT CMT]"),
	ROW(SIM_FAM_ATOM, 0x71, 0x8d, 0, Q_FETCH_BW,
	    "TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH [GRT CMT SKT]: frontend slots not latency's"),
	ROW(SIM_FAM_ATOM, 0x74, 0x01, 0, Q_CORE,
	    "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS [GRT CMT SKT]: \"certain allocation "
	    "restrictions\", the backend slots not memory's here"),
	ROW(SIM_FAM_ATOM, 0x73, 0x04, 0, Q_BR_SLOTS, "TOPDOWN_BAD_SPECULATION.MISPREDICT [GRT CMT]"),
	ROW(SIM_FAM_ATOM, 0x73, 0x03, 0, Q_CLEAR_SLOTS,
	    "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS [GRT CMT]"),
	ROW(SIM_FAM_ATOM, 0x73, 0x02, 0, Q_CLEAR_SLOTS,
	    "TOPDOWN_BAD_SPECULATION.MONUKE [TNT: memory-ordering nukes, Atom_TMA.csv's "
	    "Machine_Clears; FASTNUKE on GRT CMT, a part of the clears: the family is one model]"),
	ROW(SIM_FAM_ATOM, 0x05, 0xff, 0, Q_MEM_CYC, "LD_HEAD.ANY_AT_RET [GRT CMT]"),
	ROW(SIM_FAM_ATOM, 0xc2, 0x01, 0, Q_HEAVY, "UOPS_RETIRED.MS [GRT CMT]"),
	ROW(SIM_FAM_ATOM, 0xc5, 0x00, 0, Q_BR_FLUSHES, "BR_MISP_RETIRED.ALL_BRANCHES [GRT CMT]"),

	/* AMD Zen 4 / Zen 5: level 1 (pipeline.json: total_dispatch_slots =
	 * 6 / 8 x ls_not_halted_cyc) */
	ROW(ZEN, 0x076, 0x00, 0, Q_CYCLES, "ls_not_halted_cyc [ZEN]"),
	ROW(ZEN, 0x0c0, 0x00, 0, Q_INST, "ex_ret_instr [ZEN]"),
	ROW(ZEN, 0x0c1, 0x00, 0, Q_RETIRING, "ex_ret_ops [ZEN]"),
	ROW(ZEN, 0x0aa, 0x07, 0, Q_DISPATCHED, "de_src_op_disp.all [ZEN]"),
	ROW(ZEN, 0x1a0, 0x01, 0, Q_FE, "de_no_dispatch_per_slot.no_ops_from_frontend [ZEN]"),
	ROW(ZEN, 0x1a0, 0x1e, 0, Q_BE, "de_no_dispatch_per_slot.backend_stalls [ZEN]"),
	ROW(ZEN, 0x1a0, 0x60, 0, Q_SMT_CONT, "de_no_dispatch_per_slot.smt_contention [ZEN]"),
	/* AMD level 2 (pipeline.json frontend_bound_latency, bad_speculation_
	 * mispredicts / _pipeline_restarts, backend_bound_memory,
	 * retiring_microcode) */
	ROW(ZEN, 0x1a0, 0x01, SIM_CMASK_WIDTH, Q_FETCH_LAT_CYC,
	    "de_no_dispatch_per_slot.no_ops_from_frontend cmask=6 [Zen 4] / 8 [Zen 5]"),
	ROW(ZEN, 0x0c3, 0x00, 0, Q_BR_FLUSHES, "ex_ret_brn_misp [ZEN]"),
	ROW(SIM_FAM_ZEN4, 0x096, 0x00, 0, Q_CLEAR_FLUSHES, "resyncs_or_nc_redirects [Zen 4]"),
	ROW(SIM_FAM_ZEN5, 0x09f, 0x01, 0, Q_CLEAR_FLUSHES, "bp_redirects.resync [Zen 5]"),
	ROW(ZEN, 0x0d6, 0x02, 0, Q_BE_CYC, "ex_no_retire.not_complete [ZEN]"),
	ROW(ZEN, 0x0d6, 0xa2, 0, Q_MEM_CYC, "ex_no_retire.load_not_complete [ZEN]"),
	ROW(ZEN, 0x1c2, 0x00, 0, Q_HEAVY, "ex_ret_ucode_ops [ZEN]"),
};

/*
 * Counter constraints (intel/perfmon: "Counter" with SMT on, "CounterHTOff"
 * with it off; bit i = counter i): an event on a counter outside them
 * counts 0 there - the hardware does not count it - so a pass scheduled
 * against the vendor's rule shows in the counts.  Only the events the
 * recipes count whose constraint is narrower than the core's counters,
 * keyed by cpu_kind.uarch: one family (SIM_FAM_PRE_ICL) spans models whose
 * constraints differ (IDQ_UOPS_NOT_DELIVERED is 0-3 with SMT off before
 * Skylake, 0-7 on it).  cmask -1: every counter mask.
 */
static const struct sim_constraint {
	const char *uarchs;    /* ",Haswell,Broadwell," */
	uint16_t event;
	uint8_t umask;
	int16_t cmask;
	uint32_t smt_on, smt_off;
	const char *name;
} constraints[] = {
	{ ",Sandy Bridge,Ivy Bridge,Haswell,Broadwell,", 0x9c, 0x01, -1, 0xF, 0xF,
	  "IDQ_UOPS_NOT_DELIVERED.CORE, .CYCLES_0_UOPS_DELIV.CORE [SNB IVB HSW BDW: CounterHTOff "
	  "0,1,2,3]" },
	{ ",Haswell,", 0xa3, 0x06, 6, 0xF, 0xF, "CYCLE_ACTIVITY.STALLS_LDM_PENDING [HSW]" },
	{ ",Haswell,", 0xa3, 0x04, 4, 0xF, 0xF, "CYCLE_ACTIVITY.CYCLES_NO_EXECUTE [HSW]" },
	{ ",Broadwell,", 0xb1, 0x01, -1, 0xF, 0xF, "UOPS_EXECUTED.CYCLES_GE_*_UOP(S)_EXEC [BDW]" },
	{ ",Skylake,", 0xa3, 0x14, 20, 0xF, 0xF, "CYCLE_ACTIVITY.STALLS_MEM_ANY [SKL SKX CLX]" },
	{ ",Sunny Cove,Willow Cove,", 0x79, 0x30, 0, 0xF, 0xF, "IDQ.MS_UOPS [ICL TGL: Counter 0,1,2,3]" },
	{ ",Sunny Cove,Willow Cove,", 0x79, 0x04, 0, 0xF, 0xF, "IDQ.MITE_UOPS [ICL TGL]" },
	{ ",Sunny Cove,Willow Cove,", 0x56, 0x01, -1, 0xF, 0xF, "UOPS_DECODED.DEC0 [ICL TGL]" },
	{ ",Golden Cove,Raptor Cove,Redwood Cove,", 0xa4, 0x08, 0, 0x1, 0x1,
	  "TOPDOWN.BR_MISPREDICT_SLOTS [ADL SPR MTL: Counter 0]" },
	{ ",Golden Cove,Raptor Cove,Redwood Cove,", 0xa4, 0x04, 0, 0x1, 0x1,
	  "TOPDOWN.BAD_SPEC_SLOTS [ADL SPR MTL: Counter 0]" },
};

/* Does the vendor let @c count the event of @event/@umask/@cmask on GP counter @ctr? */
static bool counter_allowed(const struct sim_cpu *c, unsigned event, unsigned umask, int cmask,
			    unsigned ctr)
{
	const char *u = c->kind && c->kind->uarch ? c->kind->uarch : "";
	size_t ul = strlen(u);

	for (unsigned i = 0; i < sizeof(constraints) / sizeof(constraints[0]); i++) {
		const struct sim_constraint *k = &constraints[i];
		const char *at = ul ? strstr(k->uarchs, u) : NULL;

		if (k->event != event || k->umask != umask || (k->cmask >= 0 && k->cmask != cmask) ||
		    !at || at[-1] != ',' || at[ul] != ',')
			continue;
		return ctr < 32 && ((c->smt ? k->smt_on : k->smt_off) >> ctr & 1);
	}
	return true;
}

/* The quantity @q per cycle for the shares @pct (file comment). */
static double quantity(const struct sim *s, const struct sim_cpu *c, enum sim_q q,
		       const double pct[SIM_NODES])
{
	double w = c->width, f[SIM_NODES];

	for (unsigned i = 0; i < SIM_NODES; i++)
		f[i] = pct[i] / 100;
	/* the thread's light uops a cycle (file comment: instructions) */
	double light = (c->smt ? 0.5 : 1) * w * (f[N_RET] - f[N_HEAVY]);

	switch (q) {
	case Q_CYCLES: return 1;
	case Q_INST:
		return c->fam == SIM_FAM_PRE_ICL && s->p.ipc < light ? light : s->p.ipc;
	case Q_FUSED: return quantity(s, c, Q_INST, pct) - light;
	case Q_SLOTS: return w;
	case Q_RETIRING: return w * f[N_RET];
	case Q_ISSUED: return w * (f[N_RET] + f[N_BAD] * (1 - SIM_RECOVERY));
	case Q_DISPATCHED: return w * (f[N_RET] + f[N_BAD]);
	case Q_FE: return w * f[N_FE];
	case Q_BE: return w * f[N_BE];
	case Q_BAD: return w * f[N_BAD];
	case Q_RECOVERY_CYC: return f[N_BAD] * SIM_RECOVERY;
	case Q_HEAVY: return w * f[N_HEAVY];
	case Q_BR_SLOTS: return w * f[N_BR];
	case Q_CLEAR_SLOTS: return w * (f[N_BAD] - f[N_BR]);
	case Q_BR_FLUSHES: return w * f[N_BR] / SIM_FLUSH_SLOTS;
	case Q_CLEAR_FLUSHES: return w * (f[N_BAD] - f[N_BR]) / SIM_FLUSH_SLOTS;
	case Q_CLEARS: return w * f[N_BAD] / SIM_FLUSH_SLOTS;
	case Q_NONE: return 0;
	case Q_FETCH_LAT: return w * f[N_FL];
	case Q_FETCH_LAT_CYC: return f[N_FL];
	case Q_MEM: return w * f[N_MEM];
	case Q_MEM_CYC: return f[N_MEM];
	case Q_BE_CYC: return f[N_BE];
	case Q_SMT_CONT: return w * s->p.smt_contention / 100;
	case Q_FETCH_BW: return w * (f[N_FE] - f[N_FL]);
	case Q_CORE: return w * (f[N_BE] - f[N_MEM]);
	case Q_LOAD_STALL_CYC: return f[N_MEM] * (1 - SIM_STORE);
	case Q_STORE_CYC: return f[N_MEM] * SIM_STORE;
	case Q_STALL_CYC: return f[N_MEM] * (1 - SIM_STORE) + (f[N_BE] - f[N_MEM]) / 2;
	case Q_PORTS1_CYC: return (f[N_BE] - f[N_MEM]) / 2;
	case Q_PORTS2_CYC: return 0;
	case Q_EXEC_GE1_CYC: return 1 - (f[N_MEM] * (1 - SIM_STORE) + (f[N_BE] - f[N_MEM]) / 2);
	case Q_EXEC_GE2_CYC: return 1 - (f[N_MEM] * (1 - SIM_STORE) + (f[N_BE] - f[N_MEM]));
	case Q_RS_EMPTY_CYC: return 0;
	case Q_MS_UOPS:
		return f[N_RET] > 0 ? w * f[N_HEAVY] * (f[N_RET] + f[N_BAD] * (1 - SIM_RECOVERY)) /
				      f[N_RET] : 0;
	case Q_MITE_UOPS:
		return quantity(s, c, Q_ISSUED, pct) - quantity(s, c, Q_MS_UOPS, pct);
	case Q_DEC0_CYC: return quantity(s, c, Q_MITE_UOPS, pct) / w;
	}
	return 0;
}

/* With `smt on`, the thread's half, or the core's with AnyThread; cycles,
 * instructions and macro-fused pairs are the thread's own either way
 * (file comment). */
static double smt_factor(const struct sim_cpu *c, enum sim_q q, bool any)
{
	if (!c->smt || q == Q_CYCLES || q == Q_INST || q == Q_FUSED)
		return 1;
	return any ? 1 : 0.5;
}

/*
 * `fault gp_offset NODE PP`: the general-purpose counters count NODE's
 * share PP points off (its siblings as they are: the shares no longer sum
 * to 100), where PERF_METRICS and the fixed counters count the profile's
 * - a core whose events disagree with its PERF_METRICS, which validate's
 * metrics_match_events must fail.  @shifted gets @pct so changed.
 */
static const double *gp_shares(const struct sim *s, const double pct[SIM_NODES],
			       double shifted[SIM_NODES])
{
	if (!(s->p.faults & SIM_FAULT_GP_OFFSET))
		return pct;
	for (unsigned i = 0; i < SIM_NODES; i++)
		shifted[i] = pct[i];
	shifted[s->p.gp_offset_node] += s->p.gp_offset_pp;
	if (shifted[s->p.gp_offset_node] < 0)
		shifted[s->p.gp_offset_node] = 0;
	return shifted;
}

double sim_event_rate(const struct sim *s, const struct sim_cpu *c, unsigned ctr, uint64_t sel,
		      const double pct_in[SIM_NODES])
{
	unsigned event = (unsigned)(sel & 0xff), umask = (unsigned)(sel >> 8) & 0xff;
	int cmask = (int)(sel >> PERFEVTSEL_CMASK_SHIFT) & 0xff;
	bool inv = sel & PERFEVTSEL_INV, edge = sel & PERFEVTSEL_EDGE, any = false;
	double shifted[SIM_NODES];
	const double *pct = gp_shares(s, pct_in, shifted);

	if (c->amd)
		event |= (unsigned)((sel & AMD_PERF_CTL_EVENT_HI) >> AMD_PERF_CTL_EVENT_HI_SHIFT) << 8;
	else
		any = (sel & PERFEVTSEL_ANY) != 0;
	if (!c->amd && !counter_allowed(c, event, umask, cmask, ctr))
		return 0;
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct sim_event_row *r = &rows[i];
		int want = r->cmask == SIM_CMASK_WIDTH ? (int)c->width : r->cmask;

		if ((r->fam & c->fam) && r->event == event && r->umask == umask && want == cmask &&
		    r->inv == inv && r->edge == edge)
			return quantity(s, c, r->q, pct) * smt_factor(c, r->q, any || r->core);
	}
	return 0;
}

double sim_fixed_rate(const struct sim *s, const struct sim_cpu *c, unsigned i,
		      const double pct[SIM_NODES])
{
	/* FC0 INST_RETIRED.ANY, FC1 CPU_CLK_UNHALTED.THREAD, FC2 .REF_TSC,
	 * FC3 TOPDOWN.SLOTS ("distributed among unhalted logical processors
	 * (hyper-threads)", intel/perfmon ICL TOPDOWN.SLOTS: the thread's half
	 * with `smt on`); FC4-6 Skymont's TOPDOWN_BAD_SPECULATION.ALL,
	 * TOPDOWN_FE_BOUND.ALL, TOPDOWN_RETIRING.ALL ([SKT]) */
	static const enum sim_q fixed_q[SIM_FIXED] = {
		Q_INST, Q_CYCLES, Q_CYCLES, Q_SLOTS, Q_BAD, Q_FE, Q_RETIRING,
	};

	return i < SIM_FIXED ? quantity(s, c, fixed_q[i], pct) * smt_factor(c, fixed_q[i], false)
			     : 0;
}
