#!/bin/sh
# t/1080-layers-calls.sh - no call points up a room either.  t/0530 reads
# the #include lines; a header of a low room can still declare a function
# that a higher room defines (bench/source/avail.h's bench_avail_setf was
# bench/avail.c's), and then the low room calls up without including up.
# Here the built objects of cpu/, msr/ and bench/ say it: each global
# symbol an object uses (nm's U) is defined by an object of its own room
# or of one below (HACKING.md "Layout"'s order, as t/0530 declares it).
# None is allowed: the one there was, msr_open()'s look-up in the table of
# MSR backends (msr/access/msr_ops.c calling msr_backend_of of msr/sim/
# msr_backends.c, the table naming the simulator above access/), went with
# issue 29: opening by a spec is now a room of its own, msr/open/, above
# both, and access/ gives it the handle of one entry (msr_dev_open).
# A control tree built here with one call up of each kind shows that the
# check finds them, and that a call within a room or down is not one.
. "$T_SRC/tap.sh"

b=${T_BUILDDIR:-}
[ -n "$b" ] && [ -d "$b/msr" ] || skip_all "no build tree (T_BUILDDIR)"
command -v nm >/dev/null 2>&1 || skip_all "no nm"

ROOMS="cpu msr/regs msr/recipe msr/access msr/sim msr/open msr/journal msr/pmu msr/guard
	bench/source bench bench/study bench/output bench/lib bench/cli"

# symbols ROOT: "D|U rank object symbol" for each global symbol of each
# object under cpu/, msr/, bench/ (libtool's .libs/ copies as their room's;
# bench/benchmarks/ stands with bench/lib/): one nm over every object.
symbols() {
	(cd "$1" && find cpu msr bench -name '*.o' | LC_ALL=C sort | xargs nm -A) |
	awk -v rooms="$ROOMS" '
		BEGIN {
			n = split(rooms, R, /[ \t\n]+/); k = 0
			for (i = 1; i <= n; i++) if (R[i] != "") rk[R[i]] = k++
		}
		{
			o = $1; sub(/:[0-9a-fA-F]*$/, "", o)
			d = o; sub(/\/[^\/]*$/, "", d); sub(/\/\.libs$/, "", d)
			b = o; sub(/^.*\//, "", b)
			r = (d == "bench/benchmarks") ? rk["bench/lib"] : ((d in rk) ? rk[d] : 99)
			if ($2 == "U") print "U", r, d "/" b, $3
			else if ($2 ~ /^[TDRBCV]$/) print "D", r, d "/" b, $3
		}'
}

# calls_up ROOT: "object -> object: symbol" for each use of a symbol that
# only a higher room defines
calls_up() {
	symbols "$1" | awk '
		$1 == "D" { if (!($4 in low) || $2 < low[$4]) { low[$4] = $2; at[$4] = $3 }; next }
		{ use[++n] = $0 }
		END {
			for (i = 1; i <= n; i++) {
				split(use[i], a, " ")
				if ((a[4] in low) && low[a[4]] > a[2])
					print a[3] " -> " at[a[4]] ": " a[4]
			}
		}' | sort -u
}

n=$(cd "$b" && find cpu msr bench -name '*.o' | wc -l)
ok "$([ "$n" -gt 100 ]; echo $?)" "the check read the built objects of cpu/, msr/, bench/ ($n)"
is "$(calls_up "$b")" "" "no call points up a room"

# control: one call up out of msr/ and of a room of bench/, a call down,
# a call within a room, one from bench/benchmarks/ to the command line
cc=${T_CC:-cc}
command -v "${cc%% *}" >/dev/null 2>&1 || { skip "no C compiler '$cc'"; done_testing; exit; }
c=$tmp/ctl
for d in cpu msr/regs msr/guard bench/source bench bench/cli bench/benchmarks; do mkdir -p "$c/$d"; done
obj() { printf '%s\n' "$2" >"$c/$1.c" && $cc -c -o "$c/$1.o" "$c/$1.c"; }
obj cpu/a 'int cpu_a(void) { return 1; }'
obj msr/regs/r 'int guard_g(void); int regs_r(void) { return guard_g(); }'
obj msr/guard/g 'int cpu_a(void); int guard_h(void); int guard_g(void) { return cpu_a() + guard_h(); }'
obj msr/guard/h 'int guard_g(void); int guard_h(void) { return guard_g() > 0; }'
obj bench/source/s 'int harness_x(void); int source_s(void) { return harness_x(); }'
obj bench/x 'int source_s(void); int harness_x(void) { return 0; } int harness_y(void) { return source_s(); }'
obj bench/cli/m 'int cli_m(void) { return 0; }'
obj bench/benchmarks/k 'int cli_m(void); int main(void) { return cli_m(); }'
is "$(calls_up "$c")" "bench/benchmarks/k.o -> bench/cli/m.o: cli_m
bench/source/s.o -> bench/x.o: harness_x
msr/regs/r.o -> msr/guard/g.o: guard_g" \
	"control: each call up is found; down and within a room are not"
done_testing
