/*
 * bench/lib/api.h - what the public API's session shows to the rest of the
 * library (the markers, bench/lib/api_marker.c): not part of <baretma.h>.
 */
#ifndef BARETMA_API_INT_H
#define BARETMA_API_INT_H

#include "bench/region.h"
#include "bench/session.h"
#include "include/baretma.h"

/* The option region_method (include/baretma.h). */
enum region_method {
	REGION_METHOD_AUTO = 0,   /* metrics-clear where the source can, else delta */
	REGION_METHOD_DELTA,      /* the slot-weighted delta */
	REGION_METHOD_CLEAR,      /* RDPMC metrics-clear regions, or -EOPNOTSUPP */
};

/* api_region_method_parse - "auto" (or NULL), "delta", "metrics-clear" into
 * @m; -EINVAL for anything else. */
int api_region_method_parse(const char *text, enum region_method *m);

/* api_regions - the session's region table (names, open state, sums). */
const struct region_table *api_regions(const struct baretma *bm);

/* api_level - the Top-down level of the session's readings (0: TSC only). */
int api_level(const struct baretma *bm);

/* api_info - what the session found and chose (CPU, source, reason). */
const struct session_info *api_info(const struct baretma *bm);

#endif
