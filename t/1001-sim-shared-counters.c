/*
 * t/1001-sim-shared-counters.c - the simulated PMU with `state FILE` is one
 * machine for every process (msr/sim/msr_sim.h "Registers", doc/state-file.md
 * "The simulator's machine file"): this process keeps the machine open
 * while the tool, in other processes, writes and reads its counters.
 *   - a counter write made by another process is read here: `baretma msr
 *     write` of IA32_FIXED_CTR3 and of IA32_PERF_METRICS, each read back
 *     by this process's open handle (which had read the CPU before);
 *   - counting goes on across processes: fixed counter 3 counts every
 *     access to the CPU, whichever process makes it, and `baretma msr
 *     read` in another process reads it where this process's last
 *     access left it plus what has counted since;
 *   - the accesses of several processes are serialised: PROCS processes
 *     reading the CPU READS times each, all at once, lose none of them
 *     (an access whose update another overwrote would count S less).
 * The simulator used to keep the counters per process (loaded from FILE
 * at a process's first access): this process read its own counts, never
 * the tool's write, and the tool started again from FILE's line.
 *
 * Every expected value is worked by hand from the model's documented
 * rules (doc/simulator.md): with `ghz 0` only the accesses count,
 * `access_cycles` 1000 cycles each, counted before the access takes
 * effect; fixed counter 3 counts `width` 5 slots a cycle while its
 * IA32_FIXED_CTR_CTRL field has EN_OS | EN_USR (0x3000: bits 13:12) and
 * IA32_PERF_GLOBAL_CTRL bit 35 is set (SDM Vol. 3B 21.2.2, linux perf_event.h
 * INTEL_FIXED_*, INTEL_PMC_IDX_FIXED), so FC3 gains S = 5 x 1000 = 5000 at every access to the CPU;
 * a write sets it.  IA32_PERF_METRICS accumulates nothing without
 * GLOBAL_CTRL bit 48 and reads what was last written.  The other
 * processes' accesses are counted from their BARETMA_MSR_TRACE (each `rd`
 * and `wr` line is one access through the backend; a `sv` line is a
 * journal's save, no access).
 *
 * The machine: cpu 0 of the Ice Lake-L dump (8 GP counters,
 * CPUID.0AH:EAX[15:8]) as the simulator's clean file has it, but FC3
 * counting: IA32_FIXED_CTR_CTRL 0x3000, GLOBAL_CTRL 0x7000000ff | 1 << 35 =
 * 0xf000000ff.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "msr/regs/intel_regs.h"
#include "msr/access/msr.h"
#include "t/fixture.h"

#define S 5000ull /* FC3's slots per access: width 5 x access_cycles 1000 */
#define PROCS 4   /* the names of checks say 4 and 300 */
#define READS 300

static char dir[PATH_MAX], state[PATH_MAX], run[PATH_MAX], profile[PATH_MAX];
static char trace[PATH_MAX], out[PATH_MAX];

static void regs(char *buf, size_t n)
{
	size_t o = 0;

	for (unsigned i = 0; i < 8; i++)
		o += (size_t)snprintf(buf + o, n - o, "0 0x%x 0x0\n0 0x%x 0x0\n0 0x%x 0x0\n",
				      0x186 + i, 0xc1 + i, 0x4c1 + i);
	snprintf(buf + o, n - o,
		 "0 0x309 0x0\n0 0x30a 0x0\n0 0x30b 0x0\n0 0x30c 0x0\n0 0x329 0x0\n"
		 "0 0x345 0xa000\n0 0x38d 0x3000\n0 0x38e 0x0\n0 0x38f 0xf000000ff\n"
		 "0 0x390 0x0\n0 0x391 0x0\n0 0x392 0x0\n");
}

/* The tool with @args (NULL-terminated), its trace in @trace (fresh), its
 * stdout and stderr in @out; its exit status, or -1. */
static int tool(const char *const *args)
{
	const char *bin = getenv("BARETMA");
	pid_t pid;
	int st;

	unlink(trace);
	setenv("BARETMA_MSR_TRACE", trace, 1);
	if (!bin || (pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		const char *argv[8] = { bin };

		for (unsigned i = 0; args[i] && i < 6; i++)
			argv[i + 1] = args[i];
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(127);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	unsetenv("BARETMA_MSR_TRACE");
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The tool's accesses to cpu 0 in its trace, before (@before) or after the
 * first one of @op ("rd", "wr") to @msr, which is not counted; -1 when
 * there is no such line. */
static long accesses(bool before, const char *op, uint32_t msr)
{
	FILE *f = fopen(trace, "r");
	char line[256], o[8], err[32];
	long n_before = 0, n_after = 0;
	bool seen = false;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned cpu, m;
		int k = sscanf(line, "%7s %u %x %*s %31s", o, &cpu, &m, err);

		if (k < 3 || cpu != 0 || (strcmp(o, "rd") && strcmp(o, "wr")) ||
		    (k == 4 && !strcmp(err, "ENOLCK")))
			continue; /* not an access to cpu 0 (ENOLCK: refused by the gate) */
		if (!seen && !strcmp(o, op) && m == msr) {
			seen = true;
			continue;
		}
		*(seen ? &n_after : &n_before) += 1;
	}
	fclose(f);
	return !seen ? -1 : before ? n_before : n_after;
}

static uint64_t rd(struct msr_dev *d, uint32_t msr)
{
	uint64_t v = 0xdead;

	if (msr_read(d, 0, msr, &v))
		v = 0xdead;
	return v;
}

/* PROCS processes, started together (each waits for the pipe to close),
 * each opening the machine and reading FC3 READS times; how many failed.
 * This process has no machine open (a fork()ed child must not use one it
 * inherited: msr/sim/msr_sim.h). */
static int readers(const char *spec)
{
	pid_t pid[PROCS];
	int go[2], failed = 0, st;
	char c;

	if (pipe(go))
		return PROCS;
	for (int i = 0; i < PROCS; i++) {
		if ((pid[i] = fork()) == 0) {
			struct msr_dev *d = NULL;
			int bad = 0;

			close(go[1]);
			if (read(go[0], &c, 1) < 0 || msr_open(spec, &d))
				_exit(1);
			for (int r = 0; r < READS; r++)
				bad += rd(d, IA32_FIXED_CTR3) == 0xdead;
			msr_close(d);
			_exit(bad != 0);
		}
		failed += pid[i] < 0;
	}
	close(go[0]);
	close(go[1]);
	for (int i = 0; i < PROCS; i++)
		if (pid[i] > 0 && (waitpid(pid[i], &st, 0) != pid[i] || !WIFEXITED(st) ||
				   WEXITSTATUS(st)))
			failed++;
	return failed;
}

int main(void)
{
	const char *shared = getenv("SHARED_CPUID");
	static char dump[PATH_MAX], orig[8192], spec[PATH_MAX + 8], want[128];
	struct msr_dev *dev = NULL;
	uint64_t fc3, v;
	long k;
	char *text;

	t_path(dump, "%s/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test",
	       shared && *shared ? shared : "../shared/cpuid");
	if (access(dump, R_OK))
		skip_all("no Ice Lake dump (../shared/cpuid)");
	if (!getenv("BARETMA"))
		skip_all("no $BARETMA (make check sets it)");
	t_scratch(dir, "1001");
	t_path(state, "%s/state", dir);
	t_path(run, "%s/run", dir);
	t_path(profile, "%s/profile", dir);
	t_path(trace, "%s/trace", dir);
	t_path(out, "%s/out", dir);
	regs(orig, sizeof(orig));
	put_file(state, orig);
	text = t_strf("ghz 0\naccess_cycles 1000\nwidth 5\nretiring 40\nbad_speculation 10\n"
		      "frontend_bound 20\nbackend_bound 30\nstate %s\n", state);
	put_file(profile, text);
	free(text);
	snprintf(spec, sizeof(spec), "sim:%s", profile);
	setenv("BARETMA_MSR", spec, 1);
	setenv("BARETMA_CPUID_DUMP", dump, 1);
	setenv("BARETMA_STATE_DIR", run, 1);
	unsetenv("BARETMA_MSR_TRACE");

	if (msr_open(spec, &dev))
		skip_all("cannot open the simulated PMU");
	/* this process's first access: the CPU starts from FILE (FC3 0), then counts it */
	check_u64(rd(dev, IA32_FIXED_CTR3), ==, S, "here: FC3 counted our first access, S");

	/* another process writes FC3: read here, plus the accesses since */
	check_int(tool((const char *[]){ "msr", "write", "--force", "0", "IA32_FIXED_CTR3",
					 "0x100000", NULL }), ==, 0,
		  "baretma msr write --force 0 IA32_FIXED_CTR3 0x100000 exits 0");
	k = accesses(false, "wr", IA32_FIXED_CTR3);
	ok(k >= 0, "its trace has the write of FC3 (%ld accesses after it)", k);
	fc3 = rd(dev, IA32_FIXED_CTR3);
	check_u64(fc3, ==, 0x100000 + S * (uint64_t)(k + 1),
		  "here: FC3 = the other process's 0x100000 + S x (its accesses after + ours)");

	/* another process writes PERF_METRICS: read here as written */
	check_int(tool((const char *[]){ "msr", "write", "--force", "0", "IA32_PERF_METRICS",
					 "0x4d3a1f59", NULL }), ==, 0,
		  "baretma msr write --force 0 IA32_PERF_METRICS 0x4d3a1f59 exits 0");
	k = accesses(false, "wr", IA32_PERF_METRICS);
	ok(k >= 0, "its trace has the write of PERF_METRICS");
	fc3 += S * (uint64_t)(accesses(true, "wr", IA32_PERF_METRICS) + 1 + k);
	check_u64(rd(dev, IA32_PERF_METRICS), ==, 0x4d3a1f59ull,
		  "here: PERF_METRICS = the other process's 0x4d3a1f59");
	fc3 += S; /* that read */

	/* counting goes on in another process: it reads FC3 where we left it, plus */
	check_int(tool((const char *[]){ "msr", "read", "0", "IA32_FIXED_CTR3", NULL }), ==, 0,
		  "baretma msr read 0 IA32_FIXED_CTR3 exits 0");
	k = accesses(true, "rd", IA32_FIXED_CTR3);
	ok(k >= 0, "its trace has the read of FC3 (%ld accesses before it)", k);
	fc3 += S * (uint64_t)(k + 1);
	snprintf(want, sizeof(want), "cpu 0 IA32_FIXED_CTR3 (0x30c) = 0x%llx\n",
		 (unsigned long long)fc3);
	check_str(get_file(out), want, "there: FC3 = ours + S x (its accesses up to its read)");
	fc3 += S * (uint64_t)(accesses(false, "rd", IA32_FIXED_CTR3) + 1);
	v = rd(dev, IA32_FIXED_CTR3);
	check_u64(v, ==, fc3, "here again: FC3 = its + S x (its accesses after + ours)");

	/* PROCS processes at once: every access counted once */
	msr_close(dev);
	check_int(readers(spec), ==, 0, "4 processes x 300 reads of FC3 at once: every read 0");
	if (msr_open(spec, &dev))
		skip_all("cannot open the simulated PMU again");
	check_u64(rd(dev, IA32_FIXED_CTR3), ==, v + S * (PROCS * READS + 1),
		  "here: FC3 = before + S x (4 x 300 reads there + ours): none lost");

	msr_close(dev);
	t_rm_rf(dir);
	return done_testing();
}
