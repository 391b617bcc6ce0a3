#!/bin/sh
# t/0904-stat-outputs.sh - `baretma stat -I` with the generic outputs:
# -x SEP with -o FILE (the intervals' rows in FILE, put in place whole at
# the end), --openmetrics FILE (rewritten at each interval's end with that
# interval's numbers, OpenMetrics 1.0 that the Prometheus text format
# reads too, read back by the independent parser t/openmetrics-parse.py,
# and by promtool where it is installed) and --plot FILE (the timeline; a PNG that decodes, 1000x600).
#
# Expected values come from the profile written here (t/0900's: `ghz 1`,
# `access_cycles 0`, shares 40/10/20/30 on the Ice Lake dump's
# PERF_METRICS), never from baretma: each level-1 share is its profile
# share within the bound printed beside it (8-bit fields), Ice Lake's
# INT_MISC.CLEARS_COUNT term moving 2.5 points from bad speculation to
# backend (t/0900: 7.5 and 32.5); the recipe intel-perf-metrics:sunny-cove.
. "$T_SRC/tap.sh"
pyq_start

command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read CSV and PNG"
ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
[ -r "$ICL" ] || skip_all "no Ice Lake dump ($ICL)"

printf 'ghz 1\naccess_cycles 0\nretiring 40\nbad_speculation 10\nfrontend_bound 20
backend_bound 30\n' >"$tmp/profile"
mkdir -p "$tmp/run"
BARETMA_MSR=sim:$tmp/profile BARETMA_STATE_DIR=$tmp/run BARETMA_CPUID_DUMP=$ICL
export BARETMA_MSR BARETMA_STATE_DIR BARETMA_CPUID_DUMP
unset BARETMA_MSR_TRACE BARETMA_PERF

# --- -x ';' -o FILE ---------------------------------------------------------
out=$("$BARETMA" stat -C 0-1 -I 100 --count 3 -x ';' -o "$tmp/s.csv" 2>"$tmp/err"); rc=$?
is "$rc" 0 "stat -I 100 --count 3 -x ';' -o FILE exits 0"
is "$out" "" "nothing on stdout: the output is in FILE"
is "$(ls "$tmp" | grep -c '^\.s\.csv')" 0 "no temporary file left beside it"
is "$(pyq - "$tmp/s.csv" <<'EOP'
import csv, sys
want = {"tma_retiring": 40, "tma_bad_speculation": 7.5, "tma_frontend_bound": 20,
        "tma_backend_bound": 32.5}
rows = list(csv.DictReader(open(sys.argv[1]), delimiter=";"))
times = sorted(set(r["time"] for r in rows))
off = [(r["time"], r["quantity"], r["value"], r["bound_pp"]) for r in rows
       if r["quantity"] in want and r["unit"] == "percent"
       and abs(float(r["value"]) - want[r["quantity"]]) > float(r["bound_pp"]) + 1e-9]
slots = [r for r in rows if r["quantity"] == "slots" and float(r["value"]) > 0]
print(list(rows[0].keys())[:4], len(times), len(slots), off,
      sorted(set(r["recipe"] + "/" + r["backend"] for r in rows)))
EOP
)" "['cpu', 'kind', 'recipe', 'backend'] 3 3 [] ['intel-perf-metrics:sunny-cove/msr']" \
	"-x: named columns (cpu, kind, recipe, backend first), 3 intervals with slots, every share the profile's within its bound"

# --- --openmetrics FILE -----------------------------------------------------
"$BARETMA" stat -C 0-1 -I 100 --count 3 --openmetrics "$tmp/m.prom" >/dev/null 2>"$tmp/err"
is "$?" 0 "stat -I --openmetrics FILE exits 0"
python3 -S "$T_SRC/openmetrics-parse.py" "$tmp/m.prom" >"$tmp/parse" 2>&1
is "$?" 0 "the file parses as OpenMetrics 1.0 and as the Prometheus text format (t/openmetrics-parse.py)"
is "$(pyq - "$tmp/m.prom" <<'EOP'
import re, sys
want = {"tma_retiring": .40, "tma_bad_speculation": .075, "tma_frontend_bound": .20,
        "tma_backend_bound": .325}
v = {}
bound = None
for line in open(sys.argv[1]):
    m = re.match(r'baretma_tma_ratio\{.*node="([a-z_]+)"\} (\S+)$', line)
    if m:
        v[m.group(1)] = float(m.group(2))
    m = re.match(r'baretma_tma_bound_ratio\{.*\} (\S+)$', line)
    if m:
        bound = float(m.group(1))
print(sorted(v) == sorted(want), bound is not None and 0 < bound < 0.01,
      [n for n in want if abs(v[n] - want[n]) > bound + 1e-9])
EOP
)" "True True []" "the latest interval's level 1: the profile's shares within the bound series"
if command -v promtool >/dev/null 2>&1; then
	promtool check metrics <"$tmp/m.prom" >/dev/null 2>&1
	is "$?" 0 "promtool check metrics accepts it"
else
	skip "promtool not installed (Debian: prometheus)"
fi
ln -s "$tmp/target" "$tmp/link.prom"
"$BARETMA" stat -C 0 -I 100 --count 1 --openmetrics "$tmp/link.prom" >/dev/null 2>"$tmp/err"
is "$?" 73 "--openmetrics onto a symbolic link: refused, exit 73"
ok "$([ ! -e "$tmp/target" ] && echo 0 || echo 1)" "nothing written through it"

# --- --plot FILE ------------------------------------------------------------
st=0
"$BARETMA" stat -C 0 -a --plot "$tmp/x.png" >/dev/null 2>"$tmp/err" || st=$?
is "$st" 64 "--plot without -I: usage, exit 64"
if [ "${T_HAVE_CAIRO:-}" = yes ]; then
	"$BARETMA" stat -C 0-1 -I 100 --count 4 --plot "$tmp/t.png" >/dev/null 2>"$tmp/err"
	is "$?" 0 "stat -I --plot FILE.png exits 0"
	is "$(pyq 'import struct,sys; d=open(sys.argv[1],"rb").read(24); print(d[:8] == b"\x89PNG\r\n\x1a\n", struct.unpack(">II", d[16:24]))' "$tmp/t.png")" \
		"True (1000, 600)" "a PNG of 1000 x 600"
else
	"$BARETMA" stat -C 0-1 -I 100 --count 1 --plot "$tmp/t.png" >/dev/null 2>"$tmp/err"
	is "$?" 69 "built without cairo: --plot exits 69"
	skip "no cairo: no picture to decode"
fi
done_testing
