/*
 * msr/pmu/pmu.c - program fixed counter 3 (TOPDOWN.SLOTS) and IA32_PERF_METRICS
 * on one CPU, save (in the run's journal too) and restore what was there,
 * and check that nobody changed it meanwhile (pmu_verify).  Restoring on
 * fatal signals is the journal's guard (msr/journal/journal.h).
 *
 * Order: msr/pmu/pmu.h, from Intel PCM's programming (src/cpucounters.cpp) and the kernel
 * (arch/x86/events/intel/core.c: intel_pmu_disable_all writes GLOBAL_CTRL=0,
 * icl_set_topdown_event_period writes FC3 then PERF_METRICS,
 * intel_pmu_ack_status writes the reset MSR, intel_pmu_enable_all writes
 * GLOBAL_CTRL last).  Only the FC3 field (bits 15:12) of IA32_FIXED_CTR_CTRL
 * changes (linux perf_event.h intel_fixed_bits_by_idx); fields of FC0-2 may belong to firmware or
 * perf and are kept bit for bit.
 *
 * IA32_PERF_METRICS and bit 48 are touched only with cfg->perf_metrics:
 * without the feature, accessing 0x329 or setting bit 48 is a #GP
 * (linux commit "perf/x86/intel: Check perf metrics feature for each CPU":
 * the bit "to the GLOBAL_CTRL register of a CPU, which doesn't support [...]
 * perf metrics [...] causes MSR access error"; linux commit 59a854e2f3b9).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "msr/regs/intel_regs.h"
#include "msr/pmu/pmu.h"

static uint64_t fc3_field(uint64_t fixed_ctr_ctrl)
{
	return (fixed_ctr_ctrl & FIXED_CTR3_FIELD_MASK) >> FIXED_CTR3_FIELD_SHIFT;
}

uint64_t pmu_fc3_field_get(uint64_t fixed_ctr_ctrl)
{
	return fc3_field(fixed_ctr_ctrl);
}

uint64_t pmu_fc3_field_set(uint64_t fixed_ctr_ctrl, uint64_t field)
{
	return (fixed_ctr_ctrl & ~FIXED_CTR3_FIELD_MASK) |
	       (field & FIXED_CTR_CTRL_FIELD_MASK) << FIXED_CTR3_FIELD_SHIFT;
}

/* Append "; "-separated reasons to @why. */
static void why_add(char *why, size_t whylen, const char *text)
{
	size_t used;

	if (!why || !whylen)
		return;
	used = strlen(why);
	snprintf(why + used, whylen - used, "%s%s", used ? "; " : "", text);
}

/*
 * -EBUSY (with the reason) when FC3 or PERF_METRICS is in use, else 0.
 * In use means FC3's field of IA32_FIXED_CTR_CTRL (bits 15:12, linux
 * perf_event.h intel_fixed_bits_by_idx) is not 0: that field decides whether fixed counter 3
 * counts, and PERF_METRICS only follows it.  IA32_PERF_GLOBAL_CTRL bits 35
 * and 48 say nothing about an owner: Linux perf leaves them set on an idle
 * PMU (intel_pmu_enable_all writes GLOBAL_CTRL = x86_pmu.intel_ctrl, every
 * counter's enable bit plus bit 48 where PERF_METRICS exists; kernel
 * arch/x86/events/intel/core.c intel_pmu_init, intel_pmu_enable_all), so a rule on
 * them would refuse every idle Linux machine.
 */
static int in_use(uint64_t fixed_ctr_ctrl, char *why, size_t whylen)
{
	char buf[96];

	if (why && whylen)
		why[0] = '\0';
	if (!fc3_field(fixed_ctr_ctrl))
		return 0;
	snprintf(buf, sizeof(buf), "IA32_FIXED_CTR_CTRL[15:12]=0x%x (fixed counter 3 enabled)",
		 (unsigned)fc3_field(fixed_ctr_ctrl));
	why_add(why, whylen, buf);
	return -EBUSY;
}

int pmu_check_in_use(struct msr_dev *dev, unsigned cpu, char *why, size_t whylen)
{
	uint64_t fcc;
	int rc;

	if (why && whylen)
		why[0] = '\0';
	rc = msr_read(dev, cpu, IA32_FIXED_CTR_CTRL, &fcc);
	if (!rc)
		rc = in_use(fcc, why, whylen);
	return rc;
}

/* Step 1 of pmu.h: read what we are going to change. */
static int save_regs(struct msr_dev *dev, unsigned cpu, struct pmu_saved *s)
{
	int rc;

	rc = msr_read(dev, cpu, IA32_PERF_GLOBAL_CTRL, &s->global_ctrl);
	if (!rc)
		rc = msr_read(dev, cpu, IA32_FIXED_CTR_CTRL, &s->fixed_ctr_ctrl);
	if (!rc)
		rc = msr_read(dev, cpu, IA32_FIXED_CTR3, &s->fixed_ctr3);
	if (!rc && s->perf_metrics)
		rc = msr_read(dev, cpu, IA32_PERF_METRICS, &s->perf_metrics_val);
	return rc;
}

/* Steps 2-6 of pmu.h; the values of steps 3 and 6 go to s->prog_*. */
static int program_regs(struct msr_dev *dev, unsigned cpu, const struct pmu_config *cfg,
			struct pmu_saved *s)
{
	uint64_t field = (cfg->user_only ? FIXED_CTR_CTRL_EN_USR
					 : FIXED_CTR_CTRL_EN_OS | FIXED_CTR_CTRL_EN_USR) |
			 (cfg->metrics_clear ? FIXED_CTR_CTRL_ANYTHR : 0);
	uint64_t fcc = pmu_fc3_field_set(s->fixed_ctr_ctrl, field);
	uint64_t enable = GLOBAL_CTRL_EN_FIXED3;
	uint64_t keep = s->global_ctrl;
	int rc;

	if (cfg->perf_metrics)
		enable |= GLOBAL_CTRL_EN_PERF_METRICS;
	else
		keep &= ~GLOBAL_CTRL_EN_PERF_METRICS; /* never write bit 48 without the feature */
	s->prog_fixed_ctr_ctrl = fcc;
	s->prog_global_ctrl = keep | enable;
	rc = msr_write(dev, cpu, IA32_PERF_GLOBAL_CTRL, 0);
	if (!rc)
		rc = msr_write(dev, cpu, IA32_FIXED_CTR_CTRL, fcc);
	if (!rc)
		rc = pmu_reset_counts(dev, cpu, cfg->perf_metrics);
	/* The reset MSR takes the GLOBAL_STATUS bit positions (intel_pmu_ack_status). */
	if (!rc)
		rc = msr_write(dev, cpu, IA32_PERF_GLOBAL_STATUS_RESET, enable);
	if (!rc)
		rc = msr_write(dev, cpu, IA32_PERF_GLOBAL_CTRL, keep | enable);
	return rc;
}

/* The values of step 1 into the journal, in the order read (pmu.h). */
static int journal_saved(struct journal *j, const struct pmu_saved *s)
{
	const uint64_t val[PMU_JOURNAL_NREGS] = {
		s->global_ctrl, s->fixed_ctr_ctrl, s->fixed_ctr3, s->perf_metrics_val,
	};
	struct journal_reg r[PMU_JOURNAL_NREGS];

	for (int i = 0; i < PMU_JOURNAL_NREGS; i++)
		r[i] = (struct journal_reg){ .cpu = s->cpu, .msr = pmu_journal_regs[i],
					     .saved = val[i] };
	return j ? journal_save_regs(j, r, s->perf_metrics ? 4 : 3) : 0;
}

int pmu_journal_save(struct msr_dev *dev, unsigned cpu, const struct pmu_config *cfg)
{
	struct pmu_saved s = { .cpu = cpu, .perf_metrics = cfg->perf_metrics };
	int rc;

	if (!cfg->journal)
		return -EINVAL;
	if (!cfg->fixed_ctr3)
		return 0;
	rc = save_regs(dev, cpu, &s);
	return rc ? rc : journal_saved(cfg->journal, &s);
}

int pmu_program(struct msr_dev *dev, unsigned cpu, const struct pmu_config *cfg,
		struct pmu_saved *saved, char *why, size_t whylen)
{
	struct pmu_saved s = { .cpu = cpu, .perf_metrics = cfg->perf_metrics };
	int rc;

	if (why && whylen)
		why[0] = '\0';
	saved->programmed = false;
	atomic_signal_fence(memory_order_seq_cst);
	*saved = s; /* programmed stays false */
	if (!cfg->fixed_ctr3)
		return -ENODEV;
	rc = save_regs(dev, cpu, &s);
	if (rc)
		return rc;
	rc = in_use(s.fixed_ctr_ctrl, why, whylen);
	if (rc && !cfg->force)
		return rc;
	/* On disk before the first write, or nothing is written. */
	rc = journal_saved(cfg->journal, &s);
	if (rc)
		return rc;
	/* Every saved value is in place before a signal handler may see
	 * programmed == true (pmu_guard_restore_all). */
	*saved = s;
	atomic_signal_fence(memory_order_seq_cst);
	saved->programmed = true;
	atomic_signal_fence(memory_order_seq_cst);
	rc = program_regs(dev, cpu, cfg, saved);
	/* Best effort; the write error is the news.  With a journal its owner
	 * restores (journal_restore writes the same registers): restoring here
	 * too would write every register twice. */
	if (rc && !cfg->journal)
		pmu_restore(dev, saved);
	return rc;
}

/* FC3 first, then PERF_METRICS: kernel icl_set_topdown_event_period,
 * "The fixed counter 3 has to be written before the PERF_METRICS"
 * (linux arch/x86/events/intel/core.c). */
int pmu_reset_counts(struct msr_dev *dev, unsigned cpu, bool perf_metrics)
{
	int rc = msr_write(dev, cpu, IA32_FIXED_CTR3, 0);

	if (!rc && perf_metrics)
		rc = msr_write(dev, cpu, IA32_PERF_METRICS, 0);
	return rc;
}

static void keep_first(int *rc, int r)
{
	if (!*rc)
		*rc = r;
}

/* The GLOBAL_CTRL bits (and, at the same positions, GLOBAL_STATUS bits)
 * of fixed counter 3 and PERF_METRICS: 35, and 48 where the CPU has it. */
static uint64_t own_bits(bool perf_metrics)
{
	return GLOBAL_CTRL_EN_FIXED3 | (perf_metrics ? GLOBAL_CTRL_EN_PERF_METRICS : 0);
}

int pmu_freeze_topdown(struct msr_dev *dev, unsigned cpu, bool perf_metrics,
		       uint64_t global_ctrl)
{
	if (!perf_metrics)
		global_ctrl &= ~GLOBAL_CTRL_EN_PERF_METRICS;
	return msr_write(dev, cpu, IA32_PERF_GLOBAL_CTRL, global_ctrl & ~own_bits(perf_metrics));
}

int pmu_reset_after_freeze(struct msr_dev *dev, unsigned cpu, bool perf_metrics,
			   uint64_t global_ctrl, uint64_t clear_status)
{
	int rc = 0;

	if (!perf_metrics)
		global_ctrl &= ~GLOBAL_CTRL_EN_PERF_METRICS;
	clear_status &= own_bits(perf_metrics);
	if (clear_status)
		rc = msr_write(dev, cpu, IA32_PERF_GLOBAL_STATUS_RESET, clear_status);
	if (!rc)
		rc = msr_write(dev, cpu, IA32_FIXED_CTR3, 0);
	if (!rc && perf_metrics)
		rc = msr_write(dev, cpu, IA32_PERF_METRICS, 0);
	keep_first(&rc, msr_write(dev, cpu, IA32_PERF_GLOBAL_CTRL, global_ctrl));
	return rc;
}

int pmu_reset_frozen(struct msr_dev *dev, unsigned cpu, bool perf_metrics,
		     uint64_t global_ctrl, uint64_t clear_status)
{
	int rc = pmu_freeze_topdown(dev, cpu, perf_metrics, global_ctrl);

	if (rc)
		return rc; /* nothing frozen, nothing to undo */
	return pmu_reset_after_freeze(dev, cpu, perf_metrics, global_ctrl, clear_status);
}

/* Every PMI bit of IA32_FIXED_CTR_CTRL (bit 4i+3 of each field): never
 * set here (msr/pmu/pmu.h: no PMI is ever armed). */
static uint64_t pmi_bits(void)
{
	uint64_t m = 0;

	for (unsigned i = 0; i < 64 / FIXED_CTR_CTRL_STRIDE; i++)
		m |= FIXED_CTR_CTRL_PMI << FIXED_CTR_CTRL_SHIFT(i);
	return m;
}

int pmu_freeze(struct msr_dev *dev, unsigned cpu)
{
	return msr_write(dev, cpu, IA32_PERF_GLOBAL_CTRL, 0);
}

int pmu_clear_overflow(struct msr_dev *dev, unsigned cpu, bool perf_metrics)
{
	return msr_write(dev, cpu, IA32_PERF_GLOBAL_STATUS_RESET, own_bits(perf_metrics));
}

/* What a region may not ask: a PMI, FC3's field among the others, bit 48
 * without PERF_METRICS. */
static bool region_ok(const struct pmu_region *r)
{
	uint64_t fields = pmu_fc3_field_set(r->other_fields, r->field);

	return !(fields & pmi_bits()) && !(r->other_fields & FIXED_CTR3_FIELD_MASK) &&
	       (r->perf_metrics || (!r->metrics &&
				    !(r->other_enable & GLOBAL_CTRL_EN_PERF_METRICS)));
}

int pmu_region_enable(struct msr_dev *dev, unsigned cpu, const struct pmu_region *r)
{
	uint64_t enable = GLOBAL_CTRL_EN_FIXED3 | r->other_enable |
			  (r->metrics ? GLOBAL_CTRL_EN_PERF_METRICS : 0);

	return region_ok(r) ? msr_write(dev, cpu, IA32_PERF_GLOBAL_CTRL, enable) : -EINVAL;
}

int pmu_region_start(struct msr_dev *dev, unsigned cpu, const struct pmu_region *r)
{
	uint64_t fcc = 0;
	int rc;

	if (!region_ok(r))
		return -EINVAL;
	rc = pmu_freeze(dev, cpu);
	if (!rc)
		rc = msr_read(dev, cpu, IA32_FIXED_CTR_CTRL, &fcc);
	if (!rc)
		rc = msr_write(dev, cpu, IA32_FIXED_CTR_CTRL,
			       pmu_fc3_field_set(fcc, r->field) | r->other_fields);
	if (!rc)
		rc = pmu_reset_counts(dev, cpu, r->perf_metrics);
	return rc ? rc : pmu_region_enable(dev, cpu, r);
}

int pmu_read_overflow(struct msr_dev *dev, unsigned cpu, bool perf_metrics, uint64_t *bits)
{
	uint64_t status = 0;
	int rc = msr_read(dev, cpu, IA32_PERF_GLOBAL_STATUS, &status);

	*bits = rc ? 0 : status & own_bits(perf_metrics);
	return rc;
}

int pmu_restore(struct msr_dev *dev, struct pmu_saved *saved)
{
	unsigned cpu;
	int rc = 0;

	if (!saved || !saved->programmed)
		return 0;
	cpu = saved->cpu;
	keep_first(&rc, msr_write(dev, cpu, IA32_PERF_GLOBAL_CTRL, 0));
	keep_first(&rc, msr_write(dev, cpu, IA32_FIXED_CTR_CTRL, saved->fixed_ctr_ctrl));
	keep_first(&rc, msr_write(dev, cpu, IA32_FIXED_CTR3, saved->fixed_ctr3));
	if (saved->perf_metrics)
		keep_first(&rc, msr_write(dev, cpu, IA32_PERF_METRICS,
					  saved->perf_metrics_val));
	/* The overflow bits the run caused (write-1-to-clear: intel_pmu_ack_status).
	 * Best effort: GLOBAL_STATUS is no saved register, and a CPU that
	 * refuses this write (it refused step 5 of programming too) has no
	 * bit a retry by "pmu restore" could clear. */
	(void)msr_write(dev, cpu, IA32_PERF_GLOBAL_STATUS_RESET, own_bits(saved->perf_metrics));
	keep_first(&rc, msr_write(dev, cpu, IA32_PERF_GLOBAL_CTRL, saved->global_ctrl));
	if (!rc)
		saved->programmed = false;
	return rc;
}

/* The FC3 field and the GLOBAL_CTRL bits pmu_program() sets (program_regs). */
static void programmed_bits(const struct pmu_config *cfg, uint64_t *field, uint64_t *bits)
{
	*field = (cfg->user_only ? FIXED_CTR_CTRL_EN_USR
				 : FIXED_CTR_CTRL_EN_OS | FIXED_CTR_CTRL_EN_USR) |
		 (cfg->metrics_clear ? FIXED_CTR_CTRL_ANYTHR : 0);
	*bits = GLOBAL_CTRL_EN_FIXED3 | (cfg->perf_metrics ? GLOBAL_CTRL_EN_PERF_METRICS : 0);
}

/* @fcc and @gc against what @cfg programmed: 0 as programmed, 1 changed. */
static int verify_values(const struct pmu_config *cfg, uint64_t fcc, uint64_t gc)
{
	uint64_t field, bits;

	programmed_bits(cfg, &field, &bits);
	if (fc3_field(fcc) != field)
		return 1;
	return (gc & (GLOBAL_CTRL_EN_FIXED3 | GLOBAL_CTRL_EN_PERF_METRICS)) != bits;
}

int pmu_verify(struct msr_dev *dev, unsigned cpu, const struct pmu_config *cfg,
	       uint64_t *fixed_ctr_ctrl, uint64_t *global_ctrl)
{
	uint64_t fcc = 0, gc = 0;
	int rc = msr_read(dev, cpu, IA32_FIXED_CTR_CTRL, &fcc);

	if (!rc)
		rc = msr_read(dev, cpu, IA32_PERF_GLOBAL_CTRL, &gc);
	if (fixed_ctr_ctrl)
		*fixed_ctr_ctrl = fcc;
	if (global_ctrl)
		*global_ctrl = gc;
	return rc ? rc : verify_values(cfg, fcc, gc);
}

int pmu_verify_gc(struct msr_dev *dev, unsigned cpu, const struct pmu_config *cfg,
		  uint64_t global_ctrl, uint64_t *fixed_ctr_ctrl)
{
	uint64_t fcc = 0;
	int rc = msr_read(dev, cpu, IA32_FIXED_CTR_CTRL, &fcc);

	if (fixed_ctr_ctrl)
		*fixed_ctr_ctrl = fcc;
	return rc ? rc : verify_values(cfg, fcc, global_ctrl);
}
