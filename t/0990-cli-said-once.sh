#!/bin/sh
# t/0990-cli-said-once.sh - the command line names what it means, once:
#  1. an option that does not apply is named by its name (`pmu status
#     --cpuid-dump X` said "option 'X' does not apply" before it took
#     --cpuid-dump);
#  2. the top-level help says what msr writes to a register baretma does
#     not know need: --unsafe-msr, the flag `msr write` itself asks for
#     (it said --force, which is for CPUs another run's journal holds);
#  3. a reason is printed once: bench's text report has it in its
#     "top-down:" line and stderr only points there (both said it whole
#     before); calibrate's report names each backend's reason and stderr
#     names the backends (each of the three reasons appeared twice);
#  4. the level-2 table fits 100 columns (it was about 230 wide: split
#     in tables of two nodes, a parent's two children, as perf groups its
#     Top-down output) and keeps every number: the median and quartiles
#     of each of the 12 nodes of each kernel, as the JSON has them.
. "$T_SRC/tap.sh"
pyq_start

. "$T_SRC/sim-fixture.sh"
run() {
	st=0
	"$BARETMA" "$@" >"$tmp/out" 2>"$tmp/err" || st=$?
}

# 1. the option by its name (every pmu subcommand takes --cpuid-dump now,
# t/0981: the options that do not apply take no argument)
run pmu status --wait
is "$st" 64 "pmu status --wait: exit 64"
is "$(cat "$tmp/err")" "baretma: pmu status: option '--wait' does not apply to 'pmu status' (try: baretma pmu status --help)" \
	"names the option"
run pmu restore --json
is "$(cat "$tmp/err")" "baretma: pmu restore: option '--json' does not apply to 'pmu restore' (try: baretma pmu restore --help)" \
	"  pmu restore --json too"

# 2. the help names the flag msr write asks for
printf '1 0x38f 0x0\n1 0x1a0 0x0\n' >"$tmp/state"
BARETMA_MSR=state:$tmp/state run msr write --cpuid-dump "$ICL" 1 0x1a0 0x0
is "$st" 64 "msr write to MSR 0x1a0 (not a PMU register): exit 64"
flag=$(grep -o -- '--unsafe-msr' "$tmp/err" | head -1)
is "$flag" "--unsafe-msr" "  and asks for --unsafe-msr"
"$BARETMA" --help >"$tmp/help"
like "$(cat "$tmp/help")" "only to known PMU registers \\(else $flag\\)" "the help says the same flag"
unlike "$(cat "$tmp/help")" "else --force" "  not --force"

# 3. a reason once
printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
BARETMA_MSR=/nonexistent/baretma-test/cpu/%u/msr run bench --cpuid-dump "$ICL" --cpu 1 --kernel empty --reps 2 --warmup 0
is "$st" 0 "bench on a dump's CPU through a device (TSC only): exit 0"
reason="this machine's MSR device cannot reach its registers"
is "$(cat "$tmp/out" "$tmp/err" | grep -c "$reason")" 1 "the reason is printed once"
like "$(cat "$tmp/out")" "^top-down: unavailable: .*$reason" "  in the report's top-down line"
is "$(cat "$tmp/err")" "baretma: top-down unavailable on cpu 1 (why: the report's 'top-down:' line); timing with the TSC only" \
	"  stderr points there"
# the kernel's perf_event asked for: a dump's CPUs are not this machine's
BARETMA_PERF=kernel BARETMA_MSR=sim:$tmp/p run calibrate --cpuid-dump "$ICL" --reps 21
is "$st" 0 "calibrate on the simulator: exit 0"
# the simulator reads by a simulated RDPMC (msr_sim_rdpmc): rdpmc measures there
is "$(cat "$tmp/out" "$tmp/err" | grep -c "RDPMC reads the counters of the CPU baretma runs on")" 0 \
	"rdpmc measures on the simulator: no reason"
is "$(cat "$tmp/out" "$tmp/err" | grep -c "perf_event measures this machine")" 2 \
	"perf's and perf-rdpmc's once each"
is "$(cat "$tmp/err")" "baretma: calibrate: backends perf, perf-rdpmc cannot measure on cpu 7 (why: the report on stdout, 'NAME: cannot measure: ...')" \
	"stderr names the backends"

# 4. the level-2 table in 100 columns, every number kept
printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\nheavy_operations 10\nbranch_mispredicts 6\nfetch_latency 12\nmemory_bound 18\n' >"$tmp/p2"
BARETMA_MSR=sim:$tmp/p2 run bench --cpuid-dump "$SPR" --backend msr --kernel empty,retire-light --reps 5 --warmup 0
is "$st" 0 "level-2 bench on the Sapphire Rapids dump: exit 0"
cp "$tmp/out" "$tmp/text"
BARETMA_MSR=sim:$tmp/p2 run bench --cpuid-dump "$SPR" --backend msr --kernel empty,retire-light --reps 5 --warmup 0 --json
# the table: every line after the header's first blank line
is "$(awk 'f && length($0) > 100 { n++ } /^$/ { f = 1 } END { print n + 0 }' "$tmp/text")" 0 \
	"no line of the tables is wider than 100 columns"
# each node's cell "median [q1,q3]" of each kernel, read back from the text tables
pyq - "$tmp/text" >"$tmp/cells" <<'PY'
import re, sys
cols = None
for line in open(sys.argv[1]):
    f = line.split()
    if f[:3] == ["kernel", "slots", "+/-pp"]:
        cols = f[3:]
        continue
    if not f or cols is None:
        cols = None if not f else cols
        continue
    cells = re.findall(r"(-?[0-9.]+) \[(-?[0-9.]+),(-?[0-9.]+)\]", line)
    if len(cells) == len(cols):
        for c, v in zip(cols, cells):
            print(f[0], c, *v)
PY
pyq '
import json, sys
d = json.load(open(sys.argv[1]))
for k in d["kernels"]:
    for n in sorted(x for x in k if x.startswith("tma_")):
        s = k[n]
        print(k["name"], n, "%.2f %.2f %.2f" % (s["median"], s["q1"], s["q3"]))
' "$tmp/out" | sort >"$tmp/want"
is "$(wc -l <"$tmp/want")" 24 "the JSON has 12 nodes of 2 kernels"
is "$(sort "$tmp/cells")" "$(cat "$tmp/want")" "the tables hold every node's median and quartiles of every kernel, as the JSON"
done_testing
