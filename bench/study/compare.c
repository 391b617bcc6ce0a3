/*
 * bench/study/compare.c - `baretma compare`: alternating blocks of the raw path
 * and of perf_event, and the statistics of bench/study/compare.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/study/compare.h"
#include "cpu/text.h"

/* P(Binomial(n, 1/2) <= j). */
static double binom_cdf(unsigned n, unsigned j)
{
	double p = ldexp(1.0, -(int)n), c = 1, sum = 0;

	for (unsigned i = 0; i <= j && i <= n; i++) {
		sum += c * p;
		c = c * (n - i) / (i + 1);
	}
	return sum;
}

unsigned compare_sign_k(unsigned n)
{
	unsigned k = 0;

	while (k + 1 <= n / 2 && binom_cdf(n, k) <= 0.025)
		k++;
	return n >= COMPARE_MIN_PAIRS ? k : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The sign-test interval of the median of @v (sorted in place). */
static void sign_interval(double *v, unsigned n, double *lo, double *hi)
{
	unsigned k = compare_sign_k(n);

	qsort(v, n, sizeof(*v), cmp_double);
	*lo = k ? v[k - 1] : -INFINITY;
	*hi = k ? v[n - k] : INFINITY;
}

double compare_sign_p(unsigned n, unsigned above, unsigned below)
{
	unsigned most = above > below ? above : below;
	/* P(B >= j) = P(B <= n - j) by the symmetry of B(n, 1/2) */
	double p = most ? 2 * binom_cdf(n, n - most) : 1;

	return p < 1 ? p : 1;
}

struct ranked {
	double p;
	size_t i;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return x->p < y->p ? -1 : x->p > y->p ? 1 : (x->i > y->i) - (x->i < y->i);
}

void compare_holm(const double *p, size_t m, double *adj)
{
	struct ranked *v = malloc((m ? m : 1) * sizeof(*v));
	double run = 0;

	if (!v) { /* no memory for the order: Bonferroni, never below Holm's */
		for (size_t i = 0; i < m; i++)
			adj[i] = p[i] * (double)m < 1 ? p[i] * (double)m : 1;
		return;
	}
	for (size_t i = 0; i < m; i++)
		v[i] = (struct ranked){ p[i], i };
	qsort(v, m, sizeof(*v), cmp_ranked);
	for (size_t r = 0; r < m; r++) {
		double q = (double)(m - r) * v[r].p;

		if (q > run)
			run = q;
		adj[v[r].i] = run < 1 ? run : 1;
	}
	free(v);
}

const char *compare_verdict_name(const struct compare_metric *m)
{
	return m->verdict == COMPARE_AGREE ? "agree" : m->verdict == COMPARE_DISAGREE
						       ? "DISAGREE" : m->verdict == COMPARE_BRACKET
						       ? "not compared" : "n/a";
}

unsigned compare_min_pairs(size_t hypotheses)
{
	unsigned n = COMPARE_MIN_PAIRS;

	while (n < 64 && (double)hypotheses * 2 * ldexp(1.0, -(int)n) > COMPARE_ALPHA)
		n++;
	return n;
}

void compare_metric_stats(const double *raw, const double *perf, unsigned n,
			  double raw_bound, double perf_bound, struct compare_metric *out)
{
	double r[n ? n : 1], p[n ? n : 1], d[n ? n : 1];
	unsigned m = 0;

	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < n; i++)
		if (!isnan(raw[i]) && !isnan(perf[i])) {
			r[m] = raw[i];
			p[m] = perf[i];
			d[m] = raw[i] - perf[i];
			m++;
		}
	out->n = m;
	out->raw_bound = raw_bound;
	out->perf_bound = perf_bound;
	out->allow = raw_bound + perf_bound;
	if (!compare_sign_k(m))
		return; /* COMPARE_NA: too few pairs for a 95 % interval */
	out->raw = bench_median(r, m);
	out->perf = bench_median(p, m);
	out->diff = bench_median(d, m);
	for (unsigned i = 0; i < m; i++) {
		out->above += d[i] > out->allow;
		out->below += d[i] < -out->allow;
	}
	sign_interval(d, m, &out->lo, &out->hi);
	out->p = out->p_holm = compare_sign_p(m, out->above, out->below);
	out->verdict = out->p <= COMPARE_ALPHA ? COMPARE_DISAGREE : COMPARE_AGREE;
}

void compare_verdicts(struct compare_result *res)
{
	size_t cap = res->nkernels * TMA_NMETRICS, m = 0;
	double *p = calloc(cap ? cap : 1, sizeof(*p));
	struct compare_metric **at = calloc(cap ? cap : 1, sizeof(*at));

	res->agree = res->disagree = res->na = res->not_compared = 0;
	for (size_t k = 0; k < res->nkernels; k++)
		for (unsigned i = 0; i < TMA_NMETRICS; i++) {
			struct compare_metric *cm = &res->kernels[k].m[i];

			if (!compare_metric_shown(res, i))
				continue;
			if (res->kernels[k].name && !strcmp(res->kernels[k].name, "empty") &&
			    cm->verdict != COMPARE_NA)
				cm->verdict = COMPARE_BRACKET;
			if (cm->verdict == COMPARE_BRACKET) {
				res->not_compared++;
				continue;
			}
			if (cm->verdict == COMPARE_NA) {
				res->na++;
				continue;
			}
			if (p && at) {
				p[m] = cm->p;
				at[m++] = cm;
			} else { /* no memory: Bonferroni over every metric there may be */
				cm->p_holm = cm->p * (double)cap < 1 ? cm->p * (double)cap : 1;
			}
		}
	if (p && at)
		compare_holm(p, m, p);
	for (size_t i = 0; p && at && i < m; i++)
		at[i]->p_holm = p[i];
	for (size_t k = 0; k < res->nkernels; k++)
		for (unsigned i = 0; i < TMA_NMETRICS; i++) {
			struct compare_metric *cm = &res->kernels[k].m[i];

			if (!compare_metric_shown(res, i) || cm->verdict == COMPARE_NA ||
			    cm->verdict == COMPARE_BRACKET)
				continue;
			cm->verdict = cm->p_holm <= COMPARE_ALPHA ? COMPARE_DISAGREE : COMPARE_AGREE;
			res->agree += cm->verdict == COMPARE_AGREE;
			res->disagree += cm->verdict == COMPARE_DISAGREE;
		}
	free(p);
	free(at);
}

/* ---------------------------------------------------------------- blocks */

/* The per-block numbers kept: [pair][kernel][metric] medians, bounds. */
struct blocks {
	unsigned pairs;
	size_t nk;
	double *raw, *perf;          /* pairs * nk * TMA_NMETRICS, NaN: none */
	double *raw_bound, *perf_bound; /* pairs * nk, points */
	double *raw_read, *perf_read;   /* pairs: empty bracket TSC ticks */
};

#define AT(b, p, k, m) ((((size_t)(p) * (b)->nk) + (k)) * TMA_NMETRICS + (m))

static int blocks_alloc(struct blocks *b, unsigned pairs, size_t nk)
{
	size_t nm = (size_t)pairs * nk * TMA_NMETRICS, nb = (size_t)pairs * nk;

	b->pairs = pairs;
	b->nk = nk;
	b->raw = calloc(nm, sizeof(double));
	b->perf = calloc(nm, sizeof(double));
	b->raw_bound = calloc(nb, sizeof(double));
	b->perf_bound = calloc(nb, sizeof(double));
	b->raw_read = calloc(pairs, sizeof(double));
	b->perf_read = calloc(pairs, sizeof(double));
	return b->raw && b->perf && b->raw_bound && b->perf_bound && b->raw_read &&
	       b->perf_read ? 0 : -ENOMEM;
}

static void blocks_free(struct blocks *b)
{
	free(b->raw);
	free(b->perf);
	free(b->raw_bound);
	free(b->perf_bound);
	free(b->raw_read);
	free(b->perf_read);
}

static struct bench_options block_options(const struct compare_options *o,
					  enum bench_backend_id backend, int cpu, int level)
{
	return (struct bench_options){ .kernels = o->kernels, .cpu = cpu, .backend = backend,
				       .reps = o->reps, .warmup = BENCH_DEFAULT_WARMUP,
				       .level = level, .user_only = o->user_only,
				       .force = o->force, .machine = o->machine,
				       .dev = o->dev, .journal = o->journal };
}

/* Keep what perf left in each register, the first time it is seen. */
bool compare_metric_shown(const struct compare_result *res, unsigned m)
{
	return td_metric_level(m) <= res->level && !(res->absent & (1u << m));
}

static void keep_changes(struct compare_result *res, const struct bench_result *r)
{
	for (int i = 0; i < r->nperf_changed; i++) {
		int k = 0;

		while (k < res->nperf_changed && res->perf_changed[k].msr != r->perf_changed[i].msr)
			k++;
		if (k == res->nperf_changed && k < BENCH_PERF_CHANGED_MAX)
			res->perf_changed[res->nperf_changed++] = r->perf_changed[i];
	}
}

/* Keep one block's medians (percent) and bounds (points). */
static void keep(struct blocks *b, unsigned pair, bool raw, const struct bench_result *r,
		 struct compare_result *res)
{
	double *med = raw ? b->raw : b->perf, *bound = raw ? b->raw_bound : b->perf_bound;

	(raw ? b->raw_read : b->perf_read)[pair] = r->empty_tsc;
	if (raw)
		res->recipe = r->recipe;
	*(raw ? &res->raw_formulas : &res->perf_formulas) = r->formulas;
	for (unsigned m = 0; r->recipe && m < TMA_NMETRICS; m++)
		if (recipe_node_index(r->recipe, td_metric_name(m)) < 0)
			res->absent |= 1u << m;
	for (size_t k = 0; k < b->nk && k < r->nkernels; k++) {
		const struct bench_kernel_result *kr = &r->kernels[k];
		bool any = kr->topdown && kr->tma[0].n;

		if (raw)
			res->kernels[k].raw_invalid += kr->invalid;
		else
			res->kernels[k].perf_invalid += kr->invalid;
		bound[(size_t)pair * b->nk + k] = any ? kr->bound * 100 : NAN;
		for (unsigned m = 0; m < TMA_NMETRICS; m++)
			med[AT(b, pair, k, m)] = any && td_metric_level(m) <= res->level
						 ? kr->tma[m].median * 100 : NAN;
	}
}

/* One block: a whole bench run on one side's source (@raw: the raw path's). */
static int block(const struct compare_options *o, bool raw, struct compare_result *res,
		 struct blocks *b, unsigned pair)
{
	enum bench_backend_id backend = raw ? res->raw_backend : o->perf_backend;
	struct bench_options bo = block_options(o, backend, (int)res->cpu_used, res->level);
	struct bench_result r;
	int rc = bench_run(&bo, &r);

	keep_changes(res, &r);
	if (!rc && r.level != res->level)
		rc = -EPROTO;
	if (rc)
		text_setf(&res->reason, "block %u of %s on cpu %u: %s%s%s",
			 pair + 1, bench_backend_name(backend), res->cpu_used,
			 r.avail.reason ? r.avail.reason : strerror(-rc),
			 r.tamper.detected ? "; " : "", r.tamper.detected ? text_or_empty(r.tamper.message) : "");
	else
		keep(b, pair, raw, &r, res);
	bench_result_free(&r);
	return rc;
}

/* Why perf_event can or cannot measure @cpu, for a message: one probe,
 * outside any guard (only when the raw path cannot measure, so that no
 * journal could hold what its probe writes). */
/* perf's reason after "perf_event: ", which the sentence says once. */
static const char *perf_words(const char *why)
{
	static const char prefix[] = "perf_event: ";

	return strncmp(why, prefix, sizeof(prefix) - 1) ? why : why + sizeof(prefix) - 1;
}

static char *perf_side(const struct compare_options *o, unsigned cpu)
{
	struct bench_options bo = block_options(o, o->perf_backend, (int)cpu, o->level);
	struct bench_session *s = NULL;
	struct bench_result p;
	char *why = NULL; /* whole: perf's reason may quote a profile path */
	int rc;

	bo.dev = NULL;
	bo.journal = NULL;
	rc = bench_open(&bo, &p, &s);
	bench_close(s);
	text_setf(&why, "%s", rc ? perf_words(bench_avail_reason(&p.avail)) : "can measure");
	bench_result_free(&p);
	return why;
}

/* Which raw path, which CPU, its level: the raw side only (reads). */
static int decide_raw(const struct compare_options *o, struct compare_result *res)
{
	struct bench_session *s = NULL;
	struct bench_result r;
	struct bench_options bo = block_options(o, BENCH_BACKEND_AUTO, o->cpu, o->level);
	int rc;
	bool raw_ok;
	char *perf = NULL; /* perf_side's, on the heap */

	bo.dev = NULL;
	bo.journal = NULL;
	rc = bench_open(&bo, &r, &s);
	raw_ok = !rc && bench_backend_raw(r.backend);
	bench_close(s);
	res->cpu = r.cpu;
	res->cpu_used = r.cpu_used;
	res->raw_backend = r.backend;
	res->level = r.level;
	if (!raw_ok && rc != -EINVAL && !(perf = perf_side(o, r.cpu_used)))
		rc = -ENOMEM;
	if (!raw_ok && rc != -ENOMEM)
		text_setf(&res->reason, "cpu %u: both sides are needed; the raw "
			 "path (rdpmc, msr): %s; perf_event: %s", r.cpu_used,
			 r.avail.why != TD_OK ? bench_avail_reason(&r.avail) : "neither rdpmc nor msr can measure",
			 rc == -EINVAL ? "not probed" : perf);
	free(perf);
	bench_result_free(&r);
	return raw_ok ? 0 : rc == -EINVAL || rc == -ENOMEM ? rc : -ENODEV;
}

int compare_decide_perf(const struct compare_options *o, struct compare_result *res)
{
	struct bench_session *s = NULL;
	struct bench_result p;
	struct bench_options bo = block_options(o, o->perf_backend, (int)res->cpu_used, o->level);
	int rc = bench_open(&bo, &p, &s), rc2;

	bench_close(s);
	if (!rc) {
		if (p.level < res->level)
			res->level = p.level;
		if (o->level)
			res->level = o->level;
	} else {
		text_setf(&res->reason, "cpu %u: both sides are needed; the raw "
			 "path (rdpmc, msr): can measure; perf_event: %s", res->cpu_used,
			 perf_words(bench_avail_reason(&p.avail)));
	}
	bench_result_free(&p);
	/* the probe enabled the group: the counters go back as found */
	if (o->journal && (rc2 = journal_restore_regs(o->journal, o->dev)) && !rc) {
		text_setf(&res->reason, "cpu %u: cannot put the counters back "
			 "after perf_event's probe: %s", res->cpu_used, strerror(-rc2));
		return rc2;
	}
	return rc ? rc == -EINVAL ? -EINVAL : -ENODEV : 0;
}

static int kernels_of(const struct compare_options *o, struct compare_result *res)
{
	char buf[512], *save = NULL;
	size_t n = 1;

	if (o->kernels && strlen(o->kernels) >= sizeof(buf))
		return -EINVAL;
	if (o->kernels)
		for (const char *c = o->kernels; *c; c++)
			n += *c == ',';
	else
		bench_kernels(&n);
	res->kernels = calloc(n + 1, sizeof(*res->kernels));
	if (!res->kernels)
		return -ENOMEM;
	res->kernels[res->nkernels++].name = "empty"; /* bench runs it first */
	if (!o->kernels) {
		const struct bench_kernel *t = bench_kernels(&n);

		for (size_t i = 0; i < n; i++)
			if (strcmp(t[i].name, "empty"))
				res->kernels[res->nkernels++].name = t[i].name;
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", o->kernels);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const struct bench_kernel *k = bench_kernel_find(t);

		if (!k)
			return -EINVAL;
		if (strcmp(k->name, "empty"))
			res->kernels[res->nkernels++].name = k->name;
	}
	return 0;
}

static void summarise(struct compare_result *res, struct blocks *b)
{
	double r[b->pairs], p[b->pairs];

	res->raw_read_tsc = bench_median(b->raw_read, b->pairs);
	res->perf_read_tsc = bench_median(b->perf_read, b->pairs);
	for (size_t k = 0; k < b->nk; k++) {
		double rb, pb;
		double rbv[b->pairs], pbv[b->pairs];

		for (unsigned i = 0; i < b->pairs; i++) {
			rbv[i] = b->raw_bound[(size_t)i * b->nk + k];
			pbv[i] = b->perf_bound[(size_t)i * b->nk + k];
		}
		rb = bench_median(rbv, b->pairs);
		pb = bench_median(pbv, b->pairs);
		for (unsigned m = 0; m < TMA_NMETRICS; m++) {
			struct compare_metric *cm = &res->kernels[k].m[m];

			for (unsigned i = 0; i < b->pairs; i++) {
				r[i] = b->raw[AT(b, i, k, m)];
				p[i] = b->perf[AT(b, i, k, m)];
			}
			compare_metric_stats(r, p, b->pairs, rb, pb, cm);
		}
	}
	compare_verdicts(res);
}

/* The cost of perf's other read: the empty bracket alone, once. */
static void other_read(const struct compare_options *o, struct compare_result *res)
{
	struct bench_options bo = block_options(o, res->other_backend, (int)res->cpu_used,
						res->level);
	struct bench_result r;
	int rc;

	bo.kernels = "empty";
	rc = bench_run(&bo, &r);
	keep_changes(res, &r);
	res->other_read_tsc = rc ? NAN : r.empty_tsc;
	if (rc)
		text_setf(&res->other_reason, "%s",
			 r.avail.reason ? r.avail.reason : strerror(-rc));
	bench_result_free(&r);
}

/* Enough pairs for a DISAGREE among the kernels x metrics to be possible
 * (the raw side's level, or --level: perf's may only lower it). */
static int family_pairs(const struct compare_options *o, struct compare_result *res)
{
	int level = o->level ? o->level : res->level;
	size_t nm = 0, h;
	unsigned need;

	for (unsigned m = 0; m < TMA_NMETRICS; m++)
		nm += td_metric_level(m) <= level;
	/* 'empty' is each side's own bracket: shown, not compared */
	h = (res->nkernels - 1) * nm;
	need = compare_min_pairs(h);
	if (o->pairs >= need)
		return 0;
	text_setf(&res->reason, "--pairs %u cannot find a disagreement among "
		 "%zu comparisons (%zu kernel%s x %zu metrics of level %d; 'empty' is not "
		 "compared): even every pair beyond the allowance gives a family-wise p of %.3g, "
		 "above %.2f (use at least %u pairs, or fewer kernels)", o->pairs, h,
		 res->nkernels - 1, res->nkernels == 2 ? "" : "s", nm, level,
		 fmin(1, (double)h * 2 * ldexp(1.0, -(int)o->pairs)), COMPARE_ALPHA, need);
	return -EINVAL;
}

int compare_prepare(const struct compare_options *o, struct compare_result *res)
{
	int rc;

	memset(res, 0, sizeof(*res));
	res->perf_backend = o->perf_backend;
	if (!bench_backend_perf_event(o->perf_backend))
		return -EINVAL;
	res->other_backend = bench_backend_other(o->perf_backend);
	res->pairs = o->pairs;
	res->reps = o->reps;
	if (o->pairs < COMPARE_MIN_PAIRS || !o->reps)
		return -EINVAL;
	if ((rc = kernels_of(o, res)) || (rc = decide_raw(o, res)))
		return rc;
	return family_pairs(o, res);
}

int compare_measure(const struct compare_options *o, struct compare_result *res)
{
	struct blocks b = { 0 };
	int rc;

	if ((rc = blocks_alloc(&b, o->pairs, res->nkernels)))
		goto out;
	/* raw, perf, raw, perf ...: each block hands the counters back */
	for (unsigned i = 0; i < o->pairs && !rc; i++) {
		rc = block(o, true, res, &b, i);
		if (!rc)
			rc = block(o, false, res, &b, i);
	}
	if (!rc) {
		summarise(res, &b);
		other_read(o, res);
	}
out:
	blocks_free(&b);
	return rc;
}

void compare_result_free(struct compare_result *res)
{
	free(res->kernels);
	res->kernels = NULL;
	free(res->reason);
	free(res->other_reason);
	res->reason = res->other_reason = NULL;
}
