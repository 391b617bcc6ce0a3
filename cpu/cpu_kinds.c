/*
 * cpu/cpu_kinds.c - the core kinds of the CPU and, per kind, its PMU and
 * Top-down: CPUID leaf 0x1A for hybrid core kinds, per kind the counters
 * of one of its CPUs (leaf 0xA, leaf 0x23, the kernel's rules; AMD
 * 0x80000001/0x80000022), the model table for microarchitecture, Top-down
 * level, source, recipe and metrics-clear.  The identity these start from
 * is cpu/cpu_identify.c's.
 *
 * Hardware facts: Intel SDM Vol. 2A CPUID leaves 0AH, 23H, 07H and 1AH;
 * SDM Vol. 4 IA32_PERF_CAPABILITIES; intel/perfmon's TMA metrics and the
 * AMD PPRs (event recipes),
 * linux arch/x86/include/asm/intel-family.h (core types, native model
 * ids), arch/x86/events/intel/core.c (intel_pmu_init: the ADL/RPL counter
 * rule, update_pmu_cap, intel_pmu_broken_perf_cap), arch/x86/events/amd/core.c.
 * Cited below by key:
 *   [FAM]     linux arch/x86/include/asm/intel-family.h
 *   [ICORE]   linux arch/x86/events/intel/core.c
 *   [PEH]     linux arch/x86/include/asm/perf_event.h
 *   [MSRIDX]  linux arch/x86/include/asm/msr-index.h
 *   [AMDCORE] linux arch/x86/events/amd/core.c
 *   [KVMST]   linux tools/testing/selftests/kvm/include/x86/pmu.h (leaf 0xA
 *             EBX's architectural events)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "cpu/identify_int.h"
#include "cpu/perf_caps.h"

#define LEAF_HYBRID       0x1Au

/* CPUID.1AH:EAX ([FAM] enum intel_cpu_type, enum intel_native_id) */
#define HYBRID_CORE_TYPE(eax)    ((eax) >> 24)
#define HYBRID_NATIVE_MODEL(eax) ((eax) & 0xffffffu)
#define INTEL_CPU_TYPE_ATOM      0x20u
#define INTEL_CPU_TYPE_CORE      0x40u
#define INTEL_ATOM_CMT_NATIVE_ID 0x2u /* Crestmont */
#define INTEL_ATOM_SKT_NATIVE_ID 0x3u /* Skymont */

/* Leaf 0xA EBX bit 7: TOPDOWN.SLOTS NOT available ([KVMST] X86_PMU_FEATURE_*) */
#define ARCH_EVENT_TOPDOWN_SLOTS 7u
#define FIXED_CTR3               3u /* IA32_FIXED_CTR3: TOPDOWN.SLOTS ([MSRIDX]) */
/* Leaf 0xA EDX bit 15: AnyThread deprecated ([PEH] union cpuid10_edx) */
#define CPUID_0A_EDX_ANYTHREAD_DEPR (1u << 15)

/* Leaf 0x23, architectural perfmon extension ([PEH] union cpuid35_eax) */
#define LEAF_ARCH_PERFMON_EXT          0x23u
#define CPUID_7_1_EAX_ARCH_PERFMON_EXT (1u << 8) /* X86_FEATURE_ARCH_PERFMON_EXT */
#define ARCH_PERFMON_EXT_CNTR_SUBLEAF  (1u << 1) /* 23H.0:EAX: sub-leaf 1 is valid */
#define ARCH_PERFMON_NUM_COUNTER_LEAF  1u        /* EAX GP bitmap, EBX fixed bitmap */

/* AMD core counters ([AMDCORE] amd_core_pmu_init, [MSRIDX]) */
#define LEAF_AMD_EXT_FEATURES           0x80000001u
#define CPUID_80000001_ECX_PERFCTR_CORE (1u << 23) /* X86_FEATURE_PERFCTR_CORE */
#define LEAF_AMD_PERFMON                0x80000022u
#define CPUID_80000022_EAX_PERFMON_V2   (1u << 0)  /* EBX[3:0]: core counters */
#define AMD64_NUM_COUNTERS              4u  /* legacy PERF_CTL0-3 */
#define AMD64_NUM_COUNTERS_CORE         6u  /* with PerfCtrExtCore */
#define AMD64_COUNTER_WIDTH             48u

/* ------------------------------------------------------------- leaf 0xA */

void cpu_pmu_arch_decode(const uint32_t regs[4], struct cpu_pmu_arch *out)
{
	memset(out, 0, sizeof(*out));
	out->version = regs[0] & 0xff;
	out->gp_counters = (regs[0] >> 8) & 0xff;
	out->gp_width = (regs[0] >> 16) & 0xff;
	out->ebx_len = (regs[0] >> 24) & 0xff;
	out->ebx = regs[1];
	/* ECX enumerates the fixed counters from version 5 on ([ICORE] intel_pmu_init). */
	out->fixed_mask = out->version >= 5 ? regs[2] : 0;
	out->fixed_counters = regs[3] & 0x1f;
	out->fixed_width = (regs[3] >> 5) & 0xff;
	out->anythread_deprecated = out->version >= 5 && (regs[3] & CPUID_0A_EDX_ANYTHREAD_DEPR);
	out->topdown_slots = out->ebx_len > ARCH_EVENT_TOPDOWN_SLOTS &&
			     !(regs[1] & (1u << ARCH_EVENT_TOPDOWN_SLOTS));
}

bool cpu_pmu_has_fixed(const struct cpu_pmu_arch *p, unsigned i)
{
	if (i < 32 && (p->fixed_mask & (1u << i)))
		return true;
	return p->fixed_counters > i;
}

/* ------------------------------------------------------------ core kinds */

/* Per-kind enumeration state: the source, and leaf 0xA of the kind's CPU. */
struct kind_ctx {
	const struct cpu_source *src;
	struct cpu_info *ci;
	const uint64_t *perf_caps;
	struct cpu_pmu_arch leafA; /* of the kind's first CPU (Intel) */
	bool leaf23;               /* the masks came from CPUID.23H.1 */
};

static uint32_t low_mask(unsigned n)
{
	return n >= 32 ? ~0u : (1u << n) - 1;
}

static unsigned popcount32(uint32_t v)
{
	return (unsigned)__builtin_popcount(v);
}

/* Leaf 0xA of one CPU: GP counters 0..EAX[15:8]-1; fixed counter i when
 * ECX[i] (v5+) || EDX[4:0] > i, none before version 2 (Intel PCM isFixedCounterSupported; [ICORE]
 * intel_pmu_init takes the fixed count from EDX for v2..4). */
static void counters_leafA(const struct cpu_pmu_arch *p, struct cpu_kind *k)
{
	k->gp_mask = low_mask(p->gp_counters);
	k->gp_width = p->gp_width;
	k->fixed_mask = p->version >= 2 ? p->fixed_mask | low_mask(p->fixed_counters) : 0;
	k->counters_source = "CPUID leaf 0xA";
}

/*
 * [ICORE] intel_pmu_init, case ALDERLAKE..RAPTORLAKE_S with
 * X86_FEATURE_HYBRID_CPU: "pmu->cntr_mask64 <<= 2; |= 0x3;
 * fixed_cntr_mask64 <<= 1; |= 0x1" for the P-core, undone when that
 * exceeds 8 GP or 4 fixed counters ("when all E-cores are disabled in a
 * BIOS, the leaf 0xA will enumerate all counters of P-cores").  The E-core
 * (cpu_atom) keeps leaf 0xA as it is: 6 GP + 3 fixed on the ADL/RPL dumps.
 */
static void counters_adl_pcore(struct cpu_kind *k)
{
	uint32_t gp = k->gp_mask << 2 | 0x3, fixed = k->fixed_mask << 1 | 0x1;

	if (popcount32(gp) > 8 || popcount32(fixed) > 4) {
		k->counters_source = "CPUID leaf 0xA (all P-core counters: no E-cores enabled, "
				     "kernel ADL/RPL rule)";
		return;
	}
	k->gp_mask = gp;
	k->fixed_mask = fixed;
	k->counters_source = "CPUID leaf 0xA + kernel ADL/RPL P-core rule (GP mask <<2|3, "
			     "fixed mask <<1|1)";
}

/*
 * CPUID.23H.1 (EAX = GP bitmap, EBX = fixed bitmap) where
 * CPUID.(7,1):EAX[8] (ArchPerfmonExt) and CPUID.23H.0:EAX[1] (counters
 * sub-leaf) say it exists: the kernel's update_pmu_cap overrides the leaf
 * 0xA masks with it per core type ([ICORE] update_pmu_cap).  Returns true when used.
 */
static bool counters_leaf23(const struct kind_ctx *x, unsigned cpu, struct cpu_kind *k)
{
	uint32_t r[4];

	if (x->ci->max_basic_leaf < LEAF_ARCH_PERFMON_EXT)
		return false;
	if (cpu_source_cpuid(x->src, cpu, LEAF_EXT_FEATURES, 1, r) ||
	    !(r[0] & CPUID_7_1_EAX_ARCH_PERFMON_EXT))
		return false;
	if (cpu_source_cpuid(x->src, cpu, LEAF_ARCH_PERFMON_EXT, 0, r) ||
	    !(r[0] & ARCH_PERFMON_EXT_CNTR_SUBLEAF))
		return false;
	if (cpu_source_cpuid(x->src, cpu, LEAF_ARCH_PERFMON_EXT, ARCH_PERFMON_NUM_COUNTER_LEAF, r))
		return false;
	k->gp_mask = r[0];
	k->fixed_mask = r[1];
	k->counters_source = "CPUID leaf 0x23.1";
	return true;
}

static bool kind_is_atom(const struct cpu_info *ci, const struct cpu_kind *k)
{
	return ci->hybrid && k->core_type != INTEL_CPU_TYPE_CORE;
}

/* Intel: counters of the kind's first CPU, then the kernel's rules. */
static void counters_intel(struct kind_ctx *x, struct cpu_kind *k)
{
	const struct cpu_model *m = x->ci->row;
	bool hybrid = x->ci->hybrid && m && m->hybrid;
	uint32_t r[4];

	memset(&x->leafA, 0, sizeof(x->leafA));
	if (!cpu_source_cpuid(x->src, k->cpus[0], LEAF_ARCH_PERFMON, 0, r))
		cpu_pmu_arch_decode(r, &x->leafA);
	counters_leafA(&x->leafA, k);
	x->leaf23 = false;
	if (x->leafA.version == 0) {
		k->counters_source = "none (CPUID leaf 0xA version 0)";
		return;
	}
	if (hybrid && m->counter_rule == CPU_CTR_ADL_HYBRID && !kind_is_atom(x->ci, k))
		counters_adl_pcore(k);
	x->leaf23 = counters_leaf23(x, k->cpus[0], k);
	if (!hybrid || x->leaf23 || m->counter_rule == CPU_CTR_ADL_HYBRID)
		return;
	/* A hybrid part whose leaf 0x23 the source lacks (libcpuid 0.6.2 drops
	 * it; hwloc-gather-cpuid may not gather it): leaf 0xA is the P/E
	 * common subset, which hides the P-core's FC3 ([ICORE] intel_pmu_init).  The table
	 * supplies it; other counters stay under-reported (the safe side). */
	if (!kind_is_atom(x->ci, k) && m->fixed_ctr3 && !(k->fixed_mask & (1u << FIXED_CTR3))) {
		k->fixed_mask |= 1u << FIXED_CTR3;
		k->counters_source = "CPUID leaf 0xA (P/E common subset; leaf 0x23 not in the "
				     "source) + fixed counter 3 from the model table";
	} else {
		k->counters_source = "CPUID leaf 0xA (P/E common subset; leaf 0x23 not in the source)";
	}
}

/*
 * AMD core counters ([AMDCORE] amd_core_pmu_init): PerfMonV2
 * (CPUID.80000022H:EAX[0]) gives their number in EBX[3:0]; else
 * PerfCtrExtCore (CPUID.80000001H:ECX[23]) gives 6; else the 4 legacy
 * counters - except under a hypervisor, where the missing PerfCtrExtCore
 * of a Zen guest means no usable PMU (every real Zen dump of the public
 * corpora has it).  48 bits wide (AMD PPR, PERF_CTR).
 */
static void counters_amd(const struct kind_ctx *x, struct cpu_kind *k)
{
	unsigned cpu = k->cpus[0], n = 0;
	uint32_t r[4];

	k->counters_source = "not enumerated (hypervisor without PerfCtrExtCore)";
	if (!cpu_source_cpuid(x->src, cpu, LEAF_AMD_PERFMON, 0, r) &&
	    (r[0] & CPUID_80000022_EAX_PERFMON_V2) && (r[1] & 0xf)) {
		n = r[1] & 0xf;
		k->perfmon_v2 = true;
		k->counters_source = "CPUID 0x80000022 EBX[3:0] (PerfMonV2)";
	} else if (!cpu_source_cpuid(x->src, cpu, LEAF_AMD_EXT_FEATURES, 0, r) &&
		   (r[2] & CPUID_80000001_ECX_PERFCTR_CORE)) {
		n = AMD64_NUM_COUNTERS_CORE;
		k->counters_source = "CPUID.80000001H:ECX[23] PerfCtrExtCore (6 core counters)";
	} else if (!x->ci->hypervisor) {
		n = AMD64_NUM_COUNTERS;
		k->counters_source = "legacy counters (no PerfCtrExtCore)";
	}
	k->gp_mask = low_mask(n);
	k->gp_width = n ? AMD64_COUNTER_WIDTH : 0;
	k->fixed_mask = 0;
}

/* Microarchitecture, width and recipe of the kind, from the table or, for
 * E-cores, by native model id where the kernel names it ([FAM] enum
 * intel_native_id; widths and recipe: intel/perfmon E-core_TMA_Metrics.csv). */
static void kind_uarch(const struct cpu_info *ci, struct cpu_kind *k, const char **recipe)
{
	const struct cpu_model *m = ci->row;

	k->uarch = "unknown";
	k->pipeline_width = 0;
	*recipe = NULL;
	if (ci->vendor == CPU_VENDOR_INTEL && kind_is_atom(ci, k)) {
		if (k->native_model == INTEL_ATOM_CMT_NATIVE_ID) {
			k->uarch = "Crestmont";
			k->pipeline_width = 6;
			*recipe = CPU_RECIPE_INTEL_ECORE;
		} else if (k->native_model == INTEL_ATOM_SKT_NATIVE_ID) {
			k->uarch = "Skymont";
			k->pipeline_width = 8;
			*recipe = CPU_RECIPE_INTEL_ECORE;
		} else if (m && m->e_uarch) {
			k->uarch = m->e_uarch;
			k->pipeline_width = m->e_pipeline_width;
			*recipe = m->e_recipe;
		}
	} else if (m) {
		k->uarch = m->uarch;
		k->pipeline_width = m->pipeline_width;
		*recipe = m->recipe;
	}
}

/* "fixed counter 3 from ...": where the enumeration of FC3 came from. */
static void fc3_phrase(const struct kind_ctx *x, const struct cpu_kind *k, char *buf, size_t n)
{
	if (!k->fixed_ctr3)
		snprintf(buf, n, "not enumerated by CPUID (fixed mask 0x%x)", k->fixed_mask);
	else if (x->leaf23)
		snprintf(buf, n, "from CPUID leaf 0x23.1 (EBX bit %u)", FIXED_CTR3);
	else if (x->leafA.fixed_mask & (1u << FIXED_CTR3))
		snprintf(buf, n, "from CPUID leaf 0xA (ECX bit %u)", FIXED_CTR3);
	else
		snprintf(buf, n, "from CPUID leaf 0xA (EDX[4:0] = %u fixed counters)",
			 x->leafA.fixed_counters);
}

/* The warning of an Intel model decided architecturally (see cpu.h). */
static void warn_arch(const struct kind_ctx *x, const struct cpu_kind *k, bool undecided)
{
	struct cpu_info *ci = x->ci;
	char who[192], fc3[96]; /* fixed: who at most 164 bytes (the model table's
				 * longest name and uarch, 42), fc3_phrase 55 */
	const char *pm;

	if (ci->row)
		snprintf(who, sizeof(who), "family %u model 0x%02x (%s, %s) has no confirmed "
			 "PERF_METRICS setup in the kernel (UNCONFIRMED in baretma's model table)",
			 ci->family, ci->model, ci->row->name, ci->row->uarch);
	else
		snprintf(who, sizeof(who), "family %u model 0x%02x is not in baretma's model table",
			 ci->family, ci->model);
	fc3_phrase(x, k, fc3, sizeof(fc3));
	if (!k->fixed_ctr3)
		pm = "no PERF_METRICS without it (PERF_METRICS is derived from fixed counter 3): "
		     "level 0";
	else if (undecided)
		pm = "PERF_METRICS undecided: IA32_PERF_CAPABILITIES bit 15 was not read (a CPUID "
		     "dump holds no MSRs), level 0 until it is";
	else if (*x->perf_caps & PERF_CAP_PERF_METRICS)
		pm = "PERF_METRICS from IA32_PERF_CAPABILITIES bit 15 = 1: level 1 assumed, level 2 unknown";
	else
		pm = "PERF_METRICS from IA32_PERF_CAPABILITIES bit 15 = 0: level 0";
	snprintf(ci->warning, sizeof(ci->warning), "%s: fixed counter 3 %s; %s", who, fc3, pm);
}

/* Where a kind's PERF_METRICS level comes from (cpu_kind.perf_metrics_source). */
#define PM_SRC_VENDOR "not an Intel CPU: IA32_PERF_METRICS is Intel's"
#define PM_SRC_NO_PMU "CPUID leaf 0xA version 0: no architectural PMU"
#define PM_SRC_ATOM   "an E-core kind by its CPUID.1AH core type: the kernel's per-model " \
		      "setup gives it none"
#define PM_SRC_NO_FC3 "no fixed counter 3 by CPUID leaf 0xA/0x23 or the model table: " \
		      "IA32_PERF_METRICS derives from it"
#define PM_SRC_CAPS0  "IA32_PERF_CAPABILITIES bit 15 clear"
#define PM_SRC_TABLE  "CPUID's family/model in baretma's model table, after the kernel's " \
		      "per-model setup"
#define PM_SRC_TABLE_CAPS PM_SRC_TABLE "; IA32_PERF_CAPABILITIES bit 15 set"
#define PM_SRC_ARCH1  "IA32_PERF_CAPABILITIES bit 15 set, model not in baretma's table: " \
		      "level 1 assumed"
#define PM_SRC_UNDECIDED "undecided: IA32_PERF_CAPABILITIES bit 15 not read, see the warning"

/*
 * PERF_METRICS level of a non-atom Intel kind.  Table rows follow the
 * kernel ([ICORE] intel_pmu_init, intel_pmu_cpu_starting): the level needs FC3
 * (PERF_METRICS derives from it: [ICORE] icl_set_topdown_event_period), and on
 * non-hybrid lines IA32_PERF_CAPABILITIES[15] when read.
 * Other models: architectural (cpu.h).  Sets *undecided and *src (PM_SRC_*).
 */
static int level_intel(const struct kind_ctx *x, const struct cpu_kind *k, bool *undecided,
		       const char **src)
{
	const struct cpu_model *m = x->ci->row;
	bool metrics_cap = x->perf_caps && (*x->perf_caps & PERF_CAP_PERF_METRICS);

	*undecided = false;
	if (m && m->topdown_level != CPU_TD_UNCONFIRMED) {
		*src = !m->topdown_level ? PM_SRC_TABLE : !k->fixed_ctr3 ? PM_SRC_NO_FC3
		     : !x->perf_caps || m->hybrid ? PM_SRC_TABLE
		     : metrics_cap ? PM_SRC_TABLE_CAPS : PM_SRC_CAPS0;
		if (!k->fixed_ctr3 || (x->perf_caps && !m->hybrid && !metrics_cap))
			return 0;
		return m->topdown_level;
	}
	*undecided = k->fixed_ctr3 && !x->perf_caps;
	*src = !k->fixed_ctr3 ? PM_SRC_NO_FC3 : *undecided ? PM_SRC_UNDECIDED
	     : metrics_cap ? PM_SRC_ARCH1 : PM_SRC_CAPS0;
	warn_arch(x, k, *undecided);
	return k->fixed_ctr3 && metrics_cap ? 1 : 0;
}

/* RDPMC metrics-clear of a PERF_METRICS kind: IA32_PERF_CAPABILITIES[19]
 * when read on a CPU of this kind (on hybrids, bit 15 says it was a
 * P-core), else the table (linux commit 0e45818ec189). */
static bool metrics_clear_of(const struct kind_ctx *x, const struct cpu_kind *k)
{
	const struct cpu_model *m = x->ci->row;
	const uint64_t *caps = x->perf_caps;

	if (k->topdown_level < 1)
		return false;
	if (caps && (!x->ci->hybrid || (*caps & PERF_CAP_PERF_METRICS)))
		return *caps & PERF_CAP_RDPMC_METRICS_CLEAR;
	return m && m->topdown_level != CPU_TD_UNCONFIRMED && m->metrics_clear;
}

/*
 * Top-down of a kind: level, source, recipe, metrics-clear.  An
 * event-based recipe needs the kind's counters: Intel ones need a PMU
 * (leaf 0xA version > 0); the AMD one counts 6 events at once (linux
 * tools/perf/pmu-events/arch/x86/amdzen4/pipeline.json), so it
 * needs the 6 core counters.
 */
static void kind_topdown(struct kind_ctx *x, struct cpu_kind *k, const char *recipe)
{
	const struct cpu_info *ci = x->ci;
	bool undecided = false, pmu;

	k->topdown_level = 0;
	k->perf_metrics_source = ci->vendor != CPU_VENDOR_INTEL ? PM_SRC_VENDOR
			       : !x->leafA.version ? PM_SRC_NO_PMU : PM_SRC_ATOM;
	if (ci->vendor == CPU_VENDOR_INTEL && x->leafA.version && !kind_is_atom(ci, k))
		k->topdown_level = level_intel(x, k, &undecided, &k->perf_metrics_source);
	k->metrics_clear = metrics_clear_of(x, k);
	pmu = ci->vendor == CPU_VENDOR_INTEL ? x->leafA.version > 0
	    : ci->vendor == CPU_VENDOR_AMD ? k->gp_counters >= AMD64_NUM_COUNTERS_CORE : false;
	k->topdown_recipe = NULL;
	k->model_recipe = recipe;
	if (k->topdown_level >= 1) {
		k->topdown_source = "perf_metrics";
	} else if (undecided) {
		k->topdown_source = "undecided";
	} else if (recipe && pmu) {
		k->topdown_source = "events";
		k->topdown_recipe = recipe;
	} else {
		k->topdown_source = "none";
	}
}

static void kind_fill(struct kind_ctx *x, struct cpu_kind *k)
{
	const char *recipe;

	kind_uarch(x->ci, k, &recipe);
	k->gp_mask = k->fixed_mask = 0;
	k->gp_width = 0;
	k->counters_source = "not enumerated (vendor not Intel or AMD)";
	memset(&x->leafA, 0, sizeof(x->leafA));
	x->leaf23 = false;
	if (x->ci->vendor == CPU_VENDOR_INTEL)
		counters_intel(x, k);
	else if (x->ci->vendor == CPU_VENDOR_AMD)
		counters_amd(x, k);
	k->gp_counters = popcount32(k->gp_mask);
	k->fixed_counters = popcount32(k->fixed_mask);
	k->fixed_ctr3 = k->fixed_mask & (1u << FIXED_CTR3);
	kind_topdown(x, k, recipe);
}

/* Models not in the table that warn_arch did not describe (non-Intel, or
 * Intel without a PMU to enumerate): say so. */
static void warn_unknown_other(struct cpu_info *ci)
{
	if (ci->row || ci->warning[0])
		return;
	if (ci->vendor == CPU_VENDOR_INTEL)
		snprintf(ci->warning, sizeof(ci->warning), "family %u model 0x%02x is not in "
			 "baretma's model table: no architectural PMU to enumerate (CPUID leaf "
			 "0xA version 0)", ci->family, ci->model);
	else
		snprintf(ci->warning, sizeof(ci->warning), "%s family 0x%x model 0x%02x is not in "
			 "baretma's model table: microarchitecture unknown, no Top-down recipe",
			 ci->vendor_str, ci->family, ci->model);
}

static int kind_find_or_add(struct cpu_info *ci, uint32_t eax)
{
	for (unsigned i = 0; i < ci->nkinds; i++)
		if (((uint32_t)ci->kinds[i].core_type << 24 | ci->kinds[i].native_model) == eax)
			return (int)i;
	if (ci->nkinds == CPU_MAX_KINDS)
		return -E2BIG;
	memset(&ci->kinds[ci->nkinds], 0, sizeof(ci->kinds[0]));
	ci->kinds[ci->nkinds].core_type = (uint8_t)HYBRID_CORE_TYPE(eax);
	ci->kinds[ci->nkinds].native_model = HYBRID_NATIVE_MODEL(eax);
	return (int)ci->nkinds++;
}

static int kind_cmp(const void *a, const void *b)
{
	const struct cpu_kind *x = a, *y = b;

	if (x->core_type != y->core_type)
		return x->core_type > y->core_type ? -1 : 1;
	if (x->native_model != y->native_model)
		return x->native_model > y->native_model ? -1 : 1;
	return 0;
}

/*
 * Names: "performance" (0x40), "efficiency" (0x20).  A second Atom kind
 * (ARL-H's Crestmont LP E-cores beside Skymont) is "lowpower", after the
 * kernel's third hybrid PMU cpu_lowpower ([ICORE]).
 */
static void kinds_name(struct cpu_info *ci)
{
	bool atom_seen = false;

	for (unsigned i = 0; i < ci->nkinds; i++) {
		struct cpu_kind *k = &ci->kinds[i];
		const char *name = "unknown";

		if (k->core_type == INTEL_CPU_TYPE_CORE) {
			name = "performance";
		} else if (k->core_type == INTEL_CPU_TYPE_ATOM) {
			name = atom_seen ? "lowpower" : "efficiency";
			atom_seen = true;
		}
		snprintf(k->kind, sizeof(k->kind), "%s", name);
	}
}

/* Hybrid parts: group the logical CPUs by CPUID.1AH:EAX ([FAM] intel_cpu_type).  A hybrid
 * part whose E-cores are disabled has one kind ("performance"). */
static int kinds_hybrid(const struct cpu_source *src, struct cpu_info *ci)
{
	for (unsigned cpu = 0; cpu < ci->ncpus; cpu++) {
		uint32_t r[4];
		int i;

		if (cpu_source_cpuid(src, cpu, LEAF_HYBRID, 0, r))
			continue; /* offline CPU: in no kind */
		i = kind_find_or_add(ci, r[0]);
		if (i < 0)
			return i;
		ci->kinds[i].cpus[ci->kinds[i].ncpus++] = cpu;
	}
	qsort(ci->kinds, ci->nkinds, sizeof(ci->kinds[0]), kind_cmp);
	kinds_name(ci);
	return 0;
}

int cpu_kinds_build(const struct cpu_source *src, struct cpu_info *ci, const uint64_t *perf_caps)
{
	struct kind_ctx x = { .src = src, .ci = ci, .perf_caps = perf_caps };
	int err = 0;

	ci->nkinds = 0;
	if (ci->hybrid) {
		err = kinds_hybrid(src, ci);
	} else {
		struct cpu_kind *k = &ci->kinds[0];

		memset(k, 0, sizeof(*k));
		snprintf(k->kind, sizeof(k->kind), "general");
		for (unsigned cpu = 0; cpu < ci->ncpus; cpu++)
			k->cpus[k->ncpus++] = cpu;
		ci->nkinds = 1;
	}
	for (unsigned i = 0; i < ci->nkinds; i++)
		if (ci->kinds[i].ncpus)
			kind_fill(&x, &ci->kinds[i]);
	warn_unknown_other(ci);
	return err;
}

const struct cpu_kind *cpu_info_kind_of(const struct cpu_info *ci, unsigned cpu)
{
	for (unsigned i = 0; i < ci->nkinds; i++)
		for (unsigned j = 0; j < ci->kinds[i].ncpus; j++)
			if (ci->kinds[i].cpus[j] == cpu)
				return &ci->kinds[i];
	return NULL;
}
