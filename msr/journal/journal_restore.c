/*
 * msr/journal/journal_restore.c - restoring what a run journal saved (order and
 * rules: msr/journal/journal.h), and removing its file, for journal_restore,
 * journal_restore_data and the signal handler (msr/journal/guard_signals.c).
 * Async-signal-safe: it only reads the arrays journal_begin() allocated
 * (msr/journal/journal.c), no malloc, no stdio.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

#include "msr/regs/amd_regs.h"
#include "msr/regs/intel_regs.h"
#include "msr/journal/journal.h"
#include "msr/journal/journal_int.h"
#include "msr/journal/journal_rules.h"

/* ------------------------------------------------------------ restoring */

static void keep_first(int *rc, int r)
{
	if (!*rc)
		*rc = r;
}

/* From the CPU's first register on (journal_data.cpu_first): a write
 * gate's look-up reads that CPU's registers, not every CPU's before them
 * (72 CPUs: ~700 instructions a write, each interval end of stat's four
 * writes a CPU). */
static bool has_reg(const struct journal_data *d, unsigned cpu, uint32_t msr)
{
	int i = 0, n = d->nregs;

	if (d->cpu_first && (cpu >= JOURNAL_MAX_CPUS || (i = d->cpu_first[cpu]) < 0))
		return false;
	for (; i < n; i++)
		if (d->regs[i].cpu == cpu && d->regs[i].msr == msr)
			return true;
	return false;
}

/* The GLOBAL_STATUS overflow bits a run that programmed fixed counter 3
 * (it saved IA32_FIXED_CTR_CTRL and IA32_FIXED_CTR3: msr/pmu/pmu.h) may have
 * caused: bit 35, and bit 48 when it saved IA32_PERF_METRICS (writing bit
 * 48 elsewhere could #GP: linux commit "perf/x86/intel: Check perf metrics
 * feature for each CPU").  0 for other journals. */
static uint64_t fc3_overflow_bits(const struct journal_data *d, unsigned cpu)
{
	if (!has_reg(d, cpu, IA32_FIXED_CTR_CTRL) || !has_reg(d, cpu, IA32_FIXED_CTR3))
		return 0;
	return GLOBAL_STATUS_OVF_FIXED3 |
	       (has_reg(d, cpu, IA32_PERF_METRICS) ? GLOBAL_STATUS_OVF_PERF_METRICS : 0);
}

/* The overflow bit of the counter register @msr (msr/pmu/pmu_gp.h: Intel
 * GLOBAL_STATUS bit x for IA32_PMCx / IA32_A_PMCx, 32+i for
 * IA32_FIXED_CTRi other than 3; AMD GLOBAL_STATUS bit x for PERF_CTRx),
 * in *@intel or *@amd. */
static void counter_overflow_bit(uint32_t msr, uint64_t *intel, uint64_t *amd)
{
	if (msr >= IA32_PMC0 && msr < IA32_PMC0 + INTEL_GP_ARCH_MAX)
		*intel |= 1ull << (msr - IA32_PMC0);
	else if (msr >= IA32_A_PMC0 && msr < IA32_A_PMC0 + INTEL_GP_ARCH_MAX)
		*intel |= 1ull << (msr - IA32_A_PMC0);
	else if (msr >= IA32_FIXED_CTR0 && msr < IA32_FIXED_CTR0 + INTEL_FIXED_ARCH_MAX &&
		 msr != IA32_FIXED_CTR3)
		*intel |= 1ull << GLOBAL_FIXED_BIT(msr - IA32_FIXED_CTR0);
	else if (msr >= AMD_PERF_CTR0 && msr < AMD_PERF_CTR(AMD_GP_MAX) &&
		 (msr - AMD_PERF_CTR0) % 2 == 0)
		*amd |= 1ull << ((msr - AMD_PERF_CTR0) / 2);
}

/* The overflow bits a run or enable journal's counters of @cpu may have
 * caused (msr/journal/journal.h "Restore order"), Intel's and AMD's; none for
 * other journals. */
static void overflow_bits(const struct journal_data *d, unsigned cpu, uint64_t *intel,
			  uint64_t *amd)
{
	*intel = *amd = 0;
	if (d->kind != JOURNAL_RUN && d->kind != JOURNAL_ENABLE)
		return;
	*intel = fc3_overflow_bits(d, cpu);
	for (int i = 0; i < d->nregs; i++)
		if (d->regs[i].cpu == cpu)
			counter_overflow_bit(d->regs[i].msr, intel, amd);
}

/* One CPU: the global enable register (IA32_PERF_GLOBAL_CTRL or AMD's
 * PERF_CNTR_GLOBAL_CTL) = 0 first (when saved with other registers: the
 * freeze guards them, as intel_pmu_disable_all / amd_pmu_v2_disable_all
 * do before the kernel reprograms counters; alone it is written once, its
 * saved value), the rest in saved order (counters before their selects:
 * msr/journal/journal.h), the overflow bits the run caused cleared
 * (write-1-to-clear, as the kernel's intel_pmu_ack_status; as pmu_restore
 * does), the global enable
 * register's saved value last (intel_pmu_enable_all /
 * amd_pmu_v2_enable_all: counting resumes only there).
 * Async-signal-safe. */
static int restore_cpu(const struct journal_data *d, struct msr_dev *dev, unsigned cpu)
{
	uint64_t ovf, amd_ovf;
	int rc = 0, gc = -1, others = 0;

	overflow_bits(d, cpu, &ovf, &amd_ovf);
	for (int i = 0; i < d->nregs; i++) {
		if (d->regs[i].cpu != cpu)
			continue;
		if (journal_global_ctl(d->regs[i].msr) && gc < 0)
			gc = i;
		else
			others++;
	}
	if (gc >= 0 && others)
		keep_first(&rc, msr_write(dev, cpu, d->regs[gc].msr, 0));
	for (int i = 0; i < d->nregs; i++)
		if (d->regs[i].cpu == cpu && i != gc)
			keep_first(&rc, msr_write(dev, cpu, d->regs[i].msr, d->regs[i].saved));
	/* best effort, as pmu_restore: no saved register */
	if (ovf)
		(void)msr_write(dev, cpu, IA32_PERF_GLOBAL_STATUS_RESET, ovf);
	if (amd_ovf)
		(void)msr_write(dev, cpu, AMD_PERF_CNTR_GLOBAL_STATUS_CLR, amd_ovf);
	if (gc >= 0)
		keep_first(&rc, msr_write(dev, cpu, d->regs[gc].msr, d->regs[gc].saved));
	return rc;
}

bool journal_data_permits(const struct journal_data *d, unsigned cpu, uint32_t msr)
{
	if (has_reg(d, cpu, msr))
		return true;
	if (msr == AMD_PERF_CNTR_GLOBAL_STATUS_CLR)
		return has_reg(d, cpu, AMD_PERF_CNTR_GLOBAL_CTL);
	return msr == IA32_PERF_GLOBAL_STATUS_RESET &&
	       (has_reg(d, cpu, IA32_FIXED_CTR_CTRL) || has_reg(d, cpu, IA32_PERF_GLOBAL_CTRL));
}

static bool data_gate(const void *arg, unsigned cpu, uint32_t msr)
{
	return journal_data_permits(arg, cpu, msr);
}

/* Every CPU's registers, through whatever gate @dev has. */
static int restore_regs(const struct journal_data *d, struct msr_dev *dev)
{
	int rc = 0, ncpus = d->ncpus;

	for (int c = 0; c < ncpus; c++)
		keep_first(&rc, restore_cpu(d, dev, d->cpus[c]));
	return rc;
}

/* Registers (through @dev's gate), then settings. */
static int restore_all(const struct journal_data *d, struct msr_dev *dev)
{
	int rc = restore_regs(d, dev), nsettings = d->nsettings;

	for (int i = 0; i < nsettings; i++)
		keep_first(&rc, setting_write_path(d->settings[i].full, d->settings[i].value));
	return rc;
}

int journal_restore_data(const struct journal_data *d, struct msr_dev *dev)
{
	msr_gate_fn fn;
	const void *arg;
	int rc;

	msr_gate_set(dev, data_gate, d, &fn, &arg);
	rc = restore_all(d, dev);
	msr_gate_set(dev, fn, arg, NULL, NULL);
	return rc;
}

int journal_data_unsafe(const struct journal_data *d)
{
	int n = 0;

	for (int i = 0; i < d->nregs; i++)
		n += d->regs[i].unsafe;
	return n;
}

/* An open journal is its device's gate already (journal_set_dev): a
 * device it was not set on refuses, and the journal stays for `pmu
 * restore`. */
int journal_restore(struct journal *j, struct msr_dev *dev)
{
	int rc = restore_all(&j->d, dev);

	j->restored = rc == 0;
	return rc;
}

int journal_restore_regs(struct journal *j, struct msr_dev *dev)
{
	return restore_regs(&j->d, dev);
}

int journal_restore_cpu_regs(struct journal *j, struct msr_dev *dev, unsigned cpu)
{
	return restore_cpu(&j->d, dev, cpu);
}

int journal_diff(const struct journal *j, struct msr_dev *dev, unsigned cpu,
		 struct journal_change *out, int max)
{
	const struct journal_data *d = &j->d;
	int n = 0;

	for (int i = 0; i < d->nregs; i++) {
		uint64_t v;
		int rc;

		if (d->regs[i].cpu != cpu)
			continue;
		rc = msr_read(dev, cpu, d->regs[i].msr, &v);
		if (rc)
			return rc;
		if (v != d->regs[i].saved && n < max)
			out[n++] = (struct journal_change){ .cpu = cpu, .msr = d->regs[i].msr,
							    .saved = d->regs[i].saved, .now = v };
	}
	return n;
}

/* ------------------------------------------------------ file, handler */

int journal_unlink_file(struct journal *j)
{
	if (unlinkat(j->dirfd, j->name, 0) < 0)
		return -errno;
	return fsync(j->dirfd) < 0 ? -errno : 0;
}

void journal_restore_fired(struct journal *j)
{
	struct msr_dev *dev = j->dev;

	/* Only the journal's owner restores (not a fork()ed child), once;
	 * registers need their device (journal_set_dev), settings alone not. */
	if (j->d.pid != getpid() || (!dev && j->d.nregs > 0) || atomic_exchange(&j->fired, 1))
		return;
	if (restore_all(&j->d, dev) == 0) {
		j->restored = true;
		journal_unlink_file(j);
	}
}
