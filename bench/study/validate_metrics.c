/*
 * bench/study/validate_metrics.c - the IA32_PERF_METRICS, overflow and RDPMC
 * checks of `baretma validate` (bench/study/validate.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bench/study/validate.h"
#include "cpu/machine.h"
#include "msr/regs/intel_regs.h"
#include "msr/pmu/pmu.h"
#include "msr/regs/rdpmc.h"
#include "msr/recipe/topdown.h"

#define SRC_PM "PERF_METRICS: fractions of the slots fixed counter 3 counted since both were " \
	"cleared, with GLOBAL_CTRL bit 48; a write of 0 clears it (linux " \
	"arch/x86/events/intel/core.c icl_set_topdown_event_period: \"derived from fixed " \
	"counter 3\"; arch/x86/include/asm/perf_event.h GLOBAL_CTRL_EN_PERF_METRICS)"
/* SRC_SUM and SRC_L2 give the tolerances' values (msr/topdown.h derives them). */
_Static_assert(TD_L1_SUM_TOLERANCE == 3 && TD_L2_ABOVE_TOLERANCE == 1, "as SRC_SUM, SRC_L2 say");
#define SRC_SUM "the four level-1 bytes sum to 0xff (linux tools/perf/Documentation/" \
	"topdown.txt), each rounded on its own: within 3 of 0xff (each byte less than 1 off)"
#define SRC_L2 "level-2 fields are parts of their level-1 parent (linux tools/perf/" \
	"Documentation/topdown.txt; intel/perfmon TMA_Metrics-full.csv); each byte rounded on " \
	"its own: a child at most 1 above its parent"
#define SRC_OVF "IA32_PERF_GLOBAL_STATUS bit 35 on fixed counter 3 overflow, cleared by " \
	"writing 1s to 0x390 (SDM vol. 3B; linux arch/x86/events/intel/core.c " \
	"intel_pmu_ack_status, handle_pmi_common)"
#define SRC_QUIET "IA32_PERF_GLOBAL_STATUS bits 35/48 set only on an overflow (linux " \
	"arch/x86/include/asm/perf_event.h GLOBAL_STATUS_PERF_METRICS_OVF_BIT; " \
	"arch/x86/events/intel/core.c handle_pmi_common); none can happen in a short region"
#define SRC_RDPMC "RDPMC (1<<30)|3 reads IA32_FIXED_CTR3, RDPMC 1<<29 IA32_PERF_METRICS " \
	"(linux arch/x86/include/asm/perf_event.h INTEL_PMC_FIXED_RDPMC_BASE, " \
	"INTEL_PMC_FIXED_RDPMC_METRICS)"
#define SRC_MCLEAR "RDPMC metrics-clear mode (IA32_PERF_CAPABILITIES bit 19, " \
	"IA32_FIXED_CTR_CTRL bit 14): an RDPMC of PERF_METRICS returns it, then clears it and " \
	"fixed counter 3, which count on (linux commit 0e45818ec189, \"perf/x86/intel: Support " \
	"RDPMC metrics clear mode\")"

#define OVF_BITS (GLOBAL_STATUS_OVF_FIXED3 | GLOBAL_STATUS_OVF_PERF_METRICS)
#define QUIET_READS 64u

static void follow(struct validate_ctx *c)
{
	struct validate_result *r;
	uint64_t v = 0;
	int rc = vc_start(c, true, 0, 0, 0);

	vc_work();
	if (!rc)
		rc = vc_freeze(c);
	if (!rc)
		rc = vc_read(c, IA32_PERF_METRICS, &v);
	if (rc) {
		vc_failed(c, "metrics_follow_fc3", SRC_PM, rc);
		return;
	}
	c->metrics = v;
	c->metrics_ok = v != 0;
	r = vc_add(c, "metrics_follow_fc3", SRC_PM, v ? VALIDATE_PASS : VALIDATE_FAIL,
		   v ? "" : "PERF_METRICS stayed 0 over a region fixed counter 3 counted");
	vc_measured(c, r, "0x%016" PRIx64, v);
	vc_expected(c, r, "non-zero after 20000 dependent ADDs");
}

static void write_zero(struct validate_ctx *c)
{
	struct validate_result *r;
	uint64_t v = 1;
	int rc;

	if (!c->metrics_ok) {
		vc_add(c, "metrics_write_zero", SRC_PM, VALIDATE_SKIP, "depends on metrics_follow_fc3");
		return;
	}
	/* Frozen since follow(); fixed counter 3 first, then PERF_METRICS, the
	 * kernel's order (icl_set_topdown_event_period: "The fixed counter 3
	 * has to be written before the PERF_METRICS"): the metrics are
	 * fractions of its slots, written with their base. */
	rc = vc_write(c, IA32_FIXED_CTR3, 0);
	if (!rc)
		rc = vc_write(c, IA32_PERF_METRICS, 0);
	if (!rc)
		rc = vc_read(c, IA32_PERF_METRICS, &v);
	if (rc) {
		vc_failed(c, "metrics_write_zero", SRC_PM, rc);
		return;
	}
	r = vc_add(c, "metrics_write_zero", SRC_PM, v ? VALIDATE_FAIL : VALIDATE_PASS,
		   v ? "PERF_METRICS kept its value after a write of 0" : "");
	vc_measured(c, r, "0x%016" PRIx64, v);
	vc_expected(c, r, "0 (frozen, written 0)");
}

static void l1_sum(struct validate_ctx *c)
{
	struct validate_result *r;
	unsigned s = td_l1_sum(c->metrics);
	bool ok = s + TD_L1_SUM_TOLERANCE >= 255 && s <= 255 + TD_L1_SUM_TOLERANCE;

	if (!c->metrics_ok) {
		vc_add(c, "level1_sum", SRC_SUM, VALIDATE_SKIP, "depends on metrics_follow_fc3");
		return;
	}
	r = vc_add(c, "level1_sum", SRC_SUM, ok ? VALIDATE_PASS : VALIDATE_FAIL,
		   ok ? "" : "the level-1 bytes do not sum to 255 within the rounding");
	vc_measured(c, r, "%u", s);
	vc_expected(c, r, "255 +/- %u", TD_L1_SUM_TOLERANCE);
}

static void l2_within(struct validate_ctx *c)
{
	struct validate_result *r;
	char m[160] = "";
	bool ok = true;

	if (c->level < 2 || !c->metrics_ok) {
		vc_add(c, "level2_within_parent", SRC_L2, VALIDATE_SKIP, "%s", c->level < 2 ?
		       "a level-1 CPU (bytes 4-7 are not defined)" : "depends on metrics_follow_fc3");
		return;
	}
	for (unsigned i = 0; i < 4; i++) {
		unsigned child = (unsigned)(c->metrics >> (8 * (i + 4))) & 0xff;
		unsigned parent = (unsigned)(c->metrics >> (8 * i)) & 0xff;
		size_t used = strlen(m);

		ok &= child <= parent + TD_L2_ABOVE_TOLERANCE;
		snprintf(m + used, sizeof(m) - used, "%s%u/%u", i ? " " : "", child, parent);
	}
	r = vc_add(c, "level2_within_parent", SRC_L2, ok ? VALIDATE_PASS : VALIDATE_FAIL,
		   ok ? "" : "a level-2 byte is above its level-1 parent");
	vc_measured(c, r, "child/parent bytes %s", m);
	vc_expected(c, r, "each child <= parent + %u",
		 TD_L2_ABOVE_TOLERANCE);
}

/* Clear the overflow bits: 0x390 is write-1-to-clear (not journaled). */
static int clear_status(struct validate_ctx *c)
{
	return pmu_clear_overflow(c->o->dev, c->cpu, c->level >= 1);
}

/* Fixed counter 3 started 1000 below its width wraps in the region. */
static void overflow(struct validate_ctx *c)
{
	unsigned w = c->ci->pmu.fixed_width >= 8 && c->ci->pmu.fixed_width < 64 ?
		     c->ci->pmu.fixed_width : 48;
	struct validate_result *r;
	uint64_t st = 0, after = OVF_BITS;
	int rc;

	if (!c->fc3_counts) {
		vc_add(c, "overflow_sets_status", SRC_OVF, VALIDATE_SKIP, "depends on fc3_counts");
		return;
	}
	rc = vc_start(c, true, 0, 0, 0);
	if (!rc)
		rc = vc_freeze(c);
	if (!rc)
		rc = clear_status(c);
	if (!rc)
		rc = vc_write(c, IA32_FIXED_CTR3, (1ull << w) - 1000);
	if (!rc)
		rc = pmu_region_enable(c->o->dev, c->cpu, &(struct pmu_region){
			.perf_metrics = c->level >= 1, .metrics = c->level >= 1,
			.field = FIXED_CTR_CTRL_EN_OS | FIXED_CTR_CTRL_EN_USR });
	vc_work();
	if (!rc)
		rc = vc_freeze(c);
	if (!rc)
		rc = vc_read(c, IA32_PERF_GLOBAL_STATUS, &st);
	if (!rc)
		rc = clear_status(c);
	if (!rc)
		rc = vc_read(c, IA32_PERF_GLOBAL_STATUS, &after);
	if (rc) {
		vc_failed(c, "overflow_sets_status", SRC_OVF, rc);
		return;
	}
	bool ok = (st & GLOBAL_STATUS_OVF_FIXED3) && !(after & OVF_BITS);
	r = vc_add(c, "overflow_sets_status", SRC_OVF, ok ? VALIDATE_PASS : VALIDATE_FAIL, "%s",
		   ok ? "" : !(st & GLOBAL_STATUS_OVF_FIXED3) ? "bit 35 not set by the wrap"
							 : "0x390 did not clear the bits");
	vc_measured(c, r, "bit 35 %s, bit 48 %s; after 0x390: %s",
		 st & GLOBAL_STATUS_OVF_FIXED3 ? "set" : "clear",
		 st & GLOBAL_STATUS_OVF_PERF_METRICS ? "set" : "clear",
		 after & OVF_BITS ? "still set" : "clear");
	vc_expected(c, r, "bit 35 set by a wrap at 2^%u; cleared", w);
}

/* No overflow bit without an overflow, over a short region and many reads. */
static void quiet(struct validate_ctx *c)
{
	struct validate_result *r;
	uint64_t st = 0, v;
	int rc = vc_freeze(c);

	if (!rc)
		rc = clear_status(c);
	if (!rc)
		rc = vc_start(c, true, 0, 0, 0);
	vc_work();
	for (unsigned i = 0; !rc && i < QUIET_READS; i++)
		rc = vc_read(c, c->level ? IA32_PERF_METRICS : IA32_FIXED_CTR3, &v);
	if (!rc)
		rc = vc_freeze(c);
	if (!rc)
		rc = vc_read(c, IA32_PERF_GLOBAL_STATUS, &st);
	if (!rc)
		rc = clear_status(c);
	if (rc) {
		vc_failed(c, "status_quiet", SRC_QUIET, rc);
		return;
	}
	r = vc_add(c, "status_quiet", SRC_QUIET, st & OVF_BITS ? VALIDATE_FAIL : VALIDATE_PASS,
		   st & OVF_BITS ? "an overflow bit was set without an overflow" : "");
	vc_measured(c, r, "IA32_PERF_GLOBAL_STATUS 0x%" PRIx64
		 " after %u reads", st, QUIET_READS);
	vc_expected(c, r, "bits 35 and 48 clear");
}

void validate_metrics(struct validate_ctx *c)
{
	if (c->level < 1) {
		vc_add(c, "metrics_follow_fc3", SRC_PM, VALIDATE_SKIP, "no IA32_PERF_METRICS on "
		       "this core (%s): the metrics checks do not apply", c->kind->uarch);
	} else {
		follow(c);
		if (!c->err)
			write_zero(c);
		if (!c->err)
			l1_sum(c);
		if (!c->err)
			l2_within(c);
	}
	if (!c->err && c->kind->fixed_ctr3)
		overflow(c);
	if (!c->err && c->kind->fixed_ctr3)
		quiet(c);
}

/* ------------------------------------------------------------- RDPMC */

static void rdpmc_matches(struct validate_ctx *c)
{
	struct validate_result *r;
	uint64_t ms = 0, mm = 0, rs, rm;
	int rc = vc_start(c, true, 0, 0, 0);

	vc_work();
	if (!rc)
		rc = vc_freeze(c);
	if (!rc)
		rc = vc_read(c, IA32_FIXED_CTR3, &ms);
	if (!rc && c->level)
		rc = vc_read(c, IA32_PERF_METRICS, &mm);
	if (rc) {
		vc_failed(c, "rdpmc_matches_msr", SRC_RDPMC, rc);
		return;
	}
	rs = rdpmc_fenced(RDPMC_ECX_SLOTS);
	rm = c->level ? rdpmc_fenced(RDPMC_PERF_METRICS) : 0;
	r = vc_add(c, "rdpmc_matches_msr", SRC_RDPMC, rs == ms && rm == mm ? VALIDATE_PASS
			   : VALIDATE_FAIL, rs == ms && rm == mm ? "" : "RDPMC and RDMSR differ "
			   "on frozen counters");
	vc_measured(c, r, "RDPMC 0x%" PRIx64 " 0x%" PRIx64, rs, rm);
	vc_expected(c, r, "RDMSR 0x%" PRIx64 " 0x%" PRIx64, ms, mm);
}

/*
 * Metrics-clear mode (Lion Cove and later): "The new RDPMC enhancement,
 * metrics clear mode, is to clear the PERF_METRICS-related resources as
 * well as the fixed-function performance monitoring counter 3 after the
 * read is performed.  It is available for ring 3." (linux commit
 * 0e45818ec189 "perf/x86/intel: Support RDPMC metrics clear mode";
 * tools/perf/Documentation/topdown.txt: "The metrics and the fixed
 * counter 3 are automatically cleared after the read is performed").  So
 * the RDPMC of PERF_METRICS returns the value from before the clear, and
 * both counters, still enabled, count again from 0: PERF_METRICS read
 * later is the fractions of the few slots since, not 0.  What is checked
 * is what the text says: the read returns a value (non-zero after a
 * region), and fixed counter 3 read by RDPMC right after it (an RDPMC of
 * FC3 clears nothing) is small against the same read right before it:
 * at most VALIDATE_CLEAR_AFTER_PCT percent.  Right before, FC3 holds at
 * least 20000 cycles x the width (vc_work); between the two fenced reads
 * only the RDPMC itself runs, a few tens of cycles (Agner Fog's tables),
 * about 1 % of that: 10 % leaves room, and a counter that was not cleared
 * can only be larger after than before.  An interrupt between the two
 * reads can add more, so the check takes the best of
 * VALIDATE_CLEAR_TRIES tries; a counter that is not cleared fails every
 * one.
 */
#define VALIDATE_CLEAR_TRIES 3

enum validate_status validate_clear_verdict(uint64_t slots_before, uint64_t metrics,
					    uint64_t slots_after, const char **why)
{
	*why = "";
	if (!slots_before) {
		*why = "fixed counter 3 read 0 before the clear: nothing to compare";
		return VALIDATE_FAIL;
	}
	if (!metrics) {
		*why = "the RDPMC of PERF_METRICS returned 0: it returns the value before the clear";
		return VALIDATE_FAIL;
	}
	if (slots_after > slots_before / 100 * VALIDATE_CLEAR_AFTER_PCT +
			  slots_before % 100 * VALIDATE_CLEAR_AFTER_PCT / 100) {
		*why = "fixed counter 3 not cleared by the RDPMC of PERF_METRICS";
		return VALIDATE_FAIL;
	}
	return VALIDATE_PASS;
}

static void metrics_clear(struct validate_ctx *c)
{
	struct validate_result *r;
	uint64_t before = 0, m = 0, after = 0;
	enum validate_status st = VALIDATE_FAIL;
	const char *why = "";
	int rc = 0;

	if (!c->kind->metrics_clear || c->level < 1) {
		vc_add(c, "rdpmc_metrics_clear", SRC_MCLEAR, VALIDATE_SKIP, "no RDPMC metrics-clear "
		       "mode on this core (IA32_PERF_CAPABILITIES bit 19: Lion Cove and later)");
		return;
	}
	for (unsigned t = 0; !rc && t < VALIDATE_CLEAR_TRIES && st != VALIDATE_PASS; t++) {
		rc = vc_start(c, true, FIXED_CTR_CTRL_ANYTHR, 0, 0); /* METRICS_CLEAR_EN, bit 14 */
		vc_work();
		if (!rc) {
			before = rdpmc_fenced(RDPMC_ECX_SLOTS);
			m = rdpmc_fenced(RDPMC_PERF_METRICS);
			after = rdpmc_fenced(RDPMC_ECX_SLOTS);
			st = validate_clear_verdict(before, m, after, &why);
		}
		if (!rc)
			rc = vc_freeze(c);
	}
	if (rc) {
		vc_failed(c, "rdpmc_metrics_clear", SRC_MCLEAR, rc);
		return;
	}
	r = vc_add(c, "rdpmc_metrics_clear", SRC_MCLEAR, st, "%s", why);
	vc_measured(c, r, "RDPMC: FC3 %" PRIu64 ", PERF_METRICS 0x%"
		 PRIx64 ", then FC3 %" PRIu64, before, m, after);
	vc_expected(c, r, "PERF_METRICS not 0, then FC3 at most %u%% "
		 "of before (best of %u)", VALIDATE_CLEAR_AFTER_PCT, VALIDATE_CLEAR_TRIES);
}

/* RDPMC reads the counters of the CPU it runs on: pinned there, and only
 * where a probe in a child (msr/regs/rdpmc.h) shows it does not fault. */
static const char *rdpmc_unusable(struct validate_ctx *c, char *buf, size_t n)
{
	bool mb;

	if (!c->kind->fixed_ctr3)
		return "no fixed counter 3 on this core";
	if (!c->o->live_rdpmc)
		return "RDPMC reads the counters of the CPU baretma runs on, and these are not "
		       "(a CPUID dump, a state file or the simulated PMU)";
	if (cpu_pin_self(cpu_machine_topo(c->o->machine), c->cpu, &mb)) {
		snprintf(buf, n, "cannot pin to cpu %u", c->cpu);
		return buf;
	}
	if (rdpmc_probe(RDPMC_ECX_SLOTS) || (c->level && rdpmc_probe(RDPMC_PERF_METRICS)))
		return "user RDPMC faults here (CR4.PCE clear: run with --rdpmc-always, which "
		       "sets the rdpmc sysfs value to 2 for the run)";
	return NULL;
}

void validate_rdpmc(struct validate_ctx *c)
{
	char buf[64];
	const char *why = rdpmc_unusable(c, buf, sizeof(buf));

	if (why) {
		vc_add(c, "rdpmc_matches_msr", SRC_RDPMC, VALIDATE_SKIP, "%s", why);
		vc_add(c, "rdpmc_metrics_clear", SRC_MCLEAR, VALIDATE_SKIP, "%s", why);
		return;
	}
	rdpmc_matches(c);
	if (!c->err)
		metrics_clear(c);
}
