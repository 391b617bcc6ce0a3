#!/bin/sh
# t/0471-output-options - the output format is chosen once, from the
# options a command lists (bench/cli/cli_util.c cli_output_*): a command
# without CSV refuses --csv as an unknown option, naming itself; the same
# format given twice is one; bench's CSV starts with the header README
# "baretma bench" documents, and the reason Top-down is unavailable goes to
# stderr beside the table and the CSV, never beside the JSON document,
# which carries it.
. "$T_SRC/tap.sh"
pyq_start

for cmd in "compare" "validate" "calibrate" "info" "decode 0x1" "msr read 0 0x10" \
	"pmu status" "cpuid dump"; do
	name=${cmd%% 0*}
	# shellcheck disable=SC2086 # the command's words
	out=$("$BARETMA" $cmd --csv 2>&1 </dev/null); rc=$?
	is "$rc" 64 "$name --csv exits 64"
	is "$out" "baretma: $name: unknown option '--csv' (try: baretma $name --help)" \
		"$name has no CSV: --csv is an unknown option"
done
out=$("$BARETMA" cpuid dump --json 2>&1 </dev/null); rc=$?
is "$rc" 64 "cpuid dump --json exits 64 (its one format is the dump)"

"$BARETMA" decode 0x1f402080 --json --json >"$tmp/twice.json" 2>"$tmp/twice.err"; rc=$?
is "$rc" 0 "decode --json --json exits 0"
pyq 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/twice.json"
ok $? "--json given twice: one document"

bench() { "$BARETMA" bench --backend tsc --kernel empty --reps 3 --warmup 0 "$@"; }
bench --csv >"$tmp/b.csv" 2>"$tmp/csv.err"; rc=$?
is "$rc" 0 "bench --csv exits 0"
is "$(head -n 1 "$tmp/b.csv")" \
	"cpu,kind,recipe,backend,time,kernel,level,quantity,unit,value,bound_pp,n,median,min,max,q1,q3,mad,mean" \
	"bench --csv: the documented header (the long layout)"
like "$(sed -n 2p "$tmp/b.csv")" '^[0-9]+,[a-z]+,,tsc,,empty,,tsc_ticks,ticks,[0-9.e+-]+,,3,[0-9.e+-]+,[0-9.e+-]+,[0-9.e+-]+,[0-9.e+-]+,[0-9.e+-]+,[0-9.e+-]+,[0-9.e+-]+$' \
	"bench --csv: the TSC row (no recipe without Top-down, no time), 3 repetitions, no bound"
like "$(cat "$tmp/csv.err")" "top-down unavailable on cpu [0-9]+: " \
	"beside the CSV, stderr says why there is no Top-down"
bench --json >"$tmp/b.json" 2>"$tmp/json.err"; rc=$?
is "$rc" 0 "bench --json exits 0"
unlike "$(cat "$tmp/json.err")" "top-down unavailable" \
	"beside the JSON document, stderr does not (the document's topdown.reason does)"
pyq 'import json,sys; d = json.load(open(sys.argv[1])); print(d["schema"], "environment" in d, d["topdown"]["reason"] is not None)' "$tmp/b.json" >"$tmp/b.py"
is "$(cat "$tmp/b.py")" "baretma-bench/2 True True" "the document: its schema, the environment, the reason"
bench >"$tmp/b.txt" 2>"$tmp/text.err"; rc=$?
is "$rc" 0 "bench (text) exits 0"
like "$(cat "$tmp/text.err")" "^baretma: top-down unavailable on cpu [0-9]+ \\(why: the report's 'top-down:' line\\); timing with the TSC only$" \
	"beside the table, stderr says there is no Top-down and where the reason is"
like "$(cat "$tmp/b.txt")" "top-down: unavailable: ." "  the table's header says why, once"

done_testing
