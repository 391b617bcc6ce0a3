/*
 * t/0991-sim-rdpmc.c - the simulated RDPMC (msr_sim_rdpmc, msr/sim/msr_sim.h)
 * and RDPMC metrics-clear mode, on the deterministic clock (`ghz 0`: only
 * accesses and msr_sim_work advance it, `access_cycles` N each).  Every
 * number is worked by hand from the access sequence below.
 *
 * ECX encodings (linux arch/x86/include/asm/perf_event.h
 * INTEL_PMC_FIXED_RDPMC_BASE = 1<<30, INTEL_PMC_FIXED_RDPMC_METRICS = 1<<29):
 * (1<<30)|3 fixed counter 3, 1<<29 IA32_PERF_METRICS, i GP counter i.
 * Metrics-clear mode (linux commit 0e45818ec189 "perf/x86/intel: Support
 * RDPMC metrics clear mode", v6.14): enumerated by IA32_PERF_CAPABILITIES
 * bit 19, on with IA32_FIXED_CTR_CTRL bit 14 (FC3's field, bits 15:12, bit
 * 2: INTEL_FIXED_3_METRICS_CLEAR); an RDPMC of PERF_METRICS returns the
 * value, then clears PERF_METRICS and FC3.
 *
 * Machines: Lunar Lake (Core Ultra 9 288V, family 6 model 0xBD; CPUs 0-3
 * the Lion Cove P-cores: width 8, PERF_METRICS level 2 and metrics-clear,
 * $SHARED_CPUID/INDEX.tsv, linux intel_pmu_init) and Ice Lake-L (0x7E: width
 * 5, level 1, no bit 19).
 *
 * PERF_METRICS bytes (INTEL_PMC_IDX_TD_*: 0 retiring, 1 bad speculation, 2 frontend,
 * 3 backend, 4 heavy operations; each round(share x 255 / 100)):
 *   work (the profile) 40 10 20 30, heavy 10; accesses (access_*) 100 0 0 0.
 *   Accesses alone: 0xff, rest 0                         -> 0xff
 *   3000 cycles of work (24000 slots) + one access (8000 slots), 32000:
 *     retiring (9600 + 8000) / 32000 = 55 %   -> 140.25 -> 140 = 0x8c
 *     bad speculation 2400 / 32000 = 7.5 %    ->  19.125 -> 19 = 0x13
 *     frontend 4800 / 32000 = 15 %            ->  38.25  -> 38 = 0x26
 *     backend 7200 / 32000 = 22.5 %           ->  57.375 -> 57 = 0x39
 *     heavy operations 2400 / 32000 = 7.5 %   ->  19 = 0x13
 *   -> 0x133926138c
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msr/regs/intel_regs.h"
#include "msr/access/msr.h"
#include "msr/open/msr_open.h"
#include "msr/sim/msr_sim.h"
#include "t/fixture.h"

#define N 1000u /* access_cycles */
#define MIX 0x133926138cull
#define ACCESS_ONLY 0xffull

static char dir[PATH_MAX];

static struct msr_dev *open_sim(const char *name)
{
	char path[PATH_MAX + 64], spec[PATH_MAX + 80];
	struct msr_dev *dev = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	fprintf(f, "ghz 0\naccess_cycles %u\nretiring 40\nbad_speculation 10\n"
		"frontend_bound 20\nbackend_bound 30\nheavy_operations 10\n"
		"access_retiring 100\naccess_bad_speculation 0\naccess_frontend_bound 0\n"
		"access_backend_bound 0\n", N);
	fclose(f);
	snprintf(spec, sizeof(spec), "sim:%s", path);
	if (msr_open(spec, &dev))
		printf("# msr_open %s: %s\n", spec, msr_last_error());
	else
		msr_ungate(dev); /* the model on its own, no journal's gate */
	return dev;
}

static uint64_t rd(struct msr_dev *d, uint32_t msr)
{
	uint64_t v = 0xdead;

	if (msr_read(d, 0, msr, &v))
		v = 0xdead;
	return v;
}

static uint64_t pmc(struct msr_dev *d, uint32_t ecx)
{
	uint64_t v = 0xdead;

	if (msr_sim_rdpmc(d, 0, ecx, &v))
		v = 0xdead;
	return v;
}

/* FC3 field @field at bits 15:12, FC3 and PERF_METRICS from 0, then
 * GLOBAL_CTRL bits 35 and 48 (the enabling write's cycles are not counted:
 * frozen until it lands). */
static void program(struct msr_dev *d, uint64_t field)
{
	msr_write(d, 0, IA32_PERF_GLOBAL_CTRL, 0);
	msr_write(d, 0, IA32_FIXED_CTR_CTRL, field << 12);
	msr_write(d, 0, IA32_FIXED_CTR3, 0);
	msr_write(d, 0, IA32_PERF_METRICS, 0);
	msr_write(d, 0, IA32_PERF_GLOBAL_CTRL, GLOBAL_CTRL_EN_FIXED3 | GLOBAL_CTRL_EN_PERF_METRICS);
}

/* The simulated RDPMC reads what an RDMSR reads; each is one access. */
static void test_reads(void)
{
	struct msr_dev *d = open_sim("lnl-read");
	uint64_t v;

	check_int(msr_sim_rdpmc(NULL, 0, RDPMC_ECX_SLOTS, &v), ==, -EINVAL, "not a simulator");
	check_u64(rd(d, IA32_PERF_CAPABILITIES) >> 19 & 1, ==, 1, "LNL P-core: PERF_CAPABILITIES[19]");
	program(d, 0x3);
	check_u64(pmc(d, (1u << 30) | 3), ==, 8u * N, "RDPMC (1<<30)|3: FC3, one access x width 8");
	check_u64(rd(d, IA32_FIXED_CTR3), ==, 16u * N, "RDMSR FC3 right after: one more access");
	check_u64(pmc(d, 1u << 29), ==, ACCESS_ONLY, "RDPMC 1<<29: PERF_METRICS, accesses' shares");
	/* without bit 14 nothing is cleared: FC3 counted on (4 accesses) */
	check_u64(pmc(d, (1u << 30) | 3), ==, 32u * N, "no METRICS_CLEAR_EN: FC3 not cleared");
	/* GP counter 0, not counting (select 0): the value written */
	msr_write(d, 0, IA32_A_PMC0, 12345);
	check_u64(pmc(d, 0), ==, 12345, "RDPMC 0: IA32_PMC0");
	check_int(msr_sim_rdpmc(d, 0, (1u << 30) | 7, &v), ==, -EIO, "fixed counter 7: #GP");
	check_int(msr_sim_rdpmc(d, 0, 12, &v), ==, -EIO, "GP counter 12: #GP");
	check_int(msr_sim_rdpmc(d, 0, (1u << 29) | 1, &v), ==, -EIO, "(1<<29)|1: #GP");
	msr_close(d);
}

/* Metrics-clear: the read returns the metrics since the last clear, then
 * PERF_METRICS and FC3 start from 0; an RDMSR never clears. */
static void test_clear(void)
{
	struct msr_dev *d = open_sim("lnl-clear");

	program(d, 0x7); /* OS | USR | METRICS_CLEAR_EN: bit 14 */
	check_int(msr_sim_work(d, 0, 3 * N), ==, 0, "3000 cycles of work");
	/* the read: 24000 slots of work and its own access's 8000 */
	check_u64(pmc(d, 1u << 29), ==, MIX, "metrics-clear read returns the metrics before the clear");
	/* then FC3 was 0: the next RDPMC of FC3 sees its own access only
	 * (no clear: 24000 + 8000 + 8000 = 40000) */
	check_u64(pmc(d, (1u << 30) | 3), ==, 8u * N, "FC3 from 0 after the read");
	/* PERF_METRICS since the clear: two accesses, no work */
	check_u64(rd(d, IA32_PERF_METRICS), ==, ACCESS_ONLY, "PERF_METRICS from 0 after the read");
	/* an RDMSR of PERF_METRICS does not clear; nor does an RDPMC of FC3 */
	check_u64(rd(d, IA32_FIXED_CTR3), ==, 24u * N, "an RDMSR of PERF_METRICS does not clear");
	check_u64(pmc(d, (1u << 30) | 3), ==, 32u * N, "an RDPMC of FC3 does not clear");
	check_u64(rd(d, IA32_FIXED_CTR_CTRL), ==, 0x7000, "FIXED_CTR_CTRL bit 14 stays set");
	/* a second clear read: since the first, 5 accesses (40000 slots at 0xff) */
	check_u64(pmc(d, 1u << 29), ==, ACCESS_ONLY, "second read: the accesses since the first");
	check_u64(rd(d, IA32_FIXED_CTR3), ==, 8u * N, "and FC3 from 0 again");
	/* bit 14 clear again: no clear */
	program(d, 0x3);
	check_u64(pmc(d, 1u << 29), ==, ACCESS_ONLY, "bit 14 clear: read");
	check_u64(rd(d, IA32_FIXED_CTR3), ==, 16u * N, "bit 14 clear: FC3 counted on");
	msr_close(d);
}

/* Ice Lake has no IA32_PERF_CAPABILITIES[19]: bit 14 (AnyThread there)
 * never clears. */
static void test_no_clear(const char *icl)
{
	struct msr_dev *d;

	setenv("BARETMA_CPUID_DUMP", icl, 1);
	d = open_sim("icl");
	check_u64(rd(d, IA32_PERF_CAPABILITIES) >> 19 & 1, ==, 0, "ICL: no PERF_CAPABILITIES[19]");
	program(d, 0x7);
	check_int(msr_sim_work(d, 0, 3 * N), ==, 0, "ICL: 3000 cycles of work");
	pmc(d, 1u << 29);
	/* width 5: 15000 of work + two accesses of 5000 */
	check_u64(pmc(d, (1u << 30) | 3), ==, 25u * N, "ICL: FC3 not cleared by the read");
	msr_close(d);
}

int main(void)
{
	const char *s = getenv("SHARED_CPUID");
	char lnl[PATH_MAX], icl[PATH_MAX];

	t_path(lnl, "%s/libcpuid/master-history/intel/x86-64/lion-cove/intel-core-ultra-9-288v.test",
	       s ? s : "");
	t_path(icl, "%s/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test", s ? s : "");
	if (!s || access(lnl, R_OK) || access(icl, R_OK)) {
		printf("1..0 # SKIP no CPUID dumps ($SHARED_CPUID)\n");
		return 0;
	}
	t_scratch(dir, "0991");
	unsetenv("BARETMA_MSR_TRACE");
	setenv("BARETMA_CPUID_DUMP", lnl, 1);
	test_reads();
	test_clear();
	test_no_clear(icl);
	t_rm_rf(dir);
	return done_testing();
}
