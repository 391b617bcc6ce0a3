/*
 * bench/output/output.h - the writers: every result as a text table, CSV
 * or a JSON document.  The documents' shared values (strings from CPUID,
 * files or the environment, the identity, the environment) are the
 * harness's (bench/bench.h: bench_json_text, cpu_info_to_json,
 * env_to_json); what a study found is the study's (bench/study/); this
 * room only writes them.  Writes to the FILE* it is given, never exits.
 */
#ifndef BARETMA_OUTPUT_H
#define BARETMA_OUTPUT_H

#include <stdio.h>

#include <jansson.h>

#include "bench/bench.h"
#include "bench/study/calibrate.h"
#include "bench/study/compare.h"
#include "bench/study/validate.h"
#include "msr/recipe.h"

/* ---------------------------------------------------------------- bench */

/* bench_print_table - human table with medians, spread and bounds. */
void bench_print_table(FILE *f, const struct bench_result *res);
/*
 * bench_invalid_text - why @k's invalid repetitions were left out, one
 * count per reason ("2 overflow (IA32_PERF_GLOBAL_STATUS bit 35/48), 9
 * zero slots (fixed counter 3 did not count)"), "" when none.  Returns @buf.
 */
char *bench_invalid_text(const struct bench_kernel_result *k, char *buf, size_t n);

/*
 * bench_topdown_reason - the one line that text and JSON give for a kernel
 * without one valid repetition ("no valid repetition: 11 of 11 invalid:
 * 11 zero slots (...)").  Returns @buf.
 */
char *bench_topdown_reason(const struct bench_kernel_result *k, char *buf, size_t n);

/*
 * bench_perf_changed_text - one line: what the kernel's perf_event wrote in
 * @cpu's counter registers (@c, @nc: journal_diff's), and that baretma put
 * them back from its journal (the value before @what, a command's name).
 * Returns @buf.
 */
const char *bench_perf_changed_text(unsigned cpu, const struct journal_change *c, int nc,
				    const char *what, char *buf, size_t n);

/* bench_print_csv - one row per kernel and quantity. */
void bench_print_csv(FILE *f, const struct bench_result *res);
/* bench_to_json - the JSON document (schema "baretma-bench/2"; the caller adds
 * "environment"); NULL on ENOMEM. */
json_t *bench_to_json(const struct bench_result *res);

/* bench_flags_json - the short names (td_flag_name) of the TD_FLAG_* bits in
 * @flags as a JSON array, [] when none (bench and decode); NULL on ENOMEM. */
json_t *bench_flags_json(unsigned flags);


/* ------------------------------------------------------------- studies */

/* compare_to_json - the result as a "baretma-compare/2" document (new reference). */
json_t *compare_to_json(const struct compare_result *res);

/* compare_perf_changed_text - one line: what the kernel's perf_event wrote
 * in the counter registers (res->perf_changed), and that baretma put them
 * back.  Returns @buf. */
const char *compare_perf_changed_text(const struct compare_result *res, char *buf, size_t n);

/* compare_print_table - the result as a text table. */
void compare_print_table(FILE *f, const struct compare_result *res);

/* validate_print / validate_to_json - the report as text lines or as a
 * "baretma-validate/1" document (new reference). */
void validate_print(FILE *f, const struct validate_report *rep);
json_t *validate_to_json(const struct validate_report *rep);

/* calib_print - the short human summary. */
void calib_print(FILE *f, const struct calibration *c, const char *path);

/* ------------------------------------------------------------- recipes */

/* A recipe computed from counts (baretma decode --recipe). */
struct recipe_decode {
	const struct recipe *r;
	struct recipe_env env;
	const double *counts;     /* r->nevents counts, < 0: not given */
	struct recipe_result res; /* recipe_eval's */
	const char *level_note;   /* why this level, " (...)", or NULL */
};

/* recipe_print / recipe_to_json - the nodes of @d as text lines (level-2
 * nodes under their parents, NAN as n/a) or one JSON document (percent,
 * null for NAN; README "JSON documents", decode --recipe). */
void recipe_print(FILE *f, const struct recipe_decode *d);
json_t *recipe_to_json(const struct recipe_decode *d);

/* recipe_list_print / recipe_list_to_json - every recipe of msr/recipe.h:
 * name:variant, vendor, width, uarchs, events, bound, what is left out. */
void recipe_list_print(FILE *f);
json_t *recipe_list_to_json(void);

#endif
