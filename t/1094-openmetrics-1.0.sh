#!/bin/sh
# t/1094-openmetrics-1.0.sh - --openmetrics FILE writes OpenMetrics 1.0,
# as its name says (OpenObservability/OpenMetrics
# specification/OpenMetrics.md), which node_exporter's textfile collector
# still reads (it parses *.prom with the Prometheus text format's parser,
# node_exporter collector/textfile.go, and that format takes "# UNIT" and
# "# EOF" for comments).  Before, the file was the text format 0.0.4 alone:
# no "# EOF", no UNIT.  On the simulated PMU of the Ice Lake dump (t/0904's
# profile: retiring byte 102 of 256, a share of 0.3984375):
#   - "Expositions MUST end with EOF": the last line, and the only one;
#   - each family TYPE gauge, and UNIT where its name ends in one ("an
#     underscore and the unit MUST be the suffix": baretma_slots slots,
#     baretma_tma_ratio ratio), TYPE before UNIT before HELP;
#   - t/openmetrics-parse.py (both formats, from their specs) accepts it;
#     so does `promtool check metrics` (Debian: prometheus), the Prometheus
#     text format's linter; so does the OpenMetrics parser of the Python
#     client (Debian: python3-prometheus-client), which refuses a file
#     without "# EOF"; and node_exporter itself (Debian:
#     prometheus-node-exporter), run on a directory holding the file, serves
#     its samples with node_textfile_scrape_error 0 - each where installed;
#   - one textfile-collector directory everywhere: Debian's
#     /var/lib/prometheus/node-exporter (its prometheus-node-exporter's
#     default --collector.textfile.directory), never another.
. "$T_SRC/tap.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the files"
ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
[ -r "$ICL" ] || skip_all "no Ice Lake dump ($ICL)"

printf 'ghz 1\naccess_cycles 0\nretiring 40\nbad_speculation 10\nfrontend_bound 20
backend_bound 30\n' >"$tmp/profile"
mkdir -p "$tmp/run" "$tmp/tf"
BARETMA_MSR=sim:$tmp/profile BARETMA_STATE_DIR=$tmp/run BARETMA_CPUID_DUMP=$ICL
export BARETMA_MSR BARETMA_STATE_DIR BARETMA_CPUID_DUMP
unset BARETMA_MSR_TRACE BARETMA_PERF

"$BARETMA" stat -C 0-1 -I 100 --count 2 --openmetrics "$tmp/tf/stat.prom" >/dev/null 2>&1
is "$?" 0 "stat -I --openmetrics: exit 0"
"$BARETMA" bench --backend msr --cpu 0 --kernel retire-light --reps 3 --warmup 0 \
	--openmetrics "$tmp/tf/bench.prom" >/dev/null 2>&1
is "$?" 0 "bench --openmetrics: exit 0"

for f in stat bench; do
	p=$tmp/tf/$f.prom
	is "$(tail -n 1 "$p"):$(grep -c '^# EOF$' "$p")" "# EOF:1" "$f: # EOF is the last line, and the only one"
	is "$(grep '^# \(TYPE\|UNIT\) baretma_\(slots\|tma_ratio\) ' "$p")" \
		"# TYPE baretma_slots gauge
# UNIT baretma_slots slots
# TYPE baretma_tma_ratio gauge
# UNIT baretma_tma_ratio ratio" "$f: TYPE gauge, then the unit that ends the family's name"
	out=$(python3 -S "$T_SRC/openmetrics-parse.py" "$p" 2>&1)
	is "$?:$out" "0:" "$f: OpenMetrics 1.0 and the Prometheus text format (t/openmetrics-parse.py)"
	if command -v promtool >/dev/null 2>&1; then
		out=$(promtool check metrics <"$p" 2>&1)
		is "$?:$out" "0:" "$f: promtool check metrics accepts it"
	else
		skip "promtool not installed (Debian: prometheus)"
	fi
done

# The Python client's OpenMetrics parser (Debian's python3 has it when
# python3-prometheus-client is installed, whichever python3 comes first)
om_py=
for py in python3 /usr/bin/python3; do
	if "$py" -c 'import prometheus_client.openmetrics.parser' >/dev/null 2>&1; then
		om_py=$py
		break
	fi
done
if [ -n "$om_py" ]; then
	om() {
		"$om_py" - "$1" <<'EOP'
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
fams = {f.name: f for f in text_string_to_metric_families(open(sys.argv[1]).read())}
r = [s.value for s in fams["baretma_tma_ratio"].samples if s.labels["node"] == "tma_retiring"]
print(sorted((n, f.type, f.unit) for n, f in fams.items()), r[:1])
EOP
	}
	is "$(om "$tmp/tf/stat.prom" 2>&1)" \
		"[('baretma_slots', 'gauge', 'slots'), ('baretma_tma_bound_ratio', 'gauge', 'ratio'), ('baretma_tma_ratio', 'gauge', 'ratio')] [0.3984375]" \
		"stat: the OpenMetrics parser reads three gauges with their units, retiring 102/256"
	head -n -1 "$tmp/tf/stat.prom" >"$tmp/noeof"
	like "$(om "$tmp/noeof" 2>&1)" "EOF" "control: without its # EOF that parser refuses the file"
else
	skip "no prometheus_client for Python (Debian: python3-prometheus-client)"
	skip "no prometheus_client for Python (Debian: python3-prometheus-client)"
fi

# node_exporter's textfile collector on a directory of the two files
ne=$(command -v prometheus-node-exporter || command -v node_exporter)
if [ -n "$ne" ]; then
	port=$(python3 -S -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	"$ne" --collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$tmp/tf" --web.listen-address="127.0.0.1:$port" \
		>"$tmp/ne.log" 2>&1 &
	nepid=$!
	scraped=$(python3 -S - "$port" <<'EOP'
import sys, time, urllib.request
for _ in range(100):
    try:
        text = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=2).read().decode()
        break
    except OSError:
        time.sleep(0.05)
else:
    text = ""
ok = [l for l in text.splitlines() if l.startswith(("node_textfile_scrape_error", "baretma_tma_ratio{"))]
err = [l.split()[-1] for l in ok if l.startswith("node_textfile_scrape_error")]
ret = [l.split()[-1] for l in ok if 'node="tma_retiring"' in l and "kernel=" not in l]
print(err, ret)
EOP
)
	kill "$nepid" 2>/dev/null
	wait "$nepid" 2>/dev/null
	is "$scraped" "['0'] ['0.3984375']" \
		"node_exporter's textfile collector reads both files (no scrape error), stat's retiring 102/256"
else
	skip "node_exporter not installed (Debian: prometheus-node-exporter)"
fi

# One textfile-collector directory in the documents: Debian's
src=$T_SRC/..
for doc in README.md doc/openmetrics.md man/baretma.1 man/baretma-stat.1 man/baretma-bench.1; do
	other=$(grep -n 'node_exporter/textfile\|/var/lib/node[-_]exporter' "$src/$doc" | head -n 3)
	is "$other" "" "$doc names no other textfile directory than /var/lib/prometheus/node-exporter"
done
ok "$(grep -q 'directory.*/var/lib/prometheus/node-exporter' "$src/doc/openmetrics.md"; echo $?)" \
	"doc/openmetrics.md names /var/lib/prometheus/node-exporter for the collector's directory"
done_testing
