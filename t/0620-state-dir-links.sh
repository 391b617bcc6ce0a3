#!/bin/sh
# t/0620-state-dir-links.sh - a symbolic link among the state directory's
# parents cannot choose where root creates it (issue 9, point 6).  Before,
# BARETMA_STATE_DIR=/tmp/x/lnk/baretma with lnk -> /etc made /etc/baretma:
# the state directory is now walked from / one component at a time
# (msr/journal/state_dir.c); a link is followed only when only root can have made
# it (owned by root, in a directory owned by root that group and others
# cannot write: /var/run -> /run), and never as the state directory itself.
# Here $tmp/etc stands in for /etc, the link is made as another user would
# make it, and 'pmu enable' (which creates the state directory for its
# lock and journal) runs on the Ice Lake fixture (t/guard-fixture.sh).
. "$T_SRC/tap.sh"
. "$T_SRC/guard-fixture.sh"

mkdir -p "$tmp/run" "$tmp/etc" "$tmp/x"
chmod 0700 "$tmp/run"
ln -s "$tmp/etc" "$tmp/x/lnk"
# As root, the link must be someone else's, as an attacker's is (as another
# user it is that user's own: not root's, so never followed either).
[ "$(id -u)" = 0 ] && chown -h 65534 "$tmp/x/lnk"

# enable DIR: 'pmu enable' on cpu 1 with DIR as the state directory.
enable() {
	BARETMA_STATE_DIR=$1 "$BARETMA" pmu enable --cpuid-dump "$ICL" --cpu 1 2>&1 >/dev/null
}
restore() { BARETMA_STATE_DIR=$1 "$BARETMA" pmu restore >/dev/null 2>&1; }

# --- the attack: a link to "/etc" among the parents ----------------------------
fixture
out=$(enable "$tmp/x/lnk/baretma"); rc=$?
is "$rc" 77 "a link among the parents: refused (exit 77)"
like "$out" "state dir '$tmp/x/lnk/baretma': '$tmp/x/lnk' in its path is a symbolic link someone other than root could have made: refused" \
	"the message names the link"
is "$(ls -A "$tmp/etc")" "" "nothing created in the link's target (the stand-in for /etc)"
is "$(same "$tmp/state" "$tmp/orig")" 0 "no register written"

# The same link deeper, and a relative one: refused alike.
mkdir -p "$tmp/y/z"
ln -s ../../etc "$tmp/y/z/rel"
[ "$(id -u)" = 0 ] && chown -h 65534 "$tmp/y/z/rel"
out=$(enable "$tmp/y/z/rel/sub/baretma"); rc=$?
is "$rc" 77 "a relative link deeper in the path: refused"
like "$out" "'$tmp/y/z/rel' in its path is a symbolic link" "the message names that link"
is "$(ls -A "$tmp/etc")" "" "nothing created in its target"

# --- a normal nested path ----------------------------------------------------
mkdir -p "$tmp/a/b/c"
fixture
out=$(enable "$tmp/a/b/c/baretma"); rc=$?
is "$rc" 0 "a nested path of real directories: pmu enable exits 0"
is "$(stat -c '%a %u' "$tmp/a/b/c/baretma" 2>/dev/null)" "700 $(id -u)" \
	"the state directory is created 0700, the caller's own"
restore "$tmp/a/b/c/baretma"
is "$(same "$tmp/state" "$tmp/orig")" 0 "and restore puts the registers back"

# --- links only root can have made: followed (/var/run -> /run) -------------
if [ "$(id -u)" = 0 ]; then
	# $tmp/sys: root's, 0755, like /var; run -> $tmp/realrun, root's link.
	mkdir -m 0755 "$tmp/sys" && mkdir -m 0755 "$tmp/realrun"
	ln -s "$tmp/realrun" "$tmp/sys/run"
	fixture
	out=$(enable "$tmp/sys/run/baretma"); rc=$?
	is "$rc" 0 "root's link in root's own directory (like /var/run): followed"
	is "$(stat -c '%a' "$tmp/realrun/baretma" 2>/dev/null)" 700 "the state directory made in its target, 0700"
	restore "$tmp/sys/run/baretma"
	# The same root-owned link where others can write (like /tmp): refused,
	# since anyone could have replaced it there.
	mkdir -m 1777 "$tmp/open" && ln -s "$tmp/etc" "$tmp/open/lnk"
	fixture
	out=$(enable "$tmp/open/lnk/baretma"); rc=$?
	is "$rc" 77 "root's link in a directory others can write: refused"
	is "$(ls -A "$tmp/etc")" "" "nothing created in its target"
	# A root link whose target goes through another user's link: that one
	# is refused.
	ln -s "$tmp/x/lnk" "$tmp/sys/chain"
	out=$(enable "$tmp/sys/chain/baretma"); rc=$?
	is "$rc" 77 "root's link to a path through another user's link: refused"
	like "$out" "'$tmp/x/lnk' in its path is a symbolic link" "the message names the link that is not root's"
else
	for i in 1 2 3 4 5 6; do skip "not root: cannot make root's links"; done
fi

# The state directory itself is never a link, even root's own.
mkdir -m 0700 "$tmp/real-state"
ln -s "$tmp/real-state" "$tmp/state-link"
out=$(enable "$tmp/state-link"); rc=$?
is "$rc" 77 "the state directory as a link: refused"
like "$out" "state dir '$tmp/state-link' is a symbolic link: refused" "the message names it"

done_testing
