/* placeholder until the kernel implementation lands (branch perf-group) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/perf_group.h"

static const char *const td_names[PERF_TD_NODES] = {
	"topdown-retiring", "topdown-bad-spec", "topdown-fe-bound", "topdown-be-bound",
	"topdown-heavy-ops", "topdown-br-mispredict", "topdown-fetch-lat", "topdown-mem-bound",
};

const char *perf_td_event_name(unsigned i)
{
	return i < PERF_TD_NODES ? td_names[i] : NULL;
}

const struct perf_group_ops *perf_group_env(const char **arg)
{
	const char *v = getenv("BARETMA_PERF");

	*arg = NULL;
	if (!v || !*v)
		return &perf_group_kernel;
	if (!strncmp(v, "sim:", 4) && v[4]) {
		*arg = v + 4;
		return &perf_group_sim;
	}
	errno = EINVAL;
	return NULL;
}

double perf_group_fraction(const struct perf_group_values *a, const struct perf_group_values *b,
			   unsigned i)
{
	uint64_t s = b->slots - a->slots;

	return s && i < PERF_TD_NODES ? (double)(b->td[i] - a->td[i]) / (double)s : 0;
}

static int k_open(const char *arg, const struct perf_group_spec *spec, struct perf_group **out,
		  char *why, size_t n)
{
	(void)arg; (void)spec; *out = NULL;
	snprintf(why, n, "not implemented yet");
	return -ENOENT;
}
static void k_close(struct perf_group *g) { (void)g; }

const struct perf_group_ops perf_group_kernel = { .name = "kernel", .open = k_open, .close = k_close };
