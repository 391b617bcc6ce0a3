#!/bin/sh
# t/0984-long-reasons.sh - a reason is never cut, however long the names in
# it: bench/source/avail.h's reason once sat in 512 bytes, so a state file
# whose path is longer (a path may be PATH_MAX, 4096 bytes, long:
# linux include/uapi/linux/limits.h) lost the end of the line - the remedy
# first.  Two reasons that name the state file of BARETMA_MSR=state:FILE,
# its path here 3 directories of 200 characters deep:
#  1. a missing file (the backend cannot be opened): its path and the
#     cause, the end of the line, come out whole (exit 66);
#  2. IA32_PERF_CAPABILITIES without bit 15 (PERF_METRICS available,
#     linux arch/x86/events/intel/core.c intel_pmu_init): "... read from
#     'PATH' (set the bit on that file's line for 0x345, e.g. 0xa000)",
#     whole, on stderr (exit 69);
#  3. perf_event's reason for a CPUID dump's CPU names the dump (it was
#     cut at 400 bytes): whole, its dry-run remedy last (exit 69);
#  4. the note that a dump's CPU is not pinned names the dump (it was cut
#     at 600 bytes): whole, with the words after the path.
. "$T_SRC/tap.sh"

. "$T_SRC/sim-fixture.sh"
run() {
	st=0
	"$BARETMA" "$@" >"$tmp/out" 2>"$tmp/err" || st=$?
}
seg=$(printf '%0200d' 0 | tr 0 d)
dir=$tmp/$seg/$seg/$seg
mkdir -p "$dir"
[ ${#dir} -gt 600 ]; ok $? "the directory path is longer than the old 512-byte reason (${#dir})"

# 1. a missing state file
BARETMA_MSR=state:$dir/missing run bench --cpuid-dump "$ICL" --backend msr --cpu 1 --kernel empty --reps 2
is "$st" 66 "a missing state file with a ${#dir}-character path: exit 66"
like "$(cat "$tmp/err")" "'$dir/missing': No such file or directory\$" \
	"the message names the whole path, its cause last"

# 2. IA32_PERF_CAPABILITIES bit 15 clear, read from that file
awk '/^```/ { f = !f; next } f && !/^#/' "$T_SRC/../doc/state-file.md" |
	sed 's/^1 0x345 0xa000$/1 0x345 0x2000/' >"$dir/no15"
BARETMA_MSR=state:$dir/no15 run bench --cpuid-dump "$ICL" --backend msr --cpu 1 --kernel empty --reps 2
is "$st" 69 "IA32_PERF_CAPABILITIES 0x2000 in the long-named file: exit 69"
like "$(cat "$tmp/err")" "bit 15 \(PERF_METRICS available\) is clear in cpu 1's value 0x2000 read from '$dir/no15' \(set the bit on that file's line for 0x345, e.g. 0xa000\)\$" \
	"the whole reason: the path and the remedy after it"

# 3. and 4. a CPUID dump at the long path, on the simulator
cp "$ICL" "$dir/icl.test"
printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
# the kernel's perf_event asked for (unset, the simulator's profile would serve it)
BARETMA_PERF=kernel BARETMA_MSR=sim:$tmp/p run bench --cpuid-dump "$dir/icl.test" --backend perf --cpu 1 --kernel empty --reps 2
is "$st" 69 "--backend perf on the long-named dump's cpu 1: exit 69"
like "$(cat "$tmp/err")" "perf_event: cpu 1 is a CPU of the CPUID dump '$dir/icl.test': perf_event measures this machine \(a dry run: BARETMA_PERF=sim:PROFILE\)\$" \
	"perf_event's reason: the whole path and the remedy after it"
BARETMA_MSR=sim:$tmp/p run bench --cpuid-dump "$dir/icl.test" --cpu 1 --kernel empty --reps 2 --warmup 0
is "$st" 0 "bench on the long-named dump's cpu 1 (simulator): exit 0"
like "$(cat "$tmp/out")" "note: not pinned: cpu 1 is a CPU of the CPUID dump '$dir/icl.test', not of this machine \(dry run\)" \
	"the not-pinned note: the whole path and the words after it"
done_testing
