#!/bin/sh
# t/1173-report-fixtures.sh - `baretma report` on a fleet made from real
# simulator runs whose documents are then given each its own host and the
# figures of doc/report.md's worked examples (edited with Python, as a lab's
# hosts would have written them): the calibration's bracket cost 3874,
# 3900, 3874, 3926, 6552 TSC ticks (median 3900, MAD 26, cut 3.5 x 1.4826
# x 26 = 134.9166: the fifth host above) and its slots 24000, 24000, 24000,
# 24120, 48000 (MAD 0: the floor, 1 % of 24000 = 240, is the cut: 48000
# above, 24120 within); compare's verdicts as a check (one host's perf side
# offset by 3 points: doc/simulator.md "fault perf_offset"), stat's
# Top-down, a bundle's calibration member.  Checked: the text's rows, the
# JSON's numbers and that every key it prints is named in doc/report.md,
# the -x SEP layout (and --csv as -x ,), -k, --plot's PNG, and the exit
# statuses of man baretma-report.
. "$T_SRC/tap.sh"
. "$T_SRC/sim-fixture.sh"
. "$T_SRC/report-fixture.sh"

P=$tmp/p
printf "$REPORT_PROFILE" >"$P"
cp "$P" "$P.off"
printf 'fault perf_offset tma_backend_bound 3\n' >>"$P.off"
BARETMA_CPUID_DUMP=$SPR
export BARETMA_CPUID_DUMP
run() { BARETMA_MSR=sim:$P BARETMA_PERF=sim:$P "$BARETMA" "$@" 2>>"$tmp/runs.err"; }
run calibrate --reps 21 --backend msr,tsc --json >"$tmp/cal.json"
run validate --no-perf --json >"$tmp/val.json"
run bench --kernel retire-light --reps 3 --warmup 0 --level 1 --json >"$tmp/bench.json"
run compare --kernel retire-light --pairs 8 --reps 3 --level 1 --json >"$tmp/agree.json"
BARETMA_MSR=sim:$P.off BARETMA_PERF=sim:$P.off "$BARETMA" compare --kernel retire-light --pairs 8 \
	--reps 3 --level 1 --json >"$tmp/disagree.json" 2>>"$tmp/runs.err"
run stat --json -C 0 -- true >"$tmp/stat.json"
# two Ice Lake hosts' bundles, each with the calibration of the state directory
BARETMA_CPUID_DUMP=$ICL run calibrate --reps 21 --backend msr --json >/dev/null
BARETMA_CPUID_DUMP=$ICL run validate --no-perf --bundle "$tmp/icl.json" >/dev/null
ls "$tmp"/cal.json "$tmp"/val.json "$tmp"/bench.json "$tmp"/agree.json "$tmp"/disagree.json \
	"$tmp"/stat.json "$tmp"/icl.json >/dev/null 2>&1
ok $? "the simulator runs wrote their documents"
cp "$tmp/disagree.json" "$tmp/out"
is "$(q 'd["verdicts"]["disagree"] > 0')" True "compare with the perf side offset by 3 points DISAGREEs"

# The fleet: h1-h5 of Sapphire Rapids, i1 and i2 of Ice Lake.
pyq 'import json, sys, os
tmp = sys.argv[1]
def load(n): return json.load(open(os.path.join(tmp, n)))
def host(n): return {"hostname": n, "machine_id": "%032x" % (0x100 + int(n[1:]))}
ticks = [3874, 3900, 3874, 3926, 6552]
slots = [24000, 24000, 24000, 24120, 48000]
for d in ("fleet", "clean"):
    os.mkdir(os.path.join(tmp, d))
def put(d, name, doc): json.dump(doc, open(os.path.join(tmp, d, name), "w"), indent=1)
for i in range(5):
    n = "h%d" % (i + 1)
    c = load("cal.json")
    c["host"] = host(n)
    for b in c["backends"]:
        b["bracket"]["tsc_ticks"]["median"] = ticks[i] if b["backend"] == "msr" else 78
        if "slots" in b["bracket"]:
            b["bracket"]["slots"]["median"] = slots[i]
        for l in b.get("lengths", []):
            for m in ("tma_retiring", "tma_bad_speculation", "tma_frontend_bound", "tma_backend_bound"):
                if m in l:
                    l[m]["spread95_pp"] = 1.5
        if b["backend"] == "msr":
            b["resolution_cycles"] = 100000
    v = load("val.json"); v["host"] = host(n)
    put("fleet", "c%d.json" % i, c); put("fleet", "v%d.json" % i, v)
    if i < 4:
        put("clean", "c%d.json" % i, c); put("clean", "v%d.json" % i, v)
    if i < 3:
        s = load("stat.json"); s["host"] = host(n); put("fleet", "s%d.json" % i, s)
        b = load("bench.json"); b["host"] = host(n); put("fleet", "b%d.json" % i, b)
    if i < 2:
        x = load("agree.json" if i == 0 else "disagree.json"); x["host"] = host(n)
        put("fleet", "x%d.json" % i, x)
for i in (1, 2):
    b = load("icl.json"); b["host"] = host("i%d" % i)
    b["calibration"]["host"] = host("i%d" % i)
    put("fleet", "i%d.json" % i, b)
' "$tmp"
is "$(ls "$tmp/fleet" | wc -l | tr -d ' ')" 20 "the fleet: 20 files of 7 hosts"

"$BARETMA" report "$tmp/fleet" >"$tmp/text" 2>"$tmp/err"; rc=$?
is "$rc" 1 "report: exit 1 (outliers, a failing check)"
is "$(cat "$tmp/err")" "" "... every file used: nothing on stderr"
spr=$(sed -n '/model 0x8F/,/^$/p' "$tmp/text")
is "$(printf '%s\n' "$spr" | grep '^  calibration (per backend) ' | tr -s ' ')" \
	" calibration (per backend) median q1 q3 min max cut n" \
	"the figures' columns: the cut, max(limit, floor), named as the JSON's and -x's 'cut'"
is "$(printf '%s\n' "$spr" | grep '^    msr bracket, TSC ticks ' | tr -s ' ')" \
	" msr bracket, TSC ticks 3900 3874 3926 3874 6552 134.9 5" \
	"bracket ticks: median 3900, q1 3874, q3 3926, min 3874, max 6552, cut 134.9 (hand-worked)"
is "$(printf '%s\n' "$spr" | grep -A1 '^    msr bracket, TSC ticks ' | sed -n 2p)" \
	"      outlier h5: 6552, above the median by 2652" "... h5 above the median by 2652"
is "$(printf '%s\n' "$spr" | grep '^    msr bracket, slots ' | tr -s ' ')" \
	" msr bracket, slots 24000 24000 24120 24000 48000 240 5" \
	"bracket slots: median 24000, q3 24120 (the 4th of 5 sorted), MAD 0: the floor 240 (1 % of 24000) is the cut"
is "$(printf '%s\n' "$spr" | sed -n '/^    msr bracket, slots /,/^    [a-z]/p' | grep -c outlier)" 1 \
	"... one outlier (h5, 48000), 24120 is within the floor"
like "$(printf '%s\n' "$spr" | grep '^    msr resolution, cycles ')" " 100000 .* 5$" \
	"resolution 100000 cycles on 5 hosts"
is "$(printf '%s\n' "$spr" | grep '^    compare ' | tr -s ' ')" " compare 1 1 0" \
	"compare's verdicts as a check: h1 agrees (PASS), h2 DISAGREEs (FAIL)"
like "$(printf '%s\n' "$spr" | grep '^      FAIL h2: ')" "DISAGREE retire-light tma_backend_bound: raw" \
	"... h2 named with the metric that DISAGREEs (perf_offset on tma_backend_bound)"
like "$spr" "   stat: true \\(stat\\)" "stat's Top-down as the kernel 'stat: true'"
like "$spr" "   retire-light \\(bench\\)" "bench's as retire-light"
icl=$(sed -n '/model 0x7E/,/^$/p' "$tmp/text")
like "$(printf '%s\n' "$icl" | grep '^    msr bracket, TSC ticks ')" "n<3 +2$" \
	"Ice Lake: its bundles' calibration members give the figures of its 2 hosts, not judged"

# The JSON document: the same numbers, every key documented
"$BARETMA" report --json "$tmp/fleet" >"$tmp/out" 2>/dev/null; rc=$?
is "$rc" 1 "--json: exit 1"
is "$(q '[(f["median"], f["mad"], round(f["limit"], 4), f["floor"], round(f["cut"], 4), [v["host"] for v in f["values"] if v["outlier"] == "above"]) for f in d["groups"][1]["figures"] if f["subject"] == "msr" and f["item"] == "bracket_tsc_ticks"]')" \
	"[(3900.0, 26.0, 134.9166, 39.0, 134.9166, ['h5'])]" "--json: median, MAD, limit, floor, cut, h5 above"
is "$(q '[(f["mad"], f["limit"], f["cut"], [(v["host"], v["outlier"]) for v in f["values"] if v["host"] in ("h4", "h5")]) for f in d["groups"][1]["figures"] if f["subject"] == "msr" and f["item"] == "bracket_slots"]')" \
	"[(0.0, 0.0, 240.0, [('h4', None), ('h5', 'above')])]" "--json: slots' MAD 0, cut 240; h4 within, h5 above"
is "$(q '[h["files"] for g in d["groups"] for h in g["hosts"] if h["name"] == "i1"][0].keys() == {"bundle"}')" \
	"True" "--json: i1's one file is its bundle (its calibration from the member)"
is "$(python3 -S "$T_SRC/json-undocumented.py" "$T_SRC/../doc/report.md" "$tmp/out")" "" \
	"every key of the document is named in doc/report.md"

# -x SEP: the long layout; --csv is -x ,
"$BARETMA" report -x ';' "$tmp/fleet" >"$tmp/sv" 2>/dev/null; rc=$?
is "$rc" 1 "-x ';': exit 1"
is "$(head -1 "$tmp/sv")" \
	"vendor;family;model;stepping;host;machine_id;section;source;subject;item;unit;value;bound_pp;status;message;n;median;q1;q3;min;max;mad;limit;floor;cut;outlier" \
	"-x: the header of doc/report.md"
is "$(grep '^GenuineIntel;6;143;8;h5;[0-9a-f]*;calibration;calibration;msr;bracket_tsc_ticks;' "$tmp/sv" | cut -d';' -f11-)" \
	"TSC ticks;6552;;;;5;3900;3874;3926;3874;6552;26;134.9166;39;134.9166;above" \
	"-x: h5's bracket row, the group's statistics and 'above'"
is "$(grep '^GenuineIntel;6;143;8;h4;[0-9a-f]*;calibration;calibration;msr;bracket_slots;' "$tmp/sv" | cut -d';' -f12,26)" \
	"24120;within" "-x: h4's slots within"
is "$(grep -c '^GenuineIntel;6;143;8;h2;[0-9a-f]*;check;compare;;compare;;;;FAIL;' "$tmp/sv")" 1 \
	"-x: h2's compare check FAIL"
is "$(grep -c ';setting;environment;;microcode;' "$tmp/sv")" 7 "-x: a microcode row per host (7)"
"$BARETMA" report --csv "$tmp/fleet" | tr ',' ';' >"$tmp/csv" 2>/dev/null
"$BARETMA" report -x , "$tmp/fleet" | tr ',' ';' >"$tmp/x" 2>/dev/null
cmp -s "$tmp/csv" "$tmp/x"
ok $? "--csv writes what -x , writes"

# -k: the limit moves with it; a fleet without a fault exits 0
"$BARETMA" report -k 30 --json "$tmp/fleet" >"$tmp/out" 2>/dev/null
is "$(q '[round(f["cut"], 4) for f in d["groups"][1]["figures"] if f["subject"] == "msr" and f["item"] == "bracket_tsc_ticks"], d["robust_limit"]["k"]')" \
	"([1156.428], 30.0)" "-k 30: cut 30 x 1.4826 x 26 = 1156.428, k stated"
"$BARETMA" report "$tmp/clean" >"$tmp/text" 2>&1; rc=$?
is "$rc" 0 "four hosts alike within the limit, every check passed: exit 0"
like "$(tail -1 "$tmp/text")" "^0 failing checks, 0 outliers, 0 hosts not checked, 0 files skipped: exit status 0$" \
	"... and the text says so"
"$BARETMA" report -k 0 "$tmp/clean" >/dev/null 2>&1; rc=$?
is "$rc" 64 "-k 0: usage, 64"

# --plot: a PNG of at least 1000 x 600 pixels (doc/plots.md)
if "$BARETMA" report --plot "$tmp/f.png" "$tmp/fleet" >/dev/null 2>"$tmp/err"; [ $? -eq 69 ]; then
	skip "built without cairo: --plot exits 69"
	skip "built without cairo"
else
	ok "$([ -s "$tmp/f.png" ]; echo $?)" "--plot writes the PNG"
	is "$(pyq 'import sys, struct; b = open(sys.argv[1], "rb").read(24); w, h = struct.unpack(">II", b[16:24]); print(b[:8] == b"\x89PNG\r\n\x1a\n" and b[12:16] == b"IHDR", w >= 1000, h >= 600)' "$tmp/f.png")" \
		"True True True" "... a PNG (signature, IHDR) of at least 1000 x 600"
fi
done_testing
