#!/bin/sh
# t/1060-info-levels.sh - `baretma info` says two Top-down levels, each named
# for what it is: the level baretma measures ("top-down:", JSON
# "topdown_measured_level") and what IA32_PERF_METRICS gives ("PERF_METRICS:",
# JSON "perf_metrics_level" with "perf_metrics_source"; "topdown_level" is
# the same number under its first name, kept for readers of baretma-bench/2),
# and the reason a dump's CPU is not measured here names the level's source.
# Known answers, each from outside the code:
#   - $SHARED_CPUID/INDEX.tsv expect_perf_metrics and expect_topdown_levels
#     (the Linux kernel's per-model PERF_METRICS setup; E-cores none): read
#     at run time for Skylake i7-6700K, Zen 4 EPYC 9124 (Genoa), Ice Lake
#     i7-1065G7, Sapphire Rapids w9-3475X, Alder Lake-P i7-12700H;
#   - the levels the vendors define from events where PERF_METRICS gives
#     none: Skylake level 2 (intel/perfmon TMA_Metrics-full.csv, perf's
#     skylake/skl-metrics.json TopdownL2 group), Zen 4 level 2 (perf's
#     amdzen4/pipeline.json PipelineL2 group), the Gracemont E-core level 1
#     at least (perfmon E-core_TMA_Metrics.csv);
#   - a CPU with PERF_METRICS measures at least what PERF_METRICS gives.
. "$T_SRC/tap.sh"
pyq_start

command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the JSON"
INDEX=$SHARED_CPUID/INDEX.tsv
[ -r "$INDEX" ] || skip_all "no $INDEX"
SKL=libcpuid/master-history/intel/x86-64/skylake/intel-core-i7-6700k-cpu.test
ZEN4=libcpuid/master-history/amd/zen4/epyc-genoa.test
ICL=libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
SPR=libcpuid/master-history/intel/x86-64/golden-cove/sapphire-rapids-ws-xeon-w9.test
ADL=libcpuid/v0.6.2/intel/core_12th_gen/alder-lake-p-i7.test
for d in $SKL $ZEN4 $ICL $SPR $ADL; do
	[ -r "$SHARED_CPUID/$d" ] || skip_all "no CPUID dump $SHARED_CPUID/$d"
done

# index FILE COLUMN: INDEX.tsv's known answer for the dump FILE
index() {
	pyq 'import csv, sys
rows = {r["file"]: r for r in csv.DictReader(open(sys.argv[1]), delimiter="\t")}
print(rows[sys.argv[2]][sys.argv[3]])' "$INDEX" "$1" "$2"
}
# q FILE EXPR [ARG]: a Python expression over the JSON document d of FILE (ARG: sys.argv[3])
q() { pyq 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }

# The known answers as the tables give them, before anything is run.
is "$(index $SKL expect_perf_metrics) $(index $SKL expect_topdown_levels)" "no 0" \
	"INDEX.tsv: Skylake has no PERF_METRICS"
is "$(index $ZEN4 expect_perf_metrics) $(index $ZEN4 expect_topdown_levels)" "no 0" \
	"INDEX.tsv: Zen 4 has no PERF_METRICS"

# --- dumps without PERF_METRICS: level 0 there, level 2 measured from events --
# nopm NAME DUMP RECIPE SOURCE: the two levels of a dump whose one kind has
# no PERF_METRICS (INDEX.tsv: level 0) and a level-2 event recipe
nopm() {
	_n=$1 _d=$SHARED_CPUID/$2 _r=$3 _s=$4
	_pm=$(index "$2" expect_topdown_levels)
	out=$("$BARETMA" info --cpuid-dump "$_d" 2>&1); rc=$?
	is "$rc" 0 "$_n: info exits 0"
	unlike "$out" "^kind: .*Top-down level" "$_n: the kind line names no level without its source"
	like "$out" "^  top-down: level 2 measured by baretma \\(rdpmc, msr\\) from events: recipe $_r, level 1 in [0-9]+ pass(es)?, level 2 in [0-9]+ pass(es)?" \
		"$_n: the level baretma measures, 2, from its recipe"
	like "$out" "^  PERF_METRICS: none \\($_s" "$_n: PERF_METRICS gives none, with its source"
	like "$out" "^topdown: .* has Top-down level 2 from events by baretma's recipe $_r, but the dump describes another machine" \
		"$_n: the reason names the level's source, the recipe"
	unlike "$out" "by its CPUID, but" "$_n: the reason does not give the recipe's level to CPUID"
	"$BARETMA" info --cpuid-dump "$_d" --json >"$tmp/$_n.json" 2>/dev/null
	is "$(q "$tmp/$_n.json" '[(k["perf_metrics_level"], k["topdown_level"], k["topdown_measured_level"]) for k in d["core_kinds"]]')" \
		"[($_pm, $_pm, 2)]" "$_n JSON: perf_metrics_level $_pm (INDEX.tsv), topdown_level the same, measured 2"
	is "$(q "$tmp/$_n.json" '[k["perf_metrics_source"].startswith(sys.argv[3]) for k in d["core_kinds"]]' "$_s")" \
		"[True]" "$_n JSON: perf_metrics_source says why none"
}
nopm Skylake $SKL intel-pre-icl-l1:skylake "CPUID's family/model in baretma's model table"
nopm "Zen 4" $ZEN4 amd-zen4:zen4 "not an Intel CPU"

# --- dumps with PERF_METRICS: its level, by CPUID's family/model --------------
# pm NAME DUMP FROM: a one-kind dump with PERF_METRICS at INDEX.tsv's level,
# its level measured from FROM (a pattern)
pm() {
	_n=$1 _d=$SHARED_CPUID/$2 _from=$3
	_pm=$(index "$2" expect_topdown_levels)
	out=$("$BARETMA" info --cpuid-dump "$_d" 2>&1)
	like "$out" "^  PERF_METRICS: level $_pm \\(CPUID's family/model in baretma's model table, after the kernel's per-model setup\\), RDPMC metrics-clear no" \
		"$_n: PERF_METRICS level $_pm (INDEX.tsv) by CPUID's family/model"
	like "$out" "^  top-down: level [12] measured by baretma \\(rdpmc, msr\\) from " "$_n: the level baretma measures"
	like "$out" "^topdown: .* has Top-down level $_pm from $_from, but the dump" \
		"$_n: the reason: the level from $_from"
	"$BARETMA" info --cpuid-dump "$_d" --json >"$tmp/$_n.json" 2>/dev/null
	is "$(q "$tmp/$_n.json" '[(k["perf_metrics_level"], k["topdown_level"], k["topdown_measured_level"] >= k["perf_metrics_level"]) for k in d["core_kinds"]]')" \
		"[($_pm, $_pm, True)]" "$_n JSON: perf_metrics_level $_pm (INDEX.tsv), topdown_level the same, measured at least that"
}
# Sunny Cove's recipe counts events beside PERF_METRICS (icelake_metrics.json)
pm "Ice Lake" $ICL "IA32_PERF_METRICS and events by baretma's recipe intel-perf-metrics:sunny-cove"
pm "Sapphire Rapids" $SPR "IA32_PERF_METRICS by its CPUID"

# --- Alder Lake-P: P-cores PERF_METRICS, E-cores events -----------------------
_pm=$(index $ADL expect_topdown_levels)
out=$("$BARETMA" info --cpuid-dump "$SHARED_CPUID/$ADL" 2>&1)
like "$out" "^  PERF_METRICS: none \\(an E-core kind by its CPUID.1AH core type" \
	"Alder Lake-P: the E-cores' PERF_METRICS: none, by core type"
like "$out" "^  top-down: level [12] measured by baretma \\(rdpmc, msr\\) from events: recipe intel-ecore-l1:gracemont" \
	"Alder Lake-P: the E-cores' level, measured from events"
"$BARETMA" info --cpuid-dump "$SHARED_CPUID/$ADL" --json >"$tmp/adl.json" 2>/dev/null
is "$(q "$tmp/adl.json" 'sorted((k["core_type"], k["perf_metrics_level"], k["topdown_level"], k["topdown_measured_level"] >= max(1, k["perf_metrics_level"])) for k in d["core_kinds"])')" \
	"[(32, 0, 0, True), (64, $_pm, $_pm, True)]" \
	"Alder Lake-P JSON: E-cores PERF_METRICS 0 and measured from events, P-cores $_pm (INDEX.tsv)"
# the text's measured levels are the JSON's, kind by kind (P-cores first:
# PERF_METRICS's level, INDEX.tsv; then the E-cores')
_t=$(printf '%s\n' "$out" | sed -n 's/^  top-down: level \([0-9]\) measured.*/\1/p' | tr '\n' ' ')
_j=$(q "$tmp/adl.json" '" ".join(str(k["topdown_measured_level"]) for k in d["core_kinds"]) + " "')
like "$_t=$_j" "^($_pm [12] )=\\1\$" "Alder Lake-P: text and JSON say the same measured levels"

# --- validate: the identity check names PERF_METRICS's level as such ----------
printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
BARETMA_MSR=sim:$tmp/p "$BARETMA" validate --cpuid-dump "$SHARED_CPUID/$ICL" --no-perf \
	--bundle "$tmp/bundle.json" >"$tmp/val.txt" 2>&1
like "$(cat "$tmp/val.txt")" "perf_capabilities_metrics.*bit 15 1 \\(Sunny Cove: PERF_METRICS level $(index $ICL expect_topdown_levels)\\)" \
	"validate: the expected bit 15 names PERF_METRICS's level"
is "$(q "$tmp/bundle.json" '[(k["perf_metrics_level"], k["topdown_measured_level"] >= 1) for k in d["info"]["core_kinds"]]')" \
	"[($(index $ICL expect_topdown_levels), True)]" "the bundle's info has both levels"
# an AMD CPU's identity check is SKIP, naming the vendor as the dump's CPUID
# leaf 0 gives it (AMD APM Vol. 3, CPUID Fn0000_0000: "AuthenticAMD"),
# never "a AuthenticAMD CPU"
"$BARETMA" validate --cpuid-dump "$SHARED_CPUID/$ZEN4" --no-perf --json >"$tmp/zen.json" 2>/dev/null
is "$(q "$tmp/zen.json" '[(c["status"], c["reason"]) for c in d["checks"] if c["check"] == "cpu_model"][0]')" \
	"('SKIP', \"the CPU's vendor is AuthenticAMD: IA32_PERF_METRICS and fixed counter 3 are Intel's\")" \
	"validate on Zen 4: cpu_model SKIP, its reason naming the vendor"
done_testing
