#!/bin/sh
# t/0525-cloexec-audit.sh - every file descriptor the code in cpu/, msr/ and
# bench/ opens is close-on-exec (issue 10: a library must not leak
# descriptors into the programs its host runs: a fork+exec in another
# thread of the host inherits whatever is open at that instant, however
# briefly).  The audit reads the sources: a leak window of a few
# microseconds cannot be caught by running them.  What each call needs
# (open(2), fopen(3), dup(2), mkstemp(3), pipe(2), socket(2),
# memfd_create(2), perf_event_open(2) man pages):
#   open/openat       O_CLOEXEC among the flags (or a macro of the same
#                     file defined with it)
#   fopen/fdopen/...  "e" in the mode
#   dup, mkstemp, pipe, creat, tmpfile, accept: never (F_DUPFD_CLOEXEC,
#                     mkostemp(O_CLOEXEC), pipe2, open, accept4 instead)
#   dup2/dup3         only onto 0, 1, 2 (meant to be inherited), or dup3
#                     with O_CLOEXEC
#   socket, memfd_create, perf_event_open: SOCK_CLOEXEC, MFD_CLOEXEC,
#                     PERF_FLAG_FD_CLOEXEC
# opendir() needs nothing: glibc opens the directory with O_CLOEXEC
# (dirent/opendir.c).  A control file with known leaks shows the audit
# finds them.
. "$T_SRC/tap.sh"
pyq_start

command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the sources"
src=$T_SRC/..
[ -d "$src/cpu" ] && [ -d "$src/msr" ] && [ -d "$src/bench" ] || skip_all "no sources beside t/"

audit() {
	pyq - "$@" <<'EOP'
import re, sys

CALL = re.compile(r'(?<![\w>.])(open|openat|fopen|fdopen|freopen|popen|dup|dup2|dup3|mkstemp|'
                  r'mkstemps|pipe|creat|tmpfile|accept|socket|memfd_create|syscall)\s*\(')

def strip_comments(text):
    # comments out, line count kept; strings left (fopen modes live there)
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == '\\' else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return ''.join(out)

def args_of(text, start):
    depth, i = 1, start
    while i < len(text) and depth:
        depth += {'(': 1, ')': -1}.get(text[i], 0)
        i += 1
    return text[start:i - 1]

def split_args(a):
    parts, depth, cur = [], 0, ''
    for c in a:
        if c == ',' and depth == 0:
            parts.append(cur.strip()); cur = ''
            continue
        depth += {'(': 1, ')': -1}.get(c, 0)
        cur += c
    parts.append(cur.strip())
    return parts

for path in sys.argv[1:]:
    text = strip_comments(open(path, encoding='utf-8', errors='replace').read())
    cloexec_macros = set(re.findall(r'#define\s+(\w+)\s*\(?[^\n]*O_CLOEXEC', text))
    for m in CALL.finditer(text):
        name = m.group(1)
        # a definition or declaration, not a call: "int open(...)" is none of ours
        before = text[:m.start()].rstrip()
        if re.search(r'\b(int|void|FILE|DIR|static)\s*\**$', before):
            continue
        a = args_of(text, m.end())
        args = split_args(a)
        line = text.count('\n', 0, m.start()) + 1
        bad = None
        if name in ('open', 'openat'):
            if 'O_CLOEXEC' not in a and not any(re.search(r'\b%s\b' % k, a) for k in cloexec_macros):
                bad = 'without O_CLOEXEC'
        elif name in ('fopen', 'fdopen', 'freopen', 'popen'):
            mode = args[1] if len(args) > 1 else ''
            if not re.fullmatch(r'"[^"]*e[^"]*"', mode):
                bad = 'mode %s without "e"' % (mode or '?')
        elif name in ('dup', 'mkstemp', 'mkstemps', 'pipe', 'creat', 'tmpfile', 'accept'):
            bad = 'never close-on-exec'
        elif name == 'dup2':
            if len(args) < 2 or args[1] not in ('0', '1', '2', 'STDIN_FILENO', 'STDOUT_FILENO',
                                                'STDERR_FILENO'):
                bad = 'onto a descriptor other than 0, 1, 2'
        elif name == 'dup3':
            if 'O_CLOEXEC' not in a:
                bad = 'without O_CLOEXEC'
        elif name == 'socket':
            if 'SOCK_CLOEXEC' not in a:
                bad = 'without SOCK_CLOEXEC'
        elif name == 'memfd_create':
            if 'MFD_CLOEXEC' not in a:
                bad = 'without MFD_CLOEXEC'
        elif name == 'syscall':
            if 'SYS_perf_event_open' in a and 'PERF_FLAG_FD_CLOEXEC' not in a:
                bad = 'perf_event_open without PERF_FLAG_FD_CLOEXEC'
        if bad:
            print('%s:%d: %s() %s' % (path, line, name, bad))
EOP
}

# control: a file with one leak of each common kind, and their fixed forms
cat >"$tmp/leaks.c" <<'EOF'
#define GOOD_FLAGS (O_RDONLY | O_CLOEXEC)
static int f(const char *p, int fd)
{
	FILE *a = fopen(p, "r");              /* leak */
	FILE *b = fopen(p, "re");
	int c = open(p, O_RDONLY);            /* leak */
	int d = open(p, GOOD_FLAGS);
	int e = openat(fd, p,
		       O_RDONLY | O_NOFOLLOW); /* leak, over two lines */
	int g = dup(fd);                      /* leak */
	int h = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	char t[] = "/tmp/xXXXXXX";
	int i = mkstemp(t);                   /* leak */
	int j = dev->ops->open(dev->ctx, 0);
	dup2(c, 1);
	/* fopen(p, "w") in a comment is no call */
	return a && b && c && d && e && g && h && i && j;
}
EOF
out=$(audit "$tmp/leaks.c" | sed "s|^$tmp/||")
is "$out" "leaks.c:4: fopen() mode \"r\" without \"e\"
leaks.c:6: open() without O_CLOEXEC
leaks.c:8: openat() without O_CLOEXEC
leaks.c:10: dup() never close-on-exec
leaks.c:13: mkstemp() never close-on-exec" "control: the audit finds each leak, and only those"

files=$(ls "$src"/cpu/*.c "$src"/cpu/*.h "$src"/msr/*/*.c "$src"/msr/*/*.h "$src"/bench/*.c \
	"$src"/bench/*.h "$src"/bench/benchmarks/*.c 2>/dev/null)
n=$(printf '%s\n' "$files" | wc -l)
ok $([ "$n" -gt 50 ] && echo 0 || echo 1) "the sources of cpu/, msr/, bench/ are read ($n files)"
# shellcheck disable=SC2086
out=$(audit $files | sed "s|^$src/||")
is "$out" "" "every descriptor opened in cpu/, msr/, bench/ is close-on-exec"

done_testing
