/*
 * bench/bench.h - the harness: known-answer kernels, the measurement loop
 * (on a session, bench/session.h, whose counter sources are in
 * bench/source/source.h), Top-down availability, statistics, output.
 * Library code: never prints to the terminal by itself (output functions
 * write to the FILE* they are given), never exits; 0 or -errno.
 *
 * The folder bench/ is the top layer.  Its library part (in
 * libbaretma-internal, and so in libbaretma) owns measuring: counter
 * sources (source*.c), the session (session.c), the region table
 * (region.c), the harness and its kernels (measure.c, kernels.c), Top-down
 * availability (avail.c), statistics (stats.c), the output formats
 * (output*.c) and the public API (api.c, api_marker.c: include/baretma.h).
 * It may include cpu/, msr/, include/ and itself, never the command line.
 * The command line (main.c, cli*.c, cmd_*.c, in the tool only) is the
 * thin front end above it: the command table, parsing and printing.
 */
#ifndef BARETMA_BENCH_H
#define BARETMA_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "bench/source/avail.h"
#include "bench/stats.h"
#include "cpu/cpu.h"
#include "cpu/machine.h"
#include "msr/journal/journal.h"
#include "msr/access/msr.h"
#include "msr/pmu/pmu.h"
#include "msr/recipe/recipe.h"
#include "msr/recipe/topdown.h"

/* ---------------------------------------------------------------- kernels */

struct bench_kernel_ctx {
	unsigned cpu;          /* OS CPU the thread is pinned to */
	uint64_t llc_bytes;    /* last-level cache size from hwloc (0 = unknown) */
	bool simulated;        /* the counts come from the simulated PMU
				* (session_simulated), which gives every region
				* the profile's shares whatever it does to the
				* caches (doc/simulator.md "Not modelled"): the
				* kernels that exist to miss them run the same
				* work in small buffers, ptr-chase one cycle of
				* its 4096 hops (256 KiB), icache-miss a 32 KiB
				* chain 64 times (its 32768 blocks); false (the
				* hardware, a state file, the TSC): full size */
	void *priv;            /* kernel-private state from setup */
	volatile uint64_t sink; /* results are stored here so work is not optimised away */
};

/*
 * A known-answer kernel.  run() is one repetition: the measured region.
 * It does a fixed amount of work (same every call) and takes well under a
 * millisecond to a few milliseconds, so that the 8-bit PERF_METRICS fields
 * keep precision and FC3 cannot overflow.
 */
struct bench_kernel {
	const char *name;      /* "retire-light", ... */
	const char *node;      /* tma_* node it should stress on a P-core */
	const char *why;       /* one line: why it stresses that node */
	int (*setup)(struct bench_kernel_ctx *c);    /* 0 or -errno; may be NULL */
	void (*run)(struct bench_kernel_ctx *c);
	void (*teardown)(struct bench_kernel_ctx *c); /* may be NULL */
};

/* bench_kernels - the table, in default run order; *n gets its length. */
const struct bench_kernel *bench_kernels(size_t *n);
/* bench_kernel_find - by name, or NULL.  In a build with the test hooks
 * (bench_test_hooks_built) and $BARETMA_TEST_HOOKS=1 it also finds the
 * hidden test-only kernels (bench_test_kernel_find), but never from an
 * untrusted environment (bench_test_hooks_ignored). */
const struct bench_kernel *bench_kernel_find(const char *name);
/*
 * bench_test_kernel_find - the hidden test-only kernels (bench/kernels_hooks.c):
 * "test-fault-*" and "test-overflow", "test-overflow-gp", "test-tamper",
 * "test-tamper-gp", which play the
 * hardware or another program changing the counters at a known repetition
 * (state-file backend only), and "test-sim-work", a known amount of work
 * on the simulated PMU (msr_sim_work).  NULL for other names.
 * Weak: bench/kernels_hooks.c is not in libbaretma.a, so the installed
 * baretma has no such kernels (the symbol stays NULL); only the test build
 * of the tool, t/baretma-hooks (make check), links it in.  Hidden: resolved
 * when linked, never from a host process at run time (t/0700).
 */
const struct bench_kernel *bench_test_kernel_find(const char *name)
	__attribute__((weak, visibility("hidden")));
/* bench_test_hooks_built - was bench/kernels_hooks.c linked in? */
bool bench_test_hooks_built(void);
/*
 * bench_test_hooks_ignored - $BARETMA_TEST_HOOKS is set (not empty) in a
 * build with the hooks, but the environment is not trusted (cpu/trust.h:
 * sudo, setuid), so the hidden kernels stay hidden; @why (may be NULL)
 * receives the reason.  False otherwise.
 */
bool bench_test_hooks_ignored(char *why, size_t n);

/*
 * What a kernel's setup() prepared, so tests can check it from outside
 * (the pointer-chase cycle, the JIT chain, the branch data).  A kernel
 * whose setup allocates keeps its state in ctx->priv, and that state begins
 * with this struct:
 *   ptr-chase:   base = the nodes, unit = 64 (one cache line per node; its
 *                first 8 bytes point at the next node), count = nodes
 *   branch-miss: base = the random bytes, unit = 1, count = bytes
 *   icache-miss: base = the JIT code and its entry point, unit = bytes per
 *                block, count = blocks
 */
struct bench_kernel_region {
	void *base;
	size_t bytes;   /* mapped size */
	size_t unit;    /* bytes per element */
	size_t count;   /* elements */
};

/* bench_kernel_region_of - @c's region after setup, or NULL when the
 * kernel keeps no state (or setup has not run). */
const struct bench_kernel_region *bench_kernel_region_of(const struct bench_kernel_ctx *c);

/* ------------------------------------------------------------- the run */

/* The empty bracket's counts by event, per pass of the read set (a
 * calibration keeps them: bench/study/calibrate.h), at most
 * BENCH_BRACKET_COUNTS_MAX of them. */
#define BENCH_BRACKET_COUNTS_MAX 48
#define BENCH_COUNT_NAME_MAX     64   /* bytes of an event name, with its NUL */
struct bench_bracket_count {
	char name[BENCH_COUNT_NAME_MAX]; /* the read set's count: "TOPDOWN.SLOTS",
				  * "topdown-retiring", an event of a recipe */
	unsigned pass;           /* the pass it was counted in (0 with one) */
	struct bench_stats st;   /* over the valid repetitions, in its unit */
};

/* Whether a run looks for a calibration (bench/study/calibrate.h). */
enum bench_calib_mode {
	BENCH_CALIB_AUTO = 0,    /* the state directory's, when it matches */
	BENCH_CALIB_OFF,         /* none: the run's own empty bracket (calibrate
				  * itself, compare) */
};

/*
 * What a run did with a calibration (calib_lookup): the one for this CPU
 * identity in the state directory, used when it matches, else named with
 * the reason and ignored.
 */
struct bench_calib_use {
	bool found;              /* a calibration file for this CPU exists */
	bool used;               /* it matched: its bracket cost is subtracted */
	bool malformed;          /* not used because a value of it is missing, out
				  * of its physical range or not JSON (reason
				  * names the key and the value): a warning, where
				  * a calibration for another machine is a note */
	int refused;             /* not read at all, and the run must not go on:
				  * -EPERM, the state directory's rule refuses
				  * it (msr/journal/state_dir.h; reason: why, exit 77);
				  * -EFBIG, over CALIB_FILE_MAX (reason: the
				  * cap, exit 65); 0 otherwise */
	char path[4096];
	char reason[600];        /* why not used ("" when used) */
	char date[32];           /* when it was made (ISO 8601 UTC) */
	double bracket_tsc;      /* its empty-bracket cost, TSC ticks (median) */
	double bracket_slots;    /* its slots (Top-down backends) */
	double bracket_fs[TD_NFIELDS]; /* its slots per field */
	double bracket_err_slots; /* its median quantisation error, slots */
	/* its bracket per count, by name and pass (schema 3: "counts"); the
	 * median only; subtracted instead of the run's own where it has the
	 * read set's count (bench_subtracted_cost) */
	unsigned ncounts;
	struct bench_bracket_count counts[BENCH_BRACKET_COUNTS_MAX];
	char recipe[BENCH_COUNT_NAME_MAX]; /* "NAME:VARIANT" of its event recipe,
				  * "" for PERF_METRICS or none */
	unsigned passes;         /* passes it took (1, or an event recipe's) */
	uint64_t resolution;     /* cycles; 0: none reached / not applicable */
	double cycles_per_tick;  /* core cycles per TSC tick; 0 unknown */
};

/* Progress of a run: called after each kernel (@done of @total). */
typedef void (*bench_progress_fn)(void *arg, const char *kernel, size_t done, size_t total);

struct bench_options {
	const char *kernels;     /* comma-separated names, NULL = all */
	int cpu;                 /* -1 = choose */
	enum bench_backend_id backend;
	unsigned reps;           /* measured repetitions per kernel */
	unsigned warmup;         /* unmeasured repetitions before them */
	int level;               /* 1 or 2; 0 = the highest the CPU has */
	bool user_only;          /* FC3 counts at CPL > 0 only */
	bool force;              /* take over FC3/PERF_METRICS in use */
	bool delta_regions;      /* --region-method delta (rdpmc, metrics-clear kinds) */
	bool rdpmc_always;       /* the caller will set the rdpmc sysfs value to 2
				  * before bench_measure (--rdpmc-always): a failed
				  * RDPMC probe with rdpmc 0/1 does not rule rdpmc out
				  * until bench_recheck */
	const struct cpu_machine *machine; /* the machine described (live or a CPUID
				  * dump: its CPUs are chosen and checked) and the
				  * one we run on (pinned to, never for a dump);
				  * NULL: bench_open opens the live machine */
	enum bench_calib_mode calibration; /* AUTO: use a matching calibration */
	/* The kernels to run after empty instead of --kernel's (calibrate's
	 * loops); NULL: by name. */
	const struct bench_kernel *const *kernel_list;
	size_t nkernel_list;
	bench_progress_fn progress;  /* may be NULL */
	void *progress_arg;
	/* The guarded run the measurement writes through (msr/guard/guard.h): its
	 * MSR backend (borrowed; the session opens $BARETMA_MSR's when NULL)
	 * and its journal, which saves every register before its first write
	 * and gates the backend (msr/access/msr.h).  bench_run needs both when the
	 * chosen backend programs the PMU (rdpmc, msr). */
	struct msr_dev *dev;
	struct journal *journal;
};
#define BENCH_PERF_CHANGED_MAX 8 /* msr/pmu/pmu.h saves 4 registers a CPU */
#define BENCH_DEFAULT_REPS   201
#define BENCH_DEFAULT_WARMUP 20
#define BENCH_MAX_REPS       1000000u

struct bench_kernel_result {
	const struct bench_kernel *kernel;
	unsigned reps;          /* measured repetitions */
	unsigned invalid;       /* repetitions whose Top-down is discarded: the
				 * sum of the six counts below (each repetition
				 * counted once, under its first reason) */
	unsigned tampered;      /* the tamper check before or after failed
				 * (counters changed by someone else) */
	unsigned overflow;      /* IA32_PERF_GLOBAL_STATUS bit 35 or 48 set after
				 * it (or unreadable) */
	unsigned slots_back;    /* TD_FLAG_SLOTS_BACK: slots went backwards */
	unsigned l1_sum;        /* TD_FLAG_L1_SUM: level-1 bytes beyond the rounding */
	unsigned zero_slots;    /* TD_FLAG_ZERO_SLOTS: no slots counted */
	unsigned below_bracket; /* slots counted, but no more than the empty
				 * bracket subtracted from them: a region shorter
				 * than the bracket's jitter, not a counter fault */
	unsigned normalised;    /* valid repetitions with a level-1 sum != 255
				 * (within the rounding): normalised by the sum */
	struct bench_stats tsc; /* TSC ticks per repetition, empty bracket subtracted */
	bool topdown;
	bool events;            /* its Top-down is an event recipe's (the reasons of
				 * invalid repetitions then name its counters) */
	struct bench_stats slots;               /* slots per repetition, empty subtracted */
	struct bench_stats tma[TMA_NMETRICS];   /* fractions 0..1; n 0 for a node the
						 * recipe does not define */
	/* The recipe's nodes outside the twelve (AMD's smt_contention, the
	 * E-core's tma_resource_bound): name (static), level, fractions. */
	unsigned nextra;
	const char *extra_name[RECIPE_EXTRA_MAX];
	int extra_level[RECIPE_EXTRA_MAX];
	struct bench_stats extra[RECIPE_EXTRA_MAX];
	double bound;           /* median 8-bit quantisation bound, fraction: the
				 * region's two readings' error plus the subtracted
				 * bracket's, over the region's slots */
	double read_bound;      /* its first part alone: median over the valid
				 * repetitions of the two readings' err_slots / slots */
	double bracket_bound;   /* its second: median of the subtracted bracket's
				 * err_slots / slots (0: nothing subtracted) */
	unsigned flags;         /* TD_FLAG_* seen in the valid repetitions
				 * (informational: negative, l2 above, normalised) */
	bool below_resolution;  /* its region is shorter than the calibration's
				 * resolution (calib_mark_below) */
	double region_cycles;   /* the region in core cycles that judged it (0: not judged) */
};

struct bench_result {
	struct cpu_info cpu;     /* identity */
	unsigned cpu_used;       /* OS CPU measured on */
	bool membind_ok;
	enum bench_backend_id backend;
	struct bench_avail avail;
	int level;               /* level reported (0 when no Top-down) */
	uint64_t tsc_hz;         /* TSC frequency estimate (Hz), 0 when unknown */
	double empty_tsc;        /* median TSC ticks of the run's own empty bracket */
	/* The run's own empty bracket over its repetitions (calibrate records
	 * them): TSC ticks, and with Top-down its slots and slots per field
	 * (from the valid repetitions), and the median quantisation error. */
	struct bench_stats bracket_tsc, bracket_slots, bracket_fs[TD_NFIELDS];
	double bracket_err_slots;
	unsigned nbracket_counts; /* the bracket per count of the read set(s), by name
				  * and pass (bracket_slots: its SLOTS node) */
	struct bench_bracket_count bracket_counts[BENCH_BRACKET_COUNTS_MAX];
	struct bench_calib_use calib; /* the calibration: used (its bracket
				  * subtracted instead of the run's own) or why not */
	size_t nkernels;
	struct bench_kernel_result *kernels;
	char *note;              /* "; "-separated notes, e.g. why the msr backend was
				  * chosen; on the heap (cpu/text.h), NULL: none;
				  * freed by bench_result_free */
	char *kinds_warning;     /* hwloc's CPU kinds disagree with CPUID's
				  * (cpu_topo_check_kinds): how, on the heap, NULL
				  * when they agree; freed by bench_result_free */
	bool rdpmc_pending;      /* rdpmc chosen on the promise of rdpmc_always */
	const char *reads;       /* what a reading holds, one phrase (the source's
				  * read set: "IA32_PERF_METRICS", perf's counts) */
	const char *bound_text;  /* what bounds its numbers (read_bound_text) */
	const struct recipe *recipe; /* the event recipe measured (msr/recipe/recipe.h: its
				  * name, variant and ->bound), NULL for
				  * PERF_METRICS, perf's group or no Top-down */
	const struct recipe *formulas; /* the recipe whose formulas made the numbers
				  * (bench/tma.h tma_recipe: ->recipe, or
				  * intel-perf-metrics for PERF_METRICS and perf's
				  * group); its ->notes say what it leaves out of
				  * the vendor's formulas.  NULL: no Top-down */
	unsigned passes;         /* passes its events took (1: all at once) */
	bool smt_on;             /* its formulas' smt_on (SMT halving) */
	/* Tamper check: IA32_FIXED_CTR_CTRL's FC3 field and IA32_PERF_GLOBAL_CTRL
	 * bits 35/48 read between repetitions (pmu_verify), never inside a bracket. */
	struct {
		bool detected;    /* some check found them changed */
		unsigned samples; /* measured repetitions marked invalid for it */
		char *message;    /* "cpu N: IA32_FIXED_CTR_CTRL changed from 0x3333
				   * to 0x0333 during kernel K (perf started on this
				   * CPU?): N samples marked invalid", on the heap
				   * (bench_result_free); NULL when not detected */
	} tamper;
	/* Overflow check: IA32_PERF_GLOBAL_STATUS bits 35/48 read after every
	 * repetition, outside the bracket. */
	struct {
		unsigned samples; /* measured repetitions marked invalid for it */
		char *message;    /* on the heap (bench_result_free); NULL when none */
	} overflow;
	/* A block of a perf source in a guarded run (bench_run with a journal):
	 * the registers the journal saved for the CPU that the kernel's
	 * perf_event left changed when the group closed, before bench_run put
	 * them back (journal_diff), in saved order. */
	struct journal_change perf_changed[BENCH_PERF_CHANGED_MAX];
	int nperf_changed;
};

/* A run of the built-in kernels (bench/measure.c) on a session
 * (bench/session.h). */
struct bench_session;

/*
 * A run in three steps, so that the command line can take locks, check
 * ownership, begin the journal and change settings (with consent) between
 * choosing the CPU and writing to it:
 *
 * bench_open - identify the machine opt->machine describes, choose the CPU
 * among its CPUs (cpu_machine_choose: a CPUID dump's own CPUs or topology)
 * and pin to it (live only: a dump's CPU is never pinned to, res->note
 * says so), open the MSR backend, decide availability and the backend.
 * Reads only.  @out receives the session (free with bench_close, also on error).
 * Returns 0; -EINVAL (bad option, e.g. unknown kernel); -ERANGE (bad
 * counts); -ENXIO (bad CPU); -EOPNOTSUPP when opt->cpu is a hybrid part's
 * E-core (no PERF_METRICS, cpu_topdown_check_cpu) and the backend is not
 * tsc: res->cpu and res->cpu_used are filled, nothing was pinned or
 * written; -ENODEV with res->avail filled when an explicitly requested
 * backend cannot work; -errno otherwise.
 */
int bench_open(const struct bench_options *opt, struct bench_result *res,
	       struct bench_session **out);

/* bench_session_programs - the chosen backend programs FC3/PERF_METRICS
 * (rdpmc or msr): the run writes MSRs. */
bool bench_session_programs(const struct bench_session *s);

/* bench_session_dev - the MSR backend of the session (NULL when none opened). */
struct msr_dev *bench_session_dev(const struct bench_session *s);

/*
 * bench_recheck - decide availability and the backend again (after the
 * caller changed the rdpmc setting for opt->rdpmc_always).  Reads only.
 * Returns as bench_open's backend choice: 0, -ENODEV, -EINVAL.
 */
int bench_recheck(struct bench_session *s);

/*
 * bench_measure - program (saving every register in @j first), run every
 * kernel (warm-up, then reps, each bracketed, with the tamper check
 * between repetitions), stop, and compute statistics.  The registers are
 * left to the caller, @j's owner: journal_restore(@j) at the end of the
 * run (registers, then settings: msr/journal/journal.h order), or
 * journal_restore_regs(@j) between blocks.  A backend that programs
 * (bench_session_programs) needs @j, the journal of the session's device
 * (journal_set_dev): without it -EINVAL and nothing is written; one that
 * writes nothing takes NULL.
 * Returns 0 (tampering is not an error: res->tamper); -EBUSY when
 * FC3/PERF_METRICS are in use and !opt->force (res->avail.reason);
 * -EINVAL (no journal); the errors of journal_save_regs; -errno otherwise.
 */
int bench_measure(struct bench_session *s, struct journal *j);

/* bench_close - close the backend, unpin nothing, free @s (NULL is fine). */
void bench_close(struct bench_session *s);

/*
 * bench_run - one block of a guarded run: bench_open on opt->dev,
 * bench_measure with opt->journal, then, when it programmed, every
 * register put back through the journal (journal_restore_regs: the journal
 * keeps them saved for the next block and for a signal or `pmu restore`),
 * bench_close.  The studies (compare, calibrate, validate) run their
 * blocks this way inside the guard their command took.  A backend that
 * programs without opt->journal is -EINVAL (res->avail.reason), nothing
 * written.  A block of a perf source (perf, perf-rdpmc) with opt->journal
 * hands the counters back the same way, once the kernel closed its group:
 * what perf_event left in them goes to res->perf_changed first, and a
 * fixed counter 3 still enabled in IA32_FIXED_CTR_CTRL (bits 15:12) is
 * -EBUSY (res->avail.reason: another perf session counts on it).
 * Returns bench_measure's, -EBUSY, or the restore's -errno.
 */
int bench_run(const struct bench_options *opt, struct bench_result *res);
void bench_result_free(struct bench_result *res);


/*
 * bench_json_text - @s as a JSON string: the true string when it is UTF-8
 * (jansson writes its control characters as \u00XX), else its escaped form
 * (cpu/escape.h), as a JSON string must be UTF-8 (RFC 8259 section 8.1)
 * and a CPUID brand or a file's bytes need not be; null for NULL.  NULL
 * on ENOMEM.  Every string of the documents that comes from CPUID, a file
 * or the environment goes through it.
 */
json_t *bench_json_text(const char *s);

/* What baretma measures on a core kind (info): its PERF_METRICS, or its
 * event recipe through the rdpmc and msr sources (bench/source/source.h). */
struct bench_kind_topdown {
	bool measured;           /* baretma measures this kind's Top-down */
	const struct recipe *recipe; /* the event recipe (variant chosen for the kind's
				  * uarch and fixed counters), NULL for PERF_METRICS
				  * or none */
	const struct recipe *formulas; /* the recipe whose formulas make its numbers
				  * (the event recipe, or intel-perf-metrics'
				  * variant for the uarch), NULL: none */
	int level;               /* the highest level measured, 0 when not */
	int passes[2];           /* passes at level 1 and 2 (SMT off; 0: not defined) */
	char why[300];           /* why not measured, "" when measured */
};

/* bench_kind_topdown - @k's (bench/doc_info.c). */
void bench_kind_topdown(const struct cpu_kind *k, struct bench_kind_topdown *out);

/* cpu_info_to_json - the "info" JSON object (shared by info and bench). */
json_t *cpu_info_to_json(const struct cpu_info *ci);

/*
 * host_to_json - the "host" object every document a host writes carries
 * (doc/json.md "Host"): {"hostname": uname(2)'s nodename,
 * escaped where not UTF-8 (bench_json_text), "machine_id": /etc/machine-id's
 * 32 hex digits}, each null where unknown (cpu/host_id.h).  Read once per
 * process.  New reference; NULL on ENOMEM.
 */
json_t *host_to_json(void);

/*
 * env_to_json / env_print - the environment preflight (cpu/environ.h) of
 * the machine baretma runs on, with its hypervisor and virtual PMU from
 * @host (cpu_machine_host: always this machine, also when a CPUID dump is
 * described; NULL: unknown) and the RDPMC probe result of @a (may be NULL,
 * or not probed for a dump's CPU: "not run"): the "environment" object of
 * every JSON document, and the block `info` prints.  Unknown values are
 * JSON null / "unknown".
 */
struct cpu_env;
json_t *env_to_json(const struct cpu_env *e, const struct cpu_host *host,
		    const struct bench_avail *a);
void env_print(FILE *f, const struct cpu_env *e, const struct cpu_host *host,
	       const struct bench_avail *a);

/*
 * bench_hypervisor_text - the hypervisor as one phrase for a text line,
 * into @buf (@n bytes; BENCH_HV_TEXT_MAX holds the longest), returned.
 * @cpuid_name and @sig: CPUID.40000000H's name and signature
 * (cpu_hypervisor_name, cpu_hypervisor_signature; @cpuid_name NULL:
 * CPUID.1:ECX[31] clear).  @e: the kernel's view of this machine
 * (cpu_env.hv_kernel), NULL for a CPUID dump (no kernel to ask).  One
 * name where the two agree (cpu_hypervisor_agree) or the kernel's is
 * unknown ("KVM", "none (bare metal)", "unknown (CPUID 0x40000000 says
 * 'SIG')"); where they differ both, each with its source: "KVM (the
 * kernel, by /dev/kmsg 'Hypervisor detected: ...'), CPUID 0x40000000 says
 * 'bhyve bhyve '".  Unescaped: print it with esc_fprintf.
 */
#define BENCH_HV_TEXT_MAX 192
const char *bench_hypervisor_text(char *buf, size_t n, const char *cpuid_name,
				  const char *sig, const struct cpu_env *e);

#endif
