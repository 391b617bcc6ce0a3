/*
 * t/0825-sim-gp.c - the simulated PMU's general-purpose counters
 * (msr/sim/msr_sim.h "General-purpose counters") on real CPUID dumps: an
 * Intel pre-Ice Lake P-core (Skylake-S, width 4), the same with SMT
 * (Cascade Lake, `smt on`), an Ice Lake's level-2 events (width 5), an Alder Lake E-core (Gracemont, width 5),
 * an Arrow Lake E-core's fixed counters 4-6 (Skymont, width 8, CPUID leaf
 * 0x23 fixed mask 0x77), AMD Zen 4 (6 dispatch slots) and Zen 5 (8).
 *
 * Each case programs the counters by hand, runs a known number of cycles
 * of work (msr_sim_work, `ghz 0`: nothing else advances the clock but the
 * accesses, `access_cycles`), freezes and reads.  The expected numbers are
 * the profile's shares put through perf's metric formulas - skylake
 * skl-metrics.json (Retiring = UOPS_RETIRED.RETIRE_SLOTS / (4 x cycles),
 * Bad_Speculation = (UOPS_ISSUED.ANY - UOPS_RETIRED.RETIRE_SLOTS + 4 x
 * INT_MISC.RECOVERY_CYCLES) / SLOTS, the _SMT forms with
 * CPU_CLK_UNHALTED.THREAD_ANY / 2 and INT_MISC.RECOVERY_CYCLES_ANY / 2),
 * alderlaken adln-metrics.json (tma_* = TOPDOWN_*.ALL / (5 x
 * CPU_CLK_UNHALTED.CORE), tma_memory_bound = LD_HEAD.ANY_AT_RET / clks),
 * amdzen4/amdzen5 pipeline.json (total_dispatch_slots = 6 / 8 x
 * ls_not_halted_cyc, bad_speculation = (de_src_op_disp.all - ex_ret_ops)
 * / slots) - and the counts the README documents for each event (its
 * share x width x cycles); the arithmetic is written beside each.  Event
 * encodings: intel/perfmon JSON, perf's amdzen4/amdzen5 JSON; registers:
 * linux msr-index.h.  Widths: pmu-tools / perf metrics (Skylake 4,
 * Gracemont 5, Skymont 8, Zen 4 6, Zen 5 8).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "msr/access/msr.h"
#include "msr/open/msr_open.h"
#include "msr/sim/msr_sim.h"
#include "t/fixture.h"

#define W 1000000u /* cycles of work per case */

static char dir[PATH_MAX];
static const char *shared;

/* Shares of every case: level 1 40 10 20 30, level 2 heavy 10, branch
 * mispredicts 6, fetch latency 12, memory bound 18. */
static const char shares[] =
	"ghz 0\nretiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n"
	"heavy_operations 10\nbranch_mispredicts 6\nfetch_latency 12\nmemory_bound 18\n";

static struct msr_dev *open_sim(const char *dump, const char *name, const char *profile)
{
	char path[PATH_MAX], spec[PATH_MAX + 8];
	struct msr_dev *dev = NULL;

	setenv("BARETMA_CPUID_DUMP", dump, 1);
	t_path(path, "%s/%s", dir, name);
	put_file(path, profile);
	t_path(spec, "sim:%s", path);
	if (msr_open(spec, &dev)) {
		printf("Bail out! msr_open %s: %s\n", spec, msr_last_error());
		exit(1);
	}
	msr_ungate(dev); /* the model alone: no journal in front of it */
	return dev;
}

/* @rel under $SHARED_CPUID (t_in: one of its 8 buffers) */
static const char *dump(const char *rel)
{
	return t_in(shared, rel);
}

/* The first CPU of the dump's kind with core type @type (0: the first CPU). */
static unsigned cpu_of(const char *path, unsigned type)
{
	struct cpu_source *src = cpu_source_dump(path);
	struct cpu_info ci;
	unsigned cpu = 0;

	if (!src || cpu_info_identify(src, NULL, &ci)) {
		printf("Bail out! cannot identify %s\n", path);
		exit(1);
	}
	for (unsigned k = 0; k < ci.nkinds; k++)
		if (ci.kinds[k].core_type == type)
			cpu = ci.kinds[k].cpus[0];
	cpu_source_free(src);
	return cpu;
}

static uint64_t rd(struct msr_dev *d, unsigned cpu, uint32_t msr)
{
	uint64_t v = 0xdead;

	if (msr_read(d, cpu, msr, &v))
		v = 0xdead;
	return v;
}

/* Intel: freeze, the selects and counters 0, GLOBAL_CTRL = @en. */
static void intel_program(struct msr_dev *d, unsigned cpu, const uint64_t *sel, unsigned n,
			  uint64_t en)
{
	msr_write(d, cpu, 0x38f, 0);
	for (unsigned i = 0; i < n; i++) {
		msr_write(d, cpu, 0x4c1 + i, 0);
		msr_write(d, cpu, 0x186 + i, sel[i]);
	}
	msr_write(d, cpu, 0x38f, en);
}

/* USR 0x10000 | OS 0x20000 | EN 0x400000 */
#define UOE 0x430000ull
#define SEL(ev, um) (UOE | (uint64_t)(um) << 8 | (ev))
#define CMASK(c) ((uint64_t)(c) << 24)
#define ANY (1ull << 21)
#define EDGE (1ull << 18)

static void test_skylake(void)
{
	const char *d = dump("libcpuid/v0.6.2/intel/core_6th_gen/skylake-i5.test");
	struct msr_dev *dev = open_sim(d, "skl", shares);
	/* CPU_CLK_UNHALTED.THREAD_P 0x3c, UOPS_RETIRED.RETIRE_SLOTS 0xc2/0x02,
	 * IDQ_UOPS_NOT_DELIVERED.CORE 0x9c/0x01, UOPS_ISSUED.ANY 0x0e/0x01 */
	const uint64_t l1[] = { SEL(0x3c, 0), SEL(0xc2, 2), SEL(0x9c, 1), SEL(0x0e, 1) };
	/* INT_MISC.RECOVERY_CYCLES 0x0d/0x01 c1, ..._CYCLES_0_UOPS_DELIV.CORE
	 * 0x9c/0x01 c4, BR_MISP_RETIRED.ALL_BRANCHES 0xc5, MACHINE_CLEARS.COUNT
	 * 0xc3/0x01 c1 edge */
	const uint64_t l2[] = { SEL(0x0d, 1) | CMASK(1), SEL(0x9c, 1) | CMASK(4), SEL(0xc5, 0),
				SEL(0xc3, 1) | CMASK(1) | EDGE };
	double clk, ret, fe, iss, rec, fl, br, mc;

	/* i5-6600K, no Hyper-Threading: 8 GP counters per thread (INDEX.tsv
	 * leafA_raw 07300804: EAX[15:8] = 8), 3 fixed */
	check_u64(rd(dev, 0, 0x38f), ==, 0x7000000ffull,
		  "Skylake: clean GLOBAL_CTRL = 8 GP (leaf 0xA EAX[15:8]) and 3 fixed enabled");
	check_u64(rd(dev, 0, 0x4c8), ==, 0, "IA32_A_PMC7 exists (full-width writes)");
	check_u64(rd(dev, 0, 0x4c9), ==, 0xdead, "0x4c9 does not: 8 counters");
	intel_program(dev, 0, l1, 4, 0xf);
	check_int(msr_sim_work(dev, 0, W), ==, 0, "1e6 cycles of work");
	msr_write(dev, 0, 0x38f, 0); /* freeze: every counter stops together */
	clk = (double)rd(dev, 0, 0xc1);
	ret = (double)rd(dev, 0, 0xc2);
	fe = (double)rd(dev, 0, 0xc3);
	iss = (double)rd(dev, 0, 0xc4);
	/* access_cycles 0: only the work counts */
	check_dbl(clk, 1e6, 0, "THREAD_P = 1e6 cycles");
	check_dbl(ret, 1.6e6, 0, "RETIRE_SLOTS = 0.40 x 4 x 1e6");
	check_dbl(fe, 0.8e6, 0, "IDQ_UOPS_NOT_DELIVERED.CORE = 0.20 x 4 x 1e6");
	check_dbl(iss, 1.8e6, 0, "UOPS_ISSUED.ANY = (0.40 + 0.10 / 2) x 4 x 1e6");
	check_dbl(ret / (4 * clk), 0.40, 1e-12, "perf Retiring = RETIRE_SLOTS / (4 x cycles) = 0.40");
	check_dbl(fe / (4 * clk), 0.20, 1e-12, "perf Frontend_Bound = 0.20");

	intel_program(dev, 0, l2, 4, 0xf);
	msr_sim_work(dev, 0, W);
	msr_write(dev, 0, 0x38f, 0);
	rec = (double)rd(dev, 0, 0xc1);
	fl = (double)rd(dev, 0, 0xc2);
	br = (double)rd(dev, 0, 0xc3);
	mc = (double)rd(dev, 0, 0xc4);
	check_dbl(rec, 50000, 0, "RECOVERY_CYCLES = 0.10 / 2 x 1e6");
	check_dbl((iss - ret + 4 * rec) / (4 * clk), 0.10, 1e-12,
		  "perf Bad_Speculation = (ISSUED - RETIRE_SLOTS + 4 x RECOVERY) / SLOTS = 0.10");
	check_dbl(4 * fl / (4 * clk), 0.12, 1e-12,
		  "tma_fetch_latency = 4 x CYCLES_0_UOPS_DELIV.CORE / SLOTS = 0.12");
	check_dbl(br / (br + mc) * 0.10, 0.06, 1e-12,
		  "tma_branch_mispredicts = BR_MISP / (BR_MISP + MACHINE_CLEARS) x bad = 0.06");
	/* an encoding the table does not know counts 0: 0x3c/0x01
	 * (CPU_CLK_THREAD_UNHALTED.REF_XCLK, not modelled) */
	{
		const uint64_t unk[] = { SEL(0x3c, 1) };

		intel_program(dev, 0, unk, 1, 0x1);
		msr_sim_work(dev, 0, W);
		check_u64(rd(dev, 0, 0xc1), ==, 0, "an unknown encoding counts 0");
	}
	/* EN but no GLOBAL_CTRL bit: nothing; the bit but no EN: nothing */
	{
		const uint64_t s1[] = { SEL(0x3c, 0), SEL(0x3c, 0) & ~0x400000ull };

		intel_program(dev, 0, s1, 2, 0x2);
		msr_sim_work(dev, 0, W);
		check_u64(rd(dev, 0, 0xc1), ==, 0, "EN without GLOBAL_CTRL bit 0: no count");
		check_u64(rd(dev, 0, 0xc2), ==, 0, "GLOBAL_CTRL bit 1 without EN: no count");
	}
	/* USR only with user_fraction 1 (default): every cycle; writes:
	 * IA32_PMC0 takes bits 31:0 sign-extended to 48 bits, IA32_A_PMC0 a
	 * value above 48 bits is a #GP (-EIO) */
	check_int(msr_write(dev, 0, 0xc1, 0x80000000ull), ==, 0, "IA32_PMC0 = 0x80000000");
	check_u64(rd(dev, 0, 0xc1), ==, 0xffff80000000ull, "reads 0xffff80000000 (sign-extended)");
	check_u64(rd(dev, 0, 0x4c1), ==, 0xffff80000000ull, "IA32_A_PMC0 is the same counter");
	check_int(msr_write(dev, 0, 0x4c1, 1ull << 48), ==, -EIO, "IA32_A_PMC0 = 2^48: #GP");
	msr_close(dev);
}

/*
 * Ice Lake (Sunny Cove, width 5; ice-lake-i7.test: 8 GP counters): the
 * events of perf's icelake icl-metrics.json level 2 that the recipe
 * intel-icl-events:sunny-cove counts (encodings intel/perfmon ICL/events/
 * icelake_core.json, perf icelake/pipeline.json, frontend.json), through
 * perf's formulas:
 *   tma_microcode_sequencer = tma_retiring x IDQ.MS_UOPS / UOPS_ISSUED.ANY
 *   tma_heavy_operations = that + tma_retiring x (UOPS_DECODED.DEC0 -
 *     DEC0:c1) / IDQ.MITE_UOPS
 *   tma_memory_bound = (STALLS_MEM_ANY + BOUND_ON_STORES) / (STALLS_TOTAL +
 *     (1_PORTS_UTIL + tma_retiring x 2_PORTS_UTIL) + BOUND_ON_STORES) x BE
 * Counts, the README's per cycle x 1e6 (m = 0.18, c = 0.30 - 0.18 = 0.12):
 *   UOPS_ISSUED.ANY 5 x (0.40 + 0.05) = 2.25e6; IDQ.MS_UOPS 5 x 0.10 x
 *   0.45 / 0.40 = 0.5625e6; IDQ.MITE_UOPS 2.25e6 - 0.5625e6 = 1.6875e6;
 *   UOPS_DECODED.DEC0 = its c1 = 1.6875e6 / 5 = 337500; UOPS_RETIRED.SLOTS
 *   2e6; STALLS_MEM_ANY 3/4 m = 135000; BOUND_ON_STORES 1/4 m = 45000;
 *   STALLS_TOTAL 3/4 m + c/2 = 195000; 1_PORTS_UTIL c/2 = 60000;
 *   2_PORTS_UTIL 0; TOPDOWN.BACKEND_BOUND_SLOTS 5 x 0.30 = 1.5e6.
 *   Retiring 2e6 / 5e6 = 0.40; sequencer 0.40 x 0.5625 / 2.25 = 0.10;
 *   heavy 0.10 + 0.40 x 0 = 0.10; memory bound 180000 / 300000 x 0.30 = 0.18.
 */
static void test_icelake(void)
{
	const char *d = dump("libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test");
	struct msr_dev *dev = open_sim(d, "icl", shares);
	/* IDQ.MS_UOPS, IDQ.MITE_UOPS and UOPS_DECODED.DEC0 count on counters
	 * 0-3 only (icelake_core.json "Counter": "0,1,2,3"): they come first */
	const uint64_t a[] = {
		SEL(0x79, 0x30), SEL(0x79, 0x04), SEL(0x56, 1), SEL(0x56, 1) | CMASK(1),
		SEL(0x0e, 1), SEL(0xc2, 2), SEL(0xa3, 0x14) | CMASK(20),
		SEL(0xa6, 0x40) | CMASK(2),
	};
	const uint64_t b[] = {
		SEL(0xa3, 0x04) | CMASK(4), SEL(0xa6, 0x02), SEL(0xa6, 0x04), SEL(0xa4, 0x02),
	};
	double c[8], t[4], ret, seq, heavy, be, mem;

	intel_program(dev, 0, a, 8, 0xff);
	check_int(msr_sim_work(dev, 0, W), ==, 0, "Ice Lake: 1e6 cycles of work");
	msr_write(dev, 0, 0x38f, 0);
	for (unsigned i = 0; i < 8; i++)
		c[i] = (double)rd(dev, 0, 0xc1 + i);
	intel_program(dev, 0, b, 4, 0xf);
	msr_sim_work(dev, 0, W);
	msr_write(dev, 0, 0x38f, 0);
	for (unsigned i = 0; i < 4; i++)
		t[i] = (double)rd(dev, 0, 0xc1 + i);
	check_dbl(c[4], 2.25e6, 1, "UOPS_ISSUED.ANY = 5 x 0.45 x 1e6");
	check_dbl(c[0], 0.5625e6, 1, "IDQ.MS_UOPS = 5 x 0.10 x 0.45 / 0.40 x 1e6");
	check_dbl(c[1], 1.6875e6, 1, "IDQ.MITE_UOPS = issued - MS uops");
	check_dbl(c[2], 337500, 1, "UOPS_DECODED.DEC0 = MITE uops / 5");
	check_dbl(c[3], 337500, 1, "UOPS_DECODED.DEC0 c1: the same (one uop a cycle)");
	check_dbl(c[6], 135000, 1, "CYCLE_ACTIVITY.STALLS_MEM_ANY c20 = 3/4 x 0.18 x 1e6");
	check_dbl(c[7], 45000, 1, "EXE_ACTIVITY.BOUND_ON_STORES c2 = 1/4 x 0.18 x 1e6");
	check_dbl(t[0], 195000, 1, "CYCLE_ACTIVITY.STALLS_TOTAL c4 = (0.135 + 0.06) x 1e6");
	check_dbl(t[1], 60000, 1, "EXE_ACTIVITY.1_PORTS_UTIL = 0.12 / 2 x 1e6");
	check_dbl(t[2], 0, 0, "EXE_ACTIVITY.2_PORTS_UTIL = 0");
	ret = c[5] / (5.0 * W);
	seq = ret * c[0] / c[4];
	heavy = seq + ret * (c[2] - c[3]) / c[1];
	be = t[3] / (5.0 * W);
	mem = (c[6] + c[7]) / (t[0] + (t[1] + ret * t[2]) + c[7]) * be;
	check_dbl(ret, 0.40, 1e-6, "tma_retiring = UOPS_RETIRED.SLOTS / (5 x cycles) = 0.40");
	check_dbl(seq, 0.10, 1e-6, "tma_microcode_sequencer = 0.40 x 0.5625 / 2.25 = 0.10");
	check_dbl(heavy, 0.10, 1e-6, "perf icelake tma_heavy_operations = 0.10, the profile's");
	check_dbl(mem, 0.18, 1e-6, "perf icelake tma_memory_bound = 180000/300000 x 0.30 = 0.18");
	msr_close(dev);
}

/* Skylake with `smt on`: each thread has half the core's slots; the
 * AnyThread forms count the core's (msr/sim/msr_sim.h "SMT"). */
static void test_smt(void)
{
	const char *d = dump("libcpuid/v0.6.2/intel/core_6th_gen/xeon-clx.test");
	char prof[sizeof(shares) + 16];
	struct msr_dev *dev;
	const uint64_t sel[] = { SEL(0x3c, 0) | ANY, SEL(0xc2, 2), SEL(0x0e, 1),
				 SEL(0x0d, 1) | CMASK(1) | ANY };
	double any_clk, ret, iss, rec_any, slots;

	snprintf(prof, sizeof(prof), "%ssmt on\n", shares);
	dev = open_sim(d, "clx-smt", prof);
	intel_program(dev, 0, sel, 4, 0xf);
	msr_sim_work(dev, 0, W);
	msr_write(dev, 0, 0x38f, 0);
	any_clk = (double)rd(dev, 0, 0xc1);
	ret = (double)rd(dev, 0, 0xc2);
	iss = (double)rd(dev, 0, 0xc3);
	rec_any = (double)rd(dev, 0, 0xc4);
	check_dbl(any_clk, 1e6, 0, "SMT: THREAD_ANY = the cycles either thread runs: 1e6");
	check_dbl(ret, 0.8e6, 0, "SMT: RETIRE_SLOTS = the thread's half: 0.40 x 4 x 1e6 / 2");
	check_dbl(rec_any, 50000, 0, "SMT: RECOVERY_CYCLES_ANY = the core's: 0.10 / 2 x 1e6");
	slots = 4 * (any_clk / 2); /* perf SLOTS_SMT-style: 4 x THREAD_ANY / 2 */
	check_dbl(ret / slots, 0.40, 1e-12, "perf Retiring_SMT = RETIRE_SLOTS / (4 x THREAD_ANY / 2)");
	check_dbl((iss - ret + 4 * (rec_any / 2)) / slots, 0.10, 1e-12,
		  "perf Bad_Speculation_SMT with RECOVERY_CYCLES_ANY / 2 = 0.10");
	check_dbl(ret / (4 * any_clk), 0.20, 1e-12,
		  "without the halving (SLOTS = 4 x cycles) Retiring reads half: 0.20");
	/* FC1 (CPU_CLK_UNHALTED.THREAD) counts every cycle of the thread */
	msr_write(dev, 0, 0x30a, 0);
	msr_write(dev, 0, 0x38d, 0x30);
	msr_write(dev, 0, 0x38f, 1ull << 33);
	msr_sim_work(dev, 0, W);
	msr_write(dev, 0, 0x38f, 0);
	check_u64(rd(dev, 0, 0x30a), ==, W, "SMT: FC1 = 1e6");
	msr_close(dev);
}

/* Alder Lake E-core (Gracemont, CPUID.1AH core type 0x20): width 5. */
static void test_ecore(void)
{
	const char *d = dump("libcpuid/v0.6.2/intel/core_12th_gen/alder-lake-s-i9.test");
	unsigned cpu = cpu_of(d, 0x20);
	struct msr_dev *dev = open_sim(d, "adl-e", shares);
	/* CPU_CLK_UNHALTED.CORE_P 0x3c, TOPDOWN_RETIRING.ALL 0xc2/0x00,
	 * _FE_BOUND.ALL 0x71, _BAD_SPECULATION.ALL 0x73, _BE_BOUND.ALL 0x74,
	 * LD_HEAD.ANY_AT_RET 0x05/0xff */
	const uint64_t sel[] = { SEL(0x3c, 0), SEL(0xc2, 0), SEL(0x71, 0), SEL(0x73, 0),
				 SEL(0x74, 0), SEL(0x05, 0xff) };
	double v[6], slots;

	check_u64(rd(dev, cpu, 0x38f), ==, 0x70000003full,
		  "E-core: 6 GP counters (leaf 0xA of an E-core), 3 fixed, no bit 48");
	check_u64(rd(dev, cpu, 0x30c), ==, 0xdead, "E-core: no fixed counter 3");
	intel_program(dev, cpu, sel, 6, 0x3f);
	msr_sim_work(dev, cpu, W);
	msr_write(dev, cpu, 0x38f, 0);
	for (unsigned i = 0; i < 6; i++)
		v[i] = (double)rd(dev, cpu, 0xc1 + i);
	slots = 5 * v[0]; /* tma_info_slots = 5 x CPU_CLK_UNHALTED.CORE */
	check_dbl(v[0], 1e6, 0, "E-core: CORE_P = 1e6");
	check_dbl(v[1] / slots, 0.40, 1e-12, "E-core tma_retiring = TOPDOWN_RETIRING.ALL / slots");
	check_dbl(v[2] / slots, 0.20, 1e-12, "E-core tma_frontend_bound");
	check_dbl(v[3] / slots, 0.10, 1e-12, "E-core tma_bad_speculation (TOPDOWN_BAD_SPECULATION.ALL)");
	check_dbl(v[4] / slots, 0.30, 1e-12, "E-core tma_backend_bound");
	check_dbl((slots - (v[2] + v[4] + v[1])) / slots, 0.10, 1e-12,
		  "E-core: bad speculation as perf's adln metric derives it: 0.10");
	check_dbl(v[5] / v[0], 0.18, 1e-12, "E-core tma_memory_bound = LD_HEAD.ANY_AT_RET / clks");
	check_dbl(v[1], 2e6, 0, "TOPDOWN_RETIRING.ALL = 0.40 x 5 x 1e6");
	msr_close(dev);
}

/* Arrow Lake E-core (Skymont): fixed counters 4-6 = TOPDOWN_BAD_SPECULATION,
 * _FE_BOUND, _RETIRING .ALL (intel/perfmon lunarlake_skymont_core.json), width 8. */
static void test_skymont(void)
{
	const char *d = dump("libcpuid/master-history/intel/x86-64/lion-cove/"
			     "intel-core-ultra-7-265k.test");
	unsigned cpu = cpu_of(d, 0x20);
	struct msr_dev *dev = open_sim(d, "arl-e", shares);

	/* fields of FC1, FC4, FC5, FC6 = EN_OS | EN_USR: 0x30 | 0x333 << 16 */
	msr_write(dev, cpu, 0x38f, 0);
	msr_write(dev, cpu, 0x38d, 0x3330030);
	msr_write(dev, cpu, 0x38f, (1ull << 33) | (7ull << 36));
	msr_sim_work(dev, cpu, W);
	msr_write(dev, cpu, 0x38f, 0);
	check_u64(rd(dev, cpu, 0x30a), ==, W, "Skymont FC1 = 1e6 cycles");
	check_u64(rd(dev, cpu, 0x30d), ==, 800000, "FC4 TOPDOWN_BAD_SPECULATION.ALL = 0.10 x 8 x 1e6");
	check_u64(rd(dev, cpu, 0x30e), ==, 1600000, "FC5 TOPDOWN_FE_BOUND.ALL = 0.20 x 8 x 1e6");
	check_u64(rd(dev, cpu, 0x30f), ==, 3200000, "FC6 TOPDOWN_RETIRING.ALL = 0.40 x 8 x 1e6");
	check_u64(rd(dev, cpu, 0x30c), ==, 0xdead, "no fixed counter 3 (fixed mask 0x77)");
	msr_close(dev);
}

/* AMD: PERF_CTLx = event[7:0] | umask << 8 | USR | OS | EN | event[11:8] << 32 */
#define ASEL(ev, um) (UOE | (uint64_t)(um) << 8 | ((ev) & 0xff) | (uint64_t)((ev) >> 8) << 32)

static void amd_program(struct msr_dev *d, const uint64_t *sel, unsigned n, uint64_t en)
{
	msr_write(d, 0, 0xc0000301, 0);
	for (unsigned i = 0; i < n; i++) {
		msr_write(d, 0, 0xc0010201 + 2 * i, 0);
		msr_write(d, 0, 0xc0010200 + 2 * i, sel[i]);
	}
	msr_write(d, 0, 0xc0000301, en);
}

/* "@zen_name: @what" for the checks of test_zen (a static buffer each). */
static const char *zen_name;
static const char *L(const char *what)
{
	static char buf[8][160];
	static int i;

	i = (i + 1) % 8;
	snprintf(buf[i], sizeof(buf[i]), "%s: %s", zen_name, what);
	return buf[i];
}

static void test_zen(const char *rel, const char *name, unsigned width)
{
	char prof[256];
	struct msr_dev *dev;
	/* ls_not_halted_cyc 0x76, ex_ret_ops 0xc1, de_src_op_disp.all 0xaa/0x07,
	 * de_no_dispatch_per_slot 0x1a0: no_ops_from_frontend 0x01,
	 * backend_stalls 0x1e, smt_contention 0x60 */
	const uint64_t sel[] = { ASEL(0x76, 0), ASEL(0xc1, 0), ASEL(0xaa, 7), ASEL(0x1a0, 1),
				 ASEL(0x1a0, 0x1e), ASEL(0x1a0, 0x60) };
	double v[6], slots;

	zen_name = name;
	snprintf(prof, sizeof(prof), "ghz 0\nretiring 40\nbad_speculation 10\nfrontend_bound 20\n"
		 "backend_bound 25\nsmt_contention 5\n");
	dev = open_sim(dump(rel), name, prof);
	check_u64(rd(dev, 0, 0xc0000301), ==, 0x3f,
		  L("PERF_CNTR_GLOBAL_CTL = 6 counters (CPUID 0x80000022 EBX[3:0])"));
	check_u64(rd(dev, 0, 0xc001020b), ==, 0, L("PERF_CTR5 exists"));
	check_u64(rd(dev, 0, 0xc001020c), ==, 0xdead, L("no seventh counter"));
	check_u64(rd(dev, 0, 0x38f), ==, 0xdead, L("no Intel register"));
	amd_program(dev, sel, 6, 0x3f);
	msr_sim_work(dev, 0, W);
	msr_write(dev, 0, 0xc0000301, 0);
	for (unsigned i = 0; i < 6; i++)
		v[i] = (double)rd(dev, 0, 0xc0010201 + 2 * i);
	slots = width * v[0]; /* total_dispatch_slots */
	check_dbl(v[0], 1e6, 0, L("ls_not_halted_cyc = 1e6"));
	check_dbl(v[1] / slots, 0.40, 1e-12, L("retiring = ex_ret_ops / slots"));
	check_dbl((v[2] - v[1]) / slots, 0.10, 1e-12,
		  L("bad_speculation = (de_src_op_disp.all - ex_ret_ops) / slots"));
	check_dbl(v[3] / slots, 0.20, 1e-12, L("frontend_bound"));
	check_dbl(v[4] / slots, 0.25, 1e-12, L("backend_bound"));
	check_dbl(v[5] / slots, 0.05, 1e-12, L("smt_contention"));
	check_dbl(v[1], 400000.0 * width, 0, L("ex_ret_ops = 0.40 x width x 1e6"));
	/* PerfMonV2: EN alone does not count, the GLOBAL_CTL bit alone neither */
	{
		const uint64_t s2[] = { ASEL(0x76, 0), ASEL(0x76, 0) & ~0x400000ull };

		amd_program(dev, s2, 2, 0x2);
		msr_sim_work(dev, 0, W);
		check_u64(rd(dev, 0, 0xc0010201), ==, 0,
			  L("PERF_CTL0.EN without GLOBAL_CTL bit 0: no count"));
		check_u64(rd(dev, 0, 0xc0010203), ==, 0,
			  L("GLOBAL_CTL bit 1 without PERF_CTL1.EN: no count"));
	}
	/* overflow: 48-bit PERF_CTR0 at 2^48 - 100 wraps; GLOBAL_STATUS bit 0,
	 * read-only; STATUS_CLR clears it */
	msr_write(dev, 0, 0xc0000301, 0);
	msr_write(dev, 0, 0xc0010201, (1ull << 48) - 100);
	msr_write(dev, 0, 0xc0010200, ASEL(0x76, 0));
	msr_write(dev, 0, 0xc0000301, 1);
	msr_sim_work(dev, 0, 1000);
	msr_write(dev, 0, 0xc0000301, 0);
	check_u64(rd(dev, 0, 0xc0010201), ==, 900, L("2^48 - 100 + 1000 wraps to 900"));
	check_u64(rd(dev, 0, 0xc0000300), ==, 1, L("GLOBAL_STATUS bit 0"));
	check_int(msr_write(dev, 0, 0xc0000300, 0), ==, -EIO, L("GLOBAL_STATUS is read-only"));
	msr_write(dev, 0, 0xc0000302, 1);
	check_u64(rd(dev, 0, 0xc0000300), ==, 0, L("STATUS_CLR bit 0 clears it"));
	msr_close(dev);
}

/* With access costs the frozen counters still give the shares exactly:
 * every cycle - accesses' and work's - counts at the same shares when no
 * access_* key is given; a counter read later than another only differs
 * by the accesses between them. */
static void test_access_cost(void)
{
	const char *d = dump("libcpuid/v0.6.2/intel/core_6th_gen/skylake-i5.test");
	char prof[sizeof(shares) + 32];
	const uint64_t sel[] = { SEL(0x3c, 0), SEL(0xc2, 2) };
	struct msr_dev *dev;
	double clk, ret;

	snprintf(prof, sizeof(prof), "%saccess_cycles 1000\n", shares);
	dev = open_sim(d, "skl-acc", prof);
	intel_program(dev, 0, sel, 2, 0x3);
	msr_sim_work(dev, 0, W);
	clk = (double)rd(dev, 0, 0xc1); /* running: the reads cost 1000 cycles each */
	ret = (double)rd(dev, 0, 0xc2);
	/* RETIRE_SLOTS read one access (1000 cycles, 1600 slots) after THREAD_P */
	check_dbl(ret / (4 * clk), 0.40, 0.40 * 1000.0 / clk,
		  "running: RETIRE_SLOTS / (4 x THREAD_P) = 0.40 within one access's cost");
	msr_write(dev, 0, 0x38f, 0);
	clk = (double)rd(dev, 0, 0xc1);
	ret = (double)rd(dev, 0, 0xc2);
	check_dbl(ret / (4 * clk), 0.40, 1e-9, "frozen: exactly 0.40");
	msr_close(dev);
}

/* Every Zen 4 / Zen 5 dump of $SHARED_CPUID/INDEX.tsv has PerfMonV2 with
 * six core counters (its 80000022 column: EAX bit 0 set, EBX[3:0] = 6):
 * each simulates an AMD PMU of six counters. */
static void test_amd_dumps(void)
{
	static const char *const amd[] = {
		"libcpuid/master-history/amd/zen4/epyc-genoa.test",
		"libcpuid/master-history/amd/zen4/amd-ryzen-7-7800x3d-8-core-processor.test",
		"libcpuid/master-history/amd/zen5/amd-ryzen-9-9950x-16-core-processor.test",
		"libcpuid/master-history/amd/zen5/amd-ryzen-ai-9-hx-370-with-radeon-890m.test",
		"instlatx64/AuthenticAMD/AuthenticAMD0B00F21_K20_Turin_01_CPUID.txt",
	};
	char name[32];

	for (size_t i = 0; i < sizeof(amd) / sizeof(amd[0]); i++) {
		struct msr_dev *dev;

		snprintf(name, sizeof(name), "amd-%zu", i);
		dev = open_sim(dump(amd[i]), name, shares);
		ok(rd(dev, 0, 0xc0000301) == 0x3f && rd(dev, 0, 0xc001020a) == 0 &&
		   rd(dev, 0, 0xc001020c) == 0xdead && rd(dev, 0, 0xc0000300) == 0,
		   "%s: PERF_CNTR_GLOBAL_CTL 0x3f, PERF_CTL0-5, no seventh, GLOBAL_STATUS 0", amd[i]);
		msr_close(dev);
	}
	/* Zen 3 (ryzen9-vermeer: 80000022 all zero): no PerfMonV2, no PMU register */
	{
		struct msr_dev *dev = open_sim(dump("libcpuid/v0.6.2/amd/zen3/ryzen9-vermeer.test"),
					       "zen3", shares);

		ok(rd(dev, 0, 0xc0000301) == 0xdead && rd(dev, 0, 0xc0010200) == 0xdead,
		   "Zen 3 without PerfMonV2: no counter register (#GP, -EIO)");
		msr_close(dev);
	}
}

/* smt_contention is AMD's: an Intel machine refuses the profile. */
static void test_profile(void)
{
	char path[PATH_MAX], spec[PATH_MAX + 8];
	struct msr_dev *dev = NULL;

	setenv("BARETMA_CPUID_DUMP", dump("libcpuid/v0.6.2/intel/core_6th_gen/skylake-i5.test"), 1);
	t_path(path, "%s/skl-smtc", dir);
	put_file(path, "retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 25\n"
		 "smt_contention 5\n");
	t_path(spec, "sim:%s", path);
	check_int(msr_open(spec, &dev), ==, -EINVAL, "smt_contention on an Intel CPU: refused");
	ok(strstr(msr_last_error(), "'smt_contention' is AMD's") != NULL, "and said: %s",
	   msr_last_error());
}

int main(void)
{
	shared = t_shared_dumps();
	t_scratch(dir, "0825");
	unsetenv("BARETMA_MSR_TRACE");
	test_skylake();
	test_icelake();
	test_smt();
	test_ecore();
	test_skymont();
	test_zen("libcpuid/master-history/amd/zen4/amd-ryzen-7-7800x3d-8-core-processor.test",
		 "Zen 4", 6);
	test_zen("libcpuid/master-history/amd/zen5/amd-ryzen-9-9950x-16-core-processor.test",
		 "Zen 5", 8);
	test_access_cost();
	test_amd_dumps();
	test_profile();
	t_rm_rf(dir);
	return done_testing();
}
