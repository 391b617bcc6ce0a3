#!/bin/sh
# t/0979-guard-texts-whole.sh - the guard's refusals reach the user whole,
# however long the paths they quote: the guard kept its message in 8192
# bytes, and a state directory refused for a parent others may change names
# the directory once and that parent twice (the second time in the remedy),
# so a path of some 3000 bytes (a path may be PATH_MAX, 4096 bytes: linux
# include/uapi/linux/limits.h) lost the end of the line, the remedy.
# Runs 'pmu enable' on the Ice Lake fixture (t/guard-fixture.sh), as
# t/0621 does; the expected sentence is written out here.
. "$T_SRC/tap.sh"
. "$T_SRC/guard-fixture.sh"

seg=$(printf '%0200d' 0 | tr 0 p)
parent=$tmp
i=0
while [ "$i" -lt 14 ]; do
	parent=$parent/$seg
	i=$((i + 1))
done
mkdir -p "$parent"
chmod 0777 "$parent" # whatever the umask
dir=$parent/run
[ ${#parent} -gt 2800 ]; ok $? "the parent's path is ${#parent} bytes: named three times, over 8192"

fixture
out=$(BARETMA_STATE_DIR=$dir "$BARETMA" pmu enable --cpuid-dump "$ICL" --cpu 1 2>&1); rc=$?
is "$rc" 77 "a parent mode 0777: refused (exit 77, EX_NOPERM)"
want="state dir '$dir': '$parent' in its path is writable by group and others (mode 0777) and not sticky: refused (they could move the state dir aside and hide its journals, and 'pmu restore' would find nothing to restore; chmod go-w '$parent', or chmod +t it as /tmp is, or give a path whose every directory only root or uid $(id -u) can change)"
is "$(printf '%s\n' "$out" | grep -cF -- "baretma: $want")" 1 \
	"the whole refusal (${#want} bytes), its remedy last: $(printf '%s' "$out" | tail -c 200)"
is "$(same "$tmp/state" "$tmp/orig")" 0 "no register written"
ok $([ ! -e "$dir" ]; echo $?) "the state directory was not created"
done_testing
