/*
 * bench/stat_int.h - what bench/stat.c (the sessions, the counts, the
 * samples) and bench/stat_loop.c (the command, the signals, the interval
 * timer) share of a stat run.  Private to those two files.
 */
#ifndef BARETMA_STAT_INT_H
#define BARETMA_STAT_INT_H

#include <time.h>

#include "bench/session.h"
#include "bench/stat.h"

/* One CPU of the run. */
struct stat_cpu {
	unsigned cpu;
	struct session *s;
	const struct cpu_kind *kind;
	unsigned group;          /* its sample group */
	struct reading a;        /* the interval's first reading */
};

/* One sample group: a core kind's CPUs, or one CPU (per_cpu). */
struct stat_group {
	const struct read_set *rs; /* its first CPU's (one kind: one layout) */
	const struct cpu_kind *kind;
	int cpu;                   /* per_cpu: the CPU; else -1 */
	int level;
	const char *backend;       /* "msr", "rdpmc" */
	unsigned ncpus, counted;   /* CPUs in it; counted this interval */
	struct counts iv, total;   /* this interval's counts, the run's */
	unsigned total_counted;    /* most CPUs counted in an interval */
};

struct stat_run {
	struct stat_options o;
	struct cpu_info ci;
	unsigned cpus[CPU_MAX_CPUS];
	int ncpus;
	struct stat_cpu *c;        /* ncpus of them */
	struct stat_group *g;
	unsigned ngroups;
	struct timespec t0;        /* the count's start (the first readings) */
	double t_last;             /* seconds since t0 at the last read */
	double t_prev;             /* ... at the one before (the interval's start) */
	struct stat_sample *samples; /* ngroups, for the interval callback */
};

/* stat_begin_all - reset and take the first reading of every CPU; t0. */
int stat_begin_all(struct stat_run *r, char **why);

/*
 * stat_read_all - every CPU's interval end: read, checks, counts added to
 * its group's interval and total, reset, the next interval's first
 * reading.  Then the samples of the interval into r->samples (when
 * @samples).  Returns 0 or -errno with @why (a failed reset, the counters
 * changed by someone else).
 */
int stat_read_all(struct stat_run *r, bool samples, char **why);

/* stat_now - seconds of CLOCK_MONOTONIC since r->t0. */
double stat_now(const struct stat_run *r);

#endif
