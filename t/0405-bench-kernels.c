/*
 * t/0405-bench-kernels.c - the known-answer kernel table: documentation,
 * the structures setup() builds (checked by walking them from outside),
 * and that every kernel's fastest repetition costs more TSC time than the
 * empty bracket's fastest.  How long setup and repetitions take is the
 * machine's business, not asserted here: `make benchmark` reports it
 * (bench/benchmarks/timings.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench.h"
#include "msr/regs/rdpmc.h"
#include "t/tap.h"

#define MiB ((uint64_t)1 << 20)

/* The default run order (bench.h, the brief of the table). */
static const char *const order[] = {
	"empty", "retire-light", "heavy-ops", "dep-chain", "divider",
	"ptr-chase", "branch-miss", "icache-miss",
};

/* perf's Top-down metric names (tools/perf/pmu-events/arch/x86/
 * sapphirerapids/spr-metrics.json, levels 1 and 2). */
static const char *const nodes[] = {
	"tma_retiring", "tma_light_operations", "tma_heavy_operations",
	"tma_bad_speculation", "tma_branch_mispredicts", "tma_machine_clears",
	"tma_frontend_bound", "tma_fetch_latency", "tma_fetch_bandwidth",
	"tma_backend_bound", "tma_core_bound", "tma_memory_bound",
};

static bool known_node(const char *s)
{
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++)
		if (strcmp(s, nodes[i]) == 0)
			return true;
	return false;
}

static void check_table(void)
{
	size_t n;
	const struct bench_kernel *k = bench_kernels(&n);

	check_u64(n, ==, sizeof(order) / sizeof(order[0]), "table has 8 kernels");
	for (size_t i = 0; i < n && i < sizeof(order) / sizeof(order[0]); i++) {
		check_str(k[i].name, order[i], "default run order");
		ok(k[i].run != NULL, "%s: has run()", k[i].name);
		ok(k[i].why && strlen(k[i].why) > 20 && !strchr(k[i].why, '\n'),
		   "%s: why is one documented line", k[i].name);
		if (i == 0)
			check_str(k[i].node, "none", "empty stresses no node");
		else
			ok(k[i].node && known_node(k[i].node), "%s: node '%s' is a perf tma_* name",
			   k[i].name, k[i].node ? k[i].node : "(null)");
		ok(bench_kernel_find(order[i]) == &k[i], "find('%s') gives the table entry", order[i]);
		ok((k[i].setup == NULL) == (k[i].teardown == NULL),
		   "%s: setup and teardown come together", k[i].name);
	}
	ok(bench_kernel_find("nope") == NULL, "find('nope') is NULL");
	ok(bench_kernel_find(NULL) == NULL, "find(NULL) is NULL");
}

/* ptr-chase: max(4 x LLC, 64 MiB), 128 MiB when the LLC is unknown. */
static void check_chase_size(const struct bench_kernel *k, uint64_t llc, uint64_t want)
{
	struct bench_kernel_ctx c = { .llc_bytes = llc };
	int rc = k->setup(&c);
	const struct bench_kernel_region *r = bench_kernel_region_of(&c);

	check_int(rc, ==, 0, "ptr-chase setup");
	if (rc || !r) {
		skip(2, "setup failed");
		return;
	}
	check_u64(r->bytes, ==, want, "ptr-chase size for this LLC");
	check_u64(r->count, ==, want / 64, "ptr-chase: one 64-byte line per node");
	k->teardown(&c);
}

/* Walk the cycle from node 0: it must come back after exactly count hops
 * and visit every node once; every pointer is a line of the buffer. */
static void check_chase_cycle(const struct bench_kernel_region *r)
{
	size_t n = r->count, steps = 0;
	unsigned char *seen = calloc((n + 7) / 8, 1);
	const char *base = r->base, *p = base;
	bool inside = true, once = true;

	if (!seen)
		return (void)ok(0, "calloc");
	do {
		size_t off = (size_t)(p - base), i = off / 64;

		if (p < base || off >= r->bytes || off % 64) {
			inside = false;
			break;
		}
		if (seen[i / 8] & (1u << (i % 8))) {
			once = false;
			break;
		}
		seen[i / 8] |= (unsigned char)(1u << (i % 8));
		memcpy(&p, p, sizeof(p));
		steps++;
	} while (p != base && steps <= n);
	ok(inside, "ptr-chase: every pointer is a node of the buffer");
	ok(once, "ptr-chase: no node is visited twice before the cycle closes");
	check_u64(steps, ==, n, "ptr-chase: one cycle through all nodes");
	free(seen);
}

/* The node @hops steps after @from. */
static const void *chase_from(const void *from, unsigned hops)
{
	const void *p = from;

	while (hops--)
		memcpy(&p, p, sizeof(p));
	return p;
}

static void check_chase(const struct bench_kernel *k)
{
	struct bench_kernel_ctx c = { .llc_bytes = 1 * MiB };
	const struct bench_kernel_region *r;
	int rc = k->setup(&c);

	r = bench_kernel_region_of(&c);
	check_int(rc, ==, 0, "ptr-chase setup with a 1 MiB LLC");
	if (rc || !r) {
		skip(6, "setup failed");
		return;
	}
	check_u64(r->bytes, ==, 64 * MiB, "ptr-chase: 1 MiB LLC gives the 64 MiB floor");
	check_chase_cycle(r);
	/* each repetition continues from where the last stopped: 4096 hops
	 * (kernels.c CHASE_HOPS) from node 0, then 4096 more */
	k->run(&c);
	ok(c.sink == (uintptr_t)chase_from(r->base, 4096), "ptr-chase: first run ends 4096 hops from node 0");
	k->run(&c);
	ok(c.sink == (uintptr_t)chase_from(r->base, 8192), "ptr-chase: second run continues to hop 8192");
	k->teardown(&c);
	ok(c.priv == NULL && bench_kernel_region_of(&c) == NULL, "ptr-chase teardown clears priv");
	check_chase_size(k, 0, 128 * MiB);
	check_chase_size(k, 20 * MiB, 80 * MiB);
}

static size_t odd_bytes(const unsigned char *p, size_t n)
{
	size_t odd = 0;

	for (size_t i = 0; i < n; i++)
		odd += p[i] & 1;
	return odd;
}

static void check_branch(const struct bench_kernel *k)
{
	struct bench_kernel_ctx c = { .llc_bytes = 1 * MiB };
	const struct bench_kernel_region *r;
	int rc = k->setup(&c);

	r = bench_kernel_region_of(&c);
	check_int(rc, ==, 0, "branch-miss setup");
	if (rc || !r) {
		skip(4, "setup failed");
		return;
	}
	/* Bit 0 of uniform random bytes: binomial(n, 1/2), sd = sqrt(n)/2;
	 * six sd either side (512 x 6 = 3072 for 1 MiB) */
	size_t n = r->count, odd = odd_bytes(r->base, n);
	double sd = sqrt((double)n) / 2;

	ok(n >= 65536, "branch-miss: %zu bytes of data", n);
	ok(fabs((double)odd - (double)n / 2) <= 6 * sd,
	   "branch-miss: %zu of %zu taken (%.4f), 1/2 within 6 sd", odd, n, (double)odd / (double)n);
	/* known answer: each run counts the odd bytes of the next 4096-byte
	 * window (kernels.c BRANCH_REP), so the asm branch did what it says */
	k->run(&c);
	check_u64(c.sink, ==, odd_bytes(r->base, 4096), "branch-miss: run 1 counts window 0's odd bytes");
	k->run(&c);
	check_u64(c.sink, ==, odd_bytes((const unsigned char *)r->base + 4096, 4096),
		  "branch-miss: run 2 counts window 1's odd bytes");
	k->teardown(&c);
}

/* The mapping holding @p: "r-xp" etc. from /proc/self/maps, or "" */
static void perms_of(const void *p, char perms[5])
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	uintptr_t a = (uintptr_t)p;

	strcpy(perms, "");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char pr[5];

		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, pr) == 3 && a >= lo && a < hi) {
			memcpy(perms, pr, 5);
			break;
		}
	}
	fclose(f);
}

/* Decode the JIT chain from the entry: block 0 starts endbr64; xor eax,eax;
 * every block then has add $1,%eax and a jmp rel32 to the start of another
 * block, the last a ret.  Returns the blocks visited, 0 on a bad chain. */
static size_t walk_icache(const struct bench_kernel_region *r, bool *ret_seen)
{
	static const unsigned char entry[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x31, 0xc0 };
	static const unsigned char add1[] = { 0x83, 0xc0, 0x01 };
	const unsigned char *base = r->base, *p = base + sizeof(entry);
	unsigned char *seen = calloc(r->count, 1);
	size_t steps = 0;

	*ret_seen = false;
	if (!seen || memcmp(base, entry, sizeof(entry)) != 0)
		goto bad;
	for (;;) {
		size_t blk = (size_t)(p - base) / r->unit;

		if (seen[blk] || memcmp(p, add1, sizeof(add1)) != 0)
			goto bad;
		seen[blk] = 1;
		steps++;
		p += sizeof(add1);
		if (*p == 0xc3) {
			*ret_seen = true;
			break;
		}
		if (*p != 0xe9)
			goto bad;
		int32_t rel;

		memcpy(&rel, p + 1, sizeof(rel));
		p = p + 5 + rel;
		if (p < base || p >= base + r->bytes || (size_t)(p - base) % r->unit)
			goto bad;
	}
	free(seen);
	return steps;
bad:
	free(seen);
	return 0;
}

static void check_icache(const struct bench_kernel *k)
{
	struct bench_kernel_ctx c = { .llc_bytes = 1 * MiB };
	const struct bench_kernel_region *r;
	int rc = k->setup(&c);
	char perms[5];
	bool ret_seen;

	r = bench_kernel_region_of(&c);
	check_int(rc, ==, 0, "icache-miss setup");
	if (rc || !r) {
		skip(6, "setup failed");
		return;
	}
	/* L1i is 32 KiB (Sunny/Golden Cove) to 64 KiB (Lion Cove) */
	ok(r->bytes >= 1 * MiB && r->count * r->unit == r->bytes,
	   "icache-miss: %zu blocks of %zu bytes, far beyond L1i", r->count, r->unit);
	check_u64(r->unit, ==, 64, "icache-miss: one block per cache line");
	perms_of(r->base, perms);
	check_str(perms, "r-xp", "icache-miss: code is read+exec, not writable");
	check_u64(walk_icache(r, &ret_seen), ==, r->count,
		  "icache-miss: the chain visits every block exactly once");
	ok(ret_seen, "icache-miss: the chain ends in ret");
	k->run(&c);
	check_u64(c.sink, ==, r->count, "icache-miss: calling it returns the block count");
	k->teardown(&c);
}

#define TIMED 11

/* Fastest of TIMED fenced-TSC repetitions after one warm-up; -1 on failure. */
static double fastest(const struct bench_kernel *k)
{
	struct bench_kernel_ctx c = { .llc_bytes = 1 * MiB };
	double min = -1;

	if (k->setup && k->setup(&c) != 0)
		return -1;
	k->run(&c);
	for (int i = 0; i < TIMED; i++) {
		uint64_t t0 = rdtsc_fenced();
		double t;

		k->run(&c);
		t = (double)(rdtsc_fenced() - t0);
		if (min < 0 || t < min)
			min = t;
	}
	if (k->teardown)
		k->teardown(&c);
	return min;
}

/*
 * Each kernel does more than the empty bracket: compared on the fastest
 * repetitions, since preemption, neighbours, a slow or instrumented (ASan)
 * build only ever add time to a repetition, never take it away; the
 * fastest of 11 is the closest to the work itself, whatever the load.
 */
static void check_times(void)
{
	size_t n;
	const struct bench_kernel *k = bench_kernels(&n);
	double empty = fastest(&k[0]);

	if (empty < 0)
		return (void)ok(0, "timing the empty kernel");
	printf("# %-12s fastest %9.0f TSC ticks\n", k[0].name, empty);
	for (size_t i = 1; i < n; i++) {
		double min = fastest(&k[i]);

		printf("# %-12s fastest %9.0f TSC ticks\n", k[i].name, min);
		ok(min > empty, "%s: its fastest repetition costs more than the empty bracket's", k[i].name);
	}
}

int main(void)
{
	check_table();
	check_chase(bench_kernel_find("ptr-chase"));
	check_branch(bench_kernel_find("branch-miss"));
	check_icache(bench_kernel_find("icache-miss"));
	check_times();
	return done_testing();
}
