#!/bin/sh
# t/0952-quickstart.sh - the README's quick start works as written: its
# bench commands (the lines "BARETMA_MSR=sim:... ./baretma bench ...") are
# taken from README.md and run by the shell from a directory laid out as a
# built checkout (./baretma, examples/), as written: they set no state
# directory (a dry run needs none: its own, under $TMPDIR, t/1117); this
# test's environment gives it its own.  Each must exit 0 and print
# Top-down for the CPU of its dump, every kernel's level-1 (and level-2)
# medians within 3 points of what the shipped profile gives (the profiles'
# noise is 1.5 points at most; the expected values are read from the
# profile file, not from baretma).  The quick start is in the first screen
# (its command within the README's first 40 lines); the shipped dumps are
# the files examples/dumps/README names, with its checksums; every value of
# the shipped profiles carries a comment.
. "$T_SRC/tap.sh"

TOP=$T_SRC/..
readme=$TOP/README.md
[ -x "${BARETMA:-}" ] || skip_all "no baretma built"

n=$(grep -n '^BARETMA_MSR=sim:.* \./baretma bench ' "$readme" | head -1 | cut -d: -f1)
[ -n "$n" ] && [ "$n" -le 40 ]
ok $? "the quick start's command is in the README's first screen (line ${n:-none} <= 40)"
sed -n '/^## Quick start$/,/^## /p' "$readme" | grep '^BARETMA_MSR=sim:.* \./baretma bench ' >"$tmp/cmds"
is "$(wc -l <"$tmp/cmds" | tr -d ' ')" 3 "three quick-start bench commands: Sapphire Rapids, Ice Lake, an E-core"
BARETMA_STATE_DIR=$tmp/run; export BARETMA_STATE_DIR

# A built checkout: ./baretma and the shipped examples.
mkdir "$tmp/co" "$tmp/run"
ln -s "$BARETMA" "$tmp/co/baretma"
ln -s "$TOP/examples" "$tmp/co/examples"

# table_values FILE: "kernel node median" for every tma_* column of every
# table of bench's text output (header "kernel slots +/-pp tma_..."; each
# value followed by its "[q1,q3]").
table_values() {
	awk '$1 == "kernel" && $2 == "slots" { n = NF - 3; for (j = 1; j <= n; j++) h[j] = $(j + 3); t = 1; next }
		t && NF == 0 { t = 0; next }
		t { for (j = 1; j <= n; j++) print $1, h[j], $(2 + 2 * j) }' "$1"
}
# profile_value FILE KEY: the value of KEY in a profile (comments dropped).
profile_value() { sed 's/#.*//' "$1" | awk -v k="$2" '$1 == k { print $2 }'; }
# check OUT NODE WANT: every kernel but empty within 3 points of WANT.
check() {
	_bad=$(awk -v node="$2" -v want="$3" '$1 != "empty" && $2 == node {
		d = $3 - want; if (d < 0) d = -d; if (d > 3 || $3 == "") print $1 "=" $3 }' "$1.values")
	_seen=$(awk -v node="$2" '$2 == node' "$1.values" | wc -l | tr -d ' ')
	[ "$_seen" -ge "${min:-7}" ] && [ -z "$_bad" ]
	ok $? "$4: $2 = $3 +-3 in every kernel but empty ($_seen rows${_bad:+; off: $_bad})"
}

i=0
while IFS= read -r cmd; do
	i=$((i + 1))
	prof=$(printf '%s\n' "$cmd" | sed 's/.*BARETMA_MSR=sim:\([^ ]*\).*/\1/')
	(cd "$tmp/co" && sh -c "$cmd") >"$tmp/out$i" 2>"$tmp/err$i"; rc=$?
	is "$rc" 0 "quick start $i ($prof) exits 0"
	[ "$rc" -eq 0 ] || sed 's/^/#   /' "$tmp/err$i" | tail -5
	table_values "$tmp/out$i" >"$tmp/out$i.values"
	p=$TOP/$prof
	case $prof in
	*icelake*)
		min=7
		like "$(head -1 "$tmp/out$i")" "i7-1065G7" "Ice Lake: the dump's CPU (Core i7-1065G7)"
		like "$(cat "$tmp/out$i")" "top-down: level 1 from IA32_PERF_METRICS and events: recipe intel-perf-metrics:sunny-cove, 1 pass" \
			"Ice Lake: level 1 from PERF_METRICS and the events beside it, one pass"
		nodes="retiring bad_speculation frontend_bound backend_bound" ;;
	*sapphire*)
		like "$(head -1 "$tmp/out$i")" "w7-2475X" "Sapphire Rapids: the dump's CPU (Xeon w7-2475X)"
		like "$(cat "$tmp/out$i")" "top-down: level 2 from IA32_PERF_METRICS" "Sapphire Rapids: level 2 from PERF_METRICS"
		min=3	# --kernel dep-chain,ptr-chase: two kernels and empty
		nodes="retiring bad_speculation frontend_bound backend_bound heavy_operations branch_mispredicts fetch_latency memory_bound" ;;
	*ecore*)
		min=7
		like "$(head -1 "$tmp/out$i")" "i9-12900K \\(efficiency core\\)" "E-core: an efficiency core of the dump's Core i9-12900K"
		like "$(cat "$tmp/out$i")" "top-down: level 2 from events: recipe intel-ecore-l1:gracemont" "E-core: its event recipe"
		nodes="retiring bad_speculation frontend_bound backend_bound branch_mispredicts fetch_latency" ;;
	*)
		ok 1 "a quick start on a profile this test knows: $prof"; continue ;;
	esac
	for k in $nodes; do
		want=$(profile_value "$p" "$k")
		# Ice Lake: icelake_metrics.json's Backend_Bound + 5 x INT_MISC.CLEARS_COUNT
		# / SLOTS, Bad_Speculation the remainder (msr/recipe/recipes_intel_pm.c); the
		# simulator counts a clear per 20 slots of bad speculation
		# (msr/sim/sim_events.c): a quarter of bad speculation moves to backend
		case $prof:$k in
		*icelake*:backend_bound)
			want=$(awk -v b="$want" -v s="$(profile_value "$p" bad_speculation)" 'BEGIN { print b + s / 4 }') ;;
		*icelake*:bad_speculation)
			want=$(awk -v s="$want" 'BEGIN { print s * 3 / 4 }') ;;
		esac
		check "$tmp/out$i" "tma_$k" "$want" "$prof"
	done
	# Level-2 siblings: the parent minus the measured child.
	case $prof in
	*sapphire*)
		check "$tmp/out$i" tma_light_operations \
			"$(($(profile_value "$p" retiring) - $(profile_value "$p" heavy_operations)))" "$prof"
		check "$tmp/out$i" tma_core_bound \
			"$(($(profile_value "$p" backend_bound) - $(profile_value "$p" memory_bound)))" "$prof" ;;
	*ecore*)
		check "$tmp/out$i" tma_machine_clears \
			"$(($(profile_value "$p" bad_speculation) - $(profile_value "$p" branch_mispredicts)))" "$prof" ;;
	esac
done <"$tmp/cmds"

# The shipped dumps: the files and checksums examples/dumps/README gives.
dumps=$TOP/examples/dumps
for f in ice-lake-i7.test sapphire-rapids-ws-xeon-w7.test alder-lake-s-core-i9.test; do
	want=$(grep "^| $f " "$dumps/README" | awk -F'|' '{ gsub(/ /, "", $5); print $5 }')
	if command -v sha256sum >/dev/null 2>&1; then
		is "$(sha256sum <"$dumps/$f" | cut -c1-64)" "${want:-none in README}" "examples/dumps/$f: the checksum its README gives"
	else
		skip "no sha256sum"
	fi
done
like "$(cat "$dumps/README")" "github.com/anrieff/libcpuid" "examples/dumps/README names the source"
like "$(cat "$dumps/README")" "commit: +[0-9a-f]{40}" "... its commit"
grep -q "Redistribution and use in source and binary forms" "$dumps/README"
ok $? "... and its licence text"

# Every value of a shipped profile has its comment.
for p in "$TOP"/examples/profiles/*.profile; do
	bare=$(grep -n '^[ 	]*[a-z]' "$p" | grep -v '#')
	is "$bare" "" "${p##*/}: every value commented"
done
done_testing
