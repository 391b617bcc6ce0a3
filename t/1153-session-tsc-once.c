/*
 * t/1153-session-tsc-once.c - the sessions of one process wait for one
 * estimate of the TSC's rate (issue 30, stat: start-up).  A session
 * estimated the TSC's ticks per second over a 20 ms nanosleep of its own
 * (bench/session.c); the TSC ticks at one rate on every CPU (an invariant
 * TSC: SDM Vol. 3B "Invariant TSC", CPUID.80000007H:EDX[8]), so one
 * estimate serves them all: counted here by this program's own
 * nanosleep(), which the library linked into it calls (it returns at once,
 * so nothing waits).  Three sessions on CPUs 0, 1 and 2 of the shipped Ice
 * Lake dump (the tsc source: no MSR backend needed): one nap, the same
 * tsc_hz for the three; a session with no_tsc_hz (stat's: its intervals
 * are CLOCK_MONOTONIC's) none and tsc_hz 0.  Before: a nap a session (3).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench/session.h"
#include "cpu/machine.h"
#include "t/tap.h"

static int naps;

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	(void)req;
	(void)rem;
	naps++;
	return 0;
}

int main(void)
{
	const char *dump = BARETMA_SRCDIR "/examples/dumps/ice-lake-i7.test";
	struct cpu_machine *m = NULL;
	struct session *s[4] = { 0 };
	uint64_t hz[4] = { 0 };

	unsetenv("BARETMA_MSR");
	unsetenv("BARETMA_MSR_TRACE");
	if (cpu_machine_open(dump, &m, NULL)) {
		printf("1..0 # SKIP cannot read %s\n", dump);
		return 0;
	}
	for (int i = 0; i < 4; i++) {
		struct session_options o = { .cpu = i < 3 ? i : 0, .backend = BENCH_BACKEND_TSC,
					     .machine = m, .no_tsc_hz = i == 3 };

		ok(session_open(&o, &s[i]) == 0, "session %d on cpu %d opens", i, o.cpu);
		hz[i] = s[i] ? session_info(s[i])->tsc_hz : 0;
		if (i == 2)
			check_int(naps, ==, 1, "three sessions: one nap for the TSC's rate");
	}
	ok(hz[0] == hz[1] && hz[1] == hz[2], "the three have the one estimate");
	check_int(naps, ==, 1, "no_tsc_hz: no nap");
	ok(hz[3] == 0, "and tsc_hz 0 (not asked for)");
	for (int i = 0; i < 4; i++)
		session_close(s[i]);
	cpu_machine_free(m);
	return done_testing();
}
