#!/bin/sh
# t/0225-cpuid-dump-cli.sh - `baretma cpuid dump` on this machine, read back
# by `baretma info --cpuid-dump`.
# Known answers: the live `baretma info --json` identity (vendor, family,
# model, stepping; t/0210 checks it against /proc/cpuinfo) must come back
# from the dump; the online CPU list of /sys/devices/system/cpu/online gives
# the sections; exit statuses from sysexits.h (64 EX_USAGE, 65 EX_DATAERR,
# 73 EX_CANTCREAT, 74 EX_IOERR); t/data/cpuid-unrecognised.txt is no dump.
. "$T_SRC/tap.sh"
pyq_start

# json FILE EXPR: evaluate a Python expression over the document `d`.
json() {
	pyq 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# Number of CPUs in a list such as "0-3,8,10-11".
count_cpus() {
	echo "$1" | tr ',' '\n' | awk -F- 'NF == 2 { n += $2 - $1 + 1; next } NF == 1 { n++ } END { print n + 0 }'
}

# --- to standard output ------------------------------------------------------
"$BARETMA" cpuid dump >"$tmp/stdout.txt" 2>"$tmp/err"; rc=$?
is "$rc" 0 "cpuid dump to stdout exits 0"
is "$(cat "$tmp/err")" "" "and says nothing on stderr"
is "$(head -1 "$tmp/stdout.txt")" "------[ Versions ]------" "starts with AIDA64's Versions section (libcpuid's marker)"
out=$(cat "$tmp/stdout.txt")
like "$out" 'Program Version : baretma [0-9]+\.[0-9]+' "header names baretma and its version"
like "$out" 'Date +: [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8} UTC' "header has the date"
like "$out" "Kernel +: $(uname -s) $(uname -r | sed 's/[.+]/./g')" "header has the kernel"
online=$(cat /sys/devices/system/cpu/online 2>/dev/null)
if [ -n "$online" ]; then
	is "$(grep -c '^------\[ CPUID Registers / Logical CPU #[0-9]* \]------$' "$tmp/stdout.txt")" \
		"$(count_cpus "$online")" "one section per online CPU ($online)"
else
	skip "no /sys/devices/system/cpu/online"
fi
like "$out" 'CPUID 00000000: [0-9A-F]{8}-[0-9A-F]{8}-[0-9A-F]{8}-[0-9A-F]{8}' "leaf 0 records"
like "$out" 'CPUID 80000000: 8000' "extended leaves"
like "$out" 'CPUID 00000007: [0-9A-F-]{35} \[SL 00\]' "leaf 7 with its subleaf tag"

# --- to a file ---------------------------------------------------------------
"$BARETMA" cpuid dump -o "$tmp/dump.txt" 2>"$tmp/err"; rc=$?
is "$rc" 0 "cpuid dump -o FILE exits 0"
is "$(sed '/^Date /d' "$tmp/dump.txt" | cksum)" "$(sed '/^Date /d' "$tmp/stdout.txt" | cksum)" \
	"-o FILE holds what stdout gets"
is "$(ls "$tmp" | grep -c '^dump\.txt\.')" 0 "no temporary file left behind"
echo old >"$tmp/dump.txt"
"$BARETMA" cpuid dump --output "$tmp/dump.txt"; rc=$?
is "$rc" 0 "--output replaces an existing file"
is "$(head -1 "$tmp/dump.txt")" "------[ Versions ]------" "with the new dump"

# --- read back ---------------------------------------------------------------
if command -v python3 >/dev/null 2>&1; then
	"$BARETMA" info --json >"$tmp/live.json"; rc1=$?
	"$BARETMA" info --cpuid-dump "$tmp/dump.txt" --json >"$tmp/dump.json"; rc2=$?
	is "$rc1/$rc2" "0/0" "info --json live and on the dump exit 0"
	for k in vendor family model stepping brand hypervisor; do
		is "$(json "$tmp/dump.json" "d['$k']")" "$(json "$tmp/live.json" "d['$k']")" \
			"info --cpuid-dump: $k as on the live machine"
	done
else
	for i in 1 2 3 4 5 6 7; do skip "no python3"; done
fi
out=$("$BARETMA" info --cpuid-dump "$tmp/dump.txt" 2>&1); rc=$?
is "$rc" 0 "info --cpuid-dump on the dump exits 0"
like "$out" "source: +$tmp/dump.txt" "and names it as its source"

# --- errors ------------------------------------------------------------------
out=$("$BARETMA" cpuid dump -o "$tmp/missing/dir/dump.txt" 2>&1); rc=$?
is "$rc" 73 "-o into a missing directory: exit 73 (EX_CANTCREAT)"
like "$out" "cpuid dump: cannot write '$tmp/missing/dir/dump.txt': No such file or directory" "names the file"
like "$out" "directory '$tmp/missing/dir'" "and the missing directory"
ok "$([ ! -e "$tmp/missing" ]; echo $?)" "creates nothing"
echo precious >"$tmp/target"
ln -s "$tmp/target" "$tmp/link"
out=$("$BARETMA" cpuid dump -o "$tmp/link" 2>&1); rc=$?
is "$rc" 73 "-o onto a symbolic link: exit 73"
like "$out" "cannot write '$tmp/link': a symbolic link: refused, nothing written through it" "says why"
is "$(cat "$tmp/target")" "precious" "the link's target is untouched"
if [ -w /dev/full ]; then
	out=$("$BARETMA" cpuid dump 2>&1 >/dev/full); rc=$?
	is "$rc" 74 "stdout on a full device: exit 74 (EX_IOERR)"
	like "$out" "cannot write the dump to standard output: No space left on device" "says why"
else
	skip "no /dev/full"; skip "no /dev/full"
fi
out=$("$BARETMA" cpuid frobnicate 2>&1); rc=$?
is "$rc" 64 "unknown cpuid subcommand: exit 64"
like "$out" "unknown cpuid subcommand 'frobnicate'" "names it"
"$BARETMA" cpuid >/dev/null 2>&1; rc=$?
is "$rc" 64 "cpuid without a subcommand: exit 64"
"$BARETMA" cpuid dump --bogus >/dev/null 2>&1; rc=$?
is "$rc" 64 "cpuid dump --bogus: exit 64"
"$BARETMA" cpuid dump extra >/dev/null 2>&1; rc=$?
is "$rc" 64 "cpuid dump with an extra argument: exit 64"
out=$("$BARETMA" cpuid --help 2>&1); rc=$?
is "$rc" 0 "cpuid --help exits 0"
like "$out" 'usage: baretma cpuid dump \[-o FILE\]' "and prints the usage"
out=$("$BARETMA" cpuid dump --help 2>&1); rc=$?
is "$rc" 0 "cpuid dump --help exits 0"
like "$("$BARETMA" --help)" '  cpuid +dump' "baretma --help lists the cpuid command"

bad="$T_DATA/cpuid-unrecognised.txt"
out=$("$BARETMA" info --cpuid-dump "$bad" 2>&1); rc=$?
is "$rc" 65 "info on a file that is no dump: exit 65 (EX_DATAERR)"
like "$out" "cannot load CPUID dump '$bad': not a CPUID dump" "names the file and the cause"
cut="$T_DATA/cpuid-aida64-cut-record.txt"
out=$("$BARETMA" info --cpuid-dump "$cut" 2>&1); rc=$?
is "$rc" 65 "info on a truncated AIDA64 dump: exit 65"
like "$out" "cannot load CPUID dump '$cut': line 15: truncated or malformed CPUID record" "names the file and the line"
cut="$T_DATA/cpuid-hwloc-cut"
out=$("$BARETMA" info --cpuid-dump "$cut" 2>&1); rc=$?
is "$rc" 65 "info on a hwloc directory with a cut pu file: exit 65"
like "$out" "cannot load CPUID dump '$cut': pu1 line 7: " "names the directory, the file and the line"

# A dump whose leaf 4 record answers every subleaf with the same cache (hwloc
# mask 9: no ECX input) once smashed libcpuid 0.6.2's stack through
# cpu_identify (found by fuzz-cpuid-dump): baretma hands libcpuid the list
# only up to the first repeated cache, as hardware lists each cache once.
mkdir -p "$tmp/rep4"
printf '%s\n' '1 0 0 0 0 => d 756e6547 6c65746e 49656e69' '1 1 0 0 0 => 506e3 800 7ffafbbf bfebfbff' \
	'9 4 0 0 0 => 1c004121 1c0003f 3f 0' '1 a 0 0 0 => 7300804 0 0 603' >"$tmp/rep4/pu0"
out=$("$BARETMA" info --cpuid-dump "$tmp/rep4" 2>&1); rc=$?
is "$rc" 0 "leaf 4 repeating one cache: info exits 0 (no crash in libcpuid)"
like "$out" "GenuineIntel family 6 model 0x5E" "and identifies the Skylake signature 0x506e3"

# A leaf 0xB whose SMT level counts 0 logical processors (EBX[15:0] = 0; the
# SDM's levels count at least one) made libcpuid 0.6.2 divide by zero
# (decode_intel_extended_topology: num_core / num_smt; found by
# fuzz-cpuid-dump): such a level ends the list baretma hands it.  (hwloc
# mask 5: EAX and ECX are inputs, the subleaf is the ECX column.)
mkdir -p "$tmp/zsmt"
printf '%s\n' '1 0 0 0 0 => d 756e6547 6c65746e 49656e69' '1 1 0 0 0 => 706e5 100800 fffafbbf bfebfbff' \
	'1 a 0 0 0 => 8300805 0 f 8604' '5 b 0 0 0 => 1 200000 100 1' '5 b 0 1 0 => 4 8 201 1' >"$tmp/zsmt/pu0"
out=$("$BARETMA" info --cpuid-dump "$tmp/zsmt" 2>&1); rc=$?
is "$rc" 0 "leaf 0xB with an SMT level of 0 logical processors: info exits 0 (no SIGFPE in libcpuid)"
like "$out" "GenuineIntel family 6 model 0x7E" "and identifies the Ice Lake signature 0x706e5"

# Six distinct leaf-4 caches (one of an unknown level/type pair): libcpuid
# 0.6.2 indexes a 5-slot array by the subleaf (NUM_CACHE_TYPES in
# decode_deterministic_cache_info_x86) and smashed its stack on the 6th;
# hardware lists at most 5 (L1d, L1i, L2, L3, L4), so baretma hands it 5.
mkdir -p "$tmp/six4"
printf '%s\n' '1 0 0 0 0 => d 756e6547 6c65746e 49656e69' '1 1 0 0 0 => 506e3 800 7ffafbbf bfebfbff' \
	'5 4 0 0 0 => 1c004141 1c0003f 3f 0' '5 4 0 1 0 => 1c004121 1c0003f 3f 0' \
	'5 4 0 2 0 => 1c004122 1c0003f 3f 0' '5 4 0 3 0 => 1c004143 1c0003f 3f 0' \
	'5 4 0 4 0 => 1c004163 1c0003f 3f 0' '5 4 0 5 0 => 1c004183 1c0003f 3f 0' \
	'1 a 0 0 0 => 7300804 0 0 603' >"$tmp/six4/pu0"
out=$("$BARETMA" info --cpuid-dump "$tmp/six4" 2>&1); rc=$?
is "$rc" 0 "six leaf-4 caches: info exits 0 (no stack smash in libcpuid)"
like "$out" "GenuineIntel family 6 model 0x5E" "and identifies the Skylake signature 0x506e3"

done_testing
