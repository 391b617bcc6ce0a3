/*
 * bench/stat_int.h - what bench/stat.c (the sessions, the counts, the
 * samples) and bench/stat_loop.c (the command, the signals, the interval
 * timer) share of a stat run.  Private to those two files.
 */
#ifndef BARETMA_STAT_INT_H
#define BARETMA_STAT_INT_H

#include <time.h>

#include "bench/session.h"
#include "bench/stat_types.h"

/* One CPU of the run. */
struct stat_cpu {
	unsigned cpu;
	struct session *s;
	const struct cpu_kind *kind;
	unsigned group;          /* its sample group */
	struct reading a;        /* the interval's first reading */
	unsigned pass, npasses;  /* the pass it counts now, of its recipe's passes */
	unsigned counted;        /* bit p: counted in pass p in this interval (a CPU
				  * reads a pass as many times as the run's
				  * interval has reads of it: once counted) */
};

/* One sample group: a core kind's CPUs, or one CPU (per_cpu).  A recipe
 * in passes (bench/stat_pass.c): each pass's counts apart, combined at the
 * interval's end. */
struct stat_group {
	const struct read_set *rs; /* what its counts are: its first CPU's read set
				    * (one kind: one layout), or in passes @all */
	const struct cpu_kind *kind;
	int cpu;                   /* per_cpu: the CPU; else -1 */
	int level;
	const char *backend;       /* "msr", "rdpmc" */
	unsigned ncpus, counted;   /* CPUs in it; counted this interval */
	const unsigned *cpus;      /* its ncpus CPUs, ascending (in stat_run.gcpus) */
	struct counts iv, total;   /* this interval's counts, the run's (in passes:
				    * combined, @all's) */
	unsigned total_counted;    /* most CPUs counted in an interval */
	unsigned npasses;          /* its recipe's passes (1: all at once) */
	bool have[SOURCE_PASSES_MAX];          /* pass p's read set seen */
	struct read_set rsp[SOURCE_PASSES_MAX]; /* each pass's (a copy) */
	struct read_set all;       /* every pass's counts once (stat_pass_union) */
	struct counts ivp[SOURCE_PASSES_MAX], totp[SOURCE_PASSES_MAX]; /* per pass */
	unsigned counted_p[SOURCE_PASSES_MAX]; /* CPUs counted in pass p this interval */
};

struct stat_run {
	struct stat_options o;
	struct cpu_info ci;
	unsigned cpus[CPU_MAX_CPUS];
	int ncpus;
	struct stat_cpu *c;        /* ncpus of them */
	struct stat_group *g;
	unsigned ngroups;
	unsigned *gcpus;           /* ncpus: each group's CPUs, one group after another */
	struct timespec t0;        /* the count's start (the first readings) */
	double t_last;             /* seconds since t0 at the last read */
	double t_prev;             /* ... at the interval's start */
	unsigned nsub, sub;        /* reads an interval takes (the CPUs' passes' least
				    * common multiple: each read counts one pass), and
				    * those made of the current one */
	bool finish;               /* the next read ends the interval, whatever sub */
	struct stat_sample *samples; /* ngroups, for the interval callback */
};

/* stat_begin_all - reset every CPU, its first reading the reset's
 * (session_restart); t0. */
int stat_begin_all(struct stat_run *r, char **why);

/*
 * stat_read_all - every CPU's read: read, checks, counts added to its
 * group's pass's, the CPU's next pass programmed (in passes), reset (the
 * next read's first reading the reset's: session_restart).  At the interval's end (r->nsub reads, or
 * r->finish) the passes combined into the group's interval and total
 * counts, and the samples of the interval into r->samples (when
 * @samples).  Returns 1 when the read ended an interval, 0 when not, or
 * -errno with @why (a failed reset or pass, the counters changed by
 * someone else).
 */
int stat_read_all(struct stat_run *r, bool samples, char **why);

/* stat_pass_note - pass @p's read set @rs of group @g, kept the first time
 * (bench/stat_pass.c). */
void stat_pass_note(struct stat_group *g, unsigned p, const struct read_set *rs);

/*
 * stat_pass_combine - the counts of group @g's passes @per (r->... ivp or
 * totp) as counts of g->all into @out, and the CPUs counted into
 * @counted (of @counted_p, the fewest over the passes counted; NULL: not
 * wanted): bench/stat_pass.c says how.  With one pass, per[0] itself.
 */
void stat_pass_combine(struct stat_group *g, const struct counts *per,
		       const unsigned *counted_p, struct counts *out, unsigned *counted);

/* stat_now - seconds of CLOCK_MONOTONIC since r->t0. */
double stat_now(const struct stat_run *r);

#endif
