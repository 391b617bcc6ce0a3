/*
 * t/1040-vendor-events.c - every event of every recipe (msr/recipe/recipes_intel*.c,
 * msr/recipe/recipes_amd.c, through recipe_count / recipe_at) against the
 * vendors' own data, field by field: event select, unit mask, counter
 * mask, Invert, EdgeDetect, AnyThread, and the counters it may use with
 * SMT on (perfmon "Counter") and off ("CounterHTOff"), on every model file
 * of its variant (t/vendor-events.h ve_models).  The vendors' values come
 * from t/data/vendor-events.tsv, an extract of intel/perfmon's and Linux's
 * JSON files (its header names them and their commits; t/data/
 * vendor-events.py made it), never from the tables under test.  A
 * difference fails, naming the recipe, the event, the model, the field,
 * ours and theirs; the vendor's own slips are listed below with why.
 *
 * Rules where the two write a fact differently:
 *   - "EVENT:cN" (a counter mask the recipe adds, as TMA_Metrics-full.csv
 *     and perf's metrics write cmask=N) is the vendor's EVENT with
 *     counter mask N: its CounterMask must be 0, ours N;
 *   - "Fixed counter N": our row is RECIPE_CTR_FIXED with .fixed N and no
 *     GP constraint (counters, counters_ht_off 0);
 *   - no CounterHTOff (Ice Lake and later, the E-cores: 8 or 6 counters a
 *     thread whatever SMT): ours with SMT off is its Counter;
 *   - no Counter (Linux's AMD files): any counter, 0 (linux arch/x86/
 *     events/amd/core.c amd_get_event_constraints_f17h: constraints only
 *     for the paired event 0x003);
 *   - a field the vendor leaves out ("-") is 0.
 * The PERF_METRICS pseudo-events (topdown-*: no vendor file has them) are
 * checked against Linux's arch/x86/include/asm/perf_event.h
 * INTEL_TD_METRIC_* and arch/x86/events/intel/core.c's EVENT_ATTR_STR
 * (topdown-retiring "event=0x00,umask=0x80" ... topdown-mem-bound
 * "umask=0x87").  Every row of the extract must be some recipe's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "msr/recipe/recipe.h"
#include "t/tap.h"
#include "t/vendor-events.h"

/* The vendor's own slips: a row that disagrees with the vendor's other
 * files and with the SDM, and what we keep. */
static struct slip {
	const char *model, *event, *field, *theirs, *why;
	bool seen;
} slips[] = {
	{ "JKT", "CPU_CLK_UNHALTED.THREAD_ANY", "Counter", "Fixed counter 2",
	  "perfmon's Jaketown file puts THREAD_ANY on fixed counter 2, its own "
	  "CPU_CLK_UNHALTED.THREAD (0x00/0x02) and SNB/IVB/IVT's THREAD_ANY on fixed counter 1: "
	  "the SDM's IA32_FIXED_CTR1 counts CPU_CLK_UNHALTED.CORE, its AnyThread bit 6 of "
	  "IA32_FIXED_CTR_CTRL; fixed counter 2 is the reference cycles", false },
	{ "JKT", "CPU_CLK_UNHALTED.THREAD_ANY", "CounterHTOff", "Fixed counter 2",
	  "as its Counter (above)", false },
};
#define NSLIPS (sizeof(slips) / sizeof(slips[0]))

/* Linux's PERF_METRICS pseudo-events: name, umask (event 0x00), byte. */
static const struct { const char *name; unsigned umask, byte; } td_metrics[] = {
	{ "topdown-retiring", 0x80, 0 },      /* INTEL_TD_METRIC_RETIRING 0x8000 */
	{ "topdown-bad-spec", 0x81, 1 },      /* INTEL_TD_METRIC_BAD_SPEC 0x8100 */
	{ "topdown-fe-bound", 0x82, 2 },      /* INTEL_TD_METRIC_FE_BOUND 0x8200 */
	{ "topdown-be-bound", 0x83, 3 },      /* INTEL_TD_METRIC_BE_BOUND 0x8300 */
	{ "topdown-heavy-ops", 0x84, 4 },     /* INTEL_TD_METRIC_HEAVY_OPS 0x8400 */
	{ "topdown-br-mispredict", 0x85, 5 }, /* INTEL_TD_METRIC_BR_MISPREDICT 0x8500 */
	{ "topdown-fetch-lat", 0x86, 6 },     /* INTEL_TD_METRIC_FETCH_LAT 0x8600 */
	{ "topdown-mem-bound", 0x87, 7 },     /* INTEL_TD_METRIC_MEM_BOUND 0x8700 */
};

static unsigned ndiff;

/* One field: equal, a listed slip (ok, said), or a difference (not ok). */
static void field(const char *rv, const char *ev, const struct ve_row *v, const char *name,
		  const char *ours, const char *theirs, bool equal)
{
	for (size_t i = 0; !equal && i < NSLIPS; i++)
		if (!strcmp(slips[i].model, v->col[VE_MODEL]) && !strcmp(slips[i].event, ev) &&
		    !strcmp(slips[i].field, name) && !strcmp(slips[i].theirs, v->col[
		    !strcmp(name, "Counter") ? VE_COUNTER : VE_HTOFF])) {
			slips[i].seen = true;
			ok(1, "%s %s [%s]: %s ours %s, theirs %s: the vendor's slip (%s)", rv, ev,
			   v->col[VE_MODEL], name, ours, theirs, slips[i].why);
			return;
		}
	if (!equal) {
		ndiff++;
		ok(0, "%s %s [%s %s]: %s ours %s, theirs %s", rv, ev, v->col[VE_MODEL],
		   v->col[VE_FILE], name, ours, theirs);
	}
}

static void num_field(const char *rv, const char *ev, const struct ve_row *v, const char *name,
		      long ours, long theirs, const char *written)
{
	char a[32], b[64];

	snprintf(a, sizeof(a), "0x%lx (%ld)", ours, ours);
	snprintf(b, sizeof(b), "%s (%ld)", written, theirs);
	field(rv, ev, v, name, a, b, theirs >= 0 && ours == theirs);
}

/* The constraint field @col of @v against ours; @gp: the Counter's kind. */
static void counter_field(const char *rv, const struct recipe_event *e, const struct ve_row *v,
			  int col, uint32_t ours)
{
	const char *name = col == VE_COUNTER ? "Counter" : "CounterHTOff";
	const char *txt = v->col[col];
	uint32_t m = 0, want;
	enum ve_ctr k = ve_counter(txt, &m);
	char a[64], b[160];

	if (k == VE_CTR_NONE && col == VE_HTOFF)
		k = ve_counter(v->col[VE_COUNTER], &m), txt = v->col[VE_COUNTER];
	if (k == VE_CTR_FIXED) {
		snprintf(a, sizeof(a), e->ctr == RECIPE_CTR_FIXED ? "fixed counter %u, GP 0x%x" :
			 "a GP event (fixed %u), GP 0x%x", e->fixed, ours);
		snprintf(b, sizeof(b), "'%s'", v->col[col]);
		field(rv, e->name, v, name, a, b, e->ctr == RECIPE_CTR_FIXED && e->fixed == m &&
		      ours == 0);
		return;
	}
	want = k == VE_CTR_GP ? m : 0;
	snprintf(a, sizeof(a), "%s 0x%x", e->ctr == RECIPE_CTR_GP ? "GP" : "not GP", ours);
	snprintf(b, sizeof(b), "'%s' (%s0x%x)", v->col[col], txt == v->col[col] ? "" :
		 "no CounterHTOff: its Counter, ", want);
	field(rv, e->name, v, name, a, b, k != VE_CTR_BAD && e->ctr == RECIPE_CTR_GP && ours == want);
}

/* One recipe event against one vendor row, field by field. */
static void compare(const char *rv, const struct recipe_event *e, struct ve_row *v, long ncmask)
{
	unsigned before = ndiff;
	long code = ve_num(v->col[VE_CODE], -1), umask = ve_num(v->col[VE_UMASK], 0);
	long cmask = ve_num(v->col[VE_CMASK], 0);

	v->used = true;
	num_field(rv, e->name, v, "EventCode", e->event, code, v->col[VE_CODE]);
	num_field(rv, e->name, v, "UMask", e->umask, umask, v->col[VE_UMASK]);
	if (ncmask >= 0) {
		char a[16], b[224];

		snprintf(a, sizeof(a), "%u", e->cmask);
		snprintf(b, sizeof(b), "%ld (the name's :c%ld on the base, whose CounterMask is %s)",
			 ncmask, ncmask, v->col[VE_CMASK]);
		field(rv, e->name, v, "CounterMask", a, b, cmask == 0 && e->cmask == ncmask);
	} else {
		num_field(rv, e->name, v, "CounterMask", e->cmask, cmask, v->col[VE_CMASK]);
	}
	num_field(rv, e->name, v, "Invert", e->inv, ve_num(v->col[VE_INV], 0), v->col[VE_INV]);
	num_field(rv, e->name, v, "EdgeDetect", e->edge, ve_num(v->col[VE_EDGE], 0),
		  v->col[VE_EDGE]);
	num_field(rv, e->name, v, "AnyThread", e->any, ve_num(v->col[VE_ANY], 0), v->col[VE_ANY]);
	counter_field(rv, e, v, VE_COUNTER, e->counters);
	counter_field(rv, e, v, VE_HTOFF, e->counters_ht_off);
	if (ndiff == before)
		ok(1, "%s %s [%s %s]: 0x%02X/0x%02X c%u%s%s%s, counters 0x%x / 0x%x: as %s",
		   rv, e->name, v->col[VE_MODEL], v->col[VE_FILE], e->event, e->umask, e->cmask,
		   e->inv ? " inv" : "", e->edge ? " edge" : "", e->any ? " any" : "", e->counters,
		   e->counters_ht_off, v->col[VE_COMMIT]);
}

/* A PERF_METRICS pseudo-event against Linux's encoding. */
static void metrics_event(const char *rv, const struct recipe_event *e)
{
	for (size_t i = 0; i < sizeof(td_metrics) / sizeof(td_metrics[0]); i++)
		if (!strcmp(td_metrics[i].name, e->name)) {
			ok(e->event == 0 && e->umask == td_metrics[i].umask &&
			   e->fixed == td_metrics[i].byte && !e->cmask && !e->inv && !e->edge &&
			   !e->any && !e->counters && !e->counters_ht_off,
			   "%s %s: event 0x00 umask 0x%02X, PERF_METRICS byte %u (Linux "
			   "INTEL_TD_METRIC_*; ours 0x%02X/0x%02X byte %u)", rv, e->name,
			   td_metrics[i].umask, td_metrics[i].byte, e->event, e->umask, e->fixed);
			return;
		}
	ok(0, "%s %s: a PERF_METRICS event Linux does not define", rv, e->name);
}

/* Every event of @r against every vendor file of its variant. */
static void check_recipe(struct ve_data *d, const struct recipe *r)
{
	char rv[96];
	unsigned files = 0;

	snprintf(rv, sizeof(rv), "%s:%s", r->name, r->variant);
	for (size_t m = 0; m < VE_NMODELS; m++) {
		const struct ve_model *vm = &ve_models[m];

		if (strcmp(vm->recipe, r->name) || strcmp(vm->variant, r->variant))
			continue;
		files++;
		for (unsigned i = 0; i < r->nevents; i++) {
			const struct recipe_event *e = &r->events[i];
			char base[96];
			long nc;
			struct ve_row *v;

			if (e->ctr == RECIPE_CTR_METRICS) {
				if (files == 1)
					metrics_event(rv, e);
				continue;
			}
			v = ve_find(d, vm->model, vm->file, ve_base(e->name, base, sizeof(base), &nc));
			if (!ok(v != NULL, "%s %s: in the extract for %s %s (%s)", rv, e->name,
				vm->model, vm->file ? vm->file : "", vm->why))
				continue;
			compare(rv, e, v, nc);
		}
	}
	ok(files > 0, "%s: checked against %u vendor files (t/vendor-events.h ve_models)", rv, files);
}

/* The extract's own form: commits of 40 hex digits, known models. */
static void check_rows(struct ve_data *d)
{
	unsigned bad = 0, unused = 0;

	for (size_t i = 0; i < d->n; i++) {
		const struct ve_row *v = &d->rows[i];
		bool hex = strlen(v->col[VE_COMMIT]) == 40 &&
			   strspn(v->col[VE_COMMIT], "0123456789abcdef") == 40;
		uint32_t m;

		if (!hex || ve_num(v->col[VE_CODE], -1) < 0 || ve_counter(v->col[VE_COUNTER], &m) ==
		    VE_CTR_BAD || ve_counter(v->col[VE_HTOFF], &m) == VE_CTR_BAD) {
			bad++;
			printf("# malformed row: %s %s %s\n", v->col[VE_MODEL], v->col[VE_NAME],
			       v->col[VE_COMMIT]);
		}
		if (!v->used) {
			unused++;
			printf("# no recipe event for the row %s %s\n", v->col[VE_MODEL],
			       v->col[VE_NAME]);
		}
	}
	ok(d->n > 0 && bad == 0, "%zu rows, each with its commit and fields readable", d->n);
	ok(unused == 0, "every row is some recipe's event (%u are not)", unused);
}

int main(void)
{
	struct ve_data d;

	if (ve_load(ve_path(), &d))
		return ok(0, "the extract %s", ve_path()), done_testing();
	for (size_t i = 0; i < recipe_count(); i++)
		check_recipe(&d, recipe_at(i));
	check_rows(&d);
	for (size_t i = 0; i < NSLIPS; i++)
		ok(slips[i].seen, "the listed slip %s %s %s is in the extract", slips[i].model,
		   slips[i].event, slips[i].field);
	printf("# %u difference(s) between the tables and the vendors' files\n", ndiff);
	free(d.rows);
	return done_testing();
}
