/*
 * bench/study/bundle.h - the report bundle: one file a lab attaches to a report
 * of how baretma behaved on a CPU none of us can reach, which baretma then
 * reads back as that CPU (man baretma-validate, "Reporting a CPU: validate --bundle FILE").  JSON, schema
 * "baretma-bundle/1":
 *   schema, baretma (the version that wrote it), date (ISO 8601 UTC),
 *   command (the command line), host (host_to_json: the host that wrote
 *   it), cpuid_dump (the text `baretma cpuid dump`
 *   writes, of every CPU of the machine described: cpu/dump_write.c's
 *   AIDA64 layout), info (the identity, cpu_info_to_json), environment
 *   (env_to_json of the machine baretma ran on), validate (validate's
 *   document, baretma-validate/1), calibration (the state directory's
 *   calibration file for this CPU as it was, or null).
 * Reading it back is cpu/'s (cpu/dump_bundle.c): every command that takes
 * --cpuid-dump takes a bundle, so a report becomes a test fixture.
 * Library code: never prints; 0 or -errno.
 */
#ifndef BARETMA_BUNDLE_H
#define BARETMA_BUNDLE_H

#include <jansson.h>

#include "cpu/cpu.h"
#include "cpu/cpu_dump.h"
#include "cpu/machine.h"

#define BUNDLE_SCHEMA CPU_BUNDLE_SCHEMA

/* What goes into a bundle besides the CPUID of the machine. */
struct bundle_parts {
	const struct cpu_machine *machine; /* its CPUs' CPUID: the dump's or this machine's */
	const char *command;      /* the command line */
	json_t *info;             /* borrowed: cpu_info_to_json */
	json_t *environment;      /* borrowed: env_to_json */
	json_t *validate;         /* borrowed: validate_to_json */
	json_t *calibration;      /* borrowed, or NULL: none for this CPU */
};

/*
 * bundle_cpuid_text - the dump text of every CPU @m describes
 * (cpu_machine_cpus, cpu_dump_write_header and cpu_dump_write_cpu), in a
 * malloc'd string (*@len bytes).  Returns 0, or the -errno of a CPU whose
 * CPUID could not be read (*@bad_cpu that CPU), -ENOMEM.
 */
int bundle_cpuid_text(const struct cpu_machine *m, char **text, size_t *len,
		      unsigned *bad_cpu);

/* bundle_build - the "baretma-bundle/1" document from @p (new reference),
 * or NULL with -errno in *@err (bundle_cpuid_text's, -ENOMEM). */
json_t *bundle_build(const struct bundle_parts *p, int *err, unsigned *bad_cpu);

/*
 * bench_dump_versions - the "Key : value" lines of a dump's Versions
 * section (cpu_dump_write_header): baretma's version and @command, the
 * date (UTC), the kernel, and one more line "@label : @value" (the online
 * CPUs, what the dump describes); each under libcpuid 0.6.2's 99
 * characters a line.
 */
void bench_dump_versions(char *buf, size_t n, const char *command, const char *label,
			 const char *value);

/* bench_json_dumps - @doc as text, indented and ending in a newline
 * (malloc'd, *@len bytes before the NUL), or NULL on ENOMEM. */
char *bench_json_dumps(const json_t *doc, size_t *len);

/*
 * bench_json_save_at - @doc (bench_json_dumps) as the file @name of the
 * state directory @dirfd, written atomically (msr/journal/state_dir.h
 * state_dir_replace: mode 0600, never through a symbolic link, never over
 * anything that is not a regular file).  A file a user names goes through
 * bench/output/output.h's writer instead.  Returns 0, -ELOOP (a link at
 * the name), -EISDIR, -EINVAL (a FIFO or device at the name),
 * -ENAMETOOLONG, -ENOMEM or -errno.
 */
int bench_json_save_at(int dirfd, const char *name, const json_t *doc);

#endif
