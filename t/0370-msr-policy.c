/*
 * t/0370-msr-policy - which raw MSR writes `baretma msr write` allows.
 * Vectors worked by hand from the bit layouts (linux perf_event.h, msr-index.h) for two CPUs:
 *   Ice Lake P-core: CPUID.0AH EAX = 0x08300805 -> 8 GP counters, 48 bits;
 *     EDX -> 4 fixed counters (mask 0xf), 48 bits; PERF_METRICS level 1;
 *     IA32_PERF_CAPABILITIES[13] full-width writes.
 *   Skylake: 4 GP (48 bits), 3 fixed (mask 0x7), no PERF_METRICS, no
 *     full-width writes assumed.
 *   Lion Cove P-core (Lunar Lake): 10 GP, fixed mask 0xf, PERF_METRICS level
 *     2, IA32_PERF_CAPABILITIES[19] RDPMC metrics-clear (linux 0e45818ec189).
 * IA32_FIXED_CTR_CTRL bit 14 = FC3 field (bits 15:12) bit 2: METRICS_CLEAR_EN
 * where PERF_CAPABILITIES[19] is set (linux commit 0e45818ec189), else
 * refused; so ICL allows 0x3777 (FC0-2: OS|USR|AnyThread = 0x7, FC3: 0x3),
 * Lion Cove 0x7777.
 */
#include <errno.h>
#include <string.h>

#include "msr/regs/msr_names.h"
#include "msr/regs/msr_policy.h"
#include "t/tap.h"

static const struct msr_pmu_caps icl = { 8, 48, 0xf, 48, 1, true };
static const struct msr_pmu_caps skl = { 4, 48, 0x7, 48, 0, false };
static const struct msr_pmu_caps spr = { 8, 48, 0xff, 48, 2, true };
static const struct msr_pmu_caps lnc = { 10, 48, 0xf, 48, 2, true, true };

#define V(caps, msr, val, want, name) do {                                     \
	char why_[256];                                                        \
	enum msr_write_verdict v_ = msr_write_check(&(caps), (msr), (val), why_, sizeof(why_)); \
	check_int(v_, ==, (want), name);                                       \
	printf("#   %s\n", why_);                                               \
} while (0)

int main(void)
{
	char why[256], name[48];

	/* IA32_PERF_GLOBAL_CTRL: GP 0-7 = 0xff, FC0-3 = bits 32-35 = 0xf << 32, bit 48. */
	V(icl, 0x38f, 0x70000000full, MSR_WRITE_OK, "ICL GLOBAL_CTRL 0x70000000f (firmware value)");
	V(icl, 0x38f, 0x1000f000000ffull, MSR_WRITE_OK, "ICL GLOBAL_CTRL all counters + bit 48");
	V(icl, 0x38f, 1ull << 36, MSR_WRITE_RESERVED, "ICL GLOBAL_CTRL bit 36 (no FC4)");
	V(skl, 0x38f, 1ull << 48, MSR_WRITE_RESERVED, "Skylake GLOBAL_CTRL bit 48 (no PERF_METRICS)");
	msr_write_check(&skl, 0x38f, (1ull << 48) | 0xf, why, sizeof(why));
	ok(strstr(why, "bits 0x1000000000000 of 0x100000000000f") != NULL, "the bad bits are named: %s", why);
	ok(strstr(why, "EN_PERF_METRICS") != NULL, "and why bit 48 is refused");
	V(skl, 0x38f, 0x10000000full, MSR_WRITE_OK, "Skylake GLOBAL_CTRL GP0-3 + FC0");
	V(skl, 0x38f, 0x10ull, MSR_WRITE_RESERVED, "Skylake GLOBAL_CTRL bit 4 (only 4 GP counters)");

	/* IA32_FIXED_CTR_CTRL: field i = bits 4i+3:4i; PMI = bit 4i+3 refused. */
	V(icl, 0x38d, 0x3333ull, MSR_WRITE_OK, "ICL FIXED_CTR_CTRL 0x3333 (FC0-3 OS+USR)");
	V(skl, 0x38d, 0x3333ull, MSR_WRITE_RESERVED, "Skylake FIXED_CTR_CTRL FC3 field (no FC3)");
	V(icl, 0x38d, 0x8000ull, MSR_WRITE_RESERVED, "FC3 PMI bit 15 refused");
	V(icl, 0x38d, 0x4000ull, MSR_WRITE_RESERVED,
	  "FC3 bit 14 (METRICS_CLEAR_EN) refused without PERF_CAPABILITIES[19]");
	msr_write_check(&icl, 0x38d, 0x7333, why, sizeof(why));
	ok(strstr(why, "bits 0x4000 of 0x7333") && strstr(why, "(allowed: 0x3777)") &&
	   strstr(why, "METRICS_CLEAR_EN") && strstr(why, "IA32_PERF_CAPABILITIES[19]"),
	   "the bit, the allowed mask and the missing capability are named: %s", why);
	V(icl, 0x38d, 0x3777ull, MSR_WRITE_OK, "FC0-2 AnyThread (bit 4i+2) still allowed");
	V(lnc, 0x38d, 0x7333ull, MSR_WRITE_OK, "Lion Cove with PERF_CAPABILITIES[19]: bit 14 allowed");
	V(lnc, 0x38d, 0xf333ull, MSR_WRITE_RESERVED, "Lion Cove: FC3 PMI bit 15 still refused");
	V(icl, 0x38d, 1ull << 32, MSR_WRITE_RESERVED, "adaptive PEBS bit 32 not supported");

	/* IA32_PERFEVTSELx: 0x4300c0 = EN(22) | OS(17) | USR(16) | event 0xc0. */
	V(icl, 0x186, 0x4300c0ull, MSR_WRITE_OK, "PERFEVTSEL0 INST_RETIRED OS+USR+EN");
	V(icl, 0x186, 0x5300c0ull, MSR_WRITE_RESERVED, "PERFEVTSEL0 with INT (bit 20) refused");
	V(icl, 0x18d, 0x4300c0ull, MSR_WRITE_OK, "PERFEVTSEL7 exists with 8 GP counters");
	V(skl, 0x18a, 0x4300c0ull, MSR_WRITE_RESERVED, "PERFEVTSEL4 does not exist with 4 GP counters");
	V(icl, 0x186, 1ull << 32, MSR_WRITE_RESERVED, "PERFEVTSEL bit 32 not supported");

	/* Counters: 48 bits -> mask 0xffffffffffff. */
	V(icl, 0x4c1, 0xffffffffffffull, MSR_WRITE_OK, "A_PMC0 at full 48-bit width");
	V(icl, 0x4c1, 1ull << 48, MSR_WRITE_RESERVED, "A_PMC0 bit 48 above the width");
	V(skl, 0x4c1, 1, MSR_WRITE_RESERVED, "A_PMC0 without full-width writes");
	V(icl, 0xc1, 0xffffffffull, MSR_WRITE_OK, "PMC0 legacy 32-bit write");
	V(icl, 0xc1, 1ull << 32, MSR_WRITE_RESERVED, "PMC0 legacy write above bit 31");
	V(icl, 0x30c, 0, MSR_WRITE_OK, "FIXED_CTR3 = 0 on ICL");
	V(skl, 0x30c, 0, MSR_WRITE_RESERVED, "FIXED_CTR3 on Skylake does not exist");
	V(icl, 0x30c, 1ull << 48, MSR_WRITE_RESERVED, "FIXED_CTR3 bit 48 above the width");

	/* IA32_PERF_METRICS: level 1 defines bytes 0-3, level 2 bytes 0-7. */
	V(icl, 0x329, 0, MSR_WRITE_OK, "PERF_METRICS = 0 on ICL");
	V(icl, 0x329, 0x100000000ull, MSR_WRITE_RESERVED, "PERF_METRICS byte 4 reserved at level 1");
	V(spr, 0x329, 0x302014224c331a66ull, MSR_WRITE_OK, "PERF_METRICS full value at level 2");
	V(skl, 0x329, 0, MSR_WRITE_RESERVED, "PERF_METRICS on Skylake does not exist");

	/* Read-only and unknown registers. */
	V(icl, 0x38e, 0, MSR_WRITE_READ_ONLY, "GLOBAL_STATUS is read-only");
	V(icl, 0x392, 0, MSR_WRITE_READ_ONLY, "GLOBAL_INUSE is read-only");
	V(icl, 0x345, 0, MSR_WRITE_READ_ONLY, "PERF_CAPABILITIES is read-only");
	V(icl, 0x390, (1ull << 35) | (1ull << 48) | (3ull << 62), MSR_WRITE_OK,
	  "STATUS_RESET FC3 + PERF_METRICS + bits 62/63");
	V(icl, 0x1a0, 0, MSR_WRITE_UNKNOWN, "IA32_MISC_ENABLE is not a PMU register: --force");
	V(icl, 0x1900, 0, MSR_WRITE_UNKNOWN, "arch-perfmon v6 alias is unknown: --force");

	/* Names (msr/regs/msr_names.h): SDM Vol. 4 names at linux msr-index.h's
	 * addresses; architectural GP ranges are 8 long (0x186-0x18d). */
	check_str(msr_reg_name(0x38f), "IA32_PERF_GLOBAL_CTRL", "name 0x38f");
	check_str(msr_reg_name(0x188), "IA32_PERFEVTSEL2", "name 0x188");
	check_str(msr_reg_name(0x18d), "IA32_PERFEVTSEL7", "name 0x18d (the last architectural one)");
	check_str(msr_reg_name(0x30c), "IA32_FIXED_CTR3", "name 0x30c");
	check_str(msr_reg_name(0x4c3), "IA32_A_PMC2", "name 0x4c3");
	check_str(msr_reg_name(0xc8), "IA32_PMC7", "name 0xc8");
	check_str(msr_reg_name(0x390), "IA32_PERF_GLOBAL_STATUS_RESET", "name 0x390");
	ok(msr_reg_name(0x1a0) == NULL, "0x1a0 (IA32_MISC_ENABLE) is not named an event select");
	ok(msr_reg_name(0x18e) == NULL && msr_reg_name(0xc9) == NULL && msr_reg_name(0x4c9) == NULL,
	   "nothing past the 8 architectural GP registers is named");
	check_str(msr_reg_label(0x38d, name, sizeof(name)), "IA32_FIXED_CTR_CTRL (0x38d)", "label 0x38d");
	check_str(msr_reg_label(0x1a0, name, sizeof(name)), "MSR 0x1a0", "label of an unknown register");
	{
		uint32_t m = 0;

		check_int(msr_reg_lookup("IA32_PERF_GLOBAL_CTRL", &m), ==, 0, "lookup IA32_PERF_GLOBAL_CTRL");
		check_u64(m, ==, 0x38f, "... is 0x38f");
		check_int(msr_reg_lookup("ia32_perfevtsel3", &m), ==, 0, "lookup is case-insensitive");
		check_u64(m, ==, 0x189, "ia32_perfevtsel3 is 0x189");
		check_int(msr_reg_lookup("IA32_PERF_GLOBAL_OVF_CTRL", &m), ==, 0, "the older SDM name");
		check_u64(m, ==, 0x390, "IA32_PERF_GLOBAL_OVF_CTRL is 0x390");
		check_int(msr_reg_lookup("IA32_MISC_ENABLE", &m), ==, -ENOENT, "unknown name: -ENOENT");
		check_int(msr_reg_lookup("IA32_PERFEVTSEL8", &m), ==, -ENOENT, "IA32_PERFEVTSEL8: -ENOENT");
		check_int(msr_reg_lookup("", &m), ==, -ENOENT, "empty name: -ENOENT");
	}

	/* Names on one CPU (issue 9 point 7): a counter register only where
	 * the CPU has the counter.  Alder Lake-P masks (t/0320, cpu info of
	 * the dump): P-core GP 0xff, fixed 0xf; E-core (Gracemont) GP 0x3f,
	 * fixed 0x7; Ice Lake GP 0xff, fixed 0xf. */
	{
		const struct msr_counters adl_p = { 0xff, 0xf }, adl_e = { 0x3f, 0x7 },
					  icl_c = { 0xff, 0xf };

		check_str(msr_reg_name_cpu(0xc7, &adl_p), "IA32_PMC6", "P-core: 0xc7 is IA32_PMC6");
		ok(msr_reg_name_cpu(0xc7, &adl_e) == NULL, "E-core (6 GP): 0xc7 has no name");
		ok(msr_reg_name_cpu(0x18c, &adl_e) == NULL && msr_reg_name_cpu(0x4c7, &adl_e) == NULL,
		   "E-core: IA32_PERFEVTSEL6 and IA32_A_PMC6 neither");
		check_str(msr_reg_name_cpu(0x18b, &adl_e), "IA32_PERFEVTSEL5", "E-core: 0x18b is IA32_PERFEVTSEL5");
		ok(msr_reg_name_cpu(0x30c, &adl_e) == NULL, "E-core (fixed 0-2): 0x30c has no name");
		check_str(msr_reg_name_cpu(0x30c, &adl_p), "IA32_FIXED_CTR3", "P-core: 0x30c is IA32_FIXED_CTR3");
		ok(msr_reg_name_cpu(0x30d, &icl_c) == NULL, "Ice Lake (fixed 0-3): 0x30d has no name");
		ok(msr_reg_name_cpu(0xce, &icl_c) == NULL && msr_reg_name_cpu(0x1a0, &icl_c) == NULL,
		   "Ice Lake: 0xce and 0x1a0 have none");
		check_str(msr_reg_name_cpu(0x38f, &adl_e), "IA32_PERF_GLOBAL_CTRL",
			  "no counter register: named on any CPU");
		check_str(msr_reg_name_cpu(0x30d, NULL), "IA32_FIXED_CTR4",
			  "counters unknown (NULL): the architectural ranges");
		check_str(msr_reg_label_cpu(0xc7, &adl_e, name, sizeof(name)), "MSR 0xc7", "E-core label of 0xc7");
		check_str(msr_reg_label_cpu(0xc7, &adl_p, name, sizeof(name)), "IA32_PMC6 (0xc7)",
			  "P-core label of 0xc7");
	}

	/* The write policy's register set at the architectural maximum (what a
	 * write journal may hold unmarked, msr/journal/journal.h): linux msr-index.h. */
	{
		static const uint32_t in[] = { 0xc1, 0xc8, 0x186, 0x18d, 0x4c1, 0x4c8, 0x309, 0x30f,
					       0x329, 0x38d, 0x38f, 0x390 };
		static const uint32_t out[] = { 0xc0, 0xc9, 0xce, 0x185, 0x18e, 0x1a0, 0x4c0, 0x4c9,
						0x308, 0x310, 0x345, 0x38e, 0x392, 0x1d9, 0x3f1 };

		for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
			ok(msr_policy_knows(in[i]), "policy knows 0x%x", in[i]);
		for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++)
			ok(!msr_policy_knows(out[i]), "policy does not know 0x%x", out[i]);
	}
	return done_testing();
}
