#!/bin/sh
# t/1114-grafana-legend.sh - examples/grafana/baretma-dashboard.json names
# each series of baretma_tma_ratio by its node, core kind and CPU (issue 29:
# "the Grafana dashboard's level-1 legend is {{node}} only, so a hybrid
# part's P- and E-core series get one name"), and colours its nodes as the
# pictures do.  Read against what baretma exports: `stat -a -I 100
# --openmetrics` on the simulated hybrid Alder Lake-S (examples/dumps: P-
# and E-cores, each kind a series per node, cpu="all": the series the
# panels select, kernel="").
#   - every query of baretma_tma_ratio has a legendFormat with {{node}},
#     {{kind}} and {{cpu}};
#   - each panel's legend, rendered as Grafana renders it (every {{label}}
#     replaced by the series' value), gives every series it selects a name
#     of its own (baretma_tma_ratio's, and the bound's and the slots');
#   - level 1 stacks each core kind on its own (a stacking group per kind:
#     each kind's shares sum to 1, never 2);
#   - every level-1 series' name is matched by exactly one colour override
#     of the level-1 panel (a "byName" matcher: equal; "byRegexp": Grafana's
#     stringToJsRegex, a /pattern/ as it is, a bare one anchored ^...$), and
#     the colour is the node's Okabe-Ito colour (Okabe and Ito 2008,
#     https://jfly.uni-koeln.de/color/: retiring bluish green #009E73, bad
#     speculation orange #E69F00, frontend bound blue #0072B2, backend
#     bound vermillion #D55E00); the level-2 panel's overrides give each
#     level-2 node the colour doc/plots.md gives it.
# Before: legendFormat {{node}} (and "cpu {{cpu}}"), one name for both
# kinds, both stacked in one group; byName matchers and the colours green,
# red, purple and orange.
. "$T_SRC/tap.sh"
pyq_start

command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the JSON"
EX=$T_SRC/../examples
dash=$EX/grafana/baretma-dashboard.json
mkdir -p "$tmp/run"
BARETMA_STATE_DIR=$tmp/run
export BARETMA_STATE_DIR
unset BARETMA_MSR_TRACE BARETMA_TEST_HOOKS BARETMA_PERF BARETMA_CPUID_DUMP

BARETMA_CPUID_DUMP=$EX/dumps/alder-lake-s-core-i9.test BARETMA_MSR=sim:$EX/profiles/ecore.profile \
	"$BARETMA" stat -a -I 100 --count 2 --openmetrics "$tmp/stat.prom" >/dev/null 2>&1
is "$?" 0 "stat -a -I 100 --count 2 --openmetrics on the Alder Lake-S dump"
python3 -S "$T_SRC/openmetrics-parse.py" "$tmp/stat.prom" --json >"$tmp/stat.json" ||
	echo "Bail out! stat.prom does not parse"
sed -n 's/^| `\([a-z_]*\)` | [^|]* | #\([0-9A-F]*\) |.*/\1 \2/p' "$T_SRC/../doc/plots.md" >"$tmp/colours"

# q EXPR: EXPR over the dashboard d, its panels with a baretma_tma_ratio
# query tp [(panel, target)], the series exported ser (stat's: dicts of
# labels), names(target) the legend names
# Grafana gives, colour(panel, name) the override colours matching a name,
# doc {node: "#RRGGBB"} (doc/plots.md)
q() {
	pyq - "$dash" "$tmp/stat.json" "$tmp/colours" "$1" <<'EOP'
import json, re, sys
d = json.load(open(sys.argv[1]))
ser = []
for s in json.load(open(sys.argv[2])):
    ser.append(dict(s["labels"], __name__=s["name"]))
doc = dict((l.split()[0], "#" + l.split()[1]) for l in open(sys.argv[3]))
tp = [(p, t) for p in d["panels"] for t in p.get("targets", []) if "baretma_tma_ratio" in t.get("expr", "")]
allt = [(p, t) for p in d["panels"] for t in p.get("targets", []) if "baretma_" in t.get("expr", "")]
def selected(t, s):
    """does target t's selector take series s (its metric, its matchers)"""
    if re.match(r"\s*(baretma_[a-z_]+)", t["expr"]).group(1) != s["__name__"]:
        return False
    for l, o, v in re.findall(r'([a-zA-Z_]+)\s*(=~|!=|!~|=)\s*"([^"]*)"', t["expr"]):
        if v.startswith("$"):
            continue        # a template variable: all
        got = s.get(l, "")
        if (o == "=" and got != v) or (o == "!=" and got == v):
            return False
        if (o == "=~" and not re.fullmatch(v, got)) or (o == "!~" and re.fullmatch(v, got)):
            return False
    return True
def render(fmt, s):
    return re.sub(r"\{\{\s*([a-zA-Z_]+)\s*\}\}", lambda m: s.get(m.group(1), ""), fmt)
def names(t):
    return [render(t.get("legendFormat", ""), s) for s in ser if selected(t, s)]
def js_regex(pat):
    """Grafana's stringToJsRegex (packages/grafana-data/src/text/string.ts)"""
    if not pat.startswith("/"):
        return re.compile("^" + pat + "$")
    m = re.fullmatch(r"/(.*?)/([gimy]*)", pat)
    return re.compile(m.group(1), re.I if "i" in m.group(2) else 0)
def colour(p, name):
    out = []
    for o in p.get("fieldConfig", {}).get("overrides", []):
        m = o["matcher"]
        hit = m["id"] == "byName" and m["options"] == name or \
              m["id"] == "byRegexp" and js_regex(m["options"]).search(name)
        if hit:
            out += [x["value"]["fixedColor"] for x in o["properties"] if x["id"] == "color"]
    return out
def group(p, name):
    """the stacking group of the series @name in panel @p (the last override's)"""
    g = p["fieldConfig"]["defaults"].get("custom", {}).get("stacking", {}).get("group")
    for o in p.get("fieldConfig", {}).get("overrides", []):
        m = o["matcher"]
        if m["id"] == "byRegexp" and js_regex(m["options"]).search(name):
            g = next((x["value"]["group"] for x in o["properties"] if x["id"] == "custom.stacking"), g)
    return g
print(eval(sys.argv[4]))
EOP
}

is "$(q 'len(tp) >= 2 and len(set(s["kind"] for s in ser if s["__name__"] == "baretma_tma_ratio")) == 2')" True \
	"the dashboard queries baretma_tma_ratio; the export has two core kinds"
is "$(q '[t["legendFormat"] for p, t in tp if not all(x in t.get("legendFormat", "") for x in ("{{node}}", "{{kind}}", "{{cpu}}"))]')" \
	"[]" "every legendFormat of baretma_tma_ratio names node, kind and cpu"
is "$(q '[(p["title"], n) for p, t in allt for n in set(names(t)) if names(t).count(n) > 1]')" "[]" \
	"no two series of a panel get one name (P- and E-cores apart), baretma_tma_ratio or another"
is "$(q 'sorted(set((s["kind"], group(p, render(t["legendFormat"], s))) for p, t in tp if "level=\"1\"" in t["expr"] for s in ser if selected(t, s)))')" \
	"[('efficiency', 'efficiency'), ('performance', 'A')]" \
	"level 1: each core kind stacked on its own (each kind's shares sum to 1)"
is "$(q 'sorted(set((s["kind"], s["cpu"]) for p, t in tp if t["expr"].find("level=\"1\"") >= 0 for s in ser if selected(t, s)))')" \
	"[('efficiency', 'all'), ('performance', 'all')]" \
	"level 1 takes stat's series of both kinds"
is "$(q '[(n, colour(p, n)) for p, t in tp if "level=\"1\"" in t["expr"] for s in ser if selected(t, s) for n in [render(t["legendFormat"], s)] if colour(p, n) != [{"tma_retiring": "#009E73", "tma_bad_speculation": "#E69F00", "tma_frontend_bound": "#0072B2", "tma_backend_bound": "#D55E00"}.get(s["node"])]]')" \
	"[]" "each level-1 series coloured once, in its node's Okabe-Ito colour"
is "$(q '[(n, colour(p, n)) for p, t in tp if "level=\"2\"" in t["expr"] for s in ser if selected(t, s) for n in [render(t["legendFormat"], s)] if colour(p, n) != [doc[s["node"]]]]')" \
	"[]" "each level-2 series coloured once, in doc/plots.md's colour of its node"
done_testing
