/*
 * bench/calibration.h - what a run takes from a calibration: the file
 * `baretma calibrate` wrote in the state directory for this CPU
 * (bench/study/calibrate.h makes it), found, matched and taken by the
 * harness (bench/measure.c) before it measures.  Library code: 0 or
 * -errno, never prints.
 */
#ifndef BARETMA_CALIBRATION_H
#define BARETMA_CALIBRATION_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include <jansson.h>

#include "bench/bench.h"
#include "cpu/environ.h"

#define CALIB_SCHEMA        "baretma-calibration/3"
#define CALIB_MAX_AGE_DAYS  30      /* older calibrations are stale */
/* The input cap of a calibration file (doc/safety.md "Bad input"): 1 MiB.  One
 * `baretma calibrate` writes for one backend is ~10 KB (9,710 bytes on
 * the simulated Ice Lake), one for every backend and event recipe a CPU
 * has under 100 KB: the cap is ten times that.  A larger file is not read
 * (calib_lookup: u->refused -EFBIG, exit 65). */
#define CALIB_FILE_MAX      (1u << 20)

/* The PERF_METRICS fields as the document names them (the simulator's
 * profile keys; the tma_* metric of the same node without "tma_"). */
extern const char *const calib_field_names[TD_NFIELDS];

/*
 * calib_file_name - "calibration-VENDOR-FAMILY-0xMODEL-STEPPING.json"
 * (model in lower-case hex, family and stepping decimal), the name in the
 * state directory.  Returns @buf.
 */
char *calib_file_name(const struct cpu_info *ci, char *buf, size_t n);

/*
 * calib_lookup - the calibration for a run of @backend at @level on OS CPU
 * @cpu of @ci, on this machine's environment @env, at time @now: the file
 * calib_file_name(@ci) in the state directory, opened without following a
 * link.  Fills @u: found, path, and used with its bracket cost, resolution
 * and cycles per tick, or the reason it is not used (the field that
 * differs, "older than 30 days", no entry for the backend, unreadable).
 * Every number taken is checked against its physical range first (TSC
 * ticks and slots from 0 and below 2^64, a field's slots and the
 * quantisation error at most the bracket's slots, cycles above 0): one
 * out of range, missing or of another type, a file that is not JSON or a
 * malformed date set u->malformed, and u->reason names the key and the
 * value; the file is then not used, and no number of @u is.
 * The file is opened by the state directory's rule (msr/journal/state_dir.h
 * state_dir_file_open: a regular file of the effective user's, writable by
 * no one else) and read in blocks, at most CALIB_FILE_MAX bytes: one
 * refused or over its cap is not read at all, u->refused says which
 * (-EPERM, -EFBIG) and u->reason why; the run must then stop.
 * Returns 0 (whether used or not; nothing found: !u->found).
 */
int calib_lookup(const struct cpu_info *ci, const struct cpu_env *env, unsigned cpu,
		 enum bench_backend_id backend, int level, bool user_only, time_t now,
		 struct bench_calib_use *u);

/* calib_document - the state directory's calibration file for @ci as it
 * is (a new reference: the report bundle embeds it), or NULL when there is
 * none, it cannot be read, it is refused or over its cap (as calib_lookup
 * reads it; @u, when not NULL, says so: found, refused, reason) or it is
 * not JSON.  Checks nothing else. */
json_t *calib_document(const struct cpu_info *ci, struct bench_calib_use *u);

/*
 * calib_check_recipe - a used calibration of @res made with another event
 * recipe (or PERF_METRICS) or another number of passes than @res's run is
 * not used: its bracket is of other counters (res->calib.reason says so).
 */
void calib_check_recipe(struct bench_result *res);

/*
 * calib_mark_below - for a run that used a calibration: flag each kernel
 * whose region is shorter than its resolution, the region being its
 * median slots / @width cycles with Top-down, else its median TSC ticks x
 * the calibration's cycles per tick.  No calibration used, or no
 * resolution: nothing is flagged.
 */
void calib_mark_below(struct bench_result *res, unsigned width);

#endif
