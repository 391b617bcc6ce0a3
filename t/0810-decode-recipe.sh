#!/bin/sh
# t/0810-decode-recipe - "baretma decode --recipe NAME --counts ..." on
# vectors worked by hand from the formulas the recipes cite (the same
# arithmetic as t/0802), the list, the JSON keys documented in the
# README, and every bad input with its exit status (sysexits.h: 64
# EX_USAGE, 65 EX_DATAERR) and a message naming the input.
. "$T_SRC/tap.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the JSON"
jget() { python3 -S -c 'import json,sys; d=json.load(sys.stdin); v=d[sys.argv[1]]; print("null" if v is None else "%.4f" % v)' "$1"; }

# Skylake, SMT off: SLOTS = 4 x 1000; tma_retiring 2000/4000 = 50 %,
# tma_bad_speculation (2400 - 2000 + 4 x 50)/4000 = 15 %,
# tma_backend_bound 1 - 0.20 - (2400 + 200)/4000 = 15 %
SKL=CPU_CLK_UNHALTED.THREAD=1000,IDQ_UOPS_NOT_DELIVERED.CORE=800,UOPS_ISSUED.ANY=2400,UOPS_RETIRED.RETIRE_SLOTS=2000,INT_MISC.RECOVERY_CYCLES=50
out=$("$BARETMA" decode --recipe intel-pre-icl-l1:skylake --counts "$SKL" --json); rc=$?
is "$rc" 0 "decode --recipe --json exits 0"
is "$(printf '%s' "$out" | jget tma_retiring)" "50.0000" "Skylake tma_retiring 2000/4000 = 50 %"
is "$(printf '%s' "$out" | jget tma_bad_speculation)" "15.0000" "tma_bad_speculation (2400-2000+4*50)/4000 = 15 %"
is "$(printf '%s' "$out" | jget tma_backend_bound)" "15.0000" "tma_backend_bound 1-0.2-2600/4000 = 15 %"
is "$(printf '%s' "$out" | jget slots)" "4000.0000" "slots 4 x 1000"
is "$(printf '%s' "$out" | jget level)" "1.0000" "level 1: the level-2 counts are missing"
is "$(printf '%s' "$out" | python3 -S -c 'import json,sys; print(sorted(k for k in json.load(sys.stdin) if k.startswith("tma_")))')" \
	"['tma_backend_bound', 'tma_bad_speculation', 'tma_frontend_bound', 'tma_retiring']" \
	"level 1: the four level-1 nodes"

# SMT on: SLOTS = 4 x THREAD_ANY/2 = 4 x 1500 = 6000, Recovery = 150/2 = 75:
# tma_bad_speculation (3300 - 3000 + 300)/6000 = 10 %, tma_backend_bound 1 - 0.15 - 3600/6000 = 25 %
SMT=CPU_CLK_UNHALTED.THREAD_ANY=3000,IDQ_UOPS_NOT_DELIVERED.CORE=900,UOPS_ISSUED.ANY=3300,UOPS_RETIRED.RETIRE_SLOTS=3000,INT_MISC.RECOVERY_CYCLES_ANY=150
out=$("$BARETMA" decode --recipe intel-pre-icl-l1 --smt --counts "$SMT" --json); rc=$?
is "$rc" 0 "--smt exits 0"
is "$(printf '%s' "$out" | jget slots)" "6000.0000" "SMT: slots 4 x 3000/2"
is "$(printf '%s' "$out" | jget tma_bad_speculation)" "10.0000" "SMT: tma_bad_speculation (3300-3000+4*150/2)/6000"
is "$(printf '%s' "$out" | jget tma_backend_bound)" "25.0000" "SMT: tma_backend_bound 1-0.15-3600/6000"
out=$("$BARETMA" decode --recipe intel-pre-icl-l1 --smt --counts "$SMT")
like "$out" "SMT on: AnyThread counts halved" "text says the SMT halving"

# Zen 4 in two --counts (lower case is the table's own): level 2 chosen
# by itself (every count it needs given); frontend_bound_latency
# 6 x 120/6000 = 12 %, bad_speculation_mispredicts 0.05 x 45/60 = 3.75 %,
# smt_contention 180/6000 = 3 %
Z4A=ls_not_halted_cyc=1000,de_no_dispatch_per_slot.no_ops_from_frontend=1200,de_src_op_disp.all=3300,ex_ret_ops=3000,de_no_dispatch_per_slot.backend_stalls=1320,de_no_dispatch_per_slot.smt_contention=180
Z4B=de_no_dispatch_per_slot.no_ops_from_frontend:c6=120,ex_ret_brn_misp=45,resyncs_or_nc_redirects=15,ex_no_retire.load_not_complete=300,ex_no_retire.not_complete=400,ex_ret_ucode_ops=300
out=$("$BARETMA" decode --recipe amd-zen4 --counts "$Z4A" --counts "$Z4B" --json); rc=$?
is "$rc" 0 "Zen 4 exits 0"
is "$(printf '%s' "$out" | jget level)" "2.0000" "level 2 when every level-2 count is given"
is "$(printf '%s' "$out" | jget tma_fetch_latency)" "12.0000" "Zen 4 tma_fetch_latency 6*120/6000"
is "$(printf '%s' "$out" | jget tma_branch_mispredicts)" "3.7500" "Zen 4 tma_branch_mispredicts 0.05*45/60"
is "$(printf '%s' "$out" | jget smt_contention)" "3.0000" "Zen 4 smt_contention 180/6000"
printf '%s' "$out" >"$tmp/zen4.json"
out=$("$BARETMA" decode --recipe amd-zen4 --counts "$Z4A" --counts "$Z4B")
like "$out" "^  tma_memory_bound +16\.50 %" "text: level 2 under its parent (0.22 x 300/400)"

# Zen 5, level 1: 8 x 1000 slots; retiring 4000/8000 = 50 %, backend 1600/8000 = 20 %
Z5=ls_not_halted_cyc=1000,de_no_dispatch_per_slot.no_ops_from_frontend=1600,de_src_op_disp.all=4400,ex_ret_ops=4000,de_no_dispatch_per_slot.backend_stalls=1600,de_no_dispatch_per_slot.smt_contention=400
out=$("$BARETMA" decode --recipe amd-zen5 --counts "$Z5" --json); rc=$?
is "$rc" 0 "Zen 5 exits 0"
is "$(printf '%s' "$out" | jget tma_retiring)" "50.0000" "Zen 5 tma_retiring 4000/8000"
is "$(printf '%s' "$out" | jget tma_backend_bound)" "20.0000" "Zen 5 tma_backend_bound 1600/8000"
printf '%s' "$out" >"$tmp/zen5.json"

# Haswell, SMT off, level 2 (hsw-metrics.json; t/0802 vector A): SLOTS 4000,
# FE 800/4000 = 20 %, Bad (1800-1600+4*50)/4000 = 10 %, Ret 40 %, BE 30 %;
# fetch latency 4*min(1000,120)/4000 = 12 % > 10 %: RS_EVENTS.EMPTY_CYCLES
# subtracted; IPC 2000/1000 = 2 > 1.8: the 3-uop threshold; memory bound
# (135 + 45) / (min(1000,200) + 700 - 550 - 35 + 45) x 30 % = 180/360 x 30 % = 15 %
HSW=CPU_CLK_UNHALTED.THREAD=1000,IDQ_UOPS_NOT_DELIVERED.CORE=800,UOPS_ISSUED.ANY=1800,UOPS_RETIRED.RETIRE_SLOTS=1600,INT_MISC.RECOVERY_CYCLES=50
HSW2=IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE=120,BR_MISP_RETIRED.ALL_BRANCHES=1,MACHINE_CLEARS.COUNT=1,IDQ.MS_UOPS=0,INST_RETIRED.ANY=2000,CYCLE_ACTIVITY.STALLS_LDM_PENDING=135,RESOURCE_STALLS.SB=45,CYCLE_ACTIVITY.CYCLES_NO_EXECUTE=200,UOPS_EXECUTED.CORE_CYCLES_GE_1=700,UOPS_EXECUTED.CORE_CYCLES_GE_2=600,UOPS_EXECUTED.CORE_CYCLES_GE_3=550,RS_EVENTS.EMPTY_CYCLES=35
out=$("$BARETMA" decode --recipe intel-pre-icl-l1:haswell --counts "$HSW" --counts "$HSW2" --json); rc=$?
is "$rc" 0 "Haswell level 2 exits 0"
is "$(printf '%s' "$out" | jget level)" "2.0000" "Haswell: level 2 (every count given)"
is "$(printf '%s' "$out" | jget tma_memory_bound)" "15.0000" "Haswell tma_memory_bound 180/360 x 30 %"
is "$(printf '%s' "$out" | jget tma_core_bound)" "15.0000" "Haswell tma_core_bound 30 - 15 %"
# IPC 1500/1000 = 1.5: the 2-uop threshold: 180 / (200 + 700 - 600 - 35 + 45) x 30 % = 180/310 x 30 %
out=$("$BARETMA" decode --recipe intel-pre-icl-l1:haswell --counts "$HSW" \
	--counts "$(printf '%s' "$HSW2" | sed 's/INST_RETIRED.ANY=2000/INST_RETIRED.ANY=1500/')" --json)
is "$(printf '%s' "$out" | jget tma_memory_bound)" "17.4194" "Haswell, IPC 1.5: 180/310 x 30 % = 17.42 %"

# Tremont (Atom_TMA.csv TNT, width 4): SLOTS 4 x 1000; FE 1000/4000 = 25 %,
# Bad 400/4000 = 10 %, BE 1200/4000 = 30 %, Ret 1400/4000 = 35 %
TNT=CPU_CLK_UNHALTED.CORE=1000,TOPDOWN_FE_BOUND.ALL=1000,TOPDOWN_BAD_SPECULATION.ALL=400,TOPDOWN_BE_BOUND.ALL=1200,TOPDOWN_RETIRING.ALL=1400
out=$("$BARETMA" decode --recipe intel-ecore-l1:Tremont --counts "$TNT" --json); rc=$?
is "$rc" 0 "Tremont exits 0"
is "$(printf '%s' "$out" | jget slots)" "4000.0000" "Tremont slots 4 x 1000"
is "$(printf '%s' "$out" | jget tma_bad_speculation)" "10.0000" "Tremont tma_bad_speculation 400/4000"

# A level-2 split with nothing to split: NAN as null, said once.  The
# memory-bound events (perf's skl-metrics.json tma_memory_bound):
# (STALLS_MEM_ANY 200 + BOUND_ON_STORES 100) / (STALLS_TOTAL 400 +
# 1_PORTS_UTIL 150 + tma_retiring 0.5 x 2_PORTS_UTIL 200 + BOUND_ON_STORES
# 100) = 300/750 = 0.4 of backend 15 % = 6 %; tma_core_bound 15 - 6 = 9 %
out=$("$BARETMA" decode --recipe intel-pre-icl-l1 --level 2 --counts "$SKL" \
	--counts IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE=120,BR_MISP_RETIRED.ALL_BRANCHES=0,MACHINE_CLEARS.COUNT=0,UOPS_RETIRED.MACRO_FUSED=100,INST_RETIRED.ANY=1800 \
	--counts CYCLE_ACTIVITY.STALLS_MEM_ANY=200,EXE_ACTIVITY.BOUND_ON_STORES=100,CYCLE_ACTIVITY.STALLS_TOTAL=400,EXE_ACTIVITY.1_PORTS_UTIL=150,EXE_ACTIVITY.2_PORTS_UTIL=200 \
	--json); rc=$?
is "$rc" 0 "no mispredicts, no clears: exits 0"
is "$(printf '%s' "$out" | jget tma_branch_mispredicts)" "null" "tma_branch_mispredicts 0/0: null"
is "$(printf '%s' "$out" | jget tma_fetch_latency)" "12.0000" "the other level-2 nodes: 4*120/4000"
is "$(printf '%s' "$out" | jget tma_memory_bound)" "6.0000" "Skylake tma_memory_bound 300/750 x 15"
is "$(printf '%s' "$out" | jget tma_core_bound)" "9.0000" "Skylake tma_core_bound 15 - 6"
printf '%s' "$out" >"$tmp/undef.json"

"$BARETMA" decode --recipes --json >"$tmp/list.json"; rc=$?
is "$rc" 0 "--recipes --json exits 0"
out=$(python3 -S "$T_SRC/json-undocumented.py" "$T_SRC/../doc/json.md" "$tmp/zen4.json" "$tmp/zen5.json" \
	"$tmp/undef.json" "$tmp/list.json"); rc=$?
is "$rc" 0 "the four documents are JSON"
is "$out" "" "decode --recipe, --recipes: every JSON key in doc/json.md"
out=$("$BARETMA" decode --recipe list); rc=$?
is "$rc" 0 "--recipe list exits 0"
for r in intel-perf-metrics intel-pre-icl-l1 intel-icl-events intel-ecore-l1 amd-zen4 amd-zen5; do
	like "$out" "^$r:" "the list names $r"
done

# bad inputs: exit status and a message naming the input
bad() { # WANT REGEX NAME ARGS...
	want=$1 re=$2 name=$3
	shift 3
	out=$("$BARETMA" decode "$@" 2>&1 >/dev/null); rc=$?
	is "$rc" "$want" "$name: exit $want"
	like "$out" "$re" "$name: says so"
	is "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 1 "$name: one line"
}
bad 64 "^baretma: bad --recipe 'nosuch': no such recipe \(list them: baretma decode --recipes\)" \
	"unknown recipe" --recipe nosuch --counts a=1
bad 64 "^baretma: bad --recipe 'intel-pre-icl-l1:cascade': intel-pre-icl-l1 has no variant 'cascade' \(its variants: skylake, " \
	"unknown variant" --recipe intel-pre-icl-l1:cascade --counts a=1
bad 64 "^baretma: bad --counts 'FOO=1': 'FOO' is no event of intel-pre-icl-l1:skylake" \
	"unknown event" --recipe intel-pre-icl-l1 --counts FOO=1
bad 65 "^baretma: bad --counts 'UOPS_ISSUED.ANY=12x': the count of UOPS_ISSUED.ANY, '12x', is no whole number" \
	"bad number" --recipe intel-pre-icl-l1 --counts UOPS_ISSUED.ANY=12x
bad 65 "is no whole number" "negative count" --recipe intel-pre-icl-l1 --counts UOPS_ISSUED.ANY=-1
bad 64 "^baretma: bad --counts 'UOPS_ISSUED.ANY': expected EVENT=N pairs" \
	"no =N" --recipe intel-pre-icl-l1 --counts UOPS_ISSUED.ANY
bad 64 "expected EVENT=N pairs" "empty pair" --recipe intel-pre-icl-l1 --counts UOPS_ISSUED.ANY=1,
bad 64 "UOPS_ISSUED.ANY given twice" "twice" --recipe intel-pre-icl-l1 --counts UOPS_ISSUED.ANY=1,uops_issued.any=2
bad 64 "^baretma: missing count for 'INT_MISC.RECOVERY_CYCLES': intel-pre-icl-l1:skylake needs it for Recovery_Cycles \(add --counts INT_MISC.RECOVERY_CYCLES=N\)" \
	"missing count" --recipe intel-pre-icl-l1 --counts CPU_CLK_UNHALTED.THREAD=1000,IDQ_UOPS_NOT_DELIVERED.CORE=800,UOPS_ISSUED.ANY=2400,UOPS_RETIRED.RETIRE_SLOTS=2000
bad 64 "missing count for 'CPU_CLK_UNHALTED.THREAD_ANY'.*with --smt the recipe takes the AnyThread counts" \
	"SMT without its count" --recipe intel-pre-icl-l1 --smt --counts "$SKL"
bad 64 "missing count for 'IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE'.* tma_fetch_latency" \
	"--level 2 without its counts" --recipe intel-pre-icl-l1 --level 2 --counts "$SKL"
bad 65 "^baretma: cannot decode recipe 'intel-pre-icl-l1:skylake': zero slots" \
	"zero slots" --recipe intel-pre-icl-l1 --counts CPU_CLK_UNHALTED.THREAD=0,IDQ_UOPS_NOT_DELIVERED.CORE=0,UOPS_ISSUED.ANY=0,UOPS_RETIRED.RETIRE_SLOTS=0,INT_MISC.RECOVERY_CYCLES=0
bad 64 "--recipe intel-pre-icl-l1 needs --counts" "no counts" --recipe intel-pre-icl-l1
bad 64 "--counts goes with --recipe NAME" "counts without a recipe" --counts a=1
bad 64 "--recipe and a METRICS value, --from/--to or --slots exclude each other" \
	"a recipe and a value" 0x1234 --recipe amd-zen4 --counts a=1
done_testing
