/*
 * t/0450-sim-model.c - the simulated PMU (msr/msr_sim.h) register by
 * register, on the deterministic clock (`ghz 0`: only accesses advance it,
 * `access_cycles` N each), against values worked by hand from what it
 * documents it models (pmu-reference §1.2-§1.5, §1.9): every number below
 * is counted from the sequence of accesses the test makes, never read
 * back from the simulator's code.  Ice Lake-L dump (family 6 model 0x7E:
 * pipeline width 5, PERF_METRICS level 1: cpu/cpu_models.c ICL rows) and
 * Sapphire Rapids (0x8F: width 6, level 2).  Also the profile's errors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msr/intel_regs.h"
#include "msr/msr.h"
#include "msr/msr_sim.h"
#include "t/fixture.h"

#define N 1000u /* access_cycles */

static char dir[PATH_MAX];

static struct msr_dev *open_sim(const char *name, const char *extra)
{
	char path[PATH_MAX + 64], spec[PATH_MAX + 80];
	struct msr_dev *dev = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	fprintf(f, "ghz 0\naccess_cycles %u\nretiring 40\nbad_speculation 10\n"
		"frontend_bound 20\nbackend_bound 30\nheavy_operations 10\n%s", N, extra);
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

/* FC3 on (OS|USR, bits 13:12 = 0x3000), GLOBAL_CTRL bits 35 and 48. */
static void program(struct msr_dev *d)
{
	msr_write(d, 0, IA32_PERF_GLOBAL_CTRL, 0);
	msr_write(d, 0, IA32_FIXED_CTR_CTRL, 0x3000);
	msr_write(d, 0, IA32_FIXED_CTR3, 0);
	msr_write(d, 0, IA32_PERF_METRICS, 0);
	msr_write(d, 0, IA32_PERF_GLOBAL_CTRL, GLOBAL_CTRL_EN_FIXED3 | GLOBAL_CTRL_EN_PERF_METRICS);
}

static void test_counting(void)
{
	struct msr_dev *d = open_sim("icl", "");

	/* the clean register file: GLOBAL_CTRL = the kernel's intel_ctrl for 8 GP
	 * and 4 fixed counters with PERF_METRICS: 0xff | 0xf << 32 | 1 << 48 */
	check_u64(rd(d, IA32_PERF_GLOBAL_CTRL), ==, 0x1000f000000ffull, "clean GLOBAL_CTRL");
	check_u64(rd(d, IA32_FIXED_CTR_CTRL), ==, 0, "clean FIXED_CTR_CTRL");
	check_u64(rd(d, IA32_PERF_GLOBAL_INUSE), ==, 0, "clean INUSE");
	program(d);
	/* the enabling write's own cycles are not counted (frozen before it);
	 * each later access adds N cycles: FC3 read = 5 x 1000 */
	check_u64(rd(d, IA32_FIXED_CTR3), ==, 5u * N, "FC3: width 5 x 1000 cycles");
	check_u64(rd(d, IA32_FIXED_CTR3), ==, 10u * N, "FC3: one more access, 5000 more");
	/* PERF_METRICS: 40 10 20 30 -> 102, 25.5 -> 26, 51, 76.5 -> 77; level 1:
	 * bytes 4-7 zero although the profile gives heavy_operations */
	check_u64(rd(d, IA32_PERF_METRICS), ==, 0x4d331a66ull, "PERF_METRICS bytes 102 26 51 77");
	/* INUSE bit 35 from FC3's field (§1.9) */
	check_u64(rd(d, IA32_PERF_GLOBAL_INUSE), ==, 1ull << 35, "INUSE bit 35");
	check_int(msr_write(d, 0, IA32_PERF_GLOBAL_INUSE, 0), ==, -EIO, "INUSE is read-only");
	/* frozen: the freeze write counts its N (counting until it lands), then holds.
	 * reads so far after the 10000: PERF_METRICS, INUSE, the refused write,
	 * the freeze = 4 accesses -> 10000 + 4 x 5000 = 30000 */
	msr_write(d, 0, IA32_PERF_GLOBAL_CTRL, 0);
	check_u64(rd(d, IA32_FIXED_CTR3), ==, 30u * N, "frozen: FC3 holds 30000");
	check_u64(rd(d, IA32_FIXED_CTR3), ==, 30u * N, "frozen: still 30000");
	/* a write of 0 clears PERF_METRICS (frozen: nothing accumulates after it) */
	msr_write(d, 0, IA32_PERF_METRICS, 0);
	check_u64(rd(d, IA32_PERF_METRICS), ==, 0, "PERF_METRICS cleared by a write of 0");
	/* a write sets FC3 */
	msr_write(d, 0, IA32_FIXED_CTR3, 12345);
	check_u64(rd(d, IA32_FIXED_CTR3), ==, 12345, "a write sets FC3");
	/* overflow: 48-bit fixed counters (CPUID.0AH:EDX[12:5]); 2^48 - 1000
	 * plus one access of 5000 slots wraps to 4000 and sets bits 35 and 48 */
	msr_write(d, 0, IA32_FIXED_CTR3, (1ull << 48) - 1000);
	msr_write(d, 0, IA32_PERF_GLOBAL_CTRL, GLOBAL_CTRL_EN_FIXED3 | GLOBAL_CTRL_EN_PERF_METRICS);
	check_u64(rd(d, IA32_FIXED_CTR3), ==, 4000, "FC3 wraps at 2^48");
	check_u64(rd(d, IA32_PERF_GLOBAL_STATUS) & (GLOBAL_STATUS_OVF_FIXED3 |
		  GLOBAL_STATUS_OVF_PERF_METRICS), ==, GLOBAL_STATUS_OVF_FIXED3 |
		  GLOBAL_STATUS_OVF_PERF_METRICS, "overflow sets bits 35 and 48");
	check_int(msr_write(d, 0, IA32_PERF_GLOBAL_STATUS, 0), ==, -EIO, "GLOBAL_STATUS is read-only");
	msr_write(d, 0, IA32_PERF_GLOBAL_STATUS_RESET, GLOBAL_STATUS_OVF_FIXED3 |
		  GLOBAL_STATUS_OVF_PERF_METRICS);
	check_u64(rd(d, IA32_PERF_GLOBAL_STATUS), ==, 0, "0x390 clears them");
	/* FC1 (cycles) and FC0 (ipc 1) count once enabled: fields 0x33 */
	msr_write(d, 0, IA32_PERF_GLOBAL_CTRL, 0);
	msr_write(d, 0, IA32_FIXED_CTR1, 0);
	msr_write(d, 0, IA32_FIXED_CTR3, 0);
	msr_write(d, 0, IA32_FIXED_CTR_CTRL, 0x3030);
	msr_write(d, 0, IA32_PERF_GLOBAL_CTRL, (1ull << 33) | GLOBAL_CTRL_EN_FIXED3);
	check_u64(rd(d, IA32_FIXED_CTR1), ==, N, "FC1: 1000 cycles");
	check_u64(rd(d, IA32_FIXED_CTR3), ==, 10u * N, "FC3 = width x cycles: 5 x 2000");
	msr_close(d);
}

static void test_faults(void)
{
	struct msr_dev *d = open_sim("nc", "fault metrics_not_cleared\n");

	program(d);
	check_u64(rd(d, IA32_PERF_METRICS), ==, 0x4d331a66ull, "not_cleared: counting");
	msr_write(d, 0, IA32_PERF_GLOBAL_CTRL, 0);
	msr_write(d, 0, IA32_PERF_METRICS, 0);
	check_u64(rd(d, IA32_PERF_METRICS), ==, 0x4d331a66ull,
		  "fault metrics_not_cleared: a write of 0 leaves the value");
	msr_close(d);
	d = open_sim("stuck", "fault slots_stuck\n");
	program(d);
	check_u64(rd(d, IA32_FIXED_CTR3), ==, 0, "fault slots_stuck: FC3 does not count");
	msr_close(d);
	d = open_sim("sum", "fault sum_off 9\n");
	program(d);
	/* 256 + adjustment to 264: the largest byte, 102, becomes 110 = 0x6e */
	check_u64(rd(d, IA32_PERF_METRICS), ==, 0x4d331a6eull, "fault sum_off 9: 110 26 51 77");
	msr_close(d);
	d = open_sim("ovf", "fault overflow_every 3\n");
	program(d);
	rd(d, IA32_PERF_METRICS);
	rd(d, IA32_PERF_METRICS);
	check_u64(rd(d, IA32_PERF_GLOBAL_STATUS), ==, 0, "overflow_every 3: not after 2 reads");
	rd(d, IA32_PERF_METRICS);
	check_u64(rd(d, IA32_PERF_GLOBAL_STATUS), ==, GLOBAL_STATUS_OVF_PERF_METRICS,
		  "overflow_every 3: bit 48 at the 3rd read");
	msr_close(d);
}

static void test_level2(const char *spr)
{
	struct msr_dev *d;

	setenv("BARETMA_CPUID_DUMP", spr, 1);
	d = open_sim("spr", "fault level2_above_parent\n");
	program(d);
	/* width 6: 6000 slots per access; bytes 4-7: heavy 10 -> 25.5 -> 26 = 0x1a,
	 * then the fault: retiring's 102 + 13 = 115 = 0x73 */
	check_u64(rd(d, IA32_FIXED_CTR3), ==, 6u * N, "SPR: width 6");
	check_u64(rd(d, IA32_PERF_METRICS), ==, 0x734d331a66ull,
		  "SPR: level-2 byte 4, level2_above_parent: 115 over retiring's 102");
	msr_close(d);
}

static void test_profile_errors(void)
{
	static const struct { const char *text, *want; } bad[] = {
		{ "retiring 40\nbad_speculation 10\nfrontend_bound 20\n", "'backend_bound' is missing" },
		{ "retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 31\n",
		  "sum to 101" },
		{ "retiring 40\nbogus 1\n", "line 2: unknown key 'bogus'" },
		{ "ghz fast\n", "line 1: 'ghz' needs a number" },
		{ "fault perf_offset tma_nothing 5\n", "names no node 'tma_nothing'" },
		{ "fault sum_off\n", "'fault sum_off' needs a number from -64 to 64" },
		{ "retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n"
		  "heavy_operations 41\n", "above its parent 'retiring'" },
		/* a value refused after a line that left a large number behind:
		 * nothing may be converted from a number that was not accepted
		 * (9007199254740992 = 2^53 does not fit an unsigned; UBSan's
		 * float-cast-overflow caught the conversion, found by fuzzing) */
		{ "seed 9007199254740992\nwidth x\n", "line 2: 'width' needs a number from 1 to 16" },
		{ "access_cycles 1000000000000\nwidth 17\n", "line 2: 'width' needs a number" },
		{ "seed 9007199254740992\nfault overflow_every 0\n",
		  "line 2: 'fault overflow_every' needs a number from 1 to 1e+09" },
		{ "seed 9007199254740992\nfault sum_off 65\n",
		  "line 2: 'fault sum_off' needs a number from -64 to 64" },
	};
	struct sim_profile p;
	char err[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = msr_sim_profile_parse(bad[i].text, strlen(bad[i].text), "P", &p, err,
					       sizeof(err));

		ok(rc == -EINVAL && strstr(err, bad[i].want), "profile error %zu: %s", i, err);
	}
}

int main(void)
{
	const char *s = getenv("SHARED_CPUID");
	char icl[PATH_MAX], spr[PATH_MAX];

	t_path(icl, "%s/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test", s ? s : "");
	t_path(spr, "%s/libcpuid/master-history/intel/x86-64/golden-cove/"
	       "sapphire-rapids-ws-xeon-w9.test", s ? s : "");
	if (!s || access(icl, R_OK) || access(spr, R_OK)) {
		printf("1..0 # SKIP no CPUID dumps ($SHARED_CPUID)\n");
		return 0;
	}
	t_scratch(dir, "sim");
	setenv("BARETMA_CPUID_DUMP", icl, 1);
	unsetenv("BARETMA_MSR_TRACE");
	test_counting();
	test_faults();
	test_level2(spr);
	test_profile_errors();
	t_rm_rf(dir);
	return done_testing();
}
