#!/bin/sh
# t/0874-bracket-bench.sh - what `make benchmark`'s bracket program says
# (bench/benchmarks/bracket.c), never its times: a line per read set - the
# TSC-only floor, the PERF_METRICS pair, each recipe's level-1 set (one per
# recipe variant: `baretma decode --recipes` lists them) - each either
# timed (median and p5-p95, whole ticks, never 0) or "not timed" with a
# numbered reason naming the RDPMC that faults or the vendor; the machine
# named as /proc/cpuinfo names it; and the instructions of each pair
# counted from the compiled code.  By the readings' definitions
# (bench/source/source.h, <baretma.h>: LFENCE; the RDPMCs; RDTSC; LFENCE),
# what lies after a pair's first RDTSC up to its second holds at least
# the first reading's closing LFENCE, the second's opening LFENCE, its N
# RDPMCs and its RDTSC: N + 3 instructions, and the whole pair twice the
# N RDPMCs, two RDTSCs and four LFENCEs.
. "$T_SRC/tap.sh"
pyq_start

command -v python3 >/dev/null 2>&1 || skip_all "python3 needed"
[ -x "$BARETMA_BRACKET" ] || skip_all "no $BARETMA_BRACKET (make check builds it)"
st=0
"$BARETMA_BRACKET" --reps 2000 >"$tmp/out" 2>"$tmp/err" || st=$?
is "$st" 0 "bracket --reps 2000: exit 0"
model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
grep -qF "machine: $(uname -s) $(uname -r) $(uname -m); $model" "$tmp/out"
ok $? "the machine named as uname and /proc/cpuinfo name it"
nrec=$("$BARETMA" decode --recipes 2>/dev/null | grep -c '^[a-z]')
pyq - "$tmp/out" "$nrec" >"$tmp/check" <<'EOP'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
rows = [l for l in lines if re.match(r"^(TSC only|PERF_METRICS pair|[a-z0-9-]+/[a-z0-9-]+) ", l)]
reasons = {m.group(1): m.group(2) for m in (re.match(r"^\[(\d+)\] not timed: (.*)$", l) for l in lines) if m}
out = []
out.append("rows %s" % (len(rows) == 2 + int(sys.argv[2]) or len(rows)))
bad = []
for r in rows:
    name = r[:36].strip(); rest = r[36:].split()
    n = int(rest[0])
    if rest[1] == "not":
        k = rest[3].strip("[]")
        if k not in reasons or not re.match(r"^(RDPMC 0x[0-9a-f]+ faults|an? (AMD|Intel) recipe)", reasons[k]):
            bad.append("%s: no reason" % name)
        cols = rest[4:]
    else:
        med = float(rest[1]); lo, hi = (float(x) for x in rest[2].split("-"))
        if not (med >= 1 and lo <= med <= hi):
            bad.append("%s: median %s spread %s" % (name, rest[1], rest[2]))
        cols = rest[3:]
    instr, between = int(cols[0]), int(cols[1])
    if between < n + 3 or instr < 2 * n + 6:
        bad.append("%s: %d instructions, %d between, for %d RDPMCs" % (name, instr, between, n))
out.append("bad %s" % bad)
out.append("tsc %s" % (rows[0][36:].split()[1] != "not"))
print("\n".join(out))
EOP
is "$(sed -n 1p "$tmp/check")" "rows True" "a row per read set: TSC, PERF_METRICS pair, each recipe variant ($nrec)"
is "$(sed -n 2p "$tmp/check")" "bad []" "each timed (median >= 1 tick within its p5-p95) or not timed with its reason; instructions >= the readings' own"
is "$(sed -n 3p "$tmp/check")" "tsc True" "the TSC-only floor is timed everywhere"
grep -q "^\[1\] not timed: RDPMC 0x[0-9a-f]* faults (#GP: SIGSEGV in a probe child): .*" "$tmp/out" ||
	grep -q "^PERF_METRICS pair (baretma_read) *2 *[0-9]" "$tmp/out"
ok $? "RDPMC timed, or why not said"
is "$(grep -c ' 0 *[0-9]*-' "$tmp/out" | tr -d ' ')" 0 "no median of 0"
st=0
"$BARETMA_BRACKET" --reps 0 >/dev/null 2>"$tmp/err" || st=$?
is "$st" 64 "--reps 0: usage, exit 64"
done_testing
