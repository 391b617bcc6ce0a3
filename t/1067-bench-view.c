/*
 * t/1067-bench-view.c - the bench result's own view (bench/output/output.c
 * output_view_bench) on a result built here, in the three formats that
 * print a kernel's statistics: the table's cells (man baretma-bench:
 * "median % of slots [q1, q3]", two decimals), the CSV rows (the long
 * layout, doc/csv.md: one per quantity, its value
 * the median, then n, median, min, max, q1, q3, mad, mean in the
 * quantity's unit, 15 significant digits) and the JSON document (each node's statistics
 * in percent, doc/json.md).  t/0470 writes a toy view; here the numbers
 * are the bench view's, with a q1 and a q3 apart, so that no writer may
 * mix them up or leave one a fraction.
 *
 * The kernel "k": three repetitions, TSC ticks median 1000; slots median
 * 5000; retiring fractions median .40, min .38, max .42, q1 .39, q3 .4125,
 * MAD .01, mean .401, bound .005 (0.5 points) -> in percent 40, 38, 42,
 * 39, 41.25, 1, 40.1: the cell "40.00 [39.00,41.25]", the CSV row (CPU 0,
 * a kind the zeroed identity does not name, PERF_METRICS's recipe, the msr
 * backend, no time) "0,unknown,intel-perf-metrics,msr,,k,1,tma_retiring,
 * percent,40,0.5,3,40,38,42,39,41.25,1,40.1".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/output/output.h"
#include "t/tap.h"

static const struct bench_kernel kernel = { "k", "tma_retiring", "a kernel of this test", NULL,
					    NULL, NULL };

/* What @fmt wrote of @res, in a static buffer (freed at the next call). */
static const char *written(const struct output_format *fmt, const struct bench_result *res)
{
	static char *buf;
	size_t n = 0;
	FILE *f;
	int rc;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &n);
	if (!f) {
		printf("Bail out! open_memstream\n");
		exit(1);
	}
	rc = output_write(f, fmt, &output_view_bench, res, NULL);
	fclose(f);
	ok(rc == 0, "%s writes", fmt ? fmt->name : "text");
	return buf ? buf : "";
}

/* A statistic of three repetitions, as bench_stats_compute keeps it. */
static struct bench_stats st(double median, double min, double max, double q1, double q3,
			     double mad, double mean)
{
	return (struct bench_stats){ .n = 3, .median = median, .min = min, .max = max, .q1 = q1,
				     .q3 = q3, .mad = mad, .mean = mean };
}

/* The line of @text that starts with @start ("" when none). */
static const char *line_of(const char *text, const char *start)
{
	static char line[512];
	const char *p = text;

	line[0] = '\0';
	for (; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, start, strlen(start))) {
			size_t n = strcspn(p, "\n");

			snprintf(line, sizeof(line), "%.*s", (int)n, p);
			break;
		}
	return line;
}

int main(void)
{
	static struct bench_result res;
	static struct bench_kernel_result kr;
	json_t *doc, *ret;
	const char *out;

	kr.kernel = &kernel;
	kr.reps = 3;
	kr.topdown = true;
	kr.tsc = st(1000, 990, 1010, 995, 1005, 5, 1000);
	kr.slots = st(5000, 4900, 5100, 4950, 5050, 50, 5000);
	kr.tma[TMA_RETIRING] = st(.40, .38, .42, .39, .4125, .01, .401);
	kr.tma[TMA_BAD_SPECULATION] = st(.10, .10, .10, .10, .10, 0, .10);
	kr.tma[TMA_FRONTEND_BOUND] = st(.20, .20, .20, .20, .20, 0, .20);
	kr.tma[TMA_BACKEND_BOUND] = st(.30, .30, .30, .30, .30, 0, .30);
	kr.bound = .005;
	res.backend = BENCH_BACKEND_MSR;
	res.level = 1;
	res.reads = "TOPDOWN.SLOTS and IA32_PERF_METRICS";
	res.bound_text = "PERF_METRICS's 8-bit fields";
	res.avail.rdpmc_sysfs = -1;
	res.nkernels = 1;
	res.kernels = &kr;

	plan(6);
	out = written(NULL, &res);
	ok(strstr(out, "   40.00 [39.00,41.25]") != NULL,
	   "table: retiring's cell, median [q1, q3] in percent: 40.00 [39.00,41.25]");

	out = written(&output_format_csv, &res);
	check_str(line_of(out, "0,unknown,intel-perf-metrics,msr,,k,1,tma_retiring,"),
		  "0,unknown,intel-perf-metrics,msr,,k,1,tma_retiring,percent,40,0.5,3,40,38,42,39,"
		  "41.25,1,40.1",
		  "CSV: retiring's row, the value and every statistic in percent, q1 before q3");

	out = written(&output_format_json, &res);
	doc = json_loads(out, 0, NULL);
	ret = json_object_get(json_array_get(json_object_get(doc, "kernels"), 0), "tma_retiring");
	ok(ret && fabs(json_real_value(json_object_get(ret, "q1")) - 39) < 1e-9 &&
	   fabs(json_real_value(json_object_get(ret, "q3")) - 41.25) < 1e-9 &&
	   fabs(json_real_value(json_object_get(ret, "median")) - 40) < 1e-9,
	   "JSON: kernels[0].tma_retiring median 40, q1 39, q3 41.25 (percent)");
	json_decref(doc);
	return done_testing();
}
