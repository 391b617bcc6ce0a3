#!/bin/sh
# t/1172-report-fleet.sh - `baretma report` over a fleet that really ran:
# nine hosts on one machine, each baretma run in a UTS namespace of its own
# (unshare --uts) with its hostname, and its own sysroot (/etc/machine-id,
# /proc/cpuinfo's microcode), on the simulated PMU of a real CPUID dump -
# four Sapphire Rapids (one with another microcode, one whose PMU sums its
# level-1 bytes to 255 + 12: doc/simulator.md "fault sum_off"), two Ice
# Lake, three Alder Lake (one whose profile moves 10 points of backend
# bound to retiring).  Each writes a bundle (validate --bundle) and a bench
# document into one flat directory, the files named so that their names say
# nothing of their hosts.  The known answers come from outside the code:
# the groups' family, model and stepping from $SHARED_CPUID/INDEX.tsv, the
# microcode each host was given, the failing check and its measured sum
# (255 + 12) from the profile's fault, the outlier's direction from its
# profile, the exit status from man baretma-report.
. "$T_SRC/tap.sh"
. "$T_SRC/sim-fixture.sh"
. "$T_SRC/report-fixture.sh"

[ "$(id -u)" = 0 ] || skip_all "not root: a UTS namespace (unshare --uts) needs CAP_SYS_ADMIN"
command -v unshare >/dev/null 2>&1 || skip_all "no unshare(1) (Debian: util-linux)"
unshare --uts true 2>/dev/null || skip_all "unshare --uts refused here"
INDEX=$SHARED_CPUID/INDEX.tsv
[ -r "$INDEX" ] || skip_all "no $INDEX"

base=$REPORT_PROFILE
printf "$base" >"$tmp/p.base"
printf "${base}fault sum_off 12\n" >"$tmp/p.fault"
printf 'ghz 1\naccess_cycles 2000\nretiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' \
	>"$tmp/p.shifted"
mkdir "$tmp/res"
n=0
# host NAME DUMP PROFILE MICROCODE [nobench]: its bundle and (without
# nobench) its bench document, each under a name that says nothing of it
host() {
	r=$tmp/root-$1
	mkdir -p "$r/etc" "$r/proc" "$tmp/st-$1"
	printf '%08x%024x\n' "$(printf '%s' "$1" | cksum | cut -d' ' -f1)" 0 >"$r/etc/machine-id"
	awk -v m="$4" 'BEGIN { for (i = 0; i < 128; i++) printf "processor\t: %d\nmicrocode\t: %s\n\n", i, m }' \
		>"$r/proc/cpuinfo"
	n=$((n + 1))
	run1 "$1" "$2" "$3" "$r" validate --no-perf --bundle "$tmp/res/f$(printf '%02d' $((n * 7 % 23))).json" \
		>/dev/null
	[ -n "${5:-}" ] && return
	n=$((n + 1))
	run1 "$1" "$2" "$3" "$r" bench --kernel retire-light --reps 3 --warmup 0 --level 1 --json \
		>"$tmp/res/f$(printf '%02d' $((n * 7 % 23))).json"
}
# run1 NAME DUMP PROFILE ROOT ARGS...: baretma ARGS as host NAME
run1() {
	_h=$1 _d=$2 _p=$3 _r=$4
	shift 4
	BARETMA_SYSROOT=$_r BARETMA_STATE_DIR=$tmp/st-$_h BARETMA_MSR=sim:$tmp/$_p \
	BARETMA_CPUID_DUMP=$_d unshare --uts sh -c 'hostname "$1" && shift && exec "$@"' \
		sh "$_h" "$BARETMA" "$@" 2>>"$tmp/runs.err"
}
host spr-a "$SPR" p.base 0x2b000590
host spr-b "$SPR" p.base 0x2b000590
host spr-c "$SPR" p.base 0x2b000603
host spr-f "$SPR" p.fault 0x2b000590 nobench
host icl-a "$ICL" p.base 0xa6
host icl-b "$ICL" p.base 0xa6
host adl-a "$ADL" p.base 0x434
host adl-b "$ADL" p.base 0x434
host adl-c "$ADL" p.shifted 0x434
is "$(ls "$tmp/res" | wc -l | tr -d ' ')" 17 "17 files: 9 bundles and 8 bench documents, in one directory"

"$BARETMA" report "$tmp/res" >"$tmp/text" 2>"$tmp/err"; rc=$?
is "$rc" 1 "report: exit 1 (a check failed, a host is an outlier: man baretma-report)"
is "$(cat "$tmp/err")" "" "... nothing on stderr: every file was used"
like "$(head -1 "$tmp/text")" "^baretma report: 9 hosts in 3 CPU groups, 17 files read, 17 used$" \
	"9 hosts, told apart by the host each file names, in 3 CPU groups"
like "$(sed -n 2p "$tmp/text")" "k = 3\\.5" "the robust limit's k is stated"

# The groups' CPUs: INDEX.tsv's family, model and stepping of each dump.
for d in "$ICL" "$SPR" "$ADL"; do
	rel=${d#"$SHARED_CPUID"/}
	fms=$(awk -F'\t' -v f="$rel" '$1 == f { print $5, $6, $7 }' "$INDEX")
	set -- $fms
	want="== GenuineIntel family $1 model $2 stepping $3: "
	case $d in "$ICL") hosts=icl-a,icl-b ;; "$SPR") hosts=spr-a,spr-b,spr-c,spr-f ;;
	*) hosts=adl-a,adl-b,adl-c ;; esac
	# the heading (wrapped where the brand is long), then the hosts' line
	got=$(sed -n "/^$want/,/^  hosts: /p" "$tmp/text" | sed -n 's/^  hosts: //p' | tr -d ' ')
	is "$got" "$hosts" "a group of $hosts: family $1 model $2 stepping $3 (INDEX.tsv: ${rel##*/})"
done
# the groups in order of model: Ice Lake 0x7E, Sapphire Rapids 0x8F, Alder Lake 0x9A
is "$(grep '^== ' "$tmp/text" | sed 's/.* model \(0x[0-9A-F]*\) .*/\1/' | tr '\n' ' ')" \
	"0x7E 0x8F 0x9A " "the groups in order of model"

# SPR's settings: the microcode each host was given, the hosts on each side
grep -qx '    microcode: 0x2b000590 (spr-a, spr-b, spr-f) | 0x2b000603 (spr-c)' "$tmp/text"
ok $? "microcode differs in the Sapphire Rapids group, the hosts on each side named"
n_diff=$(grep -c '^    microcode: ' "$tmp/text")
is "$n_diff" 1 "... and in no other group (their hosts were given one microcode each)"
like "$(sed -n '/model 0x9A/,/checks:/p' "$tmp/text" | grep 'alike:')" "microcode 0x434" \
	"Alder Lake's microcode is alike: 0x434"

# SPR's checks: level1_sum failed on spr-f, 255 + 12 = 267
row=$(sed -n '/model 0x8F/,/^$/p' "$tmp/text" | grep '^    level1_sum ')
is "$(echo $row)" "level1_sum 3 1 0" "level1_sum: PASS 3, FAIL 1, SKIP 0 in the Sapphire Rapids group"
like "$(sed -n '/model 0x8F/,/^$/p' "$tmp/text" | grep '^      FAIL ')" \
	"^      FAIL spr-f: cpu 0: measured 267; expected 255 " \
	"... spr-f named with the check's message: measured 267 (255 + sum_off 12)"
is "$(grep -c '^      FAIL ' "$tmp/text")" 1 "no other host failed a check"

# ADL's Top-down: adl-c's profile moved 10 points from backend bound to retiring
adl=$(sed -n '/model 0x9A/,$p' "$tmp/text")
like "$(printf '%s\n' "$adl" | sed -n '/retire-light (bench)/,/^   [a-z]/p' | grep -A1 '^    tma_retiring ')" \
	"outlier adl-c: [0-9.]+, above the median by (9|10)\\." "adl-c's retiring above its group's median, by 10 points"
like "$(printf '%s\n' "$adl" | sed -n '/retire-light (bench)/,/^   [a-z]/p' | grep -A1 '^    tma_backend_bound ')" \
	"outlier adl-c: [0-9.]+, below the median by (9|10)\\." "... its backend bound below"
# ICL: two hosts, not judged
like "$(sed -n '/model 0x7E/,/^$/p' "$tmp/text" | grep '^    tma_retiring ')" "n<3" \
	"the Ice Lake group of 2 hosts is not judged (n<3)"
unlike "$(sed -n '/model 0x7E/,/^$/p' "$tmp/text")" "outlier" "... no outlier named there"

# The same in the JSON document
"$BARETMA" report --json "$tmp/res" >"$tmp/out" 2>/dev/null; rc=$?
is "$rc" 1 "report --json: exit 1"
is "$(q 'd["schema"], d["hosts"], len(d["groups"]), d["exit_status"], d["robust_limit"]["k"]')" \
	"('baretma-report/1', 9, 3, 1, 3.5)" "--json: schema, 9 hosts, 3 groups, exit_status 1, k 3.5"
spr_fms=$(awk -F'\t' -v f="${SPR#"$SHARED_CPUID"/}" '$1 == f { printf "%d %d %d", $5, $6, $7 }' "$INDEX")
is "$(q '" ".join(str(d["groups"][1]["cpu"][k]) for k in ("family", "model", "stepping"))')" \
	"$spr_fms" "--json: the second group's family, model, stepping (decimal) are INDEX.tsv's"
is "$(q '[(c["pass"], c["fail"], [f["host"] for f in c["failing"]]) for c in d["groups"][1]["checks"] if c["check"] == "level1_sum"]')" \
	"[(3, 1, ['spr-f'])]" "--json: level1_sum's counts and failing host"
is "$(q '[v["value"] for s in d["groups"][1]["settings"] if s["setting"] == "microcode" for v in s["values"]]')" \
	"['0x2b000590', '0x2b000603']" "--json: microcode's values"
is "$(q 'sorted((f["item"], v["host"], v["outlier"]) for f in d["groups"][2]["figures"] if f["subject"] == "retire-light" for v in f["values"] if v["outlier"])')" \
	"[('tma_backend_bound', 'adl-c', 'below'), ('tma_retiring', 'adl-c', 'above')]" \
	"--json: adl-c's outliers and their directions"
is "$(q 'sorted(h["name"] for g in d["groups"] for h in g["hosts"])')" \
	"['adl-a', 'adl-b', 'adl-c', 'icl-a', 'icl-b', 'spr-a', 'spr-b', 'spr-c', 'spr-f']" \
	"--json: the nine hosts by the names their files carry"
done_testing
