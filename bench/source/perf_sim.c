/*
 * bench/source/perf_sim.c - the perf group on the simulated PMU
 * ($BARETMA_PERF=sim:PROFILE): what the kernel does with FC3 and
 * IA32_PERF_METRICS for a slots + topdown-* group, played on the same
 * simulated machine as BARETMA_MSR=sim:PROFILE (msr/msr_sim.h: one
 * machine per profile per process), through the MSR ops:
 *   enable  FC3's IA32_FIXED_CTR_CTRL field (OS|USR, USR alone with
 *           exclude_kernel), FC3 = 0 then PERF_METRICS = 0, and
 *           IA32_PERF_GLOBAL_CTRL bits 35 and 48 (intel_pmu_enable_fixed,
 *           icl_set_topdown_event_period, intel_pmu_enable_all:
 *           pmu-reference §3.1, §3.2, §5.2);
 *   read    with GLOBAL_CTRL 0 around it (intel_pmu_read_event disables
 *           the PMU): slots = FC3, metrics = PERF_METRICS; each member
 *           adds floor(slots x field / 0xff) (icl_get_metrics_event_value,
 *           128-bit product: §3.3); then FC3 = 0, PERF_METRICS = 0 (the
 *           reset at every read, §3.2);
 *   reset   a read (the frozen update, which clears FC3 then PERF_METRICS),
 *           then the counts to 0 (PERF_EVENT_IOC_RESET);
 *   read_raw  FC3 and PERF_METRICS as they are (RDPMC through the user
 *           pages: the kernel is not involved, nothing is reset), while
 *           enabled (the page's index is 0 otherwise);
 *   disable the counts brought up to date, FC3's field cleared.
 * `fault perf_offset NODE PP` shifts NODE's fraction by PP points before
 * the arithmetic (its level-1 siblings give up the same share in
 * proportion, so the level-1 sum stays what the hardware gave): a perf
 * that disagrees with the raw path, for `baretma compare` to catch.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/source/perf_group.h"
#include "msr/intel_regs.h"
#include "msr/msr_sim.h"

struct perf_group {
	struct msr_dev *dev;
	unsigned cpu;
	int level;
	bool user_only;
	const struct sim_profile *prof;
	bool enabled;
	double t_on;                 /* ns when enabled */
	struct perf_group_values v;  /* the counts */
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int sim_open(const char *arg, const struct perf_group_spec *spec, struct perf_group **out,
		    char *why, size_t n)
{
	struct perf_group *g = calloc(1, sizeof(*g));
	char dspec[4200];
	uint64_t v;
	int rc;

	*out = NULL;
	if (!g)
		return -ENOMEM;
	snprintf(dspec, sizeof(dspec), "sim:%s", arg ? arg : "");
	if ((rc = msr_open(dspec, &g->dev))) {
		snprintf(why, n, "simulated PMU '%s': %s", arg ? arg : "", msr_last_error());
		goto fail;
	}
	/* the kernel's writes, not baretma's: no journal of ours gates them */
	if ((rc = msr_ungate(g->dev))) {
		snprintf(why, n, "simulated PMU '%s': not the simulator", arg ? arg : "");
		goto fail;
	}
	/* no counter at all: the kernel registers no "cpu" PMU (linux
	 * arch/x86/kernel/cpu/intel.c sets X86_FEATURE_ARCH_PERFMON only from
	 * a non-zero leaf 0xA version; without it arch/x86/events/intel/core.c
	 * intel_pmu_init returns -ENODEV on any family-6 core after P6) */
	if (!msr_sim_pmu_version(g->dev)) {
		snprintf(why, n, "the simulated PMU '%s' has no performance counters (CPUID leaf "
			 "0xA reports architectural perfmon version %u): the kernel registers no "
			 "'cpu' PMU", arg ? arg : "", msr_sim_pmu_version(g->dev));
		rc = -EOPNOTSUPP;
		goto fail;
	}
	rc = msr_read(g->dev, spec->cpu, IA32_PERF_METRICS, &v);
	if (rc == -EIO || (!rc && spec->level > msr_sim_level(g->dev, spec->cpu))) {
		snprintf(why, n, "cpu %u of the simulated PMU lists no %s events (its core has "
			 "%s): the kernel shows topdown-* events only where PERF_METRICS has them",
			 spec->cpu, rc ? "topdown" : "level-2 topdown",
			 rc ? "no IA32_PERF_METRICS, e.g. a hybrid E-core" : "level 1 only");
		rc = -EOPNOTSUPP;
	} else if (rc) {
		snprintf(why, n, "cpu %u of the simulated PMU: %s", spec->cpu, strerror(-rc));
	}
	if (rc)
		goto fail;
	g->cpu = spec->cpu;
	g->level = spec->level >= 2 ? 2 : 1;
	g->user_only = spec->user_only;
	g->prof = msr_sim_profile_of(g->dev);
	*out = g;
	return 0;
fail:
	msr_close(g->dev);
	free(g);
	return rc;
}

/* FC3 then PERF_METRICS to 0 (the kernel's order, §3.1). */
static int clear_counters(struct perf_group *g)
{
	int rc = msr_write(g->dev, g->cpu, IA32_FIXED_CTR3, 0);

	return rc ? rc : msr_write(g->dev, g->cpu, IA32_PERF_METRICS, 0);
}

static int sim_enable(struct perf_group *g)
{
	uint64_t fcc, gc, en = g->user_only ? FIXED_CTR_CTRL_EN_USR
					    : FIXED_CTR_CTRL_EN_OS | FIXED_CTR_CTRL_EN_USR;
	int rc = msr_read(g->dev, g->cpu, IA32_FIXED_CTR_CTRL, &fcc);

	if (!rc)
		rc = msr_read(g->dev, g->cpu, IA32_PERF_GLOBAL_CTRL, &gc);
	if (!rc)
		rc = msr_write(g->dev, g->cpu, IA32_PERF_GLOBAL_CTRL, 0);
	if (!rc)
		rc = msr_write(g->dev, g->cpu, IA32_FIXED_CTR_CTRL,
			       (fcc & ~FIXED_CTR3_FIELD_MASK) | en << FIXED_CTR3_FIELD_SHIFT);
	if (!rc)
		rc = clear_counters(g);
	if (!rc)
		rc = msr_write(g->dev, g->cpu, IA32_PERF_GLOBAL_CTRL,
			       gc | GLOBAL_CTRL_EN_FIXED3 | GLOBAL_CTRL_EN_PERF_METRICS);
	if (!rc) {
		g->enabled = true;
		g->t_on = now_ns();
	}
	return rc;
}

/* The fractions perf computes with: the bytes, shifted by the perf_offset
 * fault where the profile has one. */
static void fractions(const struct perf_group *g, uint64_t metrics, double f[PERF_TD_NODES])
{
	const struct sim_profile *p = g->prof;
	double l1 = 0, rest;
	int k;

	for (unsigned i = 0; i < PERF_TD_NODES; i++)
		f[i] = (double)(metrics >> (8 * i) & 0xff) / 255;
	if (!p || !(p->faults & SIM_FAULT_PERF_OFFSET))
		return;
	k = p->perf_offset_node;
	if (k >= 4) {
		f[k] = fmin(f[k - 4], fmax(0, f[k] + p->perf_offset_pp / 100));
		return;
	}
	for (unsigned i = 0; i < 4; i++)
		l1 += f[i];
	rest = l1 - f[k];
	f[k] = fmin(l1, fmax(0, f[k] + p->perf_offset_pp / 100));
	for (unsigned i = 0; i < 4 && rest > 0; i++)
		if ((int)i != k)
			f[i] *= (l1 - f[k]) / rest;
}

/* One update of the counts, as intel_update_topdown_event: read, add, reset. */
static int update(struct perf_group *g)
{
	uint64_t gc, slots, metrics;
	double f[PERF_TD_NODES];
	int rc = msr_read(g->dev, g->cpu, IA32_PERF_GLOBAL_CTRL, &gc);

	if (!rc)
		rc = msr_write(g->dev, g->cpu, IA32_PERF_GLOBAL_CTRL, 0);
	if (!rc)
		rc = msr_read(g->dev, g->cpu, IA32_FIXED_CTR3, &slots);
	if (!rc)
		rc = msr_read(g->dev, g->cpu, IA32_PERF_METRICS, &metrics);
	if (rc)
		return rc;
	if (slots) {
		fractions(g, metrics, f);
		for (unsigned i = 0; i < (g->level >= 2 ? 8u : 4u); i++) {
			unsigned field = (unsigned)(metrics >> (8 * i) & 0xff);

			if (g->prof && (g->prof->faults & SIM_FAULT_PERF_OFFSET))
				g->v.td[i] += (uint64_t)floor((double)slots * f[i]);
			else /* mul_u64_u32_div(slots, field, 0xff) */
				g->v.td[i] += (uint64_t)((unsigned __int128)slots * field / 0xff);
		}
		g->v.slots += slots;
		rc = clear_counters(g);
	}
	return rc ? rc : msr_write(g->dev, g->cpu, IA32_PERF_GLOBAL_CTRL, gc);
}

static int sim_read(struct perf_group *g, struct perf_group_values *v)
{
	int rc = g->enabled ? update(g) : 0;
	double t = g->enabled ? now_ns() - g->t_on : 0;

	g->v.time_enabled = g->v.time_running = (uint64_t)t;
	*v = g->v;
	return rc;
}

/* RDPMC through the user pages: FC3 and PERF_METRICS as they are, no
 * kernel in between (so no reset); an index only while enabled. */
static int sim_read_raw(struct perf_group *g, uint64_t *slots, uint64_t *metrics)
{
	int rc;

	if (!g->enabled)
		return -EOPNOTSUPP;
	rc = msr_read(g->dev, g->cpu, IA32_FIXED_CTR3, slots);
	return rc ? rc : msr_read(g->dev, g->cpu, IA32_PERF_METRICS, metrics);
}

/* PERF_EVENT_IOC_RESET: the kernel reads the group first (perf_event_reset
 * -> perf_event_read -> intel_pmu_read_topdown_event: the update with the
 * PMU disabled, which clears FC3 then PERF_METRICS, as update() does), then
 * zeroes the counts; it never writes the counters with them live. */
static int sim_reset(struct perf_group *g)
{
	int rc = g->enabled ? update(g) : 0;

	memset(&g->v, 0, sizeof(g->v));
	return rc;
}

static int sim_disable(struct perf_group *g)
{
	uint64_t fcc;
	int rc;

	if (!g->enabled)
		return 0;
	rc = update(g);
	if (!rc)
		rc = msr_read(g->dev, g->cpu, IA32_FIXED_CTR_CTRL, &fcc);
	/* fault perf_keeps_counters: as if another perf session still counted */
	if (!rc && !(g->prof && (g->prof->faults & SIM_FAULT_PERF_KEEPS)))
		rc = msr_write(g->dev, g->cpu, IA32_FIXED_CTR_CTRL, fcc & ~FIXED_CTR3_FIELD_MASK);
	g->enabled = false;
	return rc;
}

static void sim_close(struct perf_group *g)
{
	if (!g)
		return;
	sim_disable(g);
	msr_close(g->dev);
	free(g);
}

const struct perf_group_ops perf_group_sim = {
	.name = "sim",
	.open = sim_open,
	.enable = sim_enable,
	.disable = sim_disable,
	.reset = sim_reset,
	.read = sim_read,
	.read_raw = sim_read_raw,
	.close = sim_close,
};
