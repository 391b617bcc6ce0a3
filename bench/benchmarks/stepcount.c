/*
 * bench/benchmarks/stepcount.c - instructions counted by single-stepping
 * (bench/benchmarks/stepcount.h).
 *
 * At each SIGTRAP the context's RIP is the instruction about to execute:
 * it is counted (its opcode classified) when it lies in [begin, end).  An
 * RDPMC that faults there raises SIGSEGV with RIP at the RDPMC itself,
 * already counted: the handler gives it the result 0, moves RIP past its
 * two bytes and counts the instruction it lands on, which executes next
 * and whose trap reports the one after it.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>

#include "bench/benchmarks/stepcount.h"

#define EFLAGS_TF 0x100ull

enum { OP_OTHER, OP_RDPMC, OP_RDTSC, OP_LFENCE };

static struct {
	const uint8_t *begin, *end;
	unsigned n, emulated, traps;
	uint8_t op[STEP_LOG_MAX];
	int overflow;
} st;

static int classify(const uint8_t *p)
{
	if (p[0] == 0x0f && p[1] == 0x33)
		return OP_RDPMC;
	if (p[0] == 0x0f && p[1] == 0x31)
		return OP_RDTSC;
	if (p[0] == 0x0f && p[1] == 0xae && p[2] == 0xe8)
		return OP_LFENCE;
	return OP_OTHER;
}

/* The instruction at @rip is about to execute: count it if in range. */
static void about_to_run(const uint8_t *rip)
{
	if (rip < st.begin || rip >= st.end)
		return;
	if (st.n == STEP_LOG_MAX) {
		st.overflow = 1;
		return;
	}
	st.op[st.n++] = (uint8_t)classify(rip);
}

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	st.traps++;
	about_to_run((const uint8_t *)uc->uc_mcontext.gregs[REG_RIP]);
}

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	const uint8_t *rip = (const uint8_t *)uc->uc_mcontext.gregs[REG_RIP];

	(void)si;
	if (rip < st.begin || rip >= st.end || classify(rip) != OP_RDPMC) {
		signal(sig, SIG_DFL); /* a real fault: it happens again, by default */
		return;
	}
	uc->uc_mcontext.gregs[REG_RAX] = 0;
	uc->uc_mcontext.gregs[REG_RDX] = 0;
	uc->uc_mcontext.gregs[REG_RIP] += 2;
	st.emulated++;
	about_to_run(rip + 2);
}

static void fill(struct step_count *out)
{
	int first = -1, last = -1;

	memset(out, 0, sizeof(*out));
	out->n = st.n;
	out->emulated = st.emulated;
	for (unsigned i = 0; i < st.n; i++) {
		out->rdpmc += st.op[i] == OP_RDPMC;
		out->lfence += st.op[i] == OP_LFENCE;
		if (st.op[i] == OP_RDTSC) {
			out->rdtsc++;
			first = first < 0 ? (int)i : first;
			last = (int)i;
		}
	}
	out->between = out->rdtsc >= 2 ? last - first : -1;
}

int step_count(void (*fn)(void *), void *arg, const void *begin, const void *end,
	       struct step_count *out)
{
	struct sigaction tr = { .sa_sigaction = on_trap, .sa_flags = SA_SIGINFO },
			 sg = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO }, old_tr, old_sg;

	memset(&st, 0, sizeof(st));
	st.begin = begin;
	st.end = end;
	sigemptyset(&tr.sa_mask);
	sigemptyset(&sg.sa_mask);
	if (sigaction(SIGTRAP, &tr, &old_tr))
		return -errno;
	if (sigaction(SIGSEGV, &sg, &old_sg)) {
		int rc = -errno;

		sigaction(SIGTRAP, &old_tr, NULL);
		return rc;
	}
	/* TF on: the trap comes after each instruction from the one after POPF */
	__asm__ __volatile__("pushfq\n\torq %0, (%%rsp)\n\tpopfq" :: "i"(EFLAGS_TF) : "memory", "cc");
	fn(arg);
	__asm__ __volatile__("pushfq\n\tandq %0, (%%rsp)\n\tpopfq" :: "i"(~EFLAGS_TF) : "memory",
			     "cc");
	sigaction(SIGSEGV, &old_sg, NULL);
	sigaction(SIGTRAP, &old_tr, NULL);
	fill(out);
	if (st.overflow)
		return -ENOSPC;
	return st.traps ? 0 : -ENOTSUP;
}
