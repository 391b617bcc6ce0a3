/*
 * cpu/dump_bundle.c - a report bundle (bench/study/bundle.h, schema
 * "baretma-bundle/1") read as a CPUID dump: its "cpuid_dump" member is the
 * text `baretma cpuid dump` wrote of the reporter's CPUs (AIDA64 layout),
 * read by the AIDA64 reader like any such file.  Everything else in the
 * bundle (validate's findings, the environment) is for people and tests;
 * the CPUs are what a command takes from it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cpu/cpu_dump.h"
#include "cpu/dump_int.h"

/* A JSON object naming CPU_BUNDLE_SCHEMA: read as a bundle, or refused. */
static bool dump_bundle_shaped(const char *buf, size_t len)
{
	size_t i = 0;

	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r'))
		i++;
	return i < len && buf[i] == '{' && strstr(buf + i, CPU_BUNDLE_SCHEMA) != NULL;
}

/* The "cpuid_dump" text of the bundle in @buf (malloc'd into *@text, *@tlen
 * bytes, NUL-terminated); 0, -EINVAL (p->err says why), -ENOMEM. */
static int dump_bundle_text(struct parse *p, const char *buf, size_t len, char **text,
			    size_t *tlen)
{
	json_error_t e;
	json_t *doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &e), *s, *schema;
	int rc = 0;

	*text = NULL;
	if (!doc)
		return dump_perr(p, "a report bundle that is not JSON: line %d: %s", e.line,
				 e.text);
	schema = json_object_get(doc, "schema");
	s = json_object_get(doc, "cpuid_dump");
	if (!json_is_string(schema) || strcmp(json_string_value(schema), CPU_BUNDLE_SCHEMA))
		rc = dump_perr(p, "not a report bundle: \"schema\" is not \"%s\"",
			       CPU_BUNDLE_SCHEMA);
	else if (!json_is_string(s))
		rc = dump_perr(p, "a report bundle without its \"cpuid_dump\" text");
	else if (!(*text = malloc(json_string_length(s) + 1)))
		rc = -ENOMEM;
	if (!rc) {
		*tlen = json_string_length(s);
		memcpy(*text, json_string_value(s), *tlen);
		(*text)[*tlen] = '\0';
		if (memchr(*text, '\0', *tlen)) {
			free(*text);
			*text = NULL;
			rc = dump_perr(p, "a report bundle whose \"cpuid_dump\" holds a NUL byte");
		}
	}
	json_decref(doc);
	return rc;
}

/* Its CPUID text, read as the file of a line format (AIDA64's, as written). */
static int bundle_parse(struct parse *p, const char *buf, size_t len)
{
	char *text = NULL;
	size_t tlen = 0;
	int err = dump_bundle_text(p, buf, len, &text, &tlen);

	if (!err)
		err = dump_parse_text(p, text, tlen);
	if (!err)
		p->d->format = &dump_format_bundle;
	free(text);
	return err;
}

const struct dump_format dump_format_bundle = {
	.name = CPU_BUNDLE_SCHEMA, .detect_text = dump_bundle_shaped, .parse_text = bundle_parse,
	.cpu_label = "logical CPU #",
};
