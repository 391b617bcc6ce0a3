#!/bin/sh
# t/0390-signals-inherited.sh - the tests that send signals do not depend
# on the dispositions they inherit.  A test started in the background,
# under nohup or below a `trap '' INT` begins with SIGINT, SIGQUIT, SIGHUP
# (or SIGTERM) ignored; an ignored signal stays ignored across exec
# (signal(7), execve(2)), the library rightly leaves it alone
# (msr/journal/guard_signals.h), and a shell cannot reset it (POSIX XCU 2.14
# trap).  Before each test reset them itself (t/tap.sh, t_signals_default
# in t/tap.h), t/0310 (its guard cases are t/0311 now) failed 12 points
# and t/0382 waited forever for a run its SIGHUP could not stop.  Here
# each such test (the journal's killed runs are t/0341 now) runs again
# with the four ignored at its start, bounded by timeout(1) (whose own
# SIGTERM the test ignores: -k sends SIGKILL after it), and must exit 0
# with no failed point.
. "$T_SRC/tap.sh"

command -v timeout >/dev/null 2>&1 || skip_all "no timeout(1) to bound a test that would hang"

# ignored CMD...: CMD with SIGINT, SIGQUIT, SIGHUP and SIGTERM ignored at its
# start, as a fresh run (T_SIG_DEFAULT unset: t/tap.sh's first pass).  The
# ignoring is done below timeout, which resets the signals it handles.
ignored() {
	timeout -k 10 600 sh -c 'trap "" INT QUIT HUP TERM; exec env -u T_SIG_DEFAULT "$@"' sh "$@"
}

# The seam itself: the command starts with the four ignored (SigIgn bits
# 1, 2, 3 and 15: 0x4007, proc(5)), and t/tap.sh gives them back (the
# real-time signals glibc keeps for itself, 32 and 33, it cannot touch).
ign=$(ignored sh -c 'sed -n "s/^SigIgn:[[:space:]]*//p" /proc/$$/status')
is "$(( 0x$ign & 0x4007 ))" $(( 0x4007 )) "the command starts with SIGHUP, SIGINT, SIGQUIT and SIGTERM ignored"
cat >"$tmp/probe.sh" <<'EOP'
. "$T_SRC/tap.sh"
sed -n 's/^SigIgn:[[:space:]]*//p' /proc/$$/status
rm -rf "$tmp"
EOP
ign=$(ignored /bin/sh "$tmp/probe.sh")
is "$(( 0x${ign:-ff} & 0x7fffffff ))" 0 \
	"a shell test that sources t/tap.sh runs with no standard signal (1-31) ignored"

for t in 0311-pmu-journal.t 0341-journal-kill.t 0645-guard-host.t; do
	out=$(ignored "$T_BUILDDIR/t/$t" 2>&1); rc=$?
	is "$rc" 0 "$t, started with the four ignored: exit 0"
	is "$(printf '%s\n' "$out" | grep -c '^not ok')" 0 "$t: no failed point"
done
for t in 0330-bench-dryrun.sh 0381-guard-locks.sh 0382-guard-signals.sh; do
	out=$(ignored "$T_SRC/$t" 2>&1); rc=$?
	is "$rc" 0 "$t, started with the four ignored: exit 0"
	is "$(printf '%s\n' "$out" | grep -c '^not ok')" 0 "$t: no failed point"
done
done_testing
