/*
 * bench/tma.h - from counts to tma_* fractions: the one place where the
 * harness applies a recipe's formulas (bench/source/reading.h: counts;
 * msr/recipe/recipe.h: the recipes and recipe_eval).
 *
 * The recipe is the read set's (rs->recipe): intel-perf-metrics for
 * IA32_PERF_METRICS and perf's topdown-* group (whose counts are the
 * topdown-* slot counts), an event recipe (intel-pre-icl-l1,
 * intel-ecore-l1, amd-zen4, amd-zen5) for the general-purpose counters.
 */
#ifndef BARETMA_TMA_H
#define BARETMA_TMA_H

#include <float.h>
#include <stdbool.h>

#include "bench/source/reading.h"
#include "msr/recipe/recipe.h"
#include "msr/recipe/topdown.h"

/* Nodes a recipe reports outside the twelve tma_* (AMD's smt_contention,
 * the E-core's tma_resource_bound): msr/recipe/recipe.h struct recipe_extra. */
struct tma_extra {
	unsigned n;
	struct recipe_extra x[RECIPE_EXTRA_MAX];
};

/* tma_recipe - the recipe of @rs: rs->recipe, or intel-perf-metrics
 * (its variant with level 2) when NULL. */
const struct recipe *tma_recipe(const struct read_set *rs);

/* tma_is_metrics - @r is intel-perf-metrics: its counts are the topdown-*
 * slot counts, bounded by PERF_METRICS's 8-bit fields. */
bool tma_is_metrics(const struct recipe *r);

/*
 * tma_slots - the "SLOTS" node of @rs's recipe on @c (every pass carries
 * the events it needs: its base), into *@slots.  0, or -ENOENT (an event
 * it needs is not counted by @rs).
 */
int tma_slots(const struct read_set *rs, const struct counts *c, double *slots);

/*
 * counts_to_tma - the tma_* fractions of @c, counts of @rs's events (one
 * pair's, a region's sum, or with the empty bracket's subtracted), at
 * @level (1 or 2), into @out: recipe_eval of @rs's recipe on them
 * (msr/recipe/recipe.h), the counts looked up by event name.
 *   intel-perf-metrics: each node is its topdown-* count over the sum of
 *   the four level-1 counts, a derived level-2 node its parent less its
 *   measured child (perf's metrics, linux tools/perf/pmu-events/arch/x86/
 *   sapphirerapids/spr-metrics.json).  Bound: c->err / TOPDOWN.SLOTS for
 *   PERF_METRICS (the 8-bit quantisation, msr/recipe/topdown.h); for perf's counts
 *   (READ_BOUND_PERF_COUNTS) each member count c_i = T x_i + e_i with
 *   |e_i| <= c->err (the kernel's floor(slots x field / 0xff) per read:
 *   linux arch/x86/events/intel/core.c icl_get_metrics_event_value), T the
 *   TOPDOWN.SLOTS count, and their level-1 sum C = T + (the e_i's sum),
 *   known, so c_i / C - x_i = (e_i - x_i (C - T)) / C: at most
 *   (c->err + |C - T|) / C; the flags as td_from_field_slots gives them on the
 *   topdown-* counts; out->field_slots the eight counts.
 *   An event recipe: out->bound 0 (exact counts: what bounds them is the
 *   recipe's ->bound text); TD_FLAG_NEGATIVE when a reported node is below
 *   0, TD_FLAG_L2_ABOVE when a level-2 node exceeds its parent by more
 *   than half a slot; out->field_slots each field's node times SLOTS.
 * Every recipe: TD_FLAG_ZERO_SLOTS when SLOTS is not above 0 or a level-1
 * node cannot be computed (a division by zero: nothing counted), every
 * fraction 0 then; a node the recipe lacks is NAN (the E-core's
 * tma_heavy_operations); out->slots the SLOTS node.  Flags of @c (what the
 * readings decided) are kept.
 * A read set of one pass of several (rs->npasses > 1) has no fractions:
 * out->slots and TD_FLAG_ZERO_SLOTS only, from the pass's base; the
 * harness combines the passes (bench/measure_int.h) first.
 * Returns 0; -EINVAL (level, NULL); -ENOENT (@rs lacks an event the
 * formulas need).
 */
int counts_to_tma(const struct read_set *rs, const struct counts *c, int level,
		  struct td_result *out);

/* counts_to_tma_extra - counts_to_tma, and the recipe's nodes outside the
 * twelve into @x (may be NULL; n 0 when none). */
int counts_to_tma_extra(const struct read_set *rs, const struct counts *c, int level,
			struct td_result *out, struct tma_extra *x);

/*
 * Whether a pair's counts are a number (no TD_FLAGS_INVALID from
 * counts_to_tma), decided without the recipe's formulas where they allow
 * it: the region table's test at every pair's end (bench/region.h), which
 * leaves the formulas to the read-out.  It holds for the recipe that reads
 * PERF_METRICS alone, intel-perf-metrics with the formulas of linux
 * tools/perf/pmu-events/arch/x86/sapphirerapids/spr-metrics.json (SLOTS =
 * TOPDOWN.SLOTS; each level-1 node its topdown-* count over
 * PERF_METRICS_SUM, the sum of the four): there counts_to_tma finds finite
 * counts a number exactly when the readings' flags have neither
 * TD_FLAG_L1_SUM nor TD_FLAG_SLOTS_BACK, TOPDOWN.SLOTS is above 0 (the
 * recipe's -EDOM otherwise) and PERF_METRICS_SUM is not 0 (a level-1 node
 * NAN otherwise) - above 0 for perf's counts, whose flags divide by it
 * (bench/tma.c metrics_flags).  tma_quick_valid asks the sum to be above
 * 1e-12 of the sum of the four's magnitudes, so that it is above 0 in any
 * order of the additions (each order's rounding is within 3 x 2^-53 of
 * that sum of magnitudes).  Other recipes (the events' ones, Sunny Cove's
 * with its general-purpose events) are never decided here.
 */
struct tma_quick {
	const struct read_set *rs;  /* the set it was made for (NULL: none yet) */
	int level;                  /* and the level */
	bool on;                    /* tma_quick_valid may say yes */
	int slots;                  /* index of TOPDOWN.SLOTS in the counts */
	int l1[TMA_NLEVEL1];        /* of the four level-1 topdown-* counts */
};

/*
 * tma_quick_init - @q for the counts of @rs at @level (1 or 2): on when
 * @rs's recipe is intel-perf-metrics with exactly the formulas above, @rs
 * counts every event its nodes up to @level need, in one pass, and
 * counts_to_tma finds a pair of 255 slots (the four counts 102, 51, 51,
 * 51) a number.  Off otherwise (then tma_quick_valid always says "do not
 * know").
 */
void tma_quick_init(struct tma_quick *q, const struct read_set *rs, int level);

/* tma_quick_valid - true: counts_to_tma(q->rs, @c, q->level) finds @c a
 * number (no TD_FLAGS_INVALID); false: it may not (evaluate it). */
static inline bool tma_quick_valid(const struct tma_quick *q, const struct counts *c)
{
	double sum = 0, mag = 0;

	if (!q->on || (c->flags & (TD_FLAG_L1_SUM | TD_FLAG_SLOTS_BACK)) ||
	    !(c->c[q->slots] > 0))
		return false;
	for (unsigned i = 0; i < TMA_NLEVEL1; i++) {
		double v = c->c[q->l1[i]];

		sum += v;
		mag += v < 0 ? -v : v;
	}
	/* mag <= DBL_MAX: every count finite, so no node is NAN */
	return mag <= DBL_MAX && sum > 1e-12 * mag;
}

#endif
