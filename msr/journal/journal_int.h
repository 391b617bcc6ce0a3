/*
 * msr/journal/journal_int.h - what the files of the run journal share, private to
 * them (the API and the format: msr/journal/journal.h): the layout of struct
 * journal, the small helpers on struct journal_data, and the functions one
 * of them defines for the others:
 *   msr/journal/journal_format.c   the text: encoding, rendering, the strict parser
 *   msr/journal/journal_list.c     the journals of other runs, /proc/PID/stat
 *   msr/journal/journal_restore.c  restoring, and removing the file
 *   msr/journal/guard_signals.c    the registry of open journals, the opt-in handlers
 *   msr/journal/journal.c          the store (begin, save, persist, end)
 * in that order: each calls only the ones above it (msr/journal/journal_rules.h
 * gives the whole order of msr/).  Nothing else includes it.
 */
#ifndef BARETMA_JOURNAL_INT_H
#define BARETMA_JOURNAL_INT_H

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "msr/journal/journal.h"

#define REG_LINE_MAX 64       /* "reg 8191 0xffffffff 0xffffffffffffffff unsafe-msr\n" is 50 */
#define SETTING_LINE_MAX (sizeof("setting  \n") + 6 * (JOURNAL_SETTING_MAX - 1))
#define HEADER_MAX (512 + JOURNAL_CMD_MAX + JOURNAL_BACKEND_MAX)
/* The input cap of a journal (doc/safety.md "Bad input"): the longest one
 * baretma writes, JOURNAL_MAX_REGS register lines, JOURNAL_MAX_SETTINGS
 * setting lines and the header, 1,078,864 bytes (a real one: a few
 * hundred bytes per CPU).  A larger file is not read: malformed (-EINVAL,
 * exit 65).  The journal's text buffer has this size too. */
#define JOURNAL_TEXT_MAX (HEADER_MAX + (size_t)JOURNAL_MAX_REGS * REG_LINE_MAX + \
			  JOURNAL_MAX_SETTINGS * SETTING_LINE_MAX)

/* One journal: all its state is here (several may be open in a process,
 * one per session; msr/journal/guard_signals.c lists them for the handler). */
struct journal {
	struct journal_data d;      /* arrays at full capacity */
	int dirfd;                  /* the state directory */
	int seq;                    /* registry slot: 0 "run-<PID>.journal",
				     * N > 0 "run-<PID>-<N>.journal" */
	char name[64];              /* that name */
	char tmp[80];               /* "." name ".tmp" */
	char path[JOURNAL_PATH_MAX];
	char *text;                 /* JOURNAL_TEXT_MAX bytes for rendering */
	int staged_regs;            /* entries written after d.nregs (and
				     * d.nsettings) for the next persist: the
				     * file holds them, the handler and the write
				     * gate see them only once it is on disk */
	int staged_settings;
	bool restored;              /* restored, nothing saved since */
	struct msr_dev *volatile dev; /* what the signal handler restores the
				     * registers through (journal_set_dev) */
	atomic_int fired;           /* the signal handler took it (restores once) */
	bool guarded;               /* journal_guard_install: its end removes
				     * the guard it installed */
};

/* journal_error_set - journal_last_error()'s text for this thread: @text
 * (on the heap, taken; NULL: none).  journal_format.c; journal_list.c sets
 * it too. */
void journal_error_set(char *text);

/* Entries are made visible to a signal handler, which may run on another
 * thread: a thread fence (a compiler barrier and the CPU's ordering). */
static inline void fence(void)
{
	atomic_thread_fence(memory_order_seq_cst);
}

static inline void data_free(struct journal_data *d)
{
	free(d->regs);
	free(d->cpus);
	free(d->settings);
	free(d->cpu_first);
	d->regs = NULL;
	d->cpus = NULL;
	d->settings = NULL;
	d->cpu_first = NULL;
	d->nregs = d->ncpus = d->nsettings = 0;
}

static inline int data_alloc(struct journal_data *d, int regs, int settings)
{
	d->regs = calloc((size_t)regs + 1, sizeof(*d->regs));
	d->cpus = calloc((size_t)(regs < JOURNAL_MAX_CPUS ? regs : JOURNAL_MAX_CPUS) + 1,
			 sizeof(*d->cpus));
	d->settings = calloc((size_t)settings + 1, sizeof(*d->settings));
	d->cpu_first = malloc(JOURNAL_MAX_CPUS * sizeof(*d->cpu_first));
	if (d->regs && d->cpus && d->settings && d->cpu_first) {
		memset(d->cpu_first, 0xff, JOURNAL_MAX_CPUS * sizeof(*d->cpu_first)); /* -1 */
		return 0;
	}
	data_free(d);
	return -ENOMEM;
}

static inline int find_reg(const struct journal_data *d, int n, unsigned cpu, uint32_t msr)
{
	for (int i = 0; i < n; i++)
		if (d->regs[i].cpu == cpu && d->regs[i].msr == msr)
			return i;
	return -1;
}

static inline bool has_cpu(const struct journal_data *d, unsigned cpu)
{
	for (int i = 0; i < d->ncpus; i++)
		if (d->cpus[i] == cpu)
			return true;
	return false;
}

/* Make the entry at d->regs[d->nregs] visible to the signal handler and
 * the write gate: its CPU first (and where the CPU's registers begin),
 * then the count. */
static inline void publish_reg(struct journal_data *d)
{
	unsigned cpu = d->regs[d->nregs].cpu;

	if (!has_cpu(d, cpu)) {
		d->cpus[d->ncpus] = cpu;
		fence();
		d->ncpus++;
	}
	/* set before the count: a gate between the two finds nothing past it */
	if (d->cpu_first && cpu < JOURNAL_MAX_CPUS && d->cpu_first[cpu] < 0)
		d->cpu_first[cpu] = d->nregs;
	fence();
	d->nregs++;
	fence();
}

/* Add @r and make it visible at once (journal_load's parser). */
static inline void add_reg(struct journal_data *d, const struct journal_reg *r)
{
	d->regs[d->nregs] = *r;
	publish_reg(d);
}

/* --------------------------------------------- msr/journal/journal_format.c */

/* The whole file text of @j into j->text; returns its length. */
size_t journal_render(const struct journal *j);

/* May a journal hold the setting @path with the value @value
 * (msr/journal/journal.h "What a journal may hold")?  0, -ENOENT (not a file
 * baretma changes), -EINVAL (not a value that setting takes). */
int journal_setting_check(const char *path, const char *value);

/* May a journal of @kind hold the register @r (same rules)?  0, -EPERM
 * (unsafe-msr mark outside a write journal), -EINVAL (a register that
 * kind never saves; kind write: outside the write policy, not marked). */
int journal_reg_check(enum journal_kind kind, const struct journal_reg *r);

/* The full path of @path under $BARETMA_SYSROOT into @full (@n bytes);
 * 0 or -ENAMETOOLONG. */
int journal_resolve(const char *path, char *full, size_t n);

/* Decimal, no sign, no leading zeros, at most @max, the whole of [s, e). */
bool journal_dec_exact(const char *s, const char *e, unsigned long long max,
		       unsigned long long *v);

/* Load the journal open on @fd into @d (journal_data_free() frees it);
 * *@err (on the heap, replaced: free()) receives the detail of -EINVAL,
 * whole; -ENOMEM when there is no memory for it. */
int journal_load_fd(int fd, struct journal_data *d, char **err);

/* ----------------------------------------------- msr/journal/journal_list.c */


/* The file name of journal @seq of @pid: "run-<PID>.journal" (@seq 0) or
 * "run-<PID>-<SEQ>.journal" into @buf (@n bytes). */
void journal_file_name(pid_t pid, int seq, char *buf, size_t n);

/* -------------------------------------------- msr/journal/journal_restore.c */

/* Unlink @j's file and make that durable.  Async-signal-safe (the
 * signal handler calls it). */
int journal_unlink_file(struct journal *j);

/* For the signal handler: restore @j (of this process) once, when it has
 * its device (or holds settings only), and remove its file when that
 * succeeded.  Async-signal-safe. */
void journal_restore_fired(struct journal *j);

/* ---------------------------------------------- msr/journal/guard_signals.c */

/* Register @j: @first_only takes slot 0 only ("run-<PID>.journal";
 * -EBUSY when a journal of this process holds it), else the lowest free
 * slot (-EMFILE when JOURNAL_MAX_OPEN are open).  Returns the slot. */
int journal_registry_claim(struct journal *j, bool first_only);

/* Take @j out of the registry (nothing when it is not there: a forked
 * child's copy), then wait until no signal handler still reads it, so
 * that it may be freed. */
void journal_registry_release(struct journal *j);

#endif
