/*
 * msr/sim/msr_sim_int.h - what the files of the simulated PMU share,
 * private to them: the simulated machine's objects, and the model's
 * functions (msr/sim/msr_sim_model.c: the clock, the register store, the
 * counting of the fixed counters and IA32_PERF_METRICS; msr/sim/msr_sim_shared.c:
 * the machine file that makes one machine of every process's) that the
 * backend (msr/sim/msr_sim.c: the lock, the accesses, opening and the registry)
 * calls.  What is modelled and from which text: msr/sim/msr_sim.h.  Every
 * function here runs under the machine's lock (msr/sim/msr_sim.c) and is
 * async-signal-safe.
 */
#ifndef BARETMA_MSR_SIM_INT_H
#define BARETMA_MSR_SIM_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "cpu/cpu.h"
#include "msr/sim/msr_sim.h"

#define SIM_FIXED 7u       /* FC0..FC6 are modelled (FC4-6: Skymont's, leaf 0x23) */
/* General-purpose counters modelled: Intel x < 10 (those the kind's
 * enumeration has: CPUID leaf 0xA EAX[15:8], or leaf 0x23.1 EAX per core
 * kind - 10 on the Lunar Lake and Arrow Lake P-cores), AMD x < 6.  The SDM
 * (Vol. 4, Table 2-2) gives counters 8 and 9 the addresses that continue
 * 0-7: IA32_PMC8-9 0xC9-0xCA, IA32_PERFEVTSEL8-9 0x18E-0x18F, IA32_A_PMC8-9
 * 0x4C9-0x4CA, each "if CPUID.0AH:EAX[15:8] > 8 / 9"; linux
 * arch/x86/events/perf_event.h x86_pmu_config_addr / x86_pmu_event_addr
 * compute the same base + index (msr-index.h MSR_ARCH_PERFMON_EVENTSEL0
 * 0x186, MSR_ARCH_PERFMON_PERFCTR0 0xc1, MSR_IA32_PMC0 0x4c1) unless the
 * PMU is arch perfmon v6, where intel_pmu_init moves to the aliases
 * MSR_IA32_PMC_V6_GP0_CTR 0x1900 + 4x (not modelled).  The table names no
 * legacy address past 9 (0xCF is IA32_CORE_CAPABILITIES). */
#define SIM_GP 10u
#define SIM_REGS_MAX 96u   /* one CPU's registers in the memory store */

/* The simulator's core families for its event table (msr/sim/sim_events.c). */
#define SIM_FAM_PRE_ICL 0x01u /* Intel P-core without fixed counter 3 (SNB..CLX) */
#define SIM_FAM_ICL     0x02u /* Intel P-core with FC3, PERF_METRICS level 0-1 (Sunny Cove) */
#define SIM_FAM_GLC     0x04u /* Intel P-core with FC3, level 2 (Golden Cove and later) */
#define SIM_FAM_ATOM    0x08u /* Intel E-core (Gracemont, Crestmont, Skymont, ...) */
#define SIM_FAM_ZEN4    0x10u /* AMD family 19h with PerfMonV2 */
#define SIM_FAM_ZEN5    0x20u /* AMD family 1Ah */


struct sim_reg {
	uint32_t msr;
	uint64_t val;
};

/* "BSIMCPU" and the layout's number 1 (the bytes "BSIMCPU" 0x01 on a little-endian
 * host): a record of another layout, or none, is not a started CPU. */
#define SIM_LIVE_MAGIC 0x015550434d495342ull

/*
 * What one CPU of the machine holds that the registers of the store do
 * not: the counters' values and the model's state behind them.  With
 * `state FILE` this is the CPU's record in the machine file beside FILE,
 * read at the start of every access and written at its end, so that every
 * process sees the CPU as the last access of any process left it (the
 * layout is documented in doc/state-file.md: change both together; every
 * field 8 bytes, host byte order, no padding).  Without `state` it lives
 * in this process's memory only.
 */
struct sim_live {
	uint64_t magic;            /* SIM_LIVE_MAGIC: started (else: start from the store) */
	uint64_t size;             /* sizeof(struct sim_live) */
	double skip_ns;            /* time spent inside the simulator's calls on this
				    * CPU (its lock, its store): not counted */
	double t_last_ns;          /* CLOCK_MONOTONIC - skip_ns at the last update */
	uint64_t fc3_written;      /* 1: FC3 holds what was written to it (or loaded):
				    * it has not counted since */
	uint64_t order_errors;     /* SIM_MSR_ORDER_ERRORS */
	uint64_t status;           /* GLOBAL_STATUS bits set by the model */
	uint64_t met_reads;        /* for fault overflow_every */
	uint64_t rng;              /* jitter state (splitmix64) */
	double met_access;         /* slots of accesses accumulated for PERF_METRICS
				    * since it was written */
	double met_work;           /* slots of work (real time, msr_sim_work) */
	uint64_t met_w0, met_v0;   /* a non-zero value written, and FC3 then */
	uint64_t fc[SIM_FIXED];
	double carry[SIM_FIXED];   /* fractions of a count not yet counted */
	uint64_t pmc[SIM_GP];      /* general-purpose counters */
	double pcarry[SIM_GP];
	uint64_t lines_hash;       /* msr_state_cpu_hash of the CPU's lines in FILE as
				    * the simulator left them: another value is another
				    * writer's change (the CPU starts again from FILE) */
};

struct sim_cpu {
	const struct cpu_kind *kind; /* NULL: not a CPU of the machine */
	unsigned width;            /* slots per cycle */
	uint64_t accesses;         /* this process's accesses, and those counted */
	uint64_t accesses_counted;
	unsigned fam;              /* SIM_FAM_*: which rows of the event table apply */
	bool amd;                  /* AMD PerfMonV2 registers (else Intel's) */
	bool smt;                  /* `smt on` applies: an Intel P-core */
	struct sim_live m;         /* the machine's part (shared with `state FILE`) */
	unsigned nregs;            /* memory store */
	struct sim_reg regs[SIM_REGS_MAX];
};

struct sim {
	struct sim *next;          /* the registry */
	unsigned refs;
	atomic_flag busy;          /* held through one access (sim_lock) */
	char *path;
	char *dump;                /* the CPUID dump it models; NULL: the live CPU */
	struct sim_profile p;
	struct cpu_info ci;
	void *state;               /* state-file context (`state FILE`), or NULL */
	char *mpath;               /* the machine file, FILE.sim (`state FILE`), or NULL */
	int mfd;                   /* it, open at the first access; -1 before */
	mode_t mmode;              /* its mode when created: FILE's permission bits */
	double now_ns;             /* CLOCK_MONOTONIC of the access under way (locked) */
	unsigned ncpus;
	struct sim_cpu *cpus;
};

/* CLOCK_MONOTONIC in nanoseconds. */
double sim_mono_ns(void);

/* One register of @cpu from / to the store (memory, or the state file of
 * `state FILE`): 0, or -EIO (not a register of that CPU), -errno. */
int sim_store_read(struct sim *s, unsigned cpu, uint32_t msr, uint64_t *v);
int sim_store_write(struct sim *s, unsigned cpu, uint32_t msr, uint64_t v);

/* @v into @msr when the store holds another value (a `state FILE` is
 * rewritten for a change only); a register not listed is left out. */
void sim_store_update(struct sim *s, unsigned cpu, uint32_t msr, uint64_t v);

/* Does kind @k have fixed counter @i? */
bool sim_has_fixed(const struct cpu_kind *k, unsigned i);

/* @c's clean register file in memory (msr/sim/msr_sim.h "Registers"). */
void sim_mem_clean(const struct sim *s, struct sim_cpu *c);

/* The fixed counters' width in bits (CPUID leaf 0AH EDX[12:5]). */
unsigned sim_fixed_bits(const struct sim *s);

/* Bring @cpu's counters up to now, with @work more cycles of work. */
void sim_advance(struct sim *s, unsigned cpu, double work);

/* Start @cpu's counters from the store (its first access, or the machine
 * file without its record): 0 or -ENXIO. */
int sim_start_cpu(struct sim *s, unsigned cpu);

/* IA32_PERF_METRICS of @c as read now. */
uint64_t sim_metrics_value(struct sim *s, struct sim_cpu *c);

/* The general-purpose counters' width in bits (CPUID leaf 0AH EAX[23:16];
 * AMD 48). */
unsigned sim_gp_bits(const struct sim_cpu *c);

/* The GP counter register @msr of @c: its index, or -1 (Intel IA32_PMCx and
 * IA32_A_PMCx, AMD PERF_CTRx); *@full: written at full width. */
int sim_gp_counter(const struct sim_cpu *c, uint32_t msr, bool *full);

/* Is @msr an event select or global control of @c (writes fold the counters)? */
bool sim_gp_control(const struct sim_cpu *c, uint32_t msr);

/* Write the counters' values to the store (msr/sim/msr_sim.c fold). */
void sim_gp_fold(struct sim *s, unsigned cpu);

/* ------------------------------------------- msr/sim/msr_sim_shared.c */

/* The machine file's name, FILE.sim, and the mode it is created with,
 * FILE's permission bits (at opening, not from a handler): 0 or -ENOMEM. */
int sim_shared_name(struct sim *s);

/* Take / let go the machine file's lock (flock LOCK_EX of FILE.sim,
 * opened or created at the first call); 0 without `state`.  0 or -errno. */
int sim_shared_lock(struct sim *s);
void sim_shared_unlock(struct sim *s);

/* At the start of an access to @cpu: the CPU exists (-ENXIO), the store
 * is read again where it changed (-errno from the state file), the CPU's
 * record is read from the machine file (-errno: cannot) and dropped where
 * another writer changed the CPU's lines in FILE (then sim_start_cpu
 * starts it from them). */
int sim_shared_load(struct sim *s, unsigned cpu);

/* At the end: the CPU's record written back, with the fingerprint of its
 * lines in FILE now (0, or -errno). */
int sim_shared_store(struct sim *s, unsigned cpu);

/* ------------------------------------------------- msr/sim/sim_events.c */

/*
 * sim_event_rate - what the select value @sel (IA32_PERFEVTSELx or
 * PERF_CTLx) of GP counter @ctr counts per cycle on @c, for the shares
 * @pct (percent of the slots per node, SIM_NODES, as struct
 * sim_profile.pct): the simulator's own event table (msr/sim/sim_events.c);
 * 0 for an encoding it does not know, and on a counter the vendor does not
 * let the event use (intel/perfmon Counter / CounterHTOff for `smt on` /
 * off: msr/sim/sim_events.c "Counter constraints").  With `smt on` (c->smt)
 * the thread's half of the core's slots, the core's with AnyThread
 * (msr/sim/msr_sim.h "SMT").
 */
double sim_event_rate(const struct sim *s, const struct sim_cpu *c, unsigned ctr, uint64_t sel,
		      const double pct[SIM_NODES]);

/* sim_fixed_rate - what Intel fixed counter @i counts per cycle on @c for
 * the shares @pct: FC0 `ipc`, FC1 and FC2 1, FC3 the slots, FC4-6
 * Skymont's bad-speculation, frontend-bound and retiring slots. */
double sim_fixed_rate(const struct sim *s, const struct sim_cpu *c, unsigned i,
		      const double pct[SIM_NODES]);

/* sim_make_cpus - @s->cpus for the @s->ncpus CPUs of the machine @s
 * describes, each with its kind, width and family; the register file
 * clean where no state file gives it (msr/sim/msr_sim_machine.c).  0, -ENOMEM,
 * or -EINVAL with @err naming a profile that does not fit the machine. */
int sim_make_cpus(struct sim *s, char **err);

#endif
