/*
 * bench/source/source_tsc.c - the tsc source: RDTSC only, LFENCE-serialised
 * (msr/regs/rdpmc.h).  Timing without Top-down; works everywhere (a VM, an AMD
 * CPU), programs nothing, and has nothing to check between brackets.
 */
#include "bench/source/source.h"

static enum source_state tsc_usable(const struct bench_avail *a, bool rdpmc_always,
				    char **why)
{
	(void)why;
	return SOURCE_READY;
}

static int tsc_open(struct counter_source *src, const struct source_params *p)
{
	read_set_init(&src->rs, "the TSC");
	return 0;
}

static int tsc_program(struct counter_source *src, struct journal *j, char *why, size_t n)
{
	return 0;
}

static int tsc_reset(struct counter_source *src)
{
	return 0;
}

/* The session's bracket inlines the same body (read_inline). */
static void tsc_read(struct counter_source *src, struct reading *r)
{
	source_read_tsc(r);
}

static int tsc_verify(struct counter_source *src, unsigned what, struct source_check *chk)
{
	*chk = (struct source_check){ 0 };
	return 0;
}

static int tsc_close(struct counter_source *src)
{
	return 0;
}

const struct counter_source_ops source_tsc = {
	.id = BENCH_BACKEND_TSC,
	.name = "tsc",
	.topdown = false,
	.writes_msrs = false,
	.how = "RDTSC",
	.fault = TD_OK,
	.read_inline = SOURCE_READ_TSC,
	.probe = NULL,
	.usable = tsc_usable,
	.open = tsc_open,
	.program = tsc_program,
	.reset = tsc_reset,
	.read = tsc_read,
	.verify = tsc_verify,
	.close = tsc_close,
};
