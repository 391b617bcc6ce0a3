/*
 * bench/study/calibrate.h - `baretma calibrate`: what this machine can resolve.
 * Library code (bench/ layer): never prints, never exits; 0 or -errno.
 *
 * Per counter source (backend) it measures, through the bench harness
 * (bench/bench.h) with its own empty bracket never replaced:
 *  - the empty bracket's cost: TSC ticks and, with Top-down, slots and
 *    slots per IA32_PERF_METRICS field (median, q1, q3, MAD over the
 *    repetitions);
 *  - the calibrated loop: a chain of N dependent register ADDs, N = 1000,
 *    10000, 100000, 1000000.  A register ADD has a latency of one core
 *    cycle on every x86 core (Agner Fog, "Instruction tables", ADD r,r:
 *    latency 1 on every Intel and AMD core listed; uops.info agrees), and
 *    each ADD of the chain needs the previous one's result, so N ADDs take
 *    N core cycles (plus the loop's few cycles of entry and exit);
 *  - per loop length, every error of a level-1 tma_* value, in percentage
 *    points of the region's slots (the empty bracket subtracted, as bench
 *    reports them):
 *     . the spread, per metric: half the distance between the 2.5th and
 *       97.5th percentiles of the per-repetition values (type-7
 *       quantiles, bench/stats.h): the noise;
 *     . the quantisation bound: the median over the valid repetitions of
 *       the region's two readings' 8-bit error, slots_a td_value_bound(S_a)
 *       + slots_b td_value_bound(S_b) (msr/recipe/topdown.h), over the region's
 *       slots (bench_kernel_result.read_bound);
 *     . the bracket-subtraction error: the median of the subtracted
 *       bracket's own quantisation error (its err_slots, the median over
 *       its repetitions of the same sum) over the region's slots
 *       (bench_kernel_result.bracket_bound): the bracket is subtracted
 *       field by field, so its fields' error lands in the region's;
 *     . the total, per metric: the three added;
 *  - the resolution: the smallest loop length from which on (it and every
 *    longer one) every level-1 total is at most CALIB_RESOLUTION_PP, with
 *    at least CALIB_MIN_VALID valid repetitions; none (0) when no length
 *    reaches it.  "Regions shorter than N cycles are below this machine's
 *    resolution": bench's mark (calib_mark_below) compares with it, so it
 *    judges by the same sum.
 *  - TSC ticks per loop length, and from them core cycles per TSC tick
 *    (the median over the lengths of N / ticks(N)): bench converts a
 *    TSC-only region to cycles with it.
 *
 * The result is recorded with what decides whether it still holds (CPU
 * identity, microcode, kernel release, governor, turbo, SMT, the date) as
 * a JSON document, schema "baretma-calibration/3", by default in the state
 * directory (msr/journal/state_dir.h) under calib_file_name().  bench uses a
 * calibration that matches (calib_lookup): same identity, microcode,
 * kernel, governor, turbo and SMT, not older than CALIB_MAX_AGE_DAYS, and
 * an entry for its backend at its level; otherwise it names the file and
 * the field that differs, and ignores it.
 */
#ifndef BARETMA_CALIBRATE_H
#define BARETMA_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include <jansson.h>

#include "bench/bench.h"
#include "bench/calibration.h"
#include "cpu/environ.h"

#define CALIB_NLENGTHS      4       /* 1k, 10k, 100k, 1M cycles */
#define CALIB_RESOLUTION_PP 1.0     /* percentage points */
#define CALIB_MIN_VALID     20      /* valid repetitions for a spread to count */
#define CALIB_DEFAULT_REPS  201
#define CALIB_NBACKENDS     BENCH_NSOURCES /* every registered source */

/* calib_lengths - the loop lengths, in core cycles (ADDs), shortest first. */
const unsigned *calib_lengths(void);

/*
 * calib_adds - run @n dependent register ADDs (inline asm, so not
 * optimised away or reordered into fewer): @n core cycles.  Returns the
 * chain's value (so that the caller can keep it).
 */
uint64_t calib_adds(uint64_t n);

/* calib_kernel - the calibrated loop of @cycles ADDs as a bench kernel
 * ("loop-1k" ... "loop-1M"), for the harness; NULL for another length. */
const struct bench_kernel *calib_kernel(unsigned cycles);

/* calib_spread95 - the 95 % spread of @s: (p975 - p025) / 2. */
double calib_spread95(const struct bench_stats *s);

/*
 * Progress, from the library to the caller (which alone may print):
 * @backend being measured, @step steps done of @total (one step per
 * kernel of each backend).
 */
typedef void (*calib_progress_fn)(void *arg, const char *backend, const char *kernel,
				  unsigned step, unsigned total);

struct calib_options {
	int cpu;                    /* -1: chosen as bench does */
	bool want[CALIB_NBACKENDS]; /* by calib_backend_at(i) */
	bool explicit_list;         /* --backend was given */
	unsigned reps;              /* per length and for the bracket */
	const struct cpu_machine *machine;
	calib_progress_fn progress; /* may be NULL */
	void *progress_arg;
	/* The guarded run (msr/guard/guard.h) the backends measure through: its MSR
	 * backend and its journal, which saved the CPU's counter registers as
	 * it began; NULL both when none could be taken (no MSR access: the
	 * perf backends are then the kernel's alone). */
	struct msr_dev *dev;
	struct journal *journal;
};

/* calib_backend_at - the i-th backend of the list: the sources in the
 * order users see them listed (bench_backend_at: rdpmc, msr, perf,
 * perf-rdpmc, tsc). */
enum bench_backend_id calib_backend_at(unsigned i);

/*
 * calib_parse_backends - "all" or a comma-separated list of the sources'
 * names into @want.  Returns 0 or -EINVAL (@bad receives the bad name).
 */
int calib_parse_backends(const char *list, bool want[CALIB_NBACKENDS], char *bad, size_t n);

/* One loop length on one backend. */
struct calib_length {
	unsigned cycles;            /* ADDs */
	unsigned reps, valid;       /* repetitions, valid for Top-down */
	struct bench_stats tsc;     /* TSC ticks, the empty bracket subtracted */
	struct bench_stats slots;   /* slots, the empty bracket subtracted */
	double median_pct[4];       /* level-1 tma_* medians, percent */
	double spread_pp[4];        /* their 95 % spreads, points; NaN: no numbers */
	double quant_pp;            /* the readings' quantisation bound, points */
	double bracket_pp;          /* the bracket-subtraction error, points */
	double total_pp[4];         /* spread + quant + bracket per metric, points */
	bool within;                /* every total <= CALIB_RESOLUTION_PP, and at
				     * least CALIB_MIN_VALID valid repetitions */
};

/*
 * calib_length_of - one length's numbers from its kernel result @kr (the
 * bench harness's, at Top-down @level, 0 for none) into @l: the spreads,
 * the quantisation and bracket terms, the totals and whether it is
 * within.  @l->cycles is left as it is.  Pure.
 */
void calib_length_of(const struct bench_kernel_result *kr, int level, struct calib_length *l);

/*
 * calib_resolution - the smallest of the CALIB_NLENGTHS lengths @len
 * (shortest first) that, with every longer one, is within; 0 when the
 * longest is not.  Pure.
 */
unsigned calib_resolution(const struct calib_length *len);

/* One backend. */
struct calib_backend {
	enum bench_backend_id id;
	bool asked;                 /* in the list */
	bool measured;
	int err;                    /* -errno when not measured */
	char *reason;               /* why not, on the heap (calib_release: it
				     * quotes an availability reason, any length);
				     * NULL when measured */
	int level;                  /* Top-down level (0: none: tsc) */
	unsigned cpu;               /* OS CPU measured on */
	double tsc_hz;
	unsigned width;             /* slots per cycle of the CPU's kind */
	struct bench_stats bracket_tsc;   /* empty bracket, TSC ticks */
	struct bench_stats bracket_slots; /* its slots (Top-down) */
	struct bench_stats bracket_fs[TD_NFIELDS]; /* its slots per field */
	double bracket_err_slots;   /* its median quantisation error, slots */
	unsigned ncounts;           /* its bracket per count of the read set, by name
				     * and pass (bench_result.bracket_counts) */
	struct bench_bracket_count counts[BENCH_BRACKET_COUNTS_MAX];
	const struct recipe *recipe; /* the event recipe measured, NULL for PERF_METRICS */
	unsigned passes;            /* its passes (1 for PERF_METRICS) */
	struct calib_length len[CALIB_NLENGTHS];
	double cycles_per_tick;     /* median of N / ticks(N); 0 unknown */
	unsigned resolution;        /* cycles; 0: none reached (or no Top-down) */
};

struct calibration {
	char date[32];              /* ISO 8601 UTC, "2024-05-01T12:00:00Z" */
	time_t when;
	struct cpu_info cpu;        /* identity of the machine described */
	struct cpu_env env;         /* the machine baretma runs on */
	const struct cpu_host *host;
	unsigned resolution;        /* best (smallest) over the backends, 0 none */
	struct calib_backend b[CALIB_NBACKENDS];
};

/*
 * calib_measure - measure every backend of @o->want in the order of
 * calib_backend_at, each a block of the guarded run (bench_run with
 * @o->dev and @o->journal: each block's registers put back through the
 * journal before the next), on one CPU (the first backend's choice, or
 * @o->cpu).  A backend that cannot measure gets its reason and is
 * skipped.  Fills the identity, environment and date.  Returns 0 (also
 * when some backends could not measure: b[i].measured); -EINVAL (bad
 * options); -errno of a failure that is not "cannot measure here" (then
 * b[i].reason says which).
 */
int calib_measure(const struct calib_options *o, struct calibration *c);

/* calib_release - free what @c holds on the heap (the reasons); @c stays
 * readable, without them.  calib_probe starts from a zeroed @c. */
void calib_release(struct calibration *c);

/*
 * calib_probe - decide for each wanted backend whether it can measure
 * here (bench_open: the raw paths read only; a perf backend's probe opens
 * and enables its group, after which the counters go back through
 * @o->journal when there is one: run it inside the guard).
 */
int calib_probe(const struct calib_options *o, struct calibration *c);

/* calib_any_measured - some backend of @c measured. */
bool calib_any_measured(const struct calibration *c);


/* calib_to_json - the "baretma-calibration/3" document (new reference),
 * NULL on ENOMEM. */
json_t *calib_to_json(const struct calibration *c);

/*
 * calib_save - @doc in the state directory (created 0700 if missing),
 * under calib_file_name of @ci, atomically: a temporary file beside it,
 * mode 0600, renamed over it; a symbolic link at the name is refused,
 * never followed, and so is anything else but a regular file
 * (msr/journal/state_dir.h state_dir_replace).  (calibrate -o FILE, a file the
 * user names, is the command line's: bench/output/output.h.)  @written
 * (may be NULL) receives the path.  Returns 0; -ELOOP (a link at the
 * name, or the state directory is one); -EISDIR (a directory at the
 * name); -EINVAL (a FIFO, a device or a socket at the name: left as it
 * is); the errors of state_dir_open; -errno.
 */
int calib_save(const json_t *doc, const struct cpu_info *ci, char *written, size_t n);





#endif
