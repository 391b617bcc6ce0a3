#!/bin/sh
# t/0500-cli-errors - bad input gets a clear message naming the input and the
# remedy, a non-zero sysexits status, and changes nothing (the state file
# standing in for the MSRs keeps its bytes).
. "$T_SRC/tap.sh"

icl="$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test"
state="$tmp/state"
cat >"$state" <<'EOS'
# cpu msr value: an Ice Lake P-core as firmware left it
1 0x38f 0x70000000f
1 0x38d 0x333
1 0x30c 0x0
1 0x329 0x0
1 0x390 0x0
1 0x38e 0x0
1 0x345 0x000000000000f4c5
EOS
cp "$state" "$tmp/state.orig"
unchanged() { cmp -s "$state" "$tmp/state.orig"; ok $? "$1: state file unchanged"; }

out=$("$BARETMA" frobnicate 2>&1); rc=$?
is "$rc" 64 "unknown command exits 64"
like "$out" "^baretma: unknown command 'frobnicate' \(try: baretma --help\)" "unknown command message"

out=$("$BARETMA" bench --kernel nope 2>&1); rc=$?
is "$rc" 64 "unknown kernel exits 64"
like "$out" "unknown kernel 'nope' in --kernel" "unknown kernel is named"

for bad in 0 -1 12abc 99999999999999999999 2000000; do
	out=$("$BARETMA" bench --backend tsc --reps "$bad" 2>&1); rc=$?
	is "$rc" 64 "--reps $bad exits 64"
	like "$out" "bad (--reps '$bad'|--reps '0')" "--reps $bad is named"
done

out=$("$BARETMA" bench --backend tsc --cpu 4000 2>&1); rc=$?
is "$rc" 64 "--cpu 4000 (beyond CPU_MAX_CPUS) exits 64"
ncpu=$(getconf _NPROCESSORS_CONF)
out=$("$BARETMA" bench --backend tsc --cpu "$((ncpu + 5))" --reps 3 2>&1); rc=$?
is "$rc" 64 "--cpu of a CPU that does not exist exits 64"
like "$out" "cannot measure on cpu $((ncpu + 5)): no such CPU" "bad CPU message names it"

out=$("$BARETMA" info --cpuid-dump "$tmp/none" 2>&1); rc=$?
is "$rc" 66 "missing dump exits 66 (EX_NOINPUT)"
like "$out" "'$tmp/none'" "missing dump message names the file"
printf 'hello\nthis is not cpuid\n' >"$tmp/junk"
out=$("$BARETMA" bench --cpuid-dump "$tmp/junk" --backend tsc 2>&1); rc=$?
is "$rc" 65 "malformed dump exits 65 (EX_DATAERR)"
like "$out" "cannot load CPUID dump '$tmp/junk'" "malformed dump message names the file"

out=$("$BARETMA" decode 0xnothex 2>&1); rc=$?
is "$rc" 65 "malformed decode input exits 65"

if [ ! -f "$icl" ]; then
	skip "no ../shared/cpuid: dump + device checks need the Ice Lake dump"
	skip "no ../shared/cpuid"
	skip "no ../shared/cpuid"
	skip "no ../shared/cpuid"
else
	# A dump's CPU is never looked for behind this machine's device (a
	# missing device is named with its remedy on the live machine: t/0235).
	out=$(BARETMA_MSR=/nonexistent/cpu/%u/msr "$BARETMA" bench --cpuid-dump "$icl" --cpu 1 --backend msr --reps 3 2>&1); rc=$?
	is "$rc" 64 "a dump with a device backend and --backend msr exits 64 (EX_USAGE)"
	like "$out" "refusing to write MSRs through '/nonexistent/cpu/%u/msr' with a CPUID dump .*BARETMA_MSR=state:FILE" \
		"and says what a dry run needs"
	out=$(BARETMA_MSR=/nonexistent/cpu/%u/msr "$BARETMA" bench --cpuid-dump "$icl" --cpu 1 --kernel retire-light --reps 3 2>&1); rc=$?
	is "$rc" 0 "a dump with a device backend and no explicit backend falls back to the TSC"
	like "$out" "top-down: unavailable: cpu 1 of the CPUID dump .* describes another machine: this machine's MSR device cannot reach its registers" \
		"and says why"
fi

printf '1 0x38f\n' >"$tmp/badstate"
out=$(BARETMA_MSR="state:$tmp/badstate" "$BARETMA" pmu status 2>&1); rc=$?
is "$rc" 65 "malformed state file exits 65"
like "$out" "$tmp/badstate" "malformed state file is named"
like "$out" "line 1" "malformed state file line is named"

if [ -f "$icl" ]; then
	out=$(BARETMA_MSR="state:$state" "$BARETMA" bench --cpuid-dump "$icl" --cpu 1 --backend msr --level 2 --reps 3 2>&1); rc=$?
	# Ice Lake's recipe counts events beside PERF_METRICS (level 1 and 2:
	# msr/recipe/recipes_intel_pm.c); this state file has no general-purpose
	# counters for them
	is "$rc" 69 "--level 2 on Ice Lake with no IA32_PERFEVTSELx in the state file exits 69"
	like "$out" "cannot read IA32_PERFEVTSEL0 through '$state'" "the message names the register and the file"
	unchanged "--level 2 on Ice Lake"
	out=$(BARETMA_MSR="state:$state" "$BARETMA" bench --cpuid-dump "$icl" --cpu 99 --backend msr 2>&1); rc=$?
	is "$rc" 64 "bad CPU with a state backend exits 64"
	unchanged "bad CPU"
else
	for i in 1 2 3 4 5; do skip "no ../shared/cpuid"; done
fi
# --- option errors: one line, naming the option, ending in the help to try ---
# (issue 8 point 13).  Every command parses through its option table
# (bench/cli/cli_opt.c cli_opts_parse); each case
# is checked for its status, its one line, and an empty stdout.
one_line() { # WHAT WANT_REGEX CMD...
	what=$1 want=$2
	shift 2
	err=$("$BARETMA" "$@" 2>&1 >"$tmp/stdout"); rc=$?
	is "$rc" 64 "$what: exit 64"
	is "$(printf '%s\n' "$err" | wc -l | tr -d ' ')" 1 "$what: one line on stderr"
	like "$err" "$want" "$what: message"
	is "$(wc -c <"$tmp/stdout" | tr -d ' ')" 0 "$what: nothing on stdout"
}
for cmd in bench info decode "pmu enable" "pmu status" "pmu restore" "cpuid dump" \
	"msr read" "msr write"; do
	# shellcheck disable=SC2086 # $cmd is one or two words
	one_line "$cmd --frob" "^baretma: $cmd: unknown option '--frob' \(try: baretma $cmd --help\)$" \
		$cmd --frob
done
one_line "bench --frob=1" "^baretma: bench: unknown option '--frob' \(try: baretma bench --help\)$" \
	bench --frob=1
one_line "bench -Z" "^baretma: bench: unknown option '-Z' \(try: baretma bench --help\)$" bench -Z
one_line "bench -x (no separator)" \
	"^baretma: bench: option '-x' needs an argument \(try: baretma bench --help\)$" bench -x
one_line "bench --cpu (no argument)" \
	"^baretma: bench: option '--cpu' needs an argument \(try: baretma bench --help\)$" bench --cpu
one_line "bench -C (no argument)" \
	"^baretma: bench: option '-C' needs an argument \(try: baretma bench --help\)$" bench -C
one_line "decode --level (no argument)" \
	"^baretma: decode: option '--level' needs an argument \(try: baretma decode --help\)$" \
	decode 0xff --level
one_line "cpuid dump -o (no argument)" \
	"^baretma: cpuid dump: option '-o' needs an argument \(try: baretma cpuid dump --help\)$" \
	cpuid dump -o
one_line "bench --w (ambiguous)" \
	"^baretma: bench: option '--w' is ambiguous: --warmup, --wait \(try: baretma bench --help\)$" \
	bench --w
one_line "info --json=yes" \
	"^baretma: info: option '--json' takes no argument \(got '--json=yes'\) \(try: baretma info --help\)$" \
	info --json=yes
one_line "pmu status --force (not for status)" \
	"^baretma: pmu status: option '--force' does not apply to 'pmu status' \(try: baretma pmu status --help\)$" \
	pmu status --force
one_line "bench stray argument" \
	"^baretma: bench: unexpected argument 'stray' \(try: baretma bench --help\)$" bench stray

# --- flags that exclude each other ---------------------------------------------
one_line "bench --json --csv" \
	"^baretma: bench: --json and --csv exclude each other: give one \(try: baretma bench --help\)$" \
	bench --backend tsc --kernel empty --reps 1 --warmup 0 --json --csv
one_line "bench --csv --json" "--json and --csv exclude each other" \
	bench --backend tsc --kernel empty --reps 1 --warmup 0 --csv --json
one_line "bench --level with --backend tsc" "--level and --backend tsc exclude each other" \
	bench --backend tsc --kernel empty --reps 1 --warmup 0 --level 1
one_line "bench --user-only with --backend tsc" "--user-only and --backend tsc exclude each other" \
	bench --backend tsc --kernel empty --reps 1 --warmup 0 --user-only
one_line "decode METRICS with --from/--to" "a METRICS value and --from/--to exclude each other" \
	decode 0xff --from 1:0xff --to 2:0xff

# --- version and help ----------------------------------------------------------
out=$("$BARETMA" version); rc=$?
is "$rc" 0 "baretma version exits 0"
like "$out" "^baretma [0-9]+\.[0-9]+" "baretma version prints the version"
is "$("$BARETMA" --version)" "$out" "--version prints the same"
# (without man in PATH: with it, help CMD shows CMD's man page, t/1118)
mkdir -p "$tmp/noman"
for cmd in bench info decode pmu cpuid msr; do
	want=$("$BARETMA" $cmd --help)
	out=$(PATH="$tmp/noman" "$BARETMA" help $cmd); rc=$?
	is "$rc" 0 "baretma help $cmd exits 0"
	is "$out" "$want" "baretma help $cmd is baretma $cmd --help (no man installed)"
done
out=$("$BARETMA" help); rc=$?
is "$rc" 0 "baretma help exits 0"
like "$out" "^usage: baretma <command>" "baretma help prints the usage"
out=$("$BARETMA" help frobnicate 2>&1); rc=$?
is "$rc" 64 "baretma help of an unknown command exits 64"
like "$out" "^baretma: unknown command 'frobnicate' \(try: baretma --help\)$" "and names it"

# --- every --help lists the exit statuses its command returns -------------------
# statuses CMD: the numbers in the "exit status:" paragraph of CMD --help.
statuses() {
	"$BARETMA" $1 --help | sed -n '/^exit status:/,/^$/p' | grep -oE '(^|[ (,])[0-9]{1,3}( |$)' |
		tr -dc '0-9\n ' | tr ' ' '\n' | grep . | sort -n | uniq | tr '\n' ' '
}
lists() { # CMD STATUS: STATUS is listed in CMD --help
	case " $(statuses "$1")" in
	*" $2 "*) ok 0 "$1 --help lists exit status $2" ;;
	*) ok 1 "$1 --help lists exit status $2"; echo "#   lists: $(statuses "$1")" ;;
	esac
}
for cmd in bench info decode pmu cpuid msr; do
	"$BARETMA" $cmd --help | grep -q '^exit status:'
	ok $? "$cmd --help has an 'exit status:' paragraph"
	lists "$cmd" 0
	lists "$cmd" 64
done
# Each status below is one this suite sees the command return (the test
# named in the comment), so the help must list it.
lists decode 65   # malformed value (t/0110)
lists info 65     # malformed dump (this file)
lists info 66     # missing dump (this file)
lists bench 65    # malformed dump (this file)
lists bench 66    # missing sysroot (below)
lists bench 69    # missing device with --backend msr (this file)
lists bench 73    # state directory that cannot be created (t/0510)
lists bench 75    # busy / tampered (t/0383)
lists bench 77    # state directory that is a symlink (t/0510)
lists pmu 65      # malformed state file (this file)
lists pmu 66      # missing sysroot (below)
lists pmu 69      # offline CPU (t/0510)
lists pmu 73      # state directory that is a file (t/0510)
lists pmu 75      # journal holds the CPU (t/0380)
lists pmu 77      # state directory writable by others (t/0510)
lists cpuid 66    # missing sysroot (below)
lists cpuid 73    # -o into a missing directory (t/0225)
lists msr 65      # reserved bits (t/0510)
lists msr 66      # missing sysroot (below)

# --- BARETMA_SYSROOT that is not a directory: named, exit 66 -------------------
# (before: every /sys and /proc file read as absent, a wrong answer)
echo "not a directory" >"$tmp/sysfile"
for case in "bench --backend tsc --kernel empty --reps 1 --warmup 0" "info" "pmu enable" \
	"pmu status" "pmu restore" "cpuid dump -o $tmp/dump.txt" "msr read 0 0x38f" \
	"msr write 0 0x38d 0x333"; do
	# shellcheck disable=SC2086 # $case is a command line
	out=$(BARETMA_MSR="state:$state" BARETMA_SYSROOT="$tmp/nosys" "$BARETMA" $case 2>&1); rc=$?
	is "$rc" 66 "missing sysroot: $case exits 66"
	like "$out" "^baretma: BARETMA_SYSROOT '$tmp/nosys': No such file or directory \(give an existing directory" \
		"missing sysroot: $case names it"
	# shellcheck disable=SC2086
	out=$(BARETMA_MSR="state:$state" BARETMA_SYSROOT="$tmp/sysfile" "$BARETMA" $case 2>&1); rc=$?
	is "$rc" 66 "sysroot that is a file: $case exits 66"
	like "$out" "BARETMA_SYSROOT '$tmp/sysfile': not a directory" "sysroot that is a file: $case names it"
done
unchanged "missing sysroot"
[ ! -e "$tmp/dump.txt" ]
ok $? "missing sysroot: cpuid dump wrote nothing"
out=$(BARETMA_SYSROOT="$tmp/nosys" "$BARETMA" decode 0x4c331a66 2>&1); rc=$?
is "$rc" 0 "decode reads no sysroot: runs"
out=$(BARETMA_SYSROOT="$tmp/nosys" "$BARETMA" info --help); rc=$?
is "$rc" 0 "help is printed whatever the sysroot"
mkdir -p "$tmp/emptyroot"
out=$(BARETMA_SYSROOT="$tmp/emptyroot/" "$BARETMA" decode 0xff 2>&1); rc=$?
is "$rc" 0 "an existing (empty) sysroot is fine"

# --- a relative BARETMA_STATE_DIR is refused, naming it and the absolute path ----
# A journal written under "run" from one directory is not found by 'pmu
# restore' from another: refuse the name instead of guessing.
mkdir -p "$tmp/wd"
cd "$tmp/wd" || exit 1
for case in "pmu enable --cpu 1" "pmu status" "pmu restore" "msr write 1 0x38d 0x333" \
	"bench --cpuid-dump $icl --cpu 1 --backend msr --kernel empty --reps 1 --warmup 0"; do
	# shellcheck disable=SC2086
	out=$(BARETMA_MSR="state:$state" BARETMA_STATE_DIR=run "$BARETMA" $case 2>&1); rc=$?
	is "$rc" 64 "relative state dir: $case exits 64"
	like "$out" "^baretma: BARETMA_STATE_DIR 'run': a relative path: refused .*BARETMA_STATE_DIR=$tmp/wd/run\)$" \
		"relative state dir: $case names it and the absolute path"
done
[ ! -e "$tmp/wd/run" ]
ok $? "relative state dir: nothing created"
unchanged "relative state dir"
cd - >/dev/null || exit 1
done_testing
