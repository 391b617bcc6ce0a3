/*
 * bench/cli/cmd_pmu_status.c - `baretma pmu status [--json]`: every journal in
 * the state directory, who made it, its registers saved and now, and its
 * settings saved and now.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "bench/bench.h"
#include "bench/cli/cmd_pmu.h"
#include "cpu/machine.h"
#include "bench/output/output.h"
#include "bench/run.h"
#include "cpu/escape.h"
#include "cpu/cpu.h"
#include "msr/regs/intel_regs.h"
#include "msr/journal/journal.h"
#include "msr/regs/msr_names.h"
#include "msr/journal/state_dir.h"

/* ------------------------------------------------------------- status */

static unsigned fc3_field(uint64_t fcc)
{
	return (unsigned)((fcc & FIXED_CTR3_FIELD_MASK) >> FIXED_CTR3_FIELD_SHIFT);
}

static void print_cpu(FILE *f, struct msr_dev *dev, const struct cpu_info *ci,
		      const struct journal_info *ji, unsigned cpu)
{
	const struct journal_data *d = &ji->data;
	struct run_pmu_live l = run_pmu_live(dev, cli_msr_spec(), d, cpu);
	char when[64], buf[1024];

	cli_pmu_fmt_time(when, sizeof(when), d->time);
	fprintf(f, "cpu %u: %s by pid %ld (%s) at %s%s\n", cpu,
	        d->kind == JOURNAL_ENABLE ? "enabled" : d->kind == JOURNAL_MSR_WRITE ? "written" :
	        "left", (long)ji->pid, ji->alive ? "running" : "not running", when,
	        d->user_only ? ", user only" : "");
	cli_pmu_fmt_regs(buf, sizeof(buf), dev, d, ci, cpu, false);
	fprintf(f, "  saved:   %s\n", buf);
	if (l.rc == -EXDEV) {
		esc_fprintf(f, "  now:     not read (the current MSR backend is '%s')\n",
			    cli_msr_spec());
		return;
	}
	/* msr write: the registers it wrote, as they are now (not FC3's state) */
	if (d->kind == JOURNAL_MSR_WRITE) {
		cli_pmu_fmt_regs(buf, sizeof(buf), dev, d, ci, cpu, true);
		fprintf(f, "  now:     %s\n", buf);
		return;
	}
	cli_pmu_fmt_regs(buf, sizeof(buf), dev, d, ci, cpu, true);
	fprintf(f, "  current: %s\n", buf);
	if (l.rc)
		fprintf(f, "  now:     unreadable (%s)\n", strerror(-l.rc));
	else
		fprintf(f, "  now:     IA32_FIXED_CTR_CTRL[15:12]=0x%x IA32_PERF_GLOBAL_CTRL "
		        "bit 35=%d bit 48=%d\n", fc3_field(l.fixed_ctr_ctrl),
		        !!(l.global_ctrl & GLOBAL_CTRL_EN_FIXED3),
		        !!(l.global_ctrl & GLOBAL_CTRL_EN_PERF_METRICS));
}

/* A setting's value now (first line), or "unreadable (...)". */
static void setting_now(const struct journal_setting *s, char *buf, size_t n)
{
	FILE *f = fopen(s->full, "re");

	if (!f || !fgets(buf, (int)n, f))
		snprintf(buf, n, "unreadable (%s)", f ? "empty" : strerror(errno));
	else
		buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}

/*
 * A journal's free text (who holds it, its command line, its backend) as
 * shown: escaped (cpu/escape.h), in the text and in JSON alike - it is
 * input, and JSON strings must be UTF-8 while a journal's bytes need not
 * be (json_pack would fail and drop the journal).  Static: one at a time.
 */
struct shown {
	char holder[4 * 1400], cmd[4 * JOURNAL_CMD_MAX], backend[4 * JOURNAL_BACKEND_MAX];
};

static const struct shown *shown_of(const struct journal_info *ji)
{
	static struct shown t;
	static char raw[1400];

	cli_journal_holder(ji, raw, sizeof(raw));
	esc_str(t.holder, sizeof(t.holder), raw);
	esc_str(t.cmd, sizeof(t.cmd), ji->data.cmd);
	esc_str(t.backend, sizeof(t.backend), ji->data.backend);
	return &t;
}

static void print_journal(FILE *f, struct msr_dev *dev, const struct cpu_info *ci,
			  const struct journal_info *ji, const unsigned *want, int nwant)
{
	const struct journal_data *d = &ji->data;
	char when[64], list[256], now[JOURNAL_SETTING_MAX];
	const struct shown *t = shown_of(ji);
	cli_pmu_fmt_time(when, sizeof(when), d->time);
	cli_fmt_cpus(list, sizeof(list), d->cpus, (unsigned)d->ncpus);
	esc_fprintf(f, "journal '%s': %s\n", ji->path, t->holder);
	fprintf(f, "  command: %s\n  time:    %s\n  backend: %s\n  kind:    %s%s\n  cpus:    %s\n",
	        t->cmd, when, t->backend, journal_kind_name(d->kind),
	        d->user_only ? ", user only" : "", d->ncpus ? list : d->nsettings ?
	        "none (it saved settings only: 'baretma pmu restore' puts them back)" :
	        "none (its run ended before it saved anything: 'baretma pmu restore' "
	        "removes it)");
	if (journal_data_unsafe(d))
		fprintf(f, "  unsafe:  %d register%s written with --unsafe-msr, outside the write "
		        "policy (marked '(%s)' below): 'baretma pmu restore --unsafe-msr' puts "
		        "%s back\n", journal_data_unsafe(d), journal_data_unsafe(d) > 1 ? "s" : "",
		        JOURNAL_UNSAFE_MARK, journal_data_unsafe(d) > 1 ? "them" : "it");
	for (int i = 0; i < d->nsettings; i++) {
		setting_now(&d->settings[i], now, sizeof(now));
		esc_fprintf(f, "  setting: %s saved '%s', now '%s'\n", d->settings[i].path,
			    d->settings[i].value, now);
	}
	for (int c = 0; c < d->ncpus; c++)
		if (run_pmu_wanted(want, nwant, d->cpus[c]))
			print_cpu(f, dev, cli_pmu_journal_machine(ci, d), ji, d->cpus[c]);
}

static json_t *hex_json(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_string(buf);
}

/* An msr write journal's "now": every register it saved, by name (or
 * index), as it is now (null when unreadable). */
static json_t *written_now(struct msr_dev *dev, const struct cpu_info *ci,
			   const struct journal_data *d, unsigned cpu)
{
	json_t *now = json_object();
	const char *name;
	char key[16];

	for (int i = 0; now && i < d->nregs; i++) {
		const struct journal_reg *r = &d->regs[i];
		uint64_t v;

		if (r->cpu != cpu)
			continue;
		snprintf(key, sizeof(key), "0x%" PRIx32, r->msr);
		name = cli_pmu_reg_name(ci, cpu, r->msr);
		json_object_set_new(now, name ? name : key,
				    !msr_read(dev, cpu, r->msr, &v) ? hex_json(v) : json_null());
	}
	return now;
}

/* One CPU: "saved" by field name, "registers" [{msr, name, saved, current,
 * unsafe_msr}], "now" (run, enable: FC3's field and bits 35/48; write: its
 * registers). */
static json_t *cpu_json(struct msr_dev *dev, const struct cpu_info *ci,
			const struct journal_data *d, unsigned cpu)
{
	static const struct { uint32_t msr; const char *key; } keys[] = {
		{ IA32_PERF_GLOBAL_CTRL, "global_ctrl" }, { IA32_FIXED_CTR_CTRL, "fixed_ctr_ctrl" },
		{ IA32_FIXED_CTR3, "fixed_ctr3" }, { IA32_PERF_METRICS, "perf_metrics" },
	};
	struct run_pmu_live l = run_pmu_live(dev, cli_msr_spec(), d, cpu);
	json_t *saved = json_object(), *regs = json_array(), *j;

	for (int i = 0; i < d->nregs; i++) {
		const struct journal_reg *r = &d->regs[i];
		const char *name = cli_pmu_reg_name(ci, cpu, r->msr);
		uint64_t v;

		if (r->cpu != cpu)
			continue;
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (keys[k].msr == r->msr)
				json_object_set_new(saved, keys[k].key, hex_json(r->saved));
		json_array_append_new(regs, json_pack("{s:o, s:o, s:o, s:o, s:b}",
			"msr", hex_json(r->msr), "name", name ? json_string(name) : json_null(),
			"saved", hex_json(r->saved), "current",
			l.rc != -EXDEV && !msr_read(dev, cpu, r->msr, &v) ? hex_json(v) : json_null(),
			"unsafe_msr", r->unsafe));
	}
	j = json_pack("{s:i, s:o, s:o}", "cpu", (int)cpu, "saved", saved, "registers", regs);
	if (j && !l.rc && d->kind == JOURNAL_MSR_WRITE)
		json_object_set_new(j, "now", written_now(dev, ci, d, cpu));
	else if (j && !l.rc)
		json_object_set_new(j, "now", json_pack("{s:i, s:b, s:b}",
			"fixed_ctr3_field", (int)fc3_field(l.fixed_ctr_ctrl),
			"global_ctrl_en_fixed3", !!(l.global_ctrl & GLOBAL_CTRL_EN_FIXED3),
			"global_ctrl_en_perf_metrics",
			!!(l.global_ctrl & GLOBAL_CTRL_EN_PERF_METRICS)));
	else if (j)
		json_object_set_new(j, "now_error", json_string(l.rc == -EXDEV ?
			"not read: the journal's MSR backend is not the current one" :
			strerror(-l.rc)));
	return j;
}

/* Values as "0x.." strings: JSON numbers lose bits above 2^53. */
static json_t *journal_json(struct msr_dev *dev, const struct cpu_info *ci,
			    const struct journal_info *ji, const unsigned *want, int nwant)
{
	const struct journal_data *d = &ji->data;
	json_t *cpus = json_array(), *sets = json_array();
	char now[JOURNAL_SETTING_MAX];
	const struct shown *t = shown_of(ji);
	for (int c = 0; c < d->ncpus; c++)
		if (run_pmu_wanted(want, nwant, d->cpus[c]))
			json_array_append_new(cpus, cpu_json(dev, cli_pmu_journal_machine(ci, d), d,
							     d->cpus[c]));
	for (int i = 0; i < d->nsettings; i++) {
		setting_now(&d->settings[i], now, sizeof(now));
		json_array_append_new(sets, json_pack("{s:s, s:s, s:o}", "path",
			d->settings[i].path, "saved", d->settings[i].value,
			"current", bench_json_text(now))); /* the file's bytes, any */
	}
	return json_pack("{s:o, s:I, s:b, s:s, s:s, s:s, s:I, s:s, s:b, s:o, s:o}",
			 "path", bench_json_text(ji->path), "pid", (json_int_t)ji->pid, "alive", ji->alive,
			 "kind", journal_kind_name(d->kind), "holder", t->holder,
			 "cmd", t->cmd, "time", (json_int_t)d->time, "backend", t->backend,
			 "user_only", d->user_only, "cpus", cpus, "settings", sets);
}

#define TMP_JOURNALS_MAX 256

/* What status found: the journals, the CPUs asked about, the temporary
 * files of journal updates (journal_list_tmp). */
struct status_result {
	struct msr_dev *dev;
	const struct cpu_info *ci;
	const struct journal_info *v;
	int n;
	const unsigned *want;
	int nwant;                   /* -1: every CPU */
	const struct journal_tmp *tmp;
	int ntmp;                    /* -1: they could not be listed (said) */
	bool failed;                 /* something could not be read (said on stderr) */
};

static int status_text(FILE *f, const void *result)
{
	const struct status_result *r = result;
	int shown = 0;

	for (int i = 0; i < r->n; i++)
		if (!r->v[i].error && run_pmu_concerns(&r->v[i].data, r->want, r->nwant)) {
			shown++;
			print_journal(f, r->dev, r->ci, &r->v[i], r->want, r->nwant);
		}
	for (int i = 0; i < r->ntmp; i++)
		esc_fprintf(f, "temporary journal '%s': pid %ld (%s): an update never renamed "
			    "into place, so never acted on (%s)\n", r->tmp[i].path,
			    (long)r->tmp[i].pid, r->tmp[i].alive ? "running" : "not running",
			    r->tmp[i].alive ? "left to it" : "'baretma pmu restore' removes it");
	if (!shown && !r->ntmp && !r->failed)
		esc_fprintf(f, "no journal in '%s': no CPU enabled by 'baretma pmu enable' "
			    "and no run left anything to restore\n", state_dir_path());
	return 0;
}

static json_t *status_json(const void *result)
{
	const struct status_result *r = result;
	json_t *arr = json_array(), *errs = json_array(), *tmps = json_array();
	json_t *doc = json_pack("{s:o, s:o, s:o, s:o}", "state_dir",
				bench_json_text(state_dir_path()), "journals", arr, "errors", errs,
				"temporary", tmps);

	for (int i = 0; doc && i < r->n; i++) {
		const struct journal_info *ji = &r->v[i];

		if (ji->error)
			json_array_append_new(errs, json_pack("{s:o, s:s}",
				"path", bench_json_text(ji->path),
				"error", ji->detail ? ji->detail : strerror(-ji->error)));
		else if (run_pmu_concerns(&ji->data, r->want, r->nwant))
			json_array_append_new(arr, journal_json(r->dev, r->ci, ji, r->want, r->nwant));
	}
	for (int i = 0; doc && i < r->ntmp; i++)
		json_array_append_new(tmps, json_pack("{s:o, s:I, s:b}", "path",
						      bench_json_text(r->tmp[i].path),
						      "pid", (json_int_t)r->tmp[i].pid,
						      "alive", r->tmp[i].alive));
	return doc;
}

static const struct output_view status_view = { .text = status_text, .json = status_json };

static int status_parse(int argc, char **argv, void *opts, struct cli_ctx *ctx)
{
	struct pmu_opts *o = opts;
	int rc = cli_pmu_parse(argc, argv, "status", false, o, ctx);

	return rc ? rc : cli_output_check("pmu status", &o->out, &status_view);
}

static int status_run(void *opts, struct cli_ctx *ctx)
{
	static struct journal_tmp tmp[TMP_JOURNALS_MAX];
	struct pmu_opts *o = opts;
	unsigned *want = o->cpus;
	struct journal_info *v = NULL;
	struct cpu_info *ci = NULL;
	struct cpu_machine *m = NULL;
	int n = 0, nwant = -1, rc = 0, st, ntmp;

	/* --cpuid-dump first (CLI_MSR_LATE): the machine the simulator models
	 * (cli_ctx_msr) and that names the registers, a bad one said as such;
	 * then the MSR backend, and --cpu after it, as status always had it */
	if (ctx->dump)
		rc = cli_machine_open(ctx->dump, &m);
	if (!rc)
		rc = cli_ctx_msr(ctx);
	if (!rc && o->cpu_list && (nwant = cli_pmu_parse_cpus(o->cpu_list, want)) < 0)
		rc = -nwant;
	if (!rc && (rc = run_pmu_journals_load(&v, &n)))
		rc = cli_state_dir_fail("list the journals", rc);
	if (rc)
		goto out;
	/* the CPUs' own counters name the registers (0xce on an 8-counter part
	 * is no IA32_PMCx); unidentified: the architectural ranges */
	ci = n ? cli_names_identify(m) : NULL;
	/* never skipped silently: each journal that cannot be read is named,
	 * and the exit status says it */
	for (int i = 0; i < n; i++)
		if (v[i].error && (st = cli_journal_bad(&v[i])) && !rc)
			rc = st;
	if ((ntmp = journal_list_tmp(tmp, TMP_JOURNALS_MAX)) < 0) {
		cli_state_dir_fail("list the temporary journals", ntmp);
		rc = rc ? rc : EX_SOFTWARE;
	}
	st = cli_output("pmu status", &o->out, &status_view,
			&(struct status_result){ ctx->dev, ci, v, n, want, nwant, tmp, ntmp, rc != 0 },
			NULL);
	rc = st ? st : rc;
out:
	free(ci);
	cpu_machine_free(m);
	run_pmu_journals_free(v, n);
	return rc;
}

const struct cli_cmd_ops cmd_pmu_status = {
	.parse = status_parse, .run = status_run, .usage = cli_pmu_usage,
	.opts_size = sizeof(struct pmu_opts), .optset = &cli_pmu_optset,
};
