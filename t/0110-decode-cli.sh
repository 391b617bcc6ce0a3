#!/bin/sh
# t/0110-decode-cli - "baretma decode" on vectors worked by hand (same
# arithmetic as t/0100: bytes 0x66 0x1A 0x33 0x4C | 0x22 0x14 0x20 0x30).
. "$T_SRC/tap.sh"

jget() { python3 -S -c 'import json,sys; d=json.load(sys.stdin); print("%.4f" % d[sys.argv[1]])' "$1"; }

out=$("$BARETMA" decode 0x302014224c331a66 --slots 1000000 --json); rc=$?
is "$rc" 0 "decode --json exits 0"
# Retiring 102/255 = 40.0000 %, Light Ops (102-34)/255 = 26.6667 %
is "$(printf '%s' "$out" | jget tma_retiring)" "40.0000" "tma_retiring 102/255 = 40.00 %"
is "$(printf '%s' "$out" | jget tma_light_operations)" "26.6667" "tma_light_operations 68/255 = 26.67 %"
is "$(printf '%s' "$out" | jget tma_machine_clears)" "2.3529" "tma_machine_clears 6/255 = 2.35 %"
is "$(printf '%s' "$out" | jget tma_core_bound)" "10.9804" "tma_core_bound 28/255 = 10.98 %"
is "$(printf '%s' "$out" | jget bound_pp)" "0.3922" "bound 1/255 = 0.39 pp"

out=$("$BARETMA" decode 302014224c331a66 --level 1 --json)
is "$(printf '%s' "$out" | python3 -S -c 'import json,sys; d=json.load(sys.stdin); print(sorted(k for k in d if k.startswith("tma_")))')" \
   "['tma_backend_bound', 'tma_bad_speculation', 'tma_frontend_bound', 'tma_retiring']" \
   "level 1 has exactly the four level-1 names (0x optional)"

out=$("$BARETMA" decode 0x302014224c331a66 --slots 1000000)
like "$out" "tma_retiring +40\.00 %  \(400000\.0 slots\)" "text shows percent with two decimals and slots"
like "$out" "flags: none" "text shows no flags"

# Region from t/0100: Retiring 0.19698039 -> 19.70 %, bound 0.4 pp
out=$("$BARETMA" decode --from 1000:0x1f402080 --to 101000:0x66333333 --level 1 --json)
is "$(printf '%s' "$out" | jget tma_retiring)" "19.6980" "region tma_retiring = 19.70 % (slot-weighted, not 20.00)"
is "$(printf '%s' "$out" | jget tma_backend_bound)" "40.2784" "region tma_backend_bound = 40.28 %"
is "$(printf '%s' "$out" | jget bound_pp)" "0.4000" "region bound 0.40 pp"

out=$("$BARETMA" decode 0x10101010 --level 1 2>&1)
like "$out" "flags: level-1 fields do not sum to 255" "bad sum is flagged"

out=$("$BARETMA" decode 0xzz 2>&1); rc=$?
is "$rc" 65 "malformed value exits 65 (EX_DATAERR)"
like "$out" "^baretma: bad IA32_PERF_METRICS value '0xzz': expected hex" "malformed value message names the input"
out=$("$BARETMA" decode 0x11112222333344445 2>&1); rc=$?
is "$rc" 65 "17 hex digits is too long"
out=$("$BARETMA" decode --from 5:0xff --to 5:0xff 2>&1); rc=$?
is "$rc" 65 "zero-slot region exits 65"
like "$out" "zero slots in the region" "zero-slot region says why"
unlike "$out" "0\.00 %" "zero-slot region prints no zeros"
out=$("$BARETMA" decode --from 5 --to 6:0xff 2>&1); rc=$?
is "$rc" 65 "reading without ':' exits 65"
like "$out" "bad reading '5': expected SLOTS:METRICS" "names the bad reading"
out=$("$BARETMA" decode 0xff --level 3 2>&1); rc=$?
is "$rc" 64 "--level 3 is a usage error"
out=$("$BARETMA" decode 2>&1); rc=$?
is "$rc" 64 "no value is a usage error"
out=$("$BARETMA" decode 0xff --from 1:0xff --to 2:0xff 2>&1); rc=$?
is "$rc" 64 "value and region together is a usage error"
# --- the level: from the value unless --level (issue 8 point 12) --------------
# 0x4c331a66 is an Ice Lake value: bytes 4-7 (the level-2 fields,
# linux perf_event.h INTEL_PMC_IDX_TD_HEAVY_OPS..) are zero.  It has no level 2: shown at level 1.
names() { python3 -S -c 'import json,sys; d=json.load(sys.stdin); print(d["level"], len([k for k in d if k.startswith("tma_")]))'; }
out=$("$BARETMA" decode 0x4c331a66 --json); rc=$?
is "$rc" 0 "level-1 value exits 0"
is "$(printf '%s' "$out" | names)" "1 4" "bytes 4-7 zero: level 1, the four level-1 nodes only"
out=$("$BARETMA" decode 0x4c331a66)
like "$out" "level 1 \(bytes 4-7 are zero" "text says why it shows level 1"
unlike "$out" "tma_heavy_operations" "text has no level-2 node"
out=$("$BARETMA" decode 0x4c331a66 --level 2 --json)
is "$(printf '%s' "$out" | names)" "2 12" "--level 2 shows level 2 anyway (12 nodes)"
# Heavy Ops byte 0 -> 0 %; Light Ops = Retiring = 102/255 = 40 %
is "$(printf '%s' "$out" | jget tma_light_operations)" "40.0000" "--level 2: light ops = retiring (heavy ops byte 0)"
out=$("$BARETMA" decode 0x302014224c331a66 --json)
is "$(printf '%s' "$out" | names)" "2 12" "bytes 4-7 set: level 2 without --level"
out=$("$BARETMA" decode 0x302014224c331a66 --level 1 --json)
is "$(printf '%s' "$out" | names)" "1 4" "--level 1 keeps level 1"
# Regions: level 2 when either reading has level-2 bytes.
out=$("$BARETMA" decode --from 1000:0x1f402080 --to 101000:0x66333333 --json)
is "$(printf '%s' "$out" | names)" "1 4" "region without level-2 bytes: level 1"
out=$("$BARETMA" decode --from 0:0 --to 1000:0x302014224c331a66 --json)
is "$(printf '%s' "$out" | names)" "2 12" "region whose end reading has level-2 bytes: level 2"

# --- --slots 0 is zero slots, flagged; no --slots is "not given" (null) ------
out=$("$BARETMA" decode 0x4c331a66 --slots 0); rc=$?
is "$rc" 0 "--slots 0 exits 0 (flagged, like other flags)"
like "$out" "flags: zero slots \(--slots 0" "--slots 0 is flagged as zero slots"
like "$out" "slots: 0" "--slots 0 shows the slot count it was given"
out=$("$BARETMA" decode 0x4c331a66 --slots 0 --json)
is "$(printf '%s' "$out" | python3 -S -c 'import json,sys; print(json.load(sys.stdin)["flags"])')" \
	"['zero_slots']" "JSON flags: an array naming zero_slots"
out=$("$BARETMA" decode 0x4c331a66 --json)
is "$(printf '%s' "$out" | python3 -S -c 'import json,sys; d=json.load(sys.stdin); print(d["slots"], d["input"]["slots"], d.get("flags"))')" \
	"None None []" "no --slots: slots null (not 0), flags an empty array"
out=$("$BARETMA" decode 0x4c331a66 --slots 1 --json)
is "$(printf '%s' "$out" | python3 -S -c 'import json,sys; d=json.load(sys.stdin); print(d["slots"], d.get("flags"))')" \
	"1.0 []" "--slots 1: no zero-slots flag"

# --- usage errors name what is wrong ------------------------------------------
out=$("$BARETMA" decode 0xff --from 1:0xff --to 2:0xff 2>&1)
like "$out" "^baretma: decode: a METRICS value and --from/--to exclude each other" "value with a region is named"
out=$("$BARETMA" decode --from 1:0xff 2>&1); rc=$?
is "$rc" 64 "--from without --to exits 64"
like "$out" "^baretma: decode: --from needs --to \(try: baretma decode --help\)$" "--from without --to is named"
out=$("$BARETMA" decode --from 1:0xff --to 2:0xff --slots 5 2>&1); rc=$?
is "$rc" 64 "--slots with a region exits 64"
like "$out" "--slots goes with a single METRICS value" "--slots with a region is named"
done_testing
