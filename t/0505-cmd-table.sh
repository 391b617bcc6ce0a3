#!/bin/sh
# t/0505-cmd-table - the command table seen from outside: every command and
# subcommand that 'baretma --help' lists has its help (by 'help CMD' where
# man is not installed - with man it shows the man page, t/1118 - and by
# 'CMD --help' alike, whatever the environment holds); a command that needs
# no MSR backend never opens one (BARETMA_MSR_TRACE is created by the
# backend's open, so no trace file means no open, let alone an access);
# and the order in which each command reports what it lacks.
. "$T_SRC/tap.sh"

icl="$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test"
BARETMA_STATE_DIR="$tmp/state-dir"; export BARETMA_STATE_DIR
unset BARETMA_MSR BARETMA_MSR_TRACE BARETMA_CPUID_DUMP BARETMA_SYSROOT

# --- every command has help ----------------------------------------------

# The commands of the top-level usage ("  NAME     TEXT" under "commands:"),
# with their subcommands where TEXT starts "A | B | C:" or "dump:".
"$BARETMA" --help >"$tmp/usage"; rc=$?
is "$rc" 0 "baretma --help exits 0"
awk '/^commands:/ { on = 1; next } on && /^$/ { exit }
     on && /^  [a-z]/ {
	name = $1; text = $0; sub(/^  [a-z]+ +/, "", text)
	if (name == "help" || name == "version") next
	subs = ""
	if (index(text, ":")) {
		head = substr(text, 1, index(text, ":") - 1)
		if (head ~ / \| / || head ~ /^[a-z]+$/) {
			n = split(head, part, / \| /)
			for (i = 1; i <= n; i++) { split(part[i], w, " "); subs = subs " " w[1] }
		}
	}
	print name subs
     }' "$tmp/usage" >"$tmp/cmds"
like "$(cat "$tmp/cmds")" "^bench" "the usage lists bench"
like "$(tr '\n' ' ' <"$tmp/cmds")" "pmu enable status restore .*cpuid dump .*msr read write" \
	"the usage lists pmu, cpuid and msr with their subcommands"

mkdir "$tmp/noman"	# a PATH without man(1)
while read -r cmd subs; do
	out=$(PATH="$tmp/noman" "$BARETMA" help "$cmd" 2>"$tmp/err"); rc=$?
	is "$rc" 0 "help $cmd exits 0"
	like "$out" "^usage: baretma $cmd" "help $cmd prints the usage of $cmd"
	is "$(cat "$tmp/err")" "" "help $cmd says nothing on stderr"
	# the same text from --help, even where the environment is refused
	out2=$(BARETMA_SYSROOT=/nonexistent BARETMA_STATE_DIR=relative "$BARETMA" "$cmd" --help); rc=$?
	is "$rc" 0 "$cmd --help exits 0 with a refused environment"
	is "$out2" "$out" "$cmd --help is help $cmd"
	for sub in $subs; do
		out3=$("$BARETMA" "$cmd" "$sub" --help); rc=$?
		is "$rc" 0 "$cmd $sub --help exits 0"
		is "$out3" "$out" "$cmd $sub --help is help $cmd"
		like "$out" "baretma $cmd $sub" "help $cmd names '$cmd $sub'"
	done
done <"$tmp/cmds"

# A command with a space in one argument is no command.
out=$("$BARETMA" "pmu enable" 2>&1); rc=$?
is "$rc" 64 "'pmu enable' as one argument exits 64"
like "$out" "unknown command 'pmu enable'" "'pmu enable' as one argument is unknown"
out=$("$BARETMA" help "pmu enable" 2>&1); rc=$?
is "$rc" 64 "help 'pmu enable' as one argument exits 64"
out=$("$BARETMA" pmu frob 2>&1); rc=$?
is "$rc" 64 "an unknown pmu subcommand exits 64"
like "$out" "^baretma: pmu: unknown command 'frob' \(try: baretma pmu --help\)" \
	"an unknown pmu subcommand is named"
out=$("$BARETMA" msr 2>&1 >/dev/null); rc=$?
is "$rc" 64 "msr without a subcommand exits 64"
like "$out" "^usage: baretma msr read" "msr without a subcommand prints its usage on stderr"

# --- no MSR backend where none is needed ---------------------------------

cat >"$tmp/state" <<'EOS'
# cpu msr value: an Ice Lake P-core as firmware left it
1 0x38f 0x70000000f
1 0x38d 0x0
1 0x345 0x000000000000f4c5
EOS
trace="$tmp/trace"
notrace() { ok "$([ ! -e "$trace" ]; echo $?)" "$1: no MSR backend opened (no trace file)"; rm -f "$trace"; }

for msr in "state:$tmp/state" "state:$tmp/nonexistent"; do
	out=$(BARETMA_MSR=$msr BARETMA_MSR_TRACE=$trace "$BARETMA" decode 0x302014224c331a66 2>&1); rc=$?
	is "$rc" 0 "decode exits 0 with BARETMA_MSR=$msr"
	notrace "decode ($msr)"
	out=$(BARETMA_MSR=$msr BARETMA_MSR_TRACE=$trace "$BARETMA" decode --from 1000:0x1f402080 \
		--to 2000:0x1f402080 2>&1); rc=$?
	is "$rc" 0 "decode --from --to exits 0 with BARETMA_MSR=$msr"
	notrace "decode --from --to ($msr)"
	for cmd in bench info decode pmu cpuid msr; do
		BARETMA_MSR=$msr BARETMA_MSR_TRACE=$trace "$BARETMA" help "$cmd" >/dev/null
		notrace "help $cmd ($msr)"
	done
	BARETMA_MSR=$msr BARETMA_MSR_TRACE=$trace "$BARETMA" pmu restore --help >/dev/null
	notrace "pmu restore --help ($msr)"
	# restore opens the backend only for a journal to put back (CLI_MSR_LATE)
	out=$(BARETMA_MSR=$msr BARETMA_MSR_TRACE=$trace "$BARETMA" pmu restore 2>&1); rc=$?
	is "$rc" 0 "pmu restore with no journal exits 0 ($msr)"
	like "$out" "^nothing to restore: no journal in '$BARETMA_STATE_DIR'" \
		"pmu restore with no journal says so ($msr)"
	notrace "pmu restore with no journal ($msr)"
done

out=$(BARETMA_MSR="state:$tmp/state" BARETMA_MSR_TRACE=$trace "$BARETMA" cpuid dump \
	-o "$tmp/dump.txt" 2>&1); rc=$?
if [ "$rc" -eq 0 ]; then
	like "$(head -3 "$tmp/dump.txt")" "Program Version : baretma" "cpuid dump writes a dump"
	notrace "cpuid dump"
else
	skip "cpuid dump cannot read this machine's CPUID here: $out"
	skip "cpuid dump cannot read this machine's CPUID here"
	rm -f "$trace"
fi

if [ ! -f "$icl" ]; then
	skip "no ../shared/cpuid: info and the setup order need the Ice Lake dump"
	done_testing
fi

# info reads IA32_PERF_CAPABILITIES where it can, and needs no backend
out=$(BARETMA_MSR="state:$tmp/nonexistent" BARETMA_MSR_TRACE=$trace "$BARETMA" info \
	--cpuid-dump "$icl" 2>&1); rc=$?
is "$rc" 0 "info --cpuid-dump exits 0 without an MSR backend"
like "$out" "Ice Lake" "info --cpuid-dump identifies the dump without an MSR backend"
notrace "info --cpuid-dump without an MSR backend"
out=$(BARETMA_MSR="state:$tmp/nonexistent" "$BARETMA" info --cpuid-dump "$icl" --json); rc=$?
is "$rc" 0 "info --cpuid-dump --json exits 0 without an MSR backend"
like "$out" '"source": \{' "info --json without an MSR backend is the JSON document"
out=$(BARETMA_MSR="state:$tmp/nonexistent" BARETMA_MSR_TRACE=$trace "$BARETMA" bench \
	--cpuid-dump "$icl" --backend tsc --cpu 1 --reps 2 --warmup 0 --kernel empty 2>&1); rc=$?
is "$rc" 0 "bench --backend tsc --cpuid-dump exits 0 without an MSR backend"
notrace "bench --backend tsc without an MSR backend"

# --- what each command reports first --------------------------------------
# A missing MSR backend (a state file that is not there: msr_open fails at
# once) and a missing CPUID dump: the MSR commands name the backend, info
# (which can do without one) the dump.
none="state:$tmp/nonexistent"
for cmd in "msr read --cpuid-dump $tmp/nodump 1 0x38f" \
	   "msr write --cpuid-dump $tmp/nodump 1 0x38f 0x0" \
	   "pmu enable --cpuid-dump $tmp/nodump"; do
	# shellcheck disable=SC2086 # the words of $cmd are the arguments
	out=$(BARETMA_MSR=$none "$BARETMA" $cmd 2>&1); rc=$?
	is "$rc" 66 "$cmd with no backend and no dump exits 66"
	like "$out" "^baretma: state file '$tmp/nonexistent'" "$cmd names the backend first"
	unlike "$out" "nodump" "$cmd does not get to the dump"
done
out=$(BARETMA_MSR=$none "$BARETMA" info --cpuid-dump "$tmp/nodump" 2>&1); rc=$?
is "$rc" 66 "info with no backend and no dump exits 66"
like "$out" "^baretma: cannot load CPUID dump '$tmp/nodump'" "info names the dump"
# pmu enable checks --cpu before the backend; pmu status after it
out=$(BARETMA_MSR=$none "$BARETMA" pmu enable --cpu x 2>&1); rc=$?
is "$rc" 64 "pmu enable --cpu x with no backend exits 64"
like "$out" "^baretma: bad --cpu 'x'" "pmu enable names the bad --cpu first"
out=$(BARETMA_MSR=$none "$BARETMA" pmu status --cpu x 2>&1); rc=$?
is "$rc" 66 "pmu status --cpu x with no backend exits 66"
like "$out" "^baretma: state file '$tmp/nonexistent'" "pmu status names the backend first"
# the environment is checked before the options
out=$(BARETMA_SYSROOT=/nonexistent "$BARETMA" info --frob 2>&1); rc=$?
is "$rc" 66 "a missing BARETMA_SYSROOT is reported before a bad option"
like "$out" "^baretma: BARETMA_SYSROOT '/nonexistent'" "the sysroot is named"
out=$(BARETMA_STATE_DIR=relative "$BARETMA" msr read 1 0x38f 2>&1); rc=$?
is "$rc" 64 "msr read refuses a relative BARETMA_STATE_DIR"

done_testing
