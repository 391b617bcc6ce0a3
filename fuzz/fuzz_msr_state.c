/*
 * fuzz/fuzz_msr_state.c - the state-file backend's parser (msr/access/msr_state.c):
 * open the input as "state:FILE", then read a few registers of CPU 0.
 */
#include <stdio.h>

#include "fuzz/fuzz.h"
#include "msr/access/msr.h"
#include "msr/open/msr_open.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	static const uint32_t regs[] = { 0x38d, 0x38f, 0x309, 0x329, 0x345 };
	char spec[96];
	struct msr_dev *dev;
	uint64_t v;

	if (!path)
		return 0;
	snprintf(spec, sizeof(spec), "state:%s", path);
	if (msr_open(spec, &dev))
		return 0;
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		msr_read(dev, 0, regs[i], &v);
	msr_close(dev);
	return 0;
}
