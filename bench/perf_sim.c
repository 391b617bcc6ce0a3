/*
 * bench/perf_sim.c - placeholder, replaced by the simulator implementation
 * of bench/perf_group.h (the simulated PMU through the kernel's
 * arithmetic).  Until then only its name is defined: no operation.
 */
#include "bench/perf_group.h"

const struct perf_group_ops perf_group_sim = { .name = "sim" };
