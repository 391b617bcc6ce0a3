#!/bin/sh
# t/1091-formats-one-path.sh - one path per format: the table of
# bench/output/formats.c and the formats' own files (bench/output/fmt_*.c)
# are the only code that knows a format by its name, its option or its
# identity (bench/output/output.h: every command writes through
# output_write or output_stream_*, the format's hooks deciding).  Nowhere
# else in the sources (cpu/, msr/, bench/, include/, examples/) does a
# string comparison take a format's name or option ("csv", "json", ...:
# read from the fmt_*.c files, so a new format is covered), a format's
# ->name (fmt->name, cli_output_format(...)->name) or an ->option (only a
# format has one), and no code compares a format's address
# (fmt == &output_format_sv).  Before, `stat -I` chose its writer with
# strcmp(fmt->name, "json") and the like in six places.  A control tree
# with one of each kind shows that the check finds them.
. "$T_SRC/tap.sh"

src=$T_SRC/..
[ -d "$src/bench/output" ] || skip_all "no sources beside t/"

# the names and options the table's files give their formats
names=$(grep -ho '\.\(name\|option\) = "[^"]*"' "$src"/bench/output/fmt_*.c |
	sed 's/^[^"]*"//; s/"$//' | sort -u)
is "$(echo "$names" | tr '\n' ' ')" \
	"csv field-separator json openmetrics separated values text " \
	"the formats' names and options, read from bench/output/fmt_*.c"

# offenders ROOT: "file:line: text" of each place outside the table that
# names a format
# offenders ROOT: "FILE:LINE:text" of each line that names a format; one
# grep per pattern over every file (xargs), not one per file and name
offenders() {
	alt=$(echo "$names" | sed 's/[].[\\*^$]/\\&/g' | paste -sd'|' -)
	(cd "$1" && find cpu msr bench include examples -name '*.[ch]' 2>/dev/null |
		grep -v -e '^bench/output/formats\.c$' -e '^bench/output/fmt_[^/]*\.c$' |
		LC_ALL=C sort >"$tmp/files"
		[ -s "$tmp/files" ] || exit 0
		xargs grep -nHE "cmp *\([^;]*\"($alt)\"" <"$tmp/files"
		xargs grep -nHE 'cmp *\([^;]*((fmt|format[a-z_]*(\([^)]*\))?)->name|->option)' <"$tmp/files"
		xargs grep -nHE '[!=]= *&output_format_|&output_format_[a-z_]+ *[!=]=' <"$tmp/files"
	) | sort -u
}

out=$(offenders "$src")
is "$out" "" "no format named outside the table of formats (strcmp of a name or option, ->name, ==)"

# control: each kind of naming is found, the table's own files are not
c=$tmp/ctl
mkdir -p "$c/bench/output" "$c/bench/cli" "$c/msr"
cp "$src"/bench/output/fmt_*.c "$src/bench/output/formats.c" "$c/bench/output/"
printf 'if (fmt && !strcmp(fmt->name, "json"))\n' >"$c/bench/output/output_x.c"
printf 'if (!strcmp(cli_output_format(&sc->out)->name, "csv") ||\n' >"$c/bench/cli/cmd_x.c"
printf '\tcli_output_format(&sc->out) == &output_format_sv)\n' >>"$c/bench/cli/cmd_x.c"
printf 'ok = !strncmp(f->option, p, n);\n' >"$c/msr/y.c"
printf 'bool t = !strcmp(s, "separated values");\n' >>"$c/msr/y.c"
is "$(offenders "$c" | sed 's/:.*//' | sort | uniq -c | tr -s ' ' | tr '\n' ';')" \
	" 2 bench/cli/cmd_x.c; 1 bench/output/output_x.c; 2 msr/y.c;" \
	"control: a name, a ->name, an address and an ->option are found, the table's files pass"
done_testing
