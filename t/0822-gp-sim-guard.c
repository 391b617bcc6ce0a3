/*
 * t/0822-gp-sim-guard.c - msr/pmu/pmu_gp.h on the simulated PMU with its
 * registers in a state file (`state FILE`, msr/sim/msr_sim.h): the whole
 * path a measurement takes - gp_pmu_init from the dump, gp_assign,
 * gp_program through a journal (the write gate), counting, gp_verify,
 * gp_reset, gp_read_msr - then the restore, which must give back the
 * state file byte for byte; also after SIGKILL, from the journal file
 * (journal_restore_data, what `baretma pmu restore` does).  Zen 4
 * (ryzen 7 7800X3D dump, 6 dispatch slots) and an Alder Lake E-core
 * (Gracemont, 5 slots).
 *
 * The counts are checked against perf's metric formulas on the profile's
 * shares (amdzen4 pipeline.json: retiring = ex_ret_ops / (6 x
 * ls_not_halted_cyc); alderlaken adln-metrics.json: tma_retiring =
 * TOPDOWN_RETIRING.ALL / (5 x CPU_CLK_UNHALTED.CORE)); register addresses
 * from linux msr-index.h; the state files' starting values are those an
 * idle Linux PMU has (GLOBAL_CTL every counter's bit: amd_pmu_v2_enable_all,
 * intel_pmu_enable_all).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "msr/journal/journal.h"
#include "msr/open/msr_open.h"
#include "msr/sim/msr_sim.h"
#include "msr/pmu/pmu_gp.h"
#include "t/fixture.h"
#include "t/pmu-fixture.h"

#define W 1000000u

static const char *shared;

static const char zen4_state[] =
	"0 0xc0000300 0x0\n0 0xc0000301 0x3f\n0 0xc0000302 0x0\n0 0xc0000303 0x0\n"
	"0 0xc0010200 0x0\n0 0xc0010201 0x7\n0 0xc0010202 0x0\n0 0xc0010203 0x0\n"
	"0 0xc0010204 0x0\n0 0xc0010205 0x0\n0 0xc0010206 0x0\n0 0xc0010207 0x0\n"
	"0 0xc0010208 0x0\n0 0xc0010209 0x0\n0 0xc001020a 0x0\n0 0xc001020b 0x2a\n";

/* cpu N of the E-core kind: its counters, both counter aliases alike */
static char *adl_state(unsigned cpu)
{
	/* IA32_PERF_CAPABILITIES (0x345) with bit 13: full-width writes */
	return t_strf("%u 0xc1 0x5\n%u 0xc2 0x0\n%u 0x186 0x0\n%u 0x187 0x0\n"
		      "%u 0x309 0x0\n%u 0x30a 0x0\n%u 0x30b 0x0\n%u 0x345 0x2000\n"
		      "%u 0x38d 0x0\n%u 0x38e 0x0\n%u 0x38f 0x70000003f\n%u 0x390 0x0\n"
		      "%u 0x391 0x0\n%u 0x392 0x0\n%u 0x4c1 0x5\n%u 0x4c2 0x0\n",
		      cpu, cpu, cpu, cpu, cpu, cpu, cpu, cpu, cpu, cpu, cpu, cpu, cpu, cpu, cpu, cpu);
}

static const char shares[] = "ghz 0\nretiring 40\nbad_speculation 10\nfrontend_bound 20\n"
			     "backend_bound 30\n";

struct machine {
	struct cpu_info ci;
	unsigned cpu;
	char state[PATH_MAX];
	char spec[PATH_MAX + 8];
};

/* The simulated machine of @rel with its registers in @text; the CPU of
 * core type @type (0: cpu 0). */
static void machine(struct machine *m, const char *rel, unsigned type, const char *name,
		    char *(*text)(unsigned), const char *fixed_text)
{
	char dump[PATH_MAX], prof[PATH_MAX];
	struct cpu_source *src;

	t_path(dump, "%s/%s", shared, rel);
	setenv("BARETMA_CPUID_DUMP", dump, 1);
	src = cpu_source_dump(dump);
	if (!src || cpu_info_identify(src, NULL, &m->ci)) {
		printf("Bail out! %s\n", dump);
		exit(1);
	}
	cpu_source_free(src);
	m->cpu = 0;
	for (unsigned k = 0; type && k < m->ci.nkinds; k++)
		if (m->ci.kinds[k].core_type == type)
			m->cpu = m->ci.kinds[k].cpus[0];
	t_path(m->state, "%s/%s.state", dir, name);
	if (text) {
		char *t = text(m->cpu);

		put_file(m->state, t);
		free(t);
	} else {
		put_file(m->state, fixed_text);
	}
	t_path(prof, "%s/%s.profile", dir, name);
	{
		char *prof_text = t_strf("%sstate %s\n", shares, m->state);

		put_file(prof, prof_text);
		free(prof_text);
	}
	t_path(m->spec, "sim:%s", prof);
}

static struct msr_dev *open_dev(const struct machine *m)
{
	struct msr_dev *dev = NULL;

	if (msr_open(m->spec, &dev)) {
		printf("Bail out! msr_open %s: %s\n", m->spec, msr_last_error());
		exit(1);
	}
	return dev;
}

/* Program @ev (cpu of @m), run W cycles of work, read: counts[@num] /
 * (@width x counts[@den]) must be @want; verify, reset to 0, restore: the
 * state file's bytes back. */
static void run_case(const struct machine *m, const char *name, const struct gp_event *ev,
		     unsigned n, unsigned num, unsigned den, unsigned width, double want)
{
	char *before = strdup(get_file(m->state)), why[512];
	struct gp_config cfg = { .nmi_watchdog = 0 };
	struct msr_dev *dev = open_dev(m);
	uint64_t vals[GP_PLAN_MAX], gc = 0;
	struct gp_pmu pmu;
	struct gp_plan p;

	check_int(gp_pmu_init(dev, m->cpu, &m->ci, &pmu, why, sizeof(why)), ==, 0, name);
	check_int(gp_assign(&pmu, ev, n, 0, 0, false, &p, why, sizeof(why)), ==, 0, "assigned");
	check_int(journal_begin(&cfg.journal, "t0822", m->spec, JOURNAL_RUN, false), ==, 0,
		  "journal");
	journal_set_dev(cfg.journal, dev);
	check_int(gp_program(dev, m->cpu, &pmu, &p, &cfg, why, sizeof(why)), ==, 0, "programmed");
	check_int(msr_sim_work(dev, m->cpu, W), ==, 0, "1e6 cycles of work");
	/* access_cycles 0: the reads themselves count nothing */
	check_int(gp_read_msr(dev, m->cpu, &pmu, &p, vals), ==, 0, "read");
	check_u64(vals[den], ==, W, "the cycles event counted the 1e6 cycles");
	check_dbl((double)vals[num] / (width * (double)vals[den]), want, 1e-12,
		  "perf's level-1 formula gives the profile's share");
	check_int(gp_verify(dev, m->cpu, &pmu, &p, &gc, why, sizeof(why)), ==, 0, "verify");
	check_int(gp_reset(dev, m->cpu, &pmu, &p, gc, 0), ==, 0, "frozen reset");
	gp_read_msr(dev, m->cpu, &pmu, &p, vals);
	ok(vals[num] == 0 && vals[den] == 0, "the counters are 0 after the reset");
	check_int(journal_restore(cfg.journal, dev), ==, 0, "journal_restore");
	check_str(get_file(m->state), before, "every byte of the state file back");
	check_int(journal_end(cfg.journal), ==, 0, "journal removed");
	msr_close(dev);
	free(before);
}

/* The same killed with SIGKILL after counting: restored from the file. */
static void killed_case(const struct machine *m, const struct gp_event *ev, unsigned n)
{
	char *before = strdup(get_file(m->state));
	struct journal_data d;
	struct msr_dev *dev;
	int status = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct gp_config cfg = { .nmi_watchdog = 0 };
		struct gp_pmu pmu;
		struct gp_plan p;

		dev = open_dev(m);
		if (journal_begin(&cfg.journal, "t0822 child", m->spec, JOURNAL_RUN, false))
			_exit(97);
		journal_set_dev(cfg.journal, dev);
		if (gp_pmu_init(dev, m->cpu, &m->ci, &pmu, NULL, 0) ||
		    gp_assign(&pmu, ev, n, 0, 0, false, &p, NULL, 0) ||
		    gp_program(dev, m->cpu, &pmu, &p, &cfg, NULL, 0))
			_exit(98);
		msr_sim_work(dev, m->cpu, W);
		/* a control write folds the counts into the state file */
		gp_reset(dev, m->cpu, &pmu, &p, (uint64_t)p.gp_used, 0);
		msr_sim_work(dev, m->cpu, W);
		raise(SIGKILL);
		_exit(99);
	}
	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "child killed by SIGKILL");
	ok(strcmp(get_file(m->state), before) != 0, "the state file is left programmed");
	check_int(journal_load(journal_file(pid), &d), ==, 0, "its journal loads");
	dev = open_dev(m);
	check_int(journal_restore_data(&d, dev), ==, 0, "restored from the journal file");
	journal_data_free(&d);
	msr_close(dev);
	check_str(get_file(m->state), before, "after SIGKILL: every byte back");
	check_int(journal_remove(pid), ==, 0, "journal removed");
	free(before);
}

/* intel/perfmon ADL gracemont: CPU_CLK_UNHALTED.CORE on fixed counter 1,
 * TOPDOWN_RETIRING.ALL 0xc2/0x00, TOPDOWN_FE_BOUND.ALL 0x71/0x00 */
static const struct gp_event grt_ev[] = {
	{ "CPU_CLK_UNHALTED.CORE", 0x3c, 0x00, 0, false, false, false, 0, 1 },
	{ "TOPDOWN_RETIRING.ALL", 0xc2, 0x00, 0, false, false, false, 0, GP_NO_FIXED },
	{ "TOPDOWN_FE_BOUND.ALL", 0x71, 0x00, 0, false, false, false, 0, GP_NO_FIXED },
};

int main(void)
{
	struct machine m;

	shared = getenv("SHARED_CPUID");
	if (!shared) {
		printf("1..0 # SKIP no CPUID dumps ($SHARED_CPUID)\n");
		return 0;
	}
	t_scratch(dir, "0822");
	unsetenv("BARETMA_MSR_TRACE");
	setenv("BARETMA_STATE_DIR", t_in(dir, "run"), 1);
	machine(&m, "libcpuid/master-history/amd/zen4/amd-ryzen-7-7800x3d-8-core-processor.test", 0,
		"zen4", NULL, zen4_state);
	/* retiring = ex_ret_ops / (6 x ls_not_halted_cyc): 40 %, no smt_contention */
	run_case(&m, "Zen 4 (state FILE): gp_pmu_init", zen4_ev, 6, 1, 0, 6, 0.40);
	killed_case(&m, zen4_ev, 6);
	machine(&m, "libcpuid/v0.6.2/intel/core_12th_gen/alder-lake-s-i9.test", 0x20, "adl-e",
		adl_state, NULL);
	/* tma_retiring = TOPDOWN_RETIRING.ALL / (5 x CPU_CLK_UNHALTED.CORE) */
	run_case(&m, "Alder Lake E-core (state FILE): gp_pmu_init", grt_ev, 3, 1, 0, 5, 0.40);
	killed_case(&m, grt_ev, 3);
	t_rm_rf(dir);
	return done_testing();
}
