/*
 * bench/session.c - one measuring session (bench/session.h): the machine,
 * the CPU, the pinning, the MSR backend, availability, the counter source
 * and its bracketed pairs.  No kernels here (bench/measure.c), no locks or
 * journal (the caller's).
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/text.h"
#include "bench/session.h"
#include "msr/open/msr_open.h"
#include "msr/sim/msr_sim.h"
#include "msr/regs/rdpmc.h"
#include "msr/recipe/recipe.h"

static void note_add(struct session_info *in, const char *text)
{
	text_appendf(&in->note, "; ", "%s", text); /* -ENOMEM: the note is lost, not cut */
}

static uint64_t tsc_hz;
static pthread_once_t tsc_hz_once = PTHREAD_ONCE_INIT;

/* TSC ticks per second against CLOCK_MONOTONIC over ~20 ms. */
static void tsc_hz_measure(void)
{
	struct timespec t0, t1, nap = { 0, 20 * 1000 * 1000 };
	uint64_t c0, c1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	c0 = rdtsc_fenced();
	nanosleep(&nap, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	c1 = rdtsc_fenced();
	double sec = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	tsc_hz = sec > 0 ? (uint64_t)((double)(c1 - c0) / sec) : 0;
}

/* The TSC's rate, measured once a process: one rate on every CPU (the
 * invariant TSC runs at a constant rate in every P-, C- and T-state: SDM
 * Vol. 3B "Invariant TSC", CPUID.80000007H:EDX[8]; Linux marks a TSC that
 * differs between CPUs unstable and leaves it: arch/x86/kernel/tsc_sync.c),
 * so a process's sessions (the library's threads, bench's) wait for one
 * 20 ms nap, not one each (72 CPUs' stat slept 1.44 s at start-up). */
static uint64_t tsc_hz_estimate(void)
{
	pthread_once(&tsc_hz_once, tsc_hz_measure);
	return tsc_hz;
}

/* A requested CPU without PERF_METRICS on a part that has it elsewhere (a
 * hybrid E-core) is refused when Top-down is wanted (any backend but a
 * timing-only one, tsc),
 * before anything is pinned or touched - unless its kind has an event
 * recipe (cpu_kind.topdown_recipe: the E-core's intel-ecore-l1), which the
 * rdpmc and msr sources measure. */
static int check_requested(const struct session_options *o, struct session_info *in)
{
	const struct cpu_kind *k = NULL;

	if (o->cpu < 0 || bench_backend_timing_only(o->backend) ||
	    cpu_topdown_check_cpu(&in->cpu, (unsigned)o->cpu, &k) != -EOPNOTSUPP ||
	    (k && k->topdown_recipe))
		return 0;
	in->cpu_used = (unsigned)o->cpu;
	return -EOPNOTSUPP;
}

/* Pin to the chosen CPU of this machine.  A CPUID dump's CPU numbers are
 * another machine's (and a live run beside $HWLOC_CPUID_PATH chose in a
 * foreign topology): chosen there, never bound to; the kernels run where
 * the scheduler puts them (a dry run). */
static int pin(struct session *s, struct session_info *in)
{
	if (cpu_machine_can_pin(s->machine)) {
		/* saved first, so that session_close leaves the thread as found;
		 * a binding that cannot be read is not pinned over */
		int rc = cpu_machine_binding_save(s->machine, &s->binding);

		return rc ? rc : cpu_machine_pin(s->machine, in->cpu_used, &in->membind_ok);
	}
	/* -ENOMEM: the note is lost, not cut */
	if (cpu_machine_is_dump(s->machine))
		text_appendf(&in->note, "; ", "not pinned: cpu %u is a CPU of the CPUID dump "
			     "'%s', not of this machine (dry run)", in->cpu_used,
			     cpu_machine_name(s->machine));
	else
		text_appendf(&in->note, "; ", "not pinned: cpu %u was chosen in a topology "
			     "that is not this machine's ($HWLOC_CPUID_PATH)", in->cpu_used);
	return 0;
}

/* The backend $BARETMA_MSR names could not be opened for a session that
 * may use it: said, never passed over for a session without it (a
 * malformed profile is not "no MSR backend", and a TSC session would hide
 * it). */
static int msr_open_failed(struct session_info *in, int rc)
{
	struct bench_avail *a = &in->avail;

	a->why = TD_MSR_OPEN;
	a->err = rc;
	if (*msr_last_error())
		bench_avail_setf(a, "%s", msr_last_error());
	else
		bench_avail_setf(a, "cannot open MSR backend '%s': %s",
			 msr_env_spec(), strerror(-rc));
	return rc;
}

/*
 * Does the core of @cpu run two threads (an event recipe's smt_on)?  On the
 * simulated PMU its profile says (`smt on`: msr/sim/msr_sim.h, the machine the
 * counts come from); else the machine's topology: the core holding @cpu
 * has another PU (hwloc; on the live machine the online CPUs), as perf's
 * smt_on() counts a core's thread siblings (linux tools/perf/util/smt.c).
 */
static bool smt_on(const struct session *s, unsigned cpu)
{
	const struct sim_profile *sp = msr_sim_profile_of(s->dev);
	hwloc_topology_t topo = cpu_machine_topo(s->machine);
	hwloc_obj_t pu, core;

	if (sp)
		return sp->smt;
	if (!topo || !(pu = hwloc_get_pu_obj_by_os_index(topo, cpu)))
		return false;
	core = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, pu);
	return core && hwloc_bitmap_weight(core->cpuset) > 1;
}

/* Where a CPUID dump's SMT state comes from (smt_on above), for the note
 * that says it: the sim's profile is said by its own lines; NULL for the
 * live machine, whose topology is the machine's. */
static const char *smt_how(const struct session *s)
{
	if (msr_sim_profile_of(s->dev) || !s->machine || !cpu_machine_is_dump(s->machine))
		return NULL;
	return cpu_machine_topo(s->machine) ? "by the CPUID dump's topology" :
	       "assumed: the CPUID dump has no topology";
}

/* Open @ops as the session's source (the one chosen before, never
 * programmed, is closed: the choice is made again by session_recheck). */
static int use_source(struct session *s, const struct counter_source_ops *ops)
{
	struct source_params p = {
		.dev = s->dev, .cpu = s->info.cpu_used,
		.kind = cpu_info_kind_of(&s->info.cpu, s->info.cpu_used),
		.user_only = s->opt.user_only, .force = s->opt.force,
		.delta_regions = s->opt.delta_regions,
		.level = s->opt.level ? s->opt.level : source_level(ops, &s->info.avail),
		.ci = &s->info.cpu, .smt_on = smt_on(s, s->info.cpu_used),
		.cpuid_dump = s->machine && cpu_machine_is_dump(s->machine) ?
			      cpu_machine_name(s->machine) : NULL,
	};
	int rc;

	if (s->src.open && s->src.ops == ops)
		return 0;
	session_stop(s);
	s->src = (struct counter_source){ .ops = ops, .read_inline = ops->read_inline, .p = p };
	rc = ops->open(&s->src, &p);
	if ((rc == -ENODEV || rc == -ENOSPC) && p.kind && !p.kind->topdown_level &&
	    p.kind->topdown_recipe) {
		char why[400];
		const struct recipe *r = source_events_recipe(p.kind, why, sizeof(why));

		/* the event no counter takes, by name (source_events_refusal) */
		if (r && source_events_refusal(p.kind, r, p.smt_on, p.level > 0 ? p.level : 1, why,
					       sizeof(why)) && why[0])
			bench_avail_setf(&s->info.avail, "cpu %u: %s", p.cpu, why);
	}
	s->src.open = !rc;
	if (rc && s->src.priv && ops->close) /* what open kept before it failed */
		ops->close(&s->src);
	s->info.recipe = s->src.rs.recipe;
	s->info.passes = s->src.rs.npasses ? s->src.rs.npasses : 1;
	s->info.smt_on = p.smt_on;
	return rc;
}

/* A caller that reads each region once: level 1, whose events fit one pass
 * on every recipe (bench/source/source_events.c), or -EINVAL for a level
 * asked for that needs passes. */
static int one_pass(struct session *s, const struct counter_source_ops *ops)
{
	struct session_info *in = &s->info;
	const struct recipe *r = s->src.rs.recipe;
	int rc;

	if (s->opt.level || in->level <= 1) {
		bench_avail_setf(&in->avail, "level %d of recipe %s:%s "
			 "takes %u passes on cpu %u, and a region is measured once (level 1 takes "
			 "one)", in->level, r ? r->name : "?", r ? r->variant : "?",
			 session_passes(s), in->cpu_used);
		return -EINVAL;
	}
	session_stop(s);
	in->avail.level = in->level = 1;
	rc = use_source(s, ops);
	return rc ? rc : session_passes(s) > 1 ? -EINVAL : 0;
}

/* Choose the source from the request and what is available; the level. */
static int choose(struct session *s)
{
	struct session_info *in = &s->info;
	struct bench_avail *a = &in->avail;
	struct source_choice c;
	int rc;

	in->rdpmc_pending = false;
	if (in->note)
		in->note[s->note_base] = '\0';
	rc = source_choose(s->opt.backend, s->opt.rdpmc_always, a, &c);
	if (rc)
		return rc; /* a->reason says why */
	if (c.note)
		note_add(in, c.note);
	free(c.note);
	in->backend = c.src->id;
	in->rdpmc_pending = c.pending;
	rc = use_source(s, c.src);
	if (rc)
		return rc;
	if (s->src.rs.recipe && recipe_smt_matters(s->src.rs.recipe) && smt_how(s)) {
		char *t = NULL;

		/* the formulas' SMT and the counter constraints (perfmon's Counter or
		 * CounterHTOff) follow it: say where it came from */
		if (text_appendf(&t, "", "SMT %s for recipe %s:%s %s (its counter constraints: "
				 "intel/perfmon's %s)", in->smt_on ? "on" : "off",
				 s->src.rs.recipe->name, s->src.rs.recipe->variant, smt_how(s),
				 in->smt_on ? "Counter" : "CounterHTOff") == 0)
			note_add(in, t);
		free(t);
	}
	in->level = c.src->topdown ? source_level(c.src, a) : 0;
	if (c.src->topdown && s->opt.level) {
		int max = source_max_level(c.src, a);

		if (s->opt.level > max && a->recipe && !c.src->level)
			bench_avail_setf(a, "--level %d requested but the "
				 "recipe %s:%s of cpu %u defines only level %d", s->opt.level,
				 a->recipe->name, a->recipe->variant, in->cpu_used, max);
		else if (s->opt.level > max)
			bench_avail_setf(a, "--level %d requested but cpu %u "
				 "has only level %d in IA32_PERF_METRICS", s->opt.level,
				 in->cpu_used, max);
		if (s->opt.level > max)
			return -EINVAL;
		in->level = s->opt.level;
	}
	if (s->opt.one_pass && session_passes(s) > 1)
		return one_pass(s, c.src);
	return 0;
}

/* What can be measured on the CPU chosen, by which source. */
static int decide(struct session *s)
{
	struct bench_avail *a = &s->info.avail;

	bench_topdown_check_ops(s->machine, &s->info.cpu, s->info.cpu_used, s->dev,
				&bench_rdpmc_live, &s->key, s->opt.backend, a);
	/* The simulated PMU models the machine CPUID describes: on this one,
	 * when CPUID rules Top-down out, the simulator was not what stopped
	 * it - a CPU description it can simulate was missing. */
	if (s->dev && !strcmp(msr_backend_name(s->dev), "sim") &&
	    !cpu_machine_is_dump(s->machine) &&
	    (a->why == TD_NOT_INTEL || a->why == TD_NO_VPMU || a->why == TD_NO_ARCH_PMU ||
	     a->why == TD_NO_FIXED_CTR3 || a->why == TD_NO_PERF_METRICS)) {
		static const char hint[] = "; the simulated PMU (BARETMA_MSR=sim:...) models "
			"this machine's CPUID: give it an Intel or AMD Zen 4/5 CPUID dump with "
			"--cpuid-dump FILE (e.g. examples/dumps/ice-lake-i7.test)";

		/* the reason grows; where memory runs out, a note */
		if (text_appendf(&a->reason, NULL, "%s", hint) &&
		    (!s->info.note || !strstr(s->info.note, hint + 2)))
			note_add(&s->info, hint + 2); /* kept by choose: note_base */
	}
	return 0;
}

/* Identify the machine described, choose the CPU among its CPUs and pin
 * (this machine only), open the MSR backend, decide availability and the
 * source.  hwloc's CPU kinds disagreeing with CPUID's is a warning
 * (info.kinds_warning), never a failure; running out of memory for its text
 * is (-ENOMEM). */
static int prepare(struct session *s)
{
	const struct cpu_machine *m = s->machine;
	struct session_info *in = &s->info;
	int rc, cpu;

	rc = bench_identify(m, NULL, -1, &in->cpu);
	if (!rc)
		rc = check_requested(&s->opt, in);
	if (rc)
		return rc;
	if (cpu_machine_check_kinds(m, &in->cpu, &in->kinds_warning) == -ENOMEM)
		return -ENOMEM;
	cpu = cpu_machine_choose(m, &in->cpu, s->opt.cpu);
	if (cpu < 0)
		return cpu;
	in->cpu_used = (unsigned)cpu;
	rc = pin(s, in);
	if (rc)
		return rc;
	if (s->opt.dev) {
		s->dev = s->opt.dev;
	} else if ((rc = msr_open_on(NULL, cpu_machine_is_dump(m) ? cpu_machine_name(m) : NULL,
				     &s->own_dev))) {
		/* (a dump's machine is the one the simulator models: msr_open_on) */
		s->own_dev = NULL;
		/* $BARETMA_MSR names a malformed template, state file or profile
		 * (msr_last_error says where): refused, never measured around as
		 * if there were no backend; another failure only matters to a
		 * backend that needs the MSRs */
		if (rc == -EINVAL || bench_backend_uses_msr(s->opt.backend))
			return msr_open_failed(in, rc);
	} else {
		s->dev = s->own_dev;
	}
	if (s->dev && (rc = bench_identify(m, s->dev, cpu, &in->cpu)))
		return rc;
	decide(s);
	s->note_base = in->note ? strlen(in->note) : 0;
	in->tsc_hz = s->opt.no_tsc_hz ? 0 : tsc_hz_estimate();
	return choose(s);
}

int session_open(const struct session_options *o, struct session **out)
{
	struct session *s = calloc(1, sizeof(*s));
	int rc;

	*out = s;
	if (!s)
		return -ENOMEM;
	s->opt = *o;
	s->key = -1;
	s->machine = o->machine;
	if (!s->machine) {
		rc = cpu_machine_open(NULL, &s->own_machine, NULL);
		if (rc)
			return rc;
		s->machine = s->own_machine;
	}
	return prepare(s);
}

const struct session_info *session_info(const struct session *s)
{
	return &s->info;
}

int session_recheck(struct session *s)
{
	decide(s);
	return choose(s);
}

bool session_writes_msrs(const struct session *s)
{
	return s && s->src.ops && s->src.ops->writes_msrs;
}

bool session_topdown(const struct session *s)
{
	return s && s->src.ops && s->src.ops->topdown;
}

bool session_simulated(const struct session *s)
{
	return s && s->src.open && s->src.ops->simulated && s->src.ops->simulated(&s->src);
}

struct msr_dev *session_dev(const struct session *s)
{
	return s ? s->dev : NULL;
}

const struct cpu_machine *session_machine(const struct session *s)
{
	return s->machine;
}

int session_program(struct session *s, struct journal *j)
{
	struct bench_avail *a = &s->info.avail;
	char why[SOURCE_WHY_MAX]; /* program's words: registers and numbers */
	int rc;

	if (!s->src.open)
		return -EBADF;
	if (!j && s->src.ops->writes_msrs) {
		bench_avail_setf(a, "cpu %u: the %s source programs %s, and "
			 "may do so only in a guarded run whose journal saves them first (none "
			 "was given)", s->info.cpu_used, s->src.ops->name, s->src.rs.recipe ?
			 "the counters of its event recipe" : "fixed counter 3 and PERF_METRICS");
		return -EINVAL;
	}
	s->src.journal = j;
	why[0] = '\0';
	rc = s->src.ops->program(&s->src, j, why, sizeof(why));
	if (why[0])
		bench_avail_setf(a, "%s", why);
	return rc;
}

unsigned session_passes(const struct session *s)
{
	return s->src.rs.npasses > 1 ? s->src.rs.npasses : 1;
}

int session_set_pass(struct session *s, unsigned pass)
{
	struct bench_avail *a = &s->info.avail;
	char why[SOURCE_WHY_MAX]; /* pass's words: registers and numbers */
	int rc;

	if (!s->src.open)
		return -EBADF;
	if (!s->src.ops->pass)
		return pass == 0 ? 0 : -EINVAL;
	why[0] = '\0';
	rc = s->src.ops->pass(&s->src, pass, why, sizeof(why));
	if (why[0])
		bench_avail_setf(a, "%s", why);
	return rc;
}

int session_stop(struct session *s)
{
	if (!s->src.open)
		return 0;
	s->src.open = false;
	return s->src.ops->close(&s->src);
}

bool session_pinned(const struct session *s)
{
	return s->binding.cpuset != NULL;
}

void session_drop_binding(struct session *s)
{
	hwloc_bitmap_free(s->binding.cpuset);
	hwloc_bitmap_free(s->binding.nodeset);
	memset(&s->binding, 0, sizeof(s->binding));
}

void session_close(struct session *s)
{
	if (!s)
		return;
	session_stop(s);
	if (s->binding.cpuset)
		cpu_machine_binding_restore(s->machine, &s->binding);
	/* the rdpmc=1 key (bench_rdpmc_decide) lives as long as the session */
	if (s->key >= 0)
		bench_rdpmc_live.disable_self(s->key);
	msr_close(s->own_dev);
	cpu_machine_free(s->own_machine);
	free(s->info.note);
	free(s->info.kinds_warning);
	bench_avail_release(&s->info.avail);
	free(s);
}
