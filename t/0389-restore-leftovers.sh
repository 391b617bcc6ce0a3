#!/bin/sh
# t/0389-restore-leftovers.sh - what a run killed before it saved a
# register leaves in the state directory, as `pmu status` shows it and
# `pmu restore` finishes it (msr/journal/journal.h, man baretma-pmu):
#   - a journal with settings only (killed between changing nmi_watchdog /
#     rdpmc and saving its first register): listed, its settings put back,
#     removed, also with a --cpu list (it holds no CPU);
#   - a journal that holds nothing (killed right after it began): listed,
#     removed, saying so;
#   - a temporary journal ".run-PID.journal.tmp" (killed between writing an
#     update and renaming it): listed; removed when its process is gone,
#     left when it runs; never "nothing to restore" while one is there.
# The journals are written as msr/journal/journal.h's format gives them; the
# settings' files are the guard fixture's sysroot (t/guard-fixture.sh).
. "$T_SRC/tap.sh"
pyq_start
. "$T_SRC/guard-fixture.sh"

# a PID that ran and ended: a child that exited
( : ) &
dead=$!
wait "$dead"
kill -0 "$dead" 2>/dev/null && skip_all "pid $dead was reused at once"

# journal PID [LINES...]: a v2 journal of PID, kind enable, with LINES
journal() {
	p=$1
	shift
	{
		printf '# baretma journal v2\npid %s\nstarttime 0\ntime 1700000000\n' "$p"
		printf 'cmd baretma pmu enable --cpu 7 --stop-nmi-watchdog --rdpmc-always\n'
		printf 'backend state:%s/state\nkind enable\nuser_only 0\n' "$tmp"
		for l in "$@"; do printf '%s\n' "$l"; done
	} >"$tmp/run/run-$p.journal"
	chmod 600 "$tmp/run/run-$p.journal"
}

# --- settings only -----------------------------------------------------
fixture
mkdir -p "$tmp/run"
# the killed run had set nmi_watchdog 0 and rdpmc 2; the journal says 1, 0
printf '0\n' >"$WD"
printf '2\n' >"$RDPMC"
journal "$dead" "setting /proc/sys/kernel/nmi_watchdog 1" \
	"setting /sys/bus/event_source/devices/cpu/rdpmc 0"
out=$("$BARETMA" pmu status 2>&1); rc=$?
is "$rc" 0 "status of a settings-only journal: exit 0"
like "$out" "journal '$tmp/run/run-$dead.journal'" "status lists it"
like "$out" "cpus: +none \\(it saved settings only" "status says it holds settings only"
like "$out" "setting: /proc/sys/kernel/nmi_watchdog saved '1', now '0'" "status: nmi_watchdog saved 1, now 0"
unlike "$out" "^no journal" "status never says 'no journal'"
out=$("$BARETMA" pmu status --cpu 7 2>&1)
like "$out" "run-$dead.journal" "status --cpu 7 lists it too (it holds no CPU)"
out=$("$BARETMA" pmu restore --cpu 7 2>&1); rc=$?
is "$rc" 66 "restore --cpu 7: no journal holds cpu 7: exit 66"
like "$out" "cpu 7 has no journal in '$tmp/run'" "and says so"
like "$out" "setting /proc/sys/kernel/nmi_watchdog: restored '1'" "restore puts nmi_watchdog back"
like "$out" "setting /sys/bus/event_source/devices/cpu/rdpmc: restored '0'" "and rdpmc"
unlike "$out" "nothing to restore" "never 'nothing to restore'"
is "$(same_root)" 0 "sysroot byte for byte as found"
is "$(same "$tmp/state" "$tmp/orig")" 0 "no register written"
is "$(journals)" "" "the journal is removed"

# --- a journal that holds nothing ------------------------------------------
fixture
journal "$dead"
out=$("$BARETMA" pmu status 2>&1)
like "$out" "cpus: +none \\(its run ended before it saved anything" "status: an empty journal, named"
out=$("$BARETMA" pmu restore 2>&1); rc=$?
is "$rc" 0 "restore of an empty journal: exit 0"
like "$out" "run-$dead.journal' of pid $dead \\(not running\\) held nothing" "restore says it held nothing"
is "$(journals)" "" "and removes it"
is "$(same "$tmp/state" "$tmp/orig")$(same_root)" 00 "nothing written"

# --- temporary journals ---------------------------------------------------
fixture
printf '# baretma journal v2\npid %s\n' "$dead" >"$tmp/run/.run-$dead.journal.tmp"
printf '# baretma journal v2\npid %s\n' "$$" >"$tmp/run/.run-$$-3.journal.tmp"
out=$("$BARETMA" pmu status 2>&1); rc=$?
is "$rc" 0 "status with temporary journals: exit 0"
like "$out" "temporary journal '$tmp/run/.run-$dead.journal.tmp': pid $dead \\(not running\\)" \
	"status names the dead one"
like "$out" "temporary journal '$tmp/run/.run-$$-3.journal.tmp': pid $$ \\(running\\)" \
	"and the running one"
"$BARETMA" pmu status --json >"$tmp/json" 2>&1
if command -v python3 >/dev/null 2>&1; then
	is "$(pyq 'import json,sys
d = json.load(open(sys.argv[1]))
print(sorted((t["pid"], t["alive"]) for t in d["temporary"]))' "$tmp/json")" \
		"[($$, True), ($dead, False)]" "status --json: temporary [{pid, alive}]"
else
	skip "no python3"
fi
out=$("$BARETMA" pmu restore 2>&1); rc=$?
is "$rc" 0 "restore with temporary journals: exit 0"
like "$out" "removed '$tmp/run/.run-$dead.journal.tmp'" "the dead process's is removed, said"
like "$out" "temporary journal '$tmp/run/.run-$$-3.journal.tmp' belongs to a running process" \
	"the running one is named"
unlike "$out" "nothing to restore" "never 'nothing to restore' with a temporary journal there"
is "$(ls -A "$tmp/run" | grep 'tmp$' | tr '\n' ' ')" ".run-$$-3.journal.tmp " "only the running one's is left"
rm -f "$tmp/run/.run-$$-3.journal.tmp"
out=$("$BARETMA" pmu restore 2>&1)
is "$out" "nothing to restore: no journal in '$tmp/run'" "then: nothing to restore"

done_testing
