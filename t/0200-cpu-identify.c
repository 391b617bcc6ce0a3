/*
 * t/0200-cpu-identify.c - CPU identification against real CPUID dumps.
 *
 * Known answers come from outside the code under test:
 *   - $SHARED_CPUID/INDEX.tsv (one row per real dump: vendor from the
 *     source path, family, model, stepping, hybrid, Top-down level, leaf
 *     0xA decoded, leaf 0x1A kinds, leaf 0x23 per core type), parsed at
 *     run time; every row is checked, whatever its format;
 *   - model numbers from [FAM] linux arch/x86/include/asm/intel-family.h and
 *     the kernel's per-model PERF_METRICS setup ([ICORE] linux
 *     arch/x86/events/intel/core.c intel_pmu_init);
 *   - the kernel's counter rules, arch/x86/events/intel/core.c
 *     intel_pmu_init (ADL/RPL: P-core GP mask <<2|3, fixed mask <<1|1,
 *     undone above 8 GP / 4 fixed; E-core = leaf 0xA) and update_pmu_cap
 *     (leaf 0x23.1 masks per core type), as quoted in each test;
 * Every dump under $SHARED_CPUID (with or without a row) must load; a
 * diagnostic line per dump lists its kinds.  The rules on named dumps and
 * hand-written ones are t/0201, the model table and leaf 0xA t/0202, the
 * /sys root and topology t/0203.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "t/fixture.h"

#define MAX_COLS 40

static struct cpu_info ci; /* large: kept off the stack */

static uint32_t low_mask(unsigned n)
{
	return n >= 32 ? ~0u : (1u << n) - 1;
}

/* ------------------------------------------------------------- INDEX.tsv */

struct row {
	char *col[MAX_COLS];
	int ncol;
};

static int split_tabs(char *line, struct row *r)
{
	char *next, *tok;

	line[strcspn(line, "\r\n")] = '\0';
	r->ncol = 0;
	/* Empty fields are kept (the last column is often empty). */
	for (tok = line; tok && r->ncol < MAX_COLS; tok = next) {
		next = strchr(tok, '\t');
		if (next)
			*next++ = '\0';
		r->col[r->ncol++] = tok;
	}
	return r->ncol;
}

static const char *hdr_names[MAX_COLS];
static int hdr_n;

static const char *field(const struct row *r, const char *name)
{
	for (int i = 0; i < hdr_n && i < r->ncol; i++)
		if (!strncmp(hdr_names[i], name, strlen(name)))
			return r->col[i];
	return "";
}

static unsigned long num(const char *s)
{
	return s && *s ? strtoul(s, NULL, 0) : ~0ul;
}

static bool starts(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

/*
 * What INDEX.tsv's uarch column implies for a kind without PERF_METRICS,
 * and the P-core (or only core) pipeline width:
 *   intel/perfmon TMA_Metrics-full.csv (SNB..CLX columns): Sandy Bridge .. Skylake/Cascade
 *         Lake/Coffee/Comet Lake: the pre-ICL event recipe, width 4;
 *   intel/perfmon TMA_Metrics-full.csv Pipeline_Width: ICL/TGL 5; ADL/RPL/SPR/EMR/MTL
 *         (Golden/Raptor/Redwood Cove) 6; LNL/ARL Lion Cove 8 (Arrow Lake-U
 *         is Redwood Cove: intel_pmu_init takes it with MTL);
 *   intel/perfmon E-core_TMA_Metrics.csv; Tremont: the E-core recipe on its
 *         TOPDOWN_* events (intel/perfmon
 *         EHL/events/elkhartlake_core.json, SNR/events/snowridgex_core.json:
 *         TOPDOWN_FE_BOUND.ALL 0x71, TOPDOWN_BAD_SPECULATION.ALL 0x73/0x06,
 *         TOPDOWN_BE_BOUND.ALL 0x74, TOPDOWN_RETIRING.ALL 0xC2); Tremont
 *         width 4 (pmu-tools ehl_ratios.py, cited by the table: taken as given);
 *   linux tools/perf/pmu-events/arch/x86/amdzen4/, amdzen5/ pipeline.json:
 *         Zen 4 (6 slots) and Zen 5 (8 slots) recipes; nothing for Zen 2/3
 *         (their width is informational: not checked).
 */
struct uarch_expect {
	const char *index_uarch;
	unsigned width;           /* 0: not checked */
	const char *recipe;       /* without PERF_METRICS; NULL: "none" */
	bool metrics_clear;       /* P-core RDPMC metrics-clear: Lion Cove, linux 0e45818ec189 */
};

static const struct uarch_expect uarch_expects[] = {
	{ "Sandy Bridge", 4, CPU_RECIPE_INTEL_PRE_ICL, false },
	{ "Sandy Bridge-E/EP", 4, CPU_RECIPE_INTEL_PRE_ICL, false },
	{ "Haswell", 4, CPU_RECIPE_INTEL_PRE_ICL, false },
	{ "Haswell-E/EP", 4, CPU_RECIPE_INTEL_PRE_ICL, false },
	{ "Skylake-S", 4, CPU_RECIPE_INTEL_PRE_ICL, false },
	{ "Skylake-SP/Cascade Lake", 4, CPU_RECIPE_INTEL_PRE_ICL, false },
	{ "Kaby/Coffee/Whiskey/Comet Lake-L", 4, CPU_RECIPE_INTEL_PRE_ICL, false },
	{ "Ice Lake-L", 5, NULL, false },
	{ "Ice Lake-D", 5, NULL, false },
	{ "Ice Lake-SP", 5, NULL, false },
	{ "Tiger Lake-L", 5, NULL, false },
	{ "Tiger Lake-H", 5, NULL, false },
	{ "Alder Lake-S", 6, NULL, false },
	{ "Alder Lake-P/H", 6, NULL, false },
	{ "Raptor Lake-S", 6, NULL, false },
	{ "Raptor Lake-P/H", 6, NULL, false },
	{ "Sapphire Rapids", 6, NULL, false },
	{ "Emerald Rapids", 6, NULL, false },
	{ "Meteor Lake", 6, NULL, false },
	{ "Arrow Lake-U", 6, NULL, false },
	{ "Arrow Lake-S/HX", 8, NULL, true },
	{ "Arrow Lake-H", 8, NULL, true },
	{ "Lunar Lake", 8, NULL, true },
	{ "Jasper Lake (Tremont)", 4, CPU_RECIPE_INTEL_ECORE, false },
	{ "Zen2", 0, NULL, false },
	{ "Zen3", 0, NULL, false },
	{ "Zen3+", 0, NULL, false },
	{ "Zen4", 6, CPU_RECIPE_AMD_ZEN4, false },
	{ "Zen5", 8, CPU_RECIPE_AMD_ZEN5, false },
};

static const struct uarch_expect *uarch_expect(const char *u)
{
	for (size_t i = 0; i < sizeof(uarch_expects) / sizeof(uarch_expects[0]); i++)
		if (!strcmp(uarch_expects[i].index_uarch, u))
			return &uarch_expects[i];
	return NULL;
}

/* --------------------------------------------------------- row checking */

static int row_failed;

#define rcheck(cond, ...) do { if (!ok(cond, __VA_ARGS__)) row_failed = 1; } while (0)

static const char *expected_vendor(const char *file)
{
	if (strstr(file, "/intel/") || strstr(file, "GenuineIntel") || strstr(file, "/Intel-"))
		return "GenuineIntel";
	if (strstr(file, "/amd/") || strstr(file, "AuthenticAMD") || strstr(file, "/AMD-"))
		return "AuthenticAMD";
	return "?";
}

static void check_leafA(const struct row *r, const char *f)
{
	const char *slots = field(r, "leafA_ebx_bit7_topdown_slots");

	if (starts(field(r, "leafA_version"), "n/a")) {
		/* AMD: leaf 0xA is reserved; nothing is decoded. */
		rcheck(ci.pmu.version == 0, "%s: leaf 0xA not decoded on AMD", f);
		return;
	}
	rcheck(ci.pmu.version == num(field(r, "leafA_version")), "%s: leaf 0xA version %u", f, ci.pmu.version);
	rcheck(ci.pmu.gp_counters == num(field(r, "leafA_gp_counters")), "%s: GP counters %u", f, ci.pmu.gp_counters);
	rcheck(ci.pmu.gp_width == num(field(r, "leafA_gp_width")), "%s: GP width %u", f, ci.pmu.gp_width);
	rcheck(ci.pmu.fixed_counters == num(field(r, "leafA_fixed_counters")), "%s: fixed counters %u", f,
	       ci.pmu.fixed_counters);
	rcheck(ci.pmu.fixed_width == num(field(r, "leafA_fixed_width")), "%s: fixed width %u", f, ci.pmu.fixed_width);
	rcheck(ci.pmu.fixed_mask == num(field(r, "leafA_ecx_fixed_mask")), "%s: fixed mask 0x%x", f, ci.pmu.fixed_mask);
	rcheck(ci.pmu.topdown_slots == !strcmp(slots, "available"), "%s: TOPDOWN.SLOTS %s", f, slots);
}

/* Leaf 0xA counters as INDEX.tsv decodes them: GP 0..n-1; fixed i when
 * ECX[i] (the column is 0x0 before v5) or i < EDX[4:0] (Intel PCM
 * isFixedCounterSupported; [ICORE] intel_pmu_init). */
static void leafA_masks(const struct row *r, uint32_t *gp, uint32_t *fixed)
{
	*gp = low_mask((unsigned)num(field(r, "leafA_gp_counters")));
	*fixed = (uint32_t)num(field(r, "leafA_ecx_fixed_mask")) |
		 low_mask((unsigned)num(field(r, "leafA_fixed_counters")));
}

static void check_masks(const char *f, const struct cpu_kind *k, uint32_t gp, uint32_t fixed,
			const char *why)
{
	rcheck(k->gp_mask == gp && k->gp_counters == (unsigned)__builtin_popcount(gp),
	       "%s: %s GP mask 0x%x, %u counters (want 0x%x: %s)", f, k->kind, k->gp_mask,
	       k->gp_counters, gp, why);
	rcheck(k->fixed_mask == fixed && k->fixed_counters == (unsigned)__builtin_popcount(fixed),
	       "%s: %s fixed mask 0x%x (want 0x%x: %s)", f, k->kind, k->fixed_mask, fixed, why);
}

/* "0x40/000003:gp=3FF,fixed=F,ev3=1DFF 0x20/...": each kind's leaf 0x23.1
 * masks, as the kernel's update_pmu_cap takes them ([ICORE]). */
static void check_leaf23(const struct row *r, const char *f)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s", field(r, "leaf23_per_core_type"));
	for (char *g = strtok(buf, " "); g; g = strtok(NULL, " ")) {
		unsigned type, native, gp, fixed;
		const struct cpu_kind *k;

		if (sscanf(g, "0x%x/%x:gp=%x,fixed=%x", &type, &native, &gp, &fixed) != 4) {
			rcheck(0, "%s: INDEX leaf23 group '%s' parses", f, g);
			continue;
		}
		k = t_kind_typed(&ci, (uint8_t)type, native);
		rcheck(k != NULL, "%s: kind 0x%02x/%06x for leaf 0x23", f, type, native);
		if (k)
			check_masks(f, k, gp, fixed, "CPUID.23H.1 of that core type (INDEX.tsv)");
	}
}

/*
 * Counters of the kinds where the row decides them:
 *   - non-hybrid Intel, and hybrid parts whose dump shows only P-cores
 *     (the kernel's ADL quirk undoes its shift when leaf 0xA already shows
 *     more than 6 GP / 3 fixed counters): leaf 0xA as INDEX.tsv decodes it;
 *   - ADL/RPL hybrids (no leaf 0x23): P-core leaf 0xA masks <<2|3 (GP) and
 *     <<1|1 (fixed), E-core leaf 0xA ([ICORE] intel_pmu_init);
 *   - leaf 0x23 rows: that leaf per core type;
 *   - AMD: 6 core counters of 48 bits (INDEX: PerfCtrExtCore=True, and
 *     0x80000022 EBX[3:0] = 6 where the dump has it; linux
 *     arch/x86/events/amd/core.c).
 */
static void check_counters(const struct row *r, const char *f, bool hybrid, bool only_p)
{
	uint32_t gp, fixed;

	if (starts(field(r, "leafA_version"), "n/a")) {
		rcheck(ci.kinds[0].gp_counters == 6 && ci.kinds[0].gp_width == 48 &&
		       ci.kinds[0].fixed_mask == 0, "%s: AMD 6 core counters x 48 bits (%u x %u)", f,
		       ci.kinds[0].gp_counters, ci.kinds[0].gp_width);
		return;
	}
	if (!strcmp(field(r, "leaf23_present"), "yes")) {
		check_leaf23(r, f);
		return;
	}
	leafA_masks(r, &gp, &fixed);
	rcheck(ci.kinds[0].gp_width == num(field(r, "leafA_gp_width")), "%s: %s GP width %u", f,
	       ci.kinds[0].kind, ci.kinds[0].gp_width);
	if (!hybrid || only_p) {
		check_masks(f, &ci.kinds[0], gp, fixed, "leaf 0xA");
		return;
	}
	for (unsigned i = 0; i < ci.nkinds; i++) {
		const struct cpu_kind *k = &ci.kinds[i];

		if (k->core_type == 0x40)
			check_masks(f, k, gp << 2 | 0x3, fixed << 1 | 0x1, "kernel ADL P-core rule");
		else
			check_masks(f, k, gp, fixed, "leaf 0xA, kernel ADL E-core");
	}
}

/* E-core uarch by CPUID.1AH native model id: 2 Crestmont, 3 Skymont
 * ([FAM] enum intel_native_id); 1 on ADL/RPL = Gracemont (intel/perfmon
 * E-core_TMA_Metrics.csv). */
static const char *ecore_uarch(unsigned native)
{
	return native == 1 ? "Gracemont" : native == 2 ? "Crestmont" : native == 3 ? "Skymont" : "?";
}

/* E-core widths (intel/perfmon E-core_TMA_Metrics.csv): Gracemont 5, Crestmont 6, Skymont 8. */
static unsigned ecore_width(unsigned native)
{
	return native == 1 ? 5 : native == 2 ? 6 : native == 3 ? 8 : 0;
}

/* "0x20/000001 x8,0x40/000001 x16": one kind per group. */
static void check_hybrid_kinds(const struct row *r, const char *f, int level,
			       const struct uarch_expect *ux)
{
	char groups[256];
	unsigned ngroups = 0;

	snprintf(groups, sizeof(groups), "%s", field(r, "dump_leaf1A_core_types"));
	for (char *g = strtok(groups, ","); g; g = strtok(NULL, ",")) {
		unsigned type, native, count;
		const struct cpu_kind *k;

		if (sscanf(g, "0x%x/%x x%u", &type, &native, &count) != 3) {
			rcheck(0, "%s: INDEX group '%s' parses", f, g);
			continue;
		}
		ngroups++;
		k = t_kind_typed(&ci, (uint8_t)type, native);
		rcheck(k != NULL, "%s: kind 0x%02x/%06x present", f, type, native);
		if (!k)
			continue;
		rcheck(k->ncpus == count, "%s: kind 0x%02x/%06x has %u CPUs (want %u)", f, type, native,
		       k->ncpus, count);
		/* E-cores never have PERF_METRICS (no intel_pmu_init case gives cpu_atom any). */
		rcheck(k->topdown_level == (type == 0x40 ? level : 0), "%s: %s level %d", f, k->kind,
		       k->topdown_level);
		rcheck(k->fixed_ctr3 == (type == 0x40 && level > 0), "%s: %s FC3", f, k->kind);
		rcheck(!strcmp(k->kind, type == 0x40 ? "performance" : "efficiency") ||
		       (type == 0x20 && !strcmp(k->kind, "lowpower")), "%s: kind name %s", f, k->kind);
		if (type == 0x40) {
			rcheck(t_str_eq(k->topdown_source, "perf_metrics") && !k->topdown_recipe &&
			       k->metrics_clear == (ux && ux->metrics_clear) &&
			       (!ux || k->pipeline_width == ux->width),
			       "%s: P-core perf_metrics, metrics-clear %d, width %u", f, k->metrics_clear,
			       k->pipeline_width);
		} else {
			/* Gracemont, Crestmont, Skymont: E-core_TMA_Metrics.csv's recipe. */
			rcheck(t_str_eq(k->topdown_source, "events") &&
			       t_str_eq(k->topdown_recipe, CPU_RECIPE_INTEL_ECORE) && !k->metrics_clear,
			       "%s: %s topdown events/%s", f, k->kind, k->topdown_recipe);
			rcheck(t_str_eq(k->uarch, ecore_uarch(native)) && k->pipeline_width == ecore_width(native),
			       "%s: %s is %s, %u wide", f, k->kind, k->uarch, k->pipeline_width);
		}
	}
	rcheck(ci.nkinds == ngroups, "%s: %u kinds (want %u)", f, ci.nkinds, ngroups);
}

static void check_kinds(const struct row *r, const char *f, bool hybrid, const struct uarch_expect *ux)
{
	int level = (int)num(field(r, "expect_topdown_levels"));
	bool metrics = starts(field(r, "expect_perf_metrics"), "yes");
	const struct cpu_kind *k = &ci.kinds[0];
	const char *want_src;

	if (hybrid) {
		check_hybrid_kinds(r, f, level, ux);
		return;
	}
	rcheck(ci.nkinds == 1 && !strcmp(k->kind, "general"), "%s: one kind 'general'", f);
	rcheck(k->ncpus == num(field(r, "logical_cpus_in_dump")), "%s: general kind has all CPUs", f);
	rcheck(k->topdown_level == level, "%s: general level %d (want %d)", f, k->topdown_level, level);
	/* PERF_METRICS is derived from FC3 ([ICORE] icl_set_topdown_event_period); the rows
	 * without it have 3 fixed counters, mask 0 or 7 (INDEX leaf 0xA). */
	rcheck(k->fixed_ctr3 == metrics, "%s: general FC3 %d", f, k->fixed_ctr3);
	/* AMD recipes need the 6 core counters: INDEX says PerfCtrExtCore=True. */
	want_src = level > 0 ? "perf_metrics" : ux && ux->recipe ? "events" : "none";
	rcheck(ux != NULL, "%s: INDEX uarch '%s' has an expectation here", f, field(r, "uarch"));
	rcheck(t_str_eq(k->topdown_source, want_src) &&
	       t_str_eq(k->topdown_recipe, level > 0 || !ux ? NULL : ux->recipe),
	       "%s: topdown source %s recipe %s (want %s)", f, k->topdown_source,
	       k->topdown_recipe ? k->topdown_recipe : "null", want_src);
	rcheck(!ux || !ux->width || k->pipeline_width == ux->width, "%s: width %u", f, k->pipeline_width);
	rcheck(!k->metrics_clear, "%s: no metrics-clear before Lion Cove", f);
}

static void check_row(const char *dir, const struct row *r, unsigned *matched, unsigned *rows)
{
	const char *f = field(r, "file"), *eh = field(r, "expect_hybrid");
	const struct uarch_expect *ux = uarch_expect(field(r, "uarch"));
	/* expect_hybrid: "yes", "no", or "yes (product); dump shows only core
	 * type(s) 0x40" = hybrid bit set, one (P-core) kind. */
	bool hybrid = starts(eh, "yes"), only_p = starts(eh, "yes (product)");
	char path[PATH_MAX];
	struct cpu_source *src;

	(*rows)++;
	row_failed = 0;
	t_path(path, "%s/%s", dir, f);
	src = cpu_source_dump(path);
	rcheck(src != NULL, "%s: loads (format %s; %s)", f, field(r, "dump_format"),
	       src ? "ok" : cpu_source_error());
	if (!src)
		return;
	rcheck(cpu_info_identify(src, NULL, &ci) == 0, "%s: identifies", f);
	rcheck(!strcmp(ci.vendor_str, expected_vendor(f)), "%s: vendor %s", f, ci.vendor_str);
	rcheck(ci.family == num(field(r, "family")), "%s: family %u", f, ci.family);
	rcheck(ci.model == num(field(r, "model")), "%s: model 0x%X", f, ci.model);
	rcheck(ci.stepping == num(field(r, "stepping")), "%s: stepping %u", f, ci.stepping);
	rcheck(ci.ncpus == num(field(r, "logical_cpus_in_dump")), "%s: %u logical CPUs", f, ci.ncpus);
	rcheck(ci.max_basic_leaf == num(field(r, "max_basic_leaf")), "%s: max basic leaf 0x%X", f,
	       ci.max_basic_leaf);
	rcheck(ci.hybrid == hybrid, "%s: hybrid %d (INDEX: %s)", f, ci.hybrid, eh);
	rcheck(!only_p || (ci.nkinds == 1 && ci.kinds[0].core_type == 0x40),
	       "%s: hybrid part showing only P-cores has one P-core kind (%u kinds)", f, ci.nkinds);
	rcheck(ci.row != NULL && !ci.warning[0], "%s: model 0x%X in the model table, no warning", f,
	       ci.model);
	check_leafA(r, f);
	if (ci.nkinds) {
		check_kinds(r, f, hybrid, ux);
		check_counters(r, f, hybrid, only_p);
	}
	cpu_source_free(src);
	if (!row_failed)
		(*matched)++;
}

static void test_index(const char *dir)
{
	char path[PATH_MAX], line[4096], hdr[4096];
	unsigned matched = 0, rows = 0;
	struct row h;
	FILE *fp;

	t_path(path, "%s/INDEX.tsv", dir);
	fp = fopen(path, "r");
	if (!ok(fp != NULL, "open %s", path))
		return;
	if (fgets(hdr, sizeof(hdr), fp)) {
		hdr_n = split_tabs(hdr, &h);
		for (int i = 0; i < hdr_n; i++)
			hdr_names[i] = h.col[i];
	}
	while (fgets(line, sizeof(line), fp)) {
		struct row r;

		if (split_tabs(line, &r) < 20)
			continue;
		check_row(dir, &r, &matched, &rows);
	}
	fclose(fp);
	printf("# INDEX.tsv: %u of %u rows matched every known answer\n", matched, rows);
	ok(rows > 0 && matched == rows, "every INDEX.tsv row matched (%u/%u)", matched, rows);
}

/* ------------------------------------------------------------ all dumps */

static unsigned dumps_seen, dumps_ok;

/* One dump (file or hwloc directory): loads, >= 1 kind, every kind's uarch
 * known (the table covers every model in ../shared/cpuid). */
static void check_any_dump(const char *path, const char *rel)
{
	struct cpu_source *src = cpu_source_dump(path);
	bool good = false;
	char line[512];
	size_t n = 0;

	dumps_seen++;
	if (!src) {
		ok(0, "%s loads (%s)", rel, cpu_source_error());
		return;
	}
	if (cpu_info_identify(src, NULL, &ci) == 0 && ci.nkinds >= 1) {
		good = true;
		for (unsigned i = 0; i < ci.nkinds; i++) {
			const struct cpu_kind *k = &ci.kinds[i];

			good = good && strcmp(k->uarch, "unknown") != 0;
			n += (size_t)snprintf(line + n, n < sizeof(line) ? sizeof(line) - n : 0,
					      "%s%s %s x%u L%d %s%s%s", i ? ", " : "", k->kind,
					      k->uarch, k->ncpus, k->topdown_level, k->topdown_source,
					      k->topdown_recipe ? "/" : "",
					      k->topdown_recipe ? k->topdown_recipe : "");
		}
		printf("# %s: family %u model 0x%02X: %s\n", rel, ci.family, ci.model, line);
	}
	dumps_ok += good;
	ok(good, "%s: >= 1 core kind, every uarch known", rel);
	cpu_source_free(src);
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
}

/* libcpuid/ and instlatx64/ dump files (*.test, *.txt), hwloc/<machine>/
 * directories (those holding pu0), in directory order. */
static void walk_dumps(const char *root, const char *rel)
{
	char path[PATH_MAX], sub[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d;

	t_path(path, "%s/%s", root, rel);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		t_path(sub, "%s/%s", rel, de->d_name);
		t_path(path, "%s/%s", root, sub);
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			char pu0[PATH_MAX];

			t_path(pu0, "%s/pu0", path);
			if (starts(sub, "hwloc/") && !access(pu0, R_OK))
				check_any_dump(path, sub);
			else
				walk_dumps(root, sub);
		} else if (!starts(sub, "hwloc/") &&
			   (has_suffix(sub, ".test") || has_suffix(sub, ".txt"))) {
			check_any_dump(path, sub);
		}
	}
	closedir(d);
}

static void test_all_dumps(const char *dir)
{
	dumps_seen = dumps_ok = 0;
	walk_dumps(dir, "libcpuid");
	walk_dumps(dir, "instlatx64");
	walk_dumps(dir, "hwloc");
	printf("# dumps under $SHARED_CPUID: %u of %u identified with known kinds\n", dumps_ok, dumps_seen);
	ok(dumps_seen > 0 && dumps_ok == dumps_seen, "every dump identified (%u/%u)", dumps_ok, dumps_seen);
}
int main(void)
{
	const char *dir = getenv("SHARED_CPUID");
	struct stat st;

	if (!dir || stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		skip(1, "no $SHARED_CPUID directory: real-dump known answers not checked");
	} else {
		test_index(dir);
		test_all_dumps(dir);
	}
	return done_testing();
}
