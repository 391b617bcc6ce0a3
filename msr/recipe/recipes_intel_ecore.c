/*
 * msr/recipe/recipes_intel_ecore.c - intel-ecore-l1, the Top-down of the
 * Intel E-cores (Gracemont, Crestmont, Skymont/Darkmont, Tremont) from
 * their TOPDOWN_* events, levels 1 and 2 (data; msr/recipe/recipe.h).
 * The P-core recipes are msr/recipe/recipes_intel.c,
 * msr/recipe/recipes_intel_icl.c and msr/recipe/recipes_intel_pm.c.
 *
 * Sources, cited by key in each row:
 *   [PM-x]   intel/perfmon x/events/<model>_core.json: event encodings (EventCode,
 *            UMask, Counter), e.g. [PM-ADL] ADL/events/alderlake_gracemont_core.json.
 *   [ECSV]   intel/perfmon E-core_TMA_Metrics.csv (TMA 4, columns GRT, CMT,
 *            LNL-SKT); [ACSV] intel/perfmon Atom_TMA.csv (TMA 1.2, column TNT).
 */
#include "msr/recipe/recipes_intel_rows.h"

/* ============================================ intel-ecore-l1 (E-cores) */

#define S_GRT "[PM-ADL] ADL/events/alderlake_gracemont_core.json"
#define S_CMT "[PM-MTL] MTL/events/meteorlake_crestmont_core.json, [PM-SRF] SRF/events/" \
	"sierraforest_core.json"
#define S_SKT "[PM-LNL] LNL/events/lunarlake_skymont_core.json, [PM-CWF] CWF/events/" \
	"clearwaterforest_core.json (Darkmont)"
#define S_TNT "[PM-EHL] EHL/events/elkhartlake_core.json, [PM-SNR] SNR/events/snowridgex_core.json"

/* Level 2 of every E-core here: the same encodings in [PM-ADL], [PM-MTL], [PM-SRF], [PM-LNL], [PM-CWF]. */
#define ECORE_L2_EVENTS(src, ctr) \
	GP("TOPDOWN_FE_BOUND.FRONTEND_LATENCY", 0x71, 0x72, src, ctr), \
	GP("TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH", 0x71, 0x8D, src, ctr), \
	GP("TOPDOWN_BAD_SPECULATION.MISPREDICT", 0x73, 0x04, src, ctr), \
	GP("TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS", 0x73, 0x03, src, ctr), \
	GP("TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS", 0x74, 0x01, src, ctr)
#define ECORE_CLK(src) FX("CPU_CLK_UNHALTED.CORE", 1, 0x00, 0x02, src ": Fixed counter 1")

static const struct recipe_event grt_events[] = {
	ECORE_CLK(S_GRT),
	GP("TOPDOWN_FE_BOUND.ALL", 0x71, 0x00, S_GRT, C05),
	GP("TOPDOWN_BE_BOUND.ALL", 0x74, 0x00, S_GRT, C05),
	GP("TOPDOWN_RETIRING.ALL", 0xC2, 0x00, S_GRT, C05),
	ECORE_L2_EVENTS(S_GRT, C05),
};

static const struct recipe_event cmt_events[] = {
	ECORE_CLK(S_CMT),
	GP("TOPDOWN_FE_BOUND.ALL_P", 0x71, 0x00, S_CMT, C07),
	GP("TOPDOWN_BAD_SPECULATION.ALL_P", 0x73, 0x00, S_CMT, C07),
	GP("TOPDOWN_BE_BOUND.ALL_P", 0x74, 0x00, S_CMT, C07),
	GP("TOPDOWN_RETIRING.ALL_P", 0x72, 0x00, S_CMT, C07),
	ECORE_L2_EVENTS(S_CMT, C07),
};

/* Skymont/Darkmont with fixed counters 4..6 (CPUID leaf 0x23 sub-leaf 1 EBX bits 4..6). */
static const struct recipe_event skt_events[] = {
	ECORE_CLK(S_SKT),
	FX("TOPDOWN_BAD_SPECULATION.ALL", 4, 0x00, 0x05, S_SKT ": Fixed counter 4"),
	FX("TOPDOWN_FE_BOUND.ALL", 5, 0x00, 0x06, S_SKT ": Fixed counter 5"),
	FX("TOPDOWN_RETIRING.ALL", 6, 0x00, 0x07, S_SKT ": Fixed counter 6"),
	GP("TOPDOWN_BE_BOUND.ALL_P", 0xA4, 0x02, S_SKT, C07),
	ECORE_L2_EVENTS(S_SKT, C07),
};

/* Skymont/Darkmont where leaf 0x23 does not enumerate fixed counters 4..6: the GP forms. */
static const struct recipe_event skt_gp_events[] = {
	ECORE_CLK(S_SKT),
	GP("TOPDOWN_BAD_SPECULATION.ALL_P", 0x73, 0x00, S_SKT, C07),
	GP("TOPDOWN_FE_BOUND.ALL_P", 0x9C, 0x01, S_SKT, C07),
	GP("TOPDOWN_RETIRING.ALL_P", 0xC2, 0x02, S_SKT, C07),
	GP("TOPDOWN_BE_BOUND.ALL_P", 0xA4, 0x02, S_SKT, C07),
	ECORE_L2_EVENTS(S_SKT, C07),
};

#define S_ESLOTS "[ECSV] #SLOTS = #Pipeline_Width * #CLKS, #CLKS = CPU_CLK_UNHALTED.CORE"
/*
 * Level 2 of the E-core tree ([ECSV]) mapped onto tma_*: IFetch_Latency ->
 * tma_fetch_latency, IFetch_Bandwidth -> tma_fetch_bandwidth, Core_Bound ->
 * tma_core_bound; Resource_Bound has no P-core node: tma_resource_bound
 * (perf's alderlake/meteorlake cpu_atom name).  Retiring has no level 2.
 */
#define ECORE_L2_NODES \
	N("tma_fetch_latency", L2, FE, "TOPDOWN_FE_BOUND.FRONTEND_LATENCY / SLOTS", \
	  "[ECSV] IFetch_Latency (GRT, CMT, LNL-SKT)"), \
	N("tma_fetch_bandwidth", L2, FE, "TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH / SLOTS", \
	  "[ECSV] IFetch_Bandwidth"), \
	N("tma_branch_mispredicts", L2, BAD, "TOPDOWN_BAD_SPECULATION.MISPREDICT / SLOTS", \
	  "[ECSV] Branch_Mispredicts"), \
	N("tma_machine_clears", L2, BAD, "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS / SLOTS", \
	  "[ECSV] Machine_Clears"), \
	N("tma_core_bound", L2, BE, "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS / SLOTS", \
	  "[ECSV] Core_Bound"), \
	N("tma_resource_bound", L2, BE, "tma_backend_bound - tma_core_bound", \
	  "[ECSV] Resource_Bound")

static const struct recipe_node grt_nodes[] = {
	N("SLOTS", 0, NULL, "width * CPU_CLK_UNHALTED.CORE", S_ESLOTS " (GRT: 5)"),
	N(FE, L1, NULL, "TOPDOWN_FE_BOUND.ALL / SLOTS", "[ECSV] GRT Frontend_Bound"),
	N(BAD, L1, NULL, "(SLOTS - (TOPDOWN_FE_BOUND.ALL + TOPDOWN_BE_BOUND.ALL + "
	  "TOPDOWN_RETIRING.ALL)) / SLOTS", "[ECSV] GRT Bad_Speculation"),
	N(BE, L1, NULL, "TOPDOWN_BE_BOUND.ALL / SLOTS", "[ECSV] GRT Backend_Bound"),
	N(RET, L1, NULL, "TOPDOWN_RETIRING.ALL / SLOTS", "[ECSV] GRT Retiring"),
	ECORE_L2_NODES,
};

static const struct recipe_node cmt_nodes[] = {
	N("SLOTS", 0, NULL, "width * CPU_CLK_UNHALTED.CORE", S_ESLOTS " (CMT: 6)"),
	N(FE, L1, NULL, "TOPDOWN_FE_BOUND.ALL_P / SLOTS", "[ECSV] CMT Frontend_Bound"),
	N(BAD, L1, NULL, "TOPDOWN_BAD_SPECULATION.ALL_P / SLOTS", "[ECSV] CMT Bad_Speculation"),
	N(BE, L1, NULL, "TOPDOWN_BE_BOUND.ALL_P / SLOTS", "[ECSV] CMT Backend_Bound"),
	N(RET, L1, NULL, "TOPDOWN_RETIRING.ALL_P / SLOTS", "[ECSV] CMT Retiring"),
	ECORE_L2_NODES,
};

/* [ECSV] LNL-SKT names the GP form of bad speculation (ALL_P); the fixed
 * counter's TOPDOWN_BAD_SPECULATION.ALL counts the same slots ([PM-LNL]
 * descriptions: "Fixed Counter: " and the same text). */
static const struct recipe_node skt_nodes[] = {
	N("SLOTS", 0, NULL, "width * CPU_CLK_UNHALTED.CORE", S_ESLOTS " (LNL-SKT: 8)"),
	N(FE, L1, NULL, "TOPDOWN_FE_BOUND.ALL / SLOTS", "[ECSV] LNL-SKT Frontend_Bound"),
	N(BAD, L1, NULL, "TOPDOWN_BAD_SPECULATION.ALL / SLOTS",
	  "[ECSV] LNL-SKT Bad_Speculation, fixed-counter form"),
	N(BE, L1, NULL, "TOPDOWN_BE_BOUND.ALL_P / SLOTS", "[ECSV] LNL-SKT Backend_Bound"),
	N(RET, L1, NULL, "TOPDOWN_RETIRING.ALL / SLOTS", "[ECSV] LNL-SKT Retiring"),
	ECORE_L2_NODES,
};

static const struct recipe_node skt_gp_nodes[] = {
	N("SLOTS", 0, NULL, "width * CPU_CLK_UNHALTED.CORE", S_ESLOTS " (LNL-SKT: 8)"),
	N(FE, L1, NULL, "TOPDOWN_FE_BOUND.ALL_P / SLOTS", "[ECSV] LNL-SKT Frontend_Bound, GP form"),
	N(BAD, L1, NULL, "TOPDOWN_BAD_SPECULATION.ALL_P / SLOTS", "[ECSV] LNL-SKT Bad_Speculation"),
	N(BE, L1, NULL, "TOPDOWN_BE_BOUND.ALL_P / SLOTS", "[ECSV] LNL-SKT Backend_Bound"),
	N(RET, L1, NULL, "TOPDOWN_RETIRING.ALL_P / SLOTS", "[ECSV] LNL-SKT Retiring, GP form"),
	ECORE_L2_NODES,
};

static const struct recipe_event tnt_events[] = {
	ECORE_CLK(S_TNT),
	GP("TOPDOWN_FE_BOUND.ALL", 0x71, 0x00, S_TNT, C03),
	GP("TOPDOWN_BAD_SPECULATION.ALL", 0x73, 0x06, S_TNT, C03),
	GP("TOPDOWN_BE_BOUND.ALL", 0x74, 0x00, S_TNT, C03),
	GP("TOPDOWN_RETIRING.ALL", 0xC2, 0x00, S_TNT, C03),
	GP("TOPDOWN_BAD_SPECULATION.MISPREDICT", 0x73, 0x04, S_TNT, C03),
	GP("TOPDOWN_BAD_SPECULATION.MONUKE", 0x73, 0x02, S_TNT, C03),
};

static const struct recipe_node tnt_nodes[] = {
	N("SLOTS", 0, NULL, "width * CPU_CLK_UNHALTED.CORE",
	  "[ACSV] SLOTS = #Pipeline_Width * CLKS, #Pipeline_Width 4 (TNT)"),
	N(FE, L1, NULL, "TOPDOWN_FE_BOUND.ALL / SLOTS", "[ACSV] TNT Frontend_Bound"),
	N(BAD, L1, NULL, "TOPDOWN_BAD_SPECULATION.ALL / SLOTS", "[ACSV] TNT Bad_Speculation"),
	N(BE, L1, NULL, "TOPDOWN_BE_BOUND.ALL / SLOTS", "[ACSV] TNT Backend_Bound"),
	N(RET, L1, NULL, "TOPDOWN_RETIRING.ALL / SLOTS", "[ACSV] TNT Retiring"),
	N("tma_branch_mispredicts", L2, BAD, "TOPDOWN_BAD_SPECULATION.MISPREDICT / SLOTS",
	  "[ACSV] TNT Branch_Mispredicts"),
	N("tma_machine_clears", L2, BAD, "TOPDOWN_BAD_SPECULATION.MONUKE / SLOTS",
	  "[ACSV] TNT Machine_Clears"),
};

static const char *const u_grt[] = { "Gracemont", NULL };
static const char *const u_cmt[] = { "Crestmont", NULL };
static const char *const u_skt[] = { "Skymont", "Darkmont", NULL };
static const char *const u_tnt[] = { "Tremont", NULL };

#define ECORE_BOUND "48-bit counters (no quantisation); level 1 and level 2 in passes when " \
	"the core has fewer GP counters than events; the E-core's slots are per core (no SMT)"
#define ECORE_NOTES "no level 2 under Retiring (E-core_TMA_Metrics.csv has none); tma_resource_bound is the E-core's other backend node"
#define SKT_GP_NOTES "Skymont/Darkmont without fixed counters 4-6 in CPUID leaf 0x23: the GP " \
	"forms; " ECORE_NOTES
#define TNT_NOTES "no tma_fetch_latency/bandwidth (Atom_TMA.csv sums 4 events each) nor " \
	"Memory_Bound (Atom_TMA.csv: stall cycles, not slots)"

/* ================================================================ table */

static const struct recipe recipes_intel_ecore[] = {
	{ "intel-ecore-l1", "gracemont", u_grt, I, 5, grt_events, RECIPE_N(grt_events), grt_nodes,
	  RECIPE_N(grt_nodes), ECORE_BOUND, ECORE_NOTES },
	{ "intel-ecore-l1", "crestmont", u_cmt, I, 6, cmt_events, RECIPE_N(cmt_events), cmt_nodes,
	  RECIPE_N(cmt_nodes), ECORE_BOUND, ECORE_NOTES },
	{ "intel-ecore-l1", "skymont", u_skt, I, 8, skt_events, RECIPE_N(skt_events), skt_nodes,
	  RECIPE_N(skt_nodes), ECORE_BOUND, ECORE_NOTES },
	{ "intel-ecore-l1", "skymont-gp", u_skt, I, 8, skt_gp_events, RECIPE_N(skt_gp_events),
	  skt_gp_nodes, RECIPE_N(skt_gp_nodes), ECORE_BOUND, SKT_GP_NOTES },
	{ "intel-ecore-l1", "tremont", u_tnt, I, 4, tnt_events, RECIPE_N(tnt_events), tnt_nodes,
	  RECIPE_N(tnt_nodes), ECORE_BOUND, TNT_NOTES },
};
const struct recipe_table recipes_intel_ecore_table = { recipes_intel_ecore,
							 RECIPE_N(recipes_intel_ecore) };
