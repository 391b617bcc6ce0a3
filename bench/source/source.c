/*
 * bench/source/source.c - the registered counter sources, the choice among
 * them, and what the layers above may ask of a source by its id (its
 * capabilities, fields of its ops: bench/source/source.h).  A new source
 * (perf_event, event-based) is one more entry in sources[], at the place
 * backend auto should prefer it, and one more enum bench_backend_id, at
 * the place users should see it listed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cpu/text.h"

#include "bench/source/source.h"

/* Best first: what backend auto tries, in order. */
static const struct counter_source_ops *const sources[] = {
	&source_rdpmc,
	&source_msr,
	&source_perf_rdpmc,
	&source_perf,
	&source_tsc,
};

#define NSOURCES (sizeof(sources) / sizeof(sources[0]))

_Static_assert(NSOURCES == BENCH_NSOURCES, "one enum bench_backend_id per source, auto aside");

size_t source_count(void)
{
	return NSOURCES;
}

const struct counter_source_ops *source_at(size_t i)
{
	return i < NSOURCES ? sources[i] : NULL;
}

const struct counter_source_ops *source_get(enum bench_backend_id id)
{
	for (size_t i = 0; i < NSOURCES; i++)
		if (sources[i]->id == id)
			return sources[i];
	return NULL;
}

/* The place of @src in sources[] (its entry of struct bench_avail.src). */
static size_t source_index(const struct counter_source_ops *src)
{
	size_t i = 0;

	while (i < NSOURCES - 1 && sources[i] != src)
		i++;
	return i;
}

const struct bench_source_avail *source_avail_of(const struct bench_avail *a,
						 const struct counter_source_ops *src)
{
	return &a->src[source_index(src)];
}

struct bench_source_avail *source_avail_set(struct bench_avail *a,
					    const struct counter_source_ops *src)
{
	return &a->src[source_index(src)];
}

const char *bench_backend_name(enum bench_backend_id id)
{
	const struct counter_source_ops *s = source_get(id);

	return id == BENCH_BACKEND_AUTO ? "auto" : s ? s->name : "?";
}

int bench_backend_parse(const char *s, enum bench_backend_id *id)
{
	if (s && !strcmp(s, "auto")) {
		*id = BENCH_BACKEND_AUTO;
		return 0;
	}
	for (size_t i = 0; s && i < NSOURCES; i++)
		if (!strcmp(s, sources[i]->name)) {
			*id = sources[i]->id;
			return 0;
		}
	return -EINVAL;
}

/* ------------------------------------------- what a source can do, by id */

enum bench_backend_id bench_backend_at(unsigned i)
{
	return i < BENCH_NSOURCES ? (enum bench_backend_id)(BENCH_BACKEND_AUTO + 1 + i)
				  : BENCH_BACKEND_AUTO;
}

int bench_backend_index(enum bench_backend_id id)
{
	return source_get(id) ? (int)id - (int)BENCH_BACKEND_AUTO - 1 : -1;
}

bool bench_backend_timing_only(enum bench_backend_id id)
{
	const struct counter_source_ops *s = source_get(id);

	return s && !s->topdown;
}

bool bench_backend_raw(enum bench_backend_id id)
{
	const struct counter_source_ops *s = source_get(id);

	return s && s->writes_msrs;
}

bool bench_backend_perf_event(enum bench_backend_id id)
{
	const struct counter_source_ops *s = source_get(id);

	return s && s->perf_event;
}

bool bench_backend_rdpmc(enum bench_backend_id id)
{
	const struct counter_source_ops *s = source_get(id);

	return s && s->rdpmc;
}

const char *bench_backend_how(enum bench_backend_id id)
{
	const struct counter_source_ops *s = source_get(id);

	return s ? s->how : NULL;
}

const char *bench_backend_cost(enum bench_backend_id id)
{
	const struct counter_source_ops *s = source_get(id);

	return s ? s->cost : NULL;
}

/* Of one kind: both raw, both perf_event, or both neither. */
static bool same_kind(const struct counter_source_ops *a, const struct counter_source_ops *b)
{
	return a->writes_msrs == b->writes_msrs && a->perf_event == b->perf_event &&
	       a->topdown == b->topdown;
}

enum bench_backend_id bench_backend_other(enum bench_backend_id id)
{
	const struct counter_source_ops *s = source_get(id);

	for (size_t i = 0; s && i < NSOURCES; i++)
		if (sources[i] != s && same_kind(sources[i], s))
			return sources[i]->id;
	return BENCH_BACKEND_AUTO;
}

bool bench_backend_uses_msr(enum bench_backend_id id)
{
	return id == BENCH_BACKEND_AUTO || bench_backend_raw(id);
}

/* ------------------------------------------------------ probe and choice */

bool source_probe_wanted(enum bench_backend_id want, const struct bench_avail *a)
{
	const struct counter_source_ops *w = source_get(want);

	return (w && w->independent) || (want == BENCH_BACKEND_AUTO && a->why != TD_OK);
}

int source_probe_all(const struct source_env *env, struct bench_avail *a, bool independent)
{
	int rc = 0;

	for (size_t i = 0; i < NSOURCES && !rc; i++)
		if (sources[i]->probe && sources[i]->independent == independent)
			rc = sources[i]->probe(env, a);
	return rc;
}

int source_level(const struct counter_source_ops *src, const struct bench_avail *a)
{
	return src->level ? src->level(a) : a->level;
}

int source_max_level(const struct counter_source_ops *src, const struct bench_avail *a)
{
	int l = source_level(src, a);

	if (!src->level && a->recipe)
		return source_events_level(a->recipe);
	if (src->independent && source_avail_of(a, src)->level_max > l) /* perf: its probe says */
		return source_avail_of(a, src)->level_max;
	return l;
}

/* The level the first source that measures without the PMU checks (perf)
 * found it can measure, 0 when none can. */
static int independent_level(const struct bench_avail *a)
{
	for (size_t i = 0; i < NSOURCES; i++)
		if (sources[i]->independent && a->src[i].ok)
			return a->src[i].level;
	return 0;
}

/* Why the Top-down sources better than @chosen were passed over. */
static void passed_over(const struct counter_source_ops *chosen, bool rdpmc_always,
			const struct bench_avail *a, char **note)
{
	char *why = NULL; /* usable's, on the heap: whole */

	for (size_t i = 0; i < NSOURCES && sources[i] != chosen; i++) {
		free(why);
		why = NULL;
		if (!sources[i]->topdown ||
		    sources[i]->usable(a, rdpmc_always, &why) == SOURCE_READY || !why || !*why)
			continue;
		text_appendf(note, "; ", "%s", why); /* out of memory: a shorter note */
	}
	free(why);
}

int source_choose(enum bench_backend_id want, bool rdpmc_always, struct bench_avail *a,
		  struct source_choice *out)
{
	const struct counter_source_ops *src = NULL;
	enum source_state st = SOURCE_NO;
	char *why = NULL; /* usable's, on the heap: whole */

	memset(out, 0, sizeof(*out));
	if (want == BENCH_BACKEND_AUTO) {
		/* on the simulator auto keeps to the msr source: the simulated
		 * RDPMC is asked for by name (--backend rdpmc) */
		for (size_t i = 0; i < NSOURCES && st == SOURCE_NO; i++) {
			free(why);
			why = NULL;
			if (!a->src[i].by_name &&
			    (st = sources[i]->usable(a, rdpmc_always, &why)))
				src = sources[i];
		}
	} else if ((src = source_get(want))) {
		st = src->usable(a, rdpmc_always, &why);
	} else {
		return -EINVAL;
	}
	if (st == SOURCE_NO) {
		/* Top-down is available but this source cannot read it: say why */
		if (src && why && *why) {
			bench_avail_setf(a, "%s", why);
			a->why = src->fault;
		}
		free(why);
		return -ENODEV;
	}
	free(why);
	if (src->topdown)
		passed_over(src, rdpmc_always, a, &out->note);
	else if (a->why == TD_OK || independent_level(a))
		bench_avail_setf(a, "not measured: --backend %s was requested "
			 "(level %d is available)", src->name,
			 a->why == TD_OK ? a->level : independent_level(a));
	out->src = src;
	out->pending = st == SOURCE_PENDING;
	return 0;
}
