#!/bin/sh
# t/0923-plot-errors.sh - what `--plot FILE` refuses, and that a refusal
# or a failure leaves nothing behind (doc/plots.md, "The file"): an
# unknown extension (64) and --plot with --backend tsc (64) before
# anything runs; a symbolic link (73: never written through, the link
# and its target as they were), a directory, a FIFO (73), a directory
# that is missing or not writable (73); a file system that takes no more
# bytes (`ulimit -f`, SIGXFSZ ignored: write(2) fails with EFBIG, as a
# full disk would) after the measurement: 74, the old picture kept whole,
# no temporary file.  A picture replaces an old one by rename (a new
# inode) keeping its mode; a new one is 0666 less the umask (the rule of
# every file a command writes).  Built without cairo: --plot
# exits 69 naming the option and how to get cairo, and bench without it
# works.
. "$T_SRC/tap.sh"

. "$T_SRC/sim-fixture.sh"

printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"
d=$tmp/pics
mkdir "$d"

# run [ULIMIT] ARGS...: bench on the simulated SPR with ARGS; status in $st
run() {
	st=0
	BARETMA_CPUID_DUMP=$SPR BARETMA_MSR=sim:$tmp/p "$BARETMA" bench --backend msr --reps 3 \
		--kernel retire-light "$@" >"$tmp/out" 2>"$tmp/err" || st=$?
}
# listing: what $d holds, with link targets and kinds
listing() { (cd "$d" && find . -printf '%p %y %l\n' | sort); }

if [ "${T_HAVE_CAIRO:-}" != yes ]; then
	run --plot "$d/x.png"
	is "$st" 69 "built without cairo: --plot exits 69"
	is "$(cat "$tmp/err")" "baretma: bench: --plot '$d/x.png': this baretma was built without cairo (install it: apt-get install libcairo2-dev, then ./configure && make again)" \
		"it names the option, the file and how to get cairo"
	is "$(listing)" ". d " "nothing written"
	is "$(wc -c <"$tmp/out" | tr -d ' ')" 0 "nothing measured"
	run
	is "$st" 0 "bench without --plot works"
	done_testing
fi

# --- before anything runs -----------------------------------------------------
run --plot "$d/x.gif"
is "$st" 64 "an unknown extension: exit 64"
is "$(cat "$tmp/err")" "baretma: bench: --plot '$d/x.gif': unknown picture format (name the file .svg, .png or .pdf)" \
	"it names the file and the formats"
is "$(wc -c <"$tmp/out" | tr -d ' '):$(listing)" "0:. d " "nothing measured, nothing written"
st=0
BARETMA_CPUID_DUMP=$SPR BARETMA_MSR=sim:$tmp/p BARETMA_PERF=sim:$tmp/p "$BARETMA" compare \
	--plot "$d/c.jpeg" >"$tmp/out" 2>"$tmp/err" || st=$?
is "$st:$(cat "$tmp/err")" "64:baretma: compare: --plot '$d/c.jpeg': unknown picture format (name the file .svg, .png or .pdf)" \
	"compare: the same refusal"
run --backend tsc --plot "$d/x.svg"
is "$st" 64 "--plot with --backend tsc: exit 64 (no Top-down to draw)"
like "$(cat "$tmp/err")" "--plot and --backend tsc exclude each other" "it says why"

# --- what is at FILE ----------------------------------------------------------
echo "the target" >"$tmp/target"
ln -s "$tmp/target" "$d/l.svg"
ln -s "$tmp/missing.svg" "$d/dangling.svg"
mkdir "$d/dir.svg"
mkfifo "$d/fifo.png"
before=$(listing)
run --plot "$d/l.svg"
is "$st" 73 "a symbolic link: exit 73"
is "$(cat "$tmp/err")" "baretma: bench: --plot '$d/l.svg': refusing to write through a symbolic link (remove it, or give another path)" \
	"it says it will not write through a link"
is "$(cat "$tmp/target")" "the target" "the link's target keeps its bytes"
run --plot "$d/dangling.svg"
is "$st" 73 "a dangling symbolic link: exit 73"
[ ! -e "$tmp/missing.svg" ]
ok $? "its target is not created"
run --plot "$d/dir.svg"
is "$st:$(cat "$tmp/err")" "73:baretma: bench: --plot '$d/dir.svg': is a directory (give the path of a file)" \
	"a directory: exit 73"
run --plot "$d/fifo.png"
is "$st:$(cat "$tmp/err")" "73:baretma: bench: --plot '$d/fifo.png': refusing to replace a FIFO, a device or a socket (give the path of a regular file)" \
	"a FIFO: exit 73"
is "$(listing)" "$before" "links, directory and FIFO as they were, nothing added"
rm -r "$d/l.svg" "$d/dangling.svg" "$d/dir.svg" "$d/fifo.png"

# --- its directory ------------------------------------------------------------
run --plot "$d/nope/x.png"
is "$st:$(cat "$tmp/err")" "73:baretma: bench: cannot create --plot '$d/nope/x.png': No such file or directory (does the directory '$d/nope' exist?)" \
	"a missing directory: exit 73, before measuring"
is "$(wc -c <"$tmp/out" | tr -d ' ')" 0 "nothing measured"
if [ "$(id -u)" != 0 ]; then
	mkdir "$d/ro"
	chmod 555 "$d/ro"
	run --plot "$d/ro/x.png"
	is "$st:$(cat "$tmp/err")" "73:baretma: bench: cannot create --plot '$d/ro/x.png': Permission denied (can you write in the directory '$d/ro'?)" \
		"a directory not writable: exit 73"
	is "$(ls -A "$d/ro")" "" "nothing left in it"
	chmod 755 "$d/ro"
	rmdir "$d/ro"
else
	skip "root writes in a directory of mode 555: the unwritable directory needs a user"
	skip "(the same)"
fi

# --- replacing, and failing to ------------------------------------------------
echo "old picture" >"$d/x.png"
chmod 604 "$d/x.png"
ino=$(stat -c %i "$d/x.png")
st=0
(umask 027 && run --plot "$d/x.png" && exit "$st") || st=$?
is "$st" 0 "an existing picture: replaced (exit 0)"
is "$(head -c 4 "$d/x.png" | od -An -c | tr -d ' ')" "211PNG" "it is a PNG now"
ok "$([ "$(stat -c %i "$d/x.png")" != "$ino" ]; echo $?)" "by rename: a new inode, never the old file rewritten"
is "$(stat -c %a "$d/x.png")" 604 "the old file's mode kept (as -o, and a shell's > FILE)"
st=0
(umask 027 && run --plot "$d/new.png" && exit "$st") || st=$?
is "$st:$(stat -c %a "$d/new.png")" 0:640 "a new picture: mode 0666 less the umask 027"
rm -f "$d/new.png"
cp "$d/x.png" "$tmp/good.png"
# 32 blocks of 512 bytes (dash; 1024 in bash: either way below the PNG's size)
st=0
(trap '' XFSZ; ulimit -f 32; run --plot "$d/x.png"; exit "$st") || st=$?
is "$st" 74 "a file system that takes no more: exit 74, after the measurement"
is "$(cat "$tmp/err")" "baretma: bench: cannot write --plot '$d/x.png': File too large (nothing was left there)" \
	"it says what failed and that nothing was left"
cmp -s "$d/x.png" "$tmp/good.png"
ok $? "the old picture is whole"
is "$(ls "$d")" "x.png" "no temporary file left"
done_testing
