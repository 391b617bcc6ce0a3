#!/bin/sh
# t/0610-hwloc-plugins.sh - HWLOC_PLUGINS_PATH cannot make baretma run
# code (issue 9, point 3).  hwloc dlopen()s every "*.so" in
# $HWLOC_PLUGINS_PATH when a topology is built (hwloc/components.c,
# hwloc_plugins_init), and a constructor in such a file runs at once, as
# root when baretma runs as root.  The test plants a plugin, hwloc_evil.so,
# whose constructor writes a marker file, checks that hwloc itself loads it
# (a tiny hwloc program, same library), then that neither 'baretma info'
# (live topology: cpu_topo_load) nor 'info --cpuid-dump DIR' (a dump
# directory's topology: cpu_topo_load_dump) nor 'bench' lets it run.
# Also: from an untrusted environment (sudo) hwloc's topology-replacing
# variables are dropped, HWLOC_CPUID_PATH stays.
. "$T_SRC/tap.sh"

cc=${T_CC:-cc}
command -v "${cc%% *}" >/dev/null 2>&1 || skip_all "no C compiler '$cc' to build the plugin"
hwloc_flags=$(pkg-config --cflags --libs hwloc 2>/dev/null) || hwloc_flags=-lhwloc

mkdir "$tmp/plugins"
cat >"$tmp/evil.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
/* Runs at dlopen(), before hwloc looks for its component symbol. */
__attribute__((constructor)) static void evil(void)
{
	const char *m = getenv("T_MARKER");
	FILE *f = m ? fopen(m, "a") : NULL;

	if (f) {
		fprintf(f, "plugin ran as uid %u\n", (unsigned)geteuid());
		fclose(f);
	}
}
EOF
$cc -shared -fPIC -o "$tmp/plugins/hwloc_evil.so" "$tmp/evil.c" >"$tmp/cc.out" 2>&1 ||
	{ sed 's/^/# /' "$tmp/cc.out"; skip_all "cannot build a shared object with '$cc'"; }
cat >"$tmp/load.c" <<'EOF'
#include <hwloc.h>
int main(void)
{
	hwloc_topology_t t;

	if (hwloc_topology_init(&t) || hwloc_topology_load(t))
		return 1;
	hwloc_topology_destroy(t);
	return 0;
}
EOF
$cc -o "$tmp/load" "$tmp/load.c" $hwloc_flags >"$tmp/cc.out" 2>&1 ||
	{ sed 's/^/# /' "$tmp/cc.out"; skip_all "cannot build a hwloc program with '$cc'"; }

T_MARKER=$tmp/marker
export T_MARKER
marker() { cat "$T_MARKER" 2>/dev/null; }

# The attack works against hwloc itself: this library loads plugins.
HWLOC_PLUGINS_PATH=$tmp/plugins "$tmp/load"
if [ -z "$(marker)" ]; then
	skip_all "this hwloc loads no plugin from HWLOC_PLUGINS_PATH (built without plugin support): nothing to defend"
fi
like "$(marker)" "^plugin ran as uid" "control: a hwloc program loads the planted plugin"
rm -f "$T_MARKER"

# run NAME ARGS...: baretma with the plugin directory in HWLOC_PLUGINS_PATH.
run() {
	name=$1
	shift
	rm -f "$T_MARKER"
	out=$(HWLOC_PLUGINS_PATH=$tmp/plugins "$BARETMA" "$@" 2>&1 >/dev/null); rc=$?
	is "$rc" 0 "$name: exit 0"
	is "$(marker)" "" "$name: the planted plugin did not run"
	like "$out" "warning: ignoring HWLOC_PLUGINS_PATH: baretma loads no hwloc plugin" \
		"$name: says HWLOC_PLUGINS_PATH is ignored"
}

run "info" info
run "bench --backend tsc" bench --backend tsc --reps 1

HWLOC_DIR=$SHARED_CPUID/hwloc/Intel-SapphireRapids-2xXeonMax9460
if [ -r "$HWLOC_DIR/hwloc-cpuid-info" ]; then
	run "info --cpuid-dump of a hwloc directory" info --cpuid-dump "$HWLOC_DIR"
	# HWLOC_CPUID_PATH (hwloc's own way to a dump directory) stays honoured,
	# under sudo too: the run chooses its CPU in the dump's topology.
	out=$(SUDO_USER=t-sudo-user HWLOC_CPUID_PATH=$HWLOC_DIR HWLOC_COMPONENTS=x86,stop \
		"$BARETMA" bench --backend tsc --reps 1 --kernel empty --json 2>/dev/null)
	like "$out" "not pinned: cpu [0-9]+ was chosen in a topology that is not this machine's \(\\\$HWLOC_CPUID_PATH\)" \
		"under sudo HWLOC_CPUID_PATH still gives hwloc the dump directory's topology"
else
	for i in 1 2 3 4; do skip "no hwloc dump directory $HWLOC_DIR"; done
fi

# A plugin directory given as one of several (':'-separated) is not loaded
# either; an empty HWLOC_PLUGINS_PATH (what baretma sets) is no warning.
rm -f "$T_MARKER"
HWLOC_PLUGINS_PATH=/nonexistent:$tmp/plugins "$BARETMA" info >/dev/null 2>&1
is "$(marker)" "" "HWLOC_PLUGINS_PATH with the plugin directory second: not loaded"
out=$(HWLOC_PLUGINS_PATH= "$BARETMA" info 2>&1 >/dev/null)
unlike "$out" "HWLOC_PLUGINS_PATH" "an empty HWLOC_PLUGINS_PATH: nothing to warn about"

# --- hwloc's topology-replacing variables under sudo --------------------------
# An XML file that is not a topology: hwloc fails to load from it, so the
# run shows whether hwloc read it.
printf 'not a topology\n' >"$tmp/bad.xml"
out=$(HWLOC_XMLFILE=$tmp/bad.xml "$BARETMA" info 2>&1); rc=$?
ok $([ "$rc" -ne 0 ] && echo 0 || echo 1) \
	"control: from a trusted environment HWLOC_XMLFILE is hwloc's to read (exit $rc)"
out=$(SUDO_USER=t-sudo-user HWLOC_XMLFILE=$tmp/bad.xml "$BARETMA" info 2>&1); rc=$?
is "$rc" 0 "under sudo HWLOC_XMLFILE is dropped: this machine's topology"
like "$out" "warning: ignoring HWLOC_XMLFILE: running under sudo \(SUDO_USER=t-sudo-user\); hwloc describes this machine" \
	"under sudo: says HWLOC_XMLFILE is ignored and why"

done_testing
