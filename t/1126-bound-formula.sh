#!/bin/sh
# t/1126-bound-formula.sh - the `bound:` line gives users the bound's
# formula, not our file names (issue 29, newcomer list: it said
# "(msr/topdown.h td_value_bound)").  The formula is the SDM's and
# linux topdown.txt's: each PERF_METRICS field is a fraction of
# TOPDOWN.SLOTS in 1/255 (SDM Vol. 3B 21.3.9.3), and a share normalised by
# the four level-1 fields' sum S is within (1 + |S - 255|) / 255 of the
# true fraction (one 1/255 step of rounding plus the sum's own departure
# from 255).  Printed by bench (Ice Lake: PERF_METRICS with events) and
# stat (Sapphire Rapids: PERF_METRICS alone), text and JSON, on the
# simulated PMU.
. "$T_SRC/tap.sh"
. "$T_SRC/sim-fixture.sh"

F='within (1 + |S - 255|) / 255 of the true fraction'
S="S the four level-1 fields' sum"
printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"

has() { case $1 in *"$2"*) echo 0 ;; *) echo 1 ;; esac; }

out=$(BARETMA_MSR=sim:$tmp/p "$BARETMA" bench --cpuid-dump "$ICL" --reps 20 --warmup 2 2>&1); rc=$?
is "$rc" 0 "bench on the simulated Ice Lake exits 0"
line=$(printf '%s\n' "$out" | grep '^bound:')
ok "$(has "$line" "$F")" "bench: the bound: line gives the formula"
ok "$(has "$line" "$S")" "bench: ... and what S is"
ok "$(has "$line" "fraction of TOPDOWN.SLOTS in 1/255")" "bench: ... and what a field is"
unlike "$line" '[a-z_]+/[a-z_]+\.[ch]\b|td_value_bound' "bench: ... and names no file or function of ours"

out=$(BARETMA_MSR=sim:$tmp/p "$BARETMA" stat --cpuid-dump "$SPR" -C 0-1 -- true 2>&1); rc=$?
is "$rc" 0 "stat on the simulated Sapphire Rapids exits 0"
line=$(printf '%s\n' "$out" | grep '^ *bound:')
ok "$(has "$line" "$F")" "stat: the bound: line gives the formula"
ok "$(has "$line" "$S")" "stat: ... and what S is"
unlike "$line" '[a-z_]+/[a-z_]+\.[ch]\b|td_value_bound' "stat: ... and names no file or function of ours"

BARETMA_MSR=sim:$tmp/p "$BARETMA" stat --cpuid-dump "$SPR" -C 0-1 --json -- true >"$tmp/out" 2>/dev/null
bt=$(q 'd["samples"][0]["bound_text"]')
ok "$(has "$bt" "$F")" "stat --json: the sample's bound_text gives the formula"
ok "$(has "$bt" "$S")" "stat --json: ... and what S is"
done_testing
