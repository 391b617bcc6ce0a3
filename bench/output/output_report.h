/*
 * bench/output/output_report.h - what the files of `baretma report`'s view
 * share (output_report.c: the text; output_report_doc.c: the JSON
 * document "baretma-report/1" and the records of -x SEP; doc/report.md).
 */
#ifndef BARETMA_OUTPUT_REPORT_H
#define BARETMA_OUTPUT_REPORT_H

#include <jansson.h>

#include "bench/output/output.h"
#include "bench/study/report.h"

/* The text's widest line, in columns (t/1174 checks every line). */
#define REPORT_TEXT_COLS 100

/*
 * report_number - @v as the text shows a figure of @unit ("pp" and
 * "percent": two decimals; a count: whole where it is whole, else one
 * decimal; past 1e9 four significant digits; not finite "-") in @buf of
 * @n bytes (24 hold any), which it returns.  The plot's labels use it too.
 */
const char *report_number(char *buf, size_t n, double v, const char *unit);

/*
 * report_cpu_label - @g's CPU as its heading names it in @buf (@n bytes):
 * "GenuineIntel family 6 model 0x8F stepping 8", a field no file names as
 * "?" ("vendor ?", "stepping ?"), and "CPU not named by its files" when no
 * field is named (a host of validate --json or stat documents only).
 */
const char *report_cpu_label(char *buf, size_t n, const struct report_group *g);

/* -x SEP: the long layout's columns (doc/report.md "Separated values"),
 * and one record per group, row and host. */
extern const char *const report_columns[];
void report_records(const void *result, output_record_fn record, void *arg);

#endif
