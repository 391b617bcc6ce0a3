/*
 * t/1041-libpfm4.c - every event of the recipes against a second table
 * made apart from perfmon's: libpfm4's (libpfm4-dev, 4.13 in Debian 12:
 * its snb, snb_ep, ivb, ivb_ep, hsw, hsw_ep, bdw, bdw_ep, skl, skx, clx,
 * icl, icx, spr, tmt and amd64_fam19h_zen4 PMUs).  Each event is encoded
 * by its libpfm4 name (pfm_get_os_event_encoding, PFM_OS_NONE, PFM_PLM3:
 * the raw IA32_PERFEVTSELx / PERF_CTLx value) and its event select, unit
 * mask, counter mask, Invert, EdgeDetect and AnyThread compared with our
 * row.  libpfm4 encodes the PMUs of other CPUs only with
 * LIBPFM_ENCODE_INACTIVE=1 (its pfmlib_common.c), set here.
 *
 * Names: perfmon's "EVENT.UMASK" is libpfm4's "EVENT:UMASK" (a further
 * "." an "_"), "EVENT:cN" its ":c=N"; where libpfm4 names the event
 * otherwise the table names[] says so, and where it has none, why.
 * Fixed-counter events: libpfm4 writes the architectural event the kernel
 * puts on the fixed counter (UNHALTED_CORE_CYCLES 0x3C/0x00 on fixed
 * counter 1, INSTRUCTION_RETIRED 0xC0/0x00 on fixed counter 0: SDM Vol.
 * 3B, "Fixed-Function Performance Counters", the architectural events of
 * IA32_FIXED_CTR0-1), perfmon the fixed counter's pseudo-encoding (0x00/
 * 0x01, 0x00/0x02): compared with the architectural event of our row's
 * fixed counter.  TOPDOWN.SLOTS (fixed counter 3) both write 0x00/0x04.
 * Where libpfm4 and perfmon differ, known[] says which and why; any other
 * difference fails.  The PERF_METRICS pseudo-events are no libpfm4
 * event (t/1040 checks them against Linux).  Without libpfm4 at configure
 * time the test skips, naming the package.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msr/recipe/recipe.h"
#include "t/tap.h"

#ifndef HAVE_LIBPFM
int main(void)
{
	skip_all("libpfm4 not found when configured (Debian: apt-get install libpfm4-dev, "
		 "then ./configure)");
}
#else
#include <perfmon/pfmlib.h>

/* The libpfm4 PMUs of each variant (libpfm4's lib/pfmlib_intel_*.c,
 * pfmlib_amd64_fam19h.c: the models each detects). */
static const struct { const char *recipe, *variant, *pmu[4]; } pmus[] = {
	{ "intel-perf-metrics", "sunny-cove", { "icl", "icx" } },
	{ "intel-perf-metrics", "golden-cove", { "spr" } },
	{ "intel-pre-icl-l1", "skylake", { "skl", "skx", "clx" } },
	{ "intel-pre-icl-l1", "broadwell", { "bdw", "bdw_ep" } },
	{ "intel-pre-icl-l1", "haswell", { "hsw", "hsw_ep" } },
	{ "intel-pre-icl-l1", "ivybridge", { "ivb", "ivb_ep" } },
	{ "intel-pre-icl-l1", "sandybridge", { "snb", "snb_ep" } },
	{ "intel-icl-events", "sunny-cove", { "icl", "icx" } },
	{ "intel-icl-events", "golden-cove", { "spr" } },
	{ "intel-ecore-l1", "tremont", { "tmt" } },
	{ "amd-zen4", "zen4", { "amd64_fam19h_zen4" } },
};

/* Where libpfm4's name is not perfmon's turned (NULL pmu: every PMU of
 * the event's recipe); pfm NULL: libpfm4 4.13 has no such event. */
static const struct { const char *pmu, *event, *pfm, *why; } names[] = {
	{ NULL, "CPU_CLK_UNHALTED.THREAD", "UNHALTED_CORE_CYCLES", "fixed counter 1's event" },
	{ NULL, "CPU_CLK_UNHALTED.THREAD_ANY", "UNHALTED_CORE_CYCLES:t=1",
	  "fixed counter 1's event, AnyThread (libpfm4's t modifier)" },
	{ NULL, "CPU_CLK_UNHALTED.CORE", "UNHALTED_CORE_CYCLES", "fixed counter 1's event" },
	{ NULL, "INST_RETIRED.ANY", "INSTRUCTION_RETIRED", "fixed counter 0's event" },
	{ NULL, "UOPS_RETIRED.MACRO_FUSED", NULL, "not in libpfm4 4.13's skl, skx, clx tables" },
	{ "bdw", "CYCLE_ACTIVITY.STALLS_MEM_ANY", "CYCLE_ACTIVITY:STALLS_LDM_PENDING",
	  "libpfm4's older name of 0xA3/0x06 c6 (Haswell's)" },
	{ "bdw_ep", "CYCLE_ACTIVITY.STALLS_MEM_ANY", "CYCLE_ACTIVITY:STALLS_LDM_PENDING",
	  "libpfm4's older name of 0xA3/0x06 c6 (Haswell's)" },
	{ "spr", "IDQ_BUBBLES.CORE", "IDQ_UOPS_NOT_DELIVERED:CORE",
	  "libpfm4 keeps the Ice Lake name of 0x9C/0x01" },
	{ "spr", "IDQ_BUBBLES.CYCLES_0_UOPS_DELIV.CORE",
	  "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE", "the Ice Lake name of 0x9C/0x01 c6" },
	{ "tmt", "TOPDOWN_FE_BOUND.ALL", NULL, "libpfm4 4.13's tmt has no TOPDOWN_* events" },
	{ "tmt", "TOPDOWN_BAD_SPECULATION.ALL", NULL, "libpfm4 4.13's tmt has no TOPDOWN_*" },
	{ "tmt", "TOPDOWN_BE_BOUND.ALL", NULL, "libpfm4 4.13's tmt has no TOPDOWN_*" },
	{ "tmt", "TOPDOWN_RETIRING.ALL", NULL, "libpfm4 4.13's tmt has no TOPDOWN_*" },
	{ "tmt", "TOPDOWN_BAD_SPECULATION.MISPREDICT", NULL, "libpfm4 4.13's tmt has no TOPDOWN_*" },
	{ "tmt", "TOPDOWN_BAD_SPECULATION.MONUKE", NULL, "libpfm4 4.13's tmt has no TOPDOWN_*" },
	/* amd64_fam19h_zen4: the AMD PPR's names where perf has its own */
	{ NULL, "ls_not_halted_cyc", "CYCLES_NOT_IN_HALT", "PPR name" },
	{ NULL, "de_src_op_disp.all", "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER:OPCACHE:"
	  "LOOP_BUFFER", "its three unit masks 0x01 | 0x02 | 0x04" },
	{ NULL, "ex_ret_ops", "RETIRED_OPS", "PPR name" },
	{ NULL, "de_no_dispatch_per_slot.no_ops_from_frontend", "DISPATCH_STALLS_1:FE_NO_OPS",
	  "PPR name" },
	{ NULL, "de_no_dispatch_per_slot.backend_stalls", "DISPATCH_STALLS_1:BE_STALLS", "PPR name" },
	{ NULL, "de_no_dispatch_per_slot.smt_contention", "DISPATCH_STALLS_1:SMT_CONTENTION",
	  "PPR name" },
	{ NULL, "de_no_dispatch_per_slot.no_ops_from_frontend:c6", "DISPATCH_STALLS_1:FE_NO_OPS:c=6",
	  "PPR name, counter mask 6" },
	{ NULL, "ex_ret_brn_misp", "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED", "PPR name" },
	{ NULL, "resyncs_or_nc_redirects", "RESYNCS", "PPR name" },
	{ NULL, "ex_no_retire.load_not_complete", "CYCLES_NO_RETIRE:NOT_COMPLETE_MISSING_LOAD",
	  "PPR name" },
	{ NULL, "ex_no_retire.not_complete", "CYCLES_NO_RETIRE:NOT_COMPLETE_LOAD_AND_ALU", "PPR name" },
	{ NULL, "ex_ret_ucode_ops", "RETIRED_UCODE_OPS", "PPR name" },
};

/* Where libpfm4 differs from perfmon (and so from us): the field and
 * libpfm4's value. */
static struct known {
	const char *pmu, *event, *field;
	unsigned theirs;
	const char *why;
	bool seen;
} known[] = {
	{ "snb", "BR_MISP_RETIRED.ALL_BRANCHES", "umask", 0x04, "libpfm4's is perfmon's "
	  "BR_MISP_RETIRED.ALL_BRANCHES_PEBS (0xC5/0x04); perfmon SNB ALL_BRANCHES is 0xC5/0x00",
	  false },
	{ "snb_ep", "BR_MISP_RETIRED.ALL_BRANCHES", "umask", 0x04, "as snb: perfmon JKT's "
	  "ALL_BRANCHES 0xC5/0x00, ALL_BRANCHES_PEBS 0xC5/0x04", false },
	{ "icl", "TOPDOWN.BACKEND_BOUND_SLOTS", "event", 0x00, "libpfm4 writes Ice Lake's "
	  "TOPDOWN:* with event 0x00 (fixed counter 3's pseudo-code); perfmon ICL 0xA4/0x02, "
	  "a GP event", false },
	{ "icx", "TOPDOWN.BACKEND_BOUND_SLOTS", "event", 0x00, "as icl (perfmon ICX 0xA4/0x02)",
	  false },
	{ "spr", "TOPDOWN.BACKEND_BOUND_SLOTS", "event", 0x00, "as icl (perfmon SPR 0xA4/0x02)",
	  false },
	{ "spr", "TOPDOWN.BR_MISPREDICT_SLOTS", "event", 0x00, "as icl (perfmon SPR 0xA4/0x08)",
	  false },
	{ "spr", "TOPDOWN.MEMORY_BOUND_SLOTS", "event", 0x00, "as icl (perfmon SPR 0xA4/0x10)",
	  false },
};
#define NKNOWN (sizeof(known) / sizeof(known[0]))

/* What a raw select says (SDM Vol. 3B IA32_PERFEVTSELx; AMD PERF_CTL
 * event select [7:0] and [35:32]). */
struct enc {
	unsigned event, umask, cmask;
	bool inv, edge, any;
};

static struct enc decode(uint64_t c, bool amd)
{
	struct enc e = { .event = (unsigned)(c & 0xff), .umask = (unsigned)(c >> 8) & 0xff,
			 .cmask = (unsigned)(c >> 24) & 0xff, .inv = (c >> 23) & 1,
			 .edge = (c >> 18) & 1, .any = !amd && ((c >> 21) & 1) };

	if (amd)
		e.event |= (unsigned)((c >> 32) & 0xf) << 8;
	return e;
}

/* libpfm4's name of @e on @pmu into @buf, or NULL with *why. */
static const char *pfm_name(const char *pmu, const struct recipe_event *e, char *buf, size_t n,
			    const char **why)
{
	const char *dot, *c;

	*why = NULL;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((!names[i].pmu || !strcmp(names[i].pmu, pmu)) && !strcmp(names[i].event, e->name)) {
			*why = names[i].why;
			if (!names[i].pfm)
				return NULL;
			snprintf(buf, n, "%s::%s", pmu, names[i].pfm);
			return buf;
		}
	dot = strchr(e->name, '.');
	c = strstr(e->name, ":c");
	snprintf(buf, n, "%s::%.*s", pmu, (int)(dot ? dot - e->name : (c ? c - e->name : 99)),
		 e->name);
	if (dot) {
		size_t at = strlen(buf);

		snprintf(buf + at, n - at, ":%.*s", (int)(c ? c - dot - 1 : 99), dot + 1);
		for (char *p = buf + at + 1; *p; p++)
			if (*p == '.')
				*p = '_';
	}
	if (c) {
		size_t at = strlen(buf);

		snprintf(buf + at, n - at, ":c=%s", c + 2);
	}
	return buf;
}

/* What we expect libpfm4 to encode for @e: our row, or for fixed counters
 * 0 and 1 the architectural event the kernel puts there. */
static struct enc ours(const struct recipe_event *e)
{
	struct enc o = { e->event, e->umask, e->cmask, e->inv, e->edge, e->any };

	if (e->ctr == RECIPE_CTR_FIXED && e->fixed == 0)
		o.event = 0xC0, o.umask = 0x00; /* INST_RETIRED.ANY_P */
	else if (e->ctr == RECIPE_CTR_FIXED && e->fixed == 1)
		o.event = 0x3C, o.umask = 0x00; /* CPU_CLK_UNHALTED.THREAD_P */
	return o;
}

static unsigned ndiff;

static void field(const char *rv, const char *pmu, const char *ev, const char *f, unsigned a,
		  unsigned b)
{
	if (a == b)
		return;
	for (size_t i = 0; i < NKNOWN; i++)
		if (!strcmp(known[i].pmu, pmu) && !strcmp(known[i].event, ev) &&
		    !strcmp(known[i].field, f) && known[i].theirs == b) {
			known[i].seen = true;
			ok(1, "%s %s [%s]: %s ours 0x%02X, libpfm4 0x%02X: known (%s)", rv, ev, pmu, f,
			   a, b, known[i].why);
			return;
		}
	ndiff++;
	ok(0, "%s %s [%s]: %s ours 0x%02X, libpfm4 0x%02X", rv, ev, pmu, f, a, b);
}

static void check_event(const char *rv, const char *pmu, const struct recipe_event *e, bool amd)
{
	char name[160];
	const char *why, *nm = pfm_name(pmu, e, name, sizeof(name), &why);
	pfm_pmu_encode_arg_t arg;
	char *fstr = NULL;
	struct enc o = ours(e), t;
	unsigned before = ndiff;
	int rc;

	if (!nm) {
		printf("# %s %s [%s]: not compared: %s\n", rv, e->name, pmu, why);
		return;
	}
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.fstr = &fstr;
	rc = pfm_get_os_event_encoding(nm, PFM_PLM3, PFM_OS_NONE, &arg);
	if (!ok(rc == PFM_SUCCESS && arg.count >= 1, "%s %s: libpfm4 encodes %s%s%s", rv, e->name,
		nm, rc == PFM_SUCCESS ? "" : ": ", rc == PFM_SUCCESS ? "" : pfm_strerror(rc)))
		return;
	t = decode(arg.codes[0], amd);
	field(rv, pmu, e->name, "event", o.event, t.event);
	field(rv, pmu, e->name, "umask", o.umask, t.umask);
	field(rv, pmu, e->name, "cmask", o.cmask, t.cmask);
	field(rv, pmu, e->name, "inv", o.inv, t.inv);
	field(rv, pmu, e->name, "edge", o.edge, t.edge);
	field(rv, pmu, e->name, "any", o.any, t.any);
	if (ndiff == before)
		printf("#   %s = 0x%llx (%s)\n", fstr ? fstr : nm, (unsigned long long)arg.codes[0],
		       why ? why : "perfmon's name");
	free(fstr);
	free(arg.codes);
}

int main(void)
{
	unsigned compared = 0;

	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	if (pfm_initialize() != PFM_SUCCESS)
		skip_all("libpfm4's pfm_initialize failed");
	for (size_t i = 0; i < recipe_count(); i++) {
		const struct recipe *r = recipe_at(i);
		char rv[96];

		snprintf(rv, sizeof(rv), "%s:%s", r->name, r->variant);
		for (size_t p = 0; p < sizeof(pmus) / sizeof(pmus[0]); p++) {
			if (strcmp(pmus[p].recipe, r->name) || strcmp(pmus[p].variant, r->variant))
				continue;
			for (unsigned k = 0; k < 4 && pmus[p].pmu[k]; k++)
				for (unsigned e = 0; e < r->nevents; e++) {
					if (r->events[e].ctr == RECIPE_CTR_METRICS)
						continue;
					check_event(rv, pmus[p].pmu[k], &r->events[e],
						    r->vendor == CPU_VENDOR_AMD);
					compared++;
				}
		}
	}
	ok(compared > 100, "%u (recipe event, libpfm4 PMU) pairs looked at", compared);
	for (size_t i = 0; i < NKNOWN; i++)
		ok(known[i].seen, "the known difference %s %s %s is still there", known[i].pmu,
		   known[i].event, known[i].field);
	printf("# %u unexplained difference(s) between the tables and libpfm4's\n", ndiff);
	return done_testing();
}
#endif
