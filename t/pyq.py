# t/pyq.py - one Python interpreter for the many small programs a shell
# test runs over its JSON (t/tap.sh pyq): a request is NUL-terminated
# fields on standard input - the caller's working directory, the number
# of arguments, the program, its arguments - and the answer is what the program printed, then a line of
# one ASCII RS (0x1e).  A program reads no standard input here (it is
# empty): one that reads a pipe runs in a Python of its own.  Each program runs as `python3 -S -c PROGRAM ARGS`
# would: in the caller's directory, sys.argv set, a fresh namespace (the
# environment is the one the test had when it started this Python); an exception's traceback goes
# to standard error and the answer is what was printed before it.  A
# Python start costs 0.05-0.1 CPU s on the development VM, and the suite
# asked several hundred of them.
import io
import os
import sys
import traceback

RS = "\x1e"
src = sys.stdin.buffer
real_out = sys.stdout


def field():
    b = bytearray()
    while True:
        c = src.read(1)
        if not c:
            return None
        if c == b"\0":
            return b.decode("utf-8", "surrogateescape")
        b += c


codes = {}
while True:
    cwd = field()
    if cwd is None:
        break
    n = field()
    prog = field()
    args = [field() for _ in range(int(n))]
    buf = io.StringIO()
    sys.stdout = buf
    sys.stdin = io.StringIO()  # the requests' stream is not the program's
    sys.argv = ["-c"] + args
    try:
        os.chdir(cwd)
        code = codes.get(prog)
        if code is None:
            code = codes[prog] = compile(prog, "<pyq>", "exec")
        exec(code, {"__name__": "__main__"})
    except SystemExit as e:
        if e.code not in (None, 0):
            print(e.code, file=sys.stderr)
    except Exception:
        traceback.print_exc(file=sys.stderr)
    sys.stdout = real_out
    text = buf.getvalue()
    if text and not text.endswith("\n"):
        text += "\n"
    real_out.write(text + RS + "\n")
    real_out.flush()
