#!/bin/sh
# t/1213-report-scale-fleet.sh - the fleet `make benchmark`'s report_scale
# times is the fleet its header says (bench/benchmarks/report_scale.c),
# never a time: over 20 hosts of two real bundles (the simulated Ice Lake
# and Sapphire Rapids, 10 hosts a group: host k in group k mod 2), host 7
# (k mod 89 = 7) FAILs a check, host 5 (k mod 97 = 5) is an outlier of
# its calibration's bracket figures (times 3), above its group's median,
# and hosts 6 and 7 (k / 2 mod 7 = 3: one in each group) another
# microcode.  Counted by hand from those rules: 20 hosts, 2 groups, 1
# failing check; the report, read here from the document the benchmark
# kept, names node00007's FAIL, node00005 above the median in group 1, and
# microcode differing in both groups.  Control: the benchmark's own check
# (it dies when the report finds less than the fleet it made) fires when
# a host's directory is taken away before each report.
. "$T_SRC/tap.sh"
. "$T_SRC/sim-fixture.sh"

[ -x "$BARETMA_REPORT_SCALE" ] || skip_all "no $BARETMA_REPORT_SCALE (make check builds it)"
"$BARETMA_REPORT_SCALE" --runs 1 --baretma "$BARETMA" \
	--profile "$T_SRC/../examples/profiles/sapphirerapids-steady.profile" --hosts 20 \
	--dump "$ICL" --dump "$SPR" --dir "$tmp/rs" --keep >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc" 0 "report_scale --hosts 20 over two dumps: exit 0"
like "$(cat "$tmp/out")" "found: 20 hosts, 2 groups, 1 failing checks, [1-9][0-9]* outlier figures \\(of 1 outlier hosts\\)" \
	"it says what the report found: the fleet as counted by hand"
like "$(cat "$tmp/out")" "load average at start .*
.*load average at end: " "the load average at start and at end, with the numbers"
is "$(pyq 'import json, sys
d = json.load(open(sys.argv[1]))
out = []
for g in d["groups"]:
    out.append("group %s: %d hosts" % (g["cpu"]["model"], len(g["hosts"])))
    for c in g["checks"]:
        for f in c["failing"]:
            out.append("  FAIL %s %s" % (f["host"], c["check"]))
    hosts = sorted({(v["host"], v["outlier"]) for f in g["figures"] for v in f["values"] if v["outlier"]})
    out += ["  outlier %s %s" % h for h in hosts]
    out += ["  differs %s" % s["setting"] for s in g["settings"] if s["differs"]]
print("\n".join(out))' "$tmp/rs/report-20.json")" "group 126: 10 hosts
  differs microcode
group 143: 10 hosts
  FAIL node00007 cpu_model
  outlier node00005 above
  differs microcode" \
	"the report: 10 hosts a group; node00007 FAILs; node00005 the one outlier, above; microcode differs in both"
is "$(ls "$tmp/rs/hosts-20" | wc -l | tr -d ' ')" 20 "20 host directories"
is "$(cd "$tmp/rs/hosts-20" && ls */bundle.json | wc -l | tr -d ' ')" 20 "each with its bundle"
# control: a "baretma" that removes node00003 before each report
cat >"$tmp/lossy" <<EOF2
#!/bin/sh
[ "\$1" = report ] && rm -rf "\$2/node00003"
exec "$BARETMA" "\$@"
EOF2
chmod +x "$tmp/lossy"
"$BARETMA_REPORT_SCALE" --runs 1 --baretma "$tmp/lossy" \
	--profile "$T_SRC/../examples/profiles/sapphirerapids-steady.profile" --hosts 20 \
	--dump "$ICL" --dump "$SPR" --dir "$tmp/rs2" >"$tmp/out2" 2>"$tmp/err2"; rc=$?
is "$rc" 1 "control: a report that reads 19 of the 20 hosts fails the benchmark (exit 1)"
like "$(cat "$tmp/err2")" "the report found 19 hosts in 2 groups, 1 failing checks, [0-9]+ outliers; the fleet has 20, 2, 1, at least 1" \
	"and says what it found against what the fleet has"
done_testing
