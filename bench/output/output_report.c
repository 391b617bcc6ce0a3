/*
 * bench/output/output_report.c - `baretma report`'s text (doc/report.md
 * "The text"): a heading with the robust limit, then per CPU group its
 * hosts, the settings that differ (the hosts on each side) and those
 * alike, the checks' counts with each failing host's message, and the
 * figures' median, quartiles, range and cut with the hosts beyond it.
 * Every line fits REPORT_TEXT_COLS columns: long lists wrap, host lists
 * past a few names end in a count (the JSON has them all).  Every string
 * from a file is escaped (cpu/escape.h) before it is measured and written.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/output/output.h"
#include "bench/output/output_report.h"
#include "cpu/escape.h"

#define COLS REPORT_TEXT_COLS
#define HOSTS_SHOWN 8      /* a value's hosts named, then a count */
#define GROUP_HOSTS 16     /* a group's hosts named, then a count */

/* ------------------------------------------------------- wrapped lines */

struct tl {
	FILE *f;
	unsigned col, indent; /* the column now; a continuation line's indent */
	char *word;           /* the last word, not yet written: a piece that follows
			       * without a space (a name after "(", the ")" after a
			       * name) is glued to it, never wrapped apart from it */
	size_t len, cap;
};

static int text_err; /* -ENOMEM when a piece could not be made (written in part) */

/* Columns of @s: its UTF-8 characters (the escaped text holds no control). */
static unsigned width(const char *s)
{
	unsigned n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static void tl_begin(struct tl *t, FILE *f, unsigned first, unsigned indent)
{
	*t = (struct tl){ f, first, indent, NULL, 0, 0 };
	fprintf(f, "%*s", (int)first, "");
}

/* One word @p (its leading spaces, then no space) at the end of the line,
 * or at the next line's indent when it does not fit (its spaces dropped);
 * a word wider than a line is cut at the columns. */
static void tl_emit(struct tl *t, const char *p)
{
	if (t->col + width(p) > COLS && t->col > t->indent) {
		fprintf(t->f, "\n%*s", (int)t->indent, "");
		t->col = t->indent;
		while (*p == ' ')
			p++;
	}
	while (t->col + width(p) > COLS) {
		const char *q = p;

		for (unsigned c = 0; *q && c < COLS - t->col; c++)
			do
				q++;
			while (((unsigned char)*q & 0xc0) == 0x80);
		fprintf(t->f, "%.*s\n%*s", (int)(q - p), p, (int)t->indent, "");
		p = q;
		t->col = t->indent;
	}
	fputs(p, t->f);
	t->col += width(p);
}

static void tl_flush(struct tl *t)
{
	if (t->len)
		tl_emit(t, t->word);
	t->len = 0;
}

/* The word @s (@len bytes): written once the next one shows it is not
 * glued to it - a word that starts with a space is a word of its own. */
static void tl_word(struct tl *t, const char *s, size_t len)
{
	if (len && s[0] == ' ')
		tl_flush(t);
	if (t->len + len + 1 > t->cap) {
		size_t cap = 2 * (t->len + len + 1);
		char *g = realloc(t->word, cap);

		if (!g) { /* written apart: a line may break inside the word */
			tl_flush(t);
			text_err = -ENOMEM;
			fwrite(s, 1, len, t->f);
			t->col += (unsigned)len;
			return;
		}
		t->word = g;
		t->cap = cap;
	}
	memcpy(t->word + t->len, s, len);
	t->len += len;
	t->word[t->len] = '\0';
}

/* @s (escaped already), word by word. */
static void tl_raw(struct tl *t, const char *s)
{
	while (*s) {
		size_t n = strspn(s, " ");

		n += strcspn(s + n, " ");
		tl_word(t, s, n);
		s += n;
	}
}

/* @fmt's text, its strings escaped, as one piece. */
static void tl_put(struct tl *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tl_put(struct tl *t, const char *fmt, ...)
{
	char *raw = NULL, *e;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&raw, fmt, ap);
	va_end(ap);
	if (n < 0 || !(e = esc_strdup(raw))) {
		free(n < 0 ? NULL : raw);
		text_err = -ENOMEM;
		return;
	}
	tl_raw(t, e);
	free(raw);
	free(e);
}

static void tl_end(struct tl *t)
{
	tl_flush(t);
	free(t->word);
	t->word = NULL;
	t->cap = 0;
	fputc('\n', t->f);
	t->col = 0;
}

/* @n hosts' names (@hosts indices), the first @shown, then "+N more";
 * the first after a space unless @glued (after an opening parenthesis). */
static void tl_hosts(struct tl *t, const struct report *r, const unsigned *hosts, unsigned n,
		     unsigned shown, bool glued)
{
	for (unsigned i = 0; i < n && i < shown; i++)
		tl_put(t, "%s%s%s", i || !glued ? " " : "", r->hosts[hosts[i]].name,
		       i + 1 < n && i + 1 < shown ? "," : "");
	if (n > shown)
		tl_put(t, ", +%u more", n - shown);
}

/* ------------------------------------------------------- numbers */

const char *report_number(char *buf, size_t n, double v, const char *unit)
{
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else if (!strcmp(unit, "pp") || !strcmp(unit, "percent"))
		snprintf(buf, n, "%.2f", v);
	else if (fabs(v) >= 1e9)
		snprintf(buf, n, "%.4g", v);
	else
		snprintf(buf, n, v == floor(v) ? "%.0f" : "%.1f", v);
	return buf;
}
#define num report_number

/* ------------------------------------------------------- a group */

const char *report_cpu_label(char *buf, size_t n, const struct report_group *g)
{
	char fam[16] = "?", mod[16] = "?", step[16] = "?";

	if (!g->cpu.vendor[0] && g->cpu.family < 0 && g->cpu.model < 0 && g->cpu.stepping < 0) {
		snprintf(buf, n, "CPU not named by its files");
		return buf;
	}
	if (g->cpu.family >= 0)
		snprintf(fam, sizeof(fam), "%d", g->cpu.family);
	if (g->cpu.model >= 0)
		snprintf(mod, sizeof(mod), "0x%02X", (unsigned)g->cpu.model);
	if (g->cpu.stepping >= 0)
		snprintf(step, sizeof(step), "%d", g->cpu.stepping);
	snprintf(buf, n, "%s family %s model %s stepping %s", g->cpu.vendor[0] ? g->cpu.vendor
		 : "vendor ?", fam, mod, step);
	return buf;
}

static void cpu_line(FILE *f, const struct report_group *g)
{
	struct tl t;
	char cpu[96];

	tl_begin(&t, f, 0, 3);
	tl_put(&t, "== %s%s", report_cpu_label(cpu, sizeof(cpu), g),
	       g->brand || g->uarch ? ":" : "");
	if (g->brand)
		tl_put(&t, " %s", g->brand);
	if (g->uarch)
		tl_put(&t, " (%s)", g->uarch);
	tl_put(&t, ", %u host%s", g->nhosts, g->nhosts == 1 ? "" : "s");
	tl_end(&t);
}

static void hosts_line(FILE *f, const struct report *r, const struct report_group *g)
{
	struct tl t;

	tl_begin(&t, f, 2, 4);
	tl_put(&t, "hosts:");
	tl_hosts(&t, r, g->hosts, g->nhosts, GROUP_HOSTS, false);
	tl_end(&t);
}

static void settings(FILE *f, const struct report *r, const struct report_group *g)
{
	unsigned ndiff = 0, alike = 0;
	struct tl t;

	for (unsigned s = 0; s < REPORT_NSETTINGS; s++)
		ndiff += g->set[s].nvalues > 1;
	fprintf(f, "  settings (recorded by %u of %u host%s): %u differ%s\n", g->nenv, g->nhosts,
		g->nhosts == 1 ? "" : "s", ndiff, ndiff == 1 ? "s" : "");
	for (unsigned s = 0; s < REPORT_NSETTINGS; s++) {
		const struct report_setting_group *sg = &g->set[s];

		if (sg->nvalues < 2)
			continue;
		tl_begin(&t, f, 4, 8);
		tl_put(&t, "%s:", report_setting_name((enum report_setting)s));
		for (unsigned v = 0; v < sg->nvalues; v++) {
			tl_put(&t, "%s %s (", v ? " |" : "", sg->v[v].value ? sg->v[v].value
									 : "unknown");
			tl_hosts(&t, r, sg->v[v].hosts, sg->v[v].n, HOSTS_SHOWN, true);
			tl_put(&t, ")");
		}
		tl_end(&t);
	}
	tl_begin(&t, f, 4, 8);
	tl_put(&t, "alike:");
	for (unsigned s = REPORT_SET_BRAND + 1; s < REPORT_NSETTINGS; s++)
		if (g->set[s].nvalues == 1)
			alike++;
	for (unsigned s = REPORT_SET_BRAND + 1, i = 0; s < REPORT_NSETTINGS; s++)
		if (g->set[s].nvalues == 1)
			tl_put(&t, " %s %s%s", report_setting_name((enum report_setting)s),
			       g->set[s].v[0].value ? g->set[s].v[0].value : "unknown",
			       ++i < alike ? "," : "");
	if (!alike)
		tl_put(&t, " none");
	tl_end(&t);
	if (g->nenv < g->nhosts) {
		unsigned miss[g->nhosts], n = 0;

		for (unsigned i = 0; i < g->nhosts; i++)
			if (!r->hosts[g->hosts[i]].has_env)
				miss[n++] = g->hosts[i];
		tl_begin(&t, f, 4, 8);
		tl_put(&t, "not recorded (no bundle, bench or calibration):");
		tl_hosts(&t, r, miss, n, HOSTS_SHOWN, false);
		tl_end(&t);
	}
}

static void checks(FILE *f, const struct report *r, const struct report_group *g)
{
	unsigned total[3] = { 0, 0, 0 }, hosts = 0, none[g->nhosts], unchecked[g->nhosts], nu = 0;
	struct tl t;

	for (unsigned c = 0; c < g->nchecks; c++)
		for (unsigned s = 0; s < 3; s++)
			total[s] += g->checks[c].count[s];
	for (unsigned i = 0; i < g->nhosts; i++) {
		const struct report_host *h = &r->hosts[g->hosts[i]];

		if (h->nchecks)
			hosts++;
		else
			none[i - hosts] = g->hosts[i];
		if (h->unchecked)
			unchecked[nu++] = g->hosts[i];
	}
	tl_begin(&t, f, 2, 6);
	if (!g->nchecks)
		tl_put(&t, "checks: none (no validate:");
	else if (hosts < g->nhosts)
		tl_put(&t, "checks: %u on %u of %u hosts (no validate:", g->nchecks, hosts,
		       g->nhosts);
	else
		tl_put(&t, "checks: %u on %u host%s", g->nchecks, hosts, hosts == 1 ? "" : "s");
	if (hosts < g->nhosts) {
		tl_hosts(&t, r, none, g->nhosts - hosts, HOSTS_SHOWN, false);
		tl_put(&t, ")");
	}
	if (g->nchecks)
		tl_put(&t, ", %u PASS, %u FAIL, %u SKIP in all", total[REPORT_PASS],
		       total[REPORT_FAIL], total[REPORT_SKIP]);
	tl_end(&t);
	if (nu) { /* a check that could not be made is no pass */
		tl_begin(&t, f, 4, 8);
		tl_put(&t, "not checked (every check SKIP):");
		tl_hosts(&t, r, unchecked, nu, HOSTS_SHOWN, false);
		tl_end(&t);
	}
	if (!g->nchecks)
		return;
	fprintf(f, "    %-40s %6s %6s %6s\n", "check", "PASS", "FAIL", "SKIP");
	for (unsigned c = 0; c < g->nchecks; c++) {
		const struct report_check_group *cg = &g->checks[c];

		esc_fprintf(f, "    %-40.40s %6u %6u %6u\n", r->checks[cg->id], cg->count[REPORT_PASS],
			    cg->count[REPORT_FAIL], cg->count[REPORT_SKIP]);
		for (unsigned i = 0; i < cg->nfail; i++) {
			tl_begin(&t, f, 6, 10);
			tl_put(&t, "FAIL %s:", r->hosts[cg->fail_hosts[i]].name);
			tl_put(&t, " %s", cg->fail_messages[i] ? cg->fail_messages[i] : "");
			tl_end(&t);
		}
	}
}

/* The label of a figure's row: "rdpmc bracket, TSC ticks"; "tma_retiring". */
static void label(char *buf, size_t n, const struct report_figure *f)
{
	static const struct { const char *item, *words; } names[] = {
		{ "bracket_tsc_ticks", "bracket" }, { "bracket_slots", "bracket" },
		{ "noise_floor_pp", "noise floor" }, { "resolution_cycles", "resolution" },
	};
	const char *w = f->item;

	if (f->section == REPORT_SEC_TOPDOWN) {
		snprintf(buf, n, "%s", f->item);
		return;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i].item, f->item))
			w = names[i].words;
	snprintf(buf, n, "%s %s, %s", f->subject, w, f->unit);
}

static void figure_row(FILE *f, const struct report *r, const struct report_figure_group *fg)
{
	const struct report_figure *fig = &r->figs[fg->fig];
	const struct report_robust *rb = &fg->r;
	char l[160], v[6][24];
	struct tl t;

	label(l, sizeof(l), fig);
	num(v[0], sizeof(v[0]), rb->st.median, fig->unit);
	num(v[1], sizeof(v[1]), rb->st.q1, fig->unit);
	num(v[2], sizeof(v[2]), rb->st.q3, fig->unit);
	num(v[3], sizeof(v[3]), rb->st.min, fig->unit);
	num(v[4], sizeof(v[4]), rb->st.max, fig->unit);
	if (rb->judged)
		num(v[5], sizeof(v[5]), rb->cut, fig->unit);
	else
		snprintf(v[5], sizeof(v[5]), "n<%u", REPORT_MIN_HOSTS);
	esc_fprintf(f, "    %-30.30s %9s %9s %9s %9s %9s %9s %3zu\n", l, v[0], v[1], v[2], v[3],
		    v[4], v[5], fg->n);
	for (size_t i = 0; i < fg->n; i++) {
		char val[24], by[24];

		if (!fg->dir[i])
			continue;
		tl_begin(&t, f, 6, 10);
		tl_put(&t, "outlier %s: %s, %s the median by %s", r->hosts[fg->hosts[i]].name,
		       num(val, sizeof(val), fg->values[i], fig->unit),
		       fg->dir[i] > 0 ? "above" : "below",
		       num(by, sizeof(by), fabs(fg->values[i] - rb->st.median), fig->unit));
		tl_end(&t);
	}
	if (fg->nmissing) {
		tl_begin(&t, f, 6, 10);
		tl_put(&t, "no value:");
		tl_hosts(&t, r, fg->missing, fg->nmissing, HOSTS_SHOWN, false);
		tl_end(&t);
	}
	if (fg->nabsent) { /* the group's hosts without the figure's document */
		tl_begin(&t, f, 6, 10);
		tl_put(&t, "no %s:", fig->source);
		tl_hosts(&t, r, fg->absent, fg->nabsent, HOSTS_SHOWN, false);
		tl_end(&t);
	}
}

static void figures(FILE *f, const struct report *r, const struct report_group *g)
{
	const char *kernel = NULL;
	int section = -1;

	for (unsigned i = 0; i < g->nfigs; i++) {
		const struct report_figure *fig = &r->figs[g->figs[i].fig];

		if ((int)fig->section != section) {
			section = (int)fig->section;
			fprintf(f, "  %-32s %9s %9s %9s %9s %9s %9s %3s\n",
				section == REPORT_SEC_CALIBRATION ? "calibration (per backend)"
								  : "Top-down level 1, percent",
				"median", "q1", "q3", "min", "max", "cut", "n");
		}
		if (fig->section == REPORT_SEC_TOPDOWN && (!kernel || strcmp(kernel, fig->subject))) {
			kernel = fig->subject;
			esc_fprintf(f, "   %.60s (%s)\n", kernel, fig->source);
		}
		figure_row(f, r, &g->figs[i]);
	}
}

static void group(FILE *f, const struct report *r, const struct report_group *g)
{
	fputc('\n', f);
	cpu_line(f, g);
	hosts_line(f, r, g);
	settings(f, r, g);
	checks(f, r, g);
	figures(f, r, g);
}

/* ------------------------------------------------------- the whole */

static int report_text(FILE *f, const void *result)
{
	const struct report *r = result;
	struct tl t;

	text_err = 0;
	tl_begin(&t, f, 0, 2);
	tl_put(&t, "baretma report: %zu host%s in %u CPU group%s, %u file%s read, %u used",
	       r->nhosts, r->nhosts == 1 ? "" : "s", r->ngroups, r->ngroups == 1 ? "" : "s",
	       r->files, r->files == 1 ? "" : "s", r->used);
	if (r->nbad)
		tl_put(&t, " (%u skipped: named on stderr)", r->nbad);
	tl_end(&t);
	tl_begin(&t, f, 0, 2);
	tl_put(&t, "robust limit: a host is an outlier when |x - median| > k x 1.4826 x MAD of "
	       "its group, k = %g, and more than the figure's floor (a count: 1 %% of the median, at "
	       "least 1; 0.01 pp; a Top-down share: its hosts' median bound_pp); a group of fewer than "
	       "%u hosts is not judged (doc/report.md)", r->k, REPORT_MIN_HOSTS);
	tl_end(&t);
	for (unsigned i = 0; i < r->ngroups; i++)
		group(f, r, &r->groups[i]);
	fprintf(f, "\n%u failing check%s, %u outlier%s, %u host%s not checked, %u file%s skipped: "
		"exit status %d\n", r->fails, r->fails == 1 ? "" : "s", r->outliers,
		r->outliers == 1 ? "" : "s", r->unchecked, r->unchecked == 1 ? "" : "s", r->nbad,
		r->nbad == 1 ? "" : "s", report_exit_status(r));
	return text_err;
}

const struct output_view output_view_report = {
	.text = report_text, .json = report_to_json,
	.columns = report_columns, .records = report_records,
};
