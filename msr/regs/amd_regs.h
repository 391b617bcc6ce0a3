/*
 * msr/regs/amd_regs.h - AMD PerfMonV2 core PMU registers and bit fields (Zen 4,
 * Zen 5): the one place where their numbers live, as msr/regs/intel_regs.h is
 * for Intel's.  Sources:
 *   [MSRIDX]  linux arch/x86/include/asm/msr-index.h (MSR_F15H_PERF_CTL,
 *             MSR_F15H_PERF_CTR, MSR_AMD64_PERF_CNTR_GLOBAL_*)
 *   [PEH]     linux arch/x86/include/asm/perf_event.h (AMD64_EVENTSEL_*,
 *             ARCH_PERFMON_EVENTSEL_*)
 *   [AMDCORE] linux arch/x86/events/amd/core.c (amd_pmu_v2_enable_all,
 *             amd_pmu_v2_disable_all, amd_pmu_ack_global_status,
 *             amd_pmu_v2_enable_event)
 *   [PPR]     AMD Processor Programming Reference for family 19h / 1Ah,
 *             Core::X86::Msr::PERF_CTL, PERF_CTR, PerfCntrGlobal*
 * PerfMonV2 is CPUID 0x80000022 EAX[0]; EBX[3:0] the number of core
 * counters (cpu/cpu.h struct cpu_kind.perfmon_v2, gp_mask).
 */
#ifndef BARETMA_AMD_REGS_H
#define BARETMA_AMD_REGS_H

/* Core counters: PERF_CTL i at 0xC0010200 + 2i, PERF_CTR i at 0xC0010201 + 2i
 * ([MSRIDX] MSR_F15H_PERF_CTL0..5 / MSR_F15H_PERF_CTR0..5; six of them:
 * AMD64_NUM_COUNTERS_CORE). */
#define AMD_PERF_CTL0              0xc0010200u
#define AMD_PERF_CTR0              0xc0010201u
#define AMD_PERF_CTL(i)            (AMD_PERF_CTL0 + 2u * (unsigned)(i))
#define AMD_PERF_CTR(i)            (AMD_PERF_CTR0 + 2u * (unsigned)(i))
#define AMD_GP_MAX                 6u

/* PerfMonV2 global registers ([MSRIDX] MSR_AMD64_PERF_CNTR_GLOBAL_*).
 * GLOBAL_STATUS is read-only ("PerfCntrGlobalStatus is read-only",
 * [AMDCORE] amd_pmu_get_global_status); a 1 written to STATUS_CLR clears
 * that bit of GLOBAL_STATUS (amd_pmu_ack_global_status), STATUS_SET sets it. */
#define AMD_PERF_CNTR_GLOBAL_STATUS     0xc0000300u
#define AMD_PERF_CNTR_GLOBAL_CTL        0xc0000301u
#define AMD_PERF_CNTR_GLOBAL_STATUS_CLR 0xc0000302u
#define AMD_PERF_CNTR_GLOBAL_STATUS_SET 0xc0000303u

/* PERF_CTL fields ([PEH] AMD64_EVENTSEL_EVENT = ARCH_PERFMON_EVENTSEL_EVENT |
 * 0x0F << 32; the other fields at Intel's positions; [AMDCORE]). */
#define AMD_PERF_CTL_EVENT_LO      0xffull          /* EventSelect[7:0] */
#define AMD_PERF_CTL_EVENT_HI_SHIFT 32u              /* EventSelect[11:8] at 35:32 */
#define AMD_PERF_CTL_EVENT_HI      (0xfull << AMD_PERF_CTL_EVENT_HI_SHIFT)
#define AMD_PERF_CTL_UMASK_SHIFT   8u
#define AMD_PERF_CTL_USR           (1ull << 16)
#define AMD_PERF_CTL_OS            (1ull << 17)
#define AMD_PERF_CTL_EDGE          (1ull << 18)
#define AMD_PERF_CTL_INT           (1ull << 20)
#define AMD_PERF_CTL_EN            (1ull << 22)
#define AMD_PERF_CTL_INV           (1ull << 23)
#define AMD_PERF_CTL_CMASK_SHIFT   24u
#define AMD_PERF_CTL_GUESTONLY     (1ull << 40)     /* [PEH] AMD64_EVENTSEL_GUESTONLY */
#define AMD_PERF_CTL_HOSTONLY      (1ull << 41)     /* [PEH] AMD64_EVENTSEL_HOSTONLY */
#define AMD_COUNTER_WIDTH          48u              /* [PPR] PERF_CTR[47:0]; cpu/cpu_kinds.c */

#endif
