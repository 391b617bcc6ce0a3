#!/bin/sh
# t/0500-cli-errors - bad input gets a clear message naming the input and the
# remedy, a non-zero sysexits status, and changes nothing (the state file
# standing in for the MSRs keeps its bytes).
. "$T_SRC/tap.sh"

icl="$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test"
state="$tmp/state"
cat >"$state" <<'EOS'
# cpu msr value: an Ice Lake P-core as firmware left it
1 0x38f 0x70000000f
1 0x38d 0x333
1 0x30c 0x0
1 0x329 0x0
1 0x390 0x0
1 0x38e 0x0
1 0x345 0x000000000000f4c5
EOS
cp "$state" "$tmp/state.orig"
unchanged() { cmp -s "$state" "$tmp/state.orig"; ok $? "$1: state file unchanged"; }

out=$("$BARETMA" frobnicate 2>&1); rc=$?
is "$rc" 64 "unknown command exits 64"
like "$out" "^baretma: unknown command 'frobnicate' \(try: baretma --help\)" "unknown command message"

out=$("$BARETMA" bench --kernel nope 2>&1); rc=$?
is "$rc" 64 "unknown kernel exits 64"
like "$out" "unknown kernel 'nope' in --kernel" "unknown kernel is named"

for bad in 0 -1 12abc 99999999999999999999 2000000; do
	out=$("$BARETMA" bench --backend tsc --reps "$bad" 2>&1); rc=$?
	is "$rc" 64 "--reps $bad exits 64"
	like "$out" "bad (--reps '$bad'|--reps '0')" "--reps $bad is named"
done

out=$("$BARETMA" bench --backend tsc --cpu 4000 2>&1); rc=$?
is "$rc" 64 "--cpu 4000 (beyond CPU_MAX_CPUS) exits 64"
ncpu=$(getconf _NPROCESSORS_CONF)
out=$("$BARETMA" bench --backend tsc --cpu "$((ncpu + 5))" --reps 3 2>&1); rc=$?
is "$rc" 64 "--cpu of a CPU that does not exist exits 64"
like "$out" "cannot measure on cpu $((ncpu + 5)): no such CPU" "bad CPU message names it"

out=$("$BARETMA" info --cpuid-dump "$tmp/none" 2>&1); rc=$?
is "$rc" 66 "missing dump exits 66 (EX_NOINPUT)"
like "$out" "'$tmp/none'" "missing dump message names the file"
printf 'hello\nthis is not cpuid\n' >"$tmp/junk"
out=$("$BARETMA" bench --cpuid-dump "$tmp/junk" --backend tsc 2>&1); rc=$?
is "$rc" 65 "malformed dump exits 65 (EX_DATAERR)"
like "$out" "cannot load CPUID dump '$tmp/junk'" "malformed dump message names the file"

out=$("$BARETMA" decode 0xnothex 2>&1); rc=$?
is "$rc" 65 "malformed decode input exits 65"

if [ ! -f "$icl" ]; then
	skip "no ../shared/cpuid: dump + device checks need the Ice Lake dump"
	skip "no ../shared/cpuid"
	skip "no ../shared/cpuid"
	skip "no ../shared/cpuid"
else
	# A dump's CPU is never looked for behind this machine's device (a
	# missing device is named with its remedy on the live machine: t/0235).
	out=$(BARETMA_MSR=/nonexistent/cpu/%u/msr "$BARETMA" bench --cpuid-dump "$icl" --cpu 1 --backend msr --reps 3 2>&1); rc=$?
	is "$rc" 64 "a dump with a device backend and --backend msr exits 64 (EX_USAGE)"
	like "$out" "refusing to write MSRs through '/nonexistent/cpu/%u/msr' with a CPUID dump .*BARETMA_MSR=state:FILE" \
		"and says what a dry run needs"
	out=$(BARETMA_MSR=/nonexistent/cpu/%u/msr "$BARETMA" bench --cpuid-dump "$icl" --cpu 1 --kernel retire-light --reps 3 2>&1); rc=$?
	is "$rc" 0 "a dump with a device backend and no explicit backend falls back to the TSC"
	like "$out" "top-down unavailable on cpu 1: cpu 1 of the CPUID dump .* describes another machine: this machine's MSR device cannot reach its registers" \
		"and says why"
fi

printf '1 0x38f\n' >"$tmp/badstate"
out=$(BARETMA_MSR="state:$tmp/badstate" "$BARETMA" pmu status 2>&1); rc=$?
is "$rc" 65 "malformed state file exits 65"
like "$out" "$tmp/badstate" "malformed state file is named"
like "$out" "line 1" "malformed state file line is named"

if [ -f "$icl" ]; then
	out=$(BARETMA_MSR="state:$state" "$BARETMA" bench --cpuid-dump "$icl" --cpu 1 --backend msr --level 2 --reps 3 2>&1); rc=$?
	is "$rc" 64 "--level 2 on Ice Lake (level 1 only) exits 64"
	like "$out" "has only level 1" "level message says what the CPU has"
	unchanged "--level 2 on Ice Lake"
	out=$(BARETMA_MSR="state:$state" "$BARETMA" bench --cpuid-dump "$icl" --cpu 99 --backend msr 2>&1); rc=$?
	is "$rc" 64 "bad CPU with a state backend exits 64"
	unchanged "bad CPU"
else
	for i in 1 2 3 4 5; do skip "no ../shared/cpuid"; done
fi
done_testing
