/*
 * cpu/identify_int.h - what cpu/cpu_identify.c (the identity of the CPU)
 * and cpu/cpu_kinds.c (its core kinds and, per kind, counters and
 * Top-down) share, private to cpu/.
 */
#ifndef BARETMA_IDENTIFY_INT_H
#define BARETMA_IDENTIFY_INT_H

#include <stdint.h>

#include "cpu/cpu.h"

#define LEAF_EXT_FEATURES 0x7u
#define LEAF_ARCH_PERFMON 0xAu

/*
 * cpu_kinds_build - the core kinds of @ci (ci->kinds, ci->nkinds) and of
 * each its counters, microarchitecture and Top-down, from @src and the
 * identity cpu_info_identify() already put in @ci (vendor, family/model,
 * ncpus, max_basic_leaf, hybrid, hypervisor, row); @perf_caps as in
 * cpu_info_identify().  Sets ci->warning for models decided
 * architecturally or unknown.  Returns 0, or -E2BIG (more than
 * CPU_MAX_KINDS kinds).
 */
int cpu_kinds_build(const struct cpu_source *src, struct cpu_info *ci, const uint64_t *perf_caps);

#endif
