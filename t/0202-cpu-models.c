/*
 * t/0202-cpu-models.c - baretma's model table (cpu/cpu_models.c) and the
 * decoding of CPUID leaf 0xA (split from t/0200).
 *
 * Known answers come from outside the code under test:
 *   - model numbers from [FAM] linux arch/x86/include/asm/intel-family.h and
 *     the kernel's per-model PERF_METRICS setup (linux
 *     arch/x86/events/intel/core.c intel_pmu_init), the widths and recipes
 *     of intel/perfmon TMA_Metrics-full.csv and E-core_TMA_Metrics.csv and of
 *     perf's amdzen4/amdzen5 pipeline.json, as each case names them;
 *   - leaf 0xA vectors decoded by hand from its layout (linux perf_event.h
 *     union cpuid10_eax, cpuid10_edx)
 *     (the raw values of $SHARED_CPUID/INDEX.tsv's leafA_raw_cpu0 column).
 */
#include <stdio.h>
#include <string.h>

#include "cpu/cpu.h"
#include "t/tap.h"

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* --------------------------------------------------------- model table */

struct model_case {
	enum cpu_vendor v;
	unsigned family, model;
	const char *uarch;
	unsigned width;
	bool fc3;
	int level;
	bool metrics_clear;
	const char *recipe;
	const char *why;
};

#define MI CPU_VENDOR_INTEL
#define MA CPU_VENDOR_AMD

static const struct model_case model_cases[] = {
	/* kernel name (intel-family.h), level from intel_pmu_init, width
	 * Pipeline_Width (TMA_Metrics-full.csv), metrics-clear: Lion Cove and
	 * later (linux commit 0e45818ec189), recipes TMA_Metrics-full.csv
	 * (SNB..CML), E-core_TMA_Metrics.csv (E-cores), pipeline.json (Zen 4/5) */
	{ MI, 6, 0x8F, "Golden Cove", 6, true, 2, false, NULL, "INTEL_SAPPHIRERAPIDS_X 0x8F: L2, width 6" },
	{ MI, 6, 0xCF, "Raptor Cove", 6, true, 2, false, NULL, "INTEL_EMERALDRAPIDS_X 0xCF: L2" },
	{ MI, 6, 0xAD, "Redwood Cove", 6, true, 2, false, NULL, "INTEL_GRANITERAPIDS_X 0xAD: L2" },
	{ MI, 6, 0xAE, "Redwood Cove", 6, true, 2, false, NULL, "INTEL_GRANITERAPIDS_D 0xAE: L2" },
	{ MI, 6, 0x7E, "Sunny Cove", 5, true, 1, false, NULL, "INTEL_ICELAKE_L 0x7E: L1, width 5" },
	{ MI, 6, 0x6A, "Sunny Cove", 5, true, 1, false, NULL, "INTEL_ICELAKE_X 0x6A: L1" },
	{ MI, 6, 0xA7, "Cypress Cove", 5, true, 1, false, NULL, "INTEL_ROCKETLAKE 0xA7: L1" },
	{ MI, 6, 0x8D, "Willow Cove", 5, true, 1, false, NULL, "INTEL_TIGERLAKE 0x8D: L1" },
	{ MI, 6, 0x97, "Golden Cove", 6, true, 2, false, NULL, "INTEL_ALDERLAKE 0x97: P-core L2" },
	{ MI, 6, 0xBF, "Raptor Cove", 6, true, 2, false, NULL, "INTEL_RAPTORLAKE_S 0xBF: P-core L2" },
	{ MI, 6, 0xAC, "Redwood Cove", 6, true, 2, false, NULL, "INTEL_METEORLAKE 0xAC: P-core L2" },
	{ MI, 6, 0xB5, "Redwood Cove", 6, true, 2, false, NULL, "INTEL_ARROWLAKE_U 0xB5: MTL-like P-core L2" },
	{ MI, 6, 0xBD, "Lion Cove", 8, true, 2, true, NULL, "INTEL_LUNARLAKE_M 0xBD: width 8, metrics-clear" },
	{ MI, 6, 0xC6, "Lion Cove", 8, true, 2, true, NULL, "INTEL_ARROWLAKE 0xC6: metrics-clear" },
	{ MI, 6, 0xC5, "Lion Cove", 8, true, 2, true, NULL, "INTEL_ARROWLAKE_H 0xC5: metrics-clear" },
	{ MI, 6, 0xCC, "Cougar Cove", 8, true, 2, true, NULL, "INTEL_PANTHERLAKE_L 0xCC: Cougar Cove, metrics-clear" },
	{ MI, 6, 0xD5, "Cougar Cove", 8, true, 2, true, NULL, "INTEL_WILDCATLAKE_L 0xD5: PTL's PMU" },
	{ MI, 19, 0x01, "Panther Cove", 0, true, 2, false, NULL, "INTEL_DIAMONDRAPIDS_X IFM(19, 0x01): glc init L2" },
	{ MI, 18, 0x01, "Coyote Cove", 0, true, 2, false, NULL, "INTEL_NOVALAKE IFM(18, 0x01): pnc = glc init L2" },
	{ MI, 6, 0xD7, "Raptor Cove", 6, true, CPU_TD_UNCONFIRMED, false, NULL,
	  "INTEL_BARTLETTLAKE 0xD7: no intel_pmu_init case, PERF_METRICS unconfirmed" },
	{ MI, 6, 0x5E, "Skylake", 4, false, 0, false, CPU_RECIPE_INTEL_PRE_ICL, "INTEL_SKYLAKE 0x5E: pre-ICL, width 4" },
	{ MI, 6, 0x2A, "Sandy Bridge", 4, false, 0, false, CPU_RECIPE_INTEL_PRE_ICL, "INTEL_SANDYBRIDGE 0x2A: pre-ICL" },
	{ MI, 6, 0xA6, "Skylake", 4, false, 0, false, CPU_RECIPE_INTEL_PRE_ICL, "INTEL_COMETLAKE_L 0xA6: pre-ICL" },
	{ MI, 6, 0x66, "Palm Cove", 4, false, 0, false, NULL, "INTEL_CANNONLAKE_L 0x66: no kernel topdown attrs" },
	{ MI, 6, 0x9D, "Sunny Cove", 5, false, 0, false, NULL, "INTEL_ICELAKE_NNPI 0x9D: no PERF_METRICS" },
	{ MI, 6, 0x8A, "Sunny Cove", 5, false, 0, false, NULL, "INTEL_LAKEFIELD 0x8A: no PERF_METRICS" },
	{ MI, 6, 0xBE, "Gracemont", 5, false, 0, false, CPU_RECIPE_INTEL_ECORE, "INTEL_ATOM_GRACEMONT 0xBE (ADL-N)" },
	{ MI, 6, 0x9C, "Tremont", 4, false, 0, false, CPU_RECIPE_INTEL_ECORE,
	  "INTEL_ATOM_TREMONT_L 0x9C (Jasper Lake): the E-core recipe, Tremont's TOPDOWN_* events "
	  "(intel/perfmon EHL/SNR core JSON)" },
	{ MI, 6, 0xAF, "Crestmont", 6, false, 0, false, CPU_RECIPE_INTEL_ECORE, "INTEL_ATOM_CRESTMONT_X 0xAF (SRF)" },
	{ MI, 6, 0xB6, "Crestmont", 6, false, 0, false, CPU_RECIPE_INTEL_ECORE, "INTEL_ATOM_CRESTMONT 0xB6 (GRR)" },
	{ MI, 6, 0xDD, "Darkmont", 8, false, 0, false, CPU_RECIPE_INTEL_ECORE, "INTEL_ATOM_DARKMONT_X 0xDD (CWF)" },
	{ MA, 0x19, 0x61, "Zen 4", 6, false, 0, false, CPU_RECIPE_AMD_ZEN4, "AMD 19h model 0x61 (Raphael): Zen 4, 6 slots" },
	{ MA, 0x19, 0x21, "Zen 3", 6, false, 0, false, NULL, "AMD 19h model 0x21 (Vermeer): Zen 3, no recipe" },
	{ MA, 0x17, 0x71, "Zen 2", 6, false, 0, false, NULL, "AMD 17h model 0x71 (Matisse): Zen 2, no recipe" },
	{ MA, 0x1A, 0x02, "Zen 5", 8, false, 0, false, CPU_RECIPE_AMD_ZEN5, "AMD 1Ah model 0x02 (Turin): Zen 5, 8 slots" },
	{ MA, 0x1A, 0x24, "Zen 5", 8, false, 0, false, CPU_RECIPE_AMD_ZEN5, "AMD 1Ah model 0x24 (Strix Point): Zen 5" },
};

/* Every Intel family-6 model of intel_pmu_init's Top-down cases (Ice Lake
 * on, and the parts without PERF_METRICS), of TMA_Metrics-full.csv's pre-ICL
 * columns (Sandy Bridge .. Comet Lake) and the Tremont parts ([FAM]
 * INTEL_ATOM_TREMONT*). */
static const unsigned intel_fam6_models[] = {
	0x6A, 0x6C, 0x7D, 0x7E, 0x8C, 0x8D, 0xA7, 0x8F, 0xCF, 0xAD, 0xAE, 0x97, 0x9A, 0xB7,
	0xBA, 0xBF, 0xAC, 0xAA, 0xB5, 0xBD, 0xC6, 0xC5, 0xCC, 0xD5, 0x9D, 0x8A, 0xBE, 0xAF,
	0xB6, 0xDD, 0x2A, 0x2D, 0x3A, 0x3E, 0x3C, 0x3F, 0x45, 0x46, 0x3D, 0x47, 0x4F, 0x56,
	0x4E, 0x5E, 0x55, 0x8E, 0x9E, 0xA5, 0xA6, 0x86, 0x96, 0x9C,
};

static void test_model_table(void)
{
	const struct cpu_model *m, *t;
	size_t n;
	bool unique = true, sourced = true, covered = true, unconfirmed_said = true;

	for (size_t i = 0; i < sizeof(model_cases) / sizeof(model_cases[0]); i++) {
		const struct model_case *c = &model_cases[i];

		m = cpu_model_lookup(c->v, c->family, c->model);
		ok(m && !strcmp(m->uarch, c->uarch) && m->pipeline_width == c->width &&
		   m->fixed_ctr3 == c->fc3 && m->topdown_level == c->level &&
		   m->metrics_clear == c->metrics_clear && str_eq(m->recipe, c->recipe), "%s", c->why);
	}
	m = cpu_model_lookup(CPU_VENDOR_INTEL, 6, 0x9A);
	ok(m && m->hybrid && m->counter_rule == CPU_CTR_ADL_HYBRID && !strcmp(m->e_uarch, "Gracemont") &&
	   m->e_pipeline_width == 5 && str_eq(m->e_recipe, CPU_RECIPE_INTEL_ECORE),
	   "INTEL_ALDERLAKE_L 0x9A: kernel ADL counter rule, Gracemont E-cores, width 5");
	m = cpu_model_lookup(CPU_VENDOR_INTEL, 6, 0xAA);
	ok(m && m->hybrid && m->counter_rule == CPU_CTR_CPUID && !strcmp(m->e_uarch, "Crestmont"),
	   "INTEL_METEORLAKE_L 0xAA: counters from leaf 0x23, Crestmont E-cores");
	m = cpu_model_lookup(CPU_VENDOR_INTEL, 6, 0xC6);
	ok(m && m->hybrid && !strcmp(m->e_uarch, "Skymont") && m->e_pipeline_width == 8,
	   "INTEL_ARROWLAKE 0xC6: Skymont E-cores, width 8 (E-core TMA)");
	ok(cpu_model_lookup(CPU_VENDOR_INTEL, 6, 0xF1) == NULL, "family 6 model 0xF1: not in the table");
	ok(cpu_model_lookup(CPU_VENDOR_AMD, 6, 0x8F) == NULL, "vendor is part of the key");
	for (size_t i = 0; i < sizeof(intel_fam6_models) / sizeof(intel_fam6_models[0]); i++)
		if (!cpu_model_lookup(CPU_VENDOR_INTEL, 6, intel_fam6_models[i])) {
			covered = false;
			printf("# family 6 model 0x%02X missing\n", intel_fam6_models[i]);
		}
	ok(covered, "every intel_pmu_init / pre-ICL TMA / Tremont model is in the table");
	t = cpu_model_table(&n);
	for (size_t i = 0; i < n; i++) {
		if (!t[i].source || !t[i].source[0] || !t[i].uarch)
			sourced = false;
		if (t[i].topdown_level == CPU_TD_UNCONFIRMED && !strstr(t[i].source, "UNCONFIRMED"))
			unconfirmed_said = false;
		for (size_t j = i + 1; j < n; j++)
			if (t[i].vendor == t[j].vendor && t[i].family == t[j].family && t[i].model == t[j].model)
				unique = false;
	}
	ok(sourced, "every table row names its source and uarch");
	ok(unconfirmed_said, "every row with an unconfirmed level says UNCONFIRMED in its source");
	ok(unique, "no (vendor, family, model) key twice in the table");
}

/* ------------------------------------------------------------ leaf 0xA */

static void test_leafA_decode(void)
{
	/* Ice Lake (INDEX.tsv ice-lake-i7 raw): EAX 0x08300805 = ebx_len 8,
	 * width 0x30 = 48, 8 GP, v5; EDX 0x8604 = [4:0] 4 fixed, [12:5] 0x30. */
	const uint32_t icl[4] = { 0x08300805, 0, 0xF, 0x8604 };
	/* Alder Lake hybrid common subset: ebx_len 7 (bit 7 not enumerated). */
	const uint32_t adl[4] = { 0x07300605, 0, 0x7, 0x8603 };
	/* Arrow Lake: v6, ebx_len 13, EBX 0x280 has bit 7 set (not available). */
	const uint32_t arl[4] = { 0x0D300806, 0x280, 0x7, 0x8603 };
	/* v5, ECX = 0x9 (FC0, FC3), EDX[4:0] = 0: ECX[i] || EDX[4:0] > i. */
	const uint32_t sparse[4] = { 0x08300805, 0, 0x9, 0 };
	/* v4 with ECX garbage: ECX is not the fixed mask before v5. */
	const uint32_t v4[4] = { 0x07300404, 0, 0xF, 0x0603 };
	struct cpu_pmu_arch p;

	cpu_pmu_arch_decode(icl, &p);
	ok(p.version == 5 && p.gp_counters == 8 && p.gp_width == 48 && p.ebx_len == 8 &&
	   p.fixed_counters == 4 && p.fixed_width == 48 && p.fixed_mask == 0xF && p.topdown_slots,
	   "ICL 0x08300805/0/0xF/0x8604: v5, 8x48 GP, 4x48 fixed, TOPDOWN.SLOTS");
	ok(cpu_pmu_has_fixed(&p, 3) && !cpu_pmu_has_fixed(&p, 4), "ICL: FC3 exists, FC4 not");
	cpu_pmu_arch_decode(adl, &p);
	ok(p.version == 5 && p.gp_counters == 6 && p.fixed_counters == 3 && !p.topdown_slots,
	   "ADL common subset: 6 GP, 3 fixed, TOPDOWN.SLOTS not enumerated");
	ok(!cpu_pmu_has_fixed(&p, 3), "ADL common subset: no FC3 in leaf 0xA");
	cpu_pmu_arch_decode(arl, &p);
	ok(p.version == 6 && p.ebx_len == 13 && !p.topdown_slots, "ARL: v6, EBX bit 7 set: no TOPDOWN.SLOTS");
	cpu_pmu_arch_decode(sparse, &p);
	ok(cpu_pmu_has_fixed(&p, 0) && !cpu_pmu_has_fixed(&p, 1) && cpu_pmu_has_fixed(&p, 3),
	   "v5 ECX 0x9: FC0 and FC3 only");
	cpu_pmu_arch_decode(v4, &p);
	ok(p.fixed_mask == 0 && p.fixed_counters == 3 && p.fixed_width == 48 && !cpu_pmu_has_fixed(&p, 3),
	   "v4: ECX ignored, 3 fixed counters from EDX");
}
int main(void)
{
	test_leafA_decode();
	test_model_table();
	return done_testing();
}
