/*
 * cpu/cpu_identify.c - what machine is this: libcpuid for the identity,
 * CPUID leaf 0xA for the architectural PMU, leaf 0x1A for hybrid core
 * kinds, the model table for microarchitecture and Top-down level.
 *
 * Hardware facts: ../shared/reference/pmu-reference.md §2 (leaf 0xA §2.1,
 * hybrid §2.3, kernel rules §2.4, model table §2.5), §1.6
 * (IA32_PERF_CAPABILITIES), linux arch/x86/include/asm/intel-family.h
 * (core types, native model ids).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libcpuid/libcpuid.h>

#include "cpu/cpu.h"
#include "msr/intel_regs.h"

#define LEAF_VENDOR       0x0u
#define LEAF_FEATURES     0x1u
#define LEAF_EXT_FEATURES 0x7u
#define LEAF_ARCH_PERFMON 0xAu
#define LEAF_HYBRID       0x1Au
#define LEAF_HV_VENDOR    0x40000000u
#define LEAF_EXT_BASE     0x80000000u

#define CPUID_1_ECX_PDCM       (1u << 15) /* IA32_PERF_CAPABILITIES exists (§1.6) */
#define CPUID_1_ECX_HYPERVISOR (1u << 31) /* running under a hypervisor */
#define CPUID_7_EDX_HYBRID     (1u << 15) /* X86_FEATURE_HYBRID_CPU (§2.3) */

/* CPUID.1AH:EAX (§2.3; [FAM] enum intel_cpu_type, enum intel_native_id) */
#define HYBRID_CORE_TYPE(eax)    ((eax) >> 24)
#define HYBRID_NATIVE_MODEL(eax) ((eax) & 0xffffffu)
#define INTEL_CPU_TYPE_ATOM      0x20u
#define INTEL_CPU_TYPE_CORE      0x40u
#define INTEL_ATOM_CMT_NATIVE_ID 0x2u /* Crestmont */
#define INTEL_ATOM_SKT_NATIVE_ID 0x3u /* Skymont */

/* Leaf 0xA EBX bit 7: TOPDOWN.SLOTS NOT available (§2.1, [KVMST]) */
#define ARCH_EVENT_TOPDOWN_SLOTS 7u

const char *cpu_vendor_name(enum cpu_vendor v)
{
	switch (v) {
	case CPU_VENDOR_INTEL:
		return "Intel";
	case CPU_VENDOR_AMD:
		return "AMD";
	default:
		return "other";
	}
}

/* ------------------------------------------------------------- leaf 0xA */

void cpu_pmu_arch_decode(const uint32_t regs[4], struct cpu_pmu_arch *out)
{
	memset(out, 0, sizeof(*out));
	out->version = regs[0] & 0xff;
	out->gp_counters = (regs[0] >> 8) & 0xff;
	out->gp_width = (regs[0] >> 16) & 0xff;
	out->ebx_len = (regs[0] >> 24) & 0xff;
	out->ebx = regs[1];
	/* ECX enumerates the fixed counters from version 5 on (§2.1). */
	out->fixed_mask = out->version >= 5 ? regs[2] : 0;
	out->fixed_counters = regs[3] & 0x1f;
	out->fixed_width = (regs[3] >> 5) & 0xff;
	out->topdown_slots = out->ebx_len > ARCH_EVENT_TOPDOWN_SLOTS &&
			     !(regs[1] & (1u << ARCH_EVENT_TOPDOWN_SLOTS));
}

bool cpu_pmu_has_fixed(const struct cpu_pmu_arch *p, unsigned i)
{
	if (i < 32 && (p->fixed_mask & (1u << i)))
		return true;
	return p->fixed_counters > i;
}

/* -------------------------------------------------------------- libcpuid */

static void quiet_warn(const char *msg)
{
	(void)msg;
}

/* Fill libcpuid's raw record of @cpu from the source, so that live and dump
 * go through the same switch point.  Leaves the source lacks stay zero. */
static void raw_fill(const struct cpu_source *src, unsigned cpu, struct cpu_raw_data_t *raw)
{
	memset(raw, 0, sizeof(*raw));
	for (uint32_t l = 0; l < MAX_CPUID_LEVEL; l++)
		cpu_source_cpuid(src, cpu, l, 0, raw->basic_cpuid[l]);
	for (uint32_t l = 0; l < MAX_EXT_CPUID_LEVEL; l++)
		cpu_source_cpuid(src, cpu, LEAF_EXT_BASE + l, 0, raw->ext_cpuid[l]);
	for (uint32_t s = 0; s < MAX_INTELFN4_LEVEL; s++)
		cpu_source_cpuid(src, cpu, 0x4, s, raw->intel_fn4[s]);
	for (uint32_t s = 0; s < MAX_INTELFN11_LEVEL; s++)
		cpu_source_cpuid(src, cpu, 0xb, s, raw->intel_fn11[s]);
	for (uint32_t s = 0; s < MAX_AMDFN8000001DH_LEVEL; s++)
		cpu_source_cpuid(src, cpu, 0x8000001du, s, raw->amd_fn8000001dh[s]);
}

static void copy_trimmed(char *dst, size_t n, const char *s)
{
	size_t len;

	while (*s == ' ')
		s++;
	snprintf(dst, n, "%s", s);
	len = strlen(dst);
	while (len && dst[len - 1] == ' ')
		dst[--len] = '\0';
}

/* Vendor, display family/model, stepping and brand of CPU 0 from libcpuid. */
static int identity_from_libcpuid(const struct cpu_source *src, struct cpu_info *out)
{
	struct cpu_raw_data_t *raw = malloc(sizeof(*raw));
	struct cpu_id_t *id = malloc(sizeof(*id));
	libcpuid_warn_fn_t old;
	int err = 0;

	if (!raw || !id) {
		err = -ENOMEM;
		goto out;
	}
	raw_fill(src, 0, raw);
	old = cpuid_set_warn_function(quiet_warn);
	if (cpu_identify(raw, id) < 0) /* libcpuid's */
		err = -EINVAL;
	cpuid_set_warn_function(old);
	if (err)
		goto out;
	out->vendor = id->vendor == VENDOR_INTEL ? CPU_VENDOR_INTEL
		    : id->vendor == VENDOR_AMD ? CPU_VENDOR_AMD : CPU_VENDOR_OTHER;
	snprintf(out->vendor_str, sizeof(out->vendor_str), "%s", id->vendor_str);
	/* Display values: ext_family/ext_model include the extended fields
	 * (id->model is only the base nibble: ../shared/cpuid/README.md). */
	out->family = (unsigned)id->ext_family;
	out->model = (unsigned)id->ext_model;
	out->stepping = (unsigned)id->stepping;
	copy_trimmed(out->brand, sizeof(out->brand), id->brand_str);
out:
	free(raw);
	free(id);
	return err;
}

/* ------------------------------------------------------------ hypervisor */

static const struct {
	const char sig[13];
	const char *name;
} hv_names[] = {
	/* CPUID.40000000H:EBX,ECX,EDX signatures (libcpuid's hypervisor list) */
	{ "bhyve bhyve ", "bhyve" },
	{ "Microsoft Hv", "Hyper-V" },
	{ "KVMKVMKVM\0\0\0", "KVM" },
	{ " lrpepyh  vr", "Parallels" },
	{ "TCGTCGTCGTCG", "QEMU" },
	{ "VBoxVBoxVBox", "VirtualBox" },
	{ "VMwareVMware", "VMware" },
	{ "XenVMMXenVMM", "Xen" },
};

/*
 * NULL on bare metal (CPUID.1:ECX[31] clear).  Live: the signature of
 * leaf 0x40000000.  Dumps do not hold the hypervisor leaves (and libcpuid's
 * cpuid_get_hypervisor() would execute CPUID on this machine), so a dump
 * taken under a hypervisor says "unknown".
 */
static const char *hypervisor_name(const struct cpu_source *src, uint32_t leaf1_ecx)
{
	uint32_t r[4];
	char sig[12];

	if (!(leaf1_ecx & CPUID_1_ECX_HYPERVISOR))
		return NULL;
	if (!cpu_source_is_live(src) || cpu_source_cpuid(src, 0, LEAF_HV_VENDOR, 0, r))
		return "unknown";
	memcpy(sig, &r[1], 4);
	memcpy(sig + 4, &r[2], 4);
	memcpy(sig + 8, &r[3], 4);
	for (size_t i = 0; i < sizeof(hv_names) / sizeof(hv_names[0]); i++)
		if (!memcmp(sig, hv_names[i].sig, sizeof(sig)))
			return hv_names[i].name;
	return "unknown";
}

/* ------------------------------------------------------------ core kinds */

/* E-core microarchitecture: by native model id where the kernel names it
 * ([FAM] enum intel_native_id; widths §6.3), else the table's E-core. */
static void kind_fill_atom(const struct cpu_model *m, struct cpu_kind *k)
{
	if (k->native_model == INTEL_ATOM_CMT_NATIVE_ID) {
		k->uarch = "Crestmont";
		k->pipeline_width = 6;
	} else if (k->native_model == INTEL_ATOM_SKT_NATIVE_ID) {
		k->uarch = "Skymont";
		k->pipeline_width = 8;
	} else if (m && m->e_uarch) {
		k->uarch = m->e_uarch;
		k->pipeline_width = m->e_pipeline_width;
	}
	/*
	 * E-cores never have PERF_METRICS (§2.5 notes).  No FC3 either:
	 * Gracemont/Crestmont have event-based Top-down only (§6.3), and the
	 * Skymont E-cores of the ARL-S/LNL dumps enumerate fixed counters
	 * 0-2 and 4-6 but not 3 (CPUID.23H.1:EBX = 0x77 for core type 0x20,
	 * ../shared/cpuid/INDEX.tsv leaf23 column).
	 */
	k->fixed_ctr3 = false;
	k->topdown_level = 0;
}

static void kind_fill(const struct cpu_info *ci, struct cpu_kind *k, const uint64_t *perf_caps)
{
	const struct cpu_model *m = ci->row;
	bool metrics_cap = perf_caps && (*perf_caps & PERF_CAP_PERF_METRICS);

	k->uarch = "unknown";
	k->pipeline_width = 0;
	k->fixed_ctr3 = false;
	k->topdown_level = 0;
	if (ci->vendor != CPU_VENDOR_INTEL) {
		/* AMD and others: no FC3, no PERF_METRICS (§7). */
		if (m) {
			k->uarch = m->uarch;
			k->pipeline_width = m->pipeline_width;
		}
		return;
	}
	if (ci->hybrid && k->core_type != INTEL_CPU_TYPE_CORE) {
		kind_fill_atom(m, k);
		return;
	}
	if (m) {
		/* The table is the authority (ADL/RPL leaf 0xA hides FC3, §2.1). */
		k->uarch = m->uarch;
		k->pipeline_width = m->pipeline_width;
		k->fixed_ctr3 = m->fixed_ctr3;
		k->topdown_level = m->topdown_level;
		/* Non-hybrid product lines: the kernel also requires
		 * PERF_CAPABILITIES[15] (§2.4 rule 1).  Hybrid lines report it
		 * unreliably (§1.6), so it is not consulted there. */
		if (perf_caps && !m->hybrid && !metrics_cap)
			k->topdown_level = 0;
		return;
	}
	/*
	 * Intel model not in the table: FC3 from leaf 0xA (§2.1); PERF_METRICS
	 * only when IA32_PERF_CAPABILITIES[15] says so, and then level 1 only
	 * (level 2 is known from the model alone).  Without perf_caps it is
	 * undecidable from CPUID: level 0, the safe choice (the kernel also
	 * enables no metrics on unknown models, §2.4 rule 4).
	 */
	k->fixed_ctr3 = cpu_pmu_has_fixed(&ci->pmu, 3) && ci->pmu.topdown_slots;
	k->topdown_level = k->fixed_ctr3 && metrics_cap ? 1 : 0;
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
 * kernel's third hybrid PMU cpu_lowpower (§2.3).
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

/* Hybrid parts: group the logical CPUs by CPUID.1AH:EAX (§2.3). */
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

static int kinds_build(const struct cpu_source *src, struct cpu_info *ci, const uint64_t *perf_caps)
{
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
		kind_fill(ci, &ci->kinds[i], perf_caps);
	return err;
}

/* -------------------------------------------------------------- identify */

int cpu_info_identify(const struct cpu_source *src, const uint64_t *perf_caps, struct cpu_info *out)
{
	uint32_t r[4];
	int err;

	memset(out, 0, sizeof(*out));
	err = identity_from_libcpuid(src, out);
	if (err)
		return err;
	out->ncpus = cpu_source_ncpus(src);
	err = cpu_source_cpuid(src, 0, LEAF_VENDOR, 0, r);
	if (err)
		return err;
	out->max_basic_leaf = r[0];
	err = cpu_source_cpuid(src, 0, LEAF_FEATURES, 0, r);
	if (err)
		return err;
	out->pdcm = r[2] & CPUID_1_ECX_PDCM;
	out->hypervisor = hypervisor_name(src, r[2]);
	if (!cpu_source_cpuid(src, 0, LEAF_EXT_FEATURES, 0, r))
		out->hybrid = r[3] & CPUID_7_EDX_HYBRID;
	/* Leaf 0xA is reserved on AMD (§7): decoded on Intel only. */
	if (out->vendor == CPU_VENDOR_INTEL && !cpu_source_cpuid(src, 0, LEAF_ARCH_PERFMON, 0, r))
		cpu_pmu_arch_decode(r, &out->pmu);
	out->row = cpu_model_lookup(out->vendor, out->family, out->model);
	if (perf_caps) {
		out->perf_caps_read = true;
		out->perf_caps = *perf_caps;
	}
	return kinds_build(src, out, perf_caps);
}

const struct cpu_kind *cpu_info_kind_of(const struct cpu_info *ci, unsigned cpu)
{
	for (unsigned i = 0; i < ci->nkinds; i++)
		for (unsigned j = 0; j < ci->kinds[i].ncpus; j++)
			if (ci->kinds[i].cpus[j] == cpu)
				return &ci->kinds[i];
	return NULL;
}
