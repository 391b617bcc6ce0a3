/*
 * bench/cli/cli_run.c - the command line's side of "leave every machine
 * exactly as found" (bench with a Top-down backend, pmu enable, pmu
 * restore, msr write): the protocol itself is the library's
 * (msr/guard/guard.h: locks, other runs' journals, ownership, lockdown and
 * msr.allow_writes, the journal, the settings, the restore; the signal
 * guard msr/journal/guard_signals.h); this file prints what each step kept to say
 * and maps its kind of refusal to the exit status (doc/safety.md "Leaving the
 * machine as found", "Exit statuses").
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/cli/cli.h"
#include "bench/cli/cli_run.h"
#include "bench/run.h"
#include "cpu/escape.h"
#include "cpu/machine.h"
#include "msr/guard/guard.h"
#include "msr/journal/guard_signals.h"
#include "msr/open/msr_open.h"


const char *cli_msr_spec(void)
{
	return msr_env_spec();
}

int cli_msr_open(struct msr_dev **dev)
{
	return cli_msr_open_on(NULL, dev);
}

int cli_msr_open_on(const char *dump, struct msr_dev **dev)
{
	int rc = msr_open_on(cli_msr_spec(), dump, dev);

	if (!rc)
		return EX_OK;
	if (*msr_last_error())
		cli_err("%s", msr_last_error());
	else
		cli_err("cannot open MSR backend '%s': %s", cli_msr_spec(), strerror(-rc));
	return cli_exit_for_errno(rc);
}

/* The exit status of a guard's kind of refusal (msr/guard/guard.h). */
static int exit_of(enum guard_class cls, int err)
{
	switch (cls) {
	case GUARD_USAGE: return EX_USAGE;
	case GUARD_DATA: return EX_DATAERR;
	case GUARD_UNAVAILABLE: return EX_UNAVAILABLE;
	case GUARD_CANTCREAT: return EX_CANTCREAT;
	case GUARD_BUSY: return EX_TEMPFAIL;
	case GUARD_DENIED: return EX_NOPERM;
	case GUARD_OSERR: return EX_OSERR;
	case GUARD_ERRNO: break;
	}
	return cli_exit_for_errno(err);
}

/* Print @msg after "baretma: "; the exit status of @cls, @err. */
static int fail(enum guard_class cls, int err, const char *msg)
{
	cli_err("%s", msg);
	return exit_of(cls, err);
}

int cli_msr_fail_cpu(struct msr_dev *dev, unsigned cpu, const char *verb, int err)
{
	char msg[GUARD_ACCESS_TEXT_MAX];

	return fail(guard_msr_cpu_fail_text(dev, cpu, verb, err, msg, sizeof(msg)), err, msg);
}

int cli_msr_open_cpus(struct msr_dev *dev, const unsigned *cpus, int n)
{
	int at, rc = run_cpus_open(dev, cpus, n, &at);

	return rc ? cli_msr_fail_cpu(dev, cpus[at], "open", rc) : EX_OK;
}

void cli_restore_cause(struct msr_dev *dev, int err, char *buf, size_t n)
{
	guard_restore_cause(dev, err, buf, n);
}

int cli_msr_access_fail(struct msr_dev *dev, int err, const char *ctx, unsigned cpu)
{
	char *msg = NULL;
	enum guard_class cls = guard_access_fail_text(dev, err, ctx, cpu, &msg);
	int st = fail(cls, err, msg ? msg : strerror(-err));

	free(msg);
	return st;
}

void cli_note(const char *fmt, ...)
{
	va_list ap;

	fputs("baretma: note: ", stderr);
	va_start(ap, fmt);
	esc_vfprintf(stderr, fmt, ap); /* one line, escaped, as cli_err's */
		     va_end(ap);
	fputc('\n', stderr);
}

/* FNV-1a of @s (the details said: each once). */
static uint64_t text_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

void cli_detail(bool verbose, const char *fmt, ...)
{
	static uint64_t said[32]; /* more details than a command has */
	static unsigned nsaid;
	char *text = NULL;
	uint64_t h;
	va_list ap;
	int n;

	if (!verbose)
		return;
	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return; /* out of memory: a detail left unsaid */
	h = text_hash(text);
	for (unsigned i = 0; i < nsaid; i++)
		if (said[i] == h)
			goto out;
	if (nsaid < sizeof(said) / sizeof(said[0]))
		said[nsaid++] = h;
	cli_note("%s", text);
out:
	free(text);
}

int cli_state_dir_fail(const char *what, int err)
{
	char *msg = NULL;
	enum guard_class cls = guard_state_dir_text(what, err, &msg);
	int st = fail(cls, err, msg ? msg : strerror(-err));

	free(msg);
	return st;
}

int cli_journal_space(struct msr_dev *dev, int err)
{
	struct msr_fault f;

	if (err != -ENOSPC && err != -EDQUOT && err != -EFBIG)
		return 0;
	if (dev && msr_last_fault(dev, &f) && f.err == err)
		return 0; /* the MSR backend's own write (a state file): its message */
	return cli_state_dir_fail("save a register in the journal before writing it", err);
}

bool cli_settings_any(const struct guard_settings *s)
{
	return s->rdpmc_always || s->stop_nmi_watchdog || s->allow_msr_writes;
}

void cli_journal_holder(const struct journal_info *who, char *buf, size_t n)
{
	guard_journal_holder(who, buf, n);
}

int cli_journal_bad(const struct journal_info *who)
{
	char *msg = NULL;
	enum guard_class cls = guard_journal_bad_text(who, &msg);
	int st = fail(cls, who->error, msg ? msg : strerror(ENOMEM));

	free(msg);
	return st;
}

/* ---------------------------------------------------------------- dump */

int cli_refuse_dump_device(const char *who, const struct cpu_machine *m, struct msr_dev *dev)
{
	if (!cpu_machine_is_dump(m) || bench_msr_reaches(m, dev))
		return EX_OK;
	cli_err("%s: refusing to write MSRs through '%s' with a CPUID dump ('%s'): the "
		"dump describes another machine (use BARETMA_MSR=state:FILE for a dry run, "
		"or drop the dump to measure this machine)", who, cli_msr_spec(),
		cpu_machine_name(m));
	return EX_USAGE;
}

/* ---------------------------------------------------------- the steps */

/* The library's guard for @r, made from its inputs at the first step. */
static int guard_of(struct cli_run *r, struct guard **g)
{
	struct guard_opts o = {
		.wait = r->wait, .stop = r->stop, .force = r->force, .settings_exclusive = r->settings_exclusive,
		.no_settings_flags = r->no_settings_flags, .save_counters = r->save_counters,
		.set = r->set, .kind = r->kind,
		.cmd = cli_cmdline(), .backend = cli_msr_spec(),
	};

	if (!r->g && guard_new(&r->g, &o)) {
		cli_err("cannot set up the run: %s", strerror(ENOMEM));
		return EX_OSERR;
	}
	*g = r->g;
	return EX_OK;
}

/* What a step kept to say (a detail with -v only), then its refusal (and
 * the lines after it). */
static int report(const struct cli_run *r, struct guard *g, int rc)
{
	enum guard_line_kind kind;
	const char *text;

	for (int i = 0; (text = guard_line(g, i, &kind)); i++)
		if (kind == GUARD_LINE_NOTE)
			cli_note("%s", text);
		else if (kind == GUARD_LINE_DETAIL)
			cli_detail(r->verbose, "%s", text);
		else if (kind == GUARD_LINE_WARNING)
			cli_warn("%s", text);
	if (rc)
		cli_err("%s", guard_message(g));
	for (int i = 0; (text = guard_line(g, i, &kind)); i++)
		if (kind == GUARD_LINE_AFTER)
			esc_fprintf(stderr, "%s\n", text);
	guard_lines_clear(g);
	return rc ? exit_of(guard_class(g), rc) : EX_OK;
}

int cli_run_lock(struct cli_run *r, const unsigned *cpus, int n, bool msrs)
{
	struct guard *g;
	int st = guard_of(r, &g), rc;

	if (st)
		return st;
	rc = guard_lock(g, cpus, n, msrs);
	r->interrupted = rc == -EINTR;
	return report(r, g, rc);
}

int cli_run_check_journals(struct cli_run *r, const unsigned *cpus, int n,
			   struct guard_hit *hits)
{
	struct guard *g;
	int st = guard_of(r, &g);

	return st ? st : report(r, g, guard_check_journals(g, cpus, n, hits));
}

int cli_run_allow_writes(struct cli_run *r, struct msr_dev *dev)
{
	struct guard *g;
	int st = guard_of(r, &g);

	return st ? st : report(r, g, guard_check_writes(g, dev));
}

/* The run's journal begun by @g: keep it, and install the signal guard
 * (the CLI's: die of the signal after the restore). */
static int adopt(struct cli_run *r, struct guard *g, struct msr_dev *dev, enum journal_kind kind)
{
	int rc;

	r->j = guard_journal(g);
	r->kind = kind;
	r->dev = dev;
	rc = guard_signals_install(GUARD_SIGNALS_DIE);
	if (rc) {
		cli_err("cannot install the restore signal handlers: %s", strerror(-rc));
		return EX_OSERR;
	}
	r->signals = true;
	return EX_OK;
}

int cli_run_begin(struct cli_run *r, struct msr_dev *dev, enum journal_kind kind,
		  bool user_only)
{
	struct guard *g;
	int st = guard_of(r, &g);

	if (st || (st = report(r, g, guard_begin(g, dev, kind, user_only))))
		return st;
	return adopt(r, g, dev, kind);
}

int cli_run_start(struct cli_run *r, struct msr_dev *dev, const struct cpu_info *ci,
		  const unsigned *cpus, int n, bool msrs, enum journal_kind kind, bool user_only)
{
	struct guard *g;
	int st = guard_of(r, &g), rc;

	if (st)
		return st;
	rc = guard_start(g, dev, ci, cpus, n, msrs, kind, user_only);
	r->interrupted = rc == -EINTR;
	if ((st = report(r, g, rc)))
		return st;
	/* the handlers before the first change: registers, then settings */
	st = adopt(r, g, dev, kind);
	return st ? st : cli_run_settings(r);
}

int cli_run_settings(struct cli_run *r)
{
	struct guard *g;
	int st = guard_of(r, &g);

	return st ? st : report(r, g, guard_settings(g));
}

int cli_run_finish(struct cli_run *r, int status, bool detach)
{
	int rc, st;

	if (!r->g)
		return status;
	guard_lines_clear(r->g);
	rc = guard_finish(r->g, detach);
	if (r->signals)
		guard_signals_remove(GUARD_SIGNALS_DIE);
	r->signals = false;
	st = report(r, r->g, rc);
	guard_free(r->g);
	r->g = NULL;
	r->j = NULL;
	return status ? status : st;
}
