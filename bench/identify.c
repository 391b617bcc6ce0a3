/*
 * bench/identify.c - identification of the machine described (live or a
 * CPUID dump) with the MSRs that belong to it, and never with this
 * machine's device for a dump's CPU (cpu/machine.h: no command mixes them).
 */
#include <string.h>

#include "bench/bench.h"
#include "msr/intel_regs.h"

bool bench_msr_reaches(const struct cpu_machine *m, const struct msr_dev *dev)
{
	/* A state file stands for the registers of whichever machine is
	 * described (a dry run); a device is always this machine's. */
	return dev && (!cpu_machine_is_dump(m) || !strcmp(msr_backend_name(dev), "state"));
}

int bench_identify(const struct cpu_machine *m, struct msr_dev *dev, int cpu,
		   struct cpu_info *ci)
{
	const struct cpu_source *src = cpu_machine_source(m);
	uint64_t caps;
	int rc = cpu_info_identify(src, NULL, ci);

	/* CPUID.1:ECX[15] PDCM: IA32_PERF_CAPABILITIES exists (pmu-reference §1.6). */
	if (!rc && cpu >= 0 && ci->pdcm && bench_msr_reaches(m, dev) &&
	    !msr_read(dev, (unsigned)cpu, IA32_PERF_CAPABILITIES, &caps))
		rc = cpu_info_identify(src, &caps, ci);
	return rc;
}
