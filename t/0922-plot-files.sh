#!/bin/sh
# t/0922-plot-files.sh - `bench --plot` and `compare --plot` write pictures
# that decode, on the simulated PMU of a Sapphire Rapids dump (level 2):
# an SVG that parses as XML, whose bars' heights are the profile's shares
# and whose fills are doc/plots.md's colours; a PNG with its signature, an
# IHDR of at least 600 x 400 (1000 x 600 here) and pixel rows that inflate
# and unfilter, in which a column through a kernel's level-1 bar has the
# four colours in the profile's proportions; a PDF from %PDF- to %%EOF.
# compare's picture: the two sides' bar widths in the ratio of their
# values, a DISAGREE written in vermillion where one is found and nowhere
# else.
#
# The shares, worked by hand from the profile (msr/sim/msr_sim.h: PERF_METRICS
# byte i = round(pct_i x 255 / 100), half away from zero; msr/recipe/topdown.h:
# each share is its byte over the level-1 sum S, a derived level-2 node
# its parent minus the measured child): retiring 40 -> 102, bad
# speculation 10 -> 25.5 -> 26, frontend 20 -> 51, backend 30 -> 76.5 ->
# 77, S = 256; heavy operations 10 -> 26 (light 102 - 26 = 76), branch
# mispredicts 6 -> 15.3 -> 15 (machine clears 26 - 15 = 11), fetch latency
# 12 -> 30.6 -> 31 (bandwidth 51 - 31 = 20), memory bound 18 -> 45.9 -> 46
# (core 77 - 46 = 31), each over 256.  perf's side with `fault perf_offset
# tma_backend_bound 5` reads backend 89.75/256 (t/0455).
. "$T_SRC/tap.sh"
pyq_start

[ "${T_HAVE_CAIRO:-}" = yes ] || skip_all "built without cairo (t/0923 checks what --plot says then)"
. "$T_SRC/sim-fixture.sh"

printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
printf 'heavy_operations 10\nbranch_mispredicts 6\nfetch_latency 12\nmemory_bound 18\n' >>"$tmp/p"
cp "$tmp/p" "$tmp/off"
printf 'fault perf_offset tma_backend_bound 5\n' >>"$tmp/off"

# plot CMD FILE PROFILE ARGS...: CMD --plot FILE on the simulated SPR
plot() {
	_c=$1 _f=$2 _p=$3
	shift 3
	st=0
	BARETMA_CPUID_DUMP=$SPR BARETMA_MSR=sim:$_p BARETMA_PERF=sim:$_p "$BARETMA" "$_c" \
		--plot "$_f" "$@" >"$tmp/out" 2>"$tmp/err" || st=$?
}

# doc/plots.md's colours: "node #RRGGBB" a line
sed -n 's/^| `\([a-z_]*\)` | [^|]* | #\([0-9A-F]*\) |.*/\1 \2/p' "$T_SRC/../doc/plots.md" >"$tmp/colours"
is "$(wc -l <"$tmp/colours" | tr -d ' ')" 14 "doc/plots.md lists 14 colours"

# svg FILE EXPR: a Python expression over the SVG's filled rectangles r
# (list of (node, opacity, x0, y0, x1, y1); node by doc/plots.md's colour,
# else "#rrggbb"), its width and height w, h, and the tree's root
svg() {
	pyq - "$1" "$tmp/colours" "$2" <<'EOP'
import re, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
col = dict((l.split()[1].lower(), l.split()[0]) for l in open(sys.argv[2]))
w, h = float(root.get("width").rstrip("px")), float(root.get("height").rstrip("px"))
r, fills, tfills = [], set(), set()
for p in root.iter():   # fills: of paths, and of the groups of glyphs (text: tfills)
    st = p.get("style") or ""
    m = re.search(r"fill:rgb\(([\d.]+)%,([\d.]+)%,([\d.]+)%\)", st)
    if not m:
        continue
    hx = "%02x%02x%02x" % tuple(int(round(float(v) * 2.55)) for v in m.groups())
    fills.add(hx)
    if p.tag == "{http://www.w3.org/2000/svg}g":
        tfills.add(hx)
    if p.tag != "{http://www.w3.org/2000/svg}path":
        continue
    op = float((re.search(r"fill-opacity:([\d.]+)", st) or [0, 1])[1])
    n = [float(v) for v in re.findall(r"-?[\d.]+", p.get("d") or "")]
    if re.fullmatch(r"\s*M [-\d. ]+L [-\d. ]+L [-\d. ]+L [-\d. ]+Z M [-\d. ]+", p.get("d") or "") \
       and len(n) == 10 and n[1] == n[3] and n[2] == n[4] and n[5] == n[7] and n[0] == n[6]:
        r.append((col.get(hx, "#" + hx), op, min(n[0], n[2]), min(n[1], n[5]), max(n[0], n[2]), max(n[1], n[5])))
def bar(x0, nodes):
    """the rectangles of @nodes whose left edge is @x0, by node"""
    return dict((q[0], q) for q in r if q[2] == x0 and q[0] in nodes)
def hgt(q):
    return q[5] - q[3]
print(eval(sys.argv[3]))
EOP
}

L1="('tma_retiring', 'tma_bad_speculation', 'tma_frontend_bound', 'tma_backend_bound')"
L2="('tma_heavy_operations', 'tma_light_operations', 'tma_branch_mispredicts', 'tma_machine_clears', 'tma_fetch_latency', 'tma_fetch_bandwidth', 'tma_memory_bound', 'tma_core_bound')"

# --- bench, SVG ---------------------------------------------------------------
plot bench "$tmp/b.svg" "$tmp/p" --backend msr --reps 9 --kernel retire-light,dep-chain
is "$st" 0 "bench --plot b.svg: exit 0"
grep -q "^retire-light" "$tmp/out"
ok $? "the table is still written on stdout"
is "$(svg "$tmp/b.svg" '(root.tag, w, h)')" "('{http://www.w3.org/2000/svg}svg', 1000.0, 600.0)" \
	"the SVG parses as XML: an svg root, 1000 x 600"
is "$(svg "$tmp/b.svg" "sorted(set(q[0] for q in r if q[0].startswith('tma_')))")" \
	"$(pyq "print(sorted($L1 + $L2))")" "every node of level 1 and 2 is filled in its documented colour"
# the first level-1 bar: its left edge is the leftmost retiring rectangle's
# (the bars come before the legend); its four segments' heights over their
# sum are the shares worked above
is "$(svg "$tmp/b.svg" "(lambda b: [round(hgt(b[n]) / sum(hgt(q) for q in b.values()) * 256, 2) for n in $L1])(bar(min(q[2] for q in r if q[0] == 'tma_retiring'), $L1))")" \
	"[102.0, 26.0, 51.0, 77.0]" "level 1: the segments' heights are 102, 26, 51 and 77 of 256"
# level 2: the bar right of it; heights over the level-1 bar's total
is "$(svg "$tmp/b.svg" "(lambda x1, tot: (lambda b: [round(hgt(b[n]) / tot * 256, 2) for n in $L2])(bar(min(q[2] for q in r if q[0] == 'tma_heavy_operations' and q[2] > x1), $L2)))(*(lambda b: (max(q[4] for q in b.values()), sum(hgt(q) for q in b.values())))(bar(min(q[2] for q in r if q[0] == 'tma_retiring'), $L1)))")" \
	"[26.0, 76.0, 15.0, 11.0, 31.0, 20.0, 46.0, 31.0]" \
	"level 2: 26, 76, 15, 11, 31, 20, 46 and 31 of 256, beside level 1"
is "$(svg "$tmp/b.svg" "(lambda a, b: (a['tma_memory_bound'][5], round(a['tma_memory_bound'][5] - b['tma_frontend_bound'][3], 6)))(bar(min(q[2] for q in r if q[0] == 'tma_memory_bound'), $L2), bar(min(q[2] for q in r if q[0] == 'tma_retiring'), $L1))" | sed 's/^([0-9.]*, //')" \
	"0.0)" "memory bound stands on its parent's base (the top of frontend bound)"

# --- bench, PNG ---------------------------------------------------------------
plot bench "$tmp/b.png" "$tmp/p" --backend msr --reps 9 --kernel retire-light --level 1
is "$st" 0 "bench --plot b.png: exit 0"
png() {
	pyq - "$1" "$tmp/colours" "$2" <<'EOP'
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
col = dict((l.split()[1].lower(), l.split()[0]) for l in open(sys.argv[2]))
sig = d[:8] == b"\x89PNG\r\n\x1a\n"
w, h, depth, ctype = struct.unpack(">IIBB", d[16:26]) if d[12:16] == b"IHDR" else (0, 0, 0, 0)
idat, i = b"", 8
while i < len(d):
    n, t = struct.unpack(">I4s", d[i:i + 8])
    if t == b"IDAT":
        idat += d[i + 8:i + 8 + n]
    i += 12 + n
raw = zlib.decompress(idat)
bpp = {2: 3, 6: 4}.get(ctype, 0)
rows, prev, o = [], bytearray(w * bpp), 0
for y in range(h):       # PNG spec 1.2, 6.3: filter types 0-4
    f, line = raw[o], bytearray(raw[o + 1:o + 1 + w * bpp])
    o += 1 + w * bpp
    for x in range(len(line)):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        p = a + b - c
        pr = a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c
        line[x] = (line[x] + [0, a, b, (a + b) // 2, pr][f]) & 255
    rows.append(line)
    prev = line
def px(x, y):
    return col.get("%02x%02x%02x" % tuple(rows[y][x * bpp:x * bpp + 3]), "")
print(eval(sys.argv[3]))
EOP
}
is "$(png "$tmp/b.png" '(sig, w >= 600 and h >= 400, w, h, depth, ctype, len(raw) == h * (1 + w * bpp))')" \
	"(True, True, 1000, 600, 8, 2, True)" \
	"the PNG: its signature, IHDR 1000 x 600 RGB 8-bit, every row inflated"
# the column 3 pixels inside the left edge of the first retiring run of the
# row 5 pixels above the foot of the bars (clear of the centred labels and
# whiskers): the run lengths of the four colours, over their sum, x 256
is "$(png "$tmp/b.png" "(lambda y0: (lambda x: (lambda n: [round(n[k] / sum(n.values()) * 256) for k in $L1])(dict((k, sum(px(x, y) == k for y in range(h))) for k in $L1)))(min(x for x in range(w) if px(x, y0) == 'tma_retiring') + 3))(max(y for y in range(h) if any(px(x, y) == 'tma_retiring' for x in range(0, w // 2, 4))) - 5)")" \
	"[102, 26, 51, 77]" "the PNG's pixels: a bar's colours in the proportions 102, 26, 51, 77 of 256"

# --- bench, PDF ---------------------------------------------------------------
plot bench "$tmp/b.pdf" "$tmp/p" --backend msr --reps 9 --kernel retire-light
is "$st" 0 "bench --plot b.pdf: exit 0"
is "$(head -c 5 "$tmp/b.pdf")" "%PDF-" "the PDF starts with %PDF-"
is "$(tail -c 7 "$tmp/b.pdf" | tr -d '\n')" "%%EOF" "the PDF ends with %%EOF"
is "$(ls "$tmp" | grep -c '\.\(svg\|png\|pdf\)\.')" 0 "no temporary file left beside the pictures"

# --- compare ------------------------------------------------------------------
plot compare "$tmp/c.svg" "$tmp/off" --pairs 10 --reps 9 --kernel retire-light --level 1
is "$st" 1 "compare --plot c.svg with perf's backend off by 5: exit 1 (DISAGREE)"
# retire-light's backend row (the last kernel: lowest on the page): side A
# solid (opacity 1), side B pale; their widths' ratio is the values' (perf's
# within its counts' floors, 0.006 points: 0.0154 of 256, t/0455)
is "$(svg "$tmp/c.svg" "(lambda a, b: abs((b[4] - b[2]) / (a[4] - a[2]) * 77 - 89.75) < 0.0154)(*[max((q for q in r if q[0] == 'tma_backend_bound' and q[1] == op and q[4] - q[2] > 20), key=lambda q: q[3]) for op in (1, 0.4)])")" \
	"True" "compare: perf's backend bar is 89.75/77 of baretma's (the values' ratio)"
# a DISAGREE's words in bold vermillion, Okabe and Ito's red (213, 94, 0)
red=$(svg "$tmp/c.svg" "'d55e00' in tfills")
is "$red" True "compare: a DISAGREE written in vermillion"
plot compare "$tmp/c2.png" "$tmp/p" --pairs 10 --reps 9 --kernel retire-light --level 1
is "$st" 0 "compare --plot c2.png, a clean profile: exit 0"
plot compare "$tmp/c2.svg" "$tmp/p" --pairs 10 --reps 9 --kernel retire-light --level 1
is "$(svg "$tmp/c2.svg" "'d55e00' in tfills")" False "compare: no vermillion words where every metric agrees"
done_testing
