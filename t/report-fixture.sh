# t/report-fixture.sh - what the tests of `baretma report` (t/1172-t/1175)
# share, sourced after t/sim-fixture.sh:
#   REPORT_PROFILE  a steady simulated PMU's profile (doc/simulator.md: a
#                   1 GHz core, 2,000-cycle accesses, level-1 shares 30,
#                   10, 20 and 40 % of the slots), one line a key, for a
#                   test to write or extend with printf
#   report_calibration OUT  writes $tmp/p (that profile) and into OUT the
#                   JSON of `calibrate --backend tsc` on the Sapphire
#                   Rapids dump $SPR: a real calibration a test makes
#                   hosts of
REPORT_PROFILE='ghz 1\naccess_cycles 2000\nretiring 30\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 40\n'

report_calibration() {
	printf "$REPORT_PROFILE" >"$tmp/p"
	BARETMA_MSR=sim:$tmp/p "$BARETMA" calibrate --cpuid-dump "$SPR" --reps 21 --backend tsc \
		--json >"$1" 2>/dev/null
}
