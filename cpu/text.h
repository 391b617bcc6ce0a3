/*
 * cpu/text.h - messages that grow as they are built, on the heap: no
 * fixed-size buffer cuts a note mid-word (a 512-byte note once ended
 * "...: subtracted, bu").  Any layer may use it.
 */
#ifndef BARETMA_TEXT_H
#define BARETMA_TEXT_H

#include <stdarg.h>

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

/* text_or_empty - @s, or "" when NULL. */
static inline const char *text_or_empty(const char *s)
{
	return s ? s : "";
}

#endif
