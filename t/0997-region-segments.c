/*
 * t/0997-region-segments - the region table's segments in RDPMC
 * metrics-clear mode (bench/region.h), on readings written by hand: each
 * reading (TOPDOWN.SLOTS, PERF_METRICS) is the counts since the reading
 * before it (linux commit 0e45818ec189: the RDPMC of PERF_METRICS clears
 * both), so its counts are slots x byte/S per field (msr/recipe/topdown.h
 * td_field_slots) with error slots/255 (S = 255), and a region is the sum
 * of the segments between its readings.
 *
 *   open O    a0 = 500 slots, 0xff        the epoch's first segment: nobody's
 *   open I    a1 = 0 slots, 0x01          zero slots: adds nothing to O, and
 *                                         its bad level-1 sum (1, not 255 +/- 3:
 *                                         TD_FLAG_L1_SUM) flags nothing
 *   end I     b1 = 1000 slots, 0xff       all retiring: I's and O's
 *   end X     b2 = 3000 slots, 0xff000000 all backend: an end of a region
 *                                         never begun (misuse) - its reading
 *                                         cleared all the same: O's
 *   end O     b3 = 0 slots, 0x0           zero slots: nothing
 * I: 1000 slots, retiring 100 %.  O: 1000 + 3000 = 4000 slots, retiring
 * 1000/4000 = 25 %, backend 3000/4000 = 75 %, valid, flags 0; bound
 * (1000 + 3000)/255 / 4000 = 1/255 = 0.392157 points.  Before segments
 * were summed O was its last reading alone (zero slots: invalid); with
 * zero-slot segments counted, a1's sum made O invalid (l1_sum).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "bench/region.h"
#include "t/tap.h"

static struct reading rd(uint64_t slots, uint64_t metrics, uint64_t tsc)
{
	struct reading r = { .tsc = tsc, .v = { slots, metrics } };
	return r;
}

int main(void)
{
	static struct region_table t;
	static const struct region_verdict clean;
	struct baretma_result res;
	struct read_set rs;
	struct region *o, *in, *x;
	struct reading b;

	plan(14);
	read_set_perf_metrics(&rs);
	rs.metrics_clear = true;
	t.rs = &rs;
	o = region_add(&t, "O");
	in = region_add(&t, "I");
	x = region_add(&t, "X");
	ok(o && in && x, "three regions");

	*region_open(&t, o) = rd(500, 0xff, 0);
	*region_open(&t, in) = rd(0, 0x01, 10);
	b = rd(1000, 0xff, 20);
	check_int(region_end(&t, in, &b, 1), ==, 0, "end I");
	b = rd(3000, 0xff000000, 30);
	check_int(region_end(&t, x, &b, 1), ==, -ENOENT, "end X, never begun: misuse");
	b = rd(0, 0, 40);
	check_int(region_end(&t, o, &b, 1), ==, 0, "end O");
	check_int(t.depth, ==, 0, "nothing open");
	region_epoch_end(&t, &clean);

	region_result(&t, in, 1, &res);
	ok(res.count == 1 && res.invalid == 0 && res.slots == 1000 &&
	   fabs(res.tma[BARETMA_TMA_RETIRING] - 100) < 1e-9, "I: 1000 slots, retiring 100 %%");
	region_result(&t, o, 1, &res);
	check_int((int)res.count, ==, 1, "O: one pair");
	check_int((int)res.invalid, ==, 0, "O: valid (zero-slot segments add no flag)");
	check_dbl(res.slots, 4000, 0, "O: 1000 + 3000 slots, the misused end's included");
	check_dbl(res.tma[BARETMA_TMA_RETIRING], 25, 1e-9, "O: retiring 1000/4000");
	check_dbl(res.tma[BARETMA_TMA_BACKEND_BOUND], 75, 1e-9, "O: backend 3000/4000");
	check_int((int)res.flags, ==, 0, "O: no flag");
	check_dbl(res.bound_pp, 100.0 / 255, 1e-9, "O: bound 1/255 of the slots");
	check_int((int)x->misuse, ==, 1, "X: the misuse counted");
	return done_testing();
}
