/*
 * msr/guard/guard.h - the guarded run as a library: "leave every machine exactly
 * as found" for a run (session) that writes MSRs or system settings, the
 * same code for the CLI (bench, pmu enable, pmu restore, msr write) and
 * libbaretma (baretma_open/close).
 *
 * Order (doc/safety.md "Leaving the machine as found"), one function a step:
 *   1. guard_lock: the settings lock (msr/guard/lock.h settings_lock_take:
 *      exclusive when a setting is to change, shared when only MSRs are),
 *      then the CPU locks, ascending; busy is refused naming the holder,
 *      or waited for;
 *   2. guard_check_journals: per CPU, another run's journal holding it
 *      (journal_find_cpu): refused, naming it and "baretma pmu restore",
 *      or with force a warning; a malformed journal is refused always;
 *   3. guard_check_owners: per CPU, who owns the PMU (pmu_check_owner):
 *      FC3 / PERF_METRICS in use is refused unless force, and so is a
 *      check that could not read its registers; other counters in use are
 *      notes; guard_check_watchdog: the NMI watchdog on is a warning
 *      unless its setting is to change; guard_check_writes: through the
 *      device, kernel lockdown or msr.allow_writes=off (without consent to
 *      change it) is refused;
 *   4. guard_begin: the journal (journal_create) before the first write,
 *      with the device the signal guard restores through (journal_set_dev;
 *      the handlers themselves are opt-in: guard_signals_install);
 *   5. guard_settings: the settings consented to (setting_change:
 *      journaled, on disk, then written);
 *   6. the caller programs (guard_journal for pmu_config.journal and
 *      journal_save_regs), every register saved in the journal first;
 *   7. guard_finish: journal_restore (registers, then settings) and
 *      journal_end, or leave the journal on purpose ("pmu enable",
 *      "msr write"); the locks are released.
 *
 * What the functions say (they never print): each returns 0 or -errno;
 * on a refusal or failure the guard keeps one line, the cause and the
 * remedy, exactly what `baretma` prints after "baretma: " (guard_message),
 * and what kind of refusal it is (guard_class: the CLI's exit status, the
 * library's choice of -errno).  Notes and warnings to say on the way, and
 * lines that go after the message, are kept in order (guard_line) until
 * guard_lines_clear.  Remedies name the CLI's flags (--wait, --force,
 * --allow-msr-writes, --stop-nmi-watchdog).
 *
 * Threads: one guard is used by one thread at a time; guards on
 * different threads are independent (each takes its own lock
 * descriptors and journal).  fork(): a child never restores or releases
 * its parent's session: guard_finish and guard_free in a child only free
 * the child's copy (journal_end, cpu_lock_release there).
 * Library code: never prints, never exits.
 */
#ifndef BARETMA_GUARD_H
#define BARETMA_GUARD_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "msr/journal/guard_signals.h"
#include "msr/journal/journal.h"
#include "msr/access/msr.h"

struct cpu_info;

/* The settings the caller consented to change (the CLI's three flags). */
struct guard_settings {
	bool rdpmc_always;      /* perf's rdpmc sysfs := 2 */
	bool stop_nmi_watchdog; /* nmi_watchdog := 0 */
	bool allow_msr_writes;  /* msr allow_writes := on */
};

struct guard_opts {
	bool wait;                /* block on busy locks (else refused) */
	const sigset_t *stop;     /* with wait, NULL or signals the caller keeps
				   * blocked: one of them pending ends a wait,
				   * guard_lock fails -EINTR (GUARD_BUSY), the
				   * signal left pending (msr/guard/lock.h) */
	bool force;               /* go on past other journals / FC3 in use,
				   * with a warning */
	bool settings_exclusive;  /* the settings lock exclusive without a
				   * setting to change (pmu restore puts
				   * settings back) */
	bool save_counters;       /* guard_start saves the CPUs' counter registers
				   * (pmu_journal_save; on Sunny Cove, whose perf
				   * group counts general-purpose events too, the
				   * free counters' IA32_PERFEVTSELx and IA32_PMCx)
				   * as the journal begins: for a run that lets the
				   * kernel's perf_event write them (compare,
				   * calibrate, validate), so the journal holds
				   * them from before anything did */
	bool no_settings_flags;   /* the caller offers no consent to change a
				   * setting (msr write): remedies say what to
				   * set by hand */
	struct guard_settings set;
	enum journal_kind kind;   /* of the journal to begin (guard_begin may
				   * say another); words force's warning for a
				   * journal that stays */
	const char *cmd;          /* the command line, for the journal (NULL: "") */
	const char *backend;      /* the MSR spec the registers are written
				   * through (msr_open's), recorded in the journal */
};

/* What kind of refusal or failure the message is. */
enum guard_class {
	GUARD_ERRNO = 0,     /* by its -errno (the CLI: cli_exit_for_errno) */
	GUARD_USAGE,         /* the request cannot be made (EX_USAGE) */
	GUARD_DATA,          /* bad data: a malformed journal (EX_DATAERR) */
	GUARD_UNAVAILABLE,   /* this system lacks it: a settings file, a device
			      * node (EX_UNAVAILABLE) */
	GUARD_CANTCREAT,     /* the state directory cannot hold the files
			      * (EX_CANTCREAT) */
	GUARD_BUSY,          /* locked, held by a journal, counters in use
			      * (EX_TEMPFAIL) */
	GUARD_DENIED,        /* refused for safety or permission: lockdown,
			      * allow_writes off, an unsafe state directory, a
			      * journal not ours (EX_NOPERM) */
	GUARD_OSERR,         /* the system failed us (EX_OSERR) */
};

/* What a kept line is. */
enum guard_line_kind {
	GUARD_LINE_NOTE,     /* for information ("note: ...") */
	GUARD_LINE_DETAIL,   /* for information that every run of its kind
			      * would repeat (a dry run's state directory):
			      * the CLI says it with -v only, once; the
			      * library keeps it as a note */
	GUARD_LINE_WARNING,  /* going on, but ("warning: ...") */
	GUARD_LINE_AFTER,    /* printed as is after the message (msr_safe
			      * allowlist lines) */
};

/* Another run's journal on a CPU (guard_check_journals). */
struct guard_hit {
	pid_t pid;           /* 0: none */
	bool alive;
	enum journal_kind kind;
};

struct guard; /* opaque: one run's guard */

/*
 * guard_new - a guard for one run, nothing taken yet.  @o is copied
 * (cmd and backend too).  Returns 0 and *@out, or -ENOMEM / -EINVAL
 * (@o NULL).
 */
int guard_new(struct guard **out, const struct guard_opts *o);

/*
 * guard_free - guard_finish(@g, false) when the run was not finished,
 * then free @g (NULL is fine).
 */
void guard_free(struct guard *g);

/*
 * guard_lock - step 1: the settings lock (exclusive with a setting to
 * change or settings_exclusive, shared when @msrs, none otherwise), then
 * the locks of @cpus (@n may be 0).  Returns 0, -EBUSY (GUARD_BUSY: "cpu N
 * is being programmed by pid P (CMD) (try: --wait)"), or the errors of
 * cpu_lock_take / settings_lock_take (the state directory's message).
 */
int guard_lock(struct guard *g, const unsigned *cpus, int n, bool msrs);

/*
 * guard_check_journals - step 2: refuse (-EBUSY, GUARD_BUSY) when another
 * run's journal holds one of @cpus, naming it, its kind, whether its
 * process runs, and the remedy; with force a warning each and 0.  A
 * malformed journal is -EINVAL (GUARD_DATA, file and line), one not ours
 * -EPERM (GUARD_DENIED).  @hits (@n entries) receive who holds each CPU.
 * Take the locks first.
 */
int guard_check_journals(struct guard *g, const unsigned *cpus, int n, struct guard_hit *hits);

/*
 * guard_check_owners - step 3: pmu_check_owner() on each of @cpus
 * (ascending) through @dev, with each CPU's core kind from @ci: FC3 /
 * PERF_METRICS in use is -EBUSY naming the CPU, what and the likely owner
 * (the first such CPU; force: a warning each); registers of the checklist
 * that could not be read are refused with their -errno (force: a
 * warning), followed by GUARD_LINE_AFTER lines for msr_safe's allowlist;
 * other counters in use are notes, one per distinct text with its CPUs; a
 * failed register access is its -errno, named.  @hits: the journals
 * holding the CPUs (guard_check_journals; may be NULL).
 */
int guard_check_owners(struct guard *g, struct msr_dev *dev, const struct cpu_info *ci,
		       const unsigned *cpus, int n, const struct guard_hit *hits);

/* guard_check_watchdog - a warning when nmi_watchdog is 1 and its setting
 * is not to change. */
void guard_check_watchdog(struct guard *g);

/*
 * guard_check_writes - through the device backend of @dev, the kernel
 * refuses every MSR write under lockdown (integrity, confidentiality:
 * -EPERM naming the mode) or with msr.allow_writes "off" and no consent
 * to change it (-EACCES, naming the setting or, with no_settings_flags,
 * how to set the file); both GUARD_DENIED.  Call it before guard_begin:
 * the restore of a refused write would be refused alike.  0 otherwise.
 */
int guard_check_writes(struct guard *g, struct msr_dev *dev);

/*
 * guard_begin - step 4: journal_create (@kind, @user_only, the options'
 * cmd and backend) and journal_set_dev(@dev) (@dev may be NULL when no
 * MSR is written).  -EEXIST (GUARD_BUSY): a journal of an earlier process
 * with this PID; -EMFILE: too many journals open in this process; the
 * state directory's errors.
 */
int guard_begin(struct guard *g, struct msr_dev *dev, enum journal_kind kind, bool user_only);

/*
 * guard_settings - step 5: change each consented setting (journaled
 * first), with a note each ("'FILE' is 2 for this run (put back at the
 * end)" or "... already: left alone").  A setting with no file is -ENOENT
 * (GUARD_UNAVAILABLE); a journal that cannot record the value first (the
 * state directory full: -ENOSPC, -EDQUOT, -EFBIG, GUARD_CANTCREAT) blames
 * the state directory, names it and says the setting was not changed
 * (guard_state_dir_text); other failures their -errno.
 */
int guard_settings(struct guard *g);

/*
 * guard_start - steps 1 to 4 in their order, for a run on @cpus (@n,
 * ascending; 0 when only settings change) that writes MSRs through @dev
 * when @msrs: guard_lock; with @msrs, guard_check_journals,
 * guard_check_owners (@ci names each CPU's counters), guard_check_watchdog
 * and guard_check_writes; then guard_begin (@kind, @user_only) and, with
 * the option save_counters, pmu_journal_save of each CPU (and its free
 * general-purpose counters where Sunny Cove's perf group uses them).  The one
 * sequence of `baretma bench`, `baretma pmu enable` and baretma_open().
 * The caller then installs the signal guard if it wants it and calls
 * guard_settings (step 5) when it changes settings.  Stops at the first
 * refusal (its message and class kept, the notes and warnings before it
 * too) and returns its -errno; 0 when the journal is begun.
 */
int guard_start(struct guard *g, struct msr_dev *dev, const struct cpu_info *ci,
		const unsigned *cpus, int n, bool msrs, enum journal_kind kind, bool user_only);

/* guard_journal - the run's journal (guard_begin), NULL before. */
struct journal *guard_journal(const struct guard *g);

/*
 * guard_finish - step 7: @detach: leave the journal (pmu enable, msr
 * write); else journal_restore through the device of guard_begin and
 * journal_end (a failed restore keeps the journal: its -errno, "could not
 * put everything back (...): journal '...' kept (run: baretma pmu
 * restore)"; a journal restored but not removed is a warning).  Releases
 * the locks.  In a fork()ed child: restores and releases nothing.
 * Returns 0 or the restore's -errno.
 */
int guard_finish(struct guard *g, bool detach);

/* guard_message - the last refusal's or failure's line ("" when none). */
const char *guard_message(const struct guard *g);

/* guard_class - its kind (GUARD_ERRNO when none). */
enum guard_class guard_class(const struct guard *g);

/* guard_nlines / guard_line - the notes, warnings and after-lines kept
 * since guard_lines_clear, in order; guard_line returns NULL past the end. */
int guard_nlines(const struct guard *g);
const char *guard_line(const struct guard *g, int i, enum guard_line_kind *kind);
void guard_lines_clear(struct guard *g);

/* ----------------------------------------------------------- messages */
/* The texts the guard builds, for callers with a message of their own
 * (msr/guard/guard_text.c).  Those that quote what has no bound (a journal's
 * line, the state directory's paths escaped) return it on the heap in
 * *@out (replaced; NULL when memory ran out: free()); the others write at
 * most @n bytes into @buf, a size their words are bounded by. */

/* The longest guard_access_text, guard_restore_cause, guard_msr_fail_text:
 * a path of the MSR backend (msr_describe: at most PATH_MAX) and at most
 * 1024 bytes of words (a register's label, a 64-bit value, strerror, the
 * longest remedy, msr_remedy's 240 bytes).  Fixed: bounded. */
#define GUARD_ACCESS_TEXT_MAX (PATH_MAX + 1024)

/* guard_cpus_text - "0-7,12" from the ascending list @cpus, on the heap
 * (whole: a big machine's list has hundreds of ranges); NULL when memory
 * runs out. */
char *guard_cpus_text(const unsigned *cpus, unsigned ncpus);

/* guard_fmt_cpus - guard_cpus_text() into @buf; a list longer than @n is
 * cut visibly: it ends in "..." at a comma. */
void guard_fmt_cpus(char *buf, size_t n, const unsigned *cpus, unsigned ncpus);

/*
 * guard_access_text - "cannot write IA32_PERF_GLOBAL_STATUS_RESET (0x390)
 * = 0x1000800000000 on cpu 6 through '/dev/cpu/6/msr': Input/output error
 * (the CPU refused the write (#GP): ...)": the last failed access through
 * @dev when its error is @err (msr_last_fault), else "cannot access the
 * MSRs of cpu @cpu through '...': ...".
 */
void guard_access_text(struct msr_dev *dev, int err, unsigned cpu, char *buf, size_t n);

/* guard_msr_fail_text - "cannot @what '<path of @cpu>': <strerror>
 * (<remedy>)" (@what: "open", "read 0x38f on", ...). */
void guard_msr_fail_text(struct msr_dev *dev, unsigned cpu, const char *what, int err,
			 char *buf, size_t n);

/*
 * guard_msr_cpu_fail_text - guard_msr_fail_text naming the CPU where the
 * backend's path does not (a state file: "@verb cpu N in 'FILE'").
 * Returns the class: a missing device node is GUARD_UNAVAILABLE (no
 * device for what was asked, README), not "input file missing";
 * GUARD_ERRNO otherwise.
 */
enum guard_class guard_msr_cpu_fail_text(struct msr_dev *dev, unsigned cpu, const char *verb,
					 int err, char *buf, size_t n);

/*
 * guard_access_fail_text - the whole message for @err returned by a call
 * that accessed MSRs through @dev: the failed open of a CPU ("cannot open
 * cpu N in 'FILE'" / "cannot open '/dev/cpu/N/msr'", GUARD_UNAVAILABLE
 * for a missing device node), else "@ctx: " (when @ctx) and
 * guard_access_text, in *@out.  Returns the class.
 */
enum guard_class guard_access_fail_text(struct msr_dev *dev, int err, const char *ctx,
					unsigned cpu, char **out);

/* guard_restore_cause - why a restore through @dev failed with @err: the
 * failed register access (guard_access_text) when the last fault is @err,
 * else strerror (a setting).  Clear the fault (msr_fault_clear) first. */
void guard_restore_cause(struct msr_dev *dev, int err, char *buf, size_t n);

/* guard_state_dir_text - the message for a state directory error @err
 * while trying to @what ("lock the CPUs"); returns its class (a full
 * file system, quota or file size limit: GUARD_CANTCREAT). */
enum guard_class guard_state_dir_text(const char *what, int err, char **out);

/* guard_journal_holder - by the journal's kind: "counters enabled by
 * 'baretma pmu enable' (pid P, not running)" (enable) / "registers written
 * by 'baretma msr write 3 0x38d 0x3333' (pid P, not running)" (write) /
 * "left by a baretma run that did not finish (pid P, cmd ...)" / "in use
 * by a baretma run (pid P, running, cmd ...)" (run). */
void guard_journal_holder(const struct journal_info *who, char *buf, size_t n);

/* guard_journal_short_cmd - "baretma pmu enable" from a journal's cmd. */
void guard_journal_short_cmd(const char *cmd, char *buf, size_t n);

/* guard_journal_bad_text - the message for a journal_info with an error
 * (malformed: GUARD_DATA, naming the file and line; not ours:
 * GUARD_DENIED; else GUARD_ERRNO); returns the class. */
enum guard_class guard_journal_bad_text(const struct journal_info *who, char **out);

#endif
