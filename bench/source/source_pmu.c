/*
 * bench/source/source_pmu.c - what the rdpmc and msr sources share: both program
 * fixed counter 3 and IA32_PERF_METRICS through the MSR backend (msr/pmu/pmu.h:
 * save, program, the frozen reset, the tamper and overflow checks,
 * restore); they differ only in how a reading is taken.  On a core kind
 * whose Top-down comes from an event recipe (cpu_kind.topdown_source
 * "events") both count the recipe's events instead
 * (bench/source/source_events.c; src->priv holds its state), and so they do
 * where the kind's PERF_METRICS recipe counts events beside fixed counter 3
 * and PERF_METRICS (source_pm_recipe: Sunny Cove).
 */
#include <errno.h>

#include "bench/source/source.h"
#include "msr/sim/msr_sim.h"

enum source_state source_pmu_usable(const struct bench_avail *a, bool rdpmc_always,
				    char **why)
{
	(void)why; /* a->reason says why */
	return a->why == TD_OK ? SOURCE_READY : SOURCE_NO;
}

int source_pmu_open(struct counter_source *src, const struct source_params *p)
{
	const struct cpu_kind *k = p->kind;

	if ((k && k->topdown_level == 0 && k->topdown_recipe) || source_pm_recipe(k))
		return source_events_open(src, p);

	src->pmu = (struct source_pmu){ .cfg = {
		.user_only = p->user_only,
		.force = p->force,
		.perf_metrics = k && k->topdown_level > 0,
		.fixed_ctr3 = k && k->fixed_ctr3,
	} };
	read_set_perf_metrics(&src->rs);
	return 0;
}

int source_pmu_program(struct counter_source *src, struct journal *j, char *why, size_t n)
{
	struct source_pmu *s = &src->pmu;
	uint64_t ovf;
	int rc;

	if (src->priv)
		return source_events_program(src, j, why, n);
	s->cfg.journal = j;
	rc = pmu_program(src->p.dev, src->p.cpu, &s->cfg, &s->saved, why, n);
	if (rc)
		return rc;
	/* What the tamper check reports a change from: what was written. */
	s->gc_now = s->saved.prog_global_ctrl;
	/* An overflow check that cannot be made is not a pass: refuse to
	 * measure (msr_safe allowlists may lack the register); the CLI names
	 * the register (msr_last_fault). */
	return pmu_read_overflow(src->p.dev, src->p.cpu, s->cfg.perf_metrics, &ovf);
}

/* Before each bracket: frozen, the overflow bits verify saw cleared
 * (pmu_reset_frozen: as the kernel, never with the counters live), so every
 * region starts near zero and the 8-bit fields keep their precision. */
int source_pmu_reset(struct counter_source *src)
{
	struct source_pmu *s = &src->pmu;
	int rc;

	if (src->priv)
		return source_events_reset(src);
	rc = s->frozen ? pmu_reset_after_freeze(src->p.dev, src->p.cpu, s->cfg.perf_metrics,
						 s->gc_now, s->ovf_pending)
		       : pmu_reset_frozen(src->p.dev, src->p.cpu, s->cfg.perf_metrics, s->gc_now,
					  s->ovf_pending);
	s->ovf_pending = 0;
	s->frozen = false;
	return rc;
}

/* Fixed counter 3 and PERF_METRICS stopped, the rest of IA32_PERF_GLOBAL_CTRL
 * as the tamper check read it (gc_now), for read_frozen. */
int source_pmu_freeze(struct counter_source *src)
{
	struct source_pmu *s = &src->pmu;
	int rc;

	if (src->priv)
		return source_events_freeze(src);
	rc = pmu_freeze_topdown(src->p.dev, src->p.cpu, s->cfg.perf_metrics, s->gc_now);
	s->frozen = !rc;
	return rc;
}

/*
 * The tamper check: IA32_FIXED_CTR_CTRL's FC3 field and IA32_PERF_GLOBAL_CTRL
 * bits 35/48 read back (pmu_verify).  GLOBAL_CTRL as read goes to gc_now:
 * the next reset writes it back after its frozen window.
 */
static void check_tamper(struct counter_source *src, struct source_check *chk)
{
	struct source_pmu *s = &src->pmu;
	uint64_t fcc = 0, gc = 0;
	int rc = pmu_verify(src->p.dev, src->p.cpu, &s->cfg, &fcc, &gc);

	if (rc >= 0)
		s->gc_now = gc;
	if (rc == 0)
		return;
	chk->tampered = true;
	chk->tamper_err = rc < 0 ? rc : 0;
	chk->fcc_from = s->saved.prog_fixed_ctr_ctrl;
	chk->fcc_to = fcc;
	chk->gc_from = s->saved.prog_global_ctrl;
	chk->gc_to = gc;
}

/*
 * The overflow check: IA32_PERF_GLOBAL_STATUS bits 35/48 (pmu_read_overflow).
 * Set, PERF_METRICS returns invalid values until both are re-synchronised
 * (linux commit 59a854e2f3b9): the next reset clears them (ovf_pending).
 */
static void check_overflow(struct counter_source *src, struct source_check *chk)
{
	struct source_pmu *s = &src->pmu;
	uint64_t bits = 0;
	int rc = pmu_read_overflow(src->p.dev, src->p.cpu, s->cfg.perf_metrics, &bits);

	s->ovf_pending |= bits;
	chk->overflow = rc || bits;
	chk->overflow_err = rc;
}

int source_pmu_verify(struct counter_source *src, unsigned what, struct source_check *chk)
{
	if (src->priv)
		return source_events_verify(src, what, chk);
	*chk = (struct source_check){ 0 };
	if (what & SOURCE_CHECK_TAMPER)
		check_tamper(src, chk);
	if (what & SOURCE_CHECK_OVERFLOW)
		check_overflow(src, chk);
	return 0;
}

/* The journal's owner restores (journal_restore: registers, then settings;
 * journal_restore_regs between blocks): programming needed the journal
 * (session_program), so there is nothing to undo here. */
int source_pmu_close(struct counter_source *src)
{
	return src->priv ? source_events_close(src) : 0;
}

int source_pmu_pass(struct counter_source *src, unsigned pass, char *why, size_t n)
{
	if (!src->priv)
		return pass == 0 ? 0 : -EINVAL;
	return source_events_set_pass(src, pass, why, n);
}

bool source_pmu_simulated(const struct counter_source *src)
{
	return msr_sim_profile_of(src->p.dev) != NULL;
}
