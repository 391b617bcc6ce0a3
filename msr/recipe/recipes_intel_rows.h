/*
 * msr/recipe/recipes_intel_rows.h - the row macros of the Intel recipe tables
 * (msr/recipe/recipes_intel.c, msr/recipe/recipes_intel_pm.c,
 * msr/recipe/recipes_intel_icl.c, msr/recipe/recipes_intel_ecore.c): an event row (GP: a general-purpose
 * counter, FX: a fixed counter), a node row (N), the level-1 names, and the
 * counter constraints.  Data only (msr/recipe/recipe.h); the source keys a
 * row cites ([PM-x], [CSV] ...) are listed at the top of the file that holds it.
 */
#ifndef BARETMA_RECIPES_INTEL_ROWS_H
#define BARETMA_RECIPES_INTEL_ROWS_H

#include "msr/recipe/recipe_int.h"

#define I CPU_VENDOR_INTEL

#define GP(nm, ev, um, src, ...) \
	{ .name = (nm), .ctr = RECIPE_CTR_GP, .event = (ev), .umask = (um), .source = (src), \
	  __VA_ARGS__ }
#define FX(nm, idx, ev, um, src, ...) \
	{ .name = (nm), .ctr = RECIPE_CTR_FIXED, .fixed = (idx), .event = (ev), .umask = (um), \
	  .source = (src), __VA_ARGS__ }
#define N(m, lvl, par, ex, src) \
	{ .metric = (m), .level = (lvl), .parent = (par), .expr = (ex), .source = (src) }

#define L1 1
#define L2 2
#define FE "tma_frontend_bound"
#define BAD "tma_bad_speculation"
#define BE "tma_backend_bound"
#define RET "tma_retiring"

/*
 * Counter constraints (msr/recipe/recipe.h .counters, .counters_ht_off), from
 * each row's [PM-x] "Counter" (SMT on) and "CounterHTOff" (SMT off); the
 * files of Ice Lake and later and of the E-cores have no CounterHTOff (8
 * or 6 counters a thread whatever SMT): their "Counter" holds for both.
 * Bit i = GP counter i.  t/1040 compares every row with the vendors'
 * files (t/data/vendor-events.tsv); a fixed-counter row has none.
 */
#define C03_07 .counters = 0x0F, .counters_ht_off = 0xFF /* "0,1,2,3" / "0,1,2,3,4,5,6,7" */
#define C03    .counters = 0x0F, .counters_ht_off = 0x0F /* "0,1,2,3" (/ "0,1,2,3") */
#define C07    .counters = 0xFF, .counters_ht_off = 0xFF /* "0,1,2,3,4,5,6,7" */
#define C05    .counters = 0x3F, .counters_ht_off = 0x3F /* "0,1,2,3,4,5" */
#define C0     .counters = 0x01, .counters_ht_off = 0x01 /* "0" */

#endif
