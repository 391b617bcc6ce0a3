/*
 * examples/gbench/gbench_example.cc - two google-benchmark benchmarks with
 * their Top-down in the user counters (baretma_gbench.h):
 *
 *     c++ -O2 gbench_example.cc $(pkg-config --cflags --libs baretma) -lbenchmark
 *     sudo ./a.out --benchmark_format=json     # tma_* beside the times
 *     BARETMA_MSR=sim:PROFILE BARETMA_CPUID_DUMP=DUMP BARETMA_BACKEND=msr ./a.out
 *                                              # a dry run on the simulator
 */
#include <vector>

#include "baretma_gbench.h"

static void BM_harmonic(benchmark::State &state)
{
	baretma_gbench::scope td(state);

	for (auto _ : state) {
		double x = 0;

		for (int i = 1; i <= 1000; i++)
			x += 1.0 / i;
		benchmark::DoNotOptimize(x);
	}
}
BENCHMARK(BM_harmonic);

static void BM_walk(benchmark::State &state)
{
	std::vector<unsigned> next(1u << 16);

	for (unsigned i = 0; i < next.size(); i++)
		next[i] = (i * 40503u + 1) % next.size();
	baretma_gbench::scope td(state); /* after the set-up */
	for (auto _ : state) {
		unsigned p = 0;

		for (int i = 0; i < 1000; i++)
			p = next[p];
		benchmark::DoNotOptimize(p);
	}
}
BENCHMARK(BM_walk);

BENCHMARK_MAIN();
