#!/bin/sh
# t/1097-profile-events.sh - the example profiles name only events of the
# recipe they are for (issue 29, newcomer list: examples/profiles/
# ecore.profile named TOPDOWN_BAD_SPECULATION.ALL, which `baretma decode
# --recipe intel-ecore-l1:gracemont` calls "no event of" the recipe: the
# Gracemont recipe derives bad speculation, E-core_TMA_Metrics.csv's
# GRT Bad_Speculation, and counts no such event).  Each EVENT.NAME in a
# profile is looked up in `decode --recipes --json`'s events of the recipe
# that runs on the dump the profile's header names.
. "$T_SRC/tap.sh"
pyq_start
command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read JSON"
"$BARETMA" decode --recipes --json >"$tmp/recipes.json" 2>"$tmp/err"
is "$?" 0 "decode --recipes --json"
for pair in ecore:intel-ecore-l1:gracemont icelake:intel-perf-metrics:sunny-cove \
	sapphirerapids:intel-perf-metrics:golden-cove; do
	name=${pair%%:*} recipe=${pair#*:}
	f=$T_SRC/../examples/profiles/$name.profile
	got=$(pyq - "$tmp/recipes.json" "$recipe" "$f" <<'EOP'
import json, re, sys
d = json.load(open(sys.argv[1]))
rs = d["recipes"] if isinstance(d, dict) else d
name, variant = sys.argv[2].rsplit(":", 1)
r = [r for r in rs if r["recipe"] == name and r["variant"] == variant]
if not r:
    print("no recipe " + sys.argv[2]); sys.exit()
ev = {e["name"] if isinstance(e, dict) else e for e in r[0]["events"]}
named = set(re.findall(r"\b[A-Z][A-Z0-9_]+\.[A-Z0-9_.]+\b", open(sys.argv[3]).read()))
print(sorted(named - ev))
EOP
)
	is "$got" "[]" "$name.profile names only events of $recipe"
done
done_testing
