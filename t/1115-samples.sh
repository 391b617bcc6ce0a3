#!/bin/sh
# t/1115-samples.sh - every sample output of README.md and doc/*.md is what
# the command it shows prints (issue 29: "every sample output is produced
# by a test from the command it shows, so it cannot drift").  A sample is a
# fenced block after "<!-- sample: COMMAND -->", COMMAND a line of the
# shell block above it; t/samples.py runs it on the simulated PMU's
# deterministic profiles (doc/simulator.md) in a scratch checkout and
# compares its standard output with the block, masking only what the
# clock decides (TSC ticks, slots, the bounds that follow them, seconds).
# Every other fenced block says what it is (a command, code, an input, a
# measured timing), so that no output goes unchecked.  Controls: a sample
# with one share changed, or shown under another command, fails; one whose
# TSC ticks differ passes.  `make samples` writes the samples again.
. "$T_SRC/tap.sh"

TOP=$T_SRC/..
[ -x "${BARETMA:-}" ] || skip_all "no baretma built"
command -v python3 >/dev/null 2>&1 || skip_all "python3 needed (t/samples.py)"
samples() { python3 -S "$T_SRC/samples.py" "$@"; }

samples list "$TOP" >"$tmp/list"
n=$(grep -c '^README.md:' "$tmp/list")
[ "$n" -ge 5 ]
ok $? "the README has its samples: bench, stat, stat -I, compare, the OpenMetrics file ($n)"
like "$(cat "$tmp/list")" "README.md:[0-9]+ .*baretma bench .*
.*baretma stat .*
.*baretma compare .*
.*--openmetrics .*" "... in the quick start's order"
like "$(grep '^doc/' "$tmp/list")" "^doc/csv.md:" "doc/csv.md's records are samples too"

samples check "$TOP" "$BARETMA" >"$tmp/check"; rc=$?
while IFS= read -r l; do
	case $l in
	"ok "*) ok 0 "${l#ok }" ;;
	"not ok "*) ok 1 "${l#not ok }" ;;
	"#"*) echo "$l" ;;
	esac
done <"$tmp/check"
is "$rc" 0 "t/samples.py check: every sample as its command prints it"
is "$(grep -c '^ok ' "$tmp/check")" "$(wc -l <"$tmp/list" | tr -d ' ')" "every sample listed was checked"

is "$(samples blocks "$TOP")" "" "every other fenced block of README.md and doc/*.md says what it is"

# --- controls, on a copy of the documents -------------------------------------
ctl=$tmp/top
mkdir -p "$ctl/doc"
cp "$TOP/README.md" "$ctl/"
ln -s "$TOP/examples" "$ctl/examples"
first=$(sed -n '1s/^README.md:\([0-9]*\) .*/\1/p' "$tmp/list")	# the bench sample's fence
keep_one() { # FILE: the copy with README's first sample alone (the others' blocks are no samples there)
	awk -v f="$first" 'NR > f + 1 && /^<!-- sample: / { sub(/^<!-- sample: /, "<!-- input: "); } { print }' "$1"
}
keep_one "$TOP/README.md" | sed 's/^<!-- input: \(.*\) -->$/<!-- input -->/' >"$ctl/README.md"
is "$(samples list "$ctl" | wc -l | tr -d ' ')" 1 "control: a copy with the bench sample alone"
samples check "$ctl" "$BARETMA" >/dev/null
ok $? "control: the copy as it is passes"

# a share changed (tma_retiring's median in the first Top-down row): caught
awk -v f="$first" 'NR > f && !done && /tma_retiring/ { t = 1 } t && !done && /\[/ {
	sub(/ [0-9]+\.[0-9][0-9] \[/, " 12.34 ["); done = 1 } { print }' "$ctl/README.md" >"$ctl/r" &&
	mv "$ctl/r" "$ctl/README.md"
samples check "$ctl" "$BARETMA" >"$tmp/ctl1"
is "$?" 1 "control: a Top-down share changed in the sample fails"
like "$(cat "$tmp/ctl1")" "12\\.34" "... and the difference is shown"

# TSC ticks changed (a masked column): still the command's output
keep_one "$TOP/README.md" | sed 's/^<!-- input: \(.*\) -->$/<!-- input -->/' |
	sed 's/^\(empty  *201  *\)[0-9][0-9]*/\1999999/' >"$ctl/README.md"
grep -q '^empty  *201  *999999 ' "$ctl/README.md"
ok $? "control: the empty kernel's TSC ticks changed in the copy"
samples check "$ctl" "$BARETMA" >/dev/null
ok $? "control: TSC ticks differ from the run's and the sample still passes (masked)"

# a sample under a command it does not show
keep_one "$TOP/README.md" | sed 's/^<!-- input: \(.*\) -->$/<!-- input -->/' |
	sed "$((first - 1))s/--kernel dep-chain,ptr-chase -->/--kernel dep-chain -->/" >"$ctl/README.md"
samples check "$ctl" "$BARETMA" >"$tmp/ctl3"
is "$?" 1 "control: a sample whose command is not the one shown above it fails"
like "$(cat "$tmp/ctl3")" "is not a line of the block above it" "... saying so"

# an output block that says nothing of what it is
printf '# x\n\n```\nbaretma: some output\n```\n' >"$ctl/doc/x.md"
like "$(samples blocks "$ctl")" "doc/x.md:3: \`\`\` without" "control: a bare fenced block is refused"
done_testing
