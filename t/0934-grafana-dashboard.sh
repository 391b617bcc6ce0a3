#!/bin/sh
# t/0934-grafana-dashboard.sh - examples/grafana/baretma-dashboard.json
# is valid JSON and shows what baretma exports: every metric a query or a
# template variable names is a family that bench or validate writes with
# --openmetrics on the simulator (t/0930's runs), and every label a query
# matches on is one of that family's, or node_exporter's `instance`
# (`kernel=""` selects the series without one: stat's).  Level 1 is a
# stacked time series of baretma_tma_ratio by node, core kind and CPU (the
# panel repeated over the `cpu` variable), with the variables `instance`
# and `cpu`, and the pictures' Okabe-Ito colour for each level-1 node.  The doc
# names node_exporter's flag.
. "$T_SRC/tap.sh"
pyq_start
. "$T_SRC/events-fixture.sh"
events_dumps "$ADLS"
ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
[ -r "$ICL" ] || skip_all "no CPUID dump $ICL"
dash=$T_SRC/../examples/grafana/baretma-dashboard.json
printf '%s\nbackend_bound 30\nmemory_bound 18\n' "$sim_common" >"$tmp/intel"

BARETMA_TEST_HOOKS=1 BARETMA_CPUID_DUMP=$ADLS BARETMA_MSR=sim:$tmp/intel "$BARETMA_HOOKS" bench \
	--backend msr --cpu 0 --kernel test-sim-work --reps 5 --warmup 1 \
	--openmetrics "$tmp/bench.prom" >/dev/null 2>&1
is "$?" 0 "bench --openmetrics on the simulator"
BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$tmp/intel "$BARETMA" validate --cpuid-dump "$ICL" \
	--no-perf --openmetrics "$tmp/validate.prom" >/dev/null 2>&1
is "$?" 0 "validate --openmetrics on the simulator"
for f in bench validate; do
	python3 -S "$T_SRC/openmetrics-parse.py" "$tmp/$f.prom" --json >"$tmp/$f.json" ||
		echo "Bail out! $f.prom does not parse"
done

pyq 'import json, sys; json.load(open(sys.argv[1]))' "$dash"
is "$?" 0 "the dashboard is valid JSON"

# q EXPR: EXPR over the dashboard d, the exported families fam
# ({name: set of label names}) and the queries qs (every expr and
# template query), parsed into [(metric, [(label, op, value)])].
q() {
	pyq - "$dash" "$tmp/bench.json" "$tmp/validate.json" "$1" <<'EOP'
import json, re, sys
d = json.load(open(sys.argv[1]))
fam = {}
for f in sys.argv[2:4]:
    for s in json.load(open(f)):
        fam.setdefault(s["name"], set()).update(s["labels"])
exprs = [t["expr"] for p in d["panels"] for t in p.get("targets", [])]
exprs += [v["query"]["query"] for v in d["templating"]["list"] if v["type"] == "query"]
qs = []
for e in exprs:
    for m in re.finditer(r"(baretma_[a-zA-Z0-9_]+)(\{([^}]*)\})?", e):
        ms = re.findall(r'([a-zA-Z_]+)\s*(=~|!=|!~|=)\s*"([^"]*)"', m.group(3) or "")
        qs.append((m.group(1), ms))
panel = {p["id"]: p for p in d["panels"]}
print(eval(sys.argv[4]))
EOP
}

is "$(q 'len(qs) >= 7')" True "the queries name baretma metrics"
is "$(q 'sorted(n for n, _ in qs if n not in fam)')" "[]" \
	"every metric queried is one baretma exports"
is "$(q 'sorted(set((n, l) for n, ms in qs for l, _, _ in ms
	if l not in fam.get(n, ()) and l not in ("instance", "kernel")))')" "[]" \
	"every label matched is the family's (or instance, or kernel=\"\")"
is "$(q 'sorted(v["name"] for v in d["templating"]["list"])')" "['cpu', 'datasource', 'instance']" \
	"variables: the data source, instance (host) and cpu"
is "$(q '(panel[1]["type"], panel[1]["repeat"], panel[1]["fieldConfig"]["defaults"]["custom"]["stacking"]["mode"],
	panel[1]["targets"][0]["legendFormat"], panel[1]["fieldConfig"]["defaults"]["unit"])')" \
	"('timeseries', 'cpu', 'normal', '{{node}} ({{kind}}, cpu {{cpu}})', 'percentunit')" \
	"level 1: a stacked time series by node, one per CPU, in percent of slots"
is "$(q 'qs[0]')" \
	"('baretma_tma_ratio', [('instance', '=~', '\$instance'), ('cpu', '=~', '\$cpu'), ('kernel', '=', ''), ('level', '=', '1')])" \
	"level 1: baretma_tma_ratio of the host and CPU, level 1, stat's series"
# Okabe and Ito (2008, https://jfly.uni-koeln.de/color/), as doc/plots.md
# gives them to the nodes: retiring bluish green (0, 158, 115), bad
# speculation orange (230, 159, 0), frontend bound blue (0, 114, 178),
# backend bound vermillion (213, 94, 0); each matched by the legend's
# leading node name (t/1114 renders the names)
is "$(q 'sorted((o["matcher"]["id"], o["matcher"]["options"], o["properties"][0]["value"]["fixedColor"]) for o in panel[1]["fieldConfig"]["overrides"] if o["properties"][0]["id"] == "color")')" \
	"[('byRegexp', '/^tma_backend_bound /', '#D55E00'), ('byRegexp', '/^tma_bad_speculation /', '#E69F00'), ('byRegexp', '/^tma_frontend_bound /', '#0072B2'), ('byRegexp', '/^tma_retiring /', '#009E73')]" \
	"one colour per level-1 node, Okabe and Ito's: retiring bluish green, bad speculation orange, frontend blue, backend vermillion"
is "$(q 'sorted(set(s for n, ms in qs if n == "baretma_tma_ratio" for l, o, s in ms if l == "level"))')" \
	"['1', '2']" "the level label's values as exported (1, 2)"
like "$(cat "$T_SRC/../doc/openmetrics.md")" "--collector.textfile.directory=" \
	"doc/openmetrics.md names node_exporter's flag"

done_testing
