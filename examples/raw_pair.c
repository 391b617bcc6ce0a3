/*
 * examples/raw_pair.c - the header-only fast path: two raw readings
 * (baretma_read: LFENCE; RDPMC TOPDOWN.SLOTS; RDPMC PERF_METRICS; RDTSC;
 * LFENCE) around a region and baretma_decode of the pair.  RDPMC needs the
 * counters running and user-space RDPMC allowed on the CPU the thread runs
 * on: here a session on the rdpmc backend arranges both (`baretma pmu
 * enable` and a pinned thread would too).  Where that cannot work (no
 * Intel PMU, a VM), it says why and exits 0 without reading.
 *
 *     cc -O2 raw_pair.c $(pkg-config --cflags --libs baretma)
 */
#include <stdio.h>

#include <baretma.h>

static volatile unsigned long sink;

int main(void)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma_reading a, b;
	struct baretma_result r;
	struct baretma *bm;
	unsigned long x = 0;

	o.backend = "rdpmc";
	/* baretma_decode takes the difference of the two readings: the counters
	 * must count on through the first, which metrics-clear mode (the
	 * default on Lion Cove and later) would clear */
	o.region_method = "delta";
	if (baretma_open(&bm, &o) < 0) {
		printf("raw_pair: no RDPMC here, nothing read: %s\n", baretma_last_error());
		return 0;
	}
	baretma_read(&a);
	for (unsigned long i = 0; i < 100000; i++)
		x += i * i;
	baretma_read(&b);
	sink = x;
	if (baretma_decode(&a, &b, 1, &r) == 0 && r.level)
		printf("raw_pair: %.0f slots, %.0f TSC ticks, retiring %.2f %% +/- %.2f pp\n",
		       r.slots, r.tsc, r.tma[BARETMA_TMA_RETIRING], r.bound_pp);
	else
		printf("raw_pair: %.0f TSC ticks, no Top-down for this pair (flags 0x%x)\n", r.tsc,
		       r.flags);
	return baretma_close(bm) < 0;
}
