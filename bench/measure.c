/*
 * bench/measure.c - the harness: the built-in kernels run on a session
 * (bench/session.h: the CPU, the counter source, its bracketed pairs and
 * checks), with warm-up, repetitions, the bookkeeping of the checks
 * between repetitions, and the statistics.  It touches no MSR and no
 * source itself.
 *
 * One kernel's repetitions, the tamper and overflow checks between them:
 * bench/measure_run.c.  Here: the kernels chosen, the session opened and
 * its calibration found, each kernel measured (in passes for a recipe that
 * needs them: bench/measure_pass.c) and the checks' messages.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/text.h"
#include "bench/bench.h"
#include "bench/calibration.h"
#include "bench/region.h"
#include "bench/measure_int.h"
#include "bench/tma.h"
#include "bench/session.h"
#include "msr/regs/intel_regs.h"

/* ------------------------------------------------------------- the run */

/* Resolve --kernel LIST to table entries, or take @custom (calibrate's
 * loops); the empty bracket always runs first. */
static int select_kernels(const char *list, const struct bench_kernel *const *custom,
			  size_t ncustom, const struct bench_kernel **sel, size_t *n)
{
	size_t nk, cnt = 0;
	const struct bench_kernel *all = bench_kernels(&nk);
	char buf[512], *save = NULL;

	sel[cnt++] = bench_kernel_find("empty");
	if (!sel[0])
		return -EINVAL;
	if (custom) {
		if (ncustom >= 63)
			return -EINVAL;
		for (size_t i = 0; i < ncustom; i++)
			sel[cnt++] = custom[i];
		*n = cnt;
		return 0;
	}
	if (!list) {
		for (size_t i = 0; i < nk; i++)
			if (&all[i] != sel[0])
				sel[cnt++] = &all[i];
		*n = cnt;
		return 0;
	}
	if (strlen(list) >= sizeof(buf) || !*list)
		return -EINVAL;
	strcpy(buf, list);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const struct bench_kernel *k = bench_kernel_find(t);
		bool dup = false;

		if (!k)
			return -EINVAL;
		for (size_t i = 0; i < cnt; i++)
			dup |= sel[i] == k;
		if (!dup)
			sel[cnt++] = k;
	}
	*n = cnt;
	return 0;
}

/* Measure one kernel into @kr (setup, samples, teardown). */
static int measure_one(struct bench_session *s, const struct bench_kernel *k,
		       struct bench_kernel_ctx *c, struct bracket_cost *bc,
		       struct bench_kernel_result *kr)
{
	unsigned reps = s->opt->reps;
	struct rep_sample *v = calloc(reps, sizeof(*v));
	bool is_empty = !strcmp(k->name, "empty");
	int rc = -ENOMEM;

	if (!v)
		return rc;
	kr->kernel = k;
	kr->topdown = session_topdown(s->ses);
	c->priv = NULL;
	rc = k->setup ? k->setup(c) : 0;
	if (rc)
		goto out;
	rc = bench_run_kernel(s, k, c, v, reps);
	if (k->teardown)
		k->teardown(c);
	if (rc)
		goto out;
	if (is_empty) {
		struct bracket_cost own;

		bench_bracket_cost(s->regions.rs, v, reps, s->res, &own);
		s->res->empty_tsc = own.tsc;
		bench_subtracted_cost(s->regions.rs, s->res, &own, bc);
	}
	rc = bench_summarise(s->regions.rs, s->res->level, v, reps, is_empty ? NULL : bc, kr);
out:
	free(v);
	return rc;
}

/* res mirrors what the session found and chose. */
static void take_info(struct bench_session *s)
{
	const struct session_info *in;
	struct bench_result *res = s->res;

	if (!s->ses)
		return;
	in = session_info(s->ses);
	res->cpu = in->cpu;
	res->cpu_used = in->cpu_used;
	res->membind_ok = in->membind_ok;
	res->backend = in->backend;
	bench_avail_copy(&res->avail, &in->avail); /* its own reason: freed by bench_result_free */
	res->level = in->level;
	res->tsc_hz = in->tsc_hz;
	res->rdpmc_pending = in->rdpmc_pending;
	res->reads = session_read_set(s->ses)->what;
	res->bound_text = read_bound_text(session_read_set(s->ses)->bound);
	res->recipe = in->recipe;
	res->formulas = in->level ? tma_recipe(session_read_set(s->ses)) : NULL;
	res->passes = in->passes ? in->passes : 1;
	res->smt_on = in->smt_on;
	free(res->note);
	res->note = in->note ? strdup(in->note) : NULL;
	free(res->kinds_warning);
	res->kinds_warning = in->kinds_warning ? strdup(in->kinds_warning) : NULL;
}

/* The state directory's calibration for this run (bench/study/calibrate.h):
 * used when it matches, else res->calib says why not. */
static void find_calibration(struct bench_session *s)
{
	struct bench_result *res = s->res;
	struct cpu_env env;

	cpu_machine_env_read(session_machine(s->ses), (int)res->cpu_used, &env);
	calib_lookup(&res->cpu, &env, res->cpu_used, res->backend, res->level,
		     s->opt->user_only, time(NULL), &res->calib);
	calib_check_recipe(res);
}

/* The pipeline width of the measured CPU's kind (slots per cycle), 0 unknown. */
static unsigned width_of(const struct bench_result *res)
{
	const struct cpu_kind *k = cpu_info_kind_of(&res->cpu, res->cpu_used);

	return k ? k->pipeline_width : 0;
}

int bench_open(const struct bench_options *opt, struct bench_result *res,
	       struct bench_session **out)
{
	struct bench_session *s = calloc(1, sizeof(*s));
	struct session_options so = {
		.cpu = opt->cpu, .backend = opt->backend, .level = opt->level,
		.user_only = opt->user_only, .force = opt->force,
		.delta_regions = opt->delta_regions,
		.rdpmc_always = opt->rdpmc_always, .machine = opt->machine, .dev = opt->dev,
	};
	int rc;

	memset(res, 0, sizeof(*res));
	*out = s;
	if (!s)
		return -ENOMEM;
	*s = (struct bench_session){ .opt = opt, .res = res };
	if (opt->reps == 0 || opt->reps > BENCH_MAX_REPS || opt->warmup > BENCH_MAX_REPS)
		return -ERANGE;
	rc = select_kernels(opt->kernels, opt->kernel_list, opt->nkernel_list, s->sel, &s->nsel);
	if (rc)
		return rc;
	rc = session_open(&so, &s->ses);
	s->regions.rs = s->ses ? session_read_set(s->ses) : NULL;
	take_info(s);
	if (!rc && opt->calibration == BENCH_CALIB_AUTO)
		find_calibration(s);
	return rc;
}

bool bench_session_programs(const struct bench_session *s)
{
	return s && session_writes_msrs(s->ses);
}

struct msr_dev *bench_session_dev(const struct bench_session *s)
{
	return s ? session_dev(s->ses) : NULL;
}

int bench_recheck(struct bench_session *s)
{
	int rc = session_recheck(s->ses);

	take_info(s);
	return rc;
}

/* The tamper message from the first change seen and the samples lost. */
static void tamper_message(struct bench_session *s)
{
	const struct bench_tamper_seen *t = &s->tamper;
	struct bench_result *res = s->res;
	char from[24], to[48];
	const char *reg = "IA32_FIXED_CTR_CTRL";
	uint64_t a = t->fcc_from, b = t->fcc_to;
	int w;

	for (size_t i = 0; i < res->nkernels; i++)
		res->tamper.samples += res->kernels[i].tampered;
	res->tamper.detected = t->seen;
	if (!t->seen)
		return;
	if (t->why[0]) { /* the source said it (an event recipe's counters) */
		text_setf(&res->tamper.message, "cpu %u: %s during "
			 "kernel %s (perf started on this CPU? the NMI watchdog? another tool?): %u "
			 "samples marked invalid", res->cpu_used, t->why, t->kernel,
			 res->tamper.samples);
		return;
	}
	if (t->err) {
		text_setf(&res->tamper.message, "cpu %u: cannot read "
			 "IA32_FIXED_CTR_CTRL/IA32_PERF_GLOBAL_CTRL to check them during kernel "
			 "%s (%s): %u samples marked invalid", res->cpu_used, t->kernel,
			 strerror(-t->err), res->tamper.samples);
		return;
	}
	if (((a ^ b) & FIXED_CTR3_FIELD_MASK) == 0) {
		reg = "IA32_PERF_GLOBAL_CTRL";
		a = t->gc_from;
		b = t->gc_to;
	}
	/* The new value as wide as the old: "0x3333 to 0x0333" shows the field. */
	w = snprintf(from, sizeof(from), "%" PRIx64, a);
	snprintf(to, sizeof(to), "%0*" PRIx64, w, b);
	text_setf(&res->tamper.message, "cpu %u: %s changed from "
		 "0x%s to 0x%s during kernel %s (perf started on this CPU? the NMI watchdog? "
		 "another tool?): %u samples marked invalid", res->cpu_used, reg, from, to,
		 t->kernel, res->tamper.samples);
}

/* The overflow summary: repetitions lost, or why the check failed. */
static void overflow_message(struct bench_session *s)
{
	struct bench_result *res = s->res;
	unsigned n = 0;

	for (size_t i = 0; i < res->nkernels; i++)
		n += res->kernels[i].overflow;
	res->overflow.samples = n;
	if (!n)
		return;
	if (!s->ovf_err && res->recipe)
		text_setf(&res->overflow.message, "cpu %u: a counter "
			 "of recipe %s:%s overflowed (its bit of the global status) after %u samples: "
			 "marked invalid; the bits were cleared and the counters reset before the "
			 "next repetition", res->cpu_used, res->recipe->name, res->recipe->variant, n);
	else if (s->ovf_err)
		text_setf(&res->overflow.message, "cpu %u: cannot "
			 "read IA32_PERF_GLOBAL_STATUS (0x%x) to check for overflow (%s): %u "
			 "samples marked invalid", res->cpu_used, IA32_PERF_GLOBAL_STATUS,
			 strerror(-s->ovf_err), n);
	else
		text_setf(&res->overflow.message, "cpu %u: fixed "
			 "counter 3 or PERF_METRICS overflowed (IA32_PERF_GLOBAL_STATUS bit 35/48) "
			 "after %u samples: marked invalid; the bits were cleared and both counters "
			 "reset before the next repetition", res->cpu_used, n);
}

int bench_measure(struct bench_session *s, struct journal *j)
{
	struct bench_result *res = s->res;
	struct bench_kernel_ctx c = { 0 };
	struct bracket_cost bc = { 0 };
	bool started = false;
	int rc;

	res->kernels = calloc(s->nsel, sizeof(*res->kernels));
	if (!res->kernels)
		return -ENOMEM;
	rc = session_program(s->ses, j);
	take_info(s); /* the reason of -EBUSY */
	if (rc)
		goto out;
	started = true;
	c.cpu = res->cpu_used;
	c.llc_bytes = cpu_llc_bytes(cpu_machine_topo(session_machine(s->ses)), res->cpu_used);
	c.simulated = session_simulated(s->ses);
	if (session_passes(s->ses) > 1)
		rc = bench_measure_passes(s, &c, session_passes(s->ses));
	for (size_t i = 0; session_passes(s->ses) == 1 && i < s->nsel && !rc; i++) {
		rc = measure_one(s, s->sel[i], &c, &bc, &res->kernels[i]);
		res->nkernels = i + 1;
		if (s->opt->progress)
			s->opt->progress(s->opt->progress_arg, s->sel[i]->name, i + 1, s->nsel);
	}
	if (!rc)
		calib_mark_below(res, width_of(res));
	if (bench_backend_cost(res->backend)) { /* a reading of system calls: msr */
		text_appendf(&res->note, "; ", "%s backend: %s; the empty bracket costs %.0f TSC "
			     "ticks (%.2f us; an RDPMC bracket costs tens of ticks): %s, but its "
			     "jitter widens every spread", bench_backend_name(res->backend),
			     bench_backend_cost(res->backend), res->empty_tsc,
			 res->tsc_hz ? res->empty_tsc * 1e6 / (double)res->tsc_hz : 0.0,
			 res->calib.used ? "the calibration's is subtracted" : "subtracted");
	}
	tamper_message(s);
	overflow_message(s);
out:
	if (started) {
		int rc2 = session_stop(s->ses);
		if (!rc)
			rc = rc2;
	}
	return rc;
}

void bench_close(struct bench_session *s)
{
	if (!s)
		return;
	session_close(s->ses);
	free(s);
}

/*
 * After a block of a perf source: what the kernel left in the registers
 * the journal saved (res->perf_changed), and whether it still counts on
 * fixed counter 3 (the group is closed: someone else's event).  0 or
 * -EBUSY (the reason in res->avail), or a failed read's -errno.
 */
static int perf_left(struct bench_session *s, struct journal *j)
{
	struct bench_result *res = s->res;
	int n = journal_diff(j, bench_session_dev(s), res->cpu_used, res->perf_changed,
			     BENCH_PERF_CHANGED_MAX);

	if (n < 0)
		return n;
	res->nperf_changed = n;
	for (int i = 0; i < n; i++) {
		uint64_t f = (res->perf_changed[i].now & FIXED_CTR3_FIELD_MASK) >>
			     FIXED_CTR3_FIELD_SHIFT;

		if (res->perf_changed[i].msr != IA32_FIXED_CTR_CTRL || !f)
			continue;
		bench_avail_setf(&res->avail, "perf_event left "
			 "IA32_FIXED_CTR_CTRL[15:12]=0x%x after its group was closed: fixed "
			 "counter 3 still counts for someone else (another perf session?), and the "
			 "raw path does not measure over it", (unsigned)f);
		return -EBUSY;
	}
	return 0;
}

int bench_run(const struct bench_options *opt, struct bench_result *res)
{
	struct bench_session *s;
	int rc = bench_open(opt, res, &s), rc2;
	bool programs = !rc && bench_session_programs(s);
	bool perf = !rc && !programs && opt->journal && bench_backend_perf_event(res->backend);

	if (!rc)
		rc = bench_measure(s, programs ? opt->journal : NULL);
	if (perf && (rc2 = perf_left(s, opt->journal)) && !rc)
		rc = rc2;
	/* the next block finds the PMU as the run found it */
	if ((programs || perf) && opt->journal) {
		rc2 = journal_restore_regs(opt->journal, bench_session_dev(s));
		if (!rc)
			rc = rc2;
	}
	bench_close(s);
	return rc;
}

void bench_result_free(struct bench_result *res)
{
	free(res->note);
	res->note = NULL;
	free(res->kinds_warning);
	res->kinds_warning = NULL;
	bench_avail_release(&res->avail);
	free(res->tamper.message);
	free(res->overflow.message);
	res->tamper.message = res->overflow.message = NULL;
	free(res->kernels);
	res->kernels = NULL;
	res->nkernels = 0;
}
