/*
 * msr/msr_sim.c - the simulated PMU backend "sim:PROFILE" (msr/msr_sim.h
 * says what it models and from which text).  The registers are a store
 * (in memory, or the state-file backend for `state FILE`); on top of it,
 * per CPU, the counting of the fixed counters, IA32_PERF_METRICS and the
 * overflow bits of IA32_PERF_GLOBAL_STATUS.
 *
 * Accesses are async-signal-safe, as msr/msr.h requires of every backend
 * (the restore path runs from a signal handler): no allocation, no stdio,
 * no mutex; clock_gettime(CLOCK_MONOTONIC) and the calls below only.
 * Opening and closing take a process-wide mutex (the registry of simulated
 * machines), never from a handler.
 *
 * Threads.  One simulated machine serves every msr_open of its profile in
 * the process (the registry), so sessions on several threads share it:
 * its CPUs' counters, and with `state FILE` one state-file context, whose
 * reload and rewrite (FILE.tmp, rename) are not re-entrant.  Each access
 * (open of a CPU, read, write) therefore holds the machine's lock, a
 * spin lock (an atomic flag) taken with every signal blocked in the
 * calling thread:
 *   - blocking first means no handler can run on the thread while it
 *     holds the lock, so the journal's restore from a handler
 *     (msr/journal.h) never waits for the lock its own thread holds: no
 *     self-deadlock, as a pthread mutex taken from a handler would risk;
 *   - a handler on another thread waits for the holder, which runs on and
 *     lets go within one access (the holder never waits on anything
 *     else while holding it);
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

#include "cpu/cpu.h"
#include "cpu/userfile.h"
#include "msr/intel_regs.h"
#include "msr/msr_sim.h"

#define SIM_FIXED 4u       /* FC0..FC3 are modelled */
#define SIM_REGS_MAX 96u   /* one CPU's registers in the memory store */
#define PROFILE_MAX (64u * 1024u)

struct sim_reg {
	uint32_t msr;
	uint64_t val;
};

struct sim_cpu {
	const struct cpu_kind *kind; /* NULL: not a CPU of the machine */
	bool started;              /* counters loaded from the store */
	unsigned width;            /* slots per cycle */
	uint64_t accesses;
	uint64_t accesses_counted; /* accesses whose cycles are counted */
	double skip_ns;            /* time spent inside the simulator's calls on this
				    * CPU (its lock, its store): not counted */
	double t_last;             /* cycles of real time at the last update */
	uint64_t fc[SIM_FIXED];
	double carry[SIM_FIXED];   /* fractions of a count not yet counted */
	double met_access;         /* slots of accesses accumulated for PERF_METRICS
				    * since it was written */
	double met_work;           /* slots of work (real time, msr_sim_work) */
	uint64_t met_w0, met_v0;   /* a non-zero value written, and FC3 then */
	bool fc3_written;          /* FC3 holds what was written to it (or loaded):
				    * it has not counted since */
	uint64_t order_errors;     /* SIM_MSR_ORDER_ERRORS */
	uint64_t status;           /* GLOBAL_STATUS bits set by the model */
	uint64_t met_reads;        /* for fault overflow_every */
	uint64_t rng;              /* jitter state (splitmix64) */
	unsigned nregs;            /* memory store */
	struct sim_reg regs[SIM_REGS_MAX];
};

struct sim {
	struct sim *next;          /* the registry */
	unsigned refs;
	atomic_flag busy;          /* held through one access (sim_lock) */
	char *path;
	struct sim_profile p;
	struct cpu_info ci;
	void *state;               /* state-file context (`state FILE`), or NULL */
	double t0_ns;
	double now_ns;             /* CLOCK_MONOTONIC of the access under way (locked) */
	unsigned ncpus;
	struct sim_cpu *cpus;
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sim *registry;

/* ------------------------------------------------------------- clock */

static double mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* splitmix64 (Steele, Lea, Flood 2014): a seeded, reproducible jitter. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [-a, a]. */
static double jitter(uint64_t *s, double a)
{
	return a ? ((double)(rng_next(s) >> 11) / 9007199254740992.0 * 2 - 1) * a : 0;
}

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
 * One call into the simulator for @cpu: the lock, and the clock.  The
 * simulated CPU counts the caller's time, not the simulator's own: the
 * time a call spends waiting for the lock, blocking signals and in its
 * store (a state file's rewrite and fsync) is added to the CPU's skip_ns,
 * as a real CPU's cycles do not include a simulator's.  The part after
 * the lock is let go (restoring the signal mask) is the calling thread's
 * to carry to its next call on that CPU.  A handler's call in between
 * takes the carry or drops it: a few hundred nanoseconds, once.
 */
struct sim_call {
	sigset_t old;
	struct sim_cpu *c;          /* NULL: not a CPU of the machine */
	double t_in;
};

static _Thread_local struct {
	const struct sim_cpu *c;
	double ns;
} carry_ns;

static void call_enter(struct sim *s, unsigned cpu, struct sim_call *k)
{
	k->t_in = mono_ns();
	sim_lock(s, &k->old);
	s->now_ns = mono_ns();
	k->c = cpu < s->ncpus ? &s->cpus[cpu] : NULL;
	if (k->c)
		k->c->skip_ns += s->now_ns - k->t_in + (carry_ns.c == k->c ? carry_ns.ns : 0);
	carry_ns.c = NULL;
}

static void call_leave(struct sim *s, struct sim_call *k)
{
	double out = mono_ns();

	if (k->c)
		k->c->skip_ns += out - s->now_ns;
	sim_unlock(s, &k->old);
	carry_ns.ns = mono_ns() - out;
	carry_ns.c = k->c;
}

/* ------------------------------------------------------------- store */

static struct sim_reg *mem_find(struct sim_cpu *c, uint32_t msr)
{
	for (unsigned i = 0; i < c->nregs; i++)
		if (c->regs[i].msr == msr)
			return &c->regs[i];
	return NULL;
}

static int store_read(struct sim *s, unsigned cpu, uint32_t msr, uint64_t *v)
{
	struct sim_reg *r;

	if (s->state)
		return msr_state_ops.read(s->state, cpu, msr, v);
	if (!(r = mem_find(&s->cpus[cpu], msr)))
		return -EIO;
	*v = r->val;
	return 0;
}

static int store_write(struct sim *s, unsigned cpu, uint32_t msr, uint64_t v)
{
	struct sim_reg *r;

	if (s->state)
		return msr_state_ops.write(s->state, cpu, msr, v);
	if (!(r = mem_find(&s->cpus[cpu], msr)))
		return -EIO;
	r->val = v;
	return 0;
}

static void mem_add(struct sim_cpu *c, uint32_t msr, uint64_t v)
{
	if (c->nregs < SIM_REGS_MAX)
		c->regs[c->nregs++] = (struct sim_reg){ msr, v };
}

static bool has_fixed(const struct cpu_kind *k, unsigned i)
{
	return i == FIXED_CTR3_IDX ? k->fixed_ctr3 : !!(k->fixed_mask & (1u << i));
}

/*
 * The clean register file of one CPU, as Linux leaves an idle PMU
 * (msr/msr_sim.h): GLOBAL_CTRL = the kernel's intel_ctrl (every counter
 * enabled, bit 48 with PERF_METRICS: pmu-reference §1.3); the rest 0.
 */
static void mem_clean(const struct sim *s, struct sim_cpu *c)
{
	const struct cpu_kind *k = c->kind;
	uint64_t gc = 0, caps = PERF_CAP_FULL_WIDTH_WRITE;

	for (unsigned i = 0; i < 32 && s->ci.pmu.version; i++)
		if (k->gp_mask & (1u << i)) {
			mem_add(c, IA32_PERFEVTSEL0 + i, 0);
			mem_add(c, IA32_PMC0 + i, 0);
			gc |= 1ull << i;
		}
	for (unsigned i = 0; i < SIM_FIXED && s->ci.pmu.version; i++)
		if (has_fixed(k, i)) {
			mem_add(c, IA32_FIXED_CTR0 + i, 0);
			gc |= 1ull << GLOBAL_FIXED_BIT(i);
		}
	/* PERF_METRICS is derived from fixed counter 3 (§3.1): none without it
	 * (leaf 0xA version 0: no counter at all) */
	if (k->topdown_level >= 1 && s->ci.pmu.version >= 2 && has_fixed(k, FIXED_CTR3_IDX)) {
		mem_add(c, IA32_PERF_METRICS, 0);
		gc |= GLOBAL_CTRL_EN_PERF_METRICS;
		caps |= PERF_CAP_PERF_METRICS | (k->metrics_clear ? PERF_CAP_RDPMC_METRICS_CLEAR : 0);
	}
	if (s->ci.pdcm)
		mem_add(c, IA32_PERF_CAPABILITIES, caps);
	if (s->ci.pmu.version >= 2) {
		mem_add(c, IA32_FIXED_CTR_CTRL, 0);
		mem_add(c, IA32_PERF_GLOBAL_STATUS, 0);
		mem_add(c, IA32_PERF_GLOBAL_CTRL, gc);
		mem_add(c, IA32_PERF_GLOBAL_STATUS_RESET, 0);
	}
	if (s->ci.pmu.version >= 4) {
		mem_add(c, IA32_PERF_GLOBAL_STATUS_SET, 0);
		mem_add(c, IA32_PERF_GLOBAL_INUSE, 0);
	}
}

/* ---------------------------------------------------------- counting */

static unsigned fixed_bits(const struct sim *s)
{
	unsigned w = s->ci.pmu.fixed_width;

	return w >= 8 && w < 64 ? w : 48; /* 48 on every core since Nehalem (§1.8) */
}

/* Is fixed counter @i counting under these controls? (§1.2, §1.3) */
static bool counting(uint64_t fcc, uint64_t gc, unsigned i)
{
	uint64_t en = FIXED_CTR_CTRL_EN_OS | FIXED_CTR_CTRL_EN_USR;

	return (fcc >> FIXED_CTR_CTRL_SHIFT(i) & en) && (gc >> GLOBAL_FIXED_BIT(i) & 1);
}

/*
 * The share of the cycles fixed counter @i counts under these controls:
 * its IA32_FIXED_CTR_CTRL field's EN_OS counts at CPL 0, EN_USR at CPL > 0
 * (SDM Vol. 3B 20.2.2, "Fixed-function performance counters"; pmu-reference
 * §1.2), and the profile's `user_fraction` of every cycle runs at CPL > 0.
 */
static double cpl_share(const struct sim *s, uint64_t fcc, uint64_t gc, unsigned i)
{
	uint64_t en = fcc >> FIXED_CTR_CTRL_SHIFT(i);
	double u = s->p.user_fraction;

	if (!counting(fcc, gc, i))
		return 0;
	return (en & FIXED_CTR_CTRL_EN_OS ? 1 - u : 0) + (en & FIXED_CTR_CTRL_EN_USR ? u : 0);
}

/* Count @dt cycles on fixed counter @i at @rate per cycle. */
static void count_fixed(struct sim *s, struct sim_cpu *c, unsigned i, double rate, double dt,
			uint64_t gc)
{
	uint64_t max = (1ull << fixed_bits(s)) - 1;
	double inc = rate * dt + c->carry[i], whole = floor(inc);
	uint64_t before = c->fc[i];

	c->carry[i] = inc - whole;
	c->fc[i] = (before + (uint64_t)whole) & max;
	if (i == FIXED_CTR3_IDX && whole > 0)
		c->fc3_written = false; /* it counted: no longer the value written */
	if (before + (uint64_t)whole > max) {
		c->status |= 1ull << GLOBAL_FIXED_BIT(i);
		if (i == FIXED_CTR3_IDX && (gc & GLOBAL_CTRL_EN_PERF_METRICS))
			c->status |= GLOBAL_STATUS_OVF_PERF_METRICS;
	}
}

/*
 * Bring @cpu's counters up to now, plus @work cycles of work
 * (msr_sim_work).  Two kinds of cycles: the accesses' (`access_cycles`
 * each, since the last update) and the work's (real time x `ghz`, and
 * @work); the counters count both, IA32_PERF_METRICS keeps their slots
 * apart, for their own shares (metrics_value).
 */
static void advance(struct sim *s, unsigned cpu, double work)
{
	struct sim_cpu *c = &s->cpus[cpu];
	double now = (s->now_ns - s->t0_ns - c->skip_ns) * s->p.ghz;
	double dt_work = (now > c->t_last ? now - c->t_last : 0) + work;
	double dt_access = (double)(c->accesses - c->accesses_counted) * s->p.access_cycles;
	uint64_t fcc = 0, gc = 0;

	c->t_last = now > c->t_last ? now : c->t_last;
	c->accesses_counted = c->accesses;
	if (dt_work + dt_access <= 0 || store_read(s, cpu, IA32_FIXED_CTR_CTRL, &fcc) ||
	    store_read(s, cpu, IA32_PERF_GLOBAL_CTRL, &gc))
		return;
	for (unsigned i = 0; i < SIM_FIXED; i++) {
		double rate = i == 0 ? s->p.ipc : i == FIXED_CTR3_IDX ? c->width : 1;
		double share = cpl_share(s, fcc, gc, i);

		if (!has_fixed(c->kind, i) || !share)
			continue;
		if (i != FIXED_CTR3_IDX || !(s->p.faults & SIM_FAULT_SLOTS_STUCK))
			count_fixed(s, c, i, rate * share, dt_work + dt_access, gc);
	}
	if (c->kind->topdown_level >= 1 && (gc & GLOBAL_CTRL_EN_PERF_METRICS)) {
		double slots = c->width * cpl_share(s, fcc, gc, FIXED_CTR3_IDX);

		c->met_access += slots * dt_access;
		c->met_work += slots * dt_work;
	}
}

/* Load @cpu's counters from the store at its first access. */
static int start_cpu(struct sim *s, unsigned cpu)
{
	struct sim_cpu *c;

	if (cpu >= s->ncpus || !s->cpus[cpu].kind)
		return -ENXIO;
	c = &s->cpus[cpu];
	if (c->started)
		return 0;
	for (unsigned i = 0; i < SIM_FIXED; i++)
		if (has_fixed(c->kind, i) && store_read(s, cpu, IA32_FIXED_CTR0 + i, &c->fc[i]))
			c->fc[i] = 0;
	if (c->kind->topdown_level >= 1 && !store_read(s, cpu, IA32_PERF_METRICS, &c->met_v0))
		c->met_w0 = c->met_v0 ? c->fc[FIXED_CTR3_IDX] : 0;
	if (store_read(s, cpu, SIM_MSR_ORDER_ERRORS, &c->order_errors))
		c->order_errors = 0; /* kept in memory only */
	c->fc3_written = true; /* as loaded: what software (or the file) put there */
	c->t_last = (s->now_ns - s->t0_ns - c->skip_ns) * s->p.ghz;
	c->accesses_counted = c->accesses;
	c->started = true;
	return 0;
}

/* ------------------------------------------------------ PERF_METRICS */

/*
 * The bytes of one read, before rounding (fractions of 255): the
 * slot-weighted mix of the accesses' shares (access_*) and the work's,
 * x 255 / 100.  Without noise in one division of whole numbers, so that a
 * share like 10 % gives 10 x 255 / 100 = 25.5 exactly, which rounds the
 * same on every read (0.1 x 255 in binary would not), and so does a mix
 * of whole slots and percents (1000 x 20 + 3000 x 60 over 4000, x 2.55 =
 * 127.5).  With `noise`, the mix in percent is jittered (level 1 by
 * amounts that sum to 0, level 2 within the parent).
 */
static void shares(struct sim *s, struct sim_cpu *c, double f[SIM_NODES])
{
	double a = c->met_access, w = c->met_work, mean = 0, u[4], sum = 0, m[SIM_NODES];

	for (unsigned i = 0; i < SIM_NODES; i++)
		m[i] = a * s->p.access_pct[i] + w * s->p.pct[i];
	if (!s->p.noise) {
		for (unsigned i = 0; i < SIM_NODES; i++)
			f[i] = m[i] * 255 / ((a + w) * 100);
		return;
	}
	for (unsigned i = 0; i < SIM_NODES; i++)
		m[i] /= a + w;
	for (unsigned i = 0; i < 4; i++)
		mean += (u[i] = jitter(&c->rng, s->p.noise)) / 4;
	for (unsigned i = 0; i < 4; i++)
		sum += (f[i] = fmax(0, m[i] + u[i] - mean));
	for (unsigned i = 0; i < 4; i++)
		f[i] = f[i] * 100 / sum; /* a share clamped at 0 */
	for (unsigned i = 4; i < SIM_NODES; i++)
		f[i] = fmin(f[i - 4], fmax(0, m[i] + jitter(&c->rng, s->p.noise)));
	for (unsigned i = 0; i < SIM_NODES; i++)
		f[i] = f[i] * 255 / 100;
}

static uint64_t put_byte(uint64_t v, unsigned i, long b)
{
	b = b < 0 ? 0 : b > 255 ? 255 : b;
	return (v & ~(0xffull << (8 * i))) | (uint64_t)b << (8 * i);
}

static unsigned byte_of(uint64_t v, unsigned i)
{
	return (unsigned)(v >> (8 * i)) & 0xff;
}

/* The faults that change the bytes (fault sum_off, level2_above_parent). */
static uint64_t faulty_bytes(const struct sim *s, uint64_t v, int level)
{
	if (s->p.faults & SIM_FAULT_SUM_OFF) {
		unsigned big = 0, sum = 0;

		for (unsigned i = 0; i < 4; i++) {
			sum += byte_of(v, i);
			big = byte_of(v, i) > byte_of(v, big) ? i : big;
		}
		v = put_byte(v, big, (long)byte_of(v, big) + 255 + s->p.sum_off - (long)sum);
	}
	/* 13/255 = 5.1 points above: beyond any rounding slack (msr/topdown.h) */
	if ((s->p.faults & SIM_FAULT_L2_ABOVE_PARENT) && level >= 2)
		v = put_byte(v, 4, (long)byte_of(v, 0) + 13);
	return v;
}

/* What IA32_PERF_METRICS reads now (msr/msr_sim.h). */
static uint64_t metrics_value(struct sim *s, struct sim_cpu *c)
{
	int level = c->kind->topdown_level;
	double f[SIM_NODES], acc = c->met_access + c->met_work, w = acc + (double)c->met_w0;
	uint64_t v = 0;

	if (!acc)
		return c->met_v0;
	shares(s, c, f);
	for (unsigned i = 0; i < (level >= 2 ? 8u : 4u); i++) {
		double b = f[i];

		if (c->met_w0) /* the value written, weighted by the slots it stood for */
			b = ((double)c->met_w0 * byte_of(c->met_v0, i) + acc * b) / w;
		v = put_byte(v, i, lround(b));
	}
	return faulty_bytes(s, v, level);
}

/* ----------------------------------------------------------------- ops */

static int sim_open_cpu(void *ctx, unsigned cpu)
{
	struct sim *s = ctx;
	struct sim_call k;
	int rc;

	call_enter(s, cpu, &k);
	rc = s->state ? msr_state_ops.open(s->state, cpu) ?: start_cpu(s, cpu) : start_cpu(s, cpu);
	call_leave(s, &k);
	return rc;
}

/* IA32_PERF_GLOBAL_INUSE: bit i = IA32_PERFEVTSELi[7:0] != 0, bit 32+i =
 * the fixed control field of FCi enabled (§1.9). */
static uint64_t inuse(struct sim *s, unsigned cpu)
{
	const struct cpu_kind *k = s->cpus[cpu].kind;
	uint64_t v = 0, sel, fcc = 0;

	for (unsigned i = 0; i < 32; i++)
		if ((k->gp_mask & (1u << i)) && !store_read(s, cpu, IA32_PERFEVTSEL0 + i, &sel) &&
		    (sel & PERFEVTSEL_EVENT_MASK))
			v |= 1ull << i;
	store_read(s, cpu, IA32_FIXED_CTR_CTRL, &fcc);
	for (unsigned i = 0; i < SIM_FIXED; i++)
		if (has_fixed(k, i) && (fcc >> FIXED_CTR_CTRL_SHIFT(i) & 3))
			v |= 1ull << GLOBAL_FIXED_BIT(i);
	return v;
}

/* One access: the CPU started, the clock ticked, the counters brought up to date. */
static int enter(struct sim *s, unsigned cpu)
{
	int rc = start_cpu(s, cpu);

	if (rc)
		return rc;
	s->cpus[cpu].accesses++;
	advance(s, cpu, 0);
	return 0;
}

static int read_locked(struct sim *s, unsigned cpu, uint32_t msr, uint64_t *val)
{
	struct sim_cpu *c;
	uint64_t stored;
	int rc = enter(s, cpu);

	if (rc)
		return rc;
	c = &s->cpus[cpu];
	if (msr == SIM_MSR_ORDER_ERRORS) {
		*val = c->order_errors;
		return 0;
	}
	if ((rc = store_read(s, cpu, msr, &stored)))
		return rc; /* not a register of this CPU: #GP, -EIO */
	if (msr >= IA32_FIXED_CTR0 && msr < IA32_FIXED_CTR0 + SIM_FIXED) {
		*val = c->fc[msr - IA32_FIXED_CTR0];
	} else if (msr == IA32_PERF_METRICS) {
		*val = metrics_value(s, c);
		if ((s->p.faults & SIM_FAULT_OVERFLOW_EVERY) &&
		    ++c->met_reads % s->p.overflow_every == 0)
			c->status |= GLOBAL_STATUS_OVF_PERF_METRICS;
	} else if (msr == IA32_PERF_GLOBAL_STATUS) {
		*val = stored | c->status;
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

	for (unsigned i = 0; i < SIM_FIXED; i++)
		if (has_fixed(c->kind, i))
			store_write(s, cpu, IA32_FIXED_CTR0 + i, c->fc[i]);
}

/*
 * A write to IA32_PERF_METRICS.  The kernel writes fixed counter 3 first,
 * then PERF_METRICS (linux arch/x86/events/intel/core.c
 * icl_set_topdown_event_period: "The fixed counter 3 has to be written
 * before the PERF_METRICS"; pmu-reference §3.1): the metrics are fractions
 * of FC3's slots, so they are written together with their base.  A write
 * while FC3 has counted since it was last written breaks that order: the
 * simulator counts it in SIM_MSR_ORDER_ERRORS (and in the state file when
 * the file lists that register), and the write takes effect.
 */
static void write_metrics(struct sim *s, unsigned cpu, uint64_t val)
{
	struct sim_cpu *c = &s->cpus[cpu];

	if (!c->fc3_written) {
		c->order_errors++;
		store_write(s, cpu, SIM_MSR_ORDER_ERRORS, c->order_errors); /* -EIO: not listed */
	}
	if (!val && (s->p.faults & SIM_FAULT_METRICS_NOT_CLEARED))
		return;
	c->met_access = c->met_work = 0;
	c->met_v0 = val;
	c->met_w0 = val ? c->fc[FIXED_CTR3_IDX] : 0;
}

static int write_locked(struct sim *s, unsigned cpu, uint32_t msr, uint64_t val)
{
	struct sim_cpu *c;
	int rc = enter(s, cpu);

	if (rc)
		return rc;
	c = &s->cpus[cpu];
	if (msr == SIM_MSR_ORDER_ERRORS)
		return -EIO; /* read-only */
	if (msr == IA32_PERF_GLOBAL_STATUS || msr == IA32_PERF_GLOBAL_INUSE) {
		uint64_t v;

		return store_read(s, cpu, msr, &v) ?: -EIO; /* read-only (§1.4, §1.9) */
	}
	if (msr == IA32_FIXED_CTR_CTRL || msr == IA32_PERF_GLOBAL_CTRL)
		fold(s, cpu);
	if ((rc = store_write(s, cpu, msr, val)))
		return rc;
	if (msr >= IA32_FIXED_CTR0 && msr < IA32_FIXED_CTR0 + SIM_FIXED) {
		c->fc[msr - IA32_FIXED_CTR0] = val & ((1ull << fixed_bits(s)) - 1);
		c->carry[msr - IA32_FIXED_CTR0] = 0;
		if (msr == IA32_FIXED_CTR3)
			c->fc3_written = true;
	} else if (msr == IA32_PERF_METRICS) {
		write_metrics(s, cpu, val);
	} else if (msr == IA32_PERF_GLOBAL_STATUS_RESET) {
		c->status &= ~val;
	} else if (msr == IA32_PERF_GLOBAL_STATUS_SET) {
		c->status |= val;
	}
	return 0;
}

/* The accesses, each under the machine's lock. */
static int sim_read(void *ctx, unsigned cpu, uint32_t msr, uint64_t *val)
{
	struct sim *s = ctx;
	struct sim_call k;
	int rc;

	call_enter(s, cpu, &k);
	rc = read_locked(s, cpu, msr, val);
	call_leave(s, &k);
	return rc;
}

static int sim_write(void *ctx, unsigned cpu, uint32_t msr, uint64_t val)
{
	struct sim *s = ctx;
	struct sim_call k;
	int rc;

	call_enter(s, cpu, &k);
	rc = write_locked(s, cpu, msr, val);
	call_leave(s, &k);
	return rc;
}

int msr_sim_work(const struct msr_dev *dev, unsigned cpu, uint64_t cycles)
{
	struct sim *s = msr_backend_ctx(dev, &msr_sim_ops);
	struct sim_call k;
	int rc;

	if (!s)
		return -EINVAL;
	call_enter(s, cpu, &k);
	rc = start_cpu(s, cpu);
	if (!rc)
		advance(s, cpu, (double)cycles);
	call_leave(s, &k);
	return rc;
}

static void sim_free(struct sim *s)
{
	if (!s)
		return;
	if (s->state)
		msr_state_ops.close(s->state);
	free(s->cpus);
	free(s->path);
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

static int load_profile(struct sim *s, const char *file, char *err, size_t errlen)
{
	char *buf = malloc(PROFILE_MAX + 1);
	int fd = userfile_open_read(AT_FDCWD, file, 0), rc = 0; /* a FIFO would block */
	ssize_t got = 0, r = 0;

	if (!buf || fd < 0) {
		rc = !buf ? -ENOMEM : fd;
		snprintf(err, errlen, "cannot read profile '%s': %s", file,
			 rc == -EINVAL ? USERFILE_NOT_REGULAR : strerror(-rc));
		goto out;
	}
	while ((size_t)got < PROFILE_MAX && (r = read(fd, buf + got, PROFILE_MAX - got)) > 0)
		got += r;
	if (r < 0 || (size_t)got == PROFILE_MAX) {
		rc = r < 0 ? -errno : -EFBIG;
		snprintf(err, errlen, "cannot read profile '%s': %s", file,
			 r < 0 ? strerror(errno) : "larger than 64 KiB");
		goto out;
	}
	rc = msr_sim_profile_parse(buf, (size_t)got, file, &s->p, err, errlen);
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return rc;
}

/* The machine: $BARETMA_CPUID_DUMP or the live CPU (cpu/cpu.h). */
static int identify(struct sim *s, char *err, size_t errlen)
{
	struct cpu_source *src = cpu_source_from_env(NULL);
	int rc;

	if (!src) {
		snprintf(err, errlen, "simulated PMU: cannot read CPUID: %s", cpu_source_error());
		return -EINVAL;
	}
	rc = cpu_info_identify(src, NULL, &s->ci);
	s->ncpus = cpu_source_ncpus(src);
	cpu_source_free(src);
	if (rc)
		snprintf(err, errlen, "simulated PMU: cannot identify the CPU: %s", strerror(-rc));
	return rc ? -EINVAL : 0;
}

static int make_cpus(struct sim *s, char *err, size_t errlen)
{
	if (!(s->cpus = calloc(s->ncpus ? s->ncpus : 1, sizeof(*s->cpus))))
		return -ENOMEM;
	for (unsigned cpu = 0; cpu < s->ncpus; cpu++) {
		struct sim_cpu *c = &s->cpus[cpu];

		if (!(c->kind = cpu_info_kind_of(&s->ci, cpu)))
			continue;
		c->width = s->p.width ? s->p.width : c->kind->pipeline_width;
		c->rng = s->p.seed ^ (0x9e3779b97f4a7c15ull * (cpu + 1));
		if (c->kind->fixed_ctr3 && !c->width) {
			snprintf(err, errlen, "simulated PMU: the model table has no pipeline "
				 "width for %s cores: give `width N` in the profile", c->kind->uarch);
			return -EINVAL;
		}
		if (!s->state)
			mem_clean(s, c);
	}
	return 0;
}

static int sim_new(const char *file, struct sim **out, char *err, size_t errlen)
{
	struct sim *s = calloc(1, sizeof(*s));
	int rc;

	if (!s || !(s->path = strdup(file))) {
		free(s);
		return -ENOMEM;
	}
	s->refs = 1;
	atomic_flag_clear(&s->busy);
	s->t0_ns = mono_ns();
	if (!(rc = load_profile(s, file, err, errlen)) && !(rc = identify(s, err, errlen)) &&
	    s->p.state[0])
		rc = msr_state_ctx_new(s->p.state, &s->state, err, errlen);
	if (!rc)
		rc = make_cpus(s, err, errlen);
	if (rc)
		sim_free(s);
	else
		*out = s;
	return rc;
}

int msr_sim_ctx_new(const char *file, void **ctx, char *err, size_t errlen)
{
	struct sim *s;
	int rc = 0;

	pthread_mutex_lock(&registry_lock);
	for (s = registry; s && strcmp(s->path, file); s = s->next)
		;
	if (s) {
		s->refs++;
	} else if (!(rc = sim_new(file, &s, err, errlen))) {
		s->next = registry;
		registry = s;
	}
	pthread_mutex_unlock(&registry_lock);
	if (!rc)
		*ctx = s;
	return rc;
}

const struct sim_profile *msr_sim_profile_of(const struct msr_dev *dev)
{
	const struct sim *s = msr_backend_ctx(dev, &msr_sim_ops);

	return s ? &s->p : NULL;
}

unsigned msr_sim_width(const struct msr_dev *dev, unsigned cpu)
{
	const struct sim *s = msr_backend_ctx(dev, &msr_sim_ops);

	return s && cpu < s->ncpus ? s->cpus[cpu].width : 0;
}

unsigned msr_sim_pmu_version(const struct msr_dev *dev)
{
	const struct sim *s = msr_backend_ctx(dev, &msr_sim_ops);

	return s ? s->ci.pmu.version : 0;
}

int msr_sim_level(const struct msr_dev *dev, unsigned cpu)
{
	const struct sim *s = msr_backend_ctx(dev, &msr_sim_ops);

	return s && cpu < s->ncpus && s->cpus[cpu].kind ? s->cpus[cpu].kind->topdown_level : 0;
}
