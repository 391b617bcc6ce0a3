/*
 * msr/pmu.h - program fixed counter 3 (TOPDOWN.SLOTS) and IA32_PERF_METRICS,
 * saving and restoring every register touched.
 *
 * Order follows pmu-reference §5.4 and the kernel (arch/x86/events/intel/core.c
 * intel_pmu_disable_all / icl_set_topdown_event_period / intel_pmu_enable_all):
 *   1. read and keep IA32_PERF_GLOBAL_CTRL, IA32_FIXED_CTR_CTRL,
 *      IA32_FIXED_CTR3 and (with PERF_METRICS) IA32_PERF_METRICS;
 *   2. IA32_PERF_GLOBAL_CTRL = 0 (freeze);
 *   3. IA32_FIXED_CTR_CTRL: FC3 field (bits 15:12) = EN_OS|EN_USR (0x3), or
 *      EN_USR (0x2) with user_only; PMI and AnyThread/METRICS_CLEAR clear;
 *      every other field unchanged;
 *   4. IA32_FIXED_CTR3 = 0, then IA32_PERF_METRICS = 0 (FC3 first: kernel
 *      comment "The fixed counter 3 has to be written before the PERF_METRICS");
 *   5. IA32_PERF_GLOBAL_STATUS_RESET = bit 35 | bit 48 (bit 48 only with
 *      PERF_METRICS);
 *   6. IA32_PERF_GLOBAL_CTRL = saved | bit 35 | bit 48 (bit 48 only where the
 *      CPU has PERF_METRICS: setting it elsewhere is a #GP, pmu-reference §1.3).
 * Restore: GLOBAL_CTRL = 0, then FIXED_CTR_CTRL, FIXED_CTR3, PERF_METRICS back
 * to the saved values, then GLOBAL_CTRL = saved (last).
 *
 * No PMIs are ever armed (pmu-reference §3.4 UNCONFIRMED kernel behaviour on
 * foreign PMIs): the FC3 PMI bit stays clear.
 */
#ifndef BARETMA_PMU_H
#define BARETMA_PMU_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "msr/msr.h"

/* What one CPU had before baretma touched it. */
struct pmu_saved {
	unsigned cpu;
	bool perf_metrics;       /* PERF_METRICS was saved and programmed */
	bool programmed;         /* registers were written and must be restored */
	uint64_t global_ctrl;    /* IA32_PERF_GLOBAL_CTRL */
	uint64_t fixed_ctr_ctrl; /* IA32_FIXED_CTR_CTRL */
	uint64_t fixed_ctr3;     /* IA32_FIXED_CTR3 (slots) */
	uint64_t perf_metrics_val; /* IA32_PERF_METRICS (valid iff perf_metrics) */
};

struct pmu_config {
	bool user_only;    /* FC3 counts at CPL > 0 only (field 0x2) */
	bool force;        /* take over FC3/PERF_METRICS already in use */
	bool perf_metrics; /* the CPU has IA32_PERF_METRICS (decided by cpu/) */
	bool fixed_ctr3;   /* the CPU has fixed counter 3 (decided by cpu/) */
};

/*
 * pmu_check_in_use - is FC3 or PERF_METRICS already in use on @cpu?
 * Reads IA32_FIXED_CTR_CTRL and IA32_PERF_GLOBAL_CTRL only (no write).
 * Returns 0 when free, -EBUSY when the FC3 field of IA32_FIXED_CTR_CTRL is
 * non-zero or GLOBAL_CTRL bit 35 or 48 is set (then @why, if not NULL,
 * receives e.g. "IA32_FIXED_CTR_CTRL[15:12]=0x3 (fixed counter 3 enabled)"),
 * or -errno from msr_read.
 */
int pmu_check_in_use(struct msr_dev *dev, unsigned cpu, char *why, size_t whylen);

/*
 * pmu_program - save, then program FC3 (+ PERF_METRICS) on @cpu; see the
 * order above.  @saved is filled before the first write; saved->programmed
 * is set as soon as a write may have happened, so pmu_restore() is always
 * the right cleanup.
 * Returns 0; -ENODEV when !cfg->fixed_ctr3 (no write); -EBUSY when in use
 * and !cfg->force (no write; @why as for pmu_check_in_use); -errno from the
 * backend (the CPU is then restored before returning, best effort).
 */
int pmu_program(struct msr_dev *dev, unsigned cpu, const struct pmu_config *cfg,
		struct pmu_saved *saved, char *why, size_t whylen);

/*
 * pmu_reset_counts - zero IA32_FIXED_CTR3 then IA32_PERF_METRICS (kernel
 * order), outside any measured region.  Async-signal-safe.
 * Returns 0 or -errno.
 */
int pmu_reset_counts(struct msr_dev *dev, unsigned cpu, bool perf_metrics);

/*
 * pmu_restore - write the saved values back (freeze first, GLOBAL_CTRL last).
 * Does nothing when !saved->programmed; clears it on success.
 * Async-signal-safe.  Returns 0 or the first -errno (it still tries every
 * register).
 */
int pmu_restore(struct msr_dev *dev, struct pmu_saved *saved);

/*
 * pmu_guard_register / pmu_guard_release - keep @saved on a process-wide list
 * restored by pmu_guard_restore_all(), which the signal handlers installed by
 * pmu_guard_install() call for SIGINT, SIGTERM and SIGHUP (then the signal is
 * re-raised with its default action, so the exit status tells the signal).
 * At most PMU_GUARD_MAX entries; returns 0 or -ENOSPC.
 */
#define PMU_GUARD_MAX 1024
int pmu_guard_install(void);
int pmu_guard_register(struct msr_dev *dev, struct pmu_saved *saved);
void pmu_guard_release(struct pmu_saved *saved);
int pmu_guard_restore_all(void);

/*
 * Journal for "baretma pmu enable": the saved values of each programmed CPU,
 * kept under $BARETMA_STATE_DIR (default /run/baretma) so that
 * "pmu restore" can write them back later from another process.
 * File "<dir>/cpu<N>.journal", text:
 *   "# baretma pmu journal v1"
 *   "pid <PID>" / "cmd <argv joined by spaces>" / "time <unix seconds>"
 *   "backend <msr spec>" / "user_only <0|1>"
 *   "cpu <N> perf_metrics <0|1> global_ctrl 0x.. fixed_ctr_ctrl 0x.. fixed_ctr3 0x.. perf_metrics_val 0x.."
 */
struct pmu_journal_entry {
	struct pmu_saved saved;
	pid_t pid;
	long long time;
	bool user_only;
	char cmd[256];
	char backend[256];
};

/* pmu_state_dir - $BARETMA_STATE_DIR or "/run/baretma". */
const char *pmu_state_dir(void);

/*
 * pmu_journal_write - atomically write the journal for e->saved.cpu (mode
 * 0600, created with O_NOFOLLOW, fsync'd).  Creates the directory (0700)
 * if missing.  Returns 0 or -errno.
 */
int pmu_journal_write(const struct pmu_journal_entry *e);

/* pmu_journal_read - read the journal of @cpu: 0, -ENOENT (none), -EINVAL (malformed). */
int pmu_journal_read(unsigned cpu, struct pmu_journal_entry *e);

/* pmu_journal_remove - delete the journal of @cpu: 0 or -errno. */
int pmu_journal_remove(unsigned cpu);

/*
 * pmu_journal_list - the CPUs that have a journal, ascending.
 * Stores at most @max CPU numbers in @cpus; returns the count or -errno
 * (-ERANGE when there are more than @max journals; a missing directory is 0).
 */
int pmu_journal_list(unsigned *cpus, int max);

#endif
