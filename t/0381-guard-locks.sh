#!/bin/sh
# t/0381-guard-locks.sh - two runs on one CPU: the second is refused with
# exit 75 naming the first's pid, or with --wait runs once the first has
# ended; a run changing a setting waits for, or is refused by, a run
# measuring with the settings as they are (the settings lock).
# Fixture: t/guard-fixture.sh.
. "$T_SRC/tap.sh"
. "$T_SRC/guard-fixture.sh"

fixture
"$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr --kernel retire-light \
	--reps 1000000 --warmup 0 >/dev/null 2>&1 &
p1=$!
until_true programmed 1; ok $? "first run programmed cpu 1"

: >"$tmp/trace"
out=$(BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr \
	--kernel retire-light --reps 3 2>&1); rc=$?
is "$rc" 75 "second run on cpu 1: exit 75 (EX_TEMPFAIL)"
like "$out" "cpu 1 is being programmed by pid $p1 \([^)]*bench --cpuid-dump [^)]*--reps 1000000[^)]*\) \(try: --wait\)" \
	"the refusal names the first run's pid and command, and --wait"
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
sleep 1
kill -0 "$p3" 2>/dev/null; ok $? "the --wait run is still waiting while the first runs"
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

done_testing
