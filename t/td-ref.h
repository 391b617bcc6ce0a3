/*
 * t/td-ref.h - PERF_METRICS arithmetic worked from the sources, for the
 * tests that check bench/region_stats.c and msr/recipe/topdown.c against
 * it (t/1141, t/1142): a field's slots, slots x field / sum in long double
 * (linux tools/perf/Documentation/topdown.txt: each field a fraction of
 * TOPDOWN.SLOTS, normalised by the level-1 sum); the value bound
 * (1 + |S - 255|) / 255 of a sum S (1 with no fields); the 8-bit field i
 * of a PERF_METRICS value (SDM Vol. 3B 21.3.9.3: bits 8i+7:8i); the
 * level-1 sum of fields 0-3.
 */
#ifndef BARETMA_T_TD_REF_H
#define BARETMA_T_TD_REF_H

#include <stdint.h>

static inline double fslots(uint64_t slots, unsigned f, unsigned s)
{
	return s ? (double)((long double)slots * f / s) : 0;
}

static inline double vbound(unsigned s)
{
	return s ? (1.0 + (s > 255 ? s - 255 : 255 - s)) / 255 : 1.0;
}

static inline unsigned byte(uint64_t m, unsigned i)
{
	return (unsigned)(m >> (8 * i)) & 0xff;
}

static inline unsigned l1(uint64_t m)
{
	return byte(m, 0) + byte(m, 1) + byte(m, 2) + byte(m, 3);
}

#endif
