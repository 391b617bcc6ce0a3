/*
 * bench/cli/cmd_pmu_restore.c - `baretma pmu restore [--cpu LIST]`: put back
 * every journal whose process has ended, newest first, and remove it.
 * The selection, the check, the CPUs to lock and the order are
 * bench/run_pmu.c's; this file says what they found.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/cli/cmd_pmu.h"
#include "cpu/machine.h"
#include "bench/run.h"
#include "cpu/cpu.h"
#include "cpu/escape.h"
#include "msr/journal/journal.h"
#include "msr/journal/leftovers.h"
#include "msr/regs/msr_names.h"
#include "msr/journal/state_dir.h"

/* ------------------------------------------------------------ restore */

#define TMP_JOURNALS_MAX 256 /* temporary files looked at in one restore */

/*
 * The temporary files of journal updates (journal_list_tmp): one of a
 * process that no longer runs was never acted on and is removed, one of a
 * running baretma is named.  *@left counts those left.  Returns an exit
 * status.
 */
static int restore_tmp(int *left)
{
	static struct journal_tmp t[TMP_JOURNALS_MAX];
	int n = journal_list_tmp(t, TMP_JOURNALS_MAX), st = EX_OK;

	*left = 0;
	if (n < 0)
		return n == -ERANGE ? (cli_err("more than %d temporary journal files in '%s': "
					       "remove those of processes that no longer run "
					       "by hand", TMP_JOURNALS_MAX, state_dir_path()), EX_SOFTWARE)
				    : cli_state_dir_fail("list the temporary journals", n);
	for (int i = 0; i < n; i++) {
		int rc;

		if (t[i].alive) {
			cli_note("temporary journal '%s' belongs to a running process (pid %ld): "
				 "left to it", t[i].path, (long)t[i].pid);
			(*left)++;
			continue;
		}
		rc = journal_remove_tmp(t[i].pid, t[i].seq);
		if (rc) {
			st = st ? st : cli_state_dir_fail("remove a temporary journal", rc);
			(*left)++;
			continue;
		}
		esc_fprintf(stdout, "removed '%s': the update of a journal by pid %ld (not running) that "
		       "was never renamed into place, so never acted on\n", t[i].path,
		       (long)t[i].pid);
	}
	return st;
}

/*
 * The temporary files of writes (-o, --plot ...) that runs killed with
 * SIGKILL left, found through the state directory's records
 * (msr/journal/leftovers.h): removed, and said.  A record refused is named (the
 * rest is done).  Returns an exit status.
 */
static int restore_outputs(void)
{
	struct leftovers_result r;
	int rc = leftovers_restore(&r);

	if (r.removed || r.records)
		esc_fprintf(stdout, "removed %u temporary file%s of writes that %u ended run%s "
			    "left unfinished (every other file is as it was)\n", r.removed,
			    r.removed == 1 ? "" : "s", r.records, r.records == 1 ? "" : "s");
	if (rc == -EBADMSG) {
		cli_warn("a record of unfinished writes in '%s' is not one of baretma's (not a "
			 "regular file of uid %u writable by it alone, or malformed): left as it is",
			 state_dir_path(), (unsigned)geteuid());
		return EX_OK;
	}
	return rc && rc != -ENOENT ? cli_state_dir_fail("list the records of unfinished "
							"writes", rc) : EX_OK;
}

/*
 * Which journals to restore (run_pmu_select): every journal must load
 * (65/77 otherwise), every --cpu CPU must be held (66: then only the
 * ended journals that hold no CPU, settings left by a killed run, are
 * still put back), and held by a journal that can be restored (75 when
 * only a running baretma's holds it).  @sel[i] says which; *@any how many.
 */
static int restore_select(struct journal_info *v, int n, const unsigned *want, int nwant,
			  bool *sel, int *any)
{
	struct run_pmu_selection s;

	*any = run_pmu_select(v, n, want, nwant, sel, &s);
	if (s.bad >= 0)
		return cli_journal_bad(&v[s.bad]);
	for (int i = 0; i < n; i++)
		if (v[i].alive && run_pmu_concerns(&v[i].data, want, nwant))
			cli_note("journal '%s' belongs to a running baretma (pid %ld): left to it",
				 v[i].path, (long)v[i].pid);
	if (s.missing >= 0) {
		cli_err("cpu %u has no journal in '%s'", want[s.missing], state_dir_path());
		*any = 0;
		for (int i = 0; i < n; i++) {
			sel[i] = sel[i] && v[i].data.ncpus == 0;
			*any += sel[i];
		}
		return EX_NOINPUT;
	}
	return s.busy ? EX_TEMPFAIL : EX_OK;
}

/* The journals' backend must be the current one; their CPUs reachable. */
static int restore_preflight(struct msr_dev *dev, const struct journal_info *v, int n,
			     const bool *sel)
{
	const struct journal_data *d;
	unsigned cpu;
	int i, rc = run_pmu_restore_check(dev, cli_msr_spec(), v, n, sel, &i, &cpu);

	if (!rc)
		return EX_OK;
	d = &v[i].data;
	if (!strcmp(d->backend, cli_msr_spec())) /* its backend: a CPU did not open */
		return cli_msr_fail_cpu(dev, cpu, "open", rc);
	cli_err("journal '%s' (cpu %u%s): journal was written through MSR backend '%s', but "
		"the current one is '%s' (set BARETMA_MSR='%s' to restore it)", v[i].path,
		d->ncpus ? d->cpus[0] : 0, d->ncpus > 1 ? ", ..." : "", d->backend, cli_msr_spec(),
		d->backend);
	return EX_USAGE;
}

/* Lock every CPU of the selected journals (and the settings, when any). */
static int restore_lock(struct cli_run *r, const struct journal_info *v, int n,
			const bool *sel)
{
	static unsigned cpus[CPU_MAX_CPUS];
	int m = run_pmu_restore_cpus(v, n, sel, cpus, &r->settings_exclusive);

	return cli_run_lock(r, cpus, m, true);
}

/*
 * A register `msr write --unsafe-msr` wrote outside the write policy
 * (marked unsafe-msr in the journal) is put back only with --unsafe-msr:
 * restoring it writes, as root, a register baretma does not know (and a
 * planted journal may name any).  Every selected journal is checked before
 * the first write; without the flag nothing is restored (64).
 */
static int restore_unsafe(const struct journal_info *v, int n, const bool *sel,
			  const struct cpu_info *ci, bool unsafe_msr)
{
	struct msr_counters c;
	char label[64];

	for (int i = 0; i < n; i++) {
		const struct journal_data *d = &v[i].data;

		for (int k = 0; sel[i] && k < d->nregs; k++) {
			const struct journal_reg *r = &d->regs[k];

			if (!r->unsafe)
				continue;
			msr_reg_label_cpu(r->msr, cli_msr_counters(cli_pmu_journal_machine(ci, d),
								   r->cpu, &c), label, sizeof(label));
			if (!unsafe_msr) {
				cli_err("journal '%s': cpu %u %s was written with --unsafe-msr, "
					"outside the write policy: restoring it writes that register "
					"(check it with 'baretma pmu status', then give --unsafe-msr); "
					"nothing restored", v[i].path, r->cpu, label);
				return EX_USAGE;
			}
			cli_warn("journal '%s': restoring cpu %u %s = 0x%" PRIx64 ", outside the "
				 "write policy (--unsafe-msr)", v[i].path, r->cpu, label, r->saved);
		}
	}
	return EX_OK;
}

static int restore_one(struct msr_dev *dev, const struct cpu_info *ci,
		       const struct journal_info *ji)
{
	const struct journal_data *d = &ji->data;
	char buf[GUARD_ACCESS_TEXT_MAX];
	int rc;

	msr_fault_clear(dev);
	rc = journal_restore_data(d, dev);
	if (rc) {
		cli_restore_cause(dev, rc, buf, sizeof(buf));
		cli_err("journal '%s': could not put everything back: %s; journal kept (run "
			"'baretma pmu restore' again)", ji->path, buf);
		return cli_exit_for_errno(rc);
	}
	if (!d->nregs && !d->nsettings)
		esc_fprintf(stdout, "journal '%s' of pid %ld (not running) held nothing: its run ended "
		       "before it saved a register or setting, so nothing was changed\n",
		       ji->path, (long)ji->pid);
	for (int c = 0; c < d->ncpus; c++) {
		cli_pmu_fmt_regs(buf, sizeof(buf), dev, d, cli_pmu_journal_machine(ci, d),
				 d->cpus[c], false);
		esc_fprintf(stdout, "cpu %u: restored %s (saved by pid %ld, '%s')\n", d->cpus[c],
			    buf, (long)ji->pid, d->cmd);
	}
	for (int i = 0; i < d->nsettings; i++)
		esc_fprintf(stdout, "setting %s: restored '%s' (saved by pid %ld)\n",
			    d->settings[i].path,
			    d->settings[i].value, (long)ji->pid);
	rc = journal_remove_seq(ji->pid, ji->seq);
	return rc ? cli_state_dir_fail("remove the journal", rc) : EX_OK;
}

static int restore_parse(int argc, char **argv, void *opts, struct cli_ctx *ctx)
{
	return cli_pmu_parse(argc, argv, "restore", true, opts, ctx);
}

static int restore_run(void *opts, struct cli_ctx *ctx)
{
	struct pmu_opts *o = opts;
	const unsigned *want = o->cpus;
	struct journal_info *v = NULL;
	struct cpu_info *ci = NULL;
	struct cpu_machine *m = NULL;
	bool *sel = NULL;
	int *order = NULL;
	int n = 0, nwant = o->ncpus, rc = 0, st, any = 0, tmp_left = 0, tmp_st;

	/* --cpuid-dump: the machine the simulator models (cli_ctx_msr), which
	 * names the registers; a bad dump is refused before anything */
	if (ctx->dump && (st = cli_machine_open(ctx->dump, &m)))
		goto out;
	rc = run_pmu_journals_load(&v, &n);
	if (rc) {
		st = cli_state_dir_fail("list the journals", rc);
		goto out;
	}
	tmp_st = restore_tmp(&tmp_left);
	if (!tmp_st)
		tmp_st = restore_outputs();
	if (n == 0 && nwant < 0) {
		if (!tmp_left && !tmp_st)
			esc_fprintf(stdout, "nothing to restore: no journal in '%s'\n",
				    state_dir_path());
		st = tmp_st;
		goto out;
	}
	sel = calloc((size_t)n + 1, sizeof(*sel));
	st = sel ? restore_select(v, n, want, nwant, sel, &any) : EX_OSERR;
	if ((st && st != EX_TEMPFAIL && st != EX_NOINPUT) || !any)
		goto out;
	ci = cli_names_identify(m); /* names by the CPUs' own counters */
	rc = restore_unsafe(v, n, sel, ci, o->unsafe_msr);
	if (!rc) /* CLI_MSR_LATE: only now that something is to be put back */
		rc = cli_ctx_msr(ctx);
	if (!rc && m) /* a dump is another machine: not this one's device */
		rc = cli_refuse_dump_device("pmu restore", m, ctx->dev);
	if (!rc)
		rc = restore_preflight(ctx->dev, v, n, sel);
	if (!rc)
		rc = restore_lock(&ctx->run, v, n, sel);
	if (!rc && !(order = calloc((size_t)n, sizeof(*order))))
		rc = EX_OSERR;
	if (order) /* newest first: the older journal saved what the newer one wrote */
		run_pmu_newest_first(v, n, order);
	for (int k = 0; k < n && !rc; k++)
		if (sel[order[k]]) {
			int one = restore_one(ctx->dev, ci, &v[order[k]]);
			st = st ? st : one;
		}
	st = rc ? rc : st; /* the close releases the locks */
	st = st ? st : tmp_st;
out:
	if (!any && !st && n)
		esc_fprintf(stdout, "nothing to restore: every journal in '%s' belongs to a "
			    "running baretma\n",
			    state_dir_path());
	free(order);
	free(sel);
	free(ci);
	cpu_machine_free(m);
	run_pmu_journals_free(v, n);
	return st;
}

const struct cli_cmd_ops cmd_pmu_restore = {
	.parse = restore_parse, .run = restore_run, .usage = cli_pmu_usage,
	.opts_size = sizeof(struct pmu_opts), .optset = &cli_pmu_optset,
};
