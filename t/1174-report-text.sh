#!/bin/sh
# t/1174-report-text.sh - `baretma report`'s text fits 100 columns and no
# byte of its input reaches a terminal unescaped (doc/report.md "The
# text", "What it reads"; cpu/escape.h).  A fleet of 31 hosts made from one
# real calibration run (the simulated Sapphire Rapids), their hostnames 50
# characters long, two microcodes (20 hosts and 11), and one host whose
# hostname, kernel and failing check's message hold ESC, BEL, CR, a
# newline, a C1 control (U+0085) and a right-to-left override (U+202E):
# every line of the text, of stderr and of -x's records is checked for
# width and for those bytes, lists past 8 hosts end in "+N more" while the
# JSON names them all, and the JSON gives the strings back as they were.
. "$T_SRC/tap.sh"
. "$T_SRC/sim-fixture.sh"
. "$T_SRC/report-fixture.sh"

report_calibration "$tmp/cal.json"
BARETMA_MSR=sim:$tmp/p "$BARETMA" validate --cpuid-dump "$SPR" --no-perf --json \
	>"$tmp/val.json" 2>/dev/null
EVIL=$(printf 'evil\033]0;pwned\007\033[2J\r\nx\302\205y\342\200\256z')
pyq 'import json, os, sys
tmp, evil = sys.argv[1], sys.argv[2]
os.mkdir(os.path.join(tmp, "fleet"))
for i in range(31):
    c = json.load(open(os.path.join(tmp, "cal.json")))
    name = "lab-node-%02d-with-a-rather-long-name-in-the-cluster" % i if i < 30 else evil
    c["host"] = {"hostname": name, "machine_id": "%032x" % (i + 1)}
    c["environment"]["microcode"] = "0x1" if i < 20 else "0x2"
    c["environment"]["kernel"] = "6.1.0" if i < 30 else "6.1\x1b[31m\nfake: line"
    json.dump(c, open(os.path.join(tmp, "fleet", "c%02d.json" % i), "w"))
v = json.load(open(os.path.join(tmp, "val.json")))
v["host"] = {"hostname": evil, "machine_id": "%032x" % 31}
v["checks"][0]["status"] = "FAIL"
v["checks"][0]["measured"] = "\x1b[2Jcleared\u202e" + " word" * 60
json.dump(v, open(os.path.join(tmp, "fleet", "v.json"), "w"))
' "$tmp" "$EVIL"
# a file whose name holds an ESC, skipped: its name is escaped on stderr
printf 'not json' >"$tmp/fleet/$(printf 'bad\033[2Jname').json"

# bad FILE: the lines of FILE wider than 100 characters, and the bytes that
# a terminal acts on (C0 but LF, DEL, C1 as UTF-8, the bidi overrides) - none
bad() {
	pyq 'import sys, re
t = open(sys.argv[1], encoding="utf-8", errors="strict").read()
wide = [l for l in t.split("\n") if len(l) > 100]
ctl = re.findall("[\x00-\x09\x0b-\x1f\x7f\x80-\x9f\u202a-\u202e\u2066-\u2069]", t)
print(len(wide), len(ctl), ascii(wide[:1]))' "$1"
}

"$BARETMA" report "$tmp/fleet" >"$tmp/text" 2>"$tmp/err"; rc=$?
is "$rc" 1 "report: exit 1 (a check failed, a file was skipped)"
is "$(bad "$tmp/text")" "0 0 []" "the text: no line over 100 columns, no control byte"
is "$(grep -c '($' "$tmp/text")" 0 "... and none that ends in an opening parenthesis (doc/report.md: a name wraps with it)"
is "$(bad "$tmp/err" | cut -d' ' -f2)" 0 "stderr: no control byte (a message is one line, however long)"
# the text with its wrapped lines joined: what each line continues
flat=$(tr '\n' ' ' <"$tmp/text" | tr -s ' ')
like "$(cat "$tmp/err")" "'[^']*/bad\\\\x1b\\[2Jname\\.json': not a JSON document" \
	"the file with an ESC in its name is named, escaped"
like "$(cat "$tmp/text")" 'evil\\x1b\]0;pwned\\x07\\x1b\[2J\\x0d\\x0ax\\xc2\\x85y\\xe2\\x80\\xaez' \
	"the hostname is shown escaped, \\xHH for each byte a terminal acts on"
like "$flat" "FAIL evil[^ ]*: cpu 0: measured \\\\x1b\\[2Jcleared\\\\xe2\\\\x80\\\\xae word word" \
	"the failing check's message, escaped"
like "$(cat "$tmp/text")" "kernel: 6.1.0 \\(lab-node-00-with-a-rather-long-name-in-the-cluster," \
	"the kernel that differs, the hosts on its side"
like "$flat" "6\\.1\\\\x1b\\[31m\\\\x0afake: line \\(evil" \
	"... and the other kernel, escaped (its newline \\x0a: one line stays one)"
like "$flat" "microcode: 0x1 \\(lab-node-00[^|]*lab-node-07[^ ]*, \\+12 more\\) \\| 0x2 \\(evil[^|]*lab-node-26[^ ]*, \\+3 more\\) kernel" \
	"microcode: 20 hosts and 11, 8 named of each, then the count"
like "$flat" "hosts: evil[^ ]* lab-node-00[^+]* lab-node-14-with-a-rather-long-name-in-the-cluster, \\+15 more settings" \
	"the group's 31 hosts: 16 named, then '+15 more'"

"$BARETMA" report --json "$tmp/fleet" >"$tmp/out" 2>/dev/null
is "$(q '[len(v["hosts"]) for s in d["groups"][0]["settings"] if s["setting"] == "microcode" for v in s["values"]]')" \
	"[20, 11]" "--json names every host of each value (20 and 11)"
is "$(pyq 'import json, sys; d = json.load(open(sys.argv[1])); print([h["hostname"] for h in d["groups"][0]["hosts"]].count(sys.argv[2]))' "$tmp/out" "$EVIL")" \
	1 "--json gives the hostname back as it was"
is "$(LC_ALL=C grep -c "$(printf '\033')" "$tmp/out")" 0 "... with no raw ESC in the document (\\u001b)"

"$BARETMA" report -x ';' "$tmp/fleet" >"$tmp/sv" 2>/dev/null
is "$(pyq 'import sys, re; t = open(sys.argv[1]).read(); print(len(re.findall("[\x00-\x09\x0b-\x1f\x7f\x80-\x9f\u202a-\u202e]", t)))' "$tmp/sv")" \
	0 "-x: no control byte in the records"
like "$(grep -c 'evil\\x1b' "$tmp/sv")" "^[1-9]" "-x: the hostname escaped in its records"
done_testing
