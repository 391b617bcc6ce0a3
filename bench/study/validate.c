/*
 * bench/study/validate.c - `baretma validate` (bench/study/validate.h): the driver,
 * the identity checks, the known-answer kernels, the perf_event checks,
 * and the helpers the check files share.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/study/compare.h"
#include "bench/source/perf_group.h"
#include "bench/study/validate.h"
#include "cpu/machine.h"
#include "cpu/text.h"
#include "msr/regs/intel_regs.h"
#include "msr/journal/journal.h"
#include "msr/sim/msr_sim.h"
#include "msr/pmu/pmu.h"

/* The sources a check's line names: primary ones a user can open (the
 * 48 bits of SRC_WIDTHS: the leaf 0xA of every Intel dump read from
 * libcpuid's tests and InstLatx64; no primary source found that states it). */
#define SRC_MODEL "baretma's model table of CPUID family/model (from the cases of linux " \
	"arch/x86/events/intel/core.c intel_pmu_init), else architectural enumeration " \
	"(intel_pmu_init, intel_pmu_cpu_starting)"
#define SRC_CAPS "IA32_PERF_CAPABILITIES bit 15 = PERF_METRICS (linux " \
	"arch/x86/include/asm/msr-index.h PERF_CAP_METRICS_IDX; arch/x86/events/intel/core.c " \
	"intel_pmu_init); hybrid parts misreport it (ADL/RPL 0, MTL cleared)"
#define SRC_FIXED "CPUID leaf 0xA ECX/EDX[4:0] (0x23 sub-leaf 1 where enumerated), the " \
	"kernel's ADL/RPL rule where leaf 0xA shows the P/E common subset (linux " \
	"arch/x86/events/intel/core.c intel_pmu_init, update_pmu_cap)"
#define SRC_WIDTHS "CPUID.0AH:EAX[23:16] and EDX[12:5] (linux arch/x86/include/asm/" \
	"perf_event.h union cpuid10_eax, cpuid10_edx): 48 bits on every core since Nehalem"
#define SRC_KERNELS "each kernel's node (man baretma-bench, \"Kernels\") is " \
	"the largest of its level"
#define SRC_HANDS "perf clears fixed counter 3's IA32_FIXED_CTR_CTRL field when its group " \
	"stops (intel_pmu_disable_fixed, linux arch/x86/events/intel/core.c)"
#define SRC_PERF "`baretma compare`: the raw path and perf_event agree within both " \
	"quantisation bounds and their noise"

/* ------------------------------------------------------------ helpers */

struct validate_result *vc_add(struct validate_ctx *c, const char *id, const char *source,
			       enum validate_status st, const char *fmt, ...)
{
	static struct validate_result spare; /* on -ENOMEM: dropped */
	struct validate_report *rep = c->rep;
	struct validate_result *r;
	va_list ap;

	if (rep->n == rep->cap) {
		size_t cap = rep->cap ? rep->cap * 2 : 64;
		void *p = realloc(rep->r, cap * sizeof(*rep->r));

		if (!p) {
			free(spare.reason); /* what a caller set on it last time */
			free(spare.measured);
			free(spare.expected);
			memset(&spare, 0, sizeof(spare));
			return &spare;
		}
		rep->r = p;
		rep->cap = cap;
	}
	r = &rep->r[rep->n++];
	memset(r, 0, sizeof(*r));
	*r = (struct validate_result){ .cpu = c->cpu, .id = id, .status = st, .source = source };
	va_start(ap, fmt);
	if (vasprintf(&r->reason, fmt, ap) < 0)
		r->reason = NULL; /* out of memory: the status stays, without its words */
	va_end(ap);
	if (r->reason && !r->reason[0]) {
		free(r->reason);
		r->reason = NULL;
	}
	rep->pass += st == VALIDATE_PASS;
	rep->fail += st == VALIDATE_FAIL;
	rep->skip += st == VALIDATE_SKIP;
	return r;
}

void vc_measured(struct validate_ctx *c, struct validate_result *r, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = text_vsetf(&r->measured, fmt, ap);
	va_end(ap);
	if (rc && !c->err)
		c->err = rc;
}

void vc_expected(struct validate_ctx *c, struct validate_result *r, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = text_vsetf(&r->expected, fmt, ap);
	va_end(ap);
	if (rc && !c->err)
		c->err = rc;
}

int vc_read(struct validate_ctx *c, uint32_t msr, uint64_t *v)
{
	return msr_read(c->o->dev, c->cpu, msr, v);
}

int vc_save(struct validate_ctx *c, uint32_t msr)
{
	uint64_t old;
	int rc;

	if (!c->o->j)
		return -EINVAL; /* validate_run refuses that first */
	c->wrote = true;
	if (journal_data_permits(journal_data_of(c->o->j), c->cpu, msr))
		return 0; /* saved already (0x390: nothing to save) */
	rc = vc_read(c, msr, &old);
	return rc ? rc : journal_save_reg(c->o->j, c->cpu, msr, old);
}

int vc_write(struct validate_ctx *c, uint32_t msr, uint64_t v)
{
	int rc = vc_save(c, msr);

	return rc ? rc : msr_write(c->o->dev, c->cpu, msr, v);
}

void vc_work(void)
{
	uint64_t x = 1;

	/* 20000 dependent ADDs: one cycle of latency each on every x86 core
	 * (Agner Fog, instruction tables: ADD r,r latency 1) */
	for (unsigned i = 0; i < 20000 / 8; i++)
		__asm__ __volatile__("add %0, %0\n\tadd %0, %0\n\tadd %0, %0\n\tadd %0, %0\n\t"
				     "add %0, %0\n\tadd %0, %0\n\tadd %0, %0\n\tadd %0, %0"
				     : "+r"(x));
	__asm__ __volatile__("" :: "r"(x));
}

/* ----------------------------------------------------------- identity */

/*
 * What a hypervisor enumerates is its own choice, not the CPU's: KVM
 * reports at most architectural perfmon version 2 and 3 fixed counters to
 * a guest (linux arch/x86/kvm/pmu.c kvm_init_pmu_capability: "version =
 * min(version, 2)", fixed counters at most KVM_MAX_NR_FIXED_COUNTERS, 3 on
 * Intel), and leaf 0xA all zero without a virtual PMU (enable_pmu off:
 * kvm_pmu_cap zeroed).  An enumeration check that disagrees
 * with the model table under a hypervisor is SKIP with this reason, never
 * FAIL: the lab would read that the CPU is broken.
 */
static const char *hv_reason(struct validate_ctx *c, const char *what)
{
	snprintf(c->why, sizeof(c->why), "running under a hypervisor (%s): %s is what its "
		 "virtual PMU chooses to enumerate, not the CPU's", c->ci->hypervisor, what);
	return c->why;
}

/*
 * Why an enumeration check cannot say anything of the CPU, or NULL: leaf
 * 0xA of version 0 enumerates no counter at all (SDM Vol. 2A CPUID leaf
 * 0AH: EAX[7:0] version ID; 0 = no architectural performance monitoring),
 * so there is nothing to compare with the table; a hypervisor enumerates
 * what it chooses (hv_reason).
 */
static const char *unenumerated(struct validate_ctx *c, const char *what)
{
	if (c->ci->pmu.version == 0) {
		snprintf(c->why, sizeof(c->why), "CPUID leaf 0xA reports architectural perfmon "
			 "version 0%s%s%s: no counter is enumerated, nothing to compare with the "
			 "model table", c->ci->hypervisor ? " (a hypervisor, " : "",
			 c->ci->hypervisor ? c->ci->hypervisor : "", c->ci->hypervisor ?
			 ", without a virtual PMU)" : "");
		return c->why;
	}
	return c->ci->hypervisor ? hv_reason(c, what) : NULL;
}

static void model(struct validate_ctx *c)
{
	const struct cpu_info *ci = c->ci;
	struct validate_result *r;

	if (ci->vendor != CPU_VENDOR_INTEL) {
		r = vc_add(c, "cpu_model", SRC_MODEL, VALIDATE_SKIP, "the CPU's vendor is %s: "
			   "IA32_PERF_METRICS and fixed counter 3 are Intel's", ci->vendor_str);
		return;
	}
	r = vc_add(c, "cpu_model", SRC_MODEL, VALIDATE_PASS, "%s", ci->row ? "" : ci->warning);
	vc_measured(c, r, "family %u model 0x%X stepping %u", ci->family,
		 ci->model, ci->stepping);
	vc_expected(c, r, "%s", ci->row ?
		 ci->row->name : "not in the table: enumerated architecturally (see the reason)");
}

static void caps(struct validate_ctx *c)
{
	struct validate_result *r;
	uint64_t v;
	bool want = c->kind->topdown_level >= 1, has;
	int rc;

	if (c->o->identity_only) {
		vc_add(c, "perf_capabilities_metrics", SRC_CAPS, VALIDATE_SKIP, "no MSR access: %s",
		       c->o->no_msr ? c->o->no_msr : "");
		return;
	}
	if (c->ci->hybrid || !c->ci->pdcm || !c->ci->row) {
		vc_add(c, "perf_capabilities_metrics", SRC_CAPS, VALIDATE_SKIP, "%s", c->ci->hybrid ?
		       "a hybrid part: bit 15 is not reliable there, the model table decides" :
		       !c->ci->pdcm ? "no IA32_PERF_CAPABILITIES (CPUID.1:ECX[15] PDCM clear)" :
		       "not in the model table: nothing to compare bit 15 with");
		return;
	}
	rc = vc_read(c, IA32_PERF_CAPABILITIES, &v);
	if (rc) {
		vc_failed(c, "perf_capabilities_metrics", SRC_CAPS, rc);
		return;
	}
	has = v & PERF_CAP_PERF_METRICS;
	r = vc_add(c, "perf_capabilities_metrics", SRC_CAPS, has == want ? VALIDATE_PASS :
		   c->ci->hypervisor ? VALIDATE_SKIP : VALIDATE_FAIL, "%s", has == want ? "" :
		   c->ci->hypervisor ? hv_reason(c, "bit 15") : "bit 15 disagrees with the model table");
	vc_measured(c, r, "0x%" PRIx64 ": bit 15 %u", v, has);
	vc_expected(c, r, "bit 15 %u (%s: PERF_METRICS level %d)", want,
		 c->ci->row->uarch, c->kind->topdown_level);
}

static void fixed3(struct validate_ctx *c)
{
	struct validate_result *r;
	bool cpuid = c->kind->fixed_mask & (1u << FIXED_CTR3_IDX);
	/* the table's fact is the P-core's; an E-core kind has what CPUID says
	 * (the kernel's rule: E-core = leaf 0xA, linux arch/x86/events/intel/core.c
	 * intel_pmu_init's ADL case) */
	bool want = c->ci->row && c->kind->core_type != 0x20 ? c->ci->row->fixed_ctr3 : cpuid;
	const char *hidden = c->kind->fixed_ctr3 == want ? NULL : unenumerated(c, "fixed counter 3");

	r = vc_add(c, "fixed_ctr3_enumerated", SRC_FIXED, c->kind->fixed_ctr3 == want ?
		   VALIDATE_PASS : hidden ? VALIDATE_SKIP : VALIDATE_FAIL, "%s",
		   c->kind->fixed_ctr3 == want ? "" : hidden ? hidden :
		   "fixed counter 3 enumeration disagrees with the model table");
	vc_measured(c, r, "fixed mask 0x%x (%s)", c->kind->fixed_mask,
		 c->kind->counters_source);
	vc_expected(c, r, "fixed counter 3 %s", want ? "present" :
		 "absent");
}

static void widths(struct validate_ctx *c)
{
	struct validate_result *r;
	bool ok = c->kind->gp_width == 48 && c->ci->pmu.fixed_width == 48;
	const char *hidden = ok ? NULL : unenumerated(c, "a counter width");

	r = vc_add(c, "counter_widths", SRC_WIDTHS, ok ? VALIDATE_PASS : hidden ? VALIDATE_SKIP :
		   VALIDATE_FAIL, "%s", ok ? "" : hidden ? hidden :
		   "a counter width other than 48 bits");
	vc_measured(c, r, "general %u bits, fixed %u bits",
		 c->kind->gp_width, c->ci->pmu.fixed_width);
	vc_expected(c, r, "48 and 48");
}

void validate_identity(struct validate_ctx *c)
{
	model(c);
	if (c->ci->vendor != CPU_VENDOR_INTEL)
		return;
	caps(c);
	if (!c->err)
		fixed3(c);
	widths(c);
}

/* --------------------------------------------------- known-answer kernels */

/* Is @node the largest of its level in @kr? (level 1: its parent.) */
static bool node_largest(const struct bench_kernel_result *kr, enum td_metric node, int level)
{
	enum td_metric n = level >= 2 ? node : td_metric_parent(node);

	for (unsigned m = 0; m < TMA_NMETRICS; m++)
		if (td_metric_level(m) == (level >= 2 ? 2 : 1) && m != n &&
		    kr->tma[m].median > kr->tma[n].median)
			return false;
	return true;
}

static enum td_metric metric_of(const char *name)
{
	for (unsigned m = 0; m < TMA_NMETRICS; m++)
		if (!strcmp(td_metric_name(m), name))
			return m;
	return TMA_NMETRICS;
}

static void kernels(struct validate_ctx *c)
{
	struct bench_options bo = { .cpu = (int)c->cpu, .reps = 51, .warmup = 10,
				    .level = c->level, .machine = c->o->machine,
				    .dev = c->o->dev, .journal = c->o->j };
	struct bench_result res;
	int rc;

	if (msr_sim_profile_of(c->o->dev) || cpu_machine_is_dump(c->o->machine)) {
		vc_add(c, "kernels", SRC_KERNELS, VALIDATE_SKIP, "%s", msr_sim_profile_of(c->o->dev)
		       ? "the simulated PMU gives every region the profile's shares (doc/simulator.md, "
		       "\"Not modelled\": real kernels are not)" : "a CPUID dump's CPU: "
		       "no kernel runs on it");
		return;
	}
	rc = bench_run(&bo, &res);
	for (size_t k = 1; !rc && k < res.nkernels; k++) {
		const struct bench_kernel_result *kr = &res.kernels[k];
		enum td_metric node = metric_of(kr->kernel->node);
		struct validate_result *r;
		bool ok;

		if (node == TMA_NMETRICS || !kr->topdown || !kr->tma[0].n) {
			vc_add(c, kr->kernel->name, SRC_KERNELS, VALIDATE_SKIP, "no valid repetition");
			continue;
		}
		ok = node_largest(kr, node, res.level);
		r = vc_add(c, kr->kernel->name, SRC_KERNELS, ok ? VALIDATE_PASS : VALIDATE_FAIL,
			   ok ? "" : "its node is not the largest of its level");
		vc_measured(c, r, "%s %.1f%%", td_metric_name(
			 res.level >= 2 ? node : td_metric_parent(node)), 100 *
			 kr->tma[res.level >= 2 ? node : td_metric_parent(node)].median);
		vc_expected(c, r, "the largest at level %d", res.level);
	}
	if (rc)
		vc_add(c, "kernels", SRC_KERNELS, VALIDATE_SKIP, "bench could not run: %s",
		       res.avail.reason ? res.avail.reason : strerror(-rc));
	bench_result_free(&res);
}

/* ------------------------------------------------------------- perf */

/* Put every register written back as found, through the journal's own
 * code and order (journal_restore_regs: GLOBAL_CTRL 0 first, the others in
 * the order saved - the guard saved GLOBAL_CTRL, FIXED_CTR_CTRL, FIXED_CTR3
 * then PERF_METRICS as the run began, msr/pmu/pmu.h pmu_journal_save, so fixed
 * counter 3 before PERF_METRICS as the kernel writes them - GLOBAL_CTRL's
 * value last), after the overflow bits the checks caused are cleared with
 * everything frozen (a `write` journal's restore does not clear them:
 * msr/journal/journal.h): before perf and the comparison (they start from the
 * machine's own state), and at the end of the CPU's checks. */
static int hand_over(struct validate_ctx *c)
{
	int rc = 0;

	if (!c->wrote)
		return 0;
	if (c->kind->fixed_ctr3) {
		rc = vc_freeze(c);
		if (!rc)
			rc = pmu_clear_overflow(c->o->dev, c->cpu, c->level >= 1);
	}
	return rc ? rc : journal_restore_regs(c->o->j, c->o->dev);
}

static void perf_hands_back(struct validate_ctx *c)
{
	const char *arg = NULL;
	const struct perf_group_ops *ops = perf_group_env(&arg);
	struct perf_group_spec spec = {
		.cpu = c->cpu, .level = c->level >= 2 ? 2 : 1,
		.cpuid_dump = c->o->machine && cpu_machine_is_dump(c->o->machine) ?
			      cpu_machine_name(c->o->machine) : NULL,
	};
	struct perf_group *g = NULL;
	struct perf_group_values v;
	struct validate_result *r;
	char *why = NULL; /* the open's reason, whole: it may quote a profile path */
	uint64_t fcc = 0;
	int rc = ops ? ops->open(arg, &spec, &g, &why) : -EINVAL;

	if (rc) {
		vc_add(c, "perf_hands_back", SRC_HANDS, VALIDATE_SKIP, "perf_event: %s",
		       !ops ? "BARETMA_PERF is neither empty nor sim:PROFILE" :
		       why ? why : strerror(-rc));
		free(why);
		return;
	}
	if (!(rc = ops->enable(g))) {
		vc_work();
		rc = ops->read(g, &v);
	}
	ops->close(g);
	if (!rc)
		rc = vc_read(c, IA32_FIXED_CTR_CTRL, &fcc);
	if (rc) {
		vc_failed(c, "perf_hands_back", SRC_HANDS, rc);
		return;
	}
	c->perf_hands_back = !(fcc & FIXED_CTR3_FIELD_MASK);
	r = vc_add(c, "perf_hands_back", SRC_HANDS, c->perf_hands_back ? VALIDATE_PASS :
		   VALIDATE_FAIL, c->perf_hands_back ? "" : "fixed counter 3 still enabled after "
		   "perf closed its group");
	vc_measured(c, r, "IA32_FIXED_CTR_CTRL 0x%" PRIx64, fcc);
	vc_expected(c, r, "bits 15:12 clear");
}

static void perf_agrees(struct validate_ctx *c)
{
	struct compare_options co = { .kernels = "retire-light,dep-chain", .cpu = (int)c->cpu,
				      .pairs = COMPARE_DEFAULT_PAIRS, .reps = 15, .level = c->level,
				      .perf_backend = BENCH_BACKEND_PERF,
				      .machine = c->o->machine, .dev = c->o->dev,
				      .journal = c->o->j };
	struct compare_result res;
	struct validate_result *r;
	int rc;

	if (!c->perf_hands_back) {
		vc_add(c, "perf_agrees", SRC_PERF, VALIDATE_SKIP, "depends on perf_hands_back");
		return;
	}
	rc = compare_prepare(&co, &res);
	if (!rc)
		rc = compare_decide_perf(&co, &res);
	if (!rc)
		rc = compare_measure(&co, &res);
	if (rc) {
		vc_add(c, "perf_agrees", SRC_PERF, VALIDATE_SKIP, "compare could not run: %s",
		       res.reason ? res.reason : strerror(-rc));
	} else {
		r = vc_add(c, "perf_agrees", SRC_PERF, res.disagree ? VALIDATE_FAIL : res.na ?
			   VALIDATE_SKIP : VALIDATE_PASS, "%s", res.disagree ? "some metric "
			   "DISAGREEs (run baretma compare for the table)" : res.na ?
			   "some metric could not be compared" : "");
		vc_measured(c, r, "%u agree, %u DISAGREE, %u n/a",
			 res.agree, res.disagree, res.na);
		vc_expected(c, r, "every metric agrees");
	}
	compare_result_free(&res);
}

static void perf_checks(struct validate_ctx *c)
{
	int rc;

	if (!c->o->perf || c->level < 1) {
		vc_add(c, "perf_hands_back", SRC_HANDS, VALIDATE_SKIP, "%s", c->level < 1 ?
		       "no PERF_METRICS on this core" : "not asked (--no-perf)");
		vc_add(c, "perf_agrees", SRC_PERF, VALIDATE_SKIP, "%s", c->level < 1 ?
		       "no PERF_METRICS on this core" : "not asked (--no-perf)");
		return;
	}
	if ((rc = hand_over(c))) {
		vc_failed(c, "perf_hands_back", SRC_HANDS, rc);
		return;
	}
	perf_hands_back(c);
	perf_agrees(c);
}

/* ------------------------------------------------------------- driver */

static int validate_cpu(const struct validate_options *o, const struct cpu_info *ci,
			unsigned cpu, struct validate_report *rep)
{
	struct validate_ctx c = { .o = o, .ci = ci, .cpu = cpu, .rep = rep,
				  .kind = cpu_info_kind_of(ci, cpu) };

	if (!c.kind) {
		vc_add(&c, "cpu_model", SRC_MODEL, VALIDATE_SKIP, "cpu %u is not described", cpu);
		return 0;
	}
	c.level = c.kind->topdown_level;
	if (o->level && o->level < c.level)
		c.level = o->level;
	validate_identity(&c);
	if (ci->vendor == CPU_VENDOR_INTEL && !c.err && o->identity_only)
		validate_events_identity_only(&c);
	if (ci->vendor != CPU_VENDOR_INTEL || c.err || o->identity_only)
		return c.err;
	validate_fc3(&c);
	if (!c.err)
		validate_metrics(&c);
	if (!c.err)
		validate_rdpmc(&c);
	if (!c.err)
		validate_events(&c); /* the general-purpose counters: put back by hand_over */
	if (!c.err)
		perf_checks(&c);
	if (!c.err && !(c.err = hand_over(&c)))
		kernels(&c);
	if (!c.err)
		c.err = hand_over(&c);
	return c.err;
}

int validate_run(const struct validate_options *o, const struct cpu_info *ci,
		 struct validate_report *rep)
{
	int rc = 0;

	memset(rep, 0, sizeof(*rep));
	if (!o->identity_only && !o->j)
		return -EINVAL;
	for (unsigned i = 0; i < o->ncpus && !rc; i++)
		rc = validate_cpu(o, ci, o->cpus[i], rep);
	return rep->r || !o->ncpus ? rc : -ENOMEM;
}

void validate_report_free(struct validate_report *rep)
{
	for (size_t i = 0; rep->r && i < rep->n; i++) {
		free(rep->r[i].reason);
		free(rep->r[i].measured);
		free(rep->r[i].expected);
	}
	free(rep->r);
	memset(rep, 0, sizeof(*rep));
}
