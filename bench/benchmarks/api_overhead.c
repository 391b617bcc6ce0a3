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
 * the ratios of the medians; with 1 thread (the main thread's session),
 * then with 2 threads at once, each with its own session on its own CPU
 * (as a threaded harness opens them: include/baretma.h Threads), each
 * thread's own.  The backend is --backend (default tsc:
 * every machine has it; rdpmc where the PMU can be used, with the same
 * references).
 *
 * --sim DUMP: the session on the simulated PMU of CPUID dump DUMP (a
 * profile of its own in a temporary file, BARETMA_MSR=sim:it), backend
 * rdpmc, 1 thread, --region-method M (include/baretma.h region_method:
 * auto, delta, metrics-clear): the simulated RDPMC is a call that models
 * the counters, so the pair's ticks are the simulator's, not a CPU's; what
 * it compares is the library's own work around the readings, the whole
 * begin + end, with metrics-clear regions (each reading's segment summed
 * into the open regions) against the delta method.
 *
 * usage: api_overhead [--runs N] [--backend B] [--sim DUMP [--region-method M]]
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bench/stats.h"
#include "include/baretma.h"
#include "msr/regs/rdpmc.h"

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

/* One thread's run: its own session on @cpu (-1: chosen), PAIRS empty
 * regions and as many of each reference pair, interleaved in blocks; the
 * mean TSC ticks per pair of each into @m[0..3] (region, bare, fenced,
 * 2-call); and how many begins/ends the session refused (0: each thread
 * owned its session). */
struct run {
	const struct baretma_options *o;
	int cpu;
	double m[4];
	double whole;          /* TSC ticks per begin + end, the calls whole */
	uint64_t refused;
	int rc;
	char err[512];
	char method[512];      /* the session's "note: regions: ..." line, "" if none */
};

static void *one_run(void *arg)
{
	struct run *r = arg;
	struct baretma_options o = *r->o;
	struct baretma_misuse mis;
	struct baretma_result res;
	struct baretma *bm;
	double b = 0, f = 0, c = 0, w = 0;

	o.cpu = r->cpu;
	if ((r->rc = baretma_open(&bm, &o)) < 0) {
		snprintf(r->err, sizeof(r->err), "%s", baretma_last_error());
		return NULL;
	}
	{
		const char *l = strstr(baretma_notes(bm), "note: regions: ");

		snprintf(r->method, sizeof(r->method), "%.*s", l ? (int)strcspn(l, "\n") : 0,
			 l ? l : "");
	}
	for (unsigned done = 0; done < PAIRS; done += BLOCK) {
		uint64_t t0 = call_begin();

		for (unsigned i = 0; i < BLOCK; i++) {
			baretma_region_begin(bm, "empty");
			baretma_region_end(bm, "empty");
		}
		w += (double)(call_end() - t0);
		b += bare_block();
		f += fenced_block();
		c += call_block();
	}
	baretma_region_get(bm, "empty", &res);
	baretma_misuse(bm, &mis);
	r->m[0] = res.tsc / (double)res.count;
	r->m[1] = b / PAIRS;
	r->m[2] = f / PAIRS;
	r->m[3] = c / PAIRS;
	r->whole = w / PAIRS;
	r->refused = mis.foreign_thread + mis.foreign_cpu;
	baretma_close(bm);
	return NULL;
}

/* The first two CPUs this thread may run on (-1 when fewer). */
static void two_cpus(int cpu[2])
{
	cpu_set_t set;
	int k = 0;

	cpu[0] = cpu[1] = -1;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	for (int c = 0; c < CPU_SETSIZE && k < 2; c++)
		if (CPU_ISSET(c, &set))
			cpu[k++] = c;
}

static void report(const char *what, double *v[5], unsigned n)
{
	static const char *const name[4] = { "empty region pair     ", "bare lfence;rdtsc pair",
					      "fenced pair (4 LFENCE)", "fenced pair, 2 calls  " };
	struct bench_stats st[4];

	printf("%s (mean TSC ticks per pair over %u runs: min / median / max)\n", what, n);
	for (int k = 0; k < 4; k++) {
		bench_stats_compute(v[k], n, &st[k]);
		printf("  %s %8.2f %8.2f %8.2f\n", name[k], st[k].min, st[k].median, st[k].max);
	}
	printf("  region / bare          %8.3f (issue 10: at most 1.2)\n",
	       st[0].median / st[1].median);
	printf("  region / fenced pair   %8.3f\n", st[0].median / st[2].median);
	printf("  region / 2-call pair   %8.3f\n", st[0].median / st[3].median);
	bench_stats_compute(v[4], n, &st[0]);
	printf("  begin + end, whole     %8.2f %8.2f %8.2f (the calls' own cost to the "
	       "harness: table, ownership check, readings)\n", st[0].min, st[0].median, st[0].max);
}

int main(int argc, char **argv)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	unsigned runs = 11;
	double *v[3][5] = { { NULL } }; /* [1 thread, 2 threads' first, second][pair kind,
					 * then the whole calls] */
	uint64_t refused = 0;
	struct utsname u;
	const char *sim = NULL;
	char prof[] = "/tmp/api_overhead.XXXXXX", spec[sizeof(prof) + 8];
	int cpu[2], rc = 1;

	o.backend = "tsc"; /* every machine has it; --backend rdpmc where the PMU can be used */

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--backend") && i + 1 < argc)
			o.backend = argv[++i];
		else if (!strcmp(argv[i], "--sim") && i + 1 < argc)
			sim = argv[++i];
		else if (!strcmp(argv[i], "--region-method") && i + 1 < argc)
			o.region_method = argv[++i];
		else {
			fprintf(stderr, "usage: api_overhead [--runs N] [--backend B] [--sim DUMP "
				"[--region-method M]]\n");
			return 64;
		}
	}
	if (sim) {
		static const char text[] = "ghz 0\naccess_cycles 1000\nretiring 40\n"
			"bad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n";
		int fd = mkostemp(prof, O_CLOEXEC);

		if (fd < 0 || write(fd, text, sizeof(text) - 1) != (ssize_t)(sizeof(text) - 1)) {
			perror("api_overhead: profile");
			return 1;
		}
		close(fd);
		snprintf(spec, sizeof(spec), "sim:%s", prof);
		setenv("BARETMA_MSR", spec, 1);
		o.cpuid_dump = sim;
		o.backend = "rdpmc";
		o.cpu = 0;
	}
	for (int t = 0; t < 3; t++)
		for (int k = 0; k < 5; k++)
			if (!runs || !(v[t][k] = calloc(runs, sizeof(double))))
				goto out;
	two_cpus(cpu);
	if (sim)
		cpu[1] = -1; /* one simulated session */
	uname(&u);
	printf("machine: %s %s, %s\n", u.machine, u.release, u.nodename);
	printf("backend %s%s%s%s, region method %s, %u runs of %u pairs each\n", o.backend,
	       sim ? " on the simulated PMU of " : "", sim ? sim : "", sim ? " cpu 0" : "",
	       o.region_method ? o.region_method : "auto", runs, PAIRS);
	for (unsigned r = 0; r < runs; r++) {
		struct run one = { .o = &o, .cpu = -1 }, two[2] = { { .o = &o, .cpu = cpu[0] },
								  { .o = &o, .cpu = cpu[1] } };
		pthread_t t[2];

		/* 1 thread: the session on the main thread */
		one_run(&one);
		if (one.rc < 0) {
			fprintf(stderr, "api_overhead: %s\n", one.err);
			goto out;
		}
		if (!r && one.method[0])
			printf("%s\n", one.method);
		/* 2 threads at once, each its own session on its own CPU */
		for (int k = 0; cpu[1] >= 0 && k < 2; k++)
			pthread_create(&t[k], NULL, one_run, &two[k]);
		for (int k = 0; cpu[1] >= 0 && k < 2; k++)
			pthread_join(t[k], NULL);
		for (int k = 0; k < 4; k++) {
			v[0][k][r] = one.m[k];
			v[1][k][r] = two[0].m[k];
			v[2][k][r] = two[1].m[k];
		}
		v[0][4][r] = one.whole;
		v[1][4][r] = two[0].whole;
		v[2][4][r] = two[1].whole;
		refused += one.refused + two[0].refused + two[1].refused;
		if (cpu[1] >= 0 && (two[0].rc < 0 || two[1].rc < 0)) {
			fprintf(stderr, "api_overhead: 2 threads: %s\n", two[0].rc < 0 ? two[0].err :
				two[1].err);
			goto out;
		}
	}
	report("1 thread", v[0], runs);
	if (sim) {
		printf("2 threads: not measured on the simulator\n");
	} else if (cpu[1] < 0) {
		printf("2 threads: not measured (this process may run on one CPU)\n");
	} else {
		char what[96];

		for (int k = 0; k < 2; k++) {
			snprintf(what, sizeof(what), "2 threads at once, thread %d on cpu %d", k, cpu[k]);
			report(what, v[1 + k], runs);
		}
	}
	printf("begins/ends refused (a thread or CPU not the session's): %llu\n",
	       (unsigned long long)refused);
	rc = 0;
out:
	if (sim)
		unlink(prof);
	for (int t = 0; t < 3; t++)
		for (int k = 0; k < 5; k++)
			free(v[t][k]);
	return rc;
}
