#!/bin/sh
# t/0530-layers.sh - the layers and rooms of README "Layout" have no arrow
# back up.  From the bottom: cpu/ (identification), msr/ (registers,
# journals, Top-down math and recipes), then bench/'s rooms:
#   bench/source/   the counter sources
#   bench/          the harness (session, regions, kernels, the run)
#   bench/study/    compare, validate, calibrate, the bundle
#   bench/output/   the writers
#   bench/lib/      the public library and its markers
#   bench/cli/      the command line (main, cli_*, cmd_*)
# A file may include its own room and any room below it, never one above;
# bench/benchmarks/ (programs of `make benchmark`) anything but the command
# line; the installed <baretma.h> only the C library's headers.  The check
# reads the sources' #include lines; a control tree with one arrow of each
# kind shows that it finds them.
. "$T_SRC/tap.sh"

src=$T_SRC/..
[ -d "$src/cpu" ] && [ -d "$src/msr" ] && [ -d "$src/bench" ] || skip_all "no sources beside t/"

# rank DIR: the room's height (a header's directory, relative to the tree)
rank() {
	case $1 in
	cpu) echo 0 ;; msr) echo 1 ;; bench/source) echo 2 ;; bench) echo 3 ;;
	bench/study) echo 4 ;; bench/output) echo 5 ;; bench/lib) echo 6 ;;
	bench/cli) echo 7 ;; bench/benchmarks) echo 6 ;; *) echo 99 ;;
	esac
}

# arrows ROOT: one "file -> header" line per include that points up, and
# one "file: unknown room" line for a source outside every room
arrows() {
	(cd "$1" && find cpu msr bench -name '*.[ch]' | sort) | while read -r f; do
		d=${f%/*}
		r=$(rank "$d")
		[ "$r" = 99 ] && { echo "$f: not in a room of README Layout"; continue; }
		grep '^#[[:space:]]*include[[:space:]]*"\(cpu\|msr\|bench\)/' "$1/$f" |
			sed 's/^#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/' |
			while read -r h; do
				hr=$(rank "${h%/*}")
				[ "$hr" -le "$r" ] || echo "$f -> $h"
			done
	done
	grep -H '^#[[:space:]]*include' "$1"/include/baretma.h |
		grep -v '<\(stdbool\|stdint\|stddef\)\.h>' | sed "s|^$1/||"
} 2>/dev/null

out=$(arrows "$src")
is "$out" "" "no include points up a layer or a room (cpu < msr < source < harness < study < output < lib < cli)"
for room in cpu msr bench/source bench bench/study bench/output bench/lib bench/cli; do
	n=$(ls "$src/$room"/*.[ch] 2>/dev/null | wc -l)
	ok "$([ "$n" -gt 0 ]; echo $?)" "the check read $room/ ($n files)"
done

# control: one arrow of each kind is found
c=$tmp/ctl
mkdir -p "$c/cpu" "$c/msr" "$c/bench/source" "$c/bench/study" "$c/bench/output" \
	"$c/bench/lib" "$c/bench/cli" "$c/bench/benchmarks" "$c/bench/misc" "$c/include"
printf '#include "msr/msr.h"\n' >"$c/cpu/a.c"
printf '#include "bench/bench.h"\n' >"$c/msr/b.c"
printf '#include "bench/session.h"\n' >"$c/bench/source/c.c"
printf '#include "bench/study/compare.h"\n' >"$c/bench/d.c"
printf '#include "bench/output/output.h"\n' >"$c/bench/study/e.c"
printf '#include "bench/lib/api.h"\n' >"$c/bench/output/f.c"
printf '#include "bench/cli/cli.h"\n' >"$c/bench/lib/g.c"
printf '#include "bench/cli/cli.h"\n' >"$c/bench/benchmarks/h.c"
printf '#include "bench/bench.h"\n' >"$c/bench/misc/i.c"
printf '#include "bench/study/compare.h"\n#include "msr/msr.h"\n' >"$c/bench/cli/ok.c"
printf '#include <stdint.h>\n#include "cpu/cpu.h"\n' >"$c/include/baretma.h"
out=$(arrows "$c" | tr '\n' ' ')
is "$out" 'bench/benchmarks/h.c -> bench/cli/cli.h bench/d.c -> bench/study/compare.h bench/lib/g.c -> bench/cli/cli.h bench/misc/i.c: not in a room of README Layout bench/output/f.c -> bench/lib/api.h bench/source/c.c -> bench/session.h bench/study/e.c -> bench/output/output.h cpu/a.c -> msr/msr.h msr/b.c -> bench/bench.h include/baretma.h:#include "cpu/cpu.h" ' \
	"control: each kind of arrow is found, and a file outside the rooms (the command line may include any room)"
done_testing
