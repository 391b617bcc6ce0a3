#!/bin/sh
# t/1200-prometheus.sh - a host in Prometheus as a lab runs it: a real
# node_exporter (Debian: prometheus-node-exporter) with its textfile
# collector on this test's directory, and a real Prometheus (Debian:
# prometheus) scraping it every second, from a configuration written here
# with the labels a lab gives its hosts (instance named by the host, a
# rack), both on 127.0.0.1 at ports the kernel chose (listening on port 0:
# nothing else can have taken them between a choice and the bind) and both
# stopped by their pids, also when the test fails or is killed.  Into that
# directory `baretma stat -a -I 200 --openmetrics FILE --json` writes, on
# the simulated PMU of the Alder Lake-S dump of examples/dumps (P-cores with
# PERF_METRICS at level 2, E-cores with the event recipe at level 1: two
# core kinds, each summed, cpu="all"), and `baretma validate --openmetrics`
# a check that fails (the simulator's `fault slots_stuck`: fixed counter 3
# does not count, fc3_counts FAIL).  Then Prometheus's HTTP API
# (/api/v1/query, /api/v1/label/NAME/values) is asked:
#   - the baretma_ series carry the labels doc/openmetrics.md gives stat's
#     families (cpu, kind, recipe, backend, level, node; no kernel, which
#     the dashboard's kernel="" selects) and the scrape configuration's
#     (instance, rack, job);
#   - every scrape Prometheus stored is one interval of stat's: the
#     intervals' slots come from the clock and differ from one interval
#     to the next by far more than their printed precision (10
#     significant digits), so a scrape's slots name its interval, and
#     that interval's JSON must then give each of the scrape's values
#     (every node's share, the bound, the slots of both kinds, the same
#     interval for both) to its printed precision, and no series more or
#     less; later scrapes come from later intervals;
#   - a scrape stamped after stat ended (stopped by SIGTERM, as
#     systemctl stop stops it) holds the last interval, and exactly the
#     values of the file stat left;
#   - node_exporter never failed to read a file (node_textfile_scrape_error
#     0 in every scrape while the file was rewritten five times a second);
#   - every PromQL expression of examples/grafana (each panel's expr, each
#     variable's query and definition: label_values() asked as Grafana asks
#     it, /api/v1/label/NAME/values with the selector as match[]) returns
#     series, with the variables as Grafana sets them (each the values of
#     its own query, a multi-value one as (a|b|...), regex-escaped;
#     $__interval and the like a few seconds): exactly the series of the
#     two files the expression selects (evaluated here apart, in Python),
#     and the failed checks' panel the checks validate's JSON says FAIL;
#     a point names each expression;
#   - doc/openmetrics.md's scrape configuration passes promtool check config.
. "$T_SRC/tap.sh"
pyq_start
command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to ask Prometheus"
prom=$(command -v prometheus)
ne=$(command -v prometheus-node-exporter || command -v node_exporter)
[ -n "$prom" ] || skip_all "no Prometheus server (Debian: prometheus)"
[ -n "$ne" ] || skip_all "no node_exporter (Debian: prometheus-node-exporter)"

ex=$T_SRC/../examples
ADL=$ex/dumps/alder-lake-s-core-i9.test
dash=$ex/grafana/baretma-dashboard.json
tf=$tmp/textfile
mkdir -p "$tf" "$tmp/run"
BARETMA_STATE_DIR=$tmp/run BARETMA_CPUID_DUMP=$ADL
export BARETMA_STATE_DIR BARETMA_CPUID_DUMP
unset BARETMA_MSR_TRACE BARETMA_PERF

# doc/openmetrics.md's scrape configuration, as promtool reads it
if command -v promtool >/dev/null 2>&1; then
	awk '/^## Monitoring a fleet/ { s = 1 } s && /^```yaml$/ { y = 1; next }
		y && /^```$/ { exit } y' "$T_SRC/../doc/openmetrics.md" >"$tmp/doc.yml"
	out=$(promtool check config "$tmp/doc.yml" 2>&1)
	is "$?:$(grep -c targets "$tmp/doc.yml")" 0:2 \
		"doc/openmetrics.md's scrape configuration passes promtool check config"
else
	skip "no promtool (Debian: prometheus)"
fi

# Every process this test starts is in $pids, stopped at the end by its
# pid (SIGTERM, SIGKILL after 20 s), on any exit and on a signal; and, for
# a test itself killed by SIGKILL, which runs no trap, by a guard that
# outlives it: it stops the pids of $tmp/pids once this shell is gone
# (the file is removed with $tmp when the test ends as it should).
pids=
track() { pids=$*; echo "$pids" >"$tmp/pids"; }
(
	exec </dev/null >/dev/null 2>&1
	while kill -0 $$; do sleep 1; done
	[ -f "$tmp/pids" ] && kill $(cat "$tmp/pids")
) &
gone() { ! kill -0 "$1" 2>/dev/null || grep -q '^[0-9]* (.*) Z' "/proc/$1/stat" 2>/dev/null; }
stop_pids() {
	for _p in $pids; do kill "$_p" 2>/dev/null; done
	for _p in $pids; do
		until_true gone "$_p" || kill -KILL "$_p" 2>/dev/null
		wait "$_p" 2>/dev/null
	done
}
trap 'stop_pids; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# port_of PID: the TCP port PID listens on (its socket's inode among the
# LISTEN lines, state 0A, of /proc/net/tcp), once it does (20 s at most)
port_of() {
	pyq 'import os, sys, time
pid, end = sys.argv[1], time.time() + 20
while time.time() < end:
    try:
        socks = {os.readlink("/proc/%s/fd/%s" % (pid, f))[8:-1]
                 for f in os.listdir("/proc/%s/fd" % pid)}
        for l in open("/proc/net/tcp").readlines()[1:]:
            f = l.split()
            if f[3] == "0A" and f[9] in socks:
                print(int(f[1].split(":")[1], 16))
                sys.exit()
    except OSError:
        pass
    time.sleep(0.05)' "$1"
}

# --- node_exporter, then Prometheus scraping it ---------------------------------
"$ne" --collector.disable-defaults --collector.textfile --collector.textfile.directory="$tf" \
	--web.listen-address=127.0.0.1:0 >"$tmp/ne.log" 2>&1 &
nepid=$!
track "$nepid"
neport=$(port_of "$nepid")
like "$neport" '^[0-9]+$' "node_exporter listens on 127.0.0.1:$neport"
cat >"$tmp/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:$neport']
        labels:
          instance: adl-lab-17
          rack: r3
EOF
"$prom" --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address=127.0.0.1:0 --log.level=warn >"$tmp/prom.log" 2>&1 &
ppid_=$!
track "$pids $ppid_"
pport=$(port_of "$ppid_")
like "$pport" '^[0-9]+$' "Prometheus listens on 127.0.0.1:$pport"

# prom_py: PORT first; get(), query(), until() for the programs below
prom_py='import json, math, re, sys, time, urllib.parse, urllib.request
http = urllib.request.build_opener(urllib.request.ProxyHandler({}))
BASE = "http://127.0.0.1:%s" % sys.argv[1]
def get(path, **params):
    q = "?" + urllib.parse.urlencode(params, doseq=True) if params else ""
    with http.open(BASE + path + q, timeout=5) as r:
        d = json.loads(r.read().decode())
    if d.get("status") != "success":
        raise ValueError(d)
    return d["data"]
def query(expr):
    return get("/api/v1/query", query=expr)["result"]
def until(cond, limit=30):
    end = time.time() + limit
    while time.time() < end:
        try:
            r = cond()
        except OSError:
            r = None
        if r:
            return r
        time.sleep(0.1)
    return None
'
pq() { _prog=$1; shift; pyq "$prom_py$_prog" "$pport" "$@"; }
is "$(pq 'print(bool(until(lambda: http.open(BASE + "/-/ready", timeout=5).status == 200)))')" True \
	"Prometheus is ready"

# --- what the host writes: a failed check, and stat's intervals ---------------------
printf 'ghz 1\naccess_cycles 0\nretiring 40\nbad_speculation 10\nfrontend_bound 20
backend_bound 30\nfault slots_stuck\n' >"$tmp/faulty"
BARETMA_MSR=sim:$tmp/faulty "$BARETMA" validate --no-perf --json \
	--openmetrics "$tf/baretma-validate.prom" >"$tmp/validate.json" 2>"$tmp/validate.err"
is "$?" 1 "validate with fixed counter 3 stuck: a check failed (exit 1)"
sig_dfl env "BARETMA_MSR=sim:$ex/profiles/sapphirerapids-steady.profile" "$BARETMA" stat -a \
	-I 200 --json --openmetrics "$tf/baretma.prom" >"$tmp/stat.json" 2>"$tmp/stat.err" &
statpid=$!
track "$pids $statpid"

# two scrapes of each kind's slots while stat runs
is "$(pq 'r = until(lambda: [s for s in query("count_over_time(baretma_slots[1m]) >= 2")
                     if s["metric"].get("instance") == "adl-lab-17"], 40)
print(sorted(s["metric"]["kind"] for s in r or []))')" "['efficiency', 'performance']" \
	"Prometheus holds two scrapes of both core kinds' series"
kill -TERM "$statpid"
wait "$statpid"
is "$?" 0 "stat stopped by SIGTERM: exit 0"
track "$nepid $ppid_"
t_end=$(pyq 'import time; print(repr(time.time()))')
is "$(pq 'end = float(sys.argv[2])
print(bool(until(lambda: min([float(s["value"][1]) for s in query("timestamp(baretma_slots)")]
                                 or [0]) > end)))' "$t_end")" True \
	"a scrape stamped after stat ended"

# The raw samples of stat's three families, by scrape
pq 'json.dump(query("{__name__=~\"baretma_(slots|tma_ratio|tma_bound_ratio)\"}[5m]"),
          open(sys.argv[2], "w"))' "$tmp/raw.json"
for f in baretma baretma-validate; do
	python3 -S "$T_SRC/openmetrics-parse.py" "$tf/$f.prom" --json >"$tmp/$f.json" ||
		echo "Bail out! $f.prom does not parse"
done

is "$(pyq 'import json, sys
names = {tuple(sorted(s["metric"])) for s in json.load(open(sys.argv[1]))
         if s["metric"]["__name__"] == "baretma_tma_ratio"}
print(names)' "$tmp/raw.json")" \
	"{('__name__', 'backend', 'cpu', 'instance', 'job', 'kind', 'level', 'node', 'rack', 'recipe')}" \
	"baretma_tma_ratio: stat's labels, the scrape's, no kernel"

# match.py: each scrape against stat's intervals (see the header)
is "$(pyq 'import json, math, sys
raw = json.load(open(sys.argv[1]))
end = float(sys.argv[3])
ivs = [d for d in map(json.loads, open(sys.argv[2])) if d["type"] == "interval"]
scrape = {}
for s in raw:
    m = s["metric"]
    key = (m["__name__"], tuple(sorted((k, v) for k, v in m.items()
                                       if k not in ("__name__", "instance", "job", "rack"))))
    for t, v in s["values"]:
        scrape.setdefault(t, {})[key] = float(v)
def near(got, printed):
    """got (full precision) equals printed, a value of 10 significant digits"""
    if printed == 0:
        return got == 0
    return abs(got - printed) <= 0.5001 * 10 ** (math.floor(math.log10(abs(printed))) - 9)
def want(iv):
    """the series and values (printed) of one interval of the JSON"""
    w = {}
    for s in iv["samples"]:
        lab = [("backend", s["backend"]), ("cpu", s["cpu"]), ("kind", s["kind"]),
               ("recipe", s["recipe"] + (":" + s["variant"] if s["variant"] else ""))]
        w[("baretma_slots", tuple(sorted(lab)))] = (s["slots"], 1)
        w[("baretma_tma_bound_ratio", tuple(sorted(lab)))] = (s["bound_pp"], 100)
        for n in s["nodes"]:
            k = tuple(sorted(lab + [("level", str(n["level"])), ("node", n["metric"])]))
            w[("baretma_tma_ratio", k)] = (n["percent"], 100)
    return w
def same(got, w):
    return set(got) == set(w) and all(near(got[k] * f, v) for k, (v, f) in w.items())
wants = [want(iv) for iv in ivs]
matched, bad = [], []
for t in sorted(scrape):
    slots = {k: v for k, v in scrape[t].items() if k[0] == "baretma_slots"}
    cand = [i for i, w in enumerate(wants)
            if all(k in w and near(v, w[k][0]) for k, v in slots.items())]
    hit = [i for i in cand if same(scrape[t], wants[i])]
    if hit:
        matched.append((t, hit[0]))
    else:
        bad.append((t, cand, sorted(scrape[t].items())[:3]))
order = [i for _, i in matched]
last = [i for t, i in matched if t > end]
print(len(matched) >= 3, bad, order == sorted(order), last[-1:] == [len(ivs) - 1])' \
	"$tmp/raw.json" "$tmp/stat.json" "$t_end")" "True [] True True" \
	"every scrape is one interval of stat's JSON, to its printed precision; in order; the last after the end"

is "$(pyq 'import json, sys
raw = json.load(open(sys.argv[1]))
t = max(v[0] for s in raw for v in s["values"])
got = sorted((s["metric"]["__name__"], sorted((k, v) for k, v in s["metric"].items()
              if k not in ("__name__", "instance", "job", "rack")), float(v[1]))
             for s in raw for v in s["values"] if v[0] == t)
want = sorted((s["name"], sorted(s["labels"].items()), s["value"])
              for s in json.load(open(sys.argv[2])))
print(len(got) >= 20, got == want)' "$tmp/raw.json" "$tmp/baretma.json")" "True True" \
	"the last scrape: the series and values of the file stat left, exactly"
is "$(pq 'r = query("max_over_time(node_textfile_scrape_error[5m])")
n = query("count_over_time(node_textfile_scrape_error[5m])")
print([s["value"][1] for s in r], int(n[0]["value"][1]) >= 3)')" "['0'] True" \
	"node_exporter read every file whole: no scrape error in any scrape"

# --- every expression of the dashboard -------------------------------------------------
# dash.py prints a line per expression: EXPR TAB what Prometheus returned TAB
# what the files select (or "some series" where the expression is not a
# selector); then the failed checks' panel's (cpu, check) and validate's.
pq 'import json
d = json.load(open(sys.argv[2]))
files = []
for f in sys.argv[3:5]:
    for s in json.load(open(f)):
        files.append(dict(s["labels"], __name__=s["name"], instance="adl-lab-17", job="node",
                          rack="r3", __value__=s["value"]))
def sub(e, var):
    e = re.sub(r"\$\{?__[a-z_]+\}?", "5s", e)
    for n, v in var.items():
        e = re.sub(r"\$\{%s(:[a-z]+)?\}|\[\[%s\]\]|\$%s\b" % (n, n, n), lambda m: v, e)
    return e
def rx_escape(v):   # Grafana, prometheusSpecialRegexEscape: doubled, in a PromQL string
    return re.sub(r"([\\^$*+?.()|{}\[\]])", r"\\\\\1", v)
MATCH = re.compile(r"([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*\"((?:[^\"\\]|\\.)*)\"")
def selected(e):
    """the file series a selector (optionally == N) selects, or None"""
    m = re.fullmatch(r"\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(?:\{(.*)\})?\s*(?:==\s*([0-9.]+))?\s*", e)
    if not m:
        return None
    ms = [(k, op, re.sub(r"\\(.)", r"\1", v)) for k, op, v in MATCH.findall(m.group(2) or "")]
    def ok(s):
        for k, op, v in ms:
            x = str(s.get(k, ""))
            r = {"=": x == v, "!=": x != v, "=~": re.fullmatch(v, x) is not None,
                 "!~": re.fullmatch(v, x) is None}[op]
            if not r:
                return False
        return m.group(3) is None or s["__value__"] == float(m.group(3))
    return [s for s in files if s["__name__"] == m.group(1) and ok(s)]
LV = re.compile(r"\s*label_values\((?:(.*),\s*)?([a-zA-Z_][a-zA-Z0-9_]*)\)\s*")
var, out = {}, []
for v in d["templating"]["list"]:
    if v["type"] != "query":
        continue
    qs = [v["query"]["query"] if isinstance(v["query"], dict) else v["query"], v.get("definition")]
    vals = []
    for q in dict.fromkeys(x for x in qs if x):
        m = LV.fullmatch(sub(q, var))
        if not m:
            out.append((q, "not label_values()", "label_values()"))
            continue
        p = {"match[]": m.group(1)} if m.group(1) else {}
        vals = sorted(get("/api/v1/label/%s/values" % m.group(2), **p))
        sel = selected(m.group(1) or "{}") if m.group(1) else files
        want = sorted({str(s[m.group(2)]) for s in sel or [] if s.get(m.group(2), "") != ""})
        out.append((q, "%s" % vals if vals else "no values",
                    "%s" % want if want else "some values (the files have none)"))
    if v.get("multi") or v.get("includeAll"):
        ev = [rx_escape(x) for x in vals]
        var[v["name"]] = ev[0] if len(ev) == 1 else "(" + "|".join(ev) + ")"
    else:
        var[v["name"]] = (vals or [""])[0]
fails = None
for p in d["panels"]:
    for t in p.get("targets", []):
        e = sub(t["expr"], var)
        r = query(e)
        sel = selected(e)
        if sel is None:
            out.append((t["expr"], "some series" if r else "no series", "some series"))
        else:
            out.append((t["expr"], "%d series" % len(r) if r else "no series",
                        "%d series" % len(sel) if sel else "some series (the files have none)"))
        if "baretma_validate_check" in e:
            fails = sorted((s["metric"]["cpu"], s["metric"]["check"]) for s in r)
for o in out:
    print("\t".join(o))
print("\t".join(["fails", "%s" % fails]))' "$dash" "$tmp/baretma.json" "$tmp/baretma-validate.json" \
	>"$tmp/dash.out" 2>"$tmp/dash.err"
is "$(cat "$tmp/dash.err")" "" "every expression asked (no error)"
is "$(grep -vc '^fails' "$tmp/dash.out")" 7 \
	"seven expressions: two variables' (query and definition the same text, asked once), five panels"
tab=$(printf '\t')
while IFS="$tab" read -r e got want; do
	[ "$e" = fails ] && continue
	is "$got" "$want" "$e returns the series of the files it selects"
done <"$tmp/dash.out"
is "$(grep '^fails' "$tmp/dash.out" | cut -f 2)" "$(pyq 'import json, sys
print(sorted((str(c["cpu"]), c["check"]) for c in json.load(open(sys.argv[1]))["checks"]
             if c["status"] == "FAIL"))' "$tmp/validate.json")" \
	"the failed checks' panel: the checks validate says FAIL"
is "$(grep -c "fc3_counts" "$tmp/dash.out")" 1 "... fc3_counts among them"

# --- both daemons stopped by their pids ---------------------------------------------------
stop_pids
left=
for p in $nepid $ppid_ $statpid; do gone "$p" || left="$left $p"; done
is "$left" "" "node_exporter and Prometheus stopped"
track
done_testing
