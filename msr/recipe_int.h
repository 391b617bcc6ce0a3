/*
 * msr/recipe_int.h - the recipe tables, one array per vendor file
 * (msr/recipes_intel.c, msr/recipes_amd.c), read by msr/recipe.c only,
 * and what msr/recipe.c and msr/recipe_passes.c share.
 */
#ifndef BARETMA_RECIPE_INT_H
#define BARETMA_RECIPE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "msr/recipe.h"

extern const struct recipe recipes_intel[];
extern const size_t recipes_intel_count;
extern const struct recipe recipes_amd[];
extern const size_t recipes_amd_count;

/* A recipe whose counts fit the fixed arrays of msr/recipe.h. */
static inline bool recipe_ok(const struct recipe *r)
{
	return r && r->nevents <= RECIPE_EVENTS_MAX && r->nnodes <= RECIPE_NODES_MAX;
}

/* The number of elements of a table array. */
#define RECIPE_N(a) ((unsigned)(sizeof(a) / sizeof((a)[0])))

#endif
