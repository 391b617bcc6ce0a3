/*
 * bench/cli_run.h - the command line's run guard (bench/cli_run.c; PMU
 * ownership in bench/cli_owner.c): locks, other runs' journals, PMU
 * ownership, the journal and its signal guard,
 * the system settings changed with consent, and the restore at the end.
 * Every function that returns int returns an exit status (sysexits.h):
 * 0 to go on, else the message has been printed.
 */
#ifndef BARETMA_CLI_RUN_H
#define BARETMA_CLI_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "msr/journal.h"
#include "msr/lock.h"
#include "msr/msr.h"

struct cpu_info;

/* The settings the user consented to change (README: three flags). */
struct cli_settings {
	bool rdpmc_always;      /* --rdpmc-always: rdpmc sysfs := 2 */
	bool stop_nmi_watchdog; /* --stop-nmi-watchdog: nmi_watchdog := 0 */
	bool allow_msr_writes;  /* --allow-msr-writes: msr allow_writes := on */
};

/* One run's guard state; zero-initialise, fill the inputs. */
struct cli_run {
	bool wait;                 /* --wait: block on busy locks */
	bool force;                /* --force: go on past journals / FC3 in use */
	bool settings_exclusive;   /* take the settings lock exclusively without
				    * a flag (pmu restore puts settings back) */
	bool no_settings_flags;    /* the command has none of the three flags
				    * (msr write): remedies say what to set */
	struct cli_settings set;
	enum journal_kind kind;    /* of the journal begun; set before the
				    * checks: JOURNAL_ENABLE / _MSR_WRITE word
				    * --force's warning for a journal that stays */
	struct cpu_lock *settings_lock;
	struct cpu_lock *cpu_lock;
	struct journal *j;
	struct msr_dev *dev;
};

/* Another run's journal on a CPU (cli_run_check_journals), for naming owners. */
struct cli_journal_hit {
	pid_t pid;                 /* 0: none */
	bool alive;
	enum journal_kind kind;
};

/* cli_msr_spec - $BARETMA_MSR or the default "/dev/cpu/%u/msr" (the
 * backend the journal records). */
const char *cli_msr_spec(void);

/* cli_msr_open - msr_open(cli_msr_spec()); the message on failure.
 * Returns an exit status. */
int cli_msr_open(struct msr_dev **dev);

/*
 * cli_msr_fail_cpu - cli_msr_fail naming the CPU where the backend's path
 * does not (a state file: "@verb cpu N in 'FILE'"); a missing device node
 * is 69 (no device for what was asked, README), not "input file missing".
 */
int cli_msr_fail_cpu(struct msr_dev *dev, unsigned cpu, const char *verb, int err);

/*
 * cli_msr_access_fail - the message for @err, returned by a library call
 * that accessed MSRs through @dev (pmu_program, pmu_check_owner,
 * journal_restore, msr_read, ...), naming the register and the CPU of the
 * access that failed (msr_last_fault, when its error is @err), e.g.
 * "pmu enable: cannot write IA32_PERF_GLOBAL_STATUS_RESET (0x390) =
 * 0x1000800000000 on cpu 6 through '/dev/cpu/6/msr': Input/output error
 * (the CPU refused the write (#GP): ...)"; registers baretma does not know
 * are "MSR 0x1a0".  Without a matching fault: "@ctx: cannot access the
 * MSRs of cpu @cpu through '...': ...".  @ctx may be NULL.  Returns the
 * exit status (cli_exit_for_errno; a missing device node is 69).
 */
int cli_msr_access_fail(struct msr_dev *dev, int err, const char *ctx, unsigned cpu);

/* cli_msr_access_text - the "cannot ... (remedy)" part of
 * cli_msr_access_fail's message into @buf, for a message of the caller's. */
void cli_msr_access_text(struct msr_dev *dev, int err, unsigned cpu, char *buf, size_t n);

/* cli_restore_cause - why a journal restore through @dev failed with @err:
 * the failed register access (cli_msr_access_text) when the last fault is
 * @err, else strerror (a setting).  Clear the fault (msr_fault_clear)
 * before the restore. */
void cli_restore_cause(struct msr_dev *dev, int err, char *buf, size_t n);

/* cli_note - "baretma: note: ..." on stderr, newline added. */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* cli_state_dir_fail - the message for a state directory error while
 * trying to @what ("lock the CPUs"); returns the exit status. */
int cli_state_dir_fail(const char *what, int err);

/* cli_settings_any - any of the three flags given. */
bool cli_settings_any(const struct cli_settings *s);

/*
 * cli_refuse_dump_device - when @m describes a CPUID dump the CPUs are
 * another machine's: writing through a real MSR device (anything but
 * state:FILE, bench_msr_reaches) is refused, exit 64.  0 otherwise.
 */
struct cpu_machine;
int cli_refuse_dump_device(const char *who, const struct cpu_machine *m, struct msr_dev *dev);

/*
 * cli_run_lock - the settings lock (exclusive with a settings flag or
 * r->settings_exclusive, shared when @msrs, none otherwise), then the
 * locks of @cpus (@n may be 0).  Busy: "cpu N is being programmed by pid
 * P (CMD) (try: --wait)", exit 75.
 */
int cli_run_lock(struct cli_run *r, const unsigned *cpus, int n, bool msrs);

/*
 * cli_run_check_journals - refuse (75) when another run's journal holds one
 * of @cpus, naming it, the kind of journal, whether its process runs, and
 * the remedy; with r->force warn and go on.  A malformed journal is 65
 * (file and line), one not ours 77.  @hits (@n entries) receive who holds
 * each CPU.  Take the locks first (msr/journal.h journal_find_cpu).
 */
int cli_run_check_journals(struct cli_run *r, const unsigned *cpus, int n,
			   struct cli_journal_hit *hits);

/*
 * cli_run_owners - pmu_check_owner() on each of @cpus (ascending): FC3 /
 * PERF_METRICS in use is 75 naming the CPU, what and the likely owner (the
 * first such CPU; r->force: a warning each); other counters in use are
 * notes, one per distinct text with its CPUs.  @hits: the journals holding
 * the CPUs (cli_run_check_journals; may be NULL).
 */
int cli_run_owners(const struct cli_run *r, struct msr_dev *dev, const struct cpu_info *ci,
		   const unsigned *cpus, int n, const struct cli_journal_hit *hits);

/* cli_run_watchdog - warn when nmi_watchdog is 1 and --stop-nmi-watchdog
 * was not given.  Always 0. */
int cli_run_watchdog(const struct cli_run *r);

/*
 * cli_run_allow_writes - through the device backend, the kernel refuses
 * every MSR write under lockdown (integrity, confidentiality: 77 naming
 * the mode) or with msr.allow_writes "off" and no --allow-msr-writes (77
 * naming the flag, or with r->no_settings_flags how to set the file).
 * Call it before the journal: the restore of a refused write would be
 * refused alike.  0 otherwise.
 */
int cli_run_allow_writes(const struct cli_run *r, struct msr_dev *dev);

/* cli_run_begin - journal_begin (kind r->kind) and journal_guard_install
 * with @dev (may be NULL when no MSR is written). */
int cli_run_begin(struct cli_run *r, struct msr_dev *dev, enum journal_kind kind,
		  bool user_only);

/* cli_run_settings - change each consented setting (journaled first). */
int cli_run_settings(struct cli_run *r);

/*
 * cli_run_finish - @detach: leave the journal (pmu enable); else
 * journal_restore and journal_end (a failed restore keeps the journal and
 * says so).  Releases the locks.  Returns @status, or the restore's
 * failure status when @status is 0.
 */
int cli_run_finish(struct cli_run *r, int status, bool detach);

/* cli_journal_holder - by the journal's kind: "counters enabled by
 * 'baretma pmu enable' (pid P, not running)" (enable) / "registers written
 * by 'baretma msr write 3 0x38d 0x3333' (pid P, not running)" (write) /
 * "left by a baretma run that did not finish (pid P, cmd ...)" / "in use
 * by a baretma run (pid P, running, cmd ...)" (run). */
void cli_journal_holder(const struct journal_info *who, char *buf, size_t n);

/* cli_journal_short_cmd - "baretma pmu enable" from a journal's cmd. */
void cli_journal_short_cmd(const char *cmd, char *buf, size_t n);

/* cli_journal_bad - the message for a journal_info with an error (65
 * malformed, naming the file and line; 77 not ours); returns the status. */
int cli_journal_bad(const struct journal_info *who);

#endif
