#!/bin/sh
# t/0979-messages-whole.sh - refusals reach the user whole, however long
# the paths, lists and arguments they quote.
#
# The guard's: the guard kept its message in 8192
# bytes, and a state directory refused for a parent others may change names
# the directory once and that parent twice (the second time in the remedy),
# so a path of some 3000 bytes (a path may be PATH_MAX, 4096 bytes: linux
# include/uapi/linux/limits.h) lost the end of the line, the remedy.
# Runs 'pmu enable' on the Ice Lake fixture (t/guard-fixture.sh), as
# t/0621 does; the expected sentence is written out here.
#
# The CPUs a journal holds were listed in 256 bytes: a stale journal of
# a 2-socket Sapphire Rapids (160 CPUs: $SHARED_CPUID/INDEX.tsv, its
# hwloc-gather-cpuid directory) holding every even CPU, a list of 80
# ranges, lost its last CPUs.
. "$T_SRC/tap.sh"
. "$T_SRC/guard-fixture.sh"

seg=$(printf '%0200d' 0 | tr 0 p)
parent=$tmp
i=0
while [ "$i" -lt 14 ]; do
	parent=$parent/$seg
	i=$((i + 1))
done
mkdir -p "$parent"
chmod 0777 "$parent" # whatever the umask
dir=$parent/run
[ ${#parent} -gt 2800 ]; ok $? "the parent's path is ${#parent} bytes: named three times, over 8192"

fixture
out=$(BARETMA_STATE_DIR=$dir "$BARETMA" pmu enable --cpuid-dump "$ICL" --cpu 1 2>&1); rc=$?
is "$rc" 77 "a parent mode 0777: refused (exit 77, EX_NOPERM)"
want="state dir '$dir': '$parent' in its path is writable by group and others (mode 0777) and not sticky: refused (they could move the state dir aside and hide its journals, and 'pmu restore' would find nothing to restore; chmod go-w '$parent', or chmod +t it as /tmp is, or give a path whose every directory only root or uid $(id -u) can change)"
is "$(printf '%s\n' "$out" | grep -cF -- "baretma: $want")" 1 \
	"the whole refusal (${#want} bytes), its remedy last: $(printf '%s' "$out" | tail -c 200)"
is "$(same "$tmp/state" "$tmp/orig")" 0 "no register written"
ok $([ ! -e "$dir" ]; echo $?) "the state directory was not created"

spr=$SHARED_CPUID/hwloc/Intel-SapphireRapids-2xXeonMax9460
if [ -d "$spr" ]; then
	# the registers of 160 CPUs as firmware leaves them (t/guard-fixture.sh
	# regs: the dump has 8 GP counters, INDEX.tsv leafA_gp_counters)
	c=0
	while [ "$c" -lt 160 ]; do regs "$c"; c=$((c + 1)); done >"$tmp/state160"
	cp "$tmp/state160" "$tmp/orig160"
	mkdir -m 0700 "$tmp/run160"
	sh -c 'exit 0' & dead=$!
	wait "$dead"
	jfile=$tmp/run160/run-$dead.journal
	list=
	c=0
	while [ "$c" -lt 160 ]; do
		list=$list${list:+,}$c
		c=$((c + 2))
	done
	{
		printf '# baretma journal v2\npid %s\nstarttime 0\ntime 1700000000\n' "$dead"
		printf 'cmd baretma bench\nbackend state:%s\nkind run\nuser_only 0\n' "$tmp/state160"
		c=0
		while [ "$c" -lt 160 ]; do
			printf 'reg %s 0x38f 0x70000000f\n' "$c"
			c=$((c + 2))
		done
	} >"$jfile"
	chmod 600 "$jfile"
	out=$(BARETMA_MSR=state:$tmp/state160 BARETMA_STATE_DIR=$tmp/run160 "$BARETMA" pmu enable \
		--cpuid-dump "$spr" 2>&1); rc=$?
	is "$rc" 75 "a stale journal holding every even CPU: refused (exit 75)"
	want="cpu $list: left by a baretma run that did not finish (pid $dead, cmd baretma bench); journal '$jfile' (run: baretma pmu restore)"
	is "$(printf '%s\n' "$out" | grep -cF -- "baretma: $want")" 1 \
		"every CPU it holds named (${#list} bytes, over the old 256): $out"
	is "$(same "$tmp/state160" "$tmp/orig160")" 0 "no register written"
else
	skip 3 "no Sapphire Rapids hwloc directory in \$SHARED_CPUID"
fi

# A usage error quotes the argument: it was formatted in 512 bytes, so an
# unknown option of 600 bytes lost its closing quote, and -o and
# --openmetrics naming one long file lost ": give two".
long=$(printf '%0600d' 0 | tr 0 k)
out=$("$BARETMA" bench "--$long" 2>&1); rc=$?
is "$rc" 64 "an unknown option of 600 bytes: exit 64 (EX_USAGE)"
is "$out" "baretma: bench: unknown option '--$long' (try: baretma bench --help)" \
	"the option quoted whole, then the remedy"
out=$("$BARETMA" bench -o "$tmp/$long" --openmetrics "$tmp/$long" 2>&1); rc=$?
is "$rc" 64 "-o and --openmetrics the same long file: exit 64"
is "$out" "baretma: bench: -o and --openmetrics name the same file '$tmp/$long': give two (try: baretma bench --help)" \
	"the file quoted whole, and what to do"

# stat's reasons were kept in 1024 bytes: a command of 1100 bytes that does
# not exist lost the cause, "No such file or directory" (execvp(3): ENOENT),
# the end of the line.  On the simulator, as t/0900.
printf 'ghz 1\naccess_cycles 0\nretiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' \
	>"$tmp/profile"
cmd=$tmp
while [ ${#cmd} -lt 1100 ]; do cmd=$cmd/$seg; done
mkdir -p "$cmd"
cmd=$cmd/no-such-command
mkdir -p "$tmp/run-stat"
BARETMA_MSR=sim:$tmp/profile BARETMA_STATE_DIR=$tmp/run-stat BARETMA_CPUID_DUMP=$ICL \
	"$BARETMA" stat -C 2 -- "$cmd" >/dev/null 2>"$tmp/err"; rc=$?
is "$rc" 127 "a command of ${#cmd} bytes that does not exist: 127, as a shell"
is "$(grep -cF "baretma: stat: cannot run '$cmd': No such file or directory" "$tmp/err")" 1 \
	"the command named whole, then the cause: $(tail -c 120 "$tmp/err")"
done_testing
