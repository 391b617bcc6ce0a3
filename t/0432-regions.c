/*
 * t/0432-regions - the named-region table of the public API (bench/region.h)
 * against vectors worked by hand from the slot-weighted method of linux
 * tools/perf/Documentation/topdown.txt (region field slots =
 * slots_b*field_b/255 - slots_a*field_a/255, summed over pairs, divided by
 * the summed slots); the arithmetic is in the comments.
 */
#include <errno.h>
#include <string.h>

#include "bench/region.h"
#include "t/tap.h"

static const struct region_verdict clean, tampered = { .tampered = true },
	overflowed = { .overflow = true };

/* The readings of the rdpmc and msr sources: TOPDOWN.SLOTS, PERF_METRICS. */
static struct read_set pm;

static struct reading rd(uint64_t slots, uint64_t metrics, uint64_t tsc)
{
	struct reading r = { .tsc = tsc, .v = { slots, metrics } };
	return r;
}

/* A table of the rdpmc and msr sources' readings. */
static void table(struct region_table *t)
{
	memset(t, 0, sizeof(*t));
	t->rs = &pm;
}

/*
 * Two pairs of one region, level 1, every level-1 sum 255:
 *   pair 1 (t/0100 vector 2): a 1000 slots 0x1F402080, b 101000 slots
 *     0x66333333: Retiring 19698.039216, Bad Spec 20074.509804, FE
 *     19949.019608, BE 40278.431373 field slots of 100000; err
 *     (1000 + 101000)/255 = 400.  TSC 100 -> 1100: 1000 ticks.
 *   pair 2: a from reset (0 slots, 0), b 255000 slots 0xFF (all
 *     retiring): Retiring 255000 of 255000; err 255000/255 = 1000.  TSC
 *     5000 -> 5600: 600 ticks.
 *   Totals: slots 355000; Retiring 274698.039216 -> 77.379729 %; Bad Spec
 *   20074.509804 -> 5.654792 %; FE 19949.019608 -> 5.619442 %; BE
 *   40278.431373 -> 11.346037 %; bound (400 + 1000)/355000 = 0.394366 pp;
 *   TSC 1600.  (A mean of the two pairs' percentages would give Retiring
 *   (19.698 + 100)/2 = 59.85 %: wrong, the second pair has 2.55x the slots.)
 */
static void two_pairs(void)
{
	static struct region_table t;
	struct baretma_result res;
	struct region *r;
	struct reading a, b;

	table(&t);
	r = region_add(&t, "solve");
	ok(r != NULL, "add a region");
	a = rd(1000, 0x1F402080, 100);
	b = rd(101000, 0x66333333, 1100);
	check_int(region_begin(&t, r, &a), ==, 0, "begin");
	check_int(t.depth, ==, 1, "depth 1 inside");
	check_int(region_end(&t, r, &b, 1), ==, 0, "end");
	check_int(t.depth, ==, 0, "depth 0 after");
	region_epoch_end(&t, &clean);
	a = rd(0, 0, 5000);
	b = rd(255000, 0xFF, 5600);
	region_begin(&t, region_add(&t, "solve"), &a);
	region_end(&t, region_find(&t, "solve"), &b, 1);
	region_epoch_end(&t, &clean);
	region_result(&t, r, 1, &res);
	check_u64(res.count, ==, 2, "two pairs");
	check_u64(res.invalid, ==, 0, "none invalid");
	check_int(res.level, ==, 1, "level 1");
	check_dbl(res.tsc, 1600, 0, "TSC 1000 + 600");
	check_dbl(res.slots, 355000, 1e-9, "slots 100000 + 255000");
	check_dbl(res.tma[BARETMA_TMA_RETIRING], 77.379729, 1e-6, "tma_retiring slot-weighted");
	check_dbl(res.tma[BARETMA_TMA_BAD_SPECULATION], 5.654792, 1e-6, "tma_bad_speculation");
	check_dbl(res.tma[BARETMA_TMA_FRONTEND_BOUND], 5.619442, 1e-6, "tma_frontend_bound");
	check_dbl(res.tma[BARETMA_TMA_BACKEND_BOUND], 11.346037, 1e-6, "tma_backend_bound");
	check_dbl(res.bound_pp, 0.394366, 1e-6, "bound (400 + 1000)/355000");
	check_dbl(res.tma[BARETMA_TMA_HEAVY_OPERATIONS], 0, 0, "no level-2 node at level 1");
	check_u64(res.flags, ==, 0, "no flags");
}

/*
 * Two pairs at level 2, each from a reset (PERF_METRICS bytes: retiring,
 * bad spec, FE, BE, heavy, br mispredict, fetch lat, mem bound):
 *   pair 1: 255000 slots, bytes 51 51 51 102 0 0 0 51: memory 51000 of
 *     backend 102000 slots; err 1000.
 *   pair 2: 25500 slots, backend and memory 255: 25500 of 25500; err 100.
 *   Sums: slots 280500, backend 127500 (45.454545 %), memory 76500
 *   (27.272727 %), core = backend - memory 51000 (18.181818 %); bound
 *   1100 / 280500 = 0.392157 pp.
 */
static void level_two(void)
{
	static struct region_table t;
	struct baretma_result res;
	struct region *r;
	struct reading a = rd(0, 0, 0), b1 = rd(255000, 0x3300000066333333ull, 10),
		b2 = rd(25500, 0xff000000ff000000ull, 20);

	table(&t);
	r = region_add(&t, "l2");
	region_begin(&t, r, &a);
	region_end(&t, r, &b1, 2);
	region_begin(&t, r, &a);
	region_end(&t, r, &b2, 2);
	region_epoch_end(&t, &clean);
	region_result(&t, r, 2, &res);
	ok(res.count == 2 && res.invalid == 0 && res.level == 2, "level 2: two valid pairs");
	check_dbl(res.slots, 280500, 1e-9, "level 2: slots 255000 + 25500");
	check_dbl(res.tma[BARETMA_TMA_BACKEND_BOUND], 45.454545, 1e-6, "tma_backend_bound 127500");
	check_dbl(res.tma[BARETMA_TMA_MEMORY_BOUND], 27.272727, 1e-6,
		  "tma_memory_bound 51000 + 25500 slots: the last count of the sum");
	check_dbl(res.tma[BARETMA_TMA_CORE_BOUND], 18.181818, 1e-6, "tma_core_bound 127500 - 76500");
	check_dbl(res.bound_pp, 0.392157, 1e-6, "bound (1000 + 100) / 280500");
	check_u64(res.flags, ==, 0, "no flags");
}

/*
 * Nested regions: outer [a0, b0], inner [a1, b1] inside it, one epoch.
 *   outer: a0 0 slots 0 -> b0 255000 slots 0xFF: 255000 retiring;
 *   inner: a1 51000 slots 0xFF -> b1 153000 slots 0xFF: 102000 retiring.
 *   Nothing is verified until the outer end; a tampered epoch makes both
 *   pairs invalid (tampered), their TSC ticks kept (20 and 8).
 */
static void nested(void)
{
	static struct region_table t;
	struct baretma_result res;
	struct region *o, *i;
	struct reading a0 = rd(0, 0, 0), a1 = rd(51000, 0xFF, 4),
		b1 = rd(153000, 0xFF, 12), b0 = rd(255000, 0xFF, 20);

	table(&t);
	o = region_add(&t, "outer");
	i = region_add(&t, "inner");
	region_begin(&t, o, &a0);
	region_begin(&t, i, &a1);
	check_int(t.depth, ==, 2, "two open");
	region_end(&t, i, &b1, 1);
	check_int(t.depth, ==, 1, "inner ended, outer open");
	region_result(&t, i, 1, &res);
	check_u64(res.count, ==, 0, "inner's pair waits for the epoch's check");
	region_end(&t, o, &b0, 1);
	region_epoch_end(&t, &clean);
	region_result(&t, i, 1, &res);
	check_dbl(res.slots, 102000, 1e-9, "inner: 102000 slots");
	check_dbl(res.tma[BARETMA_TMA_RETIRING], 100, 1e-9, "inner: all retiring");
	region_result(&t, o, 1, &res);
	check_dbl(res.slots, 255000, 1e-9, "outer: 255000 slots");

	/* the same again, tampered: every pair of the epoch is left out */
	region_begin(&t, o, &a0);
	region_begin(&t, i, &a1);
	region_end(&t, i, &b1, 1);
	region_end(&t, o, &b0, 1);
	region_epoch_end(&t, &tampered);
	region_result(&t, i, 1, &res);
	check_u64(res.count, ==, 2, "inner: two pairs");
	check_u64(res.invalid, ==, 1, "one invalid");
	check_u64(res.invalid_why.tampered, ==, 1, "as tampered");
	check_dbl(res.tsc, 16, 0, "TSC of both kept: 8 + 8");
	check_dbl(res.slots, 102000, 1e-9, "slots of the valid pair only");
	/* an overflowed epoch */
	region_begin(&t, o, &a0);
	region_end(&t, o, &b0, 1);
	region_epoch_end(&t, &overflowed);
	region_result(&t, o, 1, &res);
	check_u64(res.invalid_why.overflow, ==, 1, "outer: one overflow");
	check_u64(res.invalid_why.tampered, ==, 1, "outer: one tampered");
	check_u64(res.count, ==, 3, "outer: three pairs");
}

/* Misuse and limits are counted, never fatal. */
static void misuse(void)
{
	static struct region_table t;
	struct reading a = rd(0, 0, 0), b = rd(0, 0, 0);
	struct region *r;
	char name[REGION_NAME_MAX + 1];

	table(&t);
	r = region_add(&t, "x");
	check_int(region_end(&t, r, &b, 1), ==, -ENOENT, "end without begin: -ENOENT");
	region_begin(&t, r, &a);
	check_int(region_begin(&t, r, &a), ==, -EALREADY, "begin twice: -EALREADY");
	check_u64(r->misuse, ==, 2, "both counted as misuse");
	check_int(t.depth, ==, 1, "the second begin did not nest");
	memset(name, 'n', sizeof(name) - 1);
	name[REGION_NAME_MAX] = '\0';
	ok(region_add(&t, name) == NULL, "a 32-byte name is refused");
	ok(region_add(&t, "") == NULL, "an empty name is refused");
	for (unsigned k = 1; k < REGION_MAX; k++) {
		char nm[8] = "r";
		nm[1] = (char)('0' + k / 10);
		nm[2] = (char)('0' + k % 10);
		region_add(&t, nm);
	}
	check_int(t.n, ==, REGION_MAX, "the table fills to REGION_MAX");
	ok(region_add(&t, "one-more") == NULL, "then refuses");
	check_u64(t.lost, ==, 3, "three refusals counted");
	ok(region_find(&t, "x") == r, "the first region is still found");
}

/*
 * region_open hands out the region's own start slot for the reading (the
 * API and the harness read straight into it, last); region_unopen takes
 * back an open whose reading could not be taken.  The pair read into the
 * slot is t/0100 vector 2 again: Retiring 19.698039 %, TSC 1000 ticks.
 */
static void open_slot(void)
{
	static struct region_table t;
	struct baretma_result res;
	struct reading *a, b = rd(101000, 0x66333333, 1100);
	struct region *r;

	table(&t);
	r = region_add(&t, "o");
	a = region_open(&t, r);
	ok(a == &r->start, "open: the reading goes into the region's start");
	check_int(t.depth, ==, 1, "open: depth 1");
	ok(region_open(&t, r) == NULL, "open twice: NULL");
	check_u64(r->misuse, ==, 1, "open twice: counted as misuse");
	check_int(t.depth, ==, 1, "open twice: no nesting");
	region_unopen(&t, r);
	check_int(t.depth, ==, 0, "unopen: depth 0");
	check_int(region_end(&t, r, &b, 1), ==, -ENOENT, "unopen: the region is closed");
	region_unopen(&t, r);
	check_int(t.depth, ==, 0, "unopen of a closed region: nothing changes");
	a = region_open(&t, r);
	*a = rd(1000, 0x1F402080, 100);
	check_int(region_end(&t, r, &b, 1), ==, 0, "a pair read into the slot");
	region_epoch_end(&t, &clean);
	region_result(&t, r, 1, &res);
	ok(res.count == 1 && res.invalid == 0, "one pair counted");
	check_dbl(res.tma[BARETMA_TMA_RETIRING], 19.698039216, 1e-8, "tma_retiring 19.698 %");
	check_dbl(res.tsc, 1000, 0, "1000 TSC ticks");
}

/* Level 0 (a TSC-only session): counts and TSC ticks, no Top-down. */
static void tsc_only(void)
{
	static struct region_table t;
	struct baretma_result res;
	struct reading a = rd(0, 0, 10), b = rd(0, 0, 52);
	struct region *r;

	table(&t);
	r = region_add(&t, "t");
	region_begin(&t, r, &a);
	region_end(&t, r, &b, 0);
	region_epoch_end(&t, &clean);
	region_result(&t, r, 0, &res);
	ok(res.count == 1 && res.invalid == 0 && res.level == 0, "one pair, level 0");
	check_dbl(res.tsc, 42, 0, "42 TSC ticks");
	check_dbl(res.slots, 0, 0, "no slots");
}

/* One pair decoded (baretma_decode): t/0100 vector 2. */
static void pair(void)
{
	struct baretma_result res;
	struct baretma_reading a = { 1000, 0x1F402080, 0 }, b = { 101000, 0x66333333, 7 };

	check_int(region_decode_pair(&a, &b, 1, &res), ==, 0, "decode a pair");
	check_dbl(res.tma[BARETMA_TMA_RETIRING], 19.698039216, 1e-8, "tma_retiring 19.698 %");
	check_dbl(res.bound_pp, 0.4, 1e-9, "bound 0.4 pp");
	check_int(region_decode_pair(&a, &b, 3, &res), ==, -EINVAL, "level 3: -EINVAL");
	b = (struct baretma_reading){ 1000, 0x66333333, 7 };
	region_decode_pair(&a, &b, 1, &res);
	ok(res.invalid == 1 && res.invalid_why.zero_slots == 1 && res.level == 0,
	   "equal slots: invalid, zero slots, no numbers");
}

int main(void)
{
	read_set_perf_metrics(&pm);
	two_pairs();
	level_two();
	nested();
	misuse();
	open_slot();
	tsc_only();
	pair();
	return done_testing();
}
