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
	rc |= dup_text(&dst->perf_why, src->perf_why);
	rc |= dup_text(&dst->perf_rdpmc_why, src->perf_rdpmc_why);
	return rc ? -ENOMEM : 0;
}

void bench_avail_release(struct bench_avail *a)
{
	free(a->reason);
	free(a->perf_why);
	free(a->perf_rdpmc_why);
	a->reason = a->perf_why = a->perf_rdpmc_why = NULL;
}
