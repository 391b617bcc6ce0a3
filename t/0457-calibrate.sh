#!/bin/sh
# t/0457-calibrate.sh - `baretma calibrate` on the simulated PMU (Sapphire
# Rapids dump, --backend msr: PERF_METRICS alone, the 8-bit fields whose
# quantisation the resolution below is about; Ice Lake counts events
# beside PERF_METRICS, msr/recipe/recipes_intel_pm.c) and on this machine (--backend tsc, and the default
# list where no PMU is reachable), and `bench` using, or naming and
# ignoring, the calibration it finds.  Every expected value is worked by
# hand below from the simulator's documented arithmetic (msr/sim/msr_sim.h,
# doc/simulator.md) and the definitions of bench/study/calibrate.h.
#
# Profile 20/40/20/20: bytes 20 x 2.55 = 51, 40 x 2.55 = 102, 51, 51: whole
# numbers, S = 255.  `noise PP` moves each level-1 share by u_i - mean(u),
# u uniform in [-PP, PP]: at most 1.5 PP (u_i = PP, the other three -PP:
# mean -PP/2).  A byte changes only when that moves 255 x share by more
# than 0.5, i.e. by more than 0.5 / 2.55 = 0.196 points.
#
# The resolution is where every level-1 metric's spread + quantisation
# bound + bracket-subtraction error is at most 1 point (bench/study/calibrate.h;
# the terms worked on a vector in t/0453).  With access_cycles N = 10000
# and width W = 6 the bracket's first reading holds W.N slots and its
# second 3.W.N (t/0451 part b), so its quantisation error (bracket.err_slots)
# is at least (W.N + 3.W.N) / 255 = 941.2 slots (S = 255; real time only
# adds): over a region of L cycles at 3 cycles a ns, 18 slots a ns of the
# loop, that is more than 1 point until the region holds 94118 slots, 5.2
# us: a machine that runs 1000 dependent ADDs in under 5.2 us (faster
# than 0.2 GHz) has a 1000-cycle region below the resolution whatever the
# noise.  The quantisation term is at least 1/255 = 0.39 points at any
# length (the region's second reading holds at least the region's slots).
#  - noise 0: every reading has the same bytes; a region's share is
#    byte / 255 exactly, the bracket's too: every spread is 0 -> the
#    resolution is the shortest length whose bracket and quantisation
#    terms are within 1 point: above 1000 cycles (above).
#  - noise 0.1: at most 0.15 points < 0.196: the bytes never change: every
#    spread 0, as noise 0.
#  - noise 0.3: up to 0.45 points: a byte changes by one (0.39 points)
#    whenever |jitter| > 0.196 points, often (a third of the reads or
#    more), so both 2.5 % tails hold changed bytes.  A region of L cycles
#    reads ((3N + L) x f_b - N x f_a) / L per share: at L = 1000 a one-byte
#    change moves it by (30000 + 1000) / 1000 x 0.39 = 12 points: spread
#    > 1 point at 1000 cycles.  At L = 1M the factor is 1.03: the share
#    is within 1.03 x (1.15 bytes + the normalisation's 2 x 0.2 bytes) /
#    255 = 0.63 points of the profile; with the 0.39-point quantisation
#    term that may or may not stay within 1: the resolution is 1M or not
#    reached.
#  - noise 2: the share's jitter u_1 - mean is 0.75 u_1 - 0.25 (u_2 + u_3
#    + u_4); P(> 1 point) > P(u_1 > 1.8) x P(u_2 + u_3 + u_4 < 1.4) =
#    0.05 x (more than one half) > 2.5 %, and symmetrically below: the
#    half-distance between the 2.5th and 97.5th percentiles is > 1 point
#    at every length (the factor above only widens it): not reached, null.
#  - noise 0, access_cycles 1e8: the bracket's error is at least
#    4.W.N / 255 = 9.41e6 slots, more than 1 point of any region under
#    9.41e8 slots (52 ms): every length, 1M ADDs included, is below the
#    resolution though every spread is 0: not reached.
. "$T_SRC/tap.sh"
pyq_start

command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the JSON"
SPR=$SHARED_CPUID/libcpuid/master-history/intel/x86-64/golden-cove/sapphire-rapids-ws-xeon-w9.test
[ -r "$SPR" ] || skip_all "no CPUID dump $SPR"

BARETMA_STATE_DIR=$tmp/run
mkdir -p "$BARETMA_STATE_DIR"
export BARETMA_STATE_DIR
unset BARETMA_MSR_TRACE BARETMA_TEST_HOOKS BARETMA_CPUID_DUMP BARETMA_PERF
# The Sapphire Rapids dump: family 6, model 0x8F, stepping 8 (`baretma info`).
NAME=calibration-GenuineIntel-6-0x8f-8.json
CAL=$BARETMA_STATE_DIR/$NAME

q() { pyq 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
L1="('tma_retiring', 'tma_bad_speculation', 'tma_frontend_bound', 'tma_backend_bound')"

profile() { # profile FILE NOISE ACCESS_CYCLES
	printf 'ghz 3\naccess_cycles %s\nretiring 20\nbad_speculation 40\nfrontend_bound 20\nbackend_bound 20\nnoise %s\nseed 7\n' \
		"$3" "$2" >"$1"
}
calib_sim() { # calib_sim PROFILE OUT ARGS...: calibrate --json on the simulator, status in st
	_p=$1 _o=$2
	shift 2
	st=0
	BARETMA_CPUID_DUMP=$SPR BARETMA_MSR=sim:$_p "$BARETMA" calibrate --backend msr --json \
		"$@" >"$_o" 2>"$_o.err" || st=$?
}

# --- 1. resolution against noise ---------------------------------------------
# (spreads to 1e-9 points: the fractions' floating-point arithmetic, 1e-15)
for n in 0 0.1 0.3 2; do
	profile "$tmp/p$n" "$n" 10000
	calib_sim "$tmp/p$n" "$tmp/c$n.json"
	is "$st" 0 "noise $n: calibrate --backend msr exits 0"
	cp "$CAL" "$tmp/file$n.json"
	eval "res_$(echo $n | tr . _)=\$(q \"\$tmp/c\$n.json\" 'd[\"backends\"][0][\"resolution_cycles\"]')"
done
is "$(q "$tmp/c0.json" "sorted(set(round(l[k]['spread95_pp'], 9) for l in d['backends'][0]['lengths'] for k in $L1))")" \
	"[0.0]" "noise 0: every level-1 spread at every length is 0"
is "$(q "$tmp/c0.json" 'd["backends"][0]["bracket"]["err_slots"] >= 240000 / 255')" True \
	"noise 0: the bracket's quantisation error is at least (W.N + 3.W.N) / 255 = 941.2 slots"
# bracket_pp: the median over 201 valid repetitions of err_slots / slots_i,
# an odd count, so err_slots / (the median slots) (x -> c / x reverses the
# order and keeps the middle one); the document's numbers have 10
# significant digits (JSON_REAL_PRECISION(10)): equal to 1e-8 relative
is "$(q "$tmp/c0.json" 'all(l["valid"] == 201 and abs(l["bracket_pp"] - 100 * d["backends"][0]["bracket"]["err_slots"] / l["slots"]["median"]) < 1e-8 * l["bracket_pp"] for l in d["backends"][0]["lengths"])')" \
	True "noise 0: bracket term = 100 x bracket err_slots / the region's median slots, every length"
is "$(q "$tmp/c0.json" 'all(l["quantisation_pp"] >= 100 / 255 for l in d["backends"][0]["lengths"])')" True \
	"noise 0: quantisation term at least 1/255 = 0.39 points at every length"
is "$(q "$tmp/c0.json" 'd["backends"][0]["lengths"][0]["bracket_pp"] > 1')" True \
	"noise 0: at 1000 cycles the bracket's error alone is above 1 point"
# the resolution from the document's own terms, by the definition: every
# total = spread + quantisation + bracket; a length is within when every
# level-1 total is at most 1 point (and 20 valid); the shortest from which
# every length is within
for n in 0 0.1 0.3 2; do
	is "$(q "$tmp/c$n.json" "(lambda L: (all(abs(l[k]['total_pp'] - l[k]['spread95_pp'] - l['quantisation_pp'] - l['bracket_pp']) < 1e-8 * max(1, l[k]['total_pp']) for l in L for k in $L1), all(l['within'] == (all(l[k]['total_pp'] <= 1 for k in $L1) and l['valid'] >= 20) for l in L), d['backends'][0]['resolution_cycles'] == next((L[i]['cycles'] for i in range(len(L)) if all(m['within'] for m in L[i:])), None)))(d['backends'][0]['lengths'])")" \
		"(True, True, True)" "noise $n: totals = spread + quantisation + bracket; within <=> every total <= 1; the resolution follows"
done
is "$(pyq "print($res_0 > 1000)")" True "noise 0: resolution above 1000 cycles ($res_0): the bracket and quantisation terms"
is "$(q "$tmp/c0.1.json" "sorted(set(round(l[k]['spread95_pp'], 9) for l in d['backends'][0]['lengths'] for k in $L1))")" \
	"[0.0]" "noise 0.1: every spread 0 (jitter under half a byte)"
is "$(pyq "print($res_0_1 > 1000)")" True "noise 0.1: resolution above 1000 cycles ($res_0_1)"
is "$(pyq "print($res_0_3 in (1000000, None))")" True \
	"noise 0.3: resolution 1M cycles or not reached ($res_0_3)"
is "$res_2" None "noise 2: resolution not reached (null)"
is "$(q "$tmp/c2.json" 'd["resolution_cycles"]')" None "noise 2: the document's resolution null too"
profile "$tmp/pbig" 0 100000000
calib_sim "$tmp/pbig" "$tmp/cbig.json" -o "$tmp/big-file.json"
is "$(q "$tmp/cbig.json" "(sorted(set(round(l[k]['spread95_pp'], 9) for l in d['backends'][0]['lengths'] for k in $L1)), d['backends'][0]['bracket']['err_slots'] >= 4 * 6 * 1e8 / 255, d['backends'][0]['resolution_cycles'])")" \
	"([0.0], True, None)" "access_cycles 1e8, noise 0: every spread 0, bracket error >= 4.W.N / 255, resolution not reached"
is "$(q "$tmp/c0.3.json" '[l["cycles"] for l in d["backends"][0]["lengths"]]')" \
	"[1000, 10000, 100000, 1000000]" "the four loop lengths"
is "$(q "$tmp/c0.3.json" 'd["backends"][0]["lengths"][0]["tma_retiring"]["spread95_pp"] > 1')" True \
	"noise 0.3: the 1000-cycle spread is above 1 point"
# The bracket: 2.W.N = 2 x 6 x 10000 = 1.2e5 slots from the accesses, plus
# the real time at 3 cycles a ns (microseconds: under 2.4e4 slots); its
# fields are the bytes' shares of it, 51/255 = 20 % and 102/255 = 40 %.
is "$(q "$tmp/c0.json" '1.2e5 <= d["backends"][0]["bracket"]["slots"]["median"] < 1.44e5')" True \
	"bracket slots: 2.W.N = 1.2e5 plus a little real time"
is "$(q "$tmp/c0.json" '[round(v["median"] / d["backends"][0]["bracket"]["slots"]["median"], 6) for k, v in d["backends"][0]["bracket"]["fields"].items() if k in ("retiring", "bad_speculation", "frontend_bound", "backend_bound")]')" \
	"[0.2, 0.4, 0.2, 0.2]" "bracket slots per field: 20/40/20/20 % of its slots"
is "$(q "$tmp/c0.json" '(d["schema"], d["cpu"]["vendor"], d["cpu"]["family"], d["cpu"]["model"], d["cpu"]["stepping"], d["backends"][0]["level"], d["backends"][0]["pipeline_width"])')" \
	"('baretma-calibration/3', 'GenuineIntel', 6, 143, 8, 2, 6)" \
	"schema, identity of the dump (6/0x8F/8), level 2, width 6"
is "$(q "$tmp/c0.json" 'd["date"][-1] == "Z" and len(d["date"]) == 20')" True "date in ISO 8601 UTC"

# --- 2. the file ----------------------------------------------------------------
is "$(ls "$BARETMA_STATE_DIR" | grep '^calibration')" "$NAME" "the file is the state directory's $NAME"
is "$(stat -c %a "$CAL")" 600 "mode 0600"
is "$(ls -a "$BARETMA_STATE_DIR" | grep -c 'tmp$')" 0 "no temporary file left"
is "$(pyq "import json; print(json.load(open('$CAL')) == json.load(open('$tmp/c2.json')))")" True \
	"the file holds the document printed"
ln -s "$tmp/target" "$tmp/link"
calib_sim "$tmp/p0" "$tmp/o.json" -o "$tmp/link"
is "$st" 73 "-o onto a symbolic link: exit 73"
like "$(cat "$tmp/o.json.err")" "calibrate: cannot write '$tmp/link': a symbolic link: refused, nothing written through it" "and says why"
is "$(ls "$tmp/target" 2>&1 >/dev/null | grep -c 'No such')" 1 "nothing written through the link"
calib_sim "$tmp/p0" "$tmp/o.json" -o "$tmp/out.json"
is "$st:$(stat -c %a "$tmp/out.json")" "0:$(umask_mode)" "-o FILE: written, mode 0666 less the umask, as every file a command writes"

# --- 3. bench uses it ------------------------------------------------------------
# The noise 0.3 calibration (bracket about 1.2e5 slots); bench's own profile
# costs access_cycles 1e7: its own bracket is 2.W.N = 1.2e8 slots.  With the
# calibration's 1.2e5 subtracted a kernel keeps 1.2e8 - 1.44e5 or more; with
# its own it would keep under W.N = 6e7 (t/0451 part c).
cp "$tmp/file0.3.json" "$CAL"
profile "$tmp/pb" 0 10000000
bench_sim() { st=0; BARETMA_CPUID_DUMP=$SPR BARETMA_MSR=sim:$tmp/pb "$BARETMA" bench --backend msr \
	--kernel retire-light,dep-chain --reps 15 "$@" >"$tmp/b.out" 2>"$tmp/b.err" || st=$?; }
bench_sim --json
is "$st" 0 "bench --backend msr with a calibration: exit 0"
is "$(q "$tmp/b.out" '(d["calibration"]["path"], d["calibration"]["used"], d["calibration"]["subtracted"])')" \
	"('$CAL', True, 'calibration')" "bench names the calibration and uses it"
is "$(q "$tmp/b.out" 'd["calibration"]["bracket_slots"] == json.load(open(sys.argv[1].replace("b.out", "file0.3.json")))["backends"][0]["bracket"]["slots"]["median"]')" \
	True "its bracket_slots is the file's"
is "$(q "$tmp/b.out" '[x["name"] for x in d["kernels"] if x["name"] != "empty" and not x["slots"]["median"] >= 1.2e8 - 1.44e5]')" \
	"[]" "the calibration's bracket (1.2e5) subtracted, not the run's own (1.2e8)"
# Resolution: region = median slots / W (6); by hand every region here is
# over 1.2e8 / 6 = 2e7 cycles.  A resolution of 1e12 cycles is above all of
# them, 1000 below all.
is "$(q "$tmp/b.out" '[x["below_resolution"] for x in d["kernels"]]')" "[False, False, False]" \
	"resolution $res_0_3 cycles: no kernel below it"
pyq - "$CAL" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1])); d["backends"][0]["resolution_cycles"] = 10**12
json.dump(d, open(sys.argv[1], "w"))
EOP
bench_sim --json
is "$(q "$tmp/b.out" '[(x["name"], x["below_resolution"], x["region_cycles"] == x["slots"]["median"] / 6) for x in d["kernels"] if x["name"] != "empty"]')" \
	"[('retire-light', True, True), ('dep-chain', True, True)]" \
	"resolution 1e12: each kernel below it, region = slots / 6"
bench_sim
like "$(cat "$tmp/b.out")" "retire-light .*(below resolution)" "the table says (below resolution)"

# --- 4. stale or another CPU: named and ignored ------------------------------------
edit() { pyq - "$CAL" "$1" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1])); exec(sys.argv[2]); json.dump(d, open(sys.argv[1], "w"))
EOP
}
cp "$tmp/file0.json" "$CAL"
edit 'd["date"] = "2000-01-01T00:00:00Z"'
bench_sim --json
is "$(q "$tmp/b.out" '(d["calibration"]["used"], d["calibration"]["subtracted"])')" "(False, 'run')" \
	"a calibration of 2000: not used, the run's own bracket subtracted"
like "$(q "$tmp/b.out" 'd["calibration"]["reason"]')" "older than 30 days" "the reason: older than 30 days"
like "$(cat "$tmp/b.err")" "note: calibration '$CAL' ignored: made 2000-01-01T00:00:00Z, older than 30 days" \
	"a note names the file and why"
is "$(q "$tmp/b.out" '[x["name"] for x in d["kernels"] if x["name"] != "empty" and not abs(x["slots"]["median"]) < 6e7]')" \
	"[]" "ignored: the run's own 1.2e8 bracket subtracted (under W.N = 6e7 left)"
# a file of the first schema: its resolution counted the spread alone
cp "$tmp/file0.json" "$CAL"
edit 'd["schema"] = "baretma-calibration/1"'
bench_sim --json
like "$(q "$tmp/b.out" '(d["calibration"]["used"], d["calibration"]["reason"])')" \
	"False, 'schema is not baretma-calibration/3'" "a baretma-calibration/1 file (spread-only resolution): ignored"
cp "$tmp/file0.json" "$CAL"
edit 'd["cpu"]["model"] = 0x7e'
bench_sim --json
like "$(q "$tmp/b.out" '(d["calibration"]["used"], d["calibration"]["reason"])')" \
	"False, 'made for model 0x7e, this CPU is model 0x8f'" "another model: named and ignored"
cp "$tmp/file0.json" "$CAL"
edit 'd["environment"]["kernel"] = "0.0.1-other"'
bench_sim --json
like "$(q "$tmp/b.out" 'd["calibration"]["reason"]')" 'kernel was "0.0.1-other"' "another kernel release: ignored"
rm -f "$CAL"
bench_sim --json
is "$(q "$tmp/b.out" '(d["calibration"]["found"], d["calibration"]["used"])')" "(False, False)" \
	"no calibration: found false, used false"

# --- 5. this machine ---------------------------------------------------------------
st=0
"$BARETMA" calibrate --backend tsc --reps 21 --json >"$tmp/tsc.json" 2>"$tmp/tsc.err" || st=$?
is "$st" 0 "calibrate --backend tsc on this machine: exit 0"
is "$(q "$tmp/tsc.json" '[(b["backend"], b["measured"], b["bracket"]["tsc_ticks"]["median"] > 0, b["cycles_per_tsc_tick"] > 0) for b in d["backends"]]')" \
	"[('tsc', True, True, True)]" "its TSC figures: bracket ticks, cycles per tick"
is "$(q "$tmp/tsc.json" 'all(l["tsc_ticks"]["median"] > 0 for l in d["backends"][0]["lengths"])')" True \
	"ticks for every loop length"
# man baretma-calibrate: core cycles per TSC tick, the median over
# the lengths of N / ticks (type 7: the mean of the middle two of four)
is "$(q "$tmp/tsc.json" 'abs(__import__("statistics").median([l["cycles"] / l["tsc_ticks"]["median"] for l in d["backends"][0]["lengths"]]) / d["backends"][0]["cycles_per_tsc_tick"] - 1) < 1e-6')" \
	True "cycles per tick: the median over the lengths of N / ticks"
mkdir -p "$tmp/root"
st=0
BARETMA_SYSROOT=$tmp/root BARETMA_MSR=$tmp/nodev/%u "$BARETMA" calibrate --reps 21 \
	>"$tmp/all.out" 2>"$tmp/all.err" || st=$?
is "$st" 69 "default calibrate, fake sysroot, no MSR device: exit 69"
for b in rdpmc msr perf perf-rdpmc; do
	like "$(cat "$tmp/all.out")" "^$b: cannot measure: ." "the report names why $b cannot"
done
# each reason once: the report has it, stderr names the backends
like "$(cat "$tmp/all.err")" "^baretma: calibrate: backends rdpmc, msr, perf, perf-rdpmc cannot measure on cpu [0-9]+ \\(why: the report on stdout, 'NAME: cannot measure: \\.\\.\\.'\\)$" \
	"stderr names the backends that cannot, once, without repeating the reasons"
like "$(cat "$tmp/all.out")" "tsc: cpu [0-9]*, empty bracket [0-9]* TSC ticks" "after reporting tsc"
done_testing
