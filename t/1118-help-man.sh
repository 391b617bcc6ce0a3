#!/bin/sh
# t/1118-help-man.sh - `baretma help CMD` shows CMD's man page, as `git
# help CMD` and `perf help CMD` do (issue 29): it runs `man -l` on
# man/baretma-CMD.1 (the page of the source tree a built tool comes from;
# the installed page for the installed tool: t/0700 under installcheck),
# exit 0, nothing on stderr; where man is not installed it prints
# `baretma CMD --help`, exit 0.  A fake man in PATH records how it is
# called; the real one (where installed) renders the page.  Before the
# change `help CMD` printed --help whatever was installed.
. "$T_SRC/tap.sh"

TOP=$T_SRC/..
[ -x "${BARETMA:-}" ] || skip_all "no baretma built"
cmds=$("$BARETMA" --help | awk '/^commands:/ { c = 1; next } c && /^$/ { exit }
	c && /^  [a-z]/ && $1 != "help" && $1 != "version" { print $1 }')
like "$(echo $cmds)" "^bench stat .*msr$" "the commands of baretma --help are read"

# --- which page, how: a man that prints its arguments --------------------------
mkdir "$tmp/bin" "$tmp/empty"
cat >"$tmp/bin/man" <<'EOS'
#!/bin/sh
printf 'man'; printf ' %s' "$@"; printf '\n'
EOS
chmod +x "$tmp/bin/man"
bad=
for c in $cmds; do
	out=$(PATH="$tmp/bin:$PATH" "$BARETMA" help "$c" 2>"$tmp/err"); rc=$?
	page=$(printf '%s\n' "$out" | sed -n 's/^man -l //p')
	want=$(cd "$TOP/man" && pwd -P)/baretma-$c.1
	got=$( [ -n "$page" ] && cd "$(dirname "$page")" 2>/dev/null && echo "$(pwd -P)/$(basename "$page")")
	[ "$rc:$got:$(cat "$tmp/err")" = "0:$want:" ] || bad="$bad [$c: exit $rc, '$out', $(cat "$tmp/err")]"
done
is "$bad" "" "help CMD runs 'man -l' on the source tree's man/baretma-CMD.1 for every command, exit 0, stderr empty"
out=$(PATH="$tmp/bin:$PATH" "$BARETMA" help pmu enable 2>&1)
like "$out" "^man -l .*/baretma-pmu\\.1$" "help pmu enable: pmu's page"

# --- no man: the command's --help ----------------------------------------------
bad=
for c in $cmds; do
	out=$(PATH="$tmp/empty" "$BARETMA" help "$c" 2>"$tmp/err"); rc=$?
	want=$("$BARETMA" "$c" --help)
	[ "$rc" = 0 ] && [ "$out" = "$want" ] && [ ! -s "$tmp/err" ] || bad="$bad $c"
done
is "$bad" "" "without man in PATH, help CMD prints CMD --help, exit 0, stderr empty"
out=$(PATH="$tmp/empty" "$BARETMA" help frob 2>&1); rc=$?
is "$rc:$out" "64:baretma: unknown command 'frob' (try: baretma --help)" "help of no command: 64, named"
out=$(PATH="$tmp/bin:$PATH" "$BARETMA" help 2>&1); rc=$?
like "$rc:$out" "^0:usage: baretma <command>" "help alone: the command list, not a page"

# --- the real man, where installed ----------------------------------------------
if command -v man >/dev/null 2>&1 && command -v groff >/dev/null 2>&1; then
	bad=
	for c in $cmds; do
		out=$(MANWIDTH=80 "$BARETMA" help "$c" 2>"$tmp/err" | col -b 2>/dev/null); rc=$?
		up=$(echo "$c" | tr a-z A-Z)
		printf '%s\n' "$out" | head -1 | grep -q "^BARETMA-$up(1)" &&
			printf '%s\n' "$out" | grep -Eq "^ *baretma-$c[[:space:]]+-[[:space:]]" &&
			printf '%s\n' "$out" | grep -q "^ *baretma $c" && [ ! -s "$tmp/err" ] || bad="$bad $c"
	done
	is "$bad" "" "with man installed, help CMD shows the page: its header, NAME and SYNOPSIS"
else
	skip "man or groff not installed"
fi
done_testing
