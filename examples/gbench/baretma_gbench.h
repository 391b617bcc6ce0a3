/*
 * baretma_gbench.h - each google-benchmark benchmark's Top-down level 1/2
 * shares and slots in its user counters (state.counters), so that
 * --benchmark_format=json carries tma_* beside the times.  A header over
 * the public API of <baretma.h>; nothing else (man 3 baretma).
 *
 *     #include "baretma_gbench.h"
 *     static void BM_sum(benchmark::State &state)
 *     {
 *             baretma_gbench::scope td(state); // one region around the loop
 *             for (auto _ : state)
 *                     sum();
 *     }
 *
 * Counters of each run (the last begin/end pair: the benchmark's timed
 * loop, run once per call as google-benchmark calls it): tma_* in percent
 * of slots (level-2 nodes at level 2), slots, tma_bound_pp (the 8-bit
 * quantisation bound, percentage points).  None when the session has no
 * Top-down (a TSC-only session: a VM, an AMD CPU without a virtual PMU).
 * The session: one per thread, opened at its first benchmark with the
 * markers' variables BARETMA_CPU, BARETMA_BACKEND, BARETMA_LEVEL and
 * BARETMA_CPUID_DUMP (a dry run on the simulator: BARETMA_MSR=sim:PROFILE),
 * closed at the thread's exit; an error is printed once, and the
 * benchmarks run without counters.
 */
#ifndef BARETMA_GBENCH_H
#define BARETMA_GBENCH_H

#include <benchmark/benchmark.h>
#include <baretma.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace baretma_gbench {

struct session {
	struct baretma *bm = nullptr;
	session()
	{
		struct baretma_options o = BARETMA_OPTIONS_INIT;
		const char *v;

		if ((v = std::getenv("BARETMA_CPU")) && *v)
			o.cpu = std::atoi(v);
		if ((v = std::getenv("BARETMA_BACKEND")) && *v)
			o.backend = v;
		if ((v = std::getenv("BARETMA_LEVEL")) && *v)
			o.level = std::atoi(v);
		if ((v = std::getenv("BARETMA_CPUID_DUMP")) && *v)
			o.cpuid_dump = v;
		if (baretma_open(&bm, &o) < 0)
			std::fprintf(stderr, "baretma_gbench: no counters: %s\n", baretma_last_error());
	}
	~session() { baretma_close(bm); }
	static struct baretma *get()
	{
		static thread_local session s;
		return s.bm;
	}
};

class scope {
	benchmark::State &st_;
	struct baretma *bm_;

public:
	explicit scope(benchmark::State &st) : st_(st), bm_(session::get())
	{
		if (bm_)
			baretma_region_begin(bm_, "baretma_gbench");
	}
	~scope()
	{
		struct baretma_region_stats s;

		if (!bm_)
			return;
		baretma_region_end(bm_, "baretma_gbench");
		if (baretma_region_stats(bm_, "baretma_gbench", &s) || !s.last.level ||
		    s.last.invalid)
			return;
		st_.counters["slots"] = s.last.slots;
		st_.counters["tma_bound_pp"] = s.last.bound_pp;
		for (int m = 0; m < BARETMA_TMA_N; m++)
			if ((m < BARETMA_TMA_HEAVY_OPERATIONS || s.last.level == 2) &&
			    !std::isnan(s.last.tma[m]))
				st_.counters[baretma_tma_name((enum baretma_tma)m)] = s.last.tma[m];
	}
	scope(const scope &) = delete;
	scope &operator=(const scope &) = delete;
};

} // namespace baretma_gbench

#endif
