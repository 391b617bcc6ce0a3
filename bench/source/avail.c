/*
 * bench/source/avail.c - the reasons of a struct bench_avail (avail.h):
 * set, copied, freed.  Beside their declarations, a room below the checks
 * that fill them (bench/avail.c), since the sources set them too
 * (bench/source/source.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/text.h"

#include "bench/source/avail.h"

int bench_avail_setf(struct bench_avail *a, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = text_vsetf(&a->reason, fmt, ap);
	va_end(ap);
	return rc;
}

static int dup_text(char **dst, const char *src)
{
	*dst = src ? strdup(src) : NULL;
	return src && !*dst ? -ENOMEM : 0;
}

int bench_avail_copy(struct bench_avail *dst, const struct bench_avail *src)
{
	int rc = 0;

	bench_avail_release(dst);
	*dst = *src;
	rc |= dup_text(&dst->reason, src->reason);
	for (unsigned i = 0; i < BENCH_NSOURCES; i++)
		rc |= dup_text(&dst->src[i].why, src->src[i].why);
	return rc ? -ENOMEM : 0;
}

void bench_avail_release(struct bench_avail *a)
{
	free(a->reason);
	a->reason = NULL;
	for (unsigned i = 0; i < BENCH_NSOURCES; i++) {
		free(a->src[i].why);
		a->src[i].why = NULL;
	}
}
