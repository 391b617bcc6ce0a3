/*
 * msr/access/msr_state_parse.c - the state file's text (msr/access/msr.h): one
 * "CPU 0xMSR 0xVALUE" line per register into struct st_reg, and an index
 * sorted by (cpu, msr) that finds duplicates at parse time and registers
 * at access time in O(log n) (msr/access/msr_state_int.h).
 *
 * A reload parses from the restore path's signal handler, so nothing here
 * allocates, recurses or formats through stdio unless the caller asked
 * for a message (@err, never on a reload).  The sort is a heapsort: in
 * place, no recursion, O(n log n) in the worst case (qsort may allocate
 * and is not async-signal-safe).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cpu/text.h"
#include "msr/access/msr.h"
#include "msr/access/msr_state_int.h"

/* ------------------------------------------------------------- one line */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "0x" + 1..16 significant hex digits up to @max; advances *p. */
static bool parse_hex(const char **p, const char *e, uint64_t max, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;
	int d;

	if (e - s < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	s += 2;
	if (hexval(*s) < 0)
		return false;
	for (; s < e && (d = hexval(*s)) >= 0; s++) {
		if (x > (max >> 4) || (x << 4 | (uint64_t)d) > max)
			return false;
		x = x << 4 | (uint64_t)d;
	}
	*p = s;
	*v = x;
	return true;
}

static bool parse_dec(const char **p, const char *e, unsigned *v)
{
	const char *s = *p;
	unsigned long x = 0;

	if (s >= e || *s < '0' || *s > '9')
		return false;
	for (; s < e && *s >= '0' && *s <= '9'; s++) {
		x = x * 10 + (unsigned long)(*s - '0');
		if (x > 0xfffffu) /* more CPUs than any kernel supports */
			return false;
	}
	*p = s;
	*v = (unsigned)x;
	return true;
}

static const char *skip_blank(const char *s, const char *e)
{
	while (s < e && is_blank(*s))
		s++;
	return s;
}

/*
 * One line [s, e).  Returns 1 for a blank/comment line, 0 with @r filled,
 * or -EINVAL with the reason in @why.
 */
static int parse_line(const char *text, const char *s, const char *e,
		      struct st_reg *r, const char **why)
{
	uint64_t m, v;
	const char *p = skip_blank(s, e);

	if (p == e || *p == '#')
		return 1;
	*why = "CPU must be a decimal number";
	if (!parse_dec(&p, e, &r->cpu) || p == e || !is_blank(*p))
		return -EINVAL;
	p = skip_blank(p, e);
	*why = "MSR must be 0x followed by at most 8 hex digits";
	if (!parse_hex(&p, e, UINT32_MAX, &m) || p == e || !is_blank(*p))
		return -EINVAL;
	p = skip_blank(p, e);
	*why = "value must be 0x followed by at most 16 hex digits";
	r->vstart = (size_t)(p - text);
	if (!parse_hex(&p, e, UINT64_MAX, &v))
		return -EINVAL;
	r->vend = (size_t)(p - text);
	if (p < e && !is_blank(*p) && *p != '#')
		return -EINVAL;
	p = skip_blank(p, e);
	*why = "unexpected text after the value";
	if (p < e && *p != '#')
		return -EINVAL;
	r->msr = (uint32_t)m;
	r->val = r->orig = v;
	return 0;
}

/* ---------------------------------------------------------------- index */

static uint64_t key_of(unsigned cpu, uint32_t msr)
{
	return (uint64_t)cpu << 32 | msr;
}

/* (cpu, msr), then file order: a total order, so the result is unique. */
static bool key_less(const struct st_key *a, const struct st_key *b)
{
	return a->key < b->key || (a->key == b->key && a->reg < b->reg);
}

static void sift_down(struct st_key *a, size_t root, size_t n)
{
	for (;;) {
		size_t child = 2 * root + 1;
		struct st_key t;

		if (child >= n)
			return;
		if (child + 1 < n && key_less(&a[child], &a[child + 1]))
			child++;
		if (!key_less(&a[root], &a[child]))
			return;
		t = a[root];
		a[root] = a[child];
		a[child] = t;
		root = child;
	}
}

/* Heapsort (Williams 1964; Knuth TAOCP vol. 3, 5.2.3 algorithm H). */
static void sort_keys(struct st_key *a, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down(a, i, n);
	for (size_t end = n; end-- > 1;) {
		struct st_key t = a[0];

		a[0] = a[end];
		a[end] = t;
		sift_down(a, 0, end);
	}
}

/* The first index entry whose key is >= @key. */
static size_t lower_bound(const struct st_view *v, uint64_t key)
{
	size_t lo = 0, hi = v->nregs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v->idx[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Index the @v->nregs registers parsed so far.  Returns the register that
 * repeats an earlier one at the earliest line (what a parser checking each
 * line against the lines before it stops at), with the first line of that
 * register in *@first; NULL when every (cpu, msr) is listed once.
 */
static const struct st_reg *index_regs(struct st_view *v, const struct st_reg **first)
{
	const struct st_reg *dup = NULL;

	for (size_t i = 0; i < v->nregs; i++)
		v->idx[i] = (struct st_key){ key_of(v->regs[i].cpu, v->regs[i].msr), (uint32_t)i };
	sort_keys(v->idx, v->nregs);
	/* Within a run of equal keys the entries are in file order: the run's
	 * second entry is its earliest repeat, the first its first line. */
	for (size_t i = 1; i < v->nregs; i++) {
		const struct st_key *k = &v->idx[i];

		if (k->key != k[-1].key || (i >= 2 && k[-2].key == k->key))
			continue;
		if (!dup || k->reg < (size_t)(dup - v->regs)) {
			dup = &v->regs[k->reg];
			*first = &v->regs[k[-1].reg];
		}
	}
	return dup;
}

struct st_reg *state_find(const struct st_view *v, unsigned cpu, uint32_t msr)
{
	uint64_t key = key_of(cpu, msr);
	size_t i = lower_bound(v, key);

	return i < v->nregs && v->idx[i].key == key ? &v->regs[v->idx[i].reg] : NULL;
}

uint64_t state_cpu_hash(const struct st_view *v, unsigned cpu)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 (Fowler, Noll, Vo) */

	for (size_t i = lower_bound(v, key_of(cpu, 0)); i < v->nregs && v->idx[i].key >> 32 == cpu;
	     i++) {
		uint64_t w[2] = { v->idx[i].key, v->regs[v->idx[i].reg].val };

		for (unsigned b = 0; b < 16; b++) {
			h ^= (w[b / 8] >> (8 * (b % 8))) & 0xff;
			h *= 0x100000001b3ull;
		}
	}
	return h;
}

bool state_cpu_listed(const struct st_view *v, unsigned cpu)
{
	size_t i = lower_bound(v, key_of(cpu, 0));

	return i < v->nregs && v->idx[i].key >> 32 == cpu;
}

/* ---------------------------------------------------------------- lines */

/* Lines of @text as the parser counts them (a last line without '\n' too). */
static size_t count_lines(const char *text, size_t len)
{
	size_t n = 0;

	for (const char *s = text, *end = text + len; s < end; n++) {
		const char *e = memchr(s, '\n', (size_t)(end - s));

		s = e ? e + 1 : end;
	}
	return n;
}

/* The message for a register listed twice; returns -EINVAL. */
static int dup_error(const char *shown, const struct st_reg *dup, const struct st_reg *first,
		     char **err)
{
	if (err)
		text_setf(err, "state file '%s': line %u: cpu %u msr 0x%x listed twice "
			 "(first at line %u)", shown, dup->line, dup->cpu, (unsigned)dup->msr,
			 first->line);
	return -EINVAL;
}

int state_parse(struct st_view *v, size_t regcap, const char *shown, char **err)
{
	const char *text = v->text, *end = text + v->textlen, *s = text;
	const struct st_reg *dup, *first = NULL;
	unsigned line = 0;

	v->nregs = 0;
	if (count_lines(text, v->textlen) > MSR_STATE_LINES_MAX) {
		if (err)
			text_setf(err, "state file '%s': more than %u lines (the limit: "
				 "%u CPUs x %u lines; list only the registers the run "
				 "needs)", shown, MSR_STATE_LINES_MAX, MSR_STATE_CPUS_MAX,
				 MSR_STATE_LINES_MAX / MSR_STATE_CPUS_MAX);
		return -EINVAL;
	}
	while (s < end) {
		const char *e = memchr(s, '\n', (size_t)(end - s));
		const char *why = "";
		struct st_reg *r = &v->regs[v->nregs];
		int rc;

		e = e ? e : end;
		line++;
		if (v->nregs >= regcap)
			return -EFBIG; /* only a reload can get here: room is per size */
		rc = parse_line(text, s, e, r, &why);
		if (rc < 0) {
			/* a repeat on an earlier line is the first error in the file */
			dup = index_regs(v, &first);
			if (dup)
				return dup_error(shown, dup, first, err);
			if (err)
				text_setf(err, "state file '%s': line %u: %s "
					 "(expected 'CPU 0xMSR 0xVALUE')", shown, line, why);
			return rc;
		}
		s = e + 1;
		if (rc > 0)
			continue;
		r->line = line;
		v->nregs++;
	}
	dup = index_regs(v, &first);
	return dup ? dup_error(shown, dup, first, err) : 0;
}
