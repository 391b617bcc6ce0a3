#!/bin/sh
# t/0642-msr-root-files.sh - the files BARETMA_MSR and BARETMA_MSR_TRACE
# can make baretma open as root (issue 9, points 1 and 2), through the
# command line, in the test's private directory only.
#
# Point 1, the attack: a path template whose node is a symbolic link to a
# secret file (or the file itself) made `msr read 0 0x8` print bytes 8..15
# of it (the MSR index is the file offset) and `msr write --force` replace
# them.  Now only MSR device nodes are used (msr/access/msr_dev.c): refused, exit
# 69 (EX_UNAVAILABLE), the file keeps every byte.  Under sudo only the two
# standard templates pass (exit 77).  The test build of the tool
# (t/baretma-hooks) takes regular files for nodes only when asked
# ($BARETMA_TEST_HOOKS=1) in a trusted environment.
#
# Point 2: $BARETMA_MSR_TRACE through a symbolic link to a file of another
# user (uid 65534, root only), at a file of another user, at a FIFO:
# refused, exit 77 (EX_NOPERM), nothing appended; a new trace file is 0600
# and the real uid's.
. "$T_SRC/tap.sh"

BARETMA_STATE_DIR=$tmp/run
export BARETMA_STATE_DIR
unset BARETMA_MSR_TRACE BARETMA_CPUID_DUMP SUDO_USER SUDO_UID

secret='AAAAAAAABBBBBBBBsecret!!'
printf '%s' "$secret" >"$tmp/victim"
mkdir -p "$tmp/cpu/0"
ln -s "$tmp/victim" "$tmp/cpu/0/msr"
tpl=$tmp/cpu/%u/msr

# --- point 1: the template ----------------------------------------------------
out=$(BARETMA_MSR=$tpl "$BARETMA" msr read 0 0x8 2>&1); rc=$?
is "$rc" 69 "read through a link to a secret file: refused, exit 69"
like "$out" "cannot open '$tmp/cpu/0/msr': No such device \(not an MSR device node: BARETMA_MSR must name the msr driver's /dev/cpu/N/msr \(character device 202:N\) or msr_safe's /dev/cpu/N/msr_safe" \
	"read: the node named, why, and what BARETMA_MSR must name"
unlike "$out" "0x4242424242424242" "read: the secret's bytes 8..15 are not printed"
out=$(BARETMA_MSR=$tpl "$BARETMA" msr write --force 0 0x8 0x4141414141414141 2>&1); rc=$?
is "$rc" 69 "write --force through the link: refused, exit 69"
is "$(cat "$tmp/victim")" "$secret" "write: the secret file keeps every byte"
out=$(BARETMA_MSR=$tpl "$BARETMA" msr write 0 0x38f 0x0 2>&1); rc=$?
is "$rc" 69 "write of an allowed register through the link: refused, exit 69"
is "$(cat "$tmp/victim")" "$secret" "allowed register: the secret file keeps every byte"
rm "$tmp/cpu/0/msr"
cp "$tmp/victim" "$tmp/cpu/0/msr"
out=$(BARETMA_MSR=$tpl "$BARETMA" msr write --force 0 0x8 0x4141414141414141 2>&1); rc=$?
is "$rc" 69 "the template naming a regular file: refused, exit 69"
is "$(cat "$tmp/cpu/0/msr")" "$secret" "regular file: every byte kept"
ls "$tmp/run" 2>/dev/null | grep -q journal; ok $((!$?)) "no journal left by the refused writes"

out=$(SUDO_USER=alice BARETMA_MSR=$tpl "$BARETMA" msr read 0 0x8 2>&1); rc=$?
is "$rc" 77 "under sudo, a template of one's own: refused, exit 77"
like "$out" "MSR backend '$tmp/cpu/%u/msr' \(\\\$BARETMA_MSR\): refused while running under sudo \(SUDO_USER=alice\)" \
	"under sudo: the variable and the reason named"
printf '0 0x38f 0x0\n' >"$tmp/state"
out=$(SUDO_USER=alice BARETMA_MSR=state:$tmp/state "$BARETMA" msr read 0 0x38f 2>&1); rc=$?
is "$rc" 77 "under sudo, state:FILE: refused, exit 77"
out=$(BARETMA_MSR=state:$tmp/state "$BARETMA" msr read 0 0x38f 2>&1); rc=$?
is "$rc" 0 "not under sudo, state:FILE works"

if [ -x "${BARETMA_HOOKS:-}" ]; then
	out=$(BARETMA_MSR=$tpl "$BARETMA_HOOKS" msr read 0 0x8 2>&1); rc=$?
	is "$rc" 69 "the test build without BARETMA_TEST_HOOKS: a regular file refused"
	out=$(SUDO_USER=alice BARETMA_TEST_HOOKS=1 BARETMA_MSR=$tpl "$BARETMA_HOOKS" msr read 0 0x8 2>&1); rc=$?
	is "$rc" 77 "the test build with BARETMA_TEST_HOOKS=1 under sudo: refused"
	out=$(BARETMA_TEST_HOOKS=1 BARETMA_MSR=$tpl "$BARETMA_HOOKS" msr read 0 0x8 2>&1); rc=$?
	is "$out" "cpu 0 MSR 0x8 = 0x4242424242424242" \
		"the test build with BARETMA_TEST_HOOKS=1: the stand-in file is read (the seam works)"
else
	skip "no t/baretma-hooks (make check builds it)"
	skip "no t/baretma-hooks"; skip "no t/baretma-hooks"
fi

# --- point 2: the trace file ----------------------------------------------------
BARETMA_MSR=state:$tmp/state
export BARETMA_MSR
trace() { # trace FILE: msr read with $BARETMA_MSR_TRACE=FILE; sets out, rc
	out=$(BARETMA_MSR_TRACE=$1 "$BARETMA" msr read 0 0x38f 2>&1); rc=$?
}
printf 'victim\n' >"$tmp/tvictim"
ln -s "$tmp/tvictim" "$tmp/trace-link"
trace "$tmp/trace-link"
is "$rc" 77 "trace through a symbolic link: refused, exit 77"
like "$out" "trace file '$tmp/trace-link' \(\\\$BARETMA_MSR_TRACE\) is a symbolic link: refused" \
	"trace link: said"
mkfifo "$tmp/trace-fifo"
trace "$tmp/trace-fifo"
is "$rc" 77 "trace at a FIFO: refused without blocking, exit 77"
like "$out" "is not a regular file: refused" "trace FIFO: said"
if [ "$(id -u)" = 0 ]; then
	printf 'victim\n' >"$tmp/ovictim"
	chown 65534 "$tmp/ovictim"
	ln -s "$tmp/ovictim" "$tmp/trace-olink"
	trace "$tmp/trace-olink"
	is "$rc" 77 "trace through a link to a file of uid 65534: refused"
	is "$(cat "$tmp/ovictim")" "victim" "  nothing appended to uid 65534's file"
	trace "$tmp/ovictim"
	is "$rc" 77 "trace at a file of uid 65534: refused"
	like "$out" "is owned by another user than the invoking user: refused \(name a new file: baretma creates it 0600 for uid 0" \
		"  said, with the remedy"
	is "$(cat "$tmp/ovictim")" "victim" "  nothing appended"
else
	for i in 1 2 3 4 5; do skip "not root: cannot give a file to another user"; done
fi
is "$(cat "$tmp/tvictim")" "victim" "the link's target keeps every byte"
(umask 000; trace "$tmp/trace-new"; exit $rc); rc=$?
is "$rc" 0 "a new trace file (umask 000)"
is "$(stat -c '%a %u' "$tmp/trace-new")" "600 $(id -u)" "  created 0600, owned by the real uid"
is "$(cat "$tmp/trace-new")" "rd 0 0x38f 0x0" "  the access traced"

# --- under sudo: the invoking user's files only ------------------------------
# (issue "Left exactly as found", point 4; t/0646 has the library's side.)
# Before, a file was accepted when its owner was getuid(), 0 under sudo:
# BARETMA_MSR_TRACE=/etc/sudoers appended to root's file.  sudo is
# simulated by its variables (t/0615); the invoking user is uid 4242, whom
# no one here is, so a file of the test's own stands for /etc/sudoers.
# Only the standard template is accepted under sudo; the trace file is
# opened before any CPU is.
unset BARETMA_MSR
sudo_trace() { # sudo_trace FILE: msr read as if under sudo by uid 4242; sets out, rc
	out=$(SUDO_USER=t-sudo-user SUDO_UID=4242 SUDO_GID=4343 BARETMA_MSR_TRACE=$1 \
		"$BARETMA" msr read 0 0x38f 2>&1); rc=$?
}
printf 'root ALL=(ALL) ALL\n' >"$tmp/sudoers"
sudo_trace "$tmp/sudoers"
is "$rc" 77 "under sudo: a trace file of the caller's own (root's /etc/sudoers): refused, exit 77"
like "$out" "trace file '$tmp/sudoers' \(\\\$BARETMA_MSR_TRACE\) is owned by another user than the invoking user: refused \(name a new file in a directory of uid 4242 \(\\\$SUDO_UID\) or in a sticky one everyone may write, like /tmp" \
	"  said, naming the invoking user and the remedy"
is "$(cat "$tmp/sudoers")" "root ALL=(ALL) ALL" "  nothing appended"
sudo_trace "$tmp/sudo-new"
is "$rc" 77 "under sudo: a new trace file in a directory that is not uid 4242's: refused"
like "$out" "is a new file in a directory the invoking user does not own: refused" "  said"
ok $([ ! -e "$tmp/sudo-new" ]; echo $?) "  nothing created"
out=$(SUDO_USER=t-sudo-user BARETMA_MSR_TRACE=$tmp/sudo-new "$BARETMA" msr read 0 0x38f 2>&1); rc=$?
is "$rc" 77 "under sudo without SUDO_UID: refused (the invoking user is unknown)"
like "$out" "is named under sudo without a valid \\\$SUDO_UID: refused \(the invoking user is unknown: SUDO_UID is not set" \
	"  said"
if [ "$(id -u)" = 0 ]; then
	mkdir -m 0755 "$tmp/home4242"
	chown 4242:4343 "$tmp/home4242"
	sudo_trace "$tmp/home4242/trace"
	ok $([ "$rc" != 77 ]; echo $?) "under sudo: a new trace file in uid 4242's directory: accepted (exit $rc: the MSR device decides the rest)"
	is "$(stat -c '%a %u %g' "$tmp/home4242/trace" 2>/dev/null)" "600 4242 4343" \
		"  created 0600, uid 4242's and SUDO_GID's"
	out=$(SUDO_USER=root SUDO_UID=0 SUDO_GID=0 BARETMA_MSR_TRACE=$tmp/sudoers \
		"$BARETMA" msr read 0 0x38f 2>&1); rc=$?
	ok $([ "$rc" != 77 ]; echo $?) "sudo run by root (SUDO_UID=0): root's own file accepted (exit $rc)"
else
	for i in 1 2 3; do skip "not root: cannot give a directory to uid 4242"; done
fi

done_testing
