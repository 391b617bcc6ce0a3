#!/bin/sh
# t/0383-guard-tamper.sh - another process clears fixed counter 3's field of
# IA32_FIXED_CTR_CTRL (0x3333 -> 0x333, as perf starting on the CPU would)
# in the middle of a bench run: the state backend sees the write (msr/access/msr.h),
# the check between repetitions marks every repetition from then on as
# tampered, none of them gives numbers, the run reports it and exits 75.
# Fixture: t/guard-fixture.sh.
. "$T_SRC/tap.sh"
pyq_start
. "$T_SRC/guard-fixture.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the JSON"
command -v flock >/dev/null 2>&1 || skip_all "flock(1) needed"

fixture
printf '0\n' >"$WD" # no watchdog warning in the way
cp -a "$tmp/root/." "$tmp/root.orig/"
# The change must land in the empty kernel (it runs first), so that
# retire-light runs entirely after it: the run is stopped (SIGSTOP) once
# its MSR trace shows empty's repetitions begun (the reset of
# IA32_PERF_METRICS before each: three of them), which the test sees by
# polling the trace without a pause (a grep each millisecond or so), and
# each of empty's REPS repetitions makes four state-file writes (at least
# 15 us each: a 3000-repetition kernel lasts 0.2 s at the least), so the
# stop comes in its first repetitions whatever the machine's speed.  Stopped, it
# may hold the state file's lock inside a write: it is let on for a moment
# until the lock is free, and the field is cleared under that lock.
REPS=3000
: >"$tmp/trace"
BARETMA_MSR_TRACE=$tmp/trace "$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr \
	--kernel retire-light --reps $REPS --warmup 0 --json >"$tmp/out.json" 2>"$tmp/err" &
pid=$!
n=0
while [ "$(grep -c '^wr 1 0x329 ' "$tmp/trace")" -lt 3 ] && [ "$n" -lt 100000 ] &&
	kill -0 "$pid" 2>/dev/null; do n=$((n + 1)); done
kill -STOP "$pid"
programmed 1; ok $? "the run programmed cpu 1 (and is stopped)"
n=0
until flock -n "$tmp" sh -c 'sed "s/^1 0x38d 0x3333\$/1 0x38d 0x333/" "$1/state" >"$1/state.w" &&
	mv "$1/state.w" "$1/state"' sh "$tmp"; do
	kill -CONT "$pid"
	kill -STOP "$pid"
	n=$((n + 1))
	[ "$n" -lt 10000 ] || break
done
grep -q '^1 0x38d 0x333$' "$tmp/state"; ok $? "another process cleared FC3's field (0x3333 -> 0x333)"
kill -CONT "$pid"
wait "$pid"; rc=$?
is "$rc" 75 "a tampered run exits 75 (EX_TEMPFAIL) after printing its result"
like "$(cat "$tmp/err")" "warning: cpu 1: IA32_FIXED_CTR_CTRL changed from 0x3333 to 0x0333 during kernel empty \(perf started on this CPU\?.*\): [0-9]+ samples marked invalid" \
	"stderr: the change, the kernel, the likely cause, the samples lost"
# The JSON, read by python3: tamper {detected, message}, per kernel tampered.
summary=$(pyq 'import json, re, sys
d = json.load(open(sys.argv[1]))
t = d["tamper"]
ks = d["kernels"]
n = int(re.search(r": (\d+) samples marked invalid$", t["message"]).group(1))
print(t["detected"], n == sum(k["tampered"] for k in ks), n > 0)
for k in ks:
    print(k["name"], k["repetitions"], k["tampered"], k["invalid"] >= k["tampered"],
          "slots" in k or any(x.startswith("tma_") for x in k), k.get("topdown_reason", "-"))
' "$tmp/out.json")
is "$(echo "$summary" | sed -n 1p)" "True True True" \
	"JSON: tamper.detected, its message counts exactly the kernels' tampered samples (> 0)"
# Where in empty the change lands depends on when the lock was taken (during
# programming or in the first repetitions: the run cannot get past the held
# lock); t/0386 checks the exact split with a change at a known repetition.
is "$(echo "$summary" | awk '$1 == "empty" { print ($3 > 0), $4, $5 }')" "1 True False" \
	"JSON: empty (changed during it) has repetitions tampered, counted invalid, no numbers"
is "$(echo "$summary" | awk '$1 == "retire-light" { print $2, $3, $4, $5 }')" "$REPS $REPS True False" \
	"JSON: retire-light (after the change) has every repetition tampered, counted invalid, no numbers"
like "$(echo "$summary" | awk '$1 == "retire-light"')" "every repetition was tampered with" \
	"JSON: and says why it has no Top-down numbers"
is "$(pyq 'import json,sys; print(json.load(open(sys.argv[1]))["tamper"]["message"].startswith("cpu 1: IA32_FIXED_CTR_CTRL changed from 0x3333 to 0x0333 during kernel "))' "$tmp/out.json")" \
	"True" "JSON: tamper.message names the register and both values"
# The restore writes the saved 0x333: the file is as found (the cleared
# field is the original value).
is "$(same "$tmp/state" "$tmp/orig")" 0 "state file byte for byte as found at the end"
is "$(journals)" "" "no journal left"

# Without interference: no tamper, exit 0.
fixture
printf '0\n' >"$WD"
"$BARETMA" bench --cpuid-dump "$ICL" --cpu 1 --backend msr --kernel retire-light --reps 5 \
	--json >"$tmp/out2.json" 2>/dev/null; rc=$?
is "$rc:$(pyq 'import json,sys; d=json.load(open(sys.argv[1])); print(d["tamper"]["detected"], [k["tampered"] for k in d["kernels"]])' "$tmp/out2.json")" \
	"0:False [0, 0]" "an undisturbed run: exit 0, nothing tampered"

done_testing
