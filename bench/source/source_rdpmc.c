/*
 * bench/source/source_rdpmc.c - the rdpmc source: RDPMC of fixed counter 3
 * (TOPDOWN.SLOTS) and IA32_PERF_METRICS on the pinned CPU, LFENCE-
 * serialised (msr/regs/rdpmc.h), programmed as the msr source is
 * (bench/source/source_pmu.c); and whether this process may RDPMC at all (the
 * probe, with the rdpmc=1 perf event key).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench/source/source.h"
#include "cpu/knobs.h"
#include "cpu/environ.h"
#include "cpu/text.h"
#include "msr/access/msr.h"
#include "msr/sim/msr_sim.h"

const struct bench_rdpmc_ops bench_rdpmc_live = {
	.sysfs_value = cpu_env_rdpmc,
	.enable_self = rdpmc_enable_self,
	.disable_self = rdpmc_disable_self,
	.probe = rdpmc_probe,
};

/*
 * With rdpmc = 1 the kernel sets CR4.PCE only while a task whose mm has a
 * perf event mmapped runs (linux arch/x86/events/core.c x86_pmu_event_mapped ->
 * mm->context.perf_rdpmc_allowed, cr4_update_pce): the probe fails until
 * this process holds such a mapping, so the key is made BEFORE probing
 * (perf's own rdpmc tests do the same).  The probe's child shares the mm
 * (CLONE_VM, msr/regs/rdpmc_probe.c), so it probes under that permission.
 */
int bench_rdpmc_decide(const struct bench_rdpmc_ops *ops, int *key, struct bench_avail *a)
{
	int rc;

	a->rdpmc_key_err = 0;
	if (a->rdpmc_sysfs == 1 && *key < 0) {
		rc = ops->enable_self(key);
		if (rc) {
			*key = -1;
			a->rdpmc_key_err = rc;
		}
	}
	/* RDPMC only matters once the counters exist: probe SLOTS then METRICS;
	 * for an event recipe general-purpose counter 0 (ECX 0 on Intel and
	 * AMD: gp_rdpmc_ecx), which every such kind has; for PERF_METRICS with
	 * events (Sunny Cove) all three */
	bool pm = !a->recipe || (a->recipe->vendor == CPU_VENDOR_INTEL &&
				 !strcmp(a->recipe->name, "intel-perf-metrics"));

	rc = ops->probe(pm ? RDPMC_ECX_SLOTS : 0);
	if (!rc && pm)
		rc = ops->probe(RDPMC_PERF_METRICS);
	if (!rc && pm && a->recipe)
		rc = ops->probe(0);
	a->rdpmc_ok = rc == 0;
	/* a key that did not help is not kept (it holds a perf event) */
	if (!a->rdpmc_ok && *key >= 0) {
		ops->disable_self(*key);
		*key = -1;
	}
	return 0;
}

/*
 * RDPMC reads the CPU this process runs on: never a dump's CPU, and never
 * the simulator's counters.  On the simulated PMU (the run's backend is
 * BARETMA_MSR=sim:...) the rdpmc source reads by a simulated RDPMC instead
 * (msr_sim_rdpmc: rdpmc_src_open, which asks the same question of the
 * same backend), on a dump's CPUs as on the live ones.
 */
static int rdpmc_src_probe(const struct source_env *env, struct bench_avail *a)
{
	if (msr_sim_profile_of(env->dev)) {
		/* chosen by name only (source_choose): auto keeps to msr */
		a->rdpmc_ok = source_avail_set(a, &source_rdpmc)->by_name = true;
		return 0;
	}
	if (cpu_machine_is_dump(env->machine)) {
		a->rdpmc_dump = true;
		return 0;
	}
	return bench_rdpmc_decide(env->rdpmc, env->key, a);
}

void bench_rdpmc_reason(const struct bench_avail *a, char *buf, size_t n)
{
	/* baretma never changes the setting without --rdpmc-always: name it */
	if (a->rdpmc_dump)
		/* never on the simulator: its RDPMC is simulated (rdpmc_src_probe) */
		snprintf(buf, n, "RDPMC reads the counters of the CPU baretma runs on, not "
			 "those of a CPUID dump's CPU (a dry run measures through the MSR "
			 "backend: --backend msr with BARETMA_MSR=state:FILE)");
	else if (a->rdpmc_sysfs == 1 && a->rdpmc_key_err)
		snprintf(buf, n, "RDPMC faults in user space (CR4.PCE clear; "
			 CPU_KNOB_RDPMC_CPU " = 1: user RDPMC needs a perf "
			 "event of this process mmapped, and perf_event_open/mmap of one failed: "
			 "%s (check /proc/sys/kernel/perf_event_paranoid; try: --rdpmc-always, "
			 "which sets it to 2 for the run and puts it back)",
			 strerror(-a->rdpmc_key_err));
	else if (a->rdpmc_sysfs >= 0)
		snprintf(buf, n, "RDPMC faults in user space (CR4.PCE clear; "
			 CPU_KNOB_RDPMC_CPU " = %d%s)", a->rdpmc_sysfs,
			 a->rdpmc_sysfs == 0 ? ": user RDPMC disabled (try: --rdpmc-always, "
			 "which sets it to 2 for the run and puts it back, or --backend msr)" :
			 a->rdpmc_sysfs == 1 ? ", even with a perf event of this process mmapped "
			 "(try: --rdpmc-always, which sets it to 2 for the run and puts it back)" : "");
	else
		snprintf(buf, n, "RDPMC faults in user space (CR4.PCE clear; no "
			 CPU_KNOB_RDPMC_CPU ": %s)", strerror(-a->rdpmc_sysfs));
}

/*
 * --rdpmc-always will set rdpmc to 2: a probe that failed at 0 or 1 does
 * not rule RDPMC out yet (bench_recheck decides).  A dump's CPU, or a
 * sysfs value already 2, it cannot help.
 */
static enum source_state rdpmc_usable(const struct bench_avail *a, bool rdpmc_always,
				      char **why)
{
	char buf[SOURCE_WHY_MAX]; /* fixed: bench_rdpmc_reason's words and numbers */

	if (source_pmu_usable(a, rdpmc_always, why) != SOURCE_READY)
		return SOURCE_NO;
	if (a->rdpmc_ok)
		return SOURCE_READY;
	bench_rdpmc_reason(a, buf, sizeof(buf));
	if (text_setf(why, "%s", buf))
		return SOURCE_NO;
	if (rdpmc_always && !a->rdpmc_dump && a->rdpmc_sysfs >= 0 && a->rdpmc_sysfs != 2)
		return SOURCE_PENDING;
	return SOURCE_NO;
}

/*
 * The one place the rdpmc source chooses how it reads: the real RDPMC
 * inline in the bracket (read_inline, unchanged), or on the simulated PMU
 * a call (SOURCE_READ_CALL) to rdpmc_read, which reads each counter of the
 * read set by msr_sim_rdpmc in the same order, then the TSC.
 */
static int rdpmc_src_open(struct counter_source *src, const struct source_params *p)
{
	int rc = source_pmu_open(src, p);

	if (rc)
		return rc;
	if (msr_sim_profile_of(p->dev))
		src->read_inline = SOURCE_READ_CALL;
	/* RDPMC metrics-clear regions where the kind enumerates the mode
	 * (IA32_PERF_CAPABILITIES[19]: cpu_kind.metrics_clear) and PERF_METRICS
	 * is read (not an event recipe): FC3's field gets METRICS_CLEAR_EN
	 * (bit 14, journalled with the rest of IA32_FIXED_CTR_CTRL), and each
	 * region is the counts since the clear at its begin reading */
	if (!src->priv && p->kind && p->kind->metrics_clear && src->pmu.cfg.perf_metrics &&
	    !p->delta_regions) {
		src->pmu.cfg.metrics_clear = true;
		src->rs.metrics_clear = true;
		src->rs.what = "IA32_PERF_METRICS, metrics-clear regions";
	}
	return 0;
}

static void rdpmc_read(struct counter_source *src, struct reading *r)
{
	if (src->read_inline == SOURCE_READ_CALL) {
		/* simulated: a counter that cannot be read reads 0 (the msr
		 * source's rule: a bad reading is flagged by counting) */
		for (unsigned i = 0; i < src->rs.n; i++)
			if (msr_sim_rdpmc(src->p.dev, src->p.cpu, src->rs.ecx[i], &r->v[i]))
				r->v[i] = 0;
		r->tsc = rdtsc_fenced();
	} else if (src->read_inline == SOURCE_READ_RDPMC_SET) {
		source_read_rdpmc_set(&src->rs, r);
	} else {
		source_read_rdpmc(r);
	}
}

const struct counter_source_ops source_rdpmc = {
	.id = BENCH_BACKEND_RDPMC,
	.name = "rdpmc",
	.topdown = true,
	.writes_msrs = true,
	.rdpmc = true,
	.how = "RDPMC",
	.fault = TD_RDPMC_FAULT,
	.read_inline = SOURCE_READ_RDPMC,
	.probe = rdpmc_src_probe,
	.usable = rdpmc_usable,
	.open = rdpmc_src_open,
	.program = source_pmu_program,
	.reset = source_pmu_reset,
	.read = rdpmc_read,
	.verify = source_pmu_verify,
	.close = source_pmu_close,
	.pass = source_pmu_pass,
	.simulated = source_pmu_simulated,
};
