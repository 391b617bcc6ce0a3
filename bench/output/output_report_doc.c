/*
 * bench/output/output_report_doc.c - `baretma report` as the JSON document
 * "baretma-report/1" and as the records of -x SEP / --csv (doc/report.md,
 * "The JSON document" and "Separated values"): everything the text says,
 * every host named (the text ends long lists in a count).  Strings from
 * files are JSON strings (bench_json_text); the separated values' writer
 * escapes them.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/output/output_report.h"

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *int_or_null(int v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

/* Append @v to @a, or to the object @o as @key: jansson takes the
 * reference; NULL (no memory) is counted in *@bad. */
static void add(json_t *a, json_t *v, int *bad)
{
	if (!v || json_array_append_new(a, v))
		(*bad)++;
}

static void set(json_t *o, const char *key, json_t *v, int *bad)
{
	if (!v || json_object_set_new(o, key, v))
		(*bad)++;
}

static json_t *names(const struct report *r, const unsigned *hosts, size_t n, int *bad)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		add(a, bench_json_text(r->hosts[hosts[i]].name), bad);
	return a;
}

static json_t *robust_json(const struct report *r)
{
	return json_pack("{s:f,s:f,s:i,s:s,s:{s:s,s:f,s:s}}", "k", r->k,
			 "mad_scale", REPORT_MAD_SCALE, "min_hosts", REPORT_MIN_HOSTS, "rule",
			 "|x - median| > max(k * mad_scale * MAD, floor)", "floors",
			 "count", "1 % of the median, at least 1 (TSC ticks, slots, cycles)",
			 "pp", 0.01, "percent", "the median of the hosts' bound_pp, at least 0.01");
}

static json_t *files_json(const struct report *r, int *bad)
{
	json_t *o = json_object(), *skipped = json_array(), *left = json_array();

	for (size_t i = 0; skipped && left && i < r->nskips; i++) {
		const struct report_skip *s = &r->skips[i];

		add(s->quiet ? left : skipped, json_pack("{s:o,s:o,s:o}", "path",
			bench_json_text(s->path), "cause", bench_json_text(s->cause), "remedy",
			bench_json_text(s->remedy)), bad);
	}
	if (o) {
		set(o, "read", json_integer(r->files), bad);
		set(o, "used", json_integer(r->used), bad);
		set(o, "skipped", skipped, bad);
		set(o, "left_out", left, bad);
	}
	return o;
}

static json_t *host_json(const struct report_host *h, int *bad)
{
	json_t *files = json_object();

	for (unsigned k = 0; files && k < REPORT_NKINDS; k++)
		if (h->path[k])
			set(files, report_kind_name((enum report_kind)k), bench_json_text(h->path[k]),
			    bad);
	return json_pack("{s:o,s:o,s:o,s:o,s:b}", "name", bench_json_text(h->name), "hostname",
			 bench_json_text(h->hostname), "machine_id", bench_json_text(h->machine_id),
			 "files", files ? files : json_null(), "unchecked", h->unchecked);
}

static json_t *settings_json(const struct report *r, const struct report_group *g, int *bad)
{
	json_t *a = json_array();

	for (unsigned s = 0; a && s < REPORT_NSETTINGS; s++) {
		const struct report_setting_group *sg = &g->set[s];
		json_t *values = json_array();

		for (unsigned v = 0; values && v < sg->nvalues; v++)
			add(values, json_pack("{s:o,s:o}", "value", bench_json_text(sg->v[v].value),
					      "hosts", names(r, sg->v[v].hosts, sg->v[v].n, bad)), bad);
		add(a, json_pack("{s:s,s:b,s:o}", "setting",
				 report_setting_name((enum report_setting)s), "differs",
				 sg->nvalues > 1, "values", values ? values : json_null()), bad);
	}
	return a;
}

static json_t *checks_json(const struct report *r, const struct report_group *g, int *bad)
{
	json_t *a = json_array();

	for (unsigned c = 0; a && c < g->nchecks; c++) {
		const struct report_check_group *cg = &g->checks[c];
		json_t *failing = json_array();

		for (unsigned i = 0; failing && i < cg->nfail; i++)
			add(failing, json_pack("{s:o,s:o}", "host",
				bench_json_text(r->hosts[cg->fail_hosts[i]].name), "message",
				bench_json_text(cg->fail_messages[i])), bad);
		add(a, json_pack("{s:o,s:i,s:i,s:i,s:o}", "check", bench_json_text(r->checks[cg->id]),
				 "pass", cg->count[REPORT_PASS], "fail", cg->count[REPORT_FAIL],
				 "skip", cg->count[REPORT_SKIP], "failing",
				 failing ? failing : json_null()), bad);
	}
	return a;
}

static const char *dir_name(signed char d)
{
	return d > 0 ? "above" : d < 0 ? "below" : NULL;
}

static json_t *figure_json(const struct report *r, const struct report_figure_group *fg,
			   int *bad)
{
	const struct report_figure *f = &r->figs[fg->fig];
	const struct report_robust *rb = &fg->r;
	json_t *values = json_array(), *o;

	for (size_t i = 0; values && i < fg->n; i++)
		add(values, json_pack("{s:o,s:f,s:o,s:s?}", "host",
			bench_json_text(r->hosts[fg->hosts[i]].name), "value", fg->values[i],
			"bound_pp", num_or_null(fg->bounds[i]), "outlier", dir_name(fg->dir[i])), bad);
	o = json_pack("{s:s,s:s,s:o,s:s,s:s,s:I,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:o,s:f,s:o,s:b,s:i}",
		      "section", f->section == REPORT_SEC_CALIBRATION ? "calibration" : "topdown",
		      "source", f->source, "subject", bench_json_text(f->subject), "item", f->item,
		      "unit", f->unit, "n", (json_int_t)fg->n, "median", rb->st.median,
		      "q1", rb->st.q1, "q3", rb->st.q3, "min", rb->st.min, "max", rb->st.max,
		      "mad", rb->st.mad, "scale", rb->scale, "limit", num_or_null(rb->limit),
		      "floor", rb->floor, "cut", num_or_null(rb->cut), "judged", rb->judged,
		      "outliers", fg->noutliers);
	if (o) {
		set(o, "values", values, bad);
		set(o, "missing", names(r, fg->missing, fg->nmissing, bad), bad);
		set(o, "absent", names(r, fg->absent, fg->nabsent, bad), bad);
	} else
		json_decref(values);
	return o;
}

static json_t *group_json(const struct report *r, const struct report_group *g, int *bad)
{
	json_t *hosts = json_array(), *figs = json_array();

	for (unsigned i = 0; hosts && i < g->nhosts; i++)
		add(hosts, host_json(&r->hosts[g->hosts[i]], bad), bad);
	for (unsigned i = 0; figs && i < g->nfigs; i++)
		add(figs, figure_json(r, &g->figs[i], bad), bad);
	return json_pack("{s:{s:o,s:o,s:o,s:o},s:o,s:o,s:o,s:o,s:o,s:o,s:i,s:i,s:i}",
			 "cpu", "vendor", g->cpu.vendor[0] ? json_string(g->cpu.vendor) : json_null(),
			 "family", int_or_null(g->cpu.family), "model", int_or_null(g->cpu.model),
			 "stepping", int_or_null(g->cpu.stepping),
			 "brand", bench_json_text(g->brand), "uarch", bench_json_text(g->uarch),
			 "hosts", hosts ? hosts : json_null(),
			 "settings", settings_json(r, g, bad), "checks", checks_json(r, g, bad),
			 "figures", figs ? figs : json_null(), "fails", g->fails,
			 "outliers", g->outliers, "unchecked", g->unchecked);
}

json_t *report_to_json(const void *result)
{
	const struct report *r = result;
	json_t *groups = json_array(), *doc;
	int bad = 0;

	for (unsigned i = 0; groups && i < r->ngroups; i++)
		add(groups, group_json(r, &r->groups[i], &bad), &bad);
	doc = json_pack("{s:s,s:o,s:o,s:I,s:i,s:i,s:i,s:i,s:o}", "schema", "baretma-report/1",
			"robust_limit", robust_json(r), "files", files_json(r, &bad),
			"hosts", (json_int_t)r->nhosts, "fails", r->fails, "outliers", r->outliers,
			"unchecked", r->unchecked, "exit_status", report_exit_status(r),
			"groups", groups ? groups : json_null());
	if (bad || !groups) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

/* ------------------------------------------------------------ records */

const char *const report_columns[] = { "vendor", "family", "model", "stepping", "host",
	"machine_id", "section", "source", "subject", "item", "unit", "value", "bound_pp",
	"status", "message", "n", "median", "q1", "q3", "min", "max", "mad", "limit", "floor",
	"cut", "outlier", NULL };
#define NCOLS 26

struct rec {
	output_record_fn record;
	void *arg;
	char cpu[3][16];
	const char *vendor;
};

/* One record: the group's CPU and @h first, then the @n cells from
 * "section" on (the others empty). */
static void row(struct rec *x, const struct report_host *h, const char *const *rest, size_t n)
{
	const char *cells[NCOLS + 1] = { x->vendor, x->cpu[0], x->cpu[1], x->cpu[2], h->name,
					 h->machine_id ? h->machine_id : "" };

	for (unsigned i = 6; i < NCOLS; i++)
		cells[i] = i - 6 < n && rest[i - 6] ? rest[i - 6] : "";
	x->record(x->arg, cells);
}
#define ROW(x, h, rest) row((x), (h), (rest), sizeof(rest) / sizeof((rest)[0]))

static void figure_records(struct rec *x, const struct report *r,
			   const struct report_figure_group *fg)
{
	const struct report_figure *f = &r->figs[fg->fig];
	const struct report_robust *rb = &fg->r;
	double st[] = { rb->st.median, rb->st.q1, rb->st.q3, rb->st.min, rb->st.max, rb->st.mad,
			rb->limit, rb->floor, rb->cut };
	char c[9][OUTPUT_NUMBER_MAX], n[24], v[OUTPUT_NUMBER_MAX], b[OUTPUT_NUMBER_MAX];

	snprintf(n, sizeof(n), "%zu", fg->n);
	for (unsigned i = 0; i < 9; i++)
		if (isfinite(st[i]))
			output_number(c[i], sizeof(c[i]), st[i]);
		else
			c[i][0] = '\0';
	for (size_t i = 0; i < fg->n; i++) {
		const char *rest[] = { f->section == REPORT_SEC_CALIBRATION ? "calibration"
			: "topdown", f->source, f->subject, f->item, f->unit,
			output_number(v, sizeof(v), fg->values[i]),
			isfinite(fg->bounds[i]) ? output_number(b, sizeof(b), fg->bounds[i]) : "",
			"", "", n, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8],
			!rb->judged ? "not judged" : fg->dir[i] > 0 ? "above" : fg->dir[i] < 0 ?
			"below" : "within" };

		ROW(x, &r->hosts[fg->hosts[i]], rest);
	}
	for (unsigned i = 0; i < fg->nmissing; i++) { /* its document, but no value */
		const char *rest[] = { f->section == REPORT_SEC_CALIBRATION ? "calibration"
			: "topdown", f->source, f->subject, f->item, f->unit, "", "", "", "", n,
			c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], "missing" };

		ROW(x, &r->hosts[fg->missing[i]], rest);
	}
}

static void group_records(struct rec *x, const struct report *r, const struct report_group *g)
{
	for (unsigned s = 0; s < REPORT_NSETTINGS; s++)
		for (unsigned v = 0; v < g->set[s].nvalues; v++)
			for (unsigned i = 0; i < g->set[s].v[v].n; i++) {
				const char *rest[] = { "setting", s == REPORT_SET_BRAND ?
					"cpuid" : "environment", "",
					report_setting_name((enum report_setting)s), "",
					g->set[s].v[v].value, "", g->set[s].nvalues > 1 ? "differs"
					: "alike" };

				ROW(x, &r->hosts[g->set[s].v[v].hosts[i]], rest);
			}
	for (unsigned i = 0; i < g->nhosts; i++) {
		const struct report_host *h = &r->hosts[g->hosts[i]];

		for (unsigned c = 0; c < h->nchecks; c++) {
			const char *name = r->checks[h->checks[c].id];
			const char *rest[] = { "check", strcmp(name, "compare") ? "validate"
				: "compare", "", name, "", "", "",
				report_status_name(h->checks[c].status), h->checks[c].message };

			ROW(x, h, rest);
		}
	}
	for (unsigned i = 0; i < g->nfigs; i++)
		figure_records(x, r, &g->figs[i]);
}

void report_records(const void *result, output_record_fn record, void *arg)
{
	const struct report *r = result;

	for (unsigned i = 0; i < r->ngroups; i++) {
		const struct report_group *g = &r->groups[i];
		struct rec x = { record, arg, { "", "", "" }, g->cpu.vendor };

		if (g->cpu.family >= 0)
			snprintf(x.cpu[0], sizeof(x.cpu[0]), "%d", g->cpu.family);
		if (g->cpu.model >= 0)
			snprintf(x.cpu[1], sizeof(x.cpu[1]), "%d", g->cpu.model);
		if (g->cpu.stepping >= 0)
			snprintf(x.cpu[2], sizeof(x.cpu[2]), "%d", g->cpu.stepping);
		group_records(&x, r, g);
	}
}
