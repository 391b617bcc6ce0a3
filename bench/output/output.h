/*
 * bench/output/output.h - the writers: every result a command prints, in
 * the one format the command line chose (perf's print_metric_{std,csv,json}
 * as the model).  A format (struct output_format) is one file here
 * (fmt_text.c, fmt_json.c, fmt_csv.c, fmt_sv.c, fmt_openmetrics.c) and one
 * entry in the table of formats.c; a kind of result (struct output_view)
 * says what it can be written as: its text, its JSON document, its records
 * (a table of named columns), its metrics.  output_write() is the one entry
 * point every command uses for a whole result, output_stream_*() for a
 * stream of records (stat -I): no format is chosen outside the table.
 *
 * The documents' shared values (strings from CPUID, files or the
 * environment, the identity, the environment) are the harness's
 * (bench/bench.h: bench_json_text, cpu_info_to_json, env_to_json); what a
 * study found is the study's (bench/study/); this room only writes them.
 * Writes to the FILE* it is given, never exits.
 */
#ifndef BARETMA_OUTPUT_H
#define BARETMA_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "bench/bench.h"
#include "bench/stat.h"
#include "bench/study/calibrate.h"
#include "bench/study/compare.h"
#include "bench/study/report.h"
#include "bench/study/validate.h"
#include "msr/recipe/recipe.h"

/* ------------------------------------------------------------ the model */

/*
 * One record of a result as a table of named columns (--csv, -x SEP: one
 * line each): @cells[i] is the cell of the view's columns[i], NULL or ""
 * when empty; numbers already formatted (output_number).  Strings a cell
 * holds may come from CPUID, files or the environment: the writer escapes
 * them.
 */
typedef void (*output_record_fn)(void *arg, const char *const *cells);

/*
 * The long layout of measured quantities (bench and stat; doc/csv.md,
 * man/baretma-stat.1): one record per value, the columns of
 * output_long_columns -
 *   cpu,kind,recipe,backend   who counted, as every -x layout starts
 *                             (perf stat -x -A: the CPU first)
 *   time,kernel               stat: seconds since the start (%.9f: its
 *                             nanoseconds); bench: the kernel
 *   level,quantity,unit       "tsc_ticks", "slots", "passes" (level empty)
 *                             or a node (its level, "percent" or "slots")
 *   value,bound_pp            the value (n > 1: the median), its +/- in
 *                             points of the unit (empty: none)
 *   n,median,min,max,q1,q3,mad,mean   the samples behind the value: n, and
 *                             the statistics only when n > 1 (empty for a
 *                             single sample, never one value repeated)
 */
struct output_long {
	const char *cpu;      /* "0", or "all" for a group of CPUs */
	const char *kind, *recipe, *backend;
	double time;          /* stat: seconds since the start; NAN: none (bench) */
	const char *kernel;   /* bench: the kernel; NULL: none (stat) */
	int level;            /* a node's level (1, 2); 0: not a node */
	const char *quantity; /* "tsc_ticks", "slots", "passes", "tma_retiring" */
	const char *unit;     /* "ticks", "slots", "passes", "percent" */
	double value;         /* one sample's value (NAN: undefined, left empty) */
	double bound;         /* +/- in points of @unit; NAN: none */
	const struct bench_stats *stats; /* the samples behind the value (its
					  * median the value); NULL: one sample */
};

/* output_long_columns - the names of the long layout's columns, in order,
 * NULL-terminated (a view's .columns). */
extern const char *const output_long_columns[];

/* output_long_record - @l as one record of output_long_columns to
 * @record(@arg, cells). */
void output_long_record(output_record_fn record, void *arg, const struct output_long *l);

/*
 * output_number - @v with DBL_DIG (15) significant digits, %.15g: every
 * decimal digit a double is sure to hold, none of the last bit's noise
 * (a share of 0.4 scaled to percent is 40, not 40.000000000000007), and
 * a count of slots whole (12146527230, which %.6g or %.10g would round).
 * "NaN", "+Inf", "-Inf" for the others (the OpenMetrics spelling).
 * Returns @buf; @n of OUTPUT_NUMBER_MAX holds any.
 */
#define OUTPUT_NUMBER_MAX 32
char *output_number(char *buf, size_t n, double v);

/*
 * One sample of a metric for monitoring (--openmetrics: OpenMetrics 1.0,
 * fmt_openmetrics.c).  @name is the family without the "baretma_" prefix
 * the writer adds ([a-zA-Z][a-zA-Z0-9_]*, e.g. "tma_ratio"); a family's
 * samples share @help (one line, without a double quote: the Prometheus
 * text format that node_exporter reads could not take OpenMetrics'
 * escape of it) and @unit (OpenMetrics UNIT: NULL none, else
 * "baretma_" @name ends in "_" @unit: "ratio" for "tma_ratio", "slots"
 * for "slots"), and are all gauges.  @labels: name, value, name, value,
 * ..., NULL (label names [a-zA-Z][a-zA-Z0-9_]*); values are copied and
 * escaped by the writer.  @name, @help and @unit must live until
 * output_write returns (string literals).
 *
 * The families every view and `baretma stat` share (doc/openmetrics.md):
 * tma_ratio{cpu,kind,recipe,backend,level,node[,kernel]} a node's share of
 * TOPDOWN.SLOTS as a fraction (0.2510), slots{...} the slots counted,
 * tma_bound_ratio{...} the +/- bound of the shares, a fraction of slots.
 * Each with one help, OUTPUT_HELP_*, whoever writes it: node_exporter
 * serves the files of one directory as one set, and drops a sample whose
 * family has another help there than in a file read before ("has help
 * ... but should have ...": client_golang's registry).
 */
#define OUTPUT_HELP_TMA_RATIO "Top-down node's share of TOPDOWN.SLOTS, a fraction " \
			      "(bench: the median of the repetitions)"
#define OUTPUT_HELP_SLOTS "TOPDOWN.SLOTS counted (stat: over the latest interval; bench: " \
			  "per repetition, the median)"
#define OUTPUT_HELP_TMA_BOUND "+/- bound of each tma_ratio, a fraction of slots"
struct output_sample {
	const char *name;
	const char *help;
	const char *const *labels;
	double value;
	const char *unit;
};

typedef void (*output_sample_fn)(void *arg, const struct output_sample *s);

/*
 * What one kind of result can be written as: each member a format may
 * need, NULL where this result has none (and then a format that needs it
 * cannot write it: output_can_write).  @result is the view's own type; in
 * a stream (output_stream_*), one record (stat -I: an interval).
 */
struct output_view {
	/* the text for people; 0, or the view's own -errno (written in part) */
	int (*text)(FILE *f, const void *result);
	/* a stream's heading in text, before its first record @first (perf
	 * stat -I's "#           time ...", what the records' columns hold);
	 * NULL: none */
	int (*text_head)(FILE *f, const void *first);
	/* the JSON document, a new reference; NULL on ENOMEM */
	json_t *(*json)(const void *result);
	/* the result as a table (--csv, -x SEP): its columns (NULL-terminated;
	 * the CPU, core kind, recipe and backend first) and each record */
	const char *const *columns;
	void (*records)(const void *result, output_record_fn record, void *arg);
	/* its metrics for monitoring (--openmetrics), each sample to @sample */
	void (*samples)(const void *result, output_sample_fn sample, void *arg);
};

/* What a format may need besides the result. */
struct output_params {
	json_t *environment;   /* borrowed, may be NULL: a document's "environment" */
	const char *separator; /* the separated-values format's (-x SEP); NULL: "," */
};

/*
 * One output format.  @option is the command-line option that asks for it
 * ("json": --json; NULL for the default, text); a command offers the
 * options of the formats it lists in its getopt table, and the format
 * says which results it can write (@can_write).  @document: it writes one
 * self-contained document, which carries the environment (output_write's
 * @environment) and every reason: the command adds nothing on stderr that
 * the document says.  @for_people: it writes the view's text, which says
 * the result's reasons and notes where a person reads them: a command
 * points there instead of repeating them on stderr.
 *
 * A format writes a whole result (@write) and, where it can, a stream of
 * records (`stat -I`: an interval each, output_stream_*) through its
 * stream hooks: @begin before the first record, given it as @first (the
 * text's heading, the CSV header; NULL: nothing), @record for each (NULL: the format writes
 * no stream), @end after the last with the end's result (the text's
 * summary, JSON's end object; NULL: nothing, the records say it all and
 * the command says the end on stderr: output_stream_has_end).  Each
 * returns 0 or -errno.
 */
struct output_format {
	const char *name;                /* "text", "csv", "json" */
	const char *option;
	bool document;
	bool for_people;
	bool (*can_write)(const struct output_view *view);
	int (*write)(FILE *f, const struct output_view *view, const void *result,
		     const struct output_params *p);
	int (*begin)(FILE *f, const struct output_view *view, const void *first,
		     const struct output_params *p);
	int (*record)(FILE *f, const struct output_view *view, const void *record,
		      const struct output_params *p);
	int (*end)(FILE *f, const struct output_view *view, const void *result,
		   const struct output_params *p);
};

/* The formats, one file each (fmt_NAME.c), in the table of formats.c. */
extern const struct output_format output_format_text; /* fmt_text.c */
extern const struct output_format output_format_json; /* fmt_json.c */
extern const struct output_format output_format_csv;  /* fmt_csv.c: -x , */
extern const struct output_format output_format_sv;   /* fmt_sv.c: -x SEP */
extern const struct output_format output_format_openmetrics; /* fmt_openmetrics.c */

/* OUTPUT_SV_SEP_MAX - the longest separator -x takes, in bytes. */
#define OUTPUT_SV_SEP_MAX 8

/*
 * output_sv_sep_check - whether @sep can separate fields: 1 to
 * OUTPUT_SV_SEP_MAX bytes, none of them a double quote, CR or LF (a field
 * that holds the separator is quoted: a quote or a line break in it could
 * not be).  Returns 0 or -EINVAL.
 */
int output_sv_sep_check(const char *sep);

/* output_formats - the table, the default (text) first, NULL-terminated;
 * a message naming two formats names them in this order. */
extern const struct output_format *const output_formats[];

/* output_format_by_option - the format that --@option asks for, or NULL. */
const struct output_format *output_format_by_option(const char *option);

/* output_can_write - whether @fmt can write results of @view. */
bool output_can_write(const struct output_format *fmt, const struct output_view *view);

/*
 * output_write - @result, of the kind @view describes, in @fmt (NULL:
 * text) on @f.  @environment (borrowed; may be NULL) is added to a
 * document as its "environment" member; other formats leave it out.
 * Returns 0, -EOPNOTSUPP (@fmt cannot write this kind of result), -ENOMEM
 * (the document could not be built), -EIO (@f refused the document), or
 * the -errno of the view's text.
 */
int output_write(FILE *f, const struct output_format *fmt, const struct output_view *view,
		 const void *result, json_t *environment);

/* output_write_params - output_write with every parameter a format may
 * need (@p may be NULL: none). */
int output_write_params(FILE *f, const struct output_format *fmt,
			const struct output_view *view, const void *result,
			const struct output_params *p);

/*
 * A stream of records in one format, its end after the last: `stat -I`'s
 * intervals, each written as it ends (text lines under one heading, CSV
 * rows under one header, JSON Lines).  Use: output_stream_open, then
 * output_stream_record for each record, then output_stream_end.  The
 * fields are the stream's own: set by output_stream_open.
 */
struct output_stream {
	FILE *f;
	const struct output_format *fmt;
	const struct output_view *view;  /* each record's */
	struct output_params p;          /* copied; its pointers borrowed */
	bool begun;                      /* the format's begin was written */
};

/* output_stream_can - whether @fmt writes a stream of @view's records. */
bool output_stream_can(const struct output_format *fmt, const struct output_view *view);

/* output_stream_open - a stream of @view's records in @fmt (NULL: text)
 * on @f, with @p (NULL: none).  Writes nothing yet.  Returns 0, or
 * -EOPNOTSUPP (@fmt writes no stream of these records). */
int output_stream_open(struct output_stream *st, FILE *f, const struct output_format *fmt,
		       const struct output_view *view, const struct output_params *p);

/* output_stream_record - one record (of the stream's view), after the
 * format's begin when it is the first; flushed.  Returns 0 or -errno
 * (-EIO: @f refused it; -ENOMEM). */
int output_stream_record(struct output_stream *st, const void *record);

/* output_stream_end - after the last record, @result of the kind @view
 * describes as the format writes a stream's end (nothing for CSV; no
 * heading or header when no record came).  Flushed.  Returns 0 or -errno
 * (-EOPNOTSUPP: @fmt cannot write @view). */
int output_stream_end(struct output_stream *st, const struct output_view *view,
		      const void *result);

/* output_stream_has_end - whether @fmt writes something at a stream's end
 * (text its summary, JSON its end object); false for CSV, whose records
 * are all it writes (then the command says the end on stderr). */
bool output_stream_has_end(const struct output_format *fmt);

/* -------------------------------------------------- files named by users */

/*
 * A file written whole or not at all (output_file.c): every file a command
 * writes - -o FILE, --openmetrics FILE (which `stat -I` rewrites each
 * interval), --plot FILE, validate --bundle FILE, calibrate -o FILE,
 * cpuid dump -o FILE - one rule for all.  A reader (node_exporter's
 * textfile collector) sees the old file or the new, never a part: the
 * text goes to a new file in the same directory (cpu/tmpfile.h:
 * ".NAME.baretma-PID-START-N.tmp", created O_EXCL|O_NOFOLLOW, removed by a
 * deadly signal's handler, and after SIGKILL by the next write into that
 * directory or by `pmu restore`), is fsync'd and renamed over NAME, then
 * the directory is fsync'd.
 *   - NAME must be a regular file or not exist: a symbolic link is refused
 *     and never followed (nor is its target touched), as is a directory, a
 *     FIFO or a device (renamed over, a device node would be gone).
 *   - The files of a process that may run as root follow the rules of
 *     cpu/userfile.h for the invoking user (cpu/trust.h: the real uid, or
 *     $SUDO_UID under sudo): an existing NAME must be theirs, the directory
 *     one they own or a sticky one everyone may write (/tmp), and the new
 *     file is given to them (fchown): the invoking user could have written
 *     it, and reads it.
 *   - The mode is an existing NAME's, else 0666 less the umask (a shell's
 *     redirection: node_exporter, another user, must read it).
 * Use: output_file_open_atomic, write to output_file_stream (or to
 * output_file_fd), then output_file_commit (the file is in place) or
 * output_file_abort (it is not; the old NAME stays).  Either frees the
 * handle.  Not thread-safe.
 */
struct output_file;

/*
 * output_file_open_atomic - start writing @path.  Returns 0 and *@of, or
 * -errno with *@why one phrase for the message ("a symbolic link", "a
 * directory", "not a regular file", "owned by another user than the
 * invoking user", "a new file in a directory the invoking user does not
 * own", "named under sudo without a valid $SUDO_UID"), or *@why NULL when
 * strerror(-errno) says it (-ENOENT: no such directory, -EACCES, ...).
 * -ELOOP: a link; -EISDIR; -EINVAL: not a regular file; -EPERM: refused.
 */
int output_file_open_atomic(const char *path, struct output_file **of, const char **why);

/* output_file_check - the checks of output_file_open_atomic on @path,
 * creating nothing (before a long run: refuse early).  Same returns. */
int output_file_check(const char *path, const char **why);

/* output_file_stream - where to write the text: a FILE* on the new file
 * whose failed write is kept (output_file_error); NULL on -ENOMEM. */
FILE *output_file_stream(struct output_file *of);

/* output_file_fd - the new file's descriptor, for a writer of its own
 * (cairo's stream): it says a failure with output_file_failed. */
int output_file_fd(const struct output_file *of);

/* output_file_failed - a write to output_file_fd failed with errno @err
 * (> 0): kept, unless one was already. */
void output_file_failed(struct output_file *of, int err);

/* output_file_error - the first failed write's -errno (-ENOSPC: the disk
 * is full; -EFBIG: over the file size limit; -EIO), or 0. */
int output_file_error(const struct output_file *of);

/*
 * output_file_commit - flush, fsync, and rename the new file over the
 * name, unless a write failed (its -errno: output_file_error) or the name
 * became a link or something else since the open (then -ELOOP / -EINVAL
 * / -EISDIR with *@why, and nothing is replaced).  Returns 0 or -errno;
 * on an error the new file is removed.  Frees @of.
 */
int output_file_commit(struct output_file *of, const char **why);

/* output_file_abort - remove the new file, leave the name as it was.
 * Frees @of (NULL: nothing). */
void output_file_abort(struct output_file *of);

/* ------------------------------------------------------------ the views */

/* bench: struct bench_result; text table, the long layout's records,
 * "baretma-bench/2". */
extern const struct output_view output_view_bench;

/* bench_node_shown - whether @res reports node @m: every one of
 * PERF_METRICS's up to its level, an event recipe's own only. */
bool bench_node_shown(const struct bench_result *res, enum td_metric m);
/* bench_extras_of - the kernel of @res that names the recipe's nodes
 * outside the twelve (AMD's smt_contention...), or NULL. */
const struct bench_kernel_result *bench_extras_of(const struct bench_result *res);
/* compare: struct compare_result; text table, "baretma-compare/2". */
extern const struct output_view output_view_compare;
/* validate: struct validate_report; text lines, "baretma-validate/1". */
extern const struct output_view output_view_validate;

/* calibrate's result: the calibration, where it was written (NULL: not
 * written) and its document (borrowed: calib_to_json, also saved). */
struct calib_output {
	const struct calibration *c;
	const char *path;
	json_t *doc;
};
/* calibrate: struct calib_output; the short summary, the document. */
extern const struct output_view output_view_calibrate;

/* stat: struct stat_report; text table, the long layout's records,
 * "baretma-stat/1" (bench/output/output_stat.c).  With -I, the end of the
 * stream of intervals (interval_ms set): the text's summary line, JSON's
 * end object (type "end"). */
struct stat_report {
	const struct stat_sample *s;  /* the whole run's samples */
	unsigned n;
	const struct stat_end *end;   /* how it ended */
	const unsigned *cpus;         /* the CPUs counted */
	int ncpus;
	char *const *argv;            /* the command, or NULL */
	bool per_cpu;
	unsigned interval_ms;         /* -I: intervals were written, the end only */
	int exit_status;              /* what baretma exits with (the command's) */
};
extern const struct output_view output_view_stat;

/* One interval of `stat -I`: its @n samples (groups), @drift_ns how late
 * its wake-up was. */
struct stat_interval_report {
	const struct stat_sample *s;
	unsigned n;
	int64_t drift_ns;
};
/* stat -I: struct stat_interval_report, the records of a stream
 * (output_stream_*): text one line per sample under a heading written
 * once, the long layout's records, JSON one compact object (type
 * "interval"), the metrics of the latest interval. */
extern const struct output_view output_view_stat_interval;

/* ---------------------------------------------------------------- bench */

/*
 * bench_invalid_text - why @k's invalid repetitions were left out, one
 * count per reason ("2 overflow (IA32_PERF_GLOBAL_STATUS bit 35/48), 9
 * zero slots (fixed counter 3 did not count)"), "" when none.  Returns @buf.
 * Its longest: the six reasons (335 bytes of words), each with a 10-digit
 * count and ", " between: 411 bytes; @n of BENCH_INVALID_TEXT_MAX holds it.
 */
#define BENCH_INVALID_TEXT_MAX 512
char *bench_invalid_text(const struct bench_kernel_result *k, char *buf, size_t n);

/*
 * bench_topdown_reason - the one line that text and JSON give for a kernel
 * without one valid repetition ("no valid repetition: 11 of 11 invalid:
 * 11 zero slots (...)").  Returns @buf.  Its longest is 472 bytes (41 of
 * words, two 10-digit counts, bench_invalid_text's 411): @n of
 * BENCH_INVALID_TEXT_MAX holds it.
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


/* bench_flags_json - the short names (td_flag_name) of the TD_FLAG_* bits in
 * @flags as a JSON array, [] when none (bench and decode); NULL on ENOMEM. */
json_t *bench_flags_json(unsigned flags);


/* ------------------------------------------------------------- studies */

/* compare_perf_changed_text - one line: what the kernel's perf_event wrote
 * in the counter registers (res->perf_changed), and that baretma put them
 * back.  Returns @buf. */
const char *compare_perf_changed_text(const struct compare_result *res, char *buf, size_t n);

/* report: struct report (bench/study/report.h), after report_finish; its
 * text (every line at most 100 columns), the document "baretma-report/1"
 * and the long layout's records (doc/report.md; bench/output/output_report*.c). */
extern const struct output_view output_view_report;
/* report_to_json - the "baretma-report/1" document of a struct report
 * (new reference), NULL on ENOMEM. */
json_t *report_to_json(const void *result);

/* validate_to_json - the report as a "baretma-validate/1" document (new
 * reference): output_view_validate's, and the report bundle's member. */
json_t *validate_to_json(const struct validate_report *rep);

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
 * null for NAN; doc/json.md, decode --recipe). */
void recipe_print(FILE *f, const struct recipe_decode *d);
json_t *recipe_to_json(const struct recipe_decode *d);

/* recipe_list_print / recipe_list_to_json - every recipe of msr/recipe/recipe.h:
 * name:variant, vendor, width, uarchs, events, bound, what is left out. */
void recipe_list_print(FILE *f);
json_t *recipe_list_to_json(void);

#endif
