/*
 * msr/sim/msr_sim_model.c - the model of the simulated PMU (msr/sim/msr_sim.h
 * says what it models and from which text): the clock, the register
 * store, and per CPU the counting of the fixed counters, of
 * IA32_PERF_METRICS and of the overflow bits.  Called by msr/sim/msr_sim.c
 * under the machine's lock; async-signal-safe (no allocation, no stdio).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/cpu.h"
#include "msr/regs/amd_regs.h"
#include "msr/regs/intel_regs.h"
#include "msr/access/msr.h"
#include "msr/sim/msr_sim.h"
#include "msr/sim/msr_sim_int.h"

/* ------------------------------------------------------------- clock */

double sim_mono_ns(void)
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

/* ------------------------------------------------------------- store */

static struct sim_reg *mem_find(struct sim_cpu *c, uint32_t msr)
{
	for (unsigned i = 0; i < c->nregs; i++)
		if (c->regs[i].msr == msr)
			return &c->regs[i];
	return NULL;
}

/* A `state FILE` is read as the access's start left it (sim_shared_load
 * looked at the file once): no system call per register. */
int sim_store_read(struct sim *s, unsigned cpu, uint32_t msr, uint64_t *v)
{
	struct sim_reg *r;

	if (s->state)
		return msr_state_peek(s->state, cpu, msr, v);
	if (!(r = mem_find(&s->cpus[cpu], msr)))
		return -EIO;
	*v = r->val;
	return 0;
}

int sim_store_write(struct sim *s, unsigned cpu, uint32_t msr, uint64_t v)
{
	struct sim_reg *r;

	if (s->state)
		return msr_state_ops.write(s->state, cpu, msr, v);
	if (!(r = mem_find(&s->cpus[cpu], msr)))
		return -EIO;
	r->val = v;
	return 0;
}

/* Write @v to @msr when the store holds another value (a `state FILE`
 * is rewritten only for a change); a register not listed is left out. */
void sim_store_update(struct sim *s, unsigned cpu, uint32_t msr, uint64_t v)
{
	uint64_t old;

	if (!sim_store_read(s, cpu, msr, &old) && old != v)
		sim_store_write(s, cpu, msr, v);
}

static void mem_add(struct sim_cpu *c, uint32_t msr, uint64_t v)
{
	if (c->nregs < SIM_REGS_MAX)
		c->regs[c->nregs++] = (struct sim_reg){ msr, v };
}

bool sim_has_fixed(const struct cpu_kind *k, unsigned i)
{
	return i == FIXED_CTR3_IDX ? k->fixed_ctr3 : !!(k->fixed_mask & (1u << i));
}

/*
 * The clean register file of one CPU, as Linux leaves an idle PMU
 * (msr/sim/msr_sim.h): GLOBAL_CTRL = the kernel's intel_ctrl (every counter
 * enabled, bit 48 with PERF_METRICS: linux arch/x86/events/intel/core.c
 * intel_pmu_init, intel_pmu_enable_all); the rest 0.
 * IA32_A_PMCx beside IA32_PMCx: the simulated IA32_PERF_CAPABILITIES has
 * bit 13 (full-width writes), and both are views of one counter.
 */
static void mem_clean_intel(const struct sim *s, struct sim_cpu *c)
{
	const struct cpu_kind *k = c->kind;
	uint64_t gc = 0, caps = PERF_CAP_FULL_WIDTH_WRITE;

	for (unsigned i = 0; i < SIM_GP && s->ci.pmu.version; i++)
		if (k->gp_mask & (1u << i)) {
			mem_add(c, IA32_PERFEVTSEL0 + i, 0);
			mem_add(c, IA32_PMC0 + i, 0);
			mem_add(c, IA32_A_PMC0 + i, 0);
			gc |= 1ull << i;
		}
	for (unsigned i = 0; i < SIM_FIXED && s->ci.pmu.version; i++)
		if (sim_has_fixed(k, i)) {
			mem_add(c, IA32_FIXED_CTR0 + i, 0);
			gc |= 1ull << GLOBAL_FIXED_BIT(i);
		}
	/* PERF_METRICS is derived from fixed counter 3 (linux
	 * arch/x86/events/intel/core.c icl_set_topdown_event_period): none without it
	 * (leaf 0xA version 0: no counter at all) */
	if (k->topdown_level >= 1 && s->ci.pmu.version >= 2 && sim_has_fixed(k, FIXED_CTR3_IDX)) {
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

/* AMD PerfMonV2 (msr/regs/amd_regs.h): PERF_CTLx / PERF_CTRx of the kind's
 * counters, PERF_CNTR_GLOBAL_CTL = every counter's bit (the kernel's idle
 * value: amd_pmu_v2_enable_all writes amd_pmu_global_cntr_mask), the
 * status registers 0.  No Intel register. */
static void mem_clean_amd(struct sim_cpu *c)
{
	uint64_t gc = 0;

	for (unsigned i = 0; i < AMD_GP_MAX; i++)
		if (c->kind->gp_mask & (1u << i)) {
			mem_add(c, AMD_PERF_CTL(i), 0);
			mem_add(c, AMD_PERF_CTR(i), 0);
			gc |= 1ull << i;
		}
	mem_add(c, AMD_PERF_CNTR_GLOBAL_STATUS, 0);
	mem_add(c, AMD_PERF_CNTR_GLOBAL_CTL, gc);
	mem_add(c, AMD_PERF_CNTR_GLOBAL_STATUS_CLR, 0);
	mem_add(c, AMD_PERF_CNTR_GLOBAL_STATUS_SET, 0);
}

void sim_mem_clean(const struct sim *s, struct sim_cpu *c)
{
	if (c->amd)
		mem_clean_amd(c);
	else if (s->ci.vendor == CPU_VENDOR_INTEL)
		mem_clean_intel(s, c);
}

/* ------------------------------------------------- general-purpose counters */

unsigned sim_gp_bits(const struct sim_cpu *c)
{
	unsigned w = c->kind->gp_width;

	if (c->amd)
		return AMD_COUNTER_WIDTH;
	/* CPUID.0AH:EAX[23:16]; else 48, the width of every Intel dump read from
	 * libcpuid's tests and InstLatx64 (no primary source found that states it) */
	return w >= 8 && w < 64 ? w : 48;
}

int sim_gp_counter(const struct sim_cpu *c, uint32_t msr, bool *full)
{
	*full = true;
	if (c->amd) {
		if (msr >= AMD_PERF_CTR0 && msr < AMD_PERF_CTR(AMD_GP_MAX) &&
		    (msr - AMD_PERF_CTR0) % 2 == 0)
			return (int)((msr - AMD_PERF_CTR0) / 2);
		return -1;
	}
	if (msr >= IA32_A_PMC0 && msr < IA32_A_PMC0 + SIM_GP)
		return (int)(msr - IA32_A_PMC0);
	*full = false;
	if (msr >= IA32_PMC0 && msr < IA32_PMC0 + SIM_GP)
		return (int)(msr - IA32_PMC0);
	return -1;
}

bool sim_gp_control(const struct sim_cpu *c, uint32_t msr)
{
	if (c->amd)
		return msr == AMD_PERF_CNTR_GLOBAL_CTL ||
		       (msr >= AMD_PERF_CTL0 && msr < AMD_PERF_CTL(AMD_GP_MAX) &&
			(msr - AMD_PERF_CTL0) % 2 == 0);
	return msr == IA32_PERF_GLOBAL_CTRL || msr == IA32_FIXED_CTR_CTRL ||
	       (msr >= IA32_PERFEVTSEL0 && msr < IA32_PERFEVTSEL0 + SIM_GP);
}

void sim_gp_fold(struct sim *s, unsigned cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];

	for (unsigned x = 0; x < SIM_GP; x++) {
		if (!(c->kind->gp_mask & (1u << x)))
			continue;
		if (c->amd) {
			if (x < AMD_GP_MAX)
				sim_store_update(s, cpu, AMD_PERF_CTR(x), c->m.pmc[x]);
			continue;
		}
		sim_store_update(s, cpu, IA32_PMC0 + x, c->m.pmc[x]);
		sim_store_update(s, cpu, IA32_A_PMC0 + x, c->m.pmc[x]);
	}
}

/* ---------------------------------------------------------- counting */

unsigned sim_fixed_bits(const struct sim *s)
{
	unsigned w = s->ci.pmu.fixed_width;

	return w >= 8 && w < 64 ? w : 48; /* CPUID.0AH:EDX[12:5]; else 48, as above */
}

/* Is fixed counter @i counting under these controls? (linux
 * arch/x86/include/asm/perf_event.h INTEL_FIXED_0_KERNEL/USER, INTEL_PMC_IDX_FIXED) */
static bool counting(uint64_t fcc, uint64_t gc, unsigned i)
{
	uint64_t en = FIXED_CTR_CTRL_EN_OS | FIXED_CTR_CTRL_EN_USR;

	return (fcc >> FIXED_CTR_CTRL_SHIFT(i) & en) && (gc >> GLOBAL_FIXED_BIT(i) & 1);
}

/*
 * The share of the cycles fixed counter @i counts under these controls:
 * its IA32_FIXED_CTR_CTRL field's EN_OS counts at CPL 0, EN_USR at CPL > 0
 * (SDM Vol. 3B 20.2.2, "Fixed-function performance counters"; linux
 * perf_event.h INTEL_FIXED_0_KERNEL, INTEL_FIXED_0_USER), and the profile's
 * `user_fraction` of every cycle runs at CPL > 0.
 */
static double cpl_share(const struct sim *s, uint64_t fcc, uint64_t gc, unsigned i)
{
	uint64_t en = fcc >> FIXED_CTR_CTRL_SHIFT(i);
	double u = s->p.user_fraction;

	if (!counting(fcc, gc, i))
		return 0;
	return (en & FIXED_CTR_CTRL_EN_OS ? 1 - u : 0) + (en & FIXED_CTR_CTRL_EN_USR ? u : 0);
}

/*
 * The whole events in @n events' worth of counting.  A hardware counter
 * increments by one per event (SDM Vol. 3B 20.2.1, "counts the number of
 * occurrences of the event"): it neither rounds nor loses part of an
 * event, so the count after any split of an interval into reads is the
 * whole events of the interval.  The model's rates are decimal shares
 * that binary floating point does not hold exactly (6 x 0.06 / 20 x
 * 100000 cycles is 1799.9999999999998, not the 1800 branch flushes it
 * means), so a total within SIM_COUNT_EPS of a whole number is that
 * number; the carry (negative by a few ulps then) keeps the rest, and
 * the counts do not depend on how often the counter is read.
 */
#define SIM_COUNT_EPS 1e-6
static double whole_events(double n)
{
	return floor(n + SIM_COUNT_EPS);
}

/* Add @inc (and the carried fraction) to a counter of @bits bits; true
 * when it wrapped. */
static bool count(uint64_t *ctr, double *carry, double inc, unsigned bits)
{
	uint64_t max = bits >= 64 ? ~0ull : (1ull << bits) - 1, before = *ctr;
	double whole;

	inc += *carry;
	whole = whole_events(inc);
	*carry = inc - whole;
	*ctr = (before + (uint64_t)whole) & max;
	return before + (uint64_t)whole > max;
}

/* Fixed counter @i counts @inc. */
static void count_fixed(struct sim *s, struct sim_cpu *c, unsigned i, double inc, uint64_t gc)
{
	double before = c->m.carry[i];
	bool wrapped = count(&c->m.fc[i], &c->m.carry[i], inc, sim_fixed_bits(s));

	if (i == FIXED_CTR3_IDX && whole_events(inc + before) > 0)
		c->m.fc3_written = false; /* it counted: no longer the value written */
	if (wrapped) {
		c->m.status |= 1ull << GLOBAL_FIXED_BIT(i);
		if (i == FIXED_CTR3_IDX && (gc & GLOBAL_CTRL_EN_PERF_METRICS))
			c->m.status |= GLOBAL_STATUS_OVF_PERF_METRICS;
	}
}

/* The share of the cycles an event select counts: USR at CPL > 0, OS at
 * CPL 0 (SDM Vol. 3B 20.2.1.1; the same bits on AMD's PERF_CTL), with
 * `user_fraction` of every cycle at CPL > 0. */
static double sel_cpl_share(const struct sim *s, uint64_t sel)
{
	double u = s->p.user_fraction;

	return (sel & PERFEVTSEL_OS ? 1 - u : 0) + (sel & PERFEVTSEL_USR ? u : 0);
}

/*
 * General-purpose counter x counts while its select has EN and the global
 * control's bit x is set (Intel: SDM Vol. 3B 20.2.2, linux
 * arch/x86/events/intel/core.c intel_pmu_enable_all;
 * AMD PerfMonV2: "Counting starts only after x86_pmu_enable_all()",
 * linux amd/core.c amd_pmu_v2_enable_event, which writes the global
 * control), at sim_event_rate's rate for the work's and the accesses'
 * shares apart, of the cycles its USR/OS bits select.  Wrapping sets the
 * global status bit x.
 */
static void count_gp(struct sim *s, unsigned cpu, double dt_work, double dt_access, uint64_t gc)
{
	struct sim_cpu *c = &s->cpus[cpu];
	uint64_t en = c->amd ? AMD_PERF_CTL_EN : PERFEVTSEL_EN, sel;

	for (unsigned x = 0; x < SIM_GP; x++) {
		uint32_t msr = c->amd ? AMD_PERF_CTL(x) : IA32_PERFEVTSEL0 + x;
		double share, inc;

		if (!(c->kind->gp_mask & (1u << x)) || !(gc & (1ull << x)) ||
		    (c->amd && x >= AMD_GP_MAX) || sim_store_read(s, cpu, msr, &sel) || !(sel & en))
			continue;
		if (!(share = sel_cpl_share(s, sel)))
			continue;
		inc = share * (sim_event_rate(s, c, x, sel, s->p.pct) * dt_work +
			       sim_event_rate(s, c, x, sel, s->p.access_pct) * dt_access);
		if (count(&c->m.pmc[x], &c->m.pcarry[x], inc, sim_gp_bits(c)))
			c->m.status |= 1ull << x;
	}
}

/* Intel: the fixed counters, PERF_METRICS and the GP counters. */
static void advance_intel(struct sim *s, unsigned cpu, double dt_work, double dt_access)
{
	struct sim_cpu *c = &s->cpus[cpu];
	uint64_t fcc = 0, gc = 0;

	if (sim_store_read(s, cpu, IA32_FIXED_CTR_CTRL, &fcc) ||
	    sim_store_read(s, cpu, IA32_PERF_GLOBAL_CTRL, &gc))
		return;
	for (unsigned i = 0; i < SIM_FIXED; i++) {
		double share = cpl_share(s, fcc, gc, i);

		if (!sim_has_fixed(c->kind, i) || !share)
			continue;
		if (i != FIXED_CTR3_IDX || !(s->p.faults & SIM_FAULT_SLOTS_STUCK))
			count_fixed(s, c, i, share * (sim_fixed_rate(s, c, i, s->p.pct) * dt_work +
						      sim_fixed_rate(s, c, i, s->p.access_pct) *
						      dt_access), gc);
	}
	if (c->kind->topdown_level >= 1 && (gc & GLOBAL_CTRL_EN_PERF_METRICS)) {
		double slots = sim_fixed_rate(s, c, FIXED_CTR3_IDX, s->p.pct) *
			       cpl_share(s, fcc, gc, FIXED_CTR3_IDX);

		c->m.met_access += slots * dt_access;
		c->m.met_work += slots * dt_work;
	}
	count_gp(s, cpu, dt_work, dt_access, gc);
}

/*
 * Bring @cpu's counters up to now, plus @work cycles of work
 * (msr_sim_work).  Two kinds of cycles: the accesses' (`access_cycles`
 * each, since the last update) and the work's (real time x `ghz`, and
 * @work); the counters count both, IA32_PERF_METRICS keeps their slots
 * apart, for their own shares (metrics_value).  Real time is
 * CLOCK_MONOTONIC, one clock for every process, less the time spent inside
 * the simulator (skip_ns), so that a machine shared by several processes
 * (`state FILE`) counts the time between one process's access and
 * another's.
 */
void sim_advance(struct sim *s, unsigned cpu, double work)
{
	struct sim_cpu *c = &s->cpus[cpu];
	double now = s->now_ns - c->m.skip_ns;
	double dt_work = (now > c->m.t_last_ns ? (now - c->m.t_last_ns) * s->p.ghz : 0) + work;
	double dt_access = (double)(c->accesses - c->accesses_counted) * s->p.access_cycles;
	uint64_t gc = 0;

	c->m.t_last_ns = now > c->m.t_last_ns ? now : c->m.t_last_ns;
	c->accesses_counted = c->accesses;
	if (dt_work + dt_access <= 0)
		return;
	if (!c->amd)
		advance_intel(s, cpu, dt_work, dt_access);
	else if (!sim_store_read(s, cpu, AMD_PERF_CNTR_GLOBAL_CTL, &gc))
		count_gp(s, cpu, dt_work, dt_access, gc);
}

/* Start @cpu's counters from the store: its first access (or, with `state
 * FILE`, its first since the machine file lost its record). */
int sim_start_cpu(struct sim *s, unsigned cpu)
{
	struct sim_cpu *c;

	if (cpu >= s->ncpus || !s->cpus[cpu].kind)
		return -ENXIO;
	c = &s->cpus[cpu];
	if (c->m.magic == SIM_LIVE_MAGIC)
		return 0;
	memset(&c->m, 0, sizeof(c->m));
	c->m.magic = SIM_LIVE_MAGIC;
	c->m.size = sizeof(c->m);
	c->m.rng = s->p.seed ^ (0x9e3779b97f4a7c15ull * (cpu + 1));
	for (unsigned i = 0; i < SIM_FIXED && !c->amd; i++)
		if (sim_has_fixed(c->kind, i) && sim_store_read(s, cpu, IA32_FIXED_CTR0 + i, &c->m.fc[i]))
			c->m.fc[i] = 0;
	for (unsigned x = 0; x < SIM_GP; x++) {
		uint32_t msr = c->amd ? AMD_PERF_CTR(x) : IA32_PMC0 + x;

		if (!(c->kind->gp_mask & (1u << x)) || (c->amd && x >= AMD_GP_MAX) ||
		    (sim_store_read(s, cpu, msr, &c->m.pmc[x]) &&
		     (c->amd || sim_store_read(s, cpu, IA32_A_PMC0 + x, &c->m.pmc[x]))))
			c->m.pmc[x] = 0;
	}
	if (c->kind->topdown_level >= 1 && !sim_store_read(s, cpu, IA32_PERF_METRICS, &c->m.met_v0))
		c->m.met_w0 = c->m.met_v0 ? c->m.fc[FIXED_CTR3_IDX] : 0;
	if (sim_store_read(s, cpu, SIM_MSR_ORDER_ERRORS, &c->m.order_errors))
		c->m.order_errors = 0; /* not in the store: kept in the record only */
	c->m.fc3_written = 1; /* as loaded: what software (or the file) put there */
	c->m.t_last_ns = s->now_ns;
	c->accesses_counted = c->accesses;
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
	double a = c->m.met_access, w = c->m.met_work, mean = 0, u[4], sum = 0, m[SIM_NODES];

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
		mean += (u[i] = jitter(&c->m.rng, s->p.noise)) / 4;
	for (unsigned i = 0; i < 4; i++)
		sum += (f[i] = fmax(0, m[i] + u[i] - mean));
	for (unsigned i = 0; i < 4; i++)
		f[i] = f[i] * 100 / sum; /* a share clamped at 0 */
	for (unsigned i = 4; i < SIM_NODES; i++)
		f[i] = fmin(f[i - 4], fmax(0, m[i] + jitter(&c->m.rng, s->p.noise)));
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
	/* 13/255 = 5.1 points above: beyond any rounding slack (msr/recipe/topdown.h) */
	if ((s->p.faults & SIM_FAULT_L2_ABOVE_PARENT) && level >= 2)
		v = put_byte(v, 4, (long)byte_of(v, 0) + 13);
	return v;
}

/* What IA32_PERF_METRICS reads now (msr/sim/msr_sim.h). */
uint64_t sim_metrics_value(struct sim *s, struct sim_cpu *c)
{
	int level = c->kind->topdown_level;
	double f[SIM_NODES], acc = c->m.met_access + c->m.met_work, w = acc + (double)c->m.met_w0;
	uint64_t v = 0;

	if (!acc)
		return c->m.met_v0;
	shares(s, c, f);
	for (unsigned i = 0; i < (level >= 2 ? 8u : 4u); i++) {
		double b = f[i];

		if (c->m.met_w0) /* the value written, weighted by the slots it stood for */
			b = ((double)c->m.met_w0 * byte_of(c->m.met_v0, i) + acc * b) / w;
		v = put_byte(v, i, lround(b));
	}
	return faulty_bytes(s, v, level);
}

