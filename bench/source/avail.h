/*
 * bench/source/avail.h - the counter sources' shared vocabulary: the
 * backend names (--backend) and what the availability checks found
 * (struct bench_avail: can Top-down be measured on a CPU, and if not, the
 * first precise reason).  The checks themselves are the harness's
 * (bench/avail.c, bench/identify.c); the reasons are set, copied and freed
 * in bench/source/avail.c; each source fills its own part
 * (bench/source/source.h).  Includes cpu/, msr/ and nothing of bench/
 * above the sources.
 */
#ifndef BARETMA_SOURCE_AVAIL_H
#define BARETMA_SOURCE_AVAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu/cpu.h"
#include "cpu/machine.h"
#include "msr/access/msr.h"
#include "msr/recipe/topdown.h"

/* ------------------------------------------------------------- backends */

/*
 * The registered counter sources' ids, in the order they are listed to
 * users (--help, calibrate's report: bench_backend_at); the order backend
 * auto prefers them is their table's (bench/source/source.c).  A new
 * source is one more id here, before BENCH_BACKEND_NIDS.  Only
 * bench/source/ names a source by its id or tests an id: the layers above
 * ask what a source can do (bench_backend_raw ...), which its ops say
 * (struct counter_source_ops, bench/source/source.h); t/1105 checks.
 */
enum bench_backend_id {
	BENCH_BACKEND_AUTO = 0, /* the first usable in the table's order (source_choose) */
	BENCH_BACKEND_RDPMC,    /* RDPMC of FC3 and PERF_METRICS on the pinned CPU */
	BENCH_BACKEND_MSR,      /* pread of IA32_FIXED_CTR3 and IA32_PERF_METRICS */
	BENCH_BACKEND_PERF,     /* perf_event_open of the slots + topdown-* group, read(2) */
	BENCH_BACKEND_PERF_RDPMC, /* the same group read by RDPMC through its user pages */
	BENCH_BACKEND_TSC,      /* RDTSC timing only; works everywhere */
	BENCH_BACKEND_NIDS,     /* not an id: how many there are, auto included */
};

/* The registered sources: every id but auto (bench/source/source.c
 * asserts its table holds as many). */
#define BENCH_NSOURCES ((unsigned)BENCH_BACKEND_NIDS - 1u)

/* bench_backend_name / bench_backend_parse - "auto" and the names of the
 * registered counter sources (bench/source/source.c): "rdpmc", "msr", "tsc". */
const char *bench_backend_name(enum bench_backend_id id);
int bench_backend_parse(const char *s, enum bench_backend_id *id); /* 0 or -EINVAL */

/* bench_backend_at - the id of the @i-th registered source in the users'
 * order (the ids' order: rdpmc, msr, perf, perf-rdpmc, tsc), auto for @i
 * >= BENCH_NSOURCES.  bench_backend_index - the place of @id in it, -1
 * for auto or an id no source has. */
enum bench_backend_id bench_backend_at(unsigned i);
int bench_backend_index(enum bench_backend_id id);

/*
 * What the source of @id can do, from its ops (bench/source/source.h says
 * each field): what the layers above ask instead of testing ids.  False
 * (NULL, auto) for auto and for an id no source has.
 *   timing_only  reads no Top-down, the TSC alone (tsc: !ops->topdown)
 *   raw          programs the PMU itself through the MSR backend
 *                (ops->writes_msrs): compare's raw side (rdpmc, msr)
 *   perf_event   the kernel's perf_event programs the counters
 *                (ops->perf_event: perf, perf-rdpmc): compare's perf side;
 *                what the kernel leaves in the registers is for the
 *                journal to put back (bench_run, calibrate's probe)
 *   rdpmc        reads by RDPMC, the counters of the CPU it runs on only
 *                (ops->rdpmc: rdpmc, perf-rdpmc); raw and rdpmc: RDPMC of
 *                IA32_PERF_METRICS, which metrics-clear regions need
 *   how          how a reading is taken, in words (ops->how: "read(2)")
 *   cost         what makes a reading cost microseconds, for the note
 *                beside the empty bracket's cost (ops->cost; NULL: none)
 *   other        the other registered source of @id's kind (raw, perf_event
 *                or timing) that the table lists first: the same counters
 *                read the other way (perf <-> perf-rdpmc)
 */
bool bench_backend_timing_only(enum bench_backend_id id);
bool bench_backend_raw(enum bench_backend_id id);
bool bench_backend_perf_event(enum bench_backend_id id);
bool bench_backend_rdpmc(enum bench_backend_id id);
const char *bench_backend_how(enum bench_backend_id id);
const char *bench_backend_cost(enum bench_backend_id id);
enum bench_backend_id bench_backend_other(enum bench_backend_id id);

/* bench_backend_uses_msr - whether a run of @id may program the counters
 * through the MSR backend $BARETMA_MSR names (auto, and the raw sources:
 * rdpmc, msr); tsc, perf and perf-rdpmc need none, so a backend that
 * cannot be opened stops only the others (session_open; the command
 * line's CLI_MSR_CHECK). */
bool bench_backend_uses_msr(enum bench_backend_id id);

/* ----------------------------------------------------------- availability */

/* Why Top-down cannot be measured: the first reason that applies. */
enum td_unavail {
	TD_OK = 0,
	TD_NOT_INTEL,        /* vendor is not Intel */
	TD_NO_VPMU,          /* hypervisor without a virtual PMU (leaf 0xA version 0) */
	TD_NO_ARCH_PMU,      /* bare metal but leaf 0xA version 0 */
	TD_NO_FIXED_CTR3,    /* no fixed counter 3 on this model / core kind */
	TD_NO_PERF_METRICS,  /* FC3 exists but no IA32_PERF_METRICS */
	TD_NO_MSR_DEVICE,    /* msr device missing (modprobe msr) */
	TD_NO_PERMISSION,    /* EACCES/EPERM on the msr device */
	TD_MSR_ERROR,        /* other msr error */
	TD_RDPMC_FAULT,      /* RDPMC faults (CR4.PCE clear); with the rdpmc sysfs value */
	TD_PERF_UNAVAILABLE, /* the perf source cannot open the Top-down group (its
			      * bench_source_avail's err, why) */
	TD_OTHER_MACHINE,    /* the CPUs are a CPUID dump's and the MSR backend is this
			      * machine's device: it cannot reach them (a dry run
			      * needs the state-file backend) */
	TD_MSR_OPEN,         /* the backend $BARETMA_MSR names cannot be opened
			      * (msr_open: a malformed state file or profile,
			      * -EINVAL; refused under sudo, -EPERM; missing,
			      * -ENOENT): reason is msr_last_error()'s line */
};

struct recipe;

/*
 * What one source's own probe found (struct bench_avail.src[]), for its
 * usable() and level hooks; the source's file says which fields it fills
 * (the perf probe fills perf's and perf-rdpmc's: one group, two reads).
 * Zeroed: not probed.
 */
struct bench_source_avail {
	bool ok;                /* it can measure (perf: the slots + topdown-* group,
				 * or every pass of an event recipe, opened) */
	bool by_name;           /* it measures only when named: backend auto passes
				 * it over (rdpmc on the simulator, whose RDPMC is
				 * simulated: msr_sim_rdpmc) */
	int level;              /* the level it measures by default (0 when !ok) */
	int level_max;          /* the highest it can, in passes where its events need
				 * them (an event recipe's, Sunny Cove's level 2);
				 * level when no higher */
	int err;                /* -errno behind why (perf_event_open's, the sysfs
				 * look-up's), else 0 */
	char *why;              /* why it cannot, one line, on the heap (it may name a
				 * dump's path); NULL when ok or not probed */
};

struct bench_avail {
	enum td_unavail why;
	int level;              /* Top-down level available (0 when none) */
	const struct recipe *recipe; /* the event recipe the rdpmc and msr sources
				 * measure on this CPU's kind (its topdown_source
				 * "events": bench/source/source_events.c; or
				 * PERF_METRICS's with events beside it, Sunny Cove:
				 * source_pm_recipe), NULL for PERF_METRICS alone
				 * or none */
	int err;                /* -errno behind the reason, if any */
	char *reason;           /* one line, precise, on the heap (any length: a
				 * state file's path may be PATH_MAX long); NULL
				 * when available.  Set with bench_avail_setf,
				 * freed by bench_avail_release */
	bool msr_ok;            /* the MSR backend can read FC3/PERF_METRICS */
	/* User RDPMC on the CPU checked, a fact of the machine (CR4.PCE, the
	 * rdpmc sysfs value: bench_rdpmc_decide) that the rdpmc source needs
	 * and bench's report gives (output.c "rdpmc sysfs"). */
	bool rdpmc_ok;          /* RDPMC probe passed */
	bool rdpmc_dump;        /* not probed: the CPUs are a CPUID dump's, and RDPMC
				 * would read the counters of the CPU baretma runs on */
	int rdpmc_sysfs;        /* rdpmc sysfs value, or -errno */
	int rdpmc_key_err;      /* with rdpmc_sysfs 1: -errno of making the perf
				 * event key (rdpmc_enable_self), else 0 */
	/* What each source's own probe found, one entry per source, indexed as
	 * the source table (source_at; source_avail_of): a new source adds
	 * no field here. */
	struct bench_source_avail src[BENCH_NSOURCES];
};

/*
 * bench_avail_setf - set @a's reason to printf(@fmt, ...), whatever its
 * length, freeing the one it had.  On -ENOMEM the old reason stays.
 * Returns 0 or -ENOMEM.
 */
int bench_avail_setf(struct bench_avail *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* bench_avail_reason - @a's reason, "" when it has none. */
static inline const char *bench_avail_reason(const struct bench_avail *a)
{
	return a->reason ? a->reason : "";
}

/*
 * bench_avail_copy - *@dst = *@src with reasons (reason, each source's
 * why) of its own (a struct copy would share, then free twice,
 * @src's): @dst's old ones are freed.  Returns 0 or -ENOMEM (@dst then
 * lacks those it could not copy).
 */
int bench_avail_copy(struct bench_avail *dst, const struct bench_avail *src);

/* bench_avail_release - free @a's reasons; @a stays usable (none). */
void bench_avail_release(struct bench_avail *a);

/*
 * bench_msr_reaches - @dev reaches the MSRs of the CPUs that @m describes:
 * @m is the live machine, or a CPUID dump and @dev the state-file backend
 * (a dry run: the file stands for the dumped machine's registers).  False
 * for a dump with a device backend (that device is this machine's) and
 * for @dev NULL.
 */
bool bench_msr_reaches(const struct cpu_machine *m, const struct msr_dev *dev);

/*
 * bench_perf_caps - IA32_PERF_CAPABILITIES (cpu/perf_caps.h) of OS CPU
 * @cpu of the machine @m describes: the one place that reads it.  Read
 * where that CPU's CPUID.1:ECX[15] PDCM says it exists and @dev reaches the
 * CPU (bench_msr_reaches: never this machine's device for a dump's CPU).
 * Returns 0 and *@caps, -EXDEV (@dev NULL or not reaching @m's CPUs),
 * -ENODEV (no PDCM, or no CPUID of @cpu), or the -errno of msr_read.
 */
int bench_perf_caps(const struct cpu_machine *m, struct msr_dev *dev, unsigned cpu,
		    uint64_t *caps);

/*
 * bench_identify - cpu_info_identify() of the machine @m describes, with
 * IA32_PERF_CAPABILITIES of OS CPU @cpu where bench_perf_caps reads it.
 * @dev may be NULL and @cpu < 0: identified without it.
 * Returns 0 or the -errno of cpu_info_identify (-EINVAL: not identified).
 */
int bench_identify(const struct cpu_machine *m, struct msr_dev *dev, int cpu,
		   struct cpu_info *ci);

/*
 * bench_topdown_check - decide whether Top-down can be measured on @cpu of
 * the machine @m describes and by which means, stopping at the first
 * reason that applies (order: vendor, virtual PMU, FC3, PERF_METRICS, a
 * dump's CPU behind this machine's device (TD_OTHER_MACHINE), msr device,
 * permission, RDPMC).  RDPMC is never probed for a dump's CPU (it reads the
 * counters of the CPU baretma runs on): rdpmc_dump.
 * @dev may be NULL (then the MSR checks report TD_NO_MSR_DEVICE with the
 * error of opening the default backend).  Writes no register.  With rdpmc
 * sysfs 1 the RDPMC probe runs as a run would, holding a perf event key
 * (bench_rdpmc_decide), which it drops before returning.
 * @out is zeroed or holds an earlier result (its reason is freed first);
 * bench_avail_release frees the reason it is given.
 * Returns 0 (result in @out).
 */
int bench_topdown_check(const struct cpu_machine *m, const struct cpu_info *ci, unsigned cpu,
			struct msr_dev *dev, struct bench_avail *out);

/* How the RDPMC decision reaches the system: the seam tests replace. */
struct bench_rdpmc_ops {
	int (*sysfs_value)(void);          /* cpu_env_rdpmc */
	int (*enable_self)(int *fd);       /* rdpmc_enable_self */
	void (*disable_self)(int fd);      /* rdpmc_disable_self */
	int (*probe)(uint32_t ecx);        /* rdpmc_probe */
};
/* The real ones (msr/regs/rdpmc.h). */
extern const struct bench_rdpmc_ops bench_rdpmc_live;

/*
 * bench_rdpmc_decide - can this process RDPMC fixed counter 3 and
 * PERF_METRICS (a->rdpmc_ok)?  With a->rdpmc_sysfs == 1 and no key yet
 * (*key < 0) it first makes this process's perf event key
 * (ops->enable_self: CR4.PCE follows an mmapped perf event of the mm,
 * linux arch/x86/events/core.c x86_pmu_event_mapped), recording a failure in a->rdpmc_key_err, then
 * probes slots, then metrics (with a->recipe, an event recipe's kind:
 * general-purpose counter 0, ECX 0).  A key that did not make the probe pass is
 * dropped (*key = -1); one that did stays in *key for the run, which must
 * drop it (ops->disable_self) when it ends.  Never changes the sysfs value.
 * Returns 0.
 */
int bench_rdpmc_decide(const struct bench_rdpmc_ops *ops, int *key, struct bench_avail *a);

/*
 * bench_topdown_check_ops - bench_topdown_check through @ops, keeping the
 * key for the caller in *key (see bench_rdpmc_decide): what a run uses.
 * The perf sources' probe opens (and enables) a perf group, which makes
 * the kernel write FC3 and PERF_METRICS: it runs only when @want is one of
 * them, or is BENCH_BACKEND_AUTO and the raw path cannot measure, so that
 * a run on the raw path finds the registers as they were.
 */
int bench_topdown_check_ops(const struct cpu_machine *m, const struct cpu_info *ci,
			    unsigned cpu, struct msr_dev *dev, const struct bench_rdpmc_ops *ops,
			    int *key, enum bench_backend_id want, struct bench_avail *out);

/*
 * bench_rdpmc_reason - one line saying why RDPMC cannot be used (with the
 * rdpmc sysfs value), for messages.
 */
void bench_rdpmc_reason(const struct bench_avail *a, char *buf, size_t n);

#endif
