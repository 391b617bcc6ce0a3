/*
 * msr/journal_restore.c - restoring what a run journal saved (order and
 * rules: msr/journal.h), and removing its file, for journal_restore,
 * journal_restore_data and the signal handler (msr/guard_signals.c).
 * Async-signal-safe: it only reads the arrays journal_begin() allocated
 * (msr/journal.c), no malloc, no stdio.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

#include "msr/intel_regs.h"
#include "msr/journal.h"
#include "msr/journal_int.h"
#include "msr/journal_rules.h"

/* ------------------------------------------------------------ restoring */

static void keep_first(int *rc, int r)
{
	if (!*rc)
		*rc = r;
}

static bool has_reg(const struct journal_data *d, unsigned cpu, uint32_t msr)
{
	for (int i = 0; i < d->nregs; i++)
		if (d->regs[i].cpu == cpu && d->regs[i].msr == msr)
			return true;
	return false;
}

/* The GLOBAL_STATUS overflow bits a run that programmed fixed counter 3
 * (it saved IA32_FIXED_CTR_CTRL and IA32_FIXED_CTR3: msr/pmu.h) may have
 * caused: bit 35, and bit 48 when it saved IA32_PERF_METRICS (writing bit
 * 48 elsewhere could #GP, pmu-reference §1.3).  0 for other journals. */
static uint64_t overflow_bits(const struct journal_data *d, unsigned cpu)
{
	if ((d->kind != JOURNAL_RUN && d->kind != JOURNAL_ENABLE) ||
	    !has_reg(d, cpu, IA32_FIXED_CTR_CTRL) || !has_reg(d, cpu, IA32_FIXED_CTR3))
		return 0;
	return GLOBAL_STATUS_OVF_FIXED3 |
	       (has_reg(d, cpu, IA32_PERF_METRICS) ? GLOBAL_STATUS_OVF_PERF_METRICS : 0);
}

/* One CPU: GLOBAL_CTRL = 0 first (when saved with other registers: the
 * freeze guards them; alone it is written once, its saved value), the
 * rest in saved order, the overflow bits the run caused cleared
 * (pmu-reference §5.4 "Restore", as pmu_restore does), GLOBAL_CTRL's saved
 * value last.  Async-signal-safe. */
static int restore_cpu(const struct journal_data *d, struct msr_dev *dev, unsigned cpu)
{
	uint64_t ovf = overflow_bits(d, cpu);
	int rc = 0, gc = -1, others = 0;

	for (int i = 0; i < d->nregs; i++) {
		if (d->regs[i].cpu != cpu)
			continue;
		if (d->regs[i].msr == IA32_PERF_GLOBAL_CTRL)
			gc = i;
		else
			others++;
	}
	if (gc >= 0 && others)
		keep_first(&rc, msr_write(dev, cpu, IA32_PERF_GLOBAL_CTRL, 0));
	for (int i = 0; i < d->nregs; i++)
		if (d->regs[i].cpu == cpu && i != gc)
			keep_first(&rc, msr_write(dev, cpu, d->regs[i].msr, d->regs[i].saved));
	if (ovf) /* best effort, as pmu_restore: no saved register */
		(void)msr_write(dev, cpu, IA32_PERF_GLOBAL_STATUS_RESET, ovf);
	if (gc >= 0)
		keep_first(&rc, msr_write(dev, cpu, IA32_PERF_GLOBAL_CTRL, d->regs[gc].saved));
	return rc;
}

bool journal_data_permits(const struct journal_data *d, unsigned cpu, uint32_t msr)
{
	if (has_reg(d, cpu, msr))
		return true;
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
