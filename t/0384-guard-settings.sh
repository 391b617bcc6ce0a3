#!/bin/sh
# t/0384-guard-settings.sh - the three settings, changed only with consent:
# --rdpmc-always (perf's rdpmc: 2), --stop-nmi-watchdog (nmi_watchdog: 0),
# --allow-msr-writes (msr allow_writes: on) each change their file under
# $BARETMA_SYSROOT while the run is in progress (seen from here, the run
# held at its first MSR write by the state file's directory lock) and put
# it back, byte for byte, when the run ends normally; `pmu enable` leaves
# them changed until `pmu restore`; without a flag a file is never written
# (bytes and mtime unchanged).  Fixture: t/guard-fixture.sh.
. "$T_SRC/tap.sh"
. "$T_SRC/guard-fixture.sh"

command -v flock >/dev/null 2>&1 || skip_all "flock(1) needed"

# flag FILE VALUE: the file each flag changes and the value it writes
for case in "--rdpmc-always:$RDPMC:2" "--stop-nmi-watchdog:$WD:0" "--allow-msr-writes:$ALLOW:on"; do
	flag=${case%%:*} rest=${case#*:}
	file=${rest%:*} value=${rest##*:}
	fixture
	hold_lock
	"$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr --kernel retire-light \
		--reps 3 --warmup 0 "$flag" >/dev/null 2>"$tmp/err" &
	pid=$!
	until_true grep -qx "$value" "$file"; ok $? "$flag: '${file#$tmp/root}' is $value during the run"
	kill -0 "$pid" 2>/dev/null; ok $? "$flag: (the run is still in progress)"
	until_true journal_of "$pid"
	grep -q "^setting ${file#$tmp/root} " "$tmp/run/run-$pid.journal"; ok $? \
		"$flag: the old value is in the journal"
	release_lock
	wait "$pid"; rc=$?
	is "$rc" 0 "$flag: the run ends normally"
	is "$(same_root)" 0 "$flag: every setting file byte for byte as found"
	is "$(same "$tmp/state" "$tmp/orig")" 0 "$flag: state file as found"
	like "$(cat "$tmp/err")" "note: $flag: '$file' is $value for this run \(put back at the end\)" \
		"$flag: the run says what it changed"
done

# No flag: the files are never written (bytes and mtime), and bench shows
# rdpmc; with a CPUID dump it does not suggest changing it (RDPMC would read
# this machine's counters, not the dump's CPU's: t/0235 has the live advice).
# Their mtime is first set to 2001: any write sets it to now, whatever the
# file system's timestamp granularity.
fixture
touch -d '2001-01-01 00:00:00' "$WD" "$RDPMC" "$ALLOW"
before=$(stat -c '%y %s %i' "$WD" "$RDPMC" "$ALLOW")
"$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr --kernel retire-light --reps 3 \
	>"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc" 0 "without a flag the run works"
is "$(stat -c '%y %s %i' "$WD" "$RDPMC" "$ALLOW")" "$before" "without a flag no setting file is written (mtime, size, inode)"
is "$(same_root)" 0 "without a flag the setting files keep their bytes"
like "$(tr '\n' ' ' <"$tmp/out")" "rdpmc = 0, user RDPMC .*RDPMC reads the counters of the CPU baretma runs on, not those of a CPUID dump's CPU" \
	"rdpmc 0 is reported, and why a dump's dry run does not use RDPMC"
like "$(cat "$tmp/err")" "warning: the NMI watchdog is on .*\(try: --stop-nmi-watchdog\)" \
	"the NMI watchdog on is a warning naming the flag"
"$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr --kernel retire-light --reps 3 \
	--stop-nmi-watchdog >/dev/null 2>"$tmp/err"; rc=$?
unlike "$(cat "$tmp/err")" "warning: the NMI watchdog is on" "with --stop-nmi-watchdog: no warning"

# pmu enable: the settings stay changed (journal kind enable) until restore.
fixture
out=$("$BARETMA" pmu enable --cpuid-dump "$ICL" --cpu 1 --stop-nmi-watchdog --rdpmc-always 2>&1); rc=$?
is "$rc" 0 "pmu enable --stop-nmi-watchdog --rdpmc-always"
is "$(cat "$WD" "$RDPMC" | tr '\n' ' ')" "0 2 " "pmu enable leaves both changed"
like "$out" "put back by 'baretma pmu restore'" "and says what puts them back"
"$BARETMA" pmu restore >/dev/null 2>&1; rc=$?
is "$rc" 0 "pmu restore"
is "$(same_root):$(same "$tmp/state" "$tmp/orig")" "0:0" "pmu restore: settings and registers as found"

# A flag whose file does not exist is not available here (69), nothing kept.
fixture
rm "$RDPMC"
cp -a "$tmp/root/." "$tmp/root.orig/"; rm -f "$tmp/root.orig/sys/bus/event_source/devices/cpu/rdpmc"
out=$("$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr --kernel retire-light --reps 3 \
	--rdpmc-always --stop-nmi-watchdog 2>&1); rc=$?
is "$rc" 69 "--rdpmc-always without an rdpmc file: exit 69"
like "$out" "--rdpmc-always: no '$RDPMC' to change" "it names the missing file"
is "$(same_root):$(same "$tmp/state" "$tmp/orig"):$(journals)" "0:0:" \
	"the setting changed before it (nmi_watchdog) is put back; no register written; no journal"

done_testing
