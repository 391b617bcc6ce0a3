/*
 * t/1241-report-plot.c - `baretma report --plot` writes its numbers and its
 * groups' headings as the text does (bench/output/plot_report.c;
 * doc/report.md "The text": points with two decimals): a fleet of three
 * hosts whose calibration's level-1 spread95_pp at the longest loop is
 * 2.775557562e-15 (what a real calibration of a steady simulated PMU
 * stored: the float residue of a spread of 0) shows its noise floor's
 * median as "0.00 pp", never "2.776e-15 pp"; a host of a stat document
 * alone (stat names no CPU) heads its group "CPU not named by its files",
 * never "family -1 model 0xFFFFFFFF".  What is drawn is read back from the
 * picture's trace (every text drawn, as t/0921).  Skipped without cairo.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/output/plot.h"
#include "bench/study/report.h"
#include "t/tap.h"
#include "t/fixture.h"

static char dir[PATH_MAX];
static char *texts[4096];
static size_t ntexts;

static void on_text(void *arg, const char *text, const struct plot_box *ink)
{
	(void)arg;
	(void)ink;
	if (ntexts < sizeof(texts) / sizeof(texts[0]))
		texts[ntexts++] = strdup(text);
}

static void on_box(void *arg, const char *what, const char *node, const struct plot_box *b)
{
	(void)arg;
	(void)what;
	(void)node;
	(void)b;
}

static const struct plot_trace hook = { on_text, on_box, NULL };

/* A text drawn that holds @s. */
static const char *drawn(const char *s)
{
	for (size_t i = 0; i < ntexts; i++)
		if (strstr(texts[i], s))
			return texts[i];
	return NULL;
}

static void put(const char *file, char *text)
{
	put_file(t_in(dir, file), text);
	free(text);
}

int main(void)
{
	struct report *r;
	const char *t;
	int rc;

	if (!plot_available())
		skip_all("built without cairo");
	t_scratch(dir, "1241");
	t_mkdir_p(t_in(dir, "fleet"));
	for (int i = 0; i < 3; i++) {
		char name[32];

		snprintf(name, sizeof(name), "fleet/c%d.json", i);
		put(name, t_strf("{\"schema\": \"baretma-calibration/3\", "
			"\"host\": {\"hostname\": \"h%d\", \"machine_id\": null}, \"cpu\": "
			"{\"vendor\": \"GenuineIntel\", \"family\": 6, \"model\": 143, \"stepping\": 8, "
			"\"brand\": \"Test CPU\"}, \"environment\": {\"microcode\": \"0x1\"}, "
			"\"backends\": [{\"backend\": \"msr\", \"measured\": true, \"bracket\": "
			"{\"tsc_ticks\": {\"median\": 3900}}, \"lengths\": [{\"cycles\": 1000, "
			"\"tma_retiring\": {\"spread95_pp\": 0.5}}, {\"cycles\": 100000, "
			"\"tma_retiring\": {\"spread95_pp\": 2.775557562e-15}}]}]}", i));
	}
	put("fleet/s.json", t_strf("{\"schema\": \"baretma-stat/1\", \"host\": {\"hostname\": "
		"\"anon\", \"machine_id\": null}, \"type\": \"end\", \"command\": [\"true\"], "
		"\"samples\": [{\"valid\": true, \"kind\": \"general\", \"bound_pp\": 0.5, "
		"\"nodes\": [{\"metric\": \"tma_retiring\", \"percent\": 30}]}]}"));

	r = report_new(REPORT_K_DEFAULT);
	ok(r && !report_add_path(r, t_in(dir, "fleet")) && !report_finish(r),
	   "the fleet is read");
	if (!r)
		return done_testing();
	check_int(r->nbad, ==, 0, "every file used");
	check_int(r->ngroups, ==, 2, "2 groups: the Sapphire Rapids hosts, and anon's");
	rc = plot_report_write(t_in(dir, "r.svg"), r, NULL, &hook);
	check_int(rc, ==, 0, "plot_report_write");
	t = drawn(" pp");
	ok(drawn("0.00 pp") && !drawn("e-15"), "the noise floor's median as the text prints it: "
	   "'0.00 pp' (drawn: '%s')", t ? t : "none");
	t = drawn("CPU not named");
	ok(t && !strcmp(t, "CPU not named by its files (1 host)") && !drawn("family -1"),
	   "anon's group: 'CPU not named by its files (1 host)' (drawn: '%s')", t ? t : "none");
	t = drawn("family 6");
	check_str(t, "GenuineIntel family 6 model 0x8F stepping 8: Test CPU (3 hosts)",
		  "the other group's heading");
	report_free(r);
	for (size_t i = 0; i < ntexts; i++)
		free(texts[i]);
	t_rm_rf(dir);
	return done_testing();
}
