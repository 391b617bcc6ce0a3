/*
 * cpu/array.h - heap arrays that grow: one place for the capacity
 * doubling, the size_t overflow check of count * size, and the rule that
 * a failed realloc keeps the array as it was.  Any layer may use it.
 */
#ifndef BARETMA_ARRAY_H
#define BARETMA_ARRAY_H

#include <stddef.h>

/*
 * array_grow - make the heap array whose pointer is at @arrayp (a T **,
 * passed as void *; its pointer may be NULL) of *@cap elements of @size
 * bytes hold at least @need elements.  When *@cap < @need the capacity
 * becomes @first (1 if @first is 0) when *@cap is 0, else *@cap, doubled
 * until it is at least @need, and the array is realloc()ed to it; the
 * elements it held are kept (realloc's rule).  *@cap >= @need: nothing
 * is done.
 * Returns 0 (*@arrayp and *@cap the new array and capacity), or -ENOMEM
 * with *@arrayp and *@cap as they were (the array still valid and owned
 * by the caller): realloc failed, or the capacity or its bytes (capacity
 * * @size) would not fit in a size_t (no allocation tried then); -EINVAL
 * for @size 0.
 */
int array_grow(void *arrayp, size_t *cap, size_t need, size_t size, size_t first);

/*
 * array_resize - realloc() the heap array whose pointer is at @arrayp
 * (a T **, passed as void *; NULL allowed) to exactly @n elements of
 * @size bytes; @n 0 keeps room for one (realloc(p, 0) may free p).
 * Returns 0 (*@arrayp the new array), or -ENOMEM with *@arrayp as it was:
 * realloc failed, or @n * @size would not fit in a size_t; -EINVAL for
 * @size 0.
 */
int array_resize(void *arrayp, size_t n, size_t size);

#endif
