/*
 * t/1152-journal-gate-cpus.c - the write gate's answers with the registers
 * of many CPUs saved in any order (issue 30, stat: the gate looks up a
 * write from its CPU's first register, journal_data.cpu_first, instead of
 * reading every register saved before it, ~700 instructions a write with
 * 72 CPUs' four registers each).  The answers are msr/journal/journal.h's
 * rule, worked here by hand: a (cpu, msr) saved passes; nothing else,
 * but IA32_PERF_GLOBAL_STATUS_RESET once the CPU's IA32_FIXED_CTR_CTRL or
 * IA32_PERF_GLOBAL_CTRL is saved.  The saves interleave CPUs as a run in
 * passes does (a CPU's next pass saves its event selects after every CPU's
 * first): CPU 5's IA32_FIXED_CTR_CTRL, CPU 1's IA32_PERF_GLOBAL_CTRL, CPU
 * 3's IA32_FIXED_CTR3, then CPU 5's IA32_PERFEVTSEL0 and CPU 1's
 * IA32_PMC0, each after another CPU's.  The same answers from the journal
 * in memory and from its file loaded back (journal_load: the restore's
 * gate, journal_restore_data).  The answers do not change with the index:
 * this passes before it too; it fails for an index that misses a CPU's
 * registers saved after its first, or one that answers for a CPU with no
 * register.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "msr/journal/journal.h"
#include "msr/regs/intel_regs.h"
#include "t/tap.h"
#include "t/fixture.h"

static const struct { unsigned cpu; uint32_t msr; } saves[] = {
	{ 5, IA32_FIXED_CTR_CTRL },
	{ 1, IA32_PERF_GLOBAL_CTRL },
	{ 3, IA32_FIXED_CTR3 },
	{ 5, IA32_PERFEVTSEL0 },
	{ 1, IA32_PMC0 },
};

/* The gate of @d, worked by hand from the saves above. */
static void answers(const struct journal_data *d, const char *which)
{
	printf("# %s\n", which);
	for (size_t i = 0; i < sizeof(saves) / sizeof(saves[0]); i++)
		ok(journal_data_permits(d, saves[i].cpu, saves[i].msr), "cpu %u 0x%x saved: passes",
		   saves[i].cpu, saves[i].msr);
	ok(!journal_data_permits(d, 5, IA32_PERF_GLOBAL_CTRL),
	   "cpu 5's IA32_PERF_GLOBAL_CTRL (cpu 1's is saved, not 5's): refused");
	ok(!journal_data_permits(d, 1, IA32_FIXED_CTR_CTRL), "cpu 1's IA32_FIXED_CTR_CTRL: refused");
	ok(!journal_data_permits(d, 3, IA32_PMC0), "cpu 3's IA32_PMC0 (cpu 1's is saved): refused");
	ok(journal_data_permits(d, 5, IA32_PERF_GLOBAL_STATUS_RESET),
	   "cpu 5's STATUS_RESET: its IA32_FIXED_CTR_CTRL is saved");
	ok(journal_data_permits(d, 1, IA32_PERF_GLOBAL_STATUS_RESET),
	   "cpu 1's STATUS_RESET: its IA32_PERF_GLOBAL_CTRL is saved");
	ok(!journal_data_permits(d, 3, IA32_PERF_GLOBAL_STATUS_RESET),
	   "cpu 3's STATUS_RESET: only its IA32_FIXED_CTR3 saved, refused");
	ok(!journal_data_permits(d, 2, IA32_FIXED_CTR_CTRL) && !journal_data_permits(d, 0, IA32_PMC0),
	   "cpus 2 and 0, nothing saved: refused");
	ok(!journal_data_permits(d, JOURNAL_MAX_CPUS + 5, IA32_FIXED_CTR_CTRL) &&
	   !journal_data_permits(d, ~0u, IA32_FIXED_CTR_CTRL),
	   "a CPU number past JOURNAL_MAX_CPUS: refused");
}

int main(void)
{
	char dir[PATH_MAX], path[PATH_MAX];
	struct journal *j = NULL;
	struct journal_data loaded = { 0 };

	t_scratch(dir, "1152");
	setenv("BARETMA_STATE_DIR", dir, 1);
	unsetenv("BARETMA_MSR_TRACE");
	check_int(journal_begin(&j, "t/1152", "state:x", JOURNAL_RUN, false), ==, 0,
		  "a run journal");
	for (size_t i = 0; j && i < sizeof(saves) / sizeof(saves[0]); i++)
		ok(journal_save_reg(j, saves[i].cpu, saves[i].msr, 0x10 + i) == 0,
		   "save cpu %u 0x%x", saves[i].cpu, saves[i].msr);
	if (j) {
		answers(journal_data_of(j), "the journal in memory");
		snprintf(path, sizeof(path), "%s", journal_path(j));
		check_int(journal_load(path, &loaded), ==, 0, "its file loaded back");
		check_int(loaded.nregs, ==, 5, "with its five registers");
		answers(&loaded, "the journal loaded from its file");
		journal_data_free(&loaded);
		/* nothing was written, so nothing restored: the file stays (-EBUSY,
		 * for `pmu restore`), removed with the scratch directory */
		check_int(journal_end(j), ==, -EBUSY, "journal_end keeps the unrestored journal");
	}
	t_rm_rf(dir);
	return done_testing();
}
