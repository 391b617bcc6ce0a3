#!/bin/sh
# t/1021-output-files-full.sh - a full file system (ENOSPC), as issue 27
# found it: bench -o, stat -a -I -o, stat -o -- CMD and --openmetrics
# exited 73 with "Input/output error", calibrate -o named the errno but
# exited 73, and BARETMA_MSR_TRACE lost the whole trace with exit 0.  Now
# every writer names the errno ("No space left on device") and exits 74
# (EX_IOERR), leaves the old file whole and no temporary file; a trace
# that loses a line warns at once (ENOSPC) and the command exits 74,
# saying how many lines from which on.  The full file system is a real
# one: a 16 KiB tmpfs, filled to its last byte, in a mount namespace of
# the test's own (unshare -m: root, or a user namespace; skipped
# otherwise).
. "$T_SRC/tap.sh"
. "$T_SRC/sim-fixture.sh"

. "$T_SRC/full-fs.sh"
full_fs_ok || skip_all "cannot mount a tmpfs in a mount namespace here (unshare -m: root or user namespaces needed)"
m=$tmp/full
mkdir -p "$m"

printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
F=$m/F.svg

# full CMD...: CMD in the namespace (F on the full file system), its status
# in $st, stderr in $tmp/r.err
full() { full_fs "$m" "$tmp/r" "$@"; }

# writer NAME: that writer's command line on the full file system
writer() {
	case $1 in
	"bench -o") full "$BARETMA" bench --backend tsc --kernel empty --reps 1 --warmup 0 -o "$F" ;;
	"bench --openmetrics") full env BARETMA_MSR="sim:$tmp/p" "$BARETMA" bench --backend msr \
		--cpuid-dump "$ICL" --kernel empty --reps 3 --warmup 0 --openmetrics "$F" ;;
	"bench --plot") full env BARETMA_MSR="sim:$tmp/p" "$BARETMA" bench --backend msr \
		--cpuid-dump "$ICL" --kernel empty --reps 3 --warmup 0 --plot "$F" ;;
	"stat -a -I -o") full env BARETMA_MSR="sim:$tmp/p" "$BARETMA" stat -a -I 100 --count 2 \
		--cpuid-dump "$ICL" -o "$F" ;;
	"stat -o -- CMD") full env BARETMA_MSR="sim:$tmp/p" "$BARETMA" stat -C 0 --cpuid-dump "$ICL" \
		-o "$F" -- true ;;
	"stat -I --openmetrics") full env BARETMA_MSR="sim:$tmp/p" "$BARETMA" stat -C 0 -I 100 \
		--count 2 --cpuid-dump "$ICL" --openmetrics "$F" ;;
	"stat -I --plot") full env BARETMA_MSR="sim:$tmp/p" "$BARETMA" stat -C 0 -I 100 --count 2 \
		--cpuid-dump "$ICL" --plot "$F" ;;
	"calibrate -o") full "$BARETMA" calibrate --backend tsc --reps 20 -o "$F" ;;
	"cpuid dump -o") full "$BARETMA" cpuid dump -o "$F" ;;
	"validate --bundle") full env BARETMA_MSR="sim:$tmp/p" "$BARETMA" validate --cpuid-dump "$ICL" \
		--bundle "$F" ;;
	esac
}
for name in "bench -o" "bench --openmetrics" "bench --plot" "stat -a -I -o" "stat -o -- CMD" \
	"stat -I --openmetrics" "stat -I --plot" "calibrate -o" "cpuid dump -o" "validate --bundle"; do
	writer "$name"
	is "$st" 74 "$name: a full file system: exit 74 (EX_IOERR)"
	like "$(cat "$tmp/r.err")" "cannot write (--plot )?'$F': No space left on device" \
		"$name: names the file and the errno"
	is "$(cat "$tmp/r.old")" "old" "$name: the old file whole"
	is "$(cat "$tmp/r.ls" | tr '\n' ' ')" "F.svg fill " "$name: no temporary file left"
done

# --- the trace: an audit log that cannot be written ------------------------------
full env BARETMA_MSR="sim:$tmp/p" BARETMA_MSR_TRACE="$m/trace" "$BARETMA" msr read 0 0x38f --cpuid-dump "$ICL"
is "$st" 74 "BARETMA_MSR_TRACE on a full file system: exit 74, not 0"
like "$(head -n 1 "$tmp/r.err")" "^baretma: warning: trace file '$m/trace' \(\\\$BARETMA_MSR_TRACE\): a line could not be written \(ENOSPC\)" \
	"the first lost line is warned at once"
like "$(cat "$tmp/r.err")" "trace file '$m/trace' \(\\\$BARETMA_MSR_TRACE\): [0-9]+ lines? lost from line 1 on: No space left on device" \
	"and the end says how many lines were lost, from which on, and why"
is "$(grep -c 'could not be written' "$tmp/r.err")" 1 "warned once, not once per line"
# control: the same read with room for the trace
st=0
BARETMA_MSR=sim:$tmp/p BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" msr read 0 0x38f --cpuid-dump "$ICL" >/dev/null 2>"$tmp/err" || st=$?
is "$st:$(grep -c '^rd 0 0x38f ' "$tmp/trace")" "0:1" "control: with room, exit 0 and the read traced"

done_testing
