/*
 * cpu/array.c - heap arrays that grow (cpu/array.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/array.h"

int array_resize(void *arrayp, size_t n, size_t size)
{
	void *p, *g;

	if (!n)
		n = 1;
	if (!size)
		return -EINVAL;
	if (n > SIZE_MAX / size)
		return -ENOMEM;
	/* @arrayp points at a T *: read and write it as the bytes of a
	 * pointer, which every object pointer type shares on the platforms
	 * baretma builds for (POSIX: dlsym's rule). */
	memcpy(&p, arrayp, sizeof(p));
	if (!(g = realloc(p, n * size)))
		return -ENOMEM;
	memcpy(arrayp, &g, sizeof(g));
	return 0;
}

int array_grow(void *arrayp, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t c;
	int rc;

	if (*cap >= need)
		return 0;
	c = *cap ? *cap : first ? first : 1;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return -ENOMEM;
		c *= 2;
	}
	if ((rc = array_resize(arrayp, c, size)))
		return rc;
	*cap = c;
	return 0;
}
