/*
 * bench/kernels_hooks.c - hidden kernels for the tests, found only with
 * $BARETMA_TEST_HOOKS=1 (bench_kernel_find): listed nowhere, never run by
 * default.  Linked only into t/baretma-hooks, the tool as `make check`
 * builds it for the tests (Makefile.am): not in libbaretma.a, so the
 * installed baretma has none of these kernels, and never from an untrusted
 * environment (bench_test_hooks_ignored).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench/bench.h"
#include "msr/open/msr_open.h"
#include "msr/regs/amd_regs.h"
#include "msr/regs/intel_regs.h"
#include "msr/sim/msr_sim.h"


/*
 * Hidden kernels for the tests of the restore guard (t/0380): each one
 * faults inside the bracket, with the counters programmed, the way a
 * broken kernel under test would.  Listed nowhere and found only with
 * $BARETMA_TEST_HOOKS=1.  The faulting accesses are asm, so that the
 * sanitizer builds do not catch them first.
 */
static void k_fault_segv(struct bench_kernel_ctx *c)
{
	/* a store to page 0, never mapped (vm.mmap_min_addr) */
	__asm__ __volatile__("movq $0, (%0)" :: "r"((uintptr_t)64) : "memory");
}

static void k_fault_fpe(struct bench_kernel_ctx *c)
{
	/* DIV by zero: #DE, SIGFPE */
	__asm__ __volatile__("xorl %%edx, %%edx\n\tmovl $1, %%eax\n\txorl %%ecx, %%ecx\n\t"
			     "divl %%ecx" ::: "eax", "ecx", "edx", "cc");
}

static void k_fault_ill(struct bench_kernel_ctx *c)
{
	__asm__ __volatile__("ud2");
}

/* A page of a zero-length file: touching it is SIGBUS (mmap(2)). */
static int k_bus_setup(struct bench_kernel_ctx *c)
{
	static struct bench_kernel_region r;
	int fd = memfd_create("baretma-test-bus", MFD_CLOEXEC);

	if (fd < 0)
		return -errno;
	r.bytes = 4096;
	r.base = mmap(NULL, r.bytes, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (r.base == MAP_FAILED)
		return -errno;
	c->priv = &r;
	return 0;
}

static void k_fault_bus(struct bench_kernel_ctx *c)
{
	const struct bench_kernel_region *r = c->priv;
	uint64_t v;

	__asm__ __volatile__("movq (%1), %0" : "=r"(v) : "r"(r->base) : "memory");
	c->sink = v;
}

/* ---------------------------------------- test-only counter interference */

/*
 * Hidden kernels that play, from inside the bracket and at a known
 * repetition, what the hardware or another program does to the counters
 * (t/0386): the tests get each repetition's fate exactly, whatever the
 * machine's speed.  They write through a second handle of the state-file
 * backend ($BARETMA_MSR must be state:FILE: on a real msr device they
 * refuse, -EPERM), which the run's own handle sees as another process's
 * change (msr/access/msr.h: the backend re-reads a changed FILE).
 */
struct hook_state {
	struct bench_kernel_region region; /* unused; the priv convention */
	struct msr_dev *dev;
	unsigned calls;
};

static int hook_setup(struct bench_kernel_ctx *c)
{
	static struct hook_state h;
	const char *spec = msr_env_spec();
	int rc;

	if (strncmp(spec, "state:", 6))
		return -EPERM;
	memset(&h, 0, sizeof(h));
	rc = msr_open(spec, &h.dev);
	/* another program's handle (the hardware, perf): no journal gates it */
	if (!rc && (rc = msr_ungate(h.dev))) {
		msr_close(h.dev);
		h.dev = NULL;
	}
	if (rc)
		return rc;
	c->priv = &h;
	return 0;
}

static void hook_teardown(struct bench_kernel_ctx *c)
{
	struct hook_state *h = c->priv;

	if (h)
		msr_close(h->dev);
	c->priv = NULL;
}

/*
 * Call i (warm-up included) makes the hardware set, through
 * IA32_PERF_GLOBAL_STATUS_SET (linux msr-index.h), OVF_PERF_METRICS (bit
 * 48) when i % 3 == 0, fixed counter 3's overflow bit (35) when i % 3 == 1,
 * and nothing when i % 3 == 2.
 */
static void k_hook_overflow(struct bench_kernel_ctx *c)
{
	struct hook_state *h = c->priv;
	unsigned i = h->calls++;

	if (i % 3 == 0)
		msr_write(h->dev, c->cpu, IA32_PERF_GLOBAL_STATUS_SET, GLOBAL_STATUS_OVF_PERF_METRICS);
	else if (i % 3 == 1)
		msr_write(h->dev, c->cpu, IA32_PERF_GLOBAL_STATUS_SET, GLOBAL_STATUS_OVF_FIXED3);
}

/*
 * Call i (warm-up included) makes the hardware set general-purpose counter
 * 0's overflow bit (bit 0 of IA32_PERF_GLOBAL_STATUS, through
 * IA32_PERF_GLOBAL_STATUS_SET: SDM Vol. 3B 20.2.4; of AMD's
 * PERF_CNTR_GLOBAL_STATUS, through PERF_CNTR_GLOBAL_STATUS_SET: linux
 * msr-index.h, whichever the CPU has) when i is even: an event recipe's
 * counter wrapping.
 */
static void k_hook_overflow_gp(struct bench_kernel_ctx *c)
{
	struct hook_state *h = c->priv;

	if (h->calls++ % 2)
		return;
	if (msr_write(h->dev, c->cpu, IA32_PERF_GLOBAL_STATUS_SET, 1))
		msr_write(h->dev, c->cpu, AMD_PERF_CNTR_GLOBAL_STATUS_SET, 1);
}

/* Call 2 (the third, warm-up included) clears the enable bit (22) of
 * general-purpose counter 0's event select, IA32_PERFEVTSEL0 or AMD's
 * PERF_CTL0 (SDM Vol. 3B 20.2.1; AMD PPR, linux msr-index.h), as another
 * program taking the counter would: an event recipe's tamper check. */
static void k_hook_tamper_gp(struct bench_kernel_ctx *c)
{
	struct hook_state *h = c->priv;
	uint64_t v;

	if (h->calls++ != 2)
		return;
	if (!msr_read(h->dev, c->cpu, IA32_PERFEVTSEL0, &v))
		msr_write(h->dev, c->cpu, IA32_PERFEVTSEL0, v & ~PERFEVTSEL_EN);
	else if (!msr_read(h->dev, c->cpu, AMD_PERF_CTL0, &v))
		msr_write(h->dev, c->cpu, AMD_PERF_CTL0, v & ~PERFEVTSEL_EN);
}

/* Call 2 (the third, warm-up included) clears fixed counter 3's field of
 * IA32_FIXED_CTR_CTRL, as perf starting on the CPU would (t/0383). */
static void k_hook_tamper(struct bench_kernel_ctx *c)
{
	struct hook_state *h = c->priv;
	uint64_t fcc;

	if (h->calls++ == 2 && !msr_read(h->dev, c->cpu, IA32_FIXED_CTR_CTRL, &fcc))
		msr_write(h->dev, c->cpu, IA32_FIXED_CTR_CTRL, fcc & ~FIXED_CTR3_FIELD_MASK);
}

/* ------------------------------------------------ simulated workload */

/*
 * A kernel of known work for the simulated PMU (msr/sim/msr_sim.h): each call
 * has the simulated CPU run the profile's `work_cycles` cycles at the
 * work's shares (msr_sim_work), from inside the bracket, whatever this
 * machine's speed.  With `ghz 0` a region then holds exactly the bracket's
 * accesses and that work (t/0454).  Through a handle of its own to the
 * same simulated machine ($BARETMA_MSR must be sim:PROFILE: anything else
 * is refused, -EPERM); it makes no MSR access.
 */
static struct msr_dev *sim_work_dev;

static int sim_work_setup(struct bench_kernel_ctx *c)
{
	const char *spec = msr_env_spec();
	int rc;

	if (strncmp(spec, "sim:", 4))
		return -EPERM;
	if ((rc = msr_open(spec, &sim_work_dev)))
		return rc;
	c->priv = sim_work_dev;
	return 0;
}

static void k_sim_work(struct bench_kernel_ctx *c)
{
	const struct sim_profile *p = msr_sim_profile_of(c->priv);

	if (p)
		msr_sim_work(c->priv, c->cpu, p->work_cycles);
}

static void sim_work_teardown(struct bench_kernel_ctx *c)
{
	msr_close(sim_work_dev);
	sim_work_dev = NULL;
	c->priv = NULL;
}

static const struct bench_kernel test_kernels[] = {
	{ "test-fault-segv", "none", "test only: a store to page 0 (SIGSEGV)",
	  NULL, k_fault_segv, NULL },
	{ "test-fault-bus", "none", "test only: a load past the end of a file (SIGBUS)",
	  k_bus_setup, k_fault_bus, NULL },
	{ "test-fault-fpe", "none", "test only: a division by zero (SIGFPE)",
	  NULL, k_fault_fpe, NULL },
	{ "test-fault-ill", "none", "test only: ud2 (SIGILL)",
	  NULL, k_fault_ill, NULL },
	{ "test-overflow", "none", "test only: sets GLOBAL_STATUS bit 48, 35, nothing, ...",
	  hook_setup, k_hook_overflow, hook_teardown },
	{ "test-overflow-gp", "none", "test only: sets GP counter 0's overflow bit every other call",
	  hook_setup, k_hook_overflow_gp, hook_teardown },
	{ "test-tamper-gp", "none", "test only: clears GP counter 0's enable bit at call 2",
	  hook_setup, k_hook_tamper_gp, hook_teardown },
	{ "test-tamper", "none", "test only: clears fixed counter 3's field at call 2",
	  hook_setup, k_hook_tamper, hook_teardown },
	{ "test-sim-work", "none", "test only: the simulated CPU runs `work_cycles` of work",
	  sim_work_setup, k_sim_work, sim_work_teardown },
};

const struct bench_kernel *bench_test_kernel_find(const char *name)
{
	for (size_t i = 0; i < sizeof(test_kernels) / sizeof(test_kernels[0]); i++)
		if (strcmp(test_kernels[i].name, name) == 0)
			return &test_kernels[i];
	return NULL;
}


