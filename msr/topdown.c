/*
 * msr/topdown.c - IA32_PERF_METRICS decoding (pure).  Facts and formulas:
 * see msr/topdown.h (pmu-reference §1.5, §3.2, §3.3; linux
 * tools/perf/Documentation/topdown.txt).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "msr/intel_regs.h"
#include "msr/topdown.h"

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
 * measured).  Source: TMA_Metrics-full.csv via pmu-reference §1.5.
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

double td_field_slots(uint64_t slots, uint8_t field)
{
	/* long double keeps 64-bit slot counts exact before the division */
	return (double)((long double)slots * field / PERF_METRICS_FIELD_MAX);
}

char *td_flag_text(unsigned flags, char *buf, unsigned n)
{
	static const struct { unsigned bit; const char *text; } t[] = {
		{ TD_FLAG_L1_SUM, "level-1 fields do not sum to 255 (+/-1)" },
		{ TD_FLAG_L2_ABOVE, "a level-2 field exceeds its level-1 parent" },
		{ TD_FLAG_ZERO_SLOTS, "zero slots in the region" },
		{ TD_FLAG_NEGATIVE, "a field's slot delta is negative" },
		{ TD_FLAG_SLOTS_BACK, "slots went backwards (reset or wrap inside the region)" },
	};
	size_t used = 0;

	if (n)
		buf[0] = '\0';
	for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]) && n; i++) {
		if (!(flags & t[i].bit))
			continue;
		int w = snprintf(buf + used, n - used, "%s%s", used ? "; " : "", t[i].text);
		if (w < 0 || (size_t)w >= n - used)
			break;
		used += (size_t)w;
	}
	return buf;
}

int td_from_field_slots(const double fs[TD_NFIELDS], double slots, int level,
			struct td_result *out)
{
	if (level != 1 && level != 2)
		return -EINVAL;
	memset(out->frac, 0, sizeof(out->frac));
	out->level = level;
	out->slots = slots;
	memcpy(out->field_slots, fs, sizeof(out->field_slots));
	out->flags &= ~(TD_FLAG_ZERO_SLOTS | TD_FLAG_NEGATIVE | TD_FLAG_L2_ABOVE);

	unsigned nf = level == 2 ? TD_NFIELDS : TMA_NLEVEL1;
	for (unsigned i = 0; i < nf; i++)
		if (fs[i] < 0)
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
		/* half a slot of slack: real-valued field slots carry no rounding */
		if (child > parent + 0.5)
			out->flags |= TD_FLAG_L2_ABOVE;
		out->frac[l2_tree[i].measured] = child / slots;
		out->frac[l2_tree[i].derived] = (parent - child) / slots;
	}
	return 0;
}

/* Structural checks of one raw value: level-1 sum and level-2 <= parent. */
static unsigned value_flags(const uint8_t f[TD_NFIELDS], int level)
{
	unsigned flags = 0, sum = 0;

	for (unsigned i = 0; i < TMA_NLEVEL1; i++)
		sum += f[i];
	/* topdown.txt: "All four fields add up to 0xff (= 100%)"; +/-1 for rounding */
	if (sum + 1 < PERF_METRICS_FIELD_MAX || sum > PERF_METRICS_FIELD_MAX + 1)
		flags |= TD_FLAG_L1_SUM;
	if (level == 2)
		for (unsigned i = 0; i < TMA_NLEVEL1; i++)
			if (f[l2_tree[i].child] > f[l2_tree[i].parent])
				flags |= TD_FLAG_L2_ABOVE;
	return flags;
}

int td_decode_value(uint64_t perf_metrics, uint64_t slots, int level, struct td_result *out)
{
	uint8_t f[TD_NFIELDS];
	double fs[TD_NFIELDS];

	if (level != 1 && level != 2)
		return -EINVAL;
	td_fields(perf_metrics, f);
	memset(out, 0, sizeof(*out));
	/* Fractions of a single value come from the bytes: use 255 "slots" per
	 * field unit, then rescale the reported slots to the real count. */
	for (unsigned i = 0; i < TD_NFIELDS; i++)
		fs[i] = f[i];
	td_from_field_slots(fs, PERF_METRICS_FIELD_MAX, level, out);
	out->flags = value_flags(f, level);
	out->slots = (double)slots;
	for (unsigned i = 0; i < TD_NFIELDS; i++)
		out->field_slots[i] = slots ? td_field_slots(slots, f[i]) : 0;
	out->bound = 1.0 / PERF_METRICS_FIELD_MAX;
	return 0;
}

int td_decode_region(uint64_t slots_a, uint64_t metrics_a, uint64_t slots_b,
		     uint64_t metrics_b, int level, struct td_result *out)
{
	uint8_t fa[TD_NFIELDS], fb[TD_NFIELDS];
	double fs[TD_NFIELDS];
	unsigned flags;

	if (level != 1 && level != 2)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	td_fields(metrics_a, fa);
	td_fields(metrics_b, fb);
	/* An all-zero value is the reset state (no slots yet), not a bad sum. */
	flags = value_flags(fb, level);
	if (metrics_a)
		flags |= value_flags(fa, level);
	if (slots_b < slots_a)
		flags |= TD_FLAG_SLOTS_BACK;
	for (unsigned i = 0; i < TD_NFIELDS; i++)
		fs[i] = td_field_slots(slots_b, fb[i]) - td_field_slots(slots_a, fa[i]);
	double d = (double)slots_b - (double)slots_a;
	td_from_field_slots(fs, d, level, out);
	out->flags |= flags;
	if (d > 0)
		out->bound = ((double)slots_a + (double)slots_b) / (PERF_METRICS_FIELD_MAX * d);
	return 0;
}
