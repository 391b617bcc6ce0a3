/*
 * bench/source/reading.c - read sets and the pair -> counts step
 * (bench/source/reading.h).  Pure.
 */
#include <errno.h>
#include <string.h>

#include "bench/source/reading.h"
#include "msr/regs/intel_regs.h"

const char *const read_td_events[READ_TD_EVENTS] = {
	"TOPDOWN.SLOTS",
	"topdown-retiring", "topdown-bad-spec", "topdown-fe-bound", "topdown-be-bound",
	"topdown-heavy-ops", "topdown-br-mispredict", "topdown-fetch-lat", "topdown-mem-bound",
};

const char *read_bound_text(enum read_bound b)
{
	return b == READ_BOUND_PERF_METRICS ? "8-bit quantisation bound, percentage points"
		: b == READ_BOUND_PERF_COUNTS ? "perf's counts: the 8-bit fields of each read "
		"and the kernel's floor, percentage points"
		: "0: exact counts, no quantisation added";
}

void read_set_init(struct read_set *rs, const char *what)
{
	memset(rs, 0, sizeof(*rs));
	rs->what = what;
}

/* The value named TOPDOWN.SLOTS, -1 if none (looked for at every pair's
 * end: the sources name it by read_td_events[0], found without comparing
 * the text, as read_set_count_index). */
static int slots_value(const struct read_set *rs)
{
	for (unsigned i = 0; i < rs->n; i++)
		if (rs->val[i].name == read_td_events[0])
			return (int)i;
	for (unsigned i = 0; i < rs->n; i++)
		if (!strcmp(rs->val[i].name, read_td_events[0]))
			return (int)i;
	return -1;
}

/* The PERF_METRICS value, -1 if none. */
static int metrics_value(const struct read_set *rs)
{
	for (unsigned i = 0; i < rs->n; i++)
		if (rs->val[i].kind == READ_PERF_METRICS)
			return (int)i;
	return -1;
}

int read_set_add(struct read_set *rs, const char *name, enum read_kind kind, unsigned width,
		 uint32_t ecx)
{
	unsigned events = kind == READ_PERF_METRICS ? TD_NFIELDS : 1;

	if (!rs || !name || (kind != READ_COUNTER && kind != READ_PERF_METRICS))
		return -EINVAL;
	if (kind == READ_COUNTER && !strcmp(name, read_td_events[0]) && metrics_value(rs) >= 0)
		return -EINVAL; /* PERF_METRICS already took the set's slots */
	if (kind == READ_COUNTER && (width < 1 || width > 64))
		return -EINVAL;
	if (kind == READ_PERF_METRICS && (slots_value(rs) < 0 || metrics_value(rs) >= 0))
		return -EINVAL;
	if (rs->n == READING_MAX || rs->ncounts + events > COUNTS_MAX)
		return -ENOSPC;
	rs->val[rs->n] = (struct read_value){ .name = name, .kind = kind,
					      .width = kind == READ_COUNTER ? width : 0 };
	rs->ecx[rs->n++] = ecx;
	if (kind == READ_COUNTER) {
		rs->count[rs->ncounts++] = name;
		return 0;
	}
	/* its slots value is counted by PERF_METRICS (reading_counts) */
	rs->val[slots_value(rs)].width = 0;
	for (unsigned f = 0; f < TD_NFIELDS; f++)
		rs->count[rs->ncounts++] = read_td_events[1 + f];
	rs->bound = READ_BOUND_PERF_METRICS;
	return 0;
}

int read_set_add_count(struct read_set *rs, const char *name)
{
	if (!rs || !name)
		return -EINVAL;
	if (rs->ncounts == COUNTS_MAX)
		return -ENOSPC;
	rs->count[rs->ncounts++] = name;
	return 0;
}

void read_set_perf_metrics(struct read_set *rs)
{
	read_set_init(rs, "IA32_PERF_METRICS");
	read_set_add(rs, read_td_events[0], READ_COUNTER, 64, RDPMC_ECX_SLOTS);
	read_set_add(rs, "PERF_METRICS", READ_PERF_METRICS, 0, RDPMC_PERF_METRICS);
}

int read_set_perf_counts(struct read_set *rs, unsigned members)
{
	if (!rs || members < 1 || members > TD_NFIELDS)
		return -EINVAL;
	read_set_init(rs, "perf's slots and topdown-* counts");
	for (unsigned i = 0; i <= members; i++)
		read_set_add(rs, read_td_events[i], READ_COUNTER, 64, 0);
	rs->bound = READ_BOUND_PERF_COUNTS;
	return 0;
}

int read_set_count_index(const struct read_set *rs, const char *name)
{
	/* the sources name their events from read_td_events: the pointer
	 * finds them without comparing the text */
	for (unsigned i = 0; i < rs->ncounts; i++)
		if (rs->count[i] == name)
			return (int)i;
	for (unsigned i = 0; name && i < rs->ncounts; i++)
		if (!strcmp(rs->count[i], name))
			return (int)i;
	return -1;
}

/* (b - a) mod 2^width; past half the range, the counter went back. */
static double counter_delta(uint64_t a, uint64_t b, unsigned width, unsigned *flags)
{
	uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;
	uint64_t d = (b - a) & mask;

	if (d <= mask >> 1)
		return (double)d;
	*flags |= TD_FLAG_SLOTS_BACK;
	return -(double)((a - b) & mask);
}

/* The error of each of perf's topdown-* counts of one pair: one read
 * interval of s slots, s / 255 + the floor (reading.h). */
static void perf_counts_err(const struct read_set *rs, const struct reading *a,
			    const struct reading *b, struct counts *out)
{
	int s = slots_value(rs);
	unsigned flags = 0;
	double slots = s < 0 ? 0 : counter_delta(a->v[s], b->v[s], rs->val[s].width, &flags);

	out->err = (slots > 0 ? slots / 255 : 0) + READ_PERF_COUNTS_FLOOR;
}

int reading_counts(const struct read_set *rs, const struct reading *a, const struct reading *b,
		   struct counts *out)
{
	unsigned k = 0;

	if (!rs || !a || !b || !out)
		return -EINVAL;
	out->err = 0;
	out->flags = 0;
	if (rs->bound == READ_BOUND_PERF_COUNTS)
		perf_counts_err(rs, a, b, out);
	for (unsigned i = 0; i < rs->n; i++) {
		const struct read_value *v = &rs->val[i];

		if (v->kind == READ_COUNTER) {
			if (v->width) /* 0: the slots of PERF_METRICS, counted with it */
				out->c[k++] = counter_delta(a->v[i], b->v[i], v->width,
							    &out->flags);
			else
				k++;
			continue;
		}
		int s = slots_value(rs), ks = read_set_count_index(rs, read_td_events[0]);

		if (rs->metrics_clear) {
			/* the counts since a's clear: b's values alone */
			out->c[ks] = (double)b->v[s];
			out->flags |= td_pair_slots(0, 0, b->v[s], b->v[i], &out->c[k], &out->err);
		} else {
			out->c[ks] = (double)b->v[s] - (double)a->v[s];
			out->flags |= td_pair_slots(a->v[s], a->v[i], b->v[s], b->v[i],
						    &out->c[k], &out->err);
		}
		k += TD_NFIELDS;
	}
	/* the counts no value wrote: 0 (a size known at run time, not a whole
	 * struct counts: this runs at every region pair's end) */
	memset(out->c + k, 0, (COUNTS_MAX - k) * sizeof(out->c[0]));
	return 0;
}

void counts_clear(struct counts *c, unsigned n)
{
	memset(c->c, 0, (n < COUNTS_MAX ? n : COUNTS_MAX) * sizeof(c->c[0]));
	c->err = 0;
	c->flags = 0;
}

void counts_copy(struct counts *dst, const struct counts *src, unsigned n)
{
	memcpy(dst->c, src->c, (n < COUNTS_MAX ? n : COUNTS_MAX) * sizeof(dst->c[0]));
	dst->err = src->err;
	dst->flags = src->flags;
}

void counts_add(struct counts *sum, const struct counts *c, unsigned n)
{
	for (unsigned i = 0; i < n && i < COUNTS_MAX; i++)
		sum->c[i] += c->c[i];
	sum->err += c->err;
	sum->flags |= c->flags;
}

void counts_sub(const struct counts *a, const struct counts *b, unsigned n, struct counts *out)
{
	struct counts d = { .err = a->err + b->err, .flags = a->flags };

	for (unsigned i = 0; i < n && i < COUNTS_MAX; i++)
		d.c[i] = a->c[i] - b->c[i];
	*out = d;
}
