/*
 * bench/source/source_events.c - what the rdpmc and msr sources do on a
 * core kind whose Top-down comes from an event recipe (cpu_kind
 * topdown_source "events": intel-pre-icl-l1, intel-ecore-l1, amd-zen4,
 * amd-zen5; msr/recipe.h): the recipe's events at the run's level on the
 * general-purpose and fixed counters (msr/pmu_gp.h), in passes where the
 * kind has fewer counters than events, each pass programmed, reset,
 * verified and read like fixed counter 3 is (bench/source/source_pmu.c),
 * every register saved in the run's journal first and put back by it.
 *
 * Passes.  One pass when the needed events fit the kind's counters
 * (recipe_passes).  Otherwise the events of the "SLOTS" node (the base:
 * the cycles event) go into every pass, on counters kept for them, and
 * the others are split over the rest (recipe_passes, level-1 events
 * first: level 1 comes from the first pass alone).  The harness measures
 * each kernel once per pass and scales each pass's counts to the first
 * pass's base (bench/measure_int.h).  Between two passes the journal puts
 * every register back (journal_restore_regs) before the next plan is
 * programmed: gp_program's rule for a second plan on the same counters.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/source/source.h"
#include "msr/pmu_gp.h"
#include "msr/recipe.h"
#include "msr/settings.h"

/* The state of an event recipe's source (src->priv). */
struct source_events {
	const struct recipe *recipe;
	struct recipe_env env;
	int level;
	struct gp_pmu pmu;
	unsigned npasses, pass;
	struct gp_plan plan[SOURCE_PASSES_MAX];
	uint64_t gc_now;              /* the global control as last read (gp_verify) */
	uint64_t ovf_pending;         /* overflow bits verify saw, cleared by the next reset */
	char why[400];                /* the tamper check's text (source_check.tamper_why) */
};

/* Every fixed counter the recipe @r counts on exists in @fixed_mask. */
static bool fixed_fit(const struct recipe *r, uint32_t fixed_mask)
{
	for (unsigned e = 0; e < r->nevents; e++)
		if (r->events[e].ctr == RECIPE_CTR_FIXED &&
		    (r->events[e].fixed >= 32 || !(fixed_mask & (1u << r->events[e].fixed))))
			return false;
	return true;
}

const struct recipe *source_events_recipe(const struct cpu_kind *k, char *why, size_t n)
{
	const struct recipe *first = NULL;

	if (n)
		why[0] = '\0';
	if (!k || !k->topdown_recipe) {
		snprintf(why, n, "no event recipe for this core kind");
		return NULL;
	}
	/* the first variant for the uarch whose fixed counters the kind has
	 * (Skymont's TOPDOWN_* on fixed counters 4-6 only where CPUID leaf
	 * 0x23 enumerates them, else its general-purpose forms) */
	for (size_t i = 0; i < recipe_count(); i++) {
		const struct recipe *r = recipe_at(i);

		if (strcmp(r->name, k->topdown_recipe))
			continue;
		for (const char *const *u = r->uarchs; u && *u; u++)
			if (!strcmp(*u, k->uarch)) {
				if (!first)
					first = r;
				if (fixed_fit(r, k->fixed_mask))
					return r;
			}
	}
	if (first)
		snprintf(why, n, "recipe %s:%s counts on fixed counters that the %s core (fixed "
			 "mask 0x%x) does not have", first->name, first->variant, k->uarch,
			 k->fixed_mask);
	else
		snprintf(why, n, "recipe %s has no variant for %s", k->topdown_recipe, k->uarch);
	return NULL;
}

int source_events_level(const struct recipe *r)
{
	for (unsigned i = 0; r && i < r->nnodes; i++)
		if (r->nodes[i].level == 2)
			return 2;
	return 1;
}

/* Group the needed events into passes (bench/source/source_events.c file
 * comment): @groups[p] receives a mask of events.  Returns the count or -errno. */
static int split(const struct recipe *r, const struct recipe_env *env, int level,
		 const struct cpu_kind *k, uint32_t *groups, unsigned max)
{
	struct recipe_pass ps[SOURCE_PASSES_MAX];
	uint32_t need, base;
	int n;

	if (max > SOURCE_PASSES_MAX || recipe_needed(r, env, level, &need) ||
	    recipe_expr_needed(r, env, "SLOTS", &base))
		return -EINVAL;
	n = recipe_passes(r, env, need, k->gp_mask, k->fixed_mask, ps, max);
	if (n == 1 || n == -ENODEV) {
		if (n == 1)
			groups[0] = need;
		return n;
	}
	/* the base in every pass, each pass's counters a matching of all its
	 * events under their constraints (recipe_passes_base) */
	n = recipe_passes_base(r, env, need, base & need, k->gp_mask, k->fixed_mask, ps, max);
	for (int p = 0; p < n; p++) {
		groups[p] = 0;
		for (unsigned i = 0; i < ps[p].n; i++)
			groups[p] |= 1u << ps[p].event[i];
	}
	return n;
}

int source_events_groups(const struct cpu_kind *k, const struct recipe *r, bool smt_on,
			 int level, uint32_t *groups)
{
	struct recipe_env env = { .smt_on = smt_on };

	if (!k || !r || !groups)
		return -EINVAL;
	return split(r, &env, level, k, groups, SOURCE_PASSES_MAX);
}

int source_events_passes(const struct cpu_kind *k, const struct recipe *r, bool smt_on,
			 int level)
{
	struct recipe_env env = { .smt_on = smt_on };
	uint32_t groups[SOURCE_PASSES_MAX];

	if (!k || !r)
		return -EINVAL;
	return split(r, &env, level, k, groups, SOURCE_PASSES_MAX);
}

/* "0-3", "0", "0,2": the counters of @m (at most 32). */
static void counters_text(uint32_t m, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int b = 0; b < 32 && len + 8 < n; b++) {
		int e = b;

		if (!(m & (1u << b)))
			continue;
		while (e + 1 < 32 && (m & (1u << (e + 1))))
			e++;
		len += (size_t)snprintf(buf + len, n - len, e > b ? "%s%d-%d" : "%s%d", len ? "," : "",
					b, e);
		b = e;
	}
}

int source_events_refusal(const struct cpu_kind *k, const struct recipe *r, bool smt_on,
			  int level, char *why, size_t n)
{
	struct recipe_env env = { .smt_on = smt_on };
	uint32_t need, groups[SOURCE_PASSES_MAX];
	char have[100], may[100];
	int rc, e;

	if (n)
		why[0] = '\0';
	if (!k || !r || recipe_needed(r, &env, level, &need))
		return -EINVAL;
	if ((rc = split(r, &env, level, k, groups, SOURCE_PASSES_MAX)) > 0)
		return 0;
	e = recipe_unplaceable(r, &env, need, k->gp_mask, k->fixed_mask);
	counters_text(k->gp_mask, have, sizeof(have));
	if (e >= 0 && r->events[e].ctr == RECIPE_CTR_FIXED)
		snprintf(why, n, "event %s of recipe %s:%s counts on fixed counter %u, which the %s "
			 "core does not have (fixed mask 0x%x)", r->events[e].name, r->name,
			 r->variant, r->events[e].fixed, k->uarch, k->fixed_mask);
	else if (e >= 0) {
		counters_text(recipe_event_counters(&r->events[e], smt_on), may, sizeof(may));
		snprintf(why, n, "event %s of recipe %s:%s counts only on general-purpose counters "
			 "%s with SMT %s (intel/perfmon's %s), and the %s core has counters %s",
			 r->events[e].name, r->name, r->variant, may, smt_on ? "on" : "off",
			 smt_on ? "Counter" : "CounterHTOff", k->uarch, have[0] ? have : "none");
	} else if (rc == -ENOSPC)
		snprintf(why, n, "recipe %s:%s needs more than %u passes for level %d on the %s "
			 "core's counters (%s)", r->name, r->variant, SOURCE_PASSES_MAX, level,
			 k->uarch, have[0] ? have : "none");
	else
		snprintf(why, n, "the events of recipe %s:%s that every pass counts (its SLOTS "
			 "node's) do not fit one pass on the %s core's counters (%s)", r->name,
			 r->variant, k->uarch, have[0] ? have : "none");
	return rc ? rc : -EINVAL;
}

/* The events of @mask of @r as gp_events, in table order, each with its
 * counter constraint for SMT @smt. */
static unsigned gp_events_of(const struct recipe *r, uint32_t mask, bool smt, struct gp_event *ev)
{
	unsigned n = 0;

	for (unsigned e = 0; e < r->nevents && n < GP_PLAN_MAX; e++) {
		const struct recipe_event *x = &r->events[e];

		if (!(mask & (1u << e)))
			continue;
		ev[n++] = (struct gp_event){ .name = x->name, .event = x->event, .umask = x->umask,
			.cmask = x->cmask, .inv = x->inv, .edge = x->edge, .any = x->any,
			.counters = recipe_event_counters(x, smt),
			.fixed = x->ctr == RECIPE_CTR_FIXED ? (int)x->fixed : GP_NO_FIXED };
	}
	return n;
}

/* The read set of pass @p: the plan's counters in plan order, named by
 * the recipe's events, each with its RDPMC ECX and width. */
static void fill_read_set(struct counter_source *src, const struct source_events *s)
{
	const struct gp_plan *pl = &s->plan[s->pass];
	struct read_set *rs = &src->rs;

	read_set_init(rs, "the general-purpose and fixed counters of an event recipe");
	for (unsigned k = 0; k < pl->n; k++)
		read_set_add(rs, pl->ev[k].name, READ_COUNTER,
			     pl->at[k].fixed ? s->pmu.fixed_width : s->pmu.gp_width,
			     gp_rdpmc_ecx(pl, k));
	rs->recipe = s->recipe;
	rs->env = s->env;
	rs->pass = s->pass;
	rs->npasses = s->npasses;
}

int source_events_open(struct counter_source *src, const struct source_params *p)
{
	struct source_events *s = calloc(1, sizeof(*s));
	uint32_t groups[SOURCE_PASSES_MAX];
	struct gp_event ev[GP_PLAN_MAX];
	char why[400];
	int n, rc;

	if (!s)
		return -ENOMEM;
	src->priv = s;
	s->recipe = source_events_recipe(p->kind, why, sizeof(why));
	s->env.smt_on = p->smt_on;
	s->level = p->level > 0 ? p->level : 1;
	if (!s->recipe || !p->ci)
		return -ENODEV;
	rc = gp_pmu_init(p->dev, p->cpu, p->ci, &s->pmu, why, sizeof(why));
	if (rc)
		return rc;
	n = split(s->recipe, &s->env, s->level, p->kind, groups, SOURCE_PASSES_MAX);
	if (n <= 0)
		return n < 0 ? n : -EINVAL;
	s->npasses = (unsigned)n;
	for (unsigned i = 0; i < s->npasses; i++) {
		unsigned ne = gp_events_of(s->recipe, groups[i], s->env.smt_on, ev);

		rc = gp_assign(&s->pmu, ev, ne, 0, 0, p->user_only, &s->plan[i], why, sizeof(why));
		if (rc)
			return rc;
		if (s->plan[i].n > READING_MAX)
			return -ENOSPC;
	}
	if (src->ops->read_inline == SOURCE_READ_RDPMC)
		src->read_inline = SOURCE_READ_RDPMC_SET;
	fill_read_set(src, s);
	return 0;
}

/* /proc/sys/kernel/nmi_watchdog: 1, 0, or -1 unknown (gp_config: the hint
 * that names the watchdog as the likely owner of a counter in use). */
static int nmi_watchdog(void)
{
	char v[16];

	if (setting_read(SETTING_NMI_WATCHDOG, v, sizeof(v), NULL, 0))
		return -1;
	return !strcmp(v, "0") ? 0 : !strcmp(v, "1") ? 1 : -1;
}

/* Program pass s->pass: the counters checked (in use: -EBUSY naming them,
 * nothing written), saved, programmed; the global control as written is
 * what the reset writes back. */
static int program_pass(struct counter_source *src, struct source_events *s, char *why,
			size_t n)
{
	struct gp_config cfg = { .journal = src->journal, .force = src->p.force,
				 .nmi_watchdog = nmi_watchdog() };
	const struct gp_plan *pl = &s->plan[s->pass];
	uint64_t ovf;
	int rc = gp_program(src->p.dev, src->p.cpu, &s->pmu, pl, &cfg, why, n);

	if (rc)
		return rc;
	s->ovf_pending = 0;
	rc = gp_verify(src->p.dev, src->p.cpu, &s->pmu, pl, &s->gc_now, s->why, sizeof(s->why));
	if (rc > 0) {
		snprintf(why, n, "%s", s->why);
		return -EBUSY;
	}
	if (rc)
		return rc;
	/* an overflow check that cannot be made is not a pass: refuse */
	return gp_read_overflow(src->p.dev, src->p.cpu, &s->pmu, pl, &ovf);
}

int source_events_program(struct counter_source *src, struct journal *j, char *why, size_t n)
{
	struct source_events *s = src->priv;
	int rc;

	src->journal = j;
	s->pass = 0;
	fill_read_set(src, s);
	/* the later passes' counters too, before anything is written: a run
	 * is refused whole, never after its first pass */
	for (unsigned p = 1; p < s->npasses && !src->p.force; p++)
		if ((rc = gp_check_in_use(src->p.dev, src->p.cpu, &s->pmu, &s->plan[p],
					  nmi_watchdog(), why, n)))
			return rc;
	return program_pass(src, s, why, n);
}

int source_events_set_pass(struct counter_source *src, unsigned pass, char *why, size_t n)
{
	struct source_events *s = src->priv;
	int rc;

	if (!s || pass >= s->npasses || !src->journal)
		return -EINVAL;
	if (pass == s->pass)
		return 0;
	/* the registers as found before the next plan (gp_program) */
	rc = journal_restore_regs(src->journal, src->p.dev);
	if (rc)
		return rc;
	s->pass = pass;
	fill_read_set(src, s);
	return program_pass(src, s, why, n);
}

int source_events_reset(struct counter_source *src)
{
	struct source_events *s = src->priv;
	int rc = gp_reset(src->p.dev, src->p.cpu, &s->pmu, &s->plan[s->pass], s->gc_now,
			  s->ovf_pending);

	s->ovf_pending = 0;
	return rc;
}

int source_events_verify(struct counter_source *src, unsigned what, struct source_check *chk)
{
	struct source_events *s = src->priv;
	const struct gp_plan *pl = &s->plan[s->pass];

	*chk = (struct source_check){ 0 };
	if (what & SOURCE_CHECK_TAMPER) {
		uint64_t gc = 0;
		int rc = gp_verify(src->p.dev, src->p.cpu, &s->pmu, pl, &gc, s->why,
				   sizeof(s->why));

		if (rc >= 0)
			s->gc_now = gc;
		if (rc) {
			chk->tampered = true;
			chk->tamper_err = rc < 0 ? rc : 0;
			chk->tamper_why = rc > 0 ? s->why : NULL;
		}
	}
	if (what & SOURCE_CHECK_OVERFLOW) {
		uint64_t bits = 0;
		int rc = gp_read_overflow(src->p.dev, src->p.cpu, &s->pmu, pl, &bits);

		s->ovf_pending |= bits;
		chk->overflow = rc || bits;
		chk->overflow_err = rc;
	}
	return 0;
}

void source_events_read_msr(struct counter_source *src, struct reading *r)
{
	struct source_events *s = src->priv;

	/* errors show up as a bad count and are flagged by counting */
	if (gp_read_msr(src->p.dev, src->p.cpu, &s->pmu, &s->plan[s->pass], r->v))
		memset(r->v, 0, sizeof(r->v));
	r->tsc = rdtsc_fenced();
}

int source_events_close(struct counter_source *src)
{
	free(src->priv);
	src->priv = NULL;
	return 0;
}
