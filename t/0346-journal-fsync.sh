#!/bin/sh
# t/0346-journal-fsync.sh - every journal write is durable: after each
# link or rename that puts a journal in place in the state directory, the
# directory itself is fsync'd before the next one (and before the journal
# is removed).  A rename is durable only once its directory is: "Calling
# fsync() does not necessarily ensure that the entry in the directory
# containing the file has also reached disk.  For that an explicit fsync()
# on a file descriptor for the directory is also needed" (fsync(2)).  A
# power cut cannot be played here, so the system calls are watched:
# strace -f -y (each descriptor shown with its path) of bench (a run
# journal: linked, renamed at each save, removed) and of `pmu enable` /
# `pmu restore` (an enable journal), on the state-file backend of the
# guard fixture.  Kills the mutant that drops msr/journal/journal.c persist()'s
# fsync(j->dirfd).
. "$T_SRC/tap.sh"
. "$T_SRC/guard-fixture.sh"

command -v strace >/dev/null 2>&1 || skip_all "strace not installed (.ci/run installs it)"
strace -o /dev/null true >/dev/null 2>&1 || skip_all "strace cannot trace here (ptrace refused)"

fixture
mkdir -p "$BARETMA_STATE_DIR"
DIR=$(cd "$BARETMA_STATE_DIR" && pwd -P)

# durable TRACE: "LINKS_AND_RENAMES NOT_FOLLOWED_BY_A_DIRECTORY_FSYNC" for
# the state directory's journals.  A call cut in two by another thread
# ("<unfinished ...>") counts where it starts.
durable() {
	awk -v d="<$DIR>" '
	function fd_is_dir(s) { return index(s, d) > 0 }
	/ (linkat|renameat2?)\(/ {
		split($0, a, "(")
		split(a[2], f, ",")
		if (!fd_is_dir(f[1])) next
		if ($0 !~ /\.journal"/) next
		if (pending) bad++
		pending = 1; n++
		next
	}
	/ unlinkat\(/ {
		split($0, a, "(")
		split(a[2], f, ",")
		if (fd_is_dir(f[1]) && f[2] ~ /^ *"[^.][^"]*\.journal"/) { if (pending) bad++; pending = 0 }
		next
	}
	/ fsync\(/ {
		split($0, a, "(")
		split(a[2], f, ")")
		if (fd_is_dir(f[1] ")")) pending = 0
	}
	END { if (pending) bad++; print n + 0, bad + 0 }' "$1"
}

# trace CMD...: strace of one command into $tmp/st.  LeakSanitizer (the
# --enable-sanitizers build) refuses to run under ptrace and fails the
# command: leaks are checked by every other test, not this one.
trace() {
	rm -f "$tmp/st"
	st=0
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -y -e trace=linkat,renameat,renameat2,unlinkat,fsync -o "$tmp/st" \
		"$BARETMA" "$@" >"$tmp/out" 2>&1 || st=$?
}

trace bench --cpuid-dump "$ICL" --cpu 1 --backend msr --kernel retire-light --reps 3 --warmup 0
is "$st" 0 "bench under strace exits 0"
set -- $(durable "$tmp/st")
ok $((!($1 >= 2))) "bench: its journal was put in place $1 times (linked once, renamed at each save)"
is "$2" 0 "bench: each followed by an fsync of the state directory"

trace pmu enable --cpuid-dump "$ICL" --cpu 1
is "$st" 0 "pmu enable under strace exits 0"
set -- $(durable "$tmp/st")
ok $((!($1 >= 1))) "pmu enable: its journal was put in place ($1)"
is "$2" 0 "pmu enable: each followed by an fsync of the state directory"
trace pmu restore
is "$st" 0 "pmu restore exits 0"
is "$(same "$tmp/state" "$tmp/orig")" 0 "the registers as found"

# The check itself: a trace where a rename is not followed by the fsync
printf '1 renameat(3<%s>, ".x.tmp", 3<%s>, "run-1.journal") = 0\n1 renameat(3<%s>, ".x.tmp", 3<%s>, "run-1.journal") = 0\n1 fsync(3<%s>) = 0\n' \
	"$DIR" "$DIR" "$DIR" "$DIR" "$DIR" >"$tmp/st"
is "$(durable "$tmp/st")" "2 1" "control: a rename without its directory fsync is found"
done_testing
