#!/bin/sh
# t/1161-pyq.sh - t/tap.sh's pyq: the small Python programs a shell test
# runs over its JSON, through one Python for the test (t/pyq.py), print
# what `python3 -S -c PROGRAM ARGS` prints: multi-line answers, a program
# on standard input, arguments with spaces and empty ones, output without
# a final newline, what a program printed before it failed (and the next
# one still runs), the caller's working directory; and pyq without the
# server (another Python each) answers the same.
. "$T_SRC/tap.sh"
command -v python3 >/dev/null 2>&1 || skip_all "no python3"
pyq_start
printf '%s\n' '{"a": [1, 2, {"b": "x\ny"}]}' >"$tmp/j"
is "$(pyq 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$tmp/j" 'd["a"][2]["b"]')" "x
y" "multi-line answer"
is "$(pyq - "$tmp/j" 'len(d["a"])' <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))
EOP
)" 3 "program on stdin"
r=$(pyq 'import sys; print(sys.argv[1:])' 'a b' '' 'c')
is "$r" "['a b', '', 'c']" "arguments kept, empty ones too"
r=$(pyq 'print(1); raise ValueError("boom")' 2>/dev/null)
is "$r" "1" "an exception: what was printed before it"
r=$(pyq 'print("after")')
is "$r" "after" "the server goes on after an exception"
r=$(pyq 'import sys; sys.stdout.write("no newline")')
is "$r" "no newline" "output without a final newline"
mkdir "$tmp/sub" && printf '7\n' >"$tmp/sub/rel"
r=$(cd "$tmp/sub" && pyq 'print(open("rel").read().strip())')
is "$r" 7 "a relative path is the caller's"
# a reader that goes after the first line: the rest of that answer is not
# the next one's (t/1201 read its ExecStopPost= through `| head -n 1`,
# and every pyq after it took the answer before its own)
r=$(pyq 'for i in range(2000): print("line", i)' | head -n 1)
is "$r" "line 0" "pyq | head -n 1: the first line"
r=$(pyq 'print("mine")')
is "$r" "mine" "the next pyq gets its own answer"
# each answer the same as a Python of its own gives
for p in 'print(sorted({"b": 1, "a": 2}))' 'print("x\ty")' 'import sys; print(len(sys.argv))'; do
	is "$(pyq "$p" 1 2)" "$(python3 -S -c "$p" 1 2)" "the same as python3 -S -c: $p"
done
# without the server (a test that never called pyq_start)
is "$(t_pyq= pyq 'import sys; print(sys.argv[1:])' 'a b' '')" "['a b', '']" "without the server: the same"
done_testing
