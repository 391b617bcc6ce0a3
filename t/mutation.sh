#!/bin/sh
# t/mutation.sh - mutation testing of the measuring path (HACKING.md "Mutation
# testing"): each mutant of the list t/data/mutants.tsv is a one-token
# mistake in one file; applied to a scratch copy of the tree, never to the
# tree itself, it must make at least one of the tests the list names for
# it fail.  Not part of `make check` nor of CI: `make mutation`, or
#
#   t/mutation.sh --builddir DIR [--list FILE] [--jobs J] [--timeout S]
#       [--keep DIR] [ID...]
#   t/mutation.sh --check [--diff] [--list FILE] [--tree DIR] [ID...]
#
# The scratch copy is DIR's `make distdir` (the sources as they ship, with
# their generated configure), configured once with
# $MUTATION_CONFIGURE_FLAGS and built once, in a new temporary directory
# (--keep DIR: in DIR, kept).  For each mutant one file is swapped for its
# mutated text, the library, the tool and the named tests only are rebuilt
# (incrementally), and `make check TESTS=...` runs the named tests; then
# the file is put back (with a new mtime: the next build recompiles it).
# The named tests first run once on the unmutated copy: a test failing
# there would pass every mutant off as caught.  $SHARED_CPUID is passed on
# to the tests (`make mutation` sets it as `make check` does).
#
# A mutant is caught when a named test fails or runs past --timeout
# seconds (a loop that no longer ends), survived when they all pass (its
# diff is printed), broken when its line is not six fields, its original
# text does not occur exactly once in its file, the replacement equals it,
# a named test is not in Makefile.am's TESTS, or the mutated tree does not
# build.  The last line: "N mutants: C caught, S survived, B broken" and
# the wall time.  Exit status 0 when every mutant was caught, 1 when one
# survived or broke, 64 bad usage, 66 no list, 69 no timeout(1), 70 the
# scratch copy does not build or the baseline fails.
#
# --check only checks that each mutant applies to the tree (--tree DIR:
# to DIR, whose Makefile.am names the tests), nothing copied, built or
# run: "N mutants: A apply, B broken", status 0 or 1 (t/1068); --diff
# prints each one's diff too.
#
# The list: one mutant a line, six fields separated by one tab: id, file
# (relative to the top of the tree), the original text, its replacement
# (neither empty), the tests that must catch it (space-separated, as in
# Makefile.am's TESTS), and why the mistake is a realistic one.  In the
# two texts \t is a tab, \n a newline, \\ a backslash (any other backslash
# stands for itself).  Lines starting with # and empty lines are comments.
set -u

src=$(cd "$(dirname "$0")/.." && pwd)
list=$src/t/data/mutants.tsv
tree=$src
builddir=
jobs=2
timeout=300
keep=
check=
diffs=
usage="usage: $0 --builddir DIR [--list FILE] [--jobs J] [--timeout S] [--keep DIR] [ID...] | --check [--diff] [--list FILE] [--tree DIR] [ID...]"
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$2; shift 2 ;;
	--list) list=$2; shift 2 ;;
	--tree) tree=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--keep) keep=$2; shift 2 ;;
	--check) check=1; shift ;;
	--diff) check=1 diffs=1; shift ;;
	--) shift; break ;;
	-*) echo "$usage" >&2; exit 64 ;;
	*) break ;;
	esac
done
[ -r "$list" ] || { echo "$0: cannot read the list '$list'" >&2; exit 66; }

# The list's records, checked for shape: "LINE<tab>ID<tab>FILE<tab>ORIG
# <tab>REPL<tab>TESTS" a line, the texts still escaped; a line that has
# not six non-empty fields: "LINE<tab>-" (broken).  With IDs: theirs only.
records() {
	awk -F '\t' -v ids=" $* " '/^#/ || /^[ \t]*$/ { next }
	NF != 6 || $1 == "" || $2 == "" || $3 == "" || $4 == "" || $5 == "" {
		if (ids == "  ") print NR "\t-"
		next
	}
	ids == "  " || index(ids, " " $1 " ") { print NR "\t" $1 "\t" $2 "\t" $3 "\t" $4 "\t" $5 }' "$list"
}
# unknown IDS...: the IDs the list does not have, one a line
unknown() {
	for id in "$@"; do
		awk -F '\t' -v id="$id" '$1 == id { f = 1 } END { exit !f }' "$list" || echo "$id"
	done
}

# apply FILE: FILE with $MUT_ORIG replaced by $MUT_REPL (both unescaped)
# into $MUT_OUT; status 0, or 2 with the reason when the original does not
# occur exactly once (occurrences may overlap) or equals the replacement.
apply() {
	awk 'function unesc(s,   o, i, c, n) {
		o = ""; n = length(s)
		for (i = 1; i <= n; i++) {
			c = substr(s, i, 1)
			if (c == "\\" && i < n) {
				c = substr(s, i + 1, 1)
				if (c == "t") { c = "\t"; i++ }
				else if (c == "n") { c = "\n"; i++ }
				else if (c == "\\") i++
				else c = "\\"
			}
			o = o c
		}
		return o
	}
	{ text = text $0 "\n" }
	END {
		orig = unesc(ENVIRON["MUT_ORIG"]); repl = unesc(ENVIRON["MUT_REPL"])
		n = 0; rest = text; at = 0; pos = 0
		while ((i = index(rest, orig)) > 0) {
			n++; if (n == 1) pos = at + i
			at += i; rest = substr(rest, i + 1)
		}
		if (n != 1) { print "the original text occurs " n " times"; exit 2 }
		if (orig == repl) { print "the replacement equals the original text"; exit 2 }
		printf "%s", substr(text, 1, pos - 1) repl substr(text, pos + length(orig)) >ENVIRON["MUT_OUT"]
	}' "$1"
}

# why_broken ROOT FILE TESTS: empty when the mutant applies to ROOT/FILE
# (into $MUT_OUT) and names tests of ROOT's Makefile.am, else the reason
why_broken() {
	[ -f "$1/$2" ] || { echo "no file $2"; return; }
	r=$(apply "$1/$2") || { echo "$2: $r"; return; }
	for t in $3; do
		grep -Eq "^[[:space:]]*$t( \\\\)?\$" "$1/Makefile.am" ||
			{ echo "no test $t in Makefile.am's TESTS"; return; }
	done
}

bad_ids=$(unknown "$@")
[ -z "$bad_ids" ] || { echo "$0: no mutant '$(echo $bad_ids)' in $list" >&2; exit 64; }

if [ -n "$check" ]; then
	[ -f "$tree/Makefile.am" ] || { echo "$0: no Makefile.am in '$tree'" >&2; exit 64; }
	MUT_OUT=$(mktemp "${TMPDIR:-/tmp}/baretma-mutant.XXXXXX") || exit 73
	trap 'rm -f "$MUT_OUT"' EXIT
	export MUT_OUT
	n=0 bad=0
	while IFS='	' read -r line id file orig repl tests; do
		[ -n "$line" ] || continue
		n=$((n + 1))
		if [ "$id" = - ]; then
			echo "BROKEN   line $line: not six fields"; bad=$((bad + 1)); continue
		fi
		MUT_ORIG=$orig MUT_REPL=$repl
		export MUT_ORIG MUT_REPL
		r=$(why_broken "$tree" "$file" "$tests")
		if [ -n "$r" ]; then
			echo "BROKEN   $id: $r"; bad=$((bad + 1))
		elif [ -n "$diffs" ]; then
			echo "mutant   $id: $tests"
			diff -u --label "a/$file" --label "b/$file" "$tree/$file" "$MUT_OUT" | sed 's/^/    /'
		fi
	done <<EOF
$(records "$@")
EOF
	echo "$n mutants: $((n - bad)) apply, $bad broken"
	[ "$bad" -eq 0 ]
	exit $?
fi

[ -n "$builddir" ] && [ -f "$builddir/Makefile" ] ||
	{ echo "$0: --builddir must name a configured build tree" >&2; echo "$usage" >&2; exit 64; }
builddir=$(cd "$builddir" && pwd)
command -v timeout >/dev/null 2>&1 || { echo "$0: needs timeout (coreutils)" >&2; exit 69; }
start=$(date +%s)
dir=${keep:-$(mktemp -d "${TMPDIR:-/tmp}/baretma-mutation.XXXXXX")} || exit 73
[ -n "$keep" ] || trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || exit 73
s=$dir/src b=$dir/build log=$dir/log
: >"$log"
records "$@" >"$dir/records"

echo "mutation: scratch copy in $dir"
rm -rf "$s" "$b"
if ! make -C "$builddir" distdir distdir="$s" </dev/null >>"$log" 2>&1 || ! mkdir -p "$b" ||
   ! (cd "$b" && "$s/configure" -q ${MUTATION_CONFIGURE_FLAGS:-}) </dev/null >>"$log" 2>&1; then
	tail -20 "$log"; echo "$0: the scratch copy does not configure" >&2; exit 70
fi
# The programs the tests run besides themselves: the check programs that
# are not TAP tests (t/baretma-hooks, t/sig-default, ...).
helpers=$(printf 'mut-helpers:\n\t@echo $(filter-out %%.t,$(check_PROGRAMS))\n' |
	make -s -C "$b" -f Makefile -f - mut-helpers)
# c_tests TESTS: those of TESTS that are programs
c_tests() {
	for t in $1; do case $t in *.t) printf ' %s' "$t" ;; esac; done
}
# build TESTS: the library and the tool (`all` runs a make of its own:
# the programs after it, or two makes would build the library at once),
# then the programs TESTS need
build() {
	make -C "$b" -j"$jobs" all </dev/null >>"$log" 2>&1 &&
		make -C "$b" -j"$jobs" $helpers $(c_tests "$1") </dev/null >>"$log" 2>&1
}
# run TESTS: the tests under make check, no other program built (status
# 124 or 137: past --timeout)
run() {
	timeout -k 10 "$timeout" make -C "$b" -j"$jobs" check TESTS="$1" \
		check_PROGRAMS="$helpers $(c_tests "$1")" </dev/null >>"$log" 2>&1
}
# failed TESTS: those of TESTS whose last run failed or erred
failed() {
	for t in $1; do
		grep -Eq '^:test-result: (FAIL|ERROR|XPASS)' "$b/$t.trs" 2>/dev/null && printf ' %s' "$t"
	done
}

all_tests=$(cut -f6 "$dir/records" | tr ' ' '\n' | grep . | sort -u | tr '\n' ' ')
echo "mutation: building the scratch copy"
build "$all_tests" || { tail -20 "$log"; echo "$0: the scratch copy does not build" >&2; exit 70; }
echo "mutation: baseline: $all_tests"
if ! run "$all_tests"; then
	echo "$0: the named tests fail on the unmutated tree:$(failed "$all_tests")" >&2
	echo "(their logs: $b/t/, kept with --keep DIR)" >&2
	exit 70
fi
echo "mutation: baseline passes ($(($(date +%s) - start)) s)"

MUT_OUT=$dir/mutant
export MUT_OUT
n=0 caught=0 survived=0 broken=0
while IFS='	' read -r line id file orig repl tests; do
	[ -n "$line" ] || continue
	n=$((n + 1))
	if [ "$id" = - ]; then
		echo "BROKEN   line $line: not six fields"; broken=$((broken + 1)); continue
	fi
	t0=$(date +%s)
	MUT_ORIG=$orig MUT_REPL=$repl
	export MUT_ORIG MUT_REPL
	r=$(why_broken "$s" "$file" "$tests")
	if [ -n "$r" ]; then
		echo "BROKEN   $id: $r"; broken=$((broken + 1)); continue
	fi
	cp "$s/$file" "$dir/orig"
	cp "$dir/mutant" "$s/$file"
	echo "=== $id $file" >>"$log"
	if ! build "$tests"; then
		echo "BROKEN   $id: the mutated tree does not build (see $log with --keep DIR)"
		broken=$((broken + 1))
	else
		run "$tests"
		st=$?
		if [ "$st" -eq 124 ] || [ "$st" -eq 137 ]; then
			echo "caught   $id ($(($(date +%s) - t0)) s): past ${timeout} s"; caught=$((caught + 1))
		elif [ "$st" -ne 0 ]; then
			echo "caught   $id ($(($(date +%s) - t0)) s):$(failed "$tests")"; caught=$((caught + 1))
		else
			echo "SURVIVED $id ($(($(date +%s) - t0)) s): $tests all pass"
			diff -u --label "a/$file" --label "b/$file" "$dir/orig" "$dir/mutant" | sed 's/^/    /'
			survived=$((survived + 1))
		fi
	fi
	cp "$dir/orig" "$s/$file"
	touch "$s/$file"
done <"$dir/records"
echo "$n mutants: $caught caught, $survived survived, $broken broken ($(($(date +%s) - start)) s)"
[ "$survived" -eq 0 ] && [ "$broken" -eq 0 ]
