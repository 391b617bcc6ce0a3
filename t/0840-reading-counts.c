/*
 * t/0840-reading-counts - the pair -> counts step of the measurement model
 * (bench/source/reading.h): read sets, a counter's difference modulo its
 * width (a wrap at 48 bits counted, a counter going back flagged), and
 * PERF_METRICS's counts in slots, against vectors worked by hand; the
 * arithmetic is next to each.
 */
#include <errno.h>
#include <string.h>

#include "bench/source/reading.h"
#include "bench/tma.h"
#include "t/tap.h"

#define TWO48 (1ull << 48)

/* A set of counters @names, @width bits each, ECX i. */
static void counters(struct read_set *rs, const char *const *names, unsigned n,
		     unsigned width)
{
	read_set_init(rs, "counters");
	for (unsigned i = 0; i < n; i++)
		read_set_add(rs, names[i], READ_COUNTER, width, i);
}

static const char *const ev[] = { "CPU_CLK_UNHALTED.THREAD", "UOPS_ISSUED.ANY",
				  "UOPS_RETIRED.RETIRE_SLOTS" };

/*
 * 48-bit counters (AMD's PERF_CTRs: linux arch/x86/events/amd/core.c
 * cntval_bits 48; on Intel the width CPUID.0AH:EAX[23:16] gives):
 *   value 0: a = 2^48 - 1000 = 0xFFFFFFFFFC18, b = 500: it wrapped once;
 *            (500 - (2^48 - 1000)) mod 2^48 = 1500 events, no flag.
 *   value 1: a = 7, b = 2^47 + 6: 2^47 - 1 events, the most a region
 *            counts (mask >> 1 = 2^47 - 1), no flag.
 *   value 2: a = 5000, b = 1000: mod 2^48 that is 2^48 - 4000, past half
 *            the range: the counter went back 4000 (a reset, or written):
 *            -4000 and TD_FLAG_SLOTS_BACK.
 */
static void wrap48(void)
{
	struct read_set rs;
	struct reading a = { .tsc = 10, .v = { TWO48 - 1000, 7, 5000 } },
		       b = { .tsc = 20, .v = { 500, (1ull << 47) + 6, 1000 } };
	struct counts c;

	counters(&rs, ev, 3, 48);
	check_int(rs.n, ==, 3, "three values");
	check_int(rs.ncounts, ==, 3, "three events, one per counter");
	ok(rs.bound == READ_BOUND_EXACT, "counters: exact counts");
	check_int(read_set_count_index(&rs, "UOPS_ISSUED.ANY"), ==, 1, "events by name");
	check_int(read_set_count_index(&rs, "TOPDOWN.SLOTS"), ==, -1, "and not one it lacks");
	check_int(reading_counts(&rs, &a, &b, &c), ==, 0, "count the pair");
	check_dbl(c.c[0], 1500, 0, "a wrap at 48 bits: 2^48 - 1000 -> 500 is 1500 events");
	check_dbl(c.c[1], (double)((1ull << 47) - 1), 0, "2^47 - 1 events: still forward");
	check_dbl(c.c[2], -4000, 0, "5000 -> 1000: back by 4000");
	check_u64(c.flags, ==, TD_FLAG_SLOTS_BACK, "and flagged slots_back");
	check_dbl(c.err, 0, 0, "counters: no quantisation error");

	/* the same wrap alone: not an error */
	a.v[2] = 1000;
	check_int(reading_counts(&rs, &a, &b, &c), ==, 0, "count again");
	check_u64(c.flags, ==, 0, "a wrap is no flag");
	check_dbl(c.c[2], 0, 0, "1000 -> 1000: 0 events");
	/* one past the most: 2^47 events are read as going back 2^47 */
	a.v[1] = 6;
	reading_counts(&rs, &a, &b, &c);
	check_dbl(c.c[1], -(double)(1ull << 47), 0, "2^47 events: back by 2^47");
	check_u64(c.flags, ==, TD_FLAG_SLOTS_BACK, "flagged");
}

/* 64-bit counts (perf's read(2)): 2^64 - 10 -> 5 is 15 events. */
static void wrap64(void)
{
	struct read_set rs;
	struct reading a = { .v = { ~0ull - 9 } }, b = { .v = { 5 } };
	struct counts c;

	counters(&rs, ev, 1, 64);
	reading_counts(&rs, &a, &b, &c);
	check_dbl(c.c[0], 15, 0, "a wrap at 64 bits: 15 events");
	check_u64(c.flags, ==, 0, "no flag");
}

/*
 * PERF_METRICS (t/0100 vector 2): a 1000 slots 0x1F402080, b 101000 slots
 * 0x66333333, both level-1 sums 255: TOPDOWN.SLOTS 100000; topdown-retiring
 * 101000*0x33/255 - 1000*0x80/255 = 20200 - 501.960784 = 19698.039216;
 * bad-spec 20200 - 1000*0x20/255 = 20074.509804; fe-bound 20200 -
 * 1000*0x40/255 = 19949.019608; be-bound 101000*0x66/255 - 1000*0x1F/255 =
 * 40400 - 121.568627 = 40278.431373; level 2 all 0; err (1000 + 101000)/255
 * = 400 slots.  tma_retiring 19.698039 %, bound 0.4 points.
 */
static void perf_metrics(void)
{
	struct read_set rs;
	struct reading a = { .tsc = 0, .v = { 1000, 0x1F402080 } },
		       b = { .tsc = 7, .v = { 101000, 0x66333333 } };
	struct counts c;
	struct td_result r;

	read_set_perf_metrics(&rs);
	check_int(rs.n, ==, 2, "PERF_METRICS: two values");
	check_str(rs.val[0].name, "TOPDOWN.SLOTS", "fixed counter 3 first");
	check_str(rs.val[1].name, "PERF_METRICS", "then PERF_METRICS");
	ok(rs.ecx[0] == ((1u << 30) | 3) && rs.ecx[1] == (1u << 29),
	   "RDPMC (1<<30)|3 and 1<<29");
	check_int(rs.ncounts, ==, 9, "nine events: TOPDOWN.SLOTS and perf's eight topdown-*");
	check_str(rs.count[0], "TOPDOWN.SLOTS", "event 0");
	check_str(rs.count[1], "topdown-retiring", "event 1");
	check_str(rs.count[4], "topdown-be-bound", "event 4");
	check_str(rs.count[8], "topdown-mem-bound", "event 8");
	ok(rs.bound == READ_BOUND_PERF_METRICS, "bounded by the 8-bit fields");
	check_int(reading_counts(&rs, &a, &b, &c), ==, 0, "count the pair");
	check_dbl(c.c[0], 100000, 0, "TOPDOWN.SLOTS 100000");
	check_dbl(c.c[1], 19698.039216, 1e-6, "topdown-retiring 19698.039216 slots");
	check_dbl(c.c[2], 20074.509804, 1e-6, "topdown-bad-spec 20074.509804 slots");
	check_dbl(c.c[3], 19949.019608, 1e-6, "topdown-fe-bound 19949.019608 slots");
	check_dbl(c.c[4], 40278.431373, 1e-6, "topdown-be-bound 40278.431373 slots");
	check_dbl(c.c[5] + c.c[6] + c.c[7] + c.c[8], 0, 0, "level 2: nothing");
	check_dbl(c.err, 400, 1e-9, "err (1000 + 101000)/255 = 400 slots");
	check_u64(c.flags, ==, 0, "no flag");
	check_int(counts_to_tma(&rs, &c, 1, &r), ==, 0, "the recipe's fractions");
	check_dbl(r.frac[TMA_RETIRING], 0.19698039216, 1e-10, "tma_retiring 19.698 %");
	check_dbl(r.bound, 0.004, 1e-12, "bound 400/100000 = 0.4 points");
	check_dbl(r.slots, 100000, 0, "its slots");

	/* slots backwards (2000 -> 1000): flagged, as td_decode_region does */
	a.v[0] = 2000;
	b.v[0] = 1000;
	a.v[1] = b.v[1] = 0xFF;
	reading_counts(&rs, &a, &b, &c);
	ok(c.flags & TD_FLAG_SLOTS_BACK, "PERF_METRICS's slots 2000 -> 1000: slots_back");
	check_dbl(c.c[0], -1000, 0, "and -1000 slots (no wrap: FC3's overflow needs both reset)");
}

/* What a read set refuses. */
static void refusals(void)
{
	struct read_set rs;
	static const char *const many[READING_MAX + 1] = {
		"e0", "e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9", "e10", "e11", "e12" };

	read_set_init(&rs, "x");
	check_int(read_set_add(&rs, "PERF_METRICS", READ_PERF_METRICS, 0, 0), ==, -EINVAL,
		  "PERF_METRICS without TOPDOWN.SLOTS before it: -EINVAL");
	check_int(read_set_add(&rs, "e", READ_COUNTER, 0, 0), ==, -EINVAL, "width 0: -EINVAL");
	check_int(read_set_add(&rs, "e", READ_COUNTER, 65, 0), ==, -EINVAL, "width 65: -EINVAL");
	for (unsigned i = 0; i < READING_MAX; i++)
		read_set_add(&rs, many[i], READ_COUNTER, 48, i);
	check_int(rs.n, ==, READING_MAX, "READING_MAX values");
	check_int(read_set_add(&rs, many[READING_MAX], READ_COUNTER, 48, 0), ==, -ENOSPC,
		  "one more: -ENOSPC");
	read_set_perf_metrics(&rs);
	check_int(read_set_add(&rs, "PERF_METRICS", READ_PERF_METRICS, 0, 0), ==, -EINVAL,
		  "a second PERF_METRICS: -EINVAL");
	check_int(reading_counts(&rs, NULL, NULL, NULL), ==, -EINVAL, "NULL readings: -EINVAL");
}

int main(void)
{
	wrap48();
	wrap64();
	perf_metrics();
	refusals();
	return done_testing();
}
