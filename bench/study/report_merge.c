/*
 * bench/study/report_merge.c - once every file is read (report.h
 * report_finish): the files of one kind claiming one host, and those of one
 * host naming different CPUs, named and skipped; each host's parts merged
 * by precedence (its own file of a kind over its bundle's member; the
 * environment from its bundle, else its bench, else its calibration); then
 * the groups (report_group.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/study/report_int.h"
#include "cpu/array.h"

/* The parts of @e of @origin skipped: each of their files named once. */
static int skip_origin(struct report *r, struct report_entry *e, enum report_kind origin,
		       const char *cause, const char *remedy)
{
	struct report_part **pp = &e->parts;
	unsigned last = (unsigned)-1;

	while (*pp) {
		struct report_part *p = *pp;

		if (p->origin != origin) {
			pp = &p->next;
			continue;
		}
		if (p->file != last) {
			if (report_skip_add(r, r->priv->paths[p->file], cause, remedy, false))
				return -ENOMEM;
			r->used--;
		}
		last = p->file;
		*pp = p->next;
		p->next = NULL;
		report_part_free(p);
	}
	return 0;
}

static bool cpu_agrees(const struct report_part *a, const struct report_part *b)
{
	if (strcmp(a->cpu.vendor, b->cpu.vendor) && a->cpu.vendor[0] && b->cpu.vendor[0])
		return false;
	return (a->cpu.family == b->cpu.family || a->cpu.family < 0 || b->cpu.family < 0) &&
	       (a->cpu.model == b->cpu.model || a->cpu.model < 0 || b->cpu.model < 0) &&
	       (a->cpu.stepping == b->cpu.stepping || a->cpu.stepping < 0 || b->cpu.stepping < 0);
}

/* Duplicates (two files of one kind) and CPUs that disagree: skipped. */
static int drop_conflicts(struct report *r, struct report_entry *e)
{
	char cause[2 * REPORT_TEXT_MAX + 160];

	for (unsigned k = 0; k < REPORT_NKINDS; k++) {
		if (e->files[k] < 2)
			continue;
		snprintf(cause, sizeof(cause), "%u %s files claim host '%s'%s%s%s: not merged",
			 e->files[k], report_kind_name((enum report_kind)k), e->hostname, e->machine_id ? " (machine-id " : "",
			 e->machine_id ? e->machine_id : "", e->machine_id ? ")" : "");
		if (skip_origin(r, e, (enum report_kind)k, cause,
				"keep one file of each kind per host; two hosts alike need each its "
				"own hostname or machine-id"))
			return -ENOMEM;
	}
	for (struct report_part *a = e->parts; a; a = a->next)
		for (struct report_part *b = a->next; b; b = b->next) {
			if (!a->has_cpu || !b->has_cpu || cpu_agrees(a, b))
				continue;
			snprintf(cause, sizeof(cause), "files of host '%s' name different CPUs "
				 "(family %d model 0x%X stepping %d, and family %d model 0x%X "
				 "stepping %d)", e->hostname, a->cpu.family, (unsigned)a->cpu.model,
				 a->cpu.stepping, b->cpu.family, (unsigned)b->cpu.model,
				 b->cpu.stepping);
			for (unsigned k = 0; k < REPORT_NKINDS; k++)
				if (skip_origin(r, e, (enum report_kind)k, cause,
						"a CPUID dump's run names the dump's CPU: give each "
						"dry run its own hostname"))
					return -ENOMEM;
			return 0;
		}
	return 0;
}

/* The part giving @kind: its own file's, else a bundle's member. */
static struct report_part *part_of(struct report_entry *e, enum report_kind kind)
{
	struct report_part *member = NULL;

	for (struct report_part *p = e->parts; p; p = p->next) {
		if (p->kind != kind)
			continue;
		if (p->origin == kind)
			return p;
		member = p;
	}
	return member;
}

/* Move @p's checks and values into @h (appended). */
static int take(struct report_host *h, struct report_part *p)
{
	if (p->nchecks) {
		if (array_resize(&h->checks, (size_t)h->nchecks + p->nchecks, sizeof(*h->checks)))
			return -ENOMEM;
		memcpy(h->checks + h->nchecks, p->checks, p->nchecks * sizeof(*h->checks));
		h->nchecks += p->nchecks;
		p->nchecks = 0;
	}
	if (p->nvalues) {
		if (array_resize(&h->values, (size_t)h->nvalues + p->nvalues, sizeof(*h->values)))
			return -ENOMEM;
		memcpy(h->values + h->nvalues, p->values, p->nvalues * sizeof(*h->values));
		h->nvalues += p->nvalues;
		p->nvalues = 0;
	}
	for (unsigned s = 0; s < 3; s++)
		h->has_source[s] |= p->has_source[s];
	return 0;
}

/* The identity and environment of @h from its parts, by precedence. */
static void identity(struct report_host *h, struct report_entry *e)
{
	static const enum report_kind env_order[] = { REPORT_BUNDLE, REPORT_BENCH,
						      REPORT_CALIBRATION };

	h->cpu = (struct report_cpu){ "", -1, -1, -1 };
	for (struct report_part *p = e->parts; p; p = p->next) {
		if (!p->has_cpu || (h->cpu.stepping >= 0 && !p->full_cpu))
			continue;
		if (p->full_cpu || h->cpu.family < 0)
			h->cpu = p->cpu;
		if (p->uarch && !h->uarch) {
			h->uarch = p->uarch;
			p->uarch = NULL;
		}
		if (p->setting[REPORT_SET_BRAND] && !h->setting[REPORT_SET_BRAND]) {
			h->setting[REPORT_SET_BRAND] = p->setting[REPORT_SET_BRAND];
			p->setting[REPORT_SET_BRAND] = NULL;
		}
	}
	for (unsigned i = 0; i < 3 && !h->has_env; i++) {
		struct report_part *p = part_of(e, env_order[i]);

		if (!p || !p->has_env)
			continue;
		h->has_env = true;
		for (unsigned s = REPORT_SET_BRAND + 1; s < REPORT_NSETTINGS; s++) {
			h->setting[s] = p->setting[s];
			p->setting[s] = NULL;
		}
	}
}

static int merge(struct report *r, struct report_entry *e, struct report_host *h)
{
	struct report_priv *v = r->priv;
	int rc = 0;

	*h = (struct report_host){ .hostname = e->hostname, .machine_id = e->machine_id };
	e->hostname = e->machine_id = NULL;
	identity(h, e);
	for (unsigned k = 0; !rc && k < REPORT_NKINDS; k++) {
		struct report_part *p = part_of(e, (enum report_kind)k);

		if (p && k != REPORT_BUNDLE)
			rc = take(h, p);
	}
	for (struct report_part *p = e->parts; p; p = p->next)
		if (p->origin == p->kind && !h->path[p->origin])
			h->path[p->origin] = v->paths[p->file];
	report_part_free(e->parts);
	e->parts = NULL;
	return rc;
}

int report_finish(struct report *r)
{
	struct report_priv *v = r->priv;
	int rc = 0;

	if (v->finished)
		return -EINVAL;
	v->finished = true;
	if (v->nentries && !(r->hosts = calloc(v->nentries, sizeof(*r->hosts))))
		return -ENOMEM;
	for (size_t i = 0; !rc && i < v->nentries; i++) {
		struct report_entry *e = &v->entries[i];

		if (!(rc = drop_conflicts(r, e)) && e->parts)
			rc = merge(r, e, &r->hosts[r->nhosts++]);
	}
	return rc ? rc : report_groups_build(r);
}

