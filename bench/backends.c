/*
 * bench/backends.c - the counter sources behind struct bench_backend:
 * rdpmc (RDPMC of fixed counter 3 and PERF_METRICS on the pinned CPU,
 * LFENCE-serialised: msr/rdpmc.h), msr (pread of IA32_FIXED_CTR3 and
 * IA32_PERF_METRICS through the MSR backend) and tsc (timing only).
 * rdpmc and msr program the counters the same way (msr/pmu.h: start,
 * the frozen reset between repetitions, restore); a perf_event source
 * fits beside them.
 */
#include <errno.h>
#include <string.h>

#include "bench/bench.h"
#include "msr/intel_regs.h"
#include "msr/rdpmc.h"

static int td_start(struct bench_session *s)
{
	const struct cpu_kind *k = cpu_info_kind_of(&s->res->cpu, s->res->cpu_used);
	uint64_t ovf;
	int rc;

	s->cfg = (struct pmu_config){
		.user_only = s->opt->user_only,
		.force = s->opt->force,
		.perf_metrics = k && k->topdown_level > 0,
		.fixed_ctr3 = k && k->fixed_ctr3,
		.journal = s->journal,
	};
	rc = pmu_program(s->dev, s->res->cpu_used, &s->cfg, &s->saved, s->res->avail.reason,
			 sizeof(s->res->avail.reason));
	if (rc)
		return rc;
	/* What the tamper check reports a change from: what was written. */
	s->prog_fcc = s->saved.prog_fixed_ctr_ctrl;
	s->prog_gc = s->saved.prog_global_ctrl;
	s->gc_now = s->prog_gc;
	/* An overflow check that cannot be made is not a pass: refuse to
	 * measure (msr_safe allowlists may lack the register); the CLI names
	 * the register (msr_last_fault). */
	return pmu_read_overflow(s->dev, s->res->cpu_used, s->cfg.perf_metrics, &ovf);
}

static int td_reset(struct bench_session *s)
{
	int rc = pmu_reset_frozen(s->dev, s->res->cpu_used, s->cfg.perf_metrics, s->gc_now,
				  s->ovf_pending);

	s->ovf_pending = 0;
	return rc;
}

/* With a journal the caller restores (journal_restore: registers, then settings). */
static int td_stop(struct bench_session *s)
{
	return s->journal ? 0 : pmu_restore(s->dev, &s->saved);
}

static void rdpmc_read(struct bench_session *s, struct bench_reading *r)
{
	r->slots = rdpmc_fenced(RDPMC_ECX_SLOTS);
	r->metrics = rdpmc_fenced(RDPMC_PERF_METRICS);
	r->tsc = rdtsc_fenced();
}

static void msr_read_pair(struct bench_session *s, struct bench_reading *r)
{
	/* Errors show up as zero slots / a bad sum and are flagged by decoding. */
	if (msr_read(s->dev, s->res->cpu_used, IA32_FIXED_CTR3, &r->slots))
		r->slots = 0;
	if (msr_read(s->dev, s->res->cpu_used, IA32_PERF_METRICS, &r->metrics))
		r->metrics = 0;
	r->tsc = rdtsc_fenced();
}

static int no_op(struct bench_session *s)
{
	return 0;
}

static void tsc_read(struct bench_session *s, struct bench_reading *r)
{
	r->slots = r->metrics = 0;
	r->tsc = rdtsc_fenced();
}

static const struct bench_backend backends[] = {
	{ BENCH_BACKEND_RDPMC, "rdpmc", true, td_start, td_reset, rdpmc_read, td_stop },
	{ BENCH_BACKEND_MSR, "msr", true, td_start, td_reset, msr_read_pair, td_stop },
	{ BENCH_BACKEND_TSC, "tsc", false, no_op, no_op, tsc_read, no_op },
};

const char *bench_backend_name(enum bench_backend_id id)
{
	static const char *const names[] = { "auto", "rdpmc", "msr", "tsc" };
	return (unsigned)id < sizeof(names) / sizeof(names[0]) ? names[id] : "?";
}

int bench_backend_parse(const char *s, enum bench_backend_id *id)
{
	for (int i = BENCH_BACKEND_AUTO; i <= BENCH_BACKEND_TSC; i++)
		if (s && !strcmp(s, bench_backend_name((enum bench_backend_id)i))) {
			*id = (enum bench_backend_id)i;
			return 0;
		}
	return -EINVAL;
}

const struct bench_backend *bench_backend_get(enum bench_backend_id id)
{
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (backends[i].id == id)
			return &backends[i];
	return NULL;
}
