/*
 * cpu/proc.h - is a process still running?  The one reading of
 * /proc/PID/stat that the journals (msr/journal/journal_list.c) and the temporary
 * files of a write (cpu/tmpfile.h) judge other baretma runs by.  It reads
 * the running system's /proc, never the BARETMA_SYSROOT tree: a process's
 * life is not a fact a test's fake tree can describe.
 */
#ifndef BARETMA_PROC_H
#define BARETMA_PROC_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * cpu_proc_stat - field 3 (state: 'R', 'S', 'Z' ...) and field 22
 * (starttime: clock ticks after boot, proc(5)) of /proc/@pid/stat.  comm
 * (field 2) may hold spaces and ')', so the fields are counted from the
 * last ')'.  Async-signal-safe (open, read, close and plain parsing).
 * Returns 0, -ENOENT (no such process), -EINVAL (a line proc(5) does not
 * describe) or -errno of the open or read.
 */
int cpu_proc_stat(pid_t pid, char *state, unsigned long long *starttime);

/*
 * cpu_pid_alive - does process @pid run, and is it the process that
 * started at @starttime (cpu_proc_stat's units; 0: unknown, any process
 * of that PID counts)?  A zombie is not alive; a process whose stat file
 * cannot be read (but kill(@pid, 0) finds) is, so that nothing of a
 * running process is taken for a dead one's.
 */
bool cpu_pid_alive(pid_t pid, unsigned long long starttime);

/* cpu_proc_self_start - this process's starttime (cpu_proc_stat), read
 * once per PID (a forked child reads its own) and kept; 0 when /proc
 * cannot tell it.  Thread-safe. */
unsigned long long cpu_proc_self_start(void);

#endif
