#!/bin/sh
# t/0644-echo-escape.sh - messages that quote input never pass its control
# bytes to the terminal (issue 9, point 10; cpu/escape.h).  The input is the
# issue's: ESC ] 0 ; pwned BEL (set the window title) and ESC [ 2 J (clear
# the screen), in a CPUID dump line, in a state file's name, and in a
# journal line.  Each message must hold the escaped form (\x1b, \x07) and
# no raw ESC (octal 033) or BEL (octal 007) byte.
. "$T_SRC/tap.sh"

BARETMA_STATE_DIR=$tmp/run
export BARETMA_STATE_DIR
unset BARETMA_MSR_TRACE BARETMA_CPUID_DUMP SUDO_USER SUDO_UID
evil=$(printf '\033]0;pwned\007\033[2J')
shown='\\x1b\]0;pwned\\x07\\x1b\[2J'

# raw TEXT: how many ESC and BEL bytes TEXT holds.
raw() { printf '%s' "$1" | tr -dc '\033\007' | wc -c | tr -d ' '; }

# A libcpuid raw dump whose second line is the sequence.
printf 'basic_cpuid[0]=0000000d 756e6547 6c65746e 49656e69\n%s\n' "$evil" >"$tmp/evil.test"
out=$("$BARETMA" info --cpuid-dump "$tmp/evil.test" 2>&1); rc=$?
is "$rc" 65 "CPUID dump with the sequence: malformed, exit 65"
like "$out" "line 2: not libcpuid raw data: '$shown'" "dump: the line quoted, escaped"
is "$(raw "$out")" 0 "dump: no raw ESC or BEL byte in the message"

# A state file whose name holds the sequence (its line 1 is malformed).
printf 'junk\n' >"$tmp/st$evil"
out=$(BARETMA_MSR="state:$tmp/st$evil" "$BARETMA" msr read 0 0x38f 2>&1); rc=$?
is "$rc" 65 "state file named with the sequence: malformed, exit 65"
like "$out" "state file '$tmp/st$shown': line 1:" "state file: the name quoted, escaped"
is "$(raw "$out")" 0 "state file: no raw ESC or BEL byte in the message"

# A well-formed journal whose cmd and backend hold bytes 0x9b (CSI for a
# terminal in 8-bit mode) and 0x85 (NEL): the parser takes them (only C0
# controls and DEL are refused there), pmu status prints them escaped.
mkdir -p "$tmp/run2"
printf '# baretma journal v2\npid 4243\nstarttime 1\ntime 1\ncmd baretma \2332J\nbackend state:%s/none\205x\nkind run\nuser_only 0\nreg 0 0x38f 0x0\n' \
	"$tmp" >"$tmp/run2/run-4243.journal"
chmod 0600 "$tmp/run2/run-4243.journal"
out=$(BARETMA_STATE_DIR=$tmp/run2 "$BARETMA" pmu status 2>&1); rc=$?
is "$rc" 0 "pmu status of a journal with C1 bytes in cmd and backend"
like "$out" 'command: baretma \\x9b2J' "status: the command escaped"
like "$out" 'backend: state:.*/none\\x85x' "status: the backend escaped"
is "$(printf '%s' "$out" | tr -dc '\233\205' | wc -c | tr -d ' ')" 0 "status: no raw 0x9b or 0x85 byte"
if command -v python3 >/dev/null 2>&1; then
	# JSON strings must be UTF-8: the journal is listed, its text escaped
	is "$(BARETMA_STATE_DIR=$tmp/run2 "$BARETMA" pmu status --json | python3 -S -c 'import json,sys
j = json.load(sys.stdin)["journals"]
print(len(j), j[0]["cmd"] if j else "-")')" '1 baretma \x9b2J' "status --json: the journal listed, its cmd escaped"
else
	skip "python3 needed to read the JSON"
fi

# A journal with a line that begins with the sequence (an unknown key).
mkdir -m 0700 "$tmp/run"
printf '# baretma journal v2\npid 4242\nstarttime 1\ntime 1\ncmd x\nbackend y\nkind run\nuser_only 0\n%s x\n' \
	"$evil" >"$tmp/run/run-4242.journal"
chmod 0600 "$tmp/run/run-4242.journal"
out=$("$BARETMA" pmu status 2>&1); rc=$?
is "$rc" 65 "journal with the sequence: malformed, exit 65"
like "$out" "run-4242.journal.*line 9: unknown key '$shown'" "journal: the line quoted, escaped"
is "$(raw "$out")" 0 "journal: no raw ESC or BEL byte in the message"

done_testing
