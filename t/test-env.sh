# Sourced by automake's TESTS_ENVIRONMENT: keep tests away from the real machine.
# No test may touch /dev/cpu/*/msr or /run/baretma: each test sets its own
# BARETMA_MSR=state:FILE and BARETMA_STATE_DIR; default them to harmless values.
unset BARETMA_MSR_TRACE BARETMA_CPUID_DUMP
# 'sudo make check' is not an attack: tests point baretma at their own
# files; sudo's variables would make it distrust them (cpu/trust.h).
unset SUDO_USER SUDO_UID SUDO_GID SUDO_COMMAND
BARETMA_STATE_DIR=$(mktemp -d "${TMPDIR:-/tmp}/baretma-state.XXXXXX")
# baretma refuses a relative state directory: a relative TMPDIR must not make one.
BARETMA_STATE_DIR=$(cd "$BARETMA_STATE_DIR" && pwd)
export BARETMA_STATE_DIR
# Default MSR backend for tests: a path that cannot exist, so no test can reach
# a real /dev/cpu/N/msr even on a machine that has one.
BARETMA_MSR=/nonexistent/baretma-test/cpu/%u/msr
export BARETMA_MSR
# The live-CPU seam (cpu/cpu_source_hooks.c): `BARETMA_TEST_LIVE_CPUID=DUMP
# make check` runs the whole suite as if this machine's CPU were DUMP's, so
# a CI machine of one vendor runs the paths of another.  Only the test
# build of the tool honours it: the tests run that one.
# $BARETMA_INSTALLED stays the tool as installed, for the tests of what it
# ignores.
BARETMA_INSTALLED=$BARETMA
export BARETMA_INSTALLED
# A relative DUMP is taken from the build directory, else from the top of
# the source tree (t/data/cpuid-emr-kvm-novpmu.txt works from either).
if [ -n "$BARETMA_TEST_LIVE_CPUID" ]; then
	case $BARETMA_TEST_LIVE_CPUID in
	/*) ;;
	*) if [ -e "$BARETMA_TEST_LIVE_CPUID" ]; then
		BARETMA_TEST_LIVE_CPUID=$(pwd)/$BARETMA_TEST_LIVE_CPUID
	   else
		BARETMA_TEST_LIVE_CPUID=$T_SRC/../$BARETMA_TEST_LIVE_CPUID
	   fi ;;
	esac
	export BARETMA_TEST_LIVE_CPUID
	BARETMA=$BARETMA_HOOKS
	export BARETMA
fi
# The state directory made above goes when its test does: this file is
# sourced by the shell of make's recipe for one test, which runs the test's
# driver and then exits (a suite run left one empty directory a test in
# $TMPDIR before).
t_env_state_dir=$BARETMA_STATE_DIR
trap 'rm -rf -- "$t_env_state_dir"' EXIT
