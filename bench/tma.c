/*
 * bench/tma.c - counts -> tma_* fractions (bench/tma.h): the PERF_METRICS
 * recipe's formulas, until msr/recipe.h's recipe_eval takes their place.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "bench/tma.h"

/* The bound of a fraction of @c (bench/tma.h), @den the divisor used. */
static double bound_of(const struct read_set *rs, const struct counts *c, double slots,
		       double den)
{
	if (rs->bound == READ_BOUND_PERF_METRICS)
		return slots > 0 ? c->err / slots : 0;
	if (rs->bound == READ_BOUND_PERF_COUNTS)
		return den > 0 ? (c->err + fabs(den - slots)) / den : 0;
	return 0;
}

int counts_to_tma(const struct read_set *rs, const struct counts *c, int level,
		  struct td_result *out)
{
	double fs[TD_NFIELDS], slots, den = 0;
	int k;

	if (!rs || !c || !out || (level != 1 && level != 2))
		return -EINVAL;
	if ((k = read_set_count_index(rs, read_td_events[0])) < 0)
		return -ENOENT;
	slots = c->c[k];
	for (unsigned f = 0; f < TD_NFIELDS; f++) {
		k = read_set_count_index(rs, read_td_events[1 + f]);
		if (k < 0 && f < TMA_NLEVEL1)
			return -ENOENT;
		fs[f] = k < 0 ? 0 : c->c[k];
		den += f < TMA_NLEVEL1 ? fs[f] : 0;
	}
	if (rs->bound == READ_BOUND_PERF_METRICS || !(slots > 0))
		den = slots;
	memset(out, 0, sizeof(*out));
	out->flags = c->flags & ~(TD_FLAG_ZERO_SLOTS | TD_FLAG_NEGATIVE | TD_FLAG_L2_ABOVE);
	td_from_field_slots(fs, den, rs->bound != READ_BOUND_EXACT ? c->err : 0, level, out);
	out->slots = slots;
	out->bound = bound_of(rs, c, slots, den);
	return 0;
}
