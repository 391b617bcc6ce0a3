/*
 * bench/benchmarks/bracket_sets.c - each recipe's level-1 RDPMC read set
 * (bench/benchmarks/bracket_sets.h).
 */
#include <errno.h>

#include "bench/benchmarks/bracket_sets.h"
#include "msr/regs/intel_regs.h"

#define RECIPE_PASSES_MAX 8

void bracket_counters(const struct recipe *r, uint32_t *gp_mask, uint32_t *fixed_mask)
{
	bool amd = r->vendor == CPU_VENDOR_AMD;

	*gp_mask = amd ? 0x3f : 0xff;
	*fixed_mask = amd ? 0 : 0x7f;
}

int bracket_read_set(const struct recipe *r, uint32_t gp_mask, uint32_t fixed_mask,
		     struct read_set *rs, int *npasses)
{
	struct recipe_env env = { .smt_on = false };
	struct recipe_pass p[RECIPE_PASSES_MAX];
	uint32_t mask = 0;
	bool metrics = false;
	int n, rc = recipe_needed(r, &env, 1, &mask);

	read_set_init(rs, r->name);
	if (rc)
		return rc;
	n = recipe_passes(r, &env, mask, gp_mask, fixed_mask, p, RECIPE_PASSES_MAX);
	if (n <= 0)
		return n < 0 ? n : -ENODATA;
	*npasses = n;
	for (unsigned k = 0; k < p[0].n; k++)
		metrics |= r->events[p[0].event[k]].ctr == RECIPE_CTR_METRICS;
	/* the sources' order: TOPDOWN.SLOTS, PERF_METRICS right after it (the
	 * pair of baretma_read), then the other counters in the pass's order */
	for (unsigned k = 0; !rc && k < p[0].n; k++) {
		const struct recipe_event *e = &r->events[p[0].event[k]];
		unsigned c = (unsigned)p[0].counter[k];

		if (e->ctr == RECIPE_CTR_METRICS)
			continue;
		rc = read_set_add(rs, e->name, READ_COUNTER, 48, e->ctr == RECIPE_CTR_FIXED ?
				  RDPMC_FIXED_BASE | c : c);
		if (!rc && metrics && e->ctr == RECIPE_CTR_FIXED && c == 3) {
			rc = read_set_add(rs, "PERF_METRICS", READ_PERF_METRICS, 0,
					  RDPMC_PERF_METRICS);
			metrics = false;
		}
	}
	if (!rc && metrics)
		rc = read_set_add(rs, "PERF_METRICS", READ_PERF_METRICS, 0, RDPMC_PERF_METRICS);
	return rc;
}
