#!/bin/sh
# t/0458-calibrate-ranges.sh - a calibration file whose values are outside
# their physical range (bench/study/calibrate_store.c: TSC ticks and slots from
# 0 and below 2^64, each field from 0 to the bracket's slots - a fraction
# of them in [0, 1] -, cycles above 0), missing, or not JSON is ignored by
# bench with a warning naming the file, the key and the value, and never
# changes a number: every kernel's numbers equal those of a run without a
# calibration.
#
# The simulator clock is deterministic with `ghz 0` (only accesses advance
# it, doc/simulator.md): bench's profile costs access_cycles N =
# 1e6 per access, so a bracket reads 2.W.N = 1.2e7 slots (W = 6, Sapphire
# Rapids: PERF_METRICS alone, whose calibration keeps the fields checked
# here; Ice Lake's recipe counts events beside it, its calibration counts
# per event) every time, and a kernel's region, the run's own bracket
# subtracted, is 0 slots: each repetition is invalid ("zero slots"), in
# every run alike.  The calibration is made with N = 1e4: its bracket is
# 1.2e5 slots, so a run that used it would keep 1.2e7 - 1.2e5 slots per
# kernel (the control below): any use of a file shows in the numbers.  TSC ticks are real time:
# they are left out of the comparison; each kernel's TSC median, its own
# bracket subtracted, is at least minus the bracket's median (ticks are
# never negative), which -1e300 ticks would not be.
. "$T_SRC/tap.sh"
pyq_start
. "$T_SRC/sim-fixture.sh"

# The Sapphire Rapids dump: family 6, model 0x8F, stepping 8 (`baretma info`).
CAL=$BARETMA_STATE_DIR/calibration-GenuineIntel-6-0x8f-8.json
profile() { # profile FILE ACCESS_CYCLES
	printf 'ghz 0\naccess_cycles %s\nretiring 20\nbad_speculation 40\nfrontend_bound 20\nbackend_bound 20\n' \
		"$2" >"$1"
}
profile "$tmp/pc" 10000
profile "$tmp/pb" 1000000
st=0
BARETMA_CPUID_DUMP=$SPR BARETMA_MSR=sim:$tmp/pc "$BARETMA" calibrate --backend msr --reps 21 \
	>/dev/null 2>&1 || st=$?
is "$st" 0 "calibrate on the simulator (access_cycles 1e4): exit 0"
cp "$CAL" "$tmp/good.json"
is "$(pyq 'import json,sys; print(json.load(open(sys.argv[1]))["backends"][0]["bracket"]["slots"]["median"])' "$CAL")" \
	120000.0 "its bracket: 2.W.N = 1.2e5 slots"

bench_sim() { # bench --json into $tmp/out, stderr $tmp/err, status st
	st=0
	BARETMA_CPUID_DUMP=$SPR BARETMA_MSR=sim:$tmp/pb "$BARETMA" bench --backend msr \
		--kernel retire-light,dep-chain --reps 5 "$@" >"$tmp/out" 2>"$tmp/err" || st=$?
}
# Every kernel's numbers but its TSC ticks (real time), as one text.
numbers() {
	q 'json.dumps([{k: v for k, v in x.items() if k != "tsc_ticks"} for x in d["kernels"]], sort_keys=True)'
}

rm -f "$CAL"
bench_sim --json
is "$st:$(q 'd["calibration"]["found"]')" "0:False" "no calibration: exit 0, none found"
ref=$(numbers)
is "$(q '[x["invalid"] for x in d["kernels"] if x["name"] != "empty"]')" "[5, 5]" \
	"no calibration: region 1.2e7 - 1.2e7 = 0 slots, every repetition invalid"

# Control: the file as calibrate wrote it is used, and changes the numbers.
cp "$tmp/good.json" "$CAL"
bench_sim --json
is "$(q '(d["calibration"]["used"], d["calibration"]["subtracted"])')" "(True, 'calibration')" \
	"control: the calibration is used"
is "$(q '[x["slots"]["median"] for x in d["kernels"] if x["name"] != "empty"]')" \
	"[11880000.0, 11880000.0]" "control: 1.2e7 - 1.2e5 slots per kernel"
ok "$([ "$(numbers)" != "$ref" ]; echo $?)" "control: its numbers differ from a run without one"

# bad NAME PYTHON KEY VALUE: the calibration with PYTHON applied to its
# document d (written back with Python's json, which writes NaN and
# Infinity as such) is ignored: a warning naming the file, KEY and VALUE
# (regular expressions), and the numbers of the run without one.
bad() {
	cp "$tmp/good.json" "$CAL"
	pyq - "$CAL" "$2" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1])); exec(sys.argv[2]); json.dump(d, open(sys.argv[1], "w"))
EOP
	bench_sim --json
	is "$st" 0 "$1: exit 0"
	is "$(q '(d["calibration"]["found"], d["calibration"]["used"], d["calibration"]["subtracted"])')" \
		"(True, False, 'run')" "$1: found, not used: the run's own bracket subtracted"
	like "$(cat "$tmp/err")" "^baretma: warning: calibration '$CAL' ignored: malformed: $3 is $4[,: ]" \
		"$1: a warning names the file, $3 and its value"
	is "$(numbers)" "$ref" "$1: every number as without a calibration"
	is "$(q 'all(x["tsc_ticks"]["median"] >= -d["empty_bracket_tsc"] for x in d["kernels"])')" True \
		"$1: no TSC median below minus the run's own bracket"
}
B='d["backends"][0]'
bad "bracket of 1e300 TSC ticks" "$B['bracket']['tsc_ticks']['median'] = 1e300" \
	'backends\[0\]\.bracket\.tsc_ticks\.median' '1e\+?300'
bad "bracket of 1e300 slots" "$B['bracket']['slots']['median'] = 1e300" \
	'backends\[0\]\.bracket\.slots\.median' '1e\+?300'
bad "negative bracket slots" "$B['bracket']['slots']['median'] = -5" \
	'backends\[0\]\.bracket\.slots\.median' '-5'
bad "negative slots of a field" "$B['bracket']['fields']['retiring']['median'] = -1" \
	'backends\[0\]\.bracket\.fields\.retiring\.median' '-1'
bad "a field's fraction above 1" "$B['bracket']['fields']['bad_speculation']['median'] = 2e5" \
	'backends\[0\]\.bracket\.fields\.bad_speculation\.median' '200000\.0'
bad "fields missing" "del $B['bracket']['fields']" \
	'backends\[0\]\.bracket\.fields\.retiring\.median' 'missing'
bad "negative quantisation error" "$B['bracket']['err_slots'] = -0.5" \
	'backends\[0\]\.bracket\.err_slots' '-0\.5'
bad "resolution -1 cycles" "$B['resolution_cycles'] = -1" \
	'backends\[0\]\.resolution_cycles' '-1'
bad "resolution of 1.5 cycles" "$B['resolution_cycles'] = 1.5" \
	'backends\[0\]\.resolution_cycles' '1\.5'
bad "cycles per tick 0" "$B['cycles_per_tsc_tick'] = 0" \
	'backends\[0\]\.cycles_per_tsc_tick' '0'
bad "bracket ticks as a string" "$B['bracket']['tsc_ticks']['median'] = '650'" \
	'backends\[0\]\.bracket\.tsc_ticks\.median' '"650"'
# JSON has no NaN or infinity (RFC 8259 section 6): such a file is not JSON.
for v in nan inf; do
	cp "$tmp/good.json" "$CAL"
	pyq - "$CAL" "$v" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1])); d["backends"][0]["bracket"]["slots"]["median"] = float(sys.argv[2])
json.dump(d, open(sys.argv[1], "w"))
EOP
	bench_sim --json
	is "$st:$(q '(d["calibration"]["used"], d["calibration"]["subtracted"])')" "0:(False, 'run')" \
		"bracket slots $v (not JSON): exit 0, not used"
	like "$(cat "$tmp/err")" "^baretma: warning: calibration '$CAL' ignored: malformed: line 1: " \
		"$v: a warning names the file and the line"
	is "$(numbers)" "$ref" "$v: every number as without a calibration"
done

# The table says it too, and a calibration for another model stays a note.
bad "table: negative slots" "$B['bracket']['slots']['median'] = -5" \
	'backends\[0\]\.bracket\.slots\.median' '-5'
bench_sim
like "$(cat "$tmp/out")" "^calibration: '$CAL' ignored: malformed: backends\\[0\\]\\.bracket\\.slots\\.median is -5, out of its range \\(slots, from 0, below 2\\^64\\); the run's own empty bracket subtracted" \
	"the table names the key and the value"
cp "$tmp/good.json" "$CAL"
pyq - "$CAL" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1])); d["cpu"]["model"] = 0x7e; json.dump(d, open(sys.argv[1], "w"))
EOP
bench_sim --json
like "$(cat "$tmp/err")" "^baretma: note: calibration '$CAL' ignored: made for model 0x7e" \
	"a calibration for another model: a note, not a warning"
done_testing
