/*
 * msr/pmu/pmu.h - program fixed counter 3 (TOPDOWN.SLOTS) and IA32_PERF_METRICS,
 * saving and restoring every register touched.
 *
 * Order follows Intel PCM's programming (src/cpucounters.cpp) and the kernel
 * (linux arch/x86/events/intel/core.c intel_pmu_disable_all /
 * icl_set_topdown_event_period / intel_pmu_ack_status / intel_pmu_enable_all):
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
 *      CPU has PERF_METRICS: setting it elsewhere is a #GP, linux commit
 *      "perf/x86/intel: Check perf metrics feature for each CPU").
 * With a journal (pmu_config.journal), the values read in step 1 are saved
 * in it (journal_save_regs, on disk) before step 2, in that order
 * (GLOBAL_CTRL, FIXED_CTR_CTRL, FIXED_CTR3, PERF_METRICS), so that
 * journal_restore() writes exactly what pmu_restore() writes.
 * IA32_PERF_GLOBAL_STATUS_RESET is write-1-to-clear: there is nothing to
 * save or put back.
 * Restore: GLOBAL_CTRL = 0, then FIXED_CTR_CTRL, FIXED_CTR3, PERF_METRICS back
 * to the saved values, then IA32_PERF_GLOBAL_STATUS_RESET = bit 35 | bit 48
 * (bit 48 only with PERF_METRICS: clear the overflow bits the run caused,
 * as intel_pmu_ack_status writes them; the stale ones were cleared in step 5;
 * best effort: its failure is not the restore's, GLOBAL_STATUS being no
 * saved register),
 * then GLOBAL_CTRL = saved (last).
 *
 * No PMIs are ever armed (no primary source found for the kernel's behaviour
 * on a PMI it did not arm): the FC3 PMI bit stays clear.
 */
#ifndef BARETMA_PMU_H
#define BARETMA_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "msr/journal/journal.h"
#include "msr/journal/journal_rules.h"
#include "msr/access/msr.h"

/* pmu_journal_regs, PMU_JOURNAL_NREGS, pmu_journal_saves: the registers
 * step 1 saves in a run or enable journal, named below the journal
 * (msr/journal/journal_rules.h), which checks what it holds against them. */

/* What one CPU had before baretma touched it. */
struct pmu_saved {
	unsigned cpu;
	bool perf_metrics;       /* PERF_METRICS was saved and programmed */
	bool programmed;         /* registers were written and must be restored */
	uint64_t global_ctrl;    /* IA32_PERF_GLOBAL_CTRL */
	uint64_t fixed_ctr_ctrl; /* IA32_FIXED_CTR_CTRL */
	uint64_t fixed_ctr3;     /* IA32_FIXED_CTR3 (slots) */
	uint64_t perf_metrics_val; /* IA32_PERF_METRICS (valid iff perf_metrics) */
	/* What pmu_program() wrote last (valid once programmed): what the
	 * tamper check reports a change from - not read back, which would
	 * take in a change made in the middle of programming. */
	uint64_t prog_fixed_ctr_ctrl, prog_global_ctrl;
};

struct pmu_config {
	bool user_only;    /* FC3 counts at CPL > 0 only (field 0x2) */
	bool force;        /* take over FC3/PERF_METRICS already in use */
	bool perf_metrics; /* the CPU has IA32_PERF_METRICS (decided by cpu/) */
	bool fixed_ctr3;   /* the CPU has fixed counter 3 (decided by cpu/) */
	bool metrics_clear; /* FC3's field | METRICS_CLEAR_EN (0x4, IA32_FIXED_CTR_CTRL
			     * bit 14): RDPMC metrics-clear mode, only where
			     * IA32_PERF_CAPABILITIES[19] enumerates it (msr/regs/msr_policy.h
			     * refuses the bit elsewhere; linux commit 0e45818ec189) */
	struct journal *journal; /* NULL, or the run's journal: the saved values
				  * go there before the first write */
};

/*
 * pmu_check_in_use - is FC3 or PERF_METRICS already in use on @cpu?
 * Reads IA32_FIXED_CTR_CTRL only (no write).
 * Returns 0 when free, -EBUSY when the FC3 field of IA32_FIXED_CTR_CTRL
 * (bits 15:12, linux perf_event.h intel_fixed_bits_by_idx) is non-zero (then @why, if not NULL,
 * receives e.g. "IA32_FIXED_CTR_CTRL[15:12]=0x3 (fixed counter 3 enabled)"),
 * or -errno from msr_read.  IA32_PERF_GLOBAL_CTRL bits 35 and 48 are no
 * sign of an owner: Linux perf leaves them set on an idle PMU
 * (intel_pmu_enable_all writes GLOBAL_CTRL = x86_pmu.intel_ctrl, every
 * counter's enable bit and bit 48; kernel arch/x86/events/intel/core.c
 * intel_pmu_init, intel_pmu_enable_all).
 */
int pmu_check_in_use(struct msr_dev *dev, unsigned cpu, char *why, size_t whylen);

/*
 * pmu_program - save, then program FC3 (+ PERF_METRICS) on @cpu; see the
 * order above.  @saved is filled before the first write; saved->programmed
 * is set as soon as a write may have happened, so pmu_restore() is always
 * the right cleanup (or journal_restore() of cfg->journal).
 * Returns 0; -ENODEV when !cfg->fixed_ctr3 (no write); -EBUSY when in use
 * and !cfg->force (no write; @why as for pmu_check_in_use); the errors of
 * journal_save_regs() (no write); -errno from the backend, the failed
 * access in msr_last_fault(): without a journal the CPU is then restored
 * before returning (pmu_restore, best effort); with cfg->journal it is
 * not, saved->programmed stays set, and the journal's owner restores it
 * (journal_restore), so that a rollback writes each register once.
 */
int pmu_program(struct msr_dev *dev, unsigned cpu, const struct pmu_config *cfg,
		struct pmu_saved *saved, char *why, size_t whylen);

/*
 * pmu_journal_save - read what pmu_program() would save on @cpu
 * (IA32_PERF_GLOBAL_CTRL, IA32_FIXED_CTR_CTRL, IA32_FIXED_CTR3, and
 * IA32_PERF_METRICS with cfg->perf_metrics) and save it in cfg->journal,
 * on disk, without writing anything.  The guarded run calls it when its
 * journal begins (msr/guard/guard.h guard_start), before any block of the run
 * or the kernel's perf_event (a perf source's probe, compare's perf
 * blocks) may change them, so the journal holds the values from before
 * the run whatever writes them later.  Nothing on a CPU without fixed
 * counter 3 (!cfg->fixed_ctr3: pmu_program never writes there).
 * Returns 0, -EINVAL (no journal), the -errno of the failed read
 * (msr_last_fault) or of journal_save_regs.
 */
int pmu_journal_save(struct msr_dev *dev, unsigned cpu, const struct pmu_config *cfg);

/*
 * pmu_reset_counts - zero IA32_FIXED_CTR3 then IA32_PERF_METRICS (kernel
 * order), outside any measured region, with the counters already frozen
 * (pmu_program's own programming sequence).  Async-signal-safe.
 * Returns 0 or -errno.
 */
int pmu_reset_counts(struct msr_dev *dev, unsigned cpu, bool perf_metrics);

/*
 * pmu_reset_frozen - the reset between two measured repetitions, outside
 * any bracket, done the way the kernel does it: with the PMU disabled
 * (intel_pmu_read_topdown_event wraps intel_update_topdown_event in
 * perf_pmu_disable/enable; "PMU has to be disabled before calling this
 * function", icl_update_topdown_event).  Otherwise, counting at CPL 0,
 * fixed counter 3 would count the kernel's own path between the two msr
 * driver writes.  Writes, in this order:
 *   1. IA32_PERF_GLOBAL_CTRL = @global_ctrl & ~(bit 35 | bit 48) (freeze
 *      fixed counter 3 and PERF_METRICS only: other counters, whoever owns
 *      them, keep counting);
 *   2. IA32_PERF_GLOBAL_STATUS_RESET = @clear_status, only when it is not 0
 *      (bits 35 and 48 an overflow check found: intel_pmu_handle_irq acks
 *      the status before update_topdown_event resets the counters);
 *   3. IA32_FIXED_CTR3 = 0, then IA32_PERF_METRICS = 0 (with @perf_metrics);
 *   4. IA32_PERF_GLOBAL_CTRL = @global_ctrl (as read last: a bit someone
 *      else cleared stays clear; baretma does not fight another owner).
 * @global_ctrl: IA32_PERF_GLOBAL_CTRL as last read (pmu_verify).  Bit 48 is
 * never set here without @perf_metrics (#GP: see the header).
 * Returns 0, or the first -errno (msr_last_fault() names the access when
 * step 4 did not fail too).  After a failure in steps 2-3 step 4 is still
 * tried, so the counters are not left frozen.
 */
int pmu_reset_frozen(struct msr_dev *dev, unsigned cpu, bool perf_metrics,
		     uint64_t global_ctrl, uint64_t clear_status);

/*
 * pmu_freeze_topdown / pmu_reset_after_freeze - pmu_reset_frozen in two
 * parts, for a caller that reads the counters frozen between them, as the
 * kernel reads them (intel_pmu_read_topdown_event: the reads of FC3 and
 * PERF_METRICS inside perf_pmu_disable/enable), so that every counter of
 * the reading stopped at the same write (`baretma stat`'s interval ends:
 * bench/source/source.h read_frozen).  pmu_freeze_topdown is step 1
 * alone; pmu_reset_after_freeze steps 2 to 4, after it.  Returns as
 * pmu_reset_frozen: 0 or -errno (after a failed step 1 nothing is frozen).
 */
int pmu_freeze_topdown(struct msr_dev *dev, unsigned cpu, bool perf_metrics,
		       uint64_t global_ctrl);
int pmu_reset_after_freeze(struct msr_dev *dev, unsigned cpu, bool perf_metrics,
			   uint64_t global_ctrl, uint64_t clear_status);

/*
 * pmu_fc3_field_set - @fixed_ctr_ctrl with fixed counter 3's field (bits
 * 15:12, linux perf_event.h intel_fixed_bits_by_idx) replaced by @field (its low 4 bits), every
 * other field kept bit for bit.  pmu_fc3_field_get is the field of a value.
 * Pure.
 */
uint64_t pmu_fc3_field_set(uint64_t fixed_ctr_ctrl, uint64_t field);
uint64_t pmu_fc3_field_get(uint64_t fixed_ctr_ctrl);

/* A short measured region of fixed counter 3 (pmu_region_start), for the
 * checks of `baretma validate` (bench/study/validate.h). */
struct pmu_region {
	bool perf_metrics;     /* the CPU has IA32_PERF_METRICS: reset it with FC3 */
	bool metrics;          /* ... and count it: GLOBAL_CTRL bit 48 (only with
				* perf_metrics: elsewhere a #GP, see the header) */
	uint64_t field;        /* FC3's field: EN_OS|EN_USR (0x3), | 0x4
				* METRICS_CLEAR_EN where IA32_PERF_CAPABILITIES[19]
				* enumerates it (msr/regs/msr_policy.h); never the PMI bit */
	uint64_t other_fields; /* IA32_FIXED_CTR_CTRL fields of other fixed counters
				* to turn on as well (e.g. FC1's EN_OS|EN_USR at bits
				* 7:4), or'ed in; never a PMI bit, never FC3's */
	uint64_t other_enable; /* other IA32_PERF_GLOBAL_CTRL enable bits (e.g. bit
				* 33, fixed counter 1) */
};

/*
 * pmu_region_start - fixed counter 3 (and PERF_METRICS) from zero, in
 * pmu_program()'s order without its save (every register must already be
 * saved in the run's journal: the write gate, msr/access/msr.h):
 *   1. IA32_PERF_GLOBAL_CTRL = 0 (freeze; pmu_freeze);
 *   2. IA32_FIXED_CTR_CTRL = as read, FC3's field = r->field, | r->other_fields;
 *   3. IA32_FIXED_CTR3 = 0, then IA32_PERF_METRICS = 0 with r->perf_metrics
 *      (pmu_reset_counts: the kernel's order);
 *   4. IA32_PERF_GLOBAL_CTRL = bit 35 | bit 48 (r->metrics) | r->other_enable:
 *      only what the region counts (every other counter stays frozen).
 * Returns 0, -EINVAL (a PMI bit, or FC3's field in other_fields, or
 * metrics without perf_metrics: nothing written), or the -errno of the
 * first failed access (the run's journal puts the registers back).
 */
int pmu_region_start(struct msr_dev *dev, unsigned cpu, const struct pmu_region *r);

/* pmu_region_enable - step 4 of pmu_region_start alone: count again what
 * @r counts (after a freeze).  0, -EINVAL as pmu_region_start, or -errno. */
int pmu_region_enable(struct msr_dev *dev, unsigned cpu, const struct pmu_region *r);

/* pmu_freeze - IA32_PERF_GLOBAL_CTRL = 0: every counter stops (what the
 * kernel's intel_pmu_disable_all does around its reads).  0 or -errno. */
int pmu_freeze(struct msr_dev *dev, unsigned cpu);

/*
 * pmu_clear_overflow - IA32_PERF_GLOBAL_STATUS_RESET = bit 35 | bit 48
 * (bit 48 only with @perf_metrics, see the header): clear the overflow
 * bits of fixed counter 3 and PERF_METRICS (write-1-to-clear, as
 * intel_pmu_ack_status writes them;
 * nothing to save).  0 or -errno.
 */
int pmu_clear_overflow(struct msr_dev *dev, unsigned cpu, bool perf_metrics);

/*
 * pmu_read_overflow - IA32_PERF_GLOBAL_STATUS of @cpu, reduced to the bits
 * that invalidate a Top-down region: bit 35 (fixed counter 3 overflowed)
 * and bit 48 (OVF_PERF_METRICS, with @perf_metrics).  Either means fixed
 * counter 3 and PERF_METRICS must be re-synchronised, or PERF_METRICS
 * returns invalid values (linux commit 59a854e2f3b9 "perf/x86/intel: Support
 * TopDown metrics on Ice Lake"; kernel handle_pmi_common: bit 48 -> update_topdown_event,
 * which zeroes both).  Read-only (the register cannot be written: clear
 * with pmu_reset_frozen's @clear_status).
 * Returns 0 (*bits set, 0 when neither overflowed) or -errno from msr_read.
 */
int pmu_read_overflow(struct msr_dev *dev, unsigned cpu, bool perf_metrics, uint64_t *bits);

/*
 * pmu_restore - write the saved values back (freeze first, clear the
 * overflow bits, GLOBAL_CTRL last; the order above).
 * Does nothing when !saved->programmed; clears it on success.
 * Async-signal-safe.  Returns 0 or the first -errno (it still tries every
 * register).
 */
int pmu_restore(struct msr_dev *dev, struct pmu_saved *saved);

/*
 * pmu_verify - are fixed counter 3 and PERF_METRICS still as pmu_program()
 * with @cfg left them: the FC3 field of IA32_FIXED_CTR_CTRL (bits 15:12)
 * 0x3 (0x2 with user_only), IA32_PERF_GLOBAL_CTRL bit 35 set and bit 48
 * set exactly when cfg->perf_metrics?  For the tamper check between
 * repetitions (perf, the NMI watchdog or another tool may rewrite them:
 * linux kernel/watchdog_perf.c, arch/x86/events/intel/core.c
 * intel_pmu_enable_all).  Reads the two registers only; the values
 * read go to @fixed_ctr_ctrl and @global_ctrl (either may be NULL).
 * Returns 0 (as programmed), 1 (changed), or -errno from msr_read.
 * Async-signal-safe.
 */
int pmu_verify(struct msr_dev *dev, unsigned cpu, const struct pmu_config *cfg,
	       uint64_t *fixed_ctr_ctrl, uint64_t *global_ctrl);

/*
 * pmu_verify_gc - pmu_verify against @global_ctrl, IA32_PERF_GLOBAL_CTRL as
 * the caller read it for its own check of the same moment (an event
 * recipe's counters beside PERF_METRICS: gp_verify): reads
 * IA32_FIXED_CTR_CTRL alone (into @fixed_ctr_ctrl, may be NULL), one
 * pread(2) fewer.  Returns as pmu_verify.  Async-signal-safe.
 */
int pmu_verify_gc(struct msr_dev *dev, unsigned cpu, const struct pmu_config *cfg,
		  uint64_t global_ctrl, uint64_t *fixed_ctr_ctrl);

/* ---------------------------------------------------------- ownership */

/* What pmu_check_owner() needs to know beyond the registers. */
struct pmu_owner_query {
	unsigned version;      /* architectural perfmon version, CPUID.0AH:EAX[7:0]:
				* IA32_PERF_GLOBAL_INUSE is read only from 4 on
				* (v4+: SDM, as KVM's MSR_CORE_PERF_GLOBAL_INUSE
				* emulation quotes it) */
	unsigned gp_counters;  /* IA32_PERFEVTSELx is read for x below this (at most 32) */
	int nmi_watchdog;      /* /proc/sys/kernel/nmi_watchdog: 1, 0, or -1 unknown */
	pid_t journal_pid;     /* another baretma process's journal holds this CPU
				* (journal_find_cpu), else 0 */
	bool journal_alive;    /* ... and that process still runs */
	enum journal_kind journal_kind;
};

/* Who most likely uses what is in use (pmu_owner_report.owner). */
enum pmu_owner {
	PMU_OWNER_NONE = 0,
	PMU_OWNER_BARETMA,     /* a baretma journal holds the CPU */
	PMU_OWNER_PERF,        /* perf or another profiler: counters enabled, PMIs
				* armed or the NMI watchdog on (likely: perf's events
				* cannot be seen from here) */
	PMU_OWNER_FIRMWARE,    /* bits set and no sign of perf: firmware or another tool */
};

struct pmu_owner_report {
	bool busy;             /* what baretma takes is in use: the FC3 field or
				* INUSE bit 35 (never GLOBAL_CTRL: perf's idle
				* enable mask has bits 35 and 48: intel_pmu_enable_all) */
	enum pmu_owner owner;  /* likely owner (of the busy part, else of the rest) */
	bool watchdog_fc1;     /* nmi_watchdog=1 and FC1's field enabled: the NMI
				* watchdog's cycles event: linux kernel/watchdog_perf.c) */
	bool inuse_read;       /* IA32_PERF_GLOBAL_INUSE was read */
	bool inuse_unread;     /* ... it should have been (version >= 4) and could not */
	uint64_t fixed_ctr_ctrl, global_ctrl, inuse; /* as read; global_ctrl for
				* information only (it decides nothing) */
	uint32_t fixed_used;   /* bit i: FCi's field (IA32_FIXED_CTR_CTRL[4i+3:4i]) != 0 */
	uint32_t evtsel_en;    /* bit x: IA32_PERFEVTSELx EN (bit 22) set */
	uint32_t evtsel_int;   /* bit x: INT (bit 20) set */
	uint32_t evtsel_event; /* bit x: event code (bits 7:0) != 0 */
	uint32_t evtsel_unread;/* bit x: IA32_PERFEVTSELx could not be read */
	int unread_err;        /* the -errno of the first register that could not be
				* read (-EIO: #GP; -EACCES/-EPERM: msr_safe's
				* allowlist), 0 when the checklist was read whole */
	uint64_t evtsel[32];   /* the values read */
	char busy_why[256];    /* what is busy, as pmu_check_in_use says it, plus
				* INUSE bit 35; "" when !busy.  Fixed: at most its
				* two sentences (check_busy), 118 bytes */
	char *others;          /* other counters in use, for information, e.g.
				* "fixed counter 1 (field 0xb: OS, USR, PMI) held by the
				* NMI watchdog; IA32_PERFEVTSEL0=0x53003c (EN, INT,
				* event 0x3c)"; on the heap (one per counter: any
				* length), NULL when none */
	char *owner_text;      /* "the NMI watchdog", "perf or another profiler
				* (likely: ...)", "firmware or another tool (...)",
				* "a crashed baretma run (pid P)"; on the heap, NULL
				* for NONE */
};

/* pmu_owner_report_free - the report's texts (@r zeroed, or filled by
 * pmu_check_owner); @r may be NULL. */
void pmu_owner_report_free(struct pmu_owner_report *r);

/*
 * pmu_check_owner - who is using the PMU of @cpu, before baretma touches
 * it (after Intel PCM's PMUinUse, src/cpucounters.cpp).  Reads, never writes:
 * IA32_FIXED_CTR_CTRL (every field), IA32_PERF_GLOBAL_CTRL (kept in @r for
 * information only: Linux perf leaves bits 35 and 48 set on an idle PMU,
 * so they make nothing busy; intel_pmu_enable_all),
 * IA32_PERFEVTSELx for x < q->gp_counters (EN, INT, event code), and
 * IA32_PERF_GLOBAL_INUSE when q->version >= 4 (bit i: PERFEVTSELi event
 * != 0, bit 32+i: FCi enabled, bit 63: a PMI armed; KVM's "Add
 * MSR_CORE_PERF_GLOBAL_INUSE emulation", quoting the SDM).
 * A PERFEVTSELx or INUSE read failing with -EIO, -EACCES or -EPERM (a
 * #GP, or msr_safe's allowlist; a register a state file does not list) is
 * recorded (evtsel_unread, inuse_unread, unread_err) and the rest is still
 * read: a check that could not be made is not a pass.
 * @r's texts are on the heap: pmu_owner_report_free() (also after an
 * error), which pmu_check_owner itself calls first: @r must be zeroed or
 * filled by an earlier call.
 * Returns 0 (the whole checklist was read and nothing baretma takes is in
 * use - the FC3 field and INUSE bit 35 clear; @r may still list others),
 * -EBUSY (@r->busy_why, @r->owner_text say what and who; also when some
 * registers could not be read), -ENODATA
 * (nothing seen in use, but some registers of the checklist could not be
 * read: whether perf or another tool uses the PMU is unknown), or -errno
 * from reading IA32_FIXED_CTR_CTRL / IA32_PERF_GLOBAL_CTRL (or another
 * PERFEVTSELx / INUSE error), -ENOMEM.
 */
int pmu_check_owner(struct msr_dev *dev, unsigned cpu, const struct pmu_owner_query *q,
		    struct pmu_owner_report *r);

#endif
