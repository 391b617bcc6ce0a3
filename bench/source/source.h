/*
 * bench/source/source.h - counter sources: where the two readings of a bracket
 * come from.  One interface {open, program, reset, read, verify, close},
 * one reading (struct reading: the values of the source's read set and the
 * TSC, bench/source/reading.h), one file per source:
 *   rdpmc  RDPMC of fixed counter 3 and PERF_METRICS on the pinned CPU
 *          (bench/source/source_rdpmc.c; msr/regs/rdpmc.h)
 *   msr    pread of IA32_FIXED_CTR3 and IA32_PERF_METRICS through the MSR
 *          backend (bench/source/source_msr.c)
 *   perf   perf_event_open of the slots + topdown-* group, read(2) of the
 *          group: perf's counts (bench/source/source_perf.c,
 *          bench/source/perf_group.h)
 *   perf-rdpmc  the same group, read by RDPMC through its user pages
 *   tsc    RDTSC only: timing, no Top-down (bench/source/source_tsc.c)
 * rdpmc and msr program the PMU the same way (bench/source/source_pmu.c on
 * msr/pmu/pmu.h).  A source's capabilities are fields of its ops (what it
 * reads and how, whether its reading is inlined in the bracket, what a
 * reading costs, how it is refused, its name, whether it is a raw or a
 * perf_event source), what its probe finds is its own entry of struct
 * bench_avail (src[], bench/source/avail.h), and the layers above ask
 * those fields (bench_backend_raw ...) instead of testing ids.  So a new
 * source is one more file, one more entry in the table of
 * bench/source/source.c, one id (bench/source/avail.h) and its extern
 * below; the session (bench/session.h), the harness (bench/measure.c) and
 * the studies (bench/study/) do not change.
 *
 * Owns: the table of sources, their availability hooks and the choice
 * among them.  May include cpu/, msr/, bench/bench.h.  Only the session
 * (bench/session.[ch]) calls a source; the harness sees struct
 * source_check, what a session's checks return, and nothing else here.
 */
#ifndef BARETMA_SOURCE_H
#define BARETMA_SOURCE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/source/avail.h"
#include "bench/source/reading.h"
#include "include/baretma.h"
#include "msr/regs/intel_regs.h"
#include "msr/pmu/pmu.h"
#include "msr/regs/rdpmc.h"

/* What a source needs to open: the session's facts (no access yet). */
struct source_params {
	struct msr_dev *dev;         /* the session's MSR backend (NULL: none opened) */
	unsigned cpu;                /* OS CPU measured; the thread is pinned to it */
	const struct cpu_kind *kind; /* its core kind (NULL: not described) */
	bool user_only;              /* fixed counter 3 counts at CPL > 0 only */
	bool force;                  /* take over FC3/PERF_METRICS in use */
	int level;                   /* Top-down level to read (perf: how many members) */
	const struct cpu_info *ci;   /* the machine's identity (NULL: not described) */
	bool delta_regions;          /* rdpmc: measure by the slot-weighted delta even
				      * where RDPMC metrics-clear mode is enumerated */
	bool smt_on;                 /* the core's SMT sibling runs: an event recipe's
				      * smt_on (bench/session.c says how it is known) */
	const char *cpuid_dump;      /* the CPUID dump described, the machine a simulator
				      * models (the perf source's too); NULL: the live
				      * machine, or $BARETMA_CPUID_DUMP (msr_open_on) */
};

/* The state of the rdpmc and msr sources (bench/source/source_pmu.c). */
struct source_pmu {
	struct pmu_config cfg;       /* as programmed (pmu_verify checks against it) */
	struct pmu_saved saved;      /* what the CPU had (pmu_restore) */
	uint64_t gc_now;             /* IA32_PERF_GLOBAL_CTRL as last read: the frozen
				      * reset writes it back */
	uint64_t ovf_pending;        /* GLOBAL_STATUS bits 35/48 seen by verify, cleared
				      * by the next reset */
	bool frozen;                 /* read_frozen stopped the counters: the next
				      * reset zeroes them without freezing again */
};

/*
 * How a reading is taken inside the bracket: through ops->read (a call),
 * or by one of the always_inline bodies below, which the session inlines
 * into its bracket so that nothing but the reading itself sits between
 * the region and the counters (no call on the rdpmc and tsc sources).
 */
enum source_read {
	SOURCE_READ_CALL = 0, /* ops->read */
	SOURCE_READ_RDPMC,    /* source_read_rdpmc: TOPDOWN.SLOTS and PERF_METRICS */
	SOURCE_READ_TSC,      /* source_read_tsc */
	SOURCE_READ_RDPMC_SET, /* source_read_rdpmc_set: the read set's counters by
				* RDPMC, one after the other (an event recipe's) */
};

/* One open source. */
struct counter_source {
	const struct counter_source_ops *ops;
	enum source_read read_inline; /* ops->read_inline, kept here for the bracket */
	struct source_params p;
	struct journal *journal;     /* given to program: the run's journal (its
				      * owner restores, never close); NULL for a
				      * source that writes nothing */
	bool open;                   /* open succeeded, close not yet called */
	struct read_set rs;          /* what read reads: filled by open */
	struct source_pmu pmu;       /* rdpmc, msr */
	void *priv;                  /* other sources' own state (a perf group's fds) */
};

/* verify's checks (@what). */
#define SOURCE_CHECK_TAMPER   0x1u /* the counters are still as program left them */
#define SOURCE_CHECK_OVERFLOW 0x2u /* neither counter overflowed since the reset */

/*
 * What verify saw, between two readings and outside any bracket.  A check
 * that could not be made is not a pass: it sets the flag and its -errno.
 */
struct source_check {
	bool tampered;        /* changed by someone else (perf, the NMI watchdog,
			       * another tool: linux kernel/watchdog_perf.c,
			       * intel_pmu_enable_all) */
	bool overflow;        /* IA32_PERF_GLOBAL_STATUS bit 35 or 48 (linux commit
			       * 59a854e2f3b9: PERF_METRICS invalid then) */
	int tamper_err;       /* -errno when the tamper check could not read, else 0 */
	const char *tamper_why; /* the register that changed, with both values, when the
			       * source says it in words (an event recipe's), else NULL */
	int overflow_err;     /* -errno when the overflow check could not read, else 0 */
	/* For the tamper message: IA32_FIXED_CTR_CTRL and IA32_PERF_GLOBAL_CTRL
	 * as programmed (from) and as read (to); 0 when not read. */
	uint64_t fcc_from, fcc_to, gc_from, gc_to;
};

/* Whether a source can measure, for the choice (source_choose). */
enum source_state {
	SOURCE_NO = 0,        /* cannot measure here (the reason in @why) */
	SOURCE_READY,         /* can measure */
	SOURCE_PENDING,       /* can once the caller does what it promised
			       * (--rdpmc-always: rdpmc set to 2, then bench_recheck) */
};

/* What an availability probe may use (bench_topdown_check_ops). */
struct source_env {
	const struct cpu_machine *machine;   /* the machine described */
	const struct bench_rdpmc_ops *rdpmc; /* the RDPMC seam (bench_rdpmc_live) */
	int *key;                            /* the rdpmc=1 perf event key, kept for the
					      * run (bench_rdpmc_decide) */
	unsigned cpu;                        /* OS CPU checked */
	int cpuid_level;                     /* its kind's PERF_METRICS level by CPUID and
					      * the model table (0: none or unknown) */
	const struct cpu_info *ci;           /* the machine's identity (NULL: none) */
	const struct msr_dev *dev;           /* the run's MSR backend (NULL: none) */
};

/*
 * struct counter_source_ops - one counter source.  Each operation gets the
 * open source; the order is open, program, then per bracket reset, read,
 * (the region), read, verify, and close.  Only read runs inside the
 * bracket: it writes nothing, makes no system call on rdpmc and tsc, and
 * errors there show up in the reading (zero slots), flagged by decoding.
 */
struct counter_source_ops {
	enum bench_backend_id id;
	const char *name;            /* "rdpmc", ... (--backend, JSON "backend") */
	bool topdown;                /* its read set counts TOPDOWN.SLOTS and the
				      * topdown-* events (bench/tma.h) */
	bool writes_msrs;            /* program writes MSRs: the run needs the guard
				      * (locks, ownership, journal); a raw source,
				      * compare's raw side (bench_backend_raw) */
	bool perf_event;             /* the kernel's perf_event programs the counters:
				      * it writes no MSR, yet the registers change
				      * under it, for the journal's owner to put back
				      * (bench_run, calibrate's probe); compare's
				      * perf side (bench_backend_perf_event) */
	bool rdpmc;                  /* reads by RDPMC (inline, or through perf's user
				      * pages): the counters of the CPU it runs on
				      * only (stat runs one CPU with it) */
	const char *how;             /* how a reading is taken, in words, for messages
				      * (compare's table: "read(2)") */
	const char *cost;            /* what makes a reading cost microseconds, said
				      * beside the empty bracket's cost (the
				      * harness's note); NULL: nothing to say */
	enum td_unavail fault;       /* bench_avail.why when this source alone cannot
				      * measure (rdpmc: TD_RDPMC_FAULT), TD_OK if none */
	enum source_read read_inline; /* read's body, inlined by the session's bracket
				       * (SOURCE_READ_CALL: call read) */
	/* probe - fill this source's part of @a (rdpmc: the RDPMC decision);
	 * called once the PMU checks passed, or always when @independent.
	 * May be NULL.  Returns 0. */
	int (*probe)(const struct source_env *env, struct bench_avail *a);
	bool independent;            /* measures without the MSR checks (perf_event):
				      * probed and usable whatever they found */
	/* level - the Top-down level this source reads given @a (NULL: a->level). */
	int (*level)(const struct bench_avail *a);
	/* usable - can it measure, from @a and @rdpmc_always?  SOURCE_NO with
	 * *@why (on the heap, replaced, whole: cpu/text.h; the caller frees
	 * it) saying why, or left as it was when a->reason already says why
	 * (Top-down unavailable). */
	enum source_state (*usable)(const struct bench_avail *a, bool rdpmc_always,
				    char **why);
	/* open - set up from @p (already in src->p), and fill src->rs with
	 * what read will read; no register access.  0 or -errno. */
	int (*open)(struct counter_source *src, const struct source_params *p);
	/* program - start counting, saving what it changes in @j first (a
	 * source that writes MSRs gets the run's journal: session_program);
	 * @why gets the reason of -EBUSY.  0 or -errno. */
	int (*program)(struct counter_source *src, struct journal *j, char *why, size_t n);
	/* reset - before a bracket, outside it: counts to zero (frozen). */
	int (*reset)(struct counter_source *src);
	/* read_frozen - an interval end for a caller that resets next (stat):
	 * the tamper check (nothing written when it fails), the source's
	 * counters frozen, reading @r, the overflow check, into @chk (cleared
	 * first); the counters stay frozen for the next reset, which zeroes
	 * them and lets them count again, so every value of @r counted from
	 * one write (the reset's) to one write (the freeze) - the kernel's
	 * way (intel_pmu_read_topdown_event: its reads inside perf_pmu_disable
	 * and enable) - and the reading after that reset is known, all zeros
	 * (session_restart).  Returns 0 (a tamper found is in @chk) or the
	 * -errno of the freeze.  NULL: not offered (session_end's read and
	 * verify instead). */
	int (*read_frozen)(struct counter_source *src, struct reading *r,
			   struct source_check *chk);
	/* read - one reading of src->rs, inside the bracket. */
	void (*read)(struct counter_source *src, struct reading *r);
	/* verify - the checks @what (SOURCE_CHECK_*), outside any bracket, into
	 * @chk (cleared first).  Returns 0 (the result is in @chk). */
	int (*verify)(struct counter_source *src, unsigned what, struct source_check *chk);
	/* close - stop and release; what program wrote, the journal's owner
	 * puts back.  0 or the first -errno. */
	int (*close)(struct counter_source *src);
	/* pass - count pass @pass of src->rs.npasses from now on: the journal
	 * puts the registers back, the pass's counters are programmed, src->rs
	 * is filled anew; @why as program's.  NULL: one pass only. */
	int (*pass)(struct counter_source *src, unsigned pass, char *why, size_t n);
	/* simulated - do the open source's counts come from the simulated PMU
	 * (msr/sim/msr_sim.h, bench/source/perf_sim.c), which counts a region's
	 * time at the profile's shares whatever its code does to the caches
	 * (doc/simulator.md "Not modelled")?  NULL: never (the hardware, a
	 * state file, the TSC). */
	bool (*simulated)(const struct counter_source *src);
};

extern const struct counter_source_ops source_rdpmc, source_msr, source_perf, source_perf_rdpmc,
	source_tsc;

/*
 * source_read_rdpmc - the rdpmc reading: baretma_read of <baretma.h>, the
 * one definition of it (LFENCE; RDPMC (1<<30)|3 (TOPDOWN.SLOTS); RDPMC
 * 1<<29 (IA32_PERF_METRICS); RDTSC; LFENCE: linux perf_event.h INTEL_PMC_FIXED_RDPMC_* for the
 * ECX values; the two RDPMCs back to back as in the example of
 * linux tools/perf/Documentation/topdown.txt; a fence on either
 * side keeps the region's instructions out of the reading).  Needs user
 * RDPMC (bench_rdpmc_decide) on the pinned CPU.
 */
_Static_assert(RDPMC_ECX_SLOTS == ((1u << 30) | 3u) && RDPMC_PERF_METRICS == (1u << 29),
	       "baretma_read's ECX values are msr/regs/intel_regs.h's");

static inline __attribute__((always_inline)) void source_read_rdpmc(struct reading *r)
{
	struct baretma_reading b;

	baretma_read(&b);
	/* b is the compiler's registers, not memory: the stores come after
	 * the reading (read_set_perf_metrics's order) */
	r->v[0] = b.slots;
	r->v[1] = b.metrics;
	r->tsc = b.tsc;
}

/*
 * source_read_rdpmc_set - an event recipe's reading: LFENCE; RDPMC of each
 * counter of @rs in order (ECX rs->ecx[i]: linux perf_event.h), with
 * nothing between two but the store of one and the load of the next ECX;
 * RDTSC; LFENCE, as source_read_rdpmc.  Needs user RDPMC on the pinned CPU.
 */
static inline __attribute__((always_inline)) void source_read_rdpmc_set(const struct read_set *rs,
									 struct reading *r)
{
	/* Straight-line reads, no loop: the switch jumps into an unrolled
	 * sequence that reads values 0..n-1 in order (k values before the end
	 * of @e and @v), so between two RDPMCs there is only the next ECX load
	 * and the previous value's store, as in baretma_read. */
	const uint32_t *e = rs->ecx + rs->n;
	uint64_t *v = r->v + rs->n;

	_Static_assert(READING_MAX == 12, "source_read_rdpmc_set unrolls 12 reads");
	bm_lfence();
	switch (rs->n) {
#define SOURCE_RDPMC_AT(k) case k: v[-(k)] = rdpmc_raw(e[-(k)]); __attribute__((fallthrough))
	SOURCE_RDPMC_AT(12); SOURCE_RDPMC_AT(11); SOURCE_RDPMC_AT(10); SOURCE_RDPMC_AT(9);
	SOURCE_RDPMC_AT(8); SOURCE_RDPMC_AT(7); SOURCE_RDPMC_AT(6); SOURCE_RDPMC_AT(5);
	SOURCE_RDPMC_AT(4); SOURCE_RDPMC_AT(3); SOURCE_RDPMC_AT(2); SOURCE_RDPMC_AT(1);
#undef SOURCE_RDPMC_AT
	default:
		break;
	}
	r->tsc = rdtsc_fenced();
}

/* source_read_tsc - the tsc reading: no counts; LFENCE; RDTSC; LFENCE. */
static inline __attribute__((always_inline)) void source_read_tsc(struct reading *r)
{
	r->tsc = rdtsc_fenced();
}

/* source_read_as - a reading of @src taken the way @how says (@how is
 * @src->read_inline, or a copy of it kept where the caller's bracket can
 * load it in one step). */
static inline __attribute__((always_inline)) void source_read_as(enum source_read how,
								  struct counter_source *src,
								  struct reading *r)
{
	switch (how) {
	case SOURCE_READ_RDPMC:
		source_read_rdpmc(r);
		break;
	case SOURCE_READ_TSC:
		source_read_tsc(r);
		break;
	case SOURCE_READ_RDPMC_SET:
		source_read_rdpmc_set(&src->rs, r);
		break;
	default:
		src->ops->read(src, r);
	}
}

/* source_count / source_at - the registered sources in the order backend
 * auto prefers them (best first). */
size_t source_count(void);
const struct counter_source_ops *source_at(size_t i);

/* source_get - the source of @id; NULL for BENCH_BACKEND_AUTO or unknown. */
const struct counter_source_ops *source_get(enum bench_backend_id id);

/* source_avail_of / source_avail_set - @src's entry of @a (a->src[] in
 * table order), to read and to fill; @src is a registered source (one of
 * source_at's). */
const struct bench_source_avail *source_avail_of(const struct bench_avail *a,
						 const struct counter_source_ops *src);
struct bench_source_avail *source_avail_set(struct bench_avail *a,
					    const struct counter_source_ops *src);

/* source_probe_wanted - whether the sources that measure without the PMU
 * checks (@independent ones: perf_event) are probed for a run of @want
 * whose checks found @a: when @want is one of them, or auto and the raw
 * path cannot measure (their probe makes the kernel write FC3 and
 * PERF_METRICS, so never for a run on the raw path). */
bool source_probe_wanted(enum bench_backend_id want, const struct bench_avail *a);

/* source_probe_all - the probe of every registered source (@independent:
 * of those that are, else of the others), in table order. */
int source_probe_all(const struct source_env *env, struct bench_avail *a, bool independent);

/* source_level - the Top-down level @src reads given @a, by default. */
int source_level(const struct counter_source_ops *src, const struct bench_avail *a);

/* source_max_level - the highest level @src can read given @a: the rdpmc
 * and msr sources every level of their recipe (a->recipe: in passes where
 * the counters need them; Sunny Cove's level 2 beside PERF_METRICS's level
 * 1), an independent source (perf) what its probe found (its entry's
 * level_max), else source_level. */
int source_max_level(const struct counter_source_ops *src, const struct bench_avail *a);

/* Room for a usable() or program() reason: words, numbers and at most one
 * path (perf's why may name a CPUID dump; PERF_WHY_MAX holds a PATH_MAX
 * path in a sentence), so none is cut. */
#define SOURCE_WHY_MAX (PATH_MAX + 576) /* PERF_WHY_MAX, "perf_event: " before it */

/* The outcome of source_choose. */
struct source_choice {
	const struct counter_source_ops *src; /* chosen, NULL on -ENODEV */
	bool pending;          /* chosen on a promise (SOURCE_PENDING) */
	char *note;            /* why better Top-down sources were passed over
				* (the rdpmc reason when msr is chosen), "; "-
				* separated, on the heap (the caller frees it);
				* NULL if none */
};

/*
 * source_choose - the source for @want: the first usable one in table order
 * for BENCH_BACKEND_AUTO, else the one named.  A chosen source without
 * Top-down where Top-down is available sets @a->reason to "not measured:
 * --backend NAME was requested (level L is available)".  A named source
 * that cannot measure gives -ENODEV: @a->reason says why (its own reason,
 * with @a->why its fault, when Top-down is otherwise available).
 * Returns 0 (@out filled; free out->note) or -ENODEV (or -EINVAL: @want
 * unknown), with no note.
 */
int source_choose(enum bench_backend_id want, bool rdpmc_always, struct bench_avail *a,
		  struct source_choice *out);

/* ------------------------------------------ shared PMU programming (rdpmc, msr) */

/* source_pmu_* - the rdpmc and msr sources' open, program, reset, verify
 * and close on msr/pmu/pmu.h (bench/source/source_pmu.c); they differ only in read. */
int source_pmu_open(struct counter_source *src, const struct source_params *p);
int source_pmu_program(struct counter_source *src, struct journal *j, char *why, size_t n);
int source_pmu_reset(struct counter_source *src);
/* source_pmu_freeze - the source's counters frozen (pmu_freeze_topdown, or
 * an event recipe's gp_freeze_with_metrics), the next reset told: for
 * read_frozen.  0 or -errno. */
int source_pmu_freeze(struct counter_source *src);
int source_pmu_verify(struct counter_source *src, unsigned what, struct source_check *chk);
int source_pmu_close(struct counter_source *src);
/* source_pmu_usable - Top-down available (both need the PMU checks passed). */
enum source_state source_pmu_usable(const struct bench_avail *a, bool rdpmc_always,
				    char **why);
/* source_pmu_pass - an event recipe's next pass (source_events_set_pass). */
int source_pmu_pass(struct counter_source *src, unsigned pass, char *why, size_t n);
/* source_pmu_simulated - the backend is the simulator ("sim:PROFILE"), not
 * the msr device or a state file (the rdpmc source then reads by
 * msr_sim_rdpmc). */
bool source_pmu_simulated(const struct counter_source *src);

/* -------------------------------- event recipes (rdpmc, msr; source_events.c) */

#define SOURCE_PASSES_MAX 4          /* passes of one recipe's events */

/*
 * source_events_recipe - the event recipe the rdpmc and msr sources measure
 * on core kind @k (cpu_kind.topdown_recipe): the first variant serving its
 * uarch whose fixed counters the kind has (Skymont's fixed-counter
 * variant only where CPUID leaf 0x23 enumerates fixed counters 4-6).  NULL
 * with @why when none.
 */
struct recipe;
const struct recipe *source_events_recipe(const struct cpu_kind *k, char *why, size_t n);

/*
 * source_pm_recipe - on a core kind with IA32_PERF_METRICS
 * (cpu_kind.topdown_level > 0), the intel-perf-metrics variant for its
 * uarch when that variant counts events beside fixed counter 3 and
 * PERF_METRICS (Sunny Cove's: msr/recipe/recipes_intel_pm.c), which the rdpmc and
 * msr sources then measure as an event recipe (bench/source/source_events.c
 * "PERF_METRICS with events"); NULL elsewhere: PERF_METRICS alone
 * (read_set_perf_metrics).
 */
const struct recipe *source_pm_recipe(const struct cpu_kind *k);

/* source_recipe - the recipe whose events the rdpmc and msr sources count
 * on @k: source_pm_recipe, else its event recipe (source_events_recipe,
 * NULL with @why). */
const struct recipe *source_recipe(const struct cpu_kind *k, char *why, size_t n);

/* source_recipe_metrics - @r counts fixed counter 3 or PERF_METRICS fields
 * (an intel-perf-metrics recipe, or intel-icl-events' TOPDOWN.SLOTS). */
bool source_recipe_metrics(const struct recipe *r);

/* source_events_level - the highest level @r defines (1 or 2). */
int source_events_level(const struct recipe *r);

/* source_events_passes - how many passes the rdpmc and msr sources take
 * for @r's events at @level on core kind @k (its counters), SMT as
 * @smt_on says; -errno (-ENODEV: an event no counter of @k takes,
 * -ENOSPC: more than SOURCE_PASSES_MAX). */
/* source_events_groups - the events (bit e: r->events[e]) of each pass,
 * into @groups[SOURCE_PASSES_MAX], as the rdpmc and msr sources split
 * them: the perf source opens the same passes as raw events.  The count
 * of passes, or -errno (-ENODEV: the kind cannot count them). */
int source_events_groups(const struct cpu_kind *k, const struct recipe *r, bool smt_on,
			 int level, uint32_t *groups);

int source_events_passes(const struct cpu_kind *k, const struct recipe *r, bool smt_on,
			 int level);

/*
 * source_events_refusal - why @r's events at @level cannot be split into
 * passes on core kind @k with SMT @smt_on, one line into @why: the event
 * no counter of @k may count (a fixed counter it lacks; a GP constraint,
 * intel/perfmon's "Counter" with SMT on or "CounterHTOff" with it off,
 * outside its counters), or more passes than SOURCE_PASSES_MAX.  Returns
 * 0 ("" in @why: the split works) or the split's -errno.
 */
int source_events_refusal(const struct cpu_kind *k, const struct recipe *r, bool smt_on,
			  int level, char *why, size_t n);

/*
 * The rdpmc and msr sources' operations on an event recipe's kind (the
 * file comment of bench/source/source_events.c: the recipe's events at
 * p->level in passes, on msr/pmu/pmu_gp.h).  open fills src->rs with pass 0
 * (rdpmc: read inline by source_read_rdpmc_set) and keeps its state in
 * src->priv; program checks (-EBUSY naming the counters in use, nothing
 * written), saves and programs pass 0; set_pass the next; read_msr the
 * plan's counters through the backend; close frees the state.
 */
int source_events_open(struct counter_source *src, const struct source_params *p);
int source_events_program(struct counter_source *src, struct journal *j, char *why, size_t n);
int source_events_set_pass(struct counter_source *src, unsigned pass, char *why, size_t n);
int source_events_reset(struct counter_source *src);
int source_events_freeze(struct counter_source *src);
int source_events_verify(struct counter_source *src, unsigned what, struct source_check *chk);
void source_events_read_msr(struct counter_source *src, struct reading *r);
int source_events_close(struct counter_source *src);

#endif
