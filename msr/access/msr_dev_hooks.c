/*
 * msr/access/msr_dev_hooks.c - regular files as stand-ins for MSR device nodes,
 * for the tests of the command line only.
 *
 * Not in libbaretma.a: linked only into t/baretma-hooks, the test build of
 * the tool (make check), never installed.  The installed baretma has no
 * msr_dev_test_check (a weak symbol in msr/access/msr_dev.c, NULL there) and uses
 * MSR device nodes only.
 *
 * Some refusals come after the device is opened (a CPUID dump with a real
 * device, kernel lockdown, msr.allow_writes=off: bench/cli/cli_run.c), and no
 * test machine has an msr device that could be opened safely: with
 * $BARETMA_TEST_HOOKS=1, in an environment baretma trusts (cpu/trust.h),
 * a regular file of the real uid's with one link (its name not a symbolic
 * link: msr/access/msr_dev.c refuses those before this check) stands in for a
 * node.  The file offset is the MSR index
 * as on the device.
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/trust.h"
#include "msr/access/msr.h"

msr_node_check msr_dev_test_check(void);

static int regular_or_node(const struct stat *st, unsigned cpu)
{
	if (S_ISREG(st->st_mode) && st->st_nlink == 1 && st->st_uid == getuid())
		return 0;
	return msr_device_node_ok(st, cpu);
}

msr_node_check msr_dev_test_check(void)
{
	const char *hooks = getenv("BARETMA_TEST_HOOKS");

	if (!hooks || !*hooks || trust_env_untrusted(NULL, 0))
		return NULL;
	return regular_or_node;
}
