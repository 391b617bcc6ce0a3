/*
 * bench/study/validate_events.c - validate's cross-check of IA32_PERF_METRICS
 * against the event-based level 1 (metrics_match_events,
 * bench/study/validate.h): on an Ice Lake or later P-core, one region (the
 * 20000 dependent ADDs of vc_work) counted at once by fixed counter 3 with
 * PERF_METRICS and by the general-purpose Top-down events of the recipe
 * intel-icl-events for the core's microarchitecture (msr/recipe/recipes_intel_icl.c:
 * TOPDOWN.SLOTS, IDQ_UOPS_NOT_DELIVERED.CORE or IDQ_BUBBLES.CORE,
 * INT_MISC.UOP_DROPPING, TOPDOWN.BACKEND_BOUND_SLOTS, UOPS_RETIRED.SLOTS,
 * and on Sunny Cove INT_MISC.CLEARS_COUNT), the two level-1 breakdowns
 * compared node by node.
 *
 * The general-purpose counters are programmed through msr/pmu/pmu_gp.h inside
 * validate's guarded run: gp_program saves every register it writes in the
 * run's journal first, refuses counters in use (SKIP naming them, never
 * FAIL, never overwritten), and the journal's restore (validate.c
 * hand_over, before perf's checks and the kernels) puts them back.  All
 * counters start on one IA32_PERF_GLOBAL_CTRL write (fixed counter 3's
 * bit 35, bit 48, the plan's bits) and stop on the next (0), from 0.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/study/validate.h"
#include "cpu/text.h"
#include "msr/regs/intel_regs.h"
#include "msr/pmu/pmu_gp.h"
#include "msr/recipe/recipe.h"
#include "msr/recipe/topdown.h"

#define CHECK "metrics_match_events"
#define STR_(x) #x
#define STR(x) STR_(x)
#define SRC_EVENTS "PERF_METRICS's level 1 (field / the level-1 fields' sum) = the events' " \
	"(recipe intel-icl-events, TMA_Metrics-full.csv) on one region, within both bounds + the " \
	"corrections perf's metrics add to PERF_METRICS (linux pmu-events icelake/icl-metrics.json, " \
	"sapphirerapids/spr-metrics.json) + " STR(VALIDATE_EVENTS_MARGIN_PP) " points: how closely " \
	"they match on silicon is unconfirmed"

/*
 * What the two formulas differ by, by construction.  perf's metrics for
 * PERF_METRICS correct two nodes with events outside it (linux
 * tools/perf/pmu-events/arch/x86/icelake/icl-metrics.json and
 * sapphirerapids/spr-metrics.json: tma_frontend_bound = topdown-fe-bound
 * / (the four) - INT_MISC.UOP_DROPPING / tma_info_thread_slots; icelake's
 * tma_backend_bound = topdown-be-bound / (the four) + 5 *
 * cpu@INT_MISC.RECOVERY_CYCLES,cmask=1,edge@ / tma_info_thread_slots, the
 * event INT_MISC.CLEARS_COUNT), and TMA_Metrics-full.csv's event formulas
 * hold the same corrections (intel-icl-events: (IDQ_UOPS_NOT_DELIVERED.CORE
 * - INT_MISC.UOP_DROPPING) / SLOTS, (TOPDOWN.BACKEND_BOUND_SLOTS + width x
 * INT_MISC.CLEARS_COUNT) / SLOTS).  This check's PERF_METRICS side is the
 * fields over their sum alone (msr/recipe/topdown.h: what the hardware gives,
 * the corrections left out; Sunny Cove's intel-perf-metrics recipe adds
 * them from the same events, msr/recipe/recipes_intel_pm.c), so its frontend is
 * higher by the first term and its backend lower by the second, and bad
 * speculation - the events' remainder, 1 - the other three - by their
 * difference.  Each term is
 * measured in the same region and added to its node's allowance (bad
 * speculation: both), where the recipe counts its event.
 */
static const struct {
	enum td_metric node;
	const char *event;    /* the recipe's event the term needs */
	const char *expr;     /* the term, a fraction of SLOTS (msr/recipe/recipe.h grammar) */
} corrections[] = {
	{ TMA_FRONTEND_BOUND, "INT_MISC.UOP_DROPPING", "INT_MISC.UOP_DROPPING / SLOTS" },
	{ TMA_BACKEND_BOUND, "INT_MISC.CLEARS_COUNT", "width * INT_MISC.CLEARS_COUNT / SLOTS" },
};

int validate_events_texts(const struct validate_l1_cmp *c, const char *variant, uint64_t slots,
			  char **measured, char **expected)
{
	if (text_setf(measured, "PERF_METRICS - events (points): ret %+.2f bad %+.2f fe %+.2f "
		      "be %+.2f (%s, %" PRIu64 " slots)", c->diff[0], c->diff[1], c->diff[2],
		      c->diff[3], variant, slots) ||
	    text_setf(expected, "each within its allowance: ret %.2f bad %.2f fe %.2f be %.2f",
		      c->allow[0], c->allow[1], c->allow[2], c->allow[3]))
		return -ENOMEM;
	return 0;
}

enum validate_status validate_events_verdict(struct validate_l1_cmp *c)
{
	enum validate_status st = VALIDATE_PASS;
	double worst = -INFINITY;

	c->worst = 0;
	for (unsigned m = 0; m < TMA_NLEVEL1; m++) {
		double d = 100 * (c->pm[m] - c->ev[m]), a;

		a = 100 * (c->pm_bound + c->ev_bound + fabs(c->model[m])) +
		    VALIDATE_EVENTS_MARGIN_PP;
		c->diff[m] = d;
		c->allow[m] = a;
		if (!isfinite(d) || !isfinite(a))
			return VALIDATE_SKIP;
		if (fabs(d) > a && (st == VALIDATE_PASS || fabs(d) - a > worst)) {
			st = VALIDATE_FAIL;
			worst = fabs(d) - a;
			c->worst = m;
		} else if (st == VALIDATE_PASS && fabs(d) > worst) {
			worst = fabs(d);
			c->worst = m;
		}
	}
	return st;
}

/* ------------------------------------------------------- preconditions */

/* Why the cross-check cannot be made on this CPU before any access, or
 * NULL.  @r gets the recipe. */
static const char *unavailable(struct validate_ctx *c, const struct recipe **r)
{
	const struct cpu_kind *k = c->kind;

	if (c->level < 1) {
		snprintf(c->why, sizeof(c->why), "%s (%s): no IA32_PERF_METRICS to cross-check%s",
			 k->core_type == 0x20 ? "an E-core" : "no PERF_METRICS on this core", k->uarch,
			 k->core_type == 0x20 ? " (its level 1 is the events' recipe "
			 "intel-ecore-l1, which bench measures)" : "");
		return c->why;
	}
	if (!c->fc3_counts || !c->metrics_ok)
		return !c->fc3_counts ? "depends on fc3_counts" : "depends on metrics_follow_fc3";
	if (!(*r = recipe_find("intel-icl-events", k->uarch))) {
		snprintf(c->why, sizeof(c->why), "no general-purpose Top-down events for %s in "
			 "baretma's recipes (intel-icl-events has no variant for it: "
			 "baretma decode --recipes)", k->uarch);
		return c->why;
	}
	return NULL;
}

/* A SKIP: the reason is in c->why. */
#define SKIP_WHY 1

/* "general-purpose counters in use: IA32_PERFEVTSEL0, ..." into c->why:
 * at most GP_MAX names of 17 characters, it fits. */
static void in_use(struct validate_ctx *c, uint32_t busy, uint32_t have, unsigned need)
{
	int len = snprintf(c->why, sizeof(c->why), "general-purpose counters in use:");

	for (unsigned x = 0; x < GP_MAX; x++)
		if (busy & (1u << x))
			len += snprintf(c->why + len, sizeof(c->why) - (size_t)len,
					" IA32_PERFEVTSEL%u%s", x, busy >> (x + 1) ? "," : "");
	snprintf(c->why + len, sizeof(c->why) - (size_t)len, " (%u of %u free, %u events to "
		 "count): never overwritten", (unsigned)__builtin_popcount(have & ~busy),
		 (unsigned)__builtin_popcount(have), need);
}

/* The plan: the recipe's level-1 events but TOPDOWN.SLOTS (fixed counter
 * 3, msr/pmu/pmu.h's), on the counters not in use.  @idx[k] is the recipe's
 * index of plan event k.  0, SKIP_WHY (counters in use, the events do not
 * fit), or an access's -errno. */
static int plan_events(struct validate_ctx *c, const struct recipe *r, const struct gp_pmu *pmu,
		       struct gp_plan *plan, unsigned *idx)
{
	struct recipe_env env = { .smt_on = false }; /* intel-icl-events reads no smt_on */
	struct gp_event ev[GP_PLAN_MAX];
	uint32_t mask = 0, gp_busy_mask = 0, fixed_busy = 0;
	unsigned n = 0;
	int rc = recipe_needed(r, &env, 1, &mask);

	for (unsigned i = 0; !rc && i < r->nevents; i++) {
		const struct recipe_event *e = &r->events[i];

		if (!(mask & (1u << i)) || (e->ctr == RECIPE_CTR_FIXED && e->fixed == FIXED_CTR3_IDX))
			continue;
		if (e->ctr != RECIPE_CTR_GP || n == GP_PLAN_MAX) {
			snprintf(c->why, sizeof(c->why), "the recipe's event %s is not a "
				 "general-purpose one", e->name);
			return SKIP_WHY;
		}
		idx[n] = i;
		ev[n++] = (struct gp_event){ .name = e->name, .event = e->event, .umask = e->umask,
					     .cmask = e->cmask, .inv = e->inv, .edge = e->edge,
					     .any = e->any,
					     .counters = recipe_event_counters(e, env.smt_on),
					     .fixed = GP_NO_FIXED };
	}
	if (rc) {
		snprintf(c->why, sizeof(c->why), "the recipe's formulas do not parse");
		return SKIP_WHY;
	}
	rc = gp_busy(c->o->dev, c->cpu, pmu, -1, &gp_busy_mask, &fixed_busy, NULL, 0);
	if (rc)
		return rc;
	rc = gp_assign(pmu, ev, n, gp_busy_mask, 0, false, plan, c->why, sizeof(c->why));
	if (rc == -ENOSPC && gp_busy_mask)
		in_use(c, gp_busy_mask, pmu->gp_mask, n);
	return rc ? SKIP_WHY : 0;
}

/* Program, count one region on every counter at once, read.  0,
 * SKIP_WHY (in use, a value that could not be put back), or -errno. */
static int measure(struct validate_ctx *c, const struct gp_pmu *pmu, const struct gp_plan *plan,
		   uint64_t *slots, uint64_t *metrics, uint64_t *vals)
{
	struct gp_config cfg = { .journal = c->o->j, .nmi_watchdog = -1 };
	uint64_t bits = gp_plan_bits(plan);
	char why[200] = ""; /* gp_program ends a line it cuts in "...": with the
			     * prefix below it fits c->why */
	int rc;

	c->wrote = true; /* hand_over puts back what gp_program saved */
	rc = gp_program(c->o->dev, c->cpu, pmu, plan, &cfg, why, sizeof(why));
	if (rc == -EBUSY || rc == -EOPNOTSUPP || rc == -EINVAL) {
		snprintf(c->why, sizeof(c->why), "%s%s", rc == -EBUSY ?
			 "general-purpose counters in use: " : "", why[0] ? why : strerror(-rc));
		return SKIP_WHY;
	}
	/* frozen, every counter 0, then all started by one GLOBAL_CTRL write */
	if (!rc)
		rc = vc_freeze(c);
	if (!rc)
		rc = gp_reset(c->o->dev, c->cpu, pmu, plan, 0, bits);
	if (!rc)
		rc = vc_start(c, true, 0, 0, bits);
	vc_work();
	if (!rc)
		rc = vc_freeze(c);
	if (!rc)
		rc = vc_read(c, IA32_FIXED_CTR3, slots);
	if (!rc)
		rc = vc_read(c, IA32_PERF_METRICS, metrics);
	if (!rc)
		rc = gp_read_msr(c->o->dev, c->cpu, pmu, plan, vals);
	return rc;
}

/* The corrections' terms (above) on @counts. */
static void model_terms(const struct recipe *r, const double *counts, double model[TMA_NLEVEL1])
{
	struct recipe_env env = { .smt_on = false };

	memset(model, 0, TMA_NLEVEL1 * sizeof(model[0]));
	for (size_t i = 0; i < sizeof(corrections) / sizeof(corrections[0]); i++) {
		double v = 0;

		if (recipe_event_index(r, corrections[i].event) < 0 ||
		    recipe_expr_eval(corrections[i].expr, r, counts, &env, &v, NULL) || !isfinite(v))
			continue;
		model[corrections[i].node] += fabs(v);
		model[TMA_BAD_SPECULATION] += fabs(v);
	}
}

/* Both breakdowns of one reading, and the verdict. */
static void compare(struct validate_ctx *c, const struct recipe *r, const struct gp_plan *plan,
		    const unsigned *idx, uint64_t slots, uint64_t metrics, const uint64_t *vals)
{
	struct validate_l1_cmp cmp = { .ev_bound = 0 };
	struct recipe_env env = { .smt_on = false };
	struct recipe_result res;
	struct recipe_error err = { 0 };
	struct td_result pm;
	double counts[RECIPE_EVENTS_MAX];
	struct validate_result *v;
	enum validate_status st;
	int k = recipe_event_index(r, "TOPDOWN.SLOTS"), rc;

	for (unsigned i = 0; i < RECIPE_EVENTS_MAX; i++)
		counts[i] = -1;
	if (k >= 0)
		counts[k] = (double)slots;
	for (unsigned i = 0; i < plan->n; i++)
		counts[idx[i]] = (double)vals[i];
	td_decode_value(metrics, slots, 1, &pm);
	rc = recipe_eval(r, counts, &env, 1, &res, &err);
	if (rc || (pm.flags & TD_FLAGS_INVALID)) {
		vc_add(c, CHECK, SRC_EVENTS, VALIDATE_SKIP, "%s%s", rc ? "the events' formulas "
		       "could not be computed: " : "PERF_METRICS's reading is not valid (see "
		       "level1_sum)", !rc ? "" : err.what ? err.what : strerror(-rc));
		return;
	}
	for (unsigned m = 0; m < TMA_NLEVEL1; m++) {
		cmp.pm[m] = pm.frac[m];
		cmp.ev[m] = res.frac[m];
	}
	cmp.pm_bound = pm.bound;
	/* one count per event: the counters start and stop on one write, the
	 * SDM promises no simultaneity to the cycle */
	cmp.ev_bound = slots ? (plan->n + 1.0) / (double)slots : 1;
	model_terms(r, counts, cmp.model);
	st = validate_events_verdict(&cmp);
	v = vc_add(c, CHECK, SRC_EVENTS, st, "%s", "");
	if ((rc = validate_events_texts(&cmp, r->variant, slots, &v->measured, &v->expected)) &&
	    !c->err)
		c->err = rc;
	text_setf(&v->reason, "%s differs by %+.2f points%s %.2f (8-bit %.2f + "
		 "events %.3f + formulas %.2f + unconfirmed %d)", td_metric_name(cmp.worst),
		 cmp.diff[cmp.worst], st == VALIDATE_FAIL ? ", beyond its allowance of" :
		 ", the largest, within its allowance of", cmp.allow[cmp.worst], 100 * cmp.pm_bound,
		 100 * cmp.ev_bound, 100 * cmp.model[cmp.worst], VALIDATE_EVENTS_MARGIN_PP);
}

void validate_events(struct validate_ctx *c)
{
	const struct recipe *r = NULL;
	const char *skip = unavailable(c, &r);
	struct gp_pmu pmu;
	struct gp_plan plan;
	unsigned idx[GP_PLAN_MAX];
	uint64_t slots = 0, metrics = 0, vals[GP_PLAN_MAX];
	int rc;

	if (skip) {
		vc_add(c, CHECK, SRC_EVENTS, VALIDATE_SKIP, "%s", skip);
		return;
	}
	c->why[0] = '\0';
	rc = gp_pmu_init(c->o->dev, c->cpu, c->ci, &pmu, c->why, sizeof(c->why));
	if (rc == -ENODEV || rc == -ENXIO)
		rc = SKIP_WHY; /* no general-purpose counter to program (why says) */
	if (!rc)
		rc = plan_events(c, r, &pmu, &plan, idx);
	if (!rc)
		rc = measure(c, &pmu, &plan, &slots, &metrics, vals);
	if (rc == SKIP_WHY) {
		vc_add(c, CHECK, SRC_EVENTS, VALIDATE_SKIP, "%s", c->why[0] ? c->why :
		       "cpu not described");
		return;
	}
	if (rc) {
		vc_failed(c, CHECK, SRC_EVENTS, rc);
		return;
	}
	compare(c, r, &plan, idx, slots, metrics, vals);
}

/* In a run without MSR access (validate_options.identity_only): why. */
void validate_events_identity_only(struct validate_ctx *c)
{
	const struct cpu_pmu_arch *a = &c->ci->pmu;

	if (c->ci->hypervisor && a->version == 0)
		snprintf(c->why, sizeof(c->why), "running under a hypervisor (%s) that hides the "
			 "PMU: CPUID leaf 0xA reports architectural perfmon version 0, no counter "
			 "to program and no PERF_METRICS to read", c->ci->hypervisor);
	else if (c->ci->hypervisor && !c->kind->fixed_ctr3)
		snprintf(c->why, sizeof(c->why), "running under a hypervisor (%s) whose virtual "
			 "PMU enumerates no fixed counter 3 (fixed mask 0x%x): no TOPDOWN.SLOTS and "
			 "no PERF_METRICS to cross-check", c->ci->hypervisor, c->kind->fixed_mask);
	else
		snprintf(c->why, sizeof(c->why), "no MSR access: %s", c->o->no_msr ?
			 c->o->no_msr : "");
	vc_add(c, CHECK, SRC_EVENTS, VALIDATE_SKIP, "%s", c->why);
}
