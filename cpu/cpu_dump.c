/*
 * cpu/cpu_dump.c - CPUID dump files, read and written by baretma itself.
 *
 * Reading: every record the file holds, per logical CPU, as a sparse
 * (leaf, subleaf) -> {eax, ebx, ecx, edx} table: any leaf, any subleaf.
 * The format is recognised by content (never by file name):
 *
 *   "libcpuid"        libcpuid's raw format, `basic_cpuid[i]=eax ebx ecx edx`,
 *                     `ext_cpuid[i]`, and the subleaf arrays `intel_fn4[i]`
 *                     (leaf 4), `intel_fn11[i]` (0xB), `intel_fn12h[i]`
 *                     (0x12), `intel_fn14h[i]` (0x14), `amd_fn8000001dh[i]`
 *                     (0x8000001D), with optional `version=` header lines and
 *                     `_________________ Logical CPU #N _________________`
 *                     separators (libcpuid 0.6's cpuid_serialize_all_raw_data;
 *                     records before any separator are CPU 0).
 *   "aida64"          `------[ CPUID Registers / Logical CPU #N ]------` (or
 *                     `------[ Logical CPU #N ]------`) sections of lines
 *                     `CPUID 0000000A: EAX-EBX-ECX-EDX [SL nn] [comment]`;
 *                     no [SL] = subleaf 0; nn is hex (AIDA64 writes [SL 0B]).
 *                     Other `------[ ... ]------` sections (Versions, CPU Info,
 *                     MSR Registers, ...) and prose lines are skipped.
 *   "aida64-affmask"  AIDA64 sections opened by
 *                     `CPU#000 AffMask: 0x<high 64 bits>:<low 64 bits>`.
 *   "hwloc"           a hwloc-gather-cpuid directory: one file puN per
 *                     logical CPU N, lines `mask eax ebx ecx edx => eax ebx
 *                     ecx edx` in hex (hwloc topology-x86.c: mask bit 0 =
 *                     input EAX given, bit 2 = input ECX given; without bit 2
 *                     the record answers every subleaf).
 *
 * A line of 80 '-' ends a file dump (libcpuid's test files put the expected
 * output after it).  Decisions:
 *   - Several records for one (cpu, leaf, subleaf): the first in file order
 *     wins, as in hwloc's cpuiddump_find_by_input().  Old AIDA64 versions
 *     list the subleaves of leaves 4, 0xB and 0xD without [SL] tags (the
 *     libcpuid Sandy Bridge i7-2600 dump); the first is subleaf 0, the others
 *     cannot be numbered (its leaf 0xD goes from subleaf 0 to 2) and are
 *     dropped.  libcpuid 0.6.2 keeps the last one instead.
 *   - AIDA64 CPU numbers are those of the section headers; in the affinity
 *     mask variant, the CPU#NNN number.  The mask is not a flat 128-bit
 *     mask: its two halves are Windows processor groups (the 112-CPU Ice
 *     Lake dump has 56 per group, so CPU#056 is bit 0 of the high half).
 *   - CPU numbers need not be dense: a number the dump lacks reads -ENXIO.
 * Errors (-EINVAL, with a detail naming the line or the puN file): no known
 * format, an empty file, a record or section header cut short or malformed,
 * a CPU section with no record, a CPU without leaf 0, or without leaf 1
 * when CPUID.0:EAX >= 1, a CPU lacking a leaf another CPU has (all real
 * dumps give every CPU the same leaves: a dump cut between two lines), a
 * hwloc puN file without its last newline, a CPU number twice or at or
 * above CPU_MAX_CPUS.  A dump cut exactly between two CPU sections cannot
 * be told from a smaller one.
 *
 * Writing: AIDA64's layout (cpu_dump_write_header, cpu_dump_write_cpu), so
 * that libcpuid 0.6.2's loader reads it too.  Subleaves per SDM Vol. 2A
 * CPUID and the AMD APM Vol. 3 appendix E (table sub_rules below); the
 * invalid subleaf that ends a list is not written (as AIDA64 does; libcpuid
 * 0.6.2's fixed subleaf arrays have no room for it).  libcpuid 0.6.2 reads
 * "[SL nn]" with sscanf's %i: [SL 08]..[SL 0F] (leaf 0xD's XSAVE
 * components, leaf 0x18's TLBs) become subleaf 0 for it, in AIDA64's files
 * as in these; baretma reads them as hex.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/cpu.h"

#define DUMP_MAX_BYTES     (64u << 20) /* far above any real dump (~1 MiB) */
#define DUMP_END_LINE      "--------------------------------------------------------------------------------"
#define LEAF_VENDOR        0x0u
#define LEAF_FEATURES      0x1u
#define LEAF_EXT_BASE      0x80000000u
#define LEAF_HV_BASE       0x40000000u
#define LEAF_RANGE_MAX     0xffu /* leaves written per range at most */
#define CPUID_1_ECX_HYPERVISOR (1u << 31)
#define HWLOC_MASK_EAX     0x1u /* input EAX given (hwloc topology-x86.c) */
#define HWLOC_MASK_ECX     0x4u /* input ECX given */
#define HWLOC_MASK_ALL     0xfu /* EAX, EBX, ECX, EDX */

/* Subleaf list ends (SDM Vol. 2A CPUID; AMD APM Vol. 3 E.3 for 8000001DH, 80000026H) */
#define CPUID_4_EAX_CACHE_TYPE    0x1fu   /* leaves 4, 8000001DH: 0 = no more caches */
#define CPUID_B_ECX_LEVEL_TYPE    0xff00u /* leaves 0BH, 1FH, 80000026H: 0 = invalid level */
#define CPUID_12_EAX_SUBLEAF_TYPE 0xfu    /* leaf 12H subleaf >= 2: 1 = EPC section */
#define CPUID_12_EPC_SECTION      0x1u
#define CPUID_1B_EAX_SUBLEAF_TYPE 0xfffu  /* leaf 1BH: 0 = invalid (no more targets) */
#define XSAVE_COMPONENTS          63      /* leaf 0DH: state components 0..62 */

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

static int perr(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "line 12: <msg>" or "pu3 line 12: <msg>"; returns -EINVAL. */
static int perr(struct parse *p, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (p->pu)
		n = snprintf(p->err, p->errlen, "%s ", p->pu);
	if (n >= 0 && (size_t)n < p->errlen && p->line)
		n += snprintf(p->err + n, p->errlen - (size_t)n, "line %u: ", p->line);
	if (n >= 0 && (size_t)n < p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* ------------------------------------------------------------- records */

static int rec_key_cmp(const struct dump_rec *x, const struct dump_rec *y)
{
	if (x->leaf != y->leaf)
		return x->leaf < y->leaf ? -1 : 1;
	if (x->any_subleaf != y->any_subleaf)
		return x->any_subleaf ? 1 : -1;
	if (x->subleaf != y->subleaf)
		return x->subleaf < y->subleaf ? -1 : 1;
	return 0;
}

static int rec_cmp(const void *a, const void *b)
{
	const struct dump_rec *x = a, *y = b;
	int c = rec_key_cmp(x, y);

	if (c)
		return c;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int rec_find_cmp(const void *key, const void *elem)
{
	return rec_key_cmp(key, elem);
}

static int rec_add(struct parse *p, const struct dump_rec *r)
{
	struct dump_cpu *c = &p->d->cpu[p->cur];

	if (c->n == c->cap) {
		unsigned cap = c->cap ? 2 * c->cap : 128;
		struct dump_rec *grown = realloc(c->rec, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		c->rec = grown;
		c->cap = cap;
	}
	c->rec[c->n] = *r;
	c->rec[c->n].line = p->line;
	c->n++;
	return 0;
}

/* Sort by key and keep the first record (in file order) of each key. */
static void cpu_records_finish(struct dump_cpu *c)
{
	unsigned kept = 0;

	if (!c->n)
		return; /* qsort(NULL, 0, ...) is undefined */
	qsort(c->rec, c->n, sizeof(c->rec[0]), rec_cmp);
	for (unsigned i = 0; i < c->n; i++)
		if (!kept || rec_key_cmp(&c->rec[kept - 1], &c->rec[i]))
			c->rec[kept++] = c->rec[i];
	c->n = kept;
}

static const struct dump_rec *rec_find(const struct dump_cpu *c, uint32_t leaf,
				       uint32_t subleaf, bool any)
{
	struct dump_rec key = { .leaf = leaf, .subleaf = any ? 0 : subleaf, .any_subleaf = any };

	if (!c->n)
		return NULL;
	return bsearch(&key, c->rec, c->n, sizeof(c->rec[0]), rec_find_cmp);
}

/* ------------------------------------------------------------ sections */

static int cpu_begin(struct parse *p, unsigned long cpu)
{
	struct dump_cpu *c;

	if (cpu >= CPU_MAX_CPUS)
		return perr(p, "logical CPU #%lu is above baretma's limit of %u CPUs", cpu,
			    CPU_MAX_CPUS);
	c = &p->d->cpu[cpu];
	if (c->present)
		return perr(p, "logical CPU #%lu appears twice (first at line %u)", cpu, c->line);
	c->present = true;
	c->line = p->line;
	if (cpu >= p->d->ncpus)
		p->d->ncpus = (unsigned)cpu + 1;
	p->cur = (int)cpu;
	return 0;
}

/* ---------------------------------------------------------------- lexing */

static int hexval(char ch)
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
static const char *hex32(const char *s, int min, int max, uint32_t *v)
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

static const char *dec(const char *s, unsigned long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return NULL;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno ? NULL : end;
}

static const char *skip_spaces(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Nothing but blanks left. */
static bool at_end(const char *s)
{
	return s && !*skip_spaces(s);
}

/* ---------------------------------------------------------------- AIDA64 */

/*
 * "------[ CPUID Registers / Logical CPU #3 ]------" or
 * "------[ Logical CPU #3 ]------": 1 and *cpu; another "------[ ... ]------"
 * section: 0; not a section header: -1.
 */
static int aida_header(const char *s, unsigned long *cpu)
{
	const char *t;

	if (!starts(s, "------[ ") || !strstr(s, " ]------"))
		return -1;
	s += strlen("------[ ");
	if (starts(s, "CPUID Registers / "))
		s += strlen("CPUID Registers / ");
	if (!starts(s, "Logical CPU #"))
		return 0;
	t = dec(s + strlen("Logical CPU #"), cpu);
	return t && starts(t, " ]------") && at_end(t + strlen(" ]------")) ? 1 : 0;
}

/* Exactly @n hex digits. */
static const char *hex_run(const char *s, int n)
{
	for (int i = 0; i < n; i++)
		if (hexval(*s++) < 0)
			return NULL;
	return s;
}

/* "CPU#000 AffMask: 0x0000000000000000:0000000000000001": 1 and *cpu, else -1.
 * The mask (two Windows processor groups) is checked for shape only. */
static int affmask_header(const char *s, unsigned long *cpu)
{
	if (!starts(s, "CPU#") || !(s = dec(s + 4, cpu)) || !starts(s, " AffMask: 0x"))
		return -1;
	s = hex_run(s + strlen(" AffMask: 0x"), 16);
	if (!s || *s != ':' || !(s = hex_run(s + 1, 16)))
		return -1;
	return at_end(s) ? 1 : -1;
}

/* "CPUID 0000000A:" - the start of an AIDA64 record line. */
static bool aida_record_shaped(const char *s)
{
	uint32_t leaf;

	if (!starts(s, "CPUID "))
		return false;
	s = hex32(s + strlen("CPUID "), 8, 8, &leaf);
	return s && *s == ':';
}

/*
 * "CPUID 0000000A: 07300805-00000000-00000007-00008603 [SL 01] [comment]".
 * Every register has its 8 digits, so a line cut short never parses.
 */
static bool aida_record(const char *s, struct dump_rec *r)
{
	memset(r, 0, sizeof(*r));
	s = hex32(s + strlen("CPUID "), 8, 8, &r->leaf);
	if (!s || !starts(s, ": "))
		return false;
	s += 2;
	for (int i = 0; i < 4; i++) {
		if (i && *s++ != '-')
			return false;
		if (!(s = hex32(s, 8, 8, &r->regs[i])))
			return false;
	}
	if (*s && *s != ' ')
		return false;
	s = skip_spaces(s);
	if (starts(s, "[SL ")) {
		s = hex32(s + strlen("[SL "), 1, 8, &r->subleaf);
		if (!s || *s != ']')
			return false;
	}
	return true;
}

/* One line inside or outside a CPU section. */
static int aida_line(struct parse *p, const char *s)
{
	struct dump_rec r;

	if (p->cur < 0) {
		/* Prose such as "CPUID Manufacturer: GenuineIntel" is fine here. */
		return aida_record_shaped(s) ? perr(p, "CPUID record outside a 'Logical CPU' section") : 0;
	}
	if (!starts(s, "CPUID "))
		return 0; /* "allcpu: ...", cache descriptions, blank lines */
	if (!aida_record(s, &r))
		return perr(p, "truncated or malformed CPUID record '%.60s'", s);
	return rec_add(p, &r);
}

/* @s is "------[" and more, or a prefix of "------[ " (a header cut short). */
static bool header_like(const char *s, bool affmask)
{
	const char *h = affmask ? "CPU#" : "------[ ";
	size_t n = strlen(s);

	return n && (n < strlen(h) ? !strncmp(s, h, n) : starts(s, affmask ? "CPU#" : "------["));
}

static int parse_aida(struct parse *p, char **lines, unsigned n, bool affmask)
{
	int err = 0;

	for (unsigned i = 0; i < n && !err; i++) {
		unsigned long cpu;
		int hdr = affmask ? affmask_header(lines[i], &cpu) : aida_header(lines[i], &cpu);

		p->line = i + 1;
		if (hdr == 1)
			err = cpu_begin(p, cpu);
		else if (hdr == 0)
			p->cur = -1; /* another AIDA64 section */
		else if (header_like(lines[i], affmask))
			err = perr(p, "malformed section header '%.60s' (truncated?)", lines[i]);
		else
			err = aida_line(p, lines[i]);
	}
	return err;
}

/* -------------------------------------------------------------- libcpuid */

static const struct {
	const char *name;
	uint32_t leaf;
	bool subleaf_array; /* [i] is the subleaf, not the leaf offset */
} native_arrays[] = {
	{ "basic_cpuid", 0x0, false },
	{ "ext_cpuid", LEAF_EXT_BASE, false },
	{ "intel_fn4", 0x4, true },
	{ "intel_fn11", 0xb, true },
	{ "intel_fn12h", 0x12, true },
	{ "intel_fn14h", 0x14, true },
	{ "amd_fn8000001dh", 0x8000001du, true },
};

/* "_________________ Logical CPU #3 _________________" */
static bool native_separator(const char *s, unsigned long *cpu)
{
	static const char bar[] = "_________________";

	if (!starts(s, bar) || !starts(s + strlen(bar), " Logical CPU #"))
		return false;
	s = dec(s + strlen(bar) + strlen(" Logical CPU #"), cpu);
	return s && *s == ' ' && starts(skip_spaces(s), bar) &&
	       at_end(skip_spaces(s) + strlen(bar));
}

/* Length of the identifier NAME of "NAME[i]=...", 0 if the line is not one. */
static size_t native_name_len(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_");

	return n && s[n] == '[' ? n : 0;
}

static int native_array(const char *s, size_t len)
{
	for (size_t i = 0; i < sizeof(native_arrays) / sizeof(native_arrays[0]); i++)
		if (strlen(native_arrays[i].name) == len && !strncmp(s, native_arrays[i].name, len))
			return (int)i;
	return -1;
}

/* "[i]=eeeeeeee bbbbbbbb cccccccc dddddddd" (libcpuid writes %08x). */
static bool native_values(const char *s, unsigned long *idx, uint32_t regs[4])
{
	if (!(s = dec(s + 1, idx)) || !starts(s, "]="))
		return false;
	s += 2;
	for (int i = 0; i < 4; i++) {
		if (i && *s++ != ' ')
			return false;
		if (!(s = hex32(s, 8, 8, &regs[i])))
			return false;
	}
	return at_end(s);
}

static int native_record(struct parse *p, const char *s, size_t len)
{
	int a = native_array(s, len);
	unsigned long idx;
	struct dump_rec r = { 0 };
	int err;

	if (!native_values(s + len, &idx, r.regs))
		return perr(p, "truncated or malformed libcpuid record '%.60s'", s);
	if (a < 0)
		return 0; /* an array of a newer libcpuid: not mapped to a leaf */
	if (idx > UINT32_MAX - native_arrays[a].leaf)
		return perr(p, "index %lu out of range", idx);
	r.leaf = native_arrays[a].leaf + (native_arrays[a].subleaf_array ? 0 : (uint32_t)idx);
	r.subleaf = native_arrays[a].subleaf_array ? (uint32_t)idx : 0;
	if (p->cur < 0 && (err = cpu_begin(p, 0))) /* no separator: CPU 0 */
		return err;
	return rec_add(p, &r);
}

static int native_line(struct parse *p, const char *s)
{
	size_t len = native_name_len(s);
	unsigned long cpu;
	const char *eq = strchr(s, '=');

	if (at_end(s))
		return 0;
	if (native_separator(s, &cpu))
		return cpu_begin(p, cpu);
	if (len)
		return native_record(p, s, len);
	/* "version=0.6.2" and other header lines of libcpuid */
	if (eq && eq > s && strspn(s, "abcdefghijklmnopqrstuvwxyz_") == (size_t)(eq - s))
		return 0;
	return perr(p, "not libcpuid raw data: '%.60s'", s);
}

static int parse_native(struct parse *p, char **lines, unsigned n)
{
	int err = 0;

	for (unsigned i = 0; i < n && !err; i++) {
		p->line = i + 1;
		err = native_line(p, lines[i]);
	}
	return err;
}

/* ----------------------------------------------------------------- hwloc */

/* "5 4 0 1 0 => 3c004122 1c0003f 3f 0" (hwloc-gather-cpuid prints %x). */
static bool hwloc_record(const char *s, uint32_t *mask, struct dump_rec *r)
{
	uint32_t in[4];

	memset(r, 0, sizeof(*r));
	if (!(s = hex32(s, 1, 8, mask)))
		return false;
	for (int i = 0; i < 4; i++)
		if (*s++ != ' ' || !(s = hex32(s, 1, 8, &in[i])))
			return false;
	if (!starts(s, " => "))
		return false;
	s += strlen(" =>");
	for (int i = 0; i < 4; i++)
		if (*s++ != ' ' || !(s = hex32(s, 1, 8, &r->regs[i])))
			return false;
	r->leaf = in[0];
	r->any_subleaf = !(*mask & HWLOC_MASK_ECX);
	r->subleaf = r->any_subleaf ? 0 : in[2];
	return at_end(s);
}

static int hwloc_line(struct parse *p, const char *s)
{
	struct dump_rec r;
	uint32_t mask;

	if (*s == '#' || at_end(s))
		return 0;
	if (!hwloc_record(s, &mask, &r))
		return perr(p, "truncated or malformed hwloc-gather-cpuid record '%.60s'", s);
	/* Input EBX/EDX (bits 1, 3) are ignored by CPUID; EAX must be given. */
	if (!(mask & HWLOC_MASK_EAX) || (mask & ~HWLOC_MASK_ALL))
		return perr(p, "unsupported input mask 0x%x", mask);
	return rec_add(p, &r);
}

/* ------------------------------------------------------------ file input */

static int slurp(const char *path, char **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	size_t cap = 1 << 16, n = 0;
	char *b = NULL;

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t r;

		if (!b || n + 1 >= cap) {
			char *grown = n + 1 >= DUMP_MAX_BYTES ? NULL : realloc(b, cap *= 2);

			if (!grown) {
				err = n + 1 >= DUMP_MAX_BYTES ? -EFBIG : -ENOMEM;
				break;
			}
			b = grown;
		}
		r = read(fd, b + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			err = r < 0 ? -errno : 0;
			break;
		}
		n += (size_t)r;
	}
	close(fd);
	if (err) {
		free(b);
		return err;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

/* Split @buf in place into lines (without "\n" or "\r\n"), up to the
 * 80-dash line.  *unterminated: the last line had no newline. */
static int split_lines(char *buf, size_t len, char ***lines, unsigned *n, bool *unterminated)
{
	unsigned cap = 1, count = 0;
	char **v;

	for (size_t i = 0; i < len; i++)
		cap += buf[i] == '\n';
	v = malloc(cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	*unterminated = len && buf[len - 1] != '\n';
	for (char *s = buf; s < buf + len; count++) {
		char *nl = memchr(s, '\n', (size_t)(buf + len - s));
		char *end = nl ? nl : buf + len;

		*end = '\0';
		if (end > s && end[-1] == '\r')
			end[-1] = '\0';
		if (!strcmp(s, DUMP_END_LINE))
			break;
		v[count] = s;
		s = end + 1;
	}
	*lines = v;
	*n = count;
	return 0;
}

enum dump_format { FMT_NONE, FMT_LIBCPUID, FMT_AIDA64, FMT_AFFMASK, FMT_HWLOC_FILE };

/* The format announced by one line, FMT_NONE for prose. */
static enum dump_format line_format(const char *s, bool first)
{
	unsigned long cpu;

	if (aida_header(s, &cpu) == 1 || aida_record_shaped(s))
		return FMT_AIDA64;
	if (affmask_header(s, &cpu) == 1)
		return FMT_AFFMASK;
	if (native_separator(s, &cpu) || native_array(s, native_name_len(s)) >= 0 ||
	    (first && starts(s, "version=")))
		return FMT_LIBCPUID;
	{
		uint32_t mask;
		struct dump_rec r;

		if (hwloc_record(s, &mask, &r))
			return FMT_HWLOC_FILE;
	}
	return FMT_NONE;
}

static int parse_lines(struct parse *p, char **lines, unsigned n)
{
	enum dump_format f = FMT_NONE;

	for (unsigned i = 0; i < n && f == FMT_NONE; i++)
		f = line_format(lines[i], i == 0);
	switch (f) {
	case FMT_AIDA64:
		p->d->format = "aida64";
		return parse_aida(p, lines, n, false);
	case FMT_AFFMASK:
		p->d->format = "aida64-affmask";
		return parse_aida(p, lines, n, true);
	case FMT_LIBCPUID:
		p->d->format = "libcpuid";
		return parse_native(p, lines, n);
	case FMT_HWLOC_FILE:
		return perr(p, "one file of a hwloc-gather-cpuid directory: give the directory");
	default:
		return perr(p, "not a CPUID dump: no AIDA64 'Logical CPU' section, libcpuid "
			    "raw record or hwloc-gather-cpuid record found");
	}
}

/*
 * Read @path and split it into lines (*buf and *lines to be freed by the
 * caller, also on error).  A read error is described in p->err, prefixed
 * with @what (a pu file's name) when not NULL; an oversized file is -EINVAL.
 */
static int read_lines(struct parse *p, const char *path, const char *what, char **buf,
		      char ***lines, unsigned *n, bool *unterminated, size_t *len)
{
	int err = slurp(path, buf, len);

	if (err) {
		snprintf(p->err, p->errlen, "%s%s%s", what ? what : "", what ? ": " : "",
			 err == -EFBIG ? "larger than any CPUID dump" : strerror(-err));
		return err == -EFBIG ? -EINVAL : err;
	}
	return *len ? split_lines(*buf, *len, lines, n, unterminated) : 0;
}

static int parse_file(struct parse *p, const char *path)
{
	char *buf = NULL, **lines = NULL;
	size_t len = 0;
	unsigned n = 0;
	bool unterminated;
	int err = read_lines(p, path, NULL, &buf, &lines, &n, &unterminated, &len);

	if (!err)
		err = len ? parse_lines(p, lines, n) : perr(p, "empty file");
	free(lines);
	free(buf);
	return err;
}

/* ------------------------------------------------------------ hwloc dirs */

/* "pu17" (hwloc-gather-cpuid's names: no sign, no leading zero). */
static bool pu_name(const char *name, unsigned long *cpu)
{
	const char *end;

	if (!starts(name, "pu") || (name[2] == '0' && name[3]) || !(end = dec(name + 2, cpu)))
		return false;
	return !*end;
}

static int parse_pu(struct parse *p, const char *path, unsigned long cpu)
{
	char *buf = NULL, **lines = NULL;
	size_t len = 0;
	unsigned n = 0;
	bool unterminated = false;
	int err = read_lines(p, path, p->pu, &buf, &lines, &n, &unterminated, &len);

	p->line = 0;
	if (err || (err = cpu_begin(p, cpu)))
		goto out;
	for (unsigned i = 0; i < n && !err; i++) {
		p->line = i + 1;
		err = hwloc_line(p, lines[i]);
	}
	/* hwloc-gather-cpuid ends every line: a last line without one was cut. */
	if (!err && unterminated && n && !at_end(lines[n - 1]))
		err = perr(p, "no newline at the end of the file (truncated?)");
out:
	free(lines);
	free(buf);
	return err;
}

static int parse_hwloc_dir(struct parse *p, const char *path)
{
	bool seen[CPU_MAX_CPUS] = { false };
	DIR *dir = opendir(path);
	struct dirent *de;
	unsigned found = 0;
	int err = 0;

	if (!dir) {
		snprintf(p->err, p->errlen, "%s", strerror(errno));
		return -errno;
	}
	while ((de = readdir(dir)) != NULL) {
		unsigned long cpu;

		if (!pu_name(de->d_name, &cpu))
			continue; /* hwloc-cpuid-info, XML exports, ... */
		if (cpu >= CPU_MAX_CPUS) {
			closedir(dir);
			return perr(p, "%s is above baretma's limit of %u CPUs", de->d_name, CPU_MAX_CPUS);
		}
		seen[cpu] = true;
		found++;
	}
	closedir(dir);
	if (!found)
		return perr(p, "not a CPUID dump: a directory without hwloc-gather-cpuid puN files");
	p->d->format = "hwloc";
	/* In CPU order, so that the first broken file reported is always the same. */
	for (unsigned cpu = 0; cpu < CPU_MAX_CPUS && !err; cpu++) {
		char file[PATH_MAX], pu[16];

		if (!seen[cpu])
			continue;
		snprintf(pu, sizeof(pu), "pu%u", cpu);
		if ((size_t)snprintf(file, sizeof(file), "%s/%s", path, pu) >= sizeof(file)) {
			snprintf(p->err, p->errlen, "%s: %s", pu, strerror(ENAMETOOLONG));
			return -ENAMETOOLONG; /* cut, it could name another file */
		}
		p->pu = pu;
		err = parse_pu(p, file, cpu);
	}
	p->pu = NULL;
	return err;
}

/* -------------------------------------------------------------- checking */

static int cpu_err(struct parse *p, unsigned cpu, const char *what)
{
	const struct dump_cpu *c = &p->d->cpu[cpu];

	if (!strcmp(p->d->format, "hwloc"))
		snprintf(p->err, p->errlen, "pu%u: %s", cpu, what);
	else
		snprintf(p->err, p->errlen, "line %u: logical CPU #%u has %s", c->line, cpu, what);
	return -EINVAL;
}

/* The first leaf one of @a, @b has and the other lacks (*in_a: @a has it);
 * false when both hold the same leaves.  Records are sorted by leaf. */
static bool leaf_sets_differ(const struct dump_cpu *a, const struct dump_cpu *b, uint32_t *leaf,
			     bool *in_a)
{
	unsigned i = 0, j = 0;

	while (i < a->n || j < b->n) {
		if (j == b->n || (i < a->n && a->rec[i].leaf < b->rec[j].leaf)) {
			*leaf = a->rec[i].leaf;
			*in_a = true;
			return true;
		}
		if (i == a->n || b->rec[j].leaf < a->rec[i].leaf) {
			*leaf = b->rec[j].leaf;
			*in_a = false;
			return true;
		}
		for (uint32_t l = a->rec[i].leaf; i < a->n && a->rec[i].leaf == l; i++)
			;
		for (uint32_t l = b->rec[j].leaf; j < b->n && b->rec[j].leaf == l; j++)
			;
	}
	return false;
}

/* One CPU on its own: records, leaf 0, leaf 1 when leaf 0 says so. */
static int cpu_check(struct parse *p, unsigned cpu)
{
	struct dump_cpu *c = &p->d->cpu[cpu];
	uint32_t r[4];

	cpu_records_finish(c);
	if (!c->n)
		return cpu_err(p, cpu, "no CPUID record (truncated?)");
	if (cpu_dump_cpuid(p->d, cpu, LEAF_VENDOR, 0, r))
		return cpu_err(p, cpu, "no leaf 0 (truncated?)");
	if (r[0] >= LEAF_FEATURES && cpu_dump_cpuid(p->d, cpu, LEAF_FEATURES, 0, r))
		return cpu_err(p, cpu, "no leaf 1 although CPUID.0:EAX >= 1 (truncated?)");
	return 0;
}

/*
 * Every CPU passes cpu_check(), and all hold the same leaves (subleaves may
 * differ: hybrid parts): true of every real dump in ../shared/cpuid, and
 * what shows a dump cut between two lines.
 */
static int dump_check(struct parse *p)
{
	struct cpu_dump *d = p->d;
	int first = -1, err;

	for (unsigned cpu = 0; cpu < d->ncpus; cpu++) {
		char what[96];
		uint32_t leaf;
		bool in_first;

		if (!d->cpu[cpu].present)
			continue;
		if ((err = cpu_check(p, cpu)))
			return err;
		if (first < 0) {
			first = (int)cpu;
			continue;
		}
		if (!leaf_sets_differ(&d->cpu[first], &d->cpu[cpu], &leaf, &in_first))
			continue;
		snprintf(what, sizeof(what), "no leaf 0x%X, which %s%d has (truncated?)", leaf,
			 strcmp(d->format, "hwloc") ? "logical CPU #" : "pu", in_first ? first : (int)cpu);
		return cpu_err(p, in_first ? cpu : (unsigned)first, what);
	}
	if (first < 0) {
		p->line = 0;
		return perr(p, "no logical CPU with CPUID records");
	}
	return 0;
}

/* ----------------------------------------------------------------- API */

void cpu_dump_free(struct cpu_dump *d)
{
	if (!d)
		return;
	for (unsigned i = 0; i < CPU_MAX_CPUS; i++)
		free(d->cpu[i].rec);
	free(d);
}

struct cpu_dump *cpu_dump_load(const char *path, char *err, size_t errlen)
{
	struct cpu_dump *d = calloc(1, sizeof(*d));
	struct parse p = { .d = d, .err = err, .errlen = errlen, .cur = -1 };
	struct stat st;
	int rc;

	err[0] = '\0';
	if (!d) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		errno = ENOMEM;
		return NULL;
	}
	if (stat(path, &st)) {
		rc = -errno;
		snprintf(err, errlen, "%s", strerror(-rc));
	} else {
		rc = S_ISDIR(st.st_mode) ? parse_hwloc_dir(&p, path) : parse_file(&p, path);
	}
	if (!rc)
		rc = dump_check(&p);
	if (rc) {
		if (rc == -ENOMEM)
			snprintf(err, errlen, "%s", strerror(ENOMEM));
		cpu_dump_free(d);
		errno = -rc;
		return NULL;
	}
	return d;
}

const char *cpu_dump_format(const struct cpu_dump *d)
{
	return d->format;
}

unsigned cpu_dump_ncpus(const struct cpu_dump *d)
{
	return d->ncpus;
}

int cpu_dump_cpuid(const struct cpu_dump *d, unsigned cpu, uint32_t leaf, uint32_t subleaf,
		   uint32_t regs[4])
{
	const struct dump_cpu *c;
	const struct dump_rec *exact, *any, *r;

	if (cpu >= d->ncpus || !d->cpu[cpu].present)
		return -ENXIO;
	c = &d->cpu[cpu];
	exact = rec_find(c, leaf, subleaf, false);
	any = rec_find(c, leaf, 0, true);
	/* hwloc answers with the first record that matches, in file order. */
	r = exact && (!any || exact->line < any->line) ? exact : any;
	if (!r)
		return -ENODATA;
	memcpy(regs, r->regs, sizeof(r->regs));
	return 0;
}

/* ----------------------------------------------------------------- writing */

enum sub_rule {
	SUB_EAX_MAX,    /* subleaves 0..(subleaf 0 EAX) */
	SUB_CACHE,      /* until EAX[4:0] (cache type) = 0 */
	SUB_LEVEL,      /* until ECX[15:8] (level type) = 0 */
	SUB_XSAVE,      /* 0, 1, and each component of XCR0 | IA32_XSS */
	SUB_BITS_EAX,   /* 0 and each bit set in subleaf 0 EAX */
	SUB_BITS_EBX,   /* 0 and each bit set in subleaf 0 EBX (resource IDs) */
	SUB_BITS_EDX,   /* 0 and each bit set in subleaf 0 EDX (resource IDs) */
	SUB_SGX,        /* 0, 1, then EPC sections while EAX[3:0] = 1 */
	SUB_PCONFIG,    /* until EAX[11:0] (target type) = 0 */
};

/* Leaves with subleaves (SDM Vol. 2A CPUID, Table 3-8; AMD APM Vol. 3 E.3). */
static const struct {
	uint32_t leaf;
	enum sub_rule rule;
} sub_rules[] = {
	{ 0x4, SUB_CACHE },         /* deterministic cache parameters */
	{ 0x7, SUB_EAX_MAX },       /* structured extended features (7.1: ArchPerfmonExt) */
	{ 0xb, SUB_LEVEL },         /* extended topology */
	{ 0xd, SUB_XSAVE },         /* processor extended state */
	{ 0xf, SUB_BITS_EDX },      /* RDT monitoring */
	{ 0x10, SUB_BITS_EBX },     /* RDT allocation */
	{ 0x12, SUB_SGX },          /* SGX capabilities and EPC sections */
	{ 0x14, SUB_EAX_MAX },      /* processor trace */
	{ 0x17, SUB_EAX_MAX },      /* SoC vendor attributes */
	{ 0x18, SUB_EAX_MAX },      /* deterministic address translation */
	{ 0x1b, SUB_PCONFIG },      /* PCONFIG */
	{ 0x1d, SUB_EAX_MAX },      /* tile information */
	{ 0x1e, SUB_EAX_MAX },      /* TMUL information */
	{ 0x1f, SUB_LEVEL },        /* V2 extended topology */
	{ 0x20, SUB_EAX_MAX },      /* HRESET */
	{ 0x23, SUB_BITS_EAX },     /* architectural perfmon extended: EAX = valid subleaves */
	{ 0x24, SUB_EAX_MAX },      /* AVX10 */
	{ 0x8000001du, SUB_CACHE }, /* AMD cache topology */
	{ 0x80000020u, SUB_BITS_EBX }, /* AMD platform QoS */
	{ 0x80000026u, SUB_LEVEL }, /* AMD extended CPU topology */
};

#define SUB_MAX 64 /* subleaves written per leaf at most (garbage bound) */

static int sub_rule_of(uint32_t leaf)
{
	for (size_t i = 0; i < sizeof(sub_rules) / sizeof(sub_rules[0]); i++)
		if (sub_rules[i].leaf == leaf)
			return (int)sub_rules[i].rule;
	return -1;
}

/* Rules decided by subleaf 0 alone: is subleaf @s (> 0) listed?
 * @x1: subleaf 1 of leaf 0xD (IA32_XSS bits in ECX, EDX). */
static bool sub_listed(enum sub_rule rule, uint32_t s, const uint32_t r0[4], const uint32_t x1[4])
{
	uint64_t xsave = ((uint64_t)r0[3] << 32 | r0[0]) | ((uint64_t)x1[3] << 32 | x1[2]);

	switch (rule) {
	case SUB_EAX_MAX: return s <= r0[0];
	case SUB_XSAVE: return s == 1 || (s < XSAVE_COMPONENTS && (xsave >> s & 1));
	case SUB_BITS_EAX: return s < 32 && (r0[0] >> s & 1);
	case SUB_BITS_EBX: return s < 32 && (r0[1] >> s & 1);
	case SUB_BITS_EDX: return s < 32 && (r0[3] >> s & 1);
	default: return true;
	}
}

/* Rules that enumerate until a subleaf says it is invalid: is @r (subleaf
 * @s > 0) valid?  The invalid one that ends the list is not written, as
 * AIDA64 does (and libcpuid 0.6.2's fixed arrays have no room for it). */
static bool sub_valid(enum sub_rule rule, uint32_t s, const uint32_t r[4])
{
	switch (rule) {
	case SUB_CACHE: return (r[0] & CPUID_4_EAX_CACHE_TYPE) != 0;
	case SUB_LEVEL: return (r[2] & CPUID_B_ECX_LEVEL_TYPE) != 0;
	case SUB_SGX: return s == 1 || (r[0] & CPUID_12_EAX_SUBLEAF_TYPE) == CPUID_12_EPC_SECTION;
	case SUB_PCONFIG: return (r[0] & CPUID_1B_EAX_SUBLEAF_TYPE) != 0;
	default: return true;
	}
}

static void write_record(FILE *f, uint32_t leaf, const uint32_t r[4], int subleaf)
{
	fprintf(f, "CPUID %08X: %08X-%08X-%08X-%08X", leaf, r[0], r[1], r[2], r[3]);
	if (subleaf >= 0)
		fprintf(f, " [SL %02X]", (unsigned)subleaf);
	fputc('\n', f);
}

/* Subleaves 1.. of @leaf by its rule. */
static int write_subleaves(FILE *f, const struct cpu_source *src, unsigned cpu, uint32_t leaf,
			   enum sub_rule rule, const uint32_t r0[4])
{
	uint32_t r[4], x1[4] = { 0 };
	int err;

	if (rule == SUB_XSAVE && (err = cpu_source_cpuid(src, cpu, leaf, 1, x1)) && err != -ENODATA)
		return err;
	for (uint32_t s = 1; s < SUB_MAX; s++) {
		if (!sub_listed(rule, s, r0, x1))
			continue;
		err = cpu_source_cpuid(src, cpu, leaf, s, r);
		if (err == -ENODATA)
			continue; /* a dump without it */
		if (err)
			return err;
		if (!sub_valid(rule, s, r))
			break;
		write_record(f, leaf, r, (int)s);
	}
	return 0;
}

/* One leaf with its subleaves; a leaf the source lacks (-ENODATA: a dump
 * without it) is left out. */
static int write_leaf(FILE *f, const struct cpu_source *src, unsigned cpu, uint32_t leaf)
{
	int rule = sub_rule_of(leaf), err;
	uint32_t r0[4];

	err = cpu_source_cpuid(src, cpu, leaf, 0, r0);
	if (err)
		return err == -ENODATA ? 0 : err;
	write_record(f, leaf, r0, rule < 0 ? -1 : 0);
	return rule < 0 ? 0 : write_subleaves(f, src, cpu, leaf, (enum sub_rule)rule, r0);
}

/* Leaves @base..max of a range, max = CPUID.@base:EAX, at most @base + 0xff. */
static int write_range(FILE *f, const struct cpu_source *src, unsigned cpu, uint32_t base)
{
	uint32_t r[4], max;
	int err = cpu_source_cpuid(src, cpu, base, 0, r);

	if (err)
		return err == -ENODATA && base != LEAF_VENDOR ? 0 : err;
	max = r[0] < base ? base : r[0] - base > LEAF_RANGE_MAX ? base + LEAF_RANGE_MAX : r[0];
	for (uint32_t leaf = base; leaf <= max && !err; leaf++)
		err = write_leaf(f, src, cpu, leaf);
	return err;
}

int cpu_dump_write_header(FILE *f, const char *versions)
{
	static const char *const reserved[] = { "------[", "CPUID ", "CPU#", "_________________" };
	const char *s = versions ? versions : "";

	/* Nothing in the Versions section may look like a section or a record. */
	for (const char *l = s; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
		for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
			if (starts(l, reserved[i]) || starts(l, DUMP_END_LINE))
				return -EINVAL;
	/* libcpuid 0.6.2 recognises AIDA64 by this exact first line. */
	fprintf(f, "------[ Versions ]------\n\n%s%s\n", s, *s && s[strlen(s) - 1] != '\n' ? "\n" : "");
	return ferror(f) ? -EIO : 0;
}

int cpu_dump_write_cpu(FILE *f, const struct cpu_source *src, unsigned cpu)
{
	uint32_t r[4];
	int err = cpu_source_cpuid(src, cpu, LEAF_VENDOR, 0, r);

	if (err)
		return err;
	fprintf(f, "------[ CPUID Registers / Logical CPU #%u ]------\n\n", cpu);
	err = write_range(f, src, cpu, LEAF_VENDOR);
	/* Hypervisor leaves when CPUID.1:ECX[31] says there is one. */
	if (!err && !cpu_source_cpuid(src, cpu, LEAF_FEATURES, 0, r) &&
	    (r[2] & CPUID_1_ECX_HYPERVISOR))
		err = write_range(f, src, cpu, LEAF_HV_BASE);
	if (!err)
		err = write_range(f, src, cpu, LEAF_EXT_BASE);
	fputc('\n', f);
	if (!err && ferror(f))
		err = -EIO;
	return err;
}
