/*
 * fuzz/fuzz_sim_profile.c - the simulated PMU's profile parser
 * (msr/sim/sim_profile.c, msr_sim_profile_parse): the input is the profile's
 * text.  Pure: nothing is opened, nothing is written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "msr/sim/msr_sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_profile p;
	char *err = NULL;
	int rc = msr_sim_profile_parse((const char *)data, size, "fuzz", &p, &err);

	/* a failure always says why (but -ENOMEM); a success leaves nothing to say */
	if ((rc && rc != -ENOMEM && (!err || !*err)) || (!rc && err))
		__builtin_trap();
	free(err);
	return 0;
}
