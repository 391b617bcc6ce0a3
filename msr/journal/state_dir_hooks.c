/*
 * msr/journal/state_dir_hooks.c - the tests' stand-in for the real state
 * directory: with $BARETMA_TEST_STATE_DEFAULT=DIR, DIR is the default
 * state directory instead of /run/baretma (msr/journal/state_dir.h
 * state_dir_default), so that a test can show that a dry run creates
 * nothing in the default directory without root and without touching the
 * real one.
 *
 * Not in libbaretma.a: linked only into t/baretma-hooks, the test build of
 * the tool (Makefile.am), never installed: the installed baretma has no
 * state_dir_test_default (a weak symbol in msr/journal/state_dir.c, NULL there).
 * Honoured only in an environment baretma trusts (cpu/trust.h).
 */
#include <stdlib.h>

#include "cpu/trust.h"

const char *state_dir_test_default(void);

const char *state_dir_test_default(void)
{
	const char *d = getenv("BARETMA_TEST_STATE_DEFAULT");

	if (!d || *d != '/' || trust_env_untrusted(NULL, 0))
		return NULL;
	return d;
}
