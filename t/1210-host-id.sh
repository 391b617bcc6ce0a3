#!/bin/sh
# t/1210-host-id.sh - every file a host writes names the host (doc/json.md
# "Host"): `host` {hostname, machine_id} in the documents of bench, compare,
# calibrate (and its state-directory file), validate, validate --bundle,
# info and stat (its end, not its interval records), so that `baretma
# report` tells hosts apart by what a file says, never by its name.
# The expected values come from outside baretma: the hostname set here in
# a UTS namespace of its own (unshare(1) --uts; uts_namespaces(7): the
# nodename uname(2) gives), and /etc/machine-id written here under the
# sysroot, whose form machine-id(5) fixes ("a single newline-terminated,
# hexadecimal, 32-character, lowercase ID"): any other content gives null,
# never a guess.  A hostname that is not UTF-8 is given escaped, \xHH per
# byte (doc/json.md "Common rules"); one with a control character is
# written \u00XX (the documents are ASCII).
. "$T_SRC/tap.sh"
. "$T_SRC/sim-fixture.sh"

[ "$(id -u)" = 0 ] || skip_all "not root: a UTS namespace (unshare --uts) needs CAP_SYS_ADMIN"
command -v unshare >/dev/null 2>&1 || skip_all "no unshare(1) (Debian: util-linux)"
unshare --uts true 2>/dev/null || skip_all "unshare --uts refused here (no UTS namespaces for this process)"

printf 'ghz 1\naccess_cycles 0\nretiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n' \
	>"$tmp/profile"
ID=5f1e0c2a9b8d47e6a3c4b2d1e0f9a8b7
mkdir -p "$tmp/root/etc"
printf '%s\n' "$ID" >"$tmp/root/etc/machine-id"
BARETMA_MSR=sim:$tmp/profile BARETMA_CPUID_DUMP=$ICL BARETMA_SYSROOT=$tmp/root
export BARETMA_MSR BARETMA_CPUID_DUMP BARETMA_SYSROOT

# on HOSTNAME ARGS...: baretma ARGS in a UTS namespace named HOSTNAME
# (written through /proc, as hostname(1) refuses names with odd bytes).
on() {
	_h=$1
	shift
	unshare --uts sh -c 'printf "%s" "$1" >/proc/sys/kernel/hostname && shift && exec "$@"' \
		sh "$_h" "$BARETMA" "$@"
}
# host FILE: the document's host as "hostname machine_id"
host() { pyq 'import json,sys; h=json.load(open(sys.argv[1]))["host"]; print(h["hostname"], h["machine_id"])' "$1"; }

want="lab-node-07 $ID"
for c in "bench --json" "compare --json" "calibrate --json" "validate --json" "info --json" \
	"stat --json -- true"; do
	# shellcheck disable=SC2086
	on lab-node-07 $c >"$tmp/doc" 2>"$tmp/err"
	is "$(host "$tmp/doc")" "$want" "$c: host is the UTS namespace's hostname and /etc/machine-id"
done
is "$(host "$BARETMA_STATE_DIR/calibration-GenuineIntel-6-0x7e-5.json")" "$want" \
	"the calibration file in the state directory names the host"
on lab-node-07 validate --bundle "$tmp/bundle.json" >/dev/null 2>&1
is "$(host "$tmp/bundle.json")" "$want" "validate --bundle: the bundle names the host"

# A stream: the records carry no host, the end does (doc/json.md "Common rules").
on lab-node-07 stat -C 0 -I 100 --count 2 --json >"$tmp/lines" 2>"$tmp/err"
is "$(pyq 'import json,sys
ls=[json.loads(l) for l in open(sys.argv[1])]
print([("host" in d, d["type"]) for d in ls], ls[-1]["host"]["hostname"])' "$tmp/lines")" \
	"[(False, 'interval'), (False, 'interval'), (True, 'end')] lab-node-07" \
	"stat -I --json: the two interval records without host, the end with it"

# machine-id(5)'s form, else null.
for c in "$(printf '%s' "$ID")|$ID|no newline at the end: still the ID" \
	"$(echo "$ID" | tr a-f A-F)|None|upper case: null" \
	"${ID%?}|None|31 digits: null" "${ID}0|None|33 digits: null" \
	"5f1e0c2a-9b8d-47e6-a3c4-b2d1e0f9a8b7|None|a UUID with dashes: null" \
	"${ID%?}g|None|a non-hex digit: null"; do
	printf '%s' "${c%%|*}" >"$tmp/root/etc/machine-id"
	rest=${c#*|}
	on lab-node-07 info --json >"$tmp/doc" 2>/dev/null
	is "$(host "$tmp/doc")" "lab-node-07 ${rest%%|*}" "machine-id ${rest#*|}"
done
rm "$tmp/root/etc/machine-id"
on lab-node-07 info --json >"$tmp/doc" 2>/dev/null
is "$(host "$tmp/doc")" "lab-node-07 None" "no /etc/machine-id: null"

# Odd hostnames: not UTF-8 -> escaped; a control character -> \u001B, ASCII output.
on "$(printf 'ev\033[1m\377il')" info --json >"$tmp/doc" 2>/dev/null
is "$(host "$tmp/doc")" 'ev\x1b[1m\xffil None' "a hostname not UTF-8: every odd byte as \\xHH"
on "$(printf 'n\033[2Jx')" info --json >"$tmp/doc" 2>/dev/null
like "$(cat "$tmp/doc")" '"hostname": "n\\u001B\[2Jx"' "a control character in a UTF-8 hostname: written \\u001B"
unlike "$(cat "$tmp/doc")" "$(printf '\033')" "no raw ESC byte in the document"
on "$(printf 'h\303\251te')" info --json >"$tmp/doc" 2>/dev/null
is "$(host "$tmp/doc")" "$(printf 'h\303\251te None')" "a UTF-8 hostname: kept as written (h\\u00E9te)"

# The host is read once per process: here, the one of the namespace it ran in.
on other-node bench --json >"$tmp/doc" 2>/dev/null
is "$(host "$tmp/doc")" "other-node None" "another namespace, another host"

done_testing
