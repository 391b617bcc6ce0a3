/*
 * examples/markers.c - LIKWID-style markers: nothing happens unless the
 * program is built with -DBARETMA_PERFMON, so they can stay in the code.
 *
 *     cc -O2 -DBARETMA_PERFMON markers.c $(pkg-config --cflags --libs baretma)
 *     sudo BARETMA_BACKEND=auto ./a.out          # table on stderr at close
 *     BARETMA_BACKEND=tsc BARETMA_OUTPUT=m.json ./a.out   # JSON appended
 *
 * Options come from the environment: BARETMA_CPU, BARETMA_BACKEND,
 * BARETMA_LEVEL, BARETMA_OUTPUT (man 3 baretma).
 */
#include <stdio.h>

#include <baretma.h>

static volatile double sink;

static void kernel(int n)
{
	double x = 0;

	for (int i = 1; i <= n; i++)
		x += 1.0 / i;
	sink = x;
}

int main(void)
{
	BARETMA_MARKER_INIT;
	for (int i = 0; i < 50; i++) {
		BARETMA_MARKER_START("harmonic");
		kernel(10000);
		BARETMA_MARKER_STOP("harmonic");
	}
	BARETMA_MARKER_CLOSE;
	printf("done: %.6f\n", sink);
	return 0;
}
