/*
 * msr/access/msr.h - MSR access through an ops table with three backends.
 *
 * The folder msr/ is the middle layer and owns register access and what
 * a root process must do around it: the ops table and its device and
 * state-file backends (msr_ops.c, msr_dev.c, msr_state*.c), the one
 * register-name table (msr_names.c, intel_regs.h, amd_regs.h), the write policy
 * (msr_policy.c), PMU programming and ownership (pmu.c, pmu_owner.c;
 * pmu_gp.c, pmu_gp_owner.c for the general-purpose counters),
 * PERF_METRICS decoding (topdown.c), RDPMC (rdpmc.h, rdpmc_probe.c), and the
 * guarded run as a library: locks (lock.c), the state directory
 * (state_dir.c), journals (journal.c the store, journal_format.c the text,
 * journal_restore.c, journal_list.c; journal_rules.c below them),
 * settings (settings.c), the opt-in signal guard (guard_signals.c) and
 * the sequence that uses them all (guard.c, guard_owner.c, guard_text.c).
 * It may include cpu/ and itself, never bench/.  Its rooms, each including
 * only itself and those below it (HACKING.md "Layout"; t/0530-layers.sh):
 * regs/, recipe/, access/ (this header), sim/ (with the table of backends,
 * msr_backends.c, which names the simulator), journal/, pmu/, guard/.
 *
 * Backends (selected by a spec string, normally $BARETMA_MSR, through the
 * table msr_backends[] below: the first whose prefix starts the spec):
 *   - device: a path template with one %u for the OS CPU number, default
 *     "/dev/cpu/%u/msr" (linux arch/x86/kernel/msr.c: the file offset is the
 *     MSR index, 8-byte pread/pwrite; "/dev/cpu/%u/msr_safe" works the same).
 *     msr/access/msr_dev.c is the only file in baretma that opens such a device.
 *     Each name must be an MSR device node of its CPU: a character device
 *     of the msr driver (major MSR_DEV_MAJOR) or of msr_safe, minor = the
 *     CPU, not reached through a symbolic link; anything else (a regular
 *     file, a link, a FIFO, /dev/null) is refused with -ENODEV and never
 *     read or written (msr_device_node_check()).
 *     When the environment may come from another user (cpu/trust.h:
 *     under sudo, or real ids other than the effective ones) msr_open()
 *     accepts only the two standard templates "/dev/cpu/%u/msr" and
 *     "/dev/cpu/%u/msr_safe" (-EPERM for any other spec, state: too).
 *   - state file: "state:FILE".  FILE is text, one register per line
 *     "CPU 0xMSR 0xVALUE" (CPU decimal, MSR and VALUE hex), '#' comments and
 *     blank lines allowed.  A register not listed does not exist: read and
 *     write fail with -EIO like a #GP through the real driver.  A CPU with no
 *     line at all does not exist (-ENXIO at open).  Every successful write is
 *     persisted before the call returns (write to FILE.tmp, rename; no fsync:
 *     registers do not outlive a power cut either), so a killed process
 *     leaves FILE reflecting every completed write.
 *     Lines are rewritten in place: unchanged values keep their original
 *     text, so restoring every value gives back the original bytes.
 *     Writes by another process are seen: before every access the backend
 *     compares stat(FILE) (device, inode, size, mtime) with what it last
 *     read or wrote and, when it differs, reads and parses FILE again (one
 *     fstatat per access: cheap enough for a test backend).  Such a writer
 *     should replace FILE atomically (write a temporary file, rename it
 *     over FILE), as the backend itself does, while holding flock(LOCK_EX)
 *     on FILE's directory (e.g. `flock DIR mv FILE.new FILE`): baretma
 *     processes sharing one FILE serialise their read-modify-writes with
 *     that lock, and a rename made without it can land between a
 *     backend's read and its rename, and be lost.  A reload that finds
 *     FILE malformed fails the access
 *     with -EINVAL (and -EFBIG when FILE grew past twice its size at
 *     open, or 64 KiB more), keeping the last good content for the next
 *     try.
 *     The status registers follow the hardware instead of plain storage
 *     (linux arch/x86/kvm/pmu.c kvm_pmu_set_msr, arch/x86/events/intel/core.c
 *     intel_pmu_ack_status): IA32_PERF_GLOBAL_STATUS is read-only (a write
 *     is -EIO), and a write to IA32_PERF_GLOBAL_STATUS_RESET clears those
 *     bits in the CPU's IA32_PERF_GLOBAL_STATUS line (if listed) and leaves
 *     its own line as it is (write-1-to-clear; _STATUS_SET sets them);
 *     AMD's PERF_CNTR_GLOBAL_STATUS, _STATUS_CLR and _STATUS_SET the same
 *     (msr/regs/amd_regs.h).
 *     At most MSR_STATE_LINES_MAX lines (comments and blank lines count):
 *     a longer file is malformed (-EINVAL).  Parsing is O(n log n) (a
 *     sorted index finds a register listed twice, named with both lines,
 *     and each register at an access in O(log n)).
 *     FILE must be a regular file named directly: a symbolic link at the
 *     name is refused at msr_open (-EPERM) and at a reload (-ELOOP); a
 *     rewrite keeps only FILE's permission bits (mode & 0777: a
 *     set-user-ID or set-group-ID bit is dropped).
 *
 *   - simulated PMU: "sim:PROFILE" (msr/sim/msr_sim.h): registers kept like the
 *     state file's (in memory, or a state file named by the profile) and
 *     the counting of the fixed and general-purpose counters (Intel, AMD
 *     PerfMonV2) and of IA32_PERF_METRICS modelled.
 *
 * $BARETMA_MSR_TRACE=FILE appends one line per access, for either backend:
 *   "rd CPU 0xMSR 0xVALUE" or "wr CPU 0xMSR 0xVALUE", with " ERRNAME" (e.g.
 *   " EIO") appended when the access failed (the value is then 0x0 for reads;
 *   " ENOLCK": the write gate refused it, nothing reached the backend),
 *   and, from the journal of a gated handle, "sv CPU 0xMSR 0xSAVED" once
 *   the saved value is on disk (msr_trace_saved): a trace shows that
 *   every register was saved before its first write.
 *   FILE is opened with O_NOFOLLOW (a symbolic link at the name is
 *   refused); an existing FILE must be a regular file with one link, owned
 *   by the invoking user (cpu/userfile.h); a new FILE is created 0600
 *   (O_EXCL), given to that user.  msr_open() fails -EPERM otherwise.
 *   A trace is an audit log: a line that cannot be written (a full disk:
 *   ENOSPC) is counted, the first loss calls the hook of
 *   msr_trace_on_loss, and msr_trace_lost says it (the command line warns
 *   at the first and exits 74).
 *
 * msr_read/msr_write/msr_close_cpu are async-signal-safe (no malloc, no
 * stdio, no locks) so that the restore path can run from a signal handler
 * (the one lock, the simulator's, is held with every signal blocked:
 * msr/sim/msr_sim.c says why that cannot deadlock).
 *
 * Errors are -errno, as the real driver gives them (linux arch/x86/kernel/msr.c):
 *   -ENOENT  no device node (msr module not loaded: modprobe msr)
 *   -EACCES/-EPERM  not root, no CAP_SYS_RAWIO, lockdown, msr.allow_writes=off
 *   -EIO     MSR does not exist on this CPU (#GP on RDMSR/WRMSR)
 *   -ENXIO   CPU offline or absent
 *   -EINVAL  malformed spec or state file (msr_open; the state backend
 *            also at an access after another process made FILE malformed)
 *   -ENODEV  the device template names something that is not an MSR
 *            device node of that CPU (a file, a link, another device)
 *   -ELOOP   a symbolic link now stands at the state file's name (access)
 *   -ENOLCK  (write) the register is not saved in the run's journal: the
 *            write gate refused it (below); nothing was written
 */
#ifndef BARETMA_MSR_H
#define BARETMA_MSR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct stat;

/* The msr driver's character major: linux include/uapi/linux/major.h
 * MSR_MAJOR, Documentation/admin-guide/devices.txt; arch/x86/kernel/msr.c). */
#define MSR_DEV_MAJOR 202u

/*
 * The most lines a state file may have: 8192 CPUs (the most a device
 * context addresses, msr/access/msr_dev.c; Linux x86 NR_CPUS is at most 8192)
 * times 128 lines each.  A CPU's PMU has ~40 registers baretma could list
 * (8 general counters, their full-width aliases and event selects, 4
 * fixed counters, the fixed and global controls, PERF_METRICS...), so 128
 * leaves a comment line for each.  2^20 lines of "CPU 0xMSR 0xVALUE" are
 * ~20 MiB, inside the 64 MiB the file may have; both views' arrays for
 * them are allocated only for a file that big.
 */
#define MSR_STATE_CPUS_MAX 8192u
#define MSR_STATE_LINES_MAX (MSR_STATE_CPUS_MAX * 128u)

/*
 * MSR_STATE_FILE_MAX - the input cap of a state file (doc/safety.md "Bad
 * input"): 64 MiB, three times what MSR_STATE_LINES_MAX lines of "CPU
 * 0xMSR 0xVALUE" take (~20 MiB; a real one lists a few registers of a few
 * CPUs: t/data's and doc/state-file.md's hold under 1 KiB).  A larger file
 * is not read (msr_open: -EINVAL, "N bytes, over the cap of M bytes for a
 * state file"); a rewrite grows it at most to this size.
 */
#define MSR_STATE_FILE_MAX (64u << 20)

struct msr_dev; /* opaque: one open backend */

/* What an access did (struct msr_fault). */
enum msr_op {
	MSR_OP_OPEN = 1,  /* msr_open_cpu (msr is 0) */
	MSR_OP_READ,
	MSR_OP_WRITE,
};

/* One failed access, for a message that names it: "cannot write
 * IA32_PERF_GLOBAL_STATUS_RESET (0x390) on cpu 0: ...". */
struct msr_fault {
	enum msr_op op;
	unsigned cpu;     /* OS CPU number */
	uint32_t msr;     /* MSR index; 0 for MSR_OP_OPEN */
	uint64_t value;   /* the value a write tried; 0 otherwise */
	int err;          /* the -errno the access returned */
};

/* Backend operations.  @ctx is the backend's private state. */
struct msr_ops {
	const char *name; /* "device" or "state" */
	int (*open)(void *ctx, unsigned cpu);  /* 0 or -errno; idempotent */
	int (*read)(void *ctx, unsigned cpu, uint32_t msr, uint64_t *val);
	int (*write)(void *ctx, unsigned cpu, uint32_t msr, uint64_t val);
	void (*close)(void *ctx); /* closes every CPU and frees ctx */
};


/* msr_close - close every CPU and free @dev (NULL is fine). */
void msr_close(struct msr_dev *dev);

/*
 * msr_open_cpu - open (or check) the backend for one OS CPU.
 * Returns 0 or -errno as listed at the top of this file.
 */
int msr_open_cpu(struct msr_dev *dev, unsigned cpu);

/*
 * msr_read - read one MSR of one logical CPU.
 * @cpu: OS logical CPU number.  @msr: MSR index (SDM Vol. 4).
 * Returns 0 and stores the 64-bit value, or -errno (see top of file).
 */
int msr_read(struct msr_dev *dev, unsigned cpu, uint32_t msr, uint64_t *val);

/*
 * msr_write - write one MSR of one logical CPU.
 * Returns 0, or -errno (see top of file); the state backend has persisted the
 * value when 0 is returned.
 */
int msr_write(struct msr_dev *dev, unsigned cpu, uint32_t msr, uint64_t val);

/* ------------------------------------------------------- the write gate */

/*
 * No write reaches a backend unless its register was saved first: every
 * handle msr_open() gives is gated, and msr_write() through it is refused
 * with -ENOLCK (nothing written, the trace and msr_last_fault name it)
 * unless the handle's gate holds (@cpu, @msr).  The gate is the run's
 * journal (msr/journal/journal.h journal_set_dev: every register it has saved on
 * disk, and IA32_PERF_GLOBAL_STATUS_RESET of a CPU whose counter controls
 * it saved), or a loaded journal while `pmu restore` writes it back
 * (journal_restore_data).  So the one way to program the PMU is a guarded
 * run (msr/guard/guard.h), by construction: a code path that forgets its journal
 * fails its first write instead of leaving the machine changed.
 * @fn is called on every write, also from a signal handler: it must be
 * async-signal-safe and must not call into @dev.
 */
typedef bool (*msr_gate_fn)(const void *arg, unsigned cpu, uint32_t msr);

/*
 * msr_gate_set - let writes through @dev pass when @fn(@arg, cpu, msr) is
 * true; @fn NULL shuts the gate (every write refused).  @prev_fn/@prev_arg
 * (may be NULL) receive the gate before, to put it back.
 */
void msr_gate_set(struct msr_dev *dev, msr_gate_fn fn, const void *arg, msr_gate_fn *prev_fn,
		  const void **prev_arg);

/*
 * msr_ungate - no gate on @dev: for a handle that is not baretma's
 * measuring path: the simulated kernel's (bench/source/perf_sim.c: perf_event
 * writes what the kernel writes), a test's own, the hidden test kernels
 * that play another program.  Only the state-file and simulator backends
 * (they write no hardware): -EPERM for the device backend.
 */
int msr_ungate(struct msr_dev *dev);

/*
 * msr_gate_refused - the (cpu, msr) pairs @dev's gate refused since
 * msr_open (a count; the last one is msr_last_fault's when nothing failed
 * since).  0 on a run that journaled every write first.
 */
unsigned long msr_gate_refused(const struct msr_dev *dev);

/*
 * msr_last_fault - the last access through @dev that failed (msr_open_cpu,
 * msr_read, msr_write), so that the caller of a library function that
 * returned that access's -errno (pmu_program, pmu_check_owner,
 * journal_restore, ...) can say which register of which CPU failed.  A
 * function that goes on after a failure (a restore tries every register)
 * leaves its last failure here; compare @f->err with the error returned.
 * Returns true and fills @f, or false when no access has failed since
 * msr_open() or msr_fault_clear().  Async-signal-safe.
 */
bool msr_last_fault(const struct msr_dev *dev, struct msr_fault *f);

/* msr_fault_clear - forget the last failed access (NULL is fine). */
void msr_fault_clear(struct msr_dev *dev);

/* msr_backend_name - "device", "state" or "sim". */
const char *msr_backend_name(const struct msr_dev *dev);

/*
 * msr_describe - the path the backend uses for @cpu (device node path, or
 * the state file), for messages.  Writes at most @n bytes into @buf; a
 * path that does not fit is cut and ends in "...".
 */
void msr_describe(const struct msr_dev *dev, unsigned cpu, char *buf, size_t n);

/*
 * msr_last_error - a human-readable detail for the calling thread's last
 * msr_open() failure (e.g. "state file 'x': line 3: expected 'CPU 0xMSR
 * 0xVALUE'"), or "".  Per thread (_Thread_local): valid until the
 * thread's next msr_open().
 */
const char *msr_last_error(void);

/*
 * msr_remedy - the remedy for an MSR access error, for the CLI:
 * -ENOENT "try: modprobe msr", -EACCES/-EPERM "run as root with
 * CAP_SYS_RAWIO; check kernel lockdown and msr.allow_writes", -EIO "this
 * register does not exist on this CPU", -ENXIO "the CPU is offline or
 * absent".  Returns "" for other errors.
 */
const char *msr_remedy(int err);

/*
 * msr_trace_saved - "sv CPU 0xMSR 0xSAVED" in @dev's trace (nothing
 * without one): the journal calls it when a register's value is on disk,
 * before the register may be written.  Async-signal-safe.
 */
void msr_trace_saved(const struct msr_dev *dev, unsigned cpu, uint32_t msr, uint64_t saved);

/*
 * msr_trace_on_loss - @hook (NULL: none) is called once, with the errno,
 * when the first line of $BARETMA_MSR_TRACE cannot be written whole.  It
 * may run in a signal handler (the restore path traces too): it must be
 * async-signal-safe.
 */
void msr_trace_on_loss(void (*hook)(int err));

/*
 * msr_trace_lost - the lines of $BARETMA_MSR_TRACE this process could not
 * write: their count in *@lost and the number of the first (1 = the
 * process's first line) in *@first.  Returns the first loss's -errno
 * (-ENOSPC, -EDQUOT, -EFBIG, -EIO; -ENOSPC for a short write), or 0 when
 * every line was written.  Async-signal-safe.
 */
int msr_trace_lost(unsigned long *lost, unsigned long *first);

/* msr_errno_name - "ENOSPC" for ENOSPC, the errnos an access or a trace
 * write gives; NULL for another.  Async-signal-safe. */
const char *msr_errno_name(int err);

/* msr_backend_ctx - @dev's backend context when its backend is @ops, else
 * NULL (for a backend's own accessors: msr_sim_profile_of). */
void *msr_backend_ctx(const struct msr_dev *dev, const struct msr_ops *ops);

/*
 * The backend table (msr/open/msr_backends.c), hwloc's hwloc_static_components[]
 * as the model: msr_open() takes the first entry whose @prefix starts the
 * spec and hands it the rest; the last entry (@prefix NULL) takes every
 * other spec whole.  Adding a backend is its own file and one entry.
 */
struct msr_backend {
	const char *prefix;   /* "state:", "sim:"; NULL: any other spec (the last) */
	const struct msr_ops *ops;
	/* The context of @arg (the spec after the prefix): 0 or -errno, and then
	 * a one-line detail in *@err (on the heap, cpu/text.h: the caller frees
	 * it; msr_last_error), quoting @arg escaped.
	 * @cpuid_dump: the machine a simulated backend models (msr_open_on);
	 * NULL: $BARETMA_CPUID_DUMP, else the live CPU.  Others ignore it. */
	int (*ctx_new)(const char *arg, const char *cpuid_dump, void **ctx, char **err);
	bool hardware;        /* reaches the CPUs' registers: never ungated (msr_ungate) */
	bool template;        /* @arg is a path template: messages name each CPU's node */
	const char *what;     /* what it is for, one line (man baretma "ENVIRONMENT") */
};

/*
 * msr_dev_open - a handle on backend @b (an entry of the table, msr/open/
 * msr_backends.c) for @arg, the spec after @b's prefix: @b's context, made
 * by @b->ctx_new for the machine of @cpuid_dump (as msr_open_on), and the
 * $BARETMA_MSR_TRACE trace.  msr_open_on (msr/open/msr_open.h) chooses @b
 * from a spec's prefix and calls this after its checks; nothing else
 * should: a caller that picks an entry skips them.  Returns as
 * msr_open_on; a failure's message is msr_last_error's.
 */
int msr_dev_open(const struct msr_backend *b, const char *arg, const char *cpuid_dump,
		 struct msr_dev **out);

/* msr_error_setf - make printf(@fmt, ...) this thread's msr_last_error
 * (@fmt NULL: none), freeing the one before; out of memory, none: for
 * msr/open's refusals, kept as this file's are. */
void msr_error_setf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Backends, for tests that want to build a handle directly. */
extern const struct msr_ops msr_device_ops;
extern const struct msr_ops msr_state_ops;
/* Create backend contexts: 0 or -errno (see msr_open). */
int msr_device_ctx_new(const char *template, void **ctx);
/* msr_state_ctx_new: @err NULL, or the message on the heap (free it). */
int msr_state_ctx_new(const char *file, void **ctx, char **err);

/*
 * msr_state_peek - register @msr of CPU @cpu of a state-file context as
 * the context last read or wrote the file, without looking at the file
 * again (no system call: msr_state_ops.read stat()s the file first).  For
 * a caller that refreshed the context (msr_state_ops.open) at the start
 * of an access it serialises with its own lock: the simulator, whose one
 * access reads many registers.  Returns 0, -ENXIO (no such CPU), -EIO (no
 * such register).  Async-signal-safe.
 */
int msr_state_peek(void *ctx, unsigned cpu, uint32_t msr, uint64_t *val);

/*
 * msr_state_cpu_hash - a fingerprint (64-bit FNV-1a) of every register of
 * CPU @cpu, numbers and values, as msr_state_peek sees them: two views of
 * the file give the same value when that CPU's registers are the same (a
 * change elsewhere in the file, or in its comments, does not change it).
 * No system call; async-signal-safe.
 */
uint64_t msr_state_cpu_hash(void *ctx, unsigned cpu);

/*
 * Which nodes a device context uses: a check of the node's stat (before
 * open, on the name, and after open, on the descriptor) for @cpu, 0 or
 * -errno.  msr_device_ctx_new() uses msr_device_node_ok();
 * msr_device_ctx_new_checked() takes another one: only for tests that use
 * a regular file to check the offset = MSR index mapping, no msr device
 * being there (NULL: msr_device_node_ok).
 */
typedef int (*msr_node_check)(const struct stat *st, unsigned cpu);
int msr_device_ctx_new_checked(const char *template, msr_node_check check, void **ctx);

/*
 * msr_device_node_check - whether @st is the MSR device node of @cpu: a
 * character device of major MSR_DEV_MAJOR, or of @msr_safe_major (msr_safe's
 * dynamic major; <= 0: none), whose minor is @cpu (both drivers take the
 * CPU from the minor: msr.c msr_open iminor(), msr-safe msr_entry.c).
 * Returns 0 or -ENODEV.  Pure.
 */
int msr_device_node_check(const struct stat *st, unsigned cpu, int msr_safe_major);

/*
 * msr_device_node_ok - msr_device_node_check() with msr_safe's major read
 * from /proc/devices (only when the node is a character device that is
 * not the msr driver's).  0 or -ENODEV.  Async-signal-safe.
 */
int msr_device_node_ok(const struct stat *st, unsigned cpu);

/*
 * msr_chrdev_major - the major that the character driver registered as
 * @name, from @len bytes of /proc/devices text ("Character devices:" then
 * "%3d %s" lines, a blank line, "Block devices:": fs/proc/devices.c).
 * Returns the major, or -ENOENT when @name is not a character driver
 * there.  Pure, async-signal-safe.
 */
int msr_chrdev_major(const char *text, size_t len, const char *name);

/*
 * msr_device_path - expand a device path template for @cpu ("%u" = the CPU,
 * "%%" = '%'), async-signal-safe.  Returns 0, -EINVAL (not exactly one %u,
 * or another conversion), -ENAMETOOLONG (does not fit in @n bytes).
 */
int msr_device_path(const char *template, unsigned cpu, char *buf, size_t n);

#endif
