/*
 * bench/cli/cmd_info.c - `baretma info`: identify the CPU (live or from a CPUID
 * dump), its architectural PMU, its core kinds, and whether Top-down can be
 * measured on the CPU baretma would use, with the first reason if not.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/output/output.h"
#include "bench/bench.h"
#include "bench/source/source.h"
#include "cpu/environ.h"
#include "cpu/escape.h"
#include "bench/cli/cli_cmd.h"
#include "bench/cli/cli_opt.h"

struct info_opts {
	struct cli_output out; /* --json */
	int cpu; /* -1: choose */
};

static void info_usage(FILE *f);

static int set_cpu(const struct cli_opt_call *c)
{
	struct info_opts *o = c->opts;
	uint64_t v;
	int rc;

	if ((rc = cli_parse_cpu_number(c->arg, &v)) || v >= CPU_MAX_CPUS) {
		cli_err("bad --cpu '%s': give an OS CPU number below %d%s%s", c->arg, CPU_MAX_CPUS,
			rc == -EDOM ? "; " : "", rc == -EDOM ? CLI_CPU_HEX_HINT : "");
		return EX_USAGE;
	}
	o->cpu = (int)v;
	return 0;
}

static const struct cli_opt info_opts_table[] = {
	{ CLI_OPT_CPUID_DUMP,
	  .help = "identify from a CPUID dump instead of the live machine (a libcpuid raw or "
		  "AIDA64 file, or a hwloc-gather-cpuid directory; also: "
		  "BARETMA_CPUID_DUMP); the environment block stays this machine's" },
	{ CLI_OPT_JSON, .help = "one JSON document on stdout" },
	{ CLI_OPT_CPU, .arg = "N", .set = set_cpu,
	  .help = "check Top-down availability on OS CPU N (of the dump)" },
	{ .name = NULL },
};

static const struct cli_optset info_optset = {
	.cmd = "info", .opts = info_opts_table, .out = offsetof(struct info_opts, out),
	.usage = info_usage,
};

static void info_usage(FILE *f)
{
	cli_opts_synopsis(f, &info_optset);
	fputs(
"\n"
"Identify the CPU: vendor, family/model/stepping, the hypervisor (CPUID\n"
"0x40000000; live, also the kernel's: both named where they differ), the\n"
"architectural PMU (CPUID leaf 0xA), and one block per core kind:\n"
"microarchitecture, CPUs, its own counters (CPUID leaf 0xA / 0x23 of one\n"
"of its CPUs), pipeline width, two levels: the Top-down level baretma\n"
"measures and from what (IA32_PERF_METRICS, events with a recipe, none,\n"
"or undecided), and what IA32_PERF_METRICS gives and by what source, with\n"
"RDPMC metrics-clear; a warning when the model is not in baretma's table;\n"
"and whether Top-down can be measured on the CPU that 'baretma bench'\n"
"would use (or on --cpu N), with the reason if not.\n"
"\n", f);
	cli_opts_list(f, &info_optset);
	fputs(
"\n"
"exit status: 0 ok, 64 usage (also: --cpu of a CPU that does not exist), 65 the\n"
"  dump is not a CPUID dump (or BARETMA_MSR names a malformed state file or\n"
"  simulator profile), 66 the dump or BARETMA_SYSROOT is missing, 69 CPUID\n"
"  cannot be read, 70 internal error, 71 system error, 77 permission denied\n", f);
}

static int info_parse(int argc, char **argv, void *opts, struct cli_ctx *ctx)
{
	struct info_opts *o = opts;

	o->cpu = -1;
	return cli_opts_parse(&info_optset, NULL, argc, argv, o, ctx);
}

static void print_cpus(FILE *f, const struct cpu_kind *k)
{
	for (unsigned i = 0; i < k->ncpus;) {
		unsigned j = i;

		while (j + 1 < k->ncpus && k->cpus[j + 1] == k->cpus[j] + 1)
			j++;
		fprintf(f, "%s%u", i ? "," : "", k->cpus[i]);
		if (j > i)
			fprintf(f, "-%u", k->cpus[j]);
		i = j + 1;
	}
}

/* The level baretma measures from a recipe with events (from: what it reads,
 * "events" or "IA32_PERF_METRICS and events"): its variant, the passes each
 * level takes on the kind's counters. */
static void print_recipe(FILE *f, const struct cpu_kind *k, const struct bench_kind_topdown *t,
			 const char *from)
{
	if (!t->recipe) {
		fprintf(f, "not measured by baretma: recipe %s: %s", k->topdown_recipe, t->why);
		return;
	}
	if (!t->measured) {
		fprintf(f, "not measured by baretma: recipe %s:%s: %s", t->recipe->name,
			t->recipe->variant, t->why);
		return;
	}
	fprintf(f, "level %d measured by baretma (rdpmc, msr) from %s: recipe %s:%s, level 1 "
		"in %d %s", t->level, from, t->recipe->name, t->recipe->variant, t->passes[0],
		t->passes[0] == 1 ? "pass" : "passes");
	if (t->level >= 2)
		fprintf(f, ", level 2 in %d %s", t->passes[1], t->passes[1] == 1 ? "pass" : "passes");
	if (t->why[0])
		fprintf(f, " (%s)", t->why);
}

/* The level baretma measures on the kind, and from what: one phrase. */
static void print_measured(FILE *f, const struct cpu_kind *k)
{
	const char *src = k->topdown_source ? k->topdown_source : "none";
	struct bench_kind_topdown t;

	bench_kind_topdown(k, &t);
	if (!strcmp(src, "perf_metrics") && source_pm_recipe(k))
		print_recipe(f, k, &t, "IA32_PERF_METRICS and events");
	else if (!strcmp(src, "perf_metrics"))
		fprintf(f, "level %d measured by baretma (rdpmc, msr) from IA32_PERF_METRICS", t.level);
	else if (!strcmp(src, "events"))
		print_recipe(f, k, &t, "events");
	else if (!strcmp(src, "undecided"))
		fprintf(f, "undecided (IA32_PERF_METRICS depends on IA32_PERF_CAPABILITIES: see warning)");
	else if (!k->gp_counters)
		fprintf(f, "not measured by baretma: no usable performance counters");
	else
		fprintf(f, "not measured by baretma: no IA32_PERF_METRICS and no event recipe known "
			"for %s", k->uarch);
}

/* What IA32_PERF_METRICS gives on the kind, and by what source. */
static void print_perf_metrics(FILE *f, const struct cpu_kind *k)
{
	const char *src = k->perf_metrics_source ? k->perf_metrics_source : "source unknown";

	if (k->topdown_source && !strcmp(k->topdown_source, "undecided"))
		fprintf(f, "%s", src); /* "undecided: ..." */
	else if (k->topdown_level > 0)
		fprintf(f, "level %d (%s), RDPMC metrics-clear %s", k->topdown_level, src,
			k->metrics_clear ? "yes" : "no");
	else
		fprintf(f, "none (%s)", src);
}

/* One block per core kind: the first line, then its counters, the level
 * baretma measures and what PERF_METRICS gives (two sources, two lines). */
static void print_kind(FILE *f, const struct cpu_kind *k)
{
	struct bench_kind_topdown t;

	fprintf(f, "kind:       %s (core type 0x%02x): %s, %u slots/cycle, fixed counter 3 %s, "
	        "cpus ", k->kind, k->core_type, k->uarch, k->pipeline_width,
		k->fixed_ctr3 ? "yes" : "no");
	print_cpus(f, k);
	fprintf(f, "\n  counters: %u GP x %u bits (mask 0x%x), %u fixed (mask 0x%x); source: %s\n",
	        k->gp_counters, k->gp_width, k->gp_mask, k->fixed_counters, k->fixed_mask,
	        k->counters_source ? k->counters_source : "nothing");
	fprintf(f, "  top-down: ");
	print_measured(f, k);
	fprintf(f, "\n  PERF_METRICS: ");
	print_perf_metrics(f, k);
	fprintf(f, "\n");
	bench_kind_topdown(k, &t);
	if (t.formulas && t.formulas->notes)
		fprintf(f, "  left out: %s\n", t.formulas->notes);
}

/* The environment preflight of the machine baretma runs on (for a dump:
 * this machine, not the dumped one: its hypervisor, its /sys). */
static void print_env(FILE *f, const struct cpu_machine *m, const struct bench_avail *a,
		      const struct cpu_env *env)
{
	if (cpu_machine_is_dump(m))
		fprintf(f, "(environment of this machine, not of the dump)\n");
	env_print(f, env, cpu_machine_host(m), a);
}

static void print_text(FILE *f, const struct cpu_machine *m, const struct cpu_info *ci, int cpu,
		       const struct bench_avail *a, const struct cpu_env *env)
{
	const struct cpu_source *src = cpu_machine_source(m);
	const struct cpu_pmu_arch *p = &ci->pmu;
	char why[512]; /* fixed: bench_rdpmc_reason's longest sentence, 330 bytes */
	char hv[BENCH_HV_TEXT_MAX];

	if (cpu_source_is_live(src))
		fprintf(f, "source:     live\n");
	else
		esc_fprintf(f, "source:     %s (%s dump)\n", cpu_source_name(src),
			    cpu_source_format(src));
	esc_fprintf(f, "cpu:        %s family %u model 0x%02X (%u) stepping %u\n",
		    ci->vendor_str, ci->family, ci->model, ci->model, ci->stepping);
	esc_fprintf(f, "brand:      %s\n", ci->brand[0] ? ci->brand : "(none)");
	fprintf(f, "model:      %s\n", ci->row ? ci->row->name : "not in baretma's model table");
	/* the kernel's view is this machine's: asked only when it is the one described */
	esc_fprintf(f, "hypervisor: %s\n", bench_hypervisor_text(hv, sizeof(hv), ci->hypervisor,
		    ci->hypervisor_sig, cpu_source_is_live(src) ? env : NULL));
	fprintf(f, "hybrid:     %s\n", ci->hybrid ? "yes (CPUID.7.0:EDX[15])" : "no");
	fprintf(f, "logical:    %u CPUs\n", ci->ncpus);
	if (p->version)
		fprintf(f, "pmu:        arch perfmon v%u: %u GP counters x %u bits, %u fixed x %u bits "
		        "(mask 0x%x), TOPDOWN.SLOTS event %s\n", p->version, p->gp_counters,
		        p->gp_width, p->fixed_counters, p->fixed_width, p->fixed_mask,
		        p->topdown_slots ? "enumerated" : "not enumerated");
	else
		fprintf(f, "pmu:        no architectural perfmon (CPUID leaf 0xA version 0%s)\n",
		        ci->vendor == CPU_VENDOR_INTEL ? "" : "; reserved on this vendor");
	for (unsigned i = 0; i < ci->nkinds; i++)
		print_kind(f, &ci->kinds[i]);
	if (ci->warning[0])
		esc_fprintf(f, "warning:    %s\n", ci->warning);
	if (a->why != TD_OK) {
		esc_fprintf(f, "topdown:    unavailable on cpu %d: %s\n", cpu, bench_avail_reason(a));
		print_env(f, m, a, env);
		return;
	}
	fprintf(f, "topdown:    level %d available on cpu %d", a->level, cpu);
	if (a->recipe)
		fprintf(f, " from %s (recipe %s:%s)", !strcmp(a->recipe->name, "intel-perf-metrics") ?
			"IA32_PERF_METRICS and events" : "events", a->recipe->name, a->recipe->variant);
	if (!a->rdpmc_ok) {
		bench_rdpmc_reason(a, why, sizeof(why));
		esc_fprintf(f, " (msr backend only: %s)", why);
	}
	fprintf(f, "\n");
	print_env(f, m, a, env);
}


/* "source": {"path": the dump (null when live), "format": cpu_source_format()}. */
static json_t *source_to_json(const struct cpu_source *src)
{
	bool live = cpu_source_is_live(src);

	return json_pack("{s:o, s:s}",
			 "path", bench_json_text(live ? NULL : cpu_source_name(src)),
			 "format", cpu_source_format(src));
}

/* What info found, for its view. */
struct info_result {
	const struct cpu_machine *m;
	const struct cpu_info *ci;
	int cpu;
	const struct bench_avail *a;
	const struct cpu_env *env;
};

static int info_text(FILE *f, const void *result)
{
	const struct info_result *r = result;

	print_text(f, r->m, r->ci, r->cpu, r->a, r->env);
	return 0;
}

/* The identity, then "cpu", "source", "environment", "topdown". */
static json_t *info_json(const void *result)
{
	const struct info_result *r = result;
	const struct bench_avail *a = r->a;
	json_t *doc = cpu_info_to_json(r->ci);
	json_t *td = json_pack("{s:b, s:i, s:o, s:o}", "available", a->why == TD_OK, "level",
			       a->level, "reason",
			       bench_json_text(a->why == TD_OK ? NULL : bench_avail_reason(a)), "recipe",
			       a->recipe ? json_pack("{s:s,s:s}", "name", a->recipe->name,
						     "variant", a->recipe->variant) : json_null());

	if (!doc || !td || json_object_set_new(doc, "cpu", json_integer(r->cpu)) ||
	    json_object_set_new(doc, "source", source_to_json(cpu_machine_source(r->m))) ||
	    json_object_set_new(doc, "environment", env_to_json(r->env, cpu_machine_host(r->m), a))) {
		json_decref(td);
		json_decref(doc);
		return NULL;
	}
	if (json_object_set_new(doc, "topdown", td)) { /* @td taken, also on failure */
		json_decref(doc);
		return NULL;
	}
	return doc;
}

static const struct output_view info_view = { .text = info_text, .json = info_json };

static int report_choose(const struct cpu_machine *m, const struct info_opts *o, int err)
{
	char subject[64];

	if (err == -ENXIO && o->cpu >= 0) {
		snprintf(subject, sizeof(subject), "cannot use cpu %d", o->cpu);
		return cli_bad_cpu(subject, m, err, true);
	}
	if (err == -ENXIO)
		cli_err("no allowed CPU of the kind with the highest Top-down level (E-cores "
			"are never chosen silently; give --cpu N)");
	else
		cli_err("cannot choose a CPU: %s", strerror(-err));
	return err == -ENXIO ? EX_USAGE : cli_exit_for_errno(err);
}

/* The CPU to check, chosen among the described machine's CPUs as bench
 * would; identified again with IA32_PERF_CAPABILITIES where the MSR
 * backend reaches that CPU (bench_identify).  Returns the CPU, or
 * -(exit status) after the message. */
static int pick_cpu(const struct cpu_machine *m, const struct info_opts *o,
		    struct msr_dev *dev, struct cpu_info *ci)
{
	int cpu = cpu_machine_choose(m, ci, o->cpu), rc;

	if (cpu < 0)
		return -report_choose(m, o, cpu);
	rc = bench_identify(m, dev, cpu, ci);
	return rc ? -cli_identify_failed(m, rc) : cpu;
}

static int info_run(void *opts, struct cli_ctx *ctx)
{
	const struct info_opts *o = opts;
	struct cpu_info *ci = calloc(1, sizeof(*ci));
	struct cpu_machine *m = ctx->machine;
	struct bench_avail avail = { 0 };
	struct cpu_env env;
	int rc, cpu;

	if (!ci) {
		cli_err("info: out of memory");
		return EX_OSERR;
	}
	rc = bench_identify(m, NULL, -1, ci);
	if (rc) {
		rc = cli_identify_failed(m, rc);
		goto out;
	}
	cli_warn_kinds("info", m, ci);
	cli_ctx_msr(ctx); /* optional: the availability check names the reason */
	cpu = pick_cpu(m, o, ctx->dev, ci);
	if (cpu < 0) {
		rc = -cpu;
		goto out;
	}
	bench_topdown_check(m, ci, (unsigned)cpu, ctx->dev, &avail);
	cpu_machine_env_read(m, cpu, &env);
	rc = cli_output("info", &o->out, &info_view,
			&(struct info_result){ m, ci, cpu, &avail, &env }, NULL);
out:
	bench_avail_release(&avail);
	free(ci);
	return rc;
}

const struct cli_cmd_ops cmd_info = {
	.parse = info_parse, .run = info_run, .usage = info_usage,
	.opts_size = sizeof(struct info_opts), .optset = &info_optset,
};
