/*
 * fuzz/fuzz_report.c - `baretma report`'s reader of the files hosts wrote
 * (bench/study/report_read.c, report_parts.c, report.c) and what it does
 * with them (report_merge.c: duplicate and conflicting files, the parts of
 * a host merged; report_group.c: the groups, their settings, checks and
 * robust limits), then its three outputs (bench/output/output_report.c,
 * output_report_doc.c: the text, the JSON document, -x SEP).
 *
 * Input: up to MAX_DOCS documents separated by '\f' (a byte no JSON
 * document holds raw: not JSON whitespace, a control character inside a
 * string), each given to report_add_data() - what report_add_path() does
 * with each regular file's bytes - as the file "in/I.json"; the first as a
 * PATH named on the command line, the others as found in a directory, the
 * last of MAX_DOCS named "in/3.log" (so a file that is not JSON is left out
 * quietly, as a job's log is).  Then report_finish() and the outputs, to
 * memory.
 *
 * A crash, a sanitizer report, a leak or a hang is a bug; skipping a file
 * is fine.  These properties abort (restated from bench/study/report.h and
 * doc/report.md, not taken from the code under test):
 *   - every file is counted (report.files), every skip and every host's
 *     file names one of the files given, no more hosts than files gave
 *     parts, no two hosts with one (hostname, machine_id), every host in
 *     exactly one group, each check's counts summing to its group's hosts;
 *   - a kept string is at most REPORT_TEXT_MAX bytes (a hostname at most
 *     255: "a hostname over 255 bytes refuses the file") and valid UTF-8
 *     (jansson reads only that, and the cut is at a character's start);
 *   - the text and the separated values hold no byte a terminal acts on
 *     (cpu/escape.h: C0 controls but the newline, DEL, C1 controls, the
 *     bidirectional overrides and isolates); the JSON document is made
 *     (view->json never NULL but on ENOMEM, which a fuzzer run never
 *     reaches) and ASCII.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/output/output.h"
#include "bench/study/report.h"

#define MAX_DOCS 4

static const char *const names[MAX_DOCS] = { "in/0.json", "in/1.json", "in/2.json", "in/3.log" };

static bool named_file(const char *path, unsigned ndocs)
{
	for (unsigned i = 0; path && i < ndocs; i++)
		if (!strcmp(path, names[i]))
			return true;
	return false;
}

/* @s (NULL: none) a kept string: at most @max bytes, valid UTF-8. */
static void kept(const char *s, size_t max)
{
	json_t *j;

	if (!s)
		return;
	if (strlen(s) > max || !(j = json_string(s)))
		abort();
	json_decref(j);
}

/* No byte of the @n at @t that a terminal acts on (cpu/escape.h). */
static void inert(const unsigned char *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if ((t[i] < 0x20 && t[i] != '\n') || t[i] == 0x7f)
			abort();
		if (t[i] == 0xc2 && i + 1 < n && t[i + 1] >= 0x80 && t[i + 1] <= 0x9f)
			abort(); /* U+0080-U+009F */
		if (t[i] == 0xe2 && i + 2 < n &&
		    ((t[i + 1] == 0x80 && t[i + 2] >= 0xaa && t[i + 2] <= 0xae) ||
		     (t[i + 1] == 0x81 && t[i + 2] >= 0xa6 && t[i + 2] <= 0xa9)))
			abort(); /* U+202A-U+202E, U+2066-U+2069 */
	}
}

static void check(const struct report *r, unsigned ndocs)
{
	unsigned ingroups = 0;

	if (r->files != ndocs || r->used > ndocs || r->nhosts > r->used || r->nbad > r->nskips)
		abort();
	for (size_t i = 0; i < r->nskips; i++)
		if (!named_file(r->skips[i].path, ndocs) || !r->skips[i].cause)
			abort();
	for (size_t i = 0; i < r->nhosts; i++) {
		const struct report_host *h = &r->hosts[i];

		if (!h->hostname || !h->name)
			abort();
		kept(h->hostname, 255);
		kept(h->machine_id, REPORT_TEXT_MAX);
		kept(h->uarch, REPORT_TEXT_MAX);
		for (int s = 0; s < REPORT_NSETTINGS; s++)
			kept(h->setting[s], REPORT_TEXT_MAX);
		for (int k = 0; k < REPORT_NKINDS; k++)
			if (h->path[k] && !named_file(h->path[k], ndocs))
				abort();
		for (unsigned c = 0; c < h->nchecks; c++) {
			if (h->checks[c].id >= r->nchecks_names)
				abort();
			kept(h->checks[c].message, REPORT_TEXT_MAX);
		}
		for (unsigned v = 0; v < h->nvalues; v++)
			if (h->values[v].fig >= r->nfigs)
				abort();
		for (size_t j = 0; j < i; j++)
			if (!strcmp(h->hostname, r->hosts[j].hostname) &&
			    !h->machine_id == !r->hosts[j].machine_id &&
			    (!h->machine_id || !strcmp(h->machine_id, r->hosts[j].machine_id)))
				abort(); /* one host twice */
	}
	for (unsigned g = 0; g < r->ngroups; g++) {
		const struct report_group *gr = &r->groups[g];

		ingroups += gr->nhosts;
		for (unsigned i = 0; i < gr->nhosts; i++)
			if (gr->hosts[i] >= r->nhosts)
				abort();
		for (unsigned c = 0; c < gr->nchecks; c++) {
			const unsigned *n = gr->checks[c].count;

			if (n[0] + n[1] + n[2] > gr->nhosts || gr->checks[c].nfail != n[REPORT_FAIL])
				abort();
		}
	}
	if (ingroups != r->nhosts)
		abort();
}

/* @fmt's output of @r into memory, checked by @ascii (the JSON) or inert. */
static void output(const struct report *r, const struct output_format *fmt, bool ascii)
{
	struct output_params p = { .separator = ";" };
	char *t = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&t, &n);
	int rc;

	if (!f)
		abort();
	rc = fmt->write(f, &output_view_report, r, &p);
	if (fclose(f) || rc)
		abort(); /* memory takes every byte; -ENOMEM is not reached */
	if (ascii) {
		for (size_t i = 0; i < n; i++)
			if ((unsigned char)t[i] >= 0x80)
				abort();
	} else {
		inert((const unsigned char *)t, n);
	}
	free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	struct report *r;
	unsigned ndocs = 0;
	size_t start = 0;

	if (!ready) { /* the JSON's "host", the reader's own: never this machine's */
		setenv("BARETMA_SYSROOT", "/nonexistent-sysroot", 1);
		ready = true;
	}
	if (!(r = report_new(REPORT_K_DEFAULT)))
		abort();
	for (size_t i = 0; i <= size && ndocs < MAX_DOCS; i++) {
		char *doc;
		size_t len;

		if (i < size && data[i] != '\f')
			continue;
		len = i - start;
		if (!(doc = malloc(len + 1)))
			abort();
		memcpy(doc, data + start, len);
		doc[len] = '\0';
		if (report_add_data(r, names[ndocs], doc, len, ndocs == 0))
			abort();
		free(doc);
		ndocs++;
		start = i + 1;
	}
	if (report_finish(r))
		abort();
	check(r, ndocs);
	output(r, &output_format_text, false);
	output(r, &output_format_sv, false);
	output(r, &output_format_json, true);
	report_free(r);
	return 0;
}
