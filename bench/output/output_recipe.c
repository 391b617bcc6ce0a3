/*
 * bench/output/output_recipe.c - a recipe computed from counts (baretma
 * decode --recipe) and the list of recipes, as text or JSON.  The numbers
 * come from msr/recipe/recipe.h; this file only writes them.
 */
#include <math.h>
#include <string.h>

#include "bench/output/output.h"

/* One node: level-1 names at the margin, level-2 indented; NAN is n/a. */
static void node_line(FILE *f, int level, const char *metric, double frac)
{
	const char *pad = level == 2 ? "  " : "";
	int w = level == 2 ? 24 : 26;

	if (isnan(frac))
		fprintf(f, "%s%-*s     n/a\n", pad, w, metric);
	else
		fprintf(f, "%s%-*s %7.2f %%\n", pad, w, metric, 100.0 * frac);
}

/* The level-2 nodes under @parent: the twelve's in enum order, then the others. */
static void children(FILE *f, const struct recipe_decode *d, const char *parent)
{
	const struct recipe_result *res = &d->res;

	for (int c = TMA_NLEVEL1; c < TMA_NMETRICS; c++) {
		const char *name = td_metric_name((enum td_metric)c);

		if (strcmp(td_metric_name(td_metric_parent((enum td_metric)c)), parent) == 0 &&
		    recipe_node_index(d->r, name) >= 0)
			node_line(f, 2, name, res->frac[c]);
	}
	for (unsigned i = 0; i < res->nextra; i++)
		if (res->extra[i].parent && strcmp(res->extra[i].parent, parent) == 0)
			node_line(f, 2, res->extra[i].metric, res->extra[i].frac);
}

/* Does a formula of @r read the variable smt_on? */
static bool uses_smt(const struct recipe *r)
{
	for (unsigned k = 0; k < r->nnodes; k++)
		if (r->nodes[k].expr && strstr(r->nodes[k].expr, "smt_on"))
			return true;
	return false;
}

void recipe_print(FILE *f, const struct recipe_decode *d)
{
	const struct recipe *r = d->r;
	const struct recipe_result *res = &d->res;

	fprintf(f, "recipe %s:%s (%s; %u slots per cycle%s), level %d%s\n", r->name, r->variant,
		r->uarchs && r->uarchs[0] ? r->uarchs[0] : "?", r->width,
		!uses_smt(r) ? "" : d->env.smt_on ? "; SMT on: AnyThread counts halved" : "; SMT off",
		res->level, d->level_note ? d->level_note : "");
	fprintf(f, "slots: %.0f\n", res->slots);
	for (int m = 0; m < TMA_NLEVEL1; m++) {
		const char *name = td_metric_name((enum td_metric)m);

		node_line(f, 1, name, res->frac[m]);
		if (res->level >= 2)
			children(f, d, name);
	}
	for (unsigned i = 0; i < res->nextra; i++)
		if (res->extra[i].level == 1) {
			node_line(f, 1, res->extra[i].metric, res->extra[i].frac);
			if (res->level >= 2)
				children(f, d, res->extra[i].metric);
		}
	fprintf(f, "bound: %s\n", r->bound);
	if (r->notes)
		fprintf(f, "left out: %s\n", r->notes);
	if (res->undefined.what)
		fprintf(f, "undefined: %s: %s in '%s' (n/a above, with the nodes computed from it)\n",
			res->undefined.metric ? res->undefined.metric : "?", res->undefined.what,
			res->undefined.expr ? res->undefined.expr : "");
}

static json_t *num_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

json_t *recipe_to_json(const struct recipe_decode *d)
{
	const struct recipe *r = d->r;
	const struct recipe_result *res = &d->res;
	json_t *counts = json_array(), *o, *und = json_null();

	for (unsigned i = 0; counts && i < r->nevents; i++)
		if (d->counts[i] >= 0)
			json_array_append_new(counts, json_pack("{s:s,s:f}", "event", r->events[i].name,
								"count", d->counts[i]));
	if (res->undefined.what)
		und = json_pack("{s:s?,s:s,s:s?}", "metric", res->undefined.metric, "why",
				res->undefined.what, "formula", res->undefined.expr);
	o = json_pack("{s:{s:s,s:s,s:b,s:o*},s:i,s:s,s:f,s:s,s:o*}", "input", "recipe", r->name,
		      "variant", r->variant, "smt", d->env.smt_on, "counts", counts, "level",
		      res->level, "unit", "percent", "slots", res->slots, "bound", r->bound,
		      "undefined", und);
	if (!o)
		return NULL;
	for (int m = 0; m < TMA_NMETRICS; m++) {
		const char *name = td_metric_name((enum td_metric)m);

		if (td_metric_level((enum td_metric)m) <= res->level && recipe_node_index(r, name) >= 0)
			json_object_set_new(o, name, num_or_null(100.0 * res->frac[m]));
	}
	for (unsigned i = 0; i < res->nextra; i++)
		json_object_set_new(o, res->extra[i].metric, num_or_null(100.0 * res->extra[i].frac));
	return o;
}

void recipe_list_print(FILE *f)
{
	for (size_t i = 0; i < recipe_count(); i++) {
		const struct recipe *r = recipe_at(i);
		bool l2 = false;

		for (unsigned k = 0; k < r->nnodes; k++)
			l2 |= r->nodes[k].level == 2;
		fprintf(f, "%s:%s  %s, %u slots per cycle, level %s; uarch", r->name, r->variant,
			r->vendor == CPU_VENDOR_AMD ? "AMD" : "Intel", r->width, l2 ? "1-2" : "1");
		for (const char *const *u = r->uarchs; u && *u; u++)
			fprintf(f, "%s %s", u == r->uarchs ? "" : ",", *u);
		fprintf(f, "\n  events:");
		for (unsigned k = 0; k < r->nevents; k++)
			fprintf(f, " %s", r->events[k].name);
		fprintf(f, "\n  bound: %s\n", r->bound);
		if (r->notes)
			fprintf(f, "  left out: %s\n", r->notes);
	}
}

json_t *recipe_list_to_json(void)
{
	json_t *arr = json_array();

	for (size_t i = 0; arr && i < recipe_count(); i++) {
		const struct recipe *r = recipe_at(i);
		json_t *u = json_array(), *ev = json_array(), *nd = json_array();

		for (const char *const *p = r->uarchs; u && p && *p; p++)
			json_array_append_new(u, json_string(*p));
		for (unsigned k = 0; ev && k < r->nevents; k++)
			json_array_append_new(ev, json_string(r->events[k].name));
		for (unsigned k = 0; nd && k < r->nnodes; k++)
			if (r->nodes[k].level > 0)
				json_array_append_new(nd, json_string(r->nodes[k].metric));
		json_array_append_new(arr, json_pack("{s:s,s:s,s:s,s:i,s:o*,s:o*,s:o*,s:s,s:s?}",
			"recipe", r->name, "variant", r->variant, "vendor",
			r->vendor == CPU_VENDOR_AMD ? "AuthenticAMD" : "GenuineIntel", "width",
			(int)r->width, "uarchs", u, "events", ev, "nodes", nd, "bound", r->bound,
			"notes", r->notes));
	}
	return arr ? json_pack("{s:o}", "recipes", arr) : NULL;
}
