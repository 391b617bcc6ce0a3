/*
 * bench/run.h - the steps of the msr and pmu commands that neither parse
 * nor print: bench/run_msr.c (the CPU list opened and checked, msr read
 * and write: the policy, the journal of the old values, the reads and
 * writes), bench/run_pmu.c (pmu enable's targets and programming, the
 * journals status and restore go through, restore's selection and order).
 * Library code (STYLE.md "Errors"): 0 or -errno, or a structured result
 * that names what failed (which CPU, which journal); never prints, never
 * exits; the command that called it says it (bench/cmd_*.c).  Includes
 * cpu/, msr/ and bench/bench.h, never bench/cli*.h.
 */
#ifndef BARETMA_RUN_H
#define BARETMA_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu/cpu.h"
#include "msr/journal/journal.h"
#include "msr/access/msr.h"
#include "msr/regs/msr_policy.h"
#include "msr/pmu/pmu.h"

struct cpu_machine;

/* ------------------------------------------------------ a list of CPUs */

/*
 * run_cpus_open - msr_open_cpu() for each of the @n CPUs of @cpus, so that
 * nothing is accessed unless every one can be.  Returns 0, or the first
 * failure's -errno with *@at its index in @cpus.
 */
int run_cpus_open(struct msr_dev *dev, const unsigned *cpus, int n, int *at);

/*
 * run_cpus_check - is each CPU one of the machine @m describes (a dump's;
 * live: configured and online; cpu_machine_check_cpu)?  Returns 0, or the
 * first failure's -errno (-ENXIO, -ENODEV offline) with *@at its index.
 */
int run_cpus_check(const struct cpu_machine *m, const unsigned *cpus, int n, int *at);

/* ------------------------------------------------- msr read and write */

/*
 * run_msr_read_all / run_msr_write_all - @msr of each CPU into @vals /
 * @value to @msr of each CPU, in order; the first failure ends it.
 * Returns 0, or its -errno with *@at its index (msr_last_fault of @dev
 * names the access).
 */
int run_msr_read_all(struct msr_dev *dev, const unsigned *cpus, int n, uint32_t msr,
		     uint64_t *vals, int *at);
int run_msr_write_all(struct msr_dev *dev, const unsigned *cpus, int n, uint32_t msr,
		      uint64_t value, int *at);

/*
 * run_msr_journal_old - the values @old of @msr on the @n CPUs into the
 * journal @j in one update, before the first write; each marked unsafe-msr
 * with @unsafe (a register outside the write policy).  Returns 0, -EINVAL
 * (more than CPU_MAX_CPUS), or journal_save_regs' -errno.
 */
int run_msr_journal_old(struct journal *j, const unsigned *cpus, int n, uint32_t msr,
			const uint64_t *old, bool unsafe);

/* The write policy's answer for a list of CPUs (run_msr_policy). */
struct run_msr_verdict {
	enum msr_write_verdict verdict; /* of the CPU refused */
	unsigned cpu;                   /* that CPU */
	char why[320];                  /* msr_write_check's line for it; fixed: its
					 * longest (msr/regs/msr_policy.c bits_check for
					 * IA32_FIXED_CTR_CTRL: the name, two 16-digit
					 * values, a 7-digit mask and the METRICS_CLEAR_EN
					 * note) is 315 bytes */
	bool unknown;                   /* allowed: a register baretma does not
					 * know, on some CPU, by @unsafe_msr */
};

/*
 * run_msr_policy - may @value be written to @msr on each of the @n CPUs?
 * Each is checked with its own PMU (msr_write_check): its core kind's
 * counters, the fixed-counter width of its own CPUID leaf 0xA (SDM Vol. 3B
 * 20.2.2; linux perf_event.h union cpuid10_edx), full-width writes (bit 13) and RDPMC
 * metrics-clear (bit 19) from its own IA32_PERF_CAPABILITIES where @dev
 * reaches it (bench_perf_caps; unreadable: neither, the safe side).  The
 * architectural PMU registers are Intel's (AMD's live at 0xc001xxxx): on
 * any other vendor every register is MSR_WRITE_UNKNOWN.  A register
 * baretma does not know is allowed by @unsafe_msr; reserved bits and
 * read-only registers never are.  Returns 0 (v->unknown: allowed by
 * @unsafe_msr), or -EPERM with the first CPU refused in @v.
 */
int run_msr_policy(const struct cpu_machine *m, struct msr_dev *dev, const struct cpu_info *ci,
		   const unsigned *cpus, int n, uint32_t msr, uint64_t value, bool unsafe_msr,
		   struct run_msr_verdict *v);

/* ---------------------------------------------------------- pmu enable */

/* Why pmu enable has no target (run_pmu_targets). */
enum run_pmu_refusal {
	RUN_PMU_NONE_CAPABLE = 1, /* no CPU of the machine has fixed counter 3 */
	RUN_PMU_NOT_A_CPU,        /* a --cpu CPU the machine does not have (err) */
	RUN_PMU_NO_METRICS,       /* a hybrid part's E-core: no PERF_METRICS while
				   * other kinds have it (cpu_topdown_check_cpu) */
	RUN_PMU_NO_FC3,           /* a --cpu CPU without fixed counter 3 */
};

struct run_pmu_targets {
	unsigned capable[CPU_MAX_CPUS]; /* what enable programs by default */
	int ncapable;
	enum run_pmu_refusal why;      /* when refused: */
	unsigned cpu;                  /* the CPU (not RUN_PMU_NONE_CAPABLE) */
	int err;                       /* RUN_PMU_NOT_A_CPU: -ENXIO, -ENODEV */
};

/*
 * run_pmu_targets - the CPUs pmu enable programs: the @n CPUs already in
 * @cpus (--cpu), each checked in order, or with @n < 0 the capable ones
 * (copied into @cpus): every CPU of the machine @m describes with
 * PERF_METRICS where it has any (on hybrid parts the P-cores: the E-cores'
 * kinds have none: linux intel_pmu_init), else every CPU with fixed counter
 * 3 (slots only).  @t receives the capable CPUs either way.  Returns the
 * count, or -1 with the refusal in @t.
 */
int run_pmu_targets(const struct cpu_machine *m, const struct cpu_info *ci, unsigned *cpus,
		    int n, struct run_pmu_targets *t);

/*
 * run_pmu_program_all - pmu_program() each target with its own kind
 * (fixed counter 3, PERF_METRICS: IA32_PERF_GLOBAL_CTRL bit 48 is set per
 * CPU, never from the machine's), each CPU's registers journaled in @j
 * before its writes; @t[i] receives what was saved.  Returns 0, or the
 * first failure's -errno with *@at its index and pmu_program's reason in
 * @why: -EBUSY (in use since the ownership check), a failed MSR access
 * (msr_last_fault of @dev, cleared before each CPU), else the journal's.
 */
int run_pmu_program_all(struct msr_dev *dev, struct journal *j, const struct cpu_info *ci,
			const unsigned *cpus, int n, bool user_only, bool force,
			struct pmu_saved *t, int *at, char *why, size_t nwhy);

/* -------------------------------------------------- the run journals */

/* run_pmu_journals_load - every journal in the state directory (journal_list);
 * *@n entries, freed with run_pmu_journals_free.  Returns 0 or -errno. */
int run_pmu_journals_load(struct journal_info **out, int *n);
void run_pmu_journals_free(struct journal_info *v, int n);

/* Does @d hold @cpu?  Is @cpu in the --cpu list (@want, @nwant; @nwant < 0:
 * no list)?  Does @d hold one of them? */
bool run_pmu_holds(const struct journal_data *d, unsigned cpu);
bool run_pmu_wanted(const unsigned *want, int nwant, unsigned cpu);
bool run_pmu_holds_wanted(const struct journal_data *d, const unsigned *want, int nwant);
/* Is @d a journal that status shows and restore takes for the --cpu list:
 * one holding a wanted CPU, or one holding no CPU at all (settings only,
 * or nothing: a run killed before it saved a register), which belongs to
 * every list. */
bool run_pmu_concerns(const struct journal_data *d, const unsigned *want, int nwant);

/* What pmu status shows of a run or enable journal's CPU now. */
struct run_pmu_live {
	int rc; /* 0; -EXDEV: the journal's MSR backend is not @spec; -errno */
	uint64_t fixed_ctr_ctrl, global_ctrl;
};

/*
 * run_pmu_live - IA32_FIXED_CTR_CTRL and IA32_PERF_GLOBAL_CTRL of @cpu now
 * through @dev (NULL: -ENODEV), for a journal @d written through the
 * backend @spec (else -EXDEV, nothing read); an msr write journal's
 * registers are shown as they are (rc 0, nothing read).
 */
struct run_pmu_live run_pmu_live(struct msr_dev *dev, const char *spec,
				 const struct journal_data *d, unsigned cpu);

/* ---------------------------------------------------------- pmu restore */

/* Which journals restore puts back (run_pmu_select). */
struct run_pmu_selection {
	int bad;     /* the first journal that did not load (65, 77), or -1 */
	int missing; /* the index in want of the first CPU no journal holds, or -1 */
	bool busy;   /* a wanted CPU only running baretmas' journals hold */
};

/*
 * run_pmu_select - the journals to restore: not alive, holding a --cpu CPU
 * or no CPU at all (run_pmu_concerns: settings alone, or nothing, which
 * restore puts back or removes whatever the list) (whole journals: a part
 * would leave the rest half put back); @sel[i] says which.  Every journal must load (s->bad, and nothing is selected),
 * every --cpu CPU must be held (s->missing) by a journal that can be
 * restored (s->busy).  Returns how many are selected.
 */
int run_pmu_select(const struct journal_info *v, int n, const unsigned *want, int nwant,
		   bool *sel, struct run_pmu_selection *s);

/*
 * run_pmu_restore_check - can the selected journals be put back through
 * @dev, the backend @spec?  Each journal with registers must have been
 * written through @spec (else -EXDEV, *@ji that journal), and each of its
 * CPUs must open (else that -errno, *@ji and *@cpu).  Returns 0 or -errno.
 */
int run_pmu_restore_check(struct msr_dev *dev, const char *spec, const struct journal_info *v,
			  int n, const bool *sel, int *ji, unsigned *cpu);

/*
 * run_pmu_restore_cpus - the CPUs of the selected journals into @cpus (at
 * most CPU_MAX_CPUS); *@settings is set when one of them saved settings
 * (restore then takes the settings lock exclusively).  Returns the count.
 */
int run_pmu_restore_cpus(const struct journal_info *v, int n, const bool *sel, unsigned *cpus,
			 bool *settings);

/*
 * run_pmu_newest_first - @order (the indexes 0..@n-1 of @v) sorted newest
 * journal first: when two journals hold the same register (a run with
 * --force on top of another's), the newer one saved the value the older
 * one wrote, so undoing them in reverse order of creation ends at the
 * value from before both.  Order: journal time, then the process start
 * time (clock ticks since boot), then the pid, then N of
 * "run-PID-N.journal" (one process's sessions), all descending.
 */
void run_pmu_newest_first(const struct journal_info *v, int n, int *order);

#endif
