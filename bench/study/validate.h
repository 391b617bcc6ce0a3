/*
 * bench/study/validate.h - `baretma validate`: does this CPU's PMU behave as the
 * SDM, the kernel and baretma's model table say?  A checklist run per CPU
 * through the MSR backend (the device, a state file, or the simulated
 * PMU), each check PASS, FAIL or SKIP with the value measured, the value
 * expected and where that expectation comes from.  A check that could not
 * be made is SKIP with its reason, never PASS; a check whose premise
 * failed (fixed counter 3 does not count) is SKIP "depends on ...", so
 * that one fault fails one check.
 *
 * The caller guards the run (locks, a journal of kind
 * JOURNAL_MSR_WRITE: validate saves every register before it first
 * writes it, through that journal, and the guard's restore puts them
 * back).  Library code: no printing.
 */
#ifndef BARETMA_VALIDATE_H
#define BARETMA_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bench/bench.h"

enum validate_status { VALIDATE_SKIP = 0, VALIDATE_PASS, VALIDATE_FAIL };

/* One check on one CPU. */
struct validate_result {
	unsigned cpu;
	const char *id;           /* "fc3_counts", ...: man baretma-validate */
	enum validate_status status;
	char *measured;           /* what was seen, on the heap (vc_measured: the
				   * events check's numbers are counts of 48-bit
				   * counters, ~200 bytes at worst); NULL when skipped */
	char *expected;           /* what should be seen, likewise */
	const char *source;       /* where the expectation comes from */
	char *reason;             /* why SKIP or FAIL, one line, on the heap (it may
				   * quote an availability reason naming a file:
				   * any length; validate_report_free); NULL on PASS
				   * without one */
};

struct validate_options {
	const unsigned *cpus;     /* OS CPUs to check */
	unsigned ncpus;
	int level;                /* 1 or 2: the level-2 checks only at 2; 0: the CPU's */
	bool perf;                /* run the perf_event checks (compare) */
	const struct cpu_machine *machine;
	struct msr_dev *dev;      /* the guarded run's MSR backend */
	struct journal *j;        /* its journal (kind JOURNAL_MSR_WRITE) */
	bool live_rdpmc;          /* these are this machine's CPUs behind its MSR
				   * device: the RDPMC checks pin to each CPU and
				   * probe RDPMC (a child) before using it */
	bool identity_only;       /* no MSR access (the reason in no_msr): the
				   * identity checks from CPUID only */
	const char *no_msr;
};

struct validate_report {
	struct validate_result *r; /* n results, in check order per CPU */
	size_t n, cap;
	unsigned pass, fail, skip;
	/* for the output only, set by the caller after validate_run (may be
	 * NULL): the CPUs' identity (their core kinds) and the MSR backend */
	const struct cpu_info *ci;
	const char *backend;
};

/*
 * validate_run - every check on every CPU of @o into @rep (allocated;
 * validate_report_free).  Returns 0 (the verdicts are in @rep), -ENOMEM,
 * or -errno of an access that left the run unable to go on (journal
 * writes).
 */
int validate_run(const struct validate_options *o, const struct cpu_info *ci,
		 struct validate_report *rep);

void validate_report_free(struct validate_report *rep);


/* ------------------------------------------------ shared by the check files */

/* The state of one CPU's checks (bench/validate*.c). */
struct validate_ctx {
	const struct validate_options *o;
	const struct cpu_info *ci;
	const struct cpu_kind *kind;
	unsigned cpu;
	int level;                /* PERF_METRICS level checked */
	struct validate_report *rep;
	uint64_t metrics;         /* PERF_METRICS after a short run (metrics_follow_fc3) */
	bool fc3_counts, metrics_ok, perf_hands_back;
	bool wrote;               /* a register was written (vc_save): hand_over
				   * puts the journal's registers back */
	int err;                  /* an access error that stops the CPU's checks */
	char why[240];            /* a reason being built (vc_add copies it) */
};

/* vc_measured / vc_expected - @r's measured / expected text, printf(@fmt,
 * ...) on the heap; out of memory: c->err = -ENOMEM (the CPU's checks stop). */
void vc_measured(struct validate_ctx *c, struct validate_result *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void vc_expected(struct validate_ctx *c, struct validate_result *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* vc_add - record one result; the printf-style @fmt fills reason. */
struct validate_result *vc_add(struct validate_ctx *c, const char *id, const char *source,
			       enum validate_status st, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* vc_read / vc_write - an MSR of the CPU; vc_write saves it in the run's
 * journal (vc_save) before its first write.  vc_save - @msr saved in the
 * journal (read now) unless it is already, or is 0x390 (write-1-to-clear:
 * nothing to save, journal_data_permits).  0 or -errno. */
int vc_read(struct validate_ctx *c, uint32_t msr, uint64_t *v);
int vc_write(struct validate_ctx *c, uint32_t msr, uint64_t v);
int vc_save(struct validate_ctx *c, uint32_t msr);
/* vc_freeze - IA32_PERF_GLOBAL_CTRL 0 (msr/pmu/pmu.h pmu_freeze).  vc_start -
 * msr/pmu/pmu.h pmu_region_start: frozen, FC3's field OS|USR | @fc3_extra
 * (METRICS_CLEAR_EN), @other_fields of other fixed counters on, FC3 then
 * PERF_METRICS to 0 (the kernel's order), then GLOBAL_CTRL bit 35 (and 48 with @metrics)
 * | @other_enable.  Every register saved first.  0 or -errno. */
int vc_freeze(struct validate_ctx *c);
int vc_start(struct validate_ctx *c, bool metrics, uint64_t fc3_extra, uint64_t other_fields,
	     uint64_t other_enable);
/* vc_failed - a SKIP for an access that failed; stops the CPU's checks. */
void vc_failed(struct validate_ctx *c, const char *id, const char *src, int rc);
/* vc_work - a short known region: 20000 dependent ADDs (~20000 cycles). */
void vc_work(void);

/*
 * validate_clear_verdict - rdpmc_metrics_clear's verdict (Lion Cove and
 * later; the source at metrics_clear in bench/study/validate_metrics.c): from an
 * RDPMC of fixed counter 3 (@slots_before), the RDPMC of PERF_METRICS in
 * metrics-clear mode (@metrics: the value before the clear) and an RDPMC
 * of fixed counter 3 right after (@slots_after, counting again from 0).
 * PASS when @metrics is not 0 and @slots_after is at most
 * VALIDATE_CLEAR_AFTER_PCT percent of @slots_before; else FAIL with @why.
 * Pure.
 */
#define VALIDATE_CLEAR_AFTER_PCT 10u
enum validate_status validate_clear_verdict(uint64_t slots_before, uint64_t metrics,
					    uint64_t slots_after, const char **why);

/*
 * metrics_match_events (bench/study/validate_events.c): PERF_METRICS's
 * level 1 against the event-based one (recipe intel-icl-events) on one
 * region.  A node's allowance, in percentage points, is
 *   100 x (pm_bound + ev_bound + |model|) + VALIDATE_EVENTS_MARGIN_PP:
 * PERF_METRICS's 8-bit bound (msr/recipe/topdown.h td_value_bound), the events'
 * (one count per counter: they start and stop on one write), what the two
 * formulas differ by by construction (validate_events.c: the corrections
 * perf's metrics add to PERF_METRICS, measured), and a margin for what is
 * not known: how closely the general-purpose topdown events match the
 * PERF_METRICS fields on silicon is unconfirmed (no public document
 * states it), so the margin is wide - 10 points, well above what the
 * known differences make and well below what a broken field or event
 * makes (a field that does not follow its slots, an event that does not
 * count: tens of points).  The measured differences are reported, so that
 * a lab sees how close they came.
 */
#define VALIDATE_EVENTS_MARGIN_PP 10

/* One side-by-side of the four level-1 nodes (enum td_metric order:
 * tma_retiring, tma_bad_speculation, tma_frontend_bound, tma_backend_bound). */
struct validate_l1_cmp {
	double pm[TMA_NLEVEL1];    /* PERF_METRICS's fractions */
	double ev[TMA_NLEVEL1];    /* the events' fractions */
	double pm_bound, ev_bound; /* their bounds, fractions */
	double model[TMA_NLEVEL1]; /* what the formulas differ by, fractions */
	double diff[TMA_NLEVEL1];  /* out: pm - ev, percentage points */
	double allow[TMA_NLEVEL1]; /* out: the allowance, percentage points */
	unsigned worst;            /* out: FAIL: the node furthest beyond its allowance;
				    * PASS: the node of the largest |diff| */
};

/*
 * validate_events_verdict - PASS when every node's |diff| is within its
 * allowance (above), FAIL when one is beyond, SKIP when a number is not
 * finite; fills diff, allow and worst.  Pure.
 */
enum validate_status validate_events_verdict(struct validate_l1_cmp *c);

/*
 * validate_events_texts - metrics_match_events's measured and expected
 * texts from @c (after validate_events_verdict), on the heap (*@measured,
 * *@expected replaced): whole, whatever the numbers (a count of a 48-bit
 * counter over few slots is a 17-digit difference).  0 or -ENOMEM.  Pure.
 */
int validate_events_texts(const struct validate_l1_cmp *c, const char *variant, uint64_t slots,
			  char **measured, char **expected);

/* The groups of checks, in order (bench/study/validate_pmu.c, bench/study/validate.c,
 * bench/study/validate_metrics.c, bench/study/validate_events.c). */
void validate_identity(struct validate_ctx *c);
void validate_fc3(struct validate_ctx *c);
void validate_metrics(struct validate_ctx *c);
void validate_rdpmc(struct validate_ctx *c);
void validate_events(struct validate_ctx *c);
/* validate_events_identity_only - metrics_match_events's SKIP in a run
 * without MSR access, with the reason (a hypervisor that hides the PMU). */
void validate_events_identity_only(struct validate_ctx *c);

#endif
