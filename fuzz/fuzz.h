/*
 * fuzz/fuzz.h - shared by the libFuzzer targets: the parsers under test take
 * a path, so each input is written to a private temporary file first.
 */
#ifndef BARETMA_FUZZ_H
#define BARETMA_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Write @data to a temporary file once per process (truncated each call);
 * returns its path, or NULL (the input is then skipped). */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
	static char path[64];
	static int fd = -1;

	if (fd < 0) {
		snprintf(path, sizeof(path), "/tmp/baretma-fuzz.XXXXXX");
		fd = mkstemp(path);
		if (fd < 0)
			return NULL;
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		return NULL;
	return path;
}

#endif
