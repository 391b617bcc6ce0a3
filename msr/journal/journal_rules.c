/*
 * msr/journal/journal_rules.c - what a journal may hold (msr/journal/journal_rules.h): the
 * settings table (files, values, the write back) and the registers
 * pmu_program() saves.  Includes nothing of msr/ above it.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "cpu/knobs.h"
#include "msr/regs/amd_regs.h"
#include "msr/regs/intel_regs.h"
#include "msr/journal/journal_rules.h"
#include "msr/access/sigsafe.h"

struct setting_def {
	const char *name;
	const char *files[SETTING_MAX_FILES]; /* relative to the sysroot; NULL ends */
	const char *values[4];                /* accepted by setting_change; NULL ends */
	const char *values_text;              /* the same, for messages */
};

/* Files and values: msr/guard/settings.h (linux arch/x86/events/core.c
 * set_attr_rdpmc; kernel/watchdog_perf.c; arch/x86/kernel/msr.c). */
static const struct setting_def defs[] = {
	[SETTING_RDPMC] = {
		"rdpmc",
		{ CPU_KNOB_RDPMC_CPU, CPU_KNOB_RDPMC_CPU_CORE, CPU_KNOB_RDPMC_CPU_ATOM },
		{ "0", "1", "2", NULL },
		"0, 1 or 2",
	},
	[SETTING_NMI_WATCHDOG] = {
		"nmi_watchdog",
		{ CPU_KNOB_NMI_WATCHDOG, NULL, NULL },
		{ "0", "1", NULL, NULL },
		"0 or 1",
	},
	[SETTING_MSR_ALLOW_WRITES] = {
		"msr_allow_writes",
		{ CPU_KNOB_MSR_ALLOW_WRITES, NULL, NULL },
		{ "on", "off", "default", NULL },
		"on, off or default",
	},
};
#define NDEFS (sizeof(defs) / sizeof(defs[0]))

static const struct setting_def *def_of(enum setting s)
{
	return (unsigned)s < NDEFS ? &defs[s] : NULL;
}

const char *setting_name(enum setting s)
{
	const struct setting_def *d = def_of(s);

	return d ? d->name : "?";
}

const char *setting_file(enum setting s, int i)
{
	const struct setting_def *d = def_of(s);

	return d && i >= 0 && i < SETTING_MAX_FILES ? d->files[i] : NULL;
}

int setting_of_file(const char *path, enum setting *s)
{
	for (size_t i = 0; path && i < NDEFS; i++)
		for (int f = 0; f < SETTING_MAX_FILES && defs[i].files[f]; f++)
			if (!strcmp(defs[i].files[f], path)) {
				*s = (enum setting)i;
				return 0;
			}
	return -ENOENT;
}

const char *setting_values_text(enum setting s)
{
	const struct setting_def *d = def_of(s);

	return d ? d->values_text : "";
}

bool setting_value_ok(enum setting s, const char *value)
{
	const struct setting_def *d = def_of(s);

	for (int i = 0; d && value && d->values[i]; i++)
		if (strcmp(d->values[i], value) == 0)
			return true;
	return false;
}

int setting_write_path(const char *full, const char *value)
{
	char buf[SETTING_VALUE_MAX + 1];
	size_t len = strlen(value);
	int fd, rc;

	if (len >= SETTING_VALUE_MAX)
		return -ENAMETOOLONG;
	memcpy(buf, value, len);
	buf[len++] = '\n';
	do
		fd = open(full, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return -errno;
	rc = sigsafe_write_all(fd, buf, len);
	if (close(fd) < 0 && !rc)
		rc = -errno;
	return rc;
}

/* pmu_program's step 1 (msr/pmu/pmu.h). */
const uint32_t pmu_journal_regs[PMU_JOURNAL_NREGS] = {
	IA32_PERF_GLOBAL_CTRL, IA32_FIXED_CTR_CTRL, IA32_FIXED_CTR3, IA32_PERF_METRICS,
};

bool pmu_journal_saves(uint32_t msr)
{
	for (int i = 0; i < PMU_JOURNAL_NREGS; i++)
		if (pmu_journal_regs[i] == msr)
			return true;
	return false;
}

static bool in_range(uint32_t msr, uint32_t base, unsigned n)
{
	return msr >= base && msr < base + n;
}

/* gp_program's registers (msr/pmu/pmu_gp.h): the architectural ranges. */
bool gp_journal_saves(uint32_t msr)
{
	if (in_range(msr, IA32_PERFEVTSEL0, INTEL_GP_ARCH_MAX) ||
	    in_range(msr, IA32_PMC0, INTEL_GP_ARCH_MAX) ||
	    in_range(msr, IA32_A_PMC0, INTEL_GP_ARCH_MAX))
		return true;
	if (in_range(msr, IA32_FIXED_CTR0, INTEL_FIXED_ARCH_MAX))
		return msr != IA32_FIXED_CTR3; /* pmu_program's, with PERF_METRICS */
	if (msr == IA32_FIXED_CTR_CTRL || msr == IA32_PERF_GLOBAL_CTRL ||
	    msr == AMD_PERF_CNTR_GLOBAL_CTL)
		return true;
	return in_range(msr, AMD_PERF_CTL0, 2 * AMD_GP_MAX);
}

bool journal_global_ctl(uint32_t msr)
{
	return msr == IA32_PERF_GLOBAL_CTRL || msr == AMD_PERF_CNTR_GLOBAL_CTL;
}
