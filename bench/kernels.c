/*
 * bench/kernels.c - the known-answer kernels: each one is built to push
 * one Top-down node of an Intel P-core well above the others, so a run of
 * the table shows whether the measurement chain (FC3 + PERF_METRICS,
 * decoding, bracket subtraction) gives the answer the hardware must give.
 *
 * Contract (bench/bench.h): run() is one repetition of fixed work, the
 * same every call, roughly 20k..2M core cycles, so the 8-bit PERF_METRICS
 * fields keep precision and one repetition stays well under 5 ms.  Results
 * go to ctx->sink.  The work is inline asm wherever a compiler could delete,
 * vectorise or if-convert it; check with objdump -d bench/kernels.o.
 *
 * Instruction facts come from measured tables: uops.info (Abel & Reineke,
 * "uops.info: Characterizing Latency, Throughput, and Port Usage of
 * Instructions on Intel Microarchitectures", ASPLOS 2019), the LLVM
 * scheduling models generated from them (llvm/lib/Target/X86/
 * X86SchedSkylakeClient.td, X86SchedIceLake.td, X86SchedAlderlakeP.td) and
 * Agner Fog's instruction tables.  Node names are perf's (the metrics
 * JSON files in tools/perf/pmu-events/arch/x86/<model>/).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench/bench.h"
#include "cpu/trust.h"

#define KiB ((size_t)1 << 10)
#define MiB ((size_t)1 << 20)
#define CACHE_LINE 64

/* ------------------------------------------------------------ helpers */

/* splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014): a fixed seed gives the same data every run. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n) for n <= 2^32 (Lemire's multiply-shift; the bias of
 * at most n / 2^32 does not matter for a benchmark permutation). */
static uint32_t rng_below(uint64_t *s, uint64_t n)
{
	return (uint32_t)(((rng_next(s) >> 32) * n) >> 32);
}

/* @r becomes @bytes of anonymous private read-write memory in units of
 * @unit bytes.  Returns 0 or -errno (@r left empty). */
static int region_map(struct bench_kernel_region *r, size_t bytes, size_t unit)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -errno;
	r->base = p;
	r->bytes = bytes;
	r->unit = unit;
	r->count = bytes / unit;
	return 0;
}

/* Unmap @r's memory, if any. */
static void region_unmap(struct bench_kernel_region *r)
{
	if (r->base)
		munmap(r->base, r->bytes);
	r->base = NULL;
}

const struct bench_kernel_region *bench_kernel_region_of(const struct bench_kernel_ctx *c)
{
	return c ? c->priv : NULL;
}

/* Teardown shared by the kernels whose state starts with a region. */
static void region_teardown(struct bench_kernel_ctx *c)
{
	struct bench_kernel_region *r = c->priv;

	if (!r)
		return;
	region_unmap(r);
	free(r);
	c->priv = NULL;
}

/* -------------------------------------------------------------- empty */

/* The bracket alone: the harness subtracts its median from every kernel. */
static void k_empty_run(struct bench_kernel_ctx *c)
{
	(void)c;
}

/* ------------------------------------------------------- retire-light */

#define LIGHT_ITERS 8192 /* x 24 ALU uops = 196608 uops: ~49k cycles at 4/cycle, ~39k at 5 */

/*
 * Six independent 1-cycle add/xor/sub chains, 24 single-uop ALU
 * instructions per iteration plus one macro-fused sub+jnz.  Six chains
 * exceed the integer ALU ports (4 on Sunny Cove: p0156; 5 on Golden Cove:
 * p0156+p10), so the ports, not latency, limit the loop; every uop is a
 * single-uop instruction, so what retires is tma_light_operations:
 * ~4/5 of the slots on Ice Lake (5 wide), ~5/6 on Golden Cove (6 wide).
 * No xor r,r (a zero idiom would not execute at all).
 */
static void k_light_run(struct bench_kernel_ctx *c)
{
	uint64_t a = 1, b = 2, d = 3, e = 4, f = 5, g = 6, n = LIGHT_ITERS;

	__asm__ __volatile__(
		"1:\n\t"
		".rept 4\n\t"
		"add $1, %[a]\n\t"
		"add $3, %[b]\n\t"
		"xor $5, %[d]\n\t"
		"sub $7, %[e]\n\t"
		"add $9, %[f]\n\t"
		"xor $11, %[g]\n\t"
		".endr\n\t"
		"sub $1, %[n]\n\t"
		"jnz 1b"
		: [a] "+r"(a), [b] "+r"(b), [d] "+r"(d), [e] "+r"(e), [f] "+r"(f),
		  [g] "+r"(g), [n] "+r"(n)
		:
		: "cc");
	c->sink = a ^ b ^ d ^ e ^ f ^ g;
}

/* ---------------------------------------------------------- heavy-ops */

#define HEAVY_ITERS 4096 /* x 16 two-uop instructions = 131072 uops */

/*
 * Non-serialising, non-microcoded instructions that decode into exactly
 * two uops, on independent registers: what retires is
 * tma_heavy_operations ("instructions that require two or more uops").
 *  - bswap r64: 2 uops, latency 2; SKL/ICL p06+p15, ADL-P p06+p1
 *    (WriteBSWAP64 in the LLVM models above; uops.info BSWAP (R64)).
 *    bswap r32 is one uop, so the 64-bit form matters.
 *  - cmovbe/cmova r64: 2 uops on Broadwell and later (they read CF and ZF,
 *    two renamed flag groups; uops.info CMOVBE (R64, R64)), unlike the
 *    one-uop cmovcc that read one group.
 * Rejected: cpuid, lfence, xchg with memory (serialising / locked),
 * rep movsb and other microcode (MS switches would put slots into
 * tma_fetch_latency), div and mul (port/latency bound: core-bound).
 * Three bswaps to one cmov spread the uops over p0/p1/p5/p6; expect heavy
 * ~0.6 of the slots on Ice Lake and ~0.4 on Golden Cove (one port for
 * bswap's second uop), the rest mostly tma_core_bound (port pressure).
 * Flags come from the loop's sub, so cmovbe never moves and cmova always
 * does: either way the two uops execute.
 */
static void k_heavy_run(struct bench_kernel_ctx *c)
{
	uint64_t a = 0x0102030405060708ull, b = 0x1112131415161718ull;
	uint64_t d = 0x2122232425262728ull, e = 0x3132333435363738ull;
	uint64_t f = 0x4142434445464748ull, g = 0x5152535455565758ull;
	uint64_t h = 0, k = 0, n = HEAVY_ITERS;

	__asm__ __volatile__(
		"1:\n\t"
		".rept 2\n\t"
		"bswap %[a]\n\t"
		"bswap %[b]\n\t"
		"bswap %[d]\n\t"
		"cmovbe %[a], %[h]\n\t"
		"bswap %[e]\n\t"
		"bswap %[f]\n\t"
		"bswap %[g]\n\t"
		"cmova %[e], %[k]\n\t"
		".endr\n\t"
		"sub $1, %[n]\n\t"
		"jnz 1b"
		: [a] "+r"(a), [b] "+r"(b), [d] "+r"(d), [e] "+r"(e), [f] "+r"(f),
		  [g] "+r"(g), [h] "+r"(h), [k] "+r"(k), [n] "+r"(n)
		:
		: "cc");
	c->sink = a ^ b ^ d ^ e ^ f ^ g ^ h ^ k;
}

/* ---------------------------------------------------------- dep-chain */

#define DEP_ITERS 2048 /* x 16 imul x 3 cycles = ~98k cycles */

/*
 * One dependent chain of imul r64, r64 (1 uop, latency 3 on every Intel
 * core since Nehalem; uops.info IMUL (R64, R64)): each imul waits for the
 * previous one, so for most cycles nothing is ready to execute although
 * the front end has delivered: tma_backend_bound, and with no memory
 * access at all, tma_core_bound.  Retiring is ~1/3 uop per cycle, ~7% of
 * the slots.
 */
static void k_dep_run(struct bench_kernel_ctx *c)
{
	uint64_t x = 0x243f6a8885a308d3ull, m = 0x9e3779b97f4a7c15ull, n = DEP_ITERS;

	__asm__ __volatile__(
		"1:\n\t"
		".rept 16\n\t"
		"imul %[m], %[x]\n\t"
		".endr\n\t"
		"sub $1, %[n]\n\t"
		"jnz 1b"
		: [x] "+r"(x), [n] "+r"(n)
		: [m] "r"(m)
		: "cc");
	c->sink = x;
}

/* ------------------------------------------------------------ divider */

#define DIV_ITERS 256 /* x 8 div: ~15-18 cycles each on ICL/ADL-P, 35-88 on SKL */

/*
 * Back-to-back dependent 64-bit divisions: rdx:rax / d leaves the
 * quotient in rax and the remainder (< d, so the next divide cannot
 * overflow) in rdx, and the next div consumes both.  The divider is not
 * pipelined and its latency (uops.info DIV (R64): ~15 on Ice Lake, 18 in
 * X86SchedAlderlakeP.td WriteDiv64) dominates: tma_core_bound, under it
 * tma_divider (ARITH.DIVIDER_ACTIVE).  d < 2^32 keeps quotients full
 * width, the slow case on older dividers.
 */
static void k_div_run(struct bench_kernel_ctx *c)
{
	uint64_t lo = 0x13198a2e03707344ull, hi = 0, d = 0xfffffffbull, n = DIV_ITERS;

	__asm__ __volatile__(
		"1:\n\t"
		".rept 8\n\t"
		"divq %[d]\n\t"
		".endr\n\t"
		"sub $1, %[n]\n\t"
		"jnz 1b"
		: "+a"(lo), "+d"(hi), [n] "+r"(n)
		: [d] "r"(d)
		: "cc");
	c->sink = lo ^ hi;
}

/* ---------------------------------------------------------- ptr-chase */

#define CHASE_MIN   (64 * MiB)
#define CHASE_NOLLC (128 * MiB)
#define CHASE_HOPS  4096 /* x ~80-100 ns DRAM latency = ~0.4 ms, <= 2M cycles at 5 GHz */
/* On the simulated PMU (ctx->simulated) a miss counts nothing: the region's
 * time does, at the profile's shares (doc/simulator.md "Not modelled").
 * There the 128 MiB a dump without an LLC size gets cost a default bench
 * 0.15 CPU s of DRAM walks (221 repetitions), 0.03 s of setup (0.3 s more
 * without transparent huge pages) and 136 MiB of its 142 MiB peak RSS
 * (with the 8 MiB permutation), for shares the same whatever the walk
 * misses.  One cycle of CHASE_HOPS nodes (256 KiB) keeps every hop
 * dependent and makes each repetition one whole turn of the cycle.  The
 * hardware keeps the full size: there the misses are the point. */
#define CHASE_SIM   ((size_t)CHASE_HOPS * CACHE_LINE)

struct chase_node {
	struct chase_node *next;
	char pad[CACHE_LINE - sizeof(struct chase_node *)];
};

struct chase_state {
	struct bench_kernel_region r; /* first: bench_kernel_region_of() */
	struct chase_node *cur;       /* where the next repetition continues */
};

/* max(4 x LLC, 64 MiB), or 128 MiB when the LLC size is unknown: the walk
 * must miss the whole cache hierarchy, not just the private levels; on the
 * simulated PMU CHASE_SIM. */
static size_t chase_bytes(uint64_t llc, bool simulated)
{
	if (simulated)
		return CHASE_SIM;
	if (!llc)
		return CHASE_NOLLC;
	if (llc > SIZE_MAX / 4)
		return 0;
	size_t want = (size_t)llc * 4;

	want = (want + CACHE_LINE - 1) / CACHE_LINE * CACHE_LINE;
	return want > CHASE_MIN ? want : CHASE_MIN;
}

/* Link the nodes into one random cycle: Sattolo's algorithm (Sattolo,
 * "An algorithm to generate a random cyclic permutation", IPL 22, 1986)
 * draws j from [0, i), never i itself, which yields a single n-cycle. */
static int chase_link(struct chase_node *nodes, size_t n)
{
	uint32_t *perm = malloc(n * sizeof(*perm));
	uint64_t seed = 0x5a77010ull;

	if (!perm)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		perm[i] = (uint32_t)i;
	for (size_t i = n - 1; i > 0; i--) {
		uint32_t j = rng_below(&seed, i), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	/* sequential writes: this also touches (faults in) every page */
	for (size_t i = 0; i < n; i++)
		nodes[i].next = &nodes[perm[i]];
	free(perm);
	return 0;
}

static int k_chase_setup(struct bench_kernel_ctx *c)
{
	struct chase_state *st = calloc(1, sizeof(*st));
	size_t bytes = chase_bytes(c->llc_bytes, c->simulated);
	int rc = -ENOMEM;

	if (!st)
		goto out;
	rc = -EINVAL;
	if (!bytes || bytes / CACHE_LINE > UINT32_MAX)
		goto out;
	if ((rc = region_map(&st->r, bytes, CACHE_LINE)))
		goto out;
	/* 2 MiB pages when THP allows: fewer faults in setup, and the walk's
	 * misses go to DRAM rather than to page walks.  Only a hint. */
	madvise(st->r.base, bytes, MADV_HUGEPAGE);
	rc = chase_link(st->r.base, st->r.count);
	if (rc)
		goto out;
	st->cur = st->r.base;
	c->priv = st;
	return 0;
out:
	if (st)
		region_unmap(&st->r);
	free(st);
	return rc;
}

/*
 * Every load's address is the previous load's value and the next node is a
 * random line of a buffer several times the LLC: each hop is a full DRAM
 * miss the out-of-order core cannot overlap.  The ROB fills behind the
 * load: tma_backend_bound, under it tma_memory_bound (tma_dram_bound).
 * A plain C loop suffices: the loads depend on each other and the final
 * pointer is stored, so nothing can be removed or vectorised.
 */
static void k_chase_run(struct bench_kernel_ctx *c)
{
	struct chase_state *st = c->priv;
	struct chase_node *p = st->cur;

	for (unsigned i = 0; i < CHASE_HOPS; i++)
		p = p->next;
	st->cur = p;
	c->sink = (uintptr_t)p;
}

/* -------------------------------------------------------- branch-miss */

#define BRANCH_BYTES (1 * MiB) /* far beyond what a predictor can memorise */
#define BRANCH_REP   4096      /* bytes (= branches) per repetition */

struct branch_state {
	struct bench_kernel_region r; /* first: bench_kernel_region_of() */
	size_t pos;                   /* next window, multiple of BRANCH_REP */
};

static int k_branch_setup(struct bench_kernel_ctx *c)
{
	/* New data for every setup in a process: a predictor that saw a
	 * window once partly remembers it (measured on Zen 5: a repeated
	 * 4096-branch window ran in ~55% of the time after one exposure). */
	static uint64_t setups;
	struct branch_state *st = calloc(1, sizeof(*st));
	uint64_t seed = 0xb4a2c4ull + setups++;
	int rc = -ENOMEM;

	if (!st || (rc = region_map(&st->r, BRANCH_BYTES, 1)))
		goto out;
	for (size_t i = 0; i < BRANCH_BYTES; i += sizeof(uint64_t)) {
		uint64_t v = rng_next(&seed);

		memcpy((char *)st->r.base + i, &v, sizeof(v));
	}
	c->priv = st;
	return 0;
out:
	free(st);
	return rc;
}

/*
 * One conditional branch per byte on bit 0 of random data: taken or not
 * with probability 1/2 each, independent of any history, so about half of
 * them are mispredicted (~15-20 cycles each on Intel P-cores) and the
 * slots of the wrong path are thrown away: tma_bad_speculation, under it
 * tma_branch_mispredicts.  The branch is written in asm because a compiler
 * would turn "if (b & 1) acc++" into setcc/adc or cmov and remove the
 * branch.  Windows of 4096 bytes walk a 1 MiB buffer, so the sequence
 * repeats only every 256 repetitions: no predictor can learn it.
 * The sink gets the count of odd bytes in the window (a known answer).
 */
static void k_branch_run(struct bench_kernel_ctx *c)
{
	struct branch_state *st = c->priv;
	const unsigned char *p = (const unsigned char *)st->r.base + st->pos;
	uint64_t acc = 0, n = BRANCH_REP;

	__asm__ __volatile__(
		"1:\n\t"
		"testb $1, (%[p])\n\t"
		"jz 2f\n\t"
		"add $1, %[acc]\n"
		"2:\n\t"
		"add $1, %[p]\n\t"
		"sub $1, %[n]\n\t"
		"jnz 1b"
		: [p] "+r"(p), [acc] "+r"(acc), [n] "+r"(n)
		:
		: "cc", "memory");
	st->pos = (st->pos + BRANCH_REP) % BRANCH_BYTES;
	c->sink = acc;
}

/* -------------------------------------------------------- icache-miss */

#define ICACHE_BYTES (2 * MiB)
#define ICACHE_BLOCK 64 /* one block per cache line */
/* On the simulated PMU (ctx->simulated), where a miss counts nothing (see
 * CHASE_SIM): a chain of 32 KiB (512 blocks) called 64 times a repetition,
 * the same 32768 blocks and jumps as the full chain's one call, in about
 * 10 us instead of about 1 ms (the full chain cost a default bench 0.17
 * CPU s).  The hardware keeps the 2 MiB chain, called once. */
#define ICACHE_SIM   (32 * KiB)

struct icache_state {
	struct bench_kernel_region r; /* first: bench_kernel_region_of() */
	unsigned calls;               /* of the chain per repetition */
};

/* x86-64 encodings (SDM Vol. 2) */
static const unsigned char op_endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
static const unsigned char op_xor_eax[] = { 0x31, 0xc0 };       /* xor %eax,%eax */
static const unsigned char op_add_eax1[] = { 0x83, 0xc0, 0x01 }; /* add $1,%eax */
#define OP_JMP_REL32 0xe9
#define OP_RET       0xc3
#define OP_INT3      0xcc

/* Visit order: block 0 (the entry) first, then a Fisher-Yates shuffle of
 * the rest.  Returns NULL on ENOMEM. */
static uint32_t *icache_order(size_t n)
{
	uint32_t *o = malloc(n * sizeof(*o));
	uint64_t seed = 0x1cace0ull;

	if (!o)
		return NULL;
	for (size_t i = 0; i < n; i++)
		o[i] = (uint32_t)i;
	for (size_t i = n - 1; i > 1; i--) {
		uint32_t j = 1 + rng_below(&seed, i), t = o[i]; /* j in [1, i] */

		o[i] = o[j];
		o[j] = t;
	}
	return o;
}

/* Emit the chain: each block adds 1 to eax and jumps to the next block in
 * @order; the last one returns, so the function returns the block count.
 * Padding is int3: running off a block traps instead of sliding on. */
static void icache_emit(unsigned char *base, const uint32_t *order, size_t n)
{
	memset(base, OP_INT3, n * ICACHE_BLOCK);
	for (size_t k = 0; k < n; k++) {
		unsigned char *p = base + (size_t)order[k] * ICACHE_BLOCK;

		if (k == 0) {
			/* endbr64 is a NOP without CET; with IBT it makes the
			 * indirect call legal */
			memcpy(p, op_endbr64, sizeof(op_endbr64));
			p += sizeof(op_endbr64);
			memcpy(p, op_xor_eax, sizeof(op_xor_eax));
			p += sizeof(op_xor_eax);
		}
		memcpy(p, op_add_eax1, sizeof(op_add_eax1));
		p += sizeof(op_add_eax1);
		if (k + 1 == n) {
			*p = OP_RET;
			continue;
		}
		unsigned char *to = base + (size_t)order[k + 1] * ICACHE_BLOCK;
		int32_t rel = (int32_t)(to - (p + 5)); /* relative to the next instruction */

		*p = OP_JMP_REL32;
		memcpy(p + 1, &rel, sizeof(rel));
	}
}

static int k_icache_setup(struct bench_kernel_ctx *c)
{
	struct icache_state *st = calloc(1, sizeof(*st));
	struct bench_kernel_region *r = st ? &st->r : NULL;
	size_t bytes = c->simulated ? ICACHE_SIM : ICACHE_BYTES, n = bytes / ICACHE_BLOCK;
	uint32_t *order = NULL;
	int rc = -ENOMEM;

	if (!st || !(order = icache_order(n)))
		goto out;
	st->calls = (unsigned)(ICACHE_BYTES / bytes);
	/* written while read-write, then read-execute: never W+X */
	if ((rc = region_map(r, bytes, ICACHE_BLOCK)))
		goto out;
	icache_emit(r->base, order, n);
	if (mprotect(r->base, bytes, PROT_READ | PROT_EXEC) != 0) {
		rc = -errno;
		goto out;
	}
	c->priv = st;
	st = NULL;
	rc = 0;
out:
	if (st)
		region_unmap(&st->r);
	free(st);
	free(order);
	return rc;
}

/*
 * 32768 jumps through 2 MiB of code in random order: every block is a new
 * cache line far from the last, beyond L1i (32 KiB on Sunny Cove/Golden
 * Cove), the decoded-uop cache (2.25k/4k uops) and the BTB (5k/12k
 * entries), and next-line prefetch never helps.  The front end waits on
 * L2/L3 for instructions and re-steers on every unknown jump while the
 * back end starves: tma_frontend_bound, under it tma_fetch_latency
 * (tma_icache_misses, tma_branch_resteers).  On the simulated PMU the
 * same 32768 jumps, through the 512 blocks of ICACHE_SIM 64 times.  The
 * sink gets the blocks run (a known answer: 32768 either way).
 */
static void k_icache_run(struct bench_kernel_ctx *c)
{
	const struct icache_state *st = c->priv;
	unsigned (*fn)(void);
	uint64_t blocks = 0;

	/* object pointer to function pointer: POSIX (dlsym) semantics */
	memcpy(&fn, &st->r.base, sizeof(fn));
	for (unsigned i = 0; i < st->calls; i++)
		blocks += fn();
	c->sink = blocks;
}

/* -------------------------------------------------------------- table */

static const struct bench_kernel kernels[] = {
	{ "empty", "none",
	  "the bracket alone; its median is subtracted from every kernel",
	  NULL, k_empty_run, NULL },
	{ "retire-light", "tma_light_operations",
	  "6 independent 1-cycle ALU chains saturate the ALU ports with single-uop instructions",
	  NULL, k_light_run, NULL },
	{ "heavy-ops", "tma_heavy_operations",
	  "independent bswap r64 and cmovbe/cmova: non-microcoded instructions of exactly 2 uops",
	  NULL, k_heavy_run, NULL },
	{ "dep-chain", "tma_core_bound",
	  "one dependent imul chain (latency 3): execution waits on latency, not on memory",
	  NULL, k_dep_run, NULL },
	{ "divider", "tma_core_bound",
	  "back-to-back dependent 64-bit div: the unpipelined divider is busy (tma_divider)",
	  NULL, k_div_run, NULL },
	{ "ptr-chase", "tma_memory_bound",
	  "dependent loads through one random cycle over max(4 x LLC, 64 MiB): each hop misses to DRAM",
	  k_chase_setup, k_chase_run, region_teardown },
	{ "branch-miss", "tma_branch_mispredicts",
	  "a branch on random bits is mispredicted half the time; wrong-path slots are bad speculation",
	  k_branch_setup, k_branch_run, region_teardown },
	{ "icache-miss", "tma_fetch_latency",
	  "random jumps through 2 MiB of JIT code miss L1i, the uop cache and the BTB",
	  k_icache_setup, k_icache_run, region_teardown },
};

const struct bench_kernel *bench_kernels(size_t *n)
{
	*n = sizeof(kernels) / sizeof(kernels[0]);
	return kernels;
}

bool bench_test_hooks_built(void)
{
	return bench_test_kernel_find != NULL;
}

bool bench_test_hooks_ignored(char *why, size_t n)
{
	const char *hooks = getenv("BARETMA_TEST_HOOKS");

	if (why && n)
		why[0] = '\0';
	return hooks && *hooks && bench_test_hooks_built() && trust_env_untrusted(why, n);
}

const struct bench_kernel *bench_kernel_find(const char *name)
{
	const char *hooks = getenv("BARETMA_TEST_HOOKS");

	if (!name)
		return NULL;
	for (size_t i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++)
		if (strcmp(kernels[i].name, name) == 0)
			return &kernels[i];
	if (hooks && !strcmp(hooks, "1") && bench_test_hooks_built() &&
	    !bench_test_hooks_ignored(NULL, 0))
		return bench_test_kernel_find(name);
	return NULL;
}
