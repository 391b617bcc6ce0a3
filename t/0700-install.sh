#!/bin/sh
# t/0700-install.sh - `make install` installs what README "Install" lists:
# the tool, libbaretma.so.2 (its SONAME) with its development link,
# libbaretma.a, <baretma.h>, baretma.pc, the documents (README, HACKING, doc/), the man pages (the overview, one
# per command, which the installed tool's `help CMD` shows, and the API's) and the bash
# completion (in bash-completion's completionsdir, configure.ac); the shared
# library exports only the baretma_* API and imports only what the
# libraries it names define; a program built with baretma.pc's flags links
# and runs against it; `make uninstall` removes every file.
#
# In `make check` it installs into a scratch directory with
# `make install DESTDIR=$tmp/inst` from the build tree.  That is sound
# inside `make check`: `check` has built everything `install` needs (so the
# nested make builds nothing), DESTDIR keeps every write under $tmp (no
# root, nothing outside the scratch directory, the build tree only read,
# which `make distcheck`'s read-only source tree allows), and the paths are
# the configured ones, which DESTDIR only prefixes.  `make installcheck`
# (T_INSTALLCHECK=1) runs the same checks on the real installation under
# $DESTDIR (empty: the configured prefix itself), without the exact file
# list (the prefix holds other packages' files) and without uninstalling.
#
# Expected values come from outside the build: the SONAME is the ABI named
# in configure.ac and README (libbaretma.so.2), the version AC_INIT's, the
# API the function declarations of include/baretma.h.
. "$T_SRC/tap.sh"
pyq_start

TOP=$T_SRC/..
SONAME=libbaretma.so.2
REAL=libbaretma.so.2.0.0
VERSION=$(sed -n 's/^AC_INIT(\[baretma\], \[\([^]]*\)\].*/\1/p' "$TOP/configure.ac")
# Functions the header declares (static inline baretma_read excluded: it is
# compiled into the caller); the marker functions are declared under
# BARETMA_PERFMON and are the library's too.
API=$(sed -n 's/^\(int\|void\|const char \*\) *\(baretma_[a-z_]*\)(.*/\2/p' \
	"$TOP/include/baretma.h" | LC_ALL=C sort -u)
# Weak references every shared object carries from the toolchain's start
# files (gcc crtstuff.c: __gmon_start__, the transactional-memory clone
# table); defined by nobody unless a host provides them.
CRT_WEAK='__gmon_start__ _ITM_deregisterTMCloneTable _ITM_registerTMCloneTable'

if [ -n "${T_INSTALLCHECK:-}" ]; then
	root=${DESTDIR:-}
else
	root=$tmp/inst
	# MAKEFLAGS of the running make (its jobserver, its command line)
	# are not this make's.
	(cd "$T_BUILDDIR" && MAKEFLAGS= MFLAGS= $T_MAKE install DESTDIR="$root") \
		>"$tmp/install.log" 2>&1; rc=$?
	is "$rc" 0 "make install DESTDIR=... exits 0"
	[ "$rc" -eq 0 ] || sed 's/^/#   /' "$tmp/install.log" | tail -20
	want=$(LC_ALL=C sort <<EOF
$T_BINDIR/baretma
$T_INCLUDEDIR/baretma.h
$T_LIBDIR/libbaretma.a
$T_LIBDIR/libbaretma.la
$T_LIBDIR/libbaretma.so
$T_LIBDIR/$SONAME
$T_LIBDIR/$REAL
$T_MANDIR/man1/baretma.1
$T_MANDIR/man1/baretma-bench.1
$T_MANDIR/man1/baretma-calibrate.1
$T_MANDIR/man1/baretma-compare.1
$T_MANDIR/man1/baretma-cpuid.1
$T_MANDIR/man1/baretma-decode.1
$T_MANDIR/man1/baretma-info.1
$T_MANDIR/man1/baretma-msr.1
$T_MANDIR/man1/baretma-pmu.1
$T_MANDIR/man1/baretma-report.1
$T_MANDIR/man1/baretma-stat.1
$T_MANDIR/man1/baretma-validate.1
$T_MANDIR/man3/baretma.3
$(cd "$TOP" && for f in README.md HACKING.md doc/*.md doc/img/*.png; do echo "$T_DOCDIR/$f"; done)
$T_PKGCONFIGDIR/baretma.pc
$T_BASHCOMPLETIONDIR/baretma
EOF
)
	got=$(cd "$root" && find . ! -type d | sed 's|^\.||' | LC_ALL=C sort)
	is "$got" "$want" "make install installs exactly the files README 'Install' lists"
	echo "# installed:"; printf '%s\n' "$got" | sed 's/^/#   /'
fi

# --- the tool ----------------------------------------------------------------
bin=$root$T_BINDIR/baretma
out=$("$bin" version 2>&1); rc=$?
is "$rc:$out" "0:baretma $VERSION" "the installed baretma runs: 'baretma version' gives AC_INIT's version"
out=$(BARETMA_TEST_HOOKS=1 "$bin" bench --backend tsc --kernel test-fault-segv 2>&1); rc=$?
is "$rc" 64 "the installed baretma is the tool, not t/baretma-hooks: no hidden test kernels (exit 64)"
like "$out" "unknown kernel 'test-fault-segv'" "... and says the kernel is unknown"
needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
unlike "$needed" "libbaretma" "the tool links the library statically (it needs no libbaretma.so)"

# --- the shared and static library ---------------------------------------------
so=$root$T_LIBDIR/$REAL
soname=$(readelf -d "$so" 2>&1 | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
is "$soname" "$SONAME" "$REAL has the SONAME $SONAME"
is "$(readlink "$root$T_LIBDIR/$SONAME")" "$REAL" "$SONAME is a relative link to $REAL (what ldconfig makes)"
is "$(readlink "$root$T_LIBDIR/libbaretma.so")" "$REAL" \
	"libbaretma.so (the link -lbaretma finds) is a relative link to $REAL"
like "$(ar t "$root$T_LIBDIR/libbaretma.a" 2>&1)" '^msr_ops\.o$' \
	"libbaretma.a holds the library's objects (msr_ops.o)"

nm -D --defined-only "$so" | awk 'NF >= 3 { print $3 }' | sed 's/@.*//' | LC_ALL=C sort -u >"$tmp/exports"
is "$(grep -v '^baretma_' "$tmp/exports")" "" "libbaretma.so exports nothing but baretma_* (libbaretma.sym)"
missing=$(printf '%s\n' "$API" | LC_ALL=C comm -23 - "$tmp/exports" | tr '\n' ' ')
is "$missing" "" "libbaretma.so exports every function of <baretma.h>"

# Every symbol the library imports must come from a library it names
# (NEEDED): an import nothing defines is resolved from the host process at
# run time, so a host defining that name would run its code inside the
# library (a weak test hook such as msr_dev_test_check would turn regular
# files into MSR device nodes).
: >"$tmp/defined"
for lib in $(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
	path=$(ldd "$so" | awk -v l="$lib" '$1 == l && $2 == "=>" { print $3 }')
	[ -n "$path" ] && nm -D --defined-only "$path" | awk 'NF >= 3 { print $3 }' >>"$tmp/defined"
done
# ... or from the dynamic loader, which every process has (the ELF
# interpreter ldd lists by path: __tls_get_addr for the library's
# thread-local error buffers)
interp=$(ldd "$so" | awk '$1 ~ /^\/.*ld-linux/ { print $1 }')
[ -n "$interp" ] && nm -D --defined-only "$interp" | awk 'NF >= 3 { print $3 }' >>"$tmp/defined"
sed 's/@.*//' "$tmp/defined" | LC_ALL=C sort -u >"$tmp/defined.s"
nm -D --undefined-only "$so" | awk '{ print $NF }' | sed 's/@.*//' | LC_ALL=C sort -u >"$tmp/imports"
printf '%s\n' $CRT_WEAK | LC_ALL=C sort >"$tmp/crt"
stray=$(LC_ALL=C comm -23 "$tmp/imports" "$tmp/defined.s" | LC_ALL=C comm -23 - "$tmp/crt" | tr '\n' ' ')
is "$stray" "" "libbaretma.so imports only symbols its NEEDED libraries define (no hook a host could provide)"

# --- header, pkg-config ------------------------------------------------------------
cmp -s "$root$T_INCLUDEDIR/baretma.h" "$TOP/include/baretma.h"
ok $? "baretma.h installed in includedir as in include/"

pkgconf=${T_PKG_CONFIG:-pkg-config} # configure's
PKG_CONFIG_PATH=$root$T_PKGCONFIGDIR${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
# keep -I/usr/include, -L/usr/lib: the test compares the whole lines
PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1
export PKG_CONFIG_PATH PKG_CONFIG_ALLOW_SYSTEM_CFLAGS PKG_CONFIG_ALLOW_SYSTEM_LIBS
is "$($pkgconf --modversion baretma 2>&1)" "$VERSION" "pkg-config --modversion baretma"
out=$($pkgconf --libs baretma 2>&1)
is "$(echo $out)" "-L$T_LIBDIR -lbaretma" "pkg-config --libs baretma: -L<libdir> -lbaretma"
out=" $($pkgconf --cflags baretma 2>&1) "
like "$out" " -I$T_INCLUDEDIR " "pkg-config --cflags baretma: -I<includedir>"
out=" $(echo $($pkgconf --static --libs baretma 2>&1)) "
like "$out" " -lbaretma .* -lm " "pkg-config --static --libs: -lbaretma, then Libs.private -lm"
for l in cpuid hwloc jansson; do
	like "$out" " -l$l " "pkg-config --static --libs: -l$l (Requires.private)"
done

# A program built as README "Install" says: the flags of baretma.pc (under
# the DESTDIR as a pkg-config sysroot), linked against the shared library.
cat >"$tmp/use.c" <<'EOF'
#include <baretma.h>
#include <stdio.h>

int main(void)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;

	printf("%d %s %s %d\n", o.cpu, o.backend, o.region_method, BARETMA_API_VERSION);
	return 0;
}
EOF
flags=$(PKG_CONFIG_SYSROOT_DIR=$root $pkgconf --cflags --libs baretma)
# --no-as-needed: the program calls nothing of the library yet, and the
# point is that the link records the SONAME
$T_CC $T_SAN_CFLAGS -std=c99 -Wall -Wextra -Werror -o "$tmp/use" "$tmp/use.c" \
	-Wl,--no-as-needed $flags >"$tmp/cc.log" 2>&1
rc=$?
is "$rc" 0 "cc use.c \$(pkg-config --cflags --libs baretma) builds"
[ "$rc" -eq 0 ] || sed 's/^/#   /' "$tmp/cc.log"
needed=$(readelf -d "$tmp/use" 2>&1 | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
like " $needed" " $SONAME " "the program needs $SONAME (the SONAME, not the development link)"
out=$(LD_LIBRARY_PATH=$root$T_LIBDIR "$tmp/use" 2>&1)
is "$out" "-1 auto auto 2" "it runs, loading $SONAME (BARETMA_OPTIONS_INIT: cpu -1, backend auto, region_method auto; API 2: configure.ac)"

# --- examples/ ---------------------------------------------------------------------
# Every example builds against the header and library as installed, as
# doc/library.md says, and runs here: this machine times
# with the TSC; the dry run measures cpu 1 of the real Ice Lake dump through
# a state file and leaves it byte for byte as found.
EX=$TOP/examples
run_ex() { LD_LIBRARY_PATH=$root$T_LIBDIR "$@"; }
for ex in regions raw_pair; do
	$T_CC $T_SAN_CFLAGS -O2 -Wall -Wextra -Werror -o "$tmp/$ex" "$EX/$ex.c" $flags \
		>"$tmp/$ex.log" 2>&1; rc=$?
	is "$rc" 0 "examples/$ex.c builds with baretma.pc's flags"
	[ "$rc" -eq 0 ] || sed 's/^/#   /' "$tmp/$ex.log"
done
$T_CC $T_SAN_CFLAGS -O2 -Wall -Wextra -Werror -DBARETMA_PERFMON -o "$tmp/markers" \
	"$EX/markers.c" $flags >"$tmp/markers.log" 2>&1; rc=$?
is "$rc" 0 "examples/markers.c builds with -DBARETMA_PERFMON"
$T_CC $T_SAN_CFLAGS -O2 -Wall -Wextra -Werror -o "$tmp/markers-off" "$EX/markers.c" $flags \
	>"$tmp/markers-off.log" 2>&1; rc=$?
is "$rc" 0 "examples/markers.c builds without it (the markers compile to nothing)"
if [ -n "${T_CXX:-}" ] && command -v "${T_CXX%% *}" >/dev/null 2>&1; then
	$T_CXX $T_SAN_CFLAGS -O2 -Wall -Wextra -Werror -o "$tmp/regions_cxx" "$EX/regions_cxx.cpp" \
		$flags >"$tmp/cxx.log" 2>&1; rc=$?
	is "$rc" 0 "examples/regions_cxx.cpp builds with a C++ compiler"
	[ "$rc" -eq 0 ] || sed 's/^/#   /' "$tmp/cxx.log"
	out=$(run_ex "$tmp/regions_cxx" tsc 2>&1); rc=$?
	is "$rc:$(echo "$out" | head -1 | cut -d, -f1)" "0:fill: count 20" "regions_cxx tsc: 20 pairs of 'fill'"
else
	skip "no C++ compiler"; skip "no C++ compiler"
fi
out=$(run_ex "$tmp/regions" tsc 2>&1); rc=$?
is "$rc" 0 "regions tsc exits 0"
is "$(echo "$out" | sed -n 's/^\([a-z]*\) *count \([0-9]*\), [0-9]* TSC ticks (a TSC-only session.*/\1 \2/p' | tr '\n' ' ')" \
	"step 100 solve 100 update 100 " "regions tsc: 100 pairs of each region, TSC ticks, no Top-down"
out=$(run_ex "$tmp/raw_pair" 2>&1); rc=$?
is "$rc" 0 "raw_pair exits 0"
vendor=$(awk -F': ' '/^vendor_id/{print $2; exit}' /proc/cpuinfo)
if [ "$vendor" != GenuineIntel ]; then
	like "$out" "^raw_pair: no RDPMC here, nothing read: .*(not Intel|has the recipe amd-zen[45], which counts 6 events)" \
		"raw_pair on $vendor: says why it reads nothing"
else
	like "$out" "^raw_pair: " "raw_pair on an Intel CPU"
fi
out=$(BARETMA_BACKEND=tsc run_ex "$tmp/markers" 2>&1); rc=$?
is "$rc" 0 "markers (tsc) exits 0"
like "$out" "harmonic +50 +0 +[0-9]+" "markers: the table at close: 'harmonic', 50 pairs, none invalid, TSC ticks"
out=$(BARETMA_BACKEND=tsc BARETMA_OUTPUT=$tmp/m.json run_ex "$tmp/markers" 2>&1); rc=$?
if command -v python3 >/dev/null 2>&1; then
	is "$(pyq 'import json,sys; d=json.load(open(sys.argv[1])); r=d["regions"][0]; print(d["schema"], d["backend"], r["name"], r["count"], r["tsc_ticks"] > 0)' "$tmp/m.json")" \
		"baretma-markers/1 tsc harmonic 50 True" "markers: BARETMA_OUTPUT gets the JSON document"
else
	skip "python3 needed to read the JSON"
fi
if command -v python3 >/dev/null 2>&1; then
	# every key of the markers' JSON is named in doc/json.md as `key`
	undoc=$(python3 -S "$TOP/t/json-undocumented.py" "$TOP/doc/json.md" "$tmp/m.json")
	is "$undoc" "" "markers: every key of the JSON document is in doc/json.md"
else
	skip "python3 needed to read the JSON"
fi
# Under sudo, BARETMA_OUTPUT must name the invoking user's file (uid 4242
# here, whom no one is: the test's own file stands for root's /etc/sudoers).
printf 'root ALL=(ALL) ALL\n' >"$tmp/sudoers"
out=$(SUDO_USER=t-sudo-user SUDO_UID=4242 BARETMA_BACKEND=tsc BARETMA_OUTPUT=$tmp/sudoers \
	run_ex "$tmp/markers" 2>&1); rc=$?
like "$out" "baretma: markers: BARETMA_OUTPUT '$tmp/sudoers' is owned by another user than the invoking user: refused \(name a new file in a directory of uid 4242" \
	"markers under sudo: BARETMA_OUTPUT naming the caller's own file is refused, said"
is "$(cat "$tmp/sudoers")" "root ALL=(ALL) ALL" "  nothing appended to it"
# BARETMA_OUTPUT on a full file system: the lost regions are said
. "$T_SRC/full-fs.sh"
if full_fs_ok; then
	mkdir -p "$tmp/full"
	full_fs "$tmp/full" "$tmp/fullrun" env LD_LIBRARY_PATH="$root$T_LIBDIR" BARETMA_BACKEND=tsc \
		BARETMA_OUTPUT="$tmp/full/m.json" "$tmp/markers"
	like "$(cat "$tmp/fullrun.err")" "baretma: markers: BARETMA_OUTPUT '$tmp/full/m.json': cannot append the regions: No space left on device" \
		"markers: BARETMA_OUTPUT on a full file system: the lost regions are said, with the errno"
else
	skip "cannot mount a tmpfs in a mount namespace here (unshare -m: root or user namespaces needed)"
fi
out=$(BARETMA_BACKEND=tsc BARETMA_LEVEL=7 run_ex "$tmp/markers" 2>&1); rc=$?
is "$rc:$out" "0:baretma: markers: BARETMA_LEVEL '7': expected a whole number from 1 to 2; markers off
done: 9.787606" "markers: a bad BARETMA_LEVEL is named, the markers stay off, the program runs"
out=$(BARETMA_BACKEND=quantum run_ex "$tmp/markers" 2>&1); rc=$?
like "$rc:$out" "^0:baretma: markers off: baretma_open: backend 'quantum': expected auto, rdpmc" \
	"markers: a bad BARETMA_BACKEND is named, the markers stay off"
out=$(run_ex "$tmp/markers-off" 2>&1)
is "$out" "done: 9.787606" "markers built without BARETMA_PERFMON: no session, no table"
ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
if [ -r "$ICL" ]; then
	st=$tmp/state
	# (IA32_PMCx and IA32_A_PMCx too: the events Ice Lake's recipe counts)
	{ for e in 186 187 188 189 18a 18b 18c 18d c1 c2 c3 c4 c5 c6 c7 c8 \
		4c1 4c2 4c3 4c4 4c5 4c6 4c7 4c8; do echo "1 0x$e 0x0"; done
	  printf '1 0x30c 0x1001\n1 0x329 0x1f3a5c47\n1 0x345 0xf4c5\n1 0x38d 0x333\n1 0x38e 0x0\n'
	  printf '1 0x38f 0x70000000f\n1 0x390 0x0\n1 0x391 0x0\n1 0x392 0x0\n'; } >"$st"
	cp "$st" "$tmp/state.orig"
	mkdir -m 700 "$tmp/run"
	out=$(BARETMA_MSR=state:$st BARETMA_STATE_DIR=$tmp/run run_ex "$tmp/regions" msr 1 "$ICL" 2>&1); rc=$?
	is "$rc" 0 "regions msr 1 ICL (a dry run on the state file) exits 0"
	like "$out" "step    count 100, [0-9]+ TSC ticks, no Top-down: 100 of 100 pairs invalid" \
		"dry run: 100 pairs, each without slots (the state file does not count): no numbers"
	cmp -s "$st" "$tmp/state.orig"; ok $? "dry run: the state file byte for byte as found"
	is "$(ls "$tmp/run" | grep -c 'journal$')" 0 "dry run: no journal left"
else
	skip "no Ice Lake dump"; skip "no Ice Lake dump"; skip "no Ice Lake dump"; skip "no Ice Lake dump"
fi

# The C program (solve.c) the README's quick start shows ("A region in your
# code"), as written there:
# built with the pkg-config line it gives, run here (TSC only on a machine
# without a usable PMU, with a note saying why; Top-down on one with it).
sed -n '/^### A region in your code$/,/^##/p' "$TOP/README.md" |
	sed -n '/^```c$/,/^```$/p' | sed '1d;$d' >"$tmp/solve.c"
$T_CC $T_SAN_CFLAGS -O2 -Wall -Wextra -Werror -o "$tmp/solve" "$tmp/solve.c" $flags \
	>"$tmp/solve.log" 2>&1; rc=$?
is "$rc" 0 "README's solve.c builds with baretma.pc's flags"
[ "$rc" -eq 0 ] || sed 's/^/#   /' "$tmp/solve.log"
if [ "$vendor" != GenuineIntel ]; then
	out=$(run_ex "$tmp/solve" 2>"$tmp/solve.err"); rc=$?
	like "$rc:$out" "^0:solve: 100 pairs, [0-9]+ TSC ticks\$" \
		"README's solve.c on $vendor: 100 pairs, TSC ticks only"
	like "$(cat "$tmp/solve.err")" "^note: no Top-down \\(TSC only\\): (CPU vendor is $vendor|cpu [0-9]+ \\(Zen [45], .*has the recipe amd-zen[45])" \
		"... and a note saying why"
else
	# backend auto would program this machine's PMU (and put it back): a
	# test leaves the machine alone
	skip "an Intel CPU: solve.c would program this machine's PMU (built only)"
	skip "an Intel CPU: solve.c would program this machine's PMU (built only)"
fi

# --- man pages -------------------------------------------------------------------
m3=$root$T_MANDIR/man3/baretma.3
m1=$root$T_MANDIR/man1/baretma.1
like "$(head -20 "$m3")" '^\.TH BARETMA 3 ' "baretma.3 is section 3"
like "$(head -20 "$m1")" '^\.TH BARETMA 1 ' "baretma.1 is section 1"
undoc=
for f in $API; do grep -q "$f" "$m3" || undoc="$undoc $f"; done
is "$undoc" "" "baretma.3 documents every function of <baretma.h>"
undoc=
for v in BARETMA_CPU BARETMA_BACKEND BARETMA_LEVEL BARETMA_OUTPUT $(grep -o '\$BARETMA_[A-Z_]*' \
	"$TOP/include/baretma.h" | tr -d '$' | sort -u); do
	grep -q "^\.B $v\$" "$m3" || undoc="$undoc $v"
done
is "$undoc" "" "baretma.3 ENVIRONMENT lists the markers' variables"
bad=
for m in "$root$T_MANDIR"/man1/baretma-*.1; do
	c=${m##*/baretma-}; c=${c%.1}
	grep -qF ".TH BARETMA\\-$(echo "$c" | tr a-z A-Z) 1 " "$m" || bad="$bad ${m##*/}"
done
is "$bad" "" "each installed command page is its command's, section 1"
if command -v groff >/dev/null 2>&1; then
	for m in "$m1" "$m3"; do
		out=$(groff -man -ww -z "$m" 2>&1)
		is "$out" "" "groff -man -ww: ${m##*/} renders without a warning"
	done
else
	skip "groff not installed: man pages not rendered"
	skip "groff not installed: man pages not rendered"
fi
# The installed tool's `help stat` runs man -l on the installed page (a
# fake man records it); a DESTDIR copy is not where it was configured to
# be, and shows the page of the tree it was built from.
mkdir -p "$tmp/fakeman"
printf '#!/bin/sh\necho "$@"\n' >"$tmp/fakeman/man" && chmod +x "$tmp/fakeman/man"
out=$(PATH="$tmp/fakeman:$PATH" "$bin" help stat 2>&1)
if [ -z "$root" ]; then
	is "$out" "-l $T_MANDIR/man1/baretma-stat.1" "the installed tool's help stat: the installed page"
else
	like "$out" "^-l .*/man/baretma-stat\.1\$" "a DESTDIR copy's help stat: the page of its source tree"
fi

# --- bash completion -------------------------------------------------------------
# Where bash-completion loads it on demand (the name is the command's), and
# it completes the installed tool's commands (t/0951 checks the rest).
bc=$root$T_BASHCOMPLETIONDIR/baretma
if [ ! -r "$bc" ]; then
	ok 1 "the bash completion is installed as $T_BASHCOMPLETIONDIR/baretma"
elif ! command -v bash >/dev/null 2>&1; then
	skip "bash not installed: the installed completion not run"
else
	out=$(bash -c '. "$1"; COMP_WORDS=("$2" ver); COMP_CWORD=1; _baretma; echo "${COMPREPLY[*]}"' \
		bash "$bc" "$bin" 2>&1)
	is "$out" "version" "the installed completion completes 'baretma ver' with the installed tool"
fi

# --- uninstall ---------------------------------------------------------------------
if [ -z "${T_INSTALLCHECK:-}" ]; then
	(cd "$T_BUILDDIR" && MAKEFLAGS= MFLAGS= $T_MAKE uninstall DESTDIR="$root") \
		>"$tmp/uninstall.log" 2>&1; rc=$?
	is "$rc" 0 "make uninstall DESTDIR=... exits 0"
	is "$(cd "$root" && find . ! -type d)" "" "make uninstall removes every installed file"
fi
done_testing
