/*
 * bench/study/validate_pmu.c - the register checks of `baretma validate`
 * (bench/study/validate.h): fixed counter 3, IA32_PERF_METRICS, the overflow
 * bits, RDPMC.  Each states the expectation and its source; each reads and
 * writes through vc_read/vc_write (saved in the run's journal first).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench/study/validate.h"
#include "cpu/cpu.h"
#include "cpu/machine.h"
#include "msr/regs/intel_regs.h"
#include "msr/pmu/pmu.h"
#include "msr/regs/rdpmc.h"
#include "msr/recipe/topdown.h"

#define SRC_FC3 "SDM vol. 3B: fixed counter 3 counts TOPDOWN.SLOTS while its IA32_FIXED_CTR_CTRL " \
	"field and IA32_PERF_GLOBAL_CTRL bit 35 are set (linux arch/x86/include/asm/" \
	"perf_event.h INTEL_FIXED_BITS_STRIDE, INTEL_PMC_IDX_FIXED)"
#define SRC_WIDTH "TOPDOWN.SLOTS = pipeline width x CPU_CLK_UNHALTED.THREAD (fixed counter 1); " \
	"width from baretma's model table of CPUID family/model (intel/perfmon " \
	"TMA_Metrics-full.csv and E-core_TMA_Metrics.csv Pipeline_Width)"

#define FIELD_ON (FIXED_CTR_CTRL_EN_OS | FIXED_CTR_CTRL_EN_USR)

/* Freeze (GLOBAL_CTRL 0): what the kernel does around its reads. */
int vc_freeze(struct validate_ctx *c)
{
	int rc = vc_save(c, IA32_PERF_GLOBAL_CTRL);

	return rc ? rc : pmu_freeze(c->o->dev, c->cpu);
}

/* FC3 on, reset (FC3 then PERF_METRICS: the order of linux
 * arch/x86/events/intel/core.c icl_set_topdown_event_period), then enabled: msr/pmu/pmu.c's
 * pmu_region_start, every register it writes saved first. */
int vc_start(struct validate_ctx *c, bool metrics, uint64_t fc3_extra, uint64_t other_fields,
	     uint64_t other_enable)
{
	struct pmu_region r = { .perf_metrics = c->level >= 1, .metrics = metrics && c->level >= 1,
				.field = FIELD_ON | fc3_extra, .other_fields = other_fields,
				.other_enable = other_enable };
	static const uint32_t regs[] = { IA32_PERF_GLOBAL_CTRL, IA32_FIXED_CTR_CTRL,
					 IA32_FIXED_CTR3, IA32_PERF_METRICS };
	int rc = 0;

	for (size_t i = 0; !rc && i < sizeof(regs) / sizeof(regs[0]); i++)
		if (regs[i] != IA32_PERF_METRICS || r.perf_metrics)
			rc = vc_save(c, regs[i]);
	return rc ? rc : pmu_region_start(c->o->dev, c->cpu, &r);
}

void vc_failed(struct validate_ctx *c, const char *id, const char *src, int rc)
{
	vc_add(c, id, src, VALIDATE_SKIP, "an MSR access failed: %s", strerror(-rc));
	c->err = rc;
}

static void fc3_counts(struct validate_ctx *c)
{
	struct validate_result *r;
	uint64_t v = 0;
	int rc = vc_start(c, false, 0, 0, 0);

	vc_work();
	if (!rc)
		rc = vc_freeze(c);
	if (!rc)
		rc = vc_read(c, IA32_FIXED_CTR3, &v);
	if (rc) {
		vc_failed(c, "fc3_counts", SRC_FC3, rc);
		return;
	}
	c->fc3_counts = v > 0;
	r = vc_add(c, "fc3_counts", SRC_FC3, v ? VALIDATE_PASS : VALIDATE_FAIL,
		   v ? "" : "fixed counter 3 did not count while enabled");
	vc_measured(c, r, "%" PRIu64 " slots over 20000 dependent ADDs", v);
	vc_expected(c, r, "> 0");
}

static void fc3_frozen(struct validate_ctx *c)
{
	struct validate_result *r;
	uint64_t a = 0, b = 0;
	int rc;

	if (!c->fc3_counts) {
		vc_add(c, "fc3_frozen_holds", SRC_FC3, VALIDATE_SKIP, "depends on fc3_counts");
		return;
	}
	rc = vc_read(c, IA32_FIXED_CTR3, &a); /* frozen since fc3_counts */
	vc_work();
	if (!rc)
		rc = vc_read(c, IA32_FIXED_CTR3, &b);
	if (rc) {
		vc_failed(c, "fc3_frozen_holds", SRC_FC3, rc);
		return;
	}
	r = vc_add(c, "fc3_frozen_holds", SRC_FC3, a == b ? VALIDATE_PASS : VALIDATE_FAIL,
		   a == b ? "" : "fixed counter 3 moved with GLOBAL_CTRL 0");
	vc_measured(c, r, "%" PRIu64 " then %" PRIu64, a, b);
	vc_expected(c, r, "unchanged while frozen");
}

static void fc3_write_zero(struct validate_ctx *c)
{
	struct validate_result *r;
	uint64_t v = 1;
	int rc = vc_write(c, IA32_FIXED_CTR3, 0);

	if (!rc)
		rc = vc_read(c, IA32_FIXED_CTR3, &v);
	if (rc) {
		vc_failed(c, "fc3_write_zero", SRC_FC3, rc);
		return;
	}
	r = vc_add(c, "fc3_write_zero", SRC_FC3, v ? VALIDATE_FAIL : VALIDATE_PASS,
		   v ? "fixed counter 3 not 0 after a write of 0 (frozen)" : "");
	vc_measured(c, r, "%" PRIu64, v);
	vc_expected(c, r, "0");
}

/*
 * SMT: TOPDOWN.SLOTS "is distributed among unhalted logical processors
 * (hyper-threads) who share the same physical core" (its description in
 * linux tools/perf/pmu-events/arch/x86/icelake/pipeline.json and every
 * later core's), so a sibling that runs during the region takes slots from
 * this thread and the ratio falls below the width without any fault.  On
 * this machine's CPUs (not a dump's, which run nothing) with an online
 * sibling (cpu/cpu.h cpu_smt_siblings), the region lasts until /proc/stat
 * shows every sibling idle for SMT_IDLE_TICKS ticks (its idle time, exact
 * under NO_HZ, advanced, its busy time did not) - or SKIP when a sibling
 * ran (busy time advanced) or was not seen idle within SMT_WINDOW_NS.
 * Not seen: a sibling that runs for less than a tick between idle
 * periods, which busy time (sampled at the tick) does not charge.
 */
#define SMT_MAX 8
#define SMT_IDLE_TICKS 2
#define SMT_WINDOW_NS 250000000ull

struct smt_watch {
	unsigned n, sib[SMT_MAX];
	struct cpu_stat_times t0[SMT_MAX];
	const char *why;         /* NULL: every sibling idle; else the SKIP reason */
	char buf[200];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The siblings to watch, and their times now.  A reason to SKIP, or NULL. */
static const char *smt_begin(struct validate_ctx *c, struct smt_watch *w)
{
	int n;

	w->n = 0;
	if (cpu_machine_is_dump(c->o->machine))
		return NULL;
	n = cpu_smt_siblings(c->cpu, w->sib, SMT_MAX);
	if (n < 0) {
		snprintf(w->buf, sizeof(w->buf), "cannot tell whether an SMT sibling shares cpu %u's "
			 "core (its topology/thread_siblings_list: %s)", c->cpu, strerror(-n));
		return w->buf;
	}
	w->n = (unsigned)n;
	for (unsigned i = 0; i < w->n; i++) {
		int rc = cpu_stat_read(w->sib[i], &w->t0[i]);

		if (rc) {
			snprintf(w->buf, sizeof(w->buf), "SMT sibling cpu %u shares the core, and "
				 "/proc/stat does not say whether it ran (%s)", w->sib[i],
				 strerror(-rc));
			return w->buf;
		}
	}
	return NULL;
}

/* Work in the region until every sibling is seen idle, one runs, or the
 * window ends (w->why). */
static void smt_region(struct smt_watch *w)
{
	uint64_t end = now_ns() + SMT_WINDOW_NS;
	bool all_idle = false;

	vc_work();
	while (w->n && !all_idle) {
		all_idle = true;
		for (unsigned i = 0; i < w->n; i++) {
			struct cpu_stat_times t;

			if (cpu_stat_read(w->sib[i], &t) || t.busy != w->t0[i].busy) {
				snprintf(w->buf, sizeof(w->buf), "SMT sibling cpu %u ran during the check "
					 "(/proc/stat: its busy time advanced): TOPDOWN.SLOTS is shared "
					 "among a core's unhalted threads; run with cpu %u idle",
					 w->sib[i], w->sib[i]);
				w->why = w->buf;
				return;
			}
			all_idle &= t.idle >= w->t0[i].idle + SMT_IDLE_TICKS;
		}
		if (!all_idle && now_ns() > end) {
			snprintf(w->buf, sizeof(w->buf), "SMT sibling cpu %u not seen idle within "
				 "%llu ms (/proc/stat: its idle time did not advance %u ticks): "
				 "TOPDOWN.SLOTS is shared among a core's unhalted threads", w->sib[0],
				 SMT_WINDOW_NS / 1000000ull, SMT_IDLE_TICKS);
			w->why = w->buf;
			return;
		}
		vc_work();
	}
}

/* TOPDOWN.SLOTS / CPU_CLK_UNHALTED.THREAD over one region = the width. */
static void slots_per_cycle(struct validate_ctx *c)
{
	const uint64_t fc1_on = FIELD_ON << FIXED_CTR_CTRL_SHIFT(1);
	struct validate_result *r;
	struct smt_watch sw = { 0 };
	uint64_t a = 0, b = 0, s = 0;
	double ratio, w = c->kind->pipeline_width;
	const char *skip = NULL;
	char note[64] = "";
	int rc;

	if (!c->fc3_counts || !(c->kind->fixed_mask & 2u) || !w) {
		vc_add(c, "slots_per_cycle", SRC_WIDTH, VALIDATE_SKIP, "%s",
		       !c->fc3_counts ? "depends on fc3_counts" : !w ?
		       "no pipeline width in the model table for this core" :
		       "no fixed counter 1 (CPU_CLK_UNHALTED.THREAD) on this core");
		return;
	}
	if ((skip = smt_begin(c, &sw))) {
		vc_add(c, "slots_per_cycle", SRC_WIDTH, VALIDATE_SKIP, "%s", skip);
		return;
	}
	rc = vc_freeze(c);
	if (!rc)
		rc = vc_read(c, IA32_FIXED_CTR0 + 1, &a);
	/* written with its own value, so that it is saved: it counts while
	 * enabled here, and the restore puts the value found back */
	if (!rc)
		rc = vc_write(c, IA32_FIXED_CTR0 + 1, a);
	if (!rc)
		rc = vc_start(c, false, 0, fc1_on, 1ull << GLOBAL_FIXED_BIT(1));
	smt_region(&sw);
	if (!rc)
		rc = vc_freeze(c);
	if (!rc)
		rc = vc_read(c, IA32_FIXED_CTR0 + 1, &b);
	if (!rc)
		rc = vc_read(c, IA32_FIXED_CTR3, &s);
	if (rc) {
		vc_failed(c, "slots_per_cycle", SRC_WIDTH, rc);
		return;
	}
	if (sw.why) {
		vc_add(c, "slots_per_cycle", SRC_WIDTH, VALIDATE_SKIP, "%s", sw.why);
		return;
	}
	if (sw.n)
		snprintf(note, sizeof(note), ", SMT sibling cpu %u idle", sw.sib[0]);
	ratio = b > a ? (double)s / (double)(b - a) : 0;
	r = vc_add(c, "slots_per_cycle", SRC_WIDTH,
		   ratio >= w * 0.99 && ratio <= w * 1.01 ? VALIDATE_PASS : VALIDATE_FAIL,
		   ratio >= w * 0.99 && ratio <= w * 1.01 ? "" :
		   "slots per core cycle is not the pipeline width");
	vc_measured(c, r, "%.4f (%" PRIu64 " slots / %" PRIu64
		 " cycles%s)", ratio, s, b - a, note);
	vc_expected(c, r, "%.0f +/- 1%% (%s)", w, c->kind->uarch);
}

void validate_fc3(struct validate_ctx *c)
{
	if (!c->kind->fixed_ctr3) {
		vc_add(c, "fc3_counts", SRC_FC3, VALIDATE_SKIP, "no fixed counter 3 on this core "
		       "(%s)", c->kind->uarch);
		return;
	}
	fc3_counts(c);
	if (!c->err)
		fc3_frozen(c);
	if (!c->err)
		fc3_write_zero(c);
	if (!c->err)
		slots_per_cycle(c);
}
