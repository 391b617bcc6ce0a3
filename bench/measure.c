/*
 * bench/measure.c - the measurement loop (its counter sources are in
 * bench/backends.c), the checks between repetitions, the statistics.
 *
 * Per kernel: warm-up repetitions, then N measured ones.  Before each
 * repetition, outside the bracket, the backend resets fixed counter 3 and
 * then IA32_PERF_METRICS (kernel order, pmu-reference §3.1) with both
 * frozen (pmu_reset_frozen: as the kernel, never with the counters live),
 * so every region starts near zero and the 8-bit fields keep their
 * precision.  Each bracket
 * is (read a) kernel (read b); a region's field slots are
 * slots_b*field_b/S_b - slots_a*field_a/S_a (linux topdown.txt, each
 * reading normalised by its level-1 sum: msr/topdown.h).  The empty
 * bracket's cost is subtracted in slots per field and in TSC ticks, never
 * from percentages.
 *
 * Tamper check: before the first repetition of a kernel and after every
 * repetition, outside the bracket, IA32_FIXED_CTR_CTRL's FC3 field and
 * IA32_PERF_GLOBAL_CTRL bits 35/48 are read back (pmu_verify) - with the
 * rdpmc backend too.  perf, the NMI watchdog or another tool rewriting
 * them (pmu-reference §5.1, §5.2) makes every repetition with a failed
 * check before or after it invalid: counted as tampered, never reported
 * as numbers.  TSC timing is not a PMU count and keeps every repetition.
 *
 * Overflow check: after every repetition, outside the bracket,
 * IA32_PERF_GLOBAL_STATUS is read (pmu_read_overflow).  Bit 35 (fixed
 * counter 3) or bit 48 (OVF_PERF_METRICS) set means the two must be
 * re-synchronised or PERF_METRICS returns invalid values (pmu-reference
 * §3.4): the repetition is invalid (counted as overflow), and the next
 * reset clears the bits through IA32_PERF_GLOBAL_STATUS_RESET inside its
 * frozen window before zeroing FC3 then PERF_METRICS.  If a PMI handler
 * (perf, the NMI watchdog) saw bit 48 first, it acked it and zeroed both
 * counters (handle_pmi_common -> update_topdown_event): the status shows
 * nothing, but the region's slots go backwards (TD_FLAG_SLOTS_BACK), also
 * invalid.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "msr/intel_regs.h"
#include "msr/rdpmc.h"

/* ------------------------------------------------------ per-rep samples */

struct rep_sample {
	double tsc;
	double slots;
	double err_slots;           /* quantisation uncertainty in slots */
	double fs[TD_NFIELDS];      /* field slots of the region */
	unsigned flags;
	bool tampered;              /* a tamper check before or after failed */
	bool overflow;              /* GLOBAL_STATUS bit 35 or 48 after it */
};

/*
 * The tamper check (outside the bracket): true when FC3 and PERF_METRICS
 * are still as programmed.  The first change is kept for the message.
 * IA32_PERF_GLOBAL_CTRL as read goes to s->gc_now (the next reset writes
 * it back after its frozen window).
 */
static bool untouched(struct bench_session *s, const struct bench_kernel *k)
{
	struct bench_tamper_seen *t = &s->tamper;
	uint64_t fcc = 0, gc = 0;
	int rc;

	if (!s->be->topdown)
		return true;
	rc = pmu_verify(s->dev, s->res->cpu_used, &s->cfg, &fcc, &gc);
	if (rc >= 0)
		s->gc_now = gc;
	if (rc == 0)
		return true;
	if (!t->seen) {
		*t = (struct bench_tamper_seen){ .seen = true, .err = rc < 0 ? rc : 0,
			.kernel = k->name, .fcc_from = s->prog_fcc, .fcc_to = fcc,
			.gc_from = s->prog_gc, .gc_to = gc };
	}
	return false;
}

/*
 * The overflow check (outside the bracket): true when fixed counter 3 or
 * PERF_METRICS overflowed (or GLOBAL_STATUS could not be read: a check that
 * could not be made is not a pass).  The bits seen are cleared by the next
 * reset (s->ovf_pending).
 */
static bool overflowed(struct bench_session *s)
{
	uint64_t bits = 0;
	int rc;

	if (!s->be->topdown)
		return false;
	rc = pmu_read_overflow(s->dev, s->res->cpu_used, s->cfg.perf_metrics, &bits);
	if (rc && !s->ovf_err)
		s->ovf_err = rc;
	s->ovf_pending |= bits;
	return rc || bits;
}

/* Run one kernel: warm-up, then reps samples. */
static int run_kernel(struct bench_session *s, const struct bench_kernel *k,
		      struct bench_kernel_ctx *c, struct rep_sample *out, unsigned reps)
{
	const struct bench_backend *be = s->be;
	int level = s->res->level ? s->res->level : 1;
	bool before = untouched(s, k), after;
	int rc;

	for (unsigned i = 0; i < s->opt->warmup + reps; i++) {
		struct bench_reading a, b;
		struct td_result r;

		rc = be->reset(s);
		if (rc)
			return rc;
		be->read(s, &a);
		k->run(c);
		be->read(s, &b);
		after = untouched(s, k);
		bool tampered = !before || !after;
		bool overflow = overflowed(s);
		before = after;
		if (i < s->opt->warmup)
			continue;
		struct rep_sample *o = &out[i - s->opt->warmup];
		o->tsc = (double)(b.tsc - a.tsc);
		if (!be->topdown)
			continue;
		o->tampered = tampered;
		o->overflow = overflow;
		td_decode_region(a.slots, a.metrics, b.slots, b.metrics, level, &r);
		o->slots = r.slots;
		o->err_slots = r.err_slots;
		memcpy(o->fs, r.field_slots, sizeof(o->fs));
		o->flags = r.flags;
	}
	return 0;
}

/* A repetition whose Top-down can be used as a number. */
static bool rep_valid(const struct rep_sample *v)
{
	return !v->tampered && !v->overflow && !(v->flags & TD_FLAGS_INVALID);
}

/* Median per field of the empty bracket: what the bracket itself costs. */
struct bracket_cost {
	double tsc, slots, err_slots, fs[TD_NFIELDS];
};

static void bracket_cost(const struct rep_sample *v, unsigned n, struct bracket_cost *bc)
{
	double *tmp = calloc(n ? n : 1, sizeof(double));
	unsigned m = 0;

	memset(bc, 0, sizeof(*bc));
	if (!tmp)
		return;
#define MED(expr, dst, cnt, cond) do { unsigned k_ = 0; \
	for (unsigned i_ = 0; i_ < n; i_++) if (cond) tmp[k_++] = (expr); \
	(dst) = bench_median(tmp, cnt); } while (0)
	MED(v[i_].tsc, bc->tsc, n, true);
	/* Top-down of the bracket from the valid samples only. */
	for (unsigned i = 0; i < n; i++)
		m += rep_valid(&v[i]);
	if (m) {
		MED(v[i_].slots, bc->slots, m, rep_valid(&v[i_]));
		MED(v[i_].err_slots, bc->err_slots, m, rep_valid(&v[i_]));
		for (unsigned f = 0; f < TD_NFIELDS; f++)
			MED(v[i_].fs[f], bc->fs[f], m, rep_valid(&v[i_]));
	}
#undef MED
	free(tmp);
}

int bench_subtract_bracket(const double fs[TD_NFIELDS], double slots,
			   const double empty_fs[TD_NFIELDS], double empty_slots,
			   double err_slots, int level, struct td_result *out)
{
	double d[TD_NFIELDS];

	for (unsigned f = 0; f < TD_NFIELDS; f++)
		d[f] = fs[f] - empty_fs[f];
	return td_from_field_slots(d, slots - empty_slots, err_slots, level, out);
}

/* Why one repetition is left out, counted once, first reason first. */
static void count_invalid(const struct rep_sample *v, unsigned flags,
			  struct bench_kernel_result *kr)
{
	kr->invalid++;
	if (v->tampered)
		kr->tampered++;
	else if (v->overflow)
		kr->overflow++;
	else if (flags & TD_FLAG_SLOTS_BACK)
		kr->slots_back++;
	else if (flags & TD_FLAG_ZERO_SLOTS)
		kr->zero_slots++;
	else
		kr->l1_sum++;
}

/* Statistics of one kernel's samples, the empty bracket subtracted (unless
 * @bc is NULL: the empty kernel itself is reported raw). */
static int summarise(struct bench_session *s, const struct rep_sample *v, unsigned n,
		     const struct bracket_cost *bc, struct bench_kernel_result *kr)
{
	double *tsc = calloc(n, sizeof(double)), *slots = calloc(n, sizeof(double));
	double *bound = calloc(n, sizeof(double)), *tma[TMA_NMETRICS] = { 0 };
	unsigned good = 0;
	int level = s->res->level, rc = -ENOMEM;

	for (unsigned m = 0; m < TMA_NMETRICS; m++)
		if (!(tma[m] = calloc(n, sizeof(double))))
			goto out;
	if (!tsc || !slots || !bound)
		goto out;
	for (unsigned i = 0; i < n; i++) {
		tsc[i] = v[i].tsc - (bc ? bc->tsc : 0);
		if (!kr->topdown)
			continue;
		static const double none[TD_NFIELDS];
		struct td_result r = { .flags = v[i].flags };
		double d = v[i].slots - (bc ? bc->slots : 0);
		double err = v[i].err_slots + (bc ? bc->err_slots : 0);

		bench_subtract_bracket(v[i].fs, v[i].slots, bc ? bc->fs : none,
				       bc ? bc->slots : 0, err, level, &r);
		/* a tampered, overflowed or flagged repetition is not a number */
		if (v[i].tampered || v[i].overflow || (r.flags & TD_FLAGS_INVALID)) {
			count_invalid(&v[i], r.flags, kr);
			continue;
		}
		kr->flags |= r.flags;
		kr->normalised += !!(r.flags & TD_FLAG_NORMALISED);
		slots[good] = d;
		bound[good] = err / d;
		for (unsigned m = 0; m < TMA_NMETRICS; m++)
			tma[m][good] = r.frac[m];
		good++;
	}
	kr->reps = n;
	bench_stats_compute(tsc, n, &kr->tsc);
	if (kr->topdown && good) {
		bench_stats_compute(slots, good, &kr->slots);
		kr->bound = bench_median(bound, good);
		for (unsigned m = 0; m < TMA_NMETRICS; m++)
			bench_stats_compute(tma[m], good, &kr->tma[m]);
	}
	rc = 0;
out:
	for (unsigned m = 0; m < TMA_NMETRICS; m++)
		free(tma[m]);
	free(tsc);
	free(slots);
	free(bound);
	return rc;
}

/* ------------------------------------------------------------- the run */

/* TSC ticks per second against CLOCK_MONOTONIC over ~20 ms. */
static uint64_t tsc_hz_estimate(void)
{
	struct timespec t0, t1, nap = { 0, 20 * 1000 * 1000 };
	uint64_t c0, c1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	c0 = rdtsc_fenced();
	nanosleep(&nap, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	c1 = rdtsc_fenced();
	double sec = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	return sec > 0 ? (uint64_t)((double)(c1 - c0) / sec) : 0;
}

/* Resolve --kernel LIST to table entries; the empty bracket always runs first. */
static int select_kernels(const char *list, const struct bench_kernel **sel, size_t *n)
{
	size_t nk, cnt = 0;
	const struct bench_kernel *all = bench_kernels(&nk);
	char buf[512], *save = NULL;

	sel[cnt++] = bench_kernel_find("empty");
	if (!sel[0])
		return -EINVAL;
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

/* A requested CPU without PERF_METRICS on a part that has it elsewhere (a
 * hybrid E-core) is refused when Top-down is wanted (any backend but tsc),
 * before anything is pinned or touched. */
static int check_requested(const struct bench_options *opt, struct bench_result *res)
{
	if (opt->cpu < 0 || opt->backend == BENCH_BACKEND_TSC ||
	    cpu_topdown_check_cpu(&res->cpu, (unsigned)opt->cpu, NULL) != -EOPNOTSUPP)
		return 0;
	res->cpu_used = (unsigned)opt->cpu;
	return -EOPNOTSUPP;
}

static void note_add(struct bench_result *res, const char *text)
{
	size_t used = strlen(res->note);

	snprintf(res->note + used, sizeof(res->note) - used, "%s%s", used ? "; " : "", text);
}

/* Pin to the chosen CPU of this machine.  A CPUID dump's CPU numbers are
 * another machine's (and a live run beside $HWLOC_CPUID_PATH chose in a
 * foreign topology): chosen there, never bound to; the kernels run where
 * the scheduler puts them (a dry run). */
static int pin(const struct bench_session *s, struct bench_result *res)
{
	char text[600];

	if (cpu_machine_can_pin(s->machine))
		return cpu_machine_pin(s->machine, res->cpu_used, &res->membind_ok);
	if (cpu_machine_is_dump(s->machine))
		snprintf(text, sizeof(text), "not pinned: cpu %u is a CPU of the CPUID dump "
			 "'%s', not of this machine (dry run)", res->cpu_used,
			 cpu_machine_name(s->machine));
	else
		snprintf(text, sizeof(text), "not pinned: cpu %u was chosen in a topology that "
			 "is not this machine's ($HWLOC_CPUID_PATH)", res->cpu_used);
	note_add(res, text);
	return 0;
}

/* --rdpmc-always will set rdpmc to 2: a probe that failed at 0 or 1 does
 * not rule RDPMC out yet (bench_recheck decides). */
static bool rdpmc_promised(const struct bench_session *s)
{
	const struct bench_avail *a = &s->res->avail;

	return s->opt->rdpmc_always && a->why == TD_OK && !a->rdpmc_ok && !a->rdpmc_dump &&
	       a->rdpmc_sysfs >= 0 && a->rdpmc_sysfs != 2;
}

/* Pick the backend from the request and what is available. */
static int choose_backend(struct bench_session *s)
{
	struct bench_result *res = s->res;
	struct bench_avail *a = &res->avail;
	enum bench_backend_id want = s->opt->backend;
	bool rdpmc = a->rdpmc_ok || rdpmc_promised(s);
	char why[400];

	res->rdpmc_pending = false;
	res->note[s->note_base] = '\0';
	if (want == BENCH_BACKEND_TSC || (want == BENCH_BACKEND_AUTO && a->why != TD_OK)) {
		res->backend = BENCH_BACKEND_TSC;
		if (a->why == TD_OK)
			snprintf(a->reason, sizeof(a->reason), "not measured: --backend tsc "
				 "was requested (level %d is available)", a->level);
	} else if (a->why != TD_OK) {
		return -ENODEV; /* rdpmc/msr requested: a->reason says why not */
	} else if (want == BENCH_BACKEND_MSR || (want == BENCH_BACKEND_AUTO && !rdpmc)) {
		res->backend = BENCH_BACKEND_MSR;
		if (!a->rdpmc_ok) {
			bench_rdpmc_reason(a, why, sizeof(why));
			note_add(res, why);
		}
	} else if (!rdpmc) {
		bench_rdpmc_reason(a, a->reason, sizeof(a->reason));
		a->why = TD_RDPMC_FAULT;
		return -ENODEV;
	} else {
		res->backend = BENCH_BACKEND_RDPMC;
		res->rdpmc_pending = !a->rdpmc_ok;
	}
	s->be = bench_backend_get(res->backend);
	res->level = s->be->topdown ? a->level : 0;
	if (s->be->topdown && s->opt->level) {
		if (s->opt->level > a->level) {
			snprintf(a->reason, sizeof(a->reason), "--level %d requested but cpu %u "
				 "has only level %d in IA32_PERF_METRICS", s->opt->level,
				 res->cpu_used, a->level);
			return -EINVAL;
		}
		res->level = s->opt->level;
	}
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
	kr->topdown = s->be->topdown;
	c->priv = NULL;
	rc = k->setup ? k->setup(c) : 0;
	if (rc)
		goto out;
	rc = run_kernel(s, k, c, v, reps);
	if (k->teardown)
		k->teardown(c);
	if (rc)
		goto out;
	if (is_empty) {
		bracket_cost(v, reps, bc);
		s->res->empty_tsc = bc->tsc;
	}
	rc = summarise(s, v, reps, is_empty ? NULL : bc, kr);
out:
	free(v);
	return rc;
}

/* Identify the machine described, choose the CPU among its CPUs and pin
 * (this machine only), open the MSR backend, decide availability and
 * backend.  hwloc's CPU kinds disagreeing with CPUID's is a warning
 * (res->kinds_warning), never a failure. */
static int prepare(struct bench_session *s)
{
	const struct cpu_machine *m = s->machine;
	struct bench_result *res = s->res;
	int rc, cpu;

	s->topo = cpu_machine_topo(m);
	rc = bench_identify(m, NULL, -1, &res->cpu);
	if (!rc)
		rc = check_requested(s->opt, res);
	if (rc)
		return rc;
	cpu_machine_check_kinds(m, &res->cpu, res->kinds_warning, sizeof(res->kinds_warning));
	cpu = cpu_machine_choose(m, &res->cpu, s->opt->cpu);
	if (cpu < 0)
		return cpu;
	res->cpu_used = (unsigned)cpu;
	rc = pin(s, res);
	if (rc)
		return rc;
	if (msr_open(NULL, &s->dev))
		s->dev = NULL;
	if (s->dev && (rc = bench_identify(m, s->dev, cpu, &res->cpu)))
		return rc;
	s->note_base = strlen(res->note);
	bench_topdown_check_ops(m, &res->cpu, res->cpu_used, s->dev, &bench_rdpmc_live,
				&s->perf_fd, &res->avail);
	res->tsc_hz = tsc_hz_estimate();
	return choose_backend(s);
}

int bench_open(const struct bench_options *opt, struct bench_result *res,
	       struct bench_session **out)
{
	struct bench_session *s = calloc(1, sizeof(*s));
	int rc;

	memset(res, 0, sizeof(*res));
	*out = s;
	if (!s)
		return -ENOMEM;
	*s = (struct bench_session){ .opt = opt, .res = res, .perf_fd = -1,
				     .machine = opt->machine };
	if (opt->reps == 0 || opt->reps > BENCH_MAX_REPS || opt->warmup > BENCH_MAX_REPS)
		return -ERANGE;
	rc = select_kernels(opt->kernels, s->sel, &s->nsel);
	if (rc)
		return rc;
	if (!s->machine) {
		rc = cpu_machine_open(NULL, &s->own_machine, NULL, 0);
		if (rc)
			return rc;
		s->machine = s->own_machine;
	}
	return prepare(s);
}

bool bench_session_programs(const struct bench_session *s)
{
	return s && s->be && s->be->topdown;
}

struct msr_dev *bench_session_dev(const struct bench_session *s)
{
	return s ? s->dev : NULL;
}

int bench_recheck(struct bench_session *s)
{
	bench_topdown_check_ops(s->machine, &s->res->cpu, s->res->cpu_used, s->dev,
				&bench_rdpmc_live, &s->perf_fd, &s->res->avail);
	return choose_backend(s);
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
	if (t->err) {
		snprintf(res->tamper.message, sizeof(res->tamper.message), "cpu %u: cannot read "
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
	snprintf(res->tamper.message, sizeof(res->tamper.message), "cpu %u: %s changed from "
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
	if (s->ovf_err)
		snprintf(res->overflow.message, sizeof(res->overflow.message), "cpu %u: cannot "
			 "read IA32_PERF_GLOBAL_STATUS (0x%x) to check for overflow (%s): %u "
			 "samples marked invalid", res->cpu_used, IA32_PERF_GLOBAL_STATUS,
			 strerror(-s->ovf_err), n);
	else
		snprintf(res->overflow.message, sizeof(res->overflow.message), "cpu %u: fixed "
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

	s->journal = j;
	res->kernels = calloc(s->nsel, sizeof(*res->kernels));
	if (!res->kernels)
		return -ENOMEM;
	rc = s->be->start(s);
	if (rc)
		goto out;
	started = true;
	c.cpu = res->cpu_used;
	c.llc_bytes = cpu_llc_bytes(s->topo, res->cpu_used);
	for (size_t i = 0; i < s->nsel && !rc; i++) {
		rc = measure_one(s, s->sel[i], &c, &bc, &res->kernels[i]);
		res->nkernels = i + 1;
	}
	if (res->backend == BENCH_BACKEND_MSR) {
		size_t used = strlen(res->note);
		snprintf(res->note + used, sizeof(res->note) - used, "%smsr backend: each bracket "
			 "read is two pread()s of the msr device; the empty bracket costs %.0f TSC "
			 "ticks (%.2f us; an RDPMC bracket costs tens of ticks): subtracted, but its "
			 "jitter widens every spread", used ? "; " : "", res->empty_tsc,
			 res->tsc_hz ? res->empty_tsc * 1e6 / (double)res->tsc_hz : 0.0);
	}
	tamper_message(s);
	overflow_message(s);
out:
	if (started) {
		int rc2 = s->be->stop(s);
		if (!rc)
			rc = rc2;
	}
	return rc;
}

void bench_close(struct bench_session *s)
{
	if (!s)
		return;
	/* the rdpmc=1 key (bench_rdpmc_decide) lives as long as the session */
	if (s->perf_fd >= 0)
		bench_rdpmc_live.disable_self(s->perf_fd);
	msr_close(s->dev);
	cpu_machine_free(s->own_machine); /* s->topo is the machine's */
	free(s);
}

int bench_run(const struct bench_options *opt, struct bench_result *res)
{
	struct bench_session *s;
	int rc = bench_open(opt, res, &s);

	if (!rc)
		rc = bench_measure(s, NULL);
	bench_close(s);
	return rc;
}

void bench_result_free(struct bench_result *res)
{
	free(res->kernels);
	res->kernels = NULL;
	res->nkernels = 0;
}
