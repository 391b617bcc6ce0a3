/*
 * cpu/text.c - growing messages (cpu/text.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>

#include "cpu/text.h"

int text_appendf(char **s, const char *sep, const char *fmt, ...)
{
	const char *old = *s ? *s : "";
	char *add = NULL, *joined = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&add, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	if (asprintf(&joined, "%s%s%s", old, *old && sep ? sep : "", add) < 0) {
		free(add);
		return -ENOMEM;
	}
	free(add);
	free(*s);
	*s = joined;
	return 0;
}

int text_vsetf(char **s, const char *fmt, va_list ap)
{
	char *t = NULL;

	if (vasprintf(&t, fmt, ap) < 0)
		return -ENOMEM;
	free(*s);
	*s = t;
	return 0;
}

int text_setf(char **s, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = text_vsetf(s, fmt, ap);
	va_end(ap);
	return rc;
}

void text_thread_keep(struct text_thread *t, char **slot, char *text)
{
	int st = atomic_load_explicit(&t->state, memory_order_acquire), none = 0;

	/* the first caller makes the key; a concurrent one waits for it */
	if (st == 0 && atomic_compare_exchange_strong_explicit(&t->state, &none, 1,
								memory_order_acq_rel,
								memory_order_acquire))
		atomic_store_explicit(&t->state, pthread_key_create(&t->key, free) ? 3 : 2,
				      memory_order_release);
	while ((st = atomic_load_explicit(&t->state, memory_order_acquire)) == 1)
		sched_yield();
	if (text != *slot)
		free(*slot);
	*slot = text;
	if (st == 2)
		pthread_setspecific(t->key, text);
}
