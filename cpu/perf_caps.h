/*
 * cpu/perf_caps.h - the bits of IA32_PERF_CAPABILITIES (MSR 0x345) that
 * identification and the MSR layer both use.  Here, in the bottom layer,
 * because cpu/ decides what a CPU has from them and includes nothing from
 * msr/; msr/regs/intel_regs.h includes this file, so it stays the one place
 * where register layouts are looked up.
 * Source: linux arch/x86/events/perf_event.h union perf_capabilities,
 * arch/x86/include/asm/msr-index.h PERF_CAP_*.
 */
#ifndef BARETMA_PERF_CAPS_H
#define BARETMA_PERF_CAPS_H

#define PERF_CAP_FULL_WIDTH_WRITE    (1ull << 13) /* writes to IA32_A_PMCx */
#define PERF_CAP_PERF_METRICS        (1ull << 15) /* PERF_CAP_METRICS_IDX: IA32_PERF_METRICS */
#define PERF_CAP_RDPMC_METRICS_CLEAR (1ull << 19) /* RDPMC metrics-clear mode, Lion Cove+ */

#endif
