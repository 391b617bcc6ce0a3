#!/bin/sh
# t/1190-slurm-campaign.sh - the campaign of examples/slurm/ (doc/fleet.md)
# on a real Slurm: munged with a key made here, slurmctld and slurmd from a
# slurm.conf written here (one node, this machine, on 127.0.0.1 and ports
# above 1024 found free), all three stopped by their PIDs at the end,
# whatever happens.  submit.sh submits the campaign as it is, an array of
# five tasks; on the one node they run one after another (--exclusive),
# each as a host of its own: the site's hook LAUNCH runs each task's
# measurement under this test's as-host, which gives it a UTS namespace
# with its own hostname (unshare(1) --uts) and its own CPUID dump,
# simulated PMU, /sys root (microcode, /etc/machine-id) and state
# directory, from tasks/N.env.  The hosts:
#   0 spr-a  Sapphire Rapids (examples/dumps), microcode 0x2b000590
#   1 spr-b  Sapphire Rapids, microcode 0x2b000603: the difference to name
#   2 icl-a  Ice Lake, the simulator's fault sum_off 12: the level-1 bytes
#            sum to 255 + 12 = 267 (doc/simulator.md), validate's level1_sum FAILs
#   3 adl-a  Alder Lake-S
#   4 spr-a  again, another machine (machine-id) of the same name: the task
#            finds spr-a measured and writes nothing (exit 75, host.sh)
# The expected values come from outside the campaign: the hostnames,
# machine-ids and microcode written here, the fault's documented reading,
# the exit statuses host.sh and man baretma-validate document, Slurm's own
# record of the jobs (scontrol show job).  The report's checks run where
# `baretma report` is built (doc/report.md, schema baretma-report/1).
. "$T_SRC/tap.sh"

for b in slurmctld slurmd sbatch scontrol scancel sinfo munged mungekey; do
	command -v "$b" >/dev/null 2>&1 || skip_all "no $b (Debian: slurm-wlm munge)"
done
[ "$(id -u)" = 0 ] || skip_all "not root: slurmd starts each job as its user, which only root can do"
command -v unshare >/dev/null 2>&1 || skip_all "no unshare(1) (Debian: util-linux)"
unshare --uts true 2>/dev/null || skip_all "unshare --uts refused here (no UTS namespaces for this process)"
command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the JSON"
pyq_start

EX=$T_SRC/../examples
sl=$tmp/slurm
mkdir -p "$sl/ctld" "$sl/log" "$tmp/tasks" "$tmp/hosts"
# munged's socket and slurmstepd's (SlurmdSpoolDir/NODE_JOB.STEP) in a
# directory of their own under /tmp: munged wants every directory of its
# socket's path searchable by all, and a Unix socket's path has at most
# 107 bytes (unix(7)); TMPDIR promises neither.
short=$(mktemp -d /tmp/baretma-slurm.XXXXXX) || exit 1
mkdir "$short/munge" "$short/spool"
chmod 755 "$short" "$short/munge"

# ---------------------------------------------------------------- stopping
daemons= # "PID NAME" of each daemon started, the last started first
gone() { [ ! -e "/proc/$1" ] || [ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)" = Z ]; }
# cluster_pids: every process but this test's own with this Slurm's
# SLURM_CONF in its environment (the daemons' children, the jobs' steps:
# slurmstepd outlives slurmd)
cluster_pids() {
	for _p in /proc/[0-9]*; do
		_p=${_p#/proc/}
		[ "$_p" = $$ ] && continue
		{ tr '\0' '\n' <"/proc/$_p/environ"; } 2>/dev/null | grep -qxF "SLURM_CONF=$sl/slurm.conf" &&
			! gone "$_p" && echo "$_p"
	done
}
# stop PID: SIGTERM, 10 s to end, then SIGKILL; reaped.
stop() {
	kill -TERM "$1" 2>/dev/null
	_n=0
	while ! gone "$1" && [ $_n -lt 200 ]; do sleep 0.05; _n=$((_n + 1)); done
	gone "$1" || kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
stopped=
stop_all() {
	[ -n "$stopped" ] && return
	stopped=1
	# The jobs first (a batch step outlives slurmd), while slurmctld can still cancel them.
	[ -n "${jobs:-}" ] && scancel $jobs 2>/dev/null &&
		until_true sh -c '[ -z "$(squeue -h -j "$1" 2>/dev/null)" ]' sh "$(echo $jobs | tr ' ' ,)"
	for _d in $daemons; do
		case $_d in *[!0-9]*) continue ;; esac
		stop "$_d"
	done
	# Anything of this cluster left (a step of a job slurmd could not end): by PID.
	for _p in $(cluster_pids); do stop "$_p"; done
}
cleanup() {
	stop_all
	rm -rf "$tmp" "$short"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

logs() { # the daemons' logs, as TAP diagnostics
	for _f in "$sl"/log/*; do
		[ -s "$_f" ] && { echo "# --- $_f"; tail -n 30 "$_f" | sed 's/^/# /'; }
	done
}
# start NAME CMD...: CMD in the background, its PID recorded
start() {
	_name=$1
	shift
	"$@" </dev/null >"$sl/log/$_name.out" 2>&1 &
	daemons="$! $_name $daemons"
}
alive() { # every daemon started is still running
	for _d in $daemons; do
		case $_d in *[!0-9]*) continue ;; esac
		gone "$_d" && return 1
	done
	return 0
}
# up COND...: poll COND every 50 ms while every daemon runs; 1 when one
# ended, or after 20 s (a start wedged).
up() {
	_n=0
	until "$@"; do
		alive && [ $_n -lt 400 ] || return 1
		sleep 0.05
		_n=$((_n + 1))
	done
}
cannot() { logs; skip_all "$1 (the logs above)"; }

# ---------------------------------------------------------------- munged
mungekey -c -k "$sl/munge.key" >"$sl/log/mungekey.out" 2>&1 || cannot "mungekey could not make a key"
start munged munged -F --key-file="$sl/munge.key" --socket="$short/munge/socket" \
	--pid-file="$sl/munged.pid" --log-file="$sl/log/munged.log" --seed-file="$sl/munged.seed"
up test -S "$short/munge/socket" || cannot "munged did not start here"

# ---------------------------------------------------------------- slurm.conf
# Two free ports above 1024, each bound to every address as the daemons do.
ports=$(pyq 'import socket, random
def free(p):
    s = socket.socket()
    try:
        s.bind(("", p))
        return True
    except OSError:
        return False
    finally:
        s.close()
start = random.randrange(20000, 60000, 2)
print(next(("%d %d" % (p, p + 1) for p in range(start, start + 1000, 2) if free(p) and free(p + 1)), ""))')
[ -n "$ports" ] || cannot "no two free ports above 20000"
# The node as slurmd finds it (CPUs, sockets, cores, memory), named by
# this machine's short hostname, which slurmctld takes for SlurmctldHost.
nodeline=$(slurmd -C 2>"$sl/log/slurmd-C.out" | sed -n 's/^\(NodeName=[^ ]* .*\)/\1/p' | head -n 1)
node=$(printf '%s\n' "$nodeline" | sed -n 's/^NodeName=\([^ ]*\) .*/\1/p')
ncpus=$(printf '%s\n' "$nodeline" | sed -n 's/.* CPUs=\([0-9]*\).*/\1/p')
[ -n "$node" ] && [ -n "$ncpus" ] || cannot "slurmd -C names no node"
: >"$sl/plugstack.conf"
cat >"$sl/slurm.conf" <<EOF
ClusterName=baretmatest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=${ports% *}
SlurmdPort=${ports#* }
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$short/munge/socket
StateSaveLocation=$sl/ctld
SlurmdSpoolDir=$short/spool
SlurmctldPidFile=$sl/slurmctld.pid
SlurmdPidFile=$sl/slurmd.pid
SlurmctldLogFile=$sl/log/slurmctld.log
SlurmdLogFile=$sl/log/slurmd.log
PlugStackConfig=$sl/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MailProg=/bin/true
# Prompt: a job is scheduled when it can run, not up to 3 s later
# (batch_sched_delay); a cancelled job's SIGKILL 2 s after its SIGTERM;
# ended jobs kept for scontrol show job.
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
KillWait=2
MinJobAge=600
$nodeline NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=campaign Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
SLURM_CONF=$sl/slurm.conf
export SLURM_CONF

start slurmctld slurmctld -D -f "$SLURM_CONF"
start slurmd slurmd -D -f "$SLURM_CONF" -N "$node"
node_idle() { scontrol -o show node "$node" 2>/dev/null | grep -q ' State=IDLE '; }
up node_idle || cannot "slurmctld and slurmd did not start here (node $node not idle)"

# ---------------------------------------------------------------- the hosts
# host N NAME DUMP PROFILE MICROCODE MACHINE-ID: array task N's host.
host() {
	_r=$tmp/hosts/$1
	mkdir -p "$_r/root/etc" "$_r/root/sys/devices/system/cpu/cpu0/microcode" \
		"$_r/root/proc/sys/kernel" "$_r/state"
	printf '%s\n' "$6" >"$_r/root/etc/machine-id"
	printf '%s\n' "$5" >"$_r/root/sys/devices/system/cpu/cpu0/microcode/version"
	printf '6.1.0-37-amd64\n' >"$_r/root/proc/sys/kernel/osrelease"
	printf "HOST='%s'\nBARETMA_CPUID_DUMP='%s'\nBARETMA_MSR='sim:%s'\nBARETMA_SYSROOT='%s'\nBARETMA_STATE_DIR='%s'\n" \
		"$2" "$3" "$4" "$_r/root" "$_r/state" >"$tmp/tasks/$1.env"
}
SPR=$EX/dumps/sapphire-rapids-ws-xeon-w7.test
ICL=$EX/dumps/ice-lake-i7.test
ADL=$EX/dumps/alder-lake-s-core-i9.test
{ cat "$EX/profiles/icelake-steady.profile"; echo 'fault sum_off 12'; } >"$tmp/hosts/icl-fault.profile"
ID0=0a7d1c52e0b94f3c8e6a1b2c3d4e5f60 ID1=1b8e2d63f1ca4e4d9f7b2c3d4e5f6071
ID2=2c9f3e7402db4f5ea08c3d4e5f607182 ID3=3da04f8513ec40afb19d4e5f60718293
ID4=4eb15096240d41b0c2ae5f6071829304
host 0 spr-a "$SPR" "$EX/profiles/sapphirerapids-steady.profile" 0x2b000590 $ID0
host 1 spr-b "$SPR" "$EX/profiles/sapphirerapids-steady.profile" 0x2b000603 $ID1
host 2 icl-a "$ICL" "$tmp/hosts/icl-fault.profile" 0xb6 $ID2
host 3 adl-a "$ADL" "$EX/profiles/sapphirerapids-steady.profile" 0x2c $ID3
host 4 spr-a "$SPR" "$EX/profiles/sapphirerapids-steady.profile" 0x2b000590 $ID4
# LAUNCH: the task's measurement as its host, in a UTS namespace named so.
cat >"$tmp/as-host" <<EOF
#!/bin/sh
. '$tmp/tasks/'"\$SLURM_ARRAY_TASK_ID.env" || exit 70
export BARETMA_CPUID_DUMP BARETMA_MSR BARETMA_SYSROOT BARETMA_STATE_DIR
exec unshare --uts sh -c 'printf "%s" "\$1" >/proc/sys/kernel/hostname && shift && exec "\$@"' sh "\$HOST" "\$@"
EOF
chmod +x "$tmp/as-host"

# ---------------------------------------------------------------- the campaign
R=$tmp/results
out=$(PARTITION=campaign NODES=5 RESULTS=$R BARETMA=$BARETMA LAUNCH=$tmp/as-host TIME=10:00 \
	EXTRA='' sh "$EX/slurm/submit.sh" 2>"$tmp/submit.err")
is "$?" 0 "submit.sh submits the campaign and its report"
campaign=$(printf '%s\n' "$out" | sed -n 's/^campaign \([0-9][0-9]*\)$/\1/p')
report=$(printf '%s\n' "$out" | sed -n 's/^report \([0-9][0-9]*\)$/\1/p')
like "$campaign $report" '^[0-9]+ [0-9]+$' "submit.sh prints the two job ids"
jobs="$campaign $report"
[ -n "$campaign" ] && [ -n "$report" ] || { sed 's/^/# /' "$tmp/submit.err"; logs; done_testing; }

# ended JOB: every task of JOB in a final state (slurm.conf(5) JobState)
ended() {
	_s=$(scontrol -o show job "$1" 2>/dev/null) && [ -n "$_s" ] || return 1
	! printf '%s\n' "$_s" | grep -vqE ' JobState=(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED) '
}
# The bound only stops a wedged run: 5 tasks take about 5 s here.
n=0
# never: a dependency Slurm found it cannot satisfy (afterok of a failed task)
never() { scontrol -o show job "$1" 2>/dev/null | grep -q ' Reason=DependencyNeverSatisfied '; }
while ! { ended "$report" && ended "$campaign"; } && alive && ! never "$report" && [ $n -lt 1200 ]; do
	sleep 0.1
	n=$((n + 1))
done
ended "$report" && ended "$campaign"
rc=$?
ok $rc "the campaign's 5 tasks and the report ended (in $((n / 10)) s)"
[ $rc -eq 0 ] || { scontrol -o show job "$campaign" | sed 's/^/# /'; scontrol -o show job "$report" | sed 's/^/# /'; logs; }

# Slurm's record of each task: N STATE EXIT NODE CPUS START END.
fields() { tr ' ' '\n' | sed -n "s/^$1=//p"; }
scontrol -o show job "$campaign" >"$tmp/tasks.txt"
while IFS= read -r l; do
	for f in ArrayTaskId JobState ExitCode NodeList NumCPUs StartTime EndTime; do
		printf '%s ' "$(printf '%s\n' "$l" | fields $f)"
	done
	echo
done <"$tmp/tasks.txt" | sort -n >"$tmp/tasks.tab"
# Of the two spr-a, the one that ran first measured it (host.sh's task file).
first=$(sed -n 's/^slurm job [0-9]*_\([0-9]*\) on node .*/\1/p' "$R/spr-a/task" 2>/dev/null)
like "$first" '^[04]$' "spr-a was measured by task 0 or 4 (the first to run: '$first')"
second=$((4 - ${first:-0}))
spra=$(eval echo "\$ID$first" 2>/dev/null)
want=
for t in 0 1 2 3 4; do
	case $t in 2) s="FAILED 1:0" ;; "$second") s="FAILED 75:0" ;; *) s="COMPLETED 0:0" ;; esac
	want="$want$t $s $node $ncpus
"
done
is "$(cut -d' ' -f1-5 "$tmp/tasks.tab")" "${want%?}" \
	"5 tasks ran, each on the node whole ($ncpus CPUs): icl-a's exit 1 (a check FAILed), the second spr-a's 75 (refused)"
is "$(awk '{ print $6, $7 }' "$tmp/tasks.tab" | sort | awk 'NR > 1 && $1 < end { print "overlap:", $0 } { end = $2 }')" "" \
	"the tasks ran one after another (--exclusive: none starts before the one before it ended)"
rstart=$(scontrol -o show job "$report" | fields StartTime)
is "$(awk -v r="$rstart" 'r !~ /^[0-9-]+T[0-9:]+$/ { print "the report did not start:", r; exit }
	$7 > r { print "task", $1, "ended", $7, "after the report started", r }' "$tmp/tasks.tab")" "" \
	"the report started after every task had ended (afterany)"

# ---------------------------------------------------------------- the results
# report.json and report.txt only where baretma report is built.
have_report=
"$BARETMA" help report >/dev/null 2>&1 && have_report=1
is "$(cd "$R" && ls)" "$(printf '%s\n' adl-a icl-a ${have_report:+report.json report.txt} slurm spr-a spr-b |
	LC_ALL=C sort)" "the results: one directory a host, named by it${have_report:+, the report}, the jobs' logs"
# Each file names its host: hostname and machine-id (doc/json.md "Host").
is "$(pyq 'import json, os, sys
r = sys.argv[1]
for h in sorted(os.listdir(r)):
    if not os.path.isdir(os.path.join(r, h)) or h == "slurm":
        continue
    out = [h]
    for f in ("bundle.json", "calibration.json", "bench.json"):
        try:
            d = json.load(open(os.path.join(r, h, f)))
            out.append("%s:%s:%s" % (f, d["host"]["hostname"], d["host"]["machine_id"]))
        except (OSError, ValueError, KeyError) as e:
            out.append("%s:%r" % (f, e))
    print(" ".join(out))' "$R")" "$(for h in "adl-a $ID3" "icl-a $ID2" "spr-a $spra" "spr-b $ID1"; do
	n=${h% *}; i=${h#* }
	echo "$n bundle.json:$n:$i calibration.json:$n:$i bench.json:$n:$i"
done)" "every host's bundle, calibration and bench name that host (spr-a: the first task's machine)"
# shellcheck disable=SC2046 # the file's lines as words of one line
is "$(for h in adl-a icl-a spr-a spr-b; do echo "$h" $(cat "$R/$h/exit-status" 2>/dev/null); done)" \
	"adl-a validate 0 calibrate 0 bench 0
icl-a validate 1 calibrate 0 bench 0
spr-a validate 0 calibrate 0 bench 0
spr-b validate 0 calibrate 0 bench 0" "exit-status: icl-a's validate FAILed (1), and calibrate and bench still ran"
is "$(pyq 'import json, sys
for h in sys.argv[2:]:
    try:
        d = json.load(open("%s/%s/bundle.json" % (sys.argv[1], h)))
    except (OSError, ValueError) as e:
        print(h, repr(e))
        continue
    fails = ["%s:%s" % (c["check"], c["measured"]) for c in d["validate"]["checks"] if c["status"] == "FAIL"]
    print(h, d["environment"]["microcode"], fails)' "$R" adl-a icl-a spr-a spr-b)" \
	"adl-a 0x2c []
icl-a 0xb6 ['level1_sum:267']
spr-a 0x2b000590 []
spr-b 0x2b000603 []" "the bundles: icl-a's level1_sum FAILs at 255 + 12, each host's own microcode"
log2=$(cat "$R/slurm/baretma-campaign-${campaign}_$second.out" 2>/dev/null)
printf '%s\n' "$log2" | grep -qF "'$R/spr-a' exists: 'spr-a' was measured already (by slurm job ${campaign}_$first on node $node)"
rc=$?
ok $rc "the second spr-a says why it wrote nothing"
[ $rc -eq 0 ] || printf '%s\n' "$log2" | sed 's/^/#   got: /'
is "$(grep -rl "$(eval echo \$ID$second)" "$R")" "" "nothing of the second spr-a's machine in the results"

# ---------------------------------------------------------------- the report
if [ -n "$have_report" ]; then
	is "$(scontrol -o show job "$report" | fields ExitCode)" 1:0 "the report job's exit status: 1, a check failed"
	is "$(pyq 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["schema"], d["hosts"], len(d["groups"]), d["files"]["skipped"])
for g in sorted(d["groups"], key=lambda g: g["cpu"]["model"]):
    c = g["cpu"]
    print("%s %d 0x%X %d:" % (c["vendor"], c["family"], c["model"], c["stepping"]),
          " ".join(sorted(h["name"] for h in g["hosts"])))
    for s in g["settings"]:
        if s["differs"]:
            print("  differs", s["setting"], " ".join("%s=%s" % (v["value"], ",".join(v["hosts"])) for v in s["values"]))
    for k in g["checks"]:
        for f in k["failing"]:
            print("  FAIL", k["check"], f["host"])' "$R/report.json")" \
		"baretma-report/1 4 3 []
GenuineIntel 6 0x7E 5: icl-a
  FAIL level1_sum icl-a
GenuineIntel 6 0x8F 8: spr-a spr-b
  differs microcode 0x2b000590=spr-a 0x2b000603=spr-b
GenuineIntel 6 0x97 2: adl-a" \
		"report.json: the three CPU groups and their hosts, the microcode difference, the failing host"
	txt=$(cat "$R/report.txt" 2>/dev/null)
	like "$txt" 'microcode: 0x2b000590 \(spr-a\) \| 0x2b000603 \(spr-b\)' "report.txt names the microcode difference"
	like "$txt" 'FAIL icl-a: cpu 0: measured 267' "report.txt names the failing host and its check"
else
	for t in exit json microcode fail; do skip "baretma report not built (report: $t)"; done
fi

# ---------------------------------------------------------------- stopping
stop_all
# shellcheck disable=SC2086 # "PID NAME" pairs
is "$(set -- $daemons; while [ $# -ge 2 ]; do gone "$1" || echo "$2 $1 runs"; shift 2; done; cluster_pids)" "" \
	"munged, slurmctld, slurmd and every job's process stopped"
done_testing
