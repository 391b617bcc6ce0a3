#!/bin/sh
# t/1201-systemd-unit.sh - examples/systemd/baretma-stat.service, the unit
# that keeps a host's Top-down in node_exporter's textfile directory, run
# here as systemd would run its command lines (systemd.service(5),
# "Command lines": a word "$VAR" is VAR's value split at white space,
# "${VAR}" its value within a word, "$$" a "$"; Environment= first, then
# EnvironmentFile=), with baretma the built one, the textfile directory
# one of this test's and the simulated PMU's registers in a state file
# (doc/state-file.md; a simulated Ice Lake-L of examples/dumps, 8 CPUs of
# 8 general-purpose counters, CPUID.0AH:EAX[15:8]):
#   - what the unit says agrees with what baretma does: KillSignal is one
#     of the signals that end stat's count (man baretma-stat); the state
#     directory it makes (RuntimeDirectory=, under /run) is baretma's
#     default, /run/baretma (man baretma, BARETMA_STATE_DIR); the
#     directory of the --openmetrics FILE is writable (ReadWritePaths= under
#     ProtectSystem=strict) and FILE is what ExecStopPost removes; the one
#     capability kept is CAP_SYS_RAWIO, which the msr driver's open asks
#     for (linux arch/x86/kernel/msr.c msr_open), and the msr device is
#     allowed (DeviceAllow=, the /proc/devices name cpu/msr);
#   - ExecStart parses with stat's own option table and counts: a stop by
#     KillSignal exits 0 with the registers as found, byte for byte, and
#     an interval out of stat's range (INTERVAL_MS=5, below 10) exits 64,
#     an exit status RestartPreventExitStatus= lists, while 75 (busy) is
#     left to Restart=on-failure;
#   - a stat killed by SIGKILL (as the stop timeout or the OOM killer kill)
#     leaves its journal and the registers programmed; ExecStopPost, run
#     with systemd's EXIT_CODE=killed (systemd.exec(5)), puts the state file
#     back byte for byte, removes the journal and the file;
#   - after an exit of stat's own (EXIT_CODE=exited: a start refused with
#     75 because `pmu enable` holds cpu 0), ExecStopPost leaves that
#     deliberate journal and its registers alone;
#   - `systemd-analyze verify` (Debian: systemd) says nothing of the unit
#     (a misspelt value, the control, it does name), and every system call
#     stat and pmu restore make under strace is in the unit's
#     SystemCallFilter= (systemd-analyze syscall-filter), each where
#     installed.
. "$T_SRC/tap.sh"
pyq_start
command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the unit"

ex=$T_SRC/../examples
unit=$ex/systemd/baretma-stat.service
envfile=$ex/systemd/baretma-stat.env
ICL=$ex/dumps/ice-lake-i7.test
mkdir -p "$tmp/textfile" "$tmp/run"

# unit_py UNIT MODE ...: `key NAME` every value of NAME; `exec NAME
# ENVFILE BARETMA TEXTFILE` each NAME command line as systemd runs it, a
# line of shell words (set -- ...), /usr/local/bin/baretma and the textfile
# directory replaced (quoted inside an `sh -c` script).
unit_py='import re, shlex, sys
lines, cont = [], ""
for l in open(sys.argv[1]):
    l = l.rstrip("\n")
    if cont:
        l, cont = cont + l, ""
    if l.endswith("\\"):
        cont = l[:-1] + " "
        continue
    s = l.strip()
    if s and s[0] not in "#;[" and "=" in s:
        k, v = s.split("=", 1)
        lines.append((k.strip(), v.strip()))
vals = lambda k: [v for kk, v in lines if kk == k]
if sys.argv[2] == "key":
    print("\n".join(vals(sys.argv[3])))
    sys.exit()
env = {}
for v in vals("Environment"):
    for a in shlex.split(v):
        env.__setitem__(*a.split("=", 1))
for f in [sys.argv[4]]:
    for l in open(f):
        l = l.strip()
        if l and l[0] not in "#;" and "=" in l:
            k, v = l.split("=", 1)
            env[k.strip()] = " ".join(shlex.split(v))
rep = [("/usr/local/bin/baretma", sys.argv[5]),
       ("/var/lib/prometheus/node-exporter", sys.argv[6])]
def word(w):
    m = re.fullmatch(r"\$([A-Za-z_][A-Za-z0-9_]*)", w)
    if m:
        return env.get(m.group(1), "").split()
    w = re.sub(r"\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}",
               lambda m: env.get(m.group(1), "") if m.group(1) else "$", w)
    for a, b in rep:
        w = b + w[len(a):] if w.startswith(a) else w.replace(a, shlex.quote(b))
    return [w]
for v in vals(sys.argv[3]):
    v = v.lstrip("-@:+!")
    print(" ".join(shlex.quote(x) for w in shlex.split(v) for x in word(w)))'
key() { pyq "$unit_py" "$unit" key "$1"; }
# cmds NAME [ENVFILE]: NAME's command lines (the unit's environment file by
# default: its values are the unit's defaults)
cmds() { pyq "$unit_py" "$unit" exec "$1" "${2:-$envfile}" "$BARETMA" "$tmp/textfile"; }

# --- what the unit says, against what baretma does ----------------------------
is "$(key Restart)" on-failure "Restart=on-failure"
ks=$(key KillSignal)
man1=$T_SRC/../man
like "$(tr '\n' ' ' <"$man1/baretma-stat.1")" "SIGINT, SIGTERM and SIGHUP end a count without a command" \
	"man baretma-stat: SIGINT, SIGTERM and SIGHUP end a count"
case $ks in SIGINT|SIGTERM|SIGHUP) r=0 ;; *) r=1 ;; esac
ok "$r" "KillSignal=$ks is one of the signals that end stat's count"
like "$(tr '\n' ' ' <"$man1/baretma.1")" 'default \\fB/run/baretma\\fR' \
	"man baretma: the default state directory is /run/baretma"
is "/run/$(key RuntimeDirectory)" /run/baretma \
	"RuntimeDirectory= is baretma's default state directory"
is "$(key RuntimeDirectoryPreserve)" yes "the state directory outlives a stop (a journal for pmu restore)"
is "$(key ProtectSystem)" strict "ProtectSystem=strict"
start=$(cmds ExecStart)
eval "set -- $start"
om=
while [ $# -gt 0 ]; do [ "$1" = --openmetrics ] && om=$2; shift; done
is "$om" "$tmp/textfile/baretma.prom" \
	"ExecStart writes --openmetrics into node_exporter's textfile directory (Debian's)"
is "$(key ReadWritePaths | tr ' ' '\n' | sed 's/^-//' | grep -c '^/var/lib/prometheus/node-exporter$')" 1 \
	"ReadWritePaths= holds that directory"
is "$(key CapabilityBoundingSet)" CAP_SYS_RAWIO "the one capability kept: CAP_SYS_RAWIO"
is "$(key DeviceAllow | grep -c '^char-cpu/msr rw$')" 1 "DeviceAllow=char-cpu/msr rw"
is "$(key StandardOutput)" null "stat's rows per interval kept out of the journal"
prevent=" $(key RestartPreventExitStatus) "
case $prevent in *" 64 "*) r=0 ;; *) r=1 ;; esac
ok "$r" "a usage error (64) is not restarted"
case $prevent in *" 75 "*) r=1 ;; *) r=0 ;; esac
ok "$r" "busy (75) is restarted"

# --- the simulated machine ------------------------------------------------------
leafA=$(awk '/^CPUID 0000000A:/ { split($3, r, "-"); print r[1]; exit }' "$ICL")
GP=$((0x$(printf '%s' "$leafA" | cut -c5-6)))
NCPU=$(grep -c 'Logical CPU #' "$ICL")
# sim_regs CPU: doc/state-file.md's template (the simulator's clean registers)
. "$T_SRC/sim-regs.sh"
c=0
while [ "$c" -lt "$NCPU" ]; do sim_regs "$c"; c=$((c + 1)); done >"$tmp/state"
cp "$tmp/state" "$tmp/orig"
{ cat "$ex/profiles/icelake-steady.profile"; printf 'state %s\n' "$tmp/state"; } >"$tmp/profile"
BARETMA_MSR=sim:$tmp/profile BARETMA_STATE_DIR=$tmp/run BARETMA_CPUID_DUMP=$ICL
export BARETMA_MSR BARETMA_STATE_DIR BARETMA_CPUID_DUMP
unset BARETMA_MSR_TRACE BARETMA_PERF
# a site's /etc/default/baretma-stat: ten intervals a second, for a short test
{ grep -v '^INTERVAL_MS=' "$envfile"; echo INTERVAL_MS=100; } >"$tmp/default"
start=$(cmds ExecStart "$tmp/default")
journals() { ls "$tmp/run" | grep 'journal$' | tr '\n' ' '; }
# stop_post EXIT_CODE: ExecStopPost's commands in turn, with the variable
# systemd gives them; their exit statuses
stop_post() {
	cmds ExecStopPost "$tmp/default" >"$tmp/post"
	_st= _ec=$1
	while IFS= read -r _c; do
		eval "set -- $_c"
		EXIT_CODE=$_ec "$@" >>"$tmp/post.out" 2>&1
		_st="$_st$? "
	done <"$tmp/post"
	echo "$_st"
}
# start_stat: ExecStart in the background; $pid
start_stat() {
	rm -f "$tmp/textfile/baretma.prom"
	eval "set -- $start"
	sig_dfl "$@" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
}

# --- ExecStart, stopped by KillSignal ------------------------------------------
start_stat
until_true test -e "$tmp/textfile/baretma.prom"
ok $? "ExecStart counts: its first interval's file"
is "$(journals)" "run-$pid.journal " "its journal while it runs"
kill "-${ks#SIG}" "$pid"
wait "$pid"
is "$?" 0 "KillSignal ends the count: exit 0"
is "$(cmp -s "$tmp/state" "$tmp/orig"; echo $?)" 0 "stopped: the registers as found, byte for byte"
rm -f "$tmp/post.out"
is "$(stop_post exited)" "0 0 " "ExecStopPost after an exit of stat's own: 0 each"
is "$(cat "$tmp/post.out")" "" "... and pmu restore is not run (stat restored)"
is "$(ls -A "$tmp/textfile")" "" "the file removed: a host that stopped counting shows nothing"

# --- a bad interval: refused by stat's option table, not restarted -------------
sed 's/^INTERVAL_MS=.*/INTERVAL_MS=5/' "$tmp/default" >"$tmp/default.bad"
eval "set -- $(cmds ExecStart "$tmp/default.bad")"
"$@" >/dev/null 2>"$tmp/err"
is "$?" 64 "INTERVAL_MS=5: stat refuses -I 5 (exit 64, in RestartPreventExitStatus)"
like "$(cat "$tmp/err")" "bad -I '5'" "... naming the option and its value"

# --- SIGKILL, then ExecStopPost -------------------------------------------------
start_stat
until_true test -e "$tmp/textfile/baretma.prom"
ok $? "ExecStart again: counting"
kill -KILL "$pid"
wait "$pid"
is "$?" 137 "stat killed by SIGKILL"
is "$(journals)" "run-$pid.journal " "the journal stays"
is "$(cmp -s "$tmp/state" "$tmp/orig"; echo $?)" 1 "the registers left programmed"
rm -f "$tmp/post.out"
is "$(stop_post killed)" "0 0 " "ExecStopPost with EXIT_CODE=killed: 0 each"
like "$(cat "$tmp/post.out")" "restored IA32_PERF_GLOBAL_CTRL" "... pmu restore put the registers back"
is "$(cmp -s "$tmp/state" "$tmp/orig"; echo $?)" 0 "the state file byte for byte as found"
is "$(journals)" "" "no journal left"
is "$(ls -A "$tmp/textfile")" "" "no file left in the textfile directory (nor a temporary one)"

# --- a start refused by a deliberate pmu enable --------------------------------
"$BARETMA" pmu enable --cpu 0 >/dev/null 2>&1
is "$?" 0 "pmu enable --cpu 0 (a harness's counters)"
cp "$tmp/state" "$tmp/enabled"
eval "set -- $start"
"$@" >/dev/null 2>"$tmp/err"
is "$?" 75 "ExecStart refused: cpu 0 held by that journal (75, restarted later)"
rm -f "$tmp/post.out"
is "$(stop_post exited)" "0 0 " "ExecStopPost with EXIT_CODE=exited: 0 each"
like "$(journals)" "journal" "the enable journal is left"
is "$(cmp -s "$tmp/state" "$tmp/enabled"; echo $?)" 0 "... and its registers"
"$BARETMA" pmu restore >/dev/null 2>&1
is "$(cmp -s "$tmp/state" "$tmp/orig"; echo $?)" 0 "pmu restore by hand: as found"

# --- systemd's own checks ----------------------------------------------------------
if command -v systemd-analyze >/dev/null 2>&1; then
	# verify wants the executables the unit names
	sed "s#/usr/local/bin/baretma#$BARETMA#g" "$unit" >"$tmp/baretma-stat.service"
	out=$(cd "$tmp" && systemd-analyze verify --man=no ./baretma-stat.service 2>&1)
	is "$?:$out" "0:" "systemd-analyze verify: nothing to say"
	sed 's/^ProtectSystem=strict/ProtectSystem=stricter/' "$tmp/baretma-stat.service" \
		>"$tmp/bad.service"
	like "$(cd "$tmp" && systemd-analyze verify --man=no ./bad.service 2>&1)" "stricter" \
		"control: verify names a misspelt value"
else
	skip "systemd-analyze not installed (Debian: systemd)"
	skip "systemd-analyze not installed (Debian: systemd)"
fi
if command -v systemd-analyze >/dev/null 2>&1 && command -v strace >/dev/null 2>&1; then
	# stat counting and stopped, then pmu restore of a killed run's journal
	# (the msr device's calls, openat/pread64/pwrite64, are the state
	# file's too)
	systemd-analyze syscall-filter >"$tmp/groups" 2>/dev/null
	eval "set -- $start"
	rm -f "$tmp/textfile/baretma.prom"
	# (stopped through its own pid: strace stopped would detach it)
	asan="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	env "$asan" strace -f -qq -o "$tmp/trace" "$@" >/dev/null 2>&1 &
	tpid=$!
	until_true test -e "$tmp/textfile/baretma.prom"
	kill "-${ks#SIG}" "$(cat "/proc/$tpid/task/$tpid/children")"
	wait "$tpid"
	st=$?
	start_stat
	until_true test -e "$tmp/textfile/baretma.prom"
	kill -KILL "$pid"
	wait "$pid"
	eval "set -- $(cmds ExecStopPost "$tmp/default" | head -n 1)"
	env EXIT_CODE=killed "$asan" strace -f -qq -o "$tmp/trace2" "$@" >/dev/null 2>&1
	is "$st:$?:$(cmp -s "$tmp/state" "$tmp/orig"; echo $?)" 0:0:0 \
		"under strace: stat stopped (0), pmu restore (0), the registers as found"
	is "$(pyq 'import re, sys
g, cur = {}, None
for l in open(sys.argv[1]):
    s = l.strip()
    if not s or s.startswith("#"):
        continue
    if l.startswith("@"):
        cur = g.setdefault(s, [])
    elif cur is not None:
        cur.append(s)
def calls(n, seen):
    out = set()
    for x in g.get(n, []):
        if x.startswith("@"):
            if x not in seen:
                out |= calls(x, seen | {x})
        else:
            out.add(x)
    return out
allowed = set()
for v in sys.argv[2].split():
    allowed |= calls(v, {v}) if v.startswith("@") else {v}
used = set()
for f in sys.argv[3:]:
    for l in open(f):
        m = re.match(r"\d+\s+([a-z_0-9]+)\(", l)
        if m:
            used.add(m.group(1))
print(len(used) > 20, len(allowed) > 100, sorted(used - allowed))' "$tmp/groups" "$(key SystemCallFilter)" \
		"$tmp/trace" "$tmp/trace2")" "True True []" \
		"every system call of stat and pmu restore is in SystemCallFilter="
	# each interval's file: a new name beside it, renamed over it (rename(2):
	# a reader sees the old file or the new); the file itself never opened
	is "$(pyq 'import re, sys
made = moved = direct = 0
for l in open(sys.argv[1]):
    if re.search(r"openat\(\d+, \"\.baretma\.prom\.[^\"]*\.tmp\", O_WRONLY\|O_CREAT\|O_EXCL", l):
        made += 1
    if re.search(r"renameat2?\(\d+, \"\.baretma\.prom\.[^\"]*\.tmp\", \d+, \"baretma\.prom\"", l):
        moved += 1
    if re.search(r"open(at)?\(.*[\"/]baretma\.prom\", O_(WRONLY|RDWR)", l):
        direct += 1
print(made > 0 and made == moved, direct)' "$tmp/trace")" "True 0" \
		"--openmetrics: every interval written to a new file renamed over FILE, never FILE itself"
else
	skip "systemd-analyze (Debian: systemd) or strace not installed"
	skip "systemd-analyze (Debian: systemd) or strace not installed"
	skip "systemd-analyze (Debian: systemd) or strace not installed"
fi
done_testing
