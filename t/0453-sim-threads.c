/*
 * t/0453-sim-threads.c - the simulated PMU (msr/sim/msr_sim.h) in a threaded
 * host: four threads, each with its own library session (include/
 * baretma.h) on its own CPU 0..3 of one simulated Ice Lake-L machine whose
 * profile names `state FILE`, all of them sharing the one simulated
 * machine of the profile (msr/sim/msr_sim.c's registry).  Each thread opens,
 * brackets PAIRS regions, reads the totals and closes; ROUNDS rounds.
 *
 * What must hold, every round, from outside the simulator's code:
 *   - every baretma_open, baretma_region_get and baretma_close returns 0
 *     (no -ENXIO from a CPU the state file lists, no -EINVAL from a
 *     begin/end the region table saw out of order);
 *   - each region has PAIRS pairs, none invalid, and tma_retiring is the
 *     profile's bytes worked by hand: retiring 40, bad_speculation 10,
 *     frontend_bound 20, backend_bound 30 -> round(pct x 255 / 100) = 102,
 *     25.5 -> 26, 51, 76.5 -> 77 (half away from zero, msr/sim/msr_sim.h);
 *     level-1 sum S = 256, so retiring = 102 / 256 = 39.84375 % (Ice Lake
 *     is level 1: $SHARED_CPUID/INDEX.tsv expect_topdown_levels;
 *     decoding msr/recipe/topdown.h);
 *   - FILE is byte for byte as before (the README's promise), and no
 *     journal is left in the state directory.
 * FILE lists, for CPUs 0-3, the registers of the simulator's clean file
 * (as t/0452-sim-guard.sh: 8 GP counters, CPUID.0AH:EAX[15:8] of the
 * dump): IA32_PERFEVTSELi, IA32_PMCi, IA32_A_PMCi (full-width writes:
 * PERF_CAPABILITIES bit 13; Ice Lake's recipe counts INT_MISC.UOP_DROPPING
 * and INT_MISC.CLEARS_COUNT beside PERF_METRICS), IA32_FIXED_CTR0-3, PERF_METRICS 0,
 * PERF_CAPABILITIES 0xa000, FIXED_CTR_CTRL 0, GLOBAL_CTRL 0x7000000ff (FC3
 * and PERF_METRICS free), GLOBAL_STATUS, _RESET, _SET, _INUSE 0.
 * Before the simulator serialised its accesses, one run of this test saw
 * ENXIO, out-of-order regions and a state file cut short.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "include/baretma.h"
#include "t/fixture.h"

#ifndef NTHREADS
#define NTHREADS 4
#endif
#define ROUNDS 6
#define PAIRS 25

static char dir[PATH_MAX], state[PATH_MAX], run[PATH_MAX], profile[PATH_MAX];
static char spec[PATH_MAX + 8], orig[16384];
static const char *icl;

struct worker {
	pthread_t t;
	int cpu;
	int open_rc, get_rc, close_rc;
	struct baretma_result r;
	char err[512];           /* the first failure's baretma_last_error() */
};

static void regs(char *buf, size_t n, unsigned cpu)
{
	size_t o = strlen(buf);

	for (unsigned i = 0; i < 8; i++)
		o += (size_t)snprintf(buf + o, n - o, "%u 0x%x 0x0\n%u 0x%x 0x0\n%u 0x%x 0x0\n",
				      cpu, 0x186 + i, cpu, 0xc1 + i, cpu, 0x4c1 + i);
	snprintf(buf + o, n - o,
		 "%u 0x309 0x0\n%u 0x30a 0x0\n%u 0x30b 0x0\n%u 0x30c 0x0\n%u 0x329 0x0\n"
		 "%u 0x345 0xa000\n%u 0x38d 0x0\n%u 0x38e 0x0\n%u 0x38f 0x7000000ff\n"
		 "%u 0x390 0x0\n%u 0x391 0x0\n%u 0x392 0x0\n", cpu, cpu, cpu, cpu, cpu, cpu,
		 cpu, cpu, cpu, cpu, cpu, cpu);
}

static void keep_error(struct worker *w, const char *what, int rc)
{
	if (!w->err[0])
		snprintf(w->err, sizeof(w->err), "cpu %d: %s: %s: %s", w->cpu, what,
			 strerror(-rc), baretma_last_error());
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma *bm;

	o.backend = "msr";
	o.cpu = w->cpu;
	o.cpuid_dump = icl;
	if ((w->open_rc = baretma_open(&bm, &o))) {
		keep_error(w, "open", w->open_rc);
		return NULL;
	}
	for (int i = 0; i < PAIRS; i++) {
		baretma_region_begin(bm, "r");
		baretma_region_end(bm, "r");
	}
	if ((w->get_rc = baretma_region_get(bm, "r", &w->r)))
		keep_error(w, "region_get", w->get_rc);
	if ((w->close_rc = baretma_close(bm)))
		keep_error(w, "close", w->close_rc);
	return NULL;
}

/* the journals in the test's state directory */
static int journals(void)
{
	return t_journals(run);
}

int main(void)
{
	const char *shared = getenv("SHARED_CPUID");
	static char dump[PATH_MAX], first_err[512];
	char *text;
	unsigned bad_rc = 0, bad_count = 0, bad_tma = 0, bad_state = 0, bad_journals = 0;
	double worst = 0;

	t_path(dump, "%s/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test",
	       shared && *shared ? shared : "../shared/cpuid");
	if (access(dump, R_OK))
		skip_all("no Ice Lake dump (../shared/cpuid)");
	icl = dump;
	t_scratch(dir, "0453");
	t_path(state, "%s/state", dir);
	t_path(run, "%s/run", dir);
	t_path(profile, "%s/profile", dir);
	for (unsigned cpu = 0; cpu < NTHREADS; cpu++)
		regs(orig, sizeof(orig), cpu);
	text = t_strf("ghz 0\naccess_cycles 1000\nretiring 40\nbad_speculation 10\n"
		      "frontend_bound 20\nbackend_bound 30\nstate %s\n", state);
	put_file(profile, text);
	free(text);
	snprintf(spec, sizeof(spec), "sim:%s", profile);
	setenv("BARETMA_MSR", spec, 1);
	setenv("BARETMA_CPUID_DUMP", icl, 1);
	setenv("BARETMA_STATE_DIR", run, 1);
	unsetenv("BARETMA_MSR_TRACE");

	for (int round = 0; round < ROUNDS; round++) {
		struct worker w[NTHREADS];

		put_file(state, orig); /* each round from a clean machine */
		t_rm_rf(run);
		memset(w, 0, sizeof(w));
		for (int i = 0; i < NTHREADS; i++) {
			w[i].cpu = i;
			if (pthread_create(&w[i].t, NULL, work, &w[i])) {
				printf("Bail out! pthread_create\n");
				return 1;
			}
		}
		for (int i = 0; i < NTHREADS; i++)
			pthread_join(w[i].t, NULL);
		for (int i = 0; i < NTHREADS; i++) {
			double d = fabs(w[i].r.tma[BARETMA_TMA_RETIRING] - 39.84375);

			if (w[i].open_rc || w[i].get_rc || w[i].close_rc) {
				bad_rc++;
				if (!first_err[0])
					snprintf(first_err, sizeof(first_err), "round %d: %s",
						 round, w[i].err);
				continue;
			}
			bad_count += w[i].r.count != PAIRS || w[i].r.invalid != 0;
			bad_tma += d > 1e-9;
			worst = d > worst ? d : worst;
		}
		bad_state += strcmp(get_file(state), orig) != 0;
		bad_journals += journals() != 0;
	}
	if (!ok(bad_rc == 0, "%d rounds x %d threads: every open, region_get and close returns 0",
		ROUNDS, NTHREADS))
		printf("#   %u sessions failed; the first: %s\n", bad_rc, first_err);
	if (!ok(bad_count == 0, "every session: %d pairs, none invalid", PAIRS))
		printf("#   %u sessions counted otherwise\n", bad_count);
	if (!ok(bad_tma == 0, "every session: tma_retiring 102/256 = 39.84375 %%"))
		printf("#   %u sessions off, by up to %g points\n", bad_tma, worst);
	if (!ok(bad_state == 0, "the state file byte for byte as found after every round"))
		printf("#   %u rounds left it changed\n", bad_state);
	check_int(bad_journals, ==, 0, "no journal left after any round");
	t_rm_rf(dir);
	return done_testing();
}
