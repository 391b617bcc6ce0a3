#!/bin/sh
# t/1022-output-leftovers.sh - no temporary file of a write is left
# behind (cpu/tmpfile.h, msr/journal/leftovers.h).  Issue 27 found
# `.F.PID.tmp` and `P.svg.XXXXXX` left by killed runs of stat.  A
# temporary file is now named .NAME.baretma-PID-START-N.tmp (START: the
# writer's start time, field 22 of /proc/PID/stat), so that:
#   1. the next write into the same directory removes those of writers
#      that no longer run - and nothing else: not a live writer's, not
#      another name, not a link, a directory, a file with another link or
#      another user's file;
#   2. `pmu restore` removes those a SIGKILLed run left, wherever they are,
#      through the state directory's record of the directories;
#   3. a SIGTERM, SIGINT or SIGHUP while stat -I writes ends the count:
#      the files in place, nothing else left.
. "$T_SRC/tap.sh"
. "$T_SRC/sim-fixture.sh"

printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
BARETMA_MSR=sim:$tmp/p
export BARETMA_MSR

# a PID that ran and ended (a reused PID in between is as unlikely as
# harmless: its start time differs), and a live one with its start time
sh -c 'exit 0' &
dead=$!
wait "$dead"
sleep 300 &
live=$!
trap 'kill "$live" 2>/dev/null; rm -rf "$tmp"' EXIT
start=$(sed 's/.*) //' "/proc/$live/stat" | cut -d' ' -f20)

d=$tmp/dir
mkdir -p "$d"
mk() { printf 'x\n' >"$d/$1"; }
mk ".F.baretma-$dead-77-0.tmp"            # a dead writer's: removed
mk ".P.svg.baretma-$dead-77-3.tmp"        # the same, of a picture
mk ".G.baretma-$live-$start-0.tmp"        # a live writer's: kept
mk ".H.baretma-$live-$((start + 1))-0.tmp" # its PID, another start: a dead writer's, removed
mk ".F.$dead.tmp"                         # the old naming: not recognised, kept
mk ".F.baretma-x-77-0.tmp"                # not a PID: kept
mk ".F.baretma-$dead-77.tmp"              # no sequence number: kept
mk "F.baretma-$dead-77-0.tmp"             # no leading dot: kept
printf 'target\n' >"$tmp/target"
ln -s "$tmp/target" "$d/.L.baretma-$dead-77-0.tmp" # a link: kept, its target too
mkdir "$d/.D.baretma-$dead-77-0.tmp"      # a directory: kept
mk ".K.baretma-$dead-77-0.tmp"
ln "$d/.K.baretma-$dead-77-0.tmp" "$tmp/hardlink" # another link to it: kept
if [ "$(id -u)" = 0 ]; then
	mk ".U.baretma-$dead-77-0.tmp"
	chown 4242 "$d/.U.baretma-$dead-77-0.tmp" # another user's: kept
fi
st=0
"$BARETMA" bench --backend tsc --kernel empty --reps 1 --warmup 0 -o "$d/out.txt" 2>"$tmp/err" || st=$?
is "$st" 0 "a write into the directory: exit 0"
want=".D.baretma-$dead-77-0.tmp
.F.$dead.tmp
.F.baretma-$dead-77.tmp
.F.baretma-x-77-0.tmp
.G.baretma-$live-$start-0.tmp
.K.baretma-$dead-77-0.tmp
.L.baretma-$dead-77-0.tmp
F.baretma-$dead-77-0.tmp
out.txt"
got=$(ls -A "$d" | grep -v '^\.U\.' | LC_ALL=C sort)
is "$got" "$(printf '%s\n' "$want" | LC_ALL=C sort)" \
	"it removed the dead writers' temporary files (of a dead PID, of a PID with another start) and nothing else"
is "$(cat "$tmp/target")" "target" "the link's target untouched"
if [ "$(id -u)" = 0 ]; then
	ok "$([ -f "$d/.U.baretma-$dead-77-0.tmp" ]; echo $?)" "another user's file of that name: kept"
	# under sudo the invoking user's are theirs to sweep, root's own too
	mkdir -p "$tmp/u"
	chown 4242 "$tmp/u"
	for o in 4242 0 4243; do
		printf 'x\n' >"$tmp/u/.F$o.baretma-$dead-77-0.tmp"
		chown "$o" "$tmp/u/.F$o.baretma-$dead-77-0.tmp"
	done
	SUDO_USER=t-sudo-user SUDO_UID=4242 SUDO_GID=4242 BARETMA_MSR= \
		"$BARETMA" cpuid dump -o "$tmp/u/dump.txt" 2>"$tmp/err"
	is "$(ls -A "$tmp/u" | LC_ALL=C sort | tr '\n' ' ')" ".F4243.baretma-$dead-77-0.tmp dump.txt " \
		"under sudo: the invoking user's and root's removed, a third user's kept"
else
	skip "another user's file needs root"
	skip "(the same)"
fi

# --- 2. SIGKILL mid-write; pmu restore ----------------------------------------
# stat -I writes -o's file through one temporary file for the whole run
# (in place at the end): killed, the file stays, and the state directory
# records its directory.
w=$tmp/w
mkdir -p "$w"
sig_dfl "$BARETMA" stat -a -I 100 --count 3000 --cpuid-dump "$ICL" -o "$w/F" >/dev/null 2>"$tmp/stat.err" &
pid=$!
has_tmp() { ls -A "$w" | grep -q "^\.F\.baretma-$pid-[0-9]*-0\.tmp$"; }
has_record() { ls -A "$BARETMA_STATE_DIR" | grep -q "^outputs-$pid-[0-9]*\.list$"; }
running() { ls "$BARETMA_STATE_DIR" | grep -q "^run-$pid\.journal$"; }
until_true has_tmp && until_true has_record && until_true running
ok $? "stat -I -o: its temporary file, its record and its journal exist while it runs"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
has_tmp
ok $? "SIGKILL: the temporary file is left (nothing runs at SIGKILL)"
st=0
"$BARETMA" pmu restore --cpuid-dump "$ICL" >"$tmp/out" 2>"$tmp/err" || st=$?
is "$st" 0 "pmu restore: exit 0"
like "$(cat "$tmp/out")" "removed 1 temporary file of writes that 1 ended run left unfinished" "says what it removed"
is "$(ls -A "$w")" "" "the temporary file is gone; no F was made"
has_record
ok "$((! $?))" "and the record with it"

# a record of a run still running is left to it, and its directories are not swept
printf 'baretma-outputs/1\n0\t%s\0' "$d" >"$BARETMA_STATE_DIR/outputs-$live-$start.list"
chmod 600 "$BARETMA_STATE_DIR/outputs-$live-$start.list"
mk ".Z.baretma-$dead-77-0.tmp"
"$BARETMA" pmu restore --cpuid-dump "$ICL" >"$tmp/out" 2>"$tmp/err"
ok "$([ -f "$BARETMA_STATE_DIR/outputs-$live-$start.list" ] && [ -f "$d/.Z.baretma-$dead-77-0.tmp" ]; echo $?)" \
	"a live run's record: left, its directory not swept"
mv "$BARETMA_STATE_DIR/outputs-$live-$start.list" "$BARETMA_STATE_DIR/outputs-$dead-77.list"
"$BARETMA" pmu restore --cpuid-dump "$ICL" >"$tmp/out" 2>"$tmp/err"
ok "$([ ! -e "$BARETMA_STATE_DIR/outputs-$dead-77.list" ] && [ ! -e "$d/.Z.baretma-$dead-77-0.tmp" ] &&
	[ -e "$d/.G.baretma-$live-$start-0.tmp" ]; echo $?)" \
	"an ended run's record: its directory swept (a live writer's file kept), the record removed"
# a record another user could have written is not acted on
printf 'baretma-outputs/1\n0\t%s\0' "$d" >"$BARETMA_STATE_DIR/outputs-$dead-78.list"
chmod 666 "$BARETMA_STATE_DIR/outputs-$dead-78.list"
mk ".Y.baretma-$dead-77-0.tmp"
"$BARETMA" pmu restore --cpuid-dump "$ICL" >"$tmp/out" 2>"$tmp/err"
ok "$([ -f "$d/.Y.baretma-$dead-77-0.tmp" ]; echo $?)" "a record writable by others: not acted on"
like "$(cat "$tmp/err")" "a record of unfinished writes in '$BARETMA_STATE_DIR' is not one of baretma's" "and said"
rm -f "$BARETMA_STATE_DIR/outputs-$dead-78.list"

# --- 3. a signal while the write is in progress ----------------------------------
for sig in TERM INT HUP; do
	rm -rf "$w"
	mkdir -p "$w"
	sig_dfl "$BARETMA" stat -a -I 100 --count 3000 --cpuid-dump "$ICL" -o "$w/F" \
		--openmetrics "$w/M" >/dev/null 2>"$tmp/stat.err" &
	pid=$!
	until_true has_tmp && until_true running
	kill -"$sig" "$pid"
	st=0
	wait "$pid" || st=$?
	is "$st" 0 "SIG$sig during stat -I: the count ends (exit 0)"
	is "$(ls -A "$w" | tr '\n' ' ')" "F M " "SIG$sig: -o's and --openmetrics's files in place, no temporary file"
	has_record
	ok "$((! $?))" "SIG$sig: no record left"
done
# (the signal guard's removal at a deadly signal: t/1023, in-process)

done_testing
