/*
 * t/1043-sim-constraints.c - the simulated PMU honours the vendor's
 * counter constraints (msr/sim/msr_sim.h "General-purpose counters"): an event
 * programmed on a counter intel/perfmon does not let it use ("Counter"
 * with `smt on`, "CounterHTOff" with it off) counts 0 there, as the
 * hardware does not count it, and the same event on an allowed counter
 * counts its share - so a pass scheduled against the rule shows in the
 * counts.  Each case programs one event on an allowed and a forbidden
 * counter at once, runs W cycles of work (`ghz 0`) and reads both:
 *   - Haswell-EP (hwloc dump Intel-Haswell-2xXeon-E5-2680v3, 8 GP
 *     counters): IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE (0x9C/
 *     0x01 c4, haswellx_core.json Counter and CounterHTOff "0,1,2,3") on
 *     counters 0 and 4: fetch latency 0.12 x W cycles on 0 (halved with
 *     `smt on`: the thread's half), 0 on 4;
 *   - Skylake-S (i5-6600K, 8 GP counters, no Hyper-Threading):
 *     CYCLE_ACTIVITY.STALLS_MEM_ANY (0xA3/0x14 c20, skylake_core.json
 *     CounterHTOff "0,1,2,3") on 0 and 7: 3/4 x memory bound 0.18 x W on
 *     0, 0 on 7; CYCLE_ACTIVITY.STALLS_TOTAL (0xA3/0x04 c4, CounterHTOff
 *     "0,1,2,3,4,5,6,7") counts on 6;
 *   - Sapphire Rapids (hwloc dump Intel-SapphireRapids-2xXeonMax9460):
 *     TOPDOWN.BR_MISPREDICT_SLOTS (0xA4/0x08, sapphirerapids_core.json
 *     Counter "0") on 0 and 1: width 6 x branch mispredicts 0.06 x W on
 *     0, 0 on 1; TOPDOWN.MEMORY_BOUND_SLOTS (0xA4/0x10, "0,...,7") counts
 *     on 2.
 * The shares: the simulator's documented counting (msr/sim/sim_events.c file
 * comment), worked below; the constraints: the perfmon files named.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msr/access/msr.h"
#include "msr/open/msr_open.h"
#include "msr/sim/msr_sim.h"
#include "t/fixture.h"

#define W 1000000u

static char dir[PATH_MAX];
static const char *shared;

static const char shares[] =
	"ghz 0\nretiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n"
	"heavy_operations 10\nbranch_mispredicts 6\nfetch_latency 12\nmemory_bound 18\n";

static struct msr_dev *open_sim(const char *dump, const char *name, const char *profile)
{
	char path[PATH_MAX], spec[PATH_MAX + 8];
	struct msr_dev *dev = NULL;

	setenv("BARETMA_CPUID_DUMP", dump, 1);
	t_path(path, "%s/%s", dir, name);
	put_file(path, profile);
	t_path(spec, "sim:%s", path);
	if (msr_open(spec, &dev)) {
		printf("# msr_open %s: %s\n", spec, msr_last_error());
		return NULL;
	}
	msr_ungate(dev); /* the model alone: no journal in front of it */
	return dev;
}

/* USR 0x10000 | OS 0x20000 | EN 0x400000 */
#define SEL(ev, um, c) (0x430000ull | (uint64_t)(c) << 24 | (uint64_t)(um) << 8 | (ev))

/* @sel[i] on GP counter @ctr[i], W cycles of work, the counts into @out. */
static bool count(struct msr_dev *d, const uint64_t *sel, const unsigned *ctr, unsigned n,
		  uint64_t *out)
{
	uint64_t en = 0;

	msr_write(d, 0, 0x38f, 0);
	for (unsigned i = 0; i < n; i++) {
		msr_write(d, 0, 0x4c1 + ctr[i], 0);
		msr_write(d, 0, 0x186 + ctr[i], sel[i]);
		en |= 1ull << ctr[i];
	}
	msr_write(d, 0, 0x38f, en);
	if (msr_sim_work(d, 0, W))
		return false;
	msr_write(d, 0, 0x38f, 0);
	for (unsigned i = 0; i < n; i++)
		if (msr_read(d, 0, 0x4c1 + ctr[i], &out[i]))
			return false;
	return true;
}

static void haswell(bool smt)
{
	const char *d = t_in(shared, "hwloc/Intel-Haswell-2xXeon-E5-2680v3");
	char prof[sizeof(shares) + 16];
	struct msr_dev *dev;
	const uint64_t sel[] = { SEL(0x9c, 0x01, 4), SEL(0x9c, 0x01, 4) };
	const unsigned ctr[] = { 0, 4 };
	uint64_t c[2] = { 0 };

	snprintf(prof, sizeof(prof), "%s%s", shares, smt ? "smt on\n" : "");
	if (access(d, R_OK) || !(dev = open_sim(d, smt ? "hsw-smt" : "hsw", prof))) {
		skip(3, "no hwloc dump Intel-Haswell-2xXeon-E5-2680v3");
		return;
	}
	ok(count(dev, sel, ctr, 2, c), "Haswell-EP%s: counted", smt ? ", smt on" : "");
	/* fetch latency's cycles: 0.12 x 1e6; with smt on the thread's half */
	check_u64(c[0], ==, smt ? 60000 : 120000, smt ?
		  "  CYCLES_0_UOPS_DELIV.CORE on counter 0: 0.12 x 1e6 / 2 (the thread's half)" :
		  "  CYCLES_0_UOPS_DELIV.CORE on counter 0: 0.12 x 1e6");
	check_u64(c[1], ==, 0, smt ? "  on counter 4: 0 (Counter 0,1,2,3)" :
		  "  on counter 4: 0 (CounterHTOff 0,1,2,3)");
	msr_close(dev);
}

static void skylake(void)
{
	const char *d = t_in(shared, "libcpuid/v0.6.2/intel/core_6th_gen/skylake-i5.test");
	struct msr_dev *dev;
	const uint64_t sel[] = { SEL(0xa3, 0x14, 20), SEL(0xa3, 0x14, 20), SEL(0xa3, 0x04, 4) };
	const unsigned ctr[] = { 0, 7, 6 };
	uint64_t c[3] = { 0 };

	if (access(d, R_OK) || !(dev = open_sim(d, "skl", shares))) {
		skip(4, "no Skylake-S dump");
		return;
	}
	ok(count(dev, sel, ctr, 3, c), "Skylake-S: counted");
	check_u64(c[0], ==, 135000, "  STALLS_MEM_ANY on counter 0: 3/4 x 0.18 x 1e6");
	check_u64(c[1], ==, 0, "  on counter 7: 0 (CounterHTOff 0,1,2,3)");
	check_u64(c[2], ==, 195000, "  STALLS_TOTAL on counter 6 (CounterHTOff 0-7): "
		  "(0.135 + 0.12 / 2) x 1e6");
	msr_close(dev);
}

static void sapphire_rapids(void)
{
	const char *d = t_in(shared, "hwloc/Intel-SapphireRapids-2xXeonMax9460");
	struct msr_dev *dev;
	const uint64_t sel[] = { SEL(0xa4, 0x08, 0), SEL(0xa4, 0x08, 0), SEL(0xa4, 0x10, 0) };
	const unsigned ctr[] = { 0, 1, 2 };
	uint64_t c[3] = { 0 };

	if (access(d, R_OK) || !(dev = open_sim(d, "spr", shares))) {
		skip(4, "no hwloc dump Intel-SapphireRapids-2xXeonMax9460");
		return;
	}
	ok(count(dev, sel, ctr, 3, c), "Sapphire Rapids: counted");
	check_u64(c[0], ==, 360000, "  BR_MISPREDICT_SLOTS on counter 0: 6 x 0.06 x 1e6");
	check_u64(c[1], ==, 0, "  on counter 1: 0 (Counter 0)");
	check_u64(c[2], ==, 1080000, "  MEMORY_BOUND_SLOTS on counter 2: 6 x 0.18 x 1e6");
	msr_close(dev);
}

int main(void)
{
	shared = t_shared_dumps();
	t_scratch(dir, "1043");
	haswell(false);
	haswell(true);
	skylake();
	sapphire_rapids();
	t_rm_rf(dir);
	return done_testing();
}
