/*
 * cpu/cpu_identify.c - what machine is this: libcpuid for the identity
 * (vendor, display family/model, stepping, brand), the hypervisor, the
 * CPUID bits of CPU 0 that decide the rest (PDCM, hybrid, leaf 0xA) and
 * the model table row; the core kinds and their counters and Top-down
 * follow in cpu/cpu_kinds.c.
 *
 * Hardware facts: Intel SDM Vol. 2A CPUID leaf 0AH (counters), 07H EDX[15]
 * and 1AH (hybrid parts); the kernel's model table (linux
 * arch/x86/events/intel/core.c intel_pmu_init); SDM Vol. 4
 * IA32_PERF_CAPABILITIES; AMD APM Vol. 3 (leaf 0AH reserved on AMD);
 * libcpuid (cpu_identify, its hypervisor list).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libcpuid/libcpuid.h>

#include "cpu/cpu.h"
#include "cpu/identify_int.h"

#define LEAF_VENDOR       0x0u
#define LEAF_FEATURES     0x1u
#define LEAF_HV_VENDOR    0x40000000u
#define LEAF_EXT_BASE     0x80000000u

#define CPUID_1_ECX_PDCM       (1u << 15) /* IA32_PERF_CAPABILITIES exists (linux intel_pmu_init) */
#define CPUID_1_ECX_HYPERVISOR (1u << 31) /* running under a hypervisor */
#define CPUID_7_EDX_HYBRID     (1u << 15) /* X86_FEATURE_HYBRID_CPU (linux cpufeatures.h) */

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

enum cpu_vendor cpu_vendor_of(const char *vendor_str)
{
	if (!strcmp(vendor_str, "GenuineIntel"))
		return CPU_VENDOR_INTEL;
	if (!strcmp(vendor_str, "AuthenticAMD"))
		return CPU_VENDOR_AMD;
	return CPU_VENDOR_OTHER;
}

/* -------------------------------------------------------------- libcpuid */

static void quiet_warn(const char *msg)
{
	(void)msg;
}

/* A deterministic cache parameters list (leaf 4 / 0x8000001D) into @rows,
 * ending at the first null entry or the first repeated (level, type). */
static void cache_list(const struct cpu_source *src, unsigned cpu, uint32_t leaf,
		       uint32_t (*rows)[NUM_REGS], unsigned max)
{
	for (uint32_t s = 0; s < max; s++) {
		bool seen = false;

		if (cpu_source_cpuid(src, cpu, leaf, s, rows[s]) || !(rows[s][0] & 0x1f))
			goto end;
		for (uint32_t p = 0; p < s; p++)
			seen |= (rows[p][0] & 0xff) == (rows[s][0] & 0xff);
		if (seen)
			goto end;
		continue;
end:
		memset(rows[s], 0, sizeof(rows[s]));
		return;
	}
}

/* Leaf 4 entries libcpuid 0.6.2 can take (its NUM_CACHE_TYPES), below its
 * MAX_INTELFN4_LEVEL of 8 (raw_fill). */
#define LIBCPUID_FN4_SAFE 5u
_Static_assert(LIBCPUID_FN4_SAFE <= MAX_INTELFN4_LEVEL, "leaf 4 list fits libcpuid's raw record");

/* Fill libcpuid's raw record of @cpu from the source, so that live and dump
 * go through the same switch point.  Leaves the source lacks stay zero. */
static void raw_fill(const struct cpu_source *src, unsigned cpu, struct cpu_raw_data_t *raw)
{
	memset(raw, 0, sizeof(*raw));
	for (uint32_t l = 0; l < MAX_CPUID_LEVEL; l++)
		cpu_source_cpuid(src, cpu, l, 0, raw->basic_cpuid[l]);
	for (uint32_t l = 0; l < MAX_EXT_CPUID_LEVEL; l++)
		cpu_source_cpuid(src, cpu, LEAF_EXT_BASE + l, 0, raw->ext_cpuid[l]);
	/* Subleaf lists end where the hardware ends them (SDM CPUID leaf 4 and
	 * AMD 0x8000001D: cache type EAX[4:0] = 0; leaf 0xB: level type
	 * ECX[15:8] = 0), and the hardware lists each cache once (level
	 * EAX[7:5], type EAX[4:0]) and each topology level at its own subleaf
	 * (ECX[7:0] = the subleaf) with at least one logical processor in it
	 * (EBX[15:0]).  Nothing past that is handed to libcpuid, whose 0.6.2
	 * decoder trusts what it gets: a dump answering every subleaf of leaf
	 * 4 with one cache smashed its stack (found by fuzz-cpuid-dump; seed
	 * fuzz/seeds/cpuid-dump/libcpuid-leaf4-repeated), and an SMT level of
	 * 0 logical processors divided by zero (decode_intel_extended_topology:
	 * num_core / num_smt; seed .../aida64-leafb-zero-smt).  Leaf 4 goes
	 * over at most LIBCPUID_FN4_SAFE entries: 0.6.2's
	 * decode_deterministic_cache_info_x86 indexes a 5-slot array
	 * (NUM_CACHE_TYPES) with the subleaf, so a 6th entry wrote past it
	 * (stack smash, found by an audit of the library; seed
	 * .../hwloc-leaf4-six).  Hardware lists at most L1d, L1i, L2, L3 and
	 * an L4: 5.  intel_fn12h and intel_fn14h are never filled: 0.6.2's
	 * leaf 0xB scan runs on into them while EAX and EBX are non-zero, and
	 * its SGX walk runs host CPUID from leaf 0x12's sections. */
	cache_list(src, cpu, 0x4, raw->intel_fn4, LIBCPUID_FN4_SAFE);
	cache_list(src, cpu, 0x8000001du, raw->amd_fn8000001dh, MAX_AMDFN8000001DH_LEVEL);
	for (uint32_t s = 0; s < MAX_INTELFN11_LEVEL; s++)
		if (cpu_source_cpuid(src, cpu, 0xb, s, raw->intel_fn11[s]) ||
		    !(raw->intel_fn11[s][2] & 0xff00) || (raw->intel_fn11[s][2] & 0xff) != s ||
		    !(raw->intel_fn11[s][1] & 0xffff)) {
			memset(raw->intel_fn11[s], 0, sizeof(raw->intel_fn11[s]));
			break;
		}
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
	 * (id->model is only the base nibble: libcpuid's struct cpu_id_t). */
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
 * NULL on bare metal (CPUID.1:ECX[31] clear).  Otherwise the signature of
 * leaf 0x40000000, live or from a dump that holds it (`baretma cpuid dump`
 * writes the hypervisor leaves; libcpuid's cpuid_get_hypervisor() would
 * execute CPUID on this machine instead); "unknown" when absent.
 */
const char *cpu_hypervisor_name(const uint32_t regs[4])
{
	char sig[12];

	memcpy(sig, &regs[1], 4);
	memcpy(sig + 4, &regs[2], 4);
	memcpy(sig + 8, &regs[3], 4);
	for (size_t i = 0; i < sizeof(hv_names) / sizeof(hv_names[0]); i++)
		if (!memcmp(sig, hv_names[i].sig, sizeof(sig)))
			return hv_names[i].name;
	return "unknown";
}

void cpu_hypervisor_signature(const uint32_t regs[4], char sig[CPU_HV_SIG_LEN])
{
	memcpy(sig, &regs[1], 4);
	memcpy(sig + 4, &regs[2], 4);
	memcpy(sig + 8, &regs[3], 4);
	sig[12] = '\0';
}

/*
 * How the kernel names the hypervisor it detected (linux
 * arch/x86/kernel/cpu/: each struct hypervisor_x86's .name, printed as
 * "Hypervisor detected: %s" by hypervisor.c init_hypervisor_platform; the
 * word of /sys/hypervisor/type, drivers/xen/sys-hypervisor.c) beside the
 * name hv_names gives the same hypervisor by its CPUID signature.
 */
static const struct {
	const char *kernel, *cpuid;
} hv_kernel_names[] = {
	{ "Microsoft Hyper-V", "Hyper-V" }, /* mshyperv.c */
	{ "Xen PV", "Xen" },                /* arch/x86/xen/enlighten_pv.c */
	{ "Xen HVM", "Xen" },               /* arch/x86/xen/enlighten_hvm.c */
	{ "xen", "Xen" },                   /* /sys/hypervisor/type */
};

bool cpu_hypervisor_agree(const char *cpuid_name, const char *kernel_name)
{
	if (!cpuid_name || !kernel_name)
		return false;
	for (size_t i = 0; i < sizeof(hv_kernel_names) / sizeof(hv_kernel_names[0]); i++)
		if (!strcmp(kernel_name, hv_kernel_names[i].kernel))
			return !strcmp(cpuid_name, hv_kernel_names[i].cpuid);
	/* "KVM", "VMware" are the same words; bhyve.c says "Bhyve" */
	return !strcasecmp(cpuid_name, kernel_name);
}

static const char *hypervisor_name(const struct cpu_source *src, uint32_t leaf1_ecx,
				   char sig[CPU_HV_SIG_LEN])
{
	uint32_t r[4];

	sig[0] = '\0';
	if (!(leaf1_ecx & CPUID_1_ECX_HYPERVISOR))
		return NULL;
	if (cpu_source_cpuid(src, 0, LEAF_HV_VENDOR, 0, r))
		return "unknown";
	cpu_hypervisor_signature(r, sig);
	return cpu_hypervisor_name(r);
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
	out->hypervisor = hypervisor_name(src, r[2], out->hypervisor_sig);
	if (!cpu_source_cpuid(src, 0, LEAF_EXT_FEATURES, 0, r))
		out->hybrid = r[3] & CPUID_7_EDX_HYBRID;
	/* Leaf 0xA is Intel's (AMD's counters: 0x80000022, linux arch/x86/events/amd/core.c;
	 * what AMD's leaf 0xA holds: no primary source found): decoded on Intel only. */
	if (out->vendor == CPU_VENDOR_INTEL && !cpu_source_cpuid(src, 0, LEAF_ARCH_PERFMON, 0, r))
		cpu_pmu_arch_decode(r, &out->pmu);
	out->row = cpu_model_lookup(out->vendor, out->family, out->model);
	if (perf_caps) {
		out->perf_caps_read = true;
		out->perf_caps = *perf_caps;
	}
	return cpu_kinds_build(src, out, perf_caps);
}
