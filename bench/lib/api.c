/*
 * bench/lib/api.c - libbaretma's public API (include/baretma.h) on the code
 * the tool runs: a session (bench/session.h: identify, choose the CPU, pin,
 * choose the counter source), the guarded start and finish of msr/guard/guard.h
 * (locks, other runs' journals, PMU ownership, the journal; the sequence
 * `baretma bench` goes through: guard_start), and the named regions of
 * bench/region.h.
 *
 * Regions: the counters are reset (frozen, msr/pmu/pmu.h) before the first
 * region of an epoch opens and checked (tamper, overflow) after the last
 * one closes, both outside every region (bench/region.h says why the
 * pairs of an epoch wait for that check).  Between a region's two readings
 * the only work is the table look-up done before the first reading and
 * after the second, and nothing allocates; on the rdpmc and tsc sources
 * the readings are inline (bench/session.h), with no call.
 *
 * Errors: -errno, and one line per thread (baretma_last_error).  The
 * library prints nothing.  Threads, fork, signals: include/baretma.h.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/text.h"
#include "bench/lib/api.h"
#include "bench/session.h"
#include "bench/tma.h"
#include "msr/open/msr_open.h"
#include "msr/recipe/recipe.h"
#include "cpu/machine.h"
#include "msr/guard/guard.h"
#include "msr/journal/guard_signals.h"

struct baretma {
	enum source_read read;        /* session_read_kind(s): first, for the
				       * bracket to load it in one step */
	struct session *s;
	struct cpu_machine *machine;
	struct guard *g;              /* NULL when the source writes no MSR (tsc) */
	struct region_table t;
	int level;                    /* of the readings: 0 on a TSC-only session */
	pid_t pid;                    /* the process that opened it (fork rule) */
	pthread_t owner;              /* the thread that opened it: the only one whose
				       * begin/end count (include/baretma.h Threads) */
	int cpu;                      /* the CPU it is pinned to; -1: not pinned (a
				       * dump's CPU), no CPU check */
	_Atomic uint64_t foreign_thread, foreign_cpu; /* refused (baretma_misuse) */
	enum region_method method;    /* the option region_method */
	char *lines;                  /* the notes and warnings, each ending "\n", on the
				       * heap (cpu/text.h): NULL, none */
};

/* The calling thread's last error, on the heap (cpu/text.h: never cut);
 * NULL: none.  A thread's is freed when it exits (the key's destructor),
 * so that threaded harnesses leak nothing. */
static _Thread_local char *last_error;
static struct text_thread error_thread = TEXT_THREAD_INIT;

/* @text (NULL: none) becomes the thread's last error; the old one is freed. */
static void error_keep(char *text)
{
	text_thread_keep(&error_thread, &last_error, text);
}

const char *baretma_last_error(void)
{
	return text_or_empty(last_error);
}

static int fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(int err, const char *fmt, ...)
{
	char *text = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (text_vsetf(&text, fmt, ap) == 0)
		error_keep(text);
	else /* out of memory: the cause, not a stale message */
		error_keep(strdup("out of memory while making the error message"));
	va_end(ap);
	return err;
}

const char *baretma_tma_name(enum baretma_tma m)
{
	return (unsigned)m < BARETMA_TMA_N ? td_metric_name((enum td_metric)m) : NULL;
}

int baretma_decode(const struct baretma_reading *a, const struct baretma_reading *b,
		   int level, struct baretma_result *res)
{
	if (!a || !b || !res)
		return -EINVAL;
	return region_decode_pair(a, b, level, res);
}

int baretma_guard_signals(void)
{
	int rc = guard_signals_install(0);

	return rc ? fail(rc, "cannot install the restore signal handlers: %s",
			 strerror(-rc)) : 0;
}

/* ------------------------------------------------------------- opening */

int api_region_method_parse(const char *text, enum region_method *m)
{
	if (!text || !strcmp(text, "auto"))
		*m = REGION_METHOD_AUTO;
	else if (!strcmp(text, "delta"))
		*m = REGION_METHOD_DELTA;
	else if (!strcmp(text, "metrics-clear"))
		*m = REGION_METHOD_CLEAR;
	else
		return -EINVAL;
	return 0;
}

/* The options in the session's terms; -EINVAL with the message when bad. */
static int session_opts(const struct baretma_options *o, struct session_options *so,
			enum region_method *method)
{
	memset(so, 0, sizeof(*so));
	if (api_region_method_parse(o->region_method, method))
		return fail(-EINVAL, "baretma_open: region_method '%s': expected auto, delta or "
			    "metrics-clear", o->region_method);
	if (bench_backend_parse(o->backend ? o->backend : "auto", &so->backend))
		return fail(-EINVAL, "baretma_open: backend '%s': expected auto, rdpmc, msr, "
			    "perf, perf-rdpmc or tsc", o->backend);
	if (o->level < 0 || o->level > 2)
		return fail(-EINVAL, "baretma_open: level %d: expected 1, 2, or 0 for the "
			    "highest the CPU has", o->level);
	if (o->cpu < -1)
		return fail(-EINVAL, "baretma_open: cpu %d: expected an OS CPU number, or -1 "
			    "to choose", o->cpu);
	so->cpu = o->cpu;
	so->level = o->level;
	so->one_pass = true; /* a region is measured once */
	so->user_only = o->user_only;
	so->force = o->force;
	/* RDPMC metrics-clear regions where the source can (the rdpmc source
	 * decides: rdpmc_src_open), unless asked for the delta method; nested
	 * regions add up the segments between their readings (bench/region.h) */
	so->delta_regions = *method == REGION_METHOD_DELTA;
	return 0;
}

/* Why session_open failed, in the words of `baretma bench`. */
static int open_failed(const struct session *s, const struct baretma_options *o, int rc)
{
	const struct session_info *in = s ? session_info(s) : NULL;

	/* $BARETMA_MSR's backend: its own line, whole (the thread's, from the
	 * msr_open that just failed), as `baretma bench` prints it */
	if (in && in->avail.why == TD_MSR_OPEN)
		return fail(rc, "%s", *msr_last_error() ? msr_last_error() : bench_avail_reason(&in->avail));
	switch (-rc) {
	case EOPNOTSUPP:
		return fail(rc, "cpu %d is an efficiency core of a hybrid part: it has no "
			    "IA32_PERF_METRICS and no event recipe (open with cpu -1 to let "
			    "baretma choose a performance core, or backend \"tsc\")", o->cpu);
	case ENXIO:
		return fail(rc, o->cpu < 0 ? "no CPU this thread may run on has a core kind "
			    "that can measure (choose one with the option cpu)" :
			    "cannot measure on cpu %d: no such CPU, or it is offline or not "
			    "allowed for this thread", o->cpu);
	case ENODEV:
		return fail(rc, "cannot use backend \"%s\": %s", o->backend,
			    in ? bench_avail_reason(&in->avail) : "");
	case EINVAL:
		if (in && bench_avail_reason(&in->avail)[0])
			return fail(rc, "%s", bench_avail_reason(&in->avail));
		break;
	}
	return fail(rc, "cannot open a session: %s", strerror(-rc));
}

/* One line of baretma_notes: "note: " or "warning: " and @text (@len
 * bytes), whole (a line that cannot be kept for want of memory is left out
 * whole, never cut). */
static void add_line(struct baretma *bm, const char *kind, const char *text, size_t len)
{
	if (len && len <= INT_MAX)
		text_appendf(&bm->lines, NULL, "%s%.*s\n", kind, (int)len, text);
}

/* The session's own notes ("; "-separated: not pinned, why rdpmc was
 * passed over), the CPU-kind disagreement, why there is no Top-down. */
static void keep_session_lines(struct baretma *bm)
{
	const struct session_info *in = session_info(bm->s);

	for (const char *p = text_or_empty(in->note), *e; *p; p = *e ? e + 2 : e) {
		e = strstr(p, "; ");
		if (!e)
			e = p + strlen(p);
		add_line(bm, "note: ", p, (size_t)(e - p));
	}
	add_line(bm, "warning: ", text_or_empty(in->kinds_warning),
		 strlen(text_or_empty(in->kinds_warning)));
	if (!in->level && bench_avail_reason(&in->avail)[0]) {
		char *why = NULL;

		if (text_appendf(&why, NULL, "no Top-down (TSC only): %s", in->avail.reason) == 0)
			add_line(bm, "note: ", why, strlen(why));
		free(why);
	}
}

/*
 * The region method the session uses, as a note ("regions: ..."), and
 * -EOPNOTSUPP when "metrics-clear" was asked for and the source cannot:
 * the mode needs a core kind that enumerates it (IA32_PERF_CAPABILITIES
 * bit 19: linux arch/x86/events/intel/core.c, commit 0e45818ec189) and
 * RDPMC of IA32_PERF_METRICS (backend rdpmc, no event recipe).
 */
static int region_method_check(struct baretma *bm)
{
	const struct session_info *in = session_info(bm->s);
	const struct cpu_kind *k = cpu_info_kind_of(&in->cpu, in->cpu_used);
	const char *why;
	char *line = NULL;
	int rc;

	if (bm->t.rs && bm->t.rs->metrics_clear) {
		static const char clear[] = "regions: RDPMC metrics-clear regions (each RDPMC "
			"of IA32_PERF_METRICS clears it and fixed counter 3: a region is the sum "
			"of the segments between its readings)";

		add_line(bm, "note: ", clear, strlen(clear));
		return 0;
	}
	why = bm->method == REGION_METHOD_DELTA ? "region_method \"delta\"" :
		!k || !k->metrics_clear ? "the core kind has no RDPMC metrics-clear mode "
		"(IA32_PERF_CAPABILITIES bit 19: Lion Cove and later)" :
		in->recipe || !bench_backend_raw(in->backend) || !bench_backend_rdpmc(in->backend) ?
		"metrics-clear regions need RDPMC of IA32_PERF_METRICS (backend rdpmc)" : "";
	if (bm->method == REGION_METHOD_CLEAR)
		return fail(-EOPNOTSUPP, "baretma_open: region_method \"metrics-clear\" on cpu "
			    "%u, backend %s: %s (use region_method \"auto\" or \"delta\")",
			    in->cpu_used, bench_backend_name(in->backend), why);
	/* PERF_METRICS read (alone, or with a recipe's events beside it:
	 * Sunny Cove): the region method to say */
	if (!bm->level || !bm->t.rs || bm->t.rs->bound != READ_BOUND_PERF_METRICS)
		return 0; /* no PERF_METRICS read: no region method to say */
	rc = text_appendf(&line, NULL, "regions: the delta method (slot-weighted differences "
			  "of IA32_PERF_METRICS readings): %s", why);
	if (!rc)
		add_line(bm, "note: ", line, strlen(line));
	free(line);
	return 0;
}

/* The guard's notes and warnings (a detail, GUARD_LINE_DETAIL, is a note
 * here: baretma_notes is read when asked for, not printed). */
static void keep_guard_lines(struct baretma *bm)
{
	enum guard_line_kind kind;
	const char *text;

	for (int i = 0; (text = guard_line(bm->g, i, &kind)); i++)
		add_line(bm, kind == GUARD_LINE_WARNING ? "warning: " :
			 kind == GUARD_LINE_AFTER ? "  " : "note: ", text, strlen(text));
	guard_lines_clear(bm->g);
}

/* The guarded start and the programming, for a source that writes MSRs. */
static int guard_and_program(struct baretma *bm, const struct baretma_options *o)
{
	const struct session_info *in = session_info(bm->s);
	char *cmd = NULL;
	struct guard_opts go = {
		.wait = o->wait, .force = o->force, .no_settings_flags = true,
		.kind = JOURNAL_RUN, .backend = msr_env_spec(),
	};
	unsigned cpu = in->cpu_used;
	int rc;

	/* the journal's command, whole (guard_new copies it) */
	rc = text_setf(&cmd, "libbaretma in %s", program_invocation_name);
	go.cmd = cmd;
	if (!rc)
		rc = guard_new(&bm->g, &go);
	free(cmd);
	if (rc)
		return fail(rc, "cannot set up the guard: %s", strerror(-rc));
	rc = guard_start(bm->g, session_dev(bm->s), &in->cpu, &cpu, 1, true, JOURNAL_RUN,
			 o->user_only);
	keep_guard_lines(bm);
	if (rc)
		return fail(rc, "%s", guard_message(bm->g));
	msr_fault_clear(session_dev(bm->s));
	rc = session_program(bm->s, guard_journal(bm->g));
	if (rc == -EBUSY && in->recipe)
		return fail(rc, "cpu %u: a counter of recipe %s:%s is in use: %s (the option "
			    "force takes over)", cpu, in->recipe->name, in->recipe->variant,
			    bench_avail_reason(&session_info(bm->s)->avail));
	if (rc == -EBUSY)
		return fail(rc, "cpu %u: fixed counter 3 / PERF_METRICS in use: %s (it became "
			    "busy after baretma checked; the option force takes over)", cpu,
			    bench_avail_reason(&session_info(bm->s)->avail));
	if (rc) {
		char text[GUARD_ACCESS_TEXT_MAX];

		guard_access_text(session_dev(bm->s), rc, cpu, text, sizeof(text));
		return fail(rc, "%s", text);
	}
	return 0;
}

int baretma_open(struct baretma **out, const struct baretma_options *opt)
{
	static const struct baretma_options defaults = BARETMA_OPTIONS_INIT;
	struct session_options so;
	enum region_method method;
	struct baretma *bm;
	char *why = NULL; /* cpu_machine_open's, whole: it quotes a dump's line */
	int rc;

	error_keep(NULL);
	if (!out)
		return fail(-EINVAL, "baretma_open: no place for the session");
	*out = NULL;
	if (!opt)
		opt = &defaults;
	rc = session_opts(opt, &so, &method);
	if (rc)
		return rc;
	bm = calloc(1, sizeof(*bm));
	if (!bm)
		return fail(-ENOMEM, "cannot open a session: %s", strerror(ENOMEM));
	bm->method = method;
	bm->pid = getpid();
	bm->owner = pthread_self();
	rc = cpu_machine_open(opt->cpuid_dump, &bm->machine, &why);
	if (rc) {
		fail(rc, opt->cpuid_dump ? "cannot load CPUID dump '%s': %s" : "%s%s",
		     opt->cpuid_dump ? opt->cpuid_dump : "", why ? why : strerror(-rc));
		free(why);
		goto out;
	}
	so.machine = bm->machine;
	rc = session_open(&so, &bm->s);
	if (rc) {
		open_failed(bm->s, opt, rc);
		goto out;
	}
	bm->level = session_info(bm->s)->level;
	bm->cpu = session_pinned(bm->s) ? (int)session_info(bm->s)->cpu_used : -1;
	bm->t.rs = session_read_set(bm->s);
	/* the statistics' store, sized for the read set: never allocated by
	 * begin or end */
	rc = region_store_new(&bm->t);
	if (rc) {
		fail(rc, "cannot open a session: %s", strerror(-rc));
		goto out;
	}
	/* the recipe's formulas cut into tokens, and the test of a pair without
	 * them made, now: not at the first region's end (bench/region.h) */
	region_prepare(&bm->t, bm->level);
	keep_session_lines(bm);
	rc = region_method_check(bm);
	if (rc)
		goto out;
	if (session_writes_msrs(bm->s))
		rc = guard_and_program(bm, opt);
	else /* perf_event (the kernel's registers, or its simulator): no journal */
		rc = session_program(bm->s, NULL);
	bm->read = session_read_kind(bm->s); /* as finally chosen */
out:
	if (rc) {
		char *keep = last_error;

		/* closing puts back what was programmed; the open's error stays */
		last_error = NULL;
		baretma_close(bm);
		error_keep(keep);
		return rc;
	}
	*out = bm;
	return 0;
}

int baretma_close(struct baretma *bm)
{
	int rc = 0;

	if (!bm)
		return 0;
	if (bm->g) {
		/* a fork()ed child restores and releases nothing (guard_finish) */
		rc = guard_finish(bm->g, false);
		if (rc)
			fail(rc, "%s", guard_message(bm->g));
		guard_free(bm->g);
	}
	/* the binding saved was the owner's: another thread (the markers'
	 * close, after the owner ended) keeps its own */
	if (bm->s && !pthread_equal(pthread_self(), bm->owner))
		session_drop_binding(bm->s);
	session_close(bm->s);
	region_store_free(&bm->t);
	cpu_machine_free(bm->machine);
	free(bm->lines);
	free(bm);
	return rc;
}

/* ------------------------------------------------------------- regions */

/* Whether the calling thread may begin or end a region of @bm: the thread
 * that opened it, on the CPU it was pinned to (RDPMC reads the CPU the
 * thread runs on).  A refusal is counted and said, outside the region. */
static __attribute__((noinline, cold)) bool refuse(struct baretma *bm, const char *what,
						   const char *name, int cpu)
{
	if (cpu < 0) {
		atomic_fetch_add_explicit(&bm->foreign_thread, 1, memory_order_relaxed);
		fail(-EPERM, "%s '%.40s': refused: this thread did not open the session (a "
		     "session is one thread's: open one in each thread, on its own CPU)",
		     what, name ? name : "(null)");
	} else {
		atomic_fetch_add_explicit(&bm->foreign_cpu, 1, memory_order_relaxed);
		fail(-EPERM, "%s '%.40s': refused: the thread runs on cpu %d, the session "
		     "measures cpu %d (the thread was bound elsewhere after baretma_open)",
		     what, name ? name : "(null)", cpu, bm->cpu);
	}
	return false;
}

static inline bool owned(struct baretma *bm, const char *what, const char *name)
{
	int cpu;

	if (__builtin_expect(!pthread_equal(pthread_self(), bm->owner), 0))
		return refuse(bm, what, name, -1);
	/* sched_getcpu: glibc 2.35 and later read it from the thread's rseq
	 * area, older ones call the vDSO's getcpu (glibc sysdeps/unix/sysv/
	 * linux/sched_getcpu.c): no system call; -1 where it cannot tell,
	 * then nothing is refused */
	if (bm->cpu >= 0 && __builtin_expect((cpu = sched_getcpu()) != bm->cpu && cpu >= 0, 0))
		return refuse(bm, what, name, cpu);
	return true;
}

/* Everything baretma_region_begin does before its reading, out of line so
 * that the reading comes last with nothing after it but the return: the
 * slot of the region opened (NULL: nothing to read), the counts reset
 * when it opens the epoch. */
static __attribute__((noinline)) struct reading *region_begin_before(struct baretma *bm,
									    const char *name)
{
	struct region *r = owned(bm, "baretma_region_begin", name) ? region_add(&bm->t, name) : NULL;
	struct reading *a = r ? region_open(&bm->t, r) : NULL;

	if (a && bm->t.depth == 1 && session_reset(bm->s)) {
		region_unopen(&bm->t, r);
		r->misuse++;
		return NULL;
	}
	return a;
}

void baretma_region_begin(struct baretma *bm, const char *name)
{
	struct reading *a = bm ? region_begin_before(bm, name) : NULL;

	if (!a)
		return;
	/* the reading goes straight into the region, last */
	switch (bm->read) {
	case SOURCE_READ_TSC:
		source_read_tsc(a);
		break;
	case SOURCE_READ_RDPMC:
		source_read_rdpmc(a);
		break;
	case SOURCE_READ_RDPMC_SET:
		source_read_rdpmc_set(bm->t.rs, a);
		break;
	default:
		source_read_as(SOURCE_READ_CALL, session_source(bm->s), a);
	}
}

/* Everything baretma_region_end does after its reading, out of line so
 * that the reading comes first with no more than its own loads. */
static __attribute__((noinline)) void region_end_after(struct baretma *bm, const char *name,
							const struct reading *b)
{
	struct source_check chk;
	struct region *r;

	if (!owned(bm, "baretma_region_end", name))
		return;
	if (!region_find(&bm->t, name))
		bm->t.unmatched++; /* an end of a name never begun */
	r = region_add(&bm->t, name);
	if (!r) {
		region_reading(&bm->t, b); /* it cleared the counters all the same */
		return;
	}
	region_end(&bm->t, r, b, bm->level);
	if (bm->t.depth)
		return;
	/* the epoch's last region closed: check it, outside every region */
	session_check(bm->s, SOURCE_CHECK_TAMPER | SOURCE_CHECK_OVERFLOW, &chk);
	region_epoch_end(&bm->t, &(struct region_verdict){ .tampered = chk.tampered,
							   .overflow = chk.overflow });
}

/* baretma_region_end on a source read through a call (msr): no hurry */
static __attribute__((noinline)) void region_end_called(struct baretma *bm, const char *name)
{
	struct reading b;

	source_read_as(SOURCE_READ_CALL, session_source(bm->s), &b);
	region_end_after(bm, name, &b);
}

void baretma_region_end(struct baretma *bm, const char *name)
{
	struct reading b;

	if (!bm)
		return;
	/* The inline readings clobber nothing but RAX, RDX and RCX: before
	 * them, no more than the load of bm->read and a branch. */
	switch (bm->read) {
	case SOURCE_READ_TSC:
		source_read_tsc(&b);
		break;
	case SOURCE_READ_RDPMC:
		source_read_rdpmc(&b);
		break;
	case SOURCE_READ_RDPMC_SET:
		source_read_rdpmc_set(bm->t.rs, &b);
		break;
	default:
		region_end_called(bm, name);
		return;
	}
	region_end_after(bm, name, &b);
}

int baretma_region_get(struct baretma *bm, const char *name, struct baretma_result *res)
{
	struct region *r = bm && res ? region_find(&bm->t, name) : NULL;

	if (!bm || !res)
		return fail(-EINVAL, "baretma_region_get: no session or no result");
	if (!r)
		return fail(-ENOENT, "region '%.40s': no such region in this session", name);
	region_result(&bm->t, r, bm->level, res);
	if (r->misuse)
		return fail(-EINVAL, "region '%s': %llu begin/end out of order (a begin of an "
			    "open region, an end of a closed one): those were ignored",
			    r->name, (unsigned long long)r->misuse);
	return 0;
}

int baretma_region_stats(struct baretma *bm, const char *name, struct baretma_region_stats *st)
{
	struct region *r = bm && st ? region_find(&bm->t, name) : NULL;
	int rc;

	if (!bm || !st)
		return fail(-EINVAL, "baretma_region_stats: no session or no result");
	if (!r)
		return fail(-ENOENT, "region '%.40s': no such region in this session", name);
	rc = region_stats(&bm->t, r, bm->level, st);
	if (rc)
		return fail(rc, "region '%s': statistics: %s", r->name, strerror(-rc));
	if (r->misuse)
		return fail(-EINVAL, "region '%s': %llu begin/end out of order (a begin of an "
			    "open region, an end of a closed one): those were ignored",
			    r->name, (unsigned long long)r->misuse);
	return 0;
}

int baretma_misuse(const struct baretma *bm, struct baretma_misuse *m)
{
	if (!bm || !m)
		return fail(-EINVAL, "baretma_misuse: no session or no place for the counts");
	m->foreign_thread = atomic_load_explicit(&bm->foreign_thread, memory_order_relaxed);
	m->foreign_cpu = atomic_load_explicit(&bm->foreign_cpu, memory_order_relaxed);
	m->lost = bm->t.lost;
	m->unmatched = bm->t.unmatched;
	return 0;
}

/* ------------------------------------------------- for the markers */

const struct region_table *api_regions(const struct baretma *bm)
{
	return &bm->t;
}

int api_level(const struct baretma *bm)
{
	return bm->level;
}

const char *baretma_notes(const struct baretma *bm)
{
	if (!bm)
		return "";
	return text_or_empty(bm->lines);
}

const struct session_info *api_info(const struct baretma *bm)
{
	return session_info(bm->s);
}
