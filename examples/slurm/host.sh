#!/bin/sh
# host.sh - what one host of a baretma campaign runs: campaign.sbatch
# starts it on each node; it runs as well by hand on a host outside Slurm:
#
#   RESULTS=/shared/baretma/2025-06 BARETMA=/shared/bin/baretma sh host.sh
#
# It writes $RESULTS/HOST/, HOST the host's name as uname -n gives it (the
# nodename baretma records in every file as host.hostname):
#   bundle.json       baretma validate --bundle: the checks, the environment,
#                     the CPUID dump (what baretma report groups hosts by)
#   validate.txt      validate's own text
#   calibration.json  baretma calibrate --json: the bracket, noise, resolution
#   bench.json        baretma bench --json: Top-down of the known-answer kernels
#   exit-status       one line a command: "validate 1", "calibrate 0", ...
#   NAME.err          a command's messages, where it printed any
#   task              which Slurm job and node measured the host
# Each command runs whatever the one before it found (a FAIL of validate,
# exit 1, stops nothing); a file is there whole or not at all (written
# under another name and renamed).  It writes nothing outside HOST's
# directory and nothing when that directory exists: a second task on a
# host already measured, or another machine of the same name, exits 75
# and leaves the first one's files as they were.  The exit status is the
# first command's that was not 0 (0 when none), 65 for a host name that
# cannot name a directory, 69 when BARETMA is no command here (nothing
# claimed), 73 when HOST's directory cannot be created.
set -u

: "${RESULTS:?set RESULTS to the shared results directory}"
BARETMA=${BARETMA:-baretma}
# before the host is claimed: a task without the tool would claim it with
# nothing measured, and every later task would find it measured (exit 75)
if ! command -v "$BARETMA" >/dev/null 2>&1; then
	echo "host.sh: baretma not found: '$BARETMA' is no command on this node (set BARETMA to its path, e.g. BARETMA=/shared/bin/baretma)" >&2
	exit 69
fi
host=$(uname -n)
case $host in
'' | . | .. | */*)
	echo "host.sh: host name '$host' cannot name a directory" >&2
	exit 65
	;;
esac
dir=$RESULTS/$host
mkdir -p "$RESULTS" 2>/dev/null
# mkdir, not mkdir -p: creating the directory is what claims the host, at
# once for every task that tries (mkdir(2) fails with EEXIST for all but one).
if ! mkdir "$dir" 2>/dev/null; then
	if [ -e "$dir" ]; then
		echo "host.sh: '$dir' exists: '$host' was measured already (by $(cat "$dir/task" 2>/dev/null || echo 'another run')); this task writes nothing (remove the directory to measure it again)" >&2
		exit 75
	fi
	echo "host.sh: cannot create '$dir' (can this node write RESULTS?)" >&2
	exit 73
fi
echo "slurm job ${SLURM_ARRAY_JOB_ID:-${SLURM_JOB_ID:-none}}${SLURM_ARRAY_TASK_ID:+_$SLURM_ARRAY_TASK_ID} on node ${SLURMD_NODENAME:-none}" >"$dir/task"

first=0
# run NAME FILE CMD...: CMD with its output into FILE (kept when CMD wrote
# any) and its messages into NAME.err; its exit status recorded.
run() {
	_name=$1 _file=$2
	shift 2
	"$@" >"$dir/.$_name.part" 2>"$dir/$_name.err"
	_rc=$?
	if [ -s "$dir/.$_name.part" ]; then
		mv -f "$dir/.$_name.part" "$_file"
	else
		rm -f "$dir/.$_name.part"
	fi
	[ -s "$dir/$_name.err" ] || rm -f "$dir/$_name.err"
	echo "$_name $_rc" >>"$dir/exit-status"
	[ "$first" -ne 0 ] || first=$_rc
}

run validate "$dir/validate.txt" "$BARETMA" validate --bundle "$dir/bundle.json"
run calibrate "$dir/calibration.json" "$BARETMA" calibrate --json
run bench "$dir/bench.json" "$BARETMA" bench --json
exit "$first"
