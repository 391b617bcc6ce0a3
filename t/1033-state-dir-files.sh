#!/bin/sh
# t/1033-state-dir-files.sh - one rule for every file baretma reads from
# its state directory (project issue 27, point 2).
#
# Before, a calibration file there owned by another user, or writable by
# everyone, was used by bench without a word, and a lock file writable by
# everyone was taken, while a journal in the same directory was refused
# (exit 77).  Now the journal's rule is msr/journal/state_dir.h
# state_dir_file_check, and journals, calibrations and lock files all go
# through it: a regular file, owned by the effective user, that group and
# others cannot write, else refused unread, exit 77 (EX_NOPERM), naming the
# file and why.  bench stops before it measures; validate --bundle leaves
# the calibration out, saying so.  On the simulated PMU (Ice Lake dump).
. "$T_SRC/tap.sh"
pyq_start

ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
[ -r "$ICL" ] || skip_all "no Ice Lake dump $ICL"
command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the JSON"
BARETMA_STATE_DIR=$tmp/run
mkdir -m 0700 "$BARETMA_STATE_DIR"
export BARETMA_STATE_DIR
unset BARETMA_MSR BARETMA_MSR_TRACE BARETMA_CPUID_DUMP BARETMA_TEST_HOOKS BARETMA_PERF
me=$(id -u)
printf 'ghz 3\naccess_cycles 10000\nretiring 20\nbad_speculation 40\nfrontend_bound 20\nbackend_bound 20\nnoise 0\nseed 7\n' \
	>"$tmp/profile"
export BARETMA_CPUID_DUMP="$ICL" BARETMA_MSR=sim:$tmp/profile
rule="refused \\(what is in the state directory decides what baretma writes to MSRs and what bench subtracts: only regular files of uid $me's, writable by no one else, are read there"

# bench: its JSON in $tmp/json, its stderr in $out, its status in $rc
bench() {
	"$BARETMA" bench --backend msr --kernel empty --reps 3 --warmup 0 --json >"$tmp/json" \
		2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/err")
}
used() { pyq 'import json,sys; print(json.load(open(sys.argv[1]))["calibration"]["used"])' "$tmp/json"; }

# --- calibrations ----------------------------------------------------------------
# bench reads calibration-GenuineIntel-6-0x7e-5.json (family 6, model 0x7E,
# stepping 5: the Ice Lake dump), which calibrate writes 0600.
CAL=$BARETMA_STATE_DIR/calibration-GenuineIntel-6-0x7e-5.json
"$BARETMA" calibrate --backend msr --reps 21 >/dev/null 2>&1
[ -f "$CAL" ] || skip_all "calibrate on the simulated PMU made no calibration here"
is "$(stat -c %a "$CAL")" 600 "calibrate wrote its file 0600"
bench
is "$rc" 0 "the calibration, 0600 and ours: bench exits 0"
is "$(used)" True "  and uses it"
chmod 0666 "$CAL"
bench
is "$rc" 77 "the calibration made 0666: bench exits 77"
like "$out" "^baretma: calibration '$CAL' is writable by group and others \\(mode 0666\\): $rule" \
	"  named, why, and the rule"
is "$(cat "$tmp/json")" "" "  nothing measured (no result)"
chmod 0620 "$CAL"
bench
is "$rc" 77 "the calibration made 0620: exit 77"
like "$out" "calibration '$CAL' is writable by group \\(mode 0620\\): refused" "  said"
chmod 0600 "$CAL"
if [ "$me" = 0 ]; then
	chown 65534 "$CAL"
	bench
	is "$rc" 77 "the calibration owned by uid 65534: bench exits 77"
	like "$out" "^baretma: calibration '$CAL' is owned by uid 65534, not uid 0: $rule" \
		"  named, whose it is"
	if "$BARETMA" validate --bundle "$tmp/bundle.json" >/dev/null 2>"$tmp/verr"; then :; fi
	like "$(cat "$tmp/verr")" "warning: calibration '$CAL' left out of the bundle: owned by uid 65534, not uid 0" \
		"  validate --bundle: left out of the bundle, said"
	is "$(pyq 'import json,sys; print("calibration" in json.load(open(sys.argv[1])) and json.load(open(sys.argv[1]))["calibration"] is not None)' "$tmp/bundle.json" 2>&1)" \
		False "  the bundle holds no calibration"
	chown 0 "$CAL"
else
	skip "not root: cannot give the calibration to another user"
	skip "not root"; skip "not root"; skip "not root"
fi
mv "$CAL" "$tmp/cal"
ln -s "$tmp/cal" "$CAL"
bench
is "$rc" 77 "a symbolic link at the calibration's name: exit 77"
like "$out" "calibration '$CAL' is a symbolic link: refused" "  said"
rm -f "$CAL"
mv "$tmp/cal" "$CAL"
bench
is "$rc" 0 "control: back as calibrate wrote it: exit 0"
is "$(used)" True "  used"

# --- lock files ------------------------------------------------------------------
# bench took cpu 7's lock (the dump's last CPU, which it measures on) and
# the settings lock: their files stay, empty and 0600, between runs.
lock=$BARETMA_STATE_DIR/cpu7.lock
[ -f "$lock" ] || lock=$(ls "$BARETMA_STATE_DIR"/cpu*.lock | head -1)
chmod 0666 "$lock"
bench
is "$rc" 77 "a CPU lock file made 0666: exit 77"
like "$out" "^baretma: lock file '$lock' is writable by group and others \\(mode 0666\\): $rule" \
	"  named, as a journal is"
chmod 0600 "$lock"
chmod 0602 "$BARETMA_STATE_DIR/settings.lock"
bench
is "$rc" 77 "the settings lock file made 0602: exit 77"
like "$out" "lock file '$BARETMA_STATE_DIR/settings.lock' is writable by others \\(mode 0602\\): refused" \
	"  named"
chmod 0600 "$BARETMA_STATE_DIR/settings.lock"
bench
is "$rc" 0 "control: both locks 0600 again: exit 0"

# --- journals (the rule they always had, now said alike) -------------------------
J=$BARETMA_STATE_DIR/run-2147483647.journal
printf '# baretma journal v2\npid 2147483647\nstarttime 0\ntime 1700000000\ncmd baretma bench\nbackend sim:%s\nkind run\nuser_only 0\n' \
	"$tmp/profile" >"$J"
chmod 0666 "$J"
out=$("$BARETMA" pmu restore 2>&1); rc=$?
is "$rc" 77 "a journal made 0666: pmu restore exits 77"
like "$out" "^baretma: journal '$J' is writable by group and others \\(mode 0666\\): $rule" \
	"  named, with the same rule"
rm -f "$J"

done_testing
