/*
 * bench/output/plot_compare.c - a comparison as paired bars (plot.h): per
 * kernel, every metric compared, baretma's raw path against perf_event,
 * each side's median of its block medians with its bound, and the verdict.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/output/plot.h"

int plot_compare_write(const char *path, const struct compare_result *res,
		       const struct plot_run *run, const struct plot_trace *t)
{
	struct plot_pair *pairs = calloc(res->nkernels * TMA_NMETRICS + 1, sizeof(*pairs));
	char title[512], sub[512], a[64], b[64], *brand = plot_brand(&res->cpu);
	unsigned order[TMA_NMETRICS], no = 0;
	size_t n = 0;
	int rc;

	if (!pairs || !brand) {
		free(pairs);
		free(brand);
		return -ENOMEM;
	}
	for (unsigned p = 0; p < TMA_NLEVEL1; p++) {
		order[no++] = p;
		for (unsigned m = TMA_NLEVEL1; m < TMA_NMETRICS; m++)
			if (td_metric_parent(m) == p)
				order[no++] = m;
	}
	/* each level-1 node followed by its children (plot_pairs indents them) */
	for (size_t k = 0; k < res->nkernels; k++)
		for (unsigned i = 0; i < TMA_NMETRICS; i++) {
			unsigned m = order[i];
			const struct compare_metric *cm = &res->kernels[k].m[m];

			if (!compare_metric_shown(res, m))
				continue;
			pairs[n++] = (struct plot_pair){
				.group = res->kernels[k].name, .node = td_metric_name(m),
				.a = cm->n ? cm->raw / 100 : NAN, .b = cm->n ? cm->perf / 100 : NAN,
				.a_bound = cm->raw_bound / 100, .b_bound = cm->perf_bound / 100,
				.verdict = compare_verdict_name(cm),
				.alarm = cm->verdict == COMPARE_DISAGREE };
		}
	/* the brand escaped (plot_brand) is 257 bytes at most: the title fits */
	snprintf(title, sizeof(title), "baretma against perf_event, level %d: %s", res->level,
		 brand);
	snprintf(sub, sizeof(sub), "cpu %u; %u pairs of blocks x %u reps; medians of block "
		 "medians; whiskers: each side's bound; DISAGREE: p_holm <= %.2f; 'empty' (own "
		 "brackets) not compared",
		 res->cpu_used, res->pairs, res->reps, COMPARE_ALPHA);
	snprintf(a, sizeof(a), "baretma (%s)", bench_backend_name(res->raw_backend));
	snprintf(b, sizeof(b), "perf_event (%s)", bench_backend_name(res->perf_backend));
	rc = n ? plot_pairs_write(path, &(struct plot_pairs){ .title = title, .subtitle = sub,
				  .a_name = a, .b_name = b, .n = n, .pairs = pairs, .run = run }, t)
	       : -EDOM;
	free(pairs);
	free(brand);
	return rc;
}
