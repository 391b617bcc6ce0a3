/*
 * cpu/text.h - messages that grow as they are built, on the heap: no
 * fixed-size buffer cuts a note mid-word (a 512-byte note once ended
 * "...: subtracted, bu").  Any layer may use it.
 */
#ifndef BARETMA_TEXT_H
#define BARETMA_TEXT_H

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>

/*
 * text_appendf - append printf(@fmt, ...) to the string *@s (on the heap;
 * NULL reads as ""), after @sep when *@s is not empty (@sep NULL: none).
 * Returns 0, or -ENOMEM with *@s unchanged.  Free *@s with free().
 */
int text_appendf(char **s, const char *sep, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * text_setf - replace the string *@s (on the heap, NULL or not) with
 * printf(@fmt, ...).  Returns 0, or -ENOMEM with *@s unchanged.
 */
int text_setf(char **s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* text_vsetf - text_setf with @ap (a variadic caller's own arguments). */
int text_vsetf(char **s, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/*
 * A text kept per thread (a layer's "last error"), on the heap: each
 * thread reads its own from a _Thread_local char * of the layer's, and a
 * thread-specific key frees it when the thread exits, so that threaded
 * harnesses leak nothing.  One struct text_thread per such text, static,
 * TEXT_THREAD_INIT.
 * text_thread_keep - @text (on the heap; NULL: none) becomes the calling
 * thread's *@slot; the previous *@slot is freed unless it is @text.
 * Without a key (pthread_key_create failed) the text is kept all the same
 * and a thread's last one is not freed at its exit.
 */
struct text_thread {
	atomic_int state;      /* 0 no key yet, 1 being made, 2 made, 3 none */
	pthread_key_t key;
};
#define TEXT_THREAD_INIT { 0 }

void text_thread_keep(struct text_thread *t, char **slot, char *text);

/* text_or_empty - @s, or "" when NULL. */
static inline const char *text_or_empty(const char *s)
{
	return s ? s : "";
}

#endif
