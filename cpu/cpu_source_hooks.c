/*
 * cpu/cpu_source_hooks.c - the live-CPU seam of the tests: with
 * $BARETMA_TEST_LIVE_CPUID=DUMP, the live CPUID source reads its leaves
 * from that dump while everything else stays this machine's (its CPUs,
 * topology, pinning, sysfs, MSR device), so that a test machine of one
 * vendor runs the paths of another: CI on AMD runs Intel without a PMU
 * (the most common cloud case) and Intel with a PMU up to the first
 * register access.  Live CPU N reads the dump's CPU at position N modulo
 * the dump's CPU count (cpu/cpu_source.c), and the machine baretma runs on
 * (cpu_host_cpuid) is the dump's first CPU.
 *
 * Not in libbaretma.a: linked only into t/baretma-hooks, the test build of
 * the tool (Makefile.am), never installed: the installed baretma has no
 * cpu_source_test_live (a weak symbol in cpu/cpu_source.c, NULL there) and
 * always reads this machine's CPUID.  Honoured only in an environment
 * baretma trusts (cpu/trust.h): under sudo the variable is ignored.
 */
#include <stdlib.h>

#include "cpu/cpu.h"
#include "cpu/trust.h"

const char *cpu_source_test_live(void);

const char *cpu_source_test_live(void)
{
	const char *path = getenv("BARETMA_TEST_LIVE_CPUID");

	if (!path || !*path || trust_env_untrusted(NULL, 0))
		return NULL;
	return path;
}
