/*
 * t/0201-cpu-identify-rules.c - CPU identification of the cases a rule
 * decides (split from t/0200, which checks every real dump's INDEX.tsv
 * row): hand-written dumps (an Intel model baretma's table lacks, a dump
 * whose leaf 0xA lies above its max leaf, junk), and the kernel's counter
 * and PERF_METRICS rules on named real dumps of $SHARED_CPUID.
 *
 * Known answers come from outside the code under test:
 *   - the kernel's counter rules, arch/x86/events/intel/core.c
 *     intel_pmu_init (ADL/RPL: P-core GP mask <<2|3, fixed mask <<1|1,
 *     undone above 8 GP / 4 fixed; E-core = leaf 0xA) and update_pmu_cap
 *     (leaf 0x23.1 masks per core type), as quoted in each test, and its
 *     per-model PERF_METRICS setup ([ICORE] = that file; [FAM] = linux
 *     arch/x86/include/asm/intel-family.h); widths and recipes from
 *     intel/perfmon TMA_Metrics-full.csv and E-core_TMA_Metrics.csv;
 *   - $SHARED_CPUID/INDEX.tsv's columns, where a test quotes them;
 *   - t/data/intel-unknown-f1-fc3.aida64.txt, whose header derives its
 *     register values from leaf 0xA's layout (linux perf_event.h union
 *     cpuid10_eax, cpuid10_edx).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "t/fixture.h"

static struct cpu_info ci; /* large: kept off the stack */

/* IA32_PERF_CAPABILITIES bits (linux msr-index.h PERF_CAP_METRICS_IDX; commit 0e45818ec189) */
#define CAP_PERF_METRICS   (1ull << 15)
#define CAP_METRICS_CLEAR  (1ull << 19)

/* ----------------------------------------------------------- synthetic */

/* Write a libcpuid native raw dump; returns the path (static buffer). */
static const char *write_dump(const char *text)
{
	static char path[64];
	int fd;

	t_path(path, "/tmp/baretma-0200.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		perror("mkstemp/write");
		exit(1);
	}
	close(fd);
	return path;
}

/* Vendor "GenuineIntel": EBX "Genu", EDX "ineI", ECX "ntel". */
#define INTEL_LEAF0(max) "basic_cpuid[0]=" max " 756e6547 6c65746e 49656e69\n"

/* The hand-written unknown-model dump (t/data, header derives the values):
 * family 6 model 0xF1, leaf 0xA v5, 8 GP x 48, ECX 0xF (FC3 from ECX bit 3),
 * EDX[4:0] 3, TOPDOWN.SLOTS available, PDCM set. */
static void test_unknown_intel(void)
{
	const char *p = BARETMA_SRCDIR "/t/data/intel-unknown-f1-fc3.aida64.txt";
	struct cpu_source *src = cpu_source_dump(p);
	uint64_t caps_metrics = CAP_PERF_METRICS, caps_none = 0;
	uint64_t caps_clear = CAP_PERF_METRICS | CAP_METRICS_CLEAR;
	const struct cpu_kind *k = &ci.kinds[0];

	if (!ok(src != NULL, "synthetic unknown Intel dump loads (%s)", src ? "ok" : cpu_source_error())) {
		skip(19, "no source");
		return;
	}
	ok(cpu_info_identify(src, NULL, &ci) == 0, "unknown model identifies");
	check_u64(ci.model, ==, 0xF1, "display model 0xF1 (CPUID.1:EAX 0x000F0610)");
	check_u64(ci.ncpus, ==, 2, "2 logical CPUs");
	ok(ci.row == NULL && !ci.hybrid && ci.pdcm && ci.hypervisor == NULL,
	   "not in the table, not hybrid, PDCM, bare metal");
	ok(ci.nkinds == 1 && k->gp_counters == 8 && k->gp_width == 48 && k->gp_mask == 0xff,
	   "8 GP counters x 48 bits (leaf 0xA EAX 0x08300805)");
	ok(k->fixed_mask == 0xf && k->fixed_counters == 4, "fixed mask 0xf: ECX 0xF | EDX[4:0] 3");
	ok(k->fixed_ctr3, "FC3 from leaf 0xA (ECX bit 3)");
	check_int(k->topdown_level, ==, 0, "no PERF_CAPABILITIES: level 0");
	check_str(k->topdown_source, "undecided", "from the dump alone PERF_METRICS is undecided");
	ok(k->topdown_recipe == NULL && !k->metrics_clear, "no recipe, no metrics-clear");
	ok(strstr(ci.warning, "family 6 model 0xf1 is not in baretma's model table") &&
	   strstr(ci.warning, "fixed counter 3 from CPUID leaf 0xA (ECX bit 3)") &&
	   strstr(ci.warning, "undecided"), "warning names the model, FC3's source, undecided: %s",
	   ci.warning);
	cpu_info_identify(src, &caps_metrics, &ci);
	check_int(k->topdown_level, ==, 1, "PERF_CAPABILITIES[15]: level 1");
	check_str(k->topdown_source, "perf_metrics", "PERF_CAPABILITIES[15]: source perf_metrics");
	ok(!k->metrics_clear, "PERF_CAPABILITIES[19] clear: no metrics-clear");
	ok(strstr(ci.warning, "IA32_PERF_CAPABILITIES bit 15 = 1: level 1 assumed, level 2 unknown") != NULL,
	   "warning: level 1 assumed, level 2 unknown");
	cpu_info_identify(src, &caps_none, &ci);
	check_int(k->topdown_level, ==, 0, "PERF_CAPABILITIES[15] clear: level 0");
	check_str(k->topdown_source, "none", "PERF_CAPABILITIES[15] clear: no recipe for an unknown core");
	ok(strstr(ci.warning, "bit 15 = 0") != NULL, "warning: bit 15 = 0");
	cpu_info_identify(src, &caps_clear, &ci);
	ok(k->topdown_level == 1 && k->metrics_clear, "PERF_CAPABILITIES[15,19]: level 1, metrics-clear");
	cpu_source_free(src);
}

static void test_max_leaf_and_hypervisor(void)
{
	/* Max basic leaf 6: the leaf 0xA line is garbage and must read as zero;
	 * CPUID.1:ECX[31] set: a hypervisor the dump cannot name. */
	const char *p = write_dump(INTEL_LEAF0("00000006")
				   "basic_cpuid[1]=000806ec 00000800 80000000 00000000\n"
				   "basic_cpuid[10]=08300805 00000000 0000000f 00008604\n");
	struct cpu_source *src = cpu_source_dump(p);
	uint32_t regs[4] = { 1, 1, 1, 1 };

	ok(src != NULL, "synthetic max-leaf dump loads");
	if (!src) {
		skip(5, "no source");
		unlink(p);
		return;
	}
	check_int(cpu_source_cpuid(src, 0, 0xA, 0, regs), ==, 0, "leaf 0xA above max leaf: 0");
	ok(!regs[0] && !regs[1] && !regs[2] && !regs[3], "leaf 0xA above max leaf reads as zeros");
	check_int(cpu_source_cpuid(src, 1, 0, 0, regs), ==, -ENXIO, "CPU 1 of a 1-CPU dump: -ENXIO");
	ok(cpu_info_identify(src, NULL, &ci) == 0 && ci.pmu.version == 0, "PMU version 0 from garbage leaf");
	check_str(ci.hypervisor, "unknown", "CPUID.1:ECX[31] in a dump: hypervisor 'unknown'");
	cpu_source_free(src);
	unlink(p);
}

static void test_bad_files(void)
{
	const char *p = write_dump("this is not a CPUID dump\nat all\n");
	struct cpu_source *src;

	errno = 0;
	src = cpu_source_dump(p);
	ok(src == NULL && errno == EINVAL, "junk file: NULL + EINVAL (errno %d)", errno);
	ok(cpu_source_error()[0] != '\0', "junk file: a reason (%s)", cpu_source_error());
	unlink(p);
	errno = 0;
	src = cpu_source_dump("/nonexistent/baretma/dump.test");
	ok(src == NULL && errno == ENOENT, "missing file: NULL + ENOENT (errno %d)", errno);
}

/* ------------------------------------------------- kernel rules, real dumps */

static const char *shared_dir;

/* Identify $SHARED_CPUID/@rel again, with @caps (after load_rel succeeded). */
static void reidentify(const char *rel, const uint64_t *caps)
{
	char path[PATH_MAX];
	struct cpu_source *src;

	t_path(path, "%s/%s", shared_dir, rel);
	src = cpu_source_dump(path);
	if (src)
		cpu_info_identify(src, caps, &ci);
	else
		memset(&ci, 0, sizeof(ci));
	cpu_source_free(src);
}

/* Identify $SHARED_CPUID/@rel with @caps; false (and @nskip skips) if absent. */
static bool load_rel(const char *rel, const uint64_t *caps, int nskip)
{
	char path[PATH_MAX];
	struct cpu_source *src;
	int rc;

	t_path(path, "%s/%s", shared_dir, rel);
	src = cpu_source_dump(path);
	if (!src) {
		ok(0, "%s loads (%s)", rel, cpu_source_error());
		skip(nskip, "dump not loaded");
		return false;
	}
	rc = cpu_info_identify(src, caps, &ci);
	cpu_source_free(src);
	if (!ok(rc == 0, "%s identifies", rel)) {
		skip(nskip, "not identified");
		return false;
	}
	return true;
}

/*
 * Alder Lake-S i9-12900K (INDEX.tsv: leaf 0xA 07300605-00000000-00000007-
 * 00008603 = 6 GP x 48, fixed mask 0x7; 16 P + 8 E CPUs, level 2 on the
 * P-core).  [ICORE] intel_pmu_init ALDERLAKE with X86_FEATURE_HYBRID_CPU:
 * P-core "num_counters + 2", "num_counters_fixed + 1" (mask 0x3f<<2|3 =
 * 0xff, 0x7<<1|1 = 0xf), perf_metrics = 1 whatever IA32_PERF_CAPABILITIES
 * says (bit 15 reads 0 on these P-cores: the kernel's comment there); E-core (cpu_atom):
 * "pmu->num_counters = x86_pmu.num_counters", i.e. leaf 0xA's 6 GP and 3
 * fixed, perf_metrics = 0; Gracemont recipe and width 5: intel/perfmon E-core_TMA_Metrics.csv.
 */
static void test_adl_rule(void)
{
	const char *rel = "libcpuid/v0.6.2/intel/core_12th_gen/alder-lake-s-i9.test";
	uint64_t caps_zero = 0;
	const struct cpu_kind *p, *e;

	if (!load_rel(rel, NULL, 6))
		return;
	p = t_kind_typed(&ci, 0x40, 1), e = t_kind_typed(&ci, 0x20, 1);
	if (!ok(p && e && ci.nkinds == 2, "ADL-S i9: two kinds (P 0x40, E 0x20)")) {
		skip(5, "kinds missing");
		return;
	}
	ok(p->gp_counters == 8 && p->gp_mask == 0xff && p->fixed_mask == 0xf && p->fixed_ctr3 &&
	   p->gp_width == 48, "ADL-S i9 P-core: 8 GP (0xff), fixed 0xf with FC3, 48 bits");
	ok(p->topdown_level == 2 && t_str_eq(p->topdown_source, "perf_metrics") && !p->metrics_clear,
	   "ADL-S i9 P-core: level 2 from PERF_METRICS, no metrics-clear");
	ok(e->gp_counters == 6 && e->gp_mask == 0x3f && e->fixed_mask == 0x7 && !e->fixed_ctr3,
	   "ADL-S i9 E-core: 6 GP (0x3f), fixed 0x7, no FC3");
	ok(e->topdown_level == 0 && t_str_eq(e->topdown_source, "events") &&
	   t_str_eq(e->topdown_recipe, CPU_RECIPE_INTEL_ECORE) && t_str_eq(e->uarch, "Gracemont") &&
	   e->pipeline_width == 5, "ADL-S i9 E-core: Gracemont, 5 wide, level 0, events/intel-ecore-l1");
	reidentify(rel, &caps_zero);
	ok(t_kind_typed(&ci, 0x40, 1) && t_kind_typed(&ci, 0x40, 1)->topdown_level == 2,
	   "ADL-S i9 with IA32_PERF_CAPABILITIES[15] = 0: P-core still level 2 (kernel forces it)");
}

/*
 * The ADL quirk ([ICORE]: "when all E-cores are disabled in a BIOS, the
 * leaf 0xA will enumerate all counters of P-cores ... Correct the number
 * of counters"): the instlatx64 i9-12900K dump with only P-cores
 * (INDEX.tsv: hybrid bit set, core type 0x40 only, leaf 0xA 8 GP, fixed
 * mask 0xF) keeps leaf 0xA's 8 GP and 4 fixed, not 10 and 5.
 */
static void test_adl_quirk(void)
{
	const char *rel = "instlatx64/GenuineIntel/GenuineIntel0090672_AlderLake_01_BC_AVX512_CPUID.txt";
	const struct cpu_kind *p = &ci.kinds[0];

	if (!load_rel(rel, NULL, 2))
		return;
	ok(ci.hybrid && ci.nkinds == 1 && p->core_type == 0x40 && !strcmp(p->kind, "performance"),
	   "ADL P-only: hybrid bit, one performance kind");
	ok(p->gp_mask == 0xff && p->fixed_mask == 0xf && p->topdown_level == 2,
	   "ADL P-only: 8 GP, fixed 0xf (rule undone), level 2 (got 0x%x/0x%x)", p->gp_mask,
	   p->fixed_mask);
}

/*
 * Meteor Lake Core Ultra 7 155H: leaf 0xA is the common subset (fixed
 * mask 0x7, INDEX.tsv); CPUID.23H.1 gives the P-core fixed mask 0xF and
 * the E-core 0x7 (INDEX leaf23 column).  The kernel's
 * intel_pmu_broken_perf_cap: on METEORLAKE(_L) "The Perf Metric (Bit 15)
 * is always cleared", so a clear bit 15 keeps the P-core at level 2.
 * E-core native model id 2 = Crestmont ([FAM]), width 6 (intel/perfmon E-core_TMA_Metrics.csv).
 */
static void test_mtl_rule(void)
{
	const char *rel = "libcpuid/master-history/intel/x86-64/redwood-cove/intel-core-ultra-7-155h.test";
	uint64_t caps = 0xf4c5; /* PDCM-era bits, bit 15 clear as MTL reports it */
	const struct cpu_kind *p, *e;

	if (!load_rel(rel, &caps, 3))
		return;
	p = t_kind_typed(&ci, 0x40, 2), e = t_kind_typed(&ci, 0x20, 2);
	if (!ok(p && e, "MTL: P 0x40/2 and E 0x20/2 kinds")) {
		skip(2, "kinds missing");
		return;
	}
	ok(p->fixed_mask == 0xf && p->fixed_ctr3 && p->topdown_level == 2 &&
	   t_str_eq(p->topdown_source, "perf_metrics"),
	   "MTL P-core: FC3 (fixed 0x%x), level 2 with bit 15 clear", p->fixed_mask);
	ok(e->fixed_mask == 0x7 && !e->fixed_ctr3 && e->topdown_level == 0 &&
	   t_str_eq(e->uarch, "Crestmont") && e->pipeline_width == 6 && t_str_eq(e->topdown_source, "events"),
	   "MTL E-core: Crestmont, 6 wide, fixed 0x7, events");
}

/*
 * Arrow Lake-S Core Ultra 7 265K: Lion Cove P-core with RDPMC
 * metrics-clear (linux commit 0e45818ec189), Skymont E-core (native id 3,
 * [FAM]; width 8 and recipe intel/perfmon E-core_TMA_Metrics.csv).  IA32_PERF_CAPABILITIES
 * read on a P-core (bit 15 set) decides metrics-clear by its bit 19 (the
 * same commit); read elsewhere (bit 15
 * clear), the table stands.
 */
static void test_lnc_metrics_clear(void)
{
	const char *rel = "libcpuid/master-history/intel/x86-64/lion-cove/intel-core-ultra-7-265k.test";
	uint64_t caps_p = CAP_PERF_METRICS, caps_pc = CAP_PERF_METRICS | CAP_METRICS_CLEAR, caps_e = 0;
	const struct cpu_kind *p, *e;

	if (!load_rel(rel, NULL, 5))
		return;
	p = t_kind_typed(&ci, 0x40, 3), e = t_kind_typed(&ci, 0x20, 3);
	if (!ok(p && e, "ARL-S: P 0x40/3 and E 0x20/3 kinds")) {
		skip(4, "kinds missing");
		return;
	}
	ok(p->metrics_clear && p->topdown_level == 2 && t_str_eq(p->uarch, "Lion Cove") && p->pipeline_width == 8,
	   "ARL-S P-core: Lion Cove, 8 wide, level 2, metrics-clear from the table");
	ok(!e->metrics_clear && t_str_eq(e->uarch, "Skymont") && e->pipeline_width == 8 &&
	   t_str_eq(e->topdown_recipe, CPU_RECIPE_INTEL_ECORE), "ARL-S E-core: Skymont, 8 wide, events");
	reidentify(rel, &caps_p);
	ok(t_kind_typed(&ci, 0x40, 3) && !t_kind_typed(&ci, 0x40, 3)->metrics_clear,
	   "ARL-S with PERF_CAPABILITIES 15 set, 19 clear: no metrics-clear");
	reidentify(rel, &caps_pc);
	ok(t_kind_typed(&ci, 0x40, 3) && t_kind_typed(&ci, 0x40, 3)->metrics_clear,
	   "ARL-S with bits 15 and 19: metrics-clear");
	reidentify(rel, &caps_e);
	ok(t_kind_typed(&ci, 0x40, 3) && t_kind_typed(&ci, 0x40, 3)->metrics_clear &&
	   t_kind_typed(&ci, 0x40, 3)->topdown_level == 2,
	   "ARL-S with PERF_CAPABILITIES from an E-core (bit 15 clear): table's metrics-clear, level 2");
}

/*
 * Non-hybrid kernel rule ([ICORE] intel_pmu_init, intel_pmu_cpu_starting):
 * Ice Lake i7-1065G7 (INDEX: level 1, leaf 0xA fixed mask 0xF) loses
 * PERF_METRICS when bit 15 reads clear
 * (a VM without it), and keeps level 1 when set.
 */
static void test_icl_perf_caps(void)
{
	const char *rel = "libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test";
	uint64_t caps_on = CAP_PERF_METRICS, caps_off = 0;

	if (!load_rel(rel, &caps_off, 2))
		return;
	ok(ci.kinds[0].topdown_level == 0 && t_str_eq(ci.kinds[0].topdown_source, "none"),
	   "ICL with PERF_CAPABILITIES[15] clear: level 0, no recipe");
	reidentify(rel, &caps_on);
	ok(ci.kinds[0].topdown_level == 1 && t_str_eq(ci.kinds[0].topdown_source, "perf_metrics") &&
	   !ci.kinds[0].metrics_clear, "ICL with PERF_CAPABILITIES[15]: level 1, no metrics-clear");
}

/*
 * Dumps without an INDEX.tsv row, facts from the reference and kernel:
 *   Lakefield i5 (family 6 model 0x8A, [FAM] "Sunny Cove / Tremont"): no
 *     PERF_METRICS ([ICORE]), no recipe for Sunny Cove without it nor Tremont;
 *   Bartlett Lake (0xD7, [FAM] "Raptor Cove"): no intel_pmu_init case, so
 *     the table marks PERF_METRICS UNCONFIRMED: from a dump, undecided,
 *     with a warning; its leaf 0xA enumerates FC3 (08300805-...-0000000F);
 *   Panther Lake (0xCC, [FAM] "Cougar Cove / Darkmont"): level 2,
 *     metrics-clear ([ICORE] lnl_common path), E-core Darkmont, 8 wide (E-core TMA).
 */
static void test_no_row_dumps(void)
{
	const struct cpu_kind *p, *e;

	if (load_rel("libcpuid/v0.6.2/intel/tremont/lakefield-i5.test", NULL, 1)) {
		p = t_kind_typed(&ci, 0x40, 0), e = t_kind_typed(&ci, 0x20, 0);
		ok(ci.hybrid && p && e && t_str_eq(p->uarch, "Sunny Cove") && t_str_eq(e->uarch, "Tremont") &&
		   p->topdown_level == 0 && t_str_eq(p->topdown_source, "none") &&
		   t_str_eq(e->topdown_source, "none"), "Lakefield: Sunny Cove + Tremont, no Top-down source");
	}
	if (load_rel("instlatx64/GenuineIntel/GenuineIntel00D0670_BartlettLake_01_CPUID.txt", NULL, 1)) {
		p = &ci.kinds[0];
		ok(ci.model == 0xD7 && ci.row && p->fixed_ctr3 && p->topdown_level == 0 &&
		   t_str_eq(p->topdown_source, "undecided") && strstr(ci.warning, "UNCONFIRMED") &&
		   strstr(ci.warning, "ECX bit 3"), "Bartlett Lake: FC3, PERF_METRICS undecided (%s)",
		   ci.warning);
	}
	if (load_rel("instlatx64/GenuineIntel/GenuineIntel00C06C3_PantherLakeL_01_CPUID.txt", NULL, 1)) {
		p = t_kind_typed(&ci, 0x40, 4), e = t_kind_typed(&ci, 0x20, 4);
		ok(p && e && p->topdown_level == 2 && p->metrics_clear && t_str_eq(p->uarch, "Cougar Cove") &&
		   t_str_eq(e->uarch, "Darkmont") && e->pipeline_width == 8 &&
		   t_str_eq(e->topdown_recipe, CPU_RECIPE_INTEL_ECORE), "Panther Lake: level 2 + metrics-clear, Darkmont events");
	}
}

/*
 * AMD (linux arch/x86/events/amd/core.c, perf's amdzen4/amdzen5 pipeline.json;
 * INDEX.tsv notes "PerfCtrExtCore=True" on every AMD row): Zen 4
 * Raphael gets the amd-zen4 recipe over 6 core counters of 48 bits and 6
 * dispatch slots; Zen 3 Vermeer has no recipe.
 */
static void test_amd(void)
{
	const struct cpu_kind *k = &ci.kinds[0];

	if (load_rel("libcpuid/v0.6.2/amd/zen4/ryzen9-raphael.test", NULL, 1))
		ok(t_str_eq(k->uarch, "Zen 4") && k->pipeline_width == 6 && k->gp_counters == 6 &&
		   k->gp_width == 48 && !k->fixed_ctr3 && t_str_eq(k->topdown_source, "events") &&
		   t_str_eq(k->topdown_recipe, CPU_RECIPE_AMD_ZEN4), "Zen 4: 6 counters, events/amd-zen4");
	if (load_rel("libcpuid/v0.6.2/amd/zen3/ryzen9-vermeer.test", NULL, 1))
		ok(t_str_eq(k->uarch, "Zen 3") && t_str_eq(k->topdown_source, "none") && !k->topdown_recipe,
		   "Zen 3: no recipe");
}

static void test_kernel_rules(void)
{
	test_adl_rule();
	test_adl_quirk();
	test_mtl_rule();
	test_lnc_metrics_clear();
	test_icl_perf_caps();
	test_no_row_dumps();
	test_amd();
}
int main(void)
{
	const char *dir = getenv("SHARED_CPUID");
	struct stat st;

	test_bad_files();
	test_unknown_intel();
	test_max_leaf_and_hypervisor();
	if (!dir || stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		skip(1, "no $SHARED_CPUID directory: the kernel's rules on real dumps not checked");
	} else {
		shared_dir = dir;
		test_kernel_rules();
	}
	return done_testing();
}
