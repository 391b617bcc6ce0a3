/*
 * bench/avail.c - can Top-down be measured on this CPU, and if not, the
 * first precise reason: the PMU checks every Top-down source needs
 * (CPUID, the machine, the MSR backend), then each registered source's own
 * probe (bench/source/source.c; RDPMC: bench/source/source_rdpmc.c).  Reads only.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/text.h"

#include "bench/tma.h"
#include "bench/source/source.h"
#include "msr/regs/amd_regs.h"
#include "msr/regs/intel_regs.h"
#include "msr/sim/msr_sim.h"

static void say(struct bench_avail *a, enum td_unavail why, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void say(struct bench_avail *a, enum td_unavail why, int err, const char *fmt, ...)
{
	va_list ap;

	a->why = why;
	a->err = err;
	a->level = 0;
	a->recipe = NULL;
	va_start(ap, fmt);
	if (text_vsetf(&a->reason, fmt, ap)) { /* out of memory: why and err still say it */
		free(a->reason);
		a->reason = NULL;
	}
	va_end(ap);
}

/*
 * A kind whose Top-down comes from an event recipe (cpu_kind.topdown_source
 * "events"): the rdpmc and msr sources measure its recipe on the
 * general-purpose counters (bench/source/source_events.c), at the highest
 * level the recipe defines.  -1 with the reason when the recipe has no
 * variant the kind can count.
 */
static int check_recipe(const struct cpu_info *ci, const struct cpu_kind *k, unsigned cpu,
			struct bench_avail *a)
{
	char why[300];
	const struct recipe *r = source_events_recipe(k, why, sizeof(why));

	if (!r) {
		say(a, TD_NO_FIXED_CTR3, 0, "cpu %u (%s core, %s, family %u model 0x%02X): %s",
		    cpu, k->kind, k->uarch, ci->family, ci->model, why);
		return -1;
	}
	a->recipe = r;
	a->level = source_events_level(r);
	return 0;
}

/* The CPUID-only part: vendor, virtual PMU, FC3, PERF_METRICS; or the
 * kind's event recipe. */
static int check_cpuid(const struct cpu_info *ci, unsigned cpu, struct bench_avail *a)
{
	const struct cpu_kind *k = cpu_info_kind_of(ci, cpu);

	if (k && k->topdown_level == 0 && k->topdown_recipe)
		return check_recipe(ci, k, cpu, a);
	if (ci->vendor == CPU_VENDOR_AMD && k && k->model_recipe) {
		/* a Zen 4/5 whose counters CPUID does not enumerate (a guest) */
		say(a, ci->hypervisor ? TD_NO_VPMU : TD_NO_ARCH_PMU, 0, "cpu %u (%s, family 0x%x "
		    "model 0x%02x) has the recipe %s, which counts 6 events at once on the core "
		    "counters PERF_CTL0-5; CPUID enumerates %u (%s)%s%s%s", cpu, k->uarch,
		    ci->family, ci->model, k->model_recipe, k->gp_counters, k->counters_source,
		    ci->hypervisor ? ": running under a hypervisor (" : "",
		    ci->hypervisor ? ci->hypervisor : "",
		    ci->hypervisor ? ") without a virtual PMU" : "");
		return -1;
	}
	if (ci->vendor != CPU_VENDOR_INTEL) {
		say(a, TD_NOT_INTEL, 0, "CPU vendor is %s (%s), not Intel: IA32_PERF_METRICS "
		    "and fixed counter 3 (TOPDOWN.SLOTS) exist only on Intel CPUs",
		    ci->vendor_str, ci->brand);
		return -1;
	}
	if (ci->pmu.version == 0) {
		if (ci->hypervisor)
			say(a, TD_NO_VPMU, 0, "running under a hypervisor (%s) without a virtual "
			    "PMU: CPUID leaf 0xA reports architectural perfmon version 0",
			    ci->hypervisor);
		else
			say(a, TD_NO_ARCH_PMU, 0, "CPUID leaf 0xA reports architectural "
			    "perfmon version 0: no performance counters");
		return -1;
	}
	if (!k) {
		say(a, TD_NO_FIXED_CTR3, 0, "cpu %u is not described by the CPUID source", cpu);
		return -1;
	}
	if (!k->fixed_ctr3) {
		say(a, TD_NO_FIXED_CTR3, 0, "cpu %u (%s core, %s, family %u model 0x%02X) has "
		    "no fixed counter 3 (TOPDOWN.SLOTS) and no Top-down recipe of events", cpu,
		    k->kind, k->uarch, ci->family, ci->model);
		return -1;
	}
	if (k->topdown_level == 0) {
		/* The model table's warning says what was assumed and why
		 * (cpu_info.warning: unknown model, PERF_METRICS undecided). */
		say(a, TD_NO_PERF_METRICS, 0, "cpu %u (%s core, %s, family %u model 0x%02X) has "
		    "fixed counter 3 but no IA32_PERF_METRICS%s%s", cpu, k->kind, k->uarch,
		    ci->family, ci->model, ci->warning[0] ? " known to baretma: " : "",
		    ci->warning);
		return -1;
	}
	a->level = k->topdown_level;
	/* PERF_METRICS with events beside it (Sunny Cove): the recipe the rdpmc
	 * and msr sources measure, level 2 too (source_events_level) */
	a->recipe = source_pm_recipe(k);
	return 0;
}

/* The MSR part: can we reach FC3 and PERF_METRICS (an event recipe: the
 * first general-purpose event select, Intel IA32_PERFEVTSEL0 or AMD
 * PERF_CTL0; a PERF_METRICS recipe with events: all three) through the
 * backend? */
static int check_msr(const struct cpu_info *ci, struct msr_dev *dev, unsigned cpu,
		     struct bench_avail *a)
{
	char path[PATH_MAX];
	uint64_t v;
	int rc, level = a->level;
	bool amd = ci->vendor == CPU_VENDOR_AMD;
	/* PERF_METRICS alone, or with events beside it (source_pm_recipe) */
	bool pm = !a->recipe || a->recipe == source_pm_recipe(cpu_info_kind_of(ci, cpu));
	const char *what = "IA32_FIXED_CTR3/IA32_PERF_METRICS";

	if (!dev) {
		say(a, TD_NO_MSR_DEVICE, -ENOENT, "no MSR backend could be opened (check "
		    "BARETMA_MSR; default /dev/cpu/N/msr needs: modprobe msr)");
		return -1;
	}
	msr_describe(dev, cpu, path, sizeof(path));
	rc = msr_open_cpu(dev, cpu);
	if (!rc && pm)
		rc = msr_read(dev, cpu, IA32_FIXED_CTR3, &v);
	if (!rc && pm)
		rc = msr_read(dev, cpu, IA32_PERF_METRICS, &v);
	if (!rc && a->recipe) {
		what = amd ? "PERF_CTL0" : "IA32_PERFEVTSEL0";
		rc = msr_read(dev, cpu, amd ? AMD_PERF_CTL0 : IA32_PERFEVTSEL0, &v);
	}
	if (rc == -ENOENT)
		say(a, TD_NO_MSR_DEVICE, rc, "no MSR device '%s' (try: modprobe msr)", path);
	else if (rc == -EACCES || rc == -EPERM)
		say(a, TD_NO_PERMISSION, rc, "no permission for '%s': %s (%s)", path,
		    strerror(-rc), msr_remedy(rc));
	else if (rc)
		say(a, TD_MSR_ERROR, rc, "cannot read %s through '%s': %s (%s)", what,
		    path, strerror(-rc), msr_remedy(rc));
	if (rc)
		return -1;
	a->level = level;
	a->msr_ok = true;
	return 0;
}

/* A dump's CPU behind this machine's device: the device cannot reach it. */
static int check_machine(const struct cpu_machine *m, struct msr_dev *dev, unsigned cpu,
			 struct bench_avail *a)
{
	const struct recipe *r = a->recipe;
	int level = a->level;

	if (!dev || bench_msr_reaches(m, dev))
		return 0;
	/* The level's source named as it is: an event recipe is baretma's
	 * (chosen by CPUID's family/model and the counters CPUID enumerates),
	 * IA32_PERF_METRICS is the model table's for CPUID's family/model. */
	say(a, TD_OTHER_MACHINE, 0, "cpu %u of the CPUID dump '%s' has Top-down level %d %s%s%s"
	    "%s, but the dump describes another machine: this machine's MSR device cannot reach "
	    "its registers (for a dry run: BARETMA_MSR=state:FILE)", cpu, cpu_machine_name(m),
	    level, !r ? "from IA32_PERF_METRICS by its CPUID" : tma_is_metrics(r) ?
	    "from IA32_PERF_METRICS and events by baretma's recipe " : "from events by baretma's recipe ",
	    r ? r->name : "", r ? ":" : "", r ? r->variant : "");
	return -1;
}

/* No PERF_METRICS because the IA32_PERF_CAPABILITIES read through @dev
 * has bit 15 clear (cpu_info_identify; PERF_CAP_PERF_METRICS, linux
 * arch/x86/events/intel/core.c intel_pmu_init): a state file or the
 * simulator's `state FILE` that leaves it out is the usual cause, so the
 * register, the bit and the file are named. */
static void caps_clear(const struct cpu_info *ci, struct msr_dev *dev, unsigned cpu,
		       struct bench_avail *a)
{
	const struct sim_profile *prof;
	char path[PATH_MAX];

	if (a->why != TD_NO_PERF_METRICS || !ci->perf_caps_read || !dev ||
	    (ci->perf_caps & PERF_CAP_PERF_METRICS))
		return;
	prof = msr_sim_profile_of(dev);
	if (prof && prof->state[0])
		snprintf(path, sizeof(path), "%s", prof->state); /* the registers' file */
	else
		msr_describe(dev, cpu, path, sizeof(path));
	text_appendf(&a->reason, NULL, ": IA32_PERF_CAPABILITIES "
		     "(MSR 0x345) bit 15 (PERF_METRICS available) is clear in cpu %u's "
		     "value 0x%llx read from '%s'%s", cpu,
		     (unsigned long long)ci->perf_caps, path,
		     strcmp(msr_backend_name(dev), "device") ? " (set the bit on that "
		     "file's line for 0x345, e.g. 0xa000)" : "");
}

int bench_topdown_check_ops(const struct cpu_machine *m, const struct cpu_info *ci,
			    unsigned cpu, struct msr_dev *dev, const struct bench_rdpmc_ops *ops,
			    int *key, enum bench_backend_id want, struct bench_avail *out)
{
	const struct cpu_kind *k = cpu_info_kind_of(ci, cpu);
	struct source_env env = { .machine = m, .rdpmc = ops, .key = key, .cpu = cpu,
				  .cpuid_level = k ? k->topdown_level : 0, .ci = ci, .dev = dev };

	bench_avail_release(out);
	memset(out, 0, sizeof(*out));
	out->why = TD_OK;
	out->rdpmc_sysfs = ops->sysfs_value();
	int rc = 0;

	if (check_cpuid(ci, cpu, out))
		caps_clear(ci, dev, cpu, out);
	else if (!(check_machine(m, dev, cpu, out) || check_msr(ci, dev, cpu, out)))
		/* The PMU can be programmed: what each source needs beyond it (RDPMC) */
		rc = source_probe_all(&env, out, false);
	/* perf_event needs none of the checks above; probed only when it may be
	 * used (it makes the kernel write FC3 and PERF_METRICS) */
	if (source_probe_wanted(want, out))
		source_probe_all(&env, out, true);
	return rc;
}

int bench_topdown_check(const struct cpu_machine *m, const struct cpu_info *ci, unsigned cpu,
			struct msr_dev *dev, struct bench_avail *out)
{
	int key = -1;
	int rc = bench_topdown_check_ops(m, ci, cpu, dev, &bench_rdpmc_live, &key,
					 BENCH_BACKEND_AUTO, out);

	/* a check only: what a run would get, without holding the key */
	if (key >= 0)
		bench_rdpmc_live.disable_self(key);
	return rc;
}
