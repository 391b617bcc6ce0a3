/*
 * msr/recipe/topdown.h - decode IA32_PERF_METRICS into Top-down level 1 and 2.
 *
 * Pure functions, no hardware.  Facts (linux arch/x86/include/asm/perf_event.h
 * INTEL_PMC_IDX_TD_*; arch/x86/events/intel/core.c icl_get_metrics_event_value,
 * intel_update_topdown_event; tools/perf/Documentation/topdown.txt):
 *   bytes 0..3 = level 1: Retiring, Bad Speculation, Frontend Bound, Backend
 *   Bound (they sum to 0xff = 100 %); bytes 4..7 = level 2 (SPR+/ADL+ P-cores):
 *   Heavy Operations, Branch Mispredicts, Fetch Latency, Memory Bound, each a
 *   part of its level-1 parent.  Each byte is a fraction of TOPDOWN.SLOTS
 *   in units of 1/255.  The kernel's slot count of a field is
 *   floor(slots * field / 255) (icl_get_metrics_event_value).
 *   Derived level-2 nodes (TMA_Metrics-full.csv; linux topdown.txt):
 *   Light Operations = Retiring - Heavy Operations, Machine Clears = Bad
 *   Speculation - Branch Mispredicts, Fetch Bandwidth = Frontend Bound -
 *   Fetch Latency, Core Bound = Backend Bound - Memory Bound.
 *   Region deltas (linux tools/perf/Documentation/topdown.txt): the bytes
 *   are cumulative ratios since the last reset, so a region's share of a
 *   field is (slots_b*field_b/255 - slots_a*field_a/255) / (slots_b - slots_a).
 *
 * Normalisation (Intel PCM src/cpucounters.cpp; perf's metric JSON in linux
 * tools/perf/pmu-events/arch/x86/): the four level-1 bytes
 * are rounded independently by the hardware, so their sum S is 255 only
 * up to the rounding (TD_L1_SUM_TOLERANCE).  As Intel PCM (cpucounters.cpp:
 * slots * field / sum of the four fields) and perf's metric JSON
 * (tma_retiring = topdown-retiring / (topdown-fe-bound + topdown-bad-spec +
 * topdown-retiring + topdown-be-bound), and tma_heavy_operations =
 * topdown-heavy-ops / the same sum) do, every reading is normalised by its
 * own S instead of 255: a field's slots at one reading are
 * slots * field / S, level-2 fields included.  The region method then
 * works on these normalised slot counts.
 */
#ifndef BARETMA_TOPDOWN_H
#define BARETMA_TOPDOWN_H

#include <stdbool.h>
#include <stdint.h>

/* The eight hardware fields, in PERF_METRICS byte order. */
enum td_field {
	TD_RETIRING = 0, TD_BAD_SPEC, TD_FE_BOUND, TD_BE_BOUND,
	TD_HEAVY_OPS, TD_BR_MISPREDICT, TD_FETCH_LAT, TD_MEM_BOUND,
	TD_NFIELDS
};

/* The twelve reported nodes, named as perf's tma_* metrics. */
enum td_metric {
	TMA_RETIRING = 0, TMA_BAD_SPECULATION, TMA_FRONTEND_BOUND, TMA_BACKEND_BOUND,
	TMA_HEAVY_OPERATIONS, TMA_LIGHT_OPERATIONS,
	TMA_BRANCH_MISPREDICTS, TMA_MACHINE_CLEARS,
	TMA_FETCH_LATENCY, TMA_FETCH_BANDWIDTH,
	TMA_MEMORY_BOUND, TMA_CORE_BOUND,
	TMA_NMETRICS
};
#define TMA_NLEVEL1 4

/* td_metric_name - "tma_retiring" ... ; td_metric_level - 1 or 2;
 * td_metric_parent - the level-1 parent of a level-2 node (itself at level 1). */
const char *td_metric_name(enum td_metric m);
int td_metric_level(enum td_metric m);
enum td_metric td_metric_parent(enum td_metric m);

/*
 * How far the four level-1 bytes may sum from 255 by rounding alone.
 * Each byte is f_i = 255*x_i + e_i, with the true fractions x_i summing to
 * 1 and e_i the quantisation error of that byte.  Whatever the hardware's
 * rounding mode (to nearest: |e_i| <= 1/2; truncation: -1 < e_i <= 0;
 * upwards: 0 <= e_i < 1), |e_i| < 1, so |S - 255| = |e_0+e_1+e_2+e_3| < 4,
 * and S being an integer, |S - 255| <= 3.  (Round to nearest alone would
 * give <= 2, i.e. 253..257; no primary source found for the mode (the SDM
 * text on it was not read), so the bound that holds for every mode is used.)
 * A sum further away cannot come from rounding: the reading is bad
 * (TD_FLAG_L1_SUM).  Within it the reading is normalised by S (above).
 */
#define TD_L1_SUM_TOLERANCE 3u
/*
 * How far a level-2 byte may exceed its level-1 parent by rounding alone:
 * child - parent = 255*(x_c - x_p) + e_c - e_p with x_c <= x_p and
 * |e| < 1, so child - parent < 2, i.e. at most 1.
 */
#define TD_L2_ABOVE_TOLERANCE 1u

/* Quality flags of a decode. */
#define TD_FLAG_L1_SUM      0x01u /* level-1 bytes sum further from 255 than
				   * TD_L1_SUM_TOLERANCE: not rounding, a bad reading */
#define TD_FLAG_L2_ABOVE    0x02u /* a level-2 field exceeds its level-1 parent
				   * by more than the rounding allows */
#define TD_FLAG_ZERO_SLOTS  0x04u /* slots delta is zero: nothing to divide by */
#define TD_FLAG_NEGATIVE    0x08u /* a field's slot delta is negative beyond the
				   * quantisation error */
#define TD_FLAG_SLOTS_BACK  0x10u /* slots went backwards (b < a): reset or wrap */
#define TD_FLAG_NORMALISED  0x20u /* informational: a reading's level-1 sum was not
				   * 255 (within the tolerance): normalised by its sum */
/* The flags that make a decode unusable as a number (the rest inform). */
#define TD_FLAGS_INVALID    (TD_FLAG_L1_SUM | TD_FLAG_ZERO_SLOTS | TD_FLAG_SLOTS_BACK)

/* td_flag_text - a one-line description of each set flag, "; "-joined,
 * into @buf (at most @n bytes).  Returns @buf. */
char *td_flag_text(unsigned flags, char *buf, unsigned n);

/* td_flag_name - the short name of one flag bit, for machine-readable
 * output ("l1_sum", "l2_above_parent", "zero_slots", "negative",
 * "slots_back", "normalised"), or NULL for a bit that is no flag. */
const char *td_flag_name(unsigned flag);

/* td_fields - split a PERF_METRICS value into its 8 bytes (fractions of 255). */
void td_fields(uint64_t perf_metrics, uint8_t field[TD_NFIELDS]);

/* One Top-down result in slots and fractions. */
struct td_result {
	int level;                   /* 1 or 2 */
	double slots;                /* slots delta of the region (or slots of a single value) */
	double field_slots[TD_NFIELDS]; /* slots attributed to each hardware field */
	double frac[TMA_NMETRICS];   /* fraction of slots, 0..1 (level-2 entries only at level 2) */
	double bound;                /* 8-bit quantisation bound, as a fraction (x100 = percentage points) */
	double err_slots;            /* the same bound in slots (region decodes; 0 for a single value) */
	unsigned flags;              /* TD_FLAG_* */
};

/*
 * td_decode_value - decode one PERF_METRICS value.
 * @slots: TOPDOWN.SLOTS at the same instant, or 0 when unknown (then
 *         field_slots are 0 and fractions come from the bytes alone).
 * @level: 1 or 2.  Fractions are field/S, S the sum of the four level-1
 * bytes (normalisation above; field/255 when S is 255), for level-2 bytes
 * too; TD_FLAG_NORMALISED when S != 255 within TD_L1_SUM_TOLERANCE,
 * TD_FLAG_L1_SUM beyond it (S = 0: every fraction 0).  The bound is
 * td_value_bound(S): one least significant bit plus what the
 * normalisation may move a fraction.
 * Returns 0, or -EINVAL for a level other than 1 or 2.
 */
int td_decode_value(uint64_t perf_metrics, uint64_t slots, int level, struct td_result *out);

/*
 * td_l1_sum - S, the sum of the four level-1 bytes of @perf_metrics
 * (0..1020; 255 on a consistent reading, 0 for the reset value).
 */
unsigned td_l1_sum(uint64_t perf_metrics);

/*
 * td_value_bound - how far one normalised fraction f_i/S of a reading
 * whose level-1 bytes sum to @l1_sum can be from the true fraction x_i,
 * as a fraction.  With f_i = 255*x_i + e_i (|e_i| < 1) and the rounding
 * errors summing to E = S - 255 (known, since the x_i sum to 1):
 *   f_i/S - x_i = e_i/255 - (f_i/S) * E/255,
 * so |f_i/S - x_i| < (1 + |S - 255|) / 255 (f_i/S <= 1): 1/255 when S is
 * 255, at most 4/255 within the tolerance.  1 (nothing known) when S is 0.
 */
double td_value_bound(unsigned l1_sum);

/*
 * td_field_slots - slots of one field at one instant, normalised:
 * slots*field/l1_sum as a real number (the kernel floors slots*field/255;
 * here no rounding is added so that region deltas carry no bias).
 * 0 when @l1_sum is 0 (the reset value: nothing attributed yet).
 */
double td_field_slots(uint64_t slots, uint8_t field, unsigned l1_sum);

/*
 * td_decode_region - the Top-down breakdown of the region between two
 * readings a (start) and b (end) of (TOPDOWN.SLOTS, PERF_METRICS) taken
 * without a reset in between.  Per field: td_field_slots(b) -
 * td_field_slots(a), i.e. slots_b*field_b/S_b - slots_a*field_a/S_a,
 * divided by slots_b - slots_a.  An all-zero metrics_a is the reset state
 * (nothing attributed yet), not a bad sum; so is an all-zero metrics_b
 * with slots_b 0 (nothing counted: TD_FLAG_ZERO_SLOTS).
 * Bound: reading r's field slots are exact to slots_r * td_value_bound(S_r)
 * (for an all-zero metrics_a with slots_a > 0: to slots_a, nothing being
 * known of how those slots split), so the region fraction is exact to
 * out->err_slots / (slots_b - slots_a), with
 * err_slots = slots_a*td_value_bound(S_a) + slots_b*td_value_bound(S_b)
 * (0.4 percentage points for vector 2 of t/0100).
 * Flags: see TD_FLAG_* (NEGATIVE and L2_ABOVE only beyond err_slots).
 * Returns 0 (also when flagged: check ->flags), or -EINVAL for a bad level.
 */
int td_decode_region(uint64_t slots_a, uint64_t metrics_a, uint64_t slots_b,
		     uint64_t metrics_b, int level, struct td_result *out);

/*
 * td_pair_slots - the first half of td_decode_region: a pair of readings
 * (TOPDOWN.SLOTS, PERF_METRICS) as counts in slots, the form of perf's
 * topdown-* pseudo events: @fs[i] = slots_b*field_b/S_b -
 * slots_a*field_a/S_a per field (byte order of PERF_METRICS: retiring,
 * bad-spec, fe-bound, be-bound, heavy-ops, br-mispredict, fetch-lat,
 * mem-bound), @err_slots their quantisation error (td_decode_region's
 * err_slots).  Each reading being normalised by its level-1 sum, the four
 * level-1 counts sum to slots_b - slots_a.  Returns the flags the readings
 * decide: TD_FLAG_L1_SUM, TD_FLAG_NORMALISED, TD_FLAG_SLOTS_BACK (what
 * the counts decide - zero slots, a negative count, a level-2 count above
 * its parent - is td_from_field_slots's).
 */
unsigned td_pair_slots(uint64_t slots_a, uint64_t metrics_a, uint64_t slots_b,
		       uint64_t metrics_b, double fs[TD_NFIELDS], double *err_slots);

/*
 * td_from_field_slots - fractions from per-field slot counts (e.g. a region's
 * deltas after subtracting the empty bracket's), dividing by @slots.
 * @err_slots: the quantisation error of each field's slot count (>= 0):
 * a measured field below -@err_slots is TD_FLAG_NEGATIVE, a level-2 field
 * above its parent by more than 2*@err_slots (both may be off by it), and
 * never by less than half a slot, is TD_FLAG_L2_ABOVE.
 * Fills out->frac (derived level-2 nodes = parent - measured child, not
 * clamped), keeps out->field_slots = @fs, out->slots = @slots,
 * out->err_slots = @err_slots, out->bound = @err_slots / @slots, and sets
 * TD_FLAG_ZERO_SLOTS / TD_FLAG_NEGATIVE / TD_FLAG_L2_ABOVE as they apply
 * (other flags in out->flags are kept).  Returns 0 or -EINVAL.
 */
int td_from_field_slots(const double fs[TD_NFIELDS], double slots, double err_slots,
			int level, struct td_result *out);

#endif
