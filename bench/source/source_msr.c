/*
 * bench/source/source_msr.c - the msr source: pread of IA32_FIXED_CTR3 and
 * IA32_PERF_METRICS through the MSR backend (two system calls per reading:
 * its bracket costs microseconds, which the harness says), programmed as
 * the rdpmc source is (bench/source/source_pmu.c).  Works where user RDPMC does
 * not, and on a state file (a dry run).
 */
#include <string.h>

#include "bench/source/source.h"

/* The values of read_set_perf_metrics, in its order. */
static void msr_src_read(struct counter_source *src, struct reading *r)
{
	if (src->priv) { /* an event recipe's counters (source_events.c) */
		source_events_read_msr(src, r);
		return;
	}
	/* Errors show up as zero slots / a bad sum and are flagged by counting. */
	if (msr_read(src->p.dev, src->p.cpu, IA32_FIXED_CTR3, &r->v[0]))
		r->v[0] = 0;
	if (msr_read(src->p.dev, src->p.cpu, IA32_PERF_METRICS, &r->v[1]))
		r->v[1] = 0;
	r->tsc = rdtsc_fenced();
}

/* An interval end of stat (counter_source_ops.read_frozen): checked, frozen,
 * read, the overflow checked; the next reset zeroes and restarts them. */
static int msr_src_read_frozen(struct counter_source *src, struct reading *r,
			       struct source_check *chk)
{
	struct source_check ovf;
	int rc;

	memset(r, 0, sizeof(*r));
	source_pmu_verify(src, SOURCE_CHECK_TAMPER, chk);
	if (chk->tampered)
		return 0;
	if ((rc = source_pmu_freeze(src)))
		return rc;
	msr_src_read(src, r);
	source_pmu_verify(src, SOURCE_CHECK_OVERFLOW, &ovf);
	chk->overflow = ovf.overflow;
	chk->overflow_err = ovf.overflow_err;
	return 0;
}

const struct counter_source_ops source_msr = {
	.id = BENCH_BACKEND_MSR,
	.name = "msr",
	.topdown = true,
	.writes_msrs = true,
	.how = "pread(2) of the msr device",
	.cost = "each bracket read is two pread()s of the msr device",
	.fault = TD_OK,
	.read_inline = SOURCE_READ_CALL,
	.probe = NULL,
	.usable = source_pmu_usable,
	.open = source_pmu_open,
	.program = source_pmu_program,
	.reset = source_pmu_reset,
	.read = msr_src_read,
	.read_frozen = msr_src_read_frozen,
	.verify = source_pmu_verify,
	.close = source_pmu_close,
	.pass = source_pmu_pass,
	.simulated = source_pmu_simulated,
};
