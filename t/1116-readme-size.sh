#!/bin/sh
# t/1116-readme-size.sh - the README is one a newcomer reads in ten minutes
# (issue 29): at most 500 lines; its sections are what the issue lists
# (what baretma is, the two set-up lines, the quick start with bench, stat,
# a region in your code, compare, the export to Prometheus and (issue 31)
# a lab's fleet: a campaign, its report, a host in Prometheus, "Coming from
# perf, toplev, LIKWID or PCM" with stat first, the contents and the links);
# stat has its entry in the contents and in Commands, and Prometheus is
# found from the contents; the reference it held has its homes, which
# exist.  Controls: the README grown past 500 lines, or without stat in
# its contents or Prometheus, fails the same checks.
. "$T_SRC/tap.sh"

TOP=$T_SRC/..
readme=$TOP/README.md
[ -r "$readme" ] || skip_all "no README.md beside t/"

# check FILE: one line per failed rule (nothing when FILE keeps them all)
check() {
	n=$(wc -l <"$1" | tr -d ' ')
	[ "$n" -le 500 ] || echo "$n lines, over 500"
	for h in "## Quick start" "## Coming from perf, toplev, LIKWID or PCM" \
		"## Two command lines (fresh Debian 12, as root)" "## Contents" "## Commands"; do
		grep -qxF "$h" "$1" || echo "no section '$h'"
	done
	qs=$(sed -n '/^## Quick start$/,/^## /p' "$1")
	for c in 'baretma bench' 'baretma stat' 'baretma compare' 'baretma_region_begin' '--openmetrics'; do
		printf '%s\n' "$qs" | grep -qF -- "$c" || echo "the quick start lacks '$c'"
	done
	# issue 31: three lines a lab runs - a campaign, its report, a host in
	# Prometheus - each a command line of the quick start's code blocks
	for c in 'sh examples/slurm/submit.sh' 'baretma report ' 'systemctl enable --now baretma-stat'; do
		printf '%s\n' "$qs" | sed -n '/^```sh$/,/^```$/p' | grep -qF -- "$c" || echo "the quick start lacks the command line '$c'"
	done
	toc=$(sed -n '/^## Contents$/,/^## /p' "$1")
	printf '%s\n' "$toc" | grep -qi '\[stat\]' || echo "no stat in the contents"
	printf '%s\n' "$toc" | grep -qi 'prometheus' || echo "no Prometheus in the contents"
	cmds=$(sed -n '/^## Commands$/,/^## /p' "$1")
	printf '%s\n' "$cmds" | grep -q '`baretma stat`' || echo "no stat in Commands"
	# the first command of "Coming from" is stat's, and its first row's
	from=$(sed -n '/^## Coming from perf, toplev, LIKWID or PCM$/,/^## /p' "$1")
	first=$(printf '%s\n' "$from" | grep -o '`baretma [a-z]*' | head -1)
	[ "$first" = '`baretma stat' ] || echo "Coming from names ${first:-no command} first, not stat"
	row=$(printf '%s\n' "$from" | grep '^| `' | head -1)
	printf '%s\n' "$row" | grep -q 'baretma stat' || echo "the table's first row is not stat's"
}

is "$(check "$readme")" "" "README.md: at most 500 lines ($(wc -l <"$readme" | tr -d ' ')), the issue's sections, stat and Prometheus in its contents"
{ cat "$readme"; i=0; while [ $i -lt 40 ]; do echo; i=$((i + 1)); done; } >"$tmp/long.md"
like "$(check "$tmp/long.md")" "^[0-9]+ lines, over 500$" "control: the README with 40 more lines fails"
sed '/^## Contents$/,/^## /{/\[stat\]/d; s/[Pp]rometheus/metrics/g;}' "$readme" >"$tmp/toc.md"
like "$(check "$tmp/toc.md")" "no stat in the contents.*
no Prometheus in the contents" "control: contents without stat and Prometheus fail"

sed '/^### A lab.s fleet/,/^## /{/baretma report /d;}' "$readme" >"$tmp/fleet.md"
is "$(check "$tmp/fleet.md")" "the quick start lacks the command line 'baretma report '" "control: the quick start without the fleet's report line fails"

# The reference the README held, in its new homes.
for f in doc/json.md doc/simulator.md doc/safety.md doc/numbers.md doc/library.md HACKING.md \
	man/baretma.1 man/baretma-stat.1; do
	[ -r "$TOP/$f" ]
	ok $? "$f is in the tree"
done
for s in "## Leaving the machine as found" "## Running as root safely" "### Files baretma writes" "## Bad input" "### Input caps"; do
	grep -qxF "$s" "$TOP/doc/safety.md"
	ok $? "doc/safety.md has '$s'"
done
grep -q '^| `width N` |' "$TOP/doc/simulator.md"
ok $? "doc/simulator.md has the profile keys' table"
for s in "## Layout" "## Where an addition goes" "## Sanitizers and fuzzing" "## Mutation testing" "## Benchmarks"; do
	grep -qxF "$s" "$TOP/HACKING.md"
	ok $? "HACKING.md has '$s'"
done
# Where an addition goes: a row per addition the issue names
for a in "a CPU model" "a Top-down recipe" "an output format" "a counter source" "an option"; do
	grep -q "^| $a |" "$TOP/HACKING.md"
	ok $? "HACKING.md, Where an addition goes: '$a'"
done
# The titles the tool's messages still quote are found in the README's
# table of where the reference went.
ref=$(sed -n '/^## The reference$/,/^## /p' "$readme")
for t in "The simulated PMU" "Running as root safely" "What the numbers are" "Bad input" "Environment" "baretma validate" "the kernels" "a C example" \
	"Leaving the machine as found" "JSON documents" "Use it from your code"; do
	printf '%s\n' "$ref" | grep -qF "$t"
	ok $? "README 'The reference' says where '$t' went"
done
done_testing
