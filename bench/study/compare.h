/*
 * bench/study/compare.h - `baretma compare`: the raw path (rdpmc, else msr)
 * against perf_event (the perf source) on the same CPU and kernels, in
 * alternating blocks, never both at once: each raw block programs FC3 and
 * PERF_METRICS (checking first that nobody holds them: pmu_program's
 * ownership check, so a perf group left behind fails the block) and puts
 * them back at its end; each perf block opens the kernel's group and
 * closes it.  Library code (bench/ layer): no printing.
 *
 * Statistics, per kernel and metric, over the blocks' medians:
 *  - each side's median of its block medians;
 *  - the difference raw - perf as the median of the paired differences
 *    d_i (block i of each side), with the distribution-free 95% interval
 *    of the sign test: [d_(k), d_(n+1-k)] for the largest k with
 *    P(Binomial(n, 1/2) <= k-1) <= 0.025 (Conover, Practical
 *    Nonparametric Statistics, 3rd ed., §3.2): n = 6 gives k = 1
 *    (coverage 96.9 %), n = 10 gives k = 2 (97.9 %); fewer than 6 pairs
 *    cannot reach 95 % (compare_sign_k returns 0).  The paired
 *    differences carry both sides' noise already (what drifts from block
 *    to block drifts in both halves of a pair): nothing is added for it;
 *  - the allowance a: what the two sides may differ by without any fault,
 *    their bounds (median bound_pp of their blocks) added: raw_bound +
 *    perf_bound, points (the raw path's 8-bit quantisation; perf's counts
 *    theirs, the 8-bit fields floored at each read, perf-rdpmc's
 *    PERF_METRICS the 8-bit one: bench/tma.h);
 *  - the test of H0: |median(d)| <= a against "beyond a" (the exact sign
 *    test, Conover §3.2, at the edges of the allowance): with n+ pairs
 *    d_i > a and n- pairs d_i < -a, p+ = P(B(n, 1/2) >= n+) and
 *    p- = P(B(n, 1/2) >= n-) (under H0 a pair lies beyond a on one side
 *    with probability at most 1/2), p = min(1, 2 min(p+, p-))
 *    (compare_sign_p).  p <= 0.05 exactly when the 95 % interval lies
 *    wholly outside +-a (d_(k) > a iff n+ >= n+1-k);
 *  - the verdict over the family: every (kernel, metric) compared is one
 *    hypothesis, and the run's exit status is one verdict over all of
 *    them, so the p are adjusted by Holm's step-down procedure (Holm
 *    1979, "A simple sequentially rejective multiple test procedure",
 *    Scand. J. Statist. 6:65-70; compare_holm), which keeps the chance of
 *    any false DISAGREE in the run at most COMPARE_ALPHA whatever the
 *    dependence between the metrics; DISAGREE when the adjusted p is at
 *    most COMPARE_ALPHA, else agree.  A DISAGREE's 95 % interval lies
 *    outside +-a; an interval outside +-a is not enough alone.
 */
#ifndef BARETMA_COMPARE_H
#define BARETMA_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/bench.h"

#define COMPARE_DEFAULT_PAIRS 20u /* enough for every kernel at level 2: 84
				  * hypotheses ('empty' not compared), see
				  * compare_min_pairs */
#define COMPARE_MIN_PAIRS 6u     /* the fewest for a 95 % sign-test interval */
#define COMPARE_ALPHA 0.05       /* family-wise error of the run's verdict */
#define COMPARE_DEFAULT_REPS 51u /* repetitions per kernel per block */

struct compare_options {
	const char *kernels;     /* comma-separated, NULL: all */
	int cpu;                 /* -1: choose */
	unsigned pairs;          /* blocks per side */
	unsigned reps;           /* repetitions per kernel per block */
	int level;               /* 1, 2, 0: the highest both sides read */
	bool user_only;
	bool force;
	enum bench_backend_id perf_backend; /* a perf_event source (bench_backend_perf_event):
				  * perf (read(2), default) or perf-rdpmc (user
				  * pages + RDPMC) */
	const struct cpu_machine *machine;
	/* The guarded run (msr/guard/guard.h) every block writes through: its MSR
	 * backend and its journal, which saved the CPU's counter registers
	 * before compare_decide_perf's probe (the guard's save_counters). */
	struct msr_dev *dev;
	struct journal *journal;
};

/* One metric of one kernel. */
struct compare_metric {
	unsigned n;              /* pairs where both blocks had a median */
	double raw, perf;        /* medians of the block medians, percent */
	double diff, lo, hi;     /* raw - perf: median and 95 % interval, points */
	double raw_bound, perf_bound; /* quantisation bounds, points */
	double allow;            /* the allowance a = raw_bound + perf_bound, points */
	unsigned above, below;   /* pairs with d_i > a, with d_i < -a */
	double p;                /* the sign test of |median(d)| <= a (compare_sign_p) */
	double p_holm;           /* p adjusted over the run's family (compare_holm) */
	/* COMPARE_BRACKET: the `empty` kernel, each side's own bracket (RDPMC or
	 * MSR reads against perf's read(2) or its user-page read): two pieces
	 * of code whose Top-down may differ without any fault, shown and not
	 * compared (not in the family) */
	enum { COMPARE_NA = 0, COMPARE_AGREE, COMPARE_DISAGREE, COMPARE_BRACKET } verdict;
};

struct compare_kernel {
	const char *name;
	unsigned raw_invalid, perf_invalid; /* repetitions discarded, all blocks */
	struct compare_metric m[TMA_NMETRICS];
};

struct compare_result {
	struct cpu_info cpu;
	unsigned cpu_used;
	enum bench_backend_id raw_backend; /* a raw source (bench_backend_raw): rdpmc or msr */
	int level;
	unsigned pairs, reps;
	enum bench_backend_id perf_backend; /* the perf side's source */
	double raw_read_tsc, perf_read_tsc; /* the empty bracket, TSC ticks: median
				  * over the blocks of each side's median */
	enum bench_backend_id other_backend; /* perf's other read (bench_backend_other:
				  * perf-rdpmc or perf) */
	double other_read_tsc;   /* its empty bracket, one run after the blocks; NaN
				  * when it cannot read here (other_reason) */
	char *other_reason;      /* why not, on the heap (compare_result_free);
				  * NULL when read */
	size_t nkernels;
	struct compare_kernel *kernels;
	unsigned agree, disagree, na;     /* metric verdicts */
	unsigned not_compared;   /* metrics of the `empty` kernel (COMPARE_BRACKET) */
	const struct recipe *recipe; /* the event recipe both sides counted (msr/recipe/recipe.h),
				  * NULL: PERF_METRICS and perf's topdown-* group */
	/* The recipes whose formulas made each side's numbers (bench_result's
	 * formulas): their ->notes say what each leaves out of the vendor's. */
	const struct recipe *raw_formulas, *perf_formulas;
	uint32_t absent;         /* bit m: a tma_* node the run's event recipe does not
				  * define (an E-core's tma_heavy_operations): neither
				  * compared nor written (compare_metric_shown) */
	char *reason;            /* why it could not run, on the heap
				  * (compare_result_free); NULL otherwise */
	/* What the kernel's perf_event wrote in the counter registers while it
	 * owned them, each register once (the first block that left it
	 * changed), before baretma put it back: register, value before the
	 * run, value perf left (bench_result.perf_changed). */
	struct journal_change perf_changed[BENCH_PERF_CHANGED_MAX];
	int nperf_changed;
};

/* compare_verdict_name - "agree", "DISAGREE", "not compared" (the empty
 * kernel: COMPARE_BRACKET) or "n/a", as every output writes it. */
const char *compare_verdict_name(const struct compare_metric *m);

/*
 * compare_sign_k - k of the sign-test interval for @n pairs at 95 %
 * (see above); 0 when @n is below COMPARE_MIN_PAIRS.  Pure.
 */
unsigned compare_sign_k(unsigned n);

/*
 * compare_sign_p - the p-value of H0: |median(d)| <= a from @n pairs of
 * which @above lie above a and @below below -a: min(1, 2 min(p+, p-)),
 * p+ = P(Binomial(n, 1/2) >= above), p- likewise.  Pure.
 */
double compare_sign_p(unsigned n, unsigned above, unsigned below);

/*
 * compare_holm - Holm's step-down adjustment of the @m p-values @p into
 * @adj (may be @p): with p_(1) <= ... <= p_(m), adj_(i) =
 * max over j <= i of min(1, (m - j + 1) p_(j)).  H_i is rejected at
 * family-wise level alpha when adj_i <= alpha.  Pure.
 */
void compare_holm(const double *p, size_t m, double *adj);

/*
 * compare_min_pairs - the fewest pairs with which one DISAGREE among
 * @hypotheses is possible at all: the smallest n >= COMPARE_MIN_PAIRS with
 * hypotheses x 2 x 2^-n <= COMPARE_ALPHA (every pair beyond the allowance
 * on one side, the smallest p there is, survives Holm's first step).
 * 1 hypothesis: 6; 8 (2 kernels at level 1): 9; 24: 10; 96 (8 kernels at
 * level 2): 12.  Pure.
 */
unsigned compare_min_pairs(size_t hypotheses);

/*
 * compare_metric_stats - the statistics above from @n paired block
 * medians @raw[i], @perf[i] (percent; NaN: that block had none, the pair
 * is left out) and the sides' bounds (points); p_holm = p and the verdict
 * as for a family of one (compare_verdicts adjusts them).  Pure.
 */
void compare_metric_stats(const double *raw, const double *perf, unsigned n,
			  double raw_bound, double perf_bound, struct compare_metric *out);

/*
 * compare_verdicts - the family: every metric of @res's kernels at its
 * level that has a p (not n/a) is one hypothesis; sets each p_holm
 * (compare_holm) and verdict (DISAGREE when p_holm <= COMPARE_ALPHA) and
 * res->agree, disagree, na.  Pure.
 */
void compare_verdicts(struct compare_result *res);

/* compare_metric_shown - whether node @m is compared and written: within
 * @res's level and defined by the run's recipe (PERF_METRICS defines all). */
bool compare_metric_shown(const struct compare_result *res, unsigned m);

/*
 * compare_prepare - clear @res, resolve the kernels, and decide the raw
 * path (rdpmc, else msr), the CPU (res->cpu_used) and its level.  Reads
 * only, and probes no perf group while the raw path can measure (its
 * probe makes the kernel write the counters: compare_decide_perf, inside
 * the guard).  Returns 0; -ENODEV when the raw path cannot measure
 * (res->reason says why, and why perf_event can or cannot); -EINVAL (bad
 * options, fewer than COMPARE_MIN_PAIRS pairs, or fewer than
 * compare_min_pairs for the kernels x metrics of the raw side's level, with
 * which no DISAGREE could be found: res->reason).
 */
int compare_prepare(const struct compare_options *o, struct compare_result *res);

/*
 * compare_decide_perf - after compare_prepare, inside the guarded run
 * (@o->dev, @o->journal, the counters saved): can perf_event measure the
 * CPU, and the level (the lower of the two sides', or @o->level).  Its
 * probe opens and enables the group: what the kernel leaves is put back
 * through the journal.  Returns 0, -ENODEV (res->reason: both sides
 * named), -EINVAL (a level a side lacks).
 */
int compare_decide_perf(const struct compare_options *o, struct compare_result *res);

/*
 * compare_measure - after compare_prepare: the blocks, raw then perf,
 * @o->pairs times, and the statistics into @res; then one run of the
 * empty bracket with perf's other read, for its cost.  The caller guards the
 * run (locks, journal, settings) around it where the raw path writes
 * MSRs.  Returns 0 or the first block's error (res->reason: which block
 * and why; -EPROTO when a block read another level).
 */
int compare_measure(const struct compare_options *o, struct compare_result *res);

void compare_result_free(struct compare_result *res);



#endif
