/*
 * bench/run_msr.c - the steps of `msr read` and `msr write` that neither
 * parse nor print (bench/run.h), and the CPU-list steps the pmu commands
 * share: open and check a list of CPUs, the write policy with each CPU's
 * own PMU, the old values journaled, the reads and writes.  Library code:
 * 0 or -errno, never prints; includes cpu/, msr/, bench/bench.h.
 */
#include <errno.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/run.h"
#include "cpu/machine.h"
#include "msr/regs/intel_regs.h"

int run_cpus_open(struct msr_dev *dev, const unsigned *cpus, int n, int *at)
{
	for (int i = 0; i < n; i++) {
		int rc = msr_open_cpu(dev, cpus[i]);

		if (rc) {
			*at = i;
			return rc;
		}
	}
	return 0;
}

int run_cpus_check(const struct cpu_machine *m, const unsigned *cpus, int n, int *at)
{
	for (int i = 0; i < n; i++) {
		int rc = cpu_machine_check_cpu(m, cpus[i]);

		if (rc) {
			*at = i;
			return rc;
		}
	}
	return 0;
}

int run_msr_read_all(struct msr_dev *dev, const unsigned *cpus, int n, uint32_t msr,
		     uint64_t *vals, int *at)
{
	for (int i = 0; i < n; i++) {
		int rc = msr_read(dev, cpus[i], msr, &vals[i]);

		if (rc) {
			*at = i;
			return rc;
		}
	}
	return 0;
}

int run_msr_write_all(struct msr_dev *dev, const unsigned *cpus, int n, uint32_t msr,
		      uint64_t value, int *at)
{
	for (int i = 0; i < n; i++) {
		int rc = msr_write(dev, cpus[i], msr, value);

		if (rc) {
			*at = i;
			return rc;
		}
	}
	return 0;
}

int run_msr_journal_old(struct journal *j, const unsigned *cpus, int n, uint32_t msr,
			const uint64_t *old, bool unsafe)
{
	struct journal_reg regs[CPU_MAX_CPUS]; /* a CPU list holds no more */

	if (n > CPU_MAX_CPUS)
		return -EINVAL;
	for (int i = 0; i < n; i++)
		regs[i] = (struct journal_reg){ .cpu = cpus[i], .msr = msr, .saved = old[i],
						.unsafe = unsafe };
	return journal_save_regs(j, regs, n);
}

/* ----------------------------------------------------------- the policy */

/* The PMU of @cpu for msr_write_check: its core kind's counters; the
 * fixed-counter width from its own leaf 0xA EDX[12:5] (linux perf_event.h cpuid10_edx); full-width
 * writes (bit 13) and RDPMC metrics-clear (bit 19) from its own
 * IA32_PERF_CAPABILITIES (cpu/perf_caps.h). */
static void pmu_caps(const struct cpu_machine *m, struct msr_dev *dev,
		     const struct cpu_info *ci, unsigned cpu, struct msr_pmu_caps *c)
{
	const struct cpu_source *src = cpu_machine_source(m);
	const struct cpu_kind *k = cpu_info_kind_of(ci, cpu);
	struct cpu_pmu_arch arch = ci->pmu;
	uint32_t regs[4];
	uint64_t perf_caps;

	memset(c, 0, sizeof(*c));
	if (!k)
		return;
	if (!cpu_source_cpuid(src, cpu, CPUID_LEAF_ARCH_PERFMON, 0, regs))
		cpu_pmu_arch_decode(regs, &arch);
	c->gp_counters = k->gp_counters;
	c->gp_width = k->gp_width;
	c->fixed_mask = k->fixed_mask;
	c->fixed_width = arch.fixed_width;
	c->perf_metrics_level = k->topdown_level;
	if (bench_perf_caps(m, dev, cpu, &perf_caps))
		return; /* unreadable: neither capability (the safe side) */
	c->full_width_write = (perf_caps & PERF_CAP_FULL_WIDTH_WRITE) != 0;
	c->metrics_clear = (perf_caps & PERF_CAP_RDPMC_METRICS_CLEAR) != 0;
}

int run_msr_policy(const struct cpu_machine *m, struct msr_dev *dev, const struct cpu_info *ci,
		   const unsigned *cpus, int n, uint32_t msr, uint64_t value, bool unsafe_msr,
		   struct run_msr_verdict *v)
{
	struct msr_pmu_caps caps;

	v->unknown = false;
	for (int i = 0; i < n; i++) {
		v->verdict = MSR_WRITE_UNKNOWN;
		v->cpu = cpus[i];
		v->why[0] = '\0';
		pmu_caps(m, dev, ci, cpus[i], &caps);
		if (ci->vendor == CPU_VENDOR_INTEL)
			v->verdict = msr_write_check(&caps, msr, value, v->why, sizeof(v->why));
		if (v->verdict == MSR_WRITE_OK)
			continue;
		if (v->verdict == MSR_WRITE_UNKNOWN && unsafe_msr) {
			v->unknown = true;
			continue;
		}
		return -EPERM;
	}
	v->verdict = MSR_WRITE_OK;
	return 0;
}
