/*
 * bench/source/perf_group.h - the Top-down event group of perf_event: the
 * `slots` leader and its `topdown-*` members, opened, reset, read and
 * closed through one ops table with two implementations:
 *   kernel  perf_event_open(2) (bench/source/perf_group.c; the PMU read from
 *           sysfs by bench/source/perf_pmu.c)
 *   sim     the simulated PMU of msr/sim/msr_sim.h through the kernel's
 *           arithmetic (bench/source/perf_sim.c), selected by
 *           $BARETMA_PERF=sim:PROFILE (tests; CI has no PMU)
 * The perf counter source (bench/source/source_perf.c) is their only caller.
 *
 * Facts (linux arch/x86/events/intel/core.c intel_pmu_hw_config, topdown.txt):
 *  - the group's PMU is `cpu` (non-hybrid) or `cpu_core` (hybrid P-core)
 *    under <sysroot>/sys/bus/event_source/devices; its `type` file is the
 *    perf_event_attr.type;
 *  - the leader is `slots` (event=0x00,umask=0x4: config 0x0400) and the
 *    members `topdown-retiring` (0x8000), `-bad-spec` (0x8100),
 *    `-fe-bound` (0x8200), `-be-bound` (0x8300) and, on level-2 parts,
 *    `-heavy-ops` (0x8400), `-br-mispredict` (0x8500), `-fetch-lat`
 *    (0x8600), `-mem-bound` (0x8700); the configs are read from the PMU's
 *    events/ directory where it lists them;
 *  - metric events must be in a group led by slots, read with
 *    PERF_FORMAT_GROUP, and cannot sample (intel_pmu_hw_config);
 *  - each member's count is slots x field / 0xff floored, accumulated over
 *    the kernel's per-read resets of FC3 and PERF_METRICS
 *    (icl_get_metrics_event_value, intel_update_topdown_event).
 */
#ifndef BARETMA_PERF_GROUP_H
#define BARETMA_PERF_GROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <sys/types.h>

/* The members in IA32_PERF_METRICS byte order (linux perf_event.h INTEL_PMC_IDX_TD_*). */
#define PERF_TD_NODES 8

/* Room for a reason of this layer's (the @why of perf_group_ops, perf_pmu):
 * its longest names one sysfs file (a path, under PATH_MAX: linux
 * include/uapi/linux/limits.h) in a sentence, so it is never cut.  The
 * bench_avail that keeps it copies it to the heap. */
#define PERF_WHY_MAX (PATH_MAX + 512)

/* perf_td_event_name - "topdown-retiring" ... "topdown-mem-bound" for byte
 * @i (0..7) of IA32_PERF_METRICS; NULL beyond. */
const char *perf_td_event_name(unsigned i);

/* How a read is made. */
enum perf_read_how {
	PERF_READ_SYSCALL = 0,  /* read(2) of the leader's group */
	PERF_READ_MMAP_RDPMC,   /* the leader's and one member's mmap'ed user pages
				 * (seqlock) and RDPMC (1<<30)|3 and 1<<29, where
				 * cap_user_rdpmc: raw FC3 and PERF_METRICS, never
				 * mixed with read(2) (linux topdown.txt "Using
				 * TopDown through RDPMC") */
};

/* One raw event of a recipe's group (perf_event_attr.type the core PMU's,
 * .config the event's encoding in the PMU's format: perf_raw_config). */
struct perf_raw_event {
	const char *name;  /* the recipe's name of the event (messages) */
	uint64_t config;   /* perf_raw_config */
	bool metric;       /* a topdown-* metric pseudo-event (event 0x00, umask 0x80 +
			    * byte: linux arch/x86/events/intel/core.c
			    * is_metric_event, INTEL_TD_METRIC_*): no counter of its
			    * own, the kernel counts it from fixed counter 3 and
			    * IA32_PERF_METRICS byte @metric_byte, and only in a group
			    * that slots leads (intel_pmu_hw_config); the simulator
			    * reads this */
	unsigned metric_byte;
	int fixed;         /* the fixed counter the recipe counts it on, -1: a
			    * general-purpose one (the kernel places an
			    * event matching a fixed counter's encoding there:
			    * arch/x86/events/intel/core.c FIXED_EVENT_CONSTRAINT;
			    * only the simulator reads this) */
	uint32_t counters; /* the general-purpose counters it may use, 0: any
			    * (the kernel's event constraints; simulator only) */
};

/* The leader and its members of a raw group: a pass of an event recipe, or
 * Sunny Cove's slots, its four topdown-* members and the events beside
 * them (bench/source/perf_events.c); at most a reading's values
 * (bench/source/reading.h READING_MAX). */
#define PERF_RAW_MAX 12

/*
 * perf_raw_config - perf_event_attr.config of a raw event on the core PMU,
 * as the PMU's sysfs format/ files lay it out:
 *   Intel (arch/x86/events/intel/core.c PMU_FORMAT_ATTR: event config:0-7,
 *   umask 8-15, edge 18, any 21, inv 23, cmask 24-31): event | umask << 8 |
 *   edge << 18 | any << 21 | inv << 23 | cmask << 24;
 *   AMD (arch/x86/events/amd/core.c: event config:0-7,32-35, umask 8-15,
 *   edge 18, inv 23, cmask 24-31): (event & 0xff) | umask << 8 | edge << 18
 *   | inv << 23 | cmask << 24 | ((event >> 8) & 0xf) << 32 (no AnyThread).
 * Pure.
 */
uint64_t perf_raw_config(bool amd, uint16_t event, uint8_t umask, uint8_t cmask, bool inv,
			 bool edge, bool any);

/* What to open. */
struct perf_group_spec {
	unsigned cpu;      /* OS CPU: the group counts the calling thread on it
			    * (pid 0, cpu N: the thread is pinned there) */
	int level;         /* 1: four members, 2: eight */
	bool user_only;    /* exclude_kernel (and exclude_hv) on every event */
	enum perf_read_how how; /* how read_raw/read will be used */
	/* An event recipe's pass instead of slots + topdown-*: @nraw raw
	 * events (1..PERF_RAW_MAX), @raw[0] the leader, the others its
	 * members in that order (perf_group_values: slots = @raw[0]'s count,
	 * td[i] = @raw[1 + i]'s); opened on the core PMU whose `cpus` lists
	 * @cpu (cpu; on hybrid parts cpu_core or cpu_atom); read(2) only. */
	const struct perf_raw_event *raw;
	unsigned nraw;     /* 0: the Top-down group */
	bool amd;          /* the core is AMD's (PerfMonV2 registers: simulator) */
	const char *cpuid_dump; /* the simulator's machine: this CPUID dump (the
				 * session's, the library's cpuid_dump option, the
				 * CLI's --cpuid-dump); NULL: $BARETMA_CPUID_DUMP, else
				 * the live CPU (msr_open_on).  The kernel ignores it. */
};

/* One read of the group (PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED |
 * TOTAL_TIME_RUNNING). */
struct perf_group_values {
	uint64_t slots;                 /* the leader: TOPDOWN.SLOTS */
	uint64_t td[PERF_RAW_MAX - 1];  /* members: the Top-down group's slots x fraction
					 * (0 when not opened), a raw group's counts */
	uint64_t time_enabled;          /* ns */
	uint64_t time_running;          /* ns; < time_enabled: multiplexed (not a number) */
};

struct perf_group; /* opaque */

struct perf_group_ops {
	const char *name;  /* "kernel" or "sim" */
	/*
	 * open - open the group for @spec, disabled.  On failure *@why (on the
	 * heap, replaced, whole: cpu/text.h; the caller frees it) gets one
	 * precise line (the paranoid level and what it allows, no `slots`
	 * event on this PMU, no cpu/cpu_core PMU in sysfs, a hybrid E-core, a
	 * VM without a virtual PMU: ENOENT for a hardware event, ...).
	 * Returns 0, or -errno: -ENOENT (no such PMU or event), -EACCES/-EPERM
	 * (perf_event_paranoid or capabilities), -EOPNOTSUPP (the CPU has no
	 * Top-down events), -EINVAL, -ENOMEM.
	 */
	int (*open)(const char *arg, const struct perf_group_spec *spec,
		    struct perf_group **out, char **why);
	int (*enable)(struct perf_group *g);   /* PERF_EVENT_IOC_ENABLE (group) */
	int (*disable)(struct perf_group *g);  /* PERF_EVENT_IOC_DISABLE (group) */
	int (*reset)(struct perf_group *g);    /* PERF_EVENT_IOC_RESET (group) */
	/* read - one read(2) of the group into @v: 0 or -errno. */
	int (*read)(struct perf_group *g, struct perf_group_values *v);
	/* read_raw - with PERF_READ_MMAP_RDPMC: FC3 and IA32_PERF_METRICS as
	 * RDPMC gives them, through the user pages' seqlock; 0, or
	 * -EOPNOTSUPP (no cap_user_rdpmc, index 0), -EAGAIN (the seqlock
	 * did not settle).  May be NULL (then only read). */
	int (*read_raw)(struct perf_group *g, uint64_t *slots, uint64_t *metrics);
	void (*close)(struct perf_group *g);   /* NULL is fine */
};

extern const struct perf_group_ops perf_group_kernel, perf_group_sim;

/*
 * perf_group_env - the implementation $BARETMA_PERF names: "sim:PROFILE",
 * the simulator (@arg PROFILE); empty or "kernel", the kernel (@arg NULL);
 * unset, the simulator of $BARETMA_MSR's profile where that is
 * "sim:PROFILE" (a dry run's perf side the same simulated machine), else
 * the kernel.
 * Returns the ops, or NULL with errno EINVAL for any other value.
 */
const struct perf_group_ops *perf_group_env(const char **arg);

/*
 * perf_group_fraction - the fraction of slots of member @i from the
 * difference of two reads (@b - @a): (td_b - td_a) / (slots_b - slots_a),
 * 0 when no slot was counted.  Pure.
 */
double perf_group_fraction(const struct perf_group_values *a, const struct perf_group_values *b,
			   unsigned i);

/* ----------------------------------------------- parts of the kernel ops
 * Declared for t/0440-perf-group.c; the perf counter source needs only the
 * ops table above. */

/*
 * perf_group_parse_read - one read(2) of a group opened with
 * PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING (no
 * PERF_FORMAT_ID): the u64s { nr, time_enabled, time_running,
 * value[nr] } (include/uapi/linux/perf_event.h, "read_format"), value[0]
 * the leader, then the members in the order they were opened.  @buf holds
 * @len bytes; @nr_members (4 or 8) members were opened, in IA32_PERF_METRICS
 * byte order, so value[1 + i] goes to @v->td[i] and the rest of td[] is 0.
 * Returns 0, or -EIO when @len or nr is not what that group reads, -EINVAL
 * for NULL or @nr_members > PERF_TD_NODES.  Pure.
 */
int perf_group_parse_read(const void *buf, size_t len, unsigned nr_members,
			  struct perf_group_values *v);

struct perf_event_mmap_page; /* <linux/perf_event.h> */

/* An RDPMC for perf_group_rdpmc_pages: the counter @ecx names, raw. */
typedef uint64_t (*perf_rdpmc_fn)(uint32_t ecx);

/*
 * perf_group_rdpmc_pages - RDPMC through the seqlock of @n (1 or 2)
 * mmapped perf user pages, all in one retry loop so the values are from
 * one period: read each page's lock; then, per page, refuse -EOPNOTSUPP
 * unless cap_user_rdpmc is set and index - 1 is @ecx[i] (index 0: the event
 * is not on a counter now, e.g. disabled or not scheduled; another index:
 * not the counter the raw Top-down read wants), and @raw[i] = @rdpmc(@ecx[i]);
 * retry while any lock changed (include/uapi/linux/perf_event.h, the
 * comment at perf_event_mmap_page.lock; pmu-tools jevents/rdpmc.c;
 * linux arch/x86/events/core.c x86_pmu_event_idx).  Up to PERF_RDPMC_TRIES tries,
 * then -EAGAIN.
 * The values are raw: neither pc->offset added nor sign-extended by
 * pmc_width, because the Top-down RDPMC read wants FC3 and PERF_METRICS
 * as the hardware holds them (linux tools/perf/Documentation/topdown.txt,
 * "Using TopDown through RDPMC").
 * Returns 0, -EOPNOTSUPP, -EAGAIN, -EINVAL (NULL, @n not 1..2).
 */
#define PERF_RDPMC_TRIES 64
int perf_group_rdpmc_pages(const struct perf_event_mmap_page *const *pages,
			   const uint32_t *ecx, unsigned n, perf_rdpmc_fn rdpmc, uint64_t *raw);

/*
 * Test seam, for t/ only: the system calls the kernel ops make.  Each
 * returns as the call it stands for (-1 with errno; mmap MAP_FAILED).
 * perf_event_open is given the flags of the real call; the real one adds
 * PERF_FLAG_FD_CLOEXEC itself.  rdpmc is the instruction (msr/regs/rdpmc.h).
 */
struct perf_event_attr; /* <linux/perf_event.h> */
struct perf_group_sys {
	int (*perf_event_open)(struct perf_event_attr *attr, pid_t pid, int cpu,
			       int group_fd, unsigned long flags);
	int (*ioctl)(int fd, unsigned long request, unsigned long arg);
	ssize_t (*read)(int fd, void *buf, size_t n);
	void *(*mmap)(void *addr, size_t len, int prot, int flags, int fd, off_t off);
	int (*munmap)(void *addr, size_t len);
	int (*close)(int fd);
	uint64_t (*rdpmc)(uint32_t ecx);
};

/* perf_group_sys_set - use @sys (a NULL member: the real call) from now
 * on; NULL puts back the real calls.  Not thread-safe: tests only. */
void perf_group_sys_set(const struct perf_group_sys *sys);

#endif
