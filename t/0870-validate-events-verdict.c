/*
 * t/0870-validate-events-verdict - metrics_match_events's verdict
 * (bench/study/validate.h validate_events_verdict) on breakdowns worked by
 * hand.  A node's allowance is 100 x (PERF_METRICS's bound + the events'
 * bound + |what the formulas differ by|) + 10 points (the margin for what
 * is unconfirmed: no primary source found says how closely the events match
 * the bytes).
 *
 * 1. The simulator's 40/10/20/30 profile on Ice Lake: PERF_METRICS bytes
 *    102, 26 (25.5 rounded half away from zero), 51, 77 (76.5), sum S =
 *    256: retiring 102/256 = 0.3984375, bad speculation 26/256 =
 *    0.1015625, frontend 51/256 = 0.19921875, backend 77/256 =
 *    0.30078125; bound (1 + |S - 255|)/255 = 2/255 (msr/recipe/topdown.h
 *    td_value_bound).  The events count the profile: 0.40, 0.10, 0.20,
 *    0.30; 6 counters over 100000 slots: bound 6/100000.  Differences
 *    PERF_METRICS - events: -0.15625, +0.15625, -0.078125, +0.078125
 *    points; allowance 100 x (2/255 + 0.00006) + 10 = 10.790313725 each:
 *    PASS, the largest |difference| the first of the two at 0.15625,
 *    tma_retiring.
 * 2. The events read backend 20 points high (the simulator's fault
 *    gp_offset tma_backend_bound 20): events backend 0.50, bad
 *    speculation the remainder max(1 - 1.10, 0) = 0.  Differences: backend
 *    30.078125 - 50 = -19.921875 (beyond 10.790313725), bad speculation
 *    10.15625 - 0 = +10.15625 (within): FAIL, tma_backend_bound.
 * 3. What the formulas differ by widens its node's allowance: frontend
 *    correction INT_MISC.UOP_DROPPING / SLOTS = 0.02, backend 5 x
 *    INT_MISC.CLEARS_COUNT / SLOTS = 0.01, bad speculation (the events'
 *    remainder) both, 0.03; with both bounds 0: allowances 10, 13, 12, 11.
 *    Bad speculation 12.5 points off: PASS (within 13); retiring 10.5 off:
 *    FAIL (no correction: beyond 10); frontend 11.9 off: PASS (within 12);
 *    frontend 12.1 off: FAIL.
 * 4. A number that is not one: SKIP.
 * 5. The texts whole, whatever the numbers: the events' fractions are
 *    counts over SLOTS, and a formula weighting a 48-bit count by the
 *    pipeline width (4 x 2^48 = 2^50) over one slot is a fraction of 2^50:
 *    PERF_METRICS 0 minus that, 100 x -2^50 = -112589990684262400 points
 *    (exact in a double: 25 x 2^52), for each node; 8 events over 1 slot:
 *    bound 9, allowance 100 x 9 + 10 = 910.  The measured text is then 160
 *    bytes, one more than the 160-byte field it was kept in held (with
 *    its NUL): its ")" was lost.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/study/validate.h"
#include "t/tap.h"

static void profile(void)
{
	struct validate_l1_cmp c = {
		.pm = { 102.0 / 256, 26.0 / 256, 51.0 / 256, 77.0 / 256 },
		.ev = { 0.40, 0.10, 0.20, 0.30 },
		.pm_bound = 2.0 / 255, .ev_bound = 6.0 / 100000,
	};

	check_int(validate_events_verdict(&c), ==, VALIDATE_PASS, "40/10/20/30: PASS");
	check_dbl(c.diff[TMA_RETIRING], -0.15625, 1e-12, "retiring 39.84375 - 40");
	check_dbl(c.diff[TMA_BAD_SPECULATION], 0.15625, 1e-12, "bad speculation 10.15625 - 10");
	check_dbl(c.diff[TMA_FRONTEND_BOUND], -0.078125, 1e-12, "frontend 19.921875 - 20");
	check_dbl(c.diff[TMA_BACKEND_BOUND], 0.078125, 1e-12, "backend 30.078125 - 30");
	check_dbl(c.allow[TMA_BACKEND_BOUND], 10.790313725, 1e-9, "allowance 0.784 + 0.006 + 10");
	check_int(c.worst, ==, TMA_RETIRING, "the largest: tma_retiring (first of two at 0.15625)");
	c.ev[TMA_BACKEND_BOUND] = 0.50;
	c.ev[TMA_BAD_SPECULATION] = 0;
	check_int(validate_events_verdict(&c), ==, VALIDATE_FAIL, "backend 20 points high: FAIL");
	check_dbl(c.diff[TMA_BACKEND_BOUND], -19.921875, 1e-12, "backend 30.078125 - 50");
	check_dbl(c.diff[TMA_BAD_SPECULATION], 10.15625, 1e-12, "bad speculation 10.15625 - 0");
	check_int(c.worst, ==, TMA_BACKEND_BOUND, "the one beyond: tma_backend_bound");
}

static void corrections(void)
{
	struct validate_l1_cmp c = { .model = { 0, 0.03, 0.02, 0.01 } };

	check_int(validate_events_verdict(&c), ==, VALIDATE_PASS, "equal: PASS");
	check_dbl(c.allow[TMA_RETIRING], 10, 1e-12, "retiring: 10");
	check_dbl(c.allow[TMA_BAD_SPECULATION], 13, 1e-12, "bad speculation: 10 + 3");
	check_dbl(c.allow[TMA_FRONTEND_BOUND], 12, 1e-12, "frontend: 10 + 2");
	check_dbl(c.allow[TMA_BACKEND_BOUND], 11, 1e-12, "backend: 10 + 1");
	c.pm[TMA_BAD_SPECULATION] = 0.125;
	check_int(validate_events_verdict(&c), ==, VALIDATE_PASS, "bad speculation 12.5 off: PASS");
	c.pm[TMA_RETIRING] = 0.105;
	check_int(validate_events_verdict(&c), ==, VALIDATE_FAIL, "retiring 10.5 off: FAIL");
	check_int(c.worst, ==, TMA_RETIRING, "the node beyond: tma_retiring");
	c.pm[TMA_RETIRING] = 0;
	c.pm[TMA_FRONTEND_BOUND] = 0.119;
	check_int(validate_events_verdict(&c), ==, VALIDATE_PASS, "frontend 11.9 off: PASS");
	c.pm[TMA_FRONTEND_BOUND] = 0.121;
	check_int(validate_events_verdict(&c), ==, VALIDATE_FAIL, "frontend 12.1 off: FAIL");
	c.ev[TMA_FRONTEND_BOUND] = NAN;
	check_int(validate_events_verdict(&c), ==, VALIDATE_SKIP, "not a number: SKIP");
}

static void texts(void)
{
	struct validate_l1_cmp c = { .ev_bound = 9 };
	char *measured = NULL, *expected = NULL;
	const char *want = "PERF_METRICS - events (points): ret -112589990684262400.00 bad "
			   "-112589990684262400.00 fe -112589990684262400.00 be "
			   "-112589990684262400.00 (golden-cove, 1 slots)";

	for (unsigned m = 0; m < TMA_NLEVEL1; m++)
		c.ev[m] = 1125899906842624.0; /* 2^50 */
	check_int(validate_events_verdict(&c), ==, VALIDATE_FAIL, "2^50 over one slot: FAIL");
	check_int(validate_events_texts(&c, "golden-cove", 1, &measured, &expected), ==, 0,
		  "the texts");
	check_int((int)strlen(want), ==, 160, "the measured text is 160 bytes");
	check_str(measured, want, "measured, whole");
	check_str(expected, "each within its allowance: ret 910.00 bad 910.00 fe 910.00 "
		  "be 910.00", "expected, whole");
	free(measured);
	free(expected);
}

int main(void)
{
	check_int(VALIDATE_EVENTS_MARGIN_PP, ==, 10, "the margin: 10 points");
	profile();
	corrections();
	texts();
	return done_testing();
}
