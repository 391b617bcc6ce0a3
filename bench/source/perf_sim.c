/*
 * bench/source/perf_sim.c - the perf group on the simulated PMU
 * ($BARETMA_PERF=sim:PROFILE): what the kernel does with FC3 and
 * IA32_PERF_METRICS for a slots + topdown-* group, played on the same
 * simulated machine as BARETMA_MSR=sim:PROFILE (msr/sim/msr_sim.h: one
 * machine per profile per process), through the MSR ops:
 *   enable  FC3's IA32_FIXED_CTR_CTRL field (OS|USR, USR alone with
 *           exclude_kernel), FC3 = 0 then PERF_METRICS = 0, and
 *           IA32_PERF_GLOBAL_CTRL bits 35 and 48 (intel_pmu_enable_fixed,
 *           icl_set_topdown_event_period, intel_pmu_enable_all:
 *           linux arch/x86/events/intel/core.c);
 *   read    with GLOBAL_CTRL 0 around it (intel_pmu_read_event disables
 *           the PMU): slots = FC3, metrics = PERF_METRICS; each member
 *           adds floor(slots x field / 0xff) (icl_get_metrics_event_value,
 *           128-bit product: mul_u64_u32_div); then FC3 = 0, PERF_METRICS = 0 (the
 *           reset at every read, intel_update_topdown_event);
 *   reset   a read (the frozen update, which clears FC3 then PERF_METRICS),
 *           then the counts to 0 (PERF_EVENT_IOC_RESET);
 *   read_raw  FC3 and PERF_METRICS as they are (RDPMC through the user
 *           pages: the kernel is not involved, nothing is reset), while
 *           enabled (the page's index is 0 otherwise);
 *   disable the counts brought up to date, FC3's field cleared.
 * `fault perf_offset NODE PP` shifts NODE's fraction by PP points before
 * A raw group (an event recipe's pass, perf_group_spec.nraw): the kernel's
 * x86 event scheduling and programming (arch/x86/events/core.c
 * x86_schedule_events, x86_pmu_enable_event, x86_perf_event_update):
 *   enable  each event on a counter: a fixed one where the event is a fixed
 *           counter's (Intel: IA32_FIXED_CTR_CTRL field OS|USR, or USR
 *           alone with exclude_kernel, intel_pmu_enable_fixed), else the
 *           lowest free general-purpose counter its constraint allows
 *           (Intel IA32_PERFEVTSELx, AMD PERF_CTLx = config | INT | EN |
 *           USR [| OS]: x86_pmu_hw_config sets INT, the exclusions
 *           USR/OS); each counter = 0; then the global enables
 *           (IA32_PERF_GLOBAL_CTRL bit i / 32 + i; AMD PerfMonV2
 *           PERF_CNTR_GLOBAL_CTL bit i, amd_pmu_v2_enable_all);
 *   read    each counter, the count += (now - prev) modulo 2^48 (the
 *           counters' width on the simulated cores: SDM Vol. 3B 20.2.2
 *           leaf 0xA EAX[23:16], AMD_COUNTER_WIDTH), prev = now, as
 *           x86_perf_event_update; nothing is written;
 *   reset   a read, then the counts to 0;
 *   disable a read, then each counter's enable cleared (the event select
 *           without EN, the fixed field 0) and its global enable bit.
 * The counts are the hardware's exact: no quantisation.  A raw group may
 * hold topdown-* metric events (perf_raw_event.metric: Sunny Cove's recipe,
 * bench/source/perf_events.c) when slots leads it on fixed counter 3: they
 * take no counter; enable also clears PERF_METRICS after FC3 and sets
 * bit 48; each read is then the Top-down group's with the PMU disabled
 * (the slots member adds FC3, each metric member floor(slots x field /
 * 0xff), then FC3 = 0 and PERF_METRICS = 0: intel_update_topdown_event),
 * the other members read as above.
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
#include "cpu/escape.h"
#include "cpu/text.h"
#include "msr/open/msr_open.h"
#include "msr/regs/amd_regs.h"
#include "msr/regs/intel_regs.h"
#include "msr/sim/msr_sim.h"

struct perf_group {
	struct msr_dev *dev;
	unsigned cpu;
	int level;
	bool user_only;
	const struct sim_profile *prof;
	bool enabled;
	double t_on;                 /* ns when enabled */
	struct perf_group_values v;  /* the counts */
	/* a raw group (spec.nraw): each event's counter and last value */
	unsigned nraw;
	bool amd;
	bool metrics;                /* it holds topdown-* metric events (file comment) */
	struct perf_raw_event raw[PERF_RAW_MAX];
	int fixed[PERF_RAW_MAX];     /* fixed counter index, or -1 */
	int gp[PERF_RAW_MAX];        /* general-purpose counter index, or -1 */
	uint64_t prev[PERF_RAW_MAX];
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

#define RAW_GP_MAX 8u                      /* IA32_PERFEVTSEL0..7 (SDM Vol. 3B 20.2.1) */
#define RAW_WIDTH_MASK ((1ull << 48) - 1)  /* the counters' width (above) */

/* The counter register of event @i. */
static uint32_t raw_ctr(const struct perf_group *g, unsigned i)
{
	if (g->fixed[i] >= 0)
		return IA32_FIXED_CTR0 + (uint32_t)g->fixed[i];
	return g->amd ? AMD_PERF_CTR(g->gp[i]) : IA32_PMC0 + (uint32_t)g->gp[i];
}

/* The event select of general-purpose counter @c. */
static uint32_t raw_sel(const struct perf_group *g, int c)
{
	return g->amd ? AMD_PERF_CTL(c) : IA32_PERFEVTSEL0 + (uint32_t)c;
}

/* The general-purpose counters event @e may use: its constraint, else any. */
static unsigned raw_weight(const struct perf_raw_event *e, unsigned max)
{
	uint32_t have = max >= 32 ? ~0u : (1u << max) - 1;

	return (unsigned)__builtin_popcount(e->counters ? e->counters & have : have);
}

/* Place each event: a fixed counter when the recipe counts it on one
 * (Intel), else the lowest free general-purpose counter it may use that
 * the simulated core has (its event select reads), the most constrained
 * events first, as the kernel's x86_schedule_events assigns them by
 * weight (arch/x86/events/core.c perf_assign_events: wmin to wmax).
 * -EOPNOTSUPP when one cannot be placed (the kernel's -EINVAL). */
static int raw_schedule(struct perf_group *g, char **why)
{
	uint32_t used = 0, fused = 0;
	unsigned max = g->amd ? AMD_GP_MAX : RAW_GP_MAX;

	for (unsigned i = 0; i < g->nraw; i++) {
		const struct perf_raw_event *e = &g->raw[i];
		uint64_t v;

		g->fixed[i] = g->gp[i] = -1;
		if (e->metric) { /* no counter: FC3 and PERF_METRICS count it */
			if (g->amd || i == 0 || g->fixed[0] != 3 || e->metric_byte >= PERF_TD_NODES ||
			    msr_read(g->dev, g->cpu, IA32_PERF_METRICS, &v)) {
				text_setf(why, "cpu %u of the simulated PMU: '%s' is a topdown-* "
					 "event, which needs IA32_PERF_METRICS and the slots leader on "
					 "fixed counter 3 (intel_pmu_hw_config)", g->cpu, e->name);
				return -EOPNOTSUPP;
			}
			g->metrics = true;
			continue;
		}
		if (!g->amd && e->fixed >= 0 && e->fixed < 32 && !(fused & 1u << e->fixed) &&
		    !msr_read(g->dev, g->cpu, IA32_FIXED_CTR0 + (uint32_t)e->fixed, &v)) {
			fused |= 1u << e->fixed;
			g->fixed[i] = e->fixed;
		}
	}
	for (unsigned w = 0; w <= max; w++) /* weight 0: none it may use here, refused */
		for (unsigned i = 0; i < g->nraw; i++) {
			const struct perf_raw_event *e = &g->raw[i];
			uint64_t v;

			if (e->metric || g->fixed[i] >= 0 || raw_weight(e, max) != w)
				continue;
			for (unsigned c = 0; c < max && g->gp[i] < 0; c++)
				if (!(used & 1u << c) && (!e->counters || (e->counters & 1u << c)) &&
				    !msr_read(g->dev, g->cpu, raw_sel(g, (int)c), &v)) {
					used |= 1u << c;
					g->gp[i] = (int)c;
				}
			if (g->gp[i] < 0) {
				text_setf(why, "cpu %u of the simulated PMU has no free counter for "
					 "'%s' (config %#llx): the kernel cannot schedule the group",
					 g->cpu, e->name, (unsigned long long)e->config);
				return -EOPNOTSUPP;
			}
		}
	return 0;
}

/* The global enable register and event @i's bit in it. */
static uint32_t raw_global(const struct perf_group *g)
{
	return g->amd ? AMD_PERF_CNTR_GLOBAL_CTL : IA32_PERF_GLOBAL_CTRL;
}

static uint64_t raw_global_bit(const struct perf_group *g, unsigned i)
{
	if (g->raw[i].metric)
		return GLOBAL_CTRL_EN_PERF_METRICS;
	return g->fixed[i] >= 0 ? 1ull << (32 + g->fixed[i]) : 1ull << g->gp[i];
}

static int raw_enable(struct perf_group *g)
{
	uint64_t usr = g->amd ? AMD_PERF_CTL_USR : PERFEVTSEL_USR;
	uint64_t os = g->user_only ? 0 : g->amd ? AMD_PERF_CTL_OS : PERFEVTSEL_OS;
	uint64_t gc, bits = 0, fcc = 0;
	int rc = msr_read(g->dev, g->cpu, raw_global(g), &gc);

	if (!rc && !g->amd)
		rc = msr_read(g->dev, g->cpu, IA32_FIXED_CTR_CTRL, &fcc);
	for (unsigned i = 0; !rc && i < g->nraw; i++) {
		bits |= raw_global_bit(g, i);
		if (g->raw[i].metric)
			continue;
		if (g->fixed[i] >= 0) {
			unsigned sh = 4u * (unsigned)g->fixed[i];

			fcc = (fcc & ~(0xfull << sh)) |
			      (g->user_only ? FIXED_CTR_CTRL_EN_USR
					    : FIXED_CTR_CTRL_EN_OS | FIXED_CTR_CTRL_EN_USR) << sh;
			rc = msr_write(g->dev, g->cpu, IA32_FIXED_CTR_CTRL, fcc);
		} else {
			/* INT, EN: bits 20, 22 on both (AMD_PERF_CTL_INT, _EN) */
			rc = msr_write(g->dev, g->cpu, raw_sel(g, g->gp[i]), g->raw[i].config |
				       PERFEVTSEL_INT | PERFEVTSEL_EN | usr | os);
		}
		if (!rc)
			rc = msr_write(g->dev, g->cpu, raw_ctr(g, i), 0);
		g->prev[i] = 0;
	}
	/* after FC3 (the leader's, above): the kernel's order, icl_set_topdown_event_period */
	if (!rc && g->metrics)
		rc = msr_write(g->dev, g->cpu, IA32_PERF_METRICS, 0);
	if (!rc)
		rc = msr_write(g->dev, g->cpu, raw_global(g), gc | bits);
	if (!rc) {
		g->enabled = true;
		g->t_on = now_ns();
	}
	return rc;
}

static void fractions(const struct perf_group *g, uint64_t metrics, double f[PERF_TD_NODES]);
static int clear_counters(struct perf_group *g);

/* Add @d to event @i's count (the leader's is slots). */
static void raw_add(struct perf_group *g, unsigned i, uint64_t d)
{
	if (i == 0)
		g->v.slots += d;
	else
		g->v.td[i - 1] += d;
}

/* A group with topdown-* events: intel_update_topdown_event with the PMU
 * disabled - the slots member adds FC3, each metric member floor(slots x
 * field / 0xff) (the perf_offset fault's fractions where the profile has
 * one), then FC3 = 0 and PERF_METRICS = 0; the other members' deltas. */
static int raw_update_metrics(struct perf_group *g)
{
	uint64_t gc, slots = 0, metrics = 0;
	double f[PERF_TD_NODES];
	int rc = msr_read(g->dev, g->cpu, IA32_PERF_GLOBAL_CTRL, &gc);

	if (!rc)
		rc = msr_write(g->dev, g->cpu, IA32_PERF_GLOBAL_CTRL, 0);
	if (!rc)
		rc = msr_read(g->dev, g->cpu, IA32_FIXED_CTR3, &slots);
	if (!rc)
		rc = msr_read(g->dev, g->cpu, IA32_PERF_METRICS, &metrics);
	fractions(g, metrics, f);
	for (unsigned i = 0; !rc && i < g->nraw; i++) {
		const struct perf_raw_event *e = &g->raw[i];
		unsigned field = (unsigned)(metrics >> (8 * e->metric_byte) & 0xff);
		uint64_t now, d;

		if (e->metric) {
			raw_add(g, i, g->prof && (g->prof->faults & SIM_FAULT_PERF_OFFSET) ?
				(uint64_t)floor((double)slots * f[e->metric_byte]) :
				(uint64_t)((unsigned __int128)slots * field / 0xff));
			continue;
		}
		if (g->fixed[i] == 3) {
			raw_add(g, i, slots);
			continue;
		}
		if ((rc = msr_read(g->dev, g->cpu, raw_ctr(g, i), &now)))
			break;
		d = (now - g->prev[i]) & RAW_WIDTH_MASK;
		g->prev[i] = now;
		raw_add(g, i, d);
	}
	if (!rc && slots)
		rc = clear_counters(g);
	/* counting again, whatever failed: never left frozen */
	{
		int rc2 = msr_write(g->dev, g->cpu, IA32_PERF_GLOBAL_CTRL, gc);

		return rc ? rc : rc2;
	}
}

/* x86_perf_event_update of every event: the counts brought up to date. */
static int raw_update(struct perf_group *g)
{
	if (g->metrics)
		return raw_update_metrics(g);
	for (unsigned i = 0; i < g->nraw; i++) {
		uint64_t now, d;
		int rc = msr_read(g->dev, g->cpu, raw_ctr(g, i), &now);

		if (rc)
			return rc;
		d = (now - g->prev[i]) & RAW_WIDTH_MASK;
		g->prev[i] = now;
		raw_add(g, i, d);
	}
	return 0;
}

static int raw_disable(struct perf_group *g)
{
	uint64_t gc, sel, fcc;
	int rc = raw_update(g);

	if (!rc)
		rc = msr_read(g->dev, g->cpu, raw_global(g), &gc);
	for (unsigned i = 0; !rc && i < g->nraw; i++) {
		if (g->raw[i].metric) /* no counter; bit 48 as the kernel leaves it */
			continue;
		gc &= ~raw_global_bit(g, i);
		/* fault perf_keeps_counters: fixed counter 3's field left enabled,
		 * as if another perf session still counted (td group's sim_disable) */
		if (g->fixed[i] == 3 && g->prof && (g->prof->faults & SIM_FAULT_PERF_KEEPS)) {
			gc |= raw_global_bit(g, i);
			continue;
		}
		if (g->fixed[i] >= 0) {
			rc = msr_read(g->dev, g->cpu, IA32_FIXED_CTR_CTRL, &fcc);
			if (!rc)
				rc = msr_write(g->dev, g->cpu, IA32_FIXED_CTR_CTRL,
					       fcc & ~(0xfull << (4u * (unsigned)g->fixed[i])));
		} else {
			rc = msr_read(g->dev, g->cpu, raw_sel(g, g->gp[i]), &sel);
			if (!rc)
				rc = msr_write(g->dev, g->cpu, raw_sel(g, g->gp[i]),
					       sel & ~PERFEVTSEL_EN);
		}
	}
	if (!rc)
		rc = msr_write(g->dev, g->cpu, raw_global(g), gc);
	g->enabled = false;
	return rc;
}


static int sim_open(const char *arg, const struct perf_group_spec *spec, struct perf_group **out,
		    char **why)
{
	struct perf_group *g = calloc(1, sizeof(*g));
	char *dspec = NULL, *shown = esc_strdup(arg ? arg : ""); /* the profile: escaped */
	uint64_t v;
	int rc;

	*out = NULL;
	if (!g || !shown || text_setf(&dspec, "sim:%s", arg ? arg : "")) {
		free(g);
		free(shown);
		return -ENOMEM;
	}
	/* the machine described: the same simulated machine as the session's
	 * MSR backend (msr_open_on: one machine per profile and dump) */
	if ((rc = msr_open_on(dspec, spec->cpuid_dump, &g->dev))) {
		text_setf(why, "simulated PMU '%s': %s", shown, msr_last_error());
		goto fail;
	}
	/* the kernel's writes, not baretma's: no journal of ours gates them */
	if ((rc = msr_ungate(g->dev))) {
		text_setf(why, "simulated PMU '%s': not the simulator", shown);
		goto fail;
	}
	g->cpu = spec->cpu;
	g->user_only = spec->user_only;
	g->prof = msr_sim_profile_of(g->dev);
	if (spec->nraw) {
		if (!spec->raw || spec->nraw > PERF_RAW_MAX || spec->how != PERF_READ_SYSCALL) {
			text_setf(why, "a raw group of 1 to %u events, read with read(2)",
				 PERF_RAW_MAX);
			rc = -EINVAL;
			goto fail;
		}
		g->nraw = spec->nraw;
		g->amd = spec->amd;
		memcpy(g->raw, spec->raw, spec->nraw * sizeof(*spec->raw));
		if ((rc = raw_schedule(g, why)))
			goto fail;
		*out = g;
		goto out;
	}
	/* no counter at all: the kernel registers no "cpu" PMU (linux
	 * arch/x86/kernel/cpu/intel.c sets X86_FEATURE_ARCH_PERFMON only from
	 * a non-zero leaf 0xA version; without it arch/x86/events/intel/core.c
	 * intel_pmu_init returns -ENODEV on any family-6 core after P6) */
	if (!msr_sim_pmu_version(g->dev)) {
		text_setf(why, "the simulated PMU '%s' has no performance counters (CPUID leaf "
			 "0xA reports architectural perfmon version %u): the kernel registers no "
			 "'cpu' PMU", shown, msr_sim_pmu_version(g->dev));
		rc = -EOPNOTSUPP;
		goto fail;
	}
	rc = msr_read(g->dev, spec->cpu, IA32_PERF_METRICS, &v);
	if (rc == -EIO || (!rc && spec->level > msr_sim_level(g->dev, spec->cpu))) {
		text_setf(why, "cpu %u of the simulated PMU lists no %s events (its core has "
			 "%s): the kernel shows topdown-* events only where PERF_METRICS has them",
			 spec->cpu, rc ? "topdown" : "level-2 topdown",
			 rc ? "no IA32_PERF_METRICS, e.g. a hybrid E-core" : "level 1 only");
		rc = -EOPNOTSUPP;
	} else if (rc) {
		text_setf(why, "cpu %u of the simulated PMU: %s", spec->cpu, strerror(-rc));
	}
	if (rc)
		goto fail;
	g->cpu = spec->cpu;
	g->level = spec->level >= 2 ? 2 : 1;
	g->user_only = spec->user_only;
	g->prof = msr_sim_profile_of(g->dev);
	*out = g;
	goto out;
fail:
	msr_close(g->dev);
	free(g);
out:
	free(dspec);
	free(shown);
	return rc;
}

/* FC3 then PERF_METRICS to 0 (the kernel's order, icl_set_topdown_event_period). */
static int clear_counters(struct perf_group *g)
{
	int rc = msr_write(g->dev, g->cpu, IA32_FIXED_CTR3, 0);

	return rc ? rc : msr_write(g->dev, g->cpu, IA32_PERF_METRICS, 0);
}

static int td_enable(struct perf_group *g)
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

static int sim_enable(struct perf_group *g)
{
	return g->nraw ? raw_enable(g) : td_enable(g);
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
	int rc;

	if (g->nraw)
		return raw_update(g);
	rc = msr_read(g->dev, g->cpu, IA32_PERF_GLOBAL_CTRL, &gc);

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

	if (!g->enabled || g->nraw)
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
	if (g->nraw)
		return raw_disable(g);
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
