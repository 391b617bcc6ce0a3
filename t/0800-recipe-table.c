/*
 * t/0800-recipe-table - every entry of the recipe tables (msr/recipe/recipes_*.c)
 * checked field by field, libpfm4's validate tables style:
 *   - recipes: a known name (design of issue 18: the CPU_RECIPE_* names of
 *     cpu/cpu.h plus intel-perf-metrics and intel-icl-events), unique
 *     name:variant, a bound, every uarch a string of the model table
 *     (cpu/cpu_models.c), the same pipeline width as that table wherever
 *     a formula uses "width";
 *   - events: names unique (case-insensitively) and fit for --counts (no
 *     '=', ',' or blank), encodings in range (Intel EVTSEL event select 8
 *     bits, AMD PERF_CTL 12 bits: linux perf_event.h ARCH_PERFMON_EVENTSEL_EVENT,
 *     AMD64_EVENTSEL_EVENT), fixed counter indices 0..6 (IA32_FIXED_CTR0..6,
 *     Skymont's 4..6: intel/perfmon lunarlake_skymont_core.json), PERF_METRICS
 *     bytes 0..7 on Intel (INTEL_PMC_IDX_TD_*), AnyThread only before Ice Lake
 *     (deprecated where CPUID.0AH:EDX[15], cpuid10_edx anythread_deprecated),
 *     a counter constraint only on GP events, a source on every row;
 *   - nodes: one SLOTS at level 0, the four level-1 tma_* in every recipe,
 *     each tma_* at its level of msr/recipe/topdown.h, level-2 nodes under a
 *     level-1 node of the same recipe and, for the twelve, under the parent
 *     msr/recipe/topdown.h gives; a source on every row;
 *   - formulas: every one parses and names only the recipe's events, nodes
 *     and variables; every event is used by some formula (SMT on or off)
 *     and every event a formula uses is in the table (an unknown name does
 *     not parse);
 *   - the model table's recipes: recipe_find(row's recipe, row's uarch)
 *     finds one for every row that names a recipe, P-core and E-core.
 */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "cpu/cpu.h"
#include "msr/recipe/recipe.h"
#include "t/tap.h"

static const char *const known_names[] = {
	CPU_RECIPE_INTEL_PRE_ICL, CPU_RECIPE_INTEL_ECORE, CPU_RECIPE_AMD_ZEN4, CPU_RECIPE_AMD_ZEN5,
	"intel-perf-metrics", "intel-icl-events",
};

static bool known_name(const char *n)
{
	for (size_t i = 0; i < sizeof(known_names) / sizeof(known_names[0]); i++)
		if (strcmp(known_names[i], n) == 0)
			return true;
	return false;
}

/* The model table's pipeline width of @uarch (P- or E-core), 0 when unknown, -1 if absent. */
static int model_width(const char *uarch, bool *mixed)
{
	size_t n;
	const struct cpu_model *m = cpu_model_table(&n);
	int w = -1;

	*mixed = false;
	for (size_t i = 0; i < n; i++) {
		int wi = -1;

		if (m[i].uarch && strcmp(m[i].uarch, uarch) == 0)
			wi = (int)m[i].pipeline_width;
		else if (m[i].e_uarch && strcmp(m[i].e_uarch, uarch) == 0)
			wi = (int)m[i].e_pipeline_width;
		if (wi < 0)
			continue;
		if (w >= 0 && wi != w)
			*mixed = true;
		w = wi;
	}
	return w;
}

static bool uses_word(const struct recipe *r, const char *word)
{
	size_t n = strlen(word);

	for (unsigned i = 0; i < r->nnodes; i++)
		for (const char *p = r->nodes[i].expr; p && (p = strstr(p, word)); p += n) {
			bool before = p == r->nodes[i].expr || !(p[-1] == '_' || p[-1] == '.' ||
						(p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z'));
			char a = p[n];
			bool after = !(a == '_' || a == '.' || (a >= 'a' && a <= 'z') ||
				       (a >= 'A' && a <= 'Z') || (a >= '0' && a <= '9'));

			if (before && after)
				return true;
		}
	return false;
}

static void check_recipe_fields(const struct recipe *r, const char *id)
{
	ok(known_name(r->name), "%s: a known recipe name", id);
	ok(r->variant && r->variant[0], "%s: a variant", id);
	ok(r->vendor == CPU_VENDOR_INTEL || r->vendor == CPU_VENDOR_AMD, "%s: a vendor", id);
	ok((r->vendor == CPU_VENDOR_AMD) == (strncmp(r->name, "amd-", 4) == 0),
	   "%s: amd-* recipes are AMD's, the others Intel's", id);
	ok(r->width >= 4 && r->width <= 8, "%s: width %u in 4..8 (perfmon TMA, perf amdzen)",
	   id, r->width);
	ok(r->bound && r->bound[0], "%s: says what bounds it", id);
	ok(r->uarchs && r->uarchs[0], "%s: serves at least one uarch", id);
	for (const char *const *u = r->uarchs; u && *u; u++) {
		bool mixed;
		int w = model_width(*u, &mixed);

		ok(w >= 0, "%s: uarch '%s' is one of cpu/cpu_models.c", id, *u);
		if (uses_word(r, "width"))
			ok(!mixed && w == (int)r->width, "%s: its formulas use width %u, the model "
			   "table's width of '%s' is %d", id, r->width, *u, w);
	}
	for (size_t j = 0; j < recipe_count(); j++) {
		const struct recipe *o = recipe_at(j);

		if (o != r && strcmp(o->name, r->name) == 0 && strcasecmp(o->variant, r->variant) == 0)
			ok(0, "%s: name:variant unique", id);
	}
}

static void check_events(const struct recipe *r, const char *id)
{
	bool pre_icl = strcmp(r->name, CPU_RECIPE_INTEL_PRE_ICL) == 0;

	ok(r->nevents > 0 && r->nevents <= RECIPE_EVENTS_MAX, "%s: %u events (1..%d)", id,
	   r->nevents, RECIPE_EVENTS_MAX);
	for (unsigned i = 0; i < r->nevents && i < RECIPE_EVENTS_MAX; i++) {
		const struct recipe_event *e = &r->events[i];
		bool range;

		ok(e->name && e->name[0] && !strpbrk(e->name, "=, \t"), "%s: event %u '%s' fit for "
		   "--counts", id, i, e->name ? e->name : "(null)");
		for (unsigned j = 0; j < i; j++)
			if (strcasecmp(e->name, r->events[j].name) == 0)
				ok(0, "%s: event '%s' unique", id, e->name);
		ok(e->source && strchr(e->source, '['), "%s: %s has a source", id, e->name);
		switch (e->ctr) {
		case RECIPE_CTR_GP:
			range = r->vendor == CPU_VENDOR_AMD ? e->event <= 0xFFF : e->event <= 0xFF;
			ok(range && e->event != 0, "%s: %s event select 0x%x in range", id, e->name,
			   e->event);
			ok((e->counters == 0) == (e->counters_ht_off == 0), "%s: %s counters given "
			   "for both SMT states or neither (0x%x, 0x%x)", id, e->name, e->counters,
			   e->counters_ht_off);
			break;
		case RECIPE_CTR_FIXED:
			ok(r->vendor == CPU_VENDOR_INTEL && e->fixed <= 6 && e->event == 0 &&
			   e->counters == 0 && e->counters_ht_off == 0 && e->cmask == 0 && !e->inv &&
			   !e->edge, "%s: %s fixed counter %u (0..6, pseudo-encoding 0x00, no EVTSEL bits)",
			   id, e->name, e->fixed);
			break;
		case RECIPE_CTR_METRICS:
			ok(r->vendor == CPU_VENDOR_INTEL && e->fixed < 8 && e->umask == 0x80 + e->fixed &&
			   e->counters == 0 && e->counters_ht_off == 0,
			   "%s: %s PERF_METRICS byte %u, pseudo-event 0x00/0x%x",
			   id, e->name, e->fixed, e->umask);
			break;
		default:
			ok(0, "%s: %s a known counter kind", id, e->name);
		}
		if (e->any)
			ok(pre_icl, "%s: %s AnyThread only before Ice Lake", id, e->name);
	}
}

/* The level-1 node named @metric in @r. */
static bool has_l1(const struct recipe *r, const char *metric)
{
	int k = recipe_node_index(r, metric);

	return k >= 0 && r->nodes[k].level == 1;
}

static int tma_index(const char *metric)
{
	for (int m = 0; m < TMA_NMETRICS; m++)
		if (strcmp(td_metric_name((enum td_metric)m), metric) == 0)
			return m;
	return -1;
}

static void check_nodes(const struct recipe *r, const char *id)
{
	unsigned nslots = 0, nextra = 0;

	ok(r->nnodes > 0 && r->nnodes <= RECIPE_NODES_MAX, "%s: %u nodes", id, r->nnodes);
	for (int m = 0; m < TMA_NLEVEL1; m++)
		ok(has_l1(r, td_metric_name((enum td_metric)m)), "%s: has %s at level 1", id,
		   td_metric_name((enum td_metric)m));
	for (unsigned i = 0; i < r->nnodes && i < RECIPE_NODES_MAX; i++) {
		const struct recipe_node *n = &r->nodes[i];
		int m = tma_index(n->metric);

		ok(n->expr && n->expr[0] && n->source && n->source[0], "%s: %s has a formula and "
		   "a source", id, n->metric);
		for (unsigned j = 0; j < i; j++)
			if (strcmp(n->metric, r->nodes[j].metric) == 0)
				ok(0, "%s: node '%s' unique", id, n->metric);
		nslots += strcmp(n->metric, "SLOTS") == 0 && n->level == 0;
		if (n->level >= 1 && m < 0)
			nextra++;
		if (m >= 0)
			ok(n->level == td_metric_level((enum td_metric)m), "%s: %s at level %d", id,
			   n->metric, td_metric_level((enum td_metric)m));
		if (n->level == 2) {
			ok(n->parent && has_l1(r, n->parent), "%s: %s under a level-1 node of the recipe",
			   id, n->metric);
			if (m >= 0 && n->parent)
				check_str(n->parent, td_metric_name(td_metric_parent((enum td_metric)m)),
					  "level-2 parent as msr/recipe/topdown.h");
		} else {
			ok(n->parent == NULL && n->level >= 0 && n->level <= 1, "%s: %s level %d, no "
			   "parent", id, n->metric, n->level);
		}
	}
	ok(nslots == 1, "%s: one SLOTS node at level 0", id);
	ok(nextra <= RECIPE_EXTRA_MAX, "%s: %u nodes outside the twelve (<= %d)", id, nextra,
	   RECIPE_EXTRA_MAX);
}

/* Every formula parses; the events used (SMT on or off, level 2) are the table's. */
static void check_formulas(const struct recipe *r, const char *id)
{
	struct recipe_env on = { .smt_on = true }, off = { .smt_on = false };
	uint32_t m_on = 0, m_off = 0, all = r->nevents >= 32 ? ~0u : (1u << r->nevents) - 1;
	int a = recipe_needed(r, &on, 2, &m_on), b = recipe_needed(r, &off, 2, &m_off);

	ok(a == 0 && b == 0, "%s: every formula parses and names only the recipe's events, "
	   "nodes and variables", id);
	if ((m_on | m_off) != all)
		printf("#   events used 0x%x, table 0x%x\n", m_on | m_off, all);
	ok((m_on | m_off) == all, "%s: every event of the table is used by a formula", id);
}

static void check_model_table(void)
{
	size_t n;
	const struct cpu_model *m = cpu_model_table(&n);

	for (size_t i = 0; i < n; i++) {
		if (m[i].recipe)
			ok(recipe_find(m[i].recipe, m[i].uarch) != NULL, "model %s (%s): recipe %s "
			   "serves it", m[i].name, m[i].uarch, m[i].recipe);
		if (m[i].e_recipe && m[i].e_uarch)
			ok(recipe_find(m[i].e_recipe, m[i].e_uarch) != NULL, "model %s E-core (%s): "
			   "recipe %s serves it", m[i].name, m[i].e_uarch, m[i].e_recipe);
	}
	/* ARL-H's Crestmont LP E-cores and MTL's Crestmont are named in cpu/cpu_kinds.c. */
	ok(recipe_find(CPU_RECIPE_INTEL_ECORE, "Crestmont") != NULL, "Crestmont (MTL, ARL-H LP)");
	ok(recipe_find(CPU_RECIPE_INTEL_ECORE, "Skymont") != NULL, "Skymont (LNL, ARL)");
}

/*
 * Encodings copied here by hand from the JSON files (perf's
 * tools/perf/pmu-events/arch/x86/<model>/pipeline.json and frontend.json,
 * as intel/perfmon's <model>_core.json): EventCode, UMask, CounterMask, and
 * the counters with SMT off: "CounterHTOff" ("0,1,2,3": 0xF; Ice Lake and
 * Tremont, which have none: "Counter").  t/1040 checks every event of
 * every recipe against the vendors' files.
 */
struct enc {
	const char *recipe, *variant, *event;
	unsigned code, umask, cmask, counters_ht_off;
};

static const struct enc known[] = {
	/* haswell/pipeline.json */
	{ "intel-pre-icl-l1", "haswell", "CYCLE_ACTIVITY.STALLS_LDM_PENDING", 0xA3, 0x06, 6, 0xF },
	{ "intel-pre-icl-l1", "haswell", "CYCLE_ACTIVITY.CYCLES_NO_EXECUTE", 0xA3, 0x04, 4, 0xF },
	{ "intel-pre-icl-l1", "haswell", "RESOURCE_STALLS.SB", 0xA2, 0x08, 0, 0xFF },
	{ "intel-pre-icl-l1", "haswell", "UOPS_EXECUTED.CORE_CYCLES_GE_1", 0xB1, 0x02, 1, 0xFF },
	{ "intel-pre-icl-l1", "haswell", "UOPS_EXECUTED.CORE_CYCLES_GE_2", 0xB1, 0x02, 2, 0xFF },
	{ "intel-pre-icl-l1", "haswell", "UOPS_EXECUTED.CORE_CYCLES_GE_3", 0xB1, 0x02, 3, 0xFF },
	{ "intel-pre-icl-l1", "haswell", "CPU_CLK_UNHALTED.THREAD_P", 0x3C, 0x00, 0, 0xFF },
	/* broadwell/pipeline.json */
	{ "intel-pre-icl-l1", "broadwell", "CYCLE_ACTIVITY.STALLS_MEM_ANY", 0xA3, 0x06, 6, 0xFF },
	{ "intel-pre-icl-l1", "broadwell", "CYCLE_ACTIVITY.STALLS_TOTAL", 0xA3, 0x04, 4, 0xFF },
	{ "intel-pre-icl-l1", "broadwell", "UOPS_EXECUTED.CYCLES_GE_1_UOP_EXEC", 0xB1, 0x01, 1, 0xF },
	{ "intel-pre-icl-l1", "broadwell", "UOPS_EXECUTED.CYCLES_GE_3_UOPS_EXEC", 0xB1, 0x01, 3, 0xF },
	/* icelake/pipeline.json */
	{ "intel-icl-events", "sunny-cove", "CYCLE_ACTIVITY.STALLS_MEM_ANY", 0xA3, 0x14, 20, 0xFF },
	{ "intel-icl-events", "sunny-cove", "EXE_ACTIVITY.BOUND_ON_STORES", 0xA6, 0x40, 2, 0xFF },
	{ "intel-icl-events", "sunny-cove", "CYCLE_ACTIVITY.STALLS_TOTAL", 0xA3, 0x04, 4, 0xFF },
	{ "intel-icl-events", "sunny-cove", "EXE_ACTIVITY.1_PORTS_UTIL", 0xA6, 0x02, 0, 0xFF },
	{ "intel-icl-events", "sunny-cove", "EXE_ACTIVITY.2_PORTS_UTIL", 0xA6, 0x04, 0, 0xFF },
	{ "intel-icl-events", "sunny-cove", "UOPS_DECODED.DEC0", 0x56, 0x01, 0, 0xF },
	{ "intel-icl-events", "sunny-cove", "UOPS_DECODED.DEC0:c1", 0x56, 0x01, 1, 0xF },
	/* snowridgex/pipeline.json (Tremont) */
	{ "intel-ecore-l1", "tremont", "TOPDOWN_BAD_SPECULATION.MISPREDICT", 0x73, 0x04, 0, 0xF },
	{ "intel-ecore-l1", "tremont", "TOPDOWN_BAD_SPECULATION.MONUKE", 0x73, 0x02, 0, 0xF },
	{ "intel-ecore-l1", "tremont", "TOPDOWN_BE_BOUND.ALL", 0x74, 0x00, 0, 0xF },
};

static void check_known(void)
{
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		const struct enc *k = &known[i];
		const struct recipe *r = recipe_find_variant(k->recipe, k->variant);
		int e = recipe_event_index(r, k->event);
		const struct recipe_event *x = e >= 0 ? &r->events[e] : NULL;

		ok(x && x->ctr == RECIPE_CTR_GP && x->event == k->code && x->umask == k->umask &&
		   x->cmask == k->cmask && x->counters_ht_off == k->counters_ht_off && !x->inv &&
		   !x->edge && !x->any, "%s:%s %s = 0x%02X/0x%02X c%u, SMT off counters 0x%x (its "
		   "JSON)", k->recipe, k->variant, k->event, k->code, k->umask, k->cmask,
		   k->counters_ht_off);
	}
}

int main(void)
{
	char id[96];

	ok(recipe_count() >= 14, "the tables hold %zu recipes", recipe_count());
	for (size_t i = 0; i < recipe_count(); i++) {
		const struct recipe *r = recipe_at(i);

		snprintf(id, sizeof(id), "%s:%s", r->name, r->variant ? r->variant : "?");
		check_recipe_fields(r, id);
		check_events(r, id);
		check_nodes(r, id);
		check_formulas(r, id);
	}
	ok(recipe_at(recipe_count()) == NULL, "recipe_at past the end is NULL");
	check_model_table();
	check_known();
	return done_testing();
}
