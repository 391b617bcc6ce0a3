/*
 * msr/pmu/pmu_gp.h - general-purpose counters, and Intel's fixed counters
 * other than 3 (0-2, and Skymont's 4-6 where CPUID leaf 0x23 enumerates
 * them), programmed through an MSR backend with the rules of fixed counter
 * 3 (msr/pmu/pmu.h): every register saved in the run's journal before its
 * first write (the write gate, msr/access/msr.h, refuses any other write),
 * counters in use refused by name, never overwritten, no PMI ever armed,
 * the tamper check between repetitions, and the restore through the
 * journal (journal_restore / journal_restore_regs, msr/journal/journal.h).
 *
 * Registers (msr/regs/intel_regs.h, msr/regs/amd_regs.h; sources there):
 *   Intel: IA32_PERFEVTSELx 0x186+x, IA32_PMCx 0xc1+x, IA32_A_PMCx 0x4c1+x
 *     (full-width writes, IA32_PERF_CAPABILITIES[13]), x < 8 (counters 8-9,
 *     SDM Vol. 4 Table 2-2 0x18E-0x18F / 0xC9-0xCA / 0x4C9-0x4CA, are not
 *     programmed); IA32_FIXED_CTRi 0x309+i with its field of
 *     IA32_FIXED_CTR_CTRL (bits 4i+3:4i); IA32_PERF_GLOBAL_CTRL bit x and
 *     bit 32+i; IA32_PERF_GLOBAL_STATUS / _STATUS_RESET at the same bits;
 *     IA32_PERF_GLOBAL_INUSE (arch perfmon v4+) read for ownership.
 *   AMD PerfMonV2 (CPUID 0x80000022 EAX[0]): PERF_CTLx 0xc0010200+2x,
 *     PERF_CTRx 0xc0010201+2x (48 bits), x < 6; PERF_CNTR_GLOBAL_CTL
 *     0xc0000301 bit x, PERF_CNTR_GLOBAL_STATUS 0xc0000300 (read-only),
 *     PERF_CNTR_GLOBAL_STATUS_CLR 0xc0000302 (write 1 to clear).
 *
 * Programming order (gp_program), after every register is saved:
 *   1. the global control = 0 (freeze: intel_pmu_disable_all,
 *      amd_pmu_v2_disable_all in linux arch/x86/events/);
 *   2. each counter = 0 (IA32_A_PMCx with full-width writes, else
 *      IA32_PMCx; IA32_FIXED_CTRi; PERF_CTRx): the period first, as
 *      x86_pmu_start writes it (x86_perf_event_set_period) before the
 *      event is enabled;
 *   3. each event select = the event | USR (| OS unless user_only) | EN
 *      (Intel AnyThread bit 21 when asked and allowed), never INT (bit 20);
 *      the plan's fixed counters' fields of IA32_FIXED_CTR_CTRL (EN_USR,
 *      EN_OS unless user_only, AnyThread when asked; never PMI), every
 *      other field kept bit for bit;
 *   4. the plan's overflow bits cleared (IA32_PERF_GLOBAL_STATUS_RESET,
 *      PERF_CNTR_GLOBAL_STATUS_CLR: write-1-to-clear, nothing to save);
 *   5. the global control = its value as read | the plan's bits: counting
 *      starts here (amd_pmu_v2_enable_event: "Counting starts only after
 *      x86_pmu_enable_all() is called"; intel_pmu_enable_all).
 * Saved, in this order, before step 1: the global control, (Intel, with
 * fixed counters in the plan) IA32_FIXED_CTR_CTRL, every counter, every
 * event select - so that the journal's restore, which writes the global
 * control 0 first, the rest in saved order and the global control last,
 * puts the counters back before the selects that enable them
 * (msr/journal/journal.h "Restore order").
 *
 * In use (gp_check_in_use, gp_busy; PCM's PMUinUse and the SDM's
 * IA32_PERF_GLOBAL_INUSE definition as KVM's MSR_CORE_PERF_GLOBAL_INUSE
 * emulation quotes it; PCM src/cpucounters.cpp): an event
 * select with EN (bit 22), INT (bit 20) or a non-zero event code - a
 * select left with its event code and EN clear is one too: perf leaves
 * it so when an event ends (x86_pmu_disable_event clears EN only), and
 * the hardware's INUSE counts it; an Intel fixed counter whose field is
 * not 0; IA32_PERF_GLOBAL_INUSE bit x / 32+i on v4+.  The global control's
 * bits are no sign of an owner: the kernel leaves every counter's bit set
 * on an idle PMU (intel_pmu_enable_all writes x86_pmu.intel_ctrl,
 * amd_pmu_v2_enable_all amd_pmu_global_cntr_mask; linux
 * arch/x86/events/intel/core.c, arch/x86/events/amd/core.c).
 *
 * Library code: never prints, never exits; 0 or -errno.  A @why buffer
 * receives one line; a line that does not fit is cut and ends in "...".
 */
#ifndef BARETMA_PMU_GP_H
#define BARETMA_PMU_GP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu/cpu.h"
#include "msr/journal/journal.h"
#include "msr/access/msr.h"

#define GP_MAX      8u   /* general-purpose counters addressed: Intel x < 8, AMD x < 6 */
#define GP_PLAN_MAX 16u  /* events of one plan */
#define GP_NO_FIXED (-1) /* gp_event.fixed: no fixed counter counts it */

enum gp_vendor { GP_VENDOR_INTEL = 1, GP_VENDOR_AMD };

/* What one CPU's PMU has, for the functions below (gp_pmu_init). */
struct gp_pmu {
	enum gp_vendor vendor;
	unsigned version;        /* Intel: CPUID.0AH:EAX[7:0] (INUSE read from 4 on);
				  * AMD: 2 (PerfMonV2) */
	uint32_t gp_mask;        /* GP counters that exist, less than GP_MAX (AMD: 6) */
	unsigned gp_width;       /* bits: CPUID.0AH:EAX[23:16]; AMD 48 */
	uint32_t fixed_mask;     /* Intel fixed counters that exist, less fixed counter 3
				  * (msr/pmu/pmu.h's, with PERF_METRICS) */
	unsigned fixed_width;    /* bits: CPUID.0AH:EDX[12:5] */
	bool full_width_write;   /* IA32_PERF_CAPABILITIES[13]: counters written through
				  * IA32_A_PMCx at their full width */
	bool anythread;          /* AnyThread allowed: arch perfmon v3 or later and not
				  * deprecated (CPUID.0AH:EDX[15], read from v5 on:
				  * intel_pmu_init); never on AMD */
};

/*
 * gp_pmu_init - the PMU of OS CPU @cpu of @ci: its core kind's counters
 * (cpu/cpu.h struct cpu_kind: leaf 0xA / 0x23, AMD 0x80000022) and, on
 * Intel, IA32_PERF_CAPABILITIES[13] read through @dev when CPUID.1:ECX[15]
 * says the register exists (@dev NULL, or a failed read: ci->perf_caps
 * when it was read, else no full-width writes).
 * Returns 0; -ENXIO (@cpu in no kind of @ci); -ENODEV with @why (Intel
 * arch perfmon below version 2: no IA32_PERF_GLOBAL_CTRL; AMD without
 * PerfMonV2; another vendor; no counter at all).
 */
int gp_pmu_init(struct msr_dev *dev, unsigned cpu, const struct cpu_info *ci,
		struct gp_pmu *out, char *why, size_t whylen);

/* One event to count: the encoding (intel/perfmon JSON, the AMD PPR). */
struct gp_event {
	const char *name;        /* for messages: "UOPS_ISSUED.ANY", "ex_ret_ops" */
	uint16_t event;          /* event select: Intel 8 bits, AMD 12 bits */
	uint8_t umask, cmask;
	bool inv, edge;
	bool any;                /* Intel AnyThread (IA32_PERFEVTSELx bit 21, or the fixed
				  * field's bit 2): pre-Ice Lake only (gp_pmu.anythread) */
	uint32_t counters;       /* GP counters it may use (bit i: counter i); 0: any */
	int fixed;               /* Intel fixed counter that counts it (0-2, 4-6), taken
				  * when it exists and is free; GP_NO_FIXED: none */
};

/* Where an event of a plan counts. */
struct gp_slot {
	bool fixed;              /* a fixed counter (Intel) */
	unsigned idx;            /* GP counter x, or fixed counter i */
};

/* Events assigned to counters (gp_assign). */
struct gp_plan {
	enum gp_vendor vendor;
	bool user_only;          /* count at CPL > 0 only (USR); else USR | OS */
	unsigned n;
	struct gp_event ev[GP_PLAN_MAX];
	struct gp_slot at[GP_PLAN_MAX];
	uint32_t gp_used;        /* bit x: GP counter x is the plan's */
	uint32_t fixed_used;     /* bit i: fixed counter i is the plan's */
};

/*
 * gp_assign - put @n events (at most GP_PLAN_MAX) on @pmu's counters:
 * an event with a fixed counter takes it when it exists, is not in
 * @fixed_avoid and no earlier event took it; the others take GP counters
 * not in @gp_avoid, the most constrained first (fewest allowed counters,
 * then the order given), each the lowest free counter its mask allows
 * (e.g. TOPDOWN.BAD_SPEC_SLOTS: "counter 0 only", intel/perfmon JSON;
 * the kernel's intel_glc_event_constraints).  @avoid masks are what
 * gp_busy() found in use.  Pure.
 * Returns 0 and fills @out, -EINVAL with @why (an event select or cmask
 * the vendor does not take: Intel event > 0xff, AMD > 0xfff; AnyThread
 * where gp_pmu.anythread is false; a fixed counter 3 or above 6), or
 * -ENOSPC with @why naming the first event no counter is left for.
 */
int gp_assign(const struct gp_pmu *pmu, const struct gp_event *ev, unsigned n,
	      uint32_t gp_avoid, uint32_t fixed_avoid, bool user_only, struct gp_plan *out,
	      char *why, size_t whylen);

/*
 * gp_encode - the event select (IA32_PERFEVTSELx, PERF_CTLx) of @e without
 * EN: event, umask, cmask, inv, edge, AnyThread (Intel), USR and, unless
 * @user_only, OS; never INT.  Pure.
 */
uint64_t gp_encode(enum gp_vendor v, const struct gp_event *e, bool user_only);

/* gp_plan_bits - the plan's bits of the global control (and, at the same
 * positions, of the global status): bit x per GP counter, bit 32+i per
 * Intel fixed counter.  Pure. */
uint64_t gp_plan_bits(const struct gp_plan *p);

/* gp_rdpmc_ecx - the RDPMC ECX of event @k of @p: Intel GP counter x: x;
 * Intel fixed counter i: (1 << 30) | i (INTEL_PMC_FIXED_RDPMC_BASE,
 * linux arch/x86/include/asm/perf_event.h); AMD counter x: x (linux arch/x86/events/core.c
 * x86_pmu_rdpmc_index: the counter's index where the PMU has no
 * rdpmc_index of its own, as AMD's core PMU; the AMD PPR's RDPMC).  Pure. */
uint32_t gp_rdpmc_ecx(const struct gp_plan *p, unsigned k);

/* What gp_check_in_use() and gp_program() need beyond the registers. */
struct gp_config {
	struct journal *journal; /* the run's journal: required (-EINVAL without) */
	bool force;              /* take over counters in use (said in @why) */
	int nmi_watchdog;        /* /proc/sys/kernel/nmi_watchdog: 1, 0, -1 unknown (a
				  * hint in @why: the watchdog is a perf event) */
};

/*
 * gp_busy - which counters of @pmu are in use on @cpu (the rule at the top
 * of this file), every GP counter and every fixed counter of gp_pmu.
 * Reads only.  *@gp_busy / *@fixed_busy receive the masks; @why (may be
 * NULL) names each, e.g. "IA32_PERFEVTSEL2=0x53003c (event 0x3c, umask
 * 0x00: EN, INT) is in use; ... (PMIs are armed: perf or another profiler,
 * likely)".  Returns 0 (masks filled, maybe empty) or the -errno of a
 * failed read (msr_last_fault names it).  IA32_PERF_GLOBAL_INUSE that
 * cannot be read (-EIO, -EACCES, -EPERM) is skipped: the selects say it.
 */
int gp_busy(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu, int nmi_watchdog,
	    uint32_t *gp_busy, uint32_t *fixed_busy, char *why, size_t whylen);

/*
 * gp_check_in_use - gp_busy() for the counters of @p only: 0 when all are
 * free, -EBUSY with @why naming each one in use, or -errno.  Reads only.
 */
int gp_check_in_use(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
		    const struct gp_plan *p, int nmi_watchdog, char *why, size_t whylen);

/*
 * gp_journal_save - read every register gp_program() would save for @p on
 * @cpu and save them in @j, on disk (journal_save_regs, in the order at
 * the top of this file), writing nothing: for a guarded run that saves
 * what it may program as it begins (as pmu_journal_save).
 * Returns 0, -EOPNOTSUPP with @why (a counter whose value cannot be put
 * back: gp_program), the -errno of a failed read (msr_last_fault) or of
 * journal_save_regs.
 */
int gp_journal_save(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
		    const struct gp_plan *p, struct journal *j, char *why, size_t whylen);

/*
 * gp_program - check, save, then program @p on @cpu (the order at the top
 * of this file).  Returns 0; -EINVAL (no journal, or a plan for another
 * vendor or for counters @pmu lacks: nothing written); -EBUSY with @why
 * when a counter of @p is in use and !cfg->force (nothing written);
 * -EOPNOTSUPP with @why when a GP counter's value cannot be put back
 * byte for byte (Intel without full-width writes: IA32_PMCx takes bits
 * 31:0 sign-extended, linux arch/x86/kvm/vmx/pmu_intel.c intel_pmu_set_msr; a
 * value whose bits above 31 are
 * not bit 31's sign extension would come back changed): nothing written;
 * the errors of journal_save_regs (nothing written); or the -errno of the
 * first failed access (msr_last_fault): the journal's owner restores
 * (journal_restore_regs / journal_restore), which writes every saved
 * register once.  A second plan on the same counters in one run (passes)
 * comes after journal_restore_regs: programmed, its counters are in use
 * (by this run) and refused like any other.
 */
int gp_program(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
	       const struct gp_plan *p, const struct gp_config *cfg, char *why, size_t whylen);

/*
 * gp_reset - the reset between two measured repetitions, outside any
 * bracket, with the plan's counters frozen (as pmu_reset_frozen):
 *   1. the global control = @global_ctrl less the plan's bits (other
 *      counters, whoever owns them, keep counting);
 *   2. the plan's overflow bits of @clear_status cleared (when any);
 *   3. each of the plan's counters = 0;
 *   4. the global control = @global_ctrl (as last read: gp_verify).
 * Every register must already be saved (gp_program did).  Returns 0 or
 * the first -errno; after a failure in steps 2-3 step 4 is still tried.
 */
int gp_reset(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
	     const struct gp_plan *p, uint64_t global_ctrl, uint64_t clear_status);

/*
 * gp_reset_with_metrics - gp_reset, and with @metrics (Intel, a core with
 * IA32_PERF_METRICS that msr/pmu/pmu.h programmed) fixed counter 3 and
 * IA32_PERF_METRICS too, in the same frozen window: bits 35 and 48 frozen
 * and their overflow bits of @clear_status cleared with the plan's, FC3 =
 * 0 then PERF_METRICS = 0 after the plan's counters (the kernel's order:
 * msr/pmu/pmu.h pmu_reset_counts), so that every counter of a reading starts
 * from the same write of the global control.  -EINVAL with @metrics on
 * AMD (nothing written); else gp_reset's returns.
 */
int gp_reset_with_metrics(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
			  const struct gp_plan *p, uint64_t global_ctrl, uint64_t clear_status,
			  bool metrics);

/*
 * gp_freeze_with_metrics / gp_reset_after_freeze - gp_reset_with_metrics
 * in two parts, for a caller that reads the counters frozen between them
 * (msr/pmu/pmu.h pmu_freeze_topdown says why): step 1 alone, then steps 2
 * to 4.  Returns as gp_reset_with_metrics.
 */
int gp_freeze_with_metrics(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
			   const struct gp_plan *p, uint64_t global_ctrl, bool metrics);
int gp_reset_after_freeze(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
			  const struct gp_plan *p, uint64_t global_ctrl, uint64_t clear_status,
			  bool metrics);

/*
 * gp_read_msr - the plan's counters through @dev (IA32_PMCx, IA32_FIXED_CTRi,
 * PERF_CTRx), one per event into @vals[k] in plan order, as read (the
 * counter's width: gp_pmu).  Returns 0 or the -errno of the first failed
 * read.  Async-signal-safe.
 */
int gp_read_msr(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
		const struct gp_plan *p, uint64_t *vals);

/*
 * gp_read_overflow - the global status (IA32_PERF_GLOBAL_STATUS,
 * PERF_CNTR_GLOBAL_STATUS) of @cpu reduced to the plan's bits: a counter
 * that wrapped since the last clear (its region's delta is then off by
 * 2^width).  Read-only.  Returns 0 (*@bits set, 0 when none) or -errno.
 */
int gp_read_overflow(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
		     const struct gp_plan *p, uint64_t *bits);

/* gp_read_overflow_with_metrics - gp_read_overflow, with @metrics (Intel)
 * bits 35 and 48 too (fixed counter 3, OVF_PERF_METRICS: msr/pmu/pmu.h
 * pmu_read_overflow), from the same one read.  -EINVAL with @metrics on AMD. */
int gp_read_overflow_with_metrics(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
				  const struct gp_plan *p, bool metrics, uint64_t *bits);

/*
 * gp_verify - the tamper check: are the plan's controls still as
 * gp_program() left them - each event select exactly the encoding with EN,
 * each fixed field as programmed, the plan's bits set in the global
 * control?  Reads only; the global control read goes to @global_ctrl (may
 * be NULL).  Returns 0 (as programmed), 1 (changed: @why names the first
 * register that differs, with both values), or -errno.
 */
int gp_verify(struct msr_dev *dev, unsigned cpu, const struct gp_pmu *pmu,
	      const struct gp_plan *p, uint64_t *global_ctrl, char *why, size_t whylen);

#endif
