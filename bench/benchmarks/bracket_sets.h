/*
 * bench/benchmarks/bracket_sets.h - the RDPMC read set of each recipe's
 * level 1, as `make benchmark` times it (bench/benchmarks/bracket.c): what
 * one reading of an event recipe holds when its counters are read inline
 * (bench/source/source.h source_read_rdpmc_set: LFENCE; one RDPMC per
 * value; RDTSC; LFENCE).  Pure.
 */
#ifndef BARETMA_BRACKET_SETS_H
#define BARETMA_BRACKET_SETS_H

#include <stdint.h>

#include "bench/source/reading.h"
#include "msr/recipe/recipe.h"

/*
 * bracket_counters - the counters of the core a recipe is for, as the
 * benchmark assumes them: Intel 8 general-purpose counters (Ice Lake and
 * later, Gracemont and later E-cores: CPUID leaf 0xA EAX[15:8] of real
 * CPUID dumps, e.g. libcpuid's tests/) and fixed counters 0-6 (3: TOPDOWN.SLOTS where
 * PERF_METRICS is; 4-6: Skymont's, CPUID leaf 0x23); AMD the 6 of
 * PerfMonV2 on Zen 4 and Zen 5 (CPUID 0x80000022 EBX[3:0]), no fixed one.
 */
void bracket_counters(const struct recipe *r, uint32_t *gp_mask, uint32_t *fixed_mask);

/*
 * bracket_read_set - the read set of @r's level-1 events (recipe_needed
 * at level 1, SMT off) on the counters @gp_mask, @fixed_mask: the first
 * pass of recipe_passes (the level-1 events first, first fit in table
 * order), in that order: a fixed counter i read by RDPMC (1<<30)|i, a
 * general-purpose counter x by x (Intel SDM Vol. 2 RDPMC; linux
 * arch/x86/events/intel/core.c and amd/core.c rdpmc indices), each a 48-bit
 * counter; the PERF_METRICS fields one value, RDPMC 1<<29, after
 * TOPDOWN.SLOTS.  @npasses gets the passes level 1 needs (1 when it fits).
 * Returns 0 or -errno (of recipe_needed, recipe_passes, read_set_add).
 */
int bracket_read_set(const struct recipe *r, uint32_t gp_mask, uint32_t fixed_mask,
		     struct read_set *rs, int *npasses);

#endif
