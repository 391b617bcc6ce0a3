/*
 * bench/study/report_int.h - what the files of `baretma report`'s library
 * share (report.c: the hosts and their parts, the names; report_read.c:
 * the files; report_parts.c: each document's part; report_group.c: the
 * groups and what they find).  Not installed, not for the other rooms.
 */
#ifndef BARETMA_REPORT_INT_H
#define BARETMA_REPORT_INT_H

#include <jansson.h>
#include <sys/types.h>

#include "bench/study/report.h"

/* The sources of figures a host may have (report_host.has_source). */
enum report_source { REPORT_SRC_CALIBRATION, REPORT_SRC_BENCH, REPORT_SRC_STAT };

/*
 * What one document gives its host.  @origin is the kind of the file it
 * came from, @kind what it gives: a bundle gives three parts (its own
 * identity and environment, and its validate and calibration members as
 * parts of those kinds), each other file one.
 */
struct report_part {
	enum report_kind origin, kind;
	unsigned file;                   /* priv->paths[file] */
	bool has_cpu, full_cpu;          /* full: vendor, family, model and stepping */
	struct report_cpu cpu;
	char *uarch;
	bool has_env;
	char *setting[REPORT_NSETTINGS]; /* the brand too, where it names it */
	struct report_check *checks;
	unsigned nchecks;
	size_t capchecks;                /* array_grow's (cpu/array.h), as the others */
	struct report_value *values;
	unsigned nvalues;
	size_t capvalues;
	bool has_source[3];
	struct report_part *next;
};

/* A host while the files are read: its identity and its parts. */
struct report_entry {
	char *hostname, *machine_id;
	struct report_part *parts;
	unsigned files[REPORT_NKINDS];   /* files of each kind claiming it */
};

/* A string -> index table (the names of checks and figures, the hosts). */
struct report_index {
	size_t cap, n;
	char **keys;                     /* NULL: empty slot; borrowed */
	unsigned *vals;
};

struct report_priv {
	struct report_index hosts;       /* "hostname\x1fmachine_id" -> entries[] */
	struct report_entry *entries;
	size_t nentries, capentries;
	char **hostkeys;                 /* the index's keys, owned */
	struct report_index checks, figs;
	char **figkeys;                  /* the figure index's keys, owned */
	size_t capchecks, capfigs;
	char **paths;                    /* the files that gave parts */
	size_t npaths, cappaths;
	dev_t dirs_dev[REPORT_DEPTH_MAX + 2]; /* the directories being read */
	ino_t dirs_ino[REPORT_DEPTH_MAX + 2];
	unsigned ndirs;
	bool finished;
};

/* The most distinct check names and figures kept (the rest are dropped:
 * hostile files cannot grow the tables without bound). */
#define REPORT_NAMES_MAX 4096

/* report_index_get / report_index_put - look @key up (-1: absent) / add
 * it (@key borrowed: it must outlive the index).  put: 0 or -ENOMEM. */
long report_index_get(const struct report_index *ix, const char *key);
int report_index_put(struct report_index *ix, const char *key, unsigned val);
void report_index_free(struct report_index *ix);

/* report_skip_add - name @path as skipped (@quiet: named only with -v),
 * @cause and @remedy copied.  Returns 0 or -ENOMEM. */
int report_skip_add(struct report *r, const char *path, const char *cause, const char *remedy,
		    bool quiet);

/*
 * report_read_doc - the parsed document @doc of @path (its schema's
 * kind @kind) as its host's part(s), added to @r (report_parts.c).
 * Returns 0 (used), -EINVAL with *@cause and *@remedy (static or in
 * @buf) set (the file is skipped), -ENOMEM.
 */
int report_read_doc(struct report *r, const char *path, enum report_kind kind,
		    json_t *doc, char *buf, size_t n, const char **cause,
		    const char **remedy);

/* report_part_new - an empty part of @kind from a file of @origin; NULL
 * on ENOMEM.  report_part_free - it and what it holds. */
struct report_part *report_part_new(enum report_kind origin, enum report_kind kind);
void report_part_free(struct report_part *p);

/* report_part_check - add the check @name with @status (and @message,
 * copied, cut at REPORT_TEXT_MAX; NULL: none) to @p, merging with the
 * same check of another CPU (FAIL over PASS over SKIP; the first FAIL's
 * message kept).  Returns 0, -ENOMEM; a name past REPORT_NAMES_MAX is
 * dropped (0). */
int report_part_check(struct report *r, struct report_part *p, const char *name,
		      enum report_status status, const char *message);

/* report_part_value - add @value (and @bound, NAN: none) of the figure
 * (@section, @subject, @item) in @unit from @source to @p.  Returns 0 or
 * -ENOMEM; a figure past REPORT_NAMES_MAX is dropped (0). */
int report_part_value(struct report *r, struct report_part *p, enum report_section section,
		      const char *subject, const char *item, const char *unit,
		      const char *source, double value, double bound);

/*
 * report_parts_add - the parts of one file @path, all its host's
 * (@hostname, @machine_id NULL for null): kept under that host.  Takes
 * the parts (freed on error).  Returns 0 or -ENOMEM.
 */
int report_parts_add(struct report *r, const char *path, const char *hostname,
		     const char *machine_id, struct report_part *parts);

/* report_strdup_cut - @s copied, at most REPORT_TEXT_MAX bytes (cut at a
 * UTF-8 character's start); NULL for NULL; NULL with errno ENOMEM. */
char *report_strdup_cut(const char *s);

/* report_groups_build - the groups of r->hosts (report_group.c), after
 * the merge.  Returns 0 or -ENOMEM. */
int report_groups_build(struct report *r);
void report_groups_free(struct report *r);

#endif
