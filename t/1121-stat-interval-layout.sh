#!/bin/sh
# t/1121-stat-interval-layout.sh - `stat -I` in text fits a terminal of 100
# columns at level 2 too (issue 29, newcomer list: "Level 2 with -I prints
# lines of about 450 characters"), laid out as perf stat -I lays out its
# counters: one row per node of each group and interval, the time first
# (bench/output/output_stat.c).  Before, a group's interval was one line of
# every node, 509 columns on the simulated Sapphire Rapids.
# `stat -a -I 100 --count 2 --level 2` on the simulated Sapphire Rapids and
# Alder Lake (the shipped dumps and profiles, examples/), with
# --openmetrics FILE in the same run, which holds the last interval:
#   - every line at most 100 columns;
#   - two intervals, and in each every node of each group: the rows of the
#     last one are the OpenMetrics series of that run, one for one (kind,
#     node, level: a level-2 node indented under its parent), each share
#     the series' ratio in percent to the 2 decimals printed, the bound
#     the bound series', SLOTS the slots series', a node's slots its share
#     of them;
#   - each share within 2 points of the profile's, computed here from the
#     profile file (a sibling the parent less the child given), whatever
#     the simulator's noise (1.5 points a read at most) and the bound;
#   - with --per-cpu as well (Alder Lake: a row set per CPU, 24 CPUs).
. "$T_SRC/tap.sh"
pyq_start

[ -x "${BARETMA:-}" ] || skip_all "no baretma built"
command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the rows"
ex=$T_SRC/../examples
SPR=$ex/dumps/sapphire-rapids-ws-xeon-w7.test
ADL=$ex/dumps/alder-lake-s-core-i9.test
for f in "$SPR" "$ADL" "$ex/profiles/sapphirerapids.profile" "$ex/profiles/ecore.profile"; do
	[ -r "$f" ] || skip_all "no $f"
done
unset BARETMA_MSR_TRACE BARETMA_TEST_HOOKS BARETMA_PERF BARETMA_CPUID_DUMP

# widest FILE: the longest line's length and the line
widest() { awk '{ if (length($0) > n) { n = length($0); l = $0 } } END { print n + 0 ": " substr(l, 1, 60) }' "$1"; }

# check NAME DUMP PROFILE: the run and its checks
check() {
	BARETMA_MSR=sim:$3 "$BARETMA" stat --cpuid-dump "$2" -a -I 100 --count 2 --level 2 \
		--openmetrics "$tmp/$1.prom" >"$tmp/$1" 2>"$tmp/$1.err"
	is "$?" 0 "$1: stat -a -I 100 --count 2 --level 2 --openmetrics FILE exits 0"
	like "$(widest "$tmp/$1")" "^([0-9]|[1-9][0-9]|100):" "$1: every line at most 100 columns"
	pyq - "$tmp/$1" "$tmp/$1.prom" "$3" >"$tmp/$1.py" 2>&1 <<'EOF'
import re, sys
text, prom, prof = sys.argv[1:4]
# a row's columns: the time (16), the CPUs (9), the kind (11), the node (24,
# a level-2 one indented), then the share, the bound and the slots
row = re.compile(r'^ *\d+\.\d{9}  ')
rows = {}
for line in open(text):
    if row.match(line):
        t, kind, node = line[:16].strip(), line[28:39].strip(), line[41:65].rstrip()
        ind = len(node) - len(node.lstrip())
        rows.setdefault(t, {})[(kind, node.strip())] = (ind, [float(x) for x in line[65:].split()])
times = sorted(rows, key=float)
print("intervals", len(times))
# the last interval against the same run's OpenMetrics
ratio, level, slots, bound = {}, {}, {}, {}
lab = re.compile(r'(\w+)="([^"]*)"')
for line in open(prom):
    if line.startswith('#') or not line.strip():
        continue
    name, rest = line.split('{', 1)
    labels = dict(lab.findall(rest))
    v = float(line.rsplit(' ', 1)[1])
    k = labels["kind"]
    if name == "baretma_tma_ratio":
        ratio[(k, labels["node"])] = v
        level[(k, labels["node"])] = int(labels["level"])
    elif name == "baretma_slots":
        slots[k] = v
    elif name == "baretma_tma_bound_ratio":
        bound[k] = v
last = rows[times[-1]]
want = set(ratio) | set((k, "SLOTS") for k in slots)
print("same rows", set(last) == want, sorted(want ^ set(last)))
print("same rows in the first", set(rows[times[0]]) == set(last))
bad = []
for (k, n), (ind, nums) in sorted(last.items()):
    if n == "SLOTS":
        if nums != [slots[k]]:
            bad.append((k, n, nums, slots[k]))
        continue
    pct, bpp, sl = nums
    if (abs(pct - 100 * ratio[(k, n)]) > 0.005 + 1e-9 or abs(bpp - 100 * bound[k]) > 0.005 + 1e-9
            or abs(sl - ratio[(k, n)] * slots[k]) > 1 or ind != 2 * (level[(k, n)] - 1)):
        bad.append((k, n, ind, nums, ratio[(k, n)], level[(k, n)]))
print("values", bad)
# the profile's shares, by hand
p = {}
for line in open(prof):
    w = line.split('#')[0].split()
    if len(w) == 2:
        p[w[0]] = float(w[1])
g = lambda k: p.get(k, 0.0)
hand = {"tma_retiring": g("retiring"), "tma_heavy_operations": g("heavy_operations"),
        "tma_light_operations": g("retiring") - g("heavy_operations"),
        "tma_bad_speculation": g("bad_speculation"), "tma_branch_mispredicts": g("branch_mispredicts"),
        "tma_machine_clears": g("bad_speculation") - g("branch_mispredicts"),
        "tma_frontend_bound": g("frontend_bound"), "tma_fetch_latency": g("fetch_latency"),
        "tma_fetch_bandwidth": g("frontend_bound") - g("fetch_latency"),
        "tma_backend_bound": g("backend_bound"), "tma_memory_bound": g("memory_bound"),
        "tma_core_bound": g("backend_bound") - g("memory_bound"),
        "tma_resource_bound": g("memory_bound")}
off = [(t, k, n, nums[0]) for t in times for (k, n), (ind, nums) in rows[t].items()
       if n != "SLOTS" and abs(nums[0] - hand[n]) > 2]
print("profile", off, sum(1 for t in times for kn in rows[t] if kn[1] != "SLOTS"))
EOF
	is "$(sed -n 1p "$tmp/$1.py")" "intervals 2" "$1: two intervals"
	is "$(sed -n 2p "$tmp/$1.py")" "same rows True []" \
		"$1: the last interval's rows are the run's OpenMetrics series, one for one"
	is "$(sed -n 3p "$tmp/$1.py")" "same rows in the first True" "$1: the first interval has them all too"
	is "$(sed -n 4p "$tmp/$1.py")" "values []" \
		"$1: each share, bound, SLOTS and node's slots the series', level 2 indented under level 1"
	like "$(sed -n 5p "$tmp/$1.py")" "^profile \[\] $4$" \
		"$1: all $4 shares within 2 points of the profile's, computed by hand"
	[ "$(wc -l <"$tmp/$1.py")" -eq 5 ] || sed 's/^/# /' "$tmp/$1.py"
}

# Sapphire Rapids: 40 CPUs of one kind, level 2's 12 nodes a read
check spr "$SPR" "$ex/profiles/sapphirerapids.profile" 24
# Alder Lake: P-cores' 12 nodes, E-cores' 10 (Gracemont: no level 2 under
# retiring, tma_resource_bound beside tma_core_bound), per interval
check adl "$ADL" "$ex/profiles/ecore.profile" 44

BARETMA_MSR=sim:$ex/profiles/ecore.profile "$BARETMA" stat --cpuid-dump "$ADL" -a --per-cpu \
	-I 100 --count 1 --level 2 >"$tmp/per" 2>"$tmp/per.err"
is "$?" 0 "adl --per-cpu: exits 0"
like "$(widest "$tmp/per")" "^([0-9]|[1-9][0-9]|100):" "adl --per-cpu: every line at most 100 columns"
grep -E '^ *[0-9]+\.[0-9]{9}  ' "$tmp/per" >"$tmp/per.rows"
is "$(awk '$4 == "SLOTS" { print $2 }' "$tmp/per.rows" | tr '\n' ' ')" \
	"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 " \
	"adl --per-cpu: a SLOTS row for each of the 24 CPUs, by number"
is "$(awk '$4 != "SLOTS"' "$tmp/per.rows" | wc -l | tr -d ' ')" $((16 * 12 + 8 * 10)) \
	"adl --per-cpu: 12 nodes for each of the 16 P-cores' CPUs, 10 for each of the 8 E-cores"
done_testing
