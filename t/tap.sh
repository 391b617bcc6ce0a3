# t/tap.sh - TAP helpers for baretma's shell tests (sourced).
# ok COND_STATUS NAME; is GOT WANT NAME; like TEXT REGEX NAME; skip_all WHY; done_testing
tap_n=0
tap_failed=0
ok() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $tap_n - $2"
	else echo "not ok $tap_n - $2"; tap_failed=$((tap_failed + 1)); fi
}
is() {
	tap_n=$((tap_n + 1))
	if [ "$1" = "$2" ]; then echo "ok $tap_n - $3"
	else echo "not ok $tap_n - $3"; echo "#   got '$1'"; echo "#   want '$2'"
		tap_failed=$((tap_failed + 1)); fi
}
like() {
	tap_n=$((tap_n + 1))
	if printf '%s' "$1" | grep -Eq -- "$2"; then echo "ok $tap_n - $3"
	else echo "not ok $tap_n - $3"; printf '%s\n' "$1" | sed 's/^/#   got: /' | head -20
		echo "#   want match: $2"; tap_failed=$((tap_failed + 1)); fi
}
unlike() {
	tap_n=$((tap_n + 1))
	if printf '%s' "$1" | grep -Eq -- "$2"; then echo "not ok $tap_n - $3"
		printf '%s\n' "$1" | sed 's/^/#   got: /' | head -20
		echo "#   must not match: $2"; tap_failed=$((tap_failed + 1))
	else echo "ok $tap_n - $3"; fi
}
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP $1"; }
skip_all() { echo "1..0 # SKIP $1"; exit 0; }
done_testing() { echo "1..$tap_n"; [ "$tap_failed" -eq 0 ]; exit $?; }
# A scratch directory removed at exit; absolute even under a relative TMPDIR
# (tests hand paths under it to baretma as BARETMA_STATE_DIR).
tmp=$(mktemp -d "${TMPDIR:-/tmp}/baretma-t.XXXXXX")
tmp=$(cd "$tmp" && pwd)
trap 'rm -rf "$tmp"' EXIT
