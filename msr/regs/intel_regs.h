/*
 * msr/regs/intel_regs.h - Intel architectural PMU registers and bit fields.
 *
 * The one place where register numbers live; logic uses these names only.
 * Sources:
 *   [MSRIDX] linux arch/x86/include/asm/msr-index.h
 *   [PEH]    linux arch/x86/include/asm/perf_event.h
 *   [ICORE]  linux arch/x86/events/intel/core.c
 *   [SDM]    Intel SDM Vol. 3B ch. 20/21, Vol. 4 (as quoted by the above)
 */
#ifndef BARETMA_INTEL_REGS_H
#define BARETMA_INTEL_REGS_H

/* MSR addresses ([MSRIDX]) */
#define IA32_PMC0                   0x0c1u /* MSR_ARCH_PERFMON_PERFCTR0 */
#define IA32_PERFEVTSEL0            0x186u /* MSR_ARCH_PERFMON_EVENTSEL0 */
#define IA32_FIXED_CTR0             0x309u /* INST_RETIRED.ANY */
#define IA32_FIXED_CTR1             0x30au /* CPU_CLK_UNHALTED.THREAD */
#define IA32_FIXED_CTR2             0x30bu /* CPU_CLK_UNHALTED.REF_TSC */
#define IA32_FIXED_CTR3             0x30cu /* TOPDOWN.SLOTS (MSR_CORE_PERF_FIXED_CTR3) */
#define IA32_PERF_METRICS           0x329u /* MSR_PERF_METRICS */
#define IA32_PERF_CAPABILITIES      0x345u /* exists iff CPUID.1:ECX[15] PDCM */
#define IA32_FIXED_CTR_CTRL         0x38du /* MSR_CORE_PERF_FIXED_CTR_CTRL */
#define IA32_PERF_GLOBAL_STATUS     0x38eu /* read-only */
#define IA32_PERF_GLOBAL_CTRL       0x38fu
#define IA32_PERF_GLOBAL_STATUS_RESET 0x390u /* a.k.a. IA32_PERF_GLOBAL_OVF_CTRL; write 1 to clear */
#define IA32_PERF_GLOBAL_STATUS_SET 0x391u /* v4+ */
#define IA32_PERF_GLOBAL_INUSE      0x392u /* v4+, read-only */
#define IA32_A_PMC0                 0x4c1u /* MSR_IA32_PMC0: full-width alias of IA32_PMC0,
					    * iff IA32_PERF_CAPABILITIES[13] */

/* IA32_FIXED_CTR_CTRL: one 4-bit field per fixed counter at bits 4i+3:4i ([PEH]) */
#define FIXED_CTR_CTRL_STRIDE       4
#define FIXED_CTR_CTRL_EN_OS        0x1ull /* count at CPL 0 */
#define FIXED_CTR_CTRL_EN_USR       0x2ull /* count at CPL > 0 */
#define FIXED_CTR_CTRL_ANYTHR       0x4ull /* AnyThread; on FC3 of Lion Cove+: METRICS_CLEAR_EN */
#define FIXED_CTR_CTRL_PMI          0x8ull /* PMI on overflow */
#define FIXED_CTR_CTRL_FIELD_MASK   0xfull
#define FIXED_CTR_CTRL_SHIFT(i)     ((unsigned)(i) * FIXED_CTR_CTRL_STRIDE)
/* FC3's field is bits 15:12 ([PEH] INTEL_FIXED_BITS_STRIDE 4, intel_fixed_bits_by_idx) */
#define FIXED_CTR3_IDX              3u
#define FIXED_CTR3_FIELD_SHIFT      FIXED_CTR_CTRL_SHIFT(FIXED_CTR3_IDX)
#define FIXED_CTR3_FIELD_MASK       (FIXED_CTR_CTRL_FIELD_MASK << FIXED_CTR3_FIELD_SHIFT)

/* IA32_PERF_GLOBAL_CTRL / _STATUS / _STATUS_RESET bit positions ([PEH]) */
#define GLOBAL_FIXED_BIT(i)         (32u + (unsigned)(i)) /* INTEL_PMC_IDX_FIXED = 32 */
#define GLOBAL_CTRL_EN_FIXED3       (1ull << GLOBAL_FIXED_BIT(FIXED_CTR3_IDX)) /* bit 35 */
#define GLOBAL_CTRL_EN_PERF_METRICS (1ull << 48) /* GLOBAL_CTRL_EN_PERF_METRICS = BIT_ULL(48) */
#define GLOBAL_STATUS_OVF_FIXED3    (1ull << GLOBAL_FIXED_BIT(FIXED_CTR3_IDX)) /* bit 35 */
#define GLOBAL_STATUS_OVF_PERF_METRICS (1ull << 48) /* GLOBAL_STATUS_PERF_METRICS_OVF_BIT */

/* IA32_PERF_CAPABILITIES bits: cpu/perf_caps.h (identification reads them
 * too, and cpu/ includes nothing from msr/) */
#include "cpu/perf_caps.h"

/* IA32_PERFEVTSELx fields ([PEH] ARCH_PERFMON_EVENTSEL_*) */
#define PERFEVTSEL_EVENT_MASK       0xffull
#define PERFEVTSEL_UMASK_SHIFT      8u     /* bits 15:8 */
#define PERFEVTSEL_UMASK_MASK       (0xffull << PERFEVTSEL_UMASK_SHIFT)
#define PERFEVTSEL_USR              (1ull << 16)
#define PERFEVTSEL_OS               (1ull << 17)
#define PERFEVTSEL_EDGE             (1ull << 18)
#define PERFEVTSEL_INT              (1ull << 20)
#define PERFEVTSEL_ANY              (1ull << 21) /* AnyThread (arch perfmon v3; deprecated
						  * where CPUID.0AH:EDX[15], [PEH]
						  * cpuid10_edx anythread_deprecated) */
#define PERFEVTSEL_EN               (1ull << 22)
#define PERFEVTSEL_INV              (1ull << 23)
#define PERFEVTSEL_CMASK_SHIFT      24u    /* bits 31:24 */
#define PERFEVTSEL_CMASK_MASK       (0xffull << PERFEVTSEL_CMASK_SHIFT)

/* The architectural ranges of IA32_PERFEVTSELx / IA32_PMCx / IA32_A_PMCx
 * that baretma programs (x < 8; the SDM, Vol. 4 Table 2-2, continues them
 * contiguously with counters 8-9 at 0xC9-0xCA, 0x18E-0x18F, 0x4C9-0x4CA,
 * which Lion Cove enumerates: the in-use check reads them and the
 * simulator models them, msr/sim/msr_sim_int.h; linux uses the arch-perfmon
 * v6 aliases 0x1900 + 4x there, [MSRIDX] MSR_IA32_PMC_V6_*) and of
 * the fixed counters (IA32_FIXED_CTR0..6 at 0x309..0x30f: FC4-6 are
 * Skymont's TOPDOWN_BAD_SPECULATION.ALL, TOPDOWN_FE_BOUND.ALL and
 * TOPDOWN_RETIRING.ALL where CPUID leaf 0x23 enumerates them, intel/perfmon
 * LNL/events/lunarlake_skymont_core.json; [ICORE] x86_pmu_fixed_ctr_addr,
 * intel_skt_event_constraints). */
#define INTEL_GP_ARCH_MAX           8u
#define INTEL_FIXED_ARCH_MAX        7u

/* PERF_METRICS fields: eight 8-bit fractions of TOPDOWN.SLOTS, 0xff = 100 %
 * ([PEH] INTEL_PMC_IDX_TD_*; linux tools/perf/Documentation/topdown.txt) */
#define PERF_METRICS_FIELD_BITS     8u
#define PERF_METRICS_FIELD_MAX      0xffu
#define PERF_METRICS_NFIELDS        8u

/* RDPMC ECX encodings ([PEH]) */
#define RDPMC_FIXED_BASE            (1u << 30) /* INTEL_PMC_FIXED_RDPMC_BASE */
#define RDPMC_PERF_METRICS          (1u << 29) /* INTEL_PMC_FIXED_RDPMC_METRICS */
#define RDPMC_ECX_SLOTS             (RDPMC_FIXED_BASE | FIXED_CTR3_IDX)

/* CPUID leaves used ([PEH] cpuid10_*, cpuid35_*; [ICORE] intel_pmu_init) */
#define CPUID_LEAF_FEATURES         0x01u /* ECX[15] PDCM ([ICORE] intel_pmu_init) */
#define CPUID_LEAF_ARCH_PERFMON     0x0au
#define CPUID_LEAF_HYBRID           0x1au
#define CPUID_LEAF_ARCH_PERFMON_EXT 0x23u
#define CPUID_0A_EBX_TOPDOWN_SLOTS  7u /* EBX bit i = 1 means event i NOT available */
#define CPUID_01_ECX_PDCM           (1u << 15)
#define CPUID_07_EDX_HYBRID         (1u << 15)
#define CPUID_01_ECX_HYPERVISOR     (1u << 31)

#endif
