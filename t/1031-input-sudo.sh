#!/bin/sh
# t/1031-input-sudo.sh - under sudo, a CPUID dump the invoking user cannot
# read is refused before a byte of it is read (project issue 27, point 1).
#
# Before, `sudo baretma info --cpuid-dump F` of a root-only file (0600)
# exited 65 and quoted the file's line in its error ('CPUID 00000000:
# ...'): root read it for a user who could not.  Now every input a user
# names is opened by cpu/userfile.h userfile_open_read: where the invoking
# user (SUDO_UID) is not the effective one, a child with their ids asks
# the kernel first, and a file they could not read is refused: exit 77
# (EX_NOPERM), naming the file, the invoking user and the remedy, never
# its content.  --cpuid-dump and $BARETMA_CPUID_DUMP are read under sudo
# (doc/safety.md "Running as root safely"); a simulator profile and a state file
# are not reachable then (BARETMA_MSR is refused), t/1030 tests the
# library's function for them.
#
# sudo is simulated as t/0615 does: SUDO_USER, SUDO_UID, SUDO_GID set, as
# sudo(8) sets them; the invoking user is nobody (65534).  Making a file
# nobody cannot read that root can needs root.
. "$T_SRC/tap.sh"
pyq_start

[ "$(id -u)" = 0 ] || skip_all "not root: no file here that only root can read"
ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
[ -r "$ICL" ] || skip_all "no Ice Lake dump $ICL"
unset BARETMA_MSR BARETMA_MSR_TRACE BARETMA_CPUID_DUMP BARETMA_PERF BARETMA_SYSROOT

# nobody must be able to reach the scratch directory for the controls
chmod 0711 "$tmp"
d=$tmp
while [ "$d" != / ]; do
	case $(stat -c %A "$d") in
	*x) ;;
	*t) ;;
	*) skip_all "uid 65534 cannot search '$d' (on the way to the scratch directory)" ;;
	esac
	d=$(dirname "$d")
done
mkdir -m 0755 "$tmp/in"
in=$tmp/in

# run ARGS...: baretma ARGS as sudo would run it for nobody; $out, $rc.
run() { out=$(SUDO_USER=nobody SUDO_UID=65534 SUDO_GID=65534 "$BARETMA" "$@" 2>&1); rc=$?; }
who="uid 65534 \\(\\\$SUDO_UID\\), on whose behalf baretma runs as uid 0, cannot read it: refused unread \\(name a file that user can read\\)"

# --- one file ----------------------------------------------------------------
# An AIDA64 section whose record is malformed: the message of a file that
# is read quotes that line (the control), of one refused it must not.
printf -- '------[ CPUID Registers / Logical CPU #0 ]------\nCPUID 00000000: SECRET-of-root\n' \
	>"$in/secret"
chmod 0600 "$in/secret"
run info --cpuid-dump "$in/secret"
is "$rc" 77 "a root-only (0600) file as --cpuid-dump under sudo: exit 77"
like "$out" "^baretma: cannot load CPUID dump '$in/secret': $who\$" \
	"  the message names the file, the invoking user and the remedy"
unlike "$out" "SECRET" "  and quotes nothing of the file"
out=$(SUDO_USER=nobody SUDO_UID=65534 SUDO_GID=65534 BARETMA_CPUID_DUMP=$in/secret \
	"$BARETMA" info 2>&1); rc=$?
is "$rc" 77 "the same file as \$BARETMA_CPUID_DUMP: exit 77"
unlike "$out" "SECRET" "  nothing of it quoted"
chmod 0644 "$in/secret"
run info --cpuid-dump "$in/secret"
is "$rc" 65 "control: mode 0644, nobody may read it: read, malformed (exit 65)"
like "$out" "CPUID 00000000: SECRET-of-root" "  control: its line is quoted, as before"
chmod 0600 "$in/secret"
out=$(SUDO_USER=root SUDO_UID=0 SUDO_GID=0 "$BARETMA" info --cpuid-dump "$in/secret" 2>&1); rc=$?
is "$rc" 65 "sudo run by root (SUDO_UID=0): root's own file is read (malformed: exit 65)"

cp "$ICL" "$in/icl"
chmod 0600 "$in/icl"
run info --cpuid-dump "$in/icl"
is "$rc" 77 "a real dump, 0600 root's: exit 77"
chmod 0644 "$in/icl"
run info --cpuid-dump "$in/icl"
is "$rc" 0 "control: the same dump 0644: read (exit 0)"
like "$out" "Ice Lake" "  control: it describes the Ice Lake"
mkdir -m 0700 "$in/closed"
cp "$ICL" "$in/closed/icl"
chmod 0644 "$in/closed/icl"
run info --cpuid-dump "$in/closed/icl"
is "$rc" 77 "a 0644 dump in root's 0700 directory: exit 77 (the kernel's rule: the path counts)"
like "$out" "cannot load CPUID dump '$in/closed/icl': $who" "  named, with the user"
run info --cpuid-dump "$in/closed/none"
is "$rc" 77 "a missing name in that directory: exit 77, not 66 (nobody learns what is there)"

# --- a hwloc-gather-cpuid directory and a report bundle ----------------------
cp -R "$T_DATA/cpuid-hwloc-synthetic" "$in/hw"
chmod -R go+rX "$in/hw"
run info --cpuid-dump "$in/hw"
is "$rc" 0 "control: a hwloc directory every user may read: exit 0"
chmod 0600 "$in/hw/pu1"
run info --cpuid-dump "$in/hw"
is "$rc" 77 "its pu1 file 0600: exit 77"
like "$out" "cannot load CPUID dump '$in/hw': pu1: $who" "  the directory and pu1 named"
chmod 0644 "$in/hw/pu1"
chmod 0711 "$in/hw"
run info --cpuid-dump "$in/hw"
is "$rc" 77 "the directory 0711 (nobody may open its files, not list them): exit 77"
like "$out" "cannot load CPUID dump '$in/hw': $who" "  named"
chmod 0755 "$in/hw"
chmod 0600 "$in/hw/hwloc-cpuid-info"
run info --cpuid-dump "$in/hw"
is "$rc" 77 "its hwloc-cpuid-info (which hwloc reads as root) 0600: exit 77"
like "$out" "cannot load CPUID dump '$in/hw': hwloc-cpuid-info: $who" "  named"
if command -v python3 >/dev/null 2>&1; then
	pyq 'import json,sys; print(json.dumps({"schema": "baretma-bundle/1", "cpuid_dump": open(sys.argv[1]).read()}))' \
		"$ICL" >"$in/bundle.json"
	chmod 0644 "$in/bundle.json"
	run info --cpuid-dump "$in/bundle.json"
	is "$rc" 0 "control: a report bundle of the Ice Lake, 0644: exit 0"
	chmod 0600 "$in/bundle.json"
	run info --cpuid-dump "$in/bundle.json"
	is "$rc" 77 "the bundle 0600: exit 77"
else
	skip "no python3 to write a bundle"
	skip "no python3"
fi

# --- another command: the same refusal ---------------------------------------
run pmu status --cpuid-dump "$in/secret"
is "$rc" 77 "pmu status --cpuid-dump of the root-only file: exit 77"
unlike "$out" "SECRET" "  nothing of it quoted"

done_testing
