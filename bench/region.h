/*
 * bench/region.h - named regions of a session: a small fixed table that
 * sums, per name, the begin/end pairs bracketed by the public API
 * (include/baretma.h baretma_region_begin/end/get) and the markers.
 *
 * Pure bookkeeping on readings; no hardware, no system call, no
 * allocation (the table lives in the session).  The session reads the
 * counters and decides whether a pair was tampered with or overflowed
 * (bench/source/source.h verify); this file counts and sums.
 *
 * Method (bench/source/reading.h): a pair of readings gives counts per
 * event of the table's read set (for PERF_METRICS the topdown-* events in
 * slots, slots_b*field_b/S_b - slots_a*field_a/S_a: msr/recipe/topdown.h, linux
 * tools/perf/Documentation/topdown.txt); a region's totals are the sums
 * of its valid pairs' counts, and its fractions the recipe's formulas on
 * those sums (bench/tma.h) - the slot-weighted mean, never a mean of
 * percentages.  For PERF_METRICS the bound is the sum of the pairs'
 * quantisation errors in slots over the summed slots.
 *
 * RDPMC metrics-clear regions (t->rs->metrics_clear: the kind enumerates
 * IA32_PERF_CAPABILITIES[19] and FC3's field has METRICS_CLEAR_EN, IA32_
 * FIXED_CTR_CTRL bit 14; linux commit 0e45818ec189, arch/x86/events/intel/
 * core.c): each RDPMC of PERF_METRICS returns the metrics since the last
 * one and clears PERF_METRICS and fixed counter 3, so every reading the
 * table sees, a begin's or an end's, closes a "segment" since the reading
 * before it, counted from that reading alone (reading_counts).  A segment
 * belongs to every region open across it: a region's pair is the sum of
 * the segments between its begin and its end (counts_add: their
 * quantisation errors summed, their flags or'ed), so nested and overlapping
 * regions each get exactly their own counts.  A segment of zero slots (a
 * reading straight after another) adds nothing, flags included.  The
 * segment a begin's reading closes is counted at the table's next call
 * (region_open, region_end, region_reading), never between a region's two
 * readings; the segment before an epoch's first begin belongs to no region.
 */
#ifndef BARETMA_REGION_H
#define BARETMA_REGION_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/source/reading.h"
#include "bench/tma.h"
#include "include/baretma.h"
#include "msr/recipe/topdown.h"

#define REGION_MAX      64  /* names a session holds */
#define REGION_NAME_MAX 32  /* bytes of a name, with its NUL */
#define REGION_SAMPLES  BARETMA_REGION_PAIRS /* pairs a region keeps for its
					      * statistics: the last ones */

/* Sums over pairs (one bucket). */
struct region_acc {
	uint64_t count, invalid;       /* pairs; of those left out */
	uint64_t tampered, overflow, slots_back, zero_slots, l1_sum;
	double tsc;                    /* TSC ticks of every pair */
	struct counts sum;             /* counts of the valid pairs, summed (their
				        * err summed, the readings' flags or'ed) */
};

/* The last pair of a region, counted (what the harness keeps per
 * repetition: bench/measure.c; its fractions: region_last_decode). */
struct region_pair {
	double tsc;                    /* TSC ticks */
	struct counts c;               /* its counts (none at level 0) */
	bool valid;                    /* counted, and a number (counts_to_tma's flags
					* have no TD_FLAGS_INVALID): in the sums */
};

/*
 * A region's statistics (region_stats) need each pair's own values; the
 * recipe's formulas are not evaluated at a pair's end (that was most of a
 * pair's cost), so a region keeps, for its last REGION_SAMPLES pairs, what
 * they are evaluated from at read-out: the TSC ticks of every pair
 * (tsc_ring, 8 bytes a pair: all a TSC-only session writes) and, where
 * pairs are counted, each pair's counts (cnt_ring: the read set's ncounts
 * counts and their err, t->stride doubles a pair: 80 bytes for
 * PERF_METRICS's nine) and whether it is a number (valid_ring, a byte).
 * The same counts give the same shares at read-out as at the pair's end:
 * counts_to_tma is a function of them alone.  The pair's end decides
 * whether the pair is a number (its sums need that) by tma_quick_valid
 * where the recipe allows (bench/tma.h), by counts_to_tma otherwise.
 */
struct region {
	char name[REGION_NAME_MAX];
	bool open;                     /* begun, not yet ended */
	struct reading start;          /* the reading at begin */
	struct counts open_sum;        /* metrics-clear regions: the segments counted
					* since begin (zeroed by region_open) */
	uint64_t misuse;               /* begin of an open name, end of a closed one */
	struct region_acc pend;        /* pairs of the current epoch, not yet verified */
	struct region_acc tot;         /* verified pairs */
	struct region_pair last;       /* the last pair ended (region_end) */
	double *tsc_ring;              /* REGION_SAMPLES pairs' TSC ticks, the last
					* at (nsamples - 1) % REGION_SAMPLES; NULL:
					* no statistics kept (the table has no store) */
	double *cnt_ring;              /* their counts, t->stride doubles each, at the
					* same places (written only when the pairs are
					* counted); NULL when the store has none */
	uint8_t *valid_ring;           /* 1: that pair is a number (its counts kept) */
	uint64_t nsamples;             /* pairs ever put in the rings */
};

/*
 * An epoch runs from the begin that opens the first region to the end that
 * closes the last one.  The session resets the counters before an epoch
 * (outside every region) and checks them after it (tamper, overflow); a
 * check between nested regions would run inside the enclosing one.  So
 * pairs ended inside an epoch wait in their region's pend bucket, and
 * region_epoch_end() moves them to tot, or counts them invalid.
 */
struct region_table {
	const struct read_set *rs;     /* what the readings hold and count (the
					* session's: session_read_set); NULL: TSC only */
	struct region r[REGION_MAX];
	unsigned n;                    /* names in use */
	unsigned depth;                /* regions open now */
	struct region *open_list[REGION_MAX]; /* those regions, in the order begun */
	struct region *pending;        /* metrics-clear: the region whose start reading
					* closed a segment not counted yet; NULL: none */
	uint64_t lost;                 /* begins refused: table full or name too long */
	uint64_t unmatched;            /* ends of a name never begun (no row made) */
	double *tsc_store;             /* REGION_MAX x REGION_SAMPLES, the TSC rings
					* (region_store_new); NULL: totals only */
	double *cnt_store;             /* the same x stride, the count rings; NULL:
					* TSC only */
	uint8_t *valid_store;          /* the same, a byte a pair */
	unsigned stride;               /* doubles a pair's counts take in cnt_store:
					* rs->ncounts + 1 (err) when the store was made */
	struct tma_quick quick;        /* whether a pair is a number, decided at its
					* end without the formulas (bench/tma.h) */
};

/* What the session found after an epoch, outside every region. */
struct region_verdict {
	bool tampered;                 /* someone else changed the counters */
	bool overflow;                 /* GLOBAL_STATUS bit 35/48, or unreadable */
};

/*
 * region_store_new - give @t the store of its regions' statistics, for
 * its read set t->rs (set it first): REGION_MAX rings of REGION_SAMPLES
 * pairs, 8 + 8 x (ncounts + 1) + 1 bytes a pair (89 KiB a region for
 * PERF_METRICS, 8 KiB TSC only), allocated now so that begin and end never
 * allocate; its pages are touched only as pairs fill them.  A region
 * keeps its last REGION_SAMPLES pairs: an older one is overwritten (it
 * stays in the totals).  region_store_free - free it.
 * Returns 0 or -ENOMEM.
 */
int region_store_new(struct region_table *t);
void region_store_free(struct region_table *t);

/*
 * region_prepare - what @t's pairs at @level need before the first one
 * ends, done now (set t->rs first): the recipe's formulas cut into tokens
 * (msr/recipe/recipe.h recipe_prepare: its one allocation) and the test
 * that decides a pair is a number without them (bench/tma.h
 * tma_quick_init, which evaluates them once).  A table not prepared does
 * both at its first counted pair's end.
 */
void region_prepare(struct region_table *t, int level);

/*
 * region_find - the region named @name, or NULL.  region_add - the same,
 * made when missing; NULL when the table is full or @name is empty or
 * longer than REGION_NAME_MAX - 1 bytes (counted in t->lost).
 */
struct region *region_find(struct region_table *t, const char *name);
struct region *region_add(struct region_table *t, const char *name);

/*
 * region_open - mark @r open (depth + 1) and return where its first
 * reading goes (&r->start), for the caller to read the counters straight
 * into it, last: nothing of the table's work then falls inside the region.
 * NULL when @r is already open (counted as misuse).  region_unopen undoes
 * it when the reading could not be taken.  In metrics-clear mode it first
 * counts the segment the table's last begin reading closed (the header).
 */
struct reading *region_open(struct region_table *t, struct region *r);
void region_unopen(struct region_table *t, struct region *r);

/*
 * region_begin - @r starts at @a (region_open, then a copy of @a).
 * Returns 0, or -EALREADY when @r is open (counted as misuse; the first
 * begin stays).
 */
int region_begin(struct region_table *t, struct region *r, const struct reading *a);

/*
 * region_end - @r ends at @b: count the pair (t->rs: reading_counts) at
 * @level (0: TSC only) into @r->last, @r's rings and @r's pend bucket (a
 * pair whose flags make it no number, counts_to_tma's, is counted invalid
 * there: slots back, zero slots, level-1 sum).  No formula of the recipe
 * is evaluated for a pair tma_quick_valid finds a number (bench/tma.h),
 * nothing is allocated.  Returns 0, or
 * -ENOENT when @r is not open (counted as misuse).  When the table's depth
 * is 0 afterwards, the caller checks the counters and calls
 * region_epoch_end().  In metrics-clear mode the pair is the sum of the
 * segments since @r's begin, @b's the last (the header); @b's segment goes
 * to the other open regions too, also when @r is not open.
 */
int region_end(struct region_table *t, struct region *r, const struct reading *b,
	       int level);

/*
 * region_last_decode - @r's last pair decoded at @level (counts_to_tma of
 * t->rs on r->last.c): its slots into *@slots and its TD_FLAG_* into
 * *@flags (TD_FLAG_ZERO_SLOTS when the read set lacks the recipe's events;
 * both 0 at level 0 or without counts).
 */
void region_last_decode(const struct region_table *t, const struct region *r, int level,
			double *slots, unsigned *flags);

/*
 * region_reading - a reading @b of the counters that is no region's (an
 * end whose name the table could not hold): in metrics-clear mode it still
 * cleared the counters, so its segment goes to the regions open across it.
 * Nothing otherwise.
 */
void region_reading(struct region_table *t, const struct reading *b);

/*
 * region_epoch_end - after the epoch's last end: every region's pend
 * bucket goes to tot as it is when @v is clean; otherwise its pairs are
 * all invalid, counted as tampered (first) or overflow, their TSC ticks
 * kept (the TSC is no PMU counter).
 */
void region_epoch_end(struct region_table *t, const struct region_verdict *v);

/*
 * region_result - @r's verified totals (tot) as the public result: the
 * fractions of @t's read set's recipe on the summed counts (bench/tma.h),
 * in percent, the bound in percentage points, flags; level-2 entries only
 * at @level 2.  With no valid pair (or @level 0), slots and tma[] are 0
 * and level is 0: res->invalid and res->invalid_why say why.
 */
void region_result(const struct region_table *t, const struct region *r, int level,
		   struct baretma_result *res);

/*
 * region_decode_pair - one pair of baretma_read's readings (TOPDOWN.SLOTS
 * and PERF_METRICS: read_set_perf_metrics) as a result (baretma_decode):
 * count 1, invalid 1 when its flags make it no number.  Returns 0 or
 * -EINVAL.
 */
/*
 * region_stats - @r's statistics as the public result (include/baretma.h
 * baretma_region_stats): its totals (region_result), the robust
 * statistics (bench/stats.h bench_stats_compute, as `baretma bench`) of
 * the verified pairs kept in its ring - TSC ticks over every pair, slots
 * and each tma_* share over the valid ones, each valid pair's counts
 * evaluated now at @level (counts_to_tma: one evaluation of the recipe a
 * pair) -, the slots of each node and of the bound over the totals, and
 * its last pair.  Statistics of nothing are n 0 and NAN.  Returns 0, or
 * -ENOMEM.
 */
int region_stats(const struct region_table *t, const struct region *r, int level,
		 struct baretma_region_stats *st);

/*
 * region_combine - the verified totals (tot) of the regions named @name
 * in the @n tables @ts (sessions of other threads: the markers' combined
 * row) summed into @out (zeroed first; no ring: totals only), for
 * region_result on @ts[0].  Tables whose read set is not @ts[0]'s kind
 * (another recipe or other events: a hybrid part's other core kind) are
 * left out and counted in *skipped.  Returns how many tables were summed.
 */
unsigned region_combine(const struct region_table *const *ts, unsigned n, const char *name,
			struct region *out, unsigned *skipped);

int region_decode_pair(const struct baretma_reading *a, const struct baretma_reading *b,
		       int level, struct baretma_result *res);

#endif
