#!/bin/sh
# t/0615-env-sudo.sh - what another user's environment cannot do (issue 9,
# point 5).  Under sudo (SUDO_USER set: sudo -E, env_keep) or setuid, the
# environment may be another user's (cpu/trust.h), so:
#   - BARETMA_SYSROOT is ignored: /sys and /proc are the real ones.  A fake
#     tree whose lockdown says "none" and msr.allow_writes "on" would make
#     the checks before an MSR write pass, and names the settings files
#     root writes;
#   - BARETMA_TEST_HOOKS is ignored: no hidden faulting kernel;
# and each says so on stderr, one line naming the variable and the reason.
# The installed baretma has no hidden kernels at all (bench/kernels_hooks.c
# is linked only into t/baretma-hooks, the test build of the tool).
# SUDO_USER is set for single commands here only (t/test-env.sh unsets it).
. "$T_SRC/tap.sh"

# --- BARETMA_SYSROOT -------------------------------------------------------------
# A fake tree with a kernel release no real machine has, and the lockdown
# and msr.allow_writes an attacker wants.
fake=$tmp/fake
mkdir -p "$fake/sys/kernel/security" "$fake/sys/module/msr/parameters" "$fake/proc/sys/kernel"
printf '[none] integrity confidentiality\n' >"$fake/sys/kernel/security/lockdown"
printf 'on\n' >"$fake/sys/module/msr/parameters/allow_writes"
printf '0.0.0-t-fake-sysroot\n' >"$fake/proc/sys/kernel/osrelease"

env_of() { printf '%s\n' "$1" | sed -n '/^environment:/,$p'; }

# info of a CPUID dump: the environment section is still this machine's
# (/sys, /proc under the sysroot), and nothing is read through an MSR device
# (README), whatever BARETMA_MSR a sudo rule lets through.  The section is
# what the checks before an MSR write read too (cpu_env_read: lockdown,
# msr.allow_writes).
ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
[ -r "$ICL" ] || skip_all "no Ice Lake dump $ICL"
real=$(env -u BARETMA_SYSROOT "$BARETMA" info --cpuid-dump "$ICL" 2>/dev/null); rc=$?
is "$rc" 0 "info of the real machine's environment"
trusted=$(BARETMA_SYSROOT=$fake "$BARETMA" info --cpuid-dump "$ICL" 2>/dev/null)
like "$(env_of "$trusted")" "kernel: +0.0.0-t-fake-sysroot" \
	"control: from a trusted environment the fake tree is read (its kernel release)"
like "$(env_of "$trusted")" "lockdown: +none" "control: the fake tree's lockdown 'none'"
like "$(env_of "$trusted")" "allow_writes on" "control: the fake tree's msr.allow_writes 'on'"

# SUDO_UID is this test's own uid (root ran sudo, in CI): the dump is then
# read as by the invoking user (cpu/userfile.h; t/1031 has another user).
me=$(id -u)
out=$(SUDO_USER=t-sudo-user SUDO_UID=$me BARETMA_SYSROOT=$fake "$BARETMA" info --cpuid-dump "$ICL" 2>"$tmp/err")
rc=$?
is "$rc" 0 "under sudo: info exits 0"
is "$(cat "$tmp/err")" "baretma: warning: ignoring BARETMA_SYSROOT: running under sudo (SUDO_USER=t-sudo-user); reading / (see doc/safety.md, \"Running as root safely\")" \
	"under sudo: one line naming BARETMA_SYSROOT and the reason"
unlike "$(env_of "$out")" "t-fake-sysroot" "under sudo: the fake tree's values are not read"
is "$(env_of "$out")" "$(env_of "$real")" \
	"under sudo: lockdown, msr.allow_writes and the rest are the real machine's"

# SUDO_UID alone is sudo's too.
out=$(SUDO_UID=4242 BARETMA_SYSROOT=$fake "$BARETMA" info --cpuid-dump "$ICL" 2>&1 >/dev/null)
like "$out" "ignoring BARETMA_SYSROOT: running under sudo \(SUDO_UID=4242\)" "SUDO_UID alone: ignored too"

# A missing sysroot is refused when honoured (exit 66), ignored under sudo.
out=$(SUDO_USER=t-sudo-user SUDO_UID=$me BARETMA_SYSROOT=$tmp/nosys "$BARETMA" info --cpuid-dump "$ICL" 2>&1 >/dev/null)
rc=$?
is "$rc" 0 "under sudo a missing BARETMA_SYSROOT is not even looked at"

# --- BARETMA_TEST_HOOKS -------------------------------------------------------------
ulimit -c 0 2>/dev/null
# The installed baretma: no hidden kernel, whatever the environment.
# ($BARETMA_INSTALLED: $BARETMA is the test build under the live-CPU seam,
# t/test-env.sh.)
out=$(BARETMA_TEST_HOOKS=1 "$BARETMA_INSTALLED" bench --kernel test-fault-segv --backend tsc --reps 1 2>&1); rc=$?
is "$rc" 64 "installed baretma, BARETMA_TEST_HOOKS=1: test-fault-segv is no kernel (exit 64)"
like "$out" "unknown kernel 'test-fault-segv'" "installed baretma: 'unknown kernel'"
ok $(grep -q "test-fault-segv" "$BARETMA_INSTALLED" && echo 1 || echo 0) \
	"installed baretma: the binary holds no hidden kernel"

if [ -z "${BARETMA_HOOKS:-}" ] || [ ! -x "$BARETMA_HOOKS" ]; then
	for i in 1 2 3 4; do skip "no t/baretma-hooks (make check builds it): the hooks are not built"; done
else
	# control: the test build finds the hidden kernels (test-overflow then
	# refuses to run without a state file: t/0386)
	out=$(BARETMA_TEST_HOOKS=1 "$BARETMA_HOOKS" bench --kernel test-overflow --backend tsc \
		--reps 1 2>&1)
	unlike "$out" "unknown kernel" "control: t/baretma-hooks with BARETMA_TEST_HOOKS=1 knows test-overflow"
	out=$(SUDO_USER=t-sudo-user BARETMA_TEST_HOOKS=1 "$BARETMA_HOOKS" bench --kernel test-fault-segv \
		--backend tsc --reps 1 2>&1); rc=$?
	is "$rc" 64 "under sudo: no hidden kernel (exit 64)"
	like "$out" "unknown kernel 'test-fault-segv'" "under sudo: 'unknown kernel'"
	like "$out" "baretma: warning: ignoring BARETMA_TEST_HOOKS: running under sudo \(SUDO_USER=t-sudo-user\); no hidden test kernels" \
		"under sudo: one line naming BARETMA_TEST_HOOKS and the reason"
fi

done_testing
