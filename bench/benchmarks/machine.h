/*
 * bench/benchmarks/machine.h - what the benchmark programs print about the
 * machine they ran on (HACKING.md "Benchmarks": every number with its
 * machine).
 */
#ifndef BARETMA_BENCHMARKS_MACHINE_H
#define BARETMA_BENCHMARKS_MACHINE_H

#include <stddef.h>

/* file_field - the first line of @path starting with @key, after its ":"
 * and blanks, into @buf ("?" when there is none or @path cannot be read). */
void file_field(const char *path, const char *key, char *buf, size_t n);

/* mono_s - CLOCK_MONOTONIC in seconds (a wall time's ends). */
double mono_s(void);

/* loadavg - /proc/loadavg's line (the 1, 5 and 15-minute load averages,
 * proc(5)) into @buf without its newline ("?" where it cannot be read). */
void loadavg(char *buf, size_t n);

#endif
