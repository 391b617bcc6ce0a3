#!/bin/sh
# t/1113-plot-svg-cli.sh - what the commands' pictures say, read from the
# SVG files they write on the simulated PMU (issue 29, the newcomer's
# "Plots" item; doc/plots.md):
#   - the SVG's <title> is the picture's title, its <desc> the subtitle,
#     the command line ("command: baretma stat -a -I 100 --count 3 --plot
#     x.svg", as the test typed it) and, a dry run, the mark "DRY RUN: ...
#     not this machine's counters" naming the simulated PMU and the CPUID
#     dump (cairo draws text as outlines: the words are read from there);
#     a PDF's Subject the same;
#   - stat -I on the hybrid Alder Lake-S dump (examples/dumps/README: P-cores
#     0-15, Gracemont E-cores 16-23): one panel per core kind, each headed
#     with its kind and CPUs, each node's area drawn once in each panel, the
#     panels apart; on Ice Lake (one kind) one panel;
#   - the legend's swatches top down in the order of the stack top down (the
#     areas' top edges in a panel; a bar's segments);
#   - every node's fill is one of Okabe and Ito's eight colours (2008,
#     https://jfly.uni-koeln.de/color/, their sRGB values) or one of them
#     mixed with white (half) or black (40 % or 20 %), as doc/plots.md says;
#     no other colour but greys.
# Before, the SVG had no text, one panel, the legend bottom first, and red
# and green fills.
. "$T_SRC/tap.sh"
pyq_start

[ "${T_HAVE_CAIRO:-}" = yes ] || skip_all "built without cairo: no --plot"
command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the SVG"
EX=$T_SRC/../examples
ADL=$EX/dumps/alder-lake-s-core-i9.test
ICL=$EX/dumps/ice-lake-i7.test
SPR=$EX/dumps/sapphire-rapids-ws-xeon-w7.test
mkdir -p "$tmp/run"
BARETMA_STATE_DIR=$tmp/run
export BARETMA_STATE_DIR
unset BARETMA_MSR_TRACE BARETMA_TEST_HOOKS BARETMA_PERF BARETMA_CPUID_DUMP
cd "$tmp" || exit 1

# svg FILE EXPR: EXPR over the SVG FILE: title, desc (its lines), rects
# (swatches: 13 x 13 rectangles), areas (the other filled paths of a node
# colour), each (hex, x0, y0, x1, y1), fills (every fill colour), cud
# (Okabe and Ito's eight), tints (allowed: CUD and their mixes), grey(hex)
svg() {
	pyq - "$1" "$2" <<'EOP'
import re, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
t = root.find(NS + "title")
title = t.text if t is not None else None
d = root.find(NS + "desc")
desc = (d.text or "").split("\n") if d is not None else []
cud = {"e69f00": "orange", "56b4e9": "sky blue", "009e73": "bluish green",
       "f0e442": "yellow", "0072b2": "blue", "d55e00": "vermillion",
       "cc79a7": "reddish purple", "000000": "black"}
def mix(h, w, f):
    c = [int(h[i:i + 2], 16) for i in (0, 2, 4)]
    return [x + f * (255 - x) if w else x * (1 - f) for x in c]
tints = [mix(h, w, f) for h in cud for w, f in ((True, 0), (True, .5), (False, .4), (False, .2))]
def allowed(h):
    c = [int(h[i:i + 2], 16) for i in (0, 2, 4)]
    return any(all(abs(a - b) <= 1 for a, b in zip(c, m)) for m in tints)
def grey(h):
    return h[0:2] == h[2:4] == h[4:6]
fills, swatches, areas = set(), [], []
for p in root.iter():
    st = p.get("style") or ""
    m = re.search(r"fill:rgb\(([\d.]+)%,([\d.]+)%,([\d.]+)%\)", st)
    if not m:
        continue
    hx = "%02x%02x%02x" % tuple(int(round(float(v) * 2.55)) for v in m.groups())
    fills.add(hx)
    if p.tag != NS + "path" or grey(hx):
        continue
    n = [float(v) for v in re.findall(r"-?[\d.]+", p.get("d") or "")]
    if len(n) < 8:
        continue
    xs, ys = n[0::2], n[1::2]
    q = (hx, min(xs), min(ys), max(xs), max(ys))
    (swatches if abs(q[3] - q[1] - 13) < 0.01 and abs(q[4] - q[2] - 13) < 0.01 else areas).append(q)
def parent_of(h):
    """the CUD colour of which @h is a mix (None: none)"""
    c = [int(h[i:i + 2], 16) for i in (0, 2, 4)]
    for k in cud:
        for w, f in ((True, 0), (True, .5), (False, .4), (False, .2)):
            if all(abs(a - b) <= 1 for a, b in zip(c, mix(k, w, f))):
                return k
def top_down(qs):
    """the colours of @qs by their top edge, top first, once each"""
    out = []
    for q in sorted(qs, key=lambda q: q[2]):
        if q[0] not in out:
            out.append(q[0])
    return out
code = sys.argv[2].strip().split("\n")
exec("\n".join(code[:-1]))
print(eval(code[-1]))
EOP
}

# --- stat -I on the hybrid Alder Lake-S: two panels -------------------------
BARETMA_CPUID_DUMP=$ADL BARETMA_MSR=sim:$EX/profiles/ecore.profile \
	"$BARETMA" stat -a -I 100 --count 3 --plot x.svg >out 2>err
is "$?" 0 "stat -a -I 100 --count 3 --plot x.svg on the Alder Lake-S dump: exit 0"
is "$(svg x.svg 'title')" "Top-down level 1 over time: 12th Gen Intel(R) Core(TM) i9-12900K" \
	"its <title>: the title, the dump's brand"
is "$(svg x.svg '[l for l in desc if l.startswith("command: ")]')" \
	"['command: baretma stat -a -I 100 --count 3 --plot x.svg']" \
	"its <desc>: the command line as typed"
is "$(svg x.svg '"|".join(l for l in desc if l.startswith("DRY RUN"))')" \
	"DRY RUN: simulated PMU, CPUID dump: not this machine's counters" \
	"its <desc>: the dry run's mark, what makes it one"
is "$(svg x.svg '[l for l in desc if l.startswith("panel: ")]')" \
	"['panel: performance cores (Golden Cove), cpus 0-15', 'panel: efficiency cores (Gracemont), cpus 16-23']" \
	"a panel per core kind, each headed with its kind and CPUs (the dump's)"
is "$(svg x.svg 'sorted((h, sum(q[0] == h for q in areas)) for h in set(q[0] for q in areas))')" \
	"[('0072b2', 2), ('009e73', 2), ('d55e00', 2), ('e69f00', 2)]" \
	"each of the four level-1 nodes' areas drawn once in each panel"
is "$(svg x.svg '(lambda a: a[0][4] <= a[1][2] or a[1][4] <= a[0][2])(sorted(q for q in areas if q[0] == "009e73"))')" \
	"True" "the two panels one above the other, apart"
is "$(svg x.svg 'top_down(swatches) == top_down([q for q in areas if q[2] < min(r[4] for r in areas if r[0] == "009e73")])')" \
	"True" "the legend top down is the first panel's stack top down"
is "$(svg x.svg 'top_down(swatches)')" "['d55e00', '0072b2', 'e69f00', '009e73']" \
	"the legend top down: backend, frontend, bad speculation, retiring (retiring at the foot)"
is "$(svg x.svg 'sorted(cud[q[0]] for q in swatches)')" \
	"['blue', 'bluish green', 'orange', 'vermillion']" \
	"the level-1 nodes in Okabe and Ito's colours"
is "$(svg x.svg 'sorted(h for h in fills if not grey(h) and not allowed(h))')" "[]" \
	"no fill but greys, Okabe and Ito's colours and their documented mixes"

# --- stat -I on Ice Lake: one kind, one panel --------------------------------
BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$EX/profiles/icelake.profile \
	"$BARETMA" stat -a -I 100 --count 2 --plot i.svg >out 2>err
is "$?" 0 "stat -a -I 100 --count 2 --plot i.svg on the Ice Lake dump: exit 0"
is "$(svg i.svg '(len([l for l in desc if l.startswith("panel: ")]), sorted(set(sum(q[0] == h for q in areas) for h in set(q[0] for q in areas))))')" \
	"(0, [1])" "one kind: one panel, no heading, each area once"

# --- bench on Sapphire Rapids, level 2 --------------------------------------
BARETMA_CPUID_DUMP=$SPR BARETMA_MSR=sim:$EX/profiles/sapphirerapids.profile \
	"$BARETMA" bench --backend msr --reps 5 --kernel retire-light --plot b.svg >out 2>err
is "$?" 0 "bench --backend msr --reps 5 --kernel retire-light --plot b.svg: exit 0"
is "$(svg b.svg '"|".join(l for l in desc if l.startswith("command: ") or l.startswith("DRY RUN"))')" \
	"command: baretma bench --backend msr --reps 5 --kernel retire-light --plot b.svg|DRY RUN: simulated PMU, CPUID dump: not this machine's counters" \
	"bench's <desc>: the command line and the dry run's mark"
# the bars: the filled rectangles left of the legend, by their left edge:
# two kernels (bench's `empty` bracket, then retire-light), each a level-1
# bar and a level-2 bar; the legend top down must be each level-1 node as
# retire-light's level-1 bar stacks them, top first, its children under it
# as its level-2 bar stacks them
cat >expect.py <<'EOP'
lx = min(q[1] for q in swatches)
cols = sorted(set(q[1] for q in areas if q[3] <= lx))
bar1, bar2 = (top_down([q for q in areas if q[1] == x]) for x in cols[2:4])
want = [h for p in bar1 for h in [p] + [c for c in bar2 if parent_of(c) == p]]
(len(cols), bar1, top_down(swatches) == want)
EOP
is "$(svg b.svg "$(cat expect.py)")" "(4, ['d55e00', '0072b2', 'e69f00', '009e73'], True)" \
	"bench: two bars a kernel, level 1 stacked retiring at the foot, the legend the stacks top first"
is "$(svg b.svg 'sorted(h for h in fills if not grey(h) and not allowed(h))')" "[]" \
	"bench: no fill but greys, Okabe and Ito's colours and their documented mixes"

# --- bench, PDF: the same words in its Subject (the document information
# dictionary, ISO 32000-1 14.3.3: a text string, UTF-16BE after its BOM) ---
BARETMA_CPUID_DUMP=$ICL BARETMA_MSR=sim:$EX/profiles/icelake.profile \
	"$BARETMA" bench --backend msr --reps 3 --kernel retire-light --plot b.pdf >out 2>err
is "$?" 0 "bench --plot b.pdf: exit 0"
is "$(pyq - b.pdf <<'EOP'
import re, sys
d = open(sys.argv[1], "rb").read()
m = re.search(rb"/Subject\s*<FEFF([0-9A-Fa-f]*)>", d)
s = bytes.fromhex(m.group(1).decode()).decode("utf-16-be") if m else ""
print("|".join(x for x in s.split("; ") if x.startswith(("command: ", "DRY RUN"))))
EOP
)" "command: baretma bench --backend msr --reps 3 --kernel retire-light --plot b.pdf|DRY RUN: simulated PMU, CPUID dump: not this machine's counters" \
	"the PDF's Subject: the command line and the dry run's mark"

# --- compare: the dry run names the simulated perf_event too ----------------
BARETMA_CPUID_DUMP=$SPR BARETMA_MSR=sim:$EX/profiles/sapphirerapids.profile \
	BARETMA_PERF=sim:$EX/profiles/sapphirerapids.profile \
	"$BARETMA" compare --kernel retire-light --pairs 8 --reps 3 --level 1 --plot c.svg >out 2>err
st=$?
ok "$([ "$st" -le 1 ] && echo 0 || echo 1)" "compare --plot c.svg: exit 0 or 1 ($st)"
is "$(svg c.svg '"|".join(l for l in desc if l.startswith("command: ") or l.startswith("DRY RUN"))')" \
	"command: baretma compare --kernel retire-light --pairs 8 --reps 3 --level 1 --plot c.svg|DRY RUN: simulated PMU, simulated perf_event, CPUID dump: not this machine's counters" \
	"compare's <desc>: the command line and the dry run's mark"
done_testing
