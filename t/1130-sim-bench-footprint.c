/*
 * t/1130-sim-bench-footprint.c - what a default `baretma bench` on the
 * simulated PMU takes from the machine, in quantities no load changes
 * (issue 30, "The simulator": at most 32 MiB peak RSS; its 0.2 CPU
 * seconds are `make benchmark`'s to report, never a test's).
 *
 * The simulator counts a region's time at the profile's shares whatever
 * its code does to the caches (doc/simulator.md "Not modelled"), so on it
 * the two kernels that exist to miss them take small buffers
 * (bench/bench.h, bench_kernel_ctx.simulated): ptr-chase one cycle of its
 * 4096 hops, 4096 lines of 64 bytes (256 KiB), where the hardware gets
 * max(4 x LLC, 64 MiB) or 128 MiB (t/0405); icache-miss a 32 KiB chain
 * (512 blocks of one line) called 64 times, the same 32768 blocks a
 * repetition as the hardware's 2 MiB chain.  Checked here:
 *   - in this process, the two kernels' setup on a simulated context:
 *     those sizes, the cycle through every node (one repetition is one
 *     whole turn: it ends on node 0), the chain's 32768 blocks;
 *   - a default bench on the simulated Sapphire Rapids of the quick start
 *     (examples/dumps/sapphire-rapids-ws-xeon-w7.test, whose LLC size is
 *     unknown: 128 MiB for ptr-chase on the hardware path) and a bench of
 *     the empty kernel alone, each a child of its own (wait4's rusage):
 *     the default one's peak RSS under 32 MiB, and what the seven kernels
 *     add to the empty one's under 4 MiB of RSS and 2048 minor page
 *     faults (8 MiB of 4 KiB pages).  Before the kernels were sized for
 *     the simulator the default run peaked at 141.8 MiB, 135 MiB over the
 *     empty run, and took 2900 more faults with transparent huge pages
 *     (32768 more without);
 *   - the choice is the source's: ptr-chase on the simulator's perf source
 *     is small too, on the TSC source (real timing, no simulated count)
 *     it keeps the hardware path's 128 MiB.
 * The children are started before this process maps anything: a child's
 * ru_maxrss counts the RSS it had before its exec, which fork copies from
 * the parent (linux fs/exec.c exec_mmap, setmax_mm_hiwater_rss).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench.h"
#include "t/fixture.h"

#define KiB ((uint64_t)1 << 10)
#define MiB ((uint64_t)1 << 20)

static char dir[PATH_MAX], out[PATH_MAX], dump[PATH_MAX], profile[PATH_MAX];

/* `$BARETMA bench --cpuid-dump DUMP ARGS...` (@args NULL-terminated, at
 * most 8) on the simulated PMU of the steady Sapphire Rapids profile, its
 * output in @out: its exit status (-1: not run) and, in @ru, its own
 * resource usage. */
static int sim_bench(const char *const *args, struct rusage *ru)
{
	const char *bin = getenv("BARETMA");
	char spec[PATH_MAX + 8];
	int st;
	pid_t pid;

	memset(ru, 0, sizeof(*ru));
	if (!bin || (pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		const char *argv[16] = { bin, "bench", "--cpuid-dump", dump };

		for (unsigned i = 0; args[i] && i < 8; i++)
			argv[4 + i] = args[i];
		snprintf(spec, sizeof(spec), "sim:%s", profile);
		setenv("BARETMA_MSR", spec, 1);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(127);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	if (wait4(pid, &st, 0, ru) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Does @out hold a line starting with @row (a kernel's row)? */
static bool has_row(const char *row)
{
	FILE *f = fopen(out, "r");
	char line[1024];
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		found = !strncmp(line, row, strlen(row)) && line[strlen(row)] == ' ';
	if (f)
		fclose(f);
	return found;
}

/* Peak RSS in bytes (ru_maxrss is in kilobytes: getrusage(2)). */
static uint64_t rss_of(const struct rusage *ru)
{
	return ru->ru_maxrss > 0 ? (uint64_t)ru->ru_maxrss * KiB : 0;
}

static void check_runs(void)
{
	static const char *const none[] = { NULL };
	static const char *const empty_only[] = { "--kernel", "empty", NULL };
	static const char *const tsc[] = { "--backend", "tsc", "--kernel", "ptr-chase",
					   "--reps", "3", "--warmup", "0", NULL };
	static const char *const perf[] = { "--backend", "perf", "--kernel", "ptr-chase",
					    "--reps", "3", "--warmup", "0", NULL };
	struct rusage all, empty, ru_tsc, ru_perf;
	int rc_all = sim_bench(none, &all);
	bool rows = has_row("ptr-chase") && has_row("icache-miss");
	int rc_empty = sim_bench(empty_only, &empty);
	int rc_tsc = sim_bench(tsc, &ru_tsc);
	int rc_perf = sim_bench(perf, &ru_perf);

	check_int(rc_all, ==, 0, "default bench on the simulated Sapphire Rapids exits 0");
	ok(rows, "... and measured ptr-chase and icache-miss");
	check_int(rc_empty, ==, 0, "bench --kernel empty exits 0");
	printf("# default: peak RSS %ld KiB, %ld minor faults; empty alone: %ld KiB, %ld\n",
	       all.ru_maxrss, all.ru_minflt, empty.ru_maxrss, empty.ru_minflt);
	ok(rss_of(&all) > 0 && rss_of(&all) < 32 * MiB,
	   "default simulated bench: peak RSS %ld KiB, under 32 MiB", all.ru_maxrss);
	ok(rss_of(&all) < rss_of(&empty) + 4 * MiB,
	   "the kernels add %ld KiB to the empty run's peak RSS, under 4 MiB",
	   all.ru_maxrss - empty.ru_maxrss);
	ok(all.ru_minflt - empty.ru_minflt < 2048,
	   "the kernels add %ld minor page faults to the empty run's, under 2048",
	   all.ru_minflt - empty.ru_minflt);
	/* the perf source on the simulator (bench/source/perf_sim.c) is
	 * simulated too; the TSC source times the real kernels: full size */
	check_int(rc_perf, ==, 0, "ptr-chase on the simulated perf source exits 0");
	ok(rss_of(&ru_perf) < rss_of(&empty) + 4 * MiB,
	   "... its peak RSS %ld KiB, within 4 MiB of the empty run's", ru_perf.ru_maxrss);
	check_int(rc_tsc, ==, 0, "ptr-chase on the TSC source exits 0");
	ok(rss_of(&ru_tsc) >= 128 * MiB,
	   "... its peak RSS %ld KiB: the hardware path's 128 MiB (no LLC size in the dump)",
	   ru_tsc.ru_maxrss);
}

/* Hops from @from along the cycle. */
static const void *chase_from(const void *from, unsigned hops)
{
	const void *p = from;

	while (hops--)
		memcpy(&p, p, sizeof(p));
	return p;
}

static void check_chase(void)
{
	const struct bench_kernel *k = bench_kernel_find("ptr-chase");
	struct bench_kernel_ctx c = { .llc_bytes = 0, .simulated = true };
	const struct bench_kernel_region *r;
	int rc = k ? k->setup(&c) : -1;

	r = bench_kernel_region_of(&c);
	check_int(rc, ==, 0, "ptr-chase setup on a simulated context");
	if (rc || !r) {
		skip(4, "setup failed");
		return;
	}
	check_u64(r->bytes, ==, 256 * KiB, "simulated ptr-chase: 256 KiB, not the LLC's 128 MiB");
	check_u64(r->count, ==, 4096, "... 4096 nodes of one 64-byte line, one per hop");
	ok(chase_from(r->base, 4096) == r->base && chase_from(r->base, 2048) != r->base,
	   "... linked into one cycle through them all");
	k->run(&c);
	ok(c.sink == (uintptr_t)r->base, "... a repetition's 4096 hops are one whole turn");
	k->teardown(&c);
}

static void check_icache(void)
{
	const struct bench_kernel *k = bench_kernel_find("icache-miss");
	struct bench_kernel_ctx c = { .llc_bytes = 0, .simulated = true };
	const struct bench_kernel_region *r;
	int rc = k ? k->setup(&c) : -1;

	r = bench_kernel_region_of(&c);
	check_int(rc, ==, 0, "icache-miss setup on a simulated context");
	if (rc || !r) {
		skip(3, "setup failed");
		return;
	}
	check_u64(r->bytes, ==, 32 * KiB, "simulated icache-miss: a 32 KiB chain, not 2 MiB");
	check_u64(r->count, ==, 512, "... 512 blocks of one 64-byte line");
	k->run(&c);
	check_u64(c.sink, ==, 32768, "... a repetition runs 32768 blocks, the 2 MiB chain's");
	k->teardown(&c);
}

int main(void)
{
	t_scratch(dir, "1130");
	t_path(out, "%s/out", dir);
	t_path(dump, "%s/examples/dumps/sapphire-rapids-ws-xeon-w7.test", BARETMA_SRCDIR);
	t_path(profile, "%s/examples/profiles/sapphirerapids-steady.profile", BARETMA_SRCDIR);
	check_runs(); /* first: this process still small */
	check_chase();
	check_icache();
	t_rm_rf(dir);
	return done_testing();
}
