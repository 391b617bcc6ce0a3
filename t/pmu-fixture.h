/*
 * t/pmu-fixture.h - what the PMU programming tests share (t/0310 the
 * sequences, t/0311 with the run journal, its signal guard and the write
 * gate, t/0312 the ownership check; t/0820 to t/0822 the general-purpose
 * counters, on state files of their own): an Ice Lake client modelled by
 * a state file and what programming its cpu 0 writes (ICL_CPU0_*), its
 * $BARETMA_MSR_TRACE lines, handles on it, the journal files of a run,
 * and, with msr/pmu/pmu_gp.h included first, Zen 4's events (zen4_ev).
 * Include after t/fixture.h.
 */
#ifndef BARETMA_T_PMU_FIXTURE_H
#define BARETMA_T_PMU_FIXTURE_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "msr/open/msr_open.h"
#include "msr/regs/intel_regs.h"
#include "msr/journal/journal.h"
#include "msr/pmu/pmu.h"
#include "t/fixture.h"

static char dir[PATH_MAX];
static char state[PATH_MAX] __attribute__((unused)), trace[PATH_MAX] __attribute__((unused));

/*
 * Ice Lake client (i7-1065G7 class), two logical CPUs.  Starting values are
 * firmware/OS leftovers that must survive:
 *   IA32_PERF_GLOBAL_CTRL  0x70000000f: GP0-3 (bits 0-3) and FC0-2 (bits
 *                          32-34) enabled, as the CPU/firmware leave them
 *                          (the GP enables at RESET: linux arch/x86/kvm/pmu.c
 *                          kvm_pmu_refresh's comment; FC0-2 as Intel PCM's
 *                          cleanup leaves them);
 *   IA32_FIXED_CTR_CTRL    0x333: FC0-2 fields = EN_OS|EN_USR, FC3 field 0;
 *                          cpu 1: 0xa00000b3a (FC2 field 0xb with PMI, FC0
 *                          field 0xa, bits 33 and 35 set) to check that
 *                          every bit outside 15:12 is kept;
 *   IA32_FIXED_CTR3 / IA32_PERF_METRICS: stale counts;
 *   IA32_PERF_CAPABILITIES 0xf4c5: constructed from linux arch/x86/events/
 *                          perf_event.h union perf_capabilities (PERF_METRICS bit
 *                          15, full-width writes bit 13, PEBS format 4),
 *                          not read from a machine; never written.
 */
#define ICL_HEADER "# Ice Lake client, baretma test fixture\n"
#define ICL_CPU1_TEXT                           \
	"1 0x30c 0x51\n"                        \
	"1 0x329 0x80808080\n"                  \
	"1 0x345 0xf4c5\n"                      \
	"1 0x38d 0xa00000b3a\n"                 \
	"1 0x38e 0x0\n"                         \
	"1 0x38f 0x70000000f\n"                 \
	"1 0x390 0x0\n"
static const char icl_text[] __attribute__((unused)) =
	ICL_HEADER
	"0 0x30c 0x2f1a3c0\n"
	"0 0x329 0x1f3a5c47\n"
	"0 0x345 0xf4c5\n"
	"0 0x38d 0x333\n"
	"0 0x38e 0x0\n"
	"0 0x38f 0x70000000f\n"
	"0 0x390 0x0\n"
	ICL_CPU1_TEXT;

static const struct pmu_config icl_cfg __attribute__((unused)) = {
	.perf_metrics = true, .fixed_ctr3 = true,
};

/*
 * What msr/pmu/pmu.h does to icl_text's cpu 0 with icl_cfg, as trace lines,
 * worked by hand from msr/pmu/pmu.h, the kernel's order and perf_event.h's bit layouts:
 *   ICL_CPU0_READS    step 1 reads GLOBAL_CTRL, FIXED_CTR_CTRL, FIXED_CTR3,
 *                     PERF_METRICS;
 *   ICL_CPU0_CLEARS   2. GLOBAL_CTRL = 0
 *                     3. FIXED_CTR_CTRL = (0x333 & ~0xf000) | (EN_OS|EN_USR
 *                        = 0x3) << 12 = 0x3333
 *                     4. FIXED_CTR3 = 0, then PERF_METRICS = 0;
 *   ICL_CPU0_PROGRAM  the clears, then
 *                     5. GLOBAL_STATUS_RESET = 1<<35 | 1<<48 = 0x800000000
 *                        + 0x1000000000000 = 0x1000800000000
 *                     6. GLOBAL_CTRL = 0x70000000f | 0x800000000 |
 *                        0x1000000000000 = 0x1000f0000000f;
 *   ICL_CPU0_RESTORE(how)  freeze, FIXED_CTR_CTRL, FC3, PERF_METRICS back,
 *                     clear the overflow bits the run may have caused (35 |
 *                     48 = 0x1000800000000, msr/pmu/pmu.h's restore; @how is "" or
 *                     the trace's " EIO" when that write fails), then
 *                     GLOBAL_CTRL last.
 */
#define ICL_CPU0_READS                          \
	"rd 0 0x38f 0x70000000f\n"              \
	"rd 0 0x38d 0x333\n"                    \
	"rd 0 0x30c 0x2f1a3c0\n"                \
	"rd 0 0x329 0x1f3a5c47\n"
#define ICL_CPU0_CLEARS                         \
	"wr 0 0x38f 0x0\n"                      \
	"wr 0 0x38d 0x3333\n"                   \
	"wr 0 0x30c 0x0\n"                      \
	"wr 0 0x329 0x0\n"
#define ICL_CPU0_PROGRAM                        \
	ICL_CPU0_CLEARS                         \
	"wr 0 0x390 0x1000800000000\n"          \
	"wr 0 0x38f 0x1000f0000000f\n"
#define ICL_CPU0_RESTORE(how)                   \
	"wr 0 0x38f 0x0\n"                      \
	"wr 0 0x38d 0x333\n"                    \
	"wr 0 0x30c 0x2f1a3c0\n"                \
	"wr 0 0x329 0x1f3a5c47\n"               \
	"wr 0 0x390 0x1000800000000" how "\n"   \
	"wr 0 0x38f 0x70000000f\n"

#ifdef BARETMA_PMU_GP_H
/* Zen 4's level-1 events for msr/pmu/pmu_gp.h (t/0820, t/0822), encodings from
 * perf's amdzen4 core.json / other.json */
static const struct gp_event zen4_ev[] __attribute__((unused)) = {
	{ "ls_not_halted_cyc", 0x76, 0x00, 0, false, false, false, 0, GP_NO_FIXED },
	{ "ex_ret_ops", 0xc1, 0x00, 0, false, false, false, 0, GP_NO_FIXED },
	{ "de_src_op_disp.all", 0xaa, 0x07, 0, false, false, false, 0, GP_NO_FIXED },
	{ "de_no_dispatch_per_slot.no_ops_from_frontend", 0x1a0, 0x01, 0, false, false, false, 0,
	  GP_NO_FIXED },
	{ "de_no_dispatch_per_slot.backend_stalls", 0x1a0, 0x1e, 0, false, false, false, 0,
	  GP_NO_FIXED },
	{ "de_no_dispatch_per_slot.smt_contention", 0x1a0, 0x60, 0, false, false, false, 0,
	  GP_NO_FIXED },
};
#endif

/* Lines of the trace starting with @prefix ("wr", "rd" or ""). */
static inline const char *trace_lines(const char *prefix)
{
	static char out[8192];
	const char *t = get_file(trace);
	size_t o = 0, n = strlen(prefix);

	out[0] = '\0';
	while (*t) {
		const char *nl = strchr(t, '\n');
		size_t len = nl ? (size_t)(nl - t) + 1 : strlen(t);

		if (strncmp(t, prefix, n) == 0 && o + len < sizeof(out)) {
			memcpy(out + o, t, len);
			o += len;
		}
		t += len;
	}
	out[o] = '\0';
	return out;
}

/* Fresh state file with @text and an empty trace; opens a handle with
 * the write gate every msr_open() handle has (msr/access/msr.h). */
static inline struct msr_dev *gated(const char *text)
{
	char spec[PATH_MAX + 8];
	struct msr_dev *dev = NULL;

	put_file(state, text);
	put_file(trace, "");
	t_path(spec, "state:%s", state);
	if (msr_open(spec, &dev)) {
		printf("# msr_open: %s\n", msr_last_error());
		exit(1);
	}
	return dev;
}

/* gated(), ungated: msr/pmu/pmu.c's own sequences, no journal's gate in front
 * of them unless a test sets one (journal_set_dev). */
static inline struct msr_dev *setup(const char *text)
{
	struct msr_dev *dev = gated(text);

	msr_ungate(dev);
	return dev;
}

/* The journal file of this process (msr/journal/journal.h: run-<PID>.journal). */
static inline const char *journal_file(pid_t pid)
{
	static char p[PATH_MAX];

	t_path(p, "%s/run/run-%ld.journal", dir, (long)pid);
	return p;
}

/* The "reg" lines of a journal file. */
static inline const char *reg_lines(const char *path)
{
	static char out[4096];
	const char *t = get_file(path);
	size_t o = 0;

	out[0] = '\0';
	while (*t) {
		const char *nl = strchr(t, '\n');
		size_t len = nl ? (size_t)(nl - t) + 1 : strlen(t);

		if (strncmp(t, "reg ", 4) == 0 && o + len < sizeof(out)) {
			memcpy(out + o, t, len);
			o += len;
		}
		t += len;
	}
	out[o] = '\0';
	return out;
}

static inline void spec_of(char *spec, size_t n)
{
	t_path_(spec, n, "state:%s", state);
}

/* t_pmu_fixture - the scratch directory "@tag", the state file and trace
 * in it ($BARETMA_MSR_TRACE), and the state directory of the runs
 * ($BARETMA_STATE_DIR: DIR/run). */
static inline void t_pmu_fixture(const char *tag)
{
	char run[PATH_MAX];

	t_scratch(dir, tag);
	t_path(state, "%s/state", dir);
	t_path(trace, "%s/trace", dir);
	setenv("BARETMA_MSR_TRACE", trace, 1);
	t_path(run, "%s/run", dir);
	setenv("BARETMA_STATE_DIR", run, 1);
}

/* t_pmu_fixture_end - remove the scratch directory. */
static inline void t_pmu_fixture_end(void)
{
	if (t_rm_rf(dir))
		printf("# could not remove %s\n", dir);
}

#endif
