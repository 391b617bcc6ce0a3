/*
 * cpu/cpu_models.c - the model table, keyed on vendor + display family +
 * display model (libcpuid 0.6.2's codename strings are wrong for many
 * post-2022 parts: ../shared/cpuid/README.md).
 *
 * Sources (keys of ../shared/reference/pmu-reference.md §0):
 *   [FAM]   linux arch/x86/include/asm/intel-family.h - model numbers and
 *           core names (INTEL_* = IFM(family, model)).
 *   [ICORE] linux arch/x86/events/intel/core.c intel_pmu_init() - which
 *           models get PERF_METRICS and num_topdown_events (4 = level 1,
 *           8 = levels 1+2): pmu-reference §2.5.
 *   §6.1/§6.2/§6.3 pipeline widths (slots per cycle) from intel/perfmon
 *           TMA_Metrics-full.csv and E-core_TMA_Metrics.csv.
 *   §7      AMD Zen 4 / Zen 5 dispatch slots from the kernel's amdzen4/5
 *           pipeline.json; family 0x19 model ranges from perf's mapfile.csv.
 *   [PMUT]  andikleen/pmu-tools ehl_ratios.py (Tremont, TMA 1.2):
 *           Pipeline_Width = 4.
 *   [SOG]   AMD Software Optimization Guide for family 17h (56305) and 19h
 *           (56665): "up to 6 macro-ops dispatched per cycle" - read only
 *           as quoted by other projects, so Zen 2/3 width is UNCONFIRMED
 *           here (it is informational: AMD has no PERF_METRICS).
 *
 * FC3 (fixed counter 3, TOPDOWN.SLOTS) is listed for P-cores where the
 * kernel uses it: every PERF_METRICS model (ICL+).  On ADL/RPL leaf 0xA
 * shows the P/E common subset without FC3 (pmu-reference §2.1), which is
 * why the table, not CPUID, is the authority for known models.
 */
#include <stddef.h>

#include "cpu/cpu.h"

#define I CPU_VENDOR_INTEL
#define A CPU_VENDOR_AMD

/* Shorthands for the repeated source strings. */
#define SRC_PRE_ICL  "[FAM]; width 4: pmu-reference §6.1; no FC3/PERF_METRICS (pre-ICL): §2.5"
#define SRC_ICL      "[FAM]; [ICORE] num_topdown_events=4 (L1): pmu-reference §2.5; width 5: §6.2"
#define SRC_GLC_SRV  "[FAM]; [ICORE] intel_pmu_init_glc, num_topdown_events=8 (L2): §2.5; width 6: §6.2"
#define SRC_HYB_GLC  "[FAM]; [ICORE] hybrid P-core num_topdown_events=8 (L2): §2.5; width 6: §6.2; E-core width: §6.3"
#define SRC_HYB_LNC  "[FAM]; [ICORE] Lion Cove glc init + lnc constraints (L2): §2.5; width 8: §6.2; Skymont 8: §6.3"
#define SRC_PTL      "[FAM]; [ICORE] lnl_common path, Cougar Cove (L2): §2.5; width 8: §6.2; Darkmont 8: §6.3"
#define SRC_ATOM     "[FAM]; no PERF_METRICS on Atom-only parts: §2.5; width: §6.3"
#define SRC_TNT      "[FAM]; no PERF_METRICS (Tremont): §2.5; width 4: [PMUT] ehl_ratios.py"
#define SRC_ZEN2     "AMD family 17h; no PERF_METRICS: §7; width 6 [SOG] UNCONFIRMED"
#define SRC_ZEN3     "AMD family 19h Zen 3 (perf mapfile: models 0x00-0x0f, 0x20-0x5f): §7; width 6 [SOG] UNCONFIRMED"
#define SRC_ZEN4     "AMD family 19h Zen 4 (perf mapfile): §7; 6 dispatch slots [AMDJSON]"
#define SRC_ZEN5     "AMD family 1Ah Zen 5 (perf mapfile): §7; 8 dispatch slots [AMDJSON]"

/* Pre-Ice Lake core: width 4, no FC3, no PERF_METRICS. */
#define PRE_ICL(m, n, u) { I, 6, m, n, u, 4, false, 0, false, NULL, 0, SRC_PRE_ICL }

static const struct cpu_model models[] = {
	/* Sandy Bridge .. Comet Lake ([FAM] INTEL_SANDYBRIDGE .. INTEL_COMETLAKE_L) */
	PRE_ICL(0x2A, "Sandy Bridge", "Sandy Bridge"),
	PRE_ICL(0x2D, "Sandy Bridge-E/EP", "Sandy Bridge"),
	PRE_ICL(0x3A, "Ivy Bridge", "Ivy Bridge"),
	PRE_ICL(0x3E, "Ivy Bridge-E/EP", "Ivy Bridge"),
	PRE_ICL(0x3C, "Haswell", "Haswell"),
	PRE_ICL(0x3F, "Haswell-E/EP", "Haswell"),
	PRE_ICL(0x45, "Haswell-L", "Haswell"),
	PRE_ICL(0x46, "Haswell-G", "Haswell"),
	PRE_ICL(0x3D, "Broadwell", "Broadwell"),
	PRE_ICL(0x47, "Broadwell-G", "Broadwell"),
	PRE_ICL(0x4F, "Broadwell-E/EP", "Broadwell"),
	PRE_ICL(0x56, "Broadwell-D", "Broadwell"),
	PRE_ICL(0x4E, "Skylake-L", "Skylake"),
	PRE_ICL(0x5E, "Skylake-S", "Skylake"),
	PRE_ICL(0x55, "Skylake-SP/Cascade Lake/Cooper Lake", "Skylake"),
	PRE_ICL(0x8E, "Kaby/Amber/Coffee/Whiskey Lake-L", "Skylake"),
	PRE_ICL(0x9E, "Kaby/Coffee Lake", "Skylake"),
	PRE_ICL(0xA5, "Comet Lake", "Skylake"),
	PRE_ICL(0xA6, "Comet Lake-L", "Skylake"),

	/* Ice Lake family: PERF_METRICS level 1 ([ICORE] icl path) */
	{ I, 6, 0x6A, "Ice Lake-SP", "Sunny Cove", 5, true, 1, false, NULL, 0, SRC_ICL },
	{ I, 6, 0x6C, "Ice Lake-D", "Sunny Cove", 5, true, 1, false, NULL, 0, SRC_ICL },
	{ I, 6, 0x7D, "Ice Lake", "Sunny Cove", 5, true, 1, false, NULL, 0, SRC_ICL },
	{ I, 6, 0x7E, "Ice Lake-L", "Sunny Cove", 5, true, 1, false, NULL, 0, SRC_ICL },
	{ I, 6, 0x8C, "Tiger Lake-L", "Willow Cove", 5, true, 1, false, NULL, 0, SRC_ICL },
	{ I, 6, 0x8D, "Tiger Lake-H", "Willow Cove", 5, true, 1, false, NULL, 0, SRC_ICL },
	{ I, 6, 0xA7, "Rocket Lake", "Cypress Cove", 5, true, 1, false, NULL, 0, SRC_ICL },

	/* Servers with Golden Cove and successors: level 2 */
	{ I, 6, 0x8F, "Sapphire Rapids", "Golden Cove", 6, true, 2, false, NULL, 0, SRC_GLC_SRV },
	{ I, 6, 0xCF, "Emerald Rapids", "Raptor Cove", 6, true, 2, false, NULL, 0, SRC_GLC_SRV },
	{ I, 6, 0xAD, "Granite Rapids-X", "Redwood Cove", 6, true, 2, false, NULL, 0, SRC_GLC_SRV },
	{ I, 6, 0xAE, "Granite Rapids-D", "Redwood Cove", 6, true, 2, false, NULL, 0, SRC_GLC_SRV },

	/* Hybrid clients, Golden/Raptor/Redwood Cove P-cores: level 2 */
	{ I, 6, 0x97, "Alder Lake-S", "Golden Cove", 6, true, 2, true, "Gracemont", 5, SRC_HYB_GLC },
	{ I, 6, 0x9A, "Alder Lake-P/H", "Golden Cove", 6, true, 2, true, "Gracemont", 5, SRC_HYB_GLC },
	{ I, 6, 0xB7, "Raptor Lake-S", "Raptor Cove", 6, true, 2, true, "Gracemont", 5, SRC_HYB_GLC },
	{ I, 6, 0xBA, "Raptor Lake-P/H", "Raptor Cove", 6, true, 2, true, "Gracemont", 5, SRC_HYB_GLC },
	{ I, 6, 0xBF, "Raptor Lake-S", "Raptor Cove", 6, true, 2, true, "Gracemont", 5, SRC_HYB_GLC },
	{ I, 6, 0xAC, "Meteor Lake", "Redwood Cove", 6, true, 2, true, "Crestmont", 6, SRC_HYB_GLC },
	{ I, 6, 0xAA, "Meteor Lake-L", "Redwood Cove", 6, true, 2, true, "Crestmont", 6, SRC_HYB_GLC },
	{ I, 6, 0xB5, "Arrow Lake-U", "Redwood Cove", 6, true, 2, true, "Crestmont", 6, SRC_HYB_GLC },

	/* Lion Cove / Cougar Cove P-cores: level 2, width 8 */
	{ I, 6, 0xBD, "Lunar Lake", "Lion Cove", 8, true, 2, true, "Skymont", 8, SRC_HYB_LNC },
	{ I, 6, 0xC6, "Arrow Lake-S", "Lion Cove", 8, true, 2, true, "Skymont", 8, SRC_HYB_LNC },
	/* ARL-H also has Crestmont LP E-cores (native model id 2): cpu_info_identify
	 * names E-core kinds by their CPUID.1AH native model id. */
	{ I, 6, 0xC5, "Arrow Lake-H", "Lion Cove", 8, true, 2, true, "Skymont", 8, SRC_HYB_LNC },
	{ I, 6, 0xCC, "Panther Lake", "Cougar Cove", 8, true, 2, true, "Darkmont", 8, SRC_PTL },
	{ I, 6, 0xD5, "Wildcat Lake", "Cougar Cove", 8, true, 2, true, "Darkmont", 8, SRC_PTL },

	/* No PERF_METRICS (pmu-reference §2.5 last row).  FC3 is not used by
	 * the kernel on these; listed false (safe: level 0 either way). */
	{ I, 6, 0x9D, "Ice Lake-NNPI", "Sunny Cove", 5, false, 0, false, NULL, 0,
	  "[FAM]; no PERF_METRICS (ICELAKE_NNPI): §2.5; width 5: §6.2; FC3 UNCONFIRMED, listed false" },
	{ I, 6, 0x8A, "Lakefield", "Sunny Cove", 5, false, 0, true, "Tremont", 4,
	  "[FAM]; no PERF_METRICS (LAKEFIELD): §2.5; width 5: §6.2; Tremont 4: [PMUT]; FC3 UNCONFIRMED, listed false" },
	{ I, 6, 0xBE, "Alder Lake-N", "Gracemont", 5, false, 0, false, NULL, 0, SRC_ATOM },
	{ I, 6, 0x86, "Jacobsville (Tremont-D)", "Tremont", 4, false, 0, false, NULL, 0, SRC_TNT },
	{ I, 6, 0x96, "Elkhart Lake", "Tremont", 4, false, 0, false, NULL, 0, SRC_TNT },
	{ I, 6, 0x9C, "Jasper Lake", "Tremont", 4, false, 0, false, NULL, 0, SRC_TNT },
	{ I, 6, 0xAF, "Sierra Forest", "Crestmont", 6, false, 0, false, NULL, 0, SRC_ATOM },
	{ I, 6, 0xB6, "Grand Ridge", "Crestmont", 6, false, 0, false, NULL, 0, SRC_ATOM },
	{ I, 6, 0xDD, "Clearwater Forest", "Darkmont", 8, false, 0, false, NULL, 0, SRC_ATOM },

	/* AMD: no PERF_METRICS, no FC3 (pmu-reference §7) */
	{ A, 0x17, 0x31, "Rome/Castle Peak", "Zen 2", 6, false, 0, false, NULL, 0, SRC_ZEN2 },
	{ A, 0x17, 0x60, "Renoir", "Zen 2", 6, false, 0, false, NULL, 0, SRC_ZEN2 },
	{ A, 0x17, 0x68, "Lucienne", "Zen 2", 6, false, 0, false, NULL, 0, SRC_ZEN2 },
	{ A, 0x17, 0x71, "Matisse", "Zen 2", 6, false, 0, false, NULL, 0, SRC_ZEN2 },
	{ A, 0x17, 0x90, "Van Gogh", "Zen 2", 6, false, 0, false, NULL, 0, SRC_ZEN2 },
	{ A, 0x17, 0xA0, "Mendocino", "Zen 2", 6, false, 0, false, NULL, 0, SRC_ZEN2 },
	{ A, 0x19, 0x01, "Milan", "Zen 3", 6, false, 0, false, NULL, 0, SRC_ZEN3 },
	{ A, 0x19, 0x08, "Chagall", "Zen 3", 6, false, 0, false, NULL, 0, SRC_ZEN3 },
	{ A, 0x19, 0x21, "Vermeer", "Zen 3", 6, false, 0, false, NULL, 0, SRC_ZEN3 },
	{ A, 0x19, 0x44, "Rembrandt", "Zen 3", 6, false, 0, false, NULL, 0, SRC_ZEN3 },
	{ A, 0x19, 0x50, "Cezanne", "Zen 3", 6, false, 0, false, NULL, 0, SRC_ZEN3 },
	{ A, 0x19, 0x10, "Genoa", "Zen 4", 6, false, 0, false, NULL, 0, SRC_ZEN4 },
	{ A, 0x19, 0x11, "Genoa", "Zen 4", 6, false, 0, false, NULL, 0, SRC_ZEN4 },
	{ A, 0x19, 0x61, "Raphael", "Zen 4", 6, false, 0, false, NULL, 0, SRC_ZEN4 },
	{ A, 0x19, 0x74, "Phoenix", "Zen 4", 6, false, 0, false, NULL, 0, SRC_ZEN4 },
	{ A, 0x19, 0x78, "Phoenix 2", "Zen 4", 6, false, 0, false, NULL, 0, SRC_ZEN4 },
	{ A, 0x19, 0xA0, "Bergamo/Siena", "Zen 4", 6, false, 0, false, NULL, 0, SRC_ZEN4 },
	{ A, 0x1A, 0x02, "Turin", "Zen 5", 8, false, 0, false, NULL, 0, SRC_ZEN5 },
	{ A, 0x1A, 0x11, "Turin Dense", "Zen 5", 8, false, 0, false, NULL, 0, SRC_ZEN5 },
	{ A, 0x1A, 0x24, "Strix Point", "Zen 5", 8, false, 0, false, NULL, 0, SRC_ZEN5 },
	{ A, 0x1A, 0x44, "Granite Ridge", "Zen 5", 8, false, 0, false, NULL, 0, SRC_ZEN5 },
};

const struct cpu_model *cpu_model_lookup(enum cpu_vendor v, unsigned family, unsigned model)
{
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		const struct cpu_model *m = &models[i];

		if (m->vendor == v && m->family == family && m->model == model)
			return m;
	}
	return NULL;
}

const struct cpu_model *cpu_model_table(size_t *n)
{
	*n = sizeof(models) / sizeof(models[0]);
	return models;
}
