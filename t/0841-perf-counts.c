/*
 * t/0841-perf-counts - the perf source reports perf's counts, as perf
 * reports them: its read set (what source_perf's open fills) is the
 * group's leader and members as read(2) gives them, 64-bit counts named as
 * perf names them, and a pair's tma_* are perf's formulas on their
 * differences, never re-packed into PERF_METRICS bytes (which lost up to
 * half a byte, 0.2 points, per node).  Their bound is the kernel's
 * arithmetic: each member's count of a read interval of s slots is
 * floor(s x field / 0xff) of the 8-bit field (linux
 * arch/x86/events/intel/core.c icl_get_metrics_event_value), off by less
 * than s/255 + 1 slots (bench/source/reading.h), and a fraction c_i / C of
 * the level-1 sum C by at most (err + |C - T|) / C, T the slots
 * (bench/tma.h).  perf-rdpmc reads FC3 and PERF_METRICS: the raw path's
 * read set.  Vectors worked by hand below.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/source/source.h"
#include "bench/tma.h"
#include "t/tap.h"

/* The source's read set at @level, as its open fills it. */
static int open_set(const struct counter_source_ops *ops, int level, struct read_set *rs)
{
	struct counter_source src = { .ops = ops };
	struct source_params p = { .cpu = 0, .level = level };
	int rc = ops->open(&src, &p);

	if (!rc)
		*rs = src.rs;
	ops->close(&src);
	return rc;
}

static void read_sets(void)
{
	static const char *const l2[] = { "TOPDOWN.SLOTS", "topdown-retiring",
		"topdown-bad-spec", "topdown-fe-bound", "topdown-be-bound", "topdown-heavy-ops",
		"topdown-br-mispredict", "topdown-fetch-lat", "topdown-mem-bound" };
	struct read_set rs;
	bool names, kinds;

	check_int(open_set(&source_perf, 1, &rs), ==, 0, "perf opens (no system call yet)");
	check_int(rs.n, ==, 5, "level 1: the leader and four members");
	check_int(rs.ncounts, ==, 5, "five events");
	ok(rs.bound == READ_BOUND_PERF_COUNTS, "perf's counts: bounded by the kernel's arithmetic");
	check_int(open_set(&source_perf, 2, &rs), ==, 0, "perf at level 2");
	check_int(rs.n, ==, 9, "level 2: the leader and eight members");
	names = kinds = rs.n == 9 && rs.ncounts == 9;
	for (unsigned i = 0; i < 9 && i < rs.n; i++) {
		names &= !strcmp(rs.val[i].name, l2[i]) && !strcmp(rs.count[i], l2[i]);
		kinds &= rs.val[i].kind == READ_COUNTER && rs.val[i].width == 64;
	}
	ok(names, "named as perf names them, in PERF_METRICS byte order after the leader");
	ok(kinds, "each a 64-bit count (read(2)'s u64 values)");
	check_int(open_set(&source_perf_rdpmc, 2, &rs), ==, 0, "perf-rdpmc opens");
	ok(rs.n == 2 && !strcmp(rs.val[1].name, "PERF_METRICS") &&
	   rs.bound == READ_BOUND_PERF_METRICS, "perf-rdpmc reads FC3 and PERF_METRICS");
}

/*
 * A region read by perf at level 1: reading a (just after the reset) slots
 * 7, members 2, 1, 1, 3; reading b slots 1000010, members 333336, 100001,
 * 200001, 366672.  Counts b - a: TOPDOWN.SLOTS 1000003, topdown-retiring
 * 333334, -bad-spec 100000, -fe-bound 200000, -be-bound 366669 (level-1
 * sum 1000003).  perf's formulas (count / the sum of the four):
 *   tma_retiring        333334 / 1000003 = 0.333333000001
 *   tma_bad_speculation 100000 / 1000003 = 0.0999997000009
 *   tma_frontend_bound  200000 / 1000003 = 0.199999400002
 *   tma_backend_bound   366669 / 1000003 = 0.366667899996
 * One read interval of T = 1000003 slots: each count off by less than
 * err = 1000003/255 + 1 = 3922.580392 slots; C = T, so the bound is
 * 3922.580392 / 1000003 = 0.00392256862 (0.39 points).  Packed into bytes, round(255 x count / slots): 84.99992 -> 85,
 * 25.49992 -> 25, 50.99985 -> 51, 93.50031 -> 94 (sum 255), as the source
 * did: tma_bad_speculation 25/255 = 0.0980392157 (0.196 points low),
 * tma_backend_bound 94/255 = 0.368627451 (0.196 points high), +-0.39
 * points of 8-bit bound.
 */
static void exact(void)
{
	struct read_set rs;
	struct reading a = { .tsc = 1, .v = { 7, 2, 1, 1, 3 } },
		       b = { .tsc = 9, .v = { 1000010, 333336, 100001, 200001, 366672 } };
	struct counts c;
	struct td_result r, packed;

	open_set(&source_perf, 1, &rs);
	check_int(reading_counts(&rs, &a, &b, &c), ==, 0, "count perf's pair");
	ok(c.c[0] == 1000003 && c.c[1] == 333334 && c.c[2] == 100000 && c.c[3] == 200000 &&
	   c.c[4] == 366669, "the counts: 1000003, 333334, 100000, 200000, 366669");
	check_int(counts_to_tma(&rs, &c, 1, &r), ==, 0, "perf's formulas");
	check_dbl(r.frac[TMA_RETIRING], 333334.0 / 1000003, 1e-15, "tma_retiring 333334/1000003");
	check_dbl(r.frac[TMA_BAD_SPECULATION], 0.0999997000009, 1e-13,
		  "tma_bad_speculation 100000/1000003 = 9.99997 %");
	check_dbl(r.frac[TMA_FRONTEND_BOUND], 0.199999400002, 1e-12,
		  "tma_frontend_bound 200000/1000003");
	check_dbl(r.frac[TMA_BACKEND_BOUND], 0.366667899996, 1e-12,
		  "tma_backend_bound 366669/1000003 = 36.66679 %");
	check_dbl(c.err, 3922.580392157, 1e-9, "err 1000003/255 + 1 slots per member");
	check_dbl(r.bound, 0.00392256862445, 1e-13, "bound 3922.58/1000003 = 0.39 points");
	check_dbl(r.slots, 1000003, 0, "slots 1000003");
	check_u64(r.flags, ==, 0, "no flag");
	/* the same region as 8-bit bytes 85, 25, 51, 94 (0x5E331955) */
	td_decode_value(0x5E331955, 1000003, 1, &packed);
	check_dbl(packed.frac[TMA_BAD_SPECULATION], 25.0 / 255, 1e-15, "packed: 25/255 = 9.80392 %");
	check_dbl(packed.frac[TMA_BACKEND_BOUND], 94.0 / 255, 1e-15, "packed: 94/255 = 36.86275 %");
	ok(r.frac[TMA_BAD_SPECULATION] - packed.frac[TMA_BAD_SPECULATION] > 0.00196,
	   "the bytes lost 0.196 points of tma_bad_speculation that the counts keep");
}

/*
 * perf's counts need not sum to the slots: the kernel floors each member
 * of each read (icl_get_metrics_event_value), and the hardware's level-1 bytes sum
 * to 255 +- 3.  Level 2, slots 10200, members 6000, 500, 1500, 2000 (sum
 * 10000), heavy-ops 1000, br-mispredict 400, fetch-lat 1200, mem-bound 500
 * from reading a all 0: perf divides by the sum 10000, not the slots:
 * tma_retiring 0.6, tma_heavy_operations 0.1, tma_light_operations 0.5,
 * tma_machine_clears (500 - 400)/10000 = 0.01, tma_fetch_bandwidth 0.03,
 * tma_core_bound 0.15; slots stay 10200.  Bound: err = 10200/255 + 1 = 41
 * slots, |C - T| = 200 (more than the bytes' rounding allows, 3 x
 * 10200/255 + 4 = 124: a vector for the formula), (41 + 200) / 10000 =
 * 0.0241.
 */
static void sum_not_slots(void)
{
	struct read_set rs;
	struct reading a = { .v = { 0 } },
		       b = { .v = { 10200, 6000, 500, 1500, 2000, 1000, 400, 1200, 500 } };
	struct counts c;
	struct td_result r;

	open_set(&source_perf, 2, &rs);
	reading_counts(&rs, &a, &b, &c);
	check_int(counts_to_tma(&rs, &c, 2, &r), ==, 0, "level 2");
	check_dbl(r.frac[TMA_RETIRING], 0.6, 1e-15, "tma_retiring 6000/10000 (not /10200)");
	check_dbl(r.frac[TMA_HEAVY_OPERATIONS], 0.1, 1e-15, "tma_heavy_operations 1000/10000");
	check_dbl(r.frac[TMA_LIGHT_OPERATIONS], 0.5, 1e-15, "tma_light_operations 5000/10000");
	check_dbl(r.frac[TMA_MACHINE_CLEARS], 0.01, 1e-15, "tma_machine_clears 100/10000");
	check_dbl(r.frac[TMA_FETCH_BANDWIDTH], 0.03, 1e-15, "tma_fetch_bandwidth 300/10000");
	check_dbl(r.frac[TMA_CORE_BOUND], 0.15, 1e-15, "tma_core_bound 1500/10000");
	check_dbl(r.slots, 10200, 0, "slots 10200");
	check_dbl(r.bound, 0.0241, 1e-15, "bound (41 + |10000 - 10200|) / 10000");
	check_u64(r.flags, ==, 0, "no flag");
	/* a member counted but no slot: zero slots, no fraction */
	b.v[0] = 0;
	reading_counts(&rs, &a, &b, &c);
	counts_to_tma(&rs, &c, 2, &r);
	ok((r.flags & TD_FLAG_ZERO_SLOTS) && r.frac[TMA_RETIRING] == 0,
	   "no slot counted: zero_slots, fractions 0");
}

/*
 * Pairs add their errors: two read intervals of 510 slots each, err 510/255
 * + 1 = 3 each, 6 summed; an interval where the leader counted nothing (a
 * failed read reads all 0) still has the floor, 1.  read_set_perf_counts
 * takes 1 to 8 members.
 */
static void pairs(void)
{
	struct read_set rs;
	struct reading a = { .v = { 0 } }, b = { .v = { 510, 200, 100, 110, 100 } };
	struct counts c, sum = { .err = 0 };

	check_int(read_set_perf_counts(&rs, 4), ==, 0, "four members");
	reading_counts(&rs, &a, &b, &c);
	check_dbl(c.err, 3, 0, "510 slots: 510/255 + 1 = 3");
	counts_add(&sum, &c, rs.ncounts);
	counts_add(&sum, &c, rs.ncounts);
	check_dbl(sum.err, 6, 0, "two intervals: 6");
	reading_counts(&rs, &a, &a, &c);
	check_dbl(c.err, 1, 0, "no slot counted: the floor, 1");
	check_int(read_set_perf_counts(&rs, 0), ==, -EINVAL, "no member: -EINVAL");
	check_int(read_set_perf_counts(&rs, 9), ==, -EINVAL, "nine members: -EINVAL");
}

int main(void)
{
	/* the kernel's perf group (open allocates only) */
	unsetenv("BARETMA_PERF");
	read_sets();
	exact();
	sum_not_slots();
	pairs();
	return done_testing();
}
