/*
 * cpu/cpu_models.c - the model table, keyed on vendor + display family +
 * display model (libcpuid 0.6.2's codename strings are wrong for many
 * post-2022 parts: compare its tests/ expectations with the kernel's).
 *
 * Sources:
 *   [FAM]   linux arch/x86/include/asm/intel-family.h - model numbers and
 *           core names (INTEL_* = IFM(family, model)); INTEL_BARTLETTLAKE
 *           IFM(6, 0xD7) "Raptor Cove", INTEL_DIAMONDRAPIDS_X IFM(19, 0x01)
 *           "Panther Cove", INTEL_NOVALAKE(_L) IFM(18, 0x01/0x03) "Coyote
 *           Cove / Arctic Wolf", INTEL_WILDCATLAKE_L IFM(6, 0xD5),
 *           INTEL_CANNONLAKE_L 0x66 (read through the search tool).
 *   [ICORE] linux arch/x86/events/intel/core.c intel_pmu_init() - which
 *           models get PERF_METRICS and num_topdown_events (4 = level 1,
 *           8 = levels 1+2), the hybrid ADL/RPL counter rule, leaf 0x23's
 *           counters (update_pmu_cap), the default case of unknown models
 *           (generic architectural perfmon).  The pre-ICL cases
 *           (Sandy Bridge .. Comet Lake) attach the topdown-* event
 *           attributes of [TMA]'s pre-ICL recipe (snb_events_attrs / hsw_events_attrs);
 *           CANNONLAKE_L, ICELAKE_NNPI, LAKEFIELD and BARTLETTLAKE have no
 *           case (generic architectural perfmon).
 *   [TIP]   tip perf/core: d345b6bb8860 "perf/x86/intel: Add core PMU
 *           support for DMR" (intel_pmu_init_pnc() calls
 *           intel_pmu_init_glc(), which sets num_topdown_events = 8);
 *           c847a208f43b "Add core PMU support for Novalake" (P-core pnc,
 *           E-core intel_pmu_init_arw); "Add PMU support for WildcatLake"
 *           (same path as Panther Lake).
 *   [TMA]   intel/perfmon TMA_Metrics-full.csv: the P-cores' pipeline
 *           widths (#Pipeline_Width, slots per cycle) and the pre-ICL
 *           recipe (columns SNB..CLX).
 *   [ETMA]  intel/perfmon E-core_TMA_Metrics.csv: the E-cores' widths and
 *           recipe (Gracemont, Crestmont, Skymont/Darkmont).
 *   [MCLR]  linux commit 0e45818ec189 "perf/x86/intel: Support RDPMC
 *           metrics clear mode" (Lion Cove and later).
 *   [AMDJSON] linux tools/perf/pmu-events/arch/x86/amdzen4/ and amdzen5/
 *           pipeline.json: AMD Zen 4 / Zen 5 recipe and dispatch slots
 *           (arch/x86/events/amd/core.c: no PERF_METRICS, no fixed counters).
 *   [AMDMAP] perf tools/perf/pmu-events/arch/x86/mapfile.csv:
 *           AuthenticAMD-23 models 0x00-0x2F amdzen1, other 23 amdzen2;
 *           25 models 0x00-0x0F and 0x20-0x5F amdzen3, other 25 amdzen4;
 *           26 amdzen5.  The uarch of every AMD row follows from its range;
 *           product names of rows without a public real dump are
 *           UNCONFIRMED (informational only).
 *   [PMUT]  andikleen/pmu-tools ehl_ratios.py (Tremont, TMA 1.2):
 *           Pipeline_Width = 4.
 *   [SOG]   AMD Software Optimization Guide for family 17h (56305) and 19h
 *           (56665): "up to 6 macro-ops dispatched per cycle" - read only
 *           as quoted by other projects, so Zen 2/3 width is UNCONFIRMED
 *           here (informational: the reference has no Zen 2/3 recipe).
 *   [DUMP]  a public real dump (libcpuid's tests/, InstLatx64) has this
 *           family/model.
 *
 * FC3 (fixed counter 3, TOPDOWN.SLOTS) is listed for P-cores where the
 * kernel uses it: every PERF_METRICS model (ICL+).  It is only consulted
 * where a hybrid part's leaf 0xA hides it (cpu_info_identify); elsewhere
 * the counters come from CPUID.  metrics_clear: Lion Cove P-cores and later
 * (LNL, ARL-S/-H, PTL, and WCL which shares PTL's PMU): [MCLR], [ICORE];
 * UNCONFIRMED on Panther/Coyote Cove (false: the safe value).
 */
#include <stddef.h>

#include "cpu/cpu.h"

#define I CPU_VENDOR_INTEL
#define A CPU_VENDOR_AMD

/* Shorthands for the repeated source strings. */
#define SRC_PRE_ICL  "[FAM]; [ICORE] snb/hsw topdown attrs: recipe [TMA], width 4; " \
		     "no FC3/PERF_METRICS (pre-ICL)"
#define SRC_ICL      "[FAM]; [ICORE] num_topdown_events=4 (L1); width 5: [TMA]"
#define SRC_GLC_SRV  "[FAM]; [ICORE] intel_pmu_init_glc, num_topdown_events=8 (L2); width 6: [TMA]"
#define SRC_HYB_ADL  "[FAM]; [ICORE] hybrid P-core num_topdown_events=8 (L2), ADL counter rule; " \
		     "width 6: [TMA]; Gracemont 5: [ETMA]"
#define SRC_HYB_MTL  "[FAM]; [ICORE] hybrid P-core num_topdown_events=8 (L2), " \
		     "leaf 0x23 counters; width 6: [TMA]; Crestmont 6: [ETMA]"
#define SRC_HYB_LNC  "[FAM]; [ICORE] Lion Cove glc init + lnc constraints (L2), " \
		     "metrics-clear: [MCLR]; width 8: [TMA]; Skymont 8: [ETMA]"
#define SRC_PTL      "[FAM]; [ICORE] lnl_common path, Cougar Cove (L2), metrics-clear: [MCLR], " \
		     "[TIP] WCL = PTL; width 8: [TMA]; Darkmont 8: [ETMA]"
#define SRC_NVL      "[FAM]; [TIP] c847a208f43b pnc = glc init (L2); " \
		     "widths and metrics-clear UNCONFIRMED (0, false); " \
		     "no Arctic Wolf recipe in [ETMA]"
#define SRC_ATOM     "[FAM]; no PERF_METRICS on Atom-only parts: [ICORE]; recipe and width: [ETMA]"
#define SRC_TNT      "[FAM]; no PERF_METRICS (Tremont): [ICORE]; " \
		     "recipe intel-ecore-l1:tremont (TOPDOWN_* " \
		     "events of intel/perfmon EHL/events/elkhartlake_core.json, SNR/events/" \
		     "snowridgex_core.json; Atom_TMA.csv TNT); width 4: [PMUT] ehl_ratios.py"
#define SRC_ZEN2     "[AMDMAP] family 17h amdzen2; no PERF_METRICS, no Zen 2 recipe: [AMDJSON]; " \
		     "width 6 [SOG] UNCONFIRMED"
#define SRC_ZEN3     "[AMDMAP] family 19h amdzen3; no PERF_METRICS, no Zen 3 recipe: [AMDJSON]; " \
		     "width 6 [SOG] UNCONFIRMED"
#define SRC_ZEN4     "[AMDMAP] family 19h amdzen4; recipe and 6 dispatch slots: [AMDJSON]"
#define SRC_ZEN5     "[AMDMAP] family 1Ah amdzen5; recipe and 8 dispatch slots: [AMDJSON]"

#define R_PRE_ICL CPU_RECIPE_INTEL_PRE_ICL
#define R_ECORE   CPU_RECIPE_INTEL_ECORE

/* Row constructors: designated initializers, unnamed fields are 0/NULL/false. */
#define ROW(v, f, m, nm, ua, w, ...) \
	{ .vendor = (v), .family = (f), .model = (m), .name = (nm), .uarch = (ua), \
	  .pipeline_width = (w), __VA_ARGS__ }
/* Pre-Ice Lake core: width 4, 3 fixed counters, the [TMA] pre-ICL recipe. */
#define PRE_ICL(m, nm, ua, src) ROW(I, 6, m, nm, ua, 4, .recipe = R_PRE_ICL, .source = src)
/* Ice Lake family: FC3, PERF_METRICS level 1. */
#define ICL(m, nm, ua) ROW(I, 6, m, nm, ua, 5, .fixed_ctr3 = true, .topdown_level = 1, .source = SRC_ICL)
/* Golden Cove-class server: level 2. */
#define GLC_SRV(m, nm, ua, src) ROW(I, 6, m, nm, ua, 6, .fixed_ctr3 = true, .topdown_level = 2, .source = src)
/* Hybrid client: P-core level 2 (width w), E-core e (width ew) with the [ETMA] recipe. */
#define HYB(m, nm, ua, w, mc, rule, e, ew, src) \
	ROW(I, 6, m, nm, ua, w, .fixed_ctr3 = true, .topdown_level = 2, .metrics_clear = (mc), \
	    .hybrid = true, .counter_rule = (rule), .e_uarch = (e), .e_pipeline_width = (ew), \
	    .e_recipe = R_ECORE, .source = src)
/* Atom-only part. */
#define ATOM(m, nm, ua, w, rcp, src) ROW(I, 6, m, nm, ua, w, .recipe = (rcp), .source = src)
#define AMD(f, m, nm, ua, w, rcp, src) ROW(A, f, m, nm, ua, w, .recipe = (rcp), .source = src)

static const struct cpu_model models[] = {
	/* Sandy Bridge .. Comet Lake ([FAM] INTEL_SANDYBRIDGE .. INTEL_COMETLAKE_L) */
	PRE_ICL(0x2A, "Sandy Bridge", "Sandy Bridge", SRC_PRE_ICL " [DUMP]"),
	PRE_ICL(0x2D, "Sandy Bridge-E/EP", "Sandy Bridge", SRC_PRE_ICL " [DUMP]"),
	PRE_ICL(0x3A, "Ivy Bridge", "Ivy Bridge", SRC_PRE_ICL),
	PRE_ICL(0x3E, "Ivy Bridge-E/EP", "Ivy Bridge", SRC_PRE_ICL),
	PRE_ICL(0x3C, "Haswell", "Haswell", SRC_PRE_ICL " [DUMP]"),
	PRE_ICL(0x3F, "Haswell-E/EP", "Haswell", SRC_PRE_ICL " [DUMP]"),
	PRE_ICL(0x45, "Haswell-L", "Haswell", SRC_PRE_ICL),
	PRE_ICL(0x46, "Haswell-G", "Haswell", SRC_PRE_ICL),
	PRE_ICL(0x3D, "Broadwell", "Broadwell", SRC_PRE_ICL),
	PRE_ICL(0x47, "Broadwell-G", "Broadwell", SRC_PRE_ICL),
	PRE_ICL(0x4F, "Broadwell-E/EP", "Broadwell", SRC_PRE_ICL),
	PRE_ICL(0x56, "Broadwell-D", "Broadwell", SRC_PRE_ICL),
	PRE_ICL(0x4E, "Skylake-L", "Skylake", SRC_PRE_ICL),
	PRE_ICL(0x5E, "Skylake-S", "Skylake", SRC_PRE_ICL " [DUMP]"),
	PRE_ICL(0x55, "Skylake-SP/Cascade Lake/Cooper Lake", "Skylake", SRC_PRE_ICL " [DUMP]"),
	PRE_ICL(0x8E, "Kaby/Amber/Coffee/Whiskey Lake-L", "Skylake", SRC_PRE_ICL " [DUMP]"),
	PRE_ICL(0x9E, "Kaby/Coffee Lake", "Skylake", SRC_PRE_ICL),
	PRE_ICL(0xA5, "Comet Lake", "Skylake", SRC_PRE_ICL),
	PRE_ICL(0xA6, "Comet Lake-L", "Skylake", SRC_PRE_ICL),
	/* Cannon Lake (Palm Cove; libcpuid's "ice-lake-i3" test is an i3-8121U,
	 * model 0x66 [DUMP]): [ICORE] has no CANNONLAKE_L case, so no topdown
	 * attrs; whether the pre-ICL recipe's events exist is UNCONFIRMED: no recipe. */
	ROW(I, 6, 0x66, "Cannon Lake-L", "Palm Cove", 4,
	    .source = "[FAM]; [ICORE] generic arch perfmon: no recipe (UNCONFIRMED); "
		      "width 4 as Skylake UNCONFIRMED [DUMP]"),

	/* Ice Lake family: PERF_METRICS level 1 ([ICORE] icl path) */
	ICL(0x6A, "Ice Lake-SP", "Sunny Cove"),
	ICL(0x6C, "Ice Lake-D", "Sunny Cove"),
	ICL(0x7D, "Ice Lake", "Sunny Cove"),
	ICL(0x7E, "Ice Lake-L", "Sunny Cove"),
	ICL(0x8C, "Tiger Lake-L", "Willow Cove"),
	ICL(0x8D, "Tiger Lake-H", "Willow Cove"),
	ICL(0xA7, "Rocket Lake", "Cypress Cove"),

	/* Servers with Golden Cove and successors: level 2 */
	GLC_SRV(0x8F, "Sapphire Rapids", "Golden Cove", SRC_GLC_SRV " [DUMP]"),
	GLC_SRV(0xCF, "Emerald Rapids", "Raptor Cove", SRC_GLC_SRV " [DUMP]"),
	GLC_SRV(0xAD, "Granite Rapids-X", "Redwood Cove", SRC_GLC_SRV " [DUMP]"),
	GLC_SRV(0xAE, "Granite Rapids-D", "Redwood Cove", SRC_GLC_SRV),
	ROW(I, 19, 0x01, "Diamond Rapids", "Panther Cove", 0, .fixed_ctr3 = true, .topdown_level = 2,
	    .source = "[FAM]; [TIP] d345b6bb8860 intel_pmu_init_pnc -> glc init, "
		      "num_topdown_events=8 (L2); width UNCONFIRMED (0); metrics-clear "
		      "UNCONFIRMED (false)"),
	/* Bartlett Lake: P-cores only, Raptor Cove; [ICORE] has no case for it
	 * (generic arch perfmon, its default case): PERF_METRICS UNCONFIRMED, decided
	 * architecturally. [DUMP] */
	ROW(I, 6, 0xD7, "Bartlett Lake", "Raptor Cove", 6, .fixed_ctr3 = true,
	    .topdown_level = CPU_TD_UNCONFIRMED,
	    .source = "[FAM] INTEL_BARTLETTLAKE (Raptor Cove); no intel_pmu_init case: "
		      "PERF_METRICS UNCONFIRMED; width 6: [TMA] [DUMP]"),

	/* Hybrid clients, Golden/Raptor Cove P-cores + Gracemont: level 2 */
	HYB(0x97, "Alder Lake-S", "Golden Cove", 6, false, CPU_CTR_ADL_HYBRID, "Gracemont", 5,
	    SRC_HYB_ADL " [DUMP]"),
	HYB(0x9A, "Alder Lake-P/H", "Golden Cove", 6, false, CPU_CTR_ADL_HYBRID, "Gracemont", 5,
	    SRC_HYB_ADL " [DUMP]"),
	HYB(0xB7, "Raptor Lake-S", "Raptor Cove", 6, false, CPU_CTR_ADL_HYBRID, "Gracemont", 5,
	    SRC_HYB_ADL " [DUMP]"),
	HYB(0xBA, "Raptor Lake-P/H", "Raptor Cove", 6, false, CPU_CTR_ADL_HYBRID, "Gracemont", 5,
	    SRC_HYB_ADL " [DUMP]"),
	HYB(0xBF, "Raptor Lake-S", "Raptor Cove", 6, false, CPU_CTR_ADL_HYBRID, "Gracemont", 5,
	    SRC_HYB_ADL),
	/* Redwood Cove + Crestmont: leaf 0x23 enumerates the kinds' counters */
	HYB(0xAC, "Meteor Lake", "Redwood Cove", 6, false, CPU_CTR_CPUID, "Crestmont", 6, SRC_HYB_MTL),
	HYB(0xAA, "Meteor Lake-L", "Redwood Cove", 6, false, CPU_CTR_CPUID, "Crestmont", 6,
	    SRC_HYB_MTL " [DUMP]"),
	HYB(0xB5, "Arrow Lake-U", "Redwood Cove", 6, false, CPU_CTR_CPUID, "Crestmont", 6,
	    SRC_HYB_MTL " [DUMP]"),

	/* Lion Cove / Cougar Cove P-cores: level 2, width 8, metrics-clear */
	HYB(0xBD, "Lunar Lake", "Lion Cove", 8, true, CPU_CTR_CPUID, "Skymont", 8, SRC_HYB_LNC " [DUMP]"),
	HYB(0xC6, "Arrow Lake-S", "Lion Cove", 8, true, CPU_CTR_CPUID, "Skymont", 8, SRC_HYB_LNC " [DUMP]"),
	/* ARL-H also has Crestmont LP E-cores (native model id 2): cpu_info_identify
	 * names E-core kinds by their CPUID.1AH native model id. */
	HYB(0xC5, "Arrow Lake-H", "Lion Cove", 8, true, CPU_CTR_CPUID, "Skymont", 8, SRC_HYB_LNC " [DUMP]"),
	HYB(0xCC, "Panther Lake", "Cougar Cove", 8, true, CPU_CTR_CPUID, "Darkmont", 8, SRC_PTL " [DUMP]"),
	HYB(0xD5, "Wildcat Lake", "Cougar Cove", 8, true, CPU_CTR_CPUID, "Darkmont", 8, SRC_PTL),
	/* Nova Lake: Coyote Cove + Arctic Wolf */
	ROW(I, 18, 0x01, "Nova Lake", "Coyote Cove", 0, .fixed_ctr3 = true, .topdown_level = 2,
	    .hybrid = true, .e_uarch = "Arctic Wolf", .source = SRC_NVL),
	ROW(I, 18, 0x03, "Nova Lake-L", "Coyote Cove", 0, .fixed_ctr3 = true, .topdown_level = 2,
	    .hybrid = true, .e_uarch = "Arctic Wolf", .source = SRC_NVL),

	/* No PERF_METRICS ([ICORE]: no case sets it for these). */
	ROW(I, 6, 0x9D, "Ice Lake-NNPI", "Sunny Cove", 5,
	    .source = "[FAM]; no PERF_METRICS (ICELAKE_NNPI): [ICORE]; no recipe (the [TMA] GP "
		      "events' agreement is UNCONFIRMED); width 5: [TMA]"),
	ROW(I, 6, 0x8A, "Lakefield", "Sunny Cove", 5, .hybrid = true, .e_uarch = "Tremont",
	    .e_pipeline_width = 4,
	    .source = "[FAM]; no PERF_METRICS (LAKEFIELD, no intel_pmu_init case): [ICORE]; no "
		      "recipe for either kind; width 5: [TMA]; Tremont 4: [PMUT] [DUMP]"),
	ATOM(0xBE, "Alder Lake-N", "Gracemont", 5, R_ECORE, SRC_ATOM " [DUMP]"),
	ATOM(0x86, "Jacobsville (Tremont-D)", "Tremont", 4, R_ECORE, SRC_TNT),
	ATOM(0x96, "Elkhart Lake", "Tremont", 4, R_ECORE, SRC_TNT),
	ATOM(0x9C, "Jasper Lake", "Tremont", 4, R_ECORE, SRC_TNT " [DUMP]"),
	ATOM(0xAF, "Sierra Forest", "Crestmont", 6, R_ECORE, SRC_ATOM),
	ATOM(0xB6, "Grand Ridge", "Crestmont", 6, R_ECORE, SRC_ATOM),
	ATOM(0xDD, "Clearwater Forest", "Darkmont", 8, R_ECORE, SRC_ATOM),

	/* AMD: no PERF_METRICS, no FC3 (linux arch/x86/events/amd/core.c) */
	AMD(0x17, 0x31, "Rome/Castle Peak", "Zen 2", 6, NULL, SRC_ZEN2),
	AMD(0x17, 0x60, "Renoir", "Zen 2", 6, NULL, SRC_ZEN2 " [DUMP]"),
	AMD(0x17, 0x68, "Lucienne", "Zen 2", 6, NULL, SRC_ZEN2),
	AMD(0x17, 0x71, "Matisse", "Zen 2", 6, NULL, SRC_ZEN2 " [DUMP]"),
	AMD(0x17, 0x90, "Van Gogh", "Zen 2", 6, NULL, SRC_ZEN2),
	AMD(0x17, 0xA0, "Mendocino", "Zen 2", 6, NULL, SRC_ZEN2),
	AMD(0x19, 0x01, "Milan", "Zen 3", 6, NULL, SRC_ZEN3 " [DUMP]"),
	AMD(0x19, 0x08, "Chagall", "Zen 3", 6, NULL, SRC_ZEN3),
	AMD(0x19, 0x21, "Vermeer", "Zen 3", 6, NULL, SRC_ZEN3 " [DUMP]"),
	AMD(0x19, 0x44, "Rembrandt", "Zen 3", 6, NULL, SRC_ZEN3 " [DUMP]"),
	AMD(0x19, 0x50, "Cezanne", "Zen 3", 6, NULL, SRC_ZEN3),
	AMD(0x19, 0x10, "Genoa", "Zen 4", 6, CPU_RECIPE_AMD_ZEN4, SRC_ZEN4),
	AMD(0x19, 0x11, "Genoa", "Zen 4", 6, CPU_RECIPE_AMD_ZEN4, SRC_ZEN4 " [DUMP]"),
	AMD(0x19, 0x61, "Raphael", "Zen 4", 6, CPU_RECIPE_AMD_ZEN4, SRC_ZEN4 " [DUMP]"),
	AMD(0x19, 0x74, "Phoenix", "Zen 4", 6, CPU_RECIPE_AMD_ZEN4, SRC_ZEN4),
	AMD(0x19, 0x78, "Phoenix 2", "Zen 4", 6, CPU_RECIPE_AMD_ZEN4, SRC_ZEN4),
	AMD(0x19, 0xA0, "Bergamo/Siena", "Zen 4", 6, CPU_RECIPE_AMD_ZEN4, SRC_ZEN4),
	AMD(0x1A, 0x02, "Turin", "Zen 5", 8, CPU_RECIPE_AMD_ZEN5, SRC_ZEN5 " [DUMP]"),
	AMD(0x1A, 0x11, "Turin Dense", "Zen 5", 8, CPU_RECIPE_AMD_ZEN5, SRC_ZEN5),
	AMD(0x1A, 0x24, "Strix Point", "Zen 5", 8, CPU_RECIPE_AMD_ZEN5, SRC_ZEN5 " [DUMP]"),
	AMD(0x1A, 0x44, "Granite Ridge", "Zen 5", 8, CPU_RECIPE_AMD_ZEN5, SRC_ZEN5 " [DUMP]"),
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
