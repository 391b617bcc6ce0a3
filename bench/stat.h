/*
 * bench/stat.h - `baretma stat`'s harness: Top-down of a set of CPUs over
 * time, perf stat --topdown's model (linux tools/perf/Documentation/
 * topdown.txt), through the MSR backend.
 *
 * One session (bench/session.h) per CPU on one borrowed MSR backend, all
 * programmed inside ONE guarded run whose journal the caller began (the
 * locks, ownership checks, journal and restore of msr/guard/guard.h): fixed
 * counter 3 and IA32_PERF_METRICS where the core kind has them, else the
 * kind's event recipe on its general-purpose and fixed counters (msr/
 * recipe.h, msr/pmu/pmu_gp.h); a level whose events need passes counts
 * them in turn, one pass a read, an interval being a read of each
 * (bench/stat_pass.c).
 *
 * Intervals.  The counters are read at each interval's end through the
 * backend (msr: pread of each CPU's counters; RDPMC would read only the
 * CPU that executes it), turned into counts (bench/source/reading.h), then
 * reset, frozen (the session's reset: IA32_FIXED_CTR3 and
 * IA32_PERF_METRICS written 0, as the SDM asks before each measurement -
 * Vol. 3B 21.3.9.3 "Performance Metrics" - and as perf's read does,
 * linux arch/x86/events/intel/core.c intel_update_topdown_event: the
 * 8-bit fields lose precision the longer they count).  The wake-ups are
 * absolute deadlines on CLOCK_MONOTONIC (clock_nanosleep TIMER_ABSTIME:
 * POSIX), start + k x interval, so a late wake-up never shifts the next:
 * the lateness of each (drift) is recorded, never accumulated.
 *
 * Counting is per CPU, not per task: whatever runs on those CPUs is
 * counted, the command's work and everything else's.
 *
 * Library code: never prints, never exits; 0 or -errno, with the reason
 * in *@why: on the heap (it quotes a command's path and availability
 * reasons naming files: any length), replaced when set, NULL until one is
 * said; the caller frees it.  Running out of memory for it leaves it as
 * it was.
 */
#ifndef BARETMA_STAT_H
#define BARETMA_STAT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cpu/cpu.h"
#include "msr/recipe/recipe.h"
#include "msr/recipe/topdown.h"

struct cpu_machine;
struct msr_dev;
struct journal;

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

struct stat_run;

/*
 * stat_default_cpus - the CPUs with a measurable recipe: every CPU of a
 * core kind of @ci with PERF_METRICS or an event recipe, into @cpus (at
 * most @max).  Returns the count (0: none).
 */
int stat_default_cpus(const struct cpu_info *ci, unsigned *cpus, int max);

/*
 * stat_open - identify, and open one session per CPU of @o (or the
 * default set) on @o->dev with the msr source, each checked (PMU checks,
 * a kind that cannot be measured, a level that needs passes).  Reads
 * only.  The calling thread's CPU affinity is as before (a session pins;
 * stat_open puts it back), except with @o->rdpmc: pinned to the CPU.
 * *@out is set, also on error (stat_close it).
 * Returns 0, or -errno with @why (which CPU, why): -ENXIO a CPU the
 * machine lacks, -EOPNOTSUPP no Top-down there, -EINVAL a level that
 * needs passes or the CPU lacks, or rdpmc with several CPUs, -ENODEV
 * nothing to count (or RDPMC unusable: @why says why).
 */
int stat_open(const struct stat_options *o, struct stat_run **out, char **why);

/* stat_cpus - the CPUs of the run (ascending) and their count; stat_info
 * - the machine's identity. */
int stat_cpus(const struct stat_run *r, const unsigned **cpus);
const struct cpu_info *stat_info(const struct stat_run *r);

/*
 * stat_program - program every CPU's counters, each register saved in @j
 * first (the caller's guarded run: journal_set_dev on @o->dev).  The
 * journal's owner restores.  Returns 0, -EBUSY (counters in use: @why),
 * -errno.
 */
int stat_program(struct stat_run *r, struct journal *j, char **why);

/*
 * stat_loop - run @o->argv (when given: forked, pinned to the CPUs where
 * the machine is this one, executed) and count until it ends, or until
 * @o->count intervals, or until SIGINT, SIGTERM or SIGHUP (forwarded to
 * the command, which is then waited for).  The three signals' handlers
 * are the loop's while it runs and put back after (an ignored one stays
 * ignored, for the command too).  With @o->count_mask, a signal held
 * (pending) when it is called is taken once the counters' first reading
 * is in: the count then ends at once, with a second reading (its totals
 * are what was counted between the two, never zeros); with a command,
 * the command's process gets it before it executes anything (it dies of
 * it: end->signal_first).  @end says how it ended.  Returns 0; -ENOEXEC with @why when the command could not be
 * executed (its errno said; it exited 127 or 126, in @end); -errno (a
 * read or reset failed, the counters were changed by someone else: @why).
 */
int stat_loop(struct stat_run *r, struct stat_end *end, char **why);

/*
 * stat_total - the whole run's samples (every interval's counts added),
 * into @s (at most @max).  Returns the count.
 */
unsigned stat_total(const struct stat_run *r, struct stat_sample *s, unsigned max);

/* stat_close - close the sessions (stat_open's), free @r (NULL fine). */
void stat_close(struct stat_run *r);

/*
 * stat_cost_ns - for the benchmark: the nanoseconds one interval end takes
 * on each CPU (read, checks, counts, reset, read), the median of @rounds,
 * outside any measured work.  Needs stat_program first.  Returns 0 or -errno.
 */
int stat_cost_ns(struct stat_run *r, unsigned rounds, double *ns_per_cpu);

/*
 * stat_drift - for the benchmark: @n absolute deadlines @period_ms apart
 * (nothing read), the lateness of each wake-up into @late_ns.  Returns 0
 * or -errno.
 */
int stat_drift(unsigned n, unsigned period_ms, int64_t *late_ns);

#endif
