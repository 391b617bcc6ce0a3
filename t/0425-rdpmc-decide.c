/*
 * t/0425-rdpmc-decide - can the run use RDPMC, decided through the seam
 * (struct bench_rdpmc_ops) against a model of the kernel's rule
 * (linux arch/x86/events/core.c): CR4.PCE is set with
 * rdpmc = 2 always, with 0 never, and with 1 only while the running mm has
 * a perf event mmapped (x86_pmu_event_mapped -> perf_rdpmc_allowed).  The
 * model below is that rule, written from the reference, not from
 * bench/avail.c: the probe faults unless the rule allows RDPMC.
 */
#include <errno.h>
#include <string.h>

#include "bench/bench.h"
#include "msr/regs/intel_regs.h"
#include "t/tap.h"

/* The modelled kernel. */
static int sysfs;          /* /sys/bus/event_source/devices/cpu/rdpmc */
static int mapped;         /* perf events this mm has mmapped */
static int enable_err;     /* what perf_event_open/mmap returns (0: works) */
static int enables, disables, probes, probes_mapped;
static unsigned last_ecx[4];

static int fake_sysfs(void) { return sysfs; }

static int fake_enable(int *fd)
{
	enables++;
	if (enable_err)
		return enable_err;
	mapped++;
	*fd = 100 + mapped;
	return 0;
}

static void fake_disable(int fd)
{
	(void)fd;
	disables++;
	mapped--;
}

/* RDPMC at CPL 3: #GP (-EFAULT, as rdpmc_probe reports SIGSEGV) unless
 * CR4.PCE is set for this mm. */
static int fake_probe(uint32_t ecx)
{
	int pce = sysfs == 2 || (sysfs == 1 && mapped > 0);

	if (probes < 4)
		last_ecx[probes] = ecx;
	probes++;
	probes_mapped += mapped > 0;
	return pce ? 0 : -EFAULT;
}

static const struct bench_rdpmc_ops ops = {
	.sysfs_value = fake_sysfs, .enable_self = fake_enable,
	.disable_self = fake_disable, .probe = fake_probe,
};

static void reset(int value, int err)
{
	sysfs = value;
	enable_err = err;
	mapped = enables = disables = probes = probes_mapped = 0;
	memset(last_ecx, 0, sizeof(last_ecx));
}

static void decide(struct bench_avail *a, int *key)
{
	memset(a, 0, sizeof(*a));
	a->rdpmc_sysfs = ops.sysfs_value();
	bench_rdpmc_decide(&ops, key, a);
}

int main(void)
{
	struct bench_avail a;
	char why[512];
	int key;

	/* rdpmc = 1, the stock default: the key is made BEFORE the probe, the
	 * probe passes, and the key stays for the run. */
	reset(1, 0);
	key = -1;
	decide(&a, &key);
	ok(a.rdpmc_ok, "rdpmc=1: RDPMC usable once this process maps a perf event");
	check_int(enables, ==, 1, "rdpmc=1: one key made");
	check_int(probes_mapped, ==, probes, "rdpmc=1: every probe ran with the key mapped");
	check_u64(last_ecx[0], ==, 0x40000003, "probe 1: RDPMC (1<<30)|3, TOPDOWN.SLOTS");
	check_u64(last_ecx[1], ==, 0x20000000, "probe 2: RDPMC 1<<29, PERF_METRICS");
	ok(key >= 0 && disables == 0, "rdpmc=1: the key is kept for the run");
	check_int(a.rdpmc_key_err, ==, 0, "rdpmc=1: no key error");
	/* a second decision (bench_recheck) reuses the key */
	decide(&a, &key);
	ok(a.rdpmc_ok && enables == 1, "recheck: the kept key is reused, not made again");

	/* rdpmc = 2: no key needed, none made */
	reset(2, 0);
	key = -1;
	decide(&a, &key);
	ok(a.rdpmc_ok && enables == 0 && key < 0, "rdpmc=2: usable, no key made");

	/* rdpmc = 0: never; no key made (it could not help) */
	reset(0, 0);
	key = -1;
	decide(&a, &key);
	ok(!a.rdpmc_ok && enables == 0 && key < 0, "rdpmc=0: faults, no key");
	bench_rdpmc_reason(&a, why, sizeof(why));
	ok(strstr(why, "rdpmc = 0: user RDPMC disabled (try: --rdpmc-always") != NULL,
	   "rdpmc=0: the reason names the setting and the flag");

	/* rdpmc = 1 but perf_event_open refused (perf_event_paranoid): the
	 * probe faults, the reason says why and what to do */
	reset(1, -EACCES);
	key = -1;
	decide(&a, &key);
	ok(!a.rdpmc_ok && key < 0, "rdpmc=1, no key possible: faults");
	check_int(a.rdpmc_key_err, ==, -EACCES, "the key's error is kept");
	bench_rdpmc_reason(&a, why, sizeof(why));
	ok(strstr(why, "rdpmc = 1: user RDPMC needs a perf event of this process mmapped, and "
		  "perf_event_open/mmap of one failed: Permission denied") != NULL,
	   "reason: the key failed, with its errno");
	ok(strstr(why, "perf_event_paranoid") && strstr(why, "--rdpmc-always"),
	   "reason: the paranoid setting and --rdpmc-always");

	/* rdpmc = 1, key made, probe still faults (e.g. a hypervisor that does
	 * not pass RDPMC through): the useless key is dropped */
	reset(1, 0);
	sysfs = 1;
	key = -1;
	memset(&a, 0, sizeof(a));
	a.rdpmc_sysfs = 1;
	sysfs = 0; /* the model: PCE never set, whatever the sysfs file said */
	bench_rdpmc_decide(&ops, &key, &a);
	ok(!a.rdpmc_ok && enables == 1 && disables == 1 && key < 0 && mapped == 0,
	   "a key that did not help is dropped");
	return done_testing();
}
