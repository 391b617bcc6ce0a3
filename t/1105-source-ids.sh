#!/bin/sh
# t/1105-source-ids.sh - no layer above the counter sources tests which
# source it has (issue 29, "Sources that own their capabilities"): a
# source's capabilities are fields of its ops (bench/source/source.h), and
# the harness, the studies, the writers, the library and the command line
# ask them (bench/source/avail.h bench_backend_raw, _perf_event,
# _timing_only, _rdpmc, _how, _cost, _other) instead of naming sources in
# tests, so that a new source changes nothing above bench/source/.
# Outside bench/source/, no C file of bench/, include/ or examples/
#   - compares a BENCH_BACKEND_* constant (==, !=, case) or switches on a
#     backend;
#   - compares a backend id held in a name with "backend" in it
#     (o->backend, res->perf_backend, calib_backend_at(i)) with anything;
#   - in a file that holds backend ids named "id" (one that names
#     bench_backend_id or calib_backend: calibrate's b->id), compares an id;
#   - compares a string with a source's name (strcmp(arg, "perf"): the
#     names are the .name of bench/source/source_*.c's ops).
# Choosing a source is not testing one (a default: .backend =
# BENCH_BACKEND_TSC).  A control tree with one test of each kind shows
# that the check finds them.
. "$T_SRC/tap.sh"

src=$T_SRC/..
[ -d "$src/bench/source" ] || skip_all "no sources beside t/"

# tests ROOT: one "file:line:text" per test of a source's id or name
tests() {
	names=$(sed -n 's/^[[:space:]]*\.name = "\([^"]*\)",.*/\1/p' \
		"$1"/bench/source/source_*.c | sort -u | tr '\n' '|' | sed 's/|$//')
	(cd "$1" && find bench include examples -name '*.[ch]' ! -path 'bench/source/*' |
		sort) | while read -r f; do
		{ sed 's|//.*||' "$1/$f" | grep -nE \
			-e '[!=]=[[:space:]]*\(?[[:space:]]*BENCH_BACKEND_' \
			-e 'BENCH_BACKEND_[A-Z_]+[[:space:]]*[!=]=' \
			-e 'case[[:space:]]+\(?[[:space:]]*BENCH_BACKEND_' \
			-e 'switch[[:space:]]*\([^)]*backend' \
			-e '[A-Za-z0-9_]*backend(_id|_at|_other)?(\([^()]*\)|\[[^]]*\])?[[:space:]]*[!=]=' \
			-e '[!=]=[[:space:]]*[A-Za-z0-9_.>-]*backend' \
			-e "str(n)?(case)?cmp[[:space:]]*\\([^;]*\"($names)\""
		grep -q 'bench_backend_id\|calib_backend' "$1/$f" &&
			sed 's|//.*||' "$1/$f" | grep -nE \
				-e '(->|\.)id[[:space:]]*[!=]=|[!=]=[[:space:]]*[A-Za-z0-9_.>-]*(->|\.)id([^A-Za-z0-9_]|$)' \
				-e '(^|[^A-Za-z0-9_>.])id[[:space:]]*[!=]=|[!=]=[[:space:]]*id([^A-Za-z0-9_]|$)'
		} | sort -t: -k1,1n -u | sed "s|^|$f:|"
	done
}

names=$(sed -n 's/^[[:space:]]*\.name = "\([^"]*\)",.*/\1/p' "$src"/bench/source/source_*.c |
	sort -u | tr '\n' ' ')
is "$names" "msr perf perf-rdpmc rdpmc tsc " "the sources' names, read off their ops"
n=$( (cd "$src" && find bench include examples -name '*.[ch]' ! -path 'bench/source/*') | wc -l)
ok "$([ "$n" -gt 100 ]; echo $?)" "the check reads the files above bench/source/ ($n)"
is "$(tests "$src")" "" "no test of a backend id or a source's name outside bench/source/"

# control: one test of each kind is found, a choice and bench/source/ are not
c=$tmp/ctl
mkdir -p "$c/bench/source" "$c/bench/study" "$c/bench/cli" "$c/include" "$c/examples"
printf '\t.name = "perf",\n' >"$c/bench/source/source_perf.c"
printf '\t.name = "msr",\n\tif (id == BENCH_BACKEND_MSR)\n' >"$c/bench/source/source_msr.c"
printf 'if (res->backend == BENCH_BACKEND_MSR)\n' >"$c/bench/a.c"
printf 'x = BENCH_BACKEND_TSC != o->want;\n' >"$c/bench/b.c"
printf 'switch (o->backend) {\n' >"$c/bench/study/c.c"
printf '\tcase BENCH_BACKEND_PERF:\n' >"$c/bench/study/d.c"
printf 'raw = backend == res->raw_backend;\n' >"$c/bench/study/e.c"
printf 'if (calib_backend_at(i) != x)\n' >"$c/bench/cli/f.c"
printf 'struct calib_backend *b;\nbool td = b->id != t;\n' >"$c/bench/cli/g.c"
printf 'if (!strcmp(c->arg, "perf"))\n' >"$c/bench/cli/h.c"
printf 'enum bench_backend_id id;\nwhile (order[i] != id)\n' >"$c/include/i.h"
printf 'if (k->id == 3 && strcmp(s, "auto") == 0)\n.backend = BENCH_BACKEND_TSC,\n' >"$c/examples/ok.c"
printf 'if (bench_backend_parse(s, &id) == 0 && bench_backend_raw(id))\n' >"$c/bench/ok.c"
is "$(tests "$c")" 'bench/a.c:1:if (res->backend == BENCH_BACKEND_MSR)
bench/b.c:1:x = BENCH_BACKEND_TSC != o->want;
bench/cli/f.c:1:if (calib_backend_at(i) != x)
bench/cli/g.c:2:bool td = b->id != t;
bench/cli/h.c:1:if (!strcmp(c->arg, "perf"))
bench/study/c.c:1:switch (o->backend) {
bench/study/d.c:1:	case BENCH_BACKEND_PERF:
bench/study/e.c:1:raw = backend == res->raw_backend;
include/i.h:2:while (order[i] != id)' \
	"control: each kind of test is found; a choice, a parse's status, another id, bench/source/ are not"
done_testing
