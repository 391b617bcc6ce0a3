#!/bin/sh
# t/1087-stat-command-options.sh - stat's options end at COMMAND's name,
# as perf stat's do (perf-stat(1): "perf stat [-e <EVENT> | --event=EVENT]
# [-a] <command>", its options parsed up to the first non-option): what
# follows is COMMAND's own, even words that are stat's options too (-j,
# -x, -o); the options before it are stat's.  stat's table says so once
# (bench/cli/cmd_stat.c, in_order); getopt_long then stops at COMMAND.
. "$T_SRC/tap.sh"
pyq_start

. "$T_SRC/sim-fixture.sh"
BARETMA_MSR=sim:$T_SRC/../examples/profiles/icelake.profile
export BARETMA_MSR

cd "$tmp" || exit 1
"$BARETMA" stat --cpuid-dump "$ICL" -C 0 printf '%s|' -j -x , -o F >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc" 0 "stat -C 0 printf ... -j -x , -o F: exits 0 (printf's status)"
like "$(head -c 20 "$tmp/out")" '^-j\|-x\|,\|-o\|F\|' "COMMAND got -j -x , -o F as its own arguments"
like "$(cat "$tmp/out")" "Top-down .* of CPU 0 while printf" "stat's report is its text, not JSON nor CSV"
ok "$([ ! -e "$tmp/F" ]; echo $?)" "no file F: -o after COMMAND is COMMAND's"

"$BARETMA" stat --cpuid-dump "$ICL" -C 0 -j printf x >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc" 0 "stat -C 0 -j printf x: exits 0"
like "$(cat "$tmp/out")" '^x\{' "before COMMAND, -j is stat's: COMMAND's x, then the JSON document"
pyq 'import json,sys; d=json.loads(open(sys.argv[1]).read()[1:]); print(d["schema"])' \
	"$tmp/out" >"$tmp/schema" 2>&1
is "$(cat "$tmp/schema")" "baretma-stat/1" "... of schema baretma-stat/1"
done_testing
