/*
 * cpu/dump_int.h - what baretma's CPUID dump readers share, private to cpu/:
 * the dump object (per logical CPU, a sparse (leaf, subleaf) -> {eax, ebx,
 * ecx, edx} table), the parser state, the common reader's services to the
 * format files (cpu/cpu_dump.c: errors, records, CPU sections, reading a
 * file into lines), the format table's entries (struct dump_format: one
 * per format, each in its own file) and the lexing helpers they all use.  The reader's rules (first record wins, errors) are in the file
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
#include "cpu/cpu_dump.h"

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
	unsigned n;
	size_t cap;        /* array_grow's (cpu/array.h) */
	unsigned line;     /* where its section starts (error messages) */
	bool present;
};

struct dump_format;

struct cpu_dump {
	const struct dump_format *format; /* the entry of the table that read it */
	unsigned ncpus;    /* highest CPU number + 1 */
	struct dump_cpu cpu[CPU_MAX_CPUS];
};

/* Parser state: the dump being filled, the error detail, the position. */
struct parse {
	struct cpu_dump *d;
	char **err;        /* the detail, on the heap (cpu/text.h) */
	const char *pu;    /* hwloc: "pu3" while reading that file, else NULL */
	unsigned line;
	int cur;           /* CPU of the current section, -1 outside */
};

/*
 * One CPUID dump format: one file each (cpu/dump_NAME.c), one entry in the
 * table of cpu/cpu_dump.c, libpfm4's pfmlib_pmus[] with each PMU's
 * pmu_detect() as the model.  The reader asks the entries in table order
 * and gives the input to the first that recognises it, by content only,
 * never by the file's name; a member is NULL where the format has no such
 * input:
 *   - a directory: @detect_dir (1 yes, 0 no, -errno: it cannot be read),
 *     then @parse_dir;
 *   - a file, whole (before it is split into lines: a JSON document):
 *     @detect_text, then @parse_text;
 *   - a file's lines: the first line some format's @detect_line claims
 *     decides (@first: it is line 1), then @parse_lines.
 * Parsers return 0 or -errno with the detail in p->err (dump_perr).
 * In messages a CPU is "line L: @cpu_label N has ..." (the line its section
 * starts on), or "@cpu_label N: ..." when @cpu_per_file (one file per CPU:
 * hwloc's puN).
 */
struct dump_format {
	const char *name;  /* cpu_dump_format(): "libcpuid", "aida64", ... */
	int (*detect_dir)(const char *path);
	bool (*detect_text)(const char *buf, size_t len);
	bool (*detect_line)(const char *line, bool first);
	int (*parse_dir)(struct parse *p, const char *path);
	int (*parse_text)(struct parse *p, const char *buf, size_t len);
	int (*parse_lines)(struct parse *p, char **lines, unsigned n);
	const char *cpu_label; /* "logical CPU #", "pu" */
	bool cpu_per_file;
};

/* The formats, each defined in its own file. */
extern const struct dump_format dump_format_libcpuid;       /* dump_libcpuid.c */
extern const struct dump_format dump_format_aida64;         /* dump_aida64.c */
extern const struct dump_format dump_format_aida64_affmask; /* dump_aida64.c */
extern const struct dump_format dump_format_hwloc;          /* dump_hwloc.c */
extern const struct dump_format dump_format_bundle;         /* dump_bundle.c */

/* ------------------------------------------------ common reader (cpu_dump.c) */

/* "line 12: <msg>" or "pu3 line 12: <msg>" into p->err; returns -EINVAL. */
int dump_perr(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Add @r to the current CPU (p->cur) at line p->line; 0 or -ENOMEM. */
int dump_rec_add(struct parse *p, const struct dump_rec *r);

/* Open the section of logical CPU @cpu (p->cur = @cpu); 0 or -EINVAL
 * (CPU twice, or at or above CPU_MAX_CPUS). */
int dump_cpu_begin(struct parse *p, unsigned long cpu);

/*
 * Read the puN file @path (at most CPU_DUMP_PU_MAX_BYTES) and split it
 * into lines (*buf and *lines to be freed by the caller, also on error).
 * A read error is described in p->err, prefixed with @what (the pu file's
 * name); a file over its cap is -EINVAL, one the invoking user may not
 * read -EACCES (cpu/userfile.h userfile_open_read).
 */
int dump_read_lines(struct parse *p, const char *path, const char *what, char **buf,
		    char ***lines, unsigned *n, bool *unterminated, size_t *len);

/* The @len bytes of @text (split in place) read as the file of a line
 * format would be: for a format that carries such a text (the bundle). */
int dump_parse_text(struct parse *p, char *text, size_t len);

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
