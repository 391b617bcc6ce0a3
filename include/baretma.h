/*
 * <baretma.h> - measure Intel Top-down (TMA) level 1 and 2 of your own code
 * from fixed counter 3 (TOPDOWN.SLOTS) and IA32_PERF_METRICS, programmed
 * without perf_event, with an error bound, and with every register and
 * setting put back as found (man 3 baretma).
 *
 *     struct baretma *bm;
 *     struct baretma_options o = BARETMA_OPTIONS_INIT;
 *     struct baretma_result r;
 *
 *     if (baretma_open(&bm, &o) < 0)
 *             fprintf(stderr, "%s\n", baretma_last_error());
 *     baretma_region_begin(bm, "solve");
 *     solve();
 *     baretma_region_end(bm, "solve");
 *     baretma_region_get(bm, "solve", &r);   // r.tma[BARETMA_TMA_RETIRING] ...
 *     baretma_close(bm);
 *
 * Units: TSC ticks, slots (TOPDOWN.SLOTS: pipeline width x core cycles),
 * percent of slots for every tma_* node, percentage points for the bound.
 * Errors: functions returning int return 0 or -errno; baretma_last_error()
 * then gives one line with the cause and the remedy (the text the
 * `baretma` tool prints).
 *
 * Threads: one session per thread, used only by the thread that opened it
 * (it is pinned to the session's CPU: RDPMC reads the CPU it runs on), as
 * LIKWID's markers: each thread of a threaded harness opens its own
 * session on its own CPU; their results are per thread, and the markers
 * also print them combined.  A begin or end from another thread, or from
 * the session's thread moved to another CPU, is refused and counted
 * (baretma_misuse), never merged.  Sessions on different threads are
 * independent.  fork(): the child never
 * restores or releases the parent's session; it must not use it.
 * Signals: the library installs no handler unless asked
 * (baretma_guard_signals); without it, a process killed mid-session leaves
 * its journal, and `baretma pmu restore` puts everything back.
 *
 * Hardware facts: linux arch/x86/events/intel/core.c and
 * tools/perf/Documentation/topdown.txt (RDPMC of FC3 and PERF_METRICS).
 */
#ifndef BARETMA_H
#define BARETMA_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 2: struct baretma_options grew region_method (libbaretma.so.2) */
#define BARETMA_API_VERSION 2

/* ------------------------------------------------------------- session */

struct baretma; /* opaque: one measuring session */

struct baretma_options {
	int cpu;              /* OS CPU to measure on; -1: choose one whose core kind
			       * has PERF_METRICS (a P-core on hybrid parts), with hwloc;
			       * an E-core, a pre-Ice Lake core or an AMD Zen 4/5 core
			       * is measured by its event recipe (README, bench) */
	const char *backend;  /* "auto" (best that works), "rdpmc", "msr", "perf"
			       * (perf_event's Top-down group, read(2)), "perf-rdpmc"
			       * (the same, RDPMC through its user pages), "tsc" */
	int level;            /* Top-down level 1 or 2; 0: the highest the CPU has in
			       * one pass (a region runs once: an event recipe's level
			       * that needs passes is refused, -EINVAL) */
	bool user_only;       /* fixed counter 3 counts at CPL > 0 only */
	bool force;           /* take over fixed counter 3 / PERF_METRICS in use, or a
			       * CPU another run's journal holds (said in a warning) */
	bool wait;            /* wait for another baretma on the CPU instead of -EBUSY */
	const char *cpuid_dump; /* describe another machine (a dry run with
				 * BARETMA_MSR=state:FILE); NULL: this one */
	const char *region_method; /* how a region is counted from its readings
			       * of TOPDOWN.SLOTS and IA32_PERF_METRICS:
			       * "metrics-clear": RDPMC metrics-clear regions.  With
			       * IA32_FIXED_CTR_CTRL bit 14 set, each RDPMC of
			       * PERF_METRICS returns the metrics since the last one
			       * and clears them and fixed counter 3 (linux
			       * arch/x86/events/intel/core.c, commit 0e45818ec189;
			       * enumerated by IA32_PERF_CAPABILITIES bit 19, Lion
			       * Cove P-cores and later): a region is the sum of the
			       * segments between its own readings - nested or
			       * overlapping regions included -, each quantised
			       * alone (bound: 1/255 of each segment's slots), with
			       * no subtraction.  Refused with -EOPNOTSUPP (and
			       * baretma_last_error saying why) where the core kind
			       * does not enumerate the mode, or the backend is not
			       * rdpmc, or the kind is measured by an event recipe.
			       * "delta": the slot-weighted difference of the two
			       * readings (linux tools/perf/Documentation/topdown.txt),
			       * every kind and backend.  "auto" (or NULL): metrics-
			       * clear where it can be used, else delta.  Another
			       * text: -EINVAL.  baretma_notes says which is used
			       * ("note: regions: ..."). */
};

/* Defaults: choose the CPU, backend auto, the highest level, region
 * method auto. */
#define BARETMA_OPTIONS_INIT { -1, "auto", 0, false, false, false, NULL, "auto" }

/*
 * baretma_open - open a measuring session: identify the CPU, pin the
 * calling thread to it (hwloc: that one CPU, and its memory to the CPU's
 * NUMA node, while the session is open; threads the harness creates
 * meanwhile inherit that binding; baretma_close puts back the binding and
 * memory policy the thread had before), take the locks, check who owns the PMU, write the
 * journal, program fixed counter 3 and PERF_METRICS - the guarded sequence
 * of `baretma bench`.  @opt may be NULL (BARETMA_OPTIONS_INIT).
 * Without a usable PMU (a VM, an AMD CPU) backend "auto" opens a TSC-only
 * session: counts and TSC ticks, no Top-down (baretma_result.level 0).
 * The library changes no system setting (msr.allow_writes, the rdpmc
 * sysfs file, the NMI watchdog): where one stands in the way, the error
 * names the file and the value to write (the tool's `baretma bench` has
 * flags that consent to the change, and puts it back).
 * The MSR backend is $BARETMA_MSR's (man 1 baretma); one that cannot be
 * opened fails backends "auto", "rdpmc" and "msr" with its own error and
 * line (never a quiet TSC-only session); "tsc" and "perf" need none.
 * Returns 0 and *bm, or -errno: -EINVAL (bad option; a malformed state
 * file or simulator profile named by $BARETMA_MSR), -ENOENT (no such
 * CPUID dump, or file $BARETMA_MSR names), -ENXIO (no such CPU),
 * -EOPNOTSUPP (@opt->cpu is an E-core without PERF_METRICS or an event
 * recipe),
 * -ENODEV (the backend asked for cannot work here), -EBUSY (counters or
 * CPU in use, a journal holds the CPU), -EACCES/-EPERM (not root,
 * lockdown, msr.allow_writes=off; a $BARETMA_MSR other than the device's
 * under sudo), -EEXIST (a journal left by an earlier process with this
 * PID: `baretma pmu restore`), -EMFILE (too many sessions open in the
 * process), -errno of the system; baretma_last_error() says why and what
 * to do.
 */
int baretma_open(struct baretma **bm, const struct baretma_options *opt);

/*
 * baretma_close - restore every register and setting the session changed,
 * remove its journal, release its locks, bind the calling thread back to
 * the CPUs and memory policy it had before baretma_open, free @bm (NULL
 * is fine).  From another thread than the one that opened it (once that
 * one has stopped measuring: the markers' close), the calling thread's
 * binding is left as it is.
 * Returns 0, or -errno when the restore failed (the journal then stays for
 * `baretma pmu restore`; baretma_last_error() says so).
 */
int baretma_close(struct baretma *bm);

/*
 * baretma_notes - what baretma_open noted about the session: lines ending
 * in '\n', each starting "note: " (the CPU not pinned in a dry run, why
 * rdpmc was passed over for msr, why a session has no Top-down, settings
 * set for the session or left alone, other counters in use left as they
 * are) or "warning: " (a forced takeover, the NMI watchdog on, who uses
 * the PMU unknown, hwloc's CPU kinds disagreeing with CPUID), or "  "
 * when it continues the line before; "" when none (or @bm NULL).  The
 * markers print them to stderr.  Valid until baretma_close.
 */
const char *baretma_notes(const struct baretma *bm);

/*
 * baretma_last_error - the calling thread's last error message, one line
 * with the cause and the remedy, "" when none.  Valid until the thread's
 * next call into the library.
 */
const char *baretma_last_error(void);

/*
 * baretma_guard_signals - opt in: on a deadly signal every open session of
 * the process is restored from its journal, then the signal goes on to the
 * previous handler (or, when there was none, its default action).
 * Signals: SIGINT, SIGTERM, SIGHUP, SIGQUIT unless ignored; SIGSEGV,
 * SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS always; SIGPIPE,
 * SIGALRM, SIGUSR1/2, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF only while at
 * their default action.  A host that takes SIGSEGV on purpose (a JVM, Go)
 * must not opt in: its sessions would be restored at the first one.  The
 * calling thread gets an alternate signal stack (128 KiB) when it has
 * none; a stack overflow on another thread without one dies with the
 * journal left for `baretma pmu restore`.  Calls count; thread-safe.
 * Returns 0 or -errno (-ENOMEM, or from sigaction/sigaltstack).
 */
int baretma_guard_signals(void);

/* ------------------------------------------------------------- regions */

/* The twelve nodes, named as perf's tma_* metrics (baretma_tma_name). */
enum baretma_tma {
	BARETMA_TMA_RETIRING = 0, BARETMA_TMA_BAD_SPECULATION,
	BARETMA_TMA_FRONTEND_BOUND, BARETMA_TMA_BACKEND_BOUND,
	BARETMA_TMA_HEAVY_OPERATIONS, BARETMA_TMA_LIGHT_OPERATIONS,
	BARETMA_TMA_BRANCH_MISPREDICTS, BARETMA_TMA_MACHINE_CLEARS,
	BARETMA_TMA_FETCH_LATENCY, BARETMA_TMA_FETCH_BANDWIDTH,
	BARETMA_TMA_MEMORY_BOUND, BARETMA_TMA_CORE_BOUND,
	BARETMA_TMA_N
};

/* baretma_tma_name - "tma_retiring", ...; NULL out of range. */
const char *baretma_tma_name(enum baretma_tma m);

/* Quality flags (baretma_result.flags). */
#define BARETMA_FLAG_L1_SUM     0x01u /* level-1 bytes beyond 255 +/- 3 */
#define BARETMA_FLAG_L2_ABOVE   0x02u /* a level-2 field above its parent */
#define BARETMA_FLAG_ZERO_SLOTS 0x04u /* no slots counted */
#define BARETMA_FLAG_NEGATIVE   0x08u /* a field's slot delta below zero */
#define BARETMA_FLAG_SLOTS_BACK 0x10u /* slots went backwards */
#define BARETMA_FLAG_NORMALISED 0x20u /* a level-1 sum within the rounding was not 255 */

struct baretma_result {
	uint64_t count;       /* begin/end pairs */
	uint64_t invalid;     /* of those, left out of slots and tma[] */
	struct {              /* why, each pair counted once */
		uint64_t tampered, overflow, slots_back, zero_slots, l1_sum;
	} invalid_why;
	int level;            /* Top-down level of tma[] (0: none, TSC only) */
	double tsc;           /* TSC ticks, summed over all pairs */
	double slots;         /* TOPDOWN.SLOTS (an event recipe: its slots, width x
			       * cycles), summed over the valid pairs */
	double tma[BARETMA_TMA_N]; /* percent of slots over the valid pairs
				    * (level-2 entries only at level 2; NAN for a
				    * node the core's event recipe does not define,
				    * e.g. an E-core's tma_heavy_operations) */
	double bound_pp;      /* 8-bit quantisation bound of tma[], percentage points
			       * (0 for an event recipe: exact counts) */
	unsigned flags;       /* BARETMA_FLAG_* seen in the valid pairs */
};

/*
 * baretma_region_begin / baretma_region_end - bracket a region named
 * @name (at most 31 bytes; up to 64 names a session).  Regions of
 * different names nest, or overlap; a name does not nest in itself.  With
 * metrics-clear regions (region_method) each region is the sum of the
 * segments between consecutive readings of the session that lie between
 * its begin and its end.  Between the two
 * counter reads nothing allocates and, on the rdpmc backend, no system
 * call is made.  Misuse (an unknown or unbalanced name, a full table) is
 * counted, never fatal: baretma_region_get says it.  A begin or end from
 * a thread other than the one that opened @bm, or from that thread while
 * it runs on another CPU than the session's (a pinned session: the
 * counters read would be another CPU's), is refused: no pair, counted in
 * baretma_misuse, said in the calling thread's baretma_last_error.  The
 * check is made before the first reading and after the second, never
 * between them.
 */
void baretma_region_begin(struct baretma *bm, const char *name);
void baretma_region_end(struct baretma *bm, const char *name);

/*
 * baretma_region_get - the totals of every begin/end pair of @name: slot
 * counts per field summed over the valid pairs (the slot-weighted method
 * of linux topdown.txt), then as percent of their slots; res->tsc is the
 * sum of the pairs' TSC ticks (its mean: tsc / count; the median and
 * spread: baretma_region_stats).
 * Returns 0; -ENOENT (no such region); -EINVAL (@bm or @res NULL; or
 * begin/end of @name out of order: @res is filled all the same, from the
 * pairs that were whole, and baretma_last_error() counts the misuse).
 */
int baretma_region_get(struct baretma *bm, const char *name, struct baretma_result *res);

/*
 * Pairs a region keeps for its statistics: its last BARETMA_REGION_PAIRS
 * verified pairs, each pair's TSC ticks and counts (8 bytes, plus 8 per
 * event the session counts and 8 for their error and 1: 89 KiB a region
 * with PERF_METRICS's nine events, 8 KiB TSC only; 64 regions' worth
 * allocated by baretma_open, never by begin/end, and touched only as pairs
 * fill it).  Past that a region's oldest pair is overwritten: it stays in
 * the totals (baretma_region_get covers every pair), the statistics cover
 * the pairs kept, exactly.  A pair's end sums its counts and decides
 * whether it is a number; the recipe's formulas run when the region is read
 * (baretma_region_get: once; baretma_region_stats: once per pair kept).
 */
#define BARETMA_REGION_PAIRS 1024

/* Robust statistics of one quantity over a region's pairs, as `baretma
 * bench` computes them for its repetitions: quartiles by linear
 * interpolation (R's type 7, numpy's default), MAD the median of the
 * absolute deviations from the median, unscaled.  n 0: nothing was
 * measured, and every value is NAN (never 0). */
struct baretma_stat {
	uint64_t n;           /* pairs it covers */
	double median, q1, q3, min, max, mad;
};

struct baretma_region_stats {
	struct baretma_result total; /* baretma_region_get's totals */
	uint64_t pairs;       /* verified pairs the statistics cover: the last
			       * BARETMA_REGION_PAIRS of total.count */
	struct baretma_stat tsc;   /* TSC ticks of each pair (every pair, valid or not) */
	struct baretma_stat slots; /* slots of each valid pair */
	struct baretma_stat tma[BARETMA_TMA_N]; /* percent of each valid pair's own
					* slots; n 0 for a node not measured
					* (the other level, a TSC-only session) */
	double node_slots[BARETMA_TMA_N]; /* slots of each node over the valid pairs
					   * (total.tma x total.slots / 100); NAN
					   * for a node not measured */
	double bound_slots;   /* total.bound_pp in slots; NAN without Top-down */
	struct baretma_result last; /* the last pair alone, as decoded when it
				     * ended; count 0 when there is none */
};

/*
 * baretma_region_stats - per region, beyond the totals: the median,
 * quartiles, min, max and MAD of each pair's TSC ticks, slots and tma_*
 * shares (a share of a pair's own slots, in percent: its median is not the
 * slot-weighted total's share), the slots of each node and of the bound,
 * and the last pair.  Each pair's shares are computed now from the counts
 * kept (BARETMA_REGION_PAIRS): one evaluation of the recipe per pair, about
 * 1.6 ms for 1024 pairs on a 2-vCPU AMD EPYC KVM guest, the same numbers
 * to the bit as at the pair's end.  Pairs of an epoch not yet checked (a
 * region still open around it) are in neither totals nor statistics yet.  Call it from
 * any thread once the session's thread has stopped measuring.
 * Returns 0; -ENOENT (no such region); -EINVAL (@bm or @st NULL; or begin/
 * end of @name out of order, @st filled all the same, as baretma_region_get);
 * -ENOMEM.
 */
int baretma_region_stats(struct baretma *bm, const char *name, struct baretma_region_stats *st);

/* What begin/end refused, counted per session (baretma_misuse). */
struct baretma_misuse {
	uint64_t foreign_thread; /* begins and ends from a thread other than the one
				  * that opened the session: refused, the pair
				  * left out (never merged into the session) */
	uint64_t foreign_cpu;    /* begins and ends on the session's thread while it
				  * ran on another CPU than the session's (the
				  * harness re-bound it): refused, as the counters
				  * read would be another CPU's */
	uint64_t lost;           /* begins refused: more than 64 names, or a name
				  * empty or longer than 31 bytes */
	uint64_t unmatched;      /* ends of a name never begun */
};

/*
 * baretma_misuse - what @bm's begins and ends refused so far.  Each
 * refusal also sets the calling thread's baretma_last_error().  Safe from
 * any thread (the counts are atomic).  Returns 0, or -EINVAL (@bm or @m
 * NULL).
 */
int baretma_misuse(const struct baretma *bm, struct baretma_misuse *m);

/* ----------------------------------------------------- raw fast path */

/* One reading of the counters of the CPU the thread runs on. */
struct baretma_reading {
	uint64_t slots;    /* TOPDOWN.SLOTS (fixed counter 3) */
	uint64_t metrics;  /* IA32_PERF_METRICS */
	uint64_t tsc;      /* TSC ticks */
};

/*
 * baretma_read - LFENCE; RDPMC (1<<30)|3 (TOPDOWN.SLOTS); RDPMC 1<<29
 * (IA32_PERF_METRICS); RDTSC; LFENCE.  Needs user-space RDPMC (a session
 * on the rdpmc backend arranges it) and a thread pinned to a CPU whose
 * counters run (baretma_open, or `baretma pmu enable`); otherwise SIGSEGV.
 * In a session with RDPMC metrics-clear regions (region_method, the
 * default on Lion Cove and later) each baretma_read clears PERF_METRICS and
 * fixed counter 3: a pair for baretma_decode needs a session opened with
 * region_method "delta".
 */
static inline __attribute__((always_inline)) void baretma_read(struct baretma_reading *r)
{
	uint32_t lo, hi, tlo, thi;

	__asm__ __volatile__("lfence" ::: "memory");
	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"((1u << 30) | 3u) : "memory");
	r->slots = ((uint64_t)hi << 32) | lo;
	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(1u << 29) : "memory");
	r->metrics = ((uint64_t)hi << 32) | lo;
	__asm__ __volatile__("rdtsc\n\tlfence" : "=a"(tlo), "=d"(thi) :: "memory");
	r->tsc = ((uint64_t)thi << 32) | tlo;
}

/*
 * baretma_decode - the region between readings @a and @b (no reset and no
 * metrics-clear read in between: baretma_read) at @level (1 or 2): res->count 1, tsc, slots, tma[] in percent,
 * bound_pp, flags; invalid 1 when the pair cannot give numbers (flags).
 * Returns 0 or -EINVAL (bad level).
 */
int baretma_decode(const struct baretma_reading *a, const struct baretma_reading *b,
		   int level, struct baretma_result *res);

/* ----------------------------------------------------------- markers */

/*
 * LIKWID-style markers: nothing unless compiled with -DBARETMA_PERFMON.
 * BARETMA_MARKER_INIT opens the calling thread's session (options from
 * $BARETMA_CPU or the first of $BARETMA_CPUS, $BARETMA_BACKEND,
 * $BARETMA_LEVEL); in a threaded harness, BARETMA_MARKER_THREADINIT in
 * each other thread (after INIT, as LIKWID's) opens that thread's own
 * session on its own CPU: the next of $BARETMA_CPUS, else the one CPU the
 * thread is bound to, else one chosen.  START/STOP bracket a named region
 * in the calling thread's session; from a thread without one they are
 * refused and counted (never merged into another thread's).  CLOSE, on
 * INIT's thread once the other threads stopped measuring, prints every
 * region's table per thread and combined over the threads to stderr (or
 * JSON to the file $BARETMA_OUTPUT), and closes every session.  Errors
 * are printed, never fatal (man 3 baretma).
 */
#ifdef BARETMA_PERFMON
void baretma_marker_init(void);
void baretma_marker_thread_init(void);
void baretma_marker_start(const char *name);
void baretma_marker_stop(const char *name);
void baretma_marker_close(void);
#define BARETMA_MARKER_INIT        baretma_marker_init()
#define BARETMA_MARKER_THREADINIT  baretma_marker_thread_init()
#define BARETMA_MARKER_START(name) baretma_marker_start(name)
#define BARETMA_MARKER_STOP(name)  baretma_marker_stop(name)
#define BARETMA_MARKER_CLOSE       baretma_marker_close()
#else
#define BARETMA_MARKER_INIT        do { } while (0)
#define BARETMA_MARKER_THREADINIT  do { } while (0)
#define BARETMA_MARKER_START(name) do { (void)(name); } while (0)
#define BARETMA_MARKER_STOP(name)  do { (void)(name); } while (0)
#define BARETMA_MARKER_CLOSE       do { } while (0)
#endif

#ifdef __cplusplus
}
#endif

#endif
