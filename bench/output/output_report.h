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

/* -x SEP: the long layout's columns (doc/report.md "Separated values"),
 * and one record per group, row and host. */
extern const char *const report_columns[];
void report_records(const void *result, output_record_fn record, void *arg);

#endif
