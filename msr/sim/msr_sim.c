/*
 * msr/sim/msr_sim.c - the simulated PMU backend "sim:PROFILE" (msr/sim/msr_sim.h
 * says what it models and from which text): the machine's lock, the
 * accesses, opening a machine and the registry of machines.  The model
 * itself - the register store (in memory, or the state-file backend for
 * `state FILE`) and, per CPU, the counting of the fixed counters,
 * IA32_PERF_METRICS and the overflow bits of IA32_PERF_GLOBAL_STATUS - is
 * msr/sim/msr_sim_model.c (msr/sim/msr_sim_int.h between the two).
 *
 * Accesses are async-signal-safe, as msr/access/msr.h requires of every backend
 * (the restore path runs from a signal handler): no allocation, no stdio,
 * no mutex; clock_gettime(CLOCK_MONOTONIC) and the calls below only.
 * Opening and closing take a process-wide mutex (the registry of simulated
 * machines), never from a handler.
 *
 * Threads.  One simulated machine serves every msr_open of its profile in
 * the process (the registry), so sessions on several threads share it:
 * its CPUs' counters, and with `state FILE` one state-file context, whose
 * reload and rewrite (FILE.tmp, rename) are not re-entrant, and one
 * descriptor of the machine file.  Each access (open of a CPU, read,
 * write) therefore holds the machine's lock, a spin lock (an atomic flag)
 * taken with every signal blocked in the calling thread, and inside it,
 * with `state FILE`, the machine file's flock that serialises the
 * processes (msr/sim/msr_sim_shared.c):
 *   - blocking first means no handler can run on the thread while it
 *     holds the lock, so the journal's restore from a handler
 *     (msr/journal/journal.h) never waits for the lock its own thread holds: no
 *     self-deadlock, as a pthread mutex taken from a handler would risk;
 *   - a handler on another thread waits for the holder, which runs on and
 *     lets go within one access (the holder waits on nothing else while
 *     holding it but the machine file's flock, whose holder in another
 *     process lets go within one access too, or dies and so lets go);
 *   - pthread_sigmask, atomics and nanosleep are async-signal-safe (POSIX
 *     2017 XSH 2.4.3), so the access stays so.
 * One object per CPU instead would not do: a session's restore from
 * another thread's handler writes that CPU's registers too, and the state
 * file is one file for all CPUs.  A synchronous signal raised inside an
 * access (a fault in this file) finds it blocked and kills the process
 * at once: the journal then stays for `baretma pmu restore`.  After
 * fork() in a threaded host, a child must not use a simulated machine it
 * inherited (another thread may have held its lock at the fork).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cpu/cpu.h"
#include "cpu/escape.h"
#include "cpu/text.h"
#include "cpu/perf_caps.h"
#include "cpu/userfile.h"
#include "msr/regs/amd_regs.h"
#include "msr/regs/intel_regs.h"
#include "msr/sim/msr_sim.h"
#include "msr/sim/msr_sim_int.h"

/* The input cap of a simulator profile (doc/safety.md "Bad input"): 64 KiB, 90
 * times the longest real one (t/data/sim-two-workloads.profile, 730
 * bytes: every key the simulator knows, with a comment each, is under
 * 4 KiB).  A larger one is not read: malformed (-EINVAL, exit 65). */
#define PROFILE_MAX (64u * 1024u)

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sim *registry;

/* -------------------------------------------------------------- lock */

/* Take @s's lock with every signal blocked (the header says why);
 * @old receives the thread's mask for sim_unlock.  Async-signal-safe. */
static void sim_lock(struct sim *s, sigset_t *old)
{
	static const struct timespec nap = { 0, 1000 };
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, old);
	for (unsigned spins = 0; atomic_flag_test_and_set_explicit(&s->busy, memory_order_acquire);
	     spins++)
		if (spins >= 100)
			nanosleep(&nap, NULL); /* the holder is in a system call */
}

static void sim_unlock(struct sim *s, const sigset_t *old)
{
	atomic_flag_clear_explicit(&s->busy, memory_order_release);
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/*
 * One call into the simulator for @cpu: the locks (this process's, then
 * the machine file's: msr/sim/msr_sim_shared.c), the CPU's record read and
 * started, and the clock.  The simulated CPU counts the caller's time,
 * not the simulator's own: the time a call spends waiting for the locks,
 * blocking signals and in its store (a state file's rewrite, the machine
 * file's record) is added to the CPU's skip_ns, as a real CPU's cycles do
 * not include a simulator's.  The part after the lock is let go
 * (restoring the signal mask) is the calling thread's to carry to its
 * next call on that CPU.  A handler's call in between takes the carry or
 * drops it: a few hundred nanoseconds, once.  A CPU started by this call
 * starts its clock now: the wait before it is nobody's.
 */
struct sim_call {
	sigset_t old;
	struct sim_cpu *c;          /* NULL: not a CPU of the machine */
	unsigned cpu;
	double t_in;
	bool locked;                /* the machine file's lock is held */
	bool loaded;                /* the CPU's record is read: write it back */
};

static _Thread_local struct {
	const struct sim_cpu *c;
	double ns;
} carry_ns;

/* 0, or why the CPU cannot be reached: -ENXIO, the state file's -errno,
 * the machine file's. */
static int call_enter(struct sim *s, unsigned cpu, struct sim_call *k)
{
	double pending;
	int rc;

	k->t_in = sim_mono_ns();
	k->cpu = cpu;
	k->loaded = false;
	sim_lock(s, &k->old);
	rc = sim_shared_lock(s);
	k->locked = !rc;
	s->now_ns = sim_mono_ns();
	k->c = cpu < s->ncpus ? &s->cpus[cpu] : NULL;
	pending = s->now_ns - k->t_in + (carry_ns.c == k->c ? carry_ns.ns : 0);
	carry_ns.c = NULL;
	if (!rc)
		rc = sim_shared_load(s, cpu);
	if (!rc && k->c->m.magic == SIM_LIVE_MAGIC)
		k->c->m.skip_ns += pending;
	if (!rc)
		rc = sim_start_cpu(s, cpu);
	k->loaded = !rc;
	return rc;
}

/* The record written back and the locks let go: @rc, or the machine
 * file's error where @rc is 0. */
static int call_leave(struct sim *s, struct sim_call *k, int rc)
{
	double out = sim_mono_ns();

	if (k->loaded) {
		int st;

		k->c->m.skip_ns += out - s->now_ns;
		st = sim_shared_store(s, k->cpu);
		rc = rc ? rc : st;
	}
	if (k->locked)
		sim_shared_unlock(s);
	sim_unlock(s, &k->old);
	carry_ns.ns = sim_mono_ns() - out;
	carry_ns.c = k->c;
	return rc;
}

/* ----------------------------------------------------------------- ops */

static int sim_open_cpu(void *ctx, unsigned cpu)
{
	struct sim *s = ctx;
	struct sim_call k;

	return call_leave(s, &k, call_enter(s, cpu, &k));
}

/* IA32_PERF_GLOBAL_INUSE: bit i = IA32_PERFEVTSELi[7:0] != 0, bit 32+i =
 * the fixed control field of FCi enabled (KVM's "Add MSR_CORE_PERF_GLOBAL_INUSE
 * emulation", quoting the SDM; Intel PCM PMUinUse). */
static uint64_t inuse(struct sim *s, unsigned cpu)
{
	const struct cpu_kind *k = s->cpus[cpu].kind;
	uint64_t v = 0, sel, fcc = 0;

	for (unsigned i = 0; i < 32; i++)
		if ((k->gp_mask & (1u << i)) && !sim_store_read(s, cpu, IA32_PERFEVTSEL0 + i, &sel) &&
		    (sel & PERFEVTSEL_EVENT_MASK))
			v |= 1ull << i;
	sim_store_read(s, cpu, IA32_FIXED_CTR_CTRL, &fcc);
	for (unsigned i = 0; i < SIM_FIXED; i++)
		if (sim_has_fixed(k, i) && (fcc >> FIXED_CTR_CTRL_SHIFT(i) & 3))
			v |= 1ull << GLOBAL_FIXED_BIT(i);
	return v;
}

/* One access (call_enter started the CPU): the clock ticked, the counters
 * brought up to date. */
static int enter(struct sim *s, unsigned cpu)
{
	int rc = sim_start_cpu(s, cpu);

	if (rc)
		return rc;
	s->cpus[cpu].accesses++;
	sim_advance(s, cpu, 0);
	return 0;
}

static int read_locked(struct sim *s, unsigned cpu, uint32_t msr, uint64_t *val)
{
	struct sim_cpu *c;
	uint64_t stored;
	bool full;
	int x, rc = enter(s, cpu);

	if (rc)
		return rc;
	c = &s->cpus[cpu];
	if (msr == SIM_MSR_ORDER_ERRORS) {
		*val = c->m.order_errors;
		return 0;
	}
	if ((rc = sim_store_read(s, cpu, msr, &stored)))
		return rc; /* not a register of this CPU: #GP, -EIO */
	if ((x = sim_gp_counter(c, msr, &full)) >= 0) {
		*val = c->m.pmc[x];
	} else if (c->amd) {
		*val = msr == AMD_PERF_CNTR_GLOBAL_STATUS ? stored | c->m.status : stored;
	} else if (msr >= IA32_FIXED_CTR0 && msr < IA32_FIXED_CTR0 + SIM_FIXED) {
		*val = c->m.fc[msr - IA32_FIXED_CTR0];
	} else if (msr == IA32_PERF_METRICS) {
		*val = sim_metrics_value(s, c);
		if ((s->p.faults & SIM_FAULT_OVERFLOW_EVERY) &&
		    ++c->m.met_reads % s->p.overflow_every == 0)
			c->m.status |= GLOBAL_STATUS_OVF_PERF_METRICS;
	} else if (msr == IA32_PERF_GLOBAL_STATUS) {
		*val = stored | c->m.status;
	} else if (msr == IA32_PERF_GLOBAL_INUSE) {
		*val = inuse(s, cpu);
	} else {
		*val = stored;
	}
	return 0;
}

/* Write the counters' values to the store before a control changes, so
 * that a `state FILE` shows what they counted. */
static void fold(struct sim *s, unsigned cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];

	for (unsigned i = 0; i < SIM_FIXED && !c->amd; i++)
		if (sim_has_fixed(c->kind, i))
			sim_store_update(s, cpu, IA32_FIXED_CTR0 + i, c->m.fc[i]);
	sim_gp_fold(s, cpu);
}

/*
 * A write to general-purpose counter @x: through IA32_A_PMCx (or AMD's
 * PERF_CTRx) at full width, a value wider than the counter a #GP (-EIO:
 * KVM's pmu_intel.c models the same check; AMD's PERF_CTR[63:48] are
 * reserved and taken as 0, as the kernel masks its writes with
 * cntval_mask); through IA32_PMCx bits 31:0 sign-extended to the width
 * (linux arch/x86/kvm/vmx/pmu_intel.c intel_pmu_set_msr).
 */
static int write_gp(struct sim *s, unsigned cpu, unsigned x, bool full, uint64_t val)
{
	struct sim_cpu *c = &s->cpus[cpu];
	unsigned bits = sim_gp_bits(c);
	uint64_t max = (1ull << bits) - 1;

	if (!full)
		val = (val & 0x80000000ull) ? (val | ~0xffffffffull) : (val & 0xffffffffull);
	else if (!c->amd && (val & ~max))
		return -EIO;
	c->m.pmc[x] = val & max;
	c->m.pcarry[x] = 0;
	return 0;
}

/* AMD's status registers (msr/regs/amd_regs.h): GLOBAL_STATUS read-only,
 * STATUS_CLR clears and STATUS_SET sets its bits; 1: not one of them. */
static int write_amd_status(struct sim *s, unsigned cpu, uint32_t msr, uint64_t val)
{
	struct sim_cpu *c = &s->cpus[cpu];
	uint64_t v;

	if (msr == AMD_PERF_CNTR_GLOBAL_STATUS)
		return sim_store_read(s, cpu, msr, &v) ?: -EIO;
	if (msr == AMD_PERF_CNTR_GLOBAL_STATUS_CLR)
		c->m.status &= ~val;
	else if (msr == AMD_PERF_CNTR_GLOBAL_STATUS_SET)
		c->m.status |= val;
	else
		return 1;
	return sim_store_write(s, cpu, msr, val);
}

/*
 * A write to IA32_PERF_METRICS.  The kernel writes fixed counter 3 first,
 * then PERF_METRICS (linux arch/x86/events/intel/core.c
 * icl_set_topdown_event_period: "The fixed counter 3 has to be written
 * before the PERF_METRICS"): the metrics are fractions
 * of FC3's slots, so they are written together with their base.  A write
 * while FC3 has counted since it was last written breaks that order: the
 * simulator counts it in SIM_MSR_ORDER_ERRORS (and in the state file when
 * the file lists that register), and the write takes effect.
 */
static void write_metrics(struct sim *s, unsigned cpu, uint64_t val)
{
	struct sim_cpu *c = &s->cpus[cpu];

	if (!c->m.fc3_written) {
		c->m.order_errors++;
		sim_store_write(s, cpu, SIM_MSR_ORDER_ERRORS, c->m.order_errors); /* -EIO: not listed */
	}
	if (!val && (s->p.faults & SIM_FAULT_METRICS_NOT_CLEARED))
		return;
	c->m.met_access = c->m.met_work = 0;
	c->m.met_v0 = val;
	c->m.met_w0 = val ? c->m.fc[FIXED_CTR3_IDX] : 0;
}

static int write_locked(struct sim *s, unsigned cpu, uint32_t msr, uint64_t val)
{
	struct sim_cpu *c;
	bool full;
	int x, rc = enter(s, cpu);

	if (rc)
		return rc;
	c = &s->cpus[cpu];
	if (msr == SIM_MSR_ORDER_ERRORS)
		return -EIO; /* read-only */
	if (!c->amd && (msr == IA32_PERF_GLOBAL_STATUS || msr == IA32_PERF_GLOBAL_INUSE)) {
		uint64_t v;

		/* read-only: a write #GPs (linux arch/x86/kvm/pmu.c kvm_pmu_set_msr) */
		return sim_store_read(s, cpu, msr, &v) ?: -EIO;
	}
	if (c->amd && (rc = write_amd_status(s, cpu, msr, val)) <= 0)
		return rc;
	if (sim_gp_control(c, msr))
		fold(s, cpu);
	if ((x = sim_gp_counter(c, msr, &full)) >= 0) {
		uint64_t v;

		if ((rc = sim_store_read(s, cpu, msr, &v)))
			return rc;
		if ((rc = write_gp(s, cpu, (unsigned)x, full, val)))
			return rc;
		val = c->m.pmc[x];
	}
	if ((rc = sim_store_write(s, cpu, msr, val)))
		return rc;
	if (c->amd) {
		/* plain registers: the selects, the global control */
	} else if (msr >= IA32_FIXED_CTR0 && msr < IA32_FIXED_CTR0 + SIM_FIXED) {
		c->m.fc[msr - IA32_FIXED_CTR0] = val & ((1ull << sim_fixed_bits(s)) - 1);
		c->m.carry[msr - IA32_FIXED_CTR0] = 0;
		if (msr == IA32_FIXED_CTR3)
			c->m.fc3_written = true;
	} else if (msr == IA32_PERF_METRICS) {
		write_metrics(s, cpu, val);
	} else if (msr == IA32_PERF_GLOBAL_STATUS_RESET) {
		c->m.status &= ~val;
	} else if (msr == IA32_PERF_GLOBAL_STATUS_SET) {
		c->m.status |= val;
	}
	return 0;
}

/* The accesses, each under the machine's lock. */
static int sim_read(void *ctx, unsigned cpu, uint32_t msr, uint64_t *val)
{
	struct sim *s = ctx;
	struct sim_call k;
	int rc = call_enter(s, cpu, &k);

	if (!rc)
		rc = read_locked(s, cpu, msr, val);
	return call_leave(s, &k, rc);
}

static int sim_write(void *ctx, unsigned cpu, uint32_t msr, uint64_t val)
{
	struct sim *s = ctx;
	struct sim_call k;
	int rc = call_enter(s, cpu, &k);

	if (!rc)
		rc = write_locked(s, cpu, msr, val);
	return call_leave(s, &k, rc);
}

int msr_sim_work(const struct msr_dev *dev, unsigned cpu, uint64_t cycles)
{
	struct sim *s = msr_backend_ctx(dev, &msr_sim_ops);
	struct sim_call k;
	int rc;

	if (!s)
		return -EINVAL;
	if (!(rc = call_enter(s, cpu, &k)))
		sim_advance(s, cpu, (double)cycles);
	return call_leave(s, &k, rc);
}

/*
 * RDPMC, simulated: the register an ECX names (linux
 * arch/x86/include/asm/perf_event.h INTEL_PMC_FIXED_RDPMC_BASE,
 * INTEL_PMC_FIXED_RDPMC_METRICS): (1<<30)|i fixed counter i, 1<<29
 * IA32_PERF_METRICS, i general-purpose counter i (Intel IA32_PMCi, AMD
 * PERF_CTRi); 0, or -EIO for any other (the #GP of an invalid index).
 */
static int rdpmc_msr(const struct sim_cpu *c, uint32_t ecx, uint32_t *msr)
{
	if (c->amd) {
		if (ecx >= AMD_GP_MAX)
			return -EIO;
		*msr = AMD_PERF_CTR(ecx);
	} else if (ecx & RDPMC_FIXED_BASE) {
		if ((ecx & ~RDPMC_FIXED_BASE) >= SIM_FIXED)
			return -EIO;
		*msr = IA32_FIXED_CTR0 + (ecx & ~RDPMC_FIXED_BASE);
	} else if (ecx == RDPMC_PERF_METRICS) {
		*msr = IA32_PERF_METRICS;
	} else {
		if (ecx >= SIM_GP)
			return -EIO;
		*msr = IA32_PMC0 + ecx;
	}
	return 0;
}

/*
 * RDPMC metrics-clear mode (linux commit 0e45818ec189
 * "perf/x86/intel: Support RDPMC metrics clear mode", v6.14): enumerated
 * by IA32_PERF_CAPABILITIES[19], on while IA32_FIXED_CTR_CTRL bit 14 (FC3's
 * METRICS_CLEAR_EN, INTEL_FIXED_3_METRICS_CLEAR) is set; then an RDPMC of
 * PERF_METRICS clears PERF_METRICS and fixed counter 3 "after the read is
 * performed" (the commit's wording): the value returned is the one before
 * the clear.  Whether an RDMSR at CPL 0 clears as well is not documented:
 * the simulator takes the safe reading, only an RDPMC clears (baretma reads
 * by RDPMC at CPL 3, by RDMSR through the driver).
 */
static bool metrics_clear_on(struct sim *s, unsigned cpu)
{
	uint64_t caps = 0, fcc = 0;

	return !sim_store_read(s, cpu, IA32_PERF_CAPABILITIES, &caps) &&
	       (caps & PERF_CAP_RDPMC_METRICS_CLEAR) &&
	       !sim_store_read(s, cpu, IA32_FIXED_CTR_CTRL, &fcc) &&
	       (fcc & (FIXED_CTR_CTRL_ANYTHR << FIXED_CTR3_FIELD_SHIFT));
}

int msr_sim_rdpmc(const struct msr_dev *dev, unsigned cpu, uint32_t ecx, uint64_t *val)
{
	struct sim *s = msr_backend_ctx(dev, &msr_sim_ops);
	struct sim_call k;
	uint32_t msr;
	int rc;

	if (!s)
		return -EINVAL;
	rc = call_enter(s, cpu, &k);
	if (!rc)
		rc = rdpmc_msr(&s->cpus[cpu], ecx, &msr);
	if (!rc)
		rc = read_locked(s, cpu, msr, val);
	if (!rc && msr == IA32_PERF_METRICS && metrics_clear_on(s, cpu)) {
		/* read, then clear: both count on from 0 */
		struct sim_cpu *c = &s->cpus[cpu];

		c->m.fc[FIXED_CTR3_IDX] = 0;
		c->m.carry[FIXED_CTR3_IDX] = 0;
		c->m.fc3_written = true;
		c->m.met_access = c->m.met_work = 0;
		c->m.met_v0 = c->m.met_w0 = 0;
	}
	return call_leave(s, &k, rc);
}

static void sim_free(struct sim *s)
{
	if (!s)
		return;
	if (s->state)
		msr_state_ops.close(s->state);
	if (s->mfd >= 0)
		close(s->mfd);
	free(s->mpath);
	free(s->cpus);
	free(s->path);
	free(s->dump);
	free(s);
}

static void sim_close(void *ctx)
{
	struct sim *s = ctx, **pp;

	pthread_mutex_lock(&registry_lock);
	if (--s->refs == 0) {
		for (pp = &registry; *pp && *pp != s; pp = &(*pp)->next)
			;
		if (*pp)
			*pp = s->next;
		sim_free(s);
	}
	pthread_mutex_unlock(&registry_lock);
}

const struct msr_ops msr_sim_ops = {
	.name = "sim",
	.open = sim_open_cpu,
	.read = sim_read,
	.write = sim_write,
	.close = sim_close,
};

/* ----------------------------------------------------------- opening */

static int load_profile(struct sim *s, const char *file, char **err)
{
	char *buf = NULL, *shown = esc_strdup(file), why[400];
	int fd = userfile_open_read(AT_FDCWD, file, 0), rc; /* a FIFO would block */
	const char *more = "";
	size_t len = 0;
	uint64_t size = 0;

	rc = !shown ? -ENOMEM : fd < 0 ? fd : userfile_read_all(fd, PROFILE_MAX, &buf, &len,
								 &size);
	if (!rc) {
		rc = msr_sim_profile_parse(buf, len, file, &s->p, err);
	} else if (shown) {
		if (rc == -EFBIG) {
			userfile_cap_text(why, sizeof(why), size, PROFILE_MAX, "a simulator profile");
			more = " (a profile is a few 'key value' lines: doc/simulator.md, \"The profile\")";
			rc = -EINVAL; /* bad data, as a malformed one */
		} else if (rc == -EACCES) {
			userfile_read_denied(why, sizeof(why));
		} else {
			snprintf(why, sizeof(why), "%s", rc == -EINVAL ? USERFILE_NOT_REGULAR :
				 strerror(-rc));
		}
		text_setf(err, "cannot read profile '%s': %s%s", shown, why, more);
	}
	if (fd >= 0)
		close(fd);
	free(shown);
	free(buf);
	return rc;
}

/* The machine: the dump s->dump, or the live CPU (cpu/cpu.h). */
static int identify(struct sim *s, char **err)
{
	struct cpu_source *src = cpu_source_from_env(s->dump);
	int rc;

	if (!src) {
		/* a dump that cannot be opened is missing input (-ENOENT,
		 * -EACCES: exit 66, 77 as the CLI's own dump), not bad data */
		int gone = s->dump && (errno == ENOENT || errno == ENOTDIR || errno == EACCES) ?
			   -errno : -EINVAL;
		char *shown = s->dump ? esc_strdup(s->dump) : NULL;

		if (s->dump && !shown)
			return -ENOMEM;
		if (s->dump)
			text_setf(err, "simulated PMU: cannot load CPUID dump '%s': %s "
				 "(the machine it models: --cpuid-dump or BARETMA_CPUID_DUMP)",
				 shown, cpu_source_error());
		free(shown);
		if (!s->dump)
			text_setf(err, "simulated PMU: cannot read CPUID: %s",
				 cpu_source_error());
		return gone;
	}
	rc = cpu_info_identify(src, NULL, &s->ci);
	s->ncpus = cpu_source_ncpus(src);
	cpu_source_free(src);
	if (rc)
		text_setf(err, "simulated PMU: cannot identify the CPU: %s", strerror(-rc));
	return rc ? -EINVAL : 0;
}

/*
 * The profile's `state FILE`: its registers, or a message that names the
 * profile, the file and what is wrong with it - missing, unreadable,
 * malformed (msr_state_ctx_new's line), empty, or listing none of the
 * machine's CPUs (then every access would fail "CPU offline or absent").
 */
static int open_state(struct sim *s, const char *file, char **err)
{
	char *inner = NULL, *fshown = esc_strdup(file), *sshown = esc_strdup(s->p.state);
	unsigned listed = 0;
	struct stat st;
	int rc = fshown && sshown ? msr_state_ctx_new(s->p.state, &s->state, &inner) : -ENOMEM;

	if (rc && rc != -ENOMEM)
		text_setf(err, "simulated PMU '%s': `state` key: %s%s", fshown,
			  text_or_empty(inner), rc == -ENOENT ? " (create it: doc/state-file.md "
			  "has a template of one CPU's registers)" : "");
	for (unsigned cpu = 0; !rc && cpu < s->ncpus; cpu++)
		listed += msr_state_ops.open(s->state, cpu) == 0;
	if (rc || listed)
		goto out;
	rc = -EINVAL;
	if (stat(s->p.state, &st) == 0 && st.st_size == 0)
		text_setf(err, "simulated PMU '%s': its `state` file '%s' is empty: it "
			 "lists no register (give each CPU's registers, one 'CPU 0xMSR 0xVALUE' a "
			 "line: doc/state-file.md has a template)", fshown, sshown);
	else
		text_setf(err, "simulated PMU '%s': its `state` file '%s' lists no "
			 "register of the machine's CPUs 0-%u (give each CPU's registers, one 'CPU "
			 "0xMSR 0xVALUE' a line: doc/state-file.md has a template)", fshown,
			 sshown, s->ncpus ? s->ncpus - 1 : 0);
out:
	free(inner);
	free(fshown);
	free(sshown);
	return rc;
}

static int sim_new(const char *file, const char *dump, struct sim **out, char **err)
{
	struct sim *s = calloc(1, sizeof(*s));
	int rc;

	if (!s || !(s->path = strdup(file)) || (dump && !(s->dump = strdup(dump)))) {
		if (s)
			free(s->path);
		free(s);
		return -ENOMEM;
	}
	s->refs = 1;
	s->mfd = -1;
	atomic_flag_clear(&s->busy);
	if (!(rc = load_profile(s, file, err)) && !(rc = identify(s, err)) &&
	    s->p.state[0])
		rc = open_state(s, file, err);
	if (!rc && s->state)
		rc = sim_shared_name(s);
	if (!rc)
		rc = sim_make_cpus(s, err);
	if (rc)
		sim_free(s);
	else
		*out = s;
	return rc;
}

/* Does machine @s model the dump @dump (NULL: the live CPU)? */
static bool same_dump(const struct sim *s, const char *dump)
{
	return s->dump && dump ? !strcmp(s->dump, dump) : !s->dump && !dump;
}

int msr_sim_ctx_new(const char *file, const char *cpuid_dump, void **ctx, char **err)
{
	const char *dump = cpu_source_env_path(cpuid_dump);
	struct sim *s;
	int rc = 0;

	pthread_mutex_lock(&registry_lock);
	for (s = registry; s && (strcmp(s->path, file) || !same_dump(s, dump)); s = s->next)
		;
	if (s) {
		s->refs++;
	} else if (!(rc = sim_new(file, dump, &s, err))) {
		s->next = registry;
		registry = s;
	}
	pthread_mutex_unlock(&registry_lock);
	if (!rc)
		*ctx = s;
	return rc;
}
