#!/bin/sh
# submit.sh - submit a baretma campaign to Slurm: one array task a node
# (campaign.sbatch, which runs host.sh there), then the fleet's report
# (report.sbatch) once every task has ended (--dependency=afterany).
# doc/fleet.md explains the campaign, the results and the report.
#
#   PARTITION=hw NODES=16 RESULTS=/shared/baretma/2025-06 sh examples/slurm/submit.sh
#
# What a site sets, each from the environment (default in brackets):
#   PARTITION  the partition whose nodes are measured [the cluster's default]
#   NODES      how many array tasks: one a node, so the number of nodes to
#              measure [every node of PARTITION, as sinfo lists them]
#   RESULTS    the shared results directory, one subdirectory a host, seen
#              by every node at the same path [$PWD/baretma-results-DATE]
#   BARETMA    the baretma binary, at a path every node sees [baretma in PATH]
#   TIME       the time limit of each task and of the report [1:00:00]
#   EXTRA      more sbatch options for both jobs, split at blanks
#              (--account=lab --qos=short --constraint=FEATURE ...) [none]
#   LAUNCH     a command each host's measurement runs under, split at blanks:
#              "sudo -n --preserve-env=RESULTS,BARETMA" where jobs do not run
#              as root, a container's "apptainer exec IMAGE" [none]
# It prints "campaign JOBID", "report JOBID" and "results DIR", and exits 0
# when both jobs were submitted, 64 for a bad variable, 69 without sbatch
# or baretma, 73 when RESULTS cannot be created, else sbatch's status.
set -u

die() { # die STATUS MESSAGE
	echo "submit.sh: $2" >&2
	exit "$1"
}

here=$(cd "$(dirname "$0")" && pwd) || die 70 "cannot find the campaign's directory"
command -v sbatch >/dev/null 2>&1 || die 69 "no sbatch here (submit from a Slurm login node)"

PARTITION=${PARTITION:-}
TIME=${TIME:-1:00:00}
EXTRA=${EXTRA:-}
LAUNCH=${LAUNCH:-}
RESULTS=${RESULTS:-$PWD/baretma-results-$(date +%Y%m%d-%H%M%S)}
case $RESULTS in
/*) ;;
*) RESULTS=$PWD/$RESULTS ;; # the tasks run in other directories, on other nodes
esac
BARETMA=${BARETMA:-$(command -v baretma)} ||
	die 69 "no baretma in PATH (set BARETMA=/path/to/baretma, a path every node sees)"
case $BARETMA in
/*) ;;
*) BARETMA=$PWD/$BARETMA ;;
esac
[ -x "$BARETMA" ] || die 69 "'$BARETMA': not an executable (set BARETMA=/path/to/baretma)"
if [ -z "${NODES:-}" ]; then
	# sinfo -N lists a node once a partition; sort -u counts each once.
	NODES=$(sinfo -h -N ${PARTITION:+-p "$PARTITION"} -o %N | sort -u | wc -l) ||
		die 69 "sinfo failed: set NODES to the number of nodes to measure"
fi
case $NODES in
'' | *[!0-9]* | 0*) die 64 "NODES='$NODES': not a number of nodes (1 or more)" ;;
esac

mkdir -p "$RESULTS/slurm" || die 73 "cannot create '$RESULTS/slurm'"
export RESULTS BARETMA LAUNCH
CAMPAIGN_DIR=$here
export CAMPAIGN_DIR

# The options a site changes are here; those of the campaign's shape
# (one task a node, the node to itself) are in the .sbatch files.
# --export=ALL: the tasks read RESULTS, BARETMA, LAUNCH and CAMPAIGN_DIR
# from the environment, whatever SBATCH_EXPORT says.
# shellcheck disable=SC2086 # EXTRA is a list of options
set -- --parsable --export=ALL --time="$TIME" ${PARTITION:+--partition="$PARTITION"} $EXTRA
campaign=$(sbatch "$@" --array="0-$((NODES - 1))" \
	--output="$RESULTS/slurm/%x-%A_%a.out" "$here/campaign.sbatch") ||
	die $? "sbatch of campaign.sbatch failed"
campaign=${campaign%%;*} # --parsable prints "JOBID[;CLUSTER]"
report=$(sbatch "$@" --dependency="afterany:$campaign" \
	--output="$RESULTS/slurm/%x-%j.out" "$here/report.sbatch") || {
	rc=$?
	scancel "$campaign" 2>/dev/null # no campaign without its report
	die $rc "sbatch of report.sbatch failed (campaign $campaign cancelled)"
}
report=${report%%;*}
printf 'campaign %s\nreport %s\nresults %s\n' "$campaign" "$report" "$RESULTS"
