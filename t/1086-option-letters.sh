#!/bin/sh
# t/1086-option-letters.sh - one meaning for each letter (issue 29, "One
# option table per command"): across every command's table (`baretma help
# --options CMD`), a letter names one option and an option has one letter
# (or none) wherever it is; the letters perf stat has mean what they mean
# there (perf-stat(1): -C/--cpu, -a/--all-cpus, -I/--interval-print,
# -x/--field-separator, -o/--output, -r/--repeat, -j/--json-output,
# -v/--verbose, -h/--help), and stat, perf stat's counterpart, has all of
# them but -r;
# --csv has no letter (bench's -C was once it).  `baretma bench -C 2`
# measures on CPU 2: every MSR access of a simulated run is CPU 2's
# ($BARETMA_MSR_TRACE).  And each option is declared once in the source:
# one getopt_long call and no struct option outside bench/cli/cli_opt.c,
# every long name in one row (a shared one in bench/cli/cli_opt.h).
. "$T_SRC/tap.sh"
pyq_start

[ -x "${BARETMA:-}" ] || skip_all "no baretma built"
cmds=$("$BARETMA" --help | awk '/^commands:/ { c = 1; next } c && /^$/ { exit }
	c && /^  [a-z]/ && $1 != "help" && $1 != "version" { print $1 }')
for c in $cmds; do
	"$BARETMA" help --options "$c" 2>/dev/null | sed "s/^/$c /"
done >"$tmp/all"
like "$(cut -d' ' -f1 "$tmp/all" | sort -u | tr '\n' ' ')" "bench .*stat" "every command's table is read"

# --- a letter, one option; an option, one letter -----------------------------
# "CMD -L --name" for every row with a letter
awk '$2 != "-" { print $1, $2, $3 }' "$tmp/all" >"$tmp/lettered"
[ "$(wc -l <"$tmp/lettered")" -ge 10 ]
ok $? "the tables give letters ($(wc -l <"$tmp/lettered" | tr -d ' ') rows with one)"
bad=$(awk '{ if (($2 in n) && n[$2] != $3) print "[" $2 ": " n[$2] " (" c[$2] "), " $3 " (" $1 ")]";
	n[$2] = $3; c[$2] = $1 }' "$tmp/lettered" | tr '\n' ' ')
is "$bad" "" "each letter names the same option in every command that has it"
bad=$(awk '{ l[$3] = l[$3] " " $2 } END { for (o in l) print o l[o] }' "$tmp/all" |
	awk '{ d = ""; for (i = 2; i <= NF; i++) if ($i != $2) d = " differs"; if (d) print "[" $0 "]" }' |
	tr '\n' ' ')
is "$bad" "" "each option has the same letter (or none) in every command that has it"

# --- perf's letters -------------------------------------------------------------
for p in "-C --cpu" "-a --all-cpus" "-I --interval" "-x --field-separator" "-o --output" \
	 "-r --reps" "-j --json" "-v --verbose" "-h --help"; do
	set -- $p
	got=$(awk -v l="$1" '$2 == l { print $3 }' "$tmp/all" | sort -u | tr '\n' ' ')
	is "$got" "$2 " "$1 is $2 wherever it is (perf stat's $1)"
done
for l in -C -a -I -x -o -j -v -h; do
	grep -q "^stat $l " "$tmp/all"
	ok $? "stat has $l, as perf stat"
done
is "$(awk '$3 == "--csv" { print $2 }' "$tmp/all" | sort -u)" "-" "--csv has no letter in any command"

# --- bench -C is the CPU ----------------------------------------------------------
out=$("$BARETMA" bench -C 2>&1); rc=$?
is "$rc:$out" "64:baretma: bench: option '-C' needs an argument (try: baretma bench --help)" \
	"bench -C takes an argument (the CPU), as --cpu"
out=$("$BARETMA" bench -c 2 2>&1); rc=$?
is "$rc:$out" "64:baretma: bench: unknown option '-c' (try: baretma bench --help)" \
	"bench -c is no option (-C is the CPU)"
out=$("$BARETMA" bench -C x 2>&1); rc=$?
like "$rc:$out" "^64:baretma: bad --cpu 'x'" "bench -C x: the CPU is refused as --cpu x is"
ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
if [ -r "$ICL" ] && command -v python3 >/dev/null 2>&1; then
	prof=$T_SRC/../examples/profiles/icelake.profile
	mkdir -p "$tmp/run"
	run() { # OUT ARGS...: bench on the simulated Ice Lake, its trace in OUT.trace
		_o=$1; shift
		BARETMA_STATE_DIR=$tmp/run BARETMA_MSR=sim:$prof BARETMA_MSR_TRACE=$_o.trace \
			"$BARETMA" bench --cpuid-dump "$ICL" --kernel empty,dep-chain -r 3 --warmup 0 \
			"$@" >"$_o" 2>"$_o.err"
	}
	run "$tmp/c2" -C 2 --json; rc=$?
	is "$rc" 0 "bench -C 2 on the simulated Ice Lake exits 0"
	is "$(pyq 'import json,sys; print(json.load(open(sys.argv[1]))["cpu"]["os_cpu"])' \
		"$tmp/c2" 2>&1)" 2 "... measured on os_cpu 2"
	is "$(awk '{ print $2 }' "$tmp/c2.trace" | sort -u | tr '\n' ' ')" "2 " \
		"... every MSR access on CPU 2 (the trace)"
	grep -q '^wr 2 ' "$tmp/c2.trace"
	ok $? "... where it programmed the counters"
	run "$tmp/c3" -C 3 --csv; rc=$?
	is "$rc" 0 "bench -C 3 --csv exits 0"
	is "$(awk '{ print $2 }' "$tmp/c3.trace" | sort -u | tr '\n' ' ')" "3 " "... on CPU 3"
	like "$(head -1 "$tmp/c3")" "," "... the CSV asked for by --csv"
else
	for i in 1 2 3 4 5 6 7; do skip "no ../shared/cpuid (the Ice Lake dump) or no python3"; done
fi

# --- one declaration per option in the source ---------------------------------
cli=$T_SRC/../bench/cli
if [ -d "$cli" ]; then
	# (code lines: "struct option" in a comment is no declaration)
	is "$(grep -lE '^[^*/]*struct option\b' "$cli"/*.[ch] | sed 's|.*/||' | tr '\n' ' ')" "cli_opt.c " \
		"struct option only in bench/cli/cli_opt.c (made from the tables)"
	is "$(grep -l 'getopt_long *(' "$cli"/*.c | sed 's|.*/||' | tr '\n' ' ')" "cli_opt.c " \
		"getopt_long called only in bench/cli/cli_opt.c"
	# a declaration: a row's '.name = "NAME"', or a struct option's
	# '{ "NAME", no_argument' written out
	decls() {
		grep -hoE '\.name = "[a-z][a-z0-9-]*"|\{ *"[a-z][a-z0-9-]*", *(no|required|optional)_argument' \
			"$cli"/*.[ch] | sed 's/^[^"]*"\([^"]*\)".*/\1/'
	}
	is "$(decls | sort | uniq -d | tr '\n' ' ')" "" "every long name is declared once in the source"
	# the declarations read are the tables' options (the check sees them all)
	want=$(awk '{ print $3 }' "$tmp/all" | sed 's/^--//' | sort -u | tr '\n' ' ')
	like "$want" "cpuid-dump .*json" "the tables' options are read"
	is "$(decls | sort -u | tr '\n' ' ')" "$want" "... and are the options declared"
	shared=$(awk '{ print $3 }' "$tmp/all" | sort | uniq -c | awk '$1 > 1 { print $2 }' |
		grep -vx -- --help | sed 's/^--//')
	bad=
	for o in $shared; do
		grep -q "\\.name = \"$o\"" "$cli/cli_opt.h" || bad="$bad $o"
	done
	is "$bad" "" "an option of several commands is declared in bench/cli/cli_opt.h"
else
	for i in 1 2 3 4 5 6; do skip "no bench/cli beside t/"; done
fi
done_testing
