/*
 * bench/benchmarks/api_overhead.c - what an empty region costs a harness: an
 * empty baretma_region_begin/baretma_region_end pair on a session, in TSC
 * ticks, against a bare `lfence; rdtsc; lfence; rdtsc; lfence` pair
 * measured in the same run, interleaved (issue 10 of the project: at most
 * 1.2x).  Run by `make benchmark`, never by `make check` (it measures the
 * machine as much as baretma).
 *
 * Per run: PAIRS pairs of each, alternating in blocks; the region's ticks
 * come from baretma_region_get (the sum of its pairs' b.tsc - a.tsc, i.e.
 * exactly what lies between its two readings); each reference's the same
 * difference of its two RDTSCs.  The references: the bare pair the issue
 * names (one LFENCE shared between the readings), the pair fenced as a
 * bracket around code must be (four LFENCEs), and that pair split in two
 * called functions (the least a library's begin and end can cost).
 * Reported over --runs runs: min / median / max of the per-run mean, and
 * the ratios of the medians.  The backend is --backend (default tsc:
 * every machine has it; rdpmc where the PMU can be used, with the same
 * references).
 *
 * usage: api_overhead [--runs N] [--backend B]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "bench/stats.h"
#include "include/baretma.h"
#include "msr/rdpmc.h"

#define PAIRS 200000u
#define BLOCK 1000u

/*
 * BLOCK pairs of two RDTSCs around nothing, with the fences in @asm_text (its
 * operands: %0/%1 the first reading's EAX/EDX, EAX/EDX the second's):
 * the summed differences in TSC ticks.
 */
#define PAIR_BLOCK(asm_text)                                                              \
	do {                                                                              \
		uint64_t sum = 0;                                                         \
		for (unsigned i = 0; i < BLOCK; i++) {                                    \
			uint32_t lo0, hi0, lo1, hi1;                                      \
			__asm__ __volatile__(asm_text                                     \
					     : "=&r"(lo0), "=&r"(hi0), "=a"(lo1), "=d"(hi1) \
					     :: "memory");                                \
			sum += (((uint64_t)hi1 << 32) | lo1) -                           \
			       (((uint64_t)hi0 << 32) | lo0);                             \
		}                                                                         \
		return (double)sum;                                                       \
	} while (0)

/* The bare pair: lfence; rdtsc; lfence; rdtsc; lfence. */
static double bare_block(void)
{
	PAIR_BLOCK("lfence\n\trdtsc\n\tlfence\n\tmov %%eax, %0\n\tmov %%edx, %1\n\t"
		   "rdtsc\n\tlfence");
}

/* The same pair with the fencing a bracket around a non-empty region
 * needs: the first reading's trailing LFENCE keeps the region from
 * starting before its RDTSC, the second's leading LFENCE keeps its RDTSC
 * from passing the region (SDM vol. 2B, RDTSC: "If software requires
 * RDTSC to be executed only after all previous instructions have executed
 * ... it can execute LFENCE immediately before RDTSC", and "... prior to
 * execution of any subsequent instruction ... LFENCE immediately after").
 * The bare pair shares one LFENCE between the two; no region can. */
static double fenced_block(void)
{
	PAIR_BLOCK("lfence\n\trdtsc\n\tlfence\n\tmov %%eax, %0\n\tmov %%edx, %1\n\t"
		   "lfence\n\trdtsc\n\tlfence");
}

/* The fenced pair split across two functions that are called, the least
 * a library's begin and end can be: a return and a call between the
 * readings. */
static __attribute__((noinline)) uint64_t call_begin(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

static __attribute__((noinline)) uint64_t call_end(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

static double call_block(void)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < BLOCK; i++) {
		uint64_t a = call_begin();

		sum += call_end() - a;
	}
	return (double)sum;
}

int main(int argc, char **argv)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	unsigned runs = 11;
	double *api = NULL, *bare = NULL, *fenced = NULL, *called = NULL;
	struct utsname u;
	int rc = 1;

	o.backend = "tsc"; /* every machine has it; --backend rdpmc where the PMU can be used */

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--backend") && i + 1 < argc)
			o.backend = argv[++i];
		else {
			fprintf(stderr, "usage: api_overhead [--runs N] [--backend B]\n");
			return 64;
		}
	}
	if (!runs || !(api = calloc(runs, sizeof(double))) || !(bare = calloc(runs, sizeof(double))) ||
	    !(fenced = calloc(runs, sizeof(double))) || !(called = calloc(runs, sizeof(double))))
		goto out;
	uname(&u);
	printf("machine: %s %s, %s\n", u.machine, u.release, u.nodename);
	for (unsigned r = 0; r < runs; r++) {
		struct baretma *bm;
		struct baretma_result res;
		double b = 0, f = 0, c = 0;

		if (baretma_open(&bm, &o) < 0) {
			fprintf(stderr, "api_overhead: %s\n", baretma_last_error());
			goto out;
		}
		for (unsigned done = 0; done < PAIRS; done += BLOCK) {
			for (unsigned i = 0; i < BLOCK; i++) {
				baretma_region_begin(bm, "empty");
				baretma_region_end(bm, "empty");
			}
			b += bare_block();
			f += fenced_block();
			c += call_block();
		}
		baretma_region_get(bm, "empty", &res);
		api[r] = res.tsc / (double)res.count;
		bare[r] = b / PAIRS;
		fenced[r] = f / PAIRS;
		called[r] = c / PAIRS;
		baretma_close(bm);
	}
	struct bench_stats sa, sb, sf, sc;

	bench_stats_compute(api, runs, &sa);
	bench_stats_compute(bare, runs, &sb);
	bench_stats_compute(fenced, runs, &sf);
	bench_stats_compute(called, runs, &sc);
	printf("backend %s, %u runs of %u pairs each (mean TSC ticks per pair: min / median / max)\n",
	       o.backend, runs, PAIRS);
	printf("  empty region pair      %8.2f %8.2f %8.2f\n", sa.min, sa.median, sa.max);
	printf("  bare lfence;rdtsc pair %8.2f %8.2f %8.2f\n", sb.min, sb.median, sb.max);
	printf("  fenced pair (4 LFENCE) %8.2f %8.2f %8.2f\n", sf.min, sf.median, sf.max);
	printf("  fenced pair, 2 calls   %8.2f %8.2f %8.2f\n", sc.min, sc.median, sc.max);
	printf("  region / bare          %8.3f (issue 10: at most 1.2)\n", sa.median / sb.median);
	printf("  region / fenced pair   %8.3f\n", sa.median / sf.median);
	printf("  region / 2-call pair   %8.3f\n", sa.median / sc.median);
	rc = 0;
out:
	free(api);
	free(bare);
	free(fenced);
	free(called);
	return rc;
}
