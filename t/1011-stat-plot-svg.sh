#!/bin/sh
# t/1011-stat-plot-svg.sh - `baretma stat -a -I MS --count 3 --plot FILE.svg`
# exits 0 with nothing on standard error, and the SVG is the 1000 x 600
# timeline.  Under the sanitizer build (./configure --enable-sanitizers,
# as CI runs the suite) LeakSanitizer fails a process that leaks (exit 1,
# its report on standard error): before, the timeline's grid was drawn into
# a cairo group painted with alpha 0.9 over the areas, and cairo 1.16's SVG
# surface leaks the 472-byte snapshot of a recording surface painted into
# it (a 20-line cairo program that only paints a group into an SVG surface
# leaks the same); the grid is now stroked with that alpha directly
# (bench/output/plot.c plot_grid).  PNG and PDF never leaked (t/0904 draws
# a PNG).
. "$T_SRC/tap.sh"
pyq_start

[ "${T_HAVE_CAIRO:-}" = yes ] || skip_all "built without cairo: no --plot"
command -v python3 >/dev/null 2>&1 || skip_all "python3 needed to read the SVG"
ICL=$SHARED_CPUID/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test
[ -r "$ICL" ] || skip_all "no Ice Lake dump ($ICL)"

# t/0904's profile: level-1 shares 40/10/20/30
printf 'ghz 1\naccess_cycles 0\nretiring 40\nbad_speculation 10\nfrontend_bound 20
backend_bound 30\n' >"$tmp/profile"
mkdir -p "$tmp/run"
BARETMA_MSR=sim:$tmp/profile BARETMA_STATE_DIR=$tmp/run BARETMA_CPUID_DUMP=$ICL
export BARETMA_MSR BARETMA_STATE_DIR BARETMA_CPUID_DUMP
unset BARETMA_MSR_TRACE BARETMA_PERF

for ms in 100 10; do
	rm -f "$tmp/x.svg"
	"$BARETMA" stat -a -I "$ms" --count 3 --plot "$tmp/x.svg" >"$tmp/out" 2>"$tmp/err"
	is "$?" 0 "stat -a -I $ms --count 3 --plot x.svg exits 0"
	is "$(grep -v '^baretma: note: a dry run' "$tmp/err")" "" "nothing on standard error (no leak report)"
	is "$(pyq - "$tmp/x.svg" <<'EOP'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
print(root.tag.split('}')[-1], float(root.get('width').rstrip('px')),
      float(root.get('height').rstrip('px')))
EOP
)" "svg 1000.0 600.0" "the SVG parses: an svg root of 1000 x 600"
done
done_testing
