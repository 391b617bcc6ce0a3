/*
 * cpu/text.c - growing messages (cpu/text.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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
