/*
 * bench/cli/cmd_decode.h - the files of `baretma decode`: PERF_METRICS
 * values and regions (bench/cli/cmd_decode.c, which parses every option)
 * and recipes computed from raw counts (bench/cli/cmd_decode_recipe.c).
 * Command-line layer: these print.
 */
#ifndef BARETMA_CMD_DECODE_H
#define BARETMA_CMD_DECODE_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/cli/cli.h"

#define DECODE_COUNTS_MAX 32 /* --counts options (each of any number of pairs) */

struct decode_args {
	const char *from, *to, *value;
	uint64_t slots;
	int level; /* 0: from the value (2 when bytes 4-7 hold anything, else 1); for a
		    * recipe, 2 when every count level 2 needs is given, else 1 */
	bool have_slots;
	struct cli_output out;                  /* --json */
	const char *recipe;                     /* --recipe NAME[:VARIANT] */
	const char *counts[DECODE_COUNTS_MAX];  /* --counts EVENT=N[,EVENT=N...] */
	unsigned ncounts;
	bool smt;                               /* --smt */
	bool list;                              /* --recipes, --recipe list */
};

/* decode_recipe - compute a->recipe from a->counts and print it; an exit status. */
int decode_recipe(const struct decode_args *a);

/* decode_recipe_list - print every recipe; an exit status. */
int decode_recipe_list(const struct decode_args *a);

#endif
