/*
 * bench/tma.h - from counts to tma_* fractions: the one place where the
 * harness applies a recipe's formulas (bench/source/reading.h: counts).
 *
 * For now one recipe, PERF_METRICS's (intel-perf-metrics), written out
 * here; to be replaced by recipe_eval of msr/recipe.h on the recipe
 * "intel-perf-metrics", with the other recipes' (pre-Ice Lake, E-cores,
 * AMD) beside it.
 */
#ifndef BARETMA_TMA_H
#define BARETMA_TMA_H

#include "bench/source/reading.h"
#include "msr/topdown.h"

/*
 * counts_to_tma - the tma_* fractions of @c, counts of @rs's events (one
 * pair's, a region's sum, or with the empty bracket's subtracted), at
 * @level (1 or 2), into @out.
 * Formulas: perf's metrics for the cores with PERF_METRICS (linux
 * tools/perf/pmu-events/arch/x86/sapphirerapids/spr-metrics.json and its
 * siblings: tma_retiring = topdown-retiring / (topdown-fe-bound +
 * topdown-bad-spec + topdown-retiring + topdown-be-bound)): each level-1
 * node and each measured level-2 node (tma_heavy_operations,
 * tma_branch_mispredicts, tma_fetch_latency, tma_memory_bound) is its
 * topdown-* count over the sum of the four level-1 counts; each derived
 * level-2 node is its parent less its measured child (msr/topdown.h).  PERF_METRICS's counts
 * are normalised per reading (msr/topdown.h), so their level-1 sum is
 * their TOPDOWN.SLOTS count, by which they are divided as before; perf's
 * exact counts are divided by their sum.
 * Bound, per recipe (@rs->bound): PERF_METRICS: c->err / TOPDOWN.SLOTS
 * (the 8-bit quantisation, msr/topdown.h); perf's counts
 * (READ_BOUND_PERF_COUNTS): each member count c_i = T x_i + e_i with
 * |e_i| <= c->err, T the TOPDOWN.SLOTS count, and their level-1 sum C =
 * T + (the e_i's sum), known, so c_i / C - x_i = (e_i - x_i (C - T)) / C:
 * at most (c->err + |C - T|) / C; exact counts: 0.
 * Flags: @c's (what the readings decided), and what the counts decide,
 * as td_from_field_slots: TD_FLAG_ZERO_SLOTS (TOPDOWN.SLOTS or the
 * level-1 sum not above 0; then every fraction is 0), TD_FLAG_NEGATIVE,
 * TD_FLAG_L2_ABOVE.  out->slots is the TOPDOWN.SLOTS count,
 * out->field_slots the eight topdown-* counts (0 where @rs has none).
 * Returns 0; -EINVAL (level, NULL); -ENOENT (@rs counts no TOPDOWN.SLOTS
 * or not the four level-1 topdown-* events).
 */
int counts_to_tma(const struct read_set *rs, const struct counts *c, int level,
		  struct td_result *out);

#endif
