/*
 * bench/stat_types.h - the data of a `baretma stat` run (bench/stat.h):
 * what to count (struct stat_options), what each interval gives (struct
 * stat_sample, its nodes), and how the run ended (struct stat_end).  Plain
 * data, no function: what the harness's parts (bench/stat.c,
 * bench/stat_loop.c, bench/stat_pass.c, through bench/stat_int.h) and the
 * writers share without depending on the run's code.
 */
#ifndef BARETMA_STAT_TYPES_H
#define BARETMA_STAT_TYPES_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "msr/recipe/recipe.h"
#include "msr/recipe/topdown.h"

struct cpu_machine;
struct msr_dev;

#define STAT_NODES_MAX (TMA_NMETRICS + RECIPE_EXTRA_MAX)

/* One Top-down node of a sample. */
struct stat_node {
	const char *metric;   /* perf's name: "tma_retiring", "tma_memory_bound", ... */
	const char *parent;   /* level 2: its level-1 metric; else NULL */
	int level;            /* 1 or 2 */
	double frac;          /* fraction of the sample's slots (0..1; NAN: undefined) */
	double slots;         /* frac x slots: the node's absolute slots */
};

/*
 * One sample: one interval (or the whole run) of one group of CPUs - a
 * core kind's CPUs summed (counts added event by event before the recipe's
 * formulas), or one CPU (per_cpu).  The plain data --plot and
 * --openmetrics take.
 */
struct stat_sample {
	double time;          /* seconds since the start at the interval's end */
	double length;        /* seconds the sample covers */
	int cpu;              /* the OS CPU, or -1: the group's ncpus summed */
	unsigned ncpus;       /* CPUs counted in it (an overflowed CPU is left out) */
	const unsigned *cpus; /* the group's CPUs, ascending: the CPUs of the kind
			       * that were asked for (or the one CPU, per_cpu),
			       * counted or not; valid until stat_close */
	unsigned ngroup_cpus; /* how many: ncpus when none overflowed */
	const char *kind;     /* core kind: "performance", "efficiency", "general" */
	const char *uarch;    /* "Golden Cove", "Gracemont", "Zen 4" */
	const char *recipe;   /* "intel-perf-metrics", "intel-ecore-l1", "amd-zen4" */
	const char *variant;  /* an event recipe's variant ("gracemont"); NULL for
			       * intel-perf-metrics (one for every core) */
	const char *backend;  /* how the counters were read: "msr", "rdpmc" */
	int level;            /* 1 or 2 */
	unsigned passes;      /* the passes its events were counted in, each in turn in
			       * its part of every interval (bench/stat_pass.c); 1 */
	int level_asked;      /* the level counted for; above level when the sample
			       * ended before each of its passes was counted (its
			       * level 1 then, from the passes it has) */
	double slots;         /* the recipe's SLOTS node over the sample */
	unsigned nnodes;
	struct stat_node node[STAT_NODES_MAX]; /* level 1, each followed by its children */
	double bound;         /* +/- on every frac, as a fraction: PERF_METRICS's 8-bit
			       * quantisation (bench/tma.h); 0 for an event recipe's
			       * exact counts (what bounds them: bound_text) */
	const char *bound_text; /* the recipe's own bound (msr/recipe/recipe.h ->bound) */
	const char *left_out; /* what the recipe leaves out of the vendor's formulas
			       * (msr/recipe/recipe.h ->notes), or NULL */
	unsigned flags;       /* TD_FLAG_* of the counts (msr/recipe/topdown.h) */
	bool valid;           /* slots counted: the fractions mean something */
};

/* What stat_loop hands the caller at each interval's end: @n samples
 * (groups), @drift_ns how late the wake-up was against its deadline. */
typedef void (*stat_interval_fn)(void *arg, const struct stat_sample *s, unsigned n,
				 int64_t drift_ns);

/* What to count. */
struct stat_options {
	const struct cpu_machine *machine; /* the machine described (live or a dump) */
	struct msr_dev *dev;    /* the MSR backend every CPU is programmed through (borrowed) */
	bool rdpmc;             /* read by RDPMC instead of the backend: one CPU only,
				 * the one the calling thread is then pinned to (RDPMC
				 * reads the counters of the CPU that executes it:
				 * SDM Vol. 2B "RDPMC"); a live machine only */
	const unsigned *cpus;   /* -C LIST; NULL: stat_default_cpus */
	int ncpus;
	int level;              /* 1 or 2 (in passes where it needs them); 0: per kind
				 * the highest that fits one pass */
	bool user_only;         /* count at CPL > 0 only: the event selects' USR bit
				 * without OS, fixed counter 3's IA32_FIXED_CTR_CTRL
				 * field EN_USR (bit 13) without EN_OS (bit 12) (SDM
				 * Vol. 3B 21.2.2, Figure 21-2) */
	bool force;             /* take over counters found in use */
	bool per_cpu;           /* one sample per CPU, not per core kind */
	unsigned interval_ms;   /* -I: a sample set every so many ms; 0: none (the
				 * counters are still read and reset every
				 * STAT_TICK_MS, into the total) */
	unsigned count;         /* intervals to count (with interval_ms), 0: no limit */
	char *const *argv;      /* the command to run pinned to the CPUs, or NULL */
	stat_interval_fn on_interval; /* with interval_ms: called per interval */
	void *arg;
	const sigset_t *count_mask; /* NULL, or the signal mask to count under:
				 * the caller holds SIGINT, SIGTERM and SIGHUP
				 * blocked until the count can end (the CLI from its
				 * first instruction, bench/cli/cli.h cli_stop_hold),
				 * stat_loop counts under this mask (the command
				 * inherits it) and blocks them again before it
				 * returns; one that came before is acted on as
				 * soon as the count has begun (stat_loop) */
};

/* The internal read-and-reset period without -I (PERF_METRICS precision). */
#define STAT_TICK_MS 1000u
/* ... and with a recipe in passes, each pass's part of it (the passes turn
 * at each read: bench/stat_pass.c), short enough for a short command to
 * see them all. */
#define STAT_PASS_TICK_MS 50u

/* How a run ended (stat_loop). */
struct stat_end {
	bool child;             /* a command was run */
	int status;             /* its wait status (waitpid) */
	int signal;             /* the SIGINT/SIGTERM/SIGHUP that stopped the count (and
				 * was forwarded to the command), 0 if none */
	bool signal_first;      /* it came before the command was started: the
				 * command's process died of it before executing
				 * anything (status: killed by it) */
	unsigned intervals;     /* interval ends read (the last, partial one too) */
	unsigned timed;         /* of them, those read at their deadline (the drift's) */
	double seconds;         /* counted, start to the last read */
	int64_t drift_max_ns;   /* the latest wake-up against its deadline */
	int64_t drift_median_ns;
	unsigned skipped;       /* deadlines passed while late (none read twice) */
	bool pinned;            /* the command was pinned to the CPUs (live machine) */
	bool counted;           /* the caller's: the count ran to its end */
};

#endif
