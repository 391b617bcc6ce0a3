#!/bin/sh
# t/1211-calibrate-no-valid-bracket.sh - a backend whose empty bracket had
# no valid Top-down reading is "cannot measure" in the calibration, with
# the count of invalid repetitions, never a file of slots without a median
# that bench then refuses as malformed (found by a review of the fleet's
# campaign: calibrate exited 0, and each later bench named the file
# malformed and told the user to calibrate again, which wrote it again).
#
# The simulated Sapphire Rapids with `fault sum_off 12` (doc/simulator.md:
# the four level-1 PERF_METRICS bytes sum to 255 + 12): every reading of the
# raw backends (msr, rdpmc, perf-rdpmc: PERF_METRICS itself) is beyond
# 255 +/- 3 and invalid (SDM Vol. 3B, "Performance Metrics": the fields are
# fractions of TOPDOWN.SLOTS in 1/255ths; bench's check of their sum,
# bench/measure.c), so 201 of 201 repetitions of the empty bracket are
# invalid; perf's topdown-* counts (the simulator's perf_event side) are
# the kernel's, not those bytes, and still measure.
. "$T_SRC/tap.sh"
. "$T_SRC/sim-fixture.sh"

printf 'ghz 1\naccess_cycles 2000\nretiring 31\nbad_speculation 9\nfrontend_bound 22\nbackend_bound 38\nfault sum_off 12\n' \
	>"$tmp/p"
BARETMA_MSR=sim:$tmp/p BARETMA_PERF=sim:$tmp/p "$BARETMA" calibrate --cpuid-dump "$SPR" \
	>"$tmp/out.txt" 2>"$tmp/err"; rc=$?
is "$rc" 0 "calibrate exits 0: perf and tsc were measured"
f=$(ls "$BARETMA_STATE_DIR"/calibration-*.json 2>/dev/null | head -1)
ok "$([ -r "$f" ] && echo 0 || echo 1)" "the calibration file is written"
is "$(pyq 'import json, sys
d = json.load(open(sys.argv[1]))
out = []
for b in d["backends"]:
    if not b["measured"]:
        out.append("%s no: %s" % (b["backend"], b["reason"]))
    elif b.get("level"):
        s = b["bracket"]["slots"]
        out.append("%s slots %s" % (b["backend"], "median" if s and s.get("median") is not None else "NONE"))
    else:
        out.append("%s tsc" % b["backend"])
print("\n".join(out))' "$f")" "rdpmc no: no valid Top-down reading of the empty bracket: 201 of 201 repetitions invalid (baretma bench --kernel empty --backend rdpmc says why)
msr no: no valid Top-down reading of the empty bracket: 201 of 201 repetitions invalid (baretma bench --kernel empty --backend msr says why)
perf slots median
perf-rdpmc no: no valid Top-down reading of the empty bracket: 201 of 201 repetitions invalid (baretma bench --kernel empty --backend perf-rdpmc says why)
tsc tsc" "the raw backends cannot measure, with the count; perf's bracket has its slots' median"
like "$(cat "$tmp/out.txt")" "msr: cannot measure: no valid Top-down reading of the empty bracket: 201 of 201" \
	"the text says so per backend"
# the command the reason names says why
BARETMA_MSR=sim:$tmp/p "$BARETMA" bench --cpuid-dump "$SPR" --kernel empty --backend msr \
	>"$tmp/why" 2>&1
like "$(cat "$tmp/why")" "no valid repetition: 201 of 201 invalid: 201 level-1 fields beyond 255 \\+/-3" \
	"bench --kernel empty --backend msr, the command named, says why"
# bench reads the file: no backend of it is malformed
BARETMA_MSR=sim:$tmp/p BARETMA_PERF=sim:$tmp/p "$BARETMA" bench --cpuid-dump "$SPR" --kernel dep-chain \
	--backend perf >"$tmp/b" 2>&1
unlike "$(cat "$tmp/b")" "malformed" "bench finds no malformed calibration"
like "$(cat "$tmp/b")" "calibration: '[^']*' \\(" "bench --backend perf uses the calibration's perf bracket"
BARETMA_MSR=sim:$tmp/p "$BARETMA" bench --cpuid-dump "$SPR" --kernel dep-chain --backend msr \
	>"$tmp/b2" 2>&1
like "$(cat "$tmp/b2")" "ignored: it has no figures for backend msr \\(it could not measure then\\)" \
	"bench --backend msr names the calibration's msr entry as not measured, not malformed"
done_testing
