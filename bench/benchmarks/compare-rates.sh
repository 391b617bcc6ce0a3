#!/bin/sh
# bench/benchmarks/compare-rates.sh - the error rates of `baretma compare` on the
# simulated PMU (README "baretma compare", "Error rates"): how often it
# exits 1 with no offset between the raw path and perf (false alarm), and
# how often it exits 1 with `fault perf_offset tma_backend_bound PP` (PP 3
# and 1: detection), at simulator noise 2 and 8, over SEEDS seeds each,
# with compare's default pairs and repetitions and every kernel.  Each rate
# is printed with its 95 % Wilson and Clopper-Pearson intervals, as the
# Markdown table the README holds.  Not part of `make check` (it takes
# about an hour): `make compare-rates`, or
#
#   bench/benchmarks/compare-rates.sh [--seeds N] [--jobs J] [--baretma PATH]
#       [--cpuid-dump FILE] [--keep DIR] [--cells LIST]
#
# --cells: a comma-separated subset of 0:2,0:8,3:2,3:8,1:2,1:8 (offset
# points : noise points).  The machine: Sapphire Rapids (the CPUID dump of
# t/sim-fixture.sh's SPR, level 2: 8 kernels x 12 metrics = 96 hypotheses),
# BARETMA_MSR=sim:P and BARETMA_PERF=sim:P on the same in-memory profile
# (no `state` key).  Every run is `nice`d: the campaign gives way to other
# work on the machine, which changes its duration, not its numbers (the
# simulator's shares do not depend on timing).  Needs python3.
set -u

seeds=100
jobs=1
baretma=./baretma
dump=${SHARED_CPUID:-/nonexistent}/libcpuid/master-history/intel/x86-64/golden-cove/sapphire-rapids-ws-xeon-w9.test
keep=
cells=0:2,0:8,3:2,3:8,1:2,1:8
while [ $# -gt 0 ]; do
	case $1 in
	--seeds) seeds=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--baretma) baretma=$2; shift 2 ;;
	--cpuid-dump) dump=$2; shift 2 ;;
	--keep) keep=$2; shift 2 ;;
	--cells) cells=$2; shift 2 ;;
	*) echo "usage: $0 [--seeds N] [--jobs J] [--baretma PATH] [--cpuid-dump FILE] [--keep DIR] [--cells LIST]" >&2
	   exit 64 ;;
	esac
done
[ -r "$dump" ] || { echo "$0: no CPUID dump '$dump' (set SHARED_CPUID or give --cpuid-dump)" >&2; exit 66; }
command -v python3 >/dev/null 2>&1 || { echo "$0: python3 needed" >&2; exit 69; }
baretma=$(cd "$(dirname "$baretma")" && pwd)/$(basename "$baretma")

dir=${keep:-$(mktemp -d)}
mkdir -p "$dir"
[ -n "$keep" ] || trap 'rm -rf "$dir"' EXIT

# one OFFSET NOISE SEED: one compare run; appends "offset noise seed status
# seconds disagree backend_disagree" to $dir/results
one() {
	p=$dir/p-$1-$2-$3 st=0
	{
		printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n'
		printf 'heavy_operations 10\nbranch_mispredicts 5\nfetch_latency 12\nmemory_bound 18\n'
		printf 'noise %s\nseed %s\n' "$2" "$3"
		[ "$1" = 0 ] || printf 'fault perf_offset tma_backend_bound %s\n' "$1"
	} >"$p"
	mkdir -p "$p.state"
	t0=$(date +%s.%N)
	BARETMA_STATE_DIR=$p.state BARETMA_CPUID_DUMP=$dump BARETMA_MSR=sim:$p BARETMA_PERF=sim:$p \
		nice "$baretma" compare --json >"$p.json" 2>"$p.err" || st=$?
	t1=$(date +%s.%N)
	python3 - "$p.json" "$1" "$2" "$3" "$st" "$t0" "$t1" >>"$dir/results" <<'EOP'
import json, sys
f, off, noise, seed, st, t0, t1 = sys.argv[1:]
try:
    d = json.load(open(f))
    dis = d["verdicts"]["disagree"]
    be = sum(1 for k in d["kernels"] if k["tma_backend_bound"]["verdict"] == "DISAGREE")
except Exception:
    dis, be = -1, -1
print(off, noise, seed, st, "%.2f" % (float(t1) - float(t0)), dis, be)
EOP
	rm -rf "$p.state"
	[ -n "$keep" ] || rm -f "$p" "$p.json" "$p.err"
}

: >"$dir/results"
n=0
for c in $(echo "$cells" | tr , ' '); do
	off=${c%%:*} noise=${c#*:}
	s=1
	while [ "$s" -le "$seeds" ]; do
		one "$off" "$noise" "$s" &
		n=$((n + 1))
		[ $((n % jobs)) -ne 0 ] || wait
		s=$((s + 1))
	done
done
wait

python3 - "$dir/results" "$seeds" "$jobs" <<'EOP'
import math, os, platform, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
seeds, jobs = int(sys.argv[2]), int(sys.argv[3])

def pmf_cdf(k, n, p):  # P(X <= k), X ~ B(n, p)
    return sum(math.comb(n, i) * p**i * (1 - p)**(n - i) for i in range(0, k + 1))

def clopper_pearson(x, n, a=0.05):
    def solve(f):  # f increasing in p: the p where f(p) = 0
        lo, hi = 0.0, 1.0
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if f(mid) < 0 else (lo, mid)
        return (lo + hi) / 2
    lower = 0.0 if x == 0 else solve(lambda p: (1 - pmf_cdf(x - 1, n, p)) - a / 2)
    upper = 1.0 if x == n else solve(lambda p: a / 2 - pmf_cdf(x, n, p))
    return lower, upper

def wilson(x, n, z=1.959963984540054):
    ph = x / n
    c = (ph + z * z / (2 * n)) / (1 + z * z / n)
    h = z / (1 + z * z / n) * math.sqrt(ph * (1 - ph) / n + z * z / (4 * n * n))
    return max(0.0, c - h), min(1.0, c + h)

load = os.getloadavg()
model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")),
             platform.machine())
print("machine: %s, %d CPUs online, kernel %s, load average %.2f at the end; %d run(s) at a time, nice"
      % (model, os.cpu_count(), platform.release(), load[0], jobs))
print()
print("| offset (points, tma_backend_bound) | noise (points) | seeds | exit 1 | rate | 95 % Wilson | 95 % Clopper-Pearson | backend DISAGREE in | other exits | seconds per run (median) |")
print("|---|---|---|---|---|---|---|---|---|---|")
cells = []
for r in rows:
    if (r[0], r[1]) not in cells:
        cells.append((r[0], r[1]))
for off, noise in cells:
    rs = [r for r in rows if r[0] == off and r[1] == noise]
    n = len(rs)
    x = sum(1 for r in rs if r[3] == "1")
    other = sum(1 for r in rs if r[3] not in ("0", "1"))
    be = sum(1 for r in rs if r[3] == "1" and int(r[6]) > 0)
    secs = sorted(float(r[4]) for r in rs)
    med = secs[n // 2] if n % 2 else (secs[n // 2 - 1] + secs[n // 2]) / 2
    w, cp = wilson(x, n), clopper_pearson(x, n)
    what = "none (false alarm)" if off == "0" else off
    print("| %s | %s | %d | %d | %.1f %% | [%.1f, %.1f] %% | [%.1f, %.1f] %% | %d | %d | %.1f |"
          % (what, noise, n, x, 100 * x / n, 100 * w[0], 100 * w[1], 100 * cp[0], 100 * cp[1],
             be, other, med))
EOP
