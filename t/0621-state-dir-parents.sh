#!/bin/sh
# t/0621-state-dir-parents.sh - a directory on the way to the state
# directory that another user can change cannot hide its journals.
#
# The attack: with BARETMA_STATE_DIR=$tmp/shared/run and $tmp/shared mode
# 0777, 'pmu enable' left its journal in run/; another user renamed run/
# aside, and 'pmu restore' said "nothing to restore" (exit 0) with the PMU
# left enabled.  Only the last component was checked (msr/journal/state_dir.c).
# Now every directory from / down must be owned by root or the effective
# user and not writable by group or others unless sticky (like /tmp:
# others cannot rename or remove our entries there); anything else is
# refused (exit 77, EX_NOPERM, as a state directory writable by others is),
# the message naming that directory and the remedy, before anything is
# created or written.  Runs 'pmu enable' on the Ice Lake fixture
# (t/guard-fixture.sh); the cases that need a directory of another user
# (uid 4242, which no one here is) run as root only.
. "$T_SRC/tap.sh"
. "$T_SRC/guard-fixture.sh"

# enable DIR / restore DIR: 'pmu enable' on cpu 1, 'pmu restore', with DIR
# as the state directory; stdout and stderr in $out, the status in $rc.
enable() {
	out=$(BARETMA_STATE_DIR=$1 "$BARETMA" pmu enable --cpuid-dump "$ICL" --cpu 1 2>&1); rc=$?
}
restore() { out=$(BARETMA_STATE_DIR=$1 "$BARETMA" pmu restore 2>&1); rc=$?; }
programmed_1() { grep -q '^1 0x38d 0x3333$' "$tmp/state"; echo $?; }

# --- the attack: a parent writable by others, not sticky ---------------------
mkdir -m 0777 "$tmp/shared"
chmod 0777 "$tmp/shared" # whatever the umask
fixture
enable "$tmp/shared/run"
is "$rc" 77 "a parent mode 0777: pmu enable refused (exit 77)"
like "$out" "state dir '$tmp/shared/run': '$tmp/shared' in its path is writable by group and others \(mode 0777\) and not sticky: refused" \
	"the message names that parent, its mode, and why"
like "$out" "hide its journals.*chmod go-w '$tmp/shared', or chmod \+t it" "  and the remedy"
is "$(same "$tmp/state" "$tmp/orig")" 0 "  no register written"
ok $([ ! -e "$tmp/shared/run" ]; echo $?) "  the state directory was not created"

# The journal of an earlier run in a directory whose parent became 0777:
# restore refuses rather than trusting (or missing) what it finds.
mkdir -m 0755 "$tmp/later"
fixture
enable "$tmp/later/run"
is "$rc" 0 "control: a parent mode 0755: pmu enable exits 0"
is "$(programmed_1)" 0 "  cpu 1 programmed, its journal in run/"
chmod 0777 "$tmp/later"
mv "$tmp/later/run" "$tmp/later/hidden"
restore "$tmp/later/run"
is "$rc" 77 "the parent made 0777 and run/ moved aside: restore refused (exit 77)"
unlike "$out" "^nothing to restore: no journal" "  not 'nothing to restore: no journal in ...'"
like "$out" "'$tmp/later' in its path is writable by group and others" "  the parent named"
mv "$tmp/later/hidden" "$tmp/later/run"
chmod 0755 "$tmp/later"
restore "$tmp/later/run"
is "$rc" 0 "the parent put back to 0755: restore exits 0"
is "$(same "$tmp/state" "$tmp/orig")" 0 "  and puts the registers back"

# Writable by the group only: refused alike.
mkdir -m 0770 "$tmp/group"
chmod 0770 "$tmp/group"
fixture
enable "$tmp/group/run"
is "$rc" 77 "a parent mode 0770: refused"
like "$out" "'$tmp/group' in its path is writable by group \(mode 0770\)" "  said: the group can write it"

# --- sticky, like /tmp: accepted --------------------------------------------
mkdir -m 1777 "$tmp/sticky"
chmod 1777 "$tmp/sticky"
fixture
enable "$tmp/sticky/run"
is "$rc" 0 "a parent mode 1777 (sticky, as /tmp): accepted"
is "$(stat -c '%a' "$tmp/sticky/run" 2>/dev/null)" 700 "  the state directory made in it, 0700"
restore "$tmp/sticky/run"
is "$(same "$tmp/state" "$tmp/orig")" 0 "  and restore puts the registers back"

# The state directory itself is never accepted writable by others, sticky
# or not (t/0510 has the 0777 case).
mkdir -m 1777 "$tmp/sticky-run"
chmod 1777 "$tmp/sticky-run"
fixture
enable "$tmp/sticky-run"
is "$rc" 77 "the state directory itself mode 1777: refused"
like "$out" "state dir '$tmp/sticky-run' or a file in it is not owned by uid $(id -u) or is writable by others" \
	"  with the state directory's own message"

# --- a long path of ordinary directories -----------------------------------
deep=$tmp
i=0
while [ $i -lt 40 ]; do deep=$deep/d$i-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa; i=$((i + 1)); done
mkdir -p "$deep"
fixture
enable "$deep/run"
is "$rc" 0 "40 nested directories of 0755 (a ${#deep}-byte path): accepted"
restore "$deep/run"

# --- a parent of another user ----------------------------------------------
if [ "$(id -u)" = 0 ]; then
	mkdir -m 0755 "$tmp/theirs"
	chown 4242 "$tmp/theirs"
	fixture
	enable "$tmp/theirs/run"
	is "$rc" 77 "a parent owned by uid 4242 (mode 0755): refused"
	like "$out" "state dir '$tmp/theirs/run': '$tmp/theirs' in its path is owned by uid 4242 \(mode 0755\), not by root or uid 0: refused" \
		"  the message names the parent and its owner"
	is "$(same "$tmp/state" "$tmp/orig")" 0 "  no register written"
	ok $([ ! -e "$tmp/theirs/run" ]; echo $?) "  nothing created in it"
	# Sticky does not help when the directory is theirs: its owner may
	# rename anything in it.
	mkdir -m 1777 "$tmp/their-tmp"
	chmod 1777 "$tmp/their-tmp"
	chown 4242 "$tmp/their-tmp"
	enable "$tmp/their-tmp/run"
	is "$rc" 77 "a sticky 1777 parent owned by uid 4242: refused"
	# A directory of ours under root's sticky one (a state dir under /tmp):
	# fine; one of another user's under it: refused.
	mkdir -m 0755 "$tmp/sticky/mine" "$tmp/sticky/notmine"
	chown 4242 "$tmp/sticky/notmine"
	fixture
	enable "$tmp/sticky/mine/run"
	is "$rc" 0 "root's own directory under a sticky one: accepted"
	restore "$tmp/sticky/mine/run"
	enable "$tmp/sticky/notmine/run"
	is "$rc" 77 "uid 4242's directory under a sticky one: refused"
	like "$out" "'$tmp/sticky/notmine' in its path is owned by uid 4242" "  naming it"
else
	for i in 1 2 3 4 5 6 7 8; do skip "not root: cannot give a directory to another user"; done
fi

done_testing
