/*
 * bench/stat.c - `baretma stat`'s sessions, counts and samples
 * (bench/stat.h): one msr session per CPU on one borrowed backend, the
 * interval ends (read, checks, counts, frozen reset, read), the groups'
 * counts turned into tma_* fractions by each kind's recipe (bench/tma.h).
 * The command, the signals and the timer are bench/stat_loop.c's; a
 * recipe in passes, bench/stat_pass.c's.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bench/source/avail.h"
#include "bench/stat.h"
#include "bench/stat_int.h"
#include "bench/tma.h"
#include "cpu/machine.h"
#include "cpu/text.h"

int stat_default_cpus(const struct cpu_info *ci, unsigned *cpus, int max)
{
	int n = 0;

	for (unsigned k = 0; ci && k < ci->nkinds; k++) {
		const struct cpu_kind *kd = &ci->kinds[k];

		if (kd->topdown_level <= 0 &&
		    !(kd->topdown_recipe && !strcmp(kd->topdown_source, "events")))
			continue;
		for (unsigned i = 0; i < kd->ncpus && n < max; i++)
			cpus[n++] = kd->cpus[i];
	}
	/* ascending, as the guard takes its locks */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && cpus[j - 1] > cpus[j]; j--) {
			unsigned t = cpus[j];

			cpus[j] = cpus[j - 1];
			cpus[j - 1] = t;
		}
	return n;
}

double stat_now(const struct stat_run *r)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - r->t0.tv_sec) + (double)(t.tv_nsec - r->t0.tv_nsec) * 1e-9;
}

/* The group of CPU @c: its kind's (one per kind), or its own (per_cpu). */
static unsigned group_of(struct stat_run *r, struct stat_cpu *c)
{
	for (unsigned g = 0; !r->o.per_cpu && g < r->ngroups; g++)
		if (r->g[g].kind == c->kind)
			return g;
	r->g[r->ngroups] = (struct stat_group){
		.rs = session_read_set(c->s), .kind = c->kind,
		.cpu = r->o.per_cpu ? (int)c->cpu : -1, .level = session_info(c->s)->level,
		.backend = bench_backend_name(session_info(c->s)->backend),
		.npasses = c->npasses,
	};
	stat_pass_note(&r->g[r->ngroups], 0, session_read_set(c->s));
	return r->ngroups++;
}

/* Each group's CPUs, in r->gcpus one group after another: r->cpus is
 * ascending, and so is each group's part of it. */
static void group_cpus(struct stat_run *r)
{
	unsigned k = 0;

	for (unsigned g = 0; g < r->ngroups; g++) {
		r->g[g].cpus = &r->gcpus[k];
		for (int i = 0; i < r->ncpus; i++)
			if (r->c[i].group == g)
				r->gcpus[k++] = r->c[i].cpu;
		r->g[g].ncpus = (unsigned)(&r->gcpus[k] - r->g[g].cpus);
	}
}

/*
 * The calling thread's NUMA memory policy, kept across stat_open: a session
 * binds the thread's memory to its CPU's node (cpu_pin_self:
 * hwloc_set_membind, i.e. set_mempolicy(2)), and a policy is inherited
 * across fork(2) and execve(2) (set_mempolicy(2)): the command counted
 * would otherwise start with its memory bound to the last CPU's node.
 */
#define MEMPOL_WORDS 16 /* 1024 nodes */
struct mempol {
	bool ok;
	int mode;
	unsigned long mask[MEMPOL_WORDS];
};

static void mempol_save(struct mempol *p)
{
	p->ok = syscall(SYS_get_mempolicy, &p->mode, p->mask,
			(unsigned long)(MEMPOL_WORDS * 8 * sizeof(long)), NULL, 0UL) == 0;
}

static void mempol_restore(const struct mempol *p)
{
	if (p->ok)
		syscall(SYS_set_mempolicy, p->mode, p->mask,
			(unsigned long)(MEMPOL_WORDS * 8 * sizeof(long)));
}

/* One session on CPU @c->cpu, checked; @why says why not. */
static int open_cpu(struct stat_run *r, struct stat_cpu *c, char **why)
{
	/* the level asked for in as many passes as it takes (bench/stat_pass.c);
	 * by default the highest that one pass counts */
	struct session_options so = {
		.cpu = (int)c->cpu, .level = r->o.level,
		.backend = r->o.rdpmc ? BENCH_BACKEND_RDPMC : BENCH_BACKEND_MSR,
		.user_only = r->o.user_only, .force = r->o.force, .machine = r->o.machine,
		.one_pass = !r->o.level, .dev = r->o.dev,
		.no_tsc_hz = true, /* the intervals are CLOCK_MONOTONIC's (stat_now) */
	};
	const struct session_info *in;
	int rc = session_open(&so, &c->s);

	if (!c->s)
		return -ENOMEM;
	in = session_info(c->s);
	c->npasses = session_passes(c->s);
	c->pass = 0;
	if (!rc && c->npasses > SOURCE_PASSES_MAX)
		rc = -EINVAL;
	if (rc == -EOPNOTSUPP)
		text_setf(why, "cpu %u: its core kind (%s) has no Top-down recipe", c->cpu,
			 c->kind ? c->kind->uarch : "unknown");
	else if (rc)
		text_setf(why, "cpu %u: %s", c->cpu,
			 in->avail.reason ? in->avail.reason : strerror(-rc));
	else if (!session_topdown(c->s) || in->level < 1) {
		text_setf(why, "cpu %u: no Top-down here: %s", c->cpu,
			 in->avail.reason ? in->avail.reason : "no recipe");
		rc = -EOPNOTSUPP;
	}
	return rc;
}

int stat_open(const struct stat_options *o, struct stat_run **out, char **why)
{
	struct stat_run *r = calloc(1, sizeof(*r));
	struct mempol pol;
	cpu_set_t mask;
	bool have_mask;
	int rc = 0, c0;

	*out = r;
	if (!r)
		return -ENOMEM;
	r->o = *o;
	if ((rc = bench_identify(o->machine, NULL, -1, &r->ci))) {
		text_setf(why, "the CPU could not be identified");
		return rc;
	}
	/* IA32_PERF_CAPABILITIES where the backend reads it: a model whose
	 * PERF_METRICS the table leaves to that register (cpu_info.warning)
	 * has its level then, as bench's CPU has (the CPU bench would choose) */
	if (o->dev && (c0 = cpu_machine_choose(o->machine, &r->ci, -1)) >= 0) {
		struct cpu_info ci;

		if (!bench_identify(o->machine, o->dev, c0, &ci))
			r->ci = ci;
	}
	if (o->cpus && o->ncpus > 0) {
		r->ncpus = o->ncpus > CPU_MAX_CPUS ? CPU_MAX_CPUS : o->ncpus;
		memcpy(r->cpus, o->cpus, (size_t)r->ncpus * sizeof(r->cpus[0]));
	} else {
		r->ncpus = stat_default_cpus(&r->ci, r->cpus, CPU_MAX_CPUS);
	}
	if (r->ncpus <= 0) {
		text_setf(why, "no CPU of this machine has a Top-down recipe (see: baretma info)");
		return -ENODEV;
	}
	if (o->rdpmc && r->ncpus != 1) {
		text_setf(why, "--backend rdpmc reads the counters of the CPU baretma runs on, "
			 "one CPU: give -C with one CPU (or use msr)");
		return -EINVAL;
	}
	r->c = calloc((size_t)r->ncpus, sizeof(*r->c));
	r->g = calloc((size_t)r->ncpus, sizeof(*r->g));
	r->samples = calloc((size_t)r->ncpus, sizeof(*r->samples));
	r->gcpus = calloc((size_t)r->ncpus, sizeof(*r->gcpus));
	if (!r->c || !r->g || !r->samples || !r->gcpus)
		return -ENOMEM;
	/* a session pins the calling thread to its CPU and binds its memory
	 * (live): both put back */
	have_mask = !sched_getaffinity(0, sizeof(mask), &mask);
	mempol_save(&pol);
	for (int i = 0; i < r->ncpus && !rc; i++) {
		struct stat_cpu *c = &r->c[i];

		c->cpu = r->cpus[i];
		c->kind = cpu_info_kind_of(&r->ci, c->cpu);
		if (!c->kind) {
			text_setf(why, "cpu %u: not a CPU of the machine described (see: baretma info)", c->cpu);
			rc = -ENXIO;
			break;
		}
		if (!(rc = open_cpu(r, c, why)))
			c->group = group_of(r, c);
	}
	if (have_mask && !o->rdpmc) /* RDPMC reads the CPU it runs on: stay */
		sched_setaffinity(0, sizeof(mask), &mask);
	mempol_restore(&pol);
	if (!rc)
		group_cpus(r);
	/* an interval: one read per pass of every CPU (their passes' lcm) */
	r->nsub = 1;
	for (int i = 0; !rc && i < r->ncpus; i++) {
		unsigned a = r->nsub, b = r->c[i].npasses ? r->c[i].npasses : 1;

		while (b) {
			unsigned t = a % b;

			a = b;
			b = t;
		}
		r->nsub = r->nsub / a * (r->c[i].npasses ? r->c[i].npasses : 1);
	}
	return rc;
}

int stat_cpus(const struct stat_run *r, const unsigned **cpus)
{
	*cpus = r->cpus;
	return r->ncpus;
}

const struct cpu_info *stat_info(const struct stat_run *r)
{
	return &r->ci;
}

int stat_program(struct stat_run *r, struct journal *j, char **why)
{
	for (int i = 0; i < r->ncpus; i++) {
		int rc = session_program(r->c[i].s, j);

		if (rc) {
			text_setf(why, "cpu %u: %s", r->c[i].cpu,
				 session_info(r->c[i].s)->avail.reason
					 ? session_info(r->c[i].s)->avail.reason : strerror(-rc));
			return rc;
		}
	}
	return 0;
}

int stat_begin_all(struct stat_run *r, char **why)
{
	for (int i = 0; i < r->ncpus; i++) {
		int rc = session_restart(r->c[i].s, &r->c[i].a);

		if (rc) {
			text_setf(why, "cpu %u: cannot reset its counters: %s", r->c[i].cpu,
				 strerror(-rc));
			return rc;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &r->t0);
	r->t_last = r->t_prev = 0;
	r->sub = 0;
	return 0;
}

/* The counters of @c changed under us: who and what, in @why. */
static int tampered(const struct stat_cpu *c, const struct source_check *chk, char **why)
{
	if (chk->tamper_err)
		text_setf(why, "cpu %u: the counters' controls could not be read back: %s",
			 c->cpu, strerror(-chk->tamper_err));
	else if (chk->tamper_why)
		text_setf(why, "cpu %u: the counters were changed by someone else: %s",
			 c->cpu, chk->tamper_why);
	else
		text_setf(why, "cpu %u: the counters were changed by someone else "
			 "(IA32_FIXED_CTR_CTRL 0x%llx -> 0x%llx, IA32_PERF_GLOBAL_CTRL 0x%llx -> "
			 "0x%llx)", c->cpu, (unsigned long long)chk->fcc_from,
			 (unsigned long long)chk->fcc_to, (unsigned long long)chk->gc_from,
			 (unsigned long long)chk->gc_to);
	return -EBUSY;
}

/* One CPU's read, frozen (session_end_frozen); its counts into @c (zero
 * when it overflowed: PERF_METRICS is invalid then, linux commit
 * 59a854e2f3b9; *@ok false), of its pass *@pass, whose read set goes to @g;
 * then its next pass programmed (bench/stat_pass.c) and reset, the next
 * interval's first reading the reset's zeros (session_restart: the msr
 * source reads each counter once an interval, at its end). */
static int end_cpu(struct stat_cpu *c, struct stat_group *g, struct counts *cnt, bool *ok,
		   unsigned *pass, char **why)
{
	struct source_check chk;
	struct reading b;
	int rc = 0;

	if ((rc = session_end_frozen(c->s, &b, &chk))) {
		text_setf(why, "cpu %u: cannot stop its counters to read them: %s", c->cpu,
			 strerror(-rc));
		return rc;
	}
	if (chk.tampered)
		return tampered(c, &chk, why);
	*ok = !chk.overflow;
	*pass = c->pass;
	reading_counts(session_read_set(c->s), &c->a, &b, cnt);
	stat_pass_note(g, c->pass, session_read_set(c->s));
	if (c->npasses > 1) {
		c->pass = (c->pass + 1) % c->npasses;
		rc = session_set_pass(c->s, c->pass);
		if (rc)
			text_setf(why, "cpu %u: cannot program pass %u of its recipe: %s", c->cpu,
				 c->pass + 1, session_info(c->s)->avail.reason ?
				 session_info(c->s)->avail.reason : strerror(-rc));
	}
	if (!rc && (rc = session_restart(c->s, &c->a)))
		text_setf(why, "cpu %u: cannot reset its counters: %s", c->cpu, strerror(-rc));
	return rc;
}

/* The sample of group @g from counts @c over @length seconds ending at @t. */
static void make_sample(const struct stat_run *r, const struct stat_group *g,
			const struct counts *c, unsigned counted, double t, double length,
			struct stat_sample *s)
{
	const struct recipe *rc = tma_recipe(g->rs);
	struct td_result td;
	struct tma_extra x;

	*s = (struct stat_sample){ .time = t, .length = length, .cpu = g->cpu,
		.ncpus = counted, .cpus = g->cpus, .ngroup_cpus = g->ncpus,
		.kind = g->kind->kind, .uarch = g->kind->uarch,
		.recipe = rc ? rc->name : "?",
		/* PERF_METRICS's counts have one recipe whatever the core (tma_recipe
		 * takes its level-2 variant): no variant to name */
		.variant = rc && g->rs->recipe ? rc->variant : NULL,
		.backend = g->backend, .level = g->level, .level_asked = g->level, .passes = g->npasses ? g->npasses : 1,
		.bound_text = rc ? rc->bound : NULL,
		.left_out = rc ? rc->notes : NULL };
	/* in passes, a pass not counted in the sample leaves level 2 undefined
	 * (bench/stat_pass.c): its level 1 then, from the first pass */
	if (counts_to_tma_extra(g->rs, c, g->level, &td, &x) &&
	    (g->level < 2 || counts_to_tma_extra(g->rs, c, s->level = 1, &td, &x)))
		return;
	s->slots = td.slots;
	s->flags = td.flags;
	s->bound = td.bound;
	s->valid = counted && !(td.flags & TD_FLAGS_INVALID);
	for (int m = 0; m < TMA_NLEVEL1; m++) {
		if (isnan(td.frac[m]))
			continue;
		s->node[s->nnodes++] = (struct stat_node){ .metric = td_metric_name(m),
			.level = 1, .frac = td.frac[m], .slots = td.frac[m] * td.slots };
		for (int k = TMA_NLEVEL1; s->level >= 2 && k < TMA_NMETRICS; k++)
			if ((int)td_metric_parent(k) == m && !isnan(td.frac[k]))
				s->node[s->nnodes++] = (struct stat_node){
					.metric = td_metric_name(k), .parent = td_metric_name(m),
					.level = 2, .frac = td.frac[k], .slots = td.frac[k] * td.slots };
	}
	for (unsigned i = 0; i < x.n && s->nnodes < STAT_NODES_MAX; i++)
		if (x.x[i].level <= s->level)
			s->node[s->nnodes++] = (struct stat_node){ .metric = x.x[i].metric,
				.parent = x.x[i].parent, .level = x.x[i].level,
				.frac = x.x[i].frac, .slots = x.x[i].frac * td.slots };
	(void)r;
}

int stat_read_all(struct stat_run *r, bool samples, char **why)
{
	if (r->sub == 0) {
		for (unsigned g = 0; g < r->ngroups; g++) {
			memset(r->g[g].ivp, 0, sizeof(r->g[g].ivp));
			memset(r->g[g].counted_p, 0, sizeof(r->g[g].counted_p));
		}
		for (int i = 0; i < r->ncpus; i++)
			r->c[i].counted = 0;
	}
	for (int i = 0; i < r->ncpus; i++) {
		struct stat_cpu *c = &r->c[i];
		struct stat_group *g = &r->g[c->group];
		struct counts cnt;
		bool ok = false;
		unsigned p = 0;
		int rc = end_cpu(c, g, &cnt, &ok, &p, why);

		if (rc)
			return rc;
		if (!ok)
			continue;
		counts_add(&g->ivp[p], &cnt, g->rsp[p].ncounts);
		/* a CPU once per pass: beside a kind in passes an interval has
		 * several reads, and a one-pass CPU reads its pass at each */
		if (!(c->counted & (1u << p)))
			g->counted_p[p]++;
		c->counted |= 1u << p;
	}
	r->t_last = stat_now(r);
	/* an interval ends after a read of every pass (r->nsub), or now */
	if (++r->sub < r->nsub && !r->finish)
		return 0;
	r->sub = 0;
	r->finish = false;
	for (unsigned g = 0; g < r->ngroups; g++) {
		struct stat_group *gr = &r->g[g];

		for (unsigned p = 0; p < gr->npasses && p < SOURCE_PASSES_MAX; p++)
			counts_add(&gr->totp[p], &gr->ivp[p], gr->rsp[p].ncounts);
		stat_pass_combine(gr, gr->ivp, gr->counted_p, &gr->iv, &gr->counted);
		stat_pass_combine(gr, gr->totp, NULL, &gr->total, NULL);
		if (gr->counted > gr->total_counted)
			gr->total_counted = gr->counted;
		if (samples)
			make_sample(r, gr, &gr->iv, gr->counted, r->t_last, r->t_last - r->t_prev,
				    &r->samples[g]);
	}
	r->t_prev = r->t_last;
	return 1;
}

unsigned stat_total(const struct stat_run *r, struct stat_sample *s, unsigned max)
{
	unsigned k = 0;

	for (unsigned g = 0; g < r->ngroups && k < max; g++)
		make_sample(r, &r->g[g], &r->g[g].total, r->g[g].total_counted, r->t_last,
			    r->t_last, &s[k++]);
	return k;
}

void stat_close(struct stat_run *r)
{
	if (!r)
		return;
	for (int i = 0; r->c && i < r->ncpus; i++)
		session_close(r->c[i].s);
	free(r->c);
	free(r->g);
	free(r->samples);
	free(r->gcpus);
	free(r);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double ns_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) * 1e9 + (double)(b->tv_nsec - a->tv_nsec);
}

int stat_cost_ns(struct stat_run *r, unsigned rounds, double *ns_per_cpu)
{
	double *v = calloc(rounds ? rounds : 1, sizeof(*v));
	char *why = NULL; /* not said: the cost is a number */
	int rc = v ? stat_begin_all(r, &why) : -ENOMEM;

	for (unsigned i = 0; !rc && i < rounds; i++) {
		struct timespec a, b;

		clock_gettime(CLOCK_MONOTONIC, &a);
		rc = stat_read_all(r, true, &why);
		rc = rc > 0 ? 0 : rc; /* an interval ended: no error */
		clock_gettime(CLOCK_MONOTONIC, &b);
		v[i] = ns_between(&a, &b) / r->ncpus;
	}
	if (!rc && rounds) {
		qsort(v, rounds, sizeof(*v), cmp_double);
		*ns_per_cpu = v[rounds / 2];
	}
	free(why);
	free(v);
	return rc;
}
