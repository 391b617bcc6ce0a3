/*
 * bench/source/perf_events.c - an event recipe's passes as raw perf events
 * (bench/source/perf_events.h).  Each recipe event becomes
 * perf_event_attr { .type = the core PMU's type (sysfs `type` of cpu,
 * cpu_core or cpu_atom), .config = perf_raw_config(...) }, the format of
 * the PMU's format/ files (arch/x86/events/intel/core.c, amd/core.c
 * PMU_FORMAT_ATTR); the AnyThread bit of the pre-Ice Lake SMT forms needs
 * what perf_event_paranoid allows for CPU-wide events (arch/x86/events/
 * core.c x86_pmu_hw_config: perf_allow_cpu), which the open's message
 * names.  The passes and their events are the rdpmc and msr sources'
 * (source_events_groups), each pass's events in recipe table order.
 *
 * Sunny Cove's PERF_METRICS recipe (msr/recipe/recipes_intel_pm.c): its
 * TOPDOWN.SLOTS is perf's `slots` (config 0x0400), its PERF_METRICS fields
 * the topdown-* metric events (config 0x8000 + byte x 0x100, the kernel's
 * INTEL_TD_METRIC_*), in the group slots leads, which the kernel asks of
 * a metric event (arch/x86/events/intel/core.c intel_pmu_hw_config), with
 * the recipe's general-purpose events beside them: each member's count is
 * perf's (the topdown-* members' floor(slots x field / 0xff) at each read:
 * READ_BOUND_PERF_COUNTS), so `compare` puts both sides through the same
 * formulas.  Such a pass holds one value per metric event where the rdpmc
 * and msr sources read one PERF_METRICS: where a pass of theirs holds more
 * events than a group may (PERF_RAW_MAX, a reading's values), the passes
 * are made again on fewer general-purpose counters (fit_passes).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/source/perf_events.h"
#include "cpu/machine.h"
#include "cpu/text.h"
#include "msr/recipe/recipe.h"

_Static_assert(PERF_RAW_MAX <= READING_MAX, "a raw group's counts are one reading");

struct perf_events {
	const struct recipe *r;
	struct recipe_env env;
	bool amd;
	unsigned npasses, pass;
	unsigned n[SOURCE_PASSES_MAX];
	struct perf_raw_event ev[SOURCE_PASSES_MAX][PERF_RAW_MAX];
};

bool perf_events_kind(const struct cpu_info *ci, const struct cpu_kind *k)
{
	return ci && k && ((k->topdown_level == 0 && k->topdown_recipe) || source_pm_recipe(k));
}

/* The raw events of the recipe's events in @mask, table order. */
static int raw_of(const struct perf_events *e, uint32_t mask, struct perf_raw_event *out)
{
	unsigned n = 0;

	for (unsigned i = 0; i < e->r->nevents; i++) {
		const struct recipe_event *x = &e->r->events[i];

		if (!(mask & (1u << i)))
			continue;
		if (n == PERF_RAW_MAX || (x->ctr == RECIPE_CTR_METRICS && e->amd))
			return -ENOSPC;
		out[n++] = (struct perf_raw_event){
			.name = x->name,
			.config = perf_raw_config(e->amd, x->event, x->umask, x->cmask, x->inv,
						  x->edge, x->any),
			.fixed = x->ctr == RECIPE_CTR_FIXED ? (int)x->fixed : -1,
			.counters = recipe_event_counters(x, e->env.smt_on),
			.metric = x->ctr == RECIPE_CTR_METRICS, .metric_byte = x->fixed };
	}
	return (int)n;
}

/* The events of @mask. */
static unsigned popcount(uint32_t mask)
{
	return (unsigned)__builtin_popcount(mask);
}

/* The passes of @r at @level on @k's counters, each of at most PERF_RAW_MAX
 * events: the rdpmc and msr sources' (source_events_groups) where they fit,
 * else those of a kind with one general-purpose counter fewer, and so on
 * (a topdown-* field is one event here, one PERF_METRICS value there). */
static int fit_passes(const struct cpu_kind *k, const struct recipe *r, bool smt_on, int level,
		      uint32_t *groups)
{
	struct cpu_kind fewer = *k;
	int np = source_events_groups(k, r, smt_on, level, groups);

	for (;;) {
		bool fits = np > 0;

		for (int p = 0; fits && p < np; p++)
			fits = popcount(groups[p]) <= PERF_RAW_MAX;
		if (fits || np == -ENODEV || np == -EINVAL || popcount(fewer.gp_mask) <= 1)
			return np;
		fewer.gp_mask &= ~(1u << (31 - __builtin_clz(fewer.gp_mask)));
		np = source_events_groups(&fewer, r, smt_on, level, groups);
	}
}

static int build(const struct cpu_info *ci, const struct cpu_kind *k, bool smt_on, int level,
		 struct perf_events *e, char *why, size_t n)
{
	uint32_t groups[SOURCE_PASSES_MAX];
	int np;

	e->r = source_recipe(k, why, n);
	if (!e->r)
		return -ENODEV;
	e->env.smt_on = smt_on;
	e->amd = ci->vendor == CPU_VENDOR_AMD;
	np = fit_passes(k, e->r, smt_on, level > 0 ? level : 1, groups);
	if (np <= 0) {
		snprintf(why, n, "recipe %s:%s cannot be split into passes on this core (%s)",
			 e->r->name, e->r->variant, strerror(np ? -np : EINVAL));
		return -ENODEV;
	}
	e->npasses = (unsigned)np;
	for (unsigned p = 0; p < e->npasses; p++) {
		int c = raw_of(e, groups[p], e->ev[p]);

		if (c <= 0) {
			snprintf(why, n, "pass %u of recipe %s:%s is not a group of raw events",
				 p, e->r->name, e->r->variant);
			return -ENODEV;
		}
		e->n[p] = (unsigned)c;
	}
	return 0;
}

int perf_events_new(const struct source_params *p, struct perf_events **out, char *why,
		    size_t n)
{
	struct perf_events *e = calloc(1, sizeof(*e));
	int rc;

	*out = NULL;
	if (!e)
		return -ENOMEM;
	rc = build(p->ci, p->kind, p->smt_on, p->level, e, why, n);
	if (rc) {
		free(e);
		return rc;
	}
	*out = e;
	return 0;
}

void perf_events_read_set(const struct perf_events *e, struct read_set *rs)
{
	read_set_init(rs, "perf's counts of an event recipe's raw events");
	for (unsigned i = 0; i < e->n[e->pass]; i++) {
		read_set_add(rs, e->ev[e->pass][i].name, READ_COUNTER, 64, 0);
		/* the topdown-* members: perf's counts of the 8-bit fields */
		if (e->ev[e->pass][i].metric) {
			rs->what = "perf's slots, topdown-* and raw event counts";
			rs->bound = READ_BOUND_PERF_COUNTS;
		}
	}
	rs->recipe = e->r;
	rs->env = e->env;
	rs->pass = e->pass;
	rs->npasses = e->npasses;
}

void perf_events_spec(const struct perf_events *e, struct perf_group_spec *spec)
{
	spec->raw = e->ev[e->pass];
	spec->nraw = e->n[e->pass];
	spec->amd = e->amd;
}

int perf_events_set_pass(struct perf_events *e, unsigned pass)
{
	if (!e || pass >= e->npasses)
		return -EINVAL;
	e->pass = pass;
	return 0;
}

void perf_events_probe(const struct source_env *env, const struct perf_group_ops *ops,
		       const char *arg, struct bench_source_avail *pa,
		       struct bench_source_avail *ra)
{
	const struct cpu_kind *k = cpu_info_kind_of(env->ci, env->cpu);
	struct perf_events e = { 0 };
	char why[PERF_WHY_MAX] = "", *ow = NULL; /* ow: the open's reason, whole (a profile path) */
	int level = 1, rc;

	if (k && k->topdown_level > 0)
		text_appendf(&ra->why, NULL, "perf-rdpmc reads FC3 and "
			     "PERF_METRICS alone, and cpu %u's recipe counts events beside them: "
			     "read with read(2) (--perf-backend perf)", env->cpu);
	else
		text_appendf(&ra->why, NULL, "perf-rdpmc reads FC3 and "
			     "PERF_METRICS, which cpu %u has not: its event recipe is read with "
			     "read(2) (--perf-backend perf)", env->cpu);
	/* the highest level the recipe defines, as the raw side (bench/avail.c) */
	if ((rc = build(env->ci, k, false, 1, &e, why, sizeof(why))) == 0)
		level = source_events_level(e.r);
	if (!rc && level > 1)
		rc = build(env->ci, k, false, level, &e, why, sizeof(why));
	for (unsigned p = 0; !rc && p < e.npasses; p++) {
		struct perf_group_spec spec = {
			.cpu = env->cpu, .level = 1, .user_only = false, .how = PERF_READ_SYSCALL,
			.cpuid_dump = env->machine && cpu_machine_is_dump(env->machine) ?
				      cpu_machine_name(env->machine) : NULL,
		};
		struct perf_group *g = NULL;

		e.pass = p;
		perf_events_spec(&e, &spec);
		rc = ops->open(arg, &spec, &g, &ow);
		ops->close(g);
	}
	pa->err = rc;
	pa->ok = !rc;
	/* by default the raw side's: PERF_METRICS's level where the kind has it
	 * (Sunny Cove: 1, level 2 on request), else the recipe's highest */
	pa->level_max = ra->level_max = rc ? 0 : level;
	pa->level = ra->level = rc ? 0 : k->topdown_level > 0 && k->topdown_level < level ?
				k->topdown_level : level;
	if (rc)
		text_appendf(&pa->why, NULL, "%s", ow ? ow : why);
	free(ow);
}

void perf_events_free(struct perf_events *e)
{
	free(e);
}
