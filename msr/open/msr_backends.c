/*
 * msr/open/msr_backends.c - the table of MSR backends that msr_open() chooses
 * from by the spec's prefix (msr/access/msr.h struct msr_backend), hwloc's
 * hwloc_static_components[] as the model: each backend lives in its own
 * file (msr_state.c, msr_sim.c, msr_dev.c) and is one entry here.  The
 * device backend is last: any spec no prefix claims is a path template
 * ("foo:x" too: a relative path with a colon is still a path).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/escape.h"
#include "cpu/text.h"
#include "msr/open/msr_open.h"
#include "msr/sim/msr_sim.h"

/* The device backend's context, with its one-line detail. */
static int device_ctx_new(const char *template, const char *cpuid_dump, void **ctx,
			  char **err)
{
	char *shown; /* from the environment: escaped whole (cpu/escape.h) */
	int rc = msr_device_ctx_new(template, ctx);

	(void)cpuid_dump; /* the registers of this machine's CPUs */
	if (!rc)
		return 0;
	if (!(shown = esc_strdup(template)))
		return -ENOMEM;
	if (rc == -EINVAL)
		text_setf(err, "MSR device template '%s': needs exactly one %%u (the CPU "
			 "number) and no other %% conversion", shown);
	else
		text_setf(err, "MSR device template '%s': %s", shown, strerror(-rc));
	free(shown);
	return rc;
}

/* A state file holds its registers, whatever machine they belong to. */
static int state_ctx_new(const char *file, const char *cpuid_dump, void **ctx, char **err)
{
	(void)cpuid_dump;
	return msr_state_ctx_new(file, ctx, err);
}

const struct msr_backend msr_backends[] = {
	{ .prefix = "state:", .ops = &msr_state_ops, .ctx_new = state_ctx_new,
	  .what = "a text file of registers, one 'CPU 0xMSR 0xVALUE' a line: dry runs "
		  "and tests without root" },
	{ .prefix = "sim:", .ops = &msr_sim_ops, .ctx_new = msr_sim_ctx_new,
	  .what = "a simulated PMU that counts a profile's Top-down shares on the "
		  "CPUs a CPUID dump describes" },
	{ .prefix = NULL, .ops = &msr_device_ops, .ctx_new = device_ctx_new,
	  .hardware = true, .template = true,
	  .what = "the msr driver's /dev/cpu/N/msr (or msr_safe's) through a path "
		  "template with one %u: this machine's registers" },
};

const struct msr_backend *msr_backend_of(const char *spec)
{
	const struct msr_backend *b = msr_backends;

	for (; b->prefix; b++)
		if (!strncmp(spec, b->prefix, strlen(b->prefix)))
			break;
	return b;
}
