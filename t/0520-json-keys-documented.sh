#!/bin/sh
# t/0520-json-keys-documented.sh - every key of every JSON document baretma
# prints (bench in each backend it can run here, info live and from dumps,
# decode, pmu status, msr read, calibrate) is named in doc/json.md as `key`: a
# user reading it knows every field, and a new field cannot ship
# undocumented.  The keys come from the documents, the names from the
# doc/json.md: neither from the code under test.
. "$T_SRC/tap.sh"
pyq_start

command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the JSON"
readme="$T_SRC/../doc/json.md"
[ -r "$readme" ] || skip_all "no doc/json.md beside t/"
ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test

# undocumented FILE...: the keys of the JSON documents that doc/json.md does
# not name as `key` (t/json-undocumented.py).
undocumented() {
	python3 -S "$T_SRC/json-undocumented.py" "$readme" "$@"
}

# bench, TSC backend (runs everywhere)
"$BARETMA" bench --backend tsc --kernel retire-light --reps 3 --warmup 0 --json \
	>"$tmp/bench-tsc.json" 2>/dev/null; rc=$?
is "$rc" 0 "bench --backend tsc --json"
is "$(undocumented "$tmp/bench-tsc.json")" "" "bench (tsc): every key in doc/json.md"

# info, live
"$BARETMA" info --json >"$tmp/info.json" 2>/dev/null; rc=$?
is "$rc" 0 "info --json"
is "$(undocumented "$tmp/info.json")" "" "info (live): every key in doc/json.md"

# decode, a value and a region, level 2
"$BARETMA" decode 0x302014224C331A66 --slots 1000000 --level 2 --json >"$tmp/dec1.json" 2>/dev/null
"$BARETMA" decode --from 1000:0x1F402080 --to 101000:0x66333333 --json >"$tmp/dec2.json" 2>/dev/null
is "$(undocumented "$tmp/dec1.json" "$tmp/dec2.json")" "" "decode (value, region): every key in doc/json.md"

if [ -r "$ICL" ]; then
	# bench through the state backend on the Ice Lake dump: the Top-down keys
	state=$tmp/state
	cat >"$state" <<'EOS'
1 0x38f 0x70000000f
1 0x38d 0x333
1 0x30c 0x1234
1 0x329 0x5566
1 0x390 0x0
1 0x38e 0x0
1 0x345 0xf4c5
1 0x392 0x0
EOS
	for e in 186 187 188 189 18a 18b 18c 18d; do printf '1 0x%s 0x0\n' "$e"; done >>"$state"
	# the general-purpose counters Ice Lake's recipe reads beside PERF_METRICS
	# (IA32_PMCi, IA32_A_PMCi: full-width writes, bit 13 of 0xf4c5)
	for i in 0 1 2 3 4 5 6 7; do
		printf '1 0x%x 0x0\n1 0x%x 0x0\n' $((0xc1 + i)) $((0x4c1 + i))
	done >>"$state"
	BARETMA_MSR=state:$state "$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr \
		--kernel retire-light --reps 3 --warmup 0 --json >"$tmp/bench-msr.json" 2>/dev/null; rc=$?
	is "$rc" 0 "bench --backend msr (dry run) --json"
	is "$(undocumented "$tmp/bench-msr.json")" "" "bench (msr, dry run): every key in doc/json.md"
	"$BARETMA" info --cpuid-dump "$ICL" --json >"$tmp/info-icl.json" 2>/dev/null
	is "$(undocumented "$tmp/info-icl.json")" "" "info (Ice Lake dump): every key in doc/json.md"
	# pmu status with a journal left by enable
	BARETMA_MSR=state:$state "$BARETMA" pmu enable --cpuid-dump "$ICL" --cpu 1 >/dev/null 2>&1
	BARETMA_MSR=state:$state "$BARETMA" pmu status --json >"$tmp/status.json" 2>/dev/null; rc=$?
	is "$rc" 0 "pmu status --json"
	is "$(undocumented "$tmp/status.json")" "" "pmu status: every key in doc/json.md"
	BARETMA_MSR=state:$state "$BARETMA" pmu restore >/dev/null 2>&1
	BARETMA_MSR=state:$state "$BARETMA" msr read --json --cpuid-dump "$ICL" 1 0x38d \
		>"$tmp/msr.json" 2>/dev/null; rc=$?
	is "$rc" 0 "msr read --json"
	is "$(undocumented "$tmp/msr.json")" "" "msr read: every key in doc/json.md"
	# compare and bench --backend perf on the simulated PMU
	printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/prof"
	BARETMA_MSR=sim:$tmp/prof BARETMA_PERF=sim:$tmp/prof "$BARETMA" compare --cpuid-dump "$ICL" \
		--kernel retire-light --pairs 9 --reps 3 --json >"$tmp/cmp.json" 2>/dev/null; rc=$?
	is "$rc" 0 "compare --json (simulated PMU)"
	is "$(undocumented "$tmp/cmp.json")" "" "compare: every key in doc/json.md"
	BARETMA_MSR=sim:$tmp/prof BARETMA_PERF=sim:$tmp/prof "$BARETMA" bench --cpuid-dump "$ICL" \
		--backend perf --kernel retire-light --reps 3 --warmup 0 --json >"$tmp/perf.json" 2>/dev/null
	is "$(undocumented "$tmp/perf.json")" "" "bench (perf, simulated): every key in doc/json.md"
	BARETMA_MSR=sim:$tmp/prof BARETMA_PERF=sim:$tmp/prof "$BARETMA" validate --cpuid-dump "$ICL" \
		--json >"$tmp/val.json" 2>/dev/null
	is "$(undocumented "$tmp/val.json")" "" "validate (simulated): every key in doc/json.md"
	BARETMA_MSR=sim:$tmp/prof "$BARETMA" validate --cpuid-dump "$ICL" --no-perf \
		--bundle "$tmp/bundle.json" >/dev/null 2>&1
	is "$(undocumented "$tmp/bundle.json")" "" "validate --bundle (simulated): every key in doc/json.md"
	# calibrate on the simulated PMU (its document), then bench using it
	# (the calibration object with its bracket, below_resolution)
	BARETMA_STATE_DIR=$tmp/run; mkdir -p "$BARETMA_STATE_DIR"; export BARETMA_STATE_DIR
	BARETMA_MSR=sim:$tmp/prof "$BARETMA" calibrate --cpuid-dump "$ICL" --backend msr,tsc \
		--reps 21 --json >"$tmp/cal.json" 2>/dev/null; rc=$?
	is "$rc" 0 "calibrate --json (simulated PMU)"
	is "$(undocumented "$tmp/cal.json")" "" "calibrate: every key in doc/json.md"
	BARETMA_MSR=sim:$tmp/prof "$BARETMA" bench --cpuid-dump "$ICL" --backend msr \
		--kernel retire-light --reps 3 --warmup 0 --json >"$tmp/bench-cal.json" 2>/dev/null
	is "$(pyq 'import json,sys; print(json.load(open(sys.argv[1]))["calibration"]["used"])' \
		"$tmp/bench-cal.json")" True "bench used the calibration"
	is "$(undocumented "$tmp/bench-cal.json")" "" "bench (with a calibration): every key in doc/json.md"
	unset BARETMA_STATE_DIR
else
	skip "no Ice Lake dump"; skip "no Ice Lake dump"; skip "no Ice Lake dump"
	skip "no Ice Lake dump"; skip "no Ice Lake dump"; skip "no Ice Lake dump"
	skip "no Ice Lake dump"; skip "no Ice Lake dump"; skip "no Ice Lake dump"
	skip "no Ice Lake dump"; skip "no Ice Lake dump"; skip "no Ice Lake dump"
	skip "no Ice Lake dump"; skip "no Ice Lake dump"; skip "no Ice Lake dump"
fi
done_testing
