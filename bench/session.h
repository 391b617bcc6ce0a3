/*
 * bench/session.h - one measuring session on one CPU: identify the machine
 * described, choose the CPU and pin the calling thread to it, open the MSR
 * backend, decide what can be measured, choose the counter source
 * (bench/source/source.h); then program the counters and take bracketed pairs of
 * readings (reset before, verify after); then close.
 *
 * The session knows nothing of kernels, repetitions or statistics (the
 * harness, bench/measure.c, and the region API build on it), and nothing
 * of locks, journals or settings (the caller takes them between
 * session_open and session_program and hands the journal in).  The
 * harness goes through these functions only: it never touches an MSR or
 * a source.
 *
 * Threads: a session belongs to the thread that opened it (pinned); the
 * thread's CPU binding and memory policy from before session_open are
 * put back by session_close (called from that thread).
 */
#ifndef BARETMA_SESSION_H
#define BARETMA_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/source/source.h"
#include "include/baretma.h"

struct session_options {
	int cpu;                 /* OS CPU; -1: choose (cpu_machine_choose) */
	enum bench_backend_id backend; /* the source asked for; AUTO: the best usable */
	int level;               /* 1 or 2; 0: the highest the CPU has */
	bool user_only;          /* FC3 counts at CPL > 0 only */
	bool force;              /* take over FC3/PERF_METRICS in use */
	bool delta_regions;      /* rdpmc: the slot-weighted delta method even where
				  * metrics-clear regions are enumerated */
	bool rdpmc_always;       /* the caller will set the rdpmc sysfs value to 2
				  * before session_program: a failed RDPMC probe at 0
				  * or 1 does not rule rdpmc out until session_recheck */
	const struct cpu_machine *machine; /* the machine described (live or a CPUID
				  * dump); NULL: session_open opens the live one */
	bool one_pass;           /* the caller reads each region once (the library):
				  * with level 0 the highest level whose events fit
				  * one pass, a --level that needs passes -EINVAL */
	bool no_tsc_hz;          /* the caller times nothing in TSC ticks (stat: its
				  * intervals are CLOCK_MONOTONIC's): info.tsc_hz
				  * stays 0, and the session waits for no estimate */
	struct msr_dev *dev;     /* the guarded run's MSR backend (borrowed: its
				  * journal gates its writes, msr/access/msr.h); NULL:
				  * session_open opens $BARETMA_MSR's, which writes
				  * nothing until a journal is set on it */
};

/* What the session found and chose (bench_result mirrors it). */
struct session_info {
	struct cpu_info cpu;     /* identity of the machine described */
	unsigned cpu_used;       /* OS CPU measured on */
	bool membind_ok;         /* memory bound to its NUMA node */
	enum bench_backend_id backend; /* the source chosen */
	struct bench_avail avail; /* what can be measured, and if not why */
	int level;               /* Top-down level of the readings (0: none) */
	uint64_t tsc_hz;         /* TSC frequency estimate (Hz), 0 when unknown or not
				  * asked for (no_tsc_hz); measured once a process */
	bool rdpmc_pending;      /* rdpmc chosen on the promise of rdpmc_always */
	const struct recipe *recipe; /* the event recipe the source measures (NULL:
				  * PERF_METRICS, perf's group, or none) */
	unsigned passes;         /* passes of its events (1: all at once) */
	bool smt_on;             /* the recipe's smt_on (bench/session.c smt_on) */
	char *note;              /* "; "-separated notes: not pinned (a dump's CPU),
				  * why rdpmc was passed over for msr; on the heap
				  * (cpu/text.h), NULL: none; freed by session_close */
	char *kinds_warning;     /* hwloc's CPU kinds disagree with CPUID's: how, on
				  * the heap (its CPU lists whole), NULL if not;
				  * freed by session_close */
};

/* A session.  Private: use the functions below (the bracket functions are
 * inline, so the layout is here). */
struct session {
	struct session_options opt;
	struct session_info info;
	const struct cpu_machine *machine; /* opt.machine, or own_machine */
	struct cpu_machine *own_machine;   /* opened by session_open */
	struct msr_dev *dev;     /* opt.dev, or own_dev */
	struct msr_dev *own_dev; /* opened by session_open */
	int key;                 /* rdpmc=1 key of bench_rdpmc_decide, -1 if none */
	size_t note_base;        /* info.note's length before the source choice */
	struct counter_source src; /* src.ops: the chosen source, NULL before */
	struct cpu_binding binding; /* the thread's binding before pin(), put back by
				  * session_close (empty: nothing was bound) */
};

/*
 * session_open - identify the machine @o->machine describes, choose the CPU
 * among its CPUs and pin the calling thread to it (live only: a dump's CPU
 * is never pinned to, info.note says so), open the MSR backend ($BARETMA_MSR,
 * msr/access/msr.h), decide availability (bench_topdown_check_ops: the PMU checks,
 * then every source's probe, holding the rdpmc=1 key for the session) and
 * choose the source (source_choose), which is opened.  Reads only.
 * @out receives the session, also on error (then only session_info,
 * session_dev and session_close may be used); NULL only on -ENOMEM.
 * Returns 0; -ENXIO (bad CPU); -EOPNOTSUPP when @o->cpu is a hybrid part's
 * E-core without PERF_METRICS and without an event recipe, and the
 * backend is not tsc (info.cpu and cpu_used filled, nothing pinned); -ENODEV (the source asked for cannot
 * measure: info.avail.reason); -EINVAL (a --level the CPU lacks:
 * info.avail.reason; or not identified); the error of msr_open when the
 * backend $BARETMA_MSR names cannot be opened and @o->backend may use it
 * (bench_backend_uses_msr; info.avail.why TD_MSR_OPEN, reason
 * msr_last_error()'s line: -EINVAL a malformed state file or profile,
 * -EPERM refused under sudo, -ENOENT missing); -errno otherwise.
 */
int session_open(const struct session_options *o, struct session **out);

/* session_info - what @s found and chose; valid until session_close. */
const struct session_info *session_info(const struct session *s);

/*
 * session_recheck - decide availability and the source again (after the
 * caller changed the rdpmc setting for rdpmc_always).  Reads only.
 * Returns as session_open's choice: 0, -ENODEV, -EINVAL.
 */
int session_recheck(struct session *s);

/* session_writes_msrs - the chosen source programs FC3/PERF_METRICS: the
 * caller must guard the run (locks, ownership, journal) before
 * session_program.  False for NULL. */
bool session_writes_msrs(const struct session *s);

/* session_topdown - the chosen source's readings count Top-down
 * (TOPDOWN.SLOTS and the topdown-* events: session_read_set). */
bool session_topdown(const struct session *s);

/* session_simulated - the chosen source, open, counts on the simulated PMU
 * (counter_source_ops.simulated): a region's counts are its time at the
 * profile's shares, whatever its code does to the caches.  False for
 * NULL, before a source is open, and on the hardware. */
bool session_simulated(const struct session *s);

/* session_dev - the MSR backend (NULL when it could not be opened, or @s
 * NULL). */
struct msr_dev *session_dev(const struct session *s);

/* session_machine - the machine described (@o->machine, or the live one). */
const struct cpu_machine *session_machine(const struct session *s);

/*
 * session_program - start the source counting: save every register it
 * changes in @j first, then program them; the caller puts them back
 * (journal_restore, or journal_restore_regs between blocks).  A source
 * that writes MSRs (session_writes_msrs) needs @j, the journal of the
 * guarded run whose device the session writes through (journal_set_dev
 * on session_dev: the write gate of msr/access/msr.h): without it -EINVAL and
 * nothing is written (info.avail.reason says so).  Sources that write
 * nothing take @j NULL.
 * Returns 0; -EBUSY when FC3/PERF_METRICS are in use and !force
 * (info.avail.reason); -EINVAL (no journal); the errors of
 * journal_save_regs; -errno (the failed access in msr_last_fault; -ENOLCK
 * when @j is not the journal of the session's device).
 */
int session_program(struct session *s, struct journal *j);

/*
 * session_check - the checks @what (SOURCE_CHECK_TAMPER, _OVERFLOW) of the
 * source, outside any bracket, into @chk.  Nothing to check (tsc): all clear.
 */
static inline void session_check(struct session *s, unsigned what, struct source_check *chk)
{
	s->src.ops->verify(&s->src, what, chk);
}

/* session_read - one reading: the source's body inlined where it has one
 * (rdpmc, tsc: no call inside the bracket), else its read. */
static inline __attribute__((always_inline)) void session_read(struct session *s,
							       struct reading *r)
{
	source_read_as(s->src.read_inline, &s->src, r);
}

/* session_read_set - what a reading of @s holds and what a pair of them
 * counts (bench/source/reading.h): the chosen source's, valid while @s
 * is open (the same place after session_recheck, which may fill it anew). */
static inline const struct read_set *session_read_set(const struct session *s)
{
	return &s->src.rs;
}

/* session_read_kind - how session_read reads (for a caller that keeps it
 * next to its own state, to load it in one step inside its bracket). */
static inline enum source_read session_read_kind(const struct session *s)
{
	return s->src.read_inline;
}

/* session_source - the source, for source_read_as with that copy. */
static inline struct counter_source *session_source(struct session *s)
{
	return &s->src;
}

/*
 * session_begin / session_end - one bracketed pair.  session_begin resets
 * the counts (frozen, outside the bracket) and takes reading @a, last;
 * session_end takes reading @b, first, then runs both checks (tamper,
 * overflow) into @chk.  Between the two readings nothing is written, and
 * on the rdpmc and tsc sources no call and no system call is made: they
 * are inline, for the bracket to be the reading and the region only.
 * session_begin returns 0 or the -errno of the reset (then no reading).
 */
/* session_reset - session_begin's reset alone (frozen; for a caller that
 * takes the reading itself): 0 or -errno. */
static inline int session_reset(struct session *s)
{
	return s->src.ops->reset(&s->src);
}

static inline __attribute__((always_inline)) int session_begin(struct session *s,
							       struct reading *a)
{
	int rc = session_reset(s);

	if (rc)
		return rc;
	session_read(s, a);
	return 0;
}

static inline __attribute__((always_inline)) void session_end(struct session *s,
							      struct reading *b,
							      struct source_check *chk)
{
	session_read(s, b);
	session_check(s, SOURCE_CHECK_TAMPER | SOURCE_CHECK_OVERFLOW, chk);
}

/*
 * session_restart - session_begin for a caller that reads with
 * session_end_frozen and needs no bracket around a region (`baretma
 * stat`'s interval ends): the reset, and @a the reading it left - every
 * value 0, what the reset wrote while the counters were frozen, and the
 * TSC as they resume - without reading the counters: on the msr source a
 * pread(2) fewer per value, and every counter's count runs from the reset's
 * last write to the next session_end_frozen's freeze, one window for all.
 * A source without read_frozen (counter_source_ops) gets session_begin.
 * Returns as session_begin.
 */
static inline int session_restart(struct session *s, struct reading *a)
{
	int rc;

	if (!s->src.ops->read_frozen)
		return session_begin(s, a);
	if ((rc = session_reset(s)))
		return rc;
	memset(a->v, 0, sizeof(a->v));
	a->tsc = rdtsc_fenced();
	return 0;
}

/*
 * session_end_frozen - session_end for a caller that calls session_restart
 * next: the source's read_frozen (the tamper check, the counters frozen,
 * reading @b, the overflow check, into @chk), else session_end.  Returns 0
 * (the checks in @chk) or the -errno of the freeze (nothing read).
 */
static inline int session_end_frozen(struct session *s, struct reading *b,
				     struct source_check *chk)
{
	if (!s->src.ops->read_frozen) {
		session_end(s, b, chk);
		return 0;
	}
	return s->src.ops->read_frozen(&s->src, b, chk);
}

/*
 * session_passes - how many passes the source's events take (1: all at
 * once; more for an event recipe with more events than the core kind
 * has counters: bench/source/source_events.c).
 */
unsigned session_passes(const struct session *s);

/*
 * session_set_pass - count pass @pass (from 0) from now on, between two
 * blocks of brackets: the journal puts the registers back, the pass's
 * counters are checked and programmed, session_read_set is filled anew
 * (same place).  Returns 0, -EINVAL (no such pass), -EBUSY (counters in
 * use: info.avail.reason), -errno.
 */
int session_set_pass(struct session *s, unsigned pass);

/*
 * session_stop - stop the source (the journal's owner puts its registers
 * back).  Once; later calls return 0.  Returns 0 or the first -errno.
 */
int session_stop(struct session *s);

/* session_pinned - whether session_open pinned the calling thread (to
 * info.cpu_used): a live CPU, not a dump's. */
bool session_pinned(const struct session *s);

/* session_drop_binding - forget the opener's binding without putting it
 * back: session_close from another thread must not bind that one. */
void session_drop_binding(struct session *s);

/*
 * session_close - stop the source if still running, drop the rdpmc key,
 * close the MSR backend (not a borrowed one) and the machine it opened,
 * free @s (NULL is fine).  Unpins nothing.
 */
void session_close(struct session *s);

#endif
