#!/bin/sh
# t/1020-output-files-sudo.sh - every file a command writes follows one
# rule under sudo (bench/output/output.h "A file written whole or not at
# all"; doc/safety.md "Running as root safely"): the invoking user ($SUDO_UID)
# could have written it.  For each writer - cpuid dump -o, calibrate -o,
# validate --bundle, bench -o, --openmetrics and --plot, stat -o,
# --openmetrics and --plot - and each case that issue 27 found writers
# getting wrong:
#   - root's file (root:root 0644) in the user's directory: replaced;
#   - a new file in root's directory: created;
#   - the user's own file inside root's directory: replaced;
#   - the user's symbolic link to root's directory, a new file through it;
# the command exits 73 before it measures anything, names the file and
# why, and every file and directory is as it was (contents, owner, mode,
# the directories' listings).  calibrate and validate did so even when
# they then exited 69 (nothing measurable): the refusal now comes first.
# Then what the user may name: a new file in their directory, and their
# own file there, written for them (owned by $SUDO_UID:$SUDO_GID, mode
# 0666 less the umask, or the old file's): readable by them, not root's
# 0600.  Root is needed to own files as root and as another uid.
. "$T_SRC/tap.sh"

[ "$(id -u)" = 0 ] || skip_all "root needed: files of root's and of uid 4242 are made"
uid=4242
u=$tmp/user
r=$tmp/root
mkdir -p "$u" "$r"
chown "$uid:$uid" "$u"
# (named .svg: --plot takes the picture's format from the name)
printf 'root precious\n' >"$u/rootfile.svg"       # root's, in the user's directory
printf 'users own\n' >"$r/userfile.svg"           # the user's, in root's directory
chown "$uid:$uid" "$r/userfile.svg"
ln -s "$r" "$u/lnk"                               # the user's link into root's directory
chown -h "$uid:$uid" "$u/lnk"

# snap: every name, owner, mode and byte under $tmp (but the test's own)
snap() { (cd "$tmp" && find user root -printf '%p %u:%g %m %y %l\n' | sort &&
	find user root -type f -exec md5sum {} + | sort); }
before=$(snap)

# as_sudo CMD...: run baretma as root for uid 4242, as sudo(8) sets it
as_sudo() {
	st=0
	SUDO_USER=t-sudo-user SUDO_UID=$uid SUDO_GID=$uid "$BARETMA" "$@" >"$tmp/out" 2>"$tmp/err" || st=$?
}

# The writers: one word per writer, and its command line for the file F.
writer() {
	case $1 in
	dump) echo "cpuid dump -o F" ;;
	calibrate) echo "calibrate --backend tsc --reps 20 -o F" ;;
	bundle) echo "validate --bundle F" ;;
	bench-o) echo "bench --backend tsc --kernel empty --reps 1 --warmup 0 -o F" ;;
	bench-om) echo "bench --backend tsc --kernel empty --reps 1 --warmup 0 --openmetrics F" ;;
	bench-plot) echo "bench --plot F" ;;
	stat-o) echo "stat -a -I 100 --count 1 -o F" ;;
	stat-om) echo "stat -a -I 100 --count 1 --openmetrics F" ;;
	stat-plot) echo "stat -a -I 100 --count 1 --plot F" ;;
	esac
}
writers="dump calibrate bundle bench-o bench-om bench-plot stat-o stat-om stat-plot"

for w in $writers; do
	for case in "root's file in the user's directory:$u/rootfile.svg" \
		"a new file in root's directory:$r/new.svg" \
		"the user's file in root's directory:$r/userfile.svg" \
		"a new file through the user's link to root's directory:$u/lnk/new.svg"; do
		what=${case%%:*}
		f=${case#*:}
		# shellcheck disable=SC2046 # the words of the command line
		as_sudo $(writer "$w" | sed "s|F|$f|")
		is "$st" 73 "$w: $what: refused (exit 73)"
		like "$(cat "$tmp/err")" "cannot write '$f': (owned by another user than the invoking user|a new file in a directory the invoking user does not own|in a directory the invoking user does not own): refused \\(name a new file in a directory of uid $uid" \
			"$w: $what: the file and why, and what to name instead"
		unlike "$(cat "$tmp/err")" "measur|cannot validate|top-down unavailable" \
			"$w: $what: refused before anything runs"
		is "$(snap)" "$before" "$w: $what: every file and directory as it was"
	done
done

# --- what the invoking user may name: written for them ---------------------------
# (validate's bundle is written by the same writer; under sudo validate
# would open the real MSR device, which no test may: t/0463 has its mode)
mode=$(umask_mode)
printf 'old\n' >"$u/mine"
chown "$uid:$uid" "$u/mine"
chmod 640 "$u/mine"
for w in dump calibrate bench-o bench-om; do
	as_sudo $(writer "$w" | sed "s|F|$u/new-$w|")
	is "$st" 0 "$w: a new file in the user's directory: written"
	is "$(stat -c '%u:%g %a' "$u/new-$w" 2>&1)" "$uid:$uid $mode" \
		"$w: it is the user's, mode 0666 less the umask: they read it"
	is "$(ls -A "$u" | grep -c 'baretma-.*\.tmp$')" 0 "$w: no temporary file left"
	as_sudo $(writer "$w" | sed "s|F|$u/mine|")
	is "$(stat -c '%u:%g %a' "$u/mine")" "$uid:$uid 640" "$w: the user's own file replaced, still theirs, its mode kept"
	unlike "$(cat "$u/mine")" "^old$" "$w: with the new text"
done

# --- the control: as root itself, root's directory is root's to write ----------
st=0
"$BARETMA" cpuid dump -o "$r/new.txt" 2>"$tmp/err" || st=$?
is "$st:$(stat -c %u "$r/new.txt" 2>&1)" "0:0" "control: root's own run writes root's directory, root's file"

done_testing
