#!/bin/sh
# t/0998-backend-messages-whole.sh - the MSR backends' and the simulators'
# messages are never cut, however long the paths they quote.  A path may
# be PATH_MAX, 4096 bytes, long (linux include/uapi/linux/limits.h), and a
# byte below 0x20 is shown as the four bytes \xHH (cpu/escape.h), so an
# escaped path may be 16 KiB.  Each message below was cut before (the
# buffer it sat in, in brackets), its cause or remedy - the end of the
# line - lost first:
#  1. a state file (BARETMA_MSR=state:FILE) that does not exist, its path
#     1600 bytes of 0x01 in 8 directories: 6400 escaped bytes
#     (msr_last_error, PATH_MAX + 1024 = 5120 bytes);
#  2. the same under BARETMA_MSR_TRACE, the trace file that cannot be
#     created (its escaped path, PATH_MAX = 4096 bytes);
#  3. a simulator profile 2400 characters deep whose `state FILE` names a
#     missing file as deep: the profile's path, the state file's and the
#     cause, then the remedy (1024 bytes each);
#  4. that profile malformed, its line named after the whole path (512);
#  5. validate's perf_hands_back on BARETMA_PERF=sim:NAME whose NAME is
#     too long to read: the reason names it twice, whole (400 bytes);
#  6. bench --backend perf on it: perf_event's reason, whole (the perf
#     layer's PATH_MAX + 512 and the sources' PATH_MAX + 576 bytes);
#  7. compare on an AMD dump's CPU (the raw path cannot measure there):
#     its reason says both sides, perf's whole (600 bytes).
. "$T_SRC/tap.sh"

. "$T_SRC/sim-fixture.sh"
run() {
	st=0
	"$BARETMA" "$@" >"$tmp/out" 2>"$tmp/err" || st=$?
}
# the last line of stderr
last() { tail -n 1 "$tmp/err"; }

printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"

# 1. and 2. a path of 0x01 bytes
c=$(printf '%0200d' 0 | tr 0 '\001')
cdir=$tmp/$c/$c/$c/$c/$c/$c/$c/$c
mkdir -p "$cdir"
cshown=$(printf '%s' "$cdir" | sed 's/\x01/\\x01/g')
[ ${#cshown} -gt 6400 ]; ok $? "the escaped directory path is longer than the old 5120 bytes (${#cshown})"
BARETMA_MSR=state:$cdir/missing run bench --cpuid-dump "$ICL" --backend msr --cpu 1 --kernel empty --reps 2
is "$st" 66 "a missing state file, its path 6400 bytes escaped: exit 66"
case "$(last)" in
*"state file '$cshown/missing': No such file or directory") r=0 ;;
*) r=1 ;;
esac
ok $r "the message names the whole escaped path, its cause last" ||
	echo "# $(last | tail -c 200)"
is "$(last | grep -o '\\x01' | wc -l)" 1600 "all 1600 bytes of 0x01 escaped in it"

BARETMA_MSR_TRACE=$cdir/nodir/trace BARETMA_MSR=sim:$tmp/p run bench --cpuid-dump "$ICL" --cpu 1 \
	--kernel empty --reps 2
case "$(last)" in
*"trace file '$cshown/nodir/trace' (\$BARETMA_MSR_TRACE): No such file or directory"*) r=0 ;;
*) r=1 ;;
esac
ok $r "an uncreatable trace file: its whole escaped path and the cause (exit $st)" ||
	echo "# $(last | tail -c 200)"

# 3. a deep profile whose state file is missing
seg=$(printf '%0200d' 0 | tr 0 d)
dir=$tmp/$seg/$seg/$seg/$seg/$seg/$seg/$seg/$seg/$seg/$seg/$seg/$seg
mkdir -p "$dir"
[ ${#dir} -gt 2400 ]; ok $? "the profile's directory is ${#dir} characters long"
cp "$tmp/p" "$dir/p"
printf 'state %s\n' "$dir/missing" >>"$dir/p"
BARETMA_MSR=sim:$dir/p run bench --cpuid-dump "$ICL" --cpu 1 --kernel empty --reps 2
[ "$st" -ne 0 ]; ok $? "bench on a profile whose state file is missing: refused (exit $st)"
case "$(last)" in
*"simulated PMU '$dir/p': \`state\` key: state file '$dir/missing': No such file or directory (create it: doc/state-file.md has a template of one CPU's registers)") r=0 ;;
*) r=1 ;;
esac
ok $r "the message: the whole profile path, the whole state path, the cause, the remedy last" ||
	echo "# $(last | tail -c 300)"

# 4. a malformed profile at that depth
printf 'bogus 1\n' >"$dir/bad"
BARETMA_MSR=sim:$dir/bad run bench --cpuid-dump "$ICL" --cpu 1 --kernel empty --reps 2
[ "$st" -ne 0 ]; ok $? "bench on a malformed profile: refused (exit $st)"
case "$(last)" in
*"profile '$dir/bad': line 1: unknown key 'bogus' (the keys are in doc/simulator.md, \"The profile\")"*) r=0 ;;
*) r=1 ;;
esac
ok $r "the profile's message names its whole path, then the line and the remedy" ||
	echo "# $(last | tail -c 300)"

# 5. and 6. a perf simulator profile named by a relative path of 4301
# bytes ("./" 2150 times, then "p": longer than PATH_MAX, so the profile
# cannot be read, ENAMETOOLONG; the command line's early check of the
# profile leaves so long a name to the perf source): its reason names
# the name twice, whole, its cause last
long=$(printf './%.0s' $(seq 2150))p
[ ${#long} -eq 4301 ]; ok $? "the profile's name is 4301 bytes"
want="simulated PMU '$long': cannot read profile '$long': File name too long"
(cd "$tmp" && BARETMA_MSR=sim:p BARETMA_PERF=sim:$long "$BARETMA" validate --cpuid-dump "$ICL" \
	--cpu 1 --json >"$tmp/out" 2>"$tmp/err")
got=$(q '[c.get("reason", "") for c in d["checks"] if c["check"] == "perf_hands_back"][0]' 2>/dev/null)
is "$got" "perf_event: $want" "validate: perf_hands_back's reason whole, the name twice and the cause"

st=0
(cd "$tmp" && BARETMA_MSR=sim:p BARETMA_PERF=sim:$long "$BARETMA" bench --cpuid-dump "$ICL" \
	--backend perf --cpu 1 --kernel empty --reps 2 >"$tmp/out" 2>"$tmp/err") || st=$?
is "$st" 69 "bench --backend perf on it: exit 69"
is "$(last)" "baretma: cannot use --backend perf on cpu 1: perf_event: $want" \
	"bench: perf_event's reason whole, its cause last"

# 7. compare: the raw side cannot measure (an AMD CPU), nor can perf
ZEN2=$SHARED_CPUID/libcpuid/v0.6.2/amd/zen2/ryzen9-matisse.test
if [ -r "$ZEN2" ]; then
	st=0
	(cd "$tmp" && BARETMA_MSR=sim:p BARETMA_PERF=sim:$long "$BARETMA" compare \
		--cpuid-dump "$ZEN2" --cpu 1 >"$tmp/out" 2>"$tmp/err") || st=$?
	is "$st" 69 "compare on the Zen 2 dump's cpu 1: exit 69"
	case "$(last)" in
	"baretma: cannot compare: cpu 1: both sides are needed; the raw path"*"; perf_event: "*"$want") r=0 ;;
	*) r=1 ;;
	esac
	ok $r "compare: perf's side whole, its cause last" || echo "# $(last | tail -c 200)"
	case "$(last)" in
	*"perf_event: perf_event: "*) r=1 ;;
	*) r=0 ;;
	esac
	ok $r "compare: \"perf_event: \" said once"
else
	skip "no Zen 2 dump $ZEN2"
	skip "no Zen 2 dump"
	skip "no Zen 2 dump"
fi
done_testing
