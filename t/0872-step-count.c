/*
 * t/0872-step-count - what `make benchmark` reports where RDPMC cannot be
 * timed: instructions counted by single-stepping
 * (bench/benchmarks/stepcount.h), on stretches whose instructions are
 * counted here by hand, and the spread it reports (bench/stats.h p05,
 * p95: type-7 quantiles, Hyndman & Fan 1996 definition 7).
 *
 * The stretch `known` (its asm below), by hand: lfence, nop, nop, rdtsc,
 * lfence, mov, rdpmc, nop, rdtsc, lfence: 10 instructions, 1 RDPMC, 2
 * RDTSC, 3 LFENCE; after the first RDTSC up to and with the second:
 * lfence, mov, rdpmc, nop, rdtsc = 5.  Its RDPMC (ECX (1<<30)|3, fixed
 * counter 3) faults where user RDPMC is not enabled, as on the machines
 * without a PMU this project builds on: it is then stepped over (read as
 * 0) and still counted; where it runs, nothing is emulated.  A loop of 3
 * turns of 3 instructions (dec, jnz and a nop), one mov before: 10.
 * An empty stretch: 0, no RDTSC pair (-1).
 */
#include <stdint.h>

#include "bench/benchmarks/stepcount.h"
#include "bench/stats.h"
#include "msr/regs/intel_regs.h"
#include "msr/regs/rdpmc.h"
#include "t/tap.h"

extern const char t_known_begin[], t_known_end[], t_loop_begin[], t_loop_end[],
	t_empty_begin[], t_empty_end[];

static __attribute__((noinline, noclone)) void known(void *arg)
{
	uint64_t *v = arg;
	uint32_t lo, hi;

	__asm__ __volatile__(".globl t_known_begin\n.hidden t_known_begin\nt_known_begin:\n\t"
			     "lfence\n\tnop\n\tnop\n\trdtsc\n\tlfence\n\t"
			     "mov $0x40000003, %%ecx\n\trdpmc\n\tnop\n\trdtsc\n\tlfence\n"
			     ".globl t_known_end\n.hidden t_known_end\nt_known_end:"
			     : "=a"(lo), "=d"(hi) :: "rcx", "memory");
	*v = ((uint64_t)hi << 32) | lo;
}

static __attribute__((noinline, noclone)) void loop(void *arg)
{
	(void)arg;
	__asm__ __volatile__(".globl t_loop_begin\n.hidden t_loop_begin\nt_loop_begin:\n\t"
			     "mov $3, %%ecx\n1:\n\tnop\n\tdec %%ecx\n\tjnz 1b\n"
			     ".globl t_loop_end\n.hidden t_loop_end\nt_loop_end:" ::: "rcx", "cc");
}

static __attribute__((noinline, noclone)) void empty(void *arg)
{
	(void)arg;
	__asm__ __volatile__(".globl t_empty_begin\n.hidden t_empty_begin\nt_empty_begin:\n"
			     ".globl t_empty_end\n.hidden t_empty_end\nt_empty_end:" ::: "memory");
}

static void counts(void)
{
	struct step_count c;
	uint64_t v = 1;
	int faults = rdpmc_probe(RDPMC_ECX_SLOTS) != 0;

	check_int(step_count(known, &v, t_known_begin, t_known_end, &c), ==, 0, "step the known stretch");
	check_int(c.n, ==, 10, "10 instructions");
	check_int(c.rdpmc, ==, 1, "1 RDPMC");
	check_int(c.rdtsc, ==, 2, "2 RDTSC");
	check_int(c.lfence, ==, 3, "3 LFENCE");
	check_int(c.between, ==, 5, "5 after the first RDTSC up to the second");
	check_int(c.emulated, ==, faults, faults ? "the faulting RDPMC stepped over" :
		  "RDPMC runs here: nothing emulated");
	ok(v != 0, "the stretch ran on: its last RDTSC read the TSC");
	check_int(step_count(loop, NULL, t_loop_begin, t_loop_end, &c), ==, 0, "step the loop");
	check_int(c.n, ==, 10, "mov + 3 x (nop, dec, jnz) = 10");
	check_int(c.between, ==, -1, "no RDTSC: -1");
	check_int(step_count(empty, NULL, t_empty_begin, t_empty_end, &c), ==, 0, "step nothing");
	check_int(c.n, ==, 0, "an empty stretch: 0");
	/* and again: the handlers are put back and set up anew each time */
	check_int(step_count(known, &v, t_known_begin, t_known_end, &c), ==, 0, "step it again");
	check_int(c.n, ==, 10, "10 again");
}

/* 21 values: h = 20 p, so p05 = x[1], p95 = x[19]: 1 and 19 of 0..20.
 * 0..99 (100 values): h = 99 x 0.05 = 4.95 -> 4 + 0.95 = 4.95; p95 h =
 * 94.05 -> 94.05. */
static void spread(void)
{
	double v[100];
	struct bench_stats s;

	for (unsigned i = 0; i < 100; i++)
		v[i] = (double)(99 - i);
	bench_stats_compute(v, 21, &s);
	ok(s.p05 == 80 && s.p95 == 98, "99 down to 79: sorted 79..99, p05 x[1] = 80, p95 x[19] = 98");
	for (unsigned i = 0; i < 21; i++)
		v[i] = (double)i;
	bench_stats_compute(v, 21, &s);
	check_dbl(s.p05, 1, 1e-12, "0..20: p05 = x[1] = 1");
	check_dbl(s.p95, 19, 1e-12, "0..20: p95 = x[19] = 19");
	for (unsigned i = 0; i < 100; i++)
		v[i] = (double)i;
	bench_stats_compute(v, 100, &s);
	check_dbl(s.p05, 4.95, 1e-12, "0..99: p05 4.95");
	check_dbl(s.p95, 94.05, 1e-12, "0..99: p95 94.05");
}

int main(void)
{
	counts();
	spread();
	return done_testing();
}
