#!/bin/sh
# t/1175-report-bad-input.sh - `baretma report` reads its files as the
# untrusted input they are (doc/report.md "What it reads"; man
# baretma-report, "Bad input"): next to one good calibration file, a
# directory of every kind of bad one - an unknown schema, a newer and an
# older version, truncated, not JSON, two documents in one file, a key
# twice, a required field missing, one of another type, no host, over 32
# MiB, a symbolic link loop, a link to the directory itself, a FIFO, two
# files claiming one host, the .NAME.part files a killed task of
# examples/slurm/host.sh leaves (an empty one of bench, validate's text) -
# each named on stderr with its cause and
# skipped (exit 1: the view is incomplete), or with --strict refused (exit
# 65, nothing on stdout); a file that is not JSON and not named *.json is
# left out quietly (named with -v); a PATH that does not exist or holds no
# host's document is 66 (the statuses of man baretma-report); nothing is
# written anywhere, the files read are left as they were.
. "$T_SRC/tap.sh"
. "$T_SRC/sim-fixture.sh"
. "$T_SRC/report-fixture.sh"

report_calibration "$tmp/cal.json"
D=$tmp/d
mkdir "$D"
pyq 'import json, os, sys
tmp, D = sys.argv[1], sys.argv[2]
c = json.load(open(os.path.join(tmp, "cal.json")))
def put(name, doc, host="g1"):
    d = json.loads(json.dumps(doc))
    if host:
        d["host"] = {"hostname": host, "machine_id": None}
    json.dump(d, open(os.path.join(D, name), "w"))
    return json.dumps(d)
put("good.json", c)
put("unknown.json", dict(c, schema="baretma-frob/1"), "u")
put("newer.json", dict(c, schema="baretma-calibration/4"), "n")
put("older.json", dict(c, schema="baretma-calibration/2"), "o")
put("missing.json", {k: v for k, v in c.items() if k != "backends"}, "m")
put("wrongtype.json", dict(c, cpu=dict(c["cpu"], family="six")), "w")
# figures no measurement gives: a count below 0, and one past 2^64 (the
# counters are at most 64 bits wide), which over a group would overflow
# its median and MAD (found by fuzz/fuzz-report)
def tsc_median(v):
    d = json.loads(json.dumps(c))
    d["backends"][0]["bracket"]["tsc_ticks"]["median"] = v
    return d
put("negative.json", tsc_median(-5), "neg")
put("overflow.json", tsc_median(1e300), "ovf")
nohost = {k: v for k, v in c.items() if k != "host"}
json.dump(nohost, open(os.path.join(D, "nohost.json"), "w"))
put("dup-a.json", c, "g2")
put("dup-b.json", c, "g2")
t = put("trunc.json", c, "t")
open(os.path.join(D, "trunc.json"), "w").write(t[: len(t) // 2])
open(os.path.join(D, "jsonl.json"), "w").write(t + "\n" + t + "\n")
open(os.path.join(D, "dupkey.json"), "w").write("{\"schema\": \"baretma-calibration/3\", " + t[1:])
open(os.path.join(D, "notjson.json"), "w").write("hello, world\n")
open(os.path.join(D, "README"), "w").write("a job log, no JSON\n")
# host.sh writes each output to .NAME.part and renames it when the command ends
open(os.path.join(D, ".bench.part"), "w").write("")
open(os.path.join(D, ".validate.part"), "w").write("PASS cpu 0   cpu_model   model 0x8F\n")
' "$tmp" "$D"
truncate -s 40M "$D/huge.json"
ln -s loop2 "$D/loop1"
ln -s loop1 "$D/loop2"
ln -s . "$D/self"
mkfifo "$D/fifo"
ln -s "$D/good.json" "$tmp/link.json"
find "$D" -printf '%p %y %s %T@\n' | sort >"$tmp/before"
mkdir "$tmp/cwd" "$tmp/state"
cd "$tmp/cwd" || exit 1
BARETMA_STATE_DIR=$tmp/state
export BARETMA_STATE_DIR

# what each bad file is named with (the cause, as doc/report.md words it)
cat >"$tmp/want" <<'EOF'
.bench.part	a partial file: its writer did not finish (killed?)
.validate.part	a partial file: its writer did not finish (killed?)
dup-a.json	2 calibration files claim host 'g2': not merged
dup-b.json	2 calibration files claim host 'g2': not merged
dupkey.json	not valid JSON: duplicate object key
fifo	not a regular file (a FIFO, socket or device): not read
huge.json	41943040 bytes: over the 32 MiB a report reads
jsonl.json	more than one JSON document
loop1	a symbolic link inside a directory: not followed
loop2	a symbolic link inside a directory: not followed
missing.json	missing 'backends'
negative.json	the figure bracket_tsc_ticks of 'tsc' is -5 TSC ticks: outside 0 .. 2^64, the counters' width
overflow.json	the figure bracket_tsc_ticks of 'tsc' is 1e+300 TSC ticks: outside 0 .. 2^64, the counters' width
newer.json	schema baretma-calibration/4 is newer than the baretma-calibration/3 this baretma reads
nohost.json	names no host: written by baretma before 'host' was recorded
notjson.json	not a JSON document
older.json	schema baretma-calibration/2 is older than the baretma-calibration/3 this baretma reads
self	a symbolic link inside a directory: not followed
trunc.json	truncated JSON: it ends at byte
unknown.json	unknown schema 'baretma-frob/1'
wrongtype.json	'cpu.family' is a string, not a whole number
EOF
nwant=$(wc -l <"$tmp/want" | tr -d ' ')

# named FILE PREFIX: the lines of the want list that FILE lacks, as
# "PREFIX'DIR/NAME': CAUSE" at a line's start
named() {
	while IFS='	' read -r f cause; do
		grep -qF -- "$2'$D/$f': $cause" "$1" || printf '%s ' "$f"
	done <"$tmp/want"
}

"$BARETMA" report "$D" >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc" 1 "report of a directory of bad files beside a good one: exit 1 (the view is incomplete)"
is "$(named "$tmp/err" "baretma: warning: ")" "" "each bad file is named with its cause, as a warning"
is "$(grep -c ': skipped' "$tmp/err")" "$nwant" "... $nwant of them, each skipped"
like "$(grep "'$D/newer.json'" "$tmp/err")" "skipped \\(read it with a baretma as new as the one that wrote it\\)$" \
	"... with the remedy (a newer schema: a newer baretma)"
unlike "$(cat "$tmp/err")" "README" "a file neither JSON nor *.json is left out quietly"
like "$(head -1 "$tmp/out")" "^baretma report: 1 host in 1 CPU group, 23 files read, 1 used \\($nwant skipped: named on stderr\\)$" \
	"the good file is read: 1 host; 23 files met (19 regular, 3 links, a FIFO), 1 used, $nwant skipped"
like "$(tail -1 "$tmp/out")" "$nwant files skipped: exit status 1$" "... the last line says why the status is 1"
"$BARETMA" report "$D/good.json" "$D/.validate.part" >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc:$(cat "$tmp/err")" \
	"1:baretma: warning: '$D/.validate.part': a partial file: its writer did not finish (killed?): skipped (run that host's task again: the file is renamed once it is whole)" \
	"a .part file given as a PATH: named, skipped, exit 1"
like "$(tail -1 "$tmp/out")" " 1 file skipped: exit status 1$" "... counted among the files skipped"

"$BARETMA" report -v "$D" >/dev/null 2>"$tmp/err"
like "$(cat "$tmp/err")" "^baretma: note: '$D/README': not a JSON document: left out$" "-v names the file left out"

"$BARETMA" report --strict "$D" >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc" 65 "--strict: exit 65"
is "$(wc -c <"$tmp/out" | tr -d ' ')" 0 "... nothing on stdout"
is "$(named "$tmp/err" "baretma: ")" "" "... each bad file named with its cause, as an error"
is "$(grep -c '^baretma: warning' "$tmp/err")" 0 "... no warning: each is an error"
"$BARETMA" report --strict --json "$D/good.json" >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc:$(cat "$tmp/err")" "0:" "--strict with a good file alone: exit 0, nothing on stderr"

"$BARETMA" report "$tmp/link.json" >/dev/null 2>"$tmp/err"; rc=$?
is "$rc:$(cat "$tmp/err")" "0:" "a symbolic link given as a PATH is followed (find -H): exit 0"
"$BARETMA" report "$D/notjson.json" >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc" 66 "a PATH that is not JSON, alone: no host's document, 66"
like "$(cat "$tmp/err")" "'$D/notjson.json': not a JSON document: skipped" "... the file named"
"$BARETMA" report "$tmp/nowhere" "$D/good.json" >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc" 66 "a PATH that does not exist: 66"
is "$(cat "$tmp/err")" "baretma: cannot read '$tmp/nowhere': No such file or directory (give a file or a directory the hosts wrote into)" \
	"... named, with the remedy"
is "$(wc -c <"$tmp/out" | tr -d ' ')" 0 "... nothing on stdout"
mkdir "$tmp/empty"
"$BARETMA" report "$tmp/empty" >/dev/null 2>"$tmp/err"; rc=$?
is "$rc" 66 "an empty directory: 66"
like "$(cat "$tmp/err")" "no host's document in '$tmp/empty'" "... said so"
"$BARETMA" report >/dev/null 2>&1; rc=$?
is "$rc" 64 "no PATH: usage, 64"

find "$D" -printf '%p %y %s %T@\n' | sort >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after"
ok $? "the files read are as they were (names, kinds, sizes, times)"
is "$(ls -A "$tmp/cwd" "$tmp/state" | tr -d '\n')" "$tmp/cwd:$tmp/state:" \
	"nothing written in the working directory or the state directory"
done_testing
