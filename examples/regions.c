/*
 * examples/regions.c - measure named regions of your own code with
 * libbaretma: open a session, bracket regions, read their Top-down, close.
 *
 *     cc -O2 regions.c $(pkg-config --cflags --libs baretma) -o regions
 *     sudo ./regions            # backend auto, a CPU with PERF_METRICS
 *     ./regions tsc             # TSC ticks only, works everywhere
 *
 * Arguments (all optional): BACKEND (auto, rdpmc, msr, tsc), CPU (-1:
 * choose), CPUID-DUMP (describe another machine: a dry run with
 * BARETMA_MSR=state:FILE).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <baretma.h>

static volatile unsigned long sink;

/* Some work: a dependent chain (core bound), then independent adds. */
static void solve(unsigned n)
{
	unsigned long x = 1;

	for (unsigned i = 0; i < n; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	sink = x;
}

static void update(unsigned n)
{
	unsigned long a = 0, b = 0, c = 0, d = 0;

	for (unsigned i = 0; i < n; i++) {
		a += i;
		b ^= i;
		c += i << 1;
		d |= i;
	}
	sink = a + b + c + d;
}

static void show(struct baretma *bm, const char *name)
{
	struct baretma_result r;
	int rc = baretma_region_get(bm, name, &r);

	if (rc == -ENOENT) {
		fprintf(stderr, "regions: %s\n", baretma_last_error());
		return;
	}
	if (rc < 0) /* begin/end out of order: said, the counts still hold */
		fprintf(stderr, "regions: %s\n", baretma_last_error());
	printf("%-7s count %llu, %.0f TSC ticks", name, (unsigned long long)r.count, r.tsc);
	if (!r.level) {
		if (r.invalid)
			printf(", no Top-down: %llu of %llu pairs invalid\n",
			       (unsigned long long)r.invalid, (unsigned long long)r.count);
		else
			printf(" (a TSC-only session: no Top-down here)\n");
		return;
	}
	printf(", %.0f slots, +/- %.2f pp\n", r.slots, r.bound_pp);
	for (int m = 0; m < BARETMA_TMA_N; m++)
		if (m < 4 || r.level == 2)
			printf("  %-24s %6.2f %%\n", baretma_tma_name((enum baretma_tma)m), r.tma[m]);
}

int main(int argc, char **argv)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma *bm;

	if (argc > 1)
		o.backend = argv[1];
	if (argc > 2)
		o.cpu = atoi(argv[2]);
	if (argc > 3)
		o.cpuid_dump = argv[3];
	if (baretma_open(&bm, &o) < 0) {
		fprintf(stderr, "regions: %s\n", baretma_last_error());
		return 1;
	}
	for (int i = 0; i < 100; i++) {
		baretma_region_begin(bm, "step");
		baretma_region_begin(bm, "solve");
		solve(20000);
		baretma_region_end(bm, "solve");
		baretma_region_begin(bm, "update");
		update(20000);
		baretma_region_end(bm, "update");
		baretma_region_end(bm, "step");
	}
	show(bm, "step");
	show(bm, "solve");
	show(bm, "update");
	if (baretma_close(bm) < 0) {
		fprintf(stderr, "regions: %s\n", baretma_last_error());
		return 1;
	}
	return 0;
}
