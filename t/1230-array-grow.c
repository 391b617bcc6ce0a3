/*
 * t/1230-array-grow - the heap arrays that grow (cpu/array.h), worked by
 * hand from its documented rule (from @first, or the capacity, doubled
 * until it holds @need; count * size checked against SIZE_MAX; a failure
 * keeps the array and its capacity):
 *   - from nothing: need 1, first 8 -> capacity 8; need 8 then: nothing
 *     done (the same pointer); need 9 -> 16 with the 8 elements kept;
 *     need 100 -> 128 (16, 32, 64, 128); first 0 reads as 1 (need 3 -> 4);
 *     a first above need is taken as it is (need 1, first 5 -> 5); a
 *     capacity of 3 doubles to 6 whatever first says;
 *   - too big for a size_t: 4-byte elements, need SIZE_MAX / 4 + 1 (the
 *     capacity 2^62 from 128 fits, its 2^64 bytes do not) and a capacity
 *     of SIZE_MAX / 2 + 2 one element short (its double does not fit):
 *     -ENOMEM, nothing allocated, the array and capacity as they were;
 *   - realloc failing (2^60 elements of 4 bytes, 4 EiB: more than any
 *     address space): -ENOMEM, the same pointer, its 128 elements whole;
 *   - array_resize: exactly n elements, n 0 keeps room for one (not
 *     realloc(p, 0), which may free), n * size past SIZE_MAX -ENOMEM,
 *     size 0 -EINVAL.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/array.h"
#include "t/tap.h"

/* The sanitizer build: a refused allocation is NULL, as libc's, not an abort. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

static int intact(const int *a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != (int)i)
			return 0;
	return 1;
}

int main(void)
{
	int *a = NULL, *was;
	char *b = NULL;
	size_t cap = 0, bcap = 0;

	alarm(10); /* a doubling that wraps around would loop forever */

	/* from nothing */
	check_int(array_grow(&a, &cap, 1, sizeof(*a), 8), ==, 0, "need 1 of nothing: 0");
	check_u64(cap, ==, 8, "capacity first = 8");
	ok(a != NULL, "an array");
	for (int i = 0; i < 8; i++)
		a[i] = i;
	was = a;
	check_int(array_grow(&a, &cap, 8, sizeof(*a), 8), ==, 0, "need 8 of 8: 0");
	ok(a == was && cap == 8, "need 8 of 8: nothing done (same pointer, capacity 8)");
	check_int(array_grow(&a, &cap, 9, sizeof(*a), 8), ==, 0, "need 9 of 8: 0");
	check_u64(cap, ==, 16, "need 9 of 8: doubled to 16");
	ok(intact(a, 8), "the 8 elements kept");
	for (int i = 8; i < 16; i++)
		a[i] = i;
	check_int(array_grow(&a, &cap, 100, sizeof(*a), 8), ==, 0, "need 100 of 16: 0");
	check_u64(cap, ==, 128, "need 100 of 16: 32, 64, 128");
	ok(intact(a, 16), "the 16 elements kept");
	for (int i = 16; i < 128; i++)
		a[i] = i;

	check_int(array_grow(&b, &bcap, 3, 1, 0), ==, 0, "first 0, need 3: 0");
	check_u64(bcap, ==, 4, "first 0 reads as 1: 1, 2, 4");
	free(b);
	b = NULL, bcap = 0;
	check_int(array_grow(&b, &bcap, 1, 1, 5), ==, 0, "first 5, need 1: 0");
	check_u64(bcap, ==, 5, "first above need: 5 as it is");
	bcap = 3; /* b has 5 bytes: room for the 3 claimed */
	check_int(array_grow(&b, &bcap, 4, 1, 100), ==, 0, "capacity 3, need 4, first 100: 0");
	check_u64(bcap, ==, 6, "a capacity doubles, first unused: 6");
	memcpy(b, "abcdef", 6);

	/* too big for a size_t: refused before any allocation */
	was = a;
	check_int(array_grow(&a, &cap, SIZE_MAX / sizeof(*a) + 1, sizeof(*a), 8), ==, -ENOMEM,
		  "need SIZE_MAX / 4 + 1 of 4 bytes: 2^64 bytes, -ENOMEM");
	ok(a == was && cap == 128 && intact(a, 128), "refused: the array and capacity as they were");
	{
		char *c = malloc(1), *cwas = c;
		size_t ccap = SIZE_MAX / 2 + 2; /* never allocated: no realloc may be tried */

		check_int(array_grow(&c, &ccap, SIZE_MAX / 2 + 3, 1, 8), ==, -ENOMEM,
			  "capacity SIZE_MAX / 2 + 2 doubled does not fit: -ENOMEM");
		ok(c == cwas && ccap == SIZE_MAX / 2 + 2, "refused: pointer and capacity kept");
		free(c);
	}

	/* realloc fails: the old array stays */
	check_int(array_grow(&a, &cap, (size_t)1 << 60, sizeof(*a), 8), ==, -ENOMEM,
		  "2^60 elements of 4 bytes (4 EiB): realloc fails, -ENOMEM");
	ok(a == was && cap == 128 && intact(a, 128), "failed: the same pointer, 128 elements whole");

	/* array_resize */
	check_int(array_resize(&a, 3, sizeof(*a)), ==, 0, "resize to 3: 0");
	ok(a != NULL && intact(a, 3), "resized: the first 3 kept");
	check_int(array_resize(&a, 0, sizeof(*a)), ==, 0, "resize to 0: 0");
	ok(a != NULL && a[0] == 0, "resize to 0 keeps room for one (not freed)");
	was = a;
	check_int(array_resize(&a, SIZE_MAX / 2, 4), ==, -ENOMEM, "(SIZE_MAX / 2) * 4 bytes: -ENOMEM");
	ok(a == was && a[0] == 0, "refused: the array kept");
	check_int(array_resize(&a, 1, 0), ==, -EINVAL, "size 0: -EINVAL");
	check_int(array_grow(&a, &cap, cap + 1, 0, 8), ==, -EINVAL, "array_grow size 0: -EINVAL");
	ok(!memcmp(b, "abcdef", 6), "the other array untouched");

	free(a);
	free(b);
	return done_testing();
}
