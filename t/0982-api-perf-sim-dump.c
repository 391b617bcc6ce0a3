/*
 * t/0982-api-perf-sim-dump - the library's cpuid_dump option is the
 * machine the perf_event simulator (BARETMA_PERF=sim:PROFILE,
 * bench/source/perf_sim.c) models, as it is the MSR simulator's (t/0986):
 * with no $BARETMA_CPUID_DUMP and no MSR backend of the simulator, a
 * session with backend perf on CPU 7 of the Ice Lake-L dump (8 logical
 * CPUs, Top-down level 1: INDEX.tsv) opens and measures the profile's
 * shares (retiring 40, bad speculation 10, frontend 20, backend 30
 * percent: the kernel's arithmetic over the simulated counters, within a
 * point), and a session on CPU 40 of the Sapphire Rapids dump (72 CPUs,
 * level 2) measures level 2 - each its own dump's machine, not the live
 * CPU's.  It failed before: the perf simulator took its machine from
 * $BARETMA_CPUID_DUMP or the live CPU only ("cpu 7: CPU is offline or
 * absent", or a level-1 machine).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/baretma.h"
#include "t/tap.h"
#include "t/fixture.h"

static void measure(const char *dump, const char *name, int cpu, int level)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma_result r;
	struct baretma *bm;
	int rc;

	o.backend = "perf";
	o.cpu = cpu;
	o.cpuid_dump = dump;
	rc = baretma_open(&bm, &o);
	if (!ok(rc == 0, "%s dump, cpu %d, backend perf on the perf simulator: opens", name, cpu)) {
		printf("# %s\n", baretma_last_error());
		skip(5, "no session");
		return;
	}
	for (int i = 0; i < 4; i++) {
		baretma_region_begin(bm, "r");
		baretma_region_end(bm, "r");
	}
	rc = baretma_region_get(bm, "r", &r);
	ok(rc == 0, "%s: the region's result (%d)", name, rc);
	ok(r.level == level, "%s: Top-down level %d (INDEX.tsv), got %d", name, level, r.level);
	ok(fabs(r.tma[BARETMA_TMA_RETIRING] - 40) <= r.bound_pp + 1,
	   "%s: tma_retiring %.2f is the profile's 40 (bound %.2f)", name,
	   r.tma[BARETMA_TMA_RETIRING], r.bound_pp);
	ok(fabs(r.tma[BARETMA_TMA_BACKEND_BOUND] - 30) <= r.bound_pp + 1,
	   "%s: tma_backend_bound %.2f is the profile's 30", name,
	   r.tma[BARETMA_TMA_BACKEND_BOUND]);
	rc = baretma_close(bm);
	ok(rc == 0, "%s: closes (%d)", name, rc);
}

int main(void)
{
	const char *shared = t_shared_dumps();
	static char dir[PATH_MAX], run[PATH_MAX], prof[PATH_MAX], spec[PATH_MAX + 8];
	static char icl[PATH_MAX], spr[PATH_MAX];

	plan(12);
	t_path(icl, "%s/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test", shared);
	t_path(spr, "%s/libcpuid/master-history/intel/x86-64/golden-cove/"
	       "sapphire-rapids-ws-xeon-w9.test", shared);
	t_scratch(dir, "0982");
	t_path(run, "%s/run", dir);
	t_path(prof, "%s/profile", dir);
	t_put_tree(prof, "retiring 40\nbad_speculation 10\nfrontend_bound 20\n"
		   "backend_bound 30\n");
	t_path(spec, "sim:%s", prof);
	setenv("BARETMA_STATE_DIR", run, 1);
	setenv("BARETMA_PERF", spec, 1);
	unsetenv("BARETMA_CPUID_DUMP");
	unsetenv("BARETMA_MSR_TRACE");
	unsetenv("BARETMA_MSR");

	measure(icl, "Ice Lake-L", 7, 1);
	measure(spr, "Sapphire Rapids", 40, 2);
	t_rm_rf(dir);
	return done_testing();
}
