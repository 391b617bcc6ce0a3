/*
 * bench/measure_int.h - inside the harness (bench/measure.c): what a
 * repetition leaves for the statistics, and the statistics of a kernel's
 * repetitions (bench/measure_stats.c), apart from the run that takes them.
 * Not for the other rooms: they see struct bench_result (bench/bench.h).
 */
#ifndef BARETMA_MEASURE_INT_H
#define BARETMA_MEASURE_INT_H

#include <stdbool.h>

#include "bench/bench.h"
#include "bench/region.h"
#include "bench/session.h"
#include "bench/source/reading.h"

/* The first change the tamper check saw (message built at the end). */
struct bench_tamper_seen {
	bool seen;
	int err;                 /* -errno when the check could not read */
	const char *kernel;
	uint64_t fcc_from, fcc_to, gc_from, gc_to;
	char why[400];           /* the source's words for it (source_check.tamper_why) */
};

/* A run of the built-in kernels on one session (bench/measure.c). */
struct bench_session {
	const struct bench_options *opt;
	struct bench_result *res;
	struct session *ses;
	const struct bench_kernel *sel[64];
	size_t nsel;
	struct bench_tamper_seen tamper;
	int ovf_err;             /* first -errno reading GLOBAL_STATUS, or 0 */
	struct region_table regions; /* the kernels, a region each (bench/region.h) */
};

/* One measured repetition of a kernel: its region's pair (bench/region.h). */
struct rep_sample {
	double tsc;
	struct counts c;            /* its counts per event of the read set */
	double slots;               /* its TOPDOWN.SLOTS count */
	unsigned flags;             /* counts_to_tma's on them (bench/tma.h) */
	bool tampered;              /* a tamper check before or after failed */
	bool overflow;              /* GLOBAL_STATUS bit 35 or 48 after it */
};

/* What the empty bracket costs: its median TSC ticks and its median count
 * per event (c.err: the median quantisation error). */
struct bracket_cost {
	double tsc;
	struct counts c;
};

/*
 * bench_subtract_bracket - a kernel region's Top-down with the empty
 * bracket's cost removed per event, in the events' own units (slots for
 * the topdown-* events): the recipe's fractions (counts_to_tma,
 * bench/tma.h) of @region - @empty, event by event of @rs.  For
 * PERF_METRICS: fraction of node X = (fs[X] - empty_fs[X]) / (slots -
 * empty_slots).  Never subtracts percentages (the bracket's own slots
 * have their own mix).  @region: the region's counts, with the flags its
 * pair had (kept, as counts_to_tma keeps them); @empty: the empty
 * kernel's medians.  The error is both's (@region->err + @empty->err),
 * the bound and the flags counts_to_tma's.
 * Returns counts_to_tma's: 0, -EINVAL (bad level), -ENOENT.
 */
int bench_subtract_bracket(const struct read_set *rs, const struct counts *region,
			   const struct counts *empty, int level, struct td_result *out);

/* bench_rep_valid - a repetition whose Top-down can be used as a number. */
bool bench_rep_valid(const struct rep_sample *v);

/* bench_bracket_cost - the empty bracket's statistics over its @n
 * repetitions @v of @rs's events into @res (TSC over every repetition,
 * the counts over the valid ones: TOPDOWN.SLOTS as bracket_slots, the
 * topdown-* events as bracket_fs) and its medians into @bc. */
void bench_bracket_cost(const struct read_set *rs, const struct rep_sample *v, unsigned n,
			struct bench_result *res, struct bracket_cost *bc);

/* bench_subtracted_cost - the bracket cost subtracted: the calibration's when
 * the run uses one (bench/study/calibrate.h: its measured cost, per event
 * it has a key for), else the run's own (@own). */
void bench_subtracted_cost(const struct read_set *rs, const struct bench_result *res,
			   const struct bracket_cost *own, struct bracket_cost *bc);

/*
 * bench_run_kernel - @reps measured repetitions of kernel @k (after the
 * warm-up) on the session's source as it is programmed now, each a region
 * of its own, into @out (bench/measure_run.c).  0 or -errno.
 */
int bench_run_kernel(struct bench_session *s, const struct bench_kernel *k,
		     struct bench_kernel_ctx *c, struct rep_sample *out, unsigned reps);

/*
 * bench_measure_passes - every kernel once per pass of the source's events
 * (session_passes > 1: an event recipe with more events than counters),
 * the session set to each pass in turn (session_set_pass), then the
 * passes' counts combined per repetition into the recipe's and summarised
 * into s->res (bench/measure_pass.c: how they are combined).  0 or -errno.
 */
int bench_measure_passes(struct bench_session *s, struct bench_kernel_ctx *c, unsigned npasses);

/*
 * bench_pass_union - @all: every count of the @np passes' read sets @rs,
 * once, in pass order (the base of every pass once), with pass 0's recipe
 * and environment, as one read set of every event (npasses 1) that reads
 * no value.  0, or -ENOSPC (more than COUNTS_MAX events in all).
 */
int bench_pass_union(const struct read_set *rs, unsigned np, struct read_set *all);

/*
 * bench_pass_combine - repetition @i of one kernel measured in @np passes
 * (@v[p][i]: its sample in pass p, counts of @rs[p]) as one sample of
 * @all's counts into @out (bench/measure_pass.c file comment): per pass
 * its counts less @e[p]'s (none when @raw: the empty kernel), scaled by
 * S_0 / S_p (S the "SLOTS" node of the pass's net counts, bench/tma.h
 * tma_slots); the base's counts from pass 0; TSC and slots of pass 0;
 * tampered, overflow and flags of any pass; TD_FLAG_ZERO_SLOTS where a
 * pass's S is not above 0.  Pure.
 */
void bench_pass_combine(const struct read_set *rs, unsigned np, const struct read_set *all,
			struct rep_sample *const *v, const struct bracket_cost *e, bool raw,
			unsigned i, struct rep_sample *out);

/* bench_summarise - the statistics of one kernel's @n repetitions @v of
 * @rs's events at @level into @kr, the empty bracket @bc subtracted per
 * event (NULL: the empty kernel itself, reported raw).  0 or -ENOMEM. */
int bench_summarise(const struct read_set *rs, int level, const struct rep_sample *v,
		    unsigned n, const struct bracket_cost *bc, struct bench_kernel_result *kr);

#endif
