/*
 * bench/source/perf_events.h - the perf source on a core kind whose
 * Top-down comes from an event recipe (E-cores, Skylake to Cascade Lake,
 * AMD Zen 4/5: msr/recipe/recipe.h): the recipe's events opened as raw perf
 * events on the core PMU, one group per pass, split as the rdpmc and msr
 * sources split them (source_events_groups), so that `compare` puts the
 * same events through the same formulas on both sides.  Read with read(2)
 * only (the perf-rdpmc read is of PERF_METRICS).  No quantisation: each
 * count is the kernel's sum of counter differences (x86_perf_event_update);
 * what bounds the fractions is what bounds the raw side's (passes, SMT:
 * the recipe's bound).  Used by bench/source/source_perf.c only.
 */
#ifndef BARETMA_PERF_EVENTS_H
#define BARETMA_PERF_EVENTS_H

#include "bench/source/perf_group.h"
#include "bench/source/source.h"

struct perf_events; /* opaque */

/* perf_events_kind - whether cpu @cpu of @ci counts Top-down by an event
 * recipe (its kind has no PERF_METRICS and names a recipe). */
bool perf_events_kind(const struct cpu_info *ci, const struct cpu_kind *k);

/*
 * perf_events_new - the passes of @p's kind's recipe at @p->level, as raw
 * events.  0, -ENODEV (no variant the kind can count; @why), -ENOMEM.
 */
int perf_events_new(const struct source_params *p, struct perf_events **out, char *why,
		    size_t n);

/* perf_events_read_set - @rs for the current pass: its events in recipe
 * order, 64-bit counts, the recipe, its env, the pass. */
void perf_events_read_set(const struct perf_events *e, struct read_set *rs);

/* perf_events_spec - @spec's raw events: the current pass's. */
void perf_events_spec(const struct perf_events *e, struct perf_group_spec *spec);

/* perf_events_set_pass - the current pass; -EINVAL beyond. */
int perf_events_set_pass(struct perf_events *e, unsigned pass);

/*
 * perf_events_probe - can @ops open every pass of the kind's recipe on
 * @env->cpu (opened and closed, never enabled)?  Fills the perf source's
 * entry @pa (ok, err, level, level_max: the recipe's highest, why) and
 * perf-rdpmc's @ra (its levels, and why it cannot: it reads PERF_METRICS
 * only); both zeroed first by the caller.
 */
void perf_events_probe(const struct source_env *env, const struct perf_group_ops *ops,
		       const char *arg, struct bench_source_avail *pa,
		       struct bench_source_avail *ra);

void perf_events_free(struct perf_events *e);

#endif
