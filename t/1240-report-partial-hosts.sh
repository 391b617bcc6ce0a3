#!/bin/sh
# t/1240-report-partial-hosts.sh - `baretma report` names every host the
# view lacks something of (doc/report.md "What it finds", "The text",
# "Separated values", "Exit status"), on a fleet made from real simulator
# runs given each its own host (edited with Python, as a lab's hosts would
# have written them): four Sapphire Rapids hosts, s1-s3 with a
# calibration, a validate and a bench document each, s3's msr backend not
# measured (a backend not measured: its document but no value), s4 with
# its calibration alone (no validate, no bench), s1-s3's kernel so long
# that an opening parenthesis falls at the 100th column; a host "anon" of a
# validate document alone (validate --json names no CPU); and an AMD host
# whose bundle's every check is SKIP (validate of an AuthenticAMD CPUID
# dump: IA32_PERF_METRICS is Intel's, exit 69).  Checked: the hosts
# without a validate on the group's checks line, those without the
# figure's document under its row, the host with every check SKIP named
# as not checked and the exit status 1 it makes (a check that could not be
# made is no pass: man baretma-report), the -x row of a host without a
# value, the heading of a group whose files name no CPU, and that no line
# breaks after an opening parenthesis.
. "$T_SRC/tap.sh"
. "$T_SRC/sim-fixture.sh"
. "$T_SRC/report-fixture.sh"

AMD=$SHARED_CPUID/libcpuid/v0.6.2/amd/zen3/ryzen9-vermeer.test
[ -r "$AMD" ] || skip_all "no CPUID dump $AMD"
P=$tmp/p
printf "$REPORT_PROFILE" >"$P"
run() { BARETMA_MSR=sim:$P BARETMA_CPUID_DUMP=$SPR "$BARETMA" "$@" 2>>"$tmp/runs.err"; }
run calibrate --reps 21 --backend msr,tsc --json >"$tmp/cal.json"
run validate --no-perf --json >"$tmp/val.json"
run bench --kernel retire-light --reps 3 --warmup 0 --level 1 --json >"$tmp/bench.json"
BARETMA_MSR=sim:$P "$BARETMA" validate --cpuid-dump "$AMD" --no-perf --bundle "$tmp/amd.json" \
	>/dev/null 2>>"$tmp/runs.err"; rc=$?
is "$rc" 69 "validate of the AMD dump: exit 69 (no Intel PMU to validate)"
cp "$tmp/amd.json" "$tmp/out"
is "$(q 'sorted(set(c["status"] for c in d["validate"]["checks"]))')" "['SKIP']" \
	"... its bundle's every check is SKIP"

pyq 'import json, os, sys
tmp = sys.argv[1]
def load(n): return json.load(open(os.path.join(tmp, n)))
def host(n, i): return {"hostname": n, "machine_id": "%032x" % (0x200 + i)}
for d in ("f", "u"):
    os.mkdir(os.path.join(tmp, d))
def put(d, name, doc): json.dump(doc, open(os.path.join(tmp, d, name), "w"))
for i in range(4):
    n = "s%d" % (i + 1)
    c = load("cal.json"); c["host"] = host(n, i)
    if n == "s3":
        for b in c["backends"]:
            if b["backend"] == "msr":
                for k in list(b):
                    if k not in ("backend",):
                        del b[k]
                b["measured"] = False
                b["reason"] = "not measured on this host"
    put("f", "c%d.json" % i, c)
    if n != "s4":
        v = load("val.json"); v["host"] = host(n, i); put("f", "v%d.json" % i, v)
        b = load("bench.json"); b["host"] = host(n, i)
        # the settings are from the bench: "    kernel: " is 12 columns, the
        # value 86, " (" 2: the 100th column
        b["environment"]["kernel"] = "6.1.0-" + "k" * 80
        put("f", "b%d.json" % i, b)
v = load("val.json"); v["host"] = host("anon", 9); put("f", "anon.json", v)
a = load("amd.json"); a["host"] = host("amd1", 10); put("u", "amd1.json", a)
' "$tmp"

"$BARETMA" report "$tmp/f" >"$tmp/text" 2>"$tmp/err"; rc=$?
is "$rc:$(cat "$tmp/err")" "0:" "the fleet without the AMD host: no fault, every file used, exit 0"
spr=$(sed -n '/model 0x8F/,/^$/p' "$tmp/text")
like "$(printf '%s\n' "$spr" | grep '^  checks: ')" \
	"^  checks: [0-9]+ on 3 of 4 hosts \\(no validate: s4\\), [0-9]+ PASS, 0 FAIL, [0-9]+ SKIP in all$" \
	"the checks line: on 3 of the group's 4 hosts, s4 (no validate) named"
is "$(printf '%s\n' "$spr" | grep -A2 '^    tma_retiring ' | sed -n 2p)" "      no bench: s4" \
	"a Top-down row names the host without a bench document (s4)"
like "$(printf '%s\n' "$spr" | grep '^    tma_retiring ' | tr -s ' ')" " 3$" \
	"... its figure over the 3 hosts that have it"
is "$(printf '%s\n' "$spr" | grep -A1 '^    msr bracket, TSC ticks ' | sed -n 2p)" "      no value: s3" \
	"a calibration row names the host with its document but no value (s3: msr not measured)"
is "$(grep -c '($' "$tmp/text")" 0 "no line ends in an opening parenthesis"
is "$(printf '%s\n' "$spr" | grep -A1 '^    kernel: 6\.1\.0-k*$' | sed -n 2p | cut -c1-22)" \
	"        (s1, s2, s3) |" \
	"... s1-s3's kernel ends at the 98th column: its hosts wrap whole, '(' with them"
like "$(grep '^== ' "$tmp/text" | tail -1)" "^== CPU not named by its files, 1 host$" \
	"the group of a host whose files name no CPU (a validate document alone): its heading"

"$BARETMA" report -x ';' "$tmp/f" >"$tmp/sv" 2>/dev/null
is "$(grep ';s3;[0-9a-f]*;calibration;calibration;msr;bracket_tsc_ticks;' "$tmp/sv" | cut -d';' -f12,13,16,26)" \
	";;3;missing" "-x: s3's row of the msr bracket: no value, the group's n 3, 'missing'"
is "$(grep -c ';s4;[0-9a-f]*;topdown;' "$tmp/sv")" 0 "-x: no row for s4 of a bench it does not have"

"$BARETMA" report "$tmp/f" "$tmp/u" >"$tmp/text" 2>"$tmp/err"; rc=$?
is "$rc" 1 "with the AMD host whose every check is SKIP: exit 1 (man baretma-report)"
amd=$(sed -n '/^== AuthenticAMD /,/^$/p' "$tmp/text")
is "$(printf '%s\n' "$amd" | grep 'not checked')" "    not checked (every check SKIP): amd1" \
	"... named in its group as not checked"
is "$(tail -1 "$tmp/text")" "0 failing checks, 0 outliers, 1 host not checked, 0 files skipped: exit status 1" \
	"... counted in the last line"
"$BARETMA" report --json "$tmp/f" "$tmp/u" >"$tmp/out" 2>/dev/null; rc=$?
is "$rc" 1 "--json: exit 1"
is "$(q 'd["unchecked"], d["exit_status"], [(g["cpu"]["vendor"], g["unchecked"]) for g in d["groups"] if g["unchecked"]], [h["name"] for g in d["groups"] for h in g["hosts"] if h["unchecked"]]')" \
	"(1, 1, [('AuthenticAMD', 1)], ['amd1'])" "--json: unchecked 1 in all, in the AMD group, amd1's"
is "$(q '[f["absent"] for g in d["groups"] for f in g["figures"] if f["item"] == "tma_retiring" and f["subject"] == "retire-light"]')" \
	"[['s4']]" "--json: the Top-down figure's absent host, s4"
is "$(python3 -S "$T_SRC/json-undocumented.py" "$T_SRC/../doc/report.md" "$tmp/out")" "" \
	"every key of the document is named in doc/report.md"
done_testing
