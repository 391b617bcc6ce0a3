/*
 * t/0994-api-region-method - the option region_method (include/baretma.h)
 * and the registers put back after a metrics-clear session, on the
 * simulated PMU with real dumps ($SHARED_CPUID/INDEX.tsv):
 *   Lunar Lake (Core Ultra 9 288V): CPU 0 a Lion Cove P-core, width W = 8,
 *     level 2, IA32_PERF_CAPABILITIES bit 19 (RDPMC metrics-clear mode:
 *     linux commit 0e45818ec189, arch/x86/events/intel/core.c);
 *   Ice Lake-L (i7-1065G7): level 1, no bit 19.
 *
 * One region, begin / K = 4N cycles of work / end, `ghz 0`, each simulated
 * RDPMC one access of N cycles (t/0993's model): the reading is RDPMC FC3
 * then RDPMC PERF_METRICS.
 *   metrics-clear: the begin's PERF_METRICS read cleared FC3, so the
 *     region's slots are W x (K + the end's FC3 read N) = 5.W.N = 40000;
 *   delta: FC3 counts on, so b - a = W x (the begin's PERF_METRICS read N
 *     + K + the end's FC3 read N) = 6.W.N = 48000.
 * IA32_FIXED_CTR_CTRL (0x38d): FC3's field is bits 15:12; OS | USR = 0x3
 * (0x3000), metrics-clear adds METRICS_CLEAR_EN, bit 14 (0x7000): t/0992.
 * The machine is a state file (t_put_lnl_state: Lunar Lake's CPU 0, FC3
 * holding 12345, the rest 0 but IA32_PERF_CAPABILITIES and GLOBAL_CTRL):
 * after every session it is byte for byte as written.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/baretma.h"
#include "msr/regs/intel_regs.h"
#include "msr/access/msr.h"
#include "msr/open/msr_open.h"
#include "msr/sim/msr_sim.h"
#include "t/tap.h"
#include "t/fixture.h"

#define N 1000u
#define W 8u

static struct msr_dev *dev; /* the test's handle on the simulated Lunar Lake */
static char lnl[PATH_MAX], icl[PATH_MAX], trace[PATH_MAX];

static int open_on(const char *dump, const char *backend, const char *method,
		   struct baretma **bm)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	int rc;

	o.backend = backend;
	o.cpu = 0;
	o.cpuid_dump = dump;
	o.region_method = method;
	*bm = NULL;
	rc = baretma_open(bm, &o);
	if (rc)
		printf("# baretma_open (%s): %d %s\n", method ? method : "NULL", rc,
		       baretma_last_error());
	return rc;
}

/* One region of 4N cycles of work: its slots. */
static double one_region(struct baretma *bm)
{
	struct baretma_result r = { 0 };

	baretma_region_begin(bm, "r");
	msr_sim_work(dev, 0, 4 * N);
	baretma_region_end(bm, "r");
	baretma_region_get(bm, "r", &r);
	return r.slots;
}

/* The whole of file @path (static; "" when unreadable). */
static const char *slurp(const char *path)
{
	static char buf[2][4096];
	static int k;
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf[k], 1, sizeof(buf[k]) - 1, f) : 0;

	k ^= 1;
	buf[k ^ 1][n] = '\0';
	if (f)
		fclose(f);
	return buf[k ^ 1];
}

/* The values written to IA32_FIXED_CTR_CTRL, in order, from the trace. */
static void fcc_writes(char *out, size_t n)
{
	FILE *f = fopen(trace, "r");
	char line[256], op[16], cpu[32], msr[32], val[64];
	size_t used = 0;

	out[0] = '\0';
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%15s %31s %31s %63s", op, cpu, msr, val) == 4 &&
		    !strcmp(op, "wr") && !strcmp(msr, "0x38d") && used + strlen(val) + 2 < n)
			used += (size_t)snprintf(out + used, n - used, "%s ", val);
	if (f)
		fclose(f);
}

int main(void)
{
	char *ptext;
	const char *shared = t_shared_dumps();
	static char dir[PATH_MAX], run[PATH_MAX], prof[PATH_MAX], spec[PATH_MAX + 8];
	static char state[PATH_MAX], orig[4096], icl_prof[PATH_MAX], icl_spec[PATH_MAX + 8];
	struct baretma *bm;
	char writes[256];
	int rc;

	t_path(lnl, "%s/libcpuid/master-history/intel/x86-64/lion-cove/"
	       "intel-core-ultra-9-288v.test", shared);
	t_path(icl, "%s/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test", shared);
	t_scratch(dir, "0994");
	t_path(run, "%s/run", dir);
	t_path(prof, "%s/profile", dir);
	t_path(trace, "%s/trace", dir);
	t_path(state, "%s/state", dir);
	t_put_lnl_state(state, 12345);
	snprintf(orig, sizeof(orig), "%s", slurp(state));
	ptext = t_strf("state %s\nghz 0\naccess_cycles 1000\nretiring 40\n"
		   "bad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n", state);
	t_put_tree(prof, ptext);
	free(ptext);
	t_path(spec, "sim:%s", prof);
	t_path(icl_prof, "%s/icl-profile", dir);
	t_put_tree(icl_prof, "ghz 0\naccess_cycles 1000\nretiring 40\nbad_speculation 10\n"
		   "frontend_bound 20\nbackend_bound 30\n");
	t_path(icl_spec, "sim:%s", icl_prof);
	setenv("BARETMA_STATE_DIR", run, 1);
	setenv("BARETMA_MSR", spec, 1);
	unsetenv("BARETMA_CPUID_DUMP");
	unsetenv("BARETMA_PERF");
	unsetenv("BARETMA_MSR_TRACE");
	if (msr_open_on(spec, lnl, &dev)) {
		printf("# %s\n", msr_last_error());
		skip_all("cannot open the simulated Lunar Lake machine");
	}
	plan(17);
	ok(strstr(orig, "0 0x30c 0x3039\n") != NULL, "the state file: FC3 holds 12345 (0x3039)");

	/* auto on Lunar Lake's rdpmc backend: metrics-clear; the registers */
	setenv("BARETMA_MSR_TRACE", trace, 1);
	rc = open_on(lnl, "rdpmc", NULL, &bm);
	if (!ok(rc == 0, "LNL, rdpmc, region_method NULL (auto): opens")) {
		skip(15, "no session");
		goto out;
	}
	ok(strstr(baretma_notes(bm), "note: regions: RDPMC metrics-clear regions") != NULL,
	   "auto: the notes say metrics-clear regions");
	check_dbl(one_region(bm), 5.0 * W * N, 1e-9, "auto: metrics-clear slots 5.W.N");
	ok(baretma_close(bm) == 0, "closes");
	unsetenv("BARETMA_MSR_TRACE");
	fcc_writes(writes, sizeof(writes));
	check_str(writes, "0x7000 0x0 ", "FIXED_CTR_CTRL: bit 14 set for the session, 0 again");
	check_str(slurp(state), orig, "the state file byte for byte as found, FC3 12345 "
		  "included");

	/* "delta": the delta method, no bit 14 */
	rc = open_on(lnl, "rdpmc", "delta", &bm);
	ok(rc == 0, "LNL, rdpmc, region_method \"delta\": opens");
	if (!rc) {
		ok(strstr(baretma_notes(bm), "note: regions: the delta method (slot-weighted "
			  "differences of IA32_PERF_METRICS readings): region_method \"delta\"")
		   != NULL, "delta: the notes say the delta method and why");
		check_dbl(one_region(bm), 6.0 * W * N, 1e-9, "delta: slots 6.W.N");
		baretma_close(bm);
	} else {
		skip(2, "no session");
	}

	/* "metrics-clear" where it cannot be: refused, nothing left open */
	rc = open_on(lnl, "msr", "metrics-clear", &bm);
	baretma_close(bm);
	ok(rc == -EOPNOTSUPP && bm == NULL && strstr(baretma_last_error(),
	   "region_method \"metrics-clear\" on cpu 0, backend msr: metrics-clear regions need "
	   "RDPMC of IA32_PERF_METRICS (backend rdpmc) (use region_method \"auto\" or "
	   "\"delta\")"), "LNL backend msr: metrics-clear refused, -EOPNOTSUPP (%d)", rc);
	/* Ice Lake on a profile of its own: its clean register file (the
	 * Lunar Lake state file's PERF_CAPABILITIES would say bit 19) */
	setenv("BARETMA_MSR", icl_spec, 1);
	rc = open_on(icl, "rdpmc", "metrics-clear", &bm);
	ok(rc == -EOPNOTSUPP && bm == NULL && strstr(baretma_last_error(),
	   "backend rdpmc: the core kind has no RDPMC metrics-clear mode "
	   "(IA32_PERF_CAPABILITIES bit 19: Lion Cove and later)"),
	   "Ice Lake: metrics-clear refused, -EOPNOTSUPP (%d)", rc);
	baretma_close(bm);
	rc = open_on(icl, "rdpmc", "auto", &bm);
	ok(rc == 0 && strstr(baretma_notes(bm), "note: regions: the delta method (slot-"
	   "weighted differences of IA32_PERF_METRICS readings): the core kind has no RDPMC "
	   "metrics-clear mode"), "Ice Lake, auto: the delta method, said with why");
	baretma_close(bm);
	setenv("BARETMA_MSR", spec, 1);
	rc = open_on(lnl, "rdpmc", "metrics-clear", &bm);
	ok(rc == 0 && strstr(baretma_notes(bm), "RDPMC metrics-clear regions"),
	   "LNL rdpmc: \"metrics-clear\" asked for and used");
	baretma_close(bm);

	/* a bad text: -EINVAL, naming the input and the accepted values */
	rc = open_on(lnl, "rdpmc", "clear", &bm);
	ok(rc == -EINVAL && bm == NULL, "region_method \"clear\": -EINVAL (%d)", rc);
	check_str(baretma_last_error(), "baretma_open: region_method 'clear': expected auto, "
		  "delta or metrics-clear", "the message names the input and the accepted values");
	check_str(slurp(state), orig, "the state file byte for byte as found, after them all");
out:
	msr_close(dev);
	t_rm_rf(dir);
	return done_testing();
}
