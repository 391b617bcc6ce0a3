/*
 * bench/study/report.c - the fleet of `baretma report` (bench/study/report.h):
 * the names of checks and figures, the hosts and their parts, and the merge
 * of each host's parts once every file is read.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/study/report_int.h"
#include "cpu/array.h"

static const char *const kind_names[REPORT_NKINDS] = {
	"bundle", "calibration", "bench", "compare", "stat", "validate"
};

static const char *const setting_names[REPORT_NSETTINGS] = {
	"brand", "microcode", "kernel", "smt_control", "smt_active", "governor",
	"nmi_watchdog", "msr_allow_writes", "hypervisor"
};

const char *report_kind_name(enum report_kind k)
{
	return (unsigned)k < REPORT_NKINDS ? kind_names[k] : "?";
}

const char *report_setting_name(enum report_setting s)
{
	return (unsigned)s < REPORT_NSETTINGS ? setting_names[s] : "?";
}

const char *report_status_name(enum report_status s)
{
	return s == REPORT_PASS ? "PASS" : s == REPORT_FAIL ? "FAIL" : "SKIP";
}

char *report_strdup_cut(const char *s)
{
	size_t n;
	char *d;

	if (!s)
		return NULL;
	n = strlen(s);
	if (n > REPORT_TEXT_MAX) {
		n = REPORT_TEXT_MAX;
		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--; /* never half a UTF-8 character */
	}
	if (!(d = malloc(n + 1)))
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* ------------------------------------------------------------ the index */

/* FNV-1a, 64 bits: cheap, and the keys are short. */
static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

long report_index_get(const struct report_index *ix, const char *key)
{
	if (!ix->cap)
		return -1;
	for (size_t i = hash(key) & (ix->cap - 1); ix->keys[i]; i = (i + 1) & (ix->cap - 1))
		if (!strcmp(ix->keys[i], key))
			return ix->vals[i];
	return -1;
}

static void put_slot(struct report_index *ix, char *key, unsigned val)
{
	size_t i = hash(key) & (ix->cap - 1);

	while (ix->keys[i])
		i = (i + 1) & (ix->cap - 1);
	ix->keys[i] = key;
	ix->vals[i] = val;
}

int report_index_put(struct report_index *ix, const char *key, unsigned val)
{
	if (2 * (ix->n + 1) > ix->cap) { /* at most half full: short probes */
		struct report_index big = { ix->cap ? 2 * ix->cap : 64, ix->n, NULL, NULL };

		big.keys = calloc(big.cap, sizeof(*big.keys));
		big.vals = calloc(big.cap, sizeof(*big.vals));
		if (!big.keys || !big.vals) {
			free(big.keys);
			free(big.vals);
			return -ENOMEM;
		}
		for (size_t i = 0; i < ix->cap; i++)
			if (ix->keys[i])
				put_slot(&big, ix->keys[i], ix->vals[i]);
		free(ix->keys);
		free(ix->vals);
		*ix = big;
	}
	put_slot(ix, (char *)key, val);
	ix->n++;
	return 0;
}

void report_index_free(struct report_index *ix)
{
	free(ix->keys);
	free(ix->vals);
	*ix = (struct report_index){ 0 };
}

/* ------------------------------------------------------------ the parts */

struct report_part *report_part_new(enum report_kind origin, enum report_kind kind)
{
	struct report_part *p = calloc(1, sizeof(*p));

	if (p) {
		p->origin = origin;
		p->kind = kind;
		p->cpu = (struct report_cpu){ "", -1, -1, -1 };
	}
	return p;
}

void report_part_free(struct report_part *p)
{
	while (p) {
		struct report_part *next = p->next;

		free(p->uarch);
		for (unsigned i = 0; i < REPORT_NSETTINGS; i++)
			free(p->setting[i]);
		for (unsigned i = 0; i < p->nchecks; i++)
			free(p->checks[i].message);
		free(p->checks);
		free(p->values);
		free(p);
		p = next;
	}
}

/* The index of the name @key in @ix (added, copied into @names, when new
 * and there is room); -1 past REPORT_NAMES_MAX, -2 on ENOMEM. */
static long intern(struct report_index *ix, char ***names, unsigned *n, size_t *cap,
		   const char *key)
{
	long id = report_index_get(ix, key);
	char *k;

	if (id >= 0)
		return id;
	if (*n >= REPORT_NAMES_MAX)
		return -1;
	if (array_grow(names, cap, (size_t)*n + 1, sizeof(**names), 32))
		return -2;
	if (!(k = strdup(key)))
		return -2;
	if (report_index_put(ix, k, *n)) {
		free(k);
		return -2;
	}
	(*names)[*n] = k;
	return (*n)++;
}

static int rank(enum report_status s)
{
	return s == REPORT_FAIL ? 2 : s == REPORT_PASS ? 1 : 0;
}

int report_part_check(struct report *r, struct report_part *p, const char *name,
		      enum report_status status, const char *message)
{
	struct report_priv *v = r->priv;
	long id = intern(&v->checks, &r->checks, &r->nchecks_names, &v->capchecks, name);
	struct report_check *c;

	if (id == -1)
		return 0;
	if (id < 0)
		return -ENOMEM;
	for (unsigned i = 0; i < p->nchecks; i++) {
		c = &p->checks[i];
		if (c->id != (unsigned)id)
			continue;
		if (rank(status) > rank(c->status)) {
			c->status = status;
			if (status == REPORT_FAIL && !(c->message = report_strdup_cut(message)) &&
			    message)
				return -ENOMEM;
		}
		return 0;
	}
	if (array_grow(&p->checks, &p->capchecks, (size_t)p->nchecks + 1, sizeof(*p->checks), 8))
		return -ENOMEM;
	c = &p->checks[p->nchecks];
	*c = (struct report_check){ (unsigned)id, status, NULL };
	if (status == REPORT_FAIL && message && !(c->message = report_strdup_cut(message)))
		return -ENOMEM;
	p->nchecks++;
	return 0;
}

/* The figure (@section, @subject, @item): its index, a new one filled. */
static long figure(struct report *r, enum report_section section, const char *subject,
		   const char *item, const char *unit, const char *source)
{
	struct report_priv *v = r->priv;
	char key[2 * REPORT_TEXT_MAX + 40];
	unsigned n = r->nfigs;
	size_t cap = v->capfigs;
	long id;

	snprintf(key, sizeof(key), "%d\x1f%s\x1f%s\x1f%s", (int)section, source, subject, item);
	id = intern(&v->figs, &v->figkeys, &n, &cap, key);
	if (id < 0 || (unsigned)id < r->nfigs)
		return id;
	if (cap != v->capfigs) {
		if (array_resize(&r->figs, cap, sizeof(*r->figs)))
			return -2; /* the key stays in the index with no figure: ENOMEM ends it all */
		v->capfigs = cap;
	}
	r->figs[id] = (struct report_figure){ section, report_strdup_cut(subject), item, unit,
					      source };
	r->nfigs = n;
	return r->figs[id].subject ? id : -2;
}

int report_part_value(struct report *r, struct report_part *p, enum report_section section,
		      const char *subject, const char *item, const char *unit,
		      const char *source, double value, double bound)
{
	long id;

	if (!isfinite(value))
		return 0;
	if ((id = figure(r, section, subject, item, unit, source)) == -1)
		return 0;
	if (id < 0)
		return -ENOMEM;
	if (array_grow(&p->values, &p->capvalues, (size_t)p->nvalues + 1, sizeof(*p->values), 16))
		return -ENOMEM;
	p->values[p->nvalues++] = (struct report_value){ (unsigned)id, value, bound };
	return 0;
}

/* ------------------------------------------------------------ the hosts */

int report_parts_add(struct report *r, const char *path, const char *hostname,
		     const char *machine_id, struct report_part *parts)
{
	struct report_priv *v = r->priv;
	char key[2 * REPORT_TEXT_MAX + 8], *k = NULL, *pathc = NULL;
	struct report_entry *e;
	struct report_part *last;
	long id;

	snprintf(key, sizeof(key), "%s\x1f%s", hostname, machine_id ? machine_id : "\x1f");
	if (!(pathc = strdup(path)))
		goto nomem;
	if (array_grow(&v->paths, &v->cappaths, v->npaths + 1, sizeof(*v->paths), 64))
		goto nomem;
	if ((id = report_index_get(&v->hosts, key)) < 0) {
		/* two arrays, one capacity: it moves when both have grown */
		size_t ce = v->capentries, ch = v->capentries;

		if (array_grow(&v->entries, &ce, v->nentries + 1, sizeof(*v->entries), 64) ||
		    array_grow(&v->hostkeys, &ch, v->nentries + 1, sizeof(*v->hostkeys), 64))
			goto nomem;
		v->capentries = ce;
		e = &v->entries[v->nentries];
		*e = (struct report_entry){ report_strdup_cut(hostname),
					    report_strdup_cut(machine_id), NULL, { 0 } };
		if (!(k = strdup(key)) || !e->hostname || (machine_id && !e->machine_id) ||
		    report_index_put(&v->hosts, k, (unsigned)v->nentries)) {
			free(e->hostname);
			free(e->machine_id);
			free(k);
			goto nomem;
		}
		v->hostkeys[v->nentries] = k;
		id = (long)v->nentries++;
	}
	e = &v->entries[id];
	e->files[parts->origin]++;
	for (last = parts; ; last = last->next) {
		last->file = (unsigned)v->npaths;
		if (!last->next)
			break;
	}
	last->next = e->parts;
	e->parts = parts;
	v->paths[v->npaths++] = pathc;
	r->used++;
	return 0;
nomem:
	free(pathc);
	report_part_free(parts);
	return -ENOMEM;
}

int report_skip_add(struct report *r, const char *path, const char *cause, const char *remedy,
		    bool quiet)
{
	struct report_skip *s;

	/* at 0, 1, 3, 7...: double (the capacity is not kept: struct report's) */
	if ((!(r->nskips & (r->nskips + 1)) || !r->skips) &&
	    array_resize(&r->skips, r->nskips ? 2 * (r->nskips + 1) : 8, sizeof(*r->skips)))
		return -ENOMEM;
	s = &r->skips[r->nskips];
	*s = (struct report_skip){ strdup(path), strdup(cause ? cause : ""),
				   remedy ? strdup(remedy) : NULL, quiet };
	if (!s->path || !s->cause || (remedy && !s->remedy)) {
		free(s->path);
		free(s->cause);
		free(s->remedy);
		return -ENOMEM;
	}
	r->nskips++;
	r->nbad += !quiet;
	return 0;
}

struct report *report_new(double k)
{
	struct report *r;

	if (!(k > 0) || !isfinite(k)) {
		errno = EINVAL;
		return NULL;
	}
	if (!(r = calloc(1, sizeof(*r))) || !(r->priv = calloc(1, sizeof(*r->priv)))) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	r->k = k;
	return r;
}

int report_exit_status(const struct report *r)
{
	return r->fails || r->outliers || r->unchecked || r->nbad ? 1 : 0;
}

static void host_free(struct report_host *h)
{
	free(h->hostname);
	free(h->machine_id);
	free(h->name);
	free(h->uarch);
	for (unsigned s = 0; s < REPORT_NSETTINGS; s++)
		free(h->setting[s]);
	for (unsigned i = 0; i < h->nchecks; i++)
		free(h->checks[i].message);
	free(h->checks);
	free(h->values);
}

void report_free(struct report *r)
{
	struct report_priv *v;

	if (!r)
		return;
	v = r->priv;
	report_groups_free(r);
	for (size_t i = 0; i < r->nhosts; i++)
		host_free(&r->hosts[i]);
	free(r->hosts);
	for (size_t i = 0; i < r->nskips; i++) {
		free(r->skips[i].path);
		free(r->skips[i].cause);
		free(r->skips[i].remedy);
	}
	free(r->skips);
	for (unsigned i = 0; i < r->nchecks_names; i++)
		free(r->checks[i]);
	free(r->checks);
	for (unsigned i = 0; i < r->nfigs; i++)
		free(r->figs[i].subject);
	free(r->figs);
	for (size_t i = 0; v && i < v->nentries; i++) {
		free(v->entries[i].hostname);
		free(v->entries[i].machine_id);
		report_part_free(v->entries[i].parts);
		free(v->hostkeys[i]);
	}
	if (v) {
		for (unsigned i = 0; i < r->nfigs; i++)
			free(v->figkeys[i]);
		free(v->figkeys);
		free(v->entries);
		free(v->hostkeys);
		for (size_t i = 0; i < v->npaths; i++)
			free(v->paths[i]);
		free(v->paths);
		report_index_free(&v->hosts);
		report_index_free(&v->checks);
		report_index_free(&v->figs);
	}
	free(v);
	free(r);
}
