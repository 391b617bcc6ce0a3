/*
 * t/0450-sim-model.c - the simulated PMU (msr/sim/msr_sim.h) register by
 * register, on the deterministic clock (`ghz 0`: only accesses advance it,
 * `access_cycles` N each), against values worked by hand from what it
 * documents it models (msr/sim/msr_sim.h, with its kernel sources): every number below
 * is counted from the sequence of accesses the test makes, never read
 * back from the simulator's code.  Ice Lake-L dump (family 6 model 0x7E:
 * pipeline width 5, pmu-tools icl_client_ratios.py Pipeline_Width;
 * PERF_METRICS level 1, $SHARED_CPUID/INDEX.tsv expect_topdown_levels, the
 * kernel's intel_icl_event_constraints) and Sapphire Rapids (0x8F: width
 * 6, spr_server_ratios.py; level 2, INDEX.tsv, intel_glc_event_constraints);
 * t/0464 checks the simulator's table-given facts against those sources.  Also the workload's two
 * kinds of cycles, CPL, the write order rule, a machine without counters
 * (leaf 0xA version 0) and the profile's errors.
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
	/* INUSE bit 35 from FC3's field (KVM's INUSE emulation) */
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

/*
 * Two kinds of cycles (msr/sim/msr_sim.h): the accesses' (`access_cycles` N
 * each) at the access_* shares A = 20 20 20 40, the work's (msr_sim_work)
 * at the profile's R = 40 10 20 30; PERF_METRICS reads the slot-weighted
 * mix, each byte round(mix x 255 / 100).
 */
static void test_mix(void)
{
	struct msr_dev *d = open_sim("mix", "access_retiring 20\naccess_bad_speculation 20\n"
				     "access_frontend_bound 20\naccess_backend_bound 40\n");

	program(d);
	check_u64(rd(d, IA32_FIXED_CTR3), ==, 5u * N, "mix: FC3 read, one access: 5 x 1000");
	check_int(msr_sim_work(d, 0, 2 * N), ==, 0, "mix: 2000 cycles of work");
	/* PERF_METRICS read: 2 accesses (2N, at A) and the work (2N, at R), the
	 * same slots each: (A + R) / 2 = 30 15 20 35 -> x 2.55 = 76.5 -> 77,
	 * 38.25 -> 38, 51, 89.25 -> 89: 0x5933264d (sum 255) */
	check_u64(rd(d, IA32_PERF_METRICS), ==, 0x5933264dull, "mix: (A + R) / 2: bytes 77 38 51 89");
	/* FC3 counted both: 5 x (1000 + 2000 + 1000 + 1000) */
	check_u64(rd(d, IA32_FIXED_CTR3), ==, 25u * N, "mix: FC3 counts accesses and work alike");
	/* 4N more of work, then the read: accesses 4N (the two FC3 reads, the
	 * PERF_METRICS read before and this one), work 6N: (4A + 6R) / 10 =
	 * (80+240, 80+60, 80+120, 160+180) / 10 = 32 14 20 34 -> x 2.55 = 81.6
	 * -> 82, 35.7 -> 36, 51, 86.7 -> 87 */
	msr_sim_work(d, 0, 4 * N);
	check_u64(rd(d, IA32_PERF_METRICS), ==, 0x57332452ull,
		  "mix: (4A + 6R) / 10: bytes 82 36 51 87, the running mix");
	/* frozen: work counts nothing */
	msr_write(d, 0, IA32_PERF_GLOBAL_CTRL, 0);
	{
		uint64_t fc3 = rd(d, IA32_FIXED_CTR3);

		msr_sim_work(d, 0, 100 * N);
		check_u64(rd(d, IA32_FIXED_CTR3), ==, fc3, "mix: frozen, work is not counted");
	}
	/* FC3 then PERF_METRICS written 0: both kinds cleared; accesses only
	 * since: A = 51 51 51 102 */
	program(d);
	rd(d, IA32_FIXED_CTR3);
	check_u64(rd(d, IA32_PERF_METRICS), ==, 0x66333333ull, "mix: after a clear, accesses only: A");
	msr_close(d);
}

/* CPL (SDM Vol. 3B 20.2.2): EN_OS counts at CPL 0, EN_USR at CPL > 0;
 * `user_fraction 0.25` of every cycle at CPL > 0. */
static void test_cpl(void)
{
	struct msr_dev *d = open_sim("cpl", "user_fraction 0.25\n");
	static const struct { uint64_t field; uint64_t fc3; const char *what; } f[] = {
		{ 0x2000, 1250, "EN_USR alone: 5 x 1000 x 0.25 = 1250" },
		{ 0x1000, 3750, "EN_OS alone: 5 x 1000 x 0.75 = 3750" },
		{ 0x3000, 5000, "both: 5000" },
	};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		msr_write(d, 0, IA32_PERF_GLOBAL_CTRL, 0);
		msr_write(d, 0, IA32_FIXED_CTR_CTRL, f[i].field | 0x20); /* FC1: USR */
		msr_write(d, 0, IA32_FIXED_CTR1, 0);
		msr_write(d, 0, IA32_FIXED_CTR3, 0);
		msr_write(d, 0, IA32_PERF_METRICS, 0);
		msr_write(d, 0, IA32_PERF_GLOBAL_CTRL, (1ull << 33) | GLOBAL_CTRL_EN_FIXED3 |
			  GLOBAL_CTRL_EN_PERF_METRICS);
		uint64_t fc3 = rd(d, IA32_FIXED_CTR3), pm = rd(d, IA32_PERF_METRICS);
		uint64_t fc1 = rd(d, IA32_FIXED_CTR1);

		ok(fc3 == f[i].fc3, "cpl: %s (got %" PRIu64 ")", f[i].what, fc3);
		/* the shares of what it counted: R (40 10 20 30) */
		ok(pm == 0x4d331a66ull, "cpl: %s: PERF_METRICS R (0x%" PRIx64 ")", f[i].what, pm);
		/* FC1, EN_USR: 3 accesses x 1000 x 0.25 */
		ok(fc1 == 750, "cpl: FC1 EN_USR: 3 x 1000 x 0.25 = 750 (got %" PRIu64 ")", fc1);
	}
	msr_close(d);
}

/* The kernel's order (icl_set_topdown_event_period): FC3, then
 * PERF_METRICS; a PERF_METRICS write while FC3 has counted since it was
 * last written is counted in SIM_MSR_ORDER_ERRORS. */
static void test_order(void)
{
	char state[PATH_MAX + 16], extra[PATH_MAX + 32];
	const char *text;
	struct msr_dev *d = open_sim("order", "");

	check_u64(rd(d, SIM_MSR_ORDER_ERRORS), ==, 0, "order: none at the start");
	program(d);
	check_u64(rd(d, SIM_MSR_ORDER_ERRORS), ==, 0, "order: FC3 = 0, then PERF_METRICS = 0: in order");
	rd(d, IA32_FIXED_CTR3);
	msr_write(d, 0, IA32_PERF_GLOBAL_CTRL, 0);
	msr_write(d, 0, IA32_PERF_METRICS, 0);
	check_u64(rd(d, SIM_MSR_ORDER_ERRORS), ==, 1,
		  "order: PERF_METRICS written alone after FC3 counted (frozen): 1");
	msr_write(d, 0, IA32_FIXED_CTR3, 0);
	msr_write(d, 0, IA32_PERF_METRICS, 0);
	check_u64(rd(d, SIM_MSR_ORDER_ERRORS), ==, 1, "order: FC3 then PERF_METRICS: still 1");
	msr_write(d, 0, IA32_PERF_GLOBAL_CTRL, GLOBAL_CTRL_EN_FIXED3 | GLOBAL_CTRL_EN_PERF_METRICS);
	rd(d, IA32_FIXED_CTR3);
	msr_write(d, 0, IA32_PERF_GLOBAL_CTRL, 0);
	msr_write(d, 0, IA32_PERF_METRICS, 0x01020304);
	msr_write(d, 0, IA32_FIXED_CTR3, 777);
	check_u64(rd(d, SIM_MSR_ORDER_ERRORS), ==, 2, "order: PERF_METRICS before FC3: 2");
	/* saved values put back as the kernel does: FC3, then PERF_METRICS */
	msr_write(d, 0, IA32_FIXED_CTR3, 12345);
	msr_write(d, 0, IA32_PERF_METRICS, 0x01010101);
	check_u64(rd(d, SIM_MSR_ORDER_ERRORS), ==, 2, "order: a restore FC3 then PERF_METRICS: 2");
	check_int(msr_write(d, 0, SIM_MSR_ORDER_ERRORS, 0), ==, -EIO, "order: the register is read-only");
	msr_close(d);

	/* with `state FILE` listing the register, the count is kept there */
	t_path(state, "%s/order.state", dir);
	put_file(state, "0 0x30c 0x0\n0 0x329 0x0\n0 0x38d 0x3000\n0 0x38e 0x0\n"
		     "0 0x38f 0x1000800000000\n0 0x390 0x0\n0 0x400000f0 0x0\n");
	snprintf(extra, sizeof(extra), "state %s\n", state);
	d = open_sim("order-state", extra);
	rd(d, IA32_FIXED_CTR3);
	msr_write(d, 0, IA32_PERF_METRICS, 0);
	text = get_file(state);
	ok(text && strstr(text, "0 0x400000f0 0x1\n"), "order: kept in the state file: 0x400000f0 0x1");
	msr_close(d);
}

/* A real KVM guest without a virtual PMU (t/data/cpuid-emr-kvm-novpmu.txt:
 * CPUID leaf 0xA version 0, no PDCM): no counter, so no PMU register -
 * each access #GPs (-EIO), reads and writes alike. */
static void test_no_pmu(const char *emr)
{
	static const uint32_t regs[] = {
		IA32_PMC0, IA32_PERFEVTSEL0, IA32_FIXED_CTR0, IA32_FIXED_CTR1, IA32_FIXED_CTR2,
		IA32_FIXED_CTR3, IA32_PERF_METRICS, IA32_PERF_CAPABILITIES, IA32_FIXED_CTR_CTRL,
		IA32_PERF_GLOBAL_STATUS, IA32_PERF_GLOBAL_CTRL, IA32_PERF_GLOBAL_STATUS_RESET,
		IA32_PERF_GLOBAL_STATUS_SET, IA32_PERF_GLOBAL_INUSE,
	};
	struct msr_dev *d;
	unsigned bad = 0;
	uint64_t v;

	setenv("BARETMA_CPUID_DUMP", emr, 1);
	d = open_sim("novpmu", "");
	for (unsigned cpu = 0; cpu < 16; cpu += 15)
		for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
			if (msr_read(d, cpu, regs[i], &v) != -EIO ||
			    msr_write(d, cpu, regs[i], 0) != -EIO) {
				printf("# cpu %u 0x%x exists\n", cpu, regs[i]);
				bad++;
			}
	ok(d && !bad, "leaf 0xA version 0: every PMU register of cpus 0 and 15 #GPs (-EIO)");
	check_int(msr_sim_work(d, 0, 1000), ==, 0, "leaf 0xA version 0: work counts on nothing");
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
		/* the access_* shares: all four level-1 or none, summing to 100 */
		{ "retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n"
		  "access_retiring 100\n", "'access_bad_speculation' is missing" },
		{ "retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n"
		  "access_retiring 50\naccess_bad_speculation 10\naccess_frontend_bound 20\n"
		  "access_backend_bound 30\n", "the level-1 nodes (access_*) sum to 110" },
		{ "retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n"
		  "access_retiring 40\naccess_bad_speculation 10\naccess_frontend_bound 20\n"
		  "access_backend_bound 30\naccess_memory_bound 31\n",
		  "'access_memory_bound' (31) is above its parent 'access_backend_bound'" },
		{ "access_tma_retiring 5\n", "line 1: unknown key 'access_tma_retiring'" },
		{ "access_retiring 101\n", "line 1: 'access_retiring' needs a number from 0 to 100" },
		{ "user_fraction 1.5\n", "line 1: 'user_fraction' needs a number from 0 to 1, got '1.5'" },
		{ "work_cycles 2.5\n", "line 1: 'work_cycles' needs a whole number, got '2.5'" },
		{ "seed 9007199254740992\nwork_cycles 1000000000001\n",
		  "line 2: 'work_cycles' needs a number from 0 to 1e+12" },
	};
	struct sim_profile p;
	char *err = NULL;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = msr_sim_profile_parse(bad[i].text, strlen(bad[i].text), "P", &p, &err);

		ok(rc == -EINVAL && err && strstr(err, bad[i].want), "profile error %zu: %s", i,
		   err ? err : "(none)");
	}
	free(err);
}

int main(void)
{
	const char *s = getenv("SHARED_CPUID");
	char icl[PATH_MAX], spr[PATH_MAX], emr[PATH_MAX];

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
	setenv("BARETMA_CPUID_DUMP", icl, 1);
	test_mix();
	test_cpl();
	test_order();
	t_path(emr, "%s/cpuid-emr-kvm-novpmu.txt", getenv("T_DATA") ? getenv("T_DATA") : "t/data");
	test_no_pmu(emr);
	test_profile_errors();
	t_rm_rf(dir);
	return done_testing();
}
