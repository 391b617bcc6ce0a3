/*
 * bench/measure_run.c - one kernel's repetitions on a session as it is
 * programmed now (bench_run_kernel, bench/measure_int.h): the inner loop
 * that bench/measure.c runs once per kernel and bench/measure_pass.c once
 * per kernel and pass.  It touches no MSR and no source itself.
 *
 * Per kernel: warm-up repetitions, then N measured ones.  Before each
 * repetition, outside the bracket, the source resets fixed counter 3 and
 * then IA32_PERF_METRICS (kernel order, icl_set_topdown_event_period) with both
 * frozen (pmu_reset_frozen: as the kernel, never with the counters live),
 * so every region starts near zero and the 8-bit fields keep their
 * precision.  Each bracket
 * is (read a) kernel (read b); a region's field slots are
 * slots_b*field_b/S_b - slots_a*field_a/S_a (linux topdown.txt, each
 * reading normalised by its level-1 sum: msr/recipe/topdown.h).  The empty
 * bracket's cost is subtracted in slots per field and in TSC ticks, never
 * from percentages.
 *
 * Tamper check: before the first repetition of a kernel and after every
 * repetition, outside the bracket, IA32_FIXED_CTR_CTRL's FC3 field and
 * IA32_PERF_GLOBAL_CTRL bits 35/48 are read back (pmu_verify) - with the
 * rdpmc backend too.  perf, the NMI watchdog or another tool rewriting
 * them (linux kernel/watchdog_perf.c, intel_pmu_enable_all) makes every repetition with a failed
 * check before or after it invalid: counted as tampered, never reported
 * as numbers.  TSC timing is not a PMU count and keeps every repetition.
 *
 * Overflow check: after every repetition, outside the bracket,
 * IA32_PERF_GLOBAL_STATUS is read (pmu_read_overflow).  Bit 35 (fixed
 * counter 3) or bit 48 (OVF_PERF_METRICS) set means the two must be
 * re-synchronised or PERF_METRICS returns invalid values (linux commit
 * 59a854e2f3b9): the repetition is invalid (counted as overflow), and the next
 * reset clears the bits through IA32_PERF_GLOBAL_STATUS_RESET inside its
 * frozen window before zeroing FC3 then PERF_METRICS.  If a PMI handler
 * (perf, the NMI watchdog) saw bit 48 first, it acked it and zeroed both
 * counters (handle_pmi_common -> update_topdown_event): the status shows
 * nothing, and the end reading is a consistent reading of the slots since
 * the zeroing.  Only a zeroing in the region's first few slots leaves the
 * end below the begin reading (TD_FLAG_SLOTS_BACK, invalid); otherwise it
 * is NOT detected (man baretma-bench, "Which repetitions count": what is not detected and why).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/measure_int.h"
#include "bench/region.h"
#include "bench/session.h"
#include "bench/tma.h"
#include "msr/regs/intel_regs.h"

/* The tamper check's verdict: true when the counters were changed.  The
 * first change is kept for the message. */
static bool tampered(struct bench_session *s, const struct bench_kernel *k,
		     const struct source_check *chk)
{
	struct bench_tamper_seen *t = &s->tamper;

	if (!chk->tampered)
		return false;
	if (!t->seen) {
		*t = (struct bench_tamper_seen){ .seen = true, .err = chk->tamper_err,
			.kernel = k->name, .fcc_from = chk->fcc_from, .fcc_to = chk->fcc_to,
			.gc_from = chk->gc_from, .gc_to = chk->gc_to };
		if (chk->tamper_why)
			snprintf(t->why, sizeof(t->why), "%s", chk->tamper_why);
	}
	return true;
}

/* The overflow check's verdict (or GLOBAL_STATUS could not be read: a
 * check that could not be made is not a pass); the first error is kept. */
static bool overflowed(struct bench_session *s, const struct source_check *chk)
{
	if (chk->overflow_err && !s->ovf_err)
		s->ovf_err = chk->overflow_err;
	return chk->overflow;
}

/*
 * Run one kernel: warm-up, then reps samples.  The kernel is a region of
 * the session, named by the kernel, in an epoch of its own per repetition
 * (bench/region.h: what baretma_region_begin/end do): the counts are reset
 * before it (session_begin), read after it, then checked; each repetition's
 * decoded pair is kept for the statistics.  A repetition is tampered with
 * when the check before it (the previous one's, or the kernel's first) or
 * after it failed.
 */
int bench_run_kernel(struct bench_session *s, const struct bench_kernel *k,
		     struct bench_kernel_ctx *c, struct rep_sample *out, unsigned reps)
{
	struct session *ses = s->ses;
	int level = session_topdown(ses) ? (s->res->level ? s->res->level : 1) : 0;
	struct region *reg = region_add(&s->regions, k->name);
	struct source_check chk;
	bool before, after;
	int rc;

	if (!reg)
		return -ENOSPC;
	session_check(ses, SOURCE_CHECK_TAMPER, &chk);
	before = !tampered(s, k, &chk);
	for (unsigned i = 0; i < s->opt->warmup + reps; i++) {
		struct reading *a = region_open(&s->regions, reg), b;
		struct region_verdict v;

		rc = a ? session_begin(ses, a) : -EALREADY;
		if (rc) {
			if (a)
				region_unopen(&s->regions, reg);
			return rc;
		}
		k->run(c);
		session_read(ses, &b);
		region_end(&s->regions, reg, &b, level);
		session_check(ses, SOURCE_CHECK_TAMPER | SOURCE_CHECK_OVERFLOW, &chk);
		after = !tampered(s, k, &chk);
		v = (struct region_verdict){ .tampered = !before || !after,
					     .overflow = overflowed(s, &chk) };
		before = after;
		region_epoch_end(&s->regions, &v);
		if (i < s->opt->warmup)
			continue;
		struct rep_sample *o = &out[i - s->opt->warmup];
		o->tsc = reg->last.tsc;
		if (!level)
			continue;
		o->tampered = v.tampered;
		o->overflow = v.overflow;
		o->c = reg->last.c;
		region_last_decode(&s->regions, reg, level, &o->slots, &o->flags);
	}
	return 0;
}
