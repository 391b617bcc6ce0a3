#!/bin/sh
# t/0530-layers.sh - the layers and rooms of HACKING.md "Layout" have no arrow
# back up.  From the bottom: cpu/ (identification), then msr/'s rooms:
#   msr/regs/       the register names, the write policy, RDPMC
#   msr/recipe/     the Top-down recipes, their evaluator, PERF_METRICS decoding
#   msr/access/     the MSR ops table, the device and state-file backends
#   msr/sim/        the simulated PMU, and the table of backends (it names
#                   the simulator, so it stands above it)
#   msr/journal/    the state directory, journals, the journal's signal guard
#   msr/pmu/        PMU programming and ownership (journals before it writes)
#   msr/guard/      the guarded run: locks, settings, the sequence
# then bench/'s rooms:
#   bench/source/   the counter sources
#   bench/          the harness (session, regions, kernels, the run)
#   bench/study/    compare, validate, calibrate, the bundle
#   bench/output/   the writers
#   bench/lib/      the public library and its markers
#   bench/cli/      the command line (main, cli_*, cmd_*)
# A file may include its own room and any room below it, never one above;
# bench/benchmarks/ (programs of `make benchmark`) anything but the command
# line; the installed <baretma.h> only the C library's headers.  A file in
# msr/ or bench/ outside these rooms, or an include by "../", is reported
# too.  The check reads the sources' #include lines; a control tree with
# one arrow of each kind shows that it finds them.
. "$T_SRC/tap.sh"

src=$T_SRC/..
[ -d "$src/cpu" ] && [ -d "$src/msr" ] && [ -d "$src/bench" ] || skip_all "no sources beside t/"

# the rooms from the bottom up, in HACKING.md Layout's order
ROOMS="cpu msr/regs msr/recipe msr/access msr/sim msr/journal msr/pmu msr/guard
	bench/source bench bench/study bench/output bench/lib bench/cli"

# rank DIR: the room's height (a header's directory, relative to the tree);
# bench/benchmarks/ stands with bench/lib/, below the command line
rank() {
	[ "$1" = bench/benchmarks ] && set -- bench/lib
	i=0
	for r in $ROOMS; do
		[ "$r" = "$1" ] && { echo "$i"; return; }
		i=$((i + 1))
	done
	echo 99
}

# arrows ROOT: one "file -> header" line per include that points up, and
# one "file: unknown room" line for a source outside every room
arrows() {
	(cd "$1" && find cpu msr bench -name '*.[ch]' | sort) | while read -r f; do
		d=${f%/*}
		r=$(rank "$d")
		[ "$r" = 99 ] && { echo "$f: not in a room of HACKING.md Layout"; continue; }
		grep -H '^#[[:space:]]*include[[:space:]]*"\.\./' "$1/$f" | sed "s|^$1/||"
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
is "$out" "" "no include points up a layer or a room ($(echo $ROOMS | sed 's/ / < /g'))"
for room in $ROOMS; do
	n=$(ls "$src/$room"/*.[ch] 2>/dev/null | wc -l)
	ok "$([ "$n" -gt 0 ]; echo $?)" "the check read $room/ ($n files)"
done

# control: one arrow of each kind is found
c=$tmp/ctl
for room in $ROOMS bench/benchmarks bench/misc include; do mkdir -p "$c/$room"; done
printf '#include "msr/access/msr.h"\n' >"$c/cpu/a.c"
printf '#include "msr/recipe/recipe.h"\n' >"$c/msr/regs/r.c"
printf '#include "msr/access/msr.h"\n' >"$c/msr/recipe/s.c"
printf '#include "msr/sim/msr_sim.h"\n' >"$c/msr/access/t.c"
printf '#include "msr/journal/journal.h"\n' >"$c/msr/sim/u.c"
printf '#include "msr/pmu/pmu.h"\n' >"$c/msr/journal/v.c"
printf '#include "msr/guard/guard.h"\n' >"$c/msr/pmu/w.c"
printf '#include "bench/source/avail.h"\n#include "../pmu/pmu.h"\n' >"$c/msr/guard/x.c"
printf '#include "msr/regs/intel_regs.h"\n' >"$c/msr/y.c"
printf '#include "bench/session.h"\n' >"$c/bench/source/c.c"
printf '#include "bench/study/compare.h"\n' >"$c/bench/d.c"
printf '#include "bench/output/output.h"\n' >"$c/bench/study/e.c"
printf '#include "bench/lib/api.h"\n' >"$c/bench/output/f.c"
printf '#include "bench/cli/cli.h"\n' >"$c/bench/lib/g.c"
printf '#include "bench/cli/cli.h"\n' >"$c/bench/benchmarks/h.c"
printf '#include "bench/bench.h"\n' >"$c/bench/misc/i.c"
printf '#include "msr/pmu/pmu.h"\n#include "msr/journal/journal.h"\n#include "msr/sim/msr_sim.h"\n#include "msr/access/msr.h"\n#include "msr/recipe/recipe.h"\n#include "msr/regs/msr_names.h"\n#include "cpu/cpu.h"\n#include "guard_int.h"\n' >"$c/msr/guard/ok.c"
printf '#include "bench/study/compare.h"\n#include "msr/guard/guard.h"\n' >"$c/bench/cli/ok.c"
printf '#include <stdint.h>\n#include "cpu/cpu.h"\n' >"$c/include/baretma.h"
out=$(arrows "$c")
is "$out" 'bench/benchmarks/h.c -> bench/cli/cli.h
bench/d.c -> bench/study/compare.h
bench/lib/g.c -> bench/cli/cli.h
bench/misc/i.c: not in a room of HACKING.md Layout
bench/output/f.c -> bench/lib/api.h
bench/source/c.c -> bench/session.h
bench/study/e.c -> bench/output/output.h
cpu/a.c -> msr/access/msr.h
msr/access/t.c -> msr/sim/msr_sim.h
msr/guard/x.c:#include "../pmu/pmu.h"
msr/guard/x.c -> bench/source/avail.h
msr/journal/v.c -> msr/pmu/pmu.h
msr/pmu/w.c -> msr/guard/guard.h
msr/recipe/s.c -> msr/access/msr.h
msr/regs/r.c -> msr/recipe/recipe.h
msr/sim/u.c -> msr/journal/journal.h
msr/y.c: not in a room of HACKING.md Layout
include/baretma.h:#include "cpu/cpu.h"' \
	"control: each kind of arrow is found, an include by ../ and a file outside the rooms (a room may include itself and every room below it; the command line any room)"
done_testing
