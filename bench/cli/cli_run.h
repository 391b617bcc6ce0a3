/*
 * bench/cli/cli_run.h - the command line's side of the guarded run: each
 * cli_run_* calls its step of the library (msr/guard/guard.h: locks, other
 * runs' journals, PMU ownership, what the kernel refuses, the journal,
 * the settings, the restore), prints what the step kept to say (notes,
 * warnings, the refusal after "baretma: ") and maps it to an exit status
 * (sysexits.h).  Every function that returns int returns an exit status:
 * 0 to go on, else the message has been printed.
 */
#ifndef BARETMA_CLI_RUN_H
#define BARETMA_CLI_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "msr/guard/guard.h"
#include "msr/journal/journal.h"
#include "msr/guard/lock.h"
#include "msr/access/msr.h"

struct cpu_info;

/* One run's guard; zero-initialise, fill the inputs, then the cli_run_*
 * calls in order (msr/guard/guard.h), and cli_run_finish on every way out. */
struct cli_run {
	bool wait;                 /* --wait: block on busy locks */
	const sigset_t *stop;      /* with wait: the signals held (blocked) that
				    * end a wait (stat's, cli_stop_set) */
	bool interrupted;          /* the step refused because one of @stop
				    * ended its wait (exit 75, EX_TEMPFAIL) */
	bool force;                /* --force: go on past journals / FC3 in use */
	bool settings_exclusive;   /* take the settings lock exclusively without
				    * a flag (pmu restore puts settings back) */
	bool save_counters;        /* the journal saves the CPUs' counter registers
				    * when it begins (msr/guard/guard.h): commands with
				    * perf_event blocks */
	bool no_settings_flags;    /* the command has none of the three flags
				    * (msr write): remedies say what to set */
	struct guard_settings set; /* --rdpmc-always, --stop-nmi-watchdog,
				    * --allow-msr-writes */
	enum journal_kind kind;    /* of the journal begun; set before the
				    * checks: JOURNAL_ENABLE / _MSR_WRITE word
				    * --force's warning for a journal that stays */
	struct journal *j;         /* the run's journal (cli_run_begin) */
	struct msr_dev *dev;       /* cli_run_begin's device */
	struct guard *g;           /* the library's guard, made by the first call */
	bool signals;              /* cli_run_begin installed the signal guard */
	bool verbose;              /* -v: the guard's details (GUARD_LINE_DETAIL:
				    * a dry run's state directory) said too */
};

/* cli_msr_spec - $BARETMA_MSR or the default "/dev/cpu/%u/msr" (the
 * backend the journal records). */
const char *cli_msr_spec(void);

/* cli_msr_open - msr_open(cli_msr_spec()); the message on failure.
 * Returns an exit status. */
int cli_msr_open(struct msr_dev **dev);

/* cli_msr_open_on - cli_msr_open() for the machine of CPUID dump @dump
 * (--cpuid-dump; NULL: $BARETMA_CPUID_DUMP, else the live CPU): the
 * simulated PMU models it (msr_open_on, msr/access/msr.h). */
int cli_msr_open_on(const char *dump, struct msr_dev **dev);

/*
 * cli_msr_fail_cpu - cli_msr_fail naming the CPU where the backend's path
 * does not (a state file: "@verb cpu N in 'FILE'"); a missing device node
 * is 69 (no device for what was asked, README), not "input file missing"
 * (msr/guard/guard.h guard_msr_cpu_fail_text).
 */
int cli_msr_fail_cpu(struct msr_dev *dev, unsigned cpu, const char *verb, int err);

/* cli_msr_open_cpus - run_cpus_open (bench/run.h): the backend for every
 * CPU of @cpus, nothing accessed unless all open; else cli_msr_fail_cpu's
 * message for the first that does not.  Returns an exit status. */
int cli_msr_open_cpus(struct msr_dev *dev, const unsigned *cpus, int n);

/*
 * cli_msr_access_fail - print the message for @err, returned by a library
 * call that accessed MSRs through @dev (pmu_program, pmu_check_owner,
 * journal_restore, msr_read, ...), naming the register and the CPU of the
 * access that failed (msr/guard/guard.h guard_access_fail_text), e.g.
 * "pmu enable: cannot write IA32_PERF_GLOBAL_STATUS_RESET (0x390) =
 * 0x1000800000000 on cpu 6 through '/dev/cpu/6/msr': Input/output error
 * (the CPU refused the write (#GP): ...)".  @ctx may be NULL.  Returns
 * the exit status (cli_exit_for_errno; a missing device node is 69).
 */
int cli_msr_access_fail(struct msr_dev *dev, int err, const char *ctx, unsigned cpu);

/* cli_restore_cause - why a journal restore through @dev failed with @err
 * (msr/guard/guard.h guard_restore_cause).  Clear the fault (msr_fault_clear)
 * before the restore. */
void cli_restore_cause(struct msr_dev *dev, int err, char *buf, size_t n);

/* cli_note - "baretma: note: ..." on stderr, newline added. */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * cli_detail - a note that every run of its kind would say (a dry run's
 * state directory, that a dry run's command was not pinned, what the
 * kernel wrote while perf_event owned the counters and baretma put back):
 * said as cli_note only when @verbose (-v, --verbose), and each text once
 * in the process, however many steps or guards keep it.
 */
void cli_detail(bool verbose, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * cli_journal_space - when @err is a write that the state directory had no
 * room for (ENOSPC, EDQUOT, EFBIG: its file system full, the quota, the
 * file size limit) and no MSR access failed with it: the journal could not
 * save a register before its write, so nothing was written; says so
 * naming the directory (cli_state_dir_fail) and returns EX_CANTCREAT.
 * 0 for any other error (the caller says it).
 */
int cli_journal_space(struct msr_dev *dev, int err);

/* cli_state_dir_fail - the message for a state directory error while
 * trying to @what ("lock the CPUs"); returns the exit status. */
int cli_state_dir_fail(const char *what, int err);

/* cli_settings_any - any of the three flags given. */
bool cli_settings_any(const struct guard_settings *s);

/*
 * cli_refuse_dump_device - when @m describes a CPUID dump the CPUs are
 * another machine's: writing through a real MSR device (anything but
 * state:FILE, bench_msr_reaches) is refused, exit 64.  0 otherwise.
 */
struct cpu_machine;
int cli_refuse_dump_device(const char *who, const struct cpu_machine *m, struct msr_dev *dev);

/* cli_run_lock - guard_lock: busy is 75 ("cpu N is being programmed by
 * pid P (CMD) (try: --wait)"), and so is a wait (--wait) that a signal of
 * r->stop ended (r->interrupted set); the state directory's errors. */
int cli_run_lock(struct cli_run *r, const unsigned *cpus, int n, bool msrs);

/* cli_run_check_journals - guard_check_journals: held is 75 (or with
 * --force a warning), malformed 65, not ours 77; @hits receive who holds
 * each CPU.  Take the locks first. */
int cli_run_check_journals(struct cli_run *r, const unsigned *cpus, int n,
			   struct guard_hit *hits);

/* cli_run_allow_writes - guard_check_writes: lockdown and
 * msr.allow_writes=off are 77. */
int cli_run_allow_writes(struct cli_run *r, struct msr_dev *dev);

/* cli_run_begin - guard_begin (kind @kind) and the signal guard
 * (guard_signals_install with GUARD_SIGNALS_DIE: a signal restores, then
 * the process dies of it); sets r->j, r->dev, r->kind. */
int cli_run_begin(struct cli_run *r, struct msr_dev *dev, enum journal_kind kind,
		  bool user_only);

/*
 * cli_run_start - the whole guarded start: msr/guard/guard.h guard_start (locks,
 * other journals, owners, watchdog, writes, journal), the signal guard,
 * then the consented settings (cli_run_settings), with the notes,
 * warnings and refusal printed; r->interrupted as for cli_run_lock.
 * Returns an exit status.
 */
int cli_run_start(struct cli_run *r, struct msr_dev *dev, const struct cpu_info *ci,
		  const unsigned *cpus, int n, bool msrs, enum journal_kind kind, bool user_only);

/* cli_run_settings - guard_settings: a note per setting; no file is 69. */
int cli_run_settings(struct cli_run *r);

/*
 * cli_run_finish - guard_finish (@detach: leave the journal, pmu enable;
 * else restore and end it: a failed restore keeps the journal and says
 * so), the signal guard down, the locks released.  Returns @status, or
 * the restore's failure status when @status is 0.
 */
int cli_run_finish(struct cli_run *r, int status, bool detach);

/* cli_journal_holder - msr/guard/guard.h guard_journal_holder. */
void cli_journal_holder(const struct journal_info *who, char *buf, size_t n);

/* cli_journal_bad - the message for a journal_info with an error (65
 * malformed, naming the file and line; 77 not ours); returns the status. */
int cli_journal_bad(const struct journal_info *who);

#endif
