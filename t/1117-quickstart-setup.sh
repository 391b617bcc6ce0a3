#!/bin/sh
# t/1117-quickstart-setup.sh - the newcomer's items of issue 29 about the
# README's first lines:
#   - the quick start sets no BARETMA_STATE_DIR: a dry run needs none (it
#     keeps its locks and journals in its own $TMPDIR/baretma-dry-EUID, the
#     ENVIRONMENT of man/baretma.1), and each quick-start command runs as
#     written with the variable unset;
#   - one install line: the quick start's apt-get line is the set-up
#     lines' (apt-get update first, libcairo2-dev for the plots), not a
#     shorter one of its own;
#   - the two set-up lines are true to what CI installs and runs
#     (.ci/run): the test line installs .ci/run's packages but the
#     libFuzzer run's clang and libclang-rt-14-dev (which the README
#     names), the main line those the build needs; both build as .ci/run
#     does (autoreconf -fi, configure, make -j2), the test line then
#     `make -j2 check`, the main line `./baretma bench`.
# Controls: the README before issue 29's cut (its quick start as it was:
# BARETMA_STATE_DIR on every command, an apt-get line without update and
# cairo) fails each item.
. "$T_SRC/tap.sh"

TOP=$T_SRC/..
[ -r "$TOP/README.md" ] && [ -r "$TOP/.ci/run" ] || skip_all "no README.md or .ci/run beside t/"

# items README: one line per failed item
items() {
	qs=$(sed -n '/^## Quick start$/,/^## /p' "$1")
	printf '%s\n' "$qs" | grep -q 'BARETMA_STATE_DIR' && echo "the quick start sets BARETMA_STATE_DIR"
	qi=$(printf '%s\n' "$qs" | grep -E '^ *apt-get ' | head -1 | sed 's/^ *//')
	main=$(sed -n '/^Set everything up and run the main job:/,/^Set everything up and run the tests/p' "$1" |
		grep -E '^ *apt-get ' | sed 's/^ *//')
	test_=$(sed -n '/^Set everything up and run the tests:/,/^## /p' "$1" | grep -E '^ *apt-get ' | sed 's/^ *//')
	[ -n "$qi" ] && [ -n "$main" ] && [ -n "$test_" ] || { echo "an install line is missing"; return; }
	case $qi in "apt-get update && apt-get install -y "*) ;; *) echo "the quick start's install line lacks apt-get update" ;; esac
	printf '%s\n' "$qi" | grep -q ' libcairo2-dev ' || echo "the quick start's install line lacks libcairo2-dev"
	inst=${main%% && autoreconf*}
	[ "$qi" = "$inst" ] || echo "the quick start's install line is not the set-up line's ($qi | $inst)"
}
is "$(items "$TOP/README.md")" "" "README: no BARETMA_STATE_DIR in the quick start; its install line is the set-up line's"

old=$T_SRC/data/readme-quickstart-before-29.md
if [ -r "$old" ]; then
	got=$(items "$old")
	like "$got" "sets BARETMA_STATE_DIR" "control: the quick start before issue 29 set BARETMA_STATE_DIR"
	like "$got" "lacks apt-get update" "control: ... its install line lacked apt-get update"
	like "$got" "lacks libcairo2-dev" "control: ... and libcairo2-dev"
else
	skip "no $old"; skip "no $old"; skip "no $old"
fi

# --- the set-up lines against .ci/run ------------------------------------------
pkgs() { printf '%s\n' "$1" | sed 's/.*apt-get install -y //; s/ && .*//' | tr ' ' '\n' | grep . | LC_ALL=C sort -u; }
main=$(sed -n '/^Set everything up and run the main job:/,/^Set everything up and run the tests/p' "$TOP/README.md" | grep -E '^ *apt-get ')
test_=$(sed -n '/^Set everything up and run the tests:/,/^## /p' "$TOP/README.md" | grep -E '^ *apt-get ')
ci=$(sed -n 's/^deps="\(.*\)"$/\1/p' "$TOP/.ci/run" | tr ' ' '\n' | grep . | LC_ALL=C sort -u)
like "$ci" "libcpuid-dev" ".ci/run's package list is read"
fuzz_only="clang
libclang-rt-14-dev"
want=$(printf '%s\n' "$ci" | grep -vxF "$fuzz_only")
is "$(pkgs "$test_" | tr '\n' ' ')" "$(printf '%s\n' "$want" | tr '\n' ' ')" \
	"the test line installs .ci/run's packages, its fuzz run's clang and libclang-rt-14-dev aside"
for p in $fuzz_only; do
	grep -q "\`$p" "$TOP/README.md" || grep -q " $p\`" "$TOP/README.md"
	ok $? "the README names $p, which .ci/run installs beside the test line's"
done
extra=$(pkgs "$main" | grep -vxF "$ci" | tr '\n' ' ')
is "$extra" "" "the main line installs nothing .ci/run does not"
for p in build-essential autoconf automake libtool pkg-config libcpuid-dev libhwloc-dev libjansson-dev libcairo2-dev; do
	pkgs "$main" | grep -qx "$p"
	ok $? "the main line installs $p (configure.ac's build)"
done
like "$main" "&& autoreconf -fi && \\./configure && make -j2 && \\(modprobe msr \\|\\| true\\) && \\./baretma bench\$" \
	"the main line builds and runs the main job, baretma bench"
like "$test_" "&& autoreconf -fi && \\./configure && make -j2 check\$" "the test line builds and runs make check"
grep -q 'autoreconf -fi && cd "\$build" && "\$top/configure" -q && make -j2 && make -j2 check' "$TOP/.ci/run"
ok $? ".ci/run builds and tests the same way (out of tree)"

# --- each quick-start command as written, without BARETMA_STATE_DIR ------------
[ -x "${BARETMA:-}" ] || { skip "no baretma built"; done_testing; }
mkdir "$tmp/co" "$tmp/tmp"
ln -s "$BARETMA" "$tmp/co/baretma"
ln -s "$TOP/examples" "$tmp/co/examples"
sed -n '/^## Quick start$/,/^## /p' "$TOP/README.md" | grep '^BARETMA_MSR=sim:' >"$tmp/cmds"
[ "$(wc -l <"$tmp/cmds")" -ge 5 ]
ok $? "the quick start's dry runs are read ($(wc -l <"$tmp/cmds" | tr -d ' '))"
bad=
while IFS= read -r cmd; do
	(cd "$tmp/co" && env -u BARETMA_STATE_DIR TMPDIR="$tmp/tmp" sh -c "$cmd") >/dev/null 2>"$tmp/err"; rc=$?
	[ "$rc" -eq 0 ] || bad="$bad [$cmd: $rc: $(tail -1 "$tmp/err")]"
done <"$tmp/cmds"
is "$bad" "" "every quick-start dry run exits 0 as written, without BARETMA_STATE_DIR"
ls -d "$tmp/tmp"/baretma-dry-* >/dev/null 2>&1
ok $? "... keeping its state in its own \$TMPDIR/baretma-dry-EUID"
done_testing
