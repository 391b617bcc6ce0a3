/*
 * bench/measure_pass.c - the harness over an event recipe measured in
 * passes (bench/measure_int.h bench_measure_passes): each pass programs
 * part of the recipe's events (bench/source/source_events.c: the base,
 * the events of the "SLOTS" node, in every pass), and every kernel runs
 * its repetitions once per pass.
 *
 * Combining.  Repetition i of a kernel is repetition i of each pass,
 * taken as one: for pass p its counts net of that pass's own empty
 * bracket (the median of the empty kernel's repetitions in the same
 * pass), then scaled to the first pass's base,
 *     count_e = net_e,p x S_0 / S_p,   S_p the "SLOTS" node of pass p's
 *                                      net counts (width x cycles),
 * so that every event counts as if over pass 0's slots, and the recipe's
 * formulas run on those (bench/tma.h).  A count that is a share of the
 * slots (the E-core's TOPDOWN_*, AMD's dispatch slots) keeps its share;
 * what differs between the passes' intervals (another mix of the kernel's
 * work in one pass than in the other) is not seen: the passes' bound,
 * said in the output.  Level 1 comes from pass 0 alone (its events are
 * placed first: recipe_passes), so only level 2 mixes intervals.  The
 * repetition is invalid when any pass's is (tampered, overflow, a pass's
 * base not above 0); its TSC ticks are pass 0's.  The empty kernel is
 * reported from pass 0's raw counts and the later passes' scaled alike.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/measure_int.h"
#include "bench/tma.h"

int bench_pass_union(const struct read_set *rs, unsigned np, struct read_set *all)
{
	read_set_init(all, rs[0].what);
	for (unsigned p = 0; p < np; p++)
		for (unsigned k = 0; k < rs[p].ncounts; k++)
			if (read_set_count_index(all, rs[p].count[k]) < 0) {
				int rc = read_set_add_count(all, rs[p].count[k]);

				if (rc)
					return rc;
			}
	all->recipe = rs[0].recipe;
	all->env = rs[0].env;
	all->npasses = 1;
	all->bound = rs[0].bound;
	return 0;
}

void bench_pass_combine(const struct read_set *rs, unsigned np, const struct read_set *all,
			struct rep_sample *const *v, const struct bracket_cost *e, bool raw,
			unsigned i, struct rep_sample *out)
{
	double base0 = 0;

	memset(out, 0, sizeof(*out));
	out->tsc = v[0][i].tsc;
	out->slots = v[0][i].slots;
	for (unsigned p = 0; p < np; p++) {
		const struct rep_sample *s = &v[p][i];
		struct counts net;
		double base = 0;

		out->tampered |= s->tampered;
		out->overflow |= s->overflow;
		out->flags |= s->flags;
		counts_sub(&s->c, raw ? &(struct counts){ 0 } : &e[p].c, rs[p].ncounts, &net);
		out->c.err += net.err;
		if (tma_slots(&rs[p], &net, &base) || !(base > 0)) {
			out->flags |= TD_FLAG_ZERO_SLOTS;
			continue;
		}
		if (p == 0)
			base0 = base;
		for (unsigned k = 0; k < rs[p].ncounts; k++) {
			int j = read_set_count_index(all, rs[p].count[k]);

			/* the base of a later pass is the first pass's already */
			if (j >= 0 && (p == 0 || read_set_count_index(&rs[0], rs[p].count[k]) < 0))
				out->c.c[j] = net.c[k] * base0 / base;
		}
	}
}

/* Every kernel in the pass the session counts now, into @v (kernel-major). */
static int run_pass(struct bench_session *s, struct bench_kernel_ctx *c, struct rep_sample *v)
{
	unsigned reps = s->opt->reps;
	int rc = 0;

	/* a new read set: the regions start anew (only their last pair is kept) */
	memset(s->regions.r, 0, sizeof(s->regions.r));
	s->regions.n = s->regions.depth = 0;
	s->regions.pending = NULL;
	s->regions.quick.rs = NULL; /* its test of a pair made anew for this set */
	for (size_t k = 0; k < s->nsel && !rc; k++) {
		const struct bench_kernel *kn = s->sel[k];

		c->priv = NULL;
		rc = kn->setup ? kn->setup(c) : 0;
		if (rc)
			break;
		rc = bench_run_kernel(s, kn, c, &v[k * reps], reps);
		if (kn->teardown)
			kn->teardown(c);
	}
	return rc;
}

/* The kernels' statistics from the passes' samples @v[p]. */
static int summarise(struct bench_session *s, const struct read_set *rs, unsigned np,
		     struct rep_sample **v, const struct bracket_cost *bc)
{
	unsigned reps = s->opt->reps;
	struct bench_result *res = s->res;
	struct rep_sample *comb = calloc(reps, sizeof(*comb));
	struct rep_sample *pv[SOURCE_PASSES_MAX];
	struct read_set all;
	int rc = 0;

	if (!comb)
		return -ENOMEM;
	if ((rc = bench_pass_union(rs, np, &all))) {
		free(comb);
		return rc;
	}
	for (size_t k = 0; k < s->nsel && !rc; k++) {
		struct bench_kernel_result *kr = &res->kernels[k];
		bool is_empty = !strcmp(s->sel[k]->name, "empty");
		/* the counts are net already: only pass 0's TSC cost is left */
		struct bracket_cost tsc_only = { .tsc = bc[0].tsc };

		for (unsigned p = 0; p < np; p++)
			pv[p] = &v[p][k * reps];
		for (unsigned i = 0; i < reps; i++)
			bench_pass_combine(rs, np, &all, pv, bc, is_empty, i, &comb[i]);
		kr->kernel = s->sel[k];
		kr->topdown = true;
		if (is_empty) { /* the combined bracket's statistics; per count, each pass's */
			unsigned nb = res->nbracket_counts;
			struct bracket_cost own;

			bench_bracket_cost(&all, comb, reps, res, &own);
			res->nbracket_counts = nb;
		}
		rc = bench_summarise(&all, res->level, comb, reps, is_empty ? NULL : &tsc_only, kr);
		res->nkernels = k + 1;
		if (s->opt->progress)
			s->opt->progress(s->opt->progress_arg, s->sel[k]->name, k + 1, s->nsel);
	}
	free(comb);
	return rc;
}

int bench_measure_passes(struct bench_session *s, struct bench_kernel_ctx *c, unsigned np)
{
	unsigned reps = s->opt->reps;
	struct rep_sample *v[SOURCE_PASSES_MAX] = { 0 };
	struct read_set rs[SOURCE_PASSES_MAX] = { 0 };
	struct bracket_cost bc[SOURCE_PASSES_MAX];
	int rc = 0;

	if (np > SOURCE_PASSES_MAX || s->nsel == 0)
		return -EINVAL;
	for (unsigned p = 0; p < np && !rc; p++) {
		if (!(v[p] = calloc(s->nsel * reps, sizeof(*v[p])))) {
			rc = -ENOMEM;
			break;
		}
		if (p && (rc = session_set_pass(s->ses, p)))
			break;
		rs[p] = *session_read_set(s->ses);
		rc = run_pass(s, c, v[p]);
		if (rc)
			break;
		/* the empty kernel (always first) is this pass's bracket; a
		 * calibration's where it has the count (bench_subtracted_cost) */
		struct bracket_cost own;
		bench_bracket_cost(&rs[p], v[p], reps, s->res, &own);
		if (p == 0)
			s->res->empty_tsc = own.tsc;
		bench_subtracted_cost(&rs[p], s->res, &own, &bc[p]);
	}
	if (!rc)
		rc = summarise(s, rs, np, v, bc);
	for (unsigned p = 0; p < np; p++)
		free(v[p]);
	return rc;
}
