#!/bin/sh
# t/0933-output-options.sh - the generic output options of bench, compare,
# validate and calibrate (bench/cli/cli_output.c):
#   -x SEP   separated values as `perf stat -x SEP`: a header naming the
#            columns, the CPU, core kind, recipe and backend among them;
#            Python's csv module reads every record back with SEP as the
#            delimiter, each with as many fields as the header;
#   -o FILE  the output in FILE instead of stdout, the same bytes, never
#            through a symbolic link (refused before the run, exit 73, the
#            link's target unchanged);
#   --openmetrics FILE  rewritten whole each time: a reader that reads it
#            while it is rewritten never sees a part (rename(2)).
# And the mistakes, one line each (exit 64): a bad separator, -x with
# --json, -o and --openmetrics naming one file, --openmetrics on a command
# without metrics (compare).
. "$T_SRC/tap.sh"
pyq_start
. "$T_SRC/sim-fixture.sh"

printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
# validate's numbers the same on every run: no time-based cycles, only
# the accesses advance the simulated clock
printf 'ghz 0\naccess_cycles 1000\n' | cat - "$tmp/p" >"$tmp/still"

# csvcheck FILE SEP: "COLUMNS|RECORDS|BAD" - the header's columns joined by
# ',', the number of records, the records whose field count differs
csvcheck() {
	pyq - "$1" "$2" <<'EOP'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline=""), delimiter=sys.argv[2]))
head, recs = rows[0], rows[1:]
print("%s|%d|%d" % (",".join(head), len(recs), len([r for r in recs if len(r) != len(head)])))
EOP
}
# col FILE SEP EXPR: EXPR over the records as dicts r (csv.DictReader)
col() {
	pyq - "$1" "$2" "$3" <<'EOP'
import csv, sys
r = list(csv.DictReader(open(sys.argv[1], newline=""), delimiter=sys.argv[2]))
print(eval(sys.argv[3]))
EOP
}

simv() { BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/still "$BARETMA" validate --cpuid-dump "$ICL" --no-perf "$@"; }

# --- -x on validate: fields with the separator are quoted --------------------
simv -x , >"$tmp/v.csv" 2>"$tmp/v.err"
is "$?" 0 "validate -x ,: exit 0"
is "$(csvcheck "$tmp/v.csv" ,)" \
	"cpu,kind,recipe,backend,check,status,measured,expected,source,reason|$(grep -c '^\(PASS\|FAIL\|SKIP\) ' "$(simv >"$tmp/v.txt" 2>/dev/null; echo "$tmp/v.txt")")|0" \
	"validate -x ,: the columns named, one record per check of the text, every record whole"
is "$(col "$tmp/v.csv" , "sorted(set((x['cpu'], x['kind'], x['backend']) for x in r))")" \
	"[('0', 'general', 'sim')]" "validate -x: the CPU, its kind and the backend in columns"
is "$(col "$tmp/v.csv" , "[x['status'] for x in r if x['check'] == 'fc3_counts']")" "['PASS']" \
	"validate -x: a check's status"
like "$(col "$tmp/v.csv" , "[x['source'] for x in r if x['check'] == 'counter_widths'][0]")" \
	"^CPUID.0AH:EAX\[23:16\] and EDX\[12:5\]" "a source with commas read back whole"

# --- -o: the same bytes as stdout ---------------------------------------------
simv -x ';' >"$tmp/v1.sv" 2>/dev/null
simv -x ';' -o "$tmp/v2.sv" >"$tmp/v2.out" 2>/dev/null
is "$?" 0 "validate -x ';' -o FILE: exit 0"
cmp -s "$tmp/v1.sv" "$tmp/v2.sv"
ok $? "-o FILE holds the bytes stdout gets without it"
is "$(wc -c <"$tmp/v2.out")" 0 "and nothing on stdout"
simv -o "$tmp/v2.txt" >/dev/null 2>&1
cmp -s "$tmp/v.txt" "$tmp/v2.txt"
ok $? "-o with the text format: the same bytes too"
is "$(ls -A "$tmp" | grep -c '\.tmp$')" 0 "no temporary file left"

# --- -o refuses a symbolic link, before the run ------------------------------------
printf 'precious\n' >"$tmp/target"
ln -s "$tmp/target" "$tmp/link"
out=$(simv -o "$tmp/link" 2>&1); rc=$?
is "$rc" 73 "validate -o LINK: exit 73"
is "$out" "baretma: validate: cannot write '$tmp/link': a symbolic link: refused, nothing written through it (give the path of a regular file or a new one)" \
	"one line naming the file, nothing measured"
is "$(cat "$tmp/target")" "precious" "the link's target unchanged"
out=$(BARETMA_STATE_DIR=$tmp/run "$BARETMA" bench --backend tsc --kernel empty --reps 3 \
	--warmup 0 --openmetrics "$tmp/link" 2>&1); rc=$?
is "$rc:$out" "73:baretma: bench: cannot write '$tmp/link': a symbolic link: refused, nothing written through it (give the path of a regular file or a new one)" \
	"bench --openmetrics LINK: refused the same way"
is "$(cat "$tmp/target")" "precious" "the target still unchanged"
mkdir "$tmp/dir"
out=$(simv -o "$tmp/dir" 2>&1); rc=$?
is "$rc:$out" "73:baretma: validate: cannot write '$tmp/dir': a directory: refused, left as it is (give the path of a regular file or a new one)" \
	"-o DIRECTORY: 73, left as it is"

# --- bench -x: the rows, after the CPU, kind, recipe and backend ------------------
BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/p "$BARETMA" bench --backend msr \
	--kernel retire-light --reps 5 --warmup 1 -x '|' >"$tmp/b.sv" 2>/dev/null
is "$?" 0 "bench -x '|': exit 0"
is "$(csvcheck "$tmp/b.sv" '|')" \
	"cpu,kind,recipe,backend,time,kernel,level,quantity,unit,value,bound_pp,n,median,min,max,q1,q3,mad,mean|14|0" \
	"bench -x: the columns; 2 kernels x (ticks, slots, 4 nodes, passes) records"
# Ice Lake's recipe counts events beside PERF_METRICS (msr/recipe/recipes_intel_pm.c):
# its variant is named, and its passes (1) a row, as an event recipe's
is "$(col "$tmp/b.sv" '|' "sorted(set((x['kind'], x['recipe'], x['backend']) for x in r))")" \
	"[('general', 'intel-perf-metrics:sunny-cove', 'msr')]" "bench -x: kind, recipe, backend"
# Ice Lake, PERF_METRICS: retiring byte 102 of a level-1 sum of 256 (t/0455)
is "$(col "$tmp/b.sv" '|' "[(x['value'], x['median']) for x in r if x['kernel'] == 'retire-light' and x['quantity'] == 'tma_retiring']")" \
	"[('39.84375', '39.84375')]" "bench -x: retiring 102/256 = 39.84375 % of slots, the value the median"

# --- compare -x -----------------------------------------------------------------
BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/p BARETMA_PERF=sim:$tmp/p "$BARETMA" compare \
	--pairs 10 --reps 9 --kernel retire-light -x , >"$tmp/c.csv" 2>/dev/null
is "$?" 0 "compare -x ,: exit 0"
is "$(csvcheck "$tmp/c.csv" ,)" \
	"cpu,kind,recipe,backend,perf_backend,kernel,metric,n,raw_pct,perf_pct,diff_pp,ci_lo_pp,ci_hi_pp,allow_pp,p,p_holm,verdict|8|0" \
	"compare -x: the columns; 2 kernels x 4 metrics"
is "$(col "$tmp/c.csv" , "sorted(set((x['kernel'], x['backend'], x['perf_backend'], x['verdict']) for x in r))")" \
	"[('empty', 'msr', 'perf', 'not compared'), ('retire-light', 'msr', 'perf', 'agree')]" \
	"compare -x: both backends, every metric of retire-light agrees, empty's bracket not compared"

# --- calibrate -x (its -o is the calibration file) ---------------------------------------
BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/p "$BARETMA" calibrate --cpuid-dump "$ICL" \
	--backend msr --reps 20 -o "$tmp/cal.json" -x , >"$tmp/cal.csv" 2>/dev/null
is "$?" 0 "calibrate -x ,: exit 0"
like "$(csvcheck "$tmp/cal.csv" ,)" "^cpu,kind,recipe,backend,cycles,.*,resolution_cycles\|4\|0$" \
	"calibrate -x: the columns; one record per loop length"
is "$(col "$tmp/cal.csv" , "[x['cycles'] for x in r]")" "['1000', '10000', '100000', '1000000']" \
	"calibrate -x: the four lengths"

# --- --openmetrics rewritten while a reader reads it --------------------------------
# The reader reads the file until the writer is done (a flag file), then
# once more; each read must be absent (before the first write) or whole:
# five lines (TYPE, UNIT, HELP, the one sample, OpenMetrics' "# EOF"),
# ending in a line feed.
pyq - "$tmp/live.prom" "$tmp/done" >"$tmp/reader.out" <<'EOP' &
import os, sys
path, flag = sys.argv[1], sys.argv[2]
reads = bad = 0
while True:
    last = os.path.exists(flag)
    try:
        text = open(path).read()
    except FileNotFoundError:
        text = None
    if text is not None:
        reads += 1
        lines = text.split("\n")
        if not (text.endswith("\n") and len(lines) == 6 and lines[3].startswith("baretma_tsc_ticks{")
                and lines[4] == "# EOF"):
            bad += 1
    if last:
        break
print(reads > 0, bad)
EOP
reader=$!
i=0
while [ $i -lt 20 ]; do
	"$BARETMA" bench --backend tsc --kernel empty --reps 3 --warmup 0 \
		--openmetrics "$tmp/live.prom" >/dev/null 2>&1 || break
	i=$((i + 1))
done
: >"$tmp/done"
wait $reader
is "$i" 20 "20 runs rewrote the file"
is "$(cat "$tmp/reader.out")" "True 0" "the reader saw it, and never a part of it"

# --- mistakes ---------------------------------------------------------------------
out=$(simv -x '' 2>&1); rc=$?
is "$rc:$out" "64:baretma: validate: bad -x '': a separator of 1 to 8 bytes, without a double quote or a line break (try: baretma validate --help)" \
	"-x '': 64, one line"
out=$(simv -x '"' 2>&1); rc=$?
is "$rc" 64 "-x '\"': 64"
out=$(simv --json -x , 2>&1); rc=$?
is "$rc:$out" "64:baretma: validate: --json and --field-separator exclude each other: give one (try: baretma validate --help)" \
	"--json with -x: 64"
out=$(simv -o "$tmp/same" --openmetrics "$tmp/same" 2>&1); rc=$?
is "$rc:$out" "64:baretma: validate: -o and --openmetrics name the same file '$tmp/same': give two (try: baretma validate --help)" \
	"-o and --openmetrics on one file: 64"
out=$("$BARETMA" compare --openmetrics "$tmp/x" 2>&1); rc=$?
is "$rc:$out" "64:baretma: compare: unknown option '--openmetrics' (try: baretma compare --help)" \
	"compare has no metrics: --openmetrics unknown there"
out=$("$BARETMA" calibrate -x ';' -o "$tmp/x" --json 2>&1); rc=$?
is "$rc" 64 "calibrate --json with -x: 64"

done_testing
