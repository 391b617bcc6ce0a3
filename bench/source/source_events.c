/*
 * bench/source/source_events.c - what the rdpmc and msr sources do on a
 * core kind whose Top-down comes from an event recipe (cpu_kind
 * topdown_source "events": intel-pre-icl-l1, intel-ecore-l1, amd-zen4,
 * amd-zen5; msr/recipe/recipe.h): the recipe's events at the run's level on the
 * general-purpose and fixed counters (msr/pmu/pmu_gp.h), in passes where the
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
 *
 * PERF_METRICS with events.  On a core kind with IA32_PERF_METRICS whose
 * intel-perf-metrics variant counts events beside it (Sunny Cove:
 * msr/recipe/recipes_intel_pm.c; source_pm_recipe) the same, with fixed counter 3
 * and PERF_METRICS programmed, reset, verified and read in every pass as
 * bench/source/source_pmu.c does them (msr/pmu/pmu.h: the plan of msr/pmu/pmu_gp.h
 * has no fixed counter 3), before the plan's counters: a pass's reading
 * is TOPDOWN.SLOTS, PERF_METRICS where the pass holds its fields (the
 * first: recipe_passes), then the plan's counters, so that RDPMC reads
 * baretma_read's pair first.  The PERF_METRICS fields carry their 8-bit
 * bound (reading.h READ_BOUND_PERF_METRICS); the events are exact.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/source/source.h"
#include "msr/pmu/pmu_gp.h"
#include "msr/recipe/recipe.h"
#include "msr/guard/settings.h"

/* The state of an event recipe's source (src->priv). */
struct source_events {
	const struct recipe *recipe;
	struct recipe_env env;
	int level;
	struct gp_pmu pmu;
	unsigned npasses, pass;
	struct gp_plan plan[SOURCE_PASSES_MAX];
	uint32_t group[SOURCE_PASSES_MAX]; /* each pass's events (bit e: recipe->events[e]) */
	bool pm;                      /* a PERF_METRICS recipe: FC3 and PERF_METRICS by
				       * msr/pmu/pmu.h beside the plan (file comment) */
	struct pmu_config pm_cfg;     /* ... as programmed */
	struct pmu_saved pm_saved;
	uint64_t gc_now;              /* the global control as last read (gp_verify) */
	uint64_t ovf_pending;         /* overflow bits verify saw, cleared by the next reset */
	bool frozen;                  /* source_events_freeze stopped the plan's counters:
				       * the next reset zeroes them without a freeze */
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

/* Fixed counter 3 and the PERF_METRICS fields: msr/pmu/pmu.h's, not the plan's. */
static bool pm_event(const struct recipe_event *x)
{
	return x->ctr == RECIPE_CTR_METRICS || (x->ctr == RECIPE_CTR_FIXED && x->fixed == 3);
}

const struct recipe *source_pm_recipe(const struct cpu_kind *k)
{
	const struct recipe *r;

	if (!k || k->topdown_level <= 0 || !k->fixed_ctr3 ||
	    !(r = recipe_find("intel-perf-metrics", k->uarch)))
		return NULL;
	for (unsigned e = 0; e < r->nevents; e++)
		if (!pm_event(&r->events[e]))
			return r;
	return NULL;
}

bool source_recipe_metrics(const struct recipe *r)
{
	for (unsigned e = 0; r && e < r->nevents; e++)
		if (pm_event(&r->events[e]))
			return true;
	return false;
}

const struct recipe *source_recipe(const struct cpu_kind *k, char *why, size_t n)
{
	const struct recipe *r = k && k->topdown_level > 0 ? source_pm_recipe(k) : NULL;

	if (r) {
		if (n)
			why[0] = '\0';
		return r;
	}
	return source_events_recipe(k, why, n);
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

		if (!(mask & (1u << e)) || pm_event(x))
			continue;
		ev[n++] = (struct gp_event){ .name = x->name, .event = x->event, .umask = x->umask,
			.cmask = x->cmask, .inv = x->inv, .edge = x->edge, .any = x->any,
			.counters = recipe_event_counters(x, smt),
			.fixed = x->ctr == RECIPE_CTR_FIXED ? (int)x->fixed : GP_NO_FIXED };
	}
	return n;
}

/* Does pass @p hold PERF_METRICS fields? */
static bool pass_metrics(const struct source_events *s, unsigned p)
{
	for (unsigned e = 0; e < s->recipe->nevents; e++)
		if ((s->group[p] & (1u << e)) && s->recipe->events[e].ctr == RECIPE_CTR_METRICS)
			return true;
	return false;
}

/* The values pm adds before the plan's in pass @p's reading (fill_read_set). */
static unsigned pm_values(const struct source_events *s, unsigned p)
{
	return s->pm ? 1u + pass_metrics(s, p) : 0u;
}

/* The read set of pass @p: TOPDOWN.SLOTS and PERF_METRICS with a PERF_METRICS
 * recipe (file comment), then the plan's counters in plan order, named by
 * the recipe's events, each with its RDPMC ECX and width. */
static void fill_read_set(struct counter_source *src, const struct source_events *s)
{
	const struct gp_plan *pl = &s->plan[s->pass];
	struct read_set *rs = &src->rs;

	read_set_init(rs, s->pm ? "fixed counter 3, IA32_PERF_METRICS and the general-purpose "
		      "counters of a recipe" : "the general-purpose and fixed counters of an event "
		      "recipe");
	if (s->pm) {
		read_set_add(rs, read_td_events[0], READ_COUNTER, s->pmu.fixed_width,
			     RDPMC_ECX_SLOTS);
		if (pass_metrics(s, s->pass))
			read_set_add(rs, "PERF_METRICS", READ_PERF_METRICS, 0, RDPMC_PERF_METRICS);
	}
	for (unsigned k = 0; k < pl->n; k++)
		read_set_add(rs, pl->ev[k].name, READ_COUNTER,
			     pl->at[k].fixed ? s->pmu.fixed_width : s->pmu.gp_width,
			     gp_rdpmc_ecx(pl, k));
	rs->recipe = s->recipe;
	rs->env = s->env;
	rs->pass = s->pass;
	rs->npasses = s->npasses;
}

static int nmi_watchdog(void);

/* PERF_METRICS with events (Sunny Cove): the general-purpose counters
 * found in use, which its events then go around - they are an addition to
 * fixed counter 3 and PERF_METRICS, which counted beside another tool's
 * general-purpose counters before, and a core has eight; *@k the kind with
 * them taken out.  An event recipe of its own (an E-core, before Ice Lake,
 * AMD) needs its counters and is refused when one is in use, as before.
 * 0 when none is in use, the registers cannot be read (a state file
 * without them: refused later, naming the register), or not PERF_METRICS. */
static uint32_t pm_busy(const struct source_events *s, const struct source_params *p,
			struct cpu_kind *k)
{
	uint32_t gp = 0, fx = 0;

	*k = *p->kind;
	if (!s->pm || gp_busy(p->dev, p->cpu, &s->pmu, nmi_watchdog(), &gp, &fx, NULL, 0))
		return 0;
	gp &= k->gp_mask;
	k->gp_mask &= ~gp;
	k->gp_counters = (unsigned)__builtin_popcount(k->gp_mask);
	return gp;
}

int source_events_open(struct counter_source *src, const struct source_params *p)
{
	struct source_events *s = calloc(1, sizeof(*s));
	uint32_t groups[SOURCE_PASSES_MAX], busy;
	struct gp_event ev[GP_PLAN_MAX];
	struct cpu_kind kind;
	char why[400];
	int n, rc;

	if (!s)
		return -ENOMEM;
	src->priv = s;
	s->recipe = source_recipe(p->kind, why, sizeof(why));
	s->env.smt_on = p->smt_on;
	s->level = p->level > 0 ? p->level : 1;
	if (!s->recipe || !p->ci)
		return -ENODEV;
	s->pm = s->recipe == source_pm_recipe(p->kind);
	s->pm_cfg = (struct pmu_config){ .user_only = p->user_only, .force = p->force,
		.perf_metrics = true, .fixed_ctr3 = true };
	rc = gp_pmu_init(p->dev, p->cpu, p->ci, &s->pmu, why, sizeof(why));
	if (rc)
		return rc;
	busy = pm_busy(s, p, &kind);
	n = split(s->recipe, &s->env, s->level, &kind, groups, SOURCE_PASSES_MAX);
	if (n <= 0 && busy) { /* not around them: on every counter, refused below */
		busy = 0;
		kind = *p->kind;
		n = split(s->recipe, &s->env, s->level, &kind, groups, SOURCE_PASSES_MAX);
	}
	if (n <= 0)
		return n < 0 ? n : -EINVAL;
	s->npasses = (unsigned)n;
	for (unsigned i = 0; i < s->npasses; i++) {
		unsigned ne = gp_events_of(s->recipe, groups[i], s->env.smt_on, ev);

		s->group[i] = groups[i];
		rc = gp_assign(&s->pmu, ev, ne, busy, 0, p->user_only, &s->plan[i], why, sizeof(why));
		if (rc)
			return rc;
		if (s->plan[i].n + pm_values(s, i) > READING_MAX)
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

/* The tamper check of fixed counter 3 and PERF_METRICS (pmu_verify_gc,
 * against the global control @gc that gp_verify read): 0, 1 with s->why
 * naming what changed, or -errno; both registers as read to @chk when
 * given. */
static int pm_verify(struct counter_source *src, struct source_events *s, uint64_t gc,
		     struct source_check *chk)
{
	uint64_t fcc = 0;
	/* the global control as gp_verify just read it: one read for both checks */
	int rc = pmu_verify_gc(src->p.dev, src->p.cpu, &s->pm_cfg, gc, &fcc);

	if (rc > 0)
		snprintf(s->why, sizeof(s->why), "IA32_FIXED_CTR_CTRL is 0x%llx (fixed counter 3's "
			 "field programmed 0x%llx), IA32_PERF_GLOBAL_CTRL 0x%llx (bits 35 and 48 "
			 "programmed set)", (unsigned long long)fcc,
			 (unsigned long long)pmu_fc3_field_get(s->pm_saved.prog_fixed_ctr_ctrl),
			 (unsigned long long)gc);
	if (chk && rc > 0) {
		chk->fcc_from = s->pm_saved.prog_fixed_ctr_ctrl;
		chk->fcc_to = fcc;
		chk->gc_from = s->pm_saved.prog_global_ctrl;
		chk->gc_to = gc;
	}
	return rc;
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
	int rc = 0;

	/* fixed counter 3 and PERF_METRICS first, as the plain PERF_METRICS
	 * source programs them (source_pmu_program); the plan's global
	 * enables then go on top of theirs (gp_program reads the control) */
	if (s->pm) {
		s->pm_cfg.journal = src->journal;
		rc = pmu_program(src->p.dev, src->p.cpu, &s->pm_cfg, &s->pm_saved, why, n);
	}
	if (!rc)
		rc = gp_program(src->p.dev, src->p.cpu, &s->pmu, pl, &cfg, why, n);
	if (rc)
		return rc;
	s->ovf_pending = 0;
	rc = gp_verify(src->p.dev, src->p.cpu, &s->pmu, pl, &s->gc_now, s->why, sizeof(s->why));
	if (rc == 0 && s->pm)
		rc = pm_verify(src, s, s->gc_now, NULL);
	if (rc > 0) {
		snprintf(why, n, "%s", s->why);
		return -EBUSY;
	}
	if (rc)
		return rc;
	/* an overflow check that cannot be made is not a pass: refuse */
	return gp_read_overflow_with_metrics(src->p.dev, src->p.cpu, &s->pmu, pl, s->pm, &ovf);
}

int source_events_program(struct counter_source *src, struct journal *j, char *why, size_t n)
{
	struct source_events *s = src->priv;
	int rc;

	src->journal = j;
	s->pass = 0;
	fill_read_set(src, s);
	/* the later passes' counters too, before anything is written: a run
	 * is refused whole, never after its first pass (with PERF_METRICS,
	 * the first pass's too: fixed counter 3 is programmed before them) */
	if (s->pm && !src->p.force &&
	    ((rc = pmu_check_in_use(src->p.dev, src->p.cpu, why, n)) ||
	     (rc = gp_check_in_use(src->p.dev, src->p.cpu, &s->pmu, &s->plan[0], nmi_watchdog(),
				   why, n))))
		return rc;
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
	/* this CPU's registers as found before the next plan (gp_program);
	 * the other CPUs of the run (stat) count on */
	rc = journal_restore_cpu_regs(src->journal, src->p.dev, src->p.cpu);
	s->frozen = false; /* the registers as found: counting, whatever the restore did */
	if (rc)
		return rc;
	s->pass = pass;
	fill_read_set(src, s);
	return program_pass(src, s, why, n);
}

int source_events_reset(struct counter_source *src)
{
	struct source_events *s = src->priv;
	/* with PERF_METRICS, FC3 and PERF_METRICS frozen and zeroed in the
	 * plan's window (as source_pmu_reset does them alone) */
	int rc = s->frozen ? gp_reset_after_freeze(src->p.dev, src->p.cpu, &s->pmu,
						   &s->plan[s->pass], s->gc_now, s->ovf_pending,
						   s->pm)
			   : gp_reset_with_metrics(src->p.dev, src->p.cpu, &s->pmu,
						   &s->plan[s->pass], s->gc_now, s->ovf_pending,
						   s->pm);

	s->ovf_pending = 0;
	s->frozen = false;
	return rc;
}

int source_events_freeze(struct counter_source *src)
{
	struct source_events *s = src->priv;
	int rc = gp_freeze_with_metrics(src->p.dev, src->p.cpu, &s->pmu, &s->plan[s->pass],
					s->gc_now, s->pm);

	s->frozen = !rc;
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

		bool by_pm = false;

		if (rc >= 0)
			s->gc_now = gc;
		if (rc == 0 && s->pm)
			by_pm = (rc = pm_verify(src, s, gc, chk)) != 0;
		if (rc) {
			chk->tampered = true;
			chk->tamper_err = rc < 0 ? rc : 0;
			/* fixed counter 3's registers: "changed from 0x3333 to 0x0333"
			 * from chk's fcc/gc values, as the PERF_METRICS source says it */
			chk->tamper_why = rc > 0 && !by_pm ? s->why : NULL;
		}
	}
	if (what & SOURCE_CHECK_OVERFLOW) {
		uint64_t bits = 0;
		/* with PERF_METRICS, bit 35 or 48 too: invalid until reset (source_pmu.c) */
		int rc = gp_read_overflow_with_metrics(src->p.dev, src->p.cpu, &s->pmu, pl, s->pm,
						       &bits);

		s->ovf_pending |= bits;
		chk->overflow = rc || bits;
		chk->overflow_err = rc;
	}
	return 0;
}

void source_events_read_msr(struct counter_source *src, struct reading *r)
{
	struct source_events *s = src->priv;
	unsigned k = pm_values(s, s->pass);
	int rc = 0;

	/* fill_read_set's order: FC3, PERF_METRICS, the plan's */
	if (k)
		rc = msr_read(src->p.dev, src->p.cpu, IA32_FIXED_CTR3, &r->v[0]);
	if (!rc && k > 1)
		rc = msr_read(src->p.dev, src->p.cpu, IA32_PERF_METRICS, &r->v[1]);
	/* errors show up as a bad count and are flagged by counting */
	if (rc || gp_read_msr(src->p.dev, src->p.cpu, &s->pmu, &s->plan[s->pass], r->v + k))
		memset(r->v, 0, sizeof(r->v));
	r->tsc = rdtsc_fenced();
}

int source_events_close(struct counter_source *src)
{
	free(src->priv);
	src->priv = NULL;
	return 0;
}
