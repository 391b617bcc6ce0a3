/*
 * bench/benchmarks/stat_cost.c - what `baretma stat` costs (issue 19,
 * "Speed"; issue 30, "stat"): one interval end per CPU - the tamper check,
 * the counters frozen and read, the overflow check, the counts and the
 * reset (bench/stat.h stat_cost_ns), outside any measured work - on the
 * simulated PMU (msr/sim/msr_sim.h) of a CPUID dump's CPUs, in
 * one guarded run as the command makes it, split into what the simulator
 * spends and what baretma spends; the MSR accesses an interval end makes per
 * CPU, and what each would add on a real machine; the start-up for one CPU
 * and for all; and the interval timer's drift: how late each of 100
 * absolute deadlines 100 ms apart woke (stat_drift), median and maximum in
 * microseconds.  Run by `make benchmark`, never by `make check` (it
 * measures the machine as much as baretma).
 *
 * The split.  The run's backend is the simulator behind a meter (below):
 * the same handle, the same journal and write gate, in three modes taken
 * in turn, block by block, so that all three share the machine's
 * conditions:
 *   pass    every access goes to the simulator: the total;
 *   memory  every access is answered from a copy of the registers in memory
 *           (the simulator's last values, and what was written since): the
 *           same loop with a backend that costs a table look-up, i.e.
 *           baretma's part (the reading, the checks, the counts, the
 *           recipe's samples), an upper bound since the look-up is in it;
 *   timed   as pass, with CLOCK_MONOTONIC read around each of the
 *           simulator's calls: the time inside them (a check on total -
 *           baretma's part; the clock's own cost shows up in the total).
 * The simulator's part is the total less baretma's part.  The counters do
 * not count in memory mode (nothing moves them): the counts are the same
 * work on other numbers.
 *
 * usage: stat_cost --cpuid-dump FILE [--rounds N] [--startups N]
 *                  [--intervals N] [--period MS]
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/source/avail.h"
#include "bench/stat.h"
#include "cpu/machine.h"
#include "msr/guard/guard.h"
#include "msr/access/msr.h"
#include "msr/sim/msr_sim.h"

/* What baretma's part of an interval end may cost per CPU (issue 30). */
#define BUDGET_US 5.0

/*
 * What a real machine adds per MSR access, not measured here (this
 * machine has no msr device): each pread(2) of /dev/cpu/N/msr reads one
 * register, "A larger size means multiple reads or writes of the same
 * register" (linux arch/x86/kernel/msr.c), by rdmsr_safe_on_cpu, an
 * inter-processor interrupt to CPU N unless the caller runs there
 * (arch/x86/lib/msr-smp.c: smp_call_function_single).  The figures are
 * others' measurements:
 *  - LOCAL: a pread of an MSR by a thread pinned with `taskset -c 0`,
 *    217-279 ns each over 2,000,000 reads on a Ryzen 9 3950X under Linux
 *    (iximeow, "msr read characteristics", gist.github.com/iximeow/
 *    62c967d2fad28d70aa333f8310bfac4c);
 *  - REMOTE: a read that crosses CPUs through smp_call_function_single
 *    (the msr driver's path too): 7-8 us for a perf event of another CPU
 *    against about 2 us for one of the reading CPU, on an AWS m7i.8xlarge
 *    (Sapphire Rapids, a guest: each IPI exits to the hypervisor, so bare
 *    metal is likely faster) (iopsystems/rezolus issue #965).
 */
#define REAL_LOCAL_US_LO 0.217
#define REAL_LOCAL_US_HI 0.279
#define REAL_REMOTE_US_LO 7.0
#define REAL_REMOTE_US_HI 8.0

/* ------------------------------------------------------------ the meter */

enum meter_mode { METER_PASS, METER_MEMORY, METER_TIMED, METER_MODES };

struct reg_slot {
	uint64_t key; /* (cpu + 1) << 32 | msr; 0: empty */
	uint64_t val;
};

#define REG_SLOTS (1u << 15) /* 72 CPUs x ~60 registers, a quarter full */

struct meter {
	void *sim;                 /* the simulator's context */
	enum meter_mode mode;
	unsigned long reads[METER_MODES], writes[METER_MODES];
	double sim_ns;             /* inside the simulator's calls, timed mode */
	struct reg_slot *reg;      /* the registers as last seen or written */
};

static struct reg_slot *slot(struct meter *m, unsigned cpu, uint32_t msr)
{
	uint64_t key = ((uint64_t)cpu + 1) << 32 | msr;
	uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 49) & (REG_SLOTS - 1);

	while (m->reg[h].key && m->reg[h].key != key)
		h = (h + 1) & (REG_SLOTS - 1);
	m->reg[h].key = key;
	return &m->reg[h];
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int meter_open(void *ctx, unsigned cpu)
{
	struct meter *m = ctx;

	return msr_sim_ops.open(m->sim, cpu);
}

static int meter_read(void *ctx, unsigned cpu, uint32_t msr, uint64_t *val)
{
	struct meter *m = ctx;
	struct reg_slot *s;
	double t0 = 0;
	int rc;

	m->reads[m->mode]++;
	if (m->mode == METER_MEMORY && (s = slot(m, cpu, msr))->val != UINT64_MAX) {
		*val = s->val;
		return 0;
	}
	if (m->mode == METER_TIMED)
		t0 = now_ns();
	rc = msr_sim_ops.read(m->sim, cpu, msr, val);
	if (m->mode == METER_TIMED)
		m->sim_ns += now_ns() - t0;
	if (!rc && m->mode != METER_TIMED) /* timed: the table costs nothing there */
		slot(m, cpu, msr)->val = *val;
	return rc;
}

static int meter_write(void *ctx, unsigned cpu, uint32_t msr, uint64_t val)
{
	struct meter *m = ctx;
	double t0 = 0;
	int rc;

	m->writes[m->mode]++;
	if (m->mode == METER_MEMORY) {
		slot(m, cpu, msr)->val = val;
		return 0;
	}
	if (m->mode == METER_TIMED)
		t0 = now_ns();
	rc = msr_sim_ops.write(m->sim, cpu, msr, val);
	if (m->mode == METER_TIMED)
		m->sim_ns += now_ns() - t0;
	if (!rc && m->mode != METER_TIMED)
		slot(m, cpu, msr)->val = val;
	return rc;
}

static void meter_close(void *ctx)
{
	struct meter *m = ctx;

	msr_sim_ops.close(m->sim);
	free(m->reg);
	free(m);
}

/* "sim": the harness takes it for the simulator it wraps (bench/identify.c) */
static const struct msr_ops meter_ops = {
	.name = "sim", .open = meter_open, .read = meter_read, .write = meter_write,
	.close = meter_close,
};

static struct meter *the_meter; /* the one meter_ctx_new made */

static int meter_ctx_new(const char *arg, const char *cpuid_dump, void **ctx, char **err)
{
	struct meter *m = calloc(1, sizeof(*m));
	int rc;

	if (!m || !(m->reg = calloc(REG_SLOTS, sizeof(*m->reg)))) {
		free(m);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < REG_SLOTS; i++)
		m->reg[i].val = UINT64_MAX; /* not seen (a key without a value yet) */
	if ((rc = msr_sim_ctx_new(arg, cpuid_dump, &m->sim, err))) {
		free(m->reg);
		free(m);
		return rc;
	}
	*ctx = the_meter = m;
	return 0;
}

static const struct msr_backend meter_backend = {
	.prefix = "sim:", .ops = &meter_ops, .ctx_new = meter_ctx_new,
	.what = "the simulated PMU behind stat_cost's meter",
};

/* ------------------------------------------------------------- the run */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n ? v[n / 2] : 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* A scratch directory for the profile and the run's journal and locks. */
static int scratch(char *dir, size_t n, char *profile, size_t pn)
{
	const char *t = getenv("TMPDIR");
	FILE *f;

	snprintf(dir, n, "%s/baretma-stat-cost-XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(dir))
		return -errno;
	snprintf(profile, pn, "%s/profile", dir);
	f = fopen(profile, "we");
	if (!f)
		return -errno;
	/* every cycle a work cycle at these shares (msr/sim/msr_sim.h) */
	fputs("ghz 1\naccess_cycles 0\nretiring 40\nbad_speculation 10\nfrontend_bound 20\n"
	      "backend_bound 30\n", f);
	return fclose(f) ? -errno : 0;
}

/* What one run measured. */
struct cost {
	int ncpus;
	double startup_ms;          /* machine, sessions, guard, program, first reading */
	double us[METER_MODES];     /* per CPU per interval end, median of the blocks */
	double reads, writes;       /* accesses per CPU per interval end (pass mode) */
	double sim_us;              /* inside the simulator's calls, per CPU per end */
	double clock_ns;            /* one CLOCK_MONOTONIC read */
};

#define BLOCKS 10u

/* One guarded run of stat on @want CPUs of @dump (0: the default set,
 * every CPU with a recipe); with @rounds the interval ends timed (in
 * BLOCKS blocks, each mode in turn), else the start-up only. */
static int run(const char *dump, const char *profile, int want, unsigned rounds,
	       struct cost *c)
{
	char *err = NULL, *why = NULL; /* err: cpu_machine_open's (a benchmark tool's own line) */
	struct cpu_machine *m = NULL;
	struct msr_dev *dev = NULL;
	struct stat_run *r = NULL;
	struct guard *g = NULL;
	struct guard_opts go = { .kind = JOURNAL_RUN, .cmd = "stat_cost",
				 .backend = getenv("BARETMA_MSR") };
	unsigned one = 0, per = rounds / BLOCKS ? rounds / BLOCKS : 1;
	double t0 = now_ns(), bm[METER_MODES][BLOCKS], sim[BLOCKS];
	unsigned long r0[METER_MODES], w0[METER_MODES], begin_r = 0, begin_w = 0;
	const unsigned *cpus;
	int rc = cpu_machine_open(dump, &m, &err);

	if (rc) {
		fprintf(stderr, "stat_cost: cannot read '%s': %s\n", dump, err ? err : strerror(-rc));
		free(err);
		return rc;
	}
	if ((rc = msr_dev_open(&meter_backend, profile, dump, &dev))) {
		fprintf(stderr, "stat_cost: cannot open the simulator: %s\n", msr_last_error());
		goto out;
	}
	struct stat_options o = { .machine = m, .dev = dev };
	struct cpu_info ci;

	if (want == 1 && !bench_identify(m, NULL, -1, &ci) && stat_default_cpus(&ci, &one, 1)) {
		o.cpus = &one;
		o.ncpus = 1;
	}
	if ((rc = stat_open(&o, &r, &why))) {
		fprintf(stderr, "stat_cost: %s\n", why ? why : strerror(-rc));
		goto out;
	}
	c->ncpus = stat_cpus(r, &cpus);
	if ((rc = guard_new(&g, &go)) ||
	    (rc = guard_start(g, dev, stat_info(r), cpus, c->ncpus, true, JOURNAL_RUN, false))) {
		fprintf(stderr, "stat_cost: the guarded run: %s\n", g ? guard_message(g) : "");
		goto out;
	}
	if ((rc = stat_program(r, guard_journal(g), &why))) {
		fprintf(stderr, "stat_cost: %s\n", why ? why : strerror(-rc));
		goto done;
	}
	memcpy(r0, the_meter->reads, sizeof(r0));
	memcpy(w0, the_meter->writes, sizeof(w0));
	if ((rc = stat_cost_ns(r, 0, NULL))) /* the first reading, as the command takes it */
		goto failed;
	c->startup_ms = (now_ns() - t0) / 1e6;
	/* what that reset and reading of every CPU took (stat_begin_all): each
	 * block's stat_cost_ns begins with one, outside its timing */
	begin_r = the_meter->reads[METER_PASS] - r0[METER_PASS];
	begin_w = the_meter->writes[METER_PASS] - w0[METER_PASS];
	memcpy(r0, the_meter->reads, sizeof(r0));
	memcpy(w0, the_meter->writes, sizeof(w0));
	for (unsigned b = 0; b < BLOCKS && rounds && !rc; b++)
		for (int k = 0; k < METER_MODES && !rc; k++) {
			unsigned long n0 = the_meter->reads[k] + the_meter->writes[k], n;

			the_meter->mode = (enum meter_mode)k;
			the_meter->sim_ns = 0;
			rc = stat_cost_ns(r, per, &bm[k][b]);
			the_meter->mode = METER_PASS;
			/* the block's begin (stat_begin_all) is inside sim_ns too:
			 * its share of the accesses taken out */
			n = the_meter->reads[k] + the_meter->writes[k] - n0;
			if (k == METER_TIMED)
				sim[b] = n ? the_meter->sim_ns *
					     (double)(n - begin_r - begin_w) / (double)n /
					     ((double)per * c->ncpus) : 0;
		}
	if (rc)
		goto failed;
	for (int k = 0; rounds && k < METER_MODES; k++)
		c->us[k] = median(bm[k], BLOCKS) / 1e3;
	if (rounds) {
		double ends = (double)BLOCKS * per * c->ncpus;

		c->reads = (double)(the_meter->reads[METER_PASS] - r0[METER_PASS] -
				    BLOCKS * begin_r) / ends;
		c->writes = (double)(the_meter->writes[METER_PASS] - w0[METER_PASS] -
				     BLOCKS * begin_w) / ends;
		/* a stamped call holds about one clock read's time (the first's
		 * end, the second's start): taken out, from a row of them */
		double t1 = now_ns();

		for (int i = 0; i < 9999; i++)
			(void)now_ns();
		c->clock_ns = (now_ns() - t1) / 1e4;
		c->sim_us = (median(sim, BLOCKS) - (c->reads + c->writes) * c->clock_ns) / 1e3;
	}
	goto done;
failed:
	fprintf(stderr, "stat_cost: a read failed: %s\n", strerror(-rc));
done:
	if (guard_finish(g, false) && !rc)
		rc = -EIO;
out:
	free(why);
	guard_free(g);
	stat_close(r);
	msr_close(dev);
	cpu_machine_free(m);
	return rc;
}

/* The start-up of stat on @want CPUs (as run) in a fresh process: what a
 * process measures once (the TSC's rate, bench/session.c) is measured
 * again, as by the command.  Its milliseconds, or a negative -errno. */
static double startup_child(const char *dump, const char *profile, int want)
{
	struct cost c = { 0 };
	double ms = -EIO;
	int fd[2], st;
	pid_t pid;

	if (pipe2(fd, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	if ((pid = fork()) < 0) {
		close(fd[0]);
		close(fd[1]);
		return -errno;
	}
	if (pid == 0) {
		close(fd[0]);
		ms = run(dump, profile, want, 0, &c) ? -EIO : c.startup_ms;
		_exit(write(fd[1], &ms, sizeof(ms)) == (ssize_t)sizeof(ms) ? 0 : 1);
	}
	close(fd[1]);
	if (read(fd[0], &ms, sizeof(ms)) != (ssize_t)sizeof(ms))
		ms = -EIO;
	close(fd[0]);
	waitpid(pid, &st, 0);
	return ms;
}

/* The start-up of one CPU and of all (@startups fresh processes each, the
 * median), then the interval ends. */
static int measure(const char *dump, const char *profile, unsigned rounds, unsigned startups,
		   struct cost *all, double *startup1_ms, double *startupn_ms)
{
	double s1[16], sn[16];

	if (startups > 16)
		startups = 16;
	for (unsigned i = 0; i < startups; i++) {
		if ((s1[i] = startup_child(dump, profile, 1)) < 0 ||
		    (sn[i] = startup_child(dump, profile, 0)) < 0)
			return -EIO;
	}
	*startup1_ms = median(s1, startups);
	*startupn_ms = median(sn, startups);
	return run(dump, profile, 0, rounds, all);
}

static void print_cost(const char *dump, unsigned rounds, const struct cost *c, double s1,
		       double sn, unsigned startups)
{
	const char *base = strrchr(dump, '/') ? strrchr(dump, '/') + 1 : dump;
	double total = c->us[METER_PASS], ours = c->us[METER_MEMORY], n = c->reads + c->writes;

	printf("stat cost per CPU per interval (simulated PMU, %d CPUs of %s; each the median "
	       "of %u blocks of %u interval ends, the modes in turn):\n", c->ncpus, base, BLOCKS,
	       rounds / BLOCKS ? rounds / BLOCKS : 1);
	printf("  total (checks, frozen read, counts, reset)                %8.2f us\n", total);
	printf("  simulator's part (total - baretma's)                      %8.2f us\n",
	       total - ours);
	printf("  baretma's part (the same loop, registers from memory)     %8.2f us  "
	       "budget %.0f us: %s\n", ours, BUDGET_US, ours <= BUDGET_US ? "ok" : "OVER");
	printf("  (a check: %.2f us inside the simulator's calls, timed apart: a clock read on "
	       "either side of each, one read's %.0f ns taken out per call)\n", c->sim_us,
	       c->clock_ns);
	printf("  MSR accesses per CPU per interval: %.2f reads (one pread(2) each), "
	       "%.2f writes (one pwrite(2) each)\n", c->reads, c->writes);
	printf("  a real machine adds per access (not measured here): %.2f-%.2f us where the "
	       "reading thread runs on the CPU [1], %.0f-%.0f us across CPUs [2]: %.1f-%.1f us "
	       "per CPU per interval for these %.0f\n", REAL_LOCAL_US_LO, REAL_LOCAL_US_HI,
	       REAL_REMOTE_US_LO, REAL_REMOTE_US_HI, n * REAL_LOCAL_US_LO, n * REAL_REMOTE_US_HI,
	       n);
	printf("  [1] 217-279 ns a pread, 2M reads pinned (taskset -c 0), Ryzen 9 3950X, Linux: "
	       "gist.github.com/iximeow/62c967d2fad28d70aa333f8310bfac4c\n");
	printf("  [2] 7-8 us a remote perf-event read (smp_call_function_single, as the msr "
	       "driver's) against ~2 us local, AWS m7i.8xlarge: github.com/iopsystems/rezolus "
	       "issue 965\n");
	printf("  start-up (machine, sessions, guarded run, programming, first reading; median "
	       "of %u): 1 CPU %.1f ms, %d CPUs %.1f ms\n", startups, s1, c->ncpus, sn);
}

int main(int argc, char **argv)
{
	const char *dump = NULL;
	unsigned rounds = 300, intervals = 100, period = 100, startups = 3, kept;
	char dir[512], profile[600], spec[700];
	int64_t *late;
	double s1 = 0, sn = 0;
	struct cost c = { 0 };
	int rc;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--cpuid-dump"))
			dump = argv[i + 1];
		else if (!strcmp(argv[i], "--rounds"))
			rounds = (unsigned)strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--startups"))
			startups = (unsigned)strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--intervals"))
			intervals = (unsigned)strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--period"))
			period = (unsigned)strtoul(argv[i + 1], NULL, 10);
	}
	if (!rounds || !intervals || !period || !startups) {
		fprintf(stderr, "usage: stat_cost --cpuid-dump FILE [--rounds N] [--startups N] "
			"[--intervals N] [--period MS]\n");
		return 64;
	}
	if (!dump || access(dump, R_OK)) {
		printf("stat cost: skipped (no CPUID dump%s%s; set SHARED_CPUID)\n",
		       dump ? " " : "", dump ? dump : "");
	} else if ((rc = scratch(dir, sizeof(dir), profile, sizeof(profile)))) {
		fprintf(stderr, "stat_cost: scratch directory: %s\n", strerror(-rc));
		return 73;
	} else {
		snprintf(spec, sizeof(spec), "sim:%s", profile);
		setenv("BARETMA_MSR", spec, 1);
		setenv("BARETMA_CPUID_DUMP", dump, 1);
		setenv("BARETMA_STATE_DIR", dir, 1);
		rc = measure(dump, profile, rounds, startups, &c, &s1, &sn);
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
		if (rc)
			return 1;
		print_cost(dump, rounds, &c, s1, sn, startups);
	}
	late = calloc(intervals, sizeof(*late));
	if (!late || stat_drift(intervals, period, late))
		return 1;
	qsort(late, intervals, sizeof(*late), cmp_i64);
	kept = intervals;
	printf("stat timer drift over %u intervals of %u ms (absolute deadlines, CLOCK_MONOTONIC):"
	       " median %.1f us, max %.1f us\n", kept, period, (double)late[kept / 2] / 1e3,
	       (double)late[kept - 1] / 1e3);
	free(late);
	return 0;
}
