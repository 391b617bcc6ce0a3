/*
 * cpu/cpu_dump.c - CPUID dump files read by baretma itself: the dump object,
 * the common reader (a file into lines, format detection, records, CPU
 * sections, checks) and the cpu_dump_* API of cpu/cpu_dump.h.
 *
 * Reading: every record the file holds, per logical CPU, as a sparse
 * (leaf, subleaf) -> {eax, ebx, ecx, edx} table: any leaf, any subleaf.
 * The format is recognised by content (never by file name): each format is
 * one file (hwloc's one-backend-per-file) that says what it reads, and its
 * source, and one entry in the table below (libpfm4's per-PMU detect):
 *
 *   "libcpuid"        libcpuid's raw format: cpu/dump_libcpuid.c.
 *   "aida64"          AIDA64's `------[ CPUID Registers / Logical CPU #N ]------`
 *                     sections: cpu/dump_aida64.c.
 *   "aida64-affmask"  AIDA64 sections opened by `CPU#000 AffMask: ...`:
 *                     cpu/dump_aida64.c.
 *   "hwloc"           a hwloc-gather-cpuid directory: cpu/dump_hwloc.c.
 *   "baretma-bundle/1" a report bundle, its CPUID text: cpu/dump_bundle.c.
 *
 * A line of 80 '-' ends a file dump (libcpuid's test files put the expected
 * output after it).  Decisions:
 *   - Several records for one (cpu, leaf, subleaf): the first in file order
 *     wins, as in hwloc's cpuiddump_find_by_input().  Old AIDA64 versions
 *     list the subleaves of leaves 4, 0xB and 0xD without [SL] tags (the
 *     libcpuid Sandy Bridge i7-2600 dump); the first is subleaf 0, the others
 *     cannot be numbered (its leaf 0xD goes from subleaf 0 to 2) and are
 *     dropped.  libcpuid 0.6.2 keeps the last one instead.
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
 * Writing (`baretma cpuid dump`, AIDA64's layout): cpu/dump_write.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/array.h"
#include "cpu/cpu_dump.h"
#include "cpu/dump_int.h"
#include "cpu/escape.h"
#include "cpu/text.h"
#include "cpu/userfile.h"

/*
 * "line 12: <msg>" or "pu3 line 12: <msg>"; returns -EINVAL.  The message
 * quotes dump lines: it is escaped (cpu/escape.h) before it is kept.
 */
int dump_perr(struct parse *p, const char *fmt, ...)
{
	char *raw = NULL, *shown;
	va_list ap;
	int rc = 0;

	if (p->pu)
		rc = text_appendf(&raw, NULL, "%s ", p->pu);
	if (!rc && p->line)
		rc = text_appendf(&raw, NULL, "line %u: ", p->line);
	if (!rc) {
		char *msg = NULL;

		va_start(ap, fmt);
		rc = text_vsetf(&msg, fmt, ap);
		va_end(ap);
		if (!rc)
			rc = text_appendf(&raw, NULL, "%s", msg);
		free(msg);
	}
	shown = rc ? NULL : esc_strdup(raw);
	free(raw);
	if (!shown)
		return -ENOMEM;
	free(*p->err);
	*p->err = shown;
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

int dump_rec_add(struct parse *p, const struct dump_rec *r)
{
	struct dump_cpu *c = &p->d->cpu[p->cur];

	if (array_grow(&c->rec, &c->cap, (size_t)c->n + 1, sizeof(*c->rec), 128))
		return -ENOMEM;
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

int dump_cpu_begin(struct parse *p, unsigned long cpu)
{
	struct dump_cpu *c;

	if (cpu >= CPU_MAX_CPUS)
		return dump_perr(p, "logical CPU #%lu is above baretma's limit of %u CPUs", cpu,
			    CPU_MAX_CPUS);
	c = &p->d->cpu[cpu];
	if (c->present)
		return dump_perr(p, "logical CPU #%lu appears twice (first at line %u)", cpu,
				 c->line);
	c->present = true;
	c->line = p->line;
	if (cpu >= p->d->ncpus)
		p->d->ncpus = (unsigned)cpu + 1;
	p->cur = (int)cpu;
	return 0;
}

/* ------------------------------------------------------------ file input */

/*
 * @path's bytes in *@buf (NUL-terminated, *@len of them): a regular file
 * the invoking user could read (cpu/userfile.h: a FIFO would block, a
 * device act; under sudo, root reads no file for a user who could not),
 * of at most @cap bytes, read in blocks.  On error p->err says it, after
 * "@what: " when @what is not NULL, and the return is -errno: -EINVAL
 * (not a regular file, or over @cap: bad data), -EACCES, -ENOENT, ...
 */
static int slurp(struct parse *p, const char *path, const char *what, size_t cap,
		 const char *kind, char **buf, size_t *len)
{
	int fd = userfile_open_read(AT_FDCWD, path, 0), err;
	char why[400];
	uint64_t size = 0;

	*buf = NULL;
	*len = 0;
	err = fd < 0 ? fd : userfile_read_all(fd, cap, buf, len, &size);
	if (fd >= 0)
		close(fd);
	if (!err)
		return 0;
	if (err == -EFBIG)
		userfile_cap_text(why, sizeof(why), size, cap, kind);
	else if (err == -EACCES)
		userfile_read_denied(why, sizeof(why));
	else
		snprintf(why, sizeof(why), "%s", err == -EINVAL ? USERFILE_NOT_REGULAR :
			 strerror(-err));
	text_setf(p->err, "%s%s%s", what ? what : "", what ? ": " : "", why);
	return err == -EFBIG ? -EINVAL : err;
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

/*
 * The formats, in the order they are asked (libpfm4's pfmlib_pmus[], each
 * PMU's pmu_detect): the first that recognises the content reads it
 * (cpu/dump_int.h struct dump_format).  Order matters only where two could
 * claim one input: a line shaped like an AIDA64 record is AIDA64's before
 * anything else's.
 */
static const struct dump_format *const formats[] = {
	&dump_format_bundle,
	&dump_format_aida64,
	&dump_format_aida64_affmask,
	&dump_format_libcpuid,
	&dump_format_hwloc,
};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

/* The first line some format claims decides which reads all @n lines. */
static int parse_lines(struct parse *p, char **lines, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		for (size_t k = 0; k < NFORMATS; k++)
			if (formats[k]->detect_line && formats[k]->detect_line(lines[i], i == 0)) {
				p->d->format = formats[k];
				return formats[k]->parse_lines(p, lines, n);
			}
	return dump_perr(p, "not a CPUID dump: no AIDA64 'Logical CPU' section, libcpuid "
			 "raw record or hwloc-gather-cpuid record found");
}

int dump_parse_text(struct parse *p, char *text, size_t len)
{
	char **lines = NULL;
	unsigned n = 0;
	bool unterminated;
	int err = split_lines(text, len, &lines, &n, &unterminated);

	if (!err)
		err = parse_lines(p, lines, n);
	free(lines);
	return err;
}

int dump_read_lines(struct parse *p, const char *path, const char *what, char **buf,
		    char ***lines, unsigned *n, bool *unterminated, size_t *len)
{
	int err = slurp(p, path, what, CPU_DUMP_PU_MAX_BYTES, "a hwloc-gather-cpuid puN file",
			buf, len);

	if (err)
		return err;
	return *len ? split_lines(*buf, *len, lines, n, unterminated) : 0;
}

static int parse_file(struct parse *p, const char *path)
{
	char *buf = NULL, **lines = NULL;
	size_t len = 0;
	unsigned n = 0;
	bool unterminated;
	int err = slurp(p, path, NULL, CPU_DUMP_MAX_BYTES, "a CPUID dump", &buf, &len);

	if (err)
		return err;
	if (!len) {
		err = dump_perr(p, "empty file");
		goto out;
	}
	for (size_t k = 0; k < NFORMATS; k++)
		if (formats[k]->detect_text && formats[k]->detect_text(buf, len)) {
			p->d->format = formats[k];
			err = formats[k]->parse_text(p, buf, len);
			goto out;
		}
	if (!(err = split_lines(buf, len, &lines, &n, &unterminated)))
		err = parse_lines(p, lines, n);
out:
	free(lines);
	free(buf);
	return err;
}

/* A directory: the first format that recognises its files reads it. */
static int parse_dir(struct parse *p, const char *path)
{
	for (size_t k = 0; k < NFORMATS; k++) {
		int yes = formats[k]->detect_dir ? formats[k]->detect_dir(path) : 0;

		if (yes < 0) {
			text_setf(p->err, "%s", strerror(-yes));
			return yes;
		}
		if (yes) {
			p->d->format = formats[k];
			return formats[k]->parse_dir(p, path);
		}
	}
	return dump_perr(p, "not a CPUID dump: a directory without hwloc-gather-cpuid puN files");
}

/* -------------------------------------------------------------- checking */

static int cpu_err(struct parse *p, unsigned cpu, const char *what)
{
	const struct dump_cpu *c = &p->d->cpu[cpu];
	const struct dump_format *f = p->d->format;

	if (f->cpu_per_file)
		text_setf(p->err, "%s%u: %s", f->cpu_label, cpu, what);
	else
		text_setf(p->err, "line %u: %s%u has %s", c->line, f->cpu_label, cpu,
			 what);
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
 * differ: hybrid parts): true of every real dump of the public corpora
 * the tests read (libcpuid's tests/, InstLatx64, hwloc's), and
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
			 d->format->cpu_label, in_first ? first : (int)cpu);
		return cpu_err(p, in_first ? cpu : (unsigned)first, what);
	}
	if (first < 0) {
		p->line = 0;
		return dump_perr(p, "no logical CPU with CPUID records");
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

struct cpu_dump *cpu_dump_load(const char *path, char **err)
{
	struct cpu_dump *d = calloc(1, sizeof(*d));
	struct parse p = { .d = d, .err = err, .cur = -1 };
	struct stat st;
	int rc;

	free(*err);
	*err = NULL;
	if (!d) {
		text_setf(err, "%s", strerror(ENOMEM));
		errno = ENOMEM;
		return NULL;
	}
	if ((rc = userfile_look(path, &st))) { /* under sudo: as the invoking user */
		char why[400];

		if (rc == -EACCES)
			userfile_read_denied(why, sizeof(why));
		text_setf(err, "%s", rc == -EACCES ? why : strerror(-rc));
	} else {
		rc = S_ISDIR(st.st_mode) ? parse_dir(&p, path) : parse_file(&p, path);
	}
	if (!rc)
		rc = dump_check(&p);
	if (rc) {
		if (rc == -ENOMEM)
			text_setf(err, "%s", strerror(ENOMEM));
		cpu_dump_free(d);
		errno = -rc;
		return NULL;
	}
	return d;
}

const char *cpu_dump_format(const struct cpu_dump *d)
{
	return d->format->name;
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
