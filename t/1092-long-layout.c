/*
 * t/1092-long-layout.c - the one layout --csv and -x SEP write for the
 * measured quantities of bench and stat (bench/output/output.h struct
 * output_long; doc/csv.md), on results built here,
 * against rows written out by hand from that description:
 *   cpu,kind,recipe,backend,time,kernel,level,quantity,unit,value,bound_pp,
 *   n,median,min,max,q1,q3,mad,mean
 * one record per value: the CPU, core kind, recipe (name:variant) and
 * backend first, as every -x layout starts; stat's time (%.9f) or bench's
 * kernel; a node's level; the quantity, its unit, its value (the median of
 * n > 1) and its bound in points; n, and the seven statistics only when
 * n > 1 - a single sample leaves them empty, it never repeats its value
 * seven times (as stat's CSV did).  Numbers have 15 significant digits:
 * a share of .3 is 30 percent, not 30.000000000000004.  A share that is
 * not a number (NAN) is an empty cell.
 *
 * stat: a group of 4 CPUs at 1.5 s, SLOTS 1000, retiring .25 (250 slots),
 * under it heavy operations .125 (125 slots), bad speculation undefined,
 * bound .0025 (0.25 points); CPU 3 of an E-core kind (intel-ecore-l1,
 * variant gracemont, backend rdpmc) that counted nothing: its SLOTS alone.
 * bench: CPU 2, kernel "k" of one repetition (TSC 1234, slots 5000, level
 * 1 .40/.10/.20/.30, bound .005); kernel "k2" of three without Top-down
 * (TSC median 1000, min 990, max 1010, q1 995, q3 1005, MAD 5, mean
 * 1000.5).  -I: two intervals streamed, the header once.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/output/output.h"
#include "t/tap.h"

#define HEADER "cpu,kind,recipe,backend,time,kernel,level,quantity,unit,value,bound_pp,n," \
	       "median,min,max,q1,q3,mad,mean\n"

static char *buf;
static size_t len; /* open_memstream writes both at each flush: they outlive open_buf */

static FILE *open_buf(void)
{
	FILE *f;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	if (!f) {
		printf("Bail out! open_memstream\n");
		exit(1);
	}
	return f;
}

/* What @fmt (separator @sep) wrote of @result of @view; a copy to free. */
static char *written(const struct output_format *fmt, const char *sep,
		     const struct output_view *view, const void *result)
{
	struct output_params p = { .separator = sep };
	FILE *f = open_buf();
	int rc = output_write_params(f, fmt, view, result, &p);

	fclose(f);
	ok(rc == 0, "%s%s%s writes", fmt->name, sep ? " " : "", sep ? sep : "");
	return strdup(buf ? buf : "");
}

static void stat_samples(struct stat_sample s[2])
{
	s[0] = (struct stat_sample){ .time = 1.5, .length = 1.5, .cpu = -1, .ncpus = 4,
		.kind = "performance", .uarch = "Golden Cove", .recipe = "intel-perf-metrics",
		.backend = "msr", .level = 2, .passes = 1, .level_asked = 2, .slots = 1000,
		.nnodes = 3, .bound = .0025, .valid = true };
	s[0].node[0] = (struct stat_node){ "tma_retiring", NULL, 1, .25, 250 };
	s[0].node[1] = (struct stat_node){ "tma_heavy_operations", "tma_retiring", 2, .125, 125 };
	s[0].node[2] = (struct stat_node){ "tma_bad_speculation", NULL, 1, NAN, NAN };
	s[1] = (struct stat_sample){ .time = 1.5, .length = 1.5, .cpu = 3, .ncpus = 1,
		.kind = "efficiency", .uarch = "Gracemont", .recipe = "intel-ecore-l1",
		.variant = "gracemont", .backend = "rdpmc", .level = 1, .passes = 1,
		.level_asked = 1, .valid = false };
}

#define G "all,performance,intel-perf-metrics,msr,1.500000000,,"
#define STAT_ROWS \
	G ",slots,slots,1000,,1,,,,,,,\n" \
	G "1,tma_retiring,percent,25,0.25,1,,,,,,,\n" \
	G "1,tma_retiring,slots,250,,1,,,,,,,\n" \
	G "2,tma_heavy_operations,percent,12.5,0.25,1,,,,,,,\n" \
	G "2,tma_heavy_operations,slots,125,,1,,,,,,,\n" \
	G "1,tma_bad_speculation,percent,,0.25,1,,,,,,,\n" \
	G "1,tma_bad_speculation,slots,,,1,,,,,,,\n" \
	"3,efficiency,intel-ecore-l1:gracemont,rdpmc,1.500000000,,,slots,slots,0,,1,,,,,,,\n"

static void test_stat(void)
{
	struct stat_sample s[2];
	struct stat_report rep = { 0 };
	char *csv, *sv, *semi;

	stat_samples(s);
	rep.s = s;
	rep.n = 2;
	csv = written(&output_format_csv, NULL, &output_view_stat, &rep);
	check_str(csv, HEADER STAT_ROWS,
		  "stat --csv: per sample its SLOTS, per node its percent (with the bound) and its "
		  "slots; one count each: n 1, no statistics; NAN empty");
	sv = written(&output_format_sv, ",", &output_view_stat, &rep);
	ok(!strcmp(sv, csv), "stat -x , : the same bytes as --csv");
	semi = written(&output_format_sv, ";", &output_view_stat, &rep);
	for (char *p = sv; *p; p++)
		*p = *p == ',' ? ';' : *p;
	ok(!strcmp(semi, sv), "stat -x ';': the same layout, ';' between the fields");
	free(csv);
	free(sv);
	free(semi);
}

static void test_stat_stream(void)
{
	struct stat_sample s[2];
	struct stat_interval_report ir = { .s = s, .n = 1 };
	struct stat_report end = { 0 };
	struct output_stream st;
	FILE *f = open_buf();
	int rc;

	stat_samples(s);
	rc = output_stream_open(&st, f, &output_format_csv, &output_view_stat_interval, NULL);
	if (!rc)
		rc = output_stream_record(&st, &ir);
	s[0].time = 2.25;
	if (!rc)
		rc = output_stream_record(&st, &ir);
	if (!rc)
		rc = output_stream_end(&st, &output_view_stat, &end);
	fclose(f);
	check_int(rc, ==, 0, "stat -I --csv: two intervals and the end streamed");
	ok(buf && !strncmp(buf, HEADER G ",slots,slots,1000,", strlen(HEADER G ",slots,slots,1000,")),
	   "the header once, then the first interval's rows");
	ok(buf && strstr(buf, "\nall,performance,intel-perf-metrics,msr,2.250000000,,,slots,") &&
	   !strstr(buf + 1, "\ncpu,kind,"), "the second interval's rows (time 2.25), no second header");
	const char *last = "msr,2.250000000,,1,tma_bad_speculation,slots,,,1,,,,,,,\n";

	ok(buf && strlen(buf) > strlen(last) && !strcmp(buf + strlen(buf) - strlen(last), last),
	   "the end adds nothing: the last row is the second interval's");
}

static struct bench_stats one(double v)
{
	return (struct bench_stats){ .n = 1, .median = v, .min = v, .max = v, .q1 = v, .q3 = v,
				     .mean = v };
}

static void test_bench(void)
{
	static const struct bench_kernel k = { "k", "tma_retiring", "a kernel", NULL, NULL, NULL };
	static const struct bench_kernel k2 = { "k2", "tma_retiring", "another", NULL, NULL, NULL };
	static struct bench_result res;
	static struct bench_kernel_result kr[2];
	char *csv, *sv;

	kr[0].kernel = &k;
	kr[0].reps = 1;
	kr[0].topdown = true;
	kr[0].tsc = one(1234);
	kr[0].slots = one(5000);
	kr[0].tma[TMA_RETIRING] = one(.40);
	kr[0].tma[TMA_BAD_SPECULATION] = one(.10);
	kr[0].tma[TMA_FRONTEND_BOUND] = one(.20);
	kr[0].tma[TMA_BACKEND_BOUND] = one(.30);
	kr[0].bound = .005;
	kr[1].kernel = &k2;
	kr[1].reps = 3;
	kr[1].tsc = (struct bench_stats){ .n = 3, .median = 1000, .min = 990, .max = 1010,
					  .q1 = 995, .q3 = 1005, .mad = 5, .mean = 1000.5 };
	res.cpu_used = 2;
	res.backend = BENCH_BACKEND_MSR;
	res.level = 1;
	res.avail.rdpmc_sysfs = -1;
	res.nkernels = 2;
	res.kernels = kr;
	csv = written(&output_format_csv, NULL, &output_view_bench, &res);
	check_str(csv, HEADER
		  "2,unknown,intel-perf-metrics,msr,,k,,tsc_ticks,ticks,1234,,1,,,,,,,\n"
		  "2,unknown,intel-perf-metrics,msr,,k,,slots,slots,5000,,1,,,,,,,\n"
		  "2,unknown,intel-perf-metrics,msr,,k,1,tma_retiring,percent,40,0.5,1,,,,,,,\n"
		  "2,unknown,intel-perf-metrics,msr,,k,1,tma_bad_speculation,percent,10,0.5,1,,,,,,,\n"
		  "2,unknown,intel-perf-metrics,msr,,k,1,tma_frontend_bound,percent,20,0.5,1,,,,,,,\n"
		  "2,unknown,intel-perf-metrics,msr,,k,1,tma_backend_bound,percent,30,0.5,1,,,,,,,\n"
		  "2,unknown,intel-perf-metrics,msr,,k2,,tsc_ticks,ticks,1000,,3,1000,990,1010,995,"
		  "1005,5,1000.5\n",
		  "bench --csv: one repetition's values alone (n 1, no statistics), three "
		  "repetitions' median as the value and their statistics; shares in percent");
	sv = written(&output_format_sv, ",", &output_view_bench, &res);
	ok(!strcmp(sv, csv), "bench -x , : the same bytes as --csv");
	free(csv);
	free(sv);
}

static void test_number(void)
{
	char b[OUTPUT_NUMBER_MAX];

	check_str(output_number(b, sizeof(b), 100 * .3), "30", "100 x .3: 30 (15 digits)");
	check_str(output_number(b, sizeof(b), 12146527230.0), "12146527230",
		  "a count of slots: every digit");
	check_str(output_number(b, sizeof(b), 102.0 / 256 * 100), "39.84375", "102/256: 39.84375");
	check_str(output_number(b, sizeof(b), 1e-7), "1e-07", "a small one in exponent form");
	check_str(output_number(b, sizeof(b), NAN), "NaN", "NaN");
	check_str(output_number(b, sizeof(b), -INFINITY), "-Inf", "-Inf");
}

int main(void)
{
	test_stat();
	test_stat_stream();
	test_bench();
	test_number();
	free(buf);
	return done_testing();
}
