#!/bin/sh
# t/1093-csv-is-x.sh - --csv and -x , write one layout, the long layout of
# doc/csv.md (bench/output/output.h struct output_long), for bench and for stat with and without -I, on the
# simulated PMU of the Ice Lake dump.  Before, `stat -x ,` wrote
# cpu,kind,recipe,backend,time,level,node,percent,bound_pp,slots and
# `stat --csv` time,kind,...,n,median,min,max,q1,q3,mad,mean with the one
# count repeated in each statistic; bench's --csv lacked the CPU, kind,
# recipe and backend its -x had.
#
# Two runs count different slots, so the runs are compared by their
# header and by each row's keys (every column but the numbers).  The
# numbers are checked against the profile (t/0904's: shares 40/10/20/30,
# `ghz 1`, `access_cycles 0`): Ice Lake's PERF_METRICS gives retiring the
# byte 102 of a level-1 sum of 256 (t/0455, t/0933), 39.84375 % of slots
# exactly, and a node's slots are its share of the sample's SLOTS.  A
# stat row is one count: n 1, the statistics empty; bench's rows of 5
# repetitions have n 5, the value their median.  doc/csv.md and
# the pages of stat and bench give the header as the tool writes it, the README points
# there.
. "$T_SRC/tap.sh"
pyq_start

command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read CSV"
ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
[ -r "$ICL" ] || skip_all "no Ice Lake dump ($ICL)"

printf 'ghz 1\naccess_cycles 0\nretiring 40\nbad_speculation 10\nfrontend_bound 20
backend_bound 30\n' >"$tmp/profile"
mkdir -p "$tmp/run"
BARETMA_MSR=sim:$tmp/profile BARETMA_STATE_DIR=$tmp/run BARETMA_CPUID_DUMP=$ICL
export BARETMA_MSR BARETMA_STATE_DIR BARETMA_CPUID_DUMP
unset BARETMA_MSR_TRACE BARETMA_PERF

header=cpu,kind,recipe,backend,time,kernel,level,quantity,unit,value,bound_pp,n,median,min,max,q1,q3,mad,mean

# keys FILE: the header, then each row without its numbers (value,
# bound_pp, the statistics) and its time
keys() {
	pyq - "$1" <<'EOP'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
print(",".join(rows[0]))
for r in rows[1:]:
    print(",".join(r[:4] + r[5:9] + [r[11]]))
EOP
}

# --- stat -I: --csv and -x , --------------------------------------------------
"$BARETMA" stat -C 0-1 -I 100 --count 2 --csv >"$tmp/i.csv" 2>"$tmp/i.err"; rc=$?
is "$rc" 0 "stat -I --csv: exit 0"
"$BARETMA" stat -C 0-1 -I 100 --count 2 -x , >"$tmp/i.sv" 2>/dev/null
is "$(head -n 1 "$tmp/i.csv")" "$header" "stat -I --csv: the long layout's header"
is "$(keys "$tmp/i.sv")" "$(keys "$tmp/i.csv")" "stat -I: -x , has the same header and rows as --csv"
like "$(cat "$tmp/i.err")" "2 intervals read; timer drift" "the end said on stderr (CSV has no end)"
is "$(pyq - "$tmp/i.csv" <<'EOP'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
stats = ("median", "min", "max", "q1", "q3", "mad", "mean")
single = all(r["n"] == "1" and not any(r[k] for k in stats) for r in rows)
ret = [r["value"] for r in rows if r["quantity"] == "tma_retiring" and r["unit"] == "percent"]
slots = {r["time"]: float(r["value"]) for r in rows if r["quantity"] == "slots"}
rel = [abs(float(r["value"]) - 0.3984375 * slots[r["time"]]) <= 1e-6 * slots[r["time"]]
       for r in rows if r["quantity"] == "tma_retiring" and r["unit"] == "slots"]
print(len(rows), single, ret, rel, sorted({r["level"] for r in rows}),
      sorted({(r["cpu"], r["kind"], r["recipe"], r["backend"]) for r in rows}))
EOP
)" "18 True ['39.84375', '39.84375'] [True, True] ['', '1'] [('all', 'general', 'intel-perf-metrics:sunny-cove', 'msr')]" \
	"stat -I --csv: 2 intervals x 9 rows, one count each (n 1, no statistics), retiring 102/256, its slots the share of SLOTS"

# --- stat, the whole run ------------------------------------------------------
"$BARETMA" stat -C 0 --csv -- true >"$tmp/w.csv" 2>/dev/null; rc=$?
is "$rc" 0 "stat --csv -- true: exit 0"
"$BARETMA" stat -C 0 -x , -- true >"$tmp/w.sv" 2>/dev/null
is "$(keys "$tmp/w.sv")" "$(keys "$tmp/w.csv")" "stat: -x , has the same header and rows as --csv"
is "$(pyq - "$tmp/w.csv" <<'EOP'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(len(rows), [(r["quantity"], r["unit"], r["n"], r["median"], r["mean"]) for r in rows][:2])
EOP
)" "9 [('slots', 'slots', '1', '', ''), ('tma_retiring', 'percent', '1', '', '')]" \
	"stat --csv: SLOTS, then each node's percent, n 1 and the statistics empty (not the count 7 times)"

# --- bench: --csv and -x , ----------------------------------------------------
"$BARETMA" bench --backend msr --cpu 0 --kernel retire-light --reps 5 --warmup 1 --csv >"$tmp/b.csv" 2>/dev/null
is "$?" 0 "bench --csv: exit 0"
"$BARETMA" bench --backend msr --cpu 0 --kernel retire-light --reps 5 --warmup 1 -x , >"$tmp/b.sv" 2>/dev/null
is "$(head -n 1 "$tmp/b.csv")" "$header" "bench --csv: the long layout's header"
is "$(keys "$tmp/b.sv")" "$(keys "$tmp/b.csv")" "bench: -x , has the same header and rows as --csv"
is "$(pyq - "$tmp/b.csv" <<'EOP'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
r = [x for x in rows if x["kernel"] == "retire-light"]
print(sorted({x["cpu"] + "/" + x["kind"] + "/" + x["recipe"] + "/" + x["backend"] for x in rows}),
      [(x["quantity"], x["n"], x["value"] == x["median"]) for x in r if x["quantity"] != "passes"][:3],
      [(x["value"], x["median"]) for x in r if x["quantity"] == "tma_retiring"],
      [(x["value"], x["n"], x["median"]) for x in r if x["quantity"] == "passes"])
EOP
)" "['0/general/intel-perf-metrics:sunny-cove/msr'] [('tsc_ticks', '5', True), ('slots', '5', True), ('tma_retiring', '5', True)] [('39.84375', '39.84375')] [('1', '1', '')]" \
	"bench --csv: the CPU, kind, recipe and backend first; 5 repetitions' median the value; the passes one count"

# --- the documents give the header as written ---------------------------------
for doc in doc/csv.md man/baretma-stat.1 man/baretma-bench.1; do
	# (a page's roff: font changes and the break points \: taken out)
	ok "$(sed -e 's/\\f[BIRP]//g' -e 's/\\://g' "$T_SRC/../$doc" | grep -qF "$header"; echo $?)" \
		"$doc gives the header: $header"
done
ok "$(grep -qF 'doc/csv.md' "$T_SRC/../README.md"; echo $?)" "README.md points to doc/csv.md"
done_testing
