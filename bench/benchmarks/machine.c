/*
 * bench/benchmarks/machine.c - the benchmark programs' machine facts
 * (bench/benchmarks/machine.h).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench/benchmarks/machine.h"

void file_field(const char *path, const char *key, char *buf, size_t n)
{
	char line[512];
	FILE *f = fopen(path, "re");

	snprintf(buf, n, "?");
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, key, strlen(key)) && colon) {
			snprintf(buf, n, "%s", colon + 1 + strspn(colon + 1, " \t"));
			buf[strcspn(buf, "\n")] = '\0';
			break;
		}
	}
	if (f)
		fclose(f);
}

double mono_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void loadavg(char *buf, size_t n)
{
	FILE *f = fopen("/proc/loadavg", "re");

	if (!f || !fgets(buf, (int)n, f))
		snprintf(buf, n, "?");
	buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}
