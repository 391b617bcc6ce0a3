/*
 * msr/journal/journal.h - the crash-safe run journal: every MSR and every system
 * setting baretma is about to change, with the value it had, on disk
 * before the change, so that the machine can be left exactly as found
 * even after SIGKILL (then "baretma pmu restore" reads it back).
 *
 * One journal per run (session): "<state dir>/run-<PID>.journal" for the
 * first journal open in a process, "run-<PID>-<N>.journal" (N = 1 ..
 * JOURNAL_MAX_OPEN - 1, the lowest free) for each further one open at the
 * same time (journal_create; msr/journal/state_dir.h for the directory and its
 * checks).  The first name is the one every process with a single journal
 * (the CLI) writes, and the one `pmu status` shows; N is the journal's
 * slot in the process's registry of open journals
 * (msr/journal/guard_signals.h), freed when the journal ends, so names stay short
 * and a long-lived host reuses them.  The file is created mode 0600 under
 * a temporary name (O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC), fsync'd and
 * linked into place (an existing journal of the same name is never
 * overwritten); every update rewrites the whole text to "." + name +
 * ".tmp", fsyncs it, renames it over the journal and fsyncs the directory.  So when
 * journal_save_reg()/journal_save_setting() return 0, the saved value is
 * on disk, and only then may the caller change the register or setting.
 *
 * Text format (v2), one item per line, every line ending in '\n', single
 * spaces, nothing else (no blank lines, no other comments):
 *   # baretma journal v2
 *   pid PID                decimal 1..2147483647, no leading zeros
 *   starttime TICKS        field 22 of /proc/PID/stat (clock ticks after
 *                          boot), tells a reused PID apart; 0 = unknown
 *   time SECONDS           Unix time of journal_begin()
 *   cmd TEXT               the command line (control characters as '?')
 *   backend SPEC           the MSR spec the registers are written through
 *                          (msr/access/msr.h: "/dev/cpu/%u/msr", "state:FILE")
 *   kind run|enable|write  run: restored when the run ends (bench);
 *                          enable: "pmu enable" left counters running on
 *                          purpose; write: "msr write" left registers as
 *                          written on purpose; nobody restores either on
 *                          exit ("pmu restore" does)
 *   user_only 0|1
 *   reg CPU 0xMSR 0xSAVED [unsafe-msr]
 *                          one per register, in the order saved; CPU
 *                          decimal below JOURNAL_MAX_CPUS, hex lower case
 *                          without leading zeros (as sigsafe_put_hex);
 *                          " unsafe-msr" (kind write only) marks a register
 *                          `msr write --unsafe-msr` wrote outside the write
 *                          policy: restoring it needs --unsafe-msr too
 *   setting PATH VALUE     a sysfs/procfs file; PATH relative to the sysroot
 *                          ($BARETMA_SYSROOT, cpu/cpu.h cpu_sysfs_path);
 *                          VALUE its first line before the change; both
 *                          percent-encoded: bytes <= 0x20, >= 0x7f and '%'
 *                          as "%XX" (upper-case hex), and nothing else is
 *                          encoded
 * The header keys come exactly once, in this order; reg and setting lines
 * follow in any mix.  A (cpu, msr) pair or a PATH appears at most once: the
 * first saved value is the one from before baretma.
 *
 * What a journal may hold: only what baretma itself changes, since
 * restoring it writes as root whatever the file says (a planted journal
 * must not turn `pmu restore` into a write to core_pattern or
 * IA32_MISC_ENABLE).  Anything else makes the journal malformed, both when
 * loading (journal_load: -EINVAL, "line N: ...", so nothing of it is
 * restored) and when saving (journal_save_reg/_setting: -EINVAL):
 *   - a setting: one of the files of msr/guard/settings.h (setting_of_file), with
 *     a value that setting takes (setting_value_ok: rdpmc 0, 1, 2;
 *     nmi_watchdog 0, 1; allow_writes on, off, default);
 *   - kind run or enable: the registers pmu_program() saves
 *     (msr/pmu/pmu.h pmu_journal_regs: IA32_PERF_GLOBAL_CTRL,
 *     IA32_FIXED_CTR_CTRL, IA32_FIXED_CTR3, IA32_PERF_METRICS) and those
 *     gp_program() saves (msr/journal/journal_rules.h gp_journal_saves: Intel's
 *     event selects and general-purpose and fixed counters, AMD
 *     PerfMonV2's PERF_CTLx, PERF_CTRx and PERF_CNTR_GLOBAL_CTL), never
 *     marked unsafe-msr;
 *   - kind write: a register of the write policy (msr/regs/msr_policy.h
 *     msr_policy_knows: the architectural PMU registers at the most the SDM
 *     ranges hold, since the journal does not record the CPU's counts), or
 *     any register marked unsafe-msr.
 * Register values are not checked: they are what the hardware held, and a
 * PMU register written a value it does not take is a #GP (-EIO), not a
 * write elsewhere.
 *
 * Restore order (journal_restore, journal_restore_data), per CPU in the
 * order the CPUs first appear: if the global enable register
 * (IA32_PERF_GLOBAL_CTRL, or AMD's PERF_CNTR_GLOBAL_CTL: journal_rules.h
 * journal_global_ctl) is among the CPU's registers with others, it is
 * written 0 first (freeze: no counter runs with half-restored controls,
 * as Intel PCM programs; the kernel's intel_pmu_disable_all and
 * amd_pmu_v2_disable_all), then the other registers in the order they
 * were saved (pmu_program and gp_program save every counter before its
 * event select, so a select's EN comes back over a counter already
 * restored, as x86_pmu_start writes the period before enabling the
 * event), then, for a run or enable journal, the overflow bits of the
 * counters it saved are cleared (best effort, as in pmu_restore; as the
 * kernel's intel_pmu_ack_status): on Intel IA32_PERF_GLOBAL_STATUS_RESET with bit x
 * for IA32_PMCx / IA32_A_PMCx, bit 32+i for IA32_FIXED_CTRi, and bit 48
 * when IA32_PERF_METRICS was saved (bit 35 only when IA32_FIXED_CTR_CTRL
 * was saved too, i.e. fixed counter 3 was programmed); on AMD
 * PERF_CNTR_GLOBAL_STATUS_CLR with bit x for PERF_CTRx; then the global
 * enable register with its saved value last (the kernel's
 * intel_pmu_enable_all / amd_pmu_v2_enable_all: counting resumes only
 * there; saved alone, as by `msr write`, it is written once); after every register of every CPU, the settings in the order
 * saved (msr.allow_writes may have to stay "on" until the last MSR write).
 * Every saved register is written once per restore.
 *
 * Threads: a journal is an object used by one thread at a time (its
 * session's); different journals may be used on different threads at
 * once.  The signal handler (msr/journal/guard_signals.h, opt-in) may read any of
 * them from any thread: entries are made visible with thread fences.
 * fork(): a journal inherited by a child stays its parent's: in the child
 * journal_end/journal_detach only free the child's copy (the file, the
 * registry and the signal guard are left alone), and the handler never
 * restores it.  Error details (journal_last_error) are per thread.
 * Library code: never prints, never exits; 0 or -errno.
 */
#ifndef BARETMA_JOURNAL_H
#define BARETMA_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "msr/access/msr.h"

#define JOURNAL_MAX_CPUS     8192   /* CPU numbers 0..8191 (msr_dev.c's limit) */
#define JOURNAL_MAX_REGS     16384  /* registers in one journal */
#define JOURNAL_MAX_SETTINGS 16     /* settings in one journal */
#define JOURNAL_CMD_MAX      1024   /* bytes of cmd, with the NUL */
#define JOURNAL_BACKEND_MAX  4096   /* bytes of backend, with the NUL */
#define JOURNAL_SETTING_MAX  256    /* bytes of a setting PATH or VALUE (decoded), with the NUL */
#define JOURNAL_PATH_MAX     4096   /* bytes of a full path, with the NUL */
#define JOURNAL_LINE_MAX     8192   /* bytes of one line, with its '\n' */
#define JOURNAL_MAX_OPEN     64     /* journals open at once in one process */

enum journal_kind {
	JOURNAL_RUN = 0,  /* restored and removed when the run ends */
	JOURNAL_ENABLE,   /* "pmu enable": kept until "pmu restore" */
	JOURNAL_MSR_WRITE, /* "msr write": kept until "pmu restore" */
};

/* journal_kind_name - the kind's word in the text format: "run", "enable",
 * "write"; NULL for a value that is no kind. */
const char *journal_kind_name(enum journal_kind kind);

/* The word after a reg line's value that marks it unsafe (format above). */
#define JOURNAL_UNSAFE_MARK "unsafe-msr"

/* One saved register. */
struct journal_reg {
	unsigned cpu;     /* OS CPU number */
	uint32_t msr;     /* MSR index */
	uint64_t saved;   /* the value before baretma wrote it */
	bool unsafe;      /* written with --unsafe-msr outside the write policy
			   * (kind write only): restoring it needs --unsafe-msr */
};

/* One saved setting. */
struct journal_setting {
	char path[JOURNAL_SETTING_MAX];  /* e.g. "/proc/sys/kernel/nmi_watchdog" */
	char value[JOURNAL_SETTING_MAX]; /* its first line before, no newline */
	char full[JOURNAL_PATH_MAX];     /* path under $BARETMA_SYSROOT as of the
					  * save (journal) or load (journal_load) */
};

/* A journal's content.  The arrays are allocated by journal_load(). */
struct journal_data {
	pid_t pid;
	unsigned long long starttime; /* /proc/PID/stat field 22; 0 = unknown */
	long long time;               /* Unix seconds */
	char cmd[JOURNAL_CMD_MAX];
	char backend[JOURNAL_BACKEND_MAX];
	enum journal_kind kind;
	bool user_only;
	struct journal_reg *regs;     /* nregs, in the order saved */
	int nregs;
	unsigned *cpus;               /* the distinct CPUs of regs, in order of
				       * first appearance */
	int ncpus;
	int *cpu_first;               /* JOURNAL_MAX_CPUS: for each CPU number the
				       * index in regs of its first register, -1
				       * none: every register of a CPU is at or after
				       * it, so the write gate looks from there, not
				       * through every CPU's (journal_data_permits);
				       * NULL: not kept, a lookup reads them all */
	struct journal_setting *settings; /* nsettings, in the order saved */
	int nsettings;
};

struct journal; /* opaque: the journal of this run */

/*
 * journal_begin - create this process's first journal,
 * "run-<PID>.journal", on disk (fsync'd) before any register or setting
 * is changed (the CLI's one journal per run).
 * @out: receives the journal.  @cmd: the command line for people reading
 * it (control characters become '?', cut at JOURNAL_CMD_MAX - 1 bytes;
 * NULL = "").  @backend: the MSR spec the registers will be written through
 * (the one msr_open() used), not empty.  @kind, @user_only: recorded.
 * Creates the state directory (0700) when missing.
 * Returns 0, -EBUSY (this process already has "run-<PID>.journal" open),
 * -EEXIST (a journal of an earlier process with the same PID is there:
 * restore it first), -EINVAL (@backend empty or with control characters,
 * @kind no kind),
 * -ENAMETOOLONG (@backend of JOURNAL_BACKEND_MAX bytes or more), -ENOMEM,
 * the state directory errors of state_dir_open(), or -errno from the file
 * system.
 */
int journal_begin(struct journal **out, const char *cmd, const char *backend,
		  enum journal_kind kind, bool user_only);

/*
 * journal_create - journal_begin for a process that may hold several
 * journals at once (one per session, on any thread): "run-<PID>.journal"
 * when it is free, else "run-<PID>-<N>.journal" for the lowest free N.
 * Thread-safe.  Returns as journal_begin, with -EMFILE (JOURNAL_MAX_OPEN
 * journals open in this process) instead of -EBUSY; -EEXIST when the name
 * it takes is a journal left by an earlier process with the same PID.
 */
int journal_create(struct journal **out, const char *cmd, const char *backend,
		   enum journal_kind kind, bool user_only);

/*
 * journal_set_dev - the MSR backend @j's registers are written through
 * (the one msr_open() gave for its backend): the signal handler
 * (msr/journal/guard_signals.h) restores @j through it.  Until it is set, the
 * handler leaves a journal that holds registers alone (its file stays for
 * `baretma pmu restore`).  @dev must stay open until journal_end.
 * @j becomes @dev's write gate (msr/access/msr.h msr_gate_set): from now on a
 * write through @dev reaches its register only once @j has saved it
 * (journal_data_permits); journal_end and journal_detach shut the gate
 * again.  Each save is also traced ("sv", msr_trace_saved) through @dev.
 */
void journal_set_dev(struct journal *j, struct msr_dev *dev);

/*
 * journal_data_permits - may a journal holding @d let a write of @msr on
 * @cpu reach the MSR backend (the write gate, msr/access/msr.h)?  True when @d
 * has saved (@cpu, @msr), or when @msr is IA32_PERF_GLOBAL_STATUS_RESET
 * and @d has saved IA32_FIXED_CTR_CTRL or IA32_PERF_GLOBAL_CTRL of @cpu:
 * that write-1-to-clear register (SDM Vol. 3B 21.2.4; linux intel_pmu_ack_status)
 * clears overflow bits of counters the run enabled, and has no value to
 * save; likewise AMD's PERF_CNTR_GLOBAL_STATUS_CLR when @d has saved
 * PERF_CNTR_GLOBAL_CTL of @cpu (linux amd/core.c amd_pmu_ack_global_status).
 * Async-signal-safe.
 */
bool journal_data_permits(const struct journal_data *d, unsigned cpu, uint32_t msr);

/*
 * journal_restore_regs - journal_restore()'s registers alone, in the same
 * order, through @dev, with the journal kept as it is: every register
 * stays saved (its first value), the settings stay changed, and the
 * journal is not marked restored.  For a run that hands the counters over
 * between its blocks (compare's perf blocks, calibrate's backends) and
 * programs them again later.  Returns 0 or the first -errno (it tries
 * every register).
 */
int journal_restore_regs(struct journal *j, struct msr_dev *dev);

/*
 * journal_restore_cpu_regs - journal_restore_regs for the registers of
 * @cpu alone (the same order), the other CPUs' left as they are: for a
 * run that programs one CPU's next pass while it counts on the others
 * (`baretma stat` in passes).  Returns 0 or the first -errno.
 */
int journal_restore_cpu_regs(struct journal *j, struct msr_dev *dev, unsigned cpu);

/* A saved register whose value is not the saved one now (journal_diff). */
struct journal_change {
	unsigned cpu;
	uint32_t msr;
	uint64_t saved;  /* before the run */
	uint64_t now;    /* read through the device */
};

/*
 * journal_diff - read each register @j saved for @cpu through @dev and
 * list in @out (at most @max, in saved order) those whose value is not
 * the saved one: what someone else (the kernel's perf_event in a block
 * of a perf source) left in them.  Writes nothing.  Returns the count, or
 * the -errno of the first failed read (msr_last_fault).
 */
int journal_diff(const struct journal *j, struct msr_dev *dev, unsigned cpu,
		 struct journal_change *out, int max);

/*
 * journal_save_reg - record that @msr of @cpu held @saved, and persist the
 * journal; call it after reading the register and BEFORE writing it.
 * Does nothing (returns 0) when (@cpu, @msr) is already recorded: the first
 * saved value is the one from before baretma.  The register is not marked
 * unsafe-msr (journal_save_regs can).
 * Returns 0, -EINVAL (@cpu >= JOURNAL_MAX_CPUS, or a register the
 * journal's kind may not hold: "What a journal may hold" above), -ENOSPC
 * (more than JOURNAL_MAX_REGS registers), or -errno from writing the file
 * (then the register is not recorded and must not be written).
 */
int journal_save_reg(struct journal *j, unsigned cpu, uint32_t msr, uint64_t saved);

/*
 * journal_save_regs - journal_save_reg() for @n registers with one file
 * update (one CPU's registers at once).  All or nothing: on error none of
 * the new ones is recorded.  Same returns.
 */
int journal_save_regs(struct journal *j, const struct journal_reg *regs, int n);

/*
 * journal_save_setting - record that the file @path (relative to the
 * sysroot, e.g. "/proc/sys/kernel/nmi_watchdog") had the first line @saved
 * (no newline), and persist; call it BEFORE writing the file.  Does nothing
 * when @path is already recorded.
 * Returns 0, -EINVAL (@path not a file of msr/guard/settings.h, or @saved not a
 * value that setting takes: "What a journal may hold" above),
 * -ENAMETOOLONG (@path or @saved of JOURNAL_SETTING_MAX bytes or more, or
 * the full path too long), -ENOSPC (more than JOURNAL_MAX_SETTINGS), or
 * -errno from writing the file.
 */
int journal_save_setting(struct journal *j, const char *path, const char *saved);

/*
 * journal_restore - write every saved register back through @dev and every
 * saved setting back to its file, in the order at the top of this file.
 * Tries everything; returns 0 or the first -errno (msr_write's errors for
 * registers, open/write errors for settings).  The journal stays on disk
 * (journal_end removes it).  Async-signal-safe: it works on the journal in
 * memory only (no malloc, no stdio).
 */
int journal_restore(struct journal *j, struct msr_dev *dev);

/*
 * journal_end - finish the run: remove the journal file when it has been
 * restored (journal_restore returned 0, or the signal handler did, and
 * nothing was saved since) or holds nothing, take down the signal guard
 * journal_guard_install put up, take @j out of the registry, and free @j
 * in every case.  In a fork()ed child (@j is its parent's): only frees.
 * Returns 0; -EBUSY when the journal was kept because it was not restored
 * (it stays for "baretma pmu restore"); -errno when removing it failed.
 * NULL is fine (0).
 */
int journal_end(struct journal *j);

/*
 * journal_detach - for "pmu enable": leave the journal on disk on purpose
 * (the counters stay programmed), take down the signal guard
 * journal_guard_install put up, take @j out of the registry, free @j.
 */
void journal_detach(struct journal *j);

/* journal_path - the journal's file name, "<state dir>/run-<PID>.journal"
 * (or "run-<PID>-<N>.journal"). */
const char *journal_path(const struct journal *j);

/* journal_data_of - the journal's content as saved so far (read only). */
const struct journal_data *journal_data_of(const struct journal *j);

/*
 * journal_guard_install - the one-call form of the signal guard for a
 * process that is baretma: journal_set_dev(@j, @dev), then
 * guard_signals_install(GUARD_SIGNALS_DIE) (msr/journal/guard_signals.h: on a
 * deadly signal every open journal of the process is restored from
 * memory, its file removed when that succeeded, and the process dies of
 * the signal with its default action, so the exit status tells it; which
 * signals, the alternate stack of the calling thread, a fork()ed child
 * that restores nothing: there).  journal_end()/journal_detach() of @j
 * take it down again (the previous actions come back with the last one).
 * Returns 0, -EINVAL (@j is not this process's journal: a fork()ed
 * child's copy), or the errors of guard_signals_install().
 */
int journal_guard_install(struct journal *j, struct msr_dev *dev);

/*
 * journal_load - read and check the journal file @path strictly.
 * @out: filled (arrays allocated; free with journal_data_free); the
 * settings' full paths are resolved under $BARETMA_SYSROOT of the caller.
 * At most JOURNAL_TEXT_MAX bytes are read (msr/journal/journal_int.h: the longest
 * journal baretma writes; a larger file is malformed, -EINVAL, "N bytes,
 * over the cap of M bytes for a journal").
 * Returns 0, -EINVAL (malformed: journal_last_error() says "line N: ..."),
 * -EPERM (refused by the state directory's rule, msr/journal/state_dir.h
 * state_dir_file_check: not a regular file owned by the effective user, or
 * writable by group or others; journal_last_error() says which), -ENOENT,
 * -ENOMEM, or -errno from reading.
 */
int journal_load(const char *path, struct journal_data *out);

/* journal_data_free - free the arrays of @d (and zero them); NULL is fine. */
void journal_data_free(struct journal_data *d);

/*
 * journal_last_error - the detail of the calling thread's last
 * journal_load()/journal_list()/journal_find_cpu() failure on a malformed
 * file ("line 7: bad hex in 'reg ...'"), or "".  Per thread
 * (_Thread_local): valid until the thread's next such call.
 */
const char *journal_last_error(void);

/*
 * journal_restore_data - journal_restore() for a loaded journal (after the
 * run was killed): same order, same returns, the same code.  @dev should
 * be opened on @d->backend; settings go to the full paths resolved at
 * load.  For the restore @d is @dev's write gate (journal_data_permits),
 * the gate before put back after it.  Removes nothing (journal_remove does).  Registers marked
 * unsafe-msr are written like the others: the caller asks the user first
 * (journal_data_unsafe).
 */
int journal_restore_data(const struct journal_data *d, struct msr_dev *dev);

/* journal_data_unsafe - how many registers of @d are marked unsafe-msr. */
int journal_data_unsafe(const struct journal_data *d);

/* What journal_list() knows about one journal file. */
struct journal_info {
	char path[JOURNAL_PATH_MAX]; /* "<state dir>/run-<PID>.journal" */
	pid_t pid;                   /* from the file name */
	int seq;                     /* from the file name: 0 "run-<PID>.journal",
				      * N "run-<PID>-<N>.journal" */
	int error;                   /* 0, or why it could not be loaded
				      * (-EINVAL malformed, -EPERM not ours) */
	char *detail;                /* with -EINVAL: "line N: ...", escaped, on the
				      * heap (it quotes the file's line whole);
				      * with -EPERM: the state directory's reason
				      * ("owned by uid 4242, not uid 0":
				      * msr/journal/state_dir.h state_dir_file_check);
				      * NULL otherwise; journal_info_free */
	bool alive;                  /* the process that wrote it still runs */
	struct journal_data data;    /* valid when error == 0 */
};

/*
 * journal_list - every "run-<PID>.journal" and "run-<PID>-<N>.journal"
 * (N 1 .. JOURNAL_MAX_OPEN - 1, decimal without leading zeros) in the
 * state directory, by ascending PID then N, each loaded (journal_load;
 * the pid line must be the name's PID) and checked for life: alive
 * when kill(PID, 0) succeeds or fails with EPERM AND field 22 of
 * /proc/PID/stat equals the journal's starttime (0 or an unreadable stat
 * file of an existing process count as alive).  This is the /proc of the
 * running system, never under $BARETMA_SYSROOT: it is about processes,
 * not about the measured machine's files.
 * @out: up to @max entries; free with journal_info_free(out, count).
 * Returns the count, 0 when the directory does not exist, -ERANGE (more
 * than @max journals; nothing to free), the errors of state_dir_open(), or
 * -ENOMEM.
 */
int journal_list(struct journal_info *out, int max);

/* journal_info_free - free the data and details of @n entries. */
void journal_info_free(struct journal_info *info, int n);

/*
 * journal_find_cpu - the journal of another process (PID not ours: none
 * of this process's own journals counts) that holds registers of @cpu, for "a run that finds a stale journal for a CPU
 * it needs refuses".  Take the CPU locks (msr/guard/lock.h) first, so that no
 * other run can begin a journal for the CPU while this one checks.
 * @who: always initialised; free with journal_info_free(who, 1).
 * Returns 1 (found; who->alive tells a running process from a stale or
 * "pmu enable" journal), 0 (none), -EINVAL or -EPERM (a journal in the
 * directory is malformed or not ours, so what it holds cannot be known:
 * @who names it, with who->error and who->detail), or the errors of
 * journal_list().
 */
int journal_find_cpu(unsigned cpu, struct journal_info *who);

/* A journal update's temporary file ("." + name + ".tmp", journal.h). */
struct journal_tmp {
	char path[JOURNAL_PATH_MAX];
	pid_t pid;                   /* from the name */
	int seq;
	bool alive;                  /* that process runs (kill(PID, 0) and
				      * /proc/PID/stat; no start time to compare:
				      * a reused PID counts as alive) */
};

/*
 * journal_list_tmp - every ".run-<PID>.journal.tmp" and
 * ".run-<PID>-<N>.journal.tmp" in the state directory (a process killed
 * between writing an update and renaming it over its journal, or between
 * linking its first text and unlinking the name).  Such a file was never
 * acted on: a register or setting changes only after the rename returned,
 * so the journal itself holds everything that was changed, and the file of
 * a process that no longer runs may be removed (journal_remove_tmp).
 * Returns the count (at most @max, -ERANGE beyond), 0 when the directory
 * does not exist, or the errors of state_dir_open().
 */
int journal_list_tmp(struct journal_tmp *out, int max);

/* journal_remove_tmp - delete that file of @pid and @seq, fsync the
 * directory.  Returns 0 or -errno. */
int journal_remove_tmp(pid_t pid, int seq);

/*
 * journal_remove - delete the journal of @pid ("run-<PID>.journal") from
 * the state directory and fsync the directory, after "pmu restore"
 * restored it.  Returns 0 or -errno (-ENOENT when there is none).
 */
int journal_remove(pid_t pid);

/* journal_remove_seq - journal_remove() for the file journal_list named
 * with @pid and @seq (journal_info.seq); @seq 0 is journal_remove(). */
int journal_remove_seq(pid_t pid, int seq);

#endif
