/*
 * msr/recipe/recipe_int.h - the recipe tables, one per file
 * (msr/recipe/recipes_intel_pm.c, msr/recipe/recipes_intel.c,
 * msr/recipe/recipes_intel_icl.c, msr/recipe/recipes_intel_ecore.c,
 * msr/recipe/recipes_amd.c), registered in one table of tables in
 * msr/recipe/recipe.c (recipe_tables[], as hwloc's
 * hwloc_static_components[]: its order is recipe_at's), and what
 * msr/recipe/recipe.c, msr/recipe/recipe_tokens.c and
 * msr/recipe/recipe_passes.c share.  A new table is one more file and one
 * more line here and in recipe_tables[].
 */
#ifndef BARETMA_RECIPE_INT_H
#define BARETMA_RECIPE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msr/recipe/recipe.h"

/* One file's recipes. */
struct recipe_table {
	const struct recipe *recipes;
	size_t n;
};

extern const struct recipe_table recipes_intel_pm_table; /* msr/recipe/recipes_intel_pm.c */
extern const struct recipe_table recipes_intel_table;    /* msr/recipe/recipes_intel.c */
extern const struct recipe_table recipes_intel_icl_table; /* msr/recipe/recipes_intel_icl.c */
extern const struct recipe_table recipes_intel_ecore_table; /* msr/recipe/recipes_intel_ecore.c */
extern const struct recipe_table recipes_amd_table;      /* msr/recipe/recipes_amd.c */

/* A recipe whose counts fit the fixed arrays of msr/recipe/recipe.h. */
static inline bool recipe_ok(const struct recipe *r)
{
	return r && r->nevents <= RECIPE_EVENTS_MAX && r->nnodes <= RECIPE_NODES_MAX;
}

/* One token of a formula (msr/recipe/recipe_tokens.c). */
enum rtok_kind {
	RT_END,     /* the end of the text (after trailing blanks) */
	RT_CHAR,    /* any other character: .aux */
	RT_NUM,     /* a number: .num */
	RT_BADNUM,  /* a malformed number (the tokens end after it) */
	RT_MIN, RT_MAX, RT_DRATIO, /* min/max/d_ratio followed by "(" */
	RT_WIDTH, RT_SMT,
	RT_NODE,    /* node .aux of the recipe */
	RT_EVENT,   /* event .aux of the recipe */
	RT_UNKNOWN, /* a name that is none of those */
};
#define RT_IF   1 /* .flags: the name is exactly "if" */
#define RT_ELSE 2 /* .flags: the name is exactly "else" */

struct rtok {
	double num;
	uint32_t off, end;  /* byte offsets of its first character and past its last */
	uint8_t kind, flags, aux;
};

/* The tokens of a table recipe's formulas, built once. */
struct rtok_recipe {
	const struct rtok *node[RECIPE_NODES_MAX]; /* NULL: the node has no formula */
	int slots;                                 /* the "SLOTS" node, or -ENOENT */
	int8_t frac[RECIPE_NODES_MAX];             /* its enum td_metric, or -1 */
	struct rtok toks[];
};

/*
 * recipe_tokenise - cut @text into tokens, names resolved against @r (NULL:
 * none but the built-ins); the first @cap into @out; returns how many there
 * are, the RT_END included.
 */
size_t recipe_tokenise(const struct recipe *r, const char *text, struct rtok *out, size_t cap);

/* recipe_tokens - the cached tokens of table recipe @r, or NULL (not a table recipe). */
const struct rtok_recipe *recipe_tokens(const struct recipe *r);

/* The number of elements of a table array. */
#define RECIPE_N(a) ((unsigned)(sizeof(a) / sizeof((a)[0])))

#endif
