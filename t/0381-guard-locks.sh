#!/bin/sh
# t/0381-guard-locks.sh - two runs on one CPU: the second is refused with
# exit 75 naming the first's pid, or with --wait runs once the first has
# ended; a run changing a setting waits for, or is refused by, a run
# measuring with the settings as they are (the settings lock); the holder's
# command line is named whole, or, when longer than a lock file keeps, cut
# with a visible "...".
# Fixture: t/guard-fixture.sh.  The holders run as "./baretma" from
# $tmp/bin with the dump linked there, so the command lines expected are
# the same whatever the length of the build tree's or TMPDIR's path.
. "$T_SRC/tap.sh"
. "$T_SRC/guard-fixture.sh"

mkdir "$tmp/bin"
ln -s "$BARETMA" "$tmp/bin/baretma"
ln -s "$ICL" "$tmp/bin/icl.test"
# short ARGS... &: run ./baretma ARGS... from $tmp/bin in the background
# (the background shell execs it, so $! is baretma's pid; never in the
# foreground: it would replace this shell)
short() { cd "$tmp/bin" && exec ./baretma "$@"; }

fixture
short bench --cpuid-dump icl.test --cpu 1 --backend msr --kernel retire-light \
	--reps 1000000 --warmup 0 >/dev/null 2>&1 &
p1=$!
until_true programmed 1; ok $? "first run programmed cpu 1"

: >"$tmp/trace"
out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr \
	--kernel retire-light --reps 3 2>&1); rc=$?
is "$rc" 75 "second run on cpu 1: exit 75 (EX_TEMPFAIL)"
is "$(printf '%s\n' "$out" | grep 'cpu 1 is being programmed')" \
	"baretma: cpu 1 is being programmed by pid $p1 (./baretma bench --cpuid-dump icl.test --cpu 1 --backend msr --kernel retire-light --reps 1000000 --warmup 0) (try: --wait)" \
	"the refusal names the first run's pid and whole command, and --wait"
is "$(grep -c '^wr' "$tmp/trace")" 0 "the refused run writes nothing"
out=$("$BARETMA" pmu enable --cpuid-dump "$ICL" --cpu 1 2>&1); rc=$?
is "$rc" 75 "pmu enable on cpu 1: exit 75"
like "$out" "cpu 1 is being programmed by pid $p1 " "pmu enable names the first run too"

# A run that changes a setting needs the settings to itself.
out=$("$BARETMA" bench --cpuid-dump "$ICL" --cpu 0 --backend msr --kernel retire-light --reps 3 \
	--stop-nmi-watchdog 2>&1); rc=$?
is "$rc" 75 "--stop-nmi-watchdog while another run measures: exit 75"
like "$out" "the system settings \(rdpmc, nmi_watchdog, msr.allow_writes\) are in use by another baretma run .*\(try: --wait\)" \
	"the refusal says why and names --wait"
is "$(same_root)" 0 "the setting was not touched"

# --wait: blocks until the first run ends, then runs.
"$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr --kernel retire-light --reps 3 \
	--wait >"$tmp/out3" 2>&1 &
p3=$!
if [ -r /proc/locks ]; then
	until_true flock_waiter "$tmp/run/cpu1.lock" "$p3"
	ok $? "the --wait run blocks on cpu 1's lock while the first runs (/proc/locks)"
else
	skip "no /proc/locks: cannot see the --wait run blocked on the lock"
fi
kill -0 "$p3" 2>/dev/null; ok $? "the --wait run is still waiting"
ok "$([ ! -e "$tmp/run/run-$p3.journal" ]; echo $?)" "and has begun no journal (it waits before)"
kill -TERM "$p1"
wait "$p1"; rc=$?
is "$rc" 143 "first run ended (SIGTERM)"
wait "$p3"; rc=$?
is "$rc" 0 "the --wait run succeeds after the first ended"
is "$(same "$tmp/state" "$tmp/orig")" 0 "state file as found after both"
is "$(journals)" "" "no journal left"

# A setting-changing run holds the settings: a measuring run waits for it.
"$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr --kernel retire-light \
	--reps 1000000 --warmup 0 --stop-nmi-watchdog >/dev/null 2>&1 &
p1=$!
until_true programmed 1; ok $? "a run with --stop-nmi-watchdog programmed cpu 1"
out=$("$BARETMA" bench --cpuid-dump "$ICL" --cpu 0 --backend msr --kernel retire-light --reps 3 2>&1); rc=$?
is "$rc" 75 "a run on another CPU meanwhile: exit 75 (the settings are being changed)"
like "$out" "are being changed by pid $p1 \(.*\) \(try: --wait\)" "it names the changing run"
kill -TERM "$p1"
wait "$p1"
is "$(same "$tmp/state" "$tmp/orig"):$(same_root)" "0:0" "state file and settings as found"

# A holder whose command line is longer than a lock file keeps (msr/guard/lock.h,
# LOCK_CMD_MAX - 1 = 1023 bytes): the dump is reached through six
# 200-character directories, so the command is over 1200 bytes.  The
# refusal shows a part of it, and says so: a prefix of the true command,
# then "...", 1023 bytes at most.
d=$(printf 'd%.0s' $(seq 1 200))
long=$d/$d/$d/$d/$d/$d
mkdir -p "$tmp/bin/$long"
ln -s "$ICL" "$tmp/bin/$long/icl.test"
set -- bench --cpuid-dump "$long/icl.test" --cpu 1 --backend msr --kernel retire-light \
	--reps 1000000 --warmup 0
full="./baretma $*"
short "$@" >/dev/null 2>&1 &
p1=$!
until_true programmed 1; ok $? "a run with a ${#full}-byte command line programmed cpu 1"
out=$("$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr --kernel retire-light --reps 3 2>&1); rc=$?
is "$rc" 75 "a second run on cpu 1: exit 75"
shown=$(printf '%s\n' "$out" | sed -n "s/^baretma: cpu 1 is being programmed by pid $p1 (\(.*\)) (try: --wait)\$/\1/p")
is "${shown%...}..." "$shown" "the command shown ends in '...'"
case $full in "${shown%...}"*) r=0 ;; *) r=1 ;; esac
ok $r "and what comes before is the start of the true command"
ok "$([ "${#shown}" -le 1023 ] && [ "${#shown}" -gt 900 ]; echo $?)" \
	"and it is as long as a lock file keeps (${#shown} bytes: over 900, at most 1023)"
# Its journal keeps the command line (for 'pmu status') the same way:
# cut to 1023 bytes at most, ending in "...".
until_true journal_of "$p1"
jcmd=$(sed -n 's/^cmd //p' "$tmp/run/run-$p1.journal")
is "${jcmd%...}..." "$jcmd" "the journal's command line ends in '...'"
case $full in "${jcmd%...}"*) r=0 ;; *) r=1 ;; esac
ok $r "and what comes before is the start of the true command"
ok "$([ "${#jcmd}" -le 1023 ] && [ "${#jcmd}" -gt 900 ]; echo $?)" \
	"and it is as long as a journal keeps (${#jcmd} bytes: over 900, at most 1023)"
kill -TERM "$p1"
wait "$p1"
is "$(same "$tmp/state" "$tmp/orig")" 0 "state file as found"

done_testing
