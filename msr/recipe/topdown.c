/*
 * msr/recipe/topdown.c - IA32_PERF_METRICS decoding (pure).  Facts and formulas:
 * see msr/recipe/topdown.h (linux arch/x86/include/asm/perf_event.h INTEL_PMC_IDX_TD_*,
 * arch/x86/events/intel/core.c icl_get_metrics_event_value,
 * tools/perf/Documentation/topdown.txt).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "msr/regs/intel_regs.h"
#include "msr/recipe/topdown.h"

static const char *const metric_names[TMA_NMETRICS] = {
	[TMA_RETIRING] = "tma_retiring",
	[TMA_BAD_SPECULATION] = "tma_bad_speculation",
	[TMA_FRONTEND_BOUND] = "tma_frontend_bound",
	[TMA_BACKEND_BOUND] = "tma_backend_bound",
	[TMA_HEAVY_OPERATIONS] = "tma_heavy_operations",
	[TMA_LIGHT_OPERATIONS] = "tma_light_operations",
	[TMA_BRANCH_MISPREDICTS] = "tma_branch_mispredicts",
	[TMA_MACHINE_CLEARS] = "tma_machine_clears",
	[TMA_FETCH_LATENCY] = "tma_fetch_latency",
	[TMA_FETCH_BANDWIDTH] = "tma_fetch_bandwidth",
	[TMA_MEMORY_BOUND] = "tma_memory_bound",
	[TMA_CORE_BOUND] = "tma_core_bound",
};

/*
 * Level-2 structure: for each level-1 field, its measured level-2 child
 * (field) and the two reported level-2 metrics (measured, derived = parent -
 * measured).  Source: intel/perfmon TMA_Metrics-full.csv.
 */
static const struct {
	enum td_field parent, child;
	enum td_metric measured, derived;
} l2_tree[TMA_NLEVEL1] = {
	{ TD_RETIRING, TD_HEAVY_OPS, TMA_HEAVY_OPERATIONS, TMA_LIGHT_OPERATIONS },
	{ TD_BAD_SPEC, TD_BR_MISPREDICT, TMA_BRANCH_MISPREDICTS, TMA_MACHINE_CLEARS },
	{ TD_FE_BOUND, TD_FETCH_LAT, TMA_FETCH_LATENCY, TMA_FETCH_BANDWIDTH },
	{ TD_BE_BOUND, TD_MEM_BOUND, TMA_MEMORY_BOUND, TMA_CORE_BOUND },
};

const char *td_metric_name(enum td_metric m)
{
	return (unsigned)m < TMA_NMETRICS ? metric_names[m] : "tma_unknown";
}

int td_metric_level(enum td_metric m)
{
	return m < TMA_NLEVEL1 ? 1 : 2;
}

enum td_metric td_metric_parent(enum td_metric m)
{
	if (m < TMA_NLEVEL1)
		return m;
	for (unsigned i = 0; i < TMA_NLEVEL1; i++)
		if (l2_tree[i].measured == m || l2_tree[i].derived == m)
			return (enum td_metric)l2_tree[i].parent;
	return m;
}

void td_fields(uint64_t perf_metrics, uint8_t field[TD_NFIELDS])
{
	for (unsigned i = 0; i < TD_NFIELDS; i++)
		field[i] = (uint8_t)(perf_metrics >> (i * PERF_METRICS_FIELD_BITS));
}

unsigned td_l1_sum(uint64_t perf_metrics)
{
	uint8_t f[TD_NFIELDS];
	unsigned sum = 0;

	td_fields(perf_metrics, f);
	for (unsigned i = 0; i < TMA_NLEVEL1; i++)
		sum += f[i];
	return sum;
}

double td_value_bound(unsigned l1_sum)
{
	unsigned off;

	if (!l1_sum)
		return 1.0;
	off = l1_sum > PERF_METRICS_FIELD_MAX ? l1_sum - PERF_METRICS_FIELD_MAX
					      : PERF_METRICS_FIELD_MAX - l1_sum;
	return (1.0 + off) / PERF_METRICS_FIELD_MAX;
}

double td_field_slots(uint64_t slots, uint8_t field, unsigned l1_sum)
{
	if (!l1_sum)
		return 0;
	/* long double keeps 64-bit slot counts exact before the division */
	return (double)((long double)slots * field / l1_sum);
}

static const struct { unsigned bit; const char *name, *text; } flag_table[] = {
	{ TD_FLAG_L1_SUM, "l1_sum", "level-1 fields do not sum to 255 (+/-3, the rounding)" },
	{ TD_FLAG_L2_ABOVE, "l2_above_parent", "a level-2 field exceeds its level-1 parent" },
	{ TD_FLAG_ZERO_SLOTS, "zero_slots", "zero slots in the region" },
	{ TD_FLAG_NEGATIVE, "negative", "a field's slot delta is negative" },
	{ TD_FLAG_SLOTS_BACK, "slots_back", "slots went backwards (reset or wrap inside the region)" },
	{ TD_FLAG_NORMALISED, "normalised", "level-1 sum not 255 (within the rounding): "
	  "normalised by the sum" },
};

const char *td_flag_name(unsigned flag)
{
	for (unsigned i = 0; i < sizeof(flag_table) / sizeof(flag_table[0]); i++)
		if (flag_table[i].bit == flag)
			return flag_table[i].name;
	return NULL;
}

char *td_flag_text(unsigned flags, char *buf, unsigned n)
{
	size_t used = 0;

	if (n)
		buf[0] = '\0';
	for (unsigned i = 0; i < sizeof(flag_table) / sizeof(flag_table[0]) && n; i++) {
		if (!(flags & flag_table[i].bit))
			continue;
		int w = snprintf(buf + used, n - used, "%s%s", used ? "; " : "",
				 flag_table[i].text);
		if (w < 0 || (size_t)w >= n - used)
			break;
		used += (size_t)w;
	}
	return buf;
}

int td_from_field_slots(const double fs[TD_NFIELDS], double slots, double err_slots,
			int level, struct td_result *out)
{
	/* both the child and its parent may be off by err_slots */
	double l2_slack = 2 * err_slots > 0.5 ? 2 * err_slots : 0.5;

	if (level != 1 && level != 2)
		return -EINVAL;
	memset(out->frac, 0, sizeof(out->frac));
	out->level = level;
	out->slots = slots;
	out->err_slots = err_slots;
	out->bound = slots > 0 ? err_slots / slots : 0;
	memcpy(out->field_slots, fs, sizeof(out->field_slots));
	out->flags &= ~(TD_FLAG_ZERO_SLOTS | TD_FLAG_NEGATIVE | TD_FLAG_L2_ABOVE);

	unsigned nf = level == 2 ? TD_NFIELDS : TMA_NLEVEL1;
	for (unsigned i = 0; i < nf; i++)
		if (fs[i] < -err_slots)
			out->flags |= TD_FLAG_NEGATIVE;
	if (!(slots > 0)) {
		out->flags |= TD_FLAG_ZERO_SLOTS;
		return 0;
	}
	for (unsigned i = 0; i < TMA_NLEVEL1; i++)
		out->frac[i] = fs[i] / slots;
	if (level == 1)
		return 0;
	for (unsigned i = 0; i < TMA_NLEVEL1; i++) {
		double parent = fs[l2_tree[i].parent], child = fs[l2_tree[i].child];

		if (child > parent + l2_slack)
			out->flags |= TD_FLAG_L2_ABOVE;
		out->frac[l2_tree[i].measured] = child / slots;
		out->frac[l2_tree[i].derived] = (parent - child) / slots;
	}
	return 0;
}

/* Structural checks of one raw value: level-1 sum, level-2 <= parent. */
static unsigned value_flags(const uint8_t f[TD_NFIELDS], int level)
{
	unsigned flags = 0, sum = 0;

	for (unsigned i = 0; i < TMA_NLEVEL1; i++)
		sum += f[i];
	/* topdown.txt: "All four fields add up to 0xff (= 100%)", up to the
	 * rounding (TD_L1_SUM_TOLERANCE, derived in topdown.h) */
	if (sum + TD_L1_SUM_TOLERANCE < PERF_METRICS_FIELD_MAX ||
	    sum > PERF_METRICS_FIELD_MAX + TD_L1_SUM_TOLERANCE)
		flags |= TD_FLAG_L1_SUM;
	else if (sum != PERF_METRICS_FIELD_MAX)
		flags |= TD_FLAG_NORMALISED;
	if (level == 2)
		for (unsigned i = 0; i < TMA_NLEVEL1; i++)
			if (f[l2_tree[i].child] > f[l2_tree[i].parent] + TD_L2_ABOVE_TOLERANCE)
				flags |= TD_FLAG_L2_ABOVE;
	return flags;
}

int td_decode_value(uint64_t perf_metrics, uint64_t slots, int level, struct td_result *out)
{
	uint8_t f[TD_NFIELDS];
	double fs[TD_NFIELDS];
	unsigned sum = td_l1_sum(perf_metrics);

	if (level != 1 && level != 2)
		return -EINVAL;
	td_fields(perf_metrics, f);
	memset(out, 0, sizeof(*out));
	/* Fractions of a single value come from the bytes: each field's share
	 * of the level-1 sum S (normalisation, topdown.h); then the reported
	 * slots are rescaled to the real count. */
	for (unsigned i = 0; i < TD_NFIELDS; i++)
		fs[i] = f[i];
	td_from_field_slots(fs, sum, 0, level, out);
	out->flags = value_flags(f, level);
	out->slots = (double)slots;
	out->err_slots = 0;
	for (unsigned i = 0; i < TD_NFIELDS; i++)
		out->field_slots[i] = td_field_slots(slots, f[i], sum);
	out->bound = td_value_bound(sum);
	return 0;
}

/*
 * td_field_slots, where the caller has the level-1 sum (1..1020) at hand,
 * to the bit and mostly without the x87 unit.  Where the product P =
 * slots x field is below 2^53 a double holds it exactly, and its division
 * gives RN53(P / S), the quotient rounded to the nearest double.  The long
 * double's gives RN53(RN64(P / S)): the same unless RN64 lands on a
 * midpoint m between two doubles that P / S is not.  Near x = P / S <
 * 2^53, in [2^k, 2^(k+1)), the midpoints are M 2^(k-53), M odd, so
 * |P / S - m| = |P 2^(53-k) - S M| 2^(k-53) / S >= 2^(k-53) / S (an
 * integer not 0 over S), more than half the long double's ulp 2^(k-63)
 * while S < 2^10: RN64 never lands on it.  Larger products (slots past
 * 2^45 at field 255) take the long double.
 */
static inline double field_slots(uint64_t slots, uint8_t field, unsigned l1_sum)
{
	uint64_t p = slots * field;

	if (slots < (1ull << 56) && p < (1ull << 53))
		return (double)p / l1_sum;
	return (double)((long double)slots * field / l1_sum);
}

/* The pair step of td_decode_region: field slots, their error, and the
 * flags the two readings decide (structural checks at @level).  Run at
 * every region pair's end (bench/region.c), so each value is split once;
 * a reading of 0 slots (metrics-clear's a, a reset) attributes 0 slots to
 * every field, and x - 0 is x to the bit, so its side is left out. */
static unsigned pair_slots(uint64_t slots_a, uint64_t metrics_a, uint64_t slots_b,
			   uint64_t metrics_b, int level, double fs[TD_NFIELDS], double *err)
{
	uint8_t fa[TD_NFIELDS], fb[TD_NFIELDS];
	unsigned sa = 0, sb = 0, flags;

	td_fields(metrics_a, fa);
	td_fields(metrics_b, fb);
	for (unsigned i = 0; i < TMA_NLEVEL1; i++) {
		sa += fa[i];
		sb += fb[i];
	}
	/* An all-zero value is the reset state, not a bad sum: at the start
	 * always (its slots, if any, are in the bound), at the end when no
	 * slot was counted either (then TD_FLAG_ZERO_SLOTS says it). */
	flags = metrics_b || slots_b ? value_flags(fb, level) : 0;
	if (metrics_a)
		flags |= value_flags(fa, level);
	if (slots_b < slots_a)
		flags |= TD_FLAG_SLOTS_BACK;
	for (unsigned i = 0; i < TD_NFIELDS; i++) {
		double b = sb ? field_slots(slots_b, fb[i], sb) : 0;

		fs[i] = slots_a && sa ? b - field_slots(slots_a, fa[i], sa) : b;
	}
	/* each reading's field slots are exact to slots * td_value_bound(S) */
	*err = (double)slots_b * td_value_bound(sb) +
	       (slots_a ? (double)slots_a * td_value_bound(sa) : 0);
	return flags;
}

unsigned td_pair_slots(uint64_t slots_a, uint64_t metrics_a, uint64_t slots_b,
		       uint64_t metrics_b, double fs[TD_NFIELDS], double *err_slots)
{
	/* level 1: the level-2 bytes against their parents are the counts'
	 * business (td_from_field_slots), not the readings' */
	return pair_slots(slots_a, metrics_a, slots_b, metrics_b, 1, fs, err_slots);
}

int td_decode_region(uint64_t slots_a, uint64_t metrics_a, uint64_t slots_b,
		     uint64_t metrics_b, int level, struct td_result *out)
{
	double fs[TD_NFIELDS], err;
	unsigned flags;

	if (level != 1 && level != 2)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	flags = pair_slots(slots_a, metrics_a, slots_b, metrics_b, level, fs, &err);
	td_from_field_slots(fs, (double)slots_b - (double)slots_a, err, level, out);
	out->flags |= flags;
	return 0;
}
