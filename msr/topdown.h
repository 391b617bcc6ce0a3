/*
 * msr/topdown.h - decode IA32_PERF_METRICS into Top-down level 1 and 2.
 *
 * Pure functions, no hardware.  Facts (pmu-reference §1.5, §3.2, §3.3):
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

/* Quality flags of a decode. */
#define TD_FLAG_L1_SUM      0x01u /* level-1 bytes do not sum to 255 +/- 1 */
#define TD_FLAG_L2_ABOVE    0x02u /* a level-2 field exceeds its level-1 parent */
#define TD_FLAG_ZERO_SLOTS  0x04u /* slots delta is zero: nothing to divide by */
#define TD_FLAG_NEGATIVE    0x08u /* a field's slot delta is negative */
#define TD_FLAG_SLOTS_BACK  0x10u /* slots went backwards (b < a): reset or wrap */

/* td_flag_text - a one-line description of each set flag, "; "-joined,
 * into @buf (at most @n bytes).  Returns @buf. */
char *td_flag_text(unsigned flags, char *buf, unsigned n);

/* td_fields - split a PERF_METRICS value into its 8 bytes (fractions of 255). */
void td_fields(uint64_t perf_metrics, uint8_t field[TD_NFIELDS]);

/* One Top-down result in slots and fractions. */
struct td_result {
	int level;                   /* 1 or 2 */
	double slots;                /* slots delta of the region (or slots of a single value) */
	double field_slots[TD_NFIELDS]; /* slots attributed to each hardware field */
	double frac[TMA_NMETRICS];   /* fraction of slots, 0..1 (level-2 entries only at level 2) */
	double bound;                /* 8-bit quantisation bound, as a fraction (x100 = percentage points) */
	unsigned flags;              /* TD_FLAG_* */
};

/*
 * td_decode_value - decode one PERF_METRICS value.
 * @slots: TOPDOWN.SLOTS at the same instant, or 0 when unknown (then
 *         field_slots are 0 and fractions come from the bytes alone).
 * @level: 1 or 2.  Fractions are field/255; the bound is 1/255 (one least
 * significant bit, whether the hardware rounds or truncates).
 * Returns 0, or -EINVAL for a level other than 1 or 2.
 */
int td_decode_value(uint64_t perf_metrics, uint64_t slots, int level, struct td_result *out);

/*
 * td_field_slots - slots of one field at one instant: slots*field/255, as a
 * real number (the kernel floors it; here no rounding is added so that
 * region deltas carry no bias).
 */
double td_field_slots(uint64_t slots, uint8_t field);

/*
 * td_decode_region - the Top-down breakdown of the region between two
 * readings a (start) and b (end) of (TOPDOWN.SLOTS, PERF_METRICS) taken
 * without a reset in between.  Per field: slots_b*field_b/255 -
 * slots_a*field_a/255, divided by slots_b - slots_a.
 * Bound: each byte is exact to 1/255 of its slots, so the region fraction is
 * exact to (slots_a + slots_b) / (255 * (slots_b - slots_a)).
 * Flags: see TD_FLAG_*.  Returns 0 (also when flagged: check ->flags), or
 * -EINVAL for a bad level.
 */
int td_decode_region(uint64_t slots_a, uint64_t metrics_a, uint64_t slots_b,
		     uint64_t metrics_b, int level, struct td_result *out);

/*
 * td_from_field_slots - fractions from per-field slot counts (e.g. a region's
 * deltas after subtracting the empty bracket's), dividing by @slots.
 * Fills out->frac, keeps out->field_slots = @fs, out->slots = @slots, and sets
 * TD_FLAG_ZERO_SLOTS / TD_FLAG_NEGATIVE / TD_FLAG_L2_ABOVE as they apply.
 * The bound is left to the caller.  Returns 0 or -EINVAL.
 */
int td_from_field_slots(const double fs[TD_NFIELDS], double slots, int level,
			struct td_result *out);

#endif
