#!/bin/sh
# t/1024-stat-kill-outputs.sh - `stat -a -I 100 --count 4 -o F
# --openmetrics M --plot P.svg`, killed while it writes its outputs, as
# issue 27's campaign did it (it found .F.PID.tmp left after SIGINT 6 of
# 15, SIGTERM 2/15, SIGKILL 10/15, and P.svg.XXXXXX once each after
# SIGTERM and SIGKILL).  Each trial sends SIGINT, SIGTERM, SIGHUP or
# SIGKILL at a point drawn from the run's own length (t/fi-kill, from 0
# to 1.1 times a whole run's time: the set-up, the intervals, the end and
# the writing of the three files after it), then:
#   - SIGINT, SIGTERM, SIGHUP end the count (baretma-stat(1)): exit 0, the
#     three files in place and whole, no temporary file, no record, no
#     journal;
#   - SIGKILL, which nothing catches, leaves what it leaves; the next run
#     in the same directory (the same command, to its end) leaves no
#     temporary file of either run, and `pmu restore` before it puts the
#     registers back;
# and after every trial the simulated registers (the profile's `state
# FILE`) are byte for byte as found.  BARETMA_FI_TRIALS (default 2)
# trials per signal, BARETMA_FI_SEED (default 1) the seed: the same
# points on every run.
. "$T_SRC/tap.sh"
. "$T_SRC/guard-fixture.sh"

FI=${BARETMA_FI_KILL:-$(dirname "$BARETMA_HOOKS")/fi-kill}
[ -x "$FI" ] || skip_all "no fault injector $FI (make check builds it)"
TRIALS=${BARETMA_FI_TRIALS:-2}
SEED=${BARETMA_FI_SEED:-1}

# the simulated Ice Lake over a state file of the simulator's clean
# registers (t/guard-fixture.sh sim_regs, sim_machine)
mkdir -p "$tmp/run"
c=0
while [ "$c" -lt "$NCPU" ]; do sim_regs "$c"; c=$((c + 1)); done >"$tmp/state"
cp "$tmp/state" "$tmp/orig"
sim_machine
unset BARETMA_SYSROOT

w=$tmp/w
mkdir -p "$w"
stat_cmd() { "$@" "$BARETMA" stat -a -I 100 --count 4 -o "$w/F" \
	--openmetrics "$w/M" --plot "$w/P.svg"; }
leftover() { ls -A "$w" | grep -v '^\(F\|M\|P\.svg\)$' | tr '\n' ' '; }
journals() { ls -A "$BARETMA_STATE_DIR" | grep -E 'journal|^outputs-|^\.outputs-' | tr '\n' ' '; }
whole() { # the three files, each as its writer ends it
	[ -s "$w/F" ] && grep -q '^baretma_' "$w/M" && grep -q '</svg>' "$w/P.svg"
}

# a whole run: its time sizes the kill points
t0=$(date +%s%N)
stat_cmd env >/dev/null 2>"$tmp/err"
rc=$?
t1=$(date +%s%N)
is "$rc" 0 "a whole run exits 0"
whole
ok $? "and writes F, M and P.svg"
is "$(leftover)$(journals)" "" "no temporary file, record or journal"
is "$(cmp -s "$tmp/state" "$tmp/orig"; echo $?)" 0 "the registers as found"
us=$(( (t1 - t0) / 1000 ))

awk -v s="$SEED" -v n=$((TRIALS * 4)) \
	'BEGIN { srand(s); for (i = 0; i < n; i++) printf "%.6f\n", rand() }' >"$tmp/rand"
k=0
for sig in INT TERM HUP KILL; do
	case $sig in INT) n=2 ;; TERM) n=15 ;; HUP) n=1 ;; KILL) n=9 ;; esac
	t=1
	while [ "$t" -le "$TRIALS" ]; do
		k=$((k + 1))
		delay=$(awk -v r="$(sed -n "${k}p" "$tmp/rand")" -v u="$us" 'BEGIN { printf "%d", r * u * 1.1 }')
		rm -rf "$w"
		mkdir -p "$w"
		how=$(stat_cmd "$FI" /dev/null 0 "$n" "$delay" -- 2>"$tmp/err" </dev/null)
		ended=$(echo "$how" | sed -n 2p)
		what="SIG$sig at $delay us of $us ($(echo "$how" | head -1), $ended)"
		if [ "$sig" != KILL ]; then
			is "$ended" "status exit 0" "$what: the count ends, exit 0"
			whole
			ok $? "$what: F, M and P.svg in place, whole"
			is "$(leftover)$(journals)" "" "$what: no temporary file, record or journal"
		else
			"$BARETMA" pmu restore >"$tmp/restore" 2>&1
			stat_cmd env >/dev/null 2>"$tmp/err"
			rc=$?
			is "$rc:$(leftover)$(journals)" "0:" "$what: after pmu restore, the next run ends (exit 0) and no temporary file of either run is left"
		fi
		is "$(cmp -s "$tmp/state" "$tmp/orig"; echo $?)" 0 "$what: the registers as found"
		t=$((t + 1))
	done
done

done_testing
