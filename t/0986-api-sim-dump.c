/*
 * t/0986-api-sim-dump - the library's cpuid_dump option is the machine
 * each simulator models, as `baretma bench --cpuid-dump` is the tool's.
 * With no $BARETMA_CPUID_DUMP:
 *  - the simulated PMU (BARETMA_MSR=sim:PROFILE, backend msr): a session
 *    on CPU 7 of the Ice Lake-L dump (8 logical CPUs, level 1: INDEX.tsv)
 *    measures the profile's shares (retiring 40, bad speculation 10,
 *    frontend 20, backend 30 percent: the simulator counts them exactly,
 *    within the 8-bit bound of IA32_PERF_METRICS and half a point; Ice
 *    Lake's backend 32.5: intel/perfmon icelake_metrics.json adds 5 x
 *    INT_MISC.CLEARS_COUNT / SLOTS, one clear per 20 slots of bad
 *    speculation in the simulator, 5 x (5 x 0.10 / 20) / 5 = 2.5 points:
 *    msr/recipe/recipes_intel_pm.c, msr/sim/sim_events.c), and a
 *    session on CPU 40 of the Sapphire Rapids dump (72 CPUs, level 2)
 *    measures level 2;
 *  - the perf_event simulator (BARETMA_PERF=sim:PROFILE, backend perf,
 *    bench/source/perf_sim.c) the same, within the bound and a point (the
 *    kernel's arithmetic over the simulated topdown-* counts).
 * Each session is its own dump's machine, not the live CPU's and not the
 * machine an earlier session of the same profile modelled.  Both failed
 * before: each simulator took its machine from $BARETMA_CPUID_DUMP or the
 * live CPU only ("cpu 7: CPU is offline or absent", or a level-1 machine
 * for the Sapphire Rapids session); on backend perf the library never
 * programmed the source, so every region was refused.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/baretma.h"
#include "t/tap.h"
#include "t/fixture.h"

/* One session on @cpu of @dump through @backend's simulator (the other
 * simulator's variable unset), its region within @bound_pp + @slack of
 * the profile, @be its backend bound (Ice Lake's 30 + 2.5: below). */
static void measure(const char *dump, const char *name, int cpu, int level,
		    const char *backend, const char *spec, double slack, double be)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma_result r;
	struct baretma *bm;
	int rc;

	if (!strcmp(backend, "perf")) {
		setenv("BARETMA_PERF", spec, 1);
		unsetenv("BARETMA_MSR");
	} else {
		setenv("BARETMA_MSR", spec, 1);
		unsetenv("BARETMA_PERF");
	}
	o.backend = backend;
	o.cpu = cpu;
	o.cpuid_dump = dump;
	rc = baretma_open(&bm, &o);
	if (!ok(rc == 0, "%s dump, cpu %d, backend %s on its simulator: opens", name, cpu,
		backend)) {
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
	ok(fabs(r.tma[BARETMA_TMA_RETIRING] - 40) <= r.bound_pp + slack,
	   "%s: tma_retiring %.2f is the profile's 40 (bound %.2f)", name,
	   r.tma[BARETMA_TMA_RETIRING], r.bound_pp);
	ok(fabs(r.tma[BARETMA_TMA_BACKEND_BOUND] - be) <= r.bound_pp + slack,
	   "%s: tma_backend_bound %.2f is the profile's %g", name,
	   r.tma[BARETMA_TMA_BACKEND_BOUND], be);
	rc = baretma_close(bm);
	ok(rc == 0, "%s: closes (%d)", name, rc);
}

int main(void)
{
	const char *shared = t_shared_dumps();
	static char dir[PATH_MAX], run[PATH_MAX], prof[PATH_MAX], spec[PATH_MAX + 8];
	static char icl[PATH_MAX], spr[PATH_MAX];

	plan(24);
	t_path(icl, "%s/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test", shared);
	t_path(spr, "%s/libcpuid/master-history/intel/x86-64/golden-cove/"
	       "sapphire-rapids-ws-xeon-w9.test", shared);
	t_scratch(dir, "0986");
	t_path(run, "%s/run", dir);
	t_path(prof, "%s/profile", dir);
	t_put_tree(prof, "retiring 40\nbad_speculation 10\nfrontend_bound 20\n"
		   "backend_bound 30\n");
	t_path(spec, "sim:%s", prof);
	setenv("BARETMA_STATE_DIR", run, 1);
	unsetenv("BARETMA_CPUID_DUMP");
	unsetenv("BARETMA_MSR_TRACE");

	measure(icl, "Ice Lake-L", 7, 1, "msr", spec, 0.5, 32.5);
	measure(spr, "Sapphire Rapids", 40, 2, "msr", spec, 0.5, 30);
	measure(icl, "Ice Lake-L", 7, 1, "perf", spec, 1, 32.5);
	measure(spr, "Sapphire Rapids", 40, 2, "perf", spec, 1, 30);
	t_rm_rf(dir);
	return done_testing();
}
