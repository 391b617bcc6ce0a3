/*
 * bench/cmd_decode.c - "baretma decode": IA32_PERF_METRICS by hand.
 *   baretma decode METRICS [--slots N] [--level 1|2] [--json]
 *   baretma decode --from SLOTS:METRICS --to SLOTS:METRICS [--level 1|2] [--json]
 * METRICS is hex (0x optional); SLOTS is decimal or 0x hex.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "bench/cli.h"
#include "msr/topdown.h"

static void decode_usage(FILE *f)
{
	fprintf(f,
"usage: baretma decode METRICS [--slots N] [--level 1|2] [--json]\n"
"       baretma decode --from SLOTS:METRICS --to SLOTS:METRICS [--level 1|2] [--json]\n"
"  METRICS  IA32_PERF_METRICS value in hex (0x optional, at most 16 digits)\n"
"  SLOTS    TOPDOWN.SLOTS (fixed counter 3) at the same instant, decimal or 0x hex\n"
"  --level  1 (Ice Lake, Tiger Lake) or 2 (Sapphire Rapids, Alder Lake P-cores\n"
"           and later); default 2\n"
"\n"
"exit status: 0 ok (flags do not change it), 64 usage, 65 a malformed value or\n"
"  reading, or a region with zero or backward slots, 70 internal error\n");
}

/* Strict hex: optional 0x, 1..16 hex digits, nothing else. */
static int parse_metrics(const char *s, uint64_t *v)
{
	const char *p = s;
	size_t n;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	n = strlen(p);
	if (n == 0 || n > 16)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)p[i]))
			return -EINVAL;
	*v = strtoull(p, NULL, 16);
	return 0;
}

/* "SLOTS:METRICS" */
static int parse_reading(const char *s, uint64_t *slots, uint64_t *metrics)
{
	char buf[64];
	char *colon;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	colon = strchr(buf, ':');
	if (!colon)
		return -EINVAL;
	*colon = '\0';
	if (cli_parse_u64(buf, slots) || parse_metrics(colon + 1, metrics))
		return -EINVAL;
	return 0;
}

static void print_text(const struct td_result *r, const char *what)
{
	char flags[256];

	printf("%s\n", what);
	if (r->slots > 0)
		printf("slots: %.0f\n", r->slots);
	for (int m = 0; m < TMA_NMETRICS; m++) {
		if (td_metric_level((enum td_metric)m) > r->level)
			continue;
		bool l2 = td_metric_level((enum td_metric)m) == 2;
		printf("%s%-*s %7.2f %%", l2 ? "  " : "", l2 ? 24 : 26,
		       td_metric_name((enum td_metric)m), 100.0 * r->frac[m]);
		if (m < TMA_NLEVEL1 && r->slots > 0)
			printf("  (%.1f slots)", r->field_slots[m]);
		printf("\n");
	}
	printf("bound: +/-%.2f percentage points (8-bit PERF_METRICS quantisation)\n",
	       100.0 * r->bound);
	printf("flags: %s\n", r->flags ? td_flag_text(r->flags, flags, sizeof(flags)) : "none");
}

static int print_json(const struct td_result *r, json_t *input)
{
	char flags[256];
	json_t *o = json_pack("{s:o,s:i,s:s,s:f,s:f,s:s?}", "input", input, "level", r->level,
			      "unit", "percent", "slots", r->slots, "bound_pp", 100.0 * r->bound,
			      "flags", r->flags ? td_flag_text(r->flags, flags, sizeof(flags)) : NULL);

	if (!o)
		return EX_SOFTWARE;
	for (int m = 0; m < TMA_NMETRICS; m++)
		if (td_metric_level((enum td_metric)m) <= r->level)
			json_object_set_new(o, td_metric_name((enum td_metric)m),
					    json_real(100.0 * r->frac[m]));
	json_dumpf(o, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	fputc('\n', stdout);
	json_decref(o);
	return EX_OK;
}

struct decode_args {
	const char *from, *to, *value;
	uint64_t slots;
	int level;
	bool json, have_slots;
};

static int parse_args(int argc, char **argv, struct decode_args *a)
{
	static const struct option opts[] = {
		{ "slots", required_argument, NULL, 's' }, { "level", required_argument, NULL, 'l' },
		{ "from", required_argument, NULL, 'f' }, { "to", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	cli_getopt_reset();
	while ((c = cli_getopt("decode", argc, argv, "s:l:f:t:jh", opts)) != -1) {
		switch (c) {
		case 's':
			if (cli_parse_u64(optarg, &a->slots)) {
				cli_err("bad --slots '%s': expected a count of slots (decimal or 0x hex)", optarg);
				return EX_USAGE;
			}
			a->have_slots = true;
			break;
		case 'l':
			if (strcmp(optarg, "1") && strcmp(optarg, "2")) {
				cli_err("bad --level '%s': PERF_METRICS has level 1 or 2", optarg);
				return EX_USAGE;
			}
			a->level = optarg[0] - '0';
			break;
		case 'f': a->from = optarg; break;
		case 't': a->to = optarg; break;
		case 'j': a->json = true; break;
		case 'h': decode_usage(stdout); return -1;
		default: return EX_USAGE; /* CLI_OPT_ERROR: cli_getopt said why */
		}
	}
	if (optind < argc)
		a->value = argv[optind++];
	if (optind < argc)
		return cli_usage_err("decode", "unexpected argument '%s'", argv[optind]);
	if (a->value && (a->from || a->to))
		return cli_refuse_together("decode", "a METRICS value", "--from/--to");
	if (a->have_slots && (a->from || a->to))
		return cli_usage_err("decode", "--slots goes with a single METRICS value: each "
				     "--from/--to reading carries its own slots");
	if (!a->value && !a->from != !a->to)
		return cli_usage_err("decode", "%s needs %s", a->from ? "--from" : "--to",
				     a->from ? "--to" : "--from");
	if (!a->value && !a->from)
		return cli_usage_err("decode", "give one METRICS value, or --from and --to");
	return 0;
}

int cmd_decode(int argc, char **argv)
{
	struct decode_args a = { .level = 2 };
	struct td_result r;
	uint64_t sa, ma, sb, mb, v;
	char what[160];
	int rc = parse_args(argc, argv, &a);

	if (rc)
		return rc < 0 ? EX_OK : rc;
	if (a.value) {
		if (parse_metrics(a.value, &v)) {
			cli_err("bad IA32_PERF_METRICS value '%s': expected hex, at most 16 digits "
				"(e.g. 0x302014224c331a66)", a.value);
			return EX_DATAERR;
		}
		td_decode_value(v, a.slots, a.level, &r);
		snprintf(what, sizeof(what), "IA32_PERF_METRICS 0x%016llx, level %d",
			 (unsigned long long)v, a.level);
		return a.json ? print_json(&r, json_pack("{s:s,s:I}", "perf_metrics", a.value,
				"slots", (json_int_t)a.slots)) : (print_text(&r, what), EX_OK);
	}
	if (parse_reading(a.from, &sa, &ma) || parse_reading(a.to, &sb, &mb)) {
		cli_err("bad reading '%s': expected SLOTS:METRICS, e.g. 1000:0x1f402080",
			parse_reading(a.from, &sa, &ma) ? a.from : a.to);
		return EX_DATAERR;
	}
	td_decode_region(sa, ma, sb, mb, a.level, &r);
	if (r.flags & (TD_FLAG_ZERO_SLOTS | TD_FLAG_SLOTS_BACK)) {
		char flags[256];
		cli_err("cannot decode the region '%s' -> '%s': %s (the second reading must "
			"have more slots than the first)", a.from, a.to,
			td_flag_text(r.flags, flags, sizeof(flags)));
		return EX_DATAERR;
	}
	snprintf(what, sizeof(what), "region: slots %llu -> %llu, level %d",
		 (unsigned long long)sa, (unsigned long long)sb, a.level);
	if (a.json)
		return print_json(&r, json_pack("{s:s,s:s}", "from", a.from, "to", a.to));
	print_text(&r, what);
	return EX_OK;
}
