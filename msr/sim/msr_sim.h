/*
 * msr/sim/msr_sim.h - the simulated PMU: a third MSR backend,
 * "sim:PROFILE" ($BARETMA_MSR), for testing every measuring path on
 * machines without a PMU.  It is a model we wrote, not the hardware; each
 * behaviour names the text it models (the Intel SDM Vol. 3B ch. 20-21 and
 * the kernel: [CORE] linux arch/x86/events/intel/core.c, [PEH] linux
 * arch/x86/include/asm/perf_event.h, [KVM] linux arch/x86/kvm/pmu.c and
 * vmx/pmu_intel.c, whose PMU emulation follows the SDM), and doc/simulator.md
 * ("The simulated PMU") lists what it does not model.
 *
 * Registers.  Without `state FILE` the simulator holds a clean register
 * file per CPU in memory, as Linux leaves an idle PMU (the NMI watchdog
 * off): the registers the CPU kind enumerates (CPUID leaf 0xA / 0x23 and
 * the model table, cpu/cpu.h struct cpu_kind): IA32_PERFEVTSELi,
 * IA32_PMCi and its full-width alias IA32_A_PMCi (one counter, two
 * addresses), IA32_FIXED_CTRi (0-6: Skymont's 4-6 where leaf 0x23
 * enumerates them), IA32_FIXED_CTR_CTRL = 0,
 * IA32_PERF_GLOBAL_CTRL = every counter's enable bit and bit 48 where the
 * kind has PERF_METRICS (the kernel's intel_ctrl, written by
 * intel_pmu_enable_all: [CORE]), IA32_PERF_GLOBAL_STATUS = 0,
 * _RESET, _SET and _INUSE (v4+), IA32_PERF_METRICS = 0 and
 * IA32_PERF_CAPABILITIES (with CPUID.1:ECX[15]: bit 13, bit 15 where the
 * kind has PERF_METRICS, bit 19 where it has metrics-clear).  A hybrid
 * part's E-core has no IA32_FIXED_CTR3 and no IA32_PERF_METRICS (-EIO, as
 * a #GP through the driver); a CPU whose leaf 0xA reports version 0 (a KVM
 * guest without a virtual PMU) has no counter and no PMU register at all
 * (without PDCM - KVM clears it then, linux arch/x86/kvm/vmx/vmx.c
 * vmx_set_cpu_caps - not even IA32_PERF_CAPABILITIES).  An AMD CPU with
 * PerfMonV2 (cpu_kind.perfmon_v2: CPUID 0x80000022 EAX[0]; Zen 4 family
 * 19h, Zen 5 family 1Ah) has AMD's registers instead, no Intel one
 * (msr/regs/amd_regs.h): PERF_CTLi and PERF_CTRi for i < EBX[3:0] (six on the
 * Zen 4 and Zen 5 dumps), PERF_CNTR_GLOBAL_CTL = every counter's bit (the
 * kernel's idle value: amd_pmu_v2_enable_all), PERF_CNTR_GLOBAL_STATUS,
 * _STATUS_CLR and _STATUS_SET = 0; an AMD CPU without PerfMonV2 has no
 * PMU register.  The simulator's
 * own SIM_MSR_ORDER_ERRORS (below) is on every CPU.  Such registers, and
 * the counters, live only as long as the process: without `state FILE`
 * there is no machine to share, and each process has its own.  With
 * `state FILE` the machine is FILE's, one machine for every process, as
 * the hardware is: the registers are FILE's, exactly as the state-file
 * backend keeps them (msr/access/msr.h "state:FILE": every write persisted,
 * other processes' writes seen), so journals, restore, tamper and
 * ownership checks work across processes as on the state file; and the
 * counters' values with the model's state behind them (struct sim_live,
 * msr/sim/msr_sim_int.h) are the machine file FILE.sim beside it, one record
 * per CPU, read at the start of every access and written at its end
 * (msr/sim/msr_sim_shared.c; the layout in doc/state-file.md).  Every access,
 * from any process, sees the counters as the last access of any process
 * left them: a counter one process writes is what the next access of any
 * process reads, counting goes on from one process's access to the next
 * (CLOCK_MONOTONIC is one clock for the system), and the values a run's
 * restore writes back are the ones the next run reads and journals.
 * FILE's counter lines hold the counters' values at the simulator's last
 * control write (so that FILE, compared with a copy after a run, shows
 * every register); a CPU whose lines in FILE another writer has changed
 * since the simulator's last access to it starts again from them, as at
 * its first access (a test's fresh copy is a fresh machine).
 *
 * Counting (per CPU, modelled on every access), with two kinds of cycles:
 *   the accesses', `access_cycles` per access through the simulator (the
 *   cost of an RDMSR/WRMSR, which the real driver also spends in the
 *   counted time), and the work's: (CLOCK_MONOTONIC elapsed) x `ghz` x 1e9,
 *   plus what msr_sim_work() is given (the tests' hidden kernel
 *   test-sim-work: `work_cycles` a call), whichever process's access
 *   comes next; the time spent inside the simulator's own calls on the
 *   CPU (waiting for its locks, blocking signals, a state file's rewrite,
 *   the machine file's record) is not elapsed time: `access_cycles` alone
 *   stands for an access;
 *   IA32_FIXED_CTRi counts while its IA32_FIXED_CTR_CTRL field has EN_OS
 *   or EN_USR and IA32_PERF_GLOBAL_CTRL bit 32+i is set ([PEH] INTEL_FIXED_*,
 *   INTEL_PMC_IDX_FIXED), the share of the cycles its field selects: EN_OS those at
 *   CPL 0, EN_USR those at CPL > 0 (SDM Vol. 3B 20.2.2), `user_fraction`
 *   of every cycle being at CPL > 0: FC0 INST_RETIRED.ANY at `ipc` per
 *   cycle, FC1 CPU_CLK_UNHALTED.THREAD and FC2 CPU_CLK_UNHALTED.REF_TSC one
 *   per cycle, FC3 TOPDOWN.SLOTS `width` per cycle; frozen, a counter holds
 *   its value; a write sets it (masked to the fixed counter width, CPUID
 *   leaf 0xA EDX[12:5]); wrapping past the width sets
 *   IA32_PERF_GLOBAL_STATUS bit 32+i ([CORE] handle_pmi_common).
 *   IA32_PERF_METRICS accumulates the slots FC3 counts while bit 48 is also
 *   set ([CORE] icl_set_topdown_event_period: "derived from fixed counter
 *   3"; the metrics need bit 48, [PEH] GLOBAL_CTRL_EN_PERF_METRICS),
 *   the accesses' and the work's apart, and reads as the slot-weighted mix
 *   of their shares (access_* and the level-1/level-2 keys) since it was
 *   last written: each field round(mix x 255 / 100) independently (each
 *   byte is rounded on its own, so the level-1 sum may be off 255, linux
 *   tools/perf/Documentation/topdown.txt; the rounding mode: no primary
 *   source found); a non-zero write is
 *   kept and weighted by FC3's value then (the kernel writes back saved
 *   values, [CORE] icl_set_topdown_event_period); a write of 0 clears it;
 *   bytes 4-7 only on level-2 kinds ([CORE] intel_pmu_init's
 *   num_topdown_events 8).  A write while FC3 has counted since it was last written is
 *   out of the kernel's order (FC3, then PERF_METRICS: [CORE]) and counted
 *   in SIM_MSR_ORDER_ERRORS.  FC3 wrapping while bit 48 is set also sets
 *   bit 48 of IA32_PERF_GLOBAL_STATUS (the metrics lose their base: linux
 *   commit 59a854e2f3b9).
 *   IA32_PERF_GLOBAL_STATUS is read-only ([KVM] kvm_pmu_set_msr); a write of 1s to
 *   IA32_PERF_GLOBAL_STATUS_RESET clears those bits ([CORE] intel_pmu_ack_status);
 *   IA32_PERF_GLOBAL_INUSE is computed from the selects and the fixed
 *   control ([KVM]'s MSR_CORE_PERF_GLOBAL_INUSE emulation).  Fixed counters 4-6 count Skymont's
 *   TOPDOWN_BAD_SPECULATION.ALL, TOPDOWN_FE_BOUND.ALL and
 *   TOPDOWN_RETIRING.ALL: `width` x the share per cycle (intel/perfmon
 *   LNL/events/lunarlake_skymont_core.json, E-core_TMA_Metrics.csv).
 *
 * General-purpose counters: counter x counts while its select has EN and
 * the global control's bit x is set (Intel IA32_PERF_GLOBAL_CTRL; AMD
 * PERF_CNTR_GLOBAL_CTL: with PerfMonV2 "Counting starts only after
 * x86_pmu_enable_all()", linux amd/core.c amd_pmu_v2_enable_event), the
 * cycles its USR / OS bits select (`user_fraction`, as the fixed
 * counters), at the rate the simulator's own event table gives its
 * encoding (msr/sim/sim_events.c: each row names the event and where it is
 * described; an encoding it does not know counts 0): cycles, `ipc`
 * instructions, or width x a share of the profile - retiring, issued
 * (retiring + half of bad speculation: the other half are recovery
 * bubbles, INT_MISC.RECOVERY_CYCLES), dispatched (AMD: retiring + bad
 * speculation), frontend, backend, bad speculation, smt contention, the
 * level-2 nodes, and their cycles (fetch latency's cycles with no uop
 * delivered, memory-bound and backend-bound stall cycles; before Ice
 * Lake the execution activity: a quarter of the memory-bound cycles bound
 * on stores, the rest stalled with a load outstanding, half the
 * core-bound cycles stalled, half executing 2 uops, core bound x
 * (1 - retiring) / 2 cycles executing 1, so that perf's skylake
 * tma_memory_bound recovers memory bound: msr/sim/sim_events.c) and flushes
 * (one per 20 slots of branch mispredicts, of machine clears; each a
 * clear, INT_MISC.CLEARS_COUNT; no slot is dropped, INT_MISC.UOP_DROPPING
 * 0).  An event
 * the vendor restricts to some counters (intel/perfmon "Counter" with
 * `smt on`, "CounterHTOff" with it off: Haswell's IDQ_UOPS_NOT_DELIVERED.*
 * on 0-3, Skylake's CYCLE_ACTIVITY.STALLS_MEM_ANY on 0-3 with SMT off,
 * Golden Cove's TOPDOWN.BR_MISPREDICT_SLOTS on 0) counts 0 on any other,
 * as the hardware does not count it there.  The
 * accesses' cycles count at the access_* shares, the work's at the
 * profile's.  Width: CPUID leaf 0xA EAX[23:16] (AMD 48 bits); wrapping
 * sets the global status bit x.  Writes: IA32_PMCx takes bits 31:0
 * sign-extended ([KVM] intel_pmu_set_msr), IA32_A_PMCx the full width (more is a #GP, -EIO),
 * AMD's PERF_CTRx bits 47:0.  AMD's PERF_CNTR_GLOBAL_STATUS is read-only,
 * _STATUS_CLR clears and _STATUS_SET sets its bits.
 *
 * SMT (`smt on`, Intel P-cores only: E-cores have no SMT, and AMD counts
 * per thread with the sibling's share as smt_contention): the sibling
 * thread runs the same work in the same cycles and each thread issues in
 * half of the core's slots.  A thread's events count its half of every
 * quantity but cycles and instructions (fixed counter 3 too:
 * TOPDOWN.SLOTS "is distributed among unhalted logical processors",
 * intel/perfmon ICL); with AnyThread (IA32_PERFEVTSELx bit 21) they count
 * the core's, both threads'; CPU_CLK_UNHALTED.THREAD_ANY counts the cycles
 * either thread is unhalted, the thread's own here.  IA32_PERF_METRICS is
 * fractions: unchanged.
 *
 * Threads and processes: the simulated machine of one PROFILE path is
 * shared by every msr_open of it in the process (the MSR backend and the
 * perf source's simulator see the same counters, sessions on several
 * threads the same machine and `state FILE`).  Every access holds the
 * machine's lock, taken with the thread's signals blocked, and with
 * `state FILE` the machine file's too (an flock of FILE.sim, which the
 * kernel lets go when its holder dies), so the accesses of several threads
 * and processes - and a journal restore from a signal handler - are
 * serialised and stay async-signal-safe, and a handler never waits for a
 * lock its own thread holds (msr/sim/msr_sim.c and msr/sim/msr_sim_shared.c say
 * why this design).  After fork() a child must not use a simulated
 * machine it inherited (it would share the parent's flock).
 */
#ifndef BARETMA_MSR_SIM_H
#define BARETMA_MSR_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msr/access/msr.h"

/* The measured Top-down nodes, in IA32_PERF_METRICS byte order ([PEH] INTEL_PMC_IDX_TD_*). */
#define SIM_NODES 8

/* Faults (`fault NAME ...`), each a wrong behaviour a check must catch. */
#define SIM_FAULT_METRICS_NOT_CLEARED 0x01u /* a write of 0 leaves PERF_METRICS */
#define SIM_FAULT_SUM_OFF             0x02u /* level-1 bytes sum to 255 + sum_off
						    * (-64..64; the largest byte takes it) */
#define SIM_FAULT_SLOTS_STUCK         0x04u /* FC3 does not count */
#define SIM_FAULT_L2_ABOVE_PARENT     0x08u /* Heavy Operations byte above Retiring's */
#define SIM_FAULT_OVERFLOW_EVERY      0x10u /* bit 48 set at every Nth PERF_METRICS read */
#define SIM_FAULT_PERF_OFFSET         0x20u /* the perf source reads a node shifted */
#define SIM_FAULT_PERF_KEEPS          0x40u /* the perf group's close leaves FC3's
						    * field enabled (perf still counting) */
#define SIM_FAULT_GP_OFFSET           0x80u /* the general-purpose counters count a
						    * node's share shifted (PERF_METRICS
						    * and the fixed counters do not) */

/*
 * The simulator's own diagnostic register: the number of writes to
 * IA32_PERF_METRICS made while fixed counter 3 had counted since it was
 * last written - out of the kernel's order, FC3 then PERF_METRICS
 * (msr/sim/msr_sim.c write_metrics).  Read-only, per CPU, on every simulated
 * CPU; with `state FILE` in the machine file's record, and in FILE too
 * when the file lists it ("CPU 0x400000f0 0x0"), so that a reader of FILE
 * (a test) sees it.  Its index is in the
 * range the SDM reserves for software (Vol. 4, chapter 2: "MSR address
 * range between 40000000H - 400000FFH is marked as a specially reserved
 * range. All existing and future processors will not implement any
 * features using any MSR in this range"): no CPU has it.
 */
#define SIM_MSR_ORDER_ERRORS 0x400000f0u

/* A parsed profile (msr_sim_profile_parse). */
struct sim_profile {
	unsigned width;             /* slots per cycle; 0: the model table's */
	double ghz;                 /* core cycles per ns of CLOCK_MONOTONIC */
	double ipc;                 /* FC0 instructions per cycle */
	uint64_t access_cycles;     /* cycles each simulated access costs */
	uint64_t work_cycles;       /* cycles of work per msr_sim_work() call */
	double user_fraction;       /* share of every cycle at CPL > 0, 0..1 */
	double pct[SIM_NODES];      /* percent of the work's slots per node (level 2: of
				     * all slots): real time and msr_sim_work */
	bool given[SIM_NODES];      /* the key was in the profile */
	double access_pct[SIM_NODES]; /* percent of the accesses' slots (access_*;
				       * = pct when no access_* key is given) */
	bool access_given[SIM_NODES];
	bool smt;                   /* `smt on`: the Intel P-core's sibling thread runs the
				     * same work (msr/sim/msr_sim.h "SMT") */
	double smt_contention;      /* percent of the dispatch slots the sibling takes (AMD's
				     * fifth level-1 node; the level-1 keys sum with it to 100) */
	double noise;               /* per-read jitter of each fraction, percentage points */
	uint64_t seed;              /* of the jitter */
	char state[4096];           /* `state FILE`, "" for the clean register file */
	unsigned faults;            /* SIM_FAULT_* */
	int sum_off;                /* fault sum_off N */
	unsigned overflow_every;    /* fault overflow_every N */
	int perf_offset_node;       /* fault perf_offset NODE PP: byte index 0..7 */
	double perf_offset_pp;
	int gp_offset_node;         /* fault gp_offset NODE PP: byte index 0..7 */
	double gp_offset_pp;
};

/*
 * msr_sim_profile_parse - parse profile text (@text, @len bytes; the file
 * @name for messages): one `key value` per line, '#' comments, blank lines.
 * Keys (doc/simulator.md): width N, ghz F, ipc F, access_cycles N,
 * work_cycles N, user_fraction F (0..1, default 1), smt on|off,
 * smt_contention P (AMD only: a fifth level-1 node; the level-1 nodes sum
 * with it to 100),
 * retiring P, bad_speculation P, frontend_bound P, backend_bound P
 * (level 1, percent, required, summing to 100 within 0.01),
 * heavy_operations P, branch_mispredicts P, fetch_latency P,
 * memory_bound P (level 2, default 0, each at most its parent), the same
 * eight with "access_" for the accesses' slots (none: the work's shares;
 * else the same rules), noise PP,
 * seed N, state FILE, fault metrics_not_cleared | sum_off N | slots_stuck |
 * level2_above_parent | overflow_every N | perf_offset NODE PP |
 * perf_keeps_counters | gp_offset NODE PP.
 * Returns 0, or -EINVAL with @err naming the line and the remedy.
 */
int msr_sim_profile_parse(const char *text, size_t len, const char *name,
			  struct sim_profile *p, char **err);

/* msr_sim_node_index - the PERF_METRICS byte of a node name, with or
 * without "tma_" ("backend_bound", "tma_memory_bound"), or -1. */
int msr_sim_node_index(const char *name);

/* The backend (msr_open of "sim:PROFILE" uses it). */
extern const struct msr_ops msr_sim_ops;

/*
 * msr_sim_ctx_new - open (or join, when this process has it open) the
 * simulated machine of profile @file on the machine of CPUID dump
 * @cpuid_dump (NULL: $BARETMA_CPUID_DUMP, else the live CPU:
 * cpu_source_from_env); one machine per profile and dump in a process,
 * and with `state FILE` one for every process that names FILE (its
 * machine file is opened, or created, at the first access: a failure
 * there is that access's -errno).  Returns 0,
 * -EINVAL (profile or its state file malformed, or the machine not
 * identified: @err says why), -ENOENT/-EACCES (profile unreadable),
 * -ENOMEM.
 */
int msr_sim_ctx_new(const char *file, const char *cpuid_dump, void **ctx, char **err);

/* msr_sim_profile_of - the profile of a "sim:" backend, or NULL for any
 * other backend (for the perf source's simulator and its faults). */
const struct sim_profile *msr_sim_profile_of(const struct msr_dev *dev);

/*
 * msr_sim_work - the simulated CPU @cpu runs @cycles cycles of work now,
 * as if that much real time had passed at `ghz` (what a kernel does
 * between two accesses): its counters count them as the controls say, and
 * IA32_PERF_METRICS takes them at the work's shares (the profile's
 * level-1/level-2 keys), not the accesses'.  Deterministic with `ghz 0`:
 * the tests' hidden kernel test-sim-work (bench/kernels_hooks.c) calls it
 * with the profile's `work_cycles`.  Returns 0, -EINVAL (@dev is not a
 * simulator), -ENXIO (no such CPU).
 */
int msr_sim_work(const struct msr_dev *dev, unsigned cpu, uint64_t cycles);

/*
 * msr_sim_rdpmc - a simulated RDPMC of @ecx on CPU @cpu: the value an MSR
 * read of the counter @ecx names gives (ECX (1<<30)|i fixed counter i,
 * 1<<29 IA32_PERF_METRICS, i general-purpose counter i: [PEH]
 * INTEL_PMC_FIXED_RDPMC_*), at one access's cost.  In RDPMC metrics-clear mode (the kind's
 * IA32_PERF_CAPABILITIES[19] and IA32_FIXED_CTR_CTRL bit 14 set) a read of
 * PERF_METRICS returns the metrics since the last clear, then clears
 * PERF_METRICS and fixed counter 3 (linux commit 0e45818ec189); an RDMSR
 * never clears.  Returns 0, -EINVAL (@dev is not a simulator), -ENXIO (no
 * such CPU), -EIO (no such counter: RDPMC's #GP).
 */
int msr_sim_rdpmc(const struct msr_dev *dev, unsigned cpu, uint32_t ecx, uint64_t *val);

/* msr_sim_width - the slots per cycle the simulated CPU @cpu counts (the
 * profile's width, or its kind's pipeline width); 0 for other backends. */
unsigned msr_sim_width(const struct msr_dev *dev, unsigned cpu);

/* msr_sim_pmu_version - the architectural perfmon version (CPUID leaf 0xA
 * EAX[7:0]) of the simulated machine; 0 for other backends. */
unsigned msr_sim_pmu_version(const struct msr_dev *dev);

/* msr_sim_level - the PERF_METRICS level (0, 1, 2) of the simulated CPU
 * @cpu's kind; 0 for other backends. */
int msr_sim_level(const struct msr_dev *dev, unsigned cpu);

#endif
