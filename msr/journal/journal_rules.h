/*
 * msr/journal/journal_rules.h - what a run journal may hold (msr/journal/journal.h "What a
 * journal may hold"), named in one place below the journal, so that the
 * journal validates without calling the modules that change things:
 *   - the system settings baretma changes (msr/guard/settings.h changes them):
 *     their files relative to the sysroot, the values each takes, and the
 *     one write that puts a value back (setting_write_path, which the
 *     journal's restore uses);
 *   - the registers pmu_program() and gp_program() save in a run or
 *     enable journal (msr/pmu/pmu.h, msr/pmu/pmu_gp.h program them).
 *
 * Dependency order in msr/ (no arrow back up):
 *   msr ops, intel_regs.h, msr_names, msr_policy, sigsafe, state_dir, lock
 *   -> journal_rules (this header; its file includes only intel_regs.h and
 *      sigsafe.h)
 *   -> journal_format, journal_list, journal_restore (the journal's text,
 *      other runs' journals, restoring)
 *   -> guard_signals (the registry of open journals, the opt-in handlers)
 *   -> journal (the store: begin, save, end)
 *   -> settings, pmu, pmu_owner, pmu_gp, pmu_gp_owner (change things,
 *      journaled first)
 *   -> guard, guard_owner, guard_text (the guarded run as a library).
 * Library code: never prints, never exits; 0 or -errno.
 */
#ifndef BARETMA_JOURNAL_RULES_H
#define BARETMA_JOURNAL_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* -------------------------------------------------------- the settings */

enum setting {
	SETTING_RDPMC = 0,
	SETTING_NMI_WATCHDOG,
	SETTING_MSR_ALLOW_WRITES,
};

#define SETTING_MAX_FILES 3

/* setting_name - "rdpmc", "nmi_watchdog" or "msr_allow_writes" ("?" else). */
const char *setting_name(enum setting s);

/*
 * setting_file - the @i-th file of @s (0 <= @i < SETTING_MAX_FILES), as
 * msr/guard/settings.h lists them, relative to the sysroot: a static string, or
 * NULL past the last one or for an unknown @s.
 */
const char *setting_file(enum setting s, int i);

/*
 * setting_of_file - the setting one of whose files (as listed in
 * msr/guard/settings.h, relative to the sysroot: "/proc/sys/kernel/nmi_watchdog")
 * is @path, byte for byte.  These are the only files baretma changes, so
 * the only ones a journal may restore (msr/journal/journal.h).
 * Returns 0 and stores it in *@s, or -ENOENT for any other path.
 */
int setting_of_file(const char *path, enum setting *s);

/*
 * setting_value_ok - is @value one that @s takes (exactly as the kernel
 * prints them: rdpmc "0" "1" "2", nmi_watchdog "0" "1", msr_allow_writes
 * "on" "off" "default")?  False for an unknown @s.
 */
bool setting_value_ok(enum setting s, const char *value);

/* setting_values_text - those values for messages: "0, 1 or 2" ("" for an
 * unknown @s). */
const char *setting_values_text(enum setting s);

/* Longest setting value written back, with the NUL (msr/journal/journal.h
 * JOURNAL_SETTING_MAX). */
#define SETTING_VALUE_MAX 256

/*
 * setting_write_path - write "@value\n" to the file @full (already under the
 * sysroot) with one write(2): open O_WRONLY|O_TRUNC|O_NOFOLLOW|O_CLOEXEC,
 * so a fake regular file gets exactly those bytes and sysfs/procfs see one
 * store.  Async-signal-safe (the journal's restore uses it).  @value at
 * most SETTING_VALUE_MAX - 1 bytes.
 * Returns 0, -ENAMETOOLONG, or -errno from open/write.
 */
int setting_write_path(const char *full, const char *value);

/* ------------------------------------------- the registers pmu saves */

/*
 * pmu_journal_regs - the registers pmu_program() saves in a run or enable
 * journal, in the order saved (msr/pmu/pmu.h step 1): IA32_PERF_GLOBAL_CTRL,
 * IA32_FIXED_CTR_CTRL, IA32_FIXED_CTR3, IA32_PERF_METRICS (the last one
 * only with PERF_METRICS).  No other register is ever in such a journal
 * (journal_load refuses one: msr/journal/journal.h).
 */
#define PMU_JOURNAL_NREGS 4
extern const uint32_t pmu_journal_regs[PMU_JOURNAL_NREGS];

/* pmu_journal_saves - is @msr one of pmu_journal_regs? */
bool pmu_journal_saves(uint32_t msr);

/*
 * gp_journal_saves - is @msr a register gp_program() (msr/pmu/pmu_gp.h) saves
 * in a run or enable journal?  Intel: IA32_PERFEVTSEL0-7, IA32_PMC0-7,
 * IA32_A_PMC0-7, IA32_FIXED_CTR0-2 and 4-6, IA32_FIXED_CTR_CTRL,
 * IA32_PERF_GLOBAL_CTRL; AMD PerfMonV2: PERF_CTL0-5, PERF_CTR0-5,
 * PERF_CNTR_GLOBAL_CTL.  Never a status register (read-only, or
 * write-1-to-clear with nothing to save).  The architectural ranges, not
 * one CPU's counts: a journal does not record its CPU (msr_policy_knows).
 */
bool gp_journal_saves(uint32_t msr);

/*
 * journal_global_ctl - is @msr a PMU's global enable register (Intel
 * IA32_PERF_GLOBAL_CTRL, AMD PERF_CNTR_GLOBAL_CTL), the one a restore
 * writes 0 first and its saved value last (msr/journal/journal.h)?
 */
bool journal_global_ctl(uint32_t msr);

#endif
