#!/bin/sh
# t/0649-untrusted-strings.sh - strings that come from a CPUID dump (the
# brand of leaves 0x80000002-4), a calibration file (vendor, brand,
# date), a simulator profile (keys and values), the state directory's
# name and the environment preflight's files never reach stdout or stderr
# with their control bytes (cpu/escape.h).  The input is ESC ] 0 ; pwned
# BEL, which sets a terminal's window title.  For every command that prints
# such a string: its output holds no byte below 0x20 but newline and tab,
# and no DEL, and holds the escaped form \x1b]0;pwned\x07 (esc_str's \xHH,
# cpu/escape.h); JSON keeps the true string (jansson writes \u001b) and is
# ASCII; a brand that is not UTF-8 is JSON's escaped form, not a failure.
. "$T_SRC/tap.sh"
pyq_start
. "$T_SRC/sim-fixture.sh"
unset SUDO_USER SUDO_UID BARETMA_SYSROOT

evil=$(printf '\033]0;pwned\007')
shown='\\x1b\]0;pwned\\x07'

# mkdump SRC DST BRAND: the AIDA64 dump SRC with the brand string (48
# bytes: EAX, EBX, ECX, EDX of CPUID leaves 0x80000002-0x80000004, each
# register little-endian: SDM Vol. 2A, CPUID, "Processor Brand String")
# replaced by BRAND (Python escapes), NUL-padded.
mkdump() {
	pyq - "$@" <<'EOP'
import re, struct, sys
brand = sys.argv[3].encode('latin-1').decode('unicode_escape').encode('latin-1')
regs = struct.unpack('<12I', brand.ljust(48, b'\0')[:48])
out = []
for line in open(sys.argv[1], encoding='latin-1'):
    m = re.match(r'CPUID 8000000([234]): ', line)
    if m:
        i = int(m.group(1)) - 2
        line = 'CPUID 8000000%d: %08X-%08X-%08X-%08X\n' % ((i + 2,) + regs[4 * i:4 * i + 4])
    out.append(line)
open(sys.argv[2], 'w', encoding='latin-1').write(''.join(out))
EOP
}
mkdump "$ICL" "$tmp/esc.test" '\x1b]0;pwned\x07 Intel(R) Core(TM) i7'
mkdump "$ICL" "$tmp/ff.test" 'Intel\xff\xc2\x9b Core'
grep -q '^CPUID 80000002: 3B305D1B-' "$tmp/esc.test" || skip_all "the Ice Lake dump has no brand leaves to edit"

# dirty FILE: how many bytes below 0x20 other than newline and tab, and DEL
dirty() { tr -d '\n\t' <"$1" | tr -dc '\000-\037\177' | wc -c | tr -d ' '; }
# high FILE: how many bytes 0x80-0xff (the ff.test brand's are its only ones)
high() { tr -dc '\200-\377' <"$1" | wc -c | tr -d ' '; }

# check NAME STATUS REGEX CMD...: CMD's stdout and stderr together in
# $tmp/o: STATUS, REGEX found, no control byte.
check() {
	_n=$1 _w=$2 _re=$3
	shift 3
	st=0
	"$@" >"$tmp/o" 2>&1 || st=$?
	is "$st" "$_w" "$_n: exit $_w"
	like "$(cat "$tmp/o")" "$_re" "$_n: the escaped form"
	is "$(dirty "$tmp/o")" 0 "$_n: no control byte reaches the terminal"
}
printf 'access_cycles 10000\nretiring 20\nbad_speculation 40\nfrontend_bound 20\nbackend_bound 20\n' \
	>"$tmp/p"
sim() { env BARETMA_MSR="sim:$tmp/p" BARETMA_PERF="sim:$tmp/p" "$@"; }

# --- the brand of a CPUID dump ---------------------------------------------------
check "info" 0 "brand: +$shown Intel\\(R\\) Core\\(TM\\) i7" \
	"$BARETMA" info --cpuid-dump "$tmp/esc.test"
"$BARETMA" info --cpuid-dump "$tmp/esc.test" --json >"$tmp/out" 2>&1
is "$(q 'd["brand"] == "\x1b]0;pwned\x07 Intel(R) Core(TM) i7"')" True "info --json: the true brand"
is "$(dirty "$tmp/out"):$(high "$tmp/out")" 0:0 "info --json: no control byte, ASCII"
check "info, a brand that is not UTF-8" 0 'brand: +Intel\\xff\\xc2\\x9b Core' \
	"$BARETMA" info --cpuid-dump "$tmp/ff.test"
is "$(high "$tmp/o")" 0 "info: no byte 0x80-0xff (0x9b is CSI to an 8-bit terminal)"
st=0
"$BARETMA" info --cpuid-dump "$tmp/ff.test" --json >"$tmp/out" 2>&1 || st=$?
is "$st" 0 "info --json, a brand that is not UTF-8: exit 0"
is "$(q 'd["brand"]')" 'Intel\xff\xc2\x9b Core' "info --json: its escaped form (JSON strings are UTF-8)"
is "$(high "$tmp/out")" 0 "info --json: ASCII"
st=0
sim env BARETMA_CPUID_DUMP="$tmp/ff.test" "$BARETMA" bench --backend msr --kernel retire-light \
	--reps 3 --json >"$tmp/out" 2>&1 || st=$?
is "$st:$(q 'd["cpu"]["identity"]["brand"]')" '0:Intel\xff\xc2\x9b Core' \
	"bench --json, a brand that is not UTF-8: exit 0, the escaped form"

check "bench" 0 "^cpu [0-9]+: $shown Intel\\(R\\) Core\\(TM\\) i7 \\(general core\\)" \
	sim env BARETMA_CPUID_DUMP="$tmp/esc.test" "$BARETMA" bench --backend msr \
	--kernel retire-light --reps 3
check "bench --csv" 0 ",retire-light,,tsc_ticks," \
	sim env BARETMA_CPUID_DUMP="$tmp/esc.test" "$BARETMA" bench --backend msr \
	--kernel retire-light --reps 3 --csv
check "compare" 0 "^cpu [0-9]+: $shown Intel" \
	sim env BARETMA_CPUID_DUMP="$tmp/esc.test" "$BARETMA" compare --kernel retire-light \
	--pairs 9 --reps 5
check "calibrate" 0 "^calibration of $shown Intel" \
	sim env BARETMA_CPUID_DUMP="$tmp/esc.test" "$BARETMA" calibrate --backend msr --reps 21
CAL=$BARETMA_STATE_DIR/calibration-GenuineIntel-6-0x7e-5.json
is "$(pyq 'import json,sys; print(json.load(open(sys.argv[1]))["cpu"]["brand"] == "\x1b]0;pwned\x07 Intel(R) Core(TM) i7")' "$CAL")" \
	True "the calibration file keeps the true brand"

# --- a calibration file's fields -------------------------------------------------
# Made on the dump's brand, used on the Ice Lake's own: named and ignored,
# the file's brand quoted.
check "bench, a calibration made on another brand" 0 \
	"note: calibration '.*' ignored: made on '$shown Intel\\(R\\) Core\\(TM\\) i7', this CPU is 'Intel" \
	sim env BARETMA_CPUID_DUMP="$ICL" "$BARETMA" bench --backend msr --kernel retire-light --reps 3
like "$(cat "$tmp/o")" "^calibration: '.*' ignored: made on '$shown Intel" "and the table's line"
cp "$CAL" "$tmp/cal.json"
edit() { pyq - "$CAL" "$1" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1])); exec(sys.argv[2]); json.dump(d, open(sys.argv[1], "w"))
EOP
}
edit 'd["cpu"]["vendor"] = "\x1b]0;pwned\x07"'
check "bench, a calibration's vendor" 0 "ignored: made on vendor $shown, this CPU is GenuineIntel" \
	sim env BARETMA_CPUID_DUMP="$tmp/esc.test" "$BARETMA" bench --backend msr --kernel retire-light --reps 3
cp "$tmp/cal.json" "$CAL"
edit 'd["date"] = "\x1b]0;pwned\x07"'
check "bench, a calibration's date" 0 "calibration '.*' ignored: malformed date '$shown'" \
	sim env BARETMA_CPUID_DUMP="$tmp/esc.test" "$BARETMA" bench --backend msr --kernel retire-light --reps 3
rm -f "$CAL"

# --- a simulator profile's keys and values ------------------------------------------
printf 'ghz %s\n' "$evil" >"$tmp/pv"
printf '%s 1\n' "$evil" >"$tmp/pk"
for c in "bench --backend msr --reps 3" "info" "msr read 0 0x38f"; do
	check "$c, a profile's value" 65 "profile '$tmp/pv': line 1: 'ghz' needs a number from 0 to 10, got '$shown'" \
		env BARETMA_CPUID_DUMP="$ICL" BARETMA_MSR="sim:$tmp/pv" "$BARETMA" $c
	check "$c, a profile's key" 65 "profile '$tmp/pk': line 1: unknown key '$shown'" \
		env BARETMA_CPUID_DUMP="$ICL" BARETMA_MSR="sim:$tmp/pk" "$BARETMA" $c
done
check "bench --backend perf, a perf profile's key" 65 "profile '$tmp/pk': line 1: unknown key '$shown'" \
	env BARETMA_CPUID_DUMP="$ICL" BARETMA_PERF="sim:$tmp/pk" "$BARETMA" bench --backend perf --reps 3

# --- the state directory's name -------------------------------------------------------
sd="$tmp/run$evil"
check "pmu status, a state directory's name" 0 "no journal in '$tmp/run$shown'" \
	env BARETMA_STATE_DIR="$sd" "$BARETMA" pmu status
check "pmu restore, a state directory's name" 0 "no journal in '$tmp/run$shown'" \
	env BARETMA_STATE_DIR="$sd" "$BARETMA" pmu restore
mkdir -m 0700 "$sd"
printf '# baretma journal v2\npid 4243\nstarttime 1\ntime 1\ncmd x\nbackend state:%s/none\nkind run\nuser_only 0\nreg 0 0x38f 0x0\n' \
	"$tmp" >"$sd/run-4243.journal"
chmod 0600 "$sd/run-4243.journal"
check "pmu status, a journal's path" 0 "^journal '$tmp/run$shown/run-4243.journal'" \
	env BARETMA_STATE_DIR="$sd" "$BARETMA" pmu status
# A state directory whose name is not UTF-8, and a settings file now
# holding a byte that is not: the text escapes them, the JSON document is
# still made (their escaped forms: JSON strings are UTF-8).
sd2="$tmp/run$(printf '\377')"
mkdir -m 0700 "$sd2"
printf '# baretma journal v2\npid 4243\nstarttime 1\ntime 1\ncmd x\nbackend state:%s/none\nkind run\nuser_only 0\nreg 0 0x38f 0x0\nsetting /proc/sys/kernel/nmi_watchdog 1\n' \
	"$tmp" >"$sd2/run-4243.journal"
chmod 0600 "$sd2/run-4243.journal"
mkdir -p "$tmp/sys2/proc/sys/kernel"
printf '\377\n' >"$tmp/sys2/proc/sys/kernel/nmi_watchdog"
check "pmu status, a setting's file" 0 "setting: /proc/sys/kernel/nmi_watchdog saved '1', now '\\\\xff'" \
	env BARETMA_SYSROOT="$tmp/sys2" BARETMA_STATE_DIR="$sd2" "$BARETMA" pmu status
is "$(high "$tmp/o")" 0 "pmu status: no byte 0x80-0xff"
st=0
env BARETMA_SYSROOT="$tmp/sys2" BARETMA_STATE_DIR="$sd2" "$BARETMA" pmu status --json \
	>"$tmp/out" 2>&1 || st=$?
is "$st:$(q '(d["state_dir"].endswith("/run\\xff"), d["journals"][0]["settings"][0]["current"])')" \
	"0:(True, '\\\\xff')" "pmu status --json: the state directory and the file's value, escaped"

# --- the environment preflight ----------------------------------------------------------
root=$tmp/sys
mkdir -p "$root/proc/sys/kernel" "$root/sys/devices/system/cpu/cpu0/cpufreq"
printf '6.1%s\n' "$evil" >"$root/proc/sys/kernel/osrelease"
printf 'perf%s\n' "$evil" >"$root/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
check "info, the kernel release file" 0 "kernel: +6\\.1$shown" \
	env BARETMA_SYSROOT="$root" "$BARETMA" info --cpuid-dump "$tmp/esc.test" --cpu 0
like "$(cat "$tmp/o")" "governor perf$shown," "info: the governor file"
st=0
env BARETMA_SYSROOT="$root" "$BARETMA" info --cpuid-dump "$tmp/esc.test" --cpu 0 --json \
	>"$tmp/out" 2>&1 || st=$?
is "$st:$(q 'd["environment"]["kernel"]')" "0:6.1$evil" "info --json: the true kernel release"

done_testing
