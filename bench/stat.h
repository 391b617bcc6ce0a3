/*
 * bench/stat.h - `baretma stat`'s harness: Top-down of a set of CPUs over
 * time, perf stat --topdown's model (linux tools/perf/Documentation/
 * topdown.txt), through the MSR backend.
 *
 * One session (bench/session.h) per CPU on one borrowed MSR backend, all
 * programmed inside ONE guarded run whose journal the caller began (the
 * locks, ownership checks, journal and restore of msr/guard/guard.h): fixed
 * counter 3 and IA32_PERF_METRICS where the core kind has them, else the
 * kind's event recipe on its general-purpose and fixed counters (msr/
 * recipe.h, msr/pmu/pmu_gp.h); a level whose events need passes counts
 * them in turn, one pass a read, an interval being a read of each
 * (bench/stat_pass.c).
 *
 * Intervals.  The counters are read at each interval's end through the
 * backend (msr: pread of each CPU's counters; RDPMC would read only the
 * CPU that executes it), turned into counts (bench/source/reading.h), then
 * reset, frozen (the session's reset: IA32_FIXED_CTR3 and
 * IA32_PERF_METRICS written 0, as the SDM asks before each measurement -
 * Vol. 3B 21.3.9.3 "Performance Metrics" - and as perf's read does,
 * linux arch/x86/events/intel/core.c intel_update_topdown_event: the
 * 8-bit fields lose precision the longer they count).  They are read
 * frozen, as the kernel reads them (intel_pmu_read_topdown_event: between
 * perf_pmu_disable and perf_pmu_enable): checked, frozen, read, zeroed,
 * counting again (session_end_frozen, then session_restart), so every
 * counter of a CPU counts one window, from the reset to the next freeze,
 * and the next interval's first reading is the zeros written, not read
 * back: an interval end reads each register it needs once - on the msr
 * source one pread(2) each, the floor of the msr driver, whose 8-byte
 * chunks of a larger read all read the same register (linux
 * arch/x86/kernel/msr.c).  The wake-ups are
 * absolute deadlines on CLOCK_MONOTONIC (clock_nanosleep TIMER_ABSTIME:
 * POSIX), start + k x interval, so a late wake-up never shifts the next:
 * the lateness of each (drift) is recorded, never accumulated.
 *
 * Counting is per CPU, not per task: whatever runs on those CPUs is
 * counted, the command's work and everything else's.
 *
 * Library code: never prints, never exits; 0 or -errno, with the reason
 * in *@why: on the heap (it quotes a command's path and availability
 * reasons naming files: any length), replaced when set, NULL until one is
 * said; the caller frees it.  Running out of memory for it leaves it as
 * it was.
 */
#ifndef BARETMA_STAT_H
#define BARETMA_STAT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bench/stat_types.h"
#include "cpu/cpu.h"

struct journal;

struct stat_run;

/*
 * stat_default_cpus - the CPUs with a measurable recipe: every CPU of a
 * core kind of @ci with PERF_METRICS or an event recipe, into @cpus (at
 * most @max).  Returns the count (0: none).
 */
int stat_default_cpus(const struct cpu_info *ci, unsigned *cpus, int max);

/*
 * stat_open - identify, and open one session per CPU of @o (or the
 * default set) on @o->dev with the msr source, each checked (PMU checks,
 * a kind that cannot be measured, a level that needs passes).  Reads
 * only.  The calling thread's CPU affinity is as before (a session pins;
 * stat_open puts it back), except with @o->rdpmc: pinned to the CPU.
 * *@out is set, also on error (stat_close it).
 * Returns 0, or -errno with @why (which CPU, why): -ENXIO a CPU the
 * machine lacks, -EOPNOTSUPP no Top-down there, -EINVAL a level that
 * needs passes or the CPU lacks, or rdpmc with several CPUs, -ENODEV
 * nothing to count (or RDPMC unusable: @why says why).
 */
int stat_open(const struct stat_options *o, struct stat_run **out, char **why);

/* stat_cpus - the CPUs of the run (ascending) and their count; stat_info
 * - the machine's identity. */
int stat_cpus(const struct stat_run *r, const unsigned **cpus);
const struct cpu_info *stat_info(const struct stat_run *r);

/*
 * stat_program - program every CPU's counters, each register saved in @j
 * first (the caller's guarded run: journal_set_dev on @o->dev).  The
 * journal's owner restores.  Returns 0, -EBUSY (counters in use: @why),
 * -errno.
 */
int stat_program(struct stat_run *r, struct journal *j, char **why);

/*
 * stat_loop - run @o->argv (when given: forked, pinned to the CPUs where
 * the machine is this one, executed) and count until it ends, or until
 * @o->count intervals, or until SIGINT, SIGTERM or SIGHUP (forwarded to
 * the command, which is then waited for).  The three signals' handlers
 * are the loop's while it runs and put back after (an ignored one stays
 * ignored, for the command too).  With @o->count_mask, a signal held
 * (pending) when it is called is taken once the counters' first reading
 * is in: the count then ends at once, with a second reading (its totals
 * are what was counted between the two, never zeros); with a command,
 * the command's process gets it before it executes anything (it dies of
 * it: end->signal_first).  @end says how it ended.  Returns 0; -ENOEXEC with @why when the command could not be
 * executed (its errno said; it exited 127 or 126, in @end); -errno (a
 * read or reset failed, the counters were changed by someone else: @why).
 */
int stat_loop(struct stat_run *r, struct stat_end *end, char **why);

/*
 * stat_total - the whole run's samples (every interval's counts added),
 * into @s (at most @max).  Returns the count.
 */
unsigned stat_total(const struct stat_run *r, struct stat_sample *s, unsigned max);

/* stat_close - close the sessions (stat_open's), free @r (NULL fine). */
void stat_close(struct stat_run *r);

/*
 * stat_cost_ns - for the benchmark: the nanoseconds one interval end takes
 * on each CPU (read, checks, counts, reset), the median of @rounds, outside
 * any measured work, after a reset of every CPU (stat_begin_all: with
 * @rounds 0 that alone, @ns_per_cpu untouched).  Needs stat_program first.
 * Returns 0 or -errno.
 */
int stat_cost_ns(struct stat_run *r, unsigned rounds, double *ns_per_cpu);

/*
 * stat_drift - for the benchmark: @n absolute deadlines @period_ms apart
 * (nothing read), the lateness of each wake-up into @late_ns.  Returns 0
 * or -errno.
 */
int stat_drift(unsigned n, unsigned period_ms, int64_t *late_ns);

#endif
