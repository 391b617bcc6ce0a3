/*
 * msr/guard/guard_int.h - what the files of the guarded run share, private to
 * them (msr/guard/guard.h): the layout of struct guard and how a step says what
 * it refused or noted.  msr/guard/guard.c, msr/guard/guard_owner.c include it.
 */
#ifndef BARETMA_GUARD_INT_H
#define BARETMA_GUARD_INT_H

#include <stdbool.h>

#include "msr/guard/guard.h"
#include "msr/guard/lock.h"


/* A note, warning or after-line kept for the caller. */
struct guard_said {
	enum guard_line_kind kind;
	char *text;
};

struct guard {
	struct guard_opts o;        /* cmd and backend point at the copies below */
	char *cmd, *backend;
	pid_t pid;                  /* the process that made it (fork rule) */
	enum journal_kind kind;     /* o.kind, then guard_begin's */
	struct cpu_lock *settings_lock;
	struct cpu_lock *cpu_lock;
	bool dry_said;              /* the dry run's state directory named */
	struct journal *j;
	struct msr_dev *dev;        /* guard_begin's: the restore goes through it */
	char *msg;                  /* the last refusal's or failure's line, on the
				     * heap (it names paths, a command line, a
				     * journal's line: any length); NULL: none */
	bool msg_lost;              /* ... there was no memory to say it */
	enum guard_class cls;
	struct guard_said *lines;
	int nlines, cap;
};

/* guard_keep - @text (on the heap, taken; NULL: memory ran out) as the
 * message. */
void guard_keep(struct guard *g, char *text);

/* Keep the message (printf @fmt) and its class; returns @err. */
int guard_fail(struct guard *g, enum guard_class cls, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Keep a line to say (printf @fmt); lost only when out of memory. */
void guard_say(struct guard *g, enum guard_line_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Any of the three settings consented to. */
bool guard_settings_any(const struct guard_settings *s);

#endif
