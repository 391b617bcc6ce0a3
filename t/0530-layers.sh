#!/bin/sh
# t/0530-layers.sh - the layers of README "Layout" have no arrow back up
# (issue 10): cpu/ includes nothing from msr/ or bench/; msr/ nothing from
# bench/; bench/'s library part (everything but main.c, cli*.c, cmd_*.c)
# nothing of the command line (bench/cli.h, cli_run.h, cmd_pmu.h); the
# installed <baretma.h> only the C library's headers.  The check reads the
# sources' #include lines; a control tree with one arrow of each kind shows
# that it finds them.
. "$T_SRC/tap.sh"

src=$T_SRC/..
[ -d "$src/cpu" ] && [ -d "$src/msr" ] && [ -d "$src/bench" ] || skip_all "no sources beside t/"

# arrows ROOT: one "file -> header" line per include that points up
arrows() {
	for f in "$1"/cpu/*.[ch]; do
		grep -H '^#[[:space:]]*include[[:space:]]*"\(msr\|bench\)/' "$f"
	done
	for f in "$1"/msr/*.[ch]; do
		grep -H '^#[[:space:]]*include[[:space:]]*"bench/' "$f"
	done
	for f in "$1"/bench/*.[ch]; do
		case ${f##*/} in main.c|cli*|cmd_*) continue ;; esac
		grep -H '^#[[:space:]]*include[[:space:]]*"bench/\(cli\|cli_run\|cmd_[a-z_]*\)\.h"' "$f"
	done
	grep -H '^#[[:space:]]*include' "$1"/include/baretma.h |
		grep -v '<\(stdbool\|stdint\|stddef\)\.h>'
} 2>/dev/null

out=$(arrows "$src" | sed "s|^$src/||")
is "$out" "" "no include points up a layer (cpu < msr < bench library < command line)"
ncpu=$(ls "$src"/cpu/*.[ch] | wc -l)
ok "$([ "$ncpu" -gt 10 ]; echo $?)" "the check read cpu/ ($ncpu files)"

# control: one arrow of each kind is found
c=$tmp/ctl
mkdir -p "$c/cpu" "$c/msr" "$c/bench" "$c/include"
printf '#include "msr/msr.h"\n' >"$c/cpu/a.c"
printf '#include "bench/bench.h"\n' >"$c/msr/b.c"
printf '#include "bench/cli.h"\n' >"$c/bench/session.c"
printf '#include "bench/cli.h"\n' >"$c/bench/cmd_x.c"
printf '#include <stdint.h>\n#include "cpu/cpu.h"\n' >"$c/include/baretma.h"
out=$(arrows "$c" | sed "s|^$c/||" | tr '\n' ' ')
is "$out" 'cpu/a.c:#include "msr/msr.h" msr/b.c:#include "bench/bench.h" bench/session.c:#include "bench/cli.h" include/baretma.h:#include "cpu/cpu.h" ' \
	"control: each kind of arrow is found (a cmd_ file may include the command line)"
done_testing
