/*
 * t/0854-events-api - the library (include/baretma.h) on a core whose
 * Top-down comes from an event recipe: an Alder Lake E-core (the Alder
 * Lake-S dump's first Atom CPU, intel-ecore-l1) and a Zen 4 (epyc-genoa,
 * amd-zen4), on the simulated PMU of their real dumps (msr/sim/msr_sim.h).  A
 * region is measured once, so the library takes the highest level whose
 * events fit one pass (level 1: one pass on both, t/0850) and refuses a
 * level asked for that needs passes (level 2: 2 and 3 passes).
 *
 * The values: the simulator counts every event at the profile's shares
 * (no access_* key: the accesses at the work's shares), and with `ghz 0`
 * only its accesses advance the counters (access_cycles each), never real
 * time: every counter of a reading is then read after the same accesses,
 * however the machine's load spreads the reads in time (with time-based
 * cycles a reading preempted between two of its counters gave them
 * different spans: shares off by 0.1 under load).  So whatever the
 * region's length, the recipes' level-1 formulas give the profile back
 * (worked in t/0850: E-core TOPDOWN_*.ALL / (5 x CPU_CLK_UNHALTED.CORE),
 * Zen 4 perf's pipeline.json over 6 x ls_not_halted_cyc): 40/10/20/30 and
 * 40/10/20/25 (+ smt_contention 5, which the result's twelve nodes do not
 * hold).  Counts are exact: bound_pp 0.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "include/baretma.h"
#include "t/tap.h"
#include "t/fixture.h"

static char dir[PATH_MAX], run[PATH_MAX], prof[PATH_MAX], spec[PATH_MAX + 8];

/* The first CPU of @dump whose CPUID 0x1A EAX[31:24] is 0x20 (Atom), read
 * from the dump's text ("Logical CPU #N", "CPUID 0000001A: EAX-..."). */
static int first_atom(const char *dump)
{
	FILE *f = fopen(dump, "r");
	char line[512];
	int cpu = -1, found = -1;

	while (f && found < 0 && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "Logical CPU #");

		if (p)
			cpu = atoi(p + 13);
		else if (!strncmp(line, "CPUID 0000001A:", 15) && strstr(line, ": 20"))
			found = cpu;
	}
	if (f)
		fclose(f);
	return found;
}

static volatile unsigned long sink;
static char nmbuf[8][256];
static int nmi;

/* A test name: "@what: @text" (the check_* macros take a string). */
static const char *nm(const char *what, const char *text)
{
	char *b = nmbuf[nmi++ % 8];

	snprintf(b, sizeof(nmbuf[0]), "%s: %s", what, text);
	return b;
}

static void work(void)
{
	for (unsigned long i = 0; i < 2000000; i++)
		sink += i;
}

/* Open on @dump's @cpu at @level with the profile @text. */
static int open_on(struct baretma **bm, const char *dump, int cpu, int level, const char *text)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;

	put_file(prof, text);
	setenv("BARETMA_CPUID_DUMP", dump, 1); /* the simulator's machine */
	o.cpu = cpu;
	o.backend = "msr";
	o.level = level;
	o.cpuid_dump = dump;
	return baretma_open(bm, &o);
}

static void one(const char *what, const char *dump, int cpu, const char *text,
		const double want[4], const char *passes_word)
{
	struct baretma *bm = NULL;
	struct baretma_result r;
	int rc = open_on(&bm, dump, cpu, 0, text);

	if (!ok(rc == 0, "%s: opened at the default level (%s)", what, baretma_last_error())) {
		skip(9, "not opened");
		return;
	}
	baretma_region_begin(bm, "work");
	work();
	baretma_region_end(bm, "work");
	check_int(baretma_region_get(bm, "work", &r), ==, 0, nm(what, "the region's result"));
	check_int(r.level, ==, 1, nm(what, "level 1, the highest one pass holds"));
	ok(r.count == 1 && r.invalid == 0 && r.slots > 0, "%s: one valid pair, slots counted", what);
	check_dbl(r.tma[BARETMA_TMA_RETIRING], want[0], 1e-6, nm(what, "tma_retiring"));
	check_dbl(r.tma[BARETMA_TMA_BAD_SPECULATION], want[1], 1e-6, nm(what, "tma_bad_speculation"));
	check_dbl(r.tma[BARETMA_TMA_FRONTEND_BOUND], want[2], 1e-6, nm(what, "tma_frontend_bound"));
	check_dbl(r.tma[BARETMA_TMA_BACKEND_BOUND], want[3], 1e-6, nm(what, "tma_backend_bound"));
	check_dbl(r.bound_pp, 0, 0, nm(what, "exact counts, bound 0"));
	check_int(baretma_close(bm), ==, 0, nm(what, "closed, everything put back"));

	/* level 2 needs passes: refused, saying so */
	bm = NULL;
	rc = open_on(&bm, dump, cpu, 2, text);
	check_int(rc, ==, -EINVAL, nm(what, "level 2 asked for: -EINVAL"));
	ok(strstr(baretma_last_error(), passes_word) &&
	   strstr(baretma_last_error(), "a region is measured once"),
	   "%s: ... saying why (%s): %s", what, passes_word, baretma_last_error());
	check_int(t_journals(run), ==, 0, nm(what, "no journal left"));
}

int main(void)
{
	const char *shared = getenv("SHARED_CPUID");
	static char adls[PATH_MAX], zen4[PATH_MAX];
	static const double intel[4] = { 40, 10, 20, 30 }, amd[4] = { 40, 10, 20, 25 };
	int ecore;

	t_scratch(dir, "0854");
	t_path(run, "%s/run", dir);
	t_path(prof, "%s/profile", dir);
	snprintf(spec, sizeof(spec), "sim:%s", prof);
	setenv("BARETMA_MSR", spec, 1);
	setenv("BARETMA_STATE_DIR", run, 1);
	unsetenv("BARETMA_MSR_TRACE");
	t_path(adls, "%s/libcpuid/v0.6.2/intel/core_12th_gen/alder-lake-s-i9.test",
	       shared && *shared ? shared : "../shared/cpuid");
	t_path(zen4, "%s/libcpuid/master-history/amd/zen4/epyc-genoa.test",
	       shared && *shared ? shared : "../shared/cpuid");
	if (access(adls, R_OK) || (ecore = first_atom(adls)) < 0) {
		skip(13, "no Alder Lake-S dump with an E-core");
	} else {
		one("E-core", adls, ecore, "ghz 0\naccess_cycles 1000\n"
		    "retiring 40\nbad_speculation 10\nfrontend_bound 20\n"
		    "backend_bound 30\n", intel, "takes 2 passes");
	}
	if (access(zen4, R_OK))
		skip(13, "no Zen 4 dump");
	else
		one("Zen 4", zen4, 0, "ghz 0\naccess_cycles 1000\n"
		    "retiring 40\nbad_speculation 10\nfrontend_bound 20\n"
		    "backend_bound 25\nsmt_contention 5\n", amd, "takes 3 passes");
	t_rm_rf(dir);
	return done_testing();
}
