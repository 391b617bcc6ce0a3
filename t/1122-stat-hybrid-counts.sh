#!/bin/sh
# t/1122-stat-hybrid-counts.sh - stat names and counts a hybrid part's CPUs
# right in every form (issue 29, newcomer list: "On Alder Lake the P-core
# group is headed `# cpu all (16 CPUs): performance core` while 24 CPUs were
# counted").  On the shipped Alder Lake-S dump (examples/dumps: the
# i9-12900K) through the simulator, the CPUs of each kind are counted here
# from the dump itself, by hand: each "Logical CPU #N" and its CPUID leaf
# 0x1A EAX[31:24], the core type (SDM Vol. 2A CPUID leaf 1AH: 40H Intel
# Core, 20H Intel Atom).  Each group is headed by its CPUs' numbers, not
# "all" ("# cpus 0-15 (16 CPUs): performance cores (Golden Cove)"), with
# and without -I, -C across both kinds, --per-cpu, --level 2, text, JSON
# and CSV.  And the count itself: at level 2 the E-cores' recipe counts in
# two passes, so an interval is two reads of every CPU, and each read of a
# P-core was counted again: "(32 CPUs)" of 16, ncpus 32 in the JSON, "4 of
# 2" with -C 14-17 (bench/stat.c; before, those failed).
. "$T_SRC/tap.sh"
pyq_start

[ -x "${BARETMA:-}" ] || skip_all "no baretma built"
command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the JSON"
ex=$T_SRC/../examples
ADL=$ex/dumps/alder-lake-s-core-i9.test
prof=$ex/profiles/ecore.profile
[ -r "$ADL" ] && [ -r "$prof" ] || skip_all "no $ADL or $prof"
unset BARETMA_MSR_TRACE BARETMA_TEST_HOOKS BARETMA_PERF BARETMA_CPUID_DUMP
BARETMA_MSR=sim:$prof
export BARETMA_MSR

# the hand count: "N P" or "N E" per logical CPU of the dump
awk '/Logical CPU #/ { n = $0; sub(/.*#/, "", n); sub(/[^0-9].*/, "", n) }
     /^CPUID 0000001A:/ { t = substr($3, 1, 2); print n, (t == "40" ? "P" : t == "20" ? "E" : "?") }' \
	"$ADL" >"$tmp/kinds"
# list K [FROM TO]: the CPUs of kind K (between FROM and TO), "0-3,8" and how many
list() {
	awk -v k="$1" -v a="${2:-0}" -v b="${3:-99999}" '$2 == k && $1 >= a && $1 <= b { print $1 }' \
		"$tmp/kinds" | python3 -S -c '
import sys
c = [int(x) for x in sys.stdin.read().split()]
out, i = [], 0
while i < len(c):
    j = i
    while j + 1 < len(c) and c[j + 1] == c[j] + 1:
        j += 1
    out.append(str(c[i]) if i == j else "%d-%d" % (c[i], c[j]))
    i = j + 1
print(",".join(out), len(c))'
}
set -- $(list P); P=$1 NP=$2
set -- $(list E); E=$1 NE=$2
is "$P $NP $E $NE" "0-15 16 16-23 8" "the dump, by hand: P-cores' CPUs 0-15 (16), E-cores' 16-23 (8)"
set -- $(list P 14 17); P2=$1 NP2=$2
set -- $(list E 14 17); E2=$1 NE2=$2

run() { # NAME ARGS...: stat ARGS on the dump, out in $tmp/NAME
	_r=$1; shift
	st=0
	"$BARETMA" stat --cpuid-dump "$ADL" "$@" >"$tmp/$_r" 2>"$tmp/$_r.err" || st=$?
}
heads() { grep '^# cpu' "$tmp/$1" | sed 's/, recipe .*//' | tr '\n' ';'; }
# jq-less JSON: ncpus and cpus of each sample (every document of the file)
samples() {
	pyq '
import json, sys
t = open(sys.argv[1]).read()
docs = [json.loads(l) for l in t.splitlines() if l.strip()] if sys.argv[2] == "lines" else [json.loads(t)]
for d in docs:
    for s in d.get("samples", []):
        c = s.get("cpus")
        print(d["type"], s["cpu"], s["kind"], s["ncpus"],
              "%d-%d/%d" % (c[0], c[-1], len(c)) if c else "no-cpus")
    if d["type"] == "end":
        print("end", len(d["cpus"]))' "$tmp/$1" "$2" | sort -u | tr '\n' ';'
}

# --- without -I: the heading of each kind's table ------------------------
run all -a -- true
is "$st:$(heads all)" "0:# cpus $P ($NP CPUs): performance cores (Golden Cove);# cpus $E ($NE CPUs): efficiency cores (Gracemont);" \
	"-a: each kind headed by its CPUs and their count"
like "$(cat "$tmp/all")" "of CPUs 0-23 while true ran" "  ... under a title naming the 24 CPUs"
run allj -a --json -- true
is "$st:$(samples allj doc)" "0:end 24;end all efficiency $NE 16-23/8;end all performance $NP 0-15/16;" \
	"  ... --json: ncpus 16 and 8, each sample's cpus (new) its kind's, 24 in all"
# a command that runs past the passes' turn (50 ms): reads of both passes
run l2 -a --level 2 -- sleep 0.2
is "$st:$(heads l2)" "0:# cpus $P ($NP CPUs): performance cores (Golden Cove);# cpus $E ($NE CPUs): efficiency cores (Gracemont);" \
	"-a --level 2 (the E-cores in 2 passes): the P-cores' CPUs counted once, 16 (was 32)"
run l2j -a --level 2 --json -- sleep 0.2
is "$st:$(samples l2j doc)" "0:end 24;end all efficiency $NE 16-23/8;end all performance $NP 0-15/16;" \
	"  ... --json: ncpus 16 and 8, each sample's cpus its kind's, 24 in all"
run span -C 14-17 --level 2 -- sleep 0.2
is "$st:$(heads span)" "0:# cpus $P2 ($NP2 CPUs): performance cores (Golden Cove);# cpus $E2 ($NE2 CPUs): efficiency cores (Gracemont);" \
	"-C 14-17 --level 2 (both kinds): 2 P-core CPUs (was 4), 2 E-core"
run per -C 14-17 --per-cpu -- true
is "$st:$(heads per)" "0:# cpu 14: performance core (Golden Cove);# cpu 15: performance core (Golden Cove);# cpu 16: efficiency core (Gracemont);# cpu 17: efficiency core (Gracemont);" \
	"-C 14-17 --per-cpu: each CPU by its number and kind"

# --- with -I: the heading once, the rows' cpus column the kind's list -------
run iv -a -I 100 --count 2 --level 2
is "$st:$(heads iv)" "0:# cpus $P ($NP CPUs): performance cores (Golden Cove);# cpus $E ($NE CPUs): efficiency cores (Gracemont);" \
	"-a -I 100 --count 2 --level 2: the heading names each kind's CPUs and count"
grep -E '^ *[0-9]+\.[0-9]{9}  ' "$tmp/iv" >"$tmp/iv.rows"
is "$(awk '{ print $2, $3 }' "$tmp/iv.rows" | sort -u | tr '\n' ';')" "$P performance;$E efficiency;" \
	"  ... each row's cpus column its kind's CPUs, not a count"
is "$(grep -c 'of .* CPUs)' "$tmp/iv.rows")" 0 "  ... every CPU of each kind counted in each interval (no 'N of M')"
run ivj -a -I 100 --count 2 --level 2 --json
is "$st:$(samples ivj lines)" "0:end 24;interval all efficiency $NE 16-23/8;interval all performance $NP 0-15/16;" \
	"  ... --json: every interval's ncpus 16 and 8 (was 32 and 8)"
run ivs -C 14-17 -I 100 --count 1 --level 2 --json
is "$st:$(samples ivs lines)" "0:end 4;interval all efficiency $NE2 16-17/2;interval all performance $NP2 14-15/2;" \
	"-C 14-17 -I --level 2 --json: 2 and 2 (was 4 and 2)"
run ivp -C 14-17 --per-cpu -I 100 --count 1
grep -E '^ *[0-9]+\.[0-9]{9}  ' "$tmp/ivp" | awk '$4 == "SLOTS" { print $2, $3 }' >"$tmp/ivp.rows"
is "$st:$(tr '\n' ';' <"$tmp/ivp.rows")" "0:14 performance;15 performance;16 efficiency;17 efficiency;" \
	"-C 14-17 --per-cpu -I: a row set per CPU, by its number"
run odd -C 0,2,4,6,8,10,12,14,16,18 -I 100 --count 1
is "$st:$(heads odd)" "0:# cpus 0,2,4,6,8,10,12,14 (8 CPUs): performance cores (Golden Cove);# cpus 16,18 (2 CPUs): efficiency cores (Gracemont);" \
	"-C 0,2,...,18 -I: the heading lists each kind's CPUs whole"
grep -E '^ *[0-9]+\.[0-9]{9}  ' "$tmp/odd" | awk '{ print $2, $3 }' | sort -u >"$tmp/odd.rows"
is "$(tr '\n' ';' <"$tmp/odd.rows")" "0,2,4,... performance;16,18 efficiency;" \
	"  ... a row's cpus column cut visibly where the list is wider than the column"
run ivc -C 14-17 --per-cpu -I 100 --count 1 --csv
is "$st:$(awk -F, 'NR > 1 && $8 == "slots" { print $1, $2 }' "$tmp/ivc" | tr '\n' ';')" \
	"0:14 performance;15 performance;16 efficiency;17 efficiency;" \
	"  ... --csv: the cpu column each CPU, its kind beside it"
done_testing
