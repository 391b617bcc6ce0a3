/*
 * fuzz/fuzz_sim_profile.c - the simulated PMU's profile parser
 * (msr/sim_profile.c, msr_sim_profile_parse): the input is the profile's
 * text.  Pure: nothing is opened, nothing is written.
 */
#include <string.h>

#include "msr/msr_sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_profile p;
	char err[1024] = "";
	int rc = msr_sim_profile_parse((const char *)data, size, "fuzz", &p, err, sizeof(err));

	/* a failure always says why; a success leaves nothing to say */
	if (rc && !err[0])
		__builtin_trap();
	return 0;
}
