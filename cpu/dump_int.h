/*
 * cpu/dump_int.h - what baretma's CPUID dump readers share, private to cpu/:
 * the dump object (per logical CPU, a sparse (leaf, subleaf) -> {eax, ebx,
 * ecx, edx} table), the parser state, the common reader's services to the
 * format files (cpu/cpu_dump.c: errors, records, CPU sections, reading a
 * file into lines), each format's entry points (cpu/dump_aida64.c,
 * cpu/dump_libcpuid.c, cpu/dump_hwloc.c) and the lexing helpers they all
 * use.  The reader's rules (first record wins, errors) are in the file
 * comment of cpu/cpu_dump.c.
 */
#ifndef BARETMA_DUMP_INT_H
#define BARETMA_DUMP_INT_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"

#define DUMP_END_LINE      "--------------------------------------------------------------------------------"
#define LEAF_VENDOR        0x0u
#define LEAF_FEATURES      0x1u
#define LEAF_EXT_BASE      0x80000000u

struct dump_rec {
	uint32_t leaf, subleaf;
	uint32_t regs[4];
	unsigned line;     /* file order: the first record of a key wins */
	bool any_subleaf;  /* hwloc record without input ECX */
};

struct dump_cpu {
	struct dump_rec *rec;
	unsigned n, cap;
	unsigned line;     /* where its section starts (error messages) */
	bool present;
};

struct cpu_dump {
	const char *format;
	unsigned ncpus;    /* highest CPU number + 1 */
	struct dump_cpu cpu[CPU_MAX_CPUS];
};

/* Parser state: the dump being filled, the error detail, the position. */
struct parse {
	struct cpu_dump *d;
	char *err;
	size_t errlen;
	const char *pu;    /* hwloc: "pu3" while reading that file, else NULL */
	unsigned line;
	int cur;           /* CPU of the current section, -1 outside */
};

/* ------------------------------------------------ common reader (cpu_dump.c) */

/* "line 12: <msg>" or "pu3 line 12: <msg>" into p->err; returns -EINVAL. */
int dump_perr(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Add @r to the current CPU (p->cur) at line p->line; 0 or -ENOMEM. */
int dump_rec_add(struct parse *p, const struct dump_rec *r);

/* Open the section of logical CPU @cpu (p->cur = @cpu); 0 or -EINVAL
 * (CPU twice, or at or above CPU_MAX_CPUS). */
int dump_cpu_begin(struct parse *p, unsigned long cpu);

/*
 * Read @path and split it into lines (*buf and *lines to be freed by the
 * caller, also on error).  A read error is described in p->err, prefixed
 * with @what (a pu file's name) when not NULL; an oversized file is -EINVAL.
 */
int dump_read_lines(struct parse *p, const char *path, const char *what, char **buf,
		    char ***lines, unsigned *n, bool *unterminated, size_t *len);

/* ----------------------------------------------------- AIDA64 (dump_aida64.c) */

/*
 * "------[ CPUID Registers / Logical CPU #3 ]------" or
 * "------[ Logical CPU #3 ]------": 1 and *cpu; another "------[ ... ]------"
 * section: 0; not a section header: -1.
 */
int dump_aida_header(const char *s, unsigned long *cpu);

/* "CPU#000 AffMask: 0x0000000000000000:0000000000000001": 1 and *cpu, else -1. */
int dump_affmask_header(const char *s, unsigned long *cpu);

/* "CPUID 0000000A:" - the start of an AIDA64 record line. */
bool dump_aida_record_shaped(const char *s);

/* The @n lines of an AIDA64 dump (@affmask: sections opened by CPU#NNN AffMask). */
int dump_parse_aida(struct parse *p, char **lines, unsigned n, bool affmask);

/* ------------------------------------------------- libcpuid (dump_libcpuid.c) */

/* "_________________ Logical CPU #3 _________________" */
bool dump_native_separator(const char *s, unsigned long *cpu);

/* Length of the identifier NAME of "NAME[i]=...", 0 if the line is not one. */
size_t dump_native_name_len(const char *s);

/* Index of the libcpuid array named by the @len bytes at @s, -1 if unknown. */
int dump_native_array(const char *s, size_t len);

/* The @n lines of a libcpuid raw dump. */
int dump_parse_native(struct parse *p, char **lines, unsigned n);

/* ---------------------------------------------- report bundle (dump_bundle.c) */

/* Does @buf look like a report bundle (a JSON object naming
 * CPU_BUNDLE_SCHEMA)?  Then it is read as one, or refused. */
bool dump_bundle_shaped(const char *buf, size_t len);

/* The "cpuid_dump" text of the bundle in @buf (malloc'd into *@text, *@tlen
 * bytes, NUL-terminated); 0, -EINVAL (p->err says why), -ENOMEM. */
int dump_bundle_text(struct parse *p, const char *buf, size_t len, char **text,
		     size_t *tlen);

/* ------------------------------------------------------- hwloc (dump_hwloc.c) */

/* "5 4 0 1 0 => 3c004122 1c0003f 3f 0" (hwloc-gather-cpuid prints %x). */
bool dump_hwloc_record(const char *s, uint32_t *mask, struct dump_rec *r);

/* A hwloc-gather-cpuid directory: every puN file in it. */
int dump_parse_hwloc_dir(struct parse *p, const char *path);

/* ---------------------------------------------------------------- lexing */

static inline int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* Parse min..max hex digits (no sign, no 0x); NULL when fewer or more. */
static inline const char *hex32(const char *s, int min, int max, uint32_t *v)
{
	int n = 0;

	*v = 0;
	for (; hexval(*s) >= 0; s++, n++) {
		if (n == max)
			return NULL;
		*v = *v << 4 | (uint32_t)hexval(*s);
	}
	return n >= min ? s : NULL;
}

static inline const char *dec(const char *s, unsigned long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return NULL;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno ? NULL : end;
}

static inline const char *skip_spaces(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static inline bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Nothing but blanks left. */
static inline bool at_end(const char *s)
{
	return s && !*skip_spaces(s);
}

#endif
