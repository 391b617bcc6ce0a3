/*
 * t/0466-calibrate-terms.c - the error terms of `baretma calibrate`
 * (bench/study/calibrate.h) and the resolution they decide, against vectors
 * worked by hand from the simulator's arithmetic (doc/simulator.md, "The simulated
 * PMU", t/0451 part b) and the definitions: every term in percentage
 * points of the region's slots, the resolution where spread +
 * quantisation + bracket error is at most 1 point.
 *
 * The set-up worked here: Ice Lake (width W = 5), `access_cycles` N =
 * 3000, profile 20/40/20/20 (whole bytes 51/102/51/51: S = 255, so
 * td_value_bound(S) = 1/255, msr/recipe/topdown.h), noise 0.  With `ghz 0` only
 * accesses count: the empty bracket's first reading holds W N = 15000
 * slots, its second 3 W N = 45000 (the bracket 2 W N = 30000 slots), so
 * its quantisation error is (15000 + 45000) / 255 = 235.29 slots, what
 * `calibrate` reports as bracket.err_slots for that profile.  A region of
 * R slots (the loop, at ghz > 0) reads 15000 before it and 45000 + R
 * after it: its readings' error is (60000 + R) / 255 slots, and the
 * bracket subtracted from it brings 235.29 more.  R = 4680 is the issue's
 * 1000-cycle region.
 */
#include <math.h>
#include <string.h>

#include "bench/study/calibrate.h"
#include "t/tap.h"

/* One length's kernel result: R slots, noise-free but for a spread of
 * @spread_pp points on backend (p975 - p025 = 2 x spread), 201 repetitions
 * of which @invalid invalid, an empty bracket whose two readings hold
 * @bracket slots together (before: 15000 + 45000). */
static void length_b(struct bench_kernel_result *kr, double r, double spread_pp, unsigned invalid,
		     double bracket)
{
	memset(kr, 0, sizeof(*kr));
	kr->reps = 201;
	kr->invalid = invalid;
	kr->topdown = true;
	kr->slots.n = 201 - invalid;
	kr->slots.median = r;
	kr->read_bound = (bracket + r) / 255 / r;
	kr->bracket_bound = bracket / 255 / r;
	for (unsigned m = 0; m < 4; m++) {
		double share = m == 1 ? 0.4 : 0.2, s = m == 3 ? spread_pp / 100 : 0;

		kr->tma[m].n = 201 - invalid;
		kr->tma[m].median = share;
		kr->tma[m].p025 = share - s;
		kr->tma[m].p975 = share + s;
	}
}

static void length(struct bench_kernel_result *kr, double r, double spread_pp, unsigned invalid)
{
	length_b(kr, r, spread_pp, invalid, 15000.0 + 45000.0);
}

static void test_terms(void)
{
	static const double r[CALIB_NLENGTHS] = { 4680, 46800, 468000, 4680000 };
	static const double spread[CALIB_NLENGTHS] = { 0, 0, 0.3, 0.5 };
	struct calib_length len[CALIB_NLENGTHS];
	struct bench_kernel_result kr;

	for (unsigned i = 0; i < CALIB_NLENGTHS; i++) {
		memset(&len[i], 0, sizeof(len[i]));
		len[i].cycles = calib_lengths()[i];
		length(&kr, r[i], spread[i], 0);
		calib_length_of(&kr, 1, &len[i]);
	}
	/* R = 4680: quantisation 64680 / 255 / 4680 = 5.4198 points, bracket
	 * 235.29 / 4680 = 5.0277 (the 621 slots would be 13.3), spread
	 * 0: total 10.447 -> not within (the spread alone, 0, was) */
	check_dbl(len[0].quant_pp, 5.419808949, 1e-8, "1000 cycles: quantisation 5.42 points");
	check_dbl(len[0].bracket_pp, 5.027652086, 1e-8, "1000 cycles: bracket error 5.03 points");
	check_dbl(len[0].total_pp[3], 10.447461036, 1e-8, "1000 cycles: total 10.45 points");
	ok(!len[0].within, "1000 cycles: not within");
	/* R = 46800: 106800 / 255 / 46800 = 0.8949, 235.29 / 46800 = 0.5028:
	 * 1.398 points -> not within 1 (it would be within 2) */
	check_dbl(len[1].quant_pp, 0.894922071, 1e-8, "10000 cycles: quantisation 0.89");
	check_dbl(len[1].bracket_pp, 0.502765209, 1e-8, "10000 cycles: bracket 0.50");
	check_dbl(len[1].total_pp[0], 1.397687280, 1e-8, "10000 cycles: total 1.40");
	ok(!len[1].within, "10000 cycles: 1.40 points, not within 1 point");
	/* R = 468000: 0.4424 + 0.0503 + spread 0.3 on backend = 0.7927 */
	check_dbl(len[2].total_pp[3], 0.792709904, 1e-8, "100000 cycles: backend 0.3 + 0.49");
	check_dbl(len[2].total_pp[0], 0.492709904, 1e-8, "100000 cycles: retiring 0 + 0.49");
	ok(len[2].within, "100000 cycles: within");
	/* R = 4680000: 0.3972 + 0.0050 + 0.5 = 0.9022 */
	check_dbl(len[3].total_pp[3], 0.902212167, 1e-8, "1M cycles: 0.90 points");
	ok(len[3].within, "1M cycles: within");
	check_int((int)calib_resolution(len), ==, 100000,
		  "resolution 100000 cycles: the shortest from which every total is within 1");
	/* 19 valid repetitions are too few for a spread (CALIB_MIN_VALID 20),
	 * whatever the totals */
	length(&kr, r[3], 0.5, 182);
	calib_length_of(&kr, 1, &len[3]);
	ok(!len[3].within, "1M cycles with 19 valid repetitions: not within");
	check_int((int)calib_resolution(len), ==, 0, "then no resolution: the longest is not within");
	/* 20 valid repetitions are enough: CALIB_MIN_VALID is "at least" */
	length(&kr, r[3], 0.5, 181);
	calib_length_of(&kr, 1, &len[3]);
	ok(len[3].within, "1M cycles with 20 valid repetitions: within");
}

/*
 * Every length within: a bracket whose readings hold 1200 slots together
 * (300 + 900: a short one, not the access-loop profile's 60000).  R =
 * 4680 (1000 cycles): quantisation (1200 + 4680) / 255 / 4680 = 0.49271
 * points, bracket 1200 / 255 / 4680 = 0.10055, spread 0: total 0.59326,
 * within 1; the longer lengths' totals are smaller still.  So the
 * resolution is the shortest length, 1000 cycles.
 */
static void test_all_within(void)
{
	static const double r[CALIB_NLENGTHS] = { 4680, 46800, 468000, 4680000 };
	struct calib_length len[CALIB_NLENGTHS];
	struct bench_kernel_result kr;
	unsigned within = 0;

	for (unsigned i = 0; i < CALIB_NLENGTHS; i++) {
		memset(&len[i], 0, sizeof(len[i]));
		len[i].cycles = calib_lengths()[i];
		length_b(&kr, r[i], 0, 0, 1200);
		calib_length_of(&kr, 1, &len[i]);
		within += len[i].within;
	}
	check_dbl(len[0].total_pp[0], 0.593262946, 1e-8, "short bracket, 1000 cycles: 0.59 points");
	check_int((int)within, ==, CALIB_NLENGTHS, "every length within 1 point");
	check_int((int)calib_resolution(len), ==, 1000,
		  "resolution 1000 cycles: the shortest length, when it is within");
}

int main(void)
{
	plan(20);
	test_terms();
	test_all_within();
	return done_testing();
}
