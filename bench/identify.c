/*
 * bench/identify.c - identification of the machine described (live or a
 * CPUID dump) with the MSRs that belong to it, and never with this
 * machine's device for a dump's CPU (cpu/machine.h: no command mixes them).
 */
#include <errno.h>
#include <string.h>

#include "bench/bench.h"
#include "msr/regs/intel_regs.h"

bool bench_msr_reaches(const struct cpu_machine *m, const struct msr_dev *dev)
{
	/* A state file stands for the registers of whichever machine is
	 * described (a dry run); a device is always this machine's. */
	return dev && (!cpu_machine_is_dump(m) || !strcmp(msr_backend_name(dev), "state") ||
		      !strcmp(msr_backend_name(dev), "sim"));
}

int bench_perf_caps(const struct cpu_machine *m, struct msr_dev *dev, unsigned cpu,
		    uint64_t *caps)
{
	uint32_t regs[4];

	if (!bench_msr_reaches(m, dev))
		return -EXDEV;
	/* CPUID.1:ECX[15] PDCM of that CPU: IA32_PERF_CAPABILITIES exists
	 * (linux arch/x86/events/intel/core.c intel_pmu_init) */
	if (cpu_source_cpuid(cpu_machine_source(m), cpu, CPUID_LEAF_FEATURES, 0, regs) ||
	    !(regs[2] & CPUID_01_ECX_PDCM))
		return -ENODEV;
	return msr_read(dev, cpu, IA32_PERF_CAPABILITIES, caps);
}

int bench_identify(const struct cpu_machine *m, struct msr_dev *dev, int cpu,
		   struct cpu_info *ci)
{
	const struct cpu_source *src = cpu_machine_source(m);
	uint64_t caps;
	int rc = cpu_info_identify(src, NULL, ci);

	if (!rc && cpu >= 0 && !bench_perf_caps(m, dev, (unsigned)cpu, &caps))
		rc = cpu_info_identify(src, &caps, ci);
	return rc;
}
