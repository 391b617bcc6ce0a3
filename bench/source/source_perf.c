/*
 * bench/source/source_perf.c - the perf sources: the kernel's own Top-down group
 * (bench/source/perf_group.h: the `slots` leader and its `topdown-*` members,
 * pinned to the measured CPU, counting the calling thread), read with
 * read(2) inside the bracket.  The kernel programs FC3 and PERF_METRICS,
 * so this source writes no MSR and needs neither root nor the msr device
 * (only what perf_event_paranoid allows).
 *
 * perf: a reading is perf's counts as read(2) gives them, the leader
 * (TOPDOWN.SLOTS) and each topdown-* member, named as perf names them
 * (bench/source/reading.h read_td_events); a pair counts their
 * differences, never re-packed into bytes, and the tma_* fractions are
 * perf's formulas on them (bench/tma.h).  The kernel makes each member's
 * count floor(slots x field / 0xff) of every read interval and resets FC3
 * and PERF_METRICS at every read of the group (linux
 * arch/x86/events/intel/core.c icl_get_metrics_event_value,
 * intel_update_topdown_event): the hardware's 8-bit fields and the floor
 * are in perf's counts, so a pair's counts carry that bound
 * (bench/source/reading.h READ_BOUND_PERF_COUNTS: slots / 255 + 1 per
 * member; man baretma-bench "THE PERF SOURCE").
 * perf-rdpmc: the same group read by RDPMC through its user pages, FC3
 * and PERF_METRICS as the hardware holds them: the rdpmc source's reading.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/source/perf_events.h"
#include "cpu/text.h"
#include "bench/source/perf_group.h"
#include "bench/source/source.h"
#include "cpu/machine.h"

struct perf_src {
	const struct perf_group_ops *ops;
	const char *arg;          /* the simulator's profile, or NULL */
	enum perf_read_how how;   /* read(2), or the user pages and RDPMC */
	struct perf_group *g;
	bool lost;                /* time_running < time_enabled seen: the group was
				   * not on the PMU the whole time */
	struct perf_events *ev;   /* an event recipe's passes (perf_events.h), or NULL */
};

/* The group spec of the source's parameters. */
static struct perf_group_spec spec_of(const struct source_params *p, int level,
				      enum perf_read_how how)
{
	return (struct perf_group_spec){ .cpu = p->cpu, .level = level >= 2 ? 2 : 1,
					 .user_only = p->user_only, .how = how,
					 .cpuid_dump = p->cpuid_dump };
}

/* The spec of @ps's group: the Top-down group, or the recipe's pass. */
static struct perf_group_spec spec_src(const struct perf_src *ps, const struct source_params *p)
{
	struct perf_group_spec spec = spec_of(p, p->level, ps->how);

	if (ps->ev)
		perf_events_spec(ps->ev, &spec);
	return spec;
}

/* Can the group be read through its user pages and RDPMC?  Only an
 * enabled event has an index (perf_event_mmap_page.index 0 otherwise). */
static int try_raw(const struct perf_group_ops *ops, struct perf_group *g, char *why, size_t n)
{
	uint64_t slots, metrics;
	int rc = ops->read_raw ? ops->enable(g) : -EOPNOTSUPP;

	if (!rc)
		rc = ops->read_raw(g, &slots, &metrics);
	if (ops->read_raw)
		ops->disable(g);
	if (rc)
		snprintf(why, n, "the group's user pages give no RDPMC access (%s): "
			 "cap_user_rdpmc is clear, or the rdpmc sysfs value is 0",
			 strerror(-rc));
	return rc;
}

/* Open and close the group once: can it measure, read(2) (perf's entry of
 * @a) and through RDPMC (perf-rdpmc's: the same group, so the same
 * levels)?  Its reason otherwise. */
static int perf_probe(const struct source_env *env, struct bench_avail *a)
{
	struct bench_source_avail *pa = source_avail_set(a, &source_perf);
	struct bench_source_avail *ra = source_avail_set(a, &source_perf_rdpmc);
	const char *arg = NULL;
	const struct perf_group_ops *ops = perf_group_env(&arg);
	struct source_params p = {
		.cpu = env->cpu,
		.cpuid_dump = env->machine && cpu_machine_is_dump(env->machine) ?
			      cpu_machine_name(env->machine) : NULL,
	};
	int level = env->cpuid_level >= 2 ? 2 : 1;
	struct perf_group *g = NULL;
	struct perf_group_spec spec;
	char *why = NULL, rwhy[PERF_WHY_MAX] = ""; /* why: the open's, whole (a profile path) */
	int rc;

	free(pa->why);
	free(ra->why);
	*pa = *ra = (struct bench_source_avail){ 0 };
	if (!ops) {
		pa->err = -EINVAL;
		text_appendf(&pa->why, NULL, "BARETMA_PERF is neither empty nor "
			     "sim:PROFILE");
		return 0;
	}
	if (!arg && cpu_machine_is_dump(env->machine)) {
		pa->err = -ENODEV;
		text_appendf(&pa->why, NULL, "cpu %u is a CPU of the CPUID dump "
			 "'%s': perf_event measures this machine (a dry run: "
			 "BARETMA_PERF=sim:PROFILE)", env->cpu, cpu_machine_name(env->machine));
		return 0;
	}
	if (perf_events_kind(env->ci, cpu_info_kind_of(env->ci, env->cpu))) {
		perf_events_probe(env, ops, arg, pa, ra);
		return 0;
	}
	spec = spec_of(&p, level, PERF_READ_MMAP_RDPMC);
	rc = ops->open(arg, &spec, &g, &why);
	if (rc == -EOPNOTSUPP && level == 2) { /* the kernel may list level 1 only */
		spec = spec_of(&p, level = 1, PERF_READ_MMAP_RDPMC);
		rc = ops->open(arg, &spec, &g, &why);
	}
	if (!rc && !(ra->ok = !try_raw(ops, g, rwhy, sizeof(rwhy))))
		text_appendf(&ra->why, NULL, "%s", rwhy);
	ops->close(g);
	pa->err = rc;
	pa->ok = !rc;
	pa->level = pa->level_max = ra->level = ra->level_max = rc ? 0 : level;
	if (rc)
		text_appendf(&pa->why, NULL, "%s", why ? why : strerror(-rc));
	free(why);
	return 0;
}

static enum source_state perf_usable(const struct bench_avail *a, bool rdpmc_always,
				     char **why)
{
	const struct bench_source_avail *pa = source_avail_of(a, &source_perf);

	(void)rdpmc_always;
	if (pa->ok)
		return SOURCE_READY;
	text_setf(why, "perf_event: %s", pa->why ? pa->why : "not probed");
	return SOURCE_NO;
}

static enum source_state perf_rdpmc_usable(const struct bench_avail *a, bool rdpmc_always,
					   char **why)
{
	enum source_state st = perf_usable(a, rdpmc_always, why);

	if (st == SOURCE_READY && !source_avail_of(a, &source_perf_rdpmc)->ok) {
		text_setf(why, "perf_event: %s",
			  text_or_empty(source_avail_of(a, &source_perf_rdpmc)->why));
		st = SOURCE_NO;
	}
	return st;
}

/* Both reads' level: the group's, which the probe opened (perf's entry). */
static int perf_level(const struct bench_avail *a)
{
	return source_avail_of(a, &source_perf)->level;
}

static int perf_open(struct counter_source *src, const struct source_params *p)
{
	struct perf_src *ps = calloc(1, sizeof(*ps));

	if (!ps)
		return -ENOMEM;
	ps->how = src->ops->rdpmc ? PERF_READ_MMAP_RDPMC : PERF_READ_SYSCALL;
	if (perf_events_kind(p->ci, p->kind)) {
		char why[300];
		int rc = ps->how == PERF_READ_SYSCALL ? perf_events_new(p, &ps->ev, why, sizeof(why))
						      : -EOPNOTSUPP;

		if (rc) {
			free(ps);
			return rc;
		}
		perf_events_read_set(ps->ev, &src->rs);
	} else if (ps->how == PERF_READ_MMAP_RDPMC)
		read_set_perf_metrics(&src->rs);
	else /* the group as read(2) gives it: include/uapi/linux/perf_event.h read_format */
		read_set_perf_counts(&src->rs, p->level >= 2 ? PERF_TD_NODES : TMA_NLEVEL1);
	if (!(ps->ops = perf_group_env(&ps->arg))) {
		free(ps);
		return -EINVAL;
	}
	src->priv = ps;
	return 0;
}

static int perf_program(struct counter_source *src, struct journal *j, char *why, size_t n)
{
	struct perf_src *ps = src->priv;
	struct perf_group_spec spec = spec_src(ps, &src->p);
	char *w = NULL;
	int rc;

	(void)j; /* the kernel owns the registers: nothing to journal */
	rc = ps->ops->open(ps->arg, &spec, &ps->g, &w);
	/* the source layer's @why is SOURCE_WHY_MAX (bench/source/source.h) */
	if (rc)
		snprintf(why, n, "%s", w ? w : strerror(-rc));
	free(w);
	if (!rc)
		rc = ps->ops->enable(ps->g);
	return rc;
}

/* An event recipe's next pass: the group closed, the pass's opened and
 * enabled (the kernel gives its counters back at close). */
static int perf_pass(struct counter_source *src, unsigned pass, char *why, size_t n)
{
	struct perf_src *ps = src->priv;
	int rc;

	if (!ps->ev)
		return pass == 0 ? 0 : -EINVAL;
	if ((rc = perf_events_set_pass(ps->ev, pass)))
		return rc;
	ps->ops->close(ps->g);
	ps->g = NULL;
	perf_events_read_set(ps->ev, &src->rs);
	return perf_program(src, src->journal, why, n);
}

static int perf_reset(struct counter_source *src)
{
	struct perf_src *ps = src->priv;

	return ps->g ? ps->ops->reset(ps->g) : -EBADF;
}

/* perf's counts, in read_set_perf_counts's order (a failed read: all 0, which
 * counts as zero slots). */
static void perf_read(struct counter_source *src, struct reading *r)
{
	struct perf_src *ps = src->priv;
	struct perf_group_values v;
	unsigned n = src->rs.n;

	memset(r->v, 0, n * sizeof(r->v[0]));
	if (ps->g && !ps->ops->read(ps->g, &v)) {
		r->v[0] = v.slots;
		for (unsigned i = 1; i < n; i++)
			r->v[i] = v.td[i - 1];
		if (v.time_running < v.time_enabled)
			ps->lost = true;
	}
	r->tsc = rdtsc_fenced();
}

/* The perf-rdpmc reading: FC3 and IA32_PERF_METRICS as RDPMC gives them
 * through the group's user pages (the kernel resets them at
 * PERF_EVENT_IOC_RESET and never in between: no read(2) is made), i.e.
 * the rdpmc source's reading with perf owning the counters. */
static void perf_rdpmc_read(struct counter_source *src, struct reading *r)
{
	struct perf_src *ps = src->priv;

	if (!ps->g || ps->ops->read_raw(ps->g, &r->v[0], &r->v[1]))
		r->v[0] = r->v[1] = 0;
	r->tsc = rdtsc_fenced();
}

/* The kernel handles overflow (it resets at every read and on the PMI);
 * what can go wrong is the group leaving the PMU: a pinned group that
 * cannot be scheduled stops counting (time_running < time_enabled). */
static int perf_verify(struct counter_source *src, unsigned what, struct source_check *chk)
{
	struct perf_src *ps = src->priv;

	memset(chk, 0, sizeof(*chk));
	if (what & SOURCE_CHECK_TAMPER)
		chk->tampered = ps->lost;
	ps->lost = false;
	return 0;
}

static int perf_close(struct counter_source *src)
{
	struct perf_src *ps = src->priv;

	if (ps) {
		ps->ops->close(ps->g);
		perf_events_free(ps->ev);
		free(ps);
	}
	src->priv = NULL;
	return 0;
}

/* The group is the simulator's ($BARETMA_PERF=sim:, perf_group_env), not
 * the kernel's. */
static bool perf_simulated(const struct counter_source *src)
{
	const struct perf_src *ps = src->priv;

	return ps && ps->ops == &perf_group_sim;
}

const struct counter_source_ops source_perf = {
	.id = BENCH_BACKEND_PERF,
	.name = "perf",
	.topdown = true,
	.writes_msrs = false,
	.perf_event = true,
	.how = "read(2)",
	.fault = TD_PERF_UNAVAILABLE,
	.read_inline = SOURCE_READ_CALL,
	.probe = perf_probe,
	.independent = true,
	.level = perf_level,
	.usable = perf_usable,
	.open = perf_open,
	.program = perf_program,
	.reset = perf_reset,
	.read = perf_read,
	.pass = perf_pass,
	.verify = perf_verify,
	.close = perf_close,
	.simulated = perf_simulated,
};

const struct counter_source_ops source_perf_rdpmc = {
	.id = BENCH_BACKEND_PERF_RDPMC,
	.name = "perf-rdpmc",
	.topdown = true,
	.writes_msrs = false,
	.perf_event = true,
	.rdpmc = true,
	.how = "user pages + RDPMC",
	.fault = TD_PERF_UNAVAILABLE,
	.read_inline = SOURCE_READ_CALL,
	.probe = NULL, /* source_perf's probe tries both reads */
	.independent = true,
	.level = perf_level,
	.usable = perf_rdpmc_usable,
	.open = perf_open,
	.program = perf_program,
	.reset = perf_reset,
	.read = perf_rdpmc_read,
	.verify = perf_verify,
	.close = perf_close,
	.simulated = perf_simulated,
};
