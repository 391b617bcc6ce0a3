#!/bin/sh
# t/1212-slurm-host-script.sh - examples/slurm/host.sh by hand, outside
# Slurm, as its header says it runs (doc/fleet.md, "What runs where"):
# without the tool it claims nothing (exit 69, where it claimed the host and
# every later task then found it measured, exit 75, with nothing in it);
# with it, the host's directory holds the files its header lists and
# exit-status the three commands' statuses; a second run on the same host
# writes nothing and exits 75, the first run's files as they were.  The
# statuses are those host.sh's header documents.
. "$T_SRC/tap.sh"
. "$T_SRC/sim-fixture.sh"

HOST_SH=$T_SRC/../examples/slurm/host.sh
R=$tmp/results
mkdir "$R"
host=$(uname -n)

RESULTS=$R BARETMA=$tmp/no-such-baretma sh "$HOST_SH" 2>"$tmp/e1"; rc=$?
is "$rc" 69 "BARETMA no command: exit 69"
like "$(cat "$tmp/e1")" "baretma not found: '$tmp/no-such-baretma' is no command on this node \\(set BARETMA" \
	"it names the command and the remedy"
is "$(ls -A "$R")" "" "and claims no host: RESULTS is left empty"
if PATH=/usr/bin:/bin command -v baretma >/dev/null 2>&1; then
	skip "a baretma is installed in /usr/bin or /bin"
	skip "a baretma is installed in /usr/bin or /bin"
else
	env -u BARETMA RESULTS=$R PATH=/usr/bin:/bin sh "$HOST_SH" 2>"$tmp/e2"; rc=$?
	is "$rc" 69 "no BARETMA and no baretma on PATH: exit 69"
	is "$(ls -A "$R")" "" "nothing claimed either"
fi

run_host() {
	RESULTS=$R BARETMA=$BARETMA BARETMA_MSR=sim:$T_SRC/../examples/profiles/sapphirerapids-steady.profile \
		BARETMA_CPUID_DUMP=$SPR sh "$HOST_SH"
}
run_host 2>"$tmp/e3"; rc=$?
is "$rc" 0 "with the tool, on the simulated Sapphire Rapids: exit 0"
is "$(cd "$R/$host" && ls | grep -v '\.err$' | tr '\n' ' ')" \
	"bench.json bundle.json calibration.json exit-status task validate.txt " \
	"the host's directory holds the files the header lists"
is "$(cat "$R/$host/exit-status" | tr '\n' ' ')" "validate 0 calibrate 0 bench 0 " \
	"exit-status: one line a command, in order"
is "$(cat "$R/$host/task")" "slurm job none on node none" "task: no Slurm job"
is "$(ls -A "$R/$host" | grep -c '\.part$')" 0 "no partial file is left"
sum1=$(cd "$R/$host" && cat * | cksum)
run_host 2>"$tmp/e4"; rc=$?
is "$rc" 75 "a second run on the host: exit 75"
like "$(cat "$tmp/e4")" "'$host' was measured already \\(by slurm job none on node none\\); this task writes nothing" \
	"it says the host was measured, and by which task"
is "$(cd "$R/$host" && cat * | cksum)" "$sum1" "the first run's files are as they were"
done_testing
