# t/full-fs.sh - a full file system for a test (sourced after t/tap.sh):
# a real one, a 16 KiB tmpfs filled to its last byte, in a mount namespace
# of the test's own (unshare -m; as root, or in a user namespace).
#   full_fs_ok: whether it can be made here (else the caller skips)
#   full_fs DIR OUT CMD...: in a new namespace, the tmpfs mounted at DIR
#     holding DIR/F.svg ("old\n"), filled; CMD run there; its status in
#     $st, its stderr in OUT.err, DIR's listing after in OUT.ls, F.svg's
#     text after in OUT.old.  DIR is an empty directory outside the
#     namespace, and stays one.
cat >"$tmp/full-fs-inner.sh" <<'INNER'
m=$1 out=$2
shift 2
mount -t tmpfs -o size=16k,mode=0777 baretma-t-full "$m" || exit 99
printf 'old\n' >"$m/F.svg"
dd if=/dev/zero of="$m/fill" bs=512 2>/dev/null
while printf x >>"$m/fill" 2>/dev/null; do :; done
st=0
"$@" >/dev/null 2>"$out.err" || st=$?
ls -A "$m" >"$out.ls"
cat "$m/F.svg" >"$out.old"
exit $st
INNER
if [ "$(id -u)" = 0 ]; then
	full_fs_ns="unshare -m --propagation private"
else
	full_fs_ns="unshare -r -m --propagation private"
fi
full_fs() {
	st=0
	$full_fs_ns sh "$tmp/full-fs-inner.sh" "$@" || st=$?
}
full_fs_ok() {
	command -v unshare >/dev/null 2>&1 || return 1
	mkdir -p "$tmp/full-fs-probe"
	$full_fs_ns sh "$tmp/full-fs-inner.sh" "$tmp/full-fs-probe" "$tmp/full-fs-probe.out" true 2>/dev/null
}
