#!/bin/sh
# t/1066-stat-lengths.sh - the seconds each of `baretma stat`'s samples
# covers, against man/baretma-stat.1 (`samples`: `time`, `length`: "the sample's
# end since the start, and the seconds it covers"):
#  - with -I each interval covers the time from the previous interval's
#    end to its own (the first: from the start), so interval k's length is
#    time(k) - time(k - 1), not the time since the start, and the lengths
#    add up to the last interval's time, which is the end's `seconds`;
#  - without -I the one sample covers the whole count, so its length is
#    its time and the end's `seconds`, however many times stat read the
#    counters meanwhile (once a second: a count of 1.5 s has read them
#    once before its end).
# The simulated PMU of the Ice Lake dump, as t/0900.
. "$T_SRC/tap.sh"
pyq_start

command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read JSON"
ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
[ -r "$ICL" ] || skip_all "no Ice Lake dump ($ICL)"

printf 'ghz 1\naccess_cycles 0\nretiring 40\nbad_speculation 10\nfrontend_bound 20
backend_bound 30\n' >"$tmp/profile"
mkdir -p "$tmp/run"
BARETMA_MSR=sim:$tmp/profile BARETMA_STATE_DIR=$tmp/run BARETMA_CPUID_DUMP=$ICL
export BARETMA_MSR BARETMA_STATE_DIR BARETMA_CPUID_DUMP
unset BARETMA_MSR_TRACE BARETMA_PERF

# --- -I 100 --count 4 --json: each interval's own length --------------------
"$BARETMA" stat -C 0-1 -I 100 --count 4 --json >"$tmp/jsonl" 2>"$tmp/err"; rc=$?
is "$rc" 0 "stat -C 0-1 -I 100 --count 4 --json exits 0"
got=$(pyq - "$tmp/jsonl" <<'EOF'
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()]
iv = [d for d in docs if d["type"] == "interval"]
end = [d for d in docs if d["type"] == "end"]
bad, prev, total = [], 0.0, 0.0
for k, d in enumerate(iv):
    for s in d["samples"]:
        if abs(s["time"] - d["time"]) > 1e-6:
            bad.append("interval %d: sample time %r, line time %r" % (k + 1, s["time"], d["time"]))
        if abs(s["length"] - (d["time"] - prev)) > 1e-6:
            bad.append("interval %d: length %r, its time %r less the previous %r"
                       % (k + 1, s["length"], d["time"], prev))
    total += d["samples"][0]["length"]
    prev = d["time"]
if abs(total - prev) > 1e-5:
    bad.append("lengths add up to %r, the last time is %r" % (total, prev))
if len(end) != 1 or abs(end[0]["seconds"] - prev) > 1e-6:
    bad.append("end seconds %r, the last time %r" % (end and end[0]["seconds"], prev))
print(len(iv), "ok" if not bad else "; ".join(bad))
EOF
)
is "$got" "4 ok" \
	"four intervals, each one's length its time less the previous one's, adding up to the end's seconds"

# --- without -I: one sample over the whole count ----------------------------
"$BARETMA" stat -C 0 --json -- sleep 1.5 >"$tmp/json" 2>"$tmp/err"; rc=$?
is "$rc" 0 "stat -C 0 --json -- sleep 1.5 exits 0"
got=$(pyq - "$tmp/json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["samples"][0]
print(len(d["samples"]), d["seconds"] >= 1.5,
      "ok" if abs(s["length"] - s["time"]) <= 1e-6 and abs(s["time"] - d["seconds"]) <= 1e-6
      else "length %r, time %r, seconds %r" % (s["length"], s["time"], d["seconds"]))
EOF
)
is "$got" "1 True ok" \
	"one sample whose length is its time and the count's seconds (1.5 s and more), not its last second"
is "$(ls "$tmp/run" | grep -c 'journal$')" 0 "no journal left behind"
done_testing
