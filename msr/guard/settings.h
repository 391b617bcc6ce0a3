/*
 * msr/guard/settings.h - the system settings baretma may change, with the user's
 * consent (the command line asks; this layer only does it), each journaled
 * before the change so that journal_restore() puts it back.
 *
 * Paths are under the sysroot ($BARETMA_SYSROOT, cpu/cpu.h cpu_sysfs_resolve;
 * a sysroot too long to name a file under it gives -ENAMETOOLONG):
 *   SETTING_RDPMC            /sys/bus/event_source/devices/cpu/rdpmc, and on
 *                            hybrid kernels .../cpu_core/rdpmc and
 *                            .../cpu_atom/rdpmc (every one that exists):
 *                            0 never, 1 while a perf event is mmapped,
 *                            2 always (linux arch/x86/events/core.c
 *                            set_attr_rdpmc)
 *   SETTING_NMI_WATCHDOG     /proc/sys/kernel/nmi_watchdog: 1 keeps a perf
 *                            event on a fixed counter of every CPU
 *                            (linux kernel/watchdog_perf.c)
 *   SETTING_MSR_ALLOW_WRITES /sys/module/msr/parameters/allow_writes:
 *                            "on", "off" or "default" (linux
 *                            arch/x86/kernel/msr.c, since 5.9)
 * Library code: never prints, never exits; 0 or -errno.
 */
#ifndef BARETMA_SETTINGS_H
#define BARETMA_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "msr/journal/journal.h"
#include "msr/journal/journal_rules.h"

/* enum setting, SETTING_MAX_FILES, setting_name, setting_file,
 * setting_of_file, setting_value_ok, setting_values_text and
 * setting_write_path: msr/journal/journal_rules.h (below the journal, which
 * checks what it holds against them). */

/* The values baretma sets (--rdpmc-always, watchdog off, MSR writes on). */
#define SETTING_RDPMC_ALWAYS   "2"
#define SETTING_NMI_WATCHDOG_OFF "0"
#define SETTING_ALLOW_WRITES_ON "on"

/*
 * setting_files - the files of @s that exist under the sysroot, as paths
 * relative to it (static strings), in the order listed above.
 * @files: receives up to SETTING_MAX_FILES pointers.
 * Returns the count (0 when none exists), -EINVAL (unknown @s),
 * -ENAMETOOLONG (sysroot and path longer than PATH_MAX - 1 bytes), or
 * -errno from stat other than ENOENT/ENOTDIR.
 */
int setting_files(enum setting s, const char *files[SETTING_MAX_FILES]);

/*
 * setting_read - the current value of @s: the first line (no newline) of
 * its first existing file, into @value (@n bytes).
 * @where: if not NULL, receives the full path (under the sysroot) of the
 * file read, or of the file the error is about (for -ENOENT the first
 * candidate), for messages; @wlen bytes.
 * Returns 0, -ENOENT (no file of @s exists), -ENODATA (empty file),
 * -EINVAL (unknown @s), -ENAMETOOLONG (as setting_files), or -errno from
 * reading.
 */
int setting_read(enum setting s, char *value, size_t n, char *where, size_t wlen);

/*
 * setting_change - set @s to @value in each of its files: read the current
 * first line; when it already equals @value leave the file alone; else
 * journal_save_setting(@j, path, current) - on disk - and only then write
 * "@value\n" to the file.
 * @value: rdpmc "0", "1", "2"; nmi_watchdog "0", "1"; msr_allow_writes
 * "on", "off", "default".  @where: as for setting_read, the file of the
 * error or the last file handled.  @in_journal (NULL: not wanted): set
 * true when the error is journal_save_setting()'s - the journal could not
 * record the file's value (the state directory full, over quota, past the
 * file size limit...) and the file, @where, is unchanged - false
 * otherwise, so that a message blames the state directory, not the
 * setting.
 * Returns 0, -EINVAL (unknown @s or a value not listed), -ENOENT (no file
 * of @s exists), -ENAMETOOLONG (as setting_files: nothing written), -ENODATA (a file is empty), -EOVERFLOW (a first line of
 * JOURNAL_SETTING_MAX - 1 bytes or more: it could not be saved whole), the errors of
 * journal_save_setting() (then that file is unchanged), or -errno from
 * reading or writing a file.
 */
int setting_change(struct journal *j, enum setting s, const char *value,
		   char *where, size_t wlen, bool *in_journal);

#endif
