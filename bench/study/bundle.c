/*
 * bench/study/bundle.c - the report bundle (bench/study/bundle.h) and the one JSON
 * file writer the commands share.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/study/bundle.h"
#include "config.h"
#include "cpu/cpu.h"
#include "msr/journal/state_dir.h"

char *bench_json_dumps(const json_t *doc, size_t *len)
{
	char *text = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(10) |
				JSON_ENSURE_ASCII), *t;

	if (!text)
		return NULL;
	*len = strlen(text);
	if (!(t = realloc(text, *len + 2))) {
		free(text);
		return NULL;
	}
	t[(*len)++] = '\n';
	t[*len] = '\0';
	return t;
}

int bench_json_save_at(int dirfd, const char *name, const json_t *doc)
{
	size_t len;
	char *text = bench_json_dumps(doc, &len);
	int rc;

	if (!text)
		return -ENOMEM;
	rc = state_dir_replace(dirfd, name, text, len);
	free(text);
	return rc;
}

void bench_dump_versions(char *buf, size_t n, const char *command, const char *label,
			 const char *value)
{
	struct utsname u;
	char date[64] = "unknown";
	time_t now = time(NULL);
	struct tm tm;

	if (gmtime_r(&now, &tm))
		strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S UTC", &tm);
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	/* libcpuid 0.6.2 reads lines of up to 99 characters: keep them short. */
	snprintf(buf, n,
		 "Program Version : baretma %s (%.40s)\n"
		 "Date            : %s\n"
		 "Kernel          : %.20s %.40s %.12s\n"
		 "Kernel Version  : %.70s\n"
		 "%-15.15s : %.70s\n",
		 PACKAGE_VERSION, command, date, u.sysname, u.release, u.machine, u.version,
		 label, value);
}

int bundle_cpuid_text(const struct cpu_machine *m, char **text, size_t *len,
		      unsigned *bad_cpu)
{
	static unsigned cpus[CPU_MAX_CPUS];
	unsigned n = cpu_machine_cpus(m, cpus, CPU_MAX_CPUS);
	char head[1024];
	FILE *f;
	int rc;

	*text = NULL;
	*len = 0;
	f = open_memstream(text, len);
	if (!f)
		return -ENOMEM;
	bench_dump_versions(head, sizeof(head), "baretma validate --bundle", "Described",
			    cpu_machine_is_dump(m) ? "a CPUID dump" : "this machine");
	rc = cpu_dump_write_header(f, head);
	for (unsigned i = 0; !rc && i < n; i++)
		if ((rc = cpu_dump_write_cpu(f, cpu_machine_source(m), cpus[i])) && bad_cpu)
			*bad_cpu = cpus[i];
	if (fclose(f) && !rc)
		rc = -ENOMEM;
	if (rc) {
		free(*text);
		*text = NULL;
	}
	return rc;
}

static void put(json_t *doc, const char *key, json_t *v)
{
	json_object_set(doc, key, v ? v : json_null());
}

json_t *bundle_build(const struct bundle_parts *p, int *err, unsigned *bad_cpu)
{
	char date[32] = "unknown", *text = NULL;
	time_t now = time(NULL);
	struct tm tm;
	size_t len;
	json_t *doc;

	*err = bundle_cpuid_text(p->machine, &text, &len, bad_cpu);
	if (*err)
		return NULL;
	if (gmtime_r(&now, &tm))
		strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	doc = json_pack("{s:s,s:s,s:s,s:s%}", "schema", BUNDLE_SCHEMA, "baretma",
			PACKAGE_VERSION, "date", date, "cpuid_dump", text, len);
	free(text);
	if (doc) {
		json_object_set_new(doc, "command", bench_json_text(p->command ? p->command : ""));
		json_object_set_new(doc, "host", host_to_json());
		put(doc, "info", p->info);
		put(doc, "environment", p->environment);
		put(doc, "validate", p->validate);
		put(doc, "calibration", p->calibration);
	}
	*err = doc ? 0 : -ENOMEM;
	return doc;
}
