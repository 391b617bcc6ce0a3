#!/bin/sh
# t/0463-validate-bundle.sh - `validate --bundle FILE` (bench/study/bundle.h):
# one file a lab attaches to a report, which every command that takes
# --cpuid-dump reads back as the reporter's machine (cpu/dump_bundle.c).
#
# Known answers come from the dumps themselves, never from baretma:
#   - t/data/cpuid-emr-kvm-novpmu.txt (captured on a live Emerald Rapids KVM
#     guest): 16 "Logical CPU #" sections; CPUID.1:EAX = 0x000C06F2, so
#     (SDM Vol. 2A, CPUID leaf 01H) stepping 2, model 0xF + ext. model 0xC
#     << 4 = 0xCF, family 6; CPUID.1:ECX bit 31 set (a hypervisor); leaf 0xA
#     all zero: no architectural perfmon, so validate can check nothing of
#     the PMU: exit 69, no FAIL;
#   - the Ice Lake dump of t/sim-fixture.sh (family 6 model 0x7E, INDEX.tsv),
#     whose bundle must identify as the dump does.
. "$T_SRC/tap.sh"
pyq_start

. "$T_SRC/sim-fixture.sh"

EMR=$T_DATA/cpuid-emr-kvm-novpmu.txt
[ -r "$EMR" ] || skip_all "no $EMR"
printf 'retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' >"$tmp/p"

# --- the EMR guest: validate can check nothing of its PMU ---------------------
out=$("$BARETMA" validate --cpuid-dump "$EMR" --bundle "$tmp/emr.json" 2>&1); rc=$?
is "$rc" 69 "EMR guest: validate --bundle exits 69 (no PMU to check here)"
unlike "$out" "^FAIL" "EMR guest: no FAIL"
like "$out" "report bundle written to '$tmp/emr.json'" "says where the bundle is"
is "$(umask_mode)" "$(stat -c %a "$tmp/emr.json")" "the bundle is mode 0666 less the umask (every file a command writes: the invoking user reads it)"
cp "$tmp/emr.json" "$tmp/out"
is "$(q '(d["schema"], sorted(d))')" \
	"('baretma-bundle/1', ['baretma', 'calibration', 'command', 'cpuid_dump', 'date', 'environment', 'host', 'info', 'schema', 'validate'])" \
	"schema baretma-bundle/1 and its members"
is "$(q '(d["validate"]["schema"], d["validate"]["summary"]["fail"], d["calibration"])')" \
	"('baretma-validate/1', 0, None)" "validate's document, no failure; no calibration: null"
is "$(q 'd["cpuid_dump"].count("------[ CPUID Registers / Logical CPU #")')" \
	"$(grep -c '^------\[ CPUID Registers / Logical CPU #' "$EMR")" \
	"cpuid_dump holds every CPU of the dump (16)"
# every CPUID record of the dump, per CPU, is in the bundle's text as it was
pyq - "$EMR" "$tmp/emr.json" >"$tmp/diff" <<'EOP'
import json, re, sys
def records(text):
    cpu, out = None, set()
    for line in text.splitlines():
        m = re.match(r"------\[ CPUID Registers / Logical CPU #(\d+) \]------", line)
        if m:
            cpu = int(m.group(1))
        elif line.startswith("CPUID ") and cpu is not None:
            out.add((cpu, line.strip()))
    return out
a = records(open(sys.argv[1]).read())
b = records(json.load(open(sys.argv[2]))["cpuid_dump"])
print(len(a), len(a ^ b))
EOP
like "$(cat "$tmp/diff")" "^[1-9][0-9]* 0$" "every CPUID record of every CPU, the same in the bundle"

out=$("$BARETMA" info --cpuid-dump "$tmp/emr.json" 2>&1); rc=$?
is "$rc" 0 "info reads the bundle as a dump"
like "$out" "cpu: +GenuineIntel family 6 model 0xCF \\(207\\) stepping 2" "info: family 6 model 0xCF stepping 2 (CPUID.1:EAX 0x000C06F2)"
like "$out" "hypervisor: KVM" "info: the hypervisor (CPUID.1:ECX[31], leaf 0x40000000)"
like "$out" "logical: +16 CPUs" "info: 16 CPUs"
like "$out" "source: +$tmp/emr.json \\(baretma-bundle/1" "info: the source is the bundle"
out=$("$BARETMA" validate --cpuid-dump "$tmp/emr.json" 2>&1); rc=$?
is "$rc" 69 "validate of the bundle: 69 as of the dump"
BARETMA_CPUID_DUMP=$tmp/emr.json "$BARETMA" info --json >"$tmp/out" 2>&1
is "$(q '(d["family"], d["model"])' 2>/dev/null)" "(6, 207)" \
	"BARETMA_CPUID_DUMP takes a bundle too"

# --- Ice Lake on the simulator: a bundle reads back as the dump -----------------
BARETMA_MSR=sim:$tmp/p BARETMA_PERF=sim:$tmp/p "$BARETMA" validate --cpuid-dump "$ICL" \
	--no-perf --bundle "$tmp/icl.json" >/dev/null 2>&1; rc=$?
is "$rc" 0 "Ice Lake, simulated: validate --bundle exits 0"
"$BARETMA" info --cpuid-dump "$ICL" --json >"$tmp/a.json" 2>/dev/null
"$BARETMA" info --cpuid-dump "$tmp/icl.json" --json >"$tmp/b.json" 2>/dev/null
is "$(pyq 'import json, sys
keys = ("vendor", "family", "model", "stepping", "brand", "hypervisor", "hybrid", "pmu",
        "model_known", "core_kinds")
a, b = ([json.load(open(f))[k] for k in keys] for f in sys.argv[1:])
print(a == b, a[1], hex(a[2]))' "$tmp/a.json" "$tmp/b.json")" "True 6 0x7e" \
	"the bundle identifies as the Ice Lake dump it was made from (family 6, model 0x7E)"
out=$(BARETMA_MSR=sim:$tmp/p "$BARETMA" bench --cpuid-dump "$tmp/icl.json" --backend msr \
	--kernel empty --reps 5 --warmup 0 --json 2>/dev/null); rc=$?
is "$rc" 0 "bench takes the bundle as --cpuid-dump (a dry run on the simulator)"
printf '%s' "$out" >"$tmp/out"
is "$(q '(d["topdown"]["level"], round(d["kernels"][0]["tma_retiring"]["median"]))')" "(1, 40)" \
	"bench on the bundle's Ice Lake: level 1, the profile's retiring 40 %"

# a calibration in the state directory goes in the bundle as it is
BARETMA_MSR=sim:$tmp/p BARETMA_PERF=sim:$tmp/p "$BARETMA" calibrate --cpuid-dump "$ICL" \
	--backend msr --reps 20 >/dev/null 2>&1
cal=$(ls "$BARETMA_STATE_DIR"/calibration-*.json 2>/dev/null | head -1)
BARETMA_MSR=sim:$tmp/p "$BARETMA" validate --cpuid-dump "$ICL" --no-perf \
	--bundle "$tmp/icl2.json" >/dev/null 2>&1
cp "$tmp/icl2.json" "$tmp/out"
is "$(q 'd["calibration"]["schema"]')" "baretma-calibration/3" "the calibration is embedded"
is "$(pyq 'import json, sys
print(json.load(open(sys.argv[1]))["calibration"] == json.load(open(sys.argv[2])))' \
	"$tmp/icl2.json" "$cal")" "True" "as the file holds it ($cal)"

# --- refusals ---------------------------------------------------------------------
ln -s "$tmp/target" "$tmp/link"
out=$("$BARETMA" validate --cpuid-dump "$EMR" --bundle "$tmp/link" 2>&1); rc=$?
is "$rc" 73 "--bundle onto a symbolic link: exit 73"
like "$out" "validate: cannot write '$tmp/link': a symbolic link: refused, nothing written through it" "and says so"
ok "$([ ! -e "$tmp/target" ]; echo $?)" "nothing written through the link"
printf '{"schema": "baretma-bundle/1", "validate": {}}\n' >"$tmp/nodump.json"
out=$("$BARETMA" info --cpuid-dump "$tmp/nodump.json" 2>&1); rc=$?
is "$rc" 65 "a bundle without cpuid_dump: exit 65"
like "$out" "a report bundle without its \"cpuid_dump\" text" "named as such"
printf '{"schema": "baretma-bundle/1", "cpuid_dump": \n' >"$tmp/cut.json"
out=$("$BARETMA" info --cpuid-dump "$tmp/cut.json" 2>&1); rc=$?
is "$rc" 65 "a bundle cut short: exit 65"
like "$out" "a report bundle that is not JSON: line" "named, with the line"
printf '{"schema": "baretma-bundle/1", "cpuid_dump": "hello\\n"}\n' >"$tmp/bad.json"
out=$("$BARETMA" info --cpuid-dump "$tmp/bad.json" 2>&1); rc=$?
is "$rc" 65 "a bundle whose text is no dump: exit 65"
like "$out" "not a CPUID dump" "named as the dump readers name it"

done_testing
