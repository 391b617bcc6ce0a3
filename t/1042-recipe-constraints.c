/*
 * t/1042-recipe-constraints.c - every pass of every recipe puts each event
 * on a counter the vendor lets it use: intel/perfmon's "Counter" with SMT
 * on, "CounterHTOff" with SMT off (its "Counter" where a file has none),
 * a fixed counter where perfmon says "Fixed counter N", any counter on AMD
 * (Linux's amdzen files give none) - read from t/data/vendor-events.tsv,
 * the intersection over the variant's model files, never from our table.
 *
 *   1. recipe_passes (msr/recipe/recipe.h) for each recipe, SMT on and off,
 *      levels 1 and 2, on 4, 6 and 8 GP counters and fixed counters 0-6:
 *      each GP event on a counter of the core its vendor allows, distinct
 *      counters in a pass, each fixed event on its fixed counter, every
 *      needed event in exactly one pass;
 *   2. the sources' split and assignment (source_events_groups, then
 *      gp_assign as source_events_open does) on the core kinds of the real
 *      CPUID dumps ($SHARED_CPUID/INDEX.tsv), their own counters, SMT on
 *      and off: each event of each plan on an allowed counter;
 *   3. the cases: Haswell's IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_
 *      DELIV.CORE with SMT off on the 8 GP counters of the hwloc dump
 *      Intel-Haswell-2xXeon-E5-2680v3 (haswellx_core.json CounterHTOff
 *      "0,1,2,3") on counter 0-3; Skylake's CYCLE_ACTIVITY.STALLS_MEM_ANY
 *      (CounterHTOff "0,1,2,3") on 0-3 though four events without that
 *      constraint came first in its pass (a matching, not first fit); an
 *      event no counter takes refused with -ENODEV and named
 *      (recipe_unplaceable).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "bench/source/source.h"
#include "cpu/cpu.h"
#include "msr/pmu/pmu_gp.h"
#include "msr/recipe/recipe.h"
#include "t/fixture.h"
#include "t/vendor-events.h"

#define PASSES 8
#define ALL 0xFFFFFFFFu

static struct ve_data vd;

/* The vendor's GP counters for @e of @r with SMT @smt (ALL: any), and
 * whether some file of the variant puts it on fixed counter e->fixed. */
static uint32_t vendor_mask(const struct recipe *r, const struct recipe_event *e, bool smt,
			    bool *fixed_ok, unsigned *files)
{
	uint32_t m = ALL;
	char base[96];
	long nc;

	*fixed_ok = false;
	*files = 0;
	ve_base(e->name, base, sizeof(base), &nc);
	for (size_t i = 0; i < VE_NMODELS; i++) {
		const struct ve_model *vm = &ve_models[i];
		const struct ve_row *v;
		uint32_t x;
		enum ve_ctr k;

		if (strcmp(vm->recipe, r->name) || strcmp(vm->variant, r->variant) ||
		    !(v = ve_find(&vd, vm->model, vm->file, base)))
			continue;
		(*files)++;
		k = ve_counter(v->col[smt ? VE_COUNTER : VE_HTOFF], &x);
		if (k == VE_CTR_NONE && !smt)
			k = ve_counter(v->col[VE_COUNTER], &x);
		if (k == VE_CTR_GP)
			m &= x;
		else if (k == VE_CTR_FIXED && x == e->fixed)
			*fixed_ok = true;
		else if (k == VE_CTR_FIXED || k == VE_CTR_BAD)
			m = 0; /* the vendor gives it no GP counter */
	}
	return m;
}

/* Is each event of pass @p where the vendor allows?  Says what is not. */
static bool pass_ok(const struct recipe *r, bool smt, const struct recipe_pass *p,
		    uint32_t gp_mask, char *why, size_t n)
{
	uint32_t used = 0;

	why[0] = '\0';
	for (unsigned k = 0; k < p->n; k++) {
		const struct recipe_event *e = &r->events[p->event[k]];
		bool fixed_ok;
		unsigned files;
		uint32_t m = vendor_mask(r, e, smt, &fixed_ok, &files);
		int c = p->counter[k];

		if (e->ctr == RECIPE_CTR_METRICS)
			continue;
		if (!files) {
			snprintf(why, n, "%s: not in the extract", e->name);
			return false;
		}
		if (e->ctr == RECIPE_CTR_FIXED) {
			if (!fixed_ok || c != (int)e->fixed) {
				snprintf(why, n, "%s on fixed counter %d, the vendor's %u", e->name, c,
					 e->fixed);
				return false;
			}
			continue;
		}
		if (c < 0 || c > 31 || !(m & gp_mask & (1u << c)) || (used & (1u << c))) {
			snprintf(why, n, "%s on GP counter %d: the vendor allows 0x%x of 0x%x%s",
				 e->name, c, m, gp_mask, (used & (1u << c)) ? ", taken" : "");
			return false;
		}
		used |= 1u << c;
	}
	return true;
}

/* Part 1: recipe_passes on made-up cores. */
static void check_passes(const struct recipe *r)
{
	static const uint32_t gps[] = { 0xF, 0x3F, 0xFF };

	for (int smt = 0; smt < 2; smt++)
		for (int level = 1; level <= 2; level++) {
			struct recipe_env env = { .smt_on = smt };
			uint32_t need;

			if (recipe_needed(r, &env, level, &need))
				continue;
			for (size_t g = 0; g < sizeof(gps) / sizeof(gps[0]); g++) {
				struct recipe_pass p[PASSES];
				uint32_t seen = 0, twice = 0;
				int n = recipe_passes(r, &env, need, gps[g], 0x7F, p, PASSES);
				bool good = n > 0;
				char why[200] = "";

				for (int i = 0; good && i < n; i++) {
					good = pass_ok(r, smt, &p[i], gps[g], why, sizeof(why));
					for (unsigned k = 0; k < p[i].n; k++) {
						twice |= seen & (1u << p[i].event[k]);
						seen |= 1u << p[i].event[k];
					}
				}
				ok(good && seen == need && !twice, "%s:%s level %d, SMT %s, GP 0x%x: "
				   "%d passes, each event where its vendor allows%s%s", r->name,
				   r->variant, level, smt ? "on" : "off", gps[g], n, why[0] ? ": " : "",
				   why);
			}
		}
}

/* Part 2: one kind of a real dump, as the sources program it. */
static void check_kind(const char *dump, const struct cpu_info *ci, const struct cpu_kind *k)
{
	const struct recipe *r = source_events_recipe(k, (char[200]){ 0 }, 200);
	struct gp_pmu pmu;
	char why[300];

	if (!r || gp_pmu_init(NULL, k->cpus[0], ci, &pmu, why, sizeof(why)))
		return;
	for (int smt = 0; smt < 2; smt++)
		for (int level = 1; level <= source_events_level(r); level++) {
			uint32_t groups[SOURCE_PASSES_MAX];
			int n = source_events_groups(k, r, smt, level, groups);
			bool good = n > 0;

			why[0] = '\0';
			for (int i = 0; good && i < n; i++) {
				struct gp_event ev[GP_PLAN_MAX];
				struct recipe_pass as = { 0 };
				struct gp_plan plan;
				unsigned ne = 0;

				for (unsigned e = 0; e < r->nevents; e++) {
					const struct recipe_event *x = &r->events[e];

					if (!(groups[i] & (1u << e)))
						continue;
					ev[ne++] = (struct gp_event){ .name = x->name, .event = x->event,
						.umask = x->umask, .cmask = x->cmask, .inv = x->inv,
						.edge = x->edge, .any = x->any,
						.counters = recipe_event_counters(x, smt),
						.fixed = x->ctr == RECIPE_CTR_FIXED ? (int)x->fixed :
							 GP_NO_FIXED };
					as.event[as.n++] = (uint8_t)e;
				}
				good = gp_assign(&pmu, ev, ne, 0, 0, false, &plan, why, sizeof(why)) == 0;
				for (unsigned j = 0; good && j < plan.n; j++) {
					/* a fixed event on its fixed counter, a GP one on a GP counter */
					as.counter[j] = (int8_t)plan.at[j].idx;
					if (plan.at[j].fixed != (r->events[as.event[j]].ctr ==
								 RECIPE_CTR_FIXED)) {
						snprintf(why, sizeof(why), "%s on the wrong kind of counter",
							 r->events[as.event[j]].name);
						good = false;
					}
				}
				good = good && pass_ok(r, smt, &as, k->gp_mask, why, sizeof(why));
			}
			ok(good, "%s (%s, GP 0x%x): %s:%s level %d, SMT %s: %d passes, each event "
			   "programmed where its vendor allows%s%s", dump, k->uarch, k->gp_mask,
			   r->name, r->variant, level, smt ? "on" : "off", n, why[0] ? ": " : "", why);
		}
}

static void check_dumps(const char *shared)
{
	struct t_index ix;
	unsigned kinds = 0;

	if (!shared || !t_index_load(&ix, shared)) {
		skip(1, "no CPUID dumps ($SHARED_CPUID)");
		return;
	}
	for (int i = 0; i < ix.nrows; i++) {
		const char *path = t_in(shared, ix.rows[i].col[0]);
		struct cpu_source *src = cpu_source_dump(path);
		struct cpu_info ci;

		if (!src)
			continue;
		if (!cpu_info_identify(src, NULL, &ci))
			for (unsigned k = 0; k < ci.nkinds; k++)
				if (ci.kinds[k].topdown_recipe && !ci.kinds[k].topdown_level) {
					check_kind(ix.rows[i].col[0], &ci, &ci.kinds[k]);
					kinds++;
				}
		cpu_source_free(src);
	}
	ok(kinds >= 10, "%u core kinds of the real dumps with an event recipe", kinds);
	t_index_free(&ix);
}

/* Part 3: the cases. */
static int counter_of(const struct recipe *r, const struct recipe_pass *p, int n, const char *ev)
{
	int e = recipe_event_index(r, ev);

	for (int i = 0; i < n; i++)
		for (unsigned k = 0; k < p[i].n; k++)
			if (p[i].event[k] == e)
				return p[i].counter[k];
	return -1;
}

static void haswell_dump(const char *shared)
{
	const char *path = shared ? t_in(shared, "hwloc/Intel-Haswell-2xXeon-E5-2680v3") : "";
	struct cpu_source *src = cpu_source_dump(path);
	struct cpu_info ci;
	const struct recipe *r;
	uint32_t groups[SOURCE_PASSES_MAX];
	int n;

	if (!src || cpu_info_identify(src, NULL, &ci)) {
		skip(2, "no hwloc dump Intel-Haswell-2xXeon-E5-2680v3");
		cpu_source_free(src);
		return;
	}
	cpu_source_free(src);
	r = source_events_recipe(&ci.kinds[0], (char[200]){ 0 }, 200);
	check_u64(ci.kinds[0].gp_mask, ==, 0xFF, "Haswell-EP dump: 8 GP counters (INDEX.tsv "
		  "leafA_gp_counters 8)");
	n = r ? source_events_groups(&ci.kinds[0], r, false, 2, groups) : -1;
	if (n > 0) {
		struct recipe_pass p[PASSES];
		uint32_t need;
		struct recipe_env off = { false };
		int np = recipe_needed(r, &off, 2, &need) ? -1 :
			 recipe_passes(r, &off, need, 0xFF, ci.kinds[0].fixed_mask, p, PASSES);
		int c = counter_of(r, p, np, "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE");

		ok(c >= 0 && c < 4, "Haswell-EP, SMT off, level 2: IDQ_UOPS_NOT_DELIVERED.CYCLES_0_"
		   "UOPS_DELIV.CORE on counter %d (haswellx_core.json CounterHTOff 0,1,2,3)", c);
	} else {
		ok(0, "Haswell-EP, level 2: passes (%d)", n);
	}
}

static void skylake_matching(void)
{
	const struct recipe *r = recipe_find_variant("intel-pre-icl-l1", "skylake");
	struct recipe_env off = { false };
	struct recipe_pass p[PASSES];
	/* four events with CounterHTOff 0-7 before STALLS_MEM_ANY in table order */
	const char *ev[] = { "UOPS_ISSUED.ANY", "UOPS_RETIRED.RETIRE_SLOTS",
			     "BR_MISP_RETIRED.ALL_BRANCHES", "UOPS_RETIRED.MACRO_FUSED",
			     "CYCLE_ACTIVITY.STALLS_MEM_ANY" };
	uint32_t m = 0;
	int n, c;

	for (size_t i = 0; r && i < sizeof(ev) / sizeof(ev[0]); i++)
		m |= 1u << recipe_event_index(r, ev[i]);
	n = r ? recipe_passes(r, &off, m, 0xFF, 0x7, p, PASSES) : -1;
	c = counter_of(r, p, n, "CYCLE_ACTIVITY.STALLS_MEM_ANY");
	ok(n == 1 && c >= 0 && c < 4, "Skylake, SMT off, 8 counters: STALLS_MEM_ANY (CounterHTOff "
	   "0,1,2,3) on counter %d in the one pass, after 4 unconstrained events (%d passes)", c, n);
	r = recipe_find_variant("intel-icl-events", "golden-cove");
	m = r ? 1u << recipe_event_index(r, "TOPDOWN.BR_MISPREDICT_SLOTS") : 0;
	check_int(r ? recipe_passes(r, &off, m, 0xFE, 0xF, p, PASSES) : 0, ==, -ENODEV,
		  "Golden Cove without counter 0: BR_MISPREDICT_SLOTS (Counter 0) refused");
	check_int(r ? recipe_unplaceable(r, &off, m, 0xFE, 0xF) : 0, ==,
		  r ? recipe_event_index(r, "TOPDOWN.BR_MISPREDICT_SLOTS") : 1, "  and named");
}

int main(void)
{
	const char *shared = getenv("SHARED_CPUID");

	if (ve_load(ve_path(), &vd))
		return ok(0, "the extract %s", ve_path()), done_testing();
	for (size_t i = 0; i < recipe_count(); i++)
		check_passes(recipe_at(i));
	skylake_matching();
	if (shared && access(t_in(shared, "INDEX.tsv"), R_OK) == 0) {
		check_dumps(shared);
		haswell_dump(shared);
	} else {
		skip(3, "no CPUID dumps ($SHARED_CPUID)");
	}
	free(vd.rows);
	return done_testing();
}
