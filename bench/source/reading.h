/*
 * bench/source/reading.h - the measurement model every counter source
 * reads into and the harness counts with:
 *
 *   reading   named counter values plus the TSC.  The values sit in a
 *             fixed array (no allocation; inside the bracket a reading is
 *             its RDPMCs or reads and their stores, nothing else), in the
 *             order of the source's read set, which names them.
 *   read set  what a source reads, value by value, and what a pair of its
 *             readings counts, event by event; the source fills it when it
 *             opens (bench/source/source.h):
 *               rdpmc, msr, perf-rdpmc  TOPDOWN.SLOTS (fixed counter 3),
 *                                       PERF_METRICS
 *               perf                    perf's group: slots and its topdown-*
 *                                       members, as the kernel counts them
 *                                       (read_set_perf_counts)
 *               tsc                     nothing (TSC only)
 *   counts    a pair of readings as one number per event (reading_counts):
 *             b - a modulo the width for a counter; for PERF_METRICS the
 *             slot-weighted delta of msr/recipe/topdown.h (td_pair_slots), i.e.
 *             perf's pseudo events topdown-retiring ... topdown-mem-bound in
 *             slots, beside TOPDOWN.SLOTS, with their 8-bit quantisation
 *             error in slots.  The counts of a region's valid pairs are
 *             summed (bench/region.h), the empty bracket's are subtracted
 *             per event (bench/measure_int.h), and a recipe's formulas make
 *             tma_* fractions of them (bench/tma.h).
 *
 * Pure: no hardware, no system call, no allocation.
 */
#ifndef BARETMA_READING_H
#define BARETMA_READING_H

#include <stdbool.h>
#include <stdint.h>

#include "msr/recipe/recipe.h"
#include "msr/recipe/topdown.h"

#define READING_MAX 12 /* values of one reading */
/* Events a read set counts: a pair's (a PERF_METRICS value counts 8), or
 * the union of a recipe's passes (bench/measure_pass.c), which is every
 * event of the recipe (msr/recipe/recipe.h RECIPE_EVENTS_MAX). */
#define COUNTS_MAX 32
_Static_assert(COUNTS_MAX >= READING_MAX + TD_NFIELDS, "a pair's counts fit");
_Static_assert(COUNTS_MAX >= RECIPE_EVENTS_MAX, "a recipe's passes' union fits");

/* One reading: the read set's values, in its order, and the TSC. */
struct reading {
	uint64_t tsc;                /* TSC ticks */
	uint64_t v[READING_MAX];     /* value i of the read set */
};

/* What a value of a reading is. */
enum read_kind {
	READ_COUNTER = 0,    /* a counter @width bits wide: counts b - a modulo 2^width */
	READ_PERF_METRICS,   /* IA32_PERF_METRICS: eight bytes, each a fraction of 0xff
			      * of the set's TOPDOWN.SLOTS value (msr/recipe/topdown.h), which
			      * must come before it; counts the eight topdown-* events */
};

struct read_value {
	const char *name;    /* "TOPDOWN.SLOTS", "PERF_METRICS", "topdown-retiring", an
			      * event name of a recipe */
	enum read_kind kind;
	unsigned width;      /* READ_COUNTER: its width in bits (1..64); 0 for the
			      * TOPDOWN.SLOTS of a PERF_METRICS value, which that value
			      * counts (any decrease is TD_FLAG_SLOTS_BACK there) */
};

/* What bounds the counts of a read set. */
enum read_bound {
	READ_BOUND_EXACT = 0,        /* the counts are the counters' differences: nothing
				      * quantises them (struct counts.err 0) */
	READ_BOUND_PERF_METRICS,     /* PERF_METRICS's 8-bit fields: counts.err, in slots */
	READ_BOUND_PERF_COUNTS,      /* perf's topdown-* counts (read_set_perf_counts):
				      * the kernel makes each member's count of a read
				      * interval from the 8-bit field, floored (below);
				      * counts.err, in slots */
};

/*
 * perf's topdown-* counts.  At every read of the group the kernel turns
 * PERF_METRICS into counts: each member gets mul_u64_u32_div(slots, field,
 * 0xff) of the slots fixed counter 3 counted since the last read, then
 * FC3 and PERF_METRICS are written 0 (linux arch/x86/events/intel/core.c
 * icl_get_metrics_event_value, __icl_update_topdown_event,
 * intel_update_topdown_event: "The fixed counter 3 has to be written
 * before the PERF_METRICS").  The field f = 255 x + e of the true
 * fraction x is off by |e| < 1 whatever the hardware's rounding
 * (msr/recipe/topdown.h TD_L1_SUM_TOLERANCE), and the division floors, so a
 * member's count of an interval of s slots is s x + s e / 255 - d,
 * 0 <= d < 1: off by less than s / 255 + 1 slots.  A pair of the perf
 * source's readings is one read interval (its reads are the group's), so
 * its counts carry counts.err = s / 255 + 1, s the pair's TOPDOWN.SLOTS
 * count (READ_PERF_COUNTS_FLOOR the "+ 1"); summed pairs add theirs.  Not
 * re-packed into bytes: the counts keep what the kernel's arithmetic keeps
 * (a region's several intervals are not rounded again).
 */
#define READ_PERF_COUNTS_FLOOR 1.0

/* The events of PERF_METRICS's counts and of perf's Top-down group, in
 * IA32_PERF_METRICS byte order after TOPDOWN.SLOTS: "TOPDOWN.SLOTS",
 * "topdown-retiring", "topdown-bad-spec", "topdown-fe-bound",
 * "topdown-be-bound", "topdown-heavy-ops", "topdown-br-mispredict",
 * "topdown-fetch-lat", "topdown-mem-bound" (perf's names: linux
 * tools/perf/Documentation/topdown.txt; the Intel event TOPDOWN.SLOTS). */
#define READ_TD_EVENTS (1 + TD_NFIELDS)
extern const char *const read_td_events[READ_TD_EVENTS];

/* What a source reads (values) and what a pair of its readings counts (events). */
struct read_set {
	unsigned n;                        /* values of a reading; 0: TSC only */
	struct read_value val[READING_MAX];
	uint32_t ecx[READING_MAX];         /* RDPMC's ECX for value i (a set read by
					    * RDPMC inline: bench/source/source.h) */
	unsigned ncounts;                  /* events a pair counts */
	const char *count[COUNTS_MAX];     /* their names, in order */
	enum read_bound bound;
	const char *what;                  /* one phrase: what is read ("IA32_PERF_METRICS") */
	/* The recipe whose formulas make fractions of the counts (bench/tma.h),
	 * NULL: intel-perf-metrics (the topdown-* events of PERF_METRICS and of
	 * perf's group).  An event recipe's counts are named by its events. */
	const struct recipe *recipe;
	struct recipe_env env;             /* the formulas' variables (smt_on) */
	bool metrics_clear;                /* RDPMC metrics-clear regions: reading a's RDPMC
					    * of PERF_METRICS cleared it and TOPDOWN.SLOTS
					    * (linux commit 0e45818ec189), so a pair counts reading
					    * b's values alone: no slot-weighted subtraction */
	unsigned pass, npasses;            /* one pass (@pass, from 0) of @npasses: with
					    * npasses > 1 a pair counts only this pass's
					    * events and the base (bench/tma.h) */
};

/* The counts of one pair, or a sum of pairs, per event of a read set. */
struct counts {
	double c[COUNTS_MAX];        /* count of event i of the read set's count[] */
	double err;                  /* READ_BOUND_PERF_METRICS, READ_BOUND_PERF_COUNTS:
				      * the error of each topdown-* count, in slots;
				      * 0 otherwise */
	unsigned flags;              /* what the readings decide (TD_FLAG_L1_SUM,
				      * TD_FLAG_NORMALISED, TD_FLAG_SLOTS_BACK) */
};

/* read_bound_text - what bounds the numbers of counts bounded by @b, one
 * phrase for the tables' headers. */
const char *read_bound_text(enum read_bound b);

/* read_set_init - @rs empty (TSC only), reading @what. */
void read_set_init(struct read_set *rs, const char *what);

/*
 * read_set_add - value @name of @kind (@width bits for READ_COUNTER), read
 * by RDPMC with @ecx where the set is read inline, appended to @rs with
 * the events it counts: a counter its own, PERF_METRICS the eight
 * topdown-* events (and @rs's bound becomes READ_BOUND_PERF_METRICS).
 * Returns 0; -ENOSPC (READING_MAX values or COUNTS_MAX events); -EINVAL
 * (a width not in 1..64 for a counter; a PERF_METRICS without a
 * TOPDOWN.SLOTS value before it, or a second one).
 */
int read_set_add(struct read_set *rs, const char *name, enum read_kind kind, unsigned width,
		 uint32_t ecx);

/*
 * read_set_add_count - event @name counted by @rs without a value read:
 * for a set that only evaluates counts summed from other sets (the union
 * of a recipe's passes).  Returns 0, or -ENOSPC (COUNTS_MAX events),
 * -EINVAL (@rs or @name NULL).
 */
int read_set_add_count(struct read_set *rs, const char *name);

/* read_set_perf_metrics - @rs = TOPDOWN.SLOTS (fixed counter 3, RDPMC
 * (1<<30)|3) and PERF_METRICS (RDPMC 1<<29): linux perf_event.h
 * INTEL_PMC_FIXED_RDPMC_BASE, INTEL_PMC_FIXED_RDPMC_METRICS. */
void read_set_perf_metrics(struct read_set *rs);

/* read_set_perf_counts - @rs = perf's Top-down group as read(2) gives it:
 * the leader TOPDOWN.SLOTS and the first @members topdown-* members
 * (read_td_events: 4 at level 1, 8 at level 2), 64-bit counts, bound
 * READ_BOUND_PERF_COUNTS.  Returns 0 or -EINVAL (@members not 1..8). */
int read_set_perf_counts(struct read_set *rs, unsigned members);

/* read_set_count_index - the index of event @name in @rs's counts, -1 if none. */
int read_set_count_index(const struct read_set *rs, const char *name);

/*
 * reading_counts - the counts of the pair @a (begin) .. @b (end) of @rs:
 *  - a counter of width w: (b - a) mod 2^w, so a counter that wrapped once
 *    counts right.  A counter does not count 2^(w-1) events between two
 *    readings of one region (2^47 slots take 49 minutes at 8 slots a cycle
 *    and 6 GHz; the kernel's own period stays below it too, linux
 *    arch/x86/events/amd/core.c max_period (1ULL << 47) - 1, "use highest
 *    bit to detect overflow"), so a difference past half the range is the
 *    counter going back (reset, or written, inside the region): counted as
 *    the negative b - a, with TD_FLAG_SLOTS_BACK.
 *  - a set of perf's counts (READ_BOUND_PERF_COUNTS): the counters'
 *    differences, and err = TOPDOWN.SLOTS / 255 + READ_PERF_COUNTS_FLOOR
 *    (the count, or 0 when it is not above 0: "perf's topdown-* counts"
 *    above);
 *  - PERF_METRICS with its TOPDOWN.SLOTS: td_pair_slots (msr/recipe/topdown.h):
 *    TOPDOWN.SLOTS = slots_b - slots_a (any decrease is TD_FLAG_SLOTS_BACK:
 *    an overflow of fixed counter 3 leaves PERF_METRICS to be reset with it,
 *    linux commit 59a854e2f3b9), the topdown-* counts, err and the readings' flags.
 * Returns 0, or -EINVAL (NULL).
 */
int reading_counts(const struct read_set *rs, const struct reading *a, const struct reading *b,
		   struct counts *out);

/* counts_clear - @c's first @n counts, err and flags 0; counts_copy - the
 * same of @src into @dst.  The counts past @n are left as they are: for
 * counts of a read set of @n events, which nothing writes past @n (a
 * whole struct counts is COUNTS_MAX doubles, and these run at every
 * region pair's end). */
void counts_clear(struct counts *c, unsigned n);
void counts_copy(struct counts *dst, const struct counts *src, unsigned n);

/* counts_add - @sum += @c, event by event (err summed, flags or'ed). */
void counts_add(struct counts *sum, const struct counts *c, unsigned n);

/* counts_sub - @out = @a - @b event by event (err summed: both may be off
 * by theirs; @a's flags). */
void counts_sub(const struct counts *a, const struct counts *b, unsigned n, struct counts *out);

#endif
