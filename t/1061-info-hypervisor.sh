#!/bin/sh
# t/1061-info-hypervisor.sh - the hypervisor by both its sources: CPUID's
# signature (leaf 0x40000000) and what the running kernel detected
# (/sys/hypervisor/type, else the kernel log's "Hypervisor detected: NAME"
# record in /dev/kmsg), under a fake root (BARETMA_SYSROOT) and the live-CPU
# seam ($BARETMA_HOOKS with BARETMA_TEST_LIVE_CPUID).  One name where they
# agree; both, each with its source, where they differ - on one line, in
# info's identity and in the environment block; JSON keeps both.
# Known answers, each from outside the code:
#   - t/data/cpuid-emr-kvm-novpmu.txt, a real KVM guest: leaf 0x40000000
#     EBX-ECX-EDX 4B4D564B-564B4D56-0000004D, "KVMKVMKVM\0\0\0"
#     (linux include/uapi/linux/kvm_para.h KVM_SIGNATURE); the same dump
#     with bhyve's signature "bhyve bhyve " (FreeBSD sys/amd64/vmm/x86.c
#     bhyve_id), its bytes as words by hand: 76796862-68622065-20657679;
#   - the kernel's record "Hypervisor detected: KVM" (linux
#     arch/x86/kernel/cpu/hypervisor.c init_hypervisor_platform, kvm.c
#     .name) in the /dev/kmsg format "PRIO,SEQ,TIME,FLAGS;TEXT"
#     (Documentation/ABI/testing/dev-kmsg); /sys/hypervisor/type "xen"
#     (drivers/xen/sys-hypervisor.c).
. "$T_SRC/tap.sh"
pyq_start

command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the JSON"
[ -x "$BARETMA_HOOKS" ] || skip_all "no test build of the tool (BARETMA_HOOKS)"
EMR=$T_DATA/cpuid-emr-kvm-novpmu.txt
[ -r "$EMR" ] || skip_all "no $EMR"
q() { pyq 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

grep -q '^CPUID 40000000: [0-9A-F]*-4B4D564B-564B4D56-0000004D' "$EMR" ||
	skip_all "$EMR no longer holds KVM's signature"
sed 's/^\(CPUID 40000000: [0-9A-F]*\)-4B4D564B-564B4D56-0000004D/\1-76796862-68622065-20657679/' \
	"$EMR" >"$tmp/bhyve.txt"
root=$tmp/root
mkdir -p "$root/dev" "$root/sys"
printf '5,0,0,-;Linux version 6.1.0\n6,1,0,-;Hypervisor detected: KVM\n SUBSYSTEM=cpu\n6,2,5,-;kvm-clock: Using msrs 4b564d01\n' \
	>"$root/dev/kmsg"
BARETMA_SYSROOT=$root
export BARETMA_SYSROOT BARETMA_TEST_LIVE_CPUID
unset BARETMA_CPUID_DUMP

# --- bhyve's signature, the kernel's KVM: both, each with its source ---------
BARETMA_TEST_LIVE_CPUID=$tmp/bhyve.txt
out=$("$BARETMA_HOOKS" info 2>&1); rc=$?
is "$rc" 0 "bhyve signature, kernel KVM: info exits 0"
both="KVM \\(the kernel, by /dev/kmsg 'Hypervisor detected: \\.\\.\\.'\\), CPUID 0x40000000 says 'bhyve bhyve '"
like "$out" "^hypervisor: $both\$" "identity line: the kernel's KVM and CPUID's 'bhyve bhyve ', each with its source"
like "$out" "^  hypervisor:    $both, virtual PMU no\$" "environment line: the same, then the virtual PMU"
is "$(printf '%s\n' "$out" | grep -c 'hypervisor: *bhyve$')" 0 "no line says bhyve alone"
"$BARETMA_HOOKS" info --json >"$tmp/out.json" 2>/dev/null
is "$(q "$tmp/out.json" '(d["hypervisor"], d["hypervisor_signature"])')" "('bhyve', 'bhyve bhyve ')" \
	"JSON identity: CPUID's name and signature"
is "$(q "$tmp/out.json" 'tuple(d["environment"][k] for k in ("hypervisor", "hypervisor_signature", "hypervisor_kernel"))')" \
	"('bhyve', 'bhyve bhyve ', 'KVM')" "JSON environment: CPUID's name, signature, and the kernel's"
like "$(q "$tmp/out.json" 'd["environment"]["hypervisor_kernel_source"]')" "^/dev/kmsg " \
	"JSON environment: the kernel's source"

# --- KVM by both: one name -----------------------------------------------------
BARETMA_TEST_LIVE_CPUID=$EMR
out=$("$BARETMA_HOOKS" info 2>&1)
like "$out" "^hypervisor: KVM\$" "KVM by both: one name"
like "$out" "^  hypervisor:    KVM, virtual PMU no\$" "KVM by both: one name in the environment"

# --- a record user space wrote is not the kernel's -----------------------------
printf '14,1,0,-;Hypervisor detected: VMware\n' >"$root/dev/kmsg"
BARETMA_TEST_LIVE_CPUID=$tmp/bhyve.txt
out=$("$BARETMA_HOOKS" info 2>&1)
like "$out" "^hypervisor: bhyve\$" "a LOG_USER record: the kernel's view unknown, CPUID's name alone"
"$BARETMA_HOOKS" info --json >"$tmp/out.json" 2>/dev/null
is "$(q "$tmp/out.json" '(d["environment"]["hypervisor_kernel"], d["environment"]["hypervisor_kernel_source"])')" \
	"(None, None)" "JSON: the kernel's view null when unknown"

# --- /sys/hypervisor/type before the log --------------------------------------
mkdir -p "$root/sys/hypervisor"
printf 'xen\n' >"$root/sys/hypervisor/type"
BARETMA_TEST_LIVE_CPUID=$EMR
out=$("$BARETMA_HOOKS" info 2>&1)
like "$out" "^hypervisor: xen \\(the kernel, by /sys/hypervisor/type\\), CPUID 0x40000000 says 'KVMKVMKVM'\$" \
	"/sys/hypervisor/type xen, CPUID KVM: both"
rm -r "$root/sys/hypervisor"

# --- a dump: its CPUID alone (the kernel here is not the dump's) --------------
printf '6,1,0,-;Hypervisor detected: KVM\n' >"$root/dev/kmsg"
unset BARETMA_TEST_LIVE_CPUID
out=$("$BARETMA" info --cpuid-dump "$tmp/bhyve.txt" 2>&1)
like "$out" "^hypervisor: bhyve\$" "a dump's identity: its CPUID's name alone"
done_testing
