/*
 * bench/study/calibrate.c - `baretma calibrate`: the calibrated loop, and each
 * backend measured through the harness (bench/study/calibrate.h).  The document,
 * the file and the matching are in bench/study/calibrate_store.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/text.h"
#include "bench/study/calibrate.h"

static const unsigned lengths[CALIB_NLENGTHS] = { 1000, 10000, 100000, 1000000 };

const unsigned *calib_lengths(void)
{
	return lengths;
}

enum bench_backend_id calib_backend_at(unsigned i)
{
	return bench_backend_at(i);
}

/* ------------------------------------------------------------ the loop */

/*
 * Ten dependent ADDs per iteration: each needs the previous one's result,
 * so the chain takes one cycle per ADD (ADD r,r latency 1: Agner Fog's
 * instruction tables, every x86 core); the counter's DEC/JNZ is a second,
 * independent chain that runs beside it in the other ports.
 */
uint64_t calib_adds(uint64_t n)
{
	uint64_t x = 0, k = 1, i = n / 10, r = n % 10;

#if defined(__x86_64__) || defined(__i386__)
	if (i)
		__asm__ volatile("1:\n\t"
				 "add %[k], %[x]\n\tadd %[k], %[x]\n\tadd %[k], %[x]\n\t"
				 "add %[k], %[x]\n\tadd %[k], %[x]\n\tadd %[k], %[x]\n\t"
				 "add %[k], %[x]\n\tadd %[k], %[x]\n\tadd %[k], %[x]\n\t"
				 "add %[k], %[x]\n\t"
				 "dec %[i]\n\t"
				 "jnz 1b\n\t"
				 : [x] "+r"(x), [i] "+r"(i) : [k] "r"(k) : "cc");
	while (r--)
		__asm__ volatile("add %[k], %[x]" : [x] "+r"(x) : [k] "r"(k) : "cc");
#else
	volatile uint64_t v = 0;

	for (uint64_t j = 0; j < n; j++)
		v = v + k;
	x = v + 0 * (i + r);
#endif
	return x;
}

#define LOOP_RUN(N) \
	static void run_##N(struct bench_kernel_ctx *c) { c->sink = calib_adds(N); }
LOOP_RUN(1000)
LOOP_RUN(10000)
LOOP_RUN(100000)
LOOP_RUN(1000000)

static const struct bench_kernel loops[CALIB_NLENGTHS] = {
	{ "loop-1k", "-", "1000 dependent register ADDs: 1000 core cycles", NULL, run_1000, NULL },
	{ "loop-10k", "-", "10000 dependent register ADDs", NULL, run_10000, NULL },
	{ "loop-100k", "-", "100000 dependent register ADDs", NULL, run_100000, NULL },
	{ "loop-1M", "-", "1000000 dependent register ADDs", NULL, run_1000000, NULL },
};

static const struct bench_kernel *const loop_list[CALIB_NLENGTHS] = {
	&loops[0], &loops[1], &loops[2], &loops[3],
};

const struct bench_kernel *calib_kernel(unsigned cycles)
{
	for (unsigned i = 0; i < CALIB_NLENGTHS; i++)
		if (lengths[i] == cycles)
			return &loops[i];
	return NULL;
}

double calib_spread95(const struct bench_stats *s)
{
	return s->n ? (s->p975 - s->p025) / 2 : NAN;
}

int calib_parse_backends(const char *list, bool want[CALIB_NBACKENDS], char *bad, size_t n)
{
	char buf[256], *save = NULL;

	memset(want, 0, CALIB_NBACKENDS * sizeof(bool));
	if (!list || !strcmp(list, "all")) {
		for (unsigned i = 0; i < CALIB_NBACKENDS; i++)
			want[i] = true;
		return 0;
	}
	snprintf(bad, n, "%s", list);
	if (!*list || strlen(list) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, list);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		enum bench_backend_id id;
		int i;

		if (bench_backend_parse(t, &id) || (i = bench_backend_index(id)) < 0) {
			snprintf(bad, n, "%s", t);
			return -EINVAL;
		}
		want[i] = true;
	}
	return 0;
}

/* ------------------------------------------------------------ probing */

static struct bench_options options_for(const struct calib_options *o,
					enum bench_backend_id id, int cpu)
{
	return (struct bench_options){ .cpu = cpu, .backend = id, .reps = o->reps,
				       .warmup = BENCH_DEFAULT_WARMUP, .machine = o->machine,
				       .calibration = BENCH_CALIB_OFF,
				       .kernel_list = loop_list, .nkernel_list = CALIB_NLENGTHS,
				       .dev = o->dev, .journal = o->journal };
}

static void why_not(struct calib_backend *b, const struct bench_result *r, int rc)
{
	b->err = rc;
	text_setf(&b->reason, "%s", r->avail.reason && rc != -EOPNOTSUPP && rc != -ENXIO ?
		  r->avail.reason : strerror(-rc));
}

void calib_release(struct calibration *c)
{
	for (unsigned i = 0; i < CALIB_NBACKENDS; i++) {
		free(c->b[i].reason);
		c->b[i].reason = NULL;
	}
}

int calib_probe(const struct calib_options *o, struct calibration *c)
{
	int cpu = o->cpu;
	bool have_cpu = false;

	memset(c, 0, sizeof(*c));
	if (!o->reps)
		return -EINVAL;
	for (unsigned i = 0; i < CALIB_NBACKENDS; i++) {
		struct calib_backend *b = &c->b[i];
		struct bench_options bo = options_for(o, calib_backend_at(i), cpu);
		struct bench_session *s = NULL;
		struct bench_result r;
		int rc;

		b->id = calib_backend_at(i);
		b->asked = o->want[i];
		if (!b->asked)
			continue;
		rc = bench_open(&bo, &r, &s);
		bench_close(s);
		/* a perf probe enabled the kernel's group: the counters go back */
		if (o->journal && bench_backend_perf_event(b->id))
			journal_restore_regs(o->journal, o->dev);
		if (r.cpu.vendor_str[0] && !c->cpu.vendor_str[0])
			c->cpu = r.cpu;
		b->cpu = r.cpu_used;
		if (rc) {
			why_not(b, &r, rc);
		} else {
			b->measured = true; /* can: calib_measure measures it */
			b->level = r.level;
			if (!have_cpu) {
				cpu = (int)r.cpu_used;
				have_cpu = true;
			}
		}
		bench_result_free(&r);
	}
	return 0;
}

/* ---------------------------------------------------------- measuring */

struct progress_ctx {
	const struct calib_options *o;
	const char *backend;
	unsigned base, total;
};

static void on_kernel(void *arg, const char *kernel, size_t done, size_t total)
{
	struct progress_ctx *p = arg;

	(void)total;
	p->o->progress(p->o->progress_arg, p->backend, kernel, p->base + (unsigned)done, p->total);
}

void calib_length_of(const struct bench_kernel_result *kr, int level, struct calib_length *l)
{
	l->reps = kr->reps;
	l->tsc = kr->tsc;
	l->within = level > 0;
	if (!level)
		return;
	l->valid = kr->reps - kr->invalid;
	l->slots = kr->slots;
	l->quant_pp = kr->slots.n ? kr->read_bound * 100 : NAN;
	l->bracket_pp = kr->slots.n ? kr->bracket_bound * 100 : NAN;
	for (unsigned m = 0; m < 4; m++) {
		l->median_pct[m] = kr->tma[m].n ? kr->tma[m].median * 100 : NAN;
		l->spread_pp[m] = kr->tma[m].n ? calib_spread95(&kr->tma[m]) * 100 : NAN;
		l->total_pp[m] = l->spread_pp[m] + l->quant_pp + l->bracket_pp;
		if (!(l->total_pp[m] <= CALIB_RESOLUTION_PP))
			l->within = false;
	}
	if (l->valid < CALIB_MIN_VALID)
		l->within = false;
}

unsigned calib_resolution(const struct calib_length *len)
{
	unsigned res = 0;

	for (int i = CALIB_NLENGTHS - 1; i >= 0 && len[i].within; i--)
		res = len[i].cycles;
	return res;
}

static void take_result(const struct bench_result *r, struct calib_backend *b)
{
	const struct cpu_kind *k = cpu_info_kind_of(&r->cpu, r->cpu_used);
	double cpt[CALIB_NLENGTHS];
	unsigned n = 0;

	b->level = r->level;
	b->cpu = r->cpu_used;
	b->tsc_hz = (double)r->tsc_hz;
	b->width = k ? k->pipeline_width : 0;
	b->bracket_tsc = r->bracket_tsc;
	if (r->level) {
		b->bracket_slots = r->bracket_slots;
		memcpy(b->bracket_fs, r->bracket_fs, sizeof(b->bracket_fs));
		b->bracket_err_slots = r->bracket_err_slots;
		b->ncounts = r->nbracket_counts;
		memcpy(b->counts, r->bracket_counts, sizeof(b->counts));
		b->recipe = r->recipe;
		b->passes = r->passes ? r->passes : 1;
	}
	for (unsigned i = 0; i < CALIB_NLENGTHS && i + 1 < r->nkernels; i++) {
		b->len[i].cycles = lengths[i];
		calib_length_of(&r->kernels[i + 1], r->level, &b->len[i]);
		if (b->len[i].tsc.median > 0)
			cpt[n++] = lengths[i] / b->len[i].tsc.median;
	}
	b->cycles_per_tick = n ? bench_median(cpt, n) : 0;
	b->resolution = calib_resolution(b->len);
}

static void stamp(struct calibration *c, const struct calib_options *o, unsigned cpu)
{
	struct tm tm;

	c->when = time(NULL);
	gmtime_r(&c->when, &tm);
	strftime(c->date, sizeof(c->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	cpu_machine_env_read(o->machine, (int)cpu, &c->env);
	c->host = cpu_machine_host(o->machine);
}

int calib_measure(const struct calib_options *o, struct calibration *c)
{
	struct progress_ctx p = { .o = o };
	unsigned cpu = 0;
	bool any = false;

	for (unsigned i = 0; i < CALIB_NBACKENDS; i++)
		if (c->b[i].measured) {
			p.total += CALIB_NLENGTHS + 1;
			if (!any)
				cpu = c->b[i].cpu;
			any = true;
		}
	stamp(c, o, cpu);
	for (unsigned i = 0; i < CALIB_NBACKENDS; i++) {
		struct calib_backend *b = &c->b[i];
		struct bench_options bo = options_for(o, b->id, (int)cpu);
		struct bench_result r;
		int rc;

		if (!b->measured)
			continue;
		p.backend = bench_backend_name(b->id);
		if (o->progress) {
			bo.progress = on_kernel;
			bo.progress_arg = &p;
		}
		rc = bench_run(&bo, &r);
		if (rc || r.tamper.detected) {
			b->measured = false;
			why_not(b, &r, rc ? rc : -EBUSY);
			if (!rc)
				text_setf(&b->reason, "%s", text_or_empty(r.tamper.message));
		} else if (r.level && r.nkernels && !r.bracket_slots.n) {
			/* Top-down, but no reading of the empty bracket held a valid
			 * Top-down (every repetition invalid: PERF_METRICS's fields
			 * not summing to 255, a recipe's counts out of range): no
			 * bracket to subtract.  Kept, it was a file of slots with no
			 * median that bench then refused as malformed. */
			b->measured = false;
			b->err = -ENODATA;
			text_setf(&b->reason, "no valid Top-down reading of the empty bracket: %u of "
				  "%u repetitions invalid (baretma bench --kernel empty --backend %s "
				  "says why)", r.kernels[0].invalid, r.kernels[0].reps,
				  bench_backend_name(b->id));
		} else {
			take_result(&r, b);
			if (b->resolution && (!c->resolution || b->resolution < c->resolution))
				c->resolution = b->resolution;
		}
		p.base += CALIB_NLENGTHS + 1;
		bench_result_free(&r);
	}
	return 0;
}

bool calib_any_measured(const struct calibration *c)
{
	for (unsigned i = 0; i < CALIB_NBACKENDS; i++)
		if (c->b[i].measured)
			return true;
	return false;
}
