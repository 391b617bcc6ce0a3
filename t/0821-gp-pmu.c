/*
 * t/0821-gp-pmu.c - msr/pmu/pmu_gp.h beyond programming: the PMU's facts from
 * real CPUID dumps (gp_pmu_init), the event-select encodings (gp_encode),
 * the assignment rules (gp_assign: fixed counters, "counter 0 only",
 * AnyThread where deprecated, what cannot be placed), and, on a state
 * file, the tamper check (gp_verify), the frozen reset (gp_reset), the
 * reads (gp_read_msr) and the overflow check (gp_read_overflow).
 *
 * Expected facts come from outside the code under test: the dumps' known
 * answers in $SHARED_CPUID/INDEX.tsv (leaf 0xA EAX/EDX, leaf 0x23
 * bitmaps, AMD 0x80000022), the SDM's IA32_PERFEVTSELx layout as linux
 * arch/x86/include/asm/perf_event.h encodes it (USR 16, OS 17, EDGE 18,
 * INT 20, ANY 21, EN 22, INV 23, CMASK 31:24; AMD EventSelect[11:8] at
 * 35:32), the kernel's AnyThread rule (intel_pmu_init: deprecated when
 * version >= 5 and CPUID.0AH:EDX[15]), and intel/perfmon's counter
 * constraints (SPR TOPDOWN.BAD_SPEC_SLOTS / BR_MISPREDICT_SLOTS "Counter":
 * "0"; the kernel's intel_glc_event_constraints).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "msr/journal/journal.h"
#include "msr/open/msr_open.h"
#include "msr/pmu/pmu_gp.h"
#include "t/fixture.h"
#include "t/pmu-fixture.h"

static const char *shared;

/* @rel under $SHARED_CPUID (t_in: one of its 8 buffers) */
static const char *dump(const char *rel)
{
	return t_in(shared, rel);
}

/* gp_pmu_init on CPU @cpu (or, with @type, the first CPU of that core
 * type) of @path, without an MSR device. */
static int pmu_of(const char *path, unsigned type, struct gp_pmu *p, char *why, size_t n)
{
	struct cpu_source *src = cpu_source_dump(path);
	struct cpu_info ci;
	unsigned cpu = 0;
	int rc;

	if (!src || cpu_info_identify(src, NULL, &ci)) {
		printf("Bail out! cannot identify %s\n", path);
		exit(1);
	}
	for (unsigned k = 0; type && k < ci.nkinds; k++)
		if (ci.kinds[k].core_type == type)
			cpu = ci.kinds[k].cpus[0];
	rc = gp_pmu_init(NULL, cpu, &ci, p, why, n);
	cpu_source_free(src);
	return rc;
}

static void test_pmu_init(void)
{
	struct gp_pmu p;
	char why[256];

	/* INDEX.tsv: skylake-i5 leafA 07300804-...-00000603: version 4, 8 GP of
	 * 48 bits, 3 fixed; v4 < 5: AnyThread allowed */
	check_int(pmu_of(dump("libcpuid/v0.6.2/intel/core_6th_gen/skylake-i5.test"), 0, &p, why,
			 sizeof(why)), ==, 0, "Skylake-S: a GP PMU");
	ok(p.vendor == GP_VENDOR_INTEL && p.version == 4 && p.gp_mask == 0xff && p.gp_width == 48 &&
	   p.fixed_mask == 0x7 && p.anythread && !p.full_width_write,
	   "Skylake-S: v4, 8 GP x 48 bits, FC0-2, AnyThread, no full-width writes without the MSR");
	/* xeon-clx leafA 07300404: 4 GP (Hyper-Threading on) */
	pmu_of(dump("libcpuid/v0.6.2/intel/core_6th_gen/xeon-clx.test"), 0, &p, why, sizeof(why));
	ok(p.gp_mask == 0xf && p.anythread, "Cascade Lake: 4 GP, AnyThread");
	/* sandy-bridge-i7 leafA 07300403: version 3, AnyThread from v3 */
	pmu_of(dump("libcpuid/v0.6.2/intel/core_2nd_gen/sandy-bridge-i7.test"), 0, &p, why,
	       sizeof(why));
	ok(p.version == 3 && p.anythread && p.gp_mask == 0xf, "Sandy Bridge: v3, AnyThread, 4 GP");
	/* ice-lake-i7 leafA 08300805-...-0000000F-00008604: v5, EDX[15] set:
	 * AnyThread deprecated; FC3 is msr/pmu/pmu.h's: fixed mask 0x7 here */
	pmu_of(dump("libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test"), 0, &p, why, sizeof(why));
	ok(p.version == 5 && !p.anythread && p.gp_mask == 0xff && p.fixed_mask == 0x7,
	   "Ice Lake: v5, AnyThread deprecated, 8 GP, FC0-2 (FC3 left to msr/pmu/pmu.h)");
	/* alder-lake-s-i9 E-core (0x20): leafA 07300605: 6 GP, FC0-2 */
	pmu_of(dump("libcpuid/v0.6.2/intel/core_12th_gen/alder-lake-s-i9.test"), 0x20, &p, why,
	       sizeof(why));
	ok(p.gp_mask == 0x3f && p.fixed_mask == 0x7 && !p.anythread, "Alder Lake E-core: 6 GP, FC0-2");
	/* 265K: leaf 0x23 0x20:gp=FF,fixed=77 and 0x40:gp=3FF,fixed=F */
	pmu_of(dump("libcpuid/master-history/intel/x86-64/lion-cove/intel-core-ultra-7-265k.test"),
	       0x20, &p, why, sizeof(why));
	ok(p.gp_mask == 0xff && p.fixed_mask == 0x77,
	   "Arrow Lake E-core (Skymont): 8 GP, fixed 0-2 and 4-6 (leaf 0x23 EBX 0x77)");
	pmu_of(dump("libcpuid/master-history/intel/x86-64/lion-cove/intel-core-ultra-7-265k.test"),
	       0x40, &p, why, sizeof(why));
	ok(p.gp_mask == 0xff && p.fixed_mask == 0x7,
	   "Arrow Lake P-core: leaf 0x23 GP 0x3ff, counters 8-9 left out (v6 ranges), FC0-2");
	/* 7800x3d 80000022 = 00000007-00084106: EAX[0] PerfMonV2, EBX[3:0] 6 */
	check_int(pmu_of(dump("libcpuid/master-history/amd/zen4/"
			      "amd-ryzen-7-7800x3d-8-core-processor.test"), 0, &p, why, sizeof(why)),
		  ==, 0, "Zen 4: a GP PMU");
	ok(p.vendor == GP_VENDOR_AMD && p.gp_mask == 0x3f && p.gp_width == 48 && !p.fixed_mask &&
	   !p.anythread, "Zen 4: AMD, 6 counters of 48 bits, no fixed, no AnyThread");
	pmu_of(dump("libcpuid/master-history/amd/zen5/amd-ryzen-9-9950x-16-core-processor.test"), 0,
	       &p, why, sizeof(why));
	ok(p.vendor == GP_VENDOR_AMD && p.gp_mask == 0x3f, "Zen 5: AMD, 6 counters");
	/* ryzen9-vermeer 80000022 = 0: no PerfMonV2 */
	check_int(pmu_of(dump("libcpuid/v0.6.2/amd/zen3/ryzen9-vermeer.test"), 0, &p, why,
			 sizeof(why)), ==, -ENODEV, "Zen 3: -ENODEV");
	ok(strstr(why, "no PerfMonV2 global control (CPUID 0x80000022 EAX[0])") != NULL,
	   "Zen 3: said why: %s", why);
	/* t/data: leaf 0xA all zero (KVM without a virtual PMU) */
	{
		char emr[PATH_MAX];

		t_path(emr, "%s/cpuid-emr-kvm-novpmu.txt", getenv("T_DATA") ? getenv("T_DATA") : "t/data");
		check_int(pmu_of(emr, 0, &p, why, sizeof(why)), ==, -ENODEV,
			  "KVM without a virtual PMU: -ENODEV");
		ok(strstr(why, "architectural perfmon version 0") != NULL, "said: %s", why);
	}
}

static void test_encode(void)
{
	/* INT_MISC.RECOVERY_CYCLES_ANY (SKL): 0x0d | 0x01 << 8 | USR | OS | ANY
	 * (0x200000) | cmask 1 << 24 */
	struct gp_event e = { "INT_MISC.RECOVERY_CYCLES_ANY", 0x0d, 0x01, 1, false, false, true, 0,
			      GP_NO_FIXED };

	check_u64(gp_encode(GP_VENDOR_INTEL, &e, false), ==, 0x0123010dull,
		  "RECOVERY_CYCLES_ANY: 0x0123010d (no EN, no INT)");
	check_u64(gp_encode(GP_VENDOR_INTEL, &e, true), ==, 0x0121010dull, "user_only: OS clear");
	/* MACHINE_CLEARS.COUNT: 0xc3/0x01 cmask 1, edge (0x40000) */
	e = (struct gp_event){ "MACHINE_CLEARS.COUNT", 0xc3, 0x01, 1, false, true, false, 0,
			       GP_NO_FIXED };
	check_u64(gp_encode(GP_VENDOR_INTEL, &e, false), ==, 0x010701c3ull, "MACHINE_CLEARS.COUNT");
	/* inv (0x800000) with cmask 1: UOPS_RETIRED.STALL_CYCLES-style */
	e = (struct gp_event){ "inv", 0xc2, 0x01, 1, true, false, false, 0, GP_NO_FIXED };
	check_u64(gp_encode(GP_VENDOR_INTEL, &e, false), ==, 0x018301c2ull, "inv: bit 23");
	/* AMD de_no_dispatch_per_slot.no_ops_from_frontend cmask 6 (perf's
	 * amdzen4 frontend_bound_latency): 0xa0 | 1 << 8 | USR | OS | 6 << 24 |
	 * 0x1 << 32 */
	e = (struct gp_event){ "no_ops_from_frontend c6", 0x1a0, 0x01, 6, false, false, false, 0,
			       GP_NO_FIXED };
	check_u64(gp_encode(GP_VENDOR_AMD, &e, false), ==, 0x1060301a0ull,
		  "AMD: EventSelect[11:8] at bits 35:32");
}

static const struct gp_pmu spr = {
	.vendor = GP_VENDOR_INTEL, .version = 5, .gp_mask = 0xff, .gp_width = 48,
	.fixed_mask = 0x7, .fixed_width = 48, .full_width_write = true, .anythread = false,
};
static const struct gp_pmu skt = {
	.vendor = GP_VENDOR_INTEL, .version = 5, .gp_mask = 0xff, .gp_width = 48,
	.fixed_mask = 0x77, .fixed_width = 48, .full_width_write = true,
};
static const struct gp_pmu zen = { .vendor = GP_VENDOR_AMD, .version = 2, .gp_mask = 0x3f,
				   .gp_width = 48 };

static void test_assign(void)
{
	struct gp_plan p;
	char why[256];
	/* SPR: TOPDOWN.BAD_SPEC_SLOTS 0xa4/0x04 and BR_MISPREDICT_SLOTS 0xa4/0x08
	 * "Counter": "0"; TOPDOWN.SLOTS_P 0xa4/0x01 any */
	const struct gp_event glc[] = {
		{ "TOPDOWN.SLOTS_P", 0xa4, 0x01, 0, false, false, false, 0, GP_NO_FIXED },
		{ "TOPDOWN.BAD_SPEC_SLOTS", 0xa4, 0x04, 0, false, false, false, 0x1, GP_NO_FIXED },
		{ "TOPDOWN.BR_MISPREDICT_SLOTS", 0xa4, 0x08, 0, false, false, false, 0x1, GP_NO_FIXED },
	};
	/* Skymont: TOPDOWN_RETIRING.ALL on fixed counter 6, GP form
	 * TOPDOWN_RETIRING.ALL_P 0xc2/0x02; TOPDOWN_BAD_SPECULATION.ALL on
	 * fixed counter 4 only (pseudo encoding 0x0500: no GP form given) */
	const struct gp_event sk[] = {
		{ "TOPDOWN_RETIRING.ALL", 0xc2, 0x02, 0, false, false, false, 0, 6 },
		{ "TOPDOWN_BAD_SPECULATION.ALL", 0x00, 0x00, 0, false, false, false, 0, 4 },
	};
	struct gp_event e;

	check_int(gp_assign(&spr, glc, 2, 0, 0, false, &p, why, sizeof(why)), ==, 0,
		  "SLOTS_P and BAD_SPEC_SLOTS");
	ok(p.at[1].idx == 0 && p.at[0].idx == 1,
	   "BAD_SPEC_SLOTS takes counter 0 (its only one) before SLOTS_P, which takes 1");
	check_int(gp_assign(&spr, glc, 3, 0, 0, false, &p, why, sizeof(why)), ==, -ENOSPC,
		  "two counter-0-only events: -ENOSPC");
	ok(strstr(why, "TOPDOWN.BR_MISPREDICT_SLOTS: no free counter") != NULL, "named: %s", why);
	check_int(gp_assign(&spr, glc, 2, 0x1, 0, false, &p, why, sizeof(why)), ==, -ENOSPC,
		  "counter 0 busy: BAD_SPEC_SLOTS has none left");
	/* AnyThread on Ice Lake and later: refused (kernel: deprecated) */
	e = (struct gp_event){ "CPU_CLK_UNHALTED.THREAD_ANY", 0x3c, 0, 0, false, false, true, 0,
			       GP_NO_FIXED };
	check_int(gp_assign(&spr, &e, 1, 0, 0, false, &p, why, sizeof(why)), ==, -EINVAL,
		  "AnyThread where deprecated: -EINVAL");
	ok(strstr(why, "AnyThread (IA32_PERFEVTSELx bit 21) is not available here") != NULL,
	   "said: %s", why);
	check_int(gp_assign(&zen, &e, 1, 0, 0, false, &p, why, sizeof(why)), ==, -EINVAL,
		  "AnyThread on AMD: -EINVAL");
	e = (struct gp_event){ "too wide", 0x1c2, 0, 0, false, false, false, 0, GP_NO_FIXED };
	check_int(gp_assign(&spr, &e, 1, 0, 0, false, &p, why, sizeof(why)), ==, -EINVAL,
		  "Intel event select 0x1c2 (9 bits): -EINVAL");
	check_int(gp_assign(&zen, &e, 1, 0, 0, false, &p, why, sizeof(why)), ==, 0,
		  "AMD event select 0x1c2 (ex_ret_ucode_ops): fits 12 bits");
	e = (struct gp_event){ "FC3", 0, 0, 0, false, false, false, 0, 3 };
	check_int(gp_assign(&spr, &e, 1, 0, 0, false, &p, why, sizeof(why)), ==, -EINVAL,
		  "fixed counter 3 (msr/pmu/pmu.h's): -EINVAL");
	/* Skymont: the fixed counters when free; FC6 busy: the GP form */
	check_int(gp_assign(&skt, sk, 2, 0, 0, false, &p, why, sizeof(why)), ==, 0, "Skymont plan");
	ok(p.at[0].fixed && p.at[0].idx == 6 && p.at[1].fixed && p.at[1].idx == 4,
	   "retiring on FC6, bad speculation on FC4");
	check_u64(gp_plan_bits(&p), ==, (1ull << 38) | (1ull << 36),
		  "GLOBAL_CTRL bits 38 and 36 (32 + i)");
	check_int(gp_rdpmc_ecx(&p, 0), ==, (1 << 30) | 6, "RDPMC ECX of FC6: 0x40000006");
	check_int(gp_assign(&skt, sk, 2, 0, 0x40, false, &p, why, sizeof(why)), ==, 0,
		  "FC6 busy: retiring on a GP counter");
	ok(!p.at[0].fixed && p.at[0].idx == 0, "TOPDOWN_RETIRING.ALL_P on GP counter 0");
	check_int(gp_assign(&skt, sk, 2, 0, 0x10, false, &p, why, sizeof(why)), ==, -ENOSPC,
		  "FC4 busy and no GP form: -ENOSPC");
	check_int(gp_assign(&zen, glc, 17, 0, 0, false, &p, why, sizeof(why)), ==, -EINVAL,
		  "17 events in one plan: -EINVAL");
}

/* Skylake-like state file; a journal for the writes (the gate). */
static const char skl_text[] =
	"0 0xc1 0x0\n0 0xc2 0x0\n"
	"0 0x186 0x0\n0 0x187 0x0\n"
	"0 0x38d 0x0\n0 0x38e 0x0\n0 0x38f 0x70000000f\n0 0x390 0x0\n"
	"0 0x4c1 0x0\n0 0x4c2 0x0\n";

static void test_verify_reset(void)
{
	const struct gp_pmu pmu = { .vendor = GP_VENDOR_INTEL, .version = 4, .gp_mask = 0x3,
				    .gp_width = 48, .fixed_mask = 0x7, .full_width_write = true,
				    .anythread = true };
	const struct gp_event ev[] = {
		{ "CPU_CLK_UNHALTED.THREAD_P", 0x3c, 0, 0, false, false, false, 0, GP_NO_FIXED },
		{ "UOPS_RETIRED.RETIRE_SLOTS", 0xc2, 2, 0, false, false, false, 0, GP_NO_FIXED },
	};
	struct gp_config cfg = { .nmi_watchdog = 0 };
	struct msr_dev *dev = NULL, *other = NULL;
	char spec[PATH_MAX + 8], why[256];
	uint64_t gc = 0, vals[2], bits = 0;
	struct gp_plan p;

	put_file(state, skl_text);
	spec_of(spec, sizeof(spec));
	if (msr_open(spec, &dev) || msr_open(spec, &other) || msr_ungate(other)) {
		printf("Bail out! msr_open\n");
		exit(1);
	}
	check_int(journal_begin(&cfg.journal, "t0821", spec, JOURNAL_RUN, false), ==, 0, "journal");
	journal_set_dev(cfg.journal, dev);
	gp_assign(&pmu, ev, 2, 0, 0, false, &p, why, sizeof(why));
	check_int(gp_program(dev, 0, &pmu, &p, &cfg, why, sizeof(why)), ==, 0, "programmed");
	check_int(gp_verify(dev, 0, &pmu, &p, &gc, why, sizeof(why)), ==, 0, "verify: as programmed");
	check_u64(gc, ==, 0x70000000full, "verify: GLOBAL_CTRL as read");
	/* another tool rewrites IA32_PERFEVTSEL1 (through its own handle) */
	msr_write(other, 0, 0x187, 0x0);
	check_int(gp_verify(dev, 0, &pmu, &p, NULL, why, sizeof(why)), ==, 1, "verify: changed");
	check_str(why, "IA32_PERFEVTSEL1 (0x187) is 0x0, programmed 0x4302c2",
		  "the select named with both values");
	msr_write(other, 0, 0x187, 0x4302c2);
	msr_write(other, 0, 0x38f, 0x700000001);
	check_int(gp_verify(dev, 0, &pmu, &p, NULL, why, sizeof(why)), ==, 1,
		  "verify: GLOBAL_CTRL bit 1 cleared");
	check_str(why, "IA32_PERF_GLOBAL_CTRL (0x38f) is 0x700000001, programmed 0x700000003",
		  "GLOBAL_CTRL named");
	msr_write(other, 0, 0x38f, 0x70000000f);
	/* overflow: GLOBAL_STATUS bits 0 and 33 set by the hardware: the
	 * plan's is bit 0 */
	msr_close(other);
	put_file(state, t_edit(get_file(state), "0 0x38e 0x0", "0 0x38e 0x200000001"));
	check_int(gp_read_overflow(dev, 0, &pmu, &p, &bits), ==, 0, "read overflow");
	check_u64(bits, ==, 0x1, "overflow: the plan's bit 0 only (33 is FC1's)");
	/* the frozen reset: GLOBAL_CTRL less bits 0-1, status bit 0 cleared,
	 * counters 0 through IA32_A_PMCx, GLOBAL_CTRL back */
	put_file(trace, "");
	check_int(gp_reset(dev, 0, &pmu, &p, 0x70000000full, bits), ==, 0, "gp_reset");
	check_str(trace_lines("wr"),
		  "wr 0 0x38f 0x70000000c\n"
		  "wr 0 0x390 0x1\n"
		  "wr 0 0x4c1 0x0\n"
		  "wr 0 0x4c2 0x0\n"
		  "wr 0 0x38f 0x70000000f\n", "reset: freeze own bits, clear, zero, enable");
	/* a status with another counter's bit too (33: fixed counter 1, not
	 * the plan's): step 2 clears the plan's bit 0 only (msr/pmu/pmu_gp.h) */
	put_file(trace, "");
	check_int(gp_reset(dev, 0, &pmu, &p, 0x70000000full, 0x200000001ull), ==, 0,
		  "gp_reset, fixed counter 1's overflow bit among the status");
	check_str(trace_lines("wr"),
		  "wr 0 0x38f 0x70000000c\n"
		  "wr 0 0x390 0x1\n"
		  "wr 0 0x4c1 0x0\n"
		  "wr 0 0x4c2 0x0\n"
		  "wr 0 0x38f 0x70000000f\n", "reset: the plan's overflow bit cleared, bit 33 not");
	put_file(state, t_edit(t_edit(get_file(state), "0 0xc1 0x0", "0 0xc1 0x1234"),
			       "0 0xc2 0x0", "0 0xc2 0x5678"));
	check_int(gp_read_msr(dev, 0, &pmu, &p, vals), ==, 0, "gp_read_msr");
	ok(vals[0] == 0x1234 && vals[1] == 0x5678, "read IA32_PMC0 and IA32_PMC1 in plan order");
	check_int(journal_restore(cfg.journal, dev), ==, 0, "restore");
	journal_end(cfg.journal);
	msr_close(dev);
}

int main(void)
{
	shared = t_shared_dumps();
	t_pmu_fixture("0821");
	test_pmu_init();
	test_encode();
	test_assign();
	test_verify_reset();
	t_pmu_fixture_end();
	return done_testing();
}
