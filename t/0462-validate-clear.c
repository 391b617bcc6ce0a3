/*
 * t/0462-validate-clear.c - rdpmc_metrics_clear's verdict
 * (bench/study/validate.h validate_clear_verdict), from what the metrics-clear
 * mode is documented to do: "clear the PERF_METRICS-related resources as
 * well as the fixed-function performance monitoring counter 3 after the
 * read is performed" (linux commit 0e45818ec189), so the RDPMC of
 * PERF_METRICS returns the value before the clear and both count again
 * from 0 - PERF_METRICS is not 0 a moment later.  The RDPMC checks run on
 * Lion Cove hardware only; the verdict is checked here on readings worked
 * by hand:
 *   a region of 20000 dependent ADDs on an 8-wide core counts at least
 *   160000 slots; FC3 read right after the clear counts the RDPMC's own
 *   few tens of cycles: 400 slots (0.25 %) passes, 16000 (10 %) passes,
 *   16001 fails (above 10 %), 170000 (not cleared: larger than before)
 *   fails; a read of 0 before, or a PERF_METRICS read of 0, fails.
 */
#include <stdint.h>

#include "bench/study/validate.h"
#include "t/tap.h"

int main(void)
{
	const char *why;

	check_int(validate_clear_verdict(160000, 0x1f3a5c47, 400, &why), ==, VALIDATE_PASS,
		  "FC3 cleared: 400 slots after 160000 (0.25 %)");
	check_str(why, "", "no reason on PASS");
	check_int(validate_clear_verdict(160000, 0x1f3a5c47, 16000, &why), ==, VALIDATE_PASS,
		  "10 % exactly passes");
	check_int(validate_clear_verdict(160000, 0x1f3a5c47, 16001, &why), ==, VALIDATE_FAIL,
		  "above 10 % fails");
	check_str(why, "fixed counter 3 not cleared by the RDPMC of PERF_METRICS", "and says so");
	check_int(validate_clear_verdict(160000, 0x1f3a5c47, 170000, &why), ==, VALIDATE_FAIL,
		  "not cleared (FC3 went on counting) fails");
	check_int(validate_clear_verdict(160000, 0, 400, &why), ==, VALIDATE_FAIL,
		  "PERF_METRICS read 0: the read returns the value before the clear");
	check_str(why, "the RDPMC of PERF_METRICS returned 0: it returns the value before the clear",
		  "and says so");
	check_int(validate_clear_verdict(0, 0x1f3a5c47, 0, &why), ==, VALIDATE_FAIL,
		  "FC3 read 0 before: nothing to compare");
	check_int(validate_clear_verdict(UINT64_MAX / 2, 1, UINT64_MAX / 20, &why), ==,
		  VALIDATE_PASS, "no overflow in the bound on large counts (5 % of a huge count)");
	return done_testing();
}
