# t/tap.sh - TAP helpers for baretma's shell tests (sourced).
# ok COND_STATUS NAME; is GOT WANT NAME; like TEXT REGEX NAME; skip_all WHY; done_testing;
# until_true COND...; flock_waiter FILE PID; sig_dfl CMD...; umask_mode

# sig_dfl CMD... &: start CMD in the background with every signal at its
# default action and none blocked: t/sig-default (the test build's), else
# coreutils' env --default-signal (8.31 and later), else as it is.  A
# shell without job control starts a background job with SIGINT and
# SIGQUIT ignored (POSIX XCU 2.11), and an ignored signal stays ignored in
# what it runs: start through sig_dfl a run the test will interrupt.  It
# execs: use it only as a background job (or in a subshell), whose
# process becomes CMD ($! is CMD's pid).
sig_dfl() {
	if [ -x "${T_BUILDDIR:-}/t/sig-default" ]; then
		exec "$T_BUILDDIR/t/sig-default" "$@"
	elif env --default-signal true 2>/dev/null; then
		exec env --default-signal "$@"
	fi
	exec "$@"
}
# A test does not depend on the signal dispositions it inherits (a run in
# the background, under nohup, below a `trap '' HUP`): the test itself runs
# again from its start with every signal at its default, once
# (T_SIG_DEFAULT).  Shell tests are /bin/sh scripts.
if [ -z "${T_SIG_DEFAULT:-}" ] && [ -f "$0" ]; then
	T_SIG_DEFAULT=1
	export T_SIG_DEFAULT
	if [ -x "${T_BUILDDIR:-}/t/sig-default" ]; then
		exec "$T_BUILDDIR/t/sig-default" /bin/sh "$0" "$@"
	elif env --default-signal true 2>/dev/null; then
		exec env --default-signal /bin/sh "$0" "$@"
	fi
fi
tap_n=0
tap_failed=0
ok() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $tap_n - $2"
	else echo "not ok $tap_n - $2"; tap_failed=$((tap_failed + 1)); fi
}
is() {
	tap_n=$((tap_n + 1))
	if [ "$1" = "$2" ]; then echo "ok $tap_n - $3"
	else echo "not ok $tap_n - $3"; echo "#   got '$1'"; echo "#   want '$2'"
		tap_failed=$((tap_failed + 1)); fi
}
like() {
	tap_n=$((tap_n + 1))
	if printf '%s' "$1" | grep -Eq -- "$2"; then echo "ok $tap_n - $3"
	else echo "not ok $tap_n - $3"; printf '%s\n' "$1" | sed 's/^/#   got: /' | head -20
		echo "#   want match: $2"; tap_failed=$((tap_failed + 1)); fi
}
unlike() {
	tap_n=$((tap_n + 1))
	if printf '%s' "$1" | grep -Eq -- "$2"; then echo "not ok $tap_n - $3"
		printf '%s\n' "$1" | sed 's/^/#   got: /' | head -20
		echo "#   must not match: $2"; tap_failed=$((tap_failed + 1))
	else echo "ok $tap_n - $3"; fi
}
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP $1"; }
# umask_mode: the mode a new file of 0666 gets under this umask ("644")
umask_mode() { printf '%o\n' $((0666 & ~0$(umask))); }
skip_all() { echo "1..0 # SKIP $1"; exit 0; }
done_testing() { echo "1..$tap_n"; [ "$tap_failed" -eq 0 ]; exit $?; }
# until_true COND...: poll COND every 50 ms until it holds; 1 after 20 s.
# Tests wait on a condition (a file appears, a lock is held, a line is
# written), never on a sleep: the 20 s only bound a run that is wedged.
until_true() {
	_n=0
	while ! "$@"; do
		_n=$((_n + 1))
		[ "$_n" -ge 400 ] && return 1
		sleep 0.05
	done
	return 0
}
# flock_waiter FILE PID: /proc/locks lists PID blocked on a flock of FILE
# ("N: -> FLOCK  ADVISORY  WRITE PID MAJ:MIN:INODE 0 EOF": "->" marks a
# waiter, fs/locks.c lock_get_status).
flock_waiter() {
	_ino=$(stat -c %i "$1" 2>/dev/null) || return 1
	awk -v pid="$2" -v ino="$_ino" '$2 == "->" && $3 == "FLOCK" && $6 == pid {
		n = split($7, d, ":"); if (d[n] == ino) found = 1 }
		END { exit !found }' /proc/locks 2>/dev/null
}
# A scratch directory removed at exit; absolute even under a relative TMPDIR
# (tests hand paths under it to baretma as BARETMA_STATE_DIR).
tmp=$(mktemp -d "${TMPDIR:-/tmp}/baretma-t.XXXXXX")
tmp=$(cd "$tmp" && pwd)
trap 'rm -rf "$tmp"' EXIT

# pyq_start: one Python (t/pyq.py) for this test's pyq calls, in the
# background on two FIFOs in $tmp; it ends when the test does (EOF on its
# input).  Call it from the test's top level (not inside $(...)), before
# the first pyq, and never in a test that waits for all its jobs (`wait`
# without a pid would wait for it too).
pyq_start() {
	[ -z "${t_pyq:-}" ] || return 0
	command -v python3 >/dev/null 2>&1 || return 0
	mkfifo "$tmp/pyq.in" "$tmp/pyq.out" || return 0
	python3 -S -u "$T_SRC/pyq.py" <"$tmp/pyq.in" >"$tmp/pyq.out" &
	exec 8>"$tmp/pyq.in" 9<"$tmp/pyq.out"
	t_pyq=1
}
# pyq PROGRAM|- ARGS...: what `python3 -S -c PROGRAM ARGS...` prints (`-`:
# the program is standard input), through pyq_start's Python when it
# runs, else a Python of its own.
pyq() {
	_pyq_prog=$1
	shift
	[ "$_pyq_prog" = - ] && _pyq_prog=$(cat)
	if [ -z "${t_pyq:-}" ]; then
		python3 -S -c "$_pyq_prog" "$@"
		return
	fi
	printf '%s\0%s\0%s\0' "$PWD" "$#" "$_pyq_prog" >&8
	for _pyq_a in "$@"; do printf '%s\0' "$_pyq_a" >&8; done
	_pyq_rs=$(printf '\036')
	# the whole answer is read before any of it is printed: a reader that
	# goes early (`pyq ... | head -n 1`) must not leave the rest of it in
	# the FIFO for the next pyq to take as its own answer
	_pyq_o=
	while IFS= read -r _pyq_l <&9; do
		[ "$_pyq_l" = "$_pyq_rs" ] && break
		_pyq_o="$_pyq_o$_pyq_l
"
	done
	printf '%s' "$_pyq_o"
}
