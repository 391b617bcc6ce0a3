/*
 * t/0200-cpu-identify.c - CPU identification against real CPUID dumps.
 *
 * Known answers come from outside the code under test:
 *   - $SHARED_CPUID/INDEX.tsv (one row per real dump: vendor from the
 *     source path, family, model, stepping, hybrid, Top-down level, leaf
 *     0xA decoded, leaf 0x1A kinds, leaf 0x23 per core type), parsed at
 *     run time; every row is checked, whatever its format;
 *   - model numbers from linux arch/x86/include/asm/intel-family.h and the
 *     kernel's per-model PERF_METRICS setup (pmu-reference.md §2.5, §6, §7);
 *   - the kernel's counter rules, arch/x86/events/intel/core.c
 *     intel_pmu_init (ADL/RPL: P-core GP mask <<2|3, fixed mask <<1|1,
 *     undone above 8 GP / 4 fixed; E-core = leaf 0xA) and update_pmu_cap
 *     (leaf 0x23.1 masks per core type), as quoted in each test;
 *   - leaf 0xA vectors decoded by hand from the layout in pmu-reference §2.1;
 *   - t/data/intel-unknown-f1-fc3.aida64.txt, whose header derives its
 *     register values from §2.1.
 * Every dump under $SHARED_CPUID (with or without a row) must load; a
 * diagnostic line per dump lists its kinds.
 */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "t/tap.h"

#define MAX_COLS 40

static struct cpu_info ci; /* large: kept off the stack */

/* IA32_PERF_CAPABILITIES bits (pmu-reference §1.6) */
#define CAP_PERF_METRICS   (1ull << 15)
#define CAP_METRICS_CLEAR  (1ull << 19)

static uint32_t low_mask(unsigned n)
{
	return n >= 32 ? ~0u : (1u << n) - 1;
}

static const struct cpu_kind *kind_typed(uint8_t type, uint32_t native)
{
	for (unsigned i = 0; i < ci.nkinds; i++)
		if (ci.kinds[i].core_type == type && ci.kinds[i].native_model == native)
			return &ci.kinds[i];
	return NULL;
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
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
 *   §6.1: Sandy Bridge .. Skylake/Cascade Lake/Coffee/Comet Lake: the
 *         pre-ICL event recipe, width 4;
 *   §6.2: widths ICL/TGL 5; ADL/RPL/SPR/EMR/MTL (Golden/Raptor/Redwood
 *         Cove) 6; LNL/ARL Lion Cove 8 (Arrow Lake-U is Redwood Cove: §2.5
 *         lists it with MTL);
 *   §6.3: Tremont has kernel attributes only, no recipe; Tremont width 4
 *         (pmu-tools ehl_ratios.py, cited by the table: taken as given);
 *   §7:   Zen 4 (6 slots) and Zen 5 (8 slots) recipes; nothing for Zen 2/3
 *         (their width is informational: not checked).
 */
struct uarch_expect {
	const char *index_uarch;
	unsigned width;           /* 0: not checked */
	const char *recipe;       /* without PERF_METRICS; NULL: "none" */
	bool metrics_clear;       /* P-core RDPMC metrics-clear: Lion Cove, §2.5 */
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
	{ "Jasper Lake (Tremont)", 4, NULL, false },
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
 * ECX[i] (the column is 0x0 before v5) or i < EDX[4:0] (§2.1). */
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
 * masks, as the kernel's update_pmu_cap takes them (§2.2). */
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
		k = kind_typed((uint8_t)type, native);
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
 *     0x80000022 EBX[3:0] = 6 where the dump has it; §7).
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
 * ([FAM] enum intel_native_id); 1 on ADL/RPL = Gracemont (§6.3). */
static const char *ecore_uarch(unsigned native)
{
	return native == 1 ? "Gracemont" : native == 2 ? "Crestmont" : native == 3 ? "Skymont" : "?";
}

/* §6.3 widths: Gracemont 5, Crestmont 6, Skymont 8. */
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
		k = kind_typed((uint8_t)type, native);
		rcheck(k != NULL, "%s: kind 0x%02x/%06x present", f, type, native);
		if (!k)
			continue;
		rcheck(k->ncpus == count, "%s: kind 0x%02x/%06x has %u CPUs (want %u)", f, type, native,
		       k->ncpus, count);
		/* E-cores never have PERF_METRICS (pmu-reference §2.5 notes). */
		rcheck(k->topdown_level == (type == 0x40 ? level : 0), "%s: %s level %d", f, k->kind,
		       k->topdown_level);
		rcheck(k->fixed_ctr3 == (type == 0x40 && level > 0), "%s: %s FC3", f, k->kind);
		rcheck(!strcmp(k->kind, type == 0x40 ? "performance" : "efficiency") ||
		       (type == 0x20 && !strcmp(k->kind, "lowpower")), "%s: kind name %s", f, k->kind);
		if (type == 0x40) {
			rcheck(str_eq(k->topdown_source, "perf_metrics") && !k->topdown_recipe &&
			       k->metrics_clear == (ux && ux->metrics_clear) &&
			       (!ux || k->pipeline_width == ux->width),
			       "%s: P-core perf_metrics, metrics-clear %d, width %u", f, k->metrics_clear,
			       k->pipeline_width);
		} else {
			/* Gracemont, Crestmont, Skymont: the §6.3 recipe. */
			rcheck(str_eq(k->topdown_source, "events") &&
			       str_eq(k->topdown_recipe, CPU_RECIPE_INTEL_ECORE) && !k->metrics_clear,
			       "%s: %s topdown events/%s", f, k->kind, k->topdown_recipe);
			rcheck(str_eq(k->uarch, ecore_uarch(native)) && k->pipeline_width == ecore_width(native),
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
	/* PERF_METRICS is derived from FC3 (pmu-reference §3.1); the rows
	 * without it have 3 fixed counters, mask 0 or 7 (INDEX leaf 0xA). */
	rcheck(k->fixed_ctr3 == metrics, "%s: general FC3 %d", f, k->fixed_ctr3);
	/* AMD recipes need the 6 core counters: INDEX says PerfCtrExtCore=True. */
	want_src = level > 0 ? "perf_metrics" : ux && ux->recipe ? "events" : "none";
	rcheck(ux != NULL, "%s: INDEX uarch '%s' has an expectation here", f, field(r, "uarch"));
	rcheck(str_eq(k->topdown_source, want_src) &&
	       str_eq(k->topdown_recipe, level > 0 || !ux ? NULL : ux->recipe),
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
 * says (bit 15 reads 0 on these P-cores, §1.6); E-core (cpu_atom):
 * "pmu->num_counters = x86_pmu.num_counters", i.e. leaf 0xA's 6 GP and 3
 * fixed, perf_metrics = 0; Gracemont recipe and width 5: §6.3.
 */
static void test_adl_rule(void)
{
	const char *rel = "libcpuid/v0.6.2/intel/core_12th_gen/alder-lake-s-i9.test";
	uint64_t caps_zero = 0;
	const struct cpu_kind *p, *e;

	if (!load_rel(rel, NULL, 6))
		return;
	p = kind_typed(0x40, 1), e = kind_typed(0x20, 1);
	if (!ok(p && e && ci.nkinds == 2, "ADL-S i9: two kinds (P 0x40, E 0x20)")) {
		skip(5, "kinds missing");
		return;
	}
	ok(p->gp_counters == 8 && p->gp_mask == 0xff && p->fixed_mask == 0xf && p->fixed_ctr3 &&
	   p->gp_width == 48, "ADL-S i9 P-core: 8 GP (0xff), fixed 0xf with FC3, 48 bits");
	ok(p->topdown_level == 2 && str_eq(p->topdown_source, "perf_metrics") && !p->metrics_clear,
	   "ADL-S i9 P-core: level 2 from PERF_METRICS, no metrics-clear");
	ok(e->gp_counters == 6 && e->gp_mask == 0x3f && e->fixed_mask == 0x7 && !e->fixed_ctr3,
	   "ADL-S i9 E-core: 6 GP (0x3f), fixed 0x7, no FC3");
	ok(e->topdown_level == 0 && str_eq(e->topdown_source, "events") &&
	   str_eq(e->topdown_recipe, CPU_RECIPE_INTEL_ECORE) && str_eq(e->uarch, "Gracemont") &&
	   e->pipeline_width == 5, "ADL-S i9 E-core: Gracemont, 5 wide, level 0, events/intel-ecore-l1");
	reidentify(rel, &caps_zero);
	ok(kind_typed(0x40, 1) && kind_typed(0x40, 1)->topdown_level == 2,
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
 * E-core native model id 2 = Crestmont ([FAM]), width 6 (§6.3).
 */
static void test_mtl_rule(void)
{
	const char *rel = "libcpuid/master-history/intel/x86-64/redwood-cove/intel-core-ultra-7-155h.test";
	uint64_t caps = 0xf4c5; /* PDCM-era bits, bit 15 clear as MTL reports it */
	const struct cpu_kind *p, *e;

	if (!load_rel(rel, &caps, 3))
		return;
	p = kind_typed(0x40, 2), e = kind_typed(0x20, 2);
	if (!ok(p && e, "MTL: P 0x40/2 and E 0x20/2 kinds")) {
		skip(2, "kinds missing");
		return;
	}
	ok(p->fixed_mask == 0xf && p->fixed_ctr3 && p->topdown_level == 2 &&
	   str_eq(p->topdown_source, "perf_metrics"),
	   "MTL P-core: FC3 (fixed 0x%x), level 2 with bit 15 clear", p->fixed_mask);
	ok(e->fixed_mask == 0x7 && !e->fixed_ctr3 && e->topdown_level == 0 &&
	   str_eq(e->uarch, "Crestmont") && e->pipeline_width == 6 && str_eq(e->topdown_source, "events"),
	   "MTL E-core: Crestmont, 6 wide, fixed 0x7, events");
}

/*
 * Arrow Lake-S Core Ultra 7 265K: Lion Cove P-core with RDPMC
 * metrics-clear (§2.5), Skymont E-core (native id 3, [FAM]; width 8 and
 * recipe §6.3).  IA32_PERF_CAPABILITIES read on a P-core (bit 15 set)
 * decides metrics-clear by its bit 19 (§1.6); read elsewhere (bit 15
 * clear), the table stands.
 */
static void test_lnc_metrics_clear(void)
{
	const char *rel = "libcpuid/master-history/intel/x86-64/lion-cove/intel-core-ultra-7-265k.test";
	uint64_t caps_p = CAP_PERF_METRICS, caps_pc = CAP_PERF_METRICS | CAP_METRICS_CLEAR, caps_e = 0;
	const struct cpu_kind *p, *e;

	if (!load_rel(rel, NULL, 5))
		return;
	p = kind_typed(0x40, 3), e = kind_typed(0x20, 3);
	if (!ok(p && e, "ARL-S: P 0x40/3 and E 0x20/3 kinds")) {
		skip(4, "kinds missing");
		return;
	}
	ok(p->metrics_clear && p->topdown_level == 2 && str_eq(p->uarch, "Lion Cove") && p->pipeline_width == 8,
	   "ARL-S P-core: Lion Cove, 8 wide, level 2, metrics-clear from the table");
	ok(!e->metrics_clear && str_eq(e->uarch, "Skymont") && e->pipeline_width == 8 &&
	   str_eq(e->topdown_recipe, CPU_RECIPE_INTEL_ECORE), "ARL-S E-core: Skymont, 8 wide, events");
	reidentify(rel, &caps_p);
	ok(kind_typed(0x40, 3) && !kind_typed(0x40, 3)->metrics_clear,
	   "ARL-S with PERF_CAPABILITIES 15 set, 19 clear: no metrics-clear");
	reidentify(rel, &caps_pc);
	ok(kind_typed(0x40, 3) && kind_typed(0x40, 3)->metrics_clear, "ARL-S with bits 15 and 19: metrics-clear");
	reidentify(rel, &caps_e);
	ok(kind_typed(0x40, 3) && kind_typed(0x40, 3)->metrics_clear && kind_typed(0x40, 3)->topdown_level == 2,
	   "ARL-S with PERF_CAPABILITIES from an E-core (bit 15 clear): table's metrics-clear, level 2");
}

/*
 * Non-hybrid kernel rule (§2.4 rule 1-2): Ice Lake i7-1065G7 (INDEX: level
 * 1, leaf 0xA fixed mask 0xF) loses PERF_METRICS when bit 15 reads clear
 * (a VM without it), and keeps level 1 when set.
 */
static void test_icl_perf_caps(void)
{
	const char *rel = "libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test";
	uint64_t caps_on = CAP_PERF_METRICS, caps_off = 0;

	if (!load_rel(rel, &caps_off, 2))
		return;
	ok(ci.kinds[0].topdown_level == 0 && str_eq(ci.kinds[0].topdown_source, "none"),
	   "ICL with PERF_CAPABILITIES[15] clear: level 0, no recipe");
	reidentify(rel, &caps_on);
	ok(ci.kinds[0].topdown_level == 1 && str_eq(ci.kinds[0].topdown_source, "perf_metrics") &&
	   !ci.kinds[0].metrics_clear, "ICL with PERF_CAPABILITIES[15]: level 1, no metrics-clear");
}

/*
 * Dumps without an INDEX.tsv row, facts from the reference and kernel:
 *   Lakefield i5 (family 6 model 0x8A, [FAM] "Sunny Cove / Tremont"): no
 *     PERF_METRICS (§2.5), no recipe for Sunny Cove without it nor Tremont;
 *   Bartlett Lake (0xD7, [FAM] "Raptor Cove"): no intel_pmu_init case, so
 *     the table marks PERF_METRICS UNCONFIRMED: from a dump, undecided,
 *     with a warning; its leaf 0xA enumerates FC3 (08300805-...-0000000F);
 *   Panther Lake (0xCC, [FAM] "Cougar Cove / Darkmont"): level 2,
 *     metrics-clear (§2.5 lnl_common path), E-core Darkmont, 8 wide (§6.3).
 */
static void test_no_row_dumps(void)
{
	const struct cpu_kind *p, *e;

	if (load_rel("libcpuid/v0.6.2/intel/tremont/lakefield-i5.test", NULL, 1)) {
		p = kind_typed(0x40, 0), e = kind_typed(0x20, 0);
		ok(ci.hybrid && p && e && str_eq(p->uarch, "Sunny Cove") && str_eq(e->uarch, "Tremont") &&
		   p->topdown_level == 0 && str_eq(p->topdown_source, "none") &&
		   str_eq(e->topdown_source, "none"), "Lakefield: Sunny Cove + Tremont, no Top-down source");
	}
	if (load_rel("instlatx64/GenuineIntel/GenuineIntel00D0670_BartlettLake_01_CPUID.txt", NULL, 1)) {
		p = &ci.kinds[0];
		ok(ci.model == 0xD7 && ci.row && p->fixed_ctr3 && p->topdown_level == 0 &&
		   str_eq(p->topdown_source, "undecided") && strstr(ci.warning, "UNCONFIRMED") &&
		   strstr(ci.warning, "ECX bit 3"), "Bartlett Lake: FC3, PERF_METRICS undecided (%s)",
		   ci.warning);
	}
	if (load_rel("instlatx64/GenuineIntel/GenuineIntel00C06C3_PantherLakeL_01_CPUID.txt", NULL, 1)) {
		p = kind_typed(0x40, 4), e = kind_typed(0x20, 4);
		ok(p && e && p->topdown_level == 2 && p->metrics_clear && str_eq(p->uarch, "Cougar Cove") &&
		   str_eq(e->uarch, "Darkmont") && e->pipeline_width == 8 &&
		   str_eq(e->topdown_recipe, CPU_RECIPE_INTEL_ECORE), "Panther Lake: level 2 + metrics-clear, Darkmont events");
	}
}

/*
 * AMD (§7; INDEX.tsv notes "PerfCtrExtCore=True" on every AMD row): Zen 4
 * Raphael gets the amd-zen4 recipe over 6 core counters of 48 bits and 6
 * dispatch slots; Zen 3 Vermeer has no recipe.
 */
static void test_amd(void)
{
	const struct cpu_kind *k = &ci.kinds[0];

	if (load_rel("libcpuid/v0.6.2/amd/zen4/ryzen9-raphael.test", NULL, 1))
		ok(str_eq(k->uarch, "Zen 4") && k->pipeline_width == 6 && k->gp_counters == 6 &&
		   k->gp_width == 48 && !k->fixed_ctr3 && str_eq(k->topdown_source, "events") &&
		   str_eq(k->topdown_recipe, CPU_RECIPE_AMD_ZEN4), "Zen 4: 6 counters, events/amd-zen4");
	if (load_rel("libcpuid/v0.6.2/amd/zen3/ryzen9-vermeer.test", NULL, 1))
		ok(str_eq(k->uarch, "Zen 3") && str_eq(k->topdown_source, "none") && !k->topdown_recipe,
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

/* --------------------------------------------------------- model table */

struct model_case {
	enum cpu_vendor v;
	unsigned family, model;
	const char *uarch;
	unsigned width;
	bool fc3;
	int level;
	bool metrics_clear;
	const char *recipe;
	const char *why;
};

#define MI CPU_VENDOR_INTEL
#define MA CPU_VENDOR_AMD

static const struct model_case model_cases[] = {
	/* kernel name (intel-family.h), level from intel_pmu_init (§2.5), width
	 * §6, metrics-clear: Lion Cove and later (§2.5 "lnc ... metrics-clear",
	 * §3.5), recipes §6.1 (SNB..CML), §6.3 (E-cores), §7 (Zen 4/5) */
	{ MI, 6, 0x8F, "Golden Cove", 6, true, 2, false, NULL, "INTEL_SAPPHIRERAPIDS_X 0x8F: L2, width 6" },
	{ MI, 6, 0xCF, "Raptor Cove", 6, true, 2, false, NULL, "INTEL_EMERALDRAPIDS_X 0xCF: L2" },
	{ MI, 6, 0xAD, "Redwood Cove", 6, true, 2, false, NULL, "INTEL_GRANITERAPIDS_X 0xAD: L2" },
	{ MI, 6, 0xAE, "Redwood Cove", 6, true, 2, false, NULL, "INTEL_GRANITERAPIDS_D 0xAE: L2" },
	{ MI, 6, 0x7E, "Sunny Cove", 5, true, 1, false, NULL, "INTEL_ICELAKE_L 0x7E: L1, width 5" },
	{ MI, 6, 0x6A, "Sunny Cove", 5, true, 1, false, NULL, "INTEL_ICELAKE_X 0x6A: L1" },
	{ MI, 6, 0xA7, "Cypress Cove", 5, true, 1, false, NULL, "INTEL_ROCKETLAKE 0xA7: L1" },
	{ MI, 6, 0x8D, "Willow Cove", 5, true, 1, false, NULL, "INTEL_TIGERLAKE 0x8D: L1" },
	{ MI, 6, 0x97, "Golden Cove", 6, true, 2, false, NULL, "INTEL_ALDERLAKE 0x97: P-core L2" },
	{ MI, 6, 0xBF, "Raptor Cove", 6, true, 2, false, NULL, "INTEL_RAPTORLAKE_S 0xBF: P-core L2" },
	{ MI, 6, 0xAC, "Redwood Cove", 6, true, 2, false, NULL, "INTEL_METEORLAKE 0xAC: P-core L2" },
	{ MI, 6, 0xB5, "Redwood Cove", 6, true, 2, false, NULL, "INTEL_ARROWLAKE_U 0xB5: MTL-like P-core L2" },
	{ MI, 6, 0xBD, "Lion Cove", 8, true, 2, true, NULL, "INTEL_LUNARLAKE_M 0xBD: width 8, metrics-clear" },
	{ MI, 6, 0xC6, "Lion Cove", 8, true, 2, true, NULL, "INTEL_ARROWLAKE 0xC6: metrics-clear" },
	{ MI, 6, 0xC5, "Lion Cove", 8, true, 2, true, NULL, "INTEL_ARROWLAKE_H 0xC5: metrics-clear" },
	{ MI, 6, 0xCC, "Cougar Cove", 8, true, 2, true, NULL, "INTEL_PANTHERLAKE_L 0xCC: Cougar Cove, metrics-clear" },
	{ MI, 6, 0xD5, "Cougar Cove", 8, true, 2, true, NULL, "INTEL_WILDCATLAKE_L 0xD5: PTL's PMU" },
	{ MI, 19, 0x01, "Panther Cove", 0, true, 2, false, NULL, "INTEL_DIAMONDRAPIDS_X IFM(19, 0x01): glc init L2" },
	{ MI, 18, 0x01, "Coyote Cove", 0, true, 2, false, NULL, "INTEL_NOVALAKE IFM(18, 0x01): pnc = glc init L2" },
	{ MI, 6, 0xD7, "Raptor Cove", 6, true, CPU_TD_UNCONFIRMED, false, NULL,
	  "INTEL_BARTLETTLAKE 0xD7: no intel_pmu_init case, PERF_METRICS unconfirmed" },
	{ MI, 6, 0x5E, "Skylake", 4, false, 0, false, CPU_RECIPE_INTEL_PRE_ICL, "INTEL_SKYLAKE 0x5E: pre-ICL, width 4" },
	{ MI, 6, 0x2A, "Sandy Bridge", 4, false, 0, false, CPU_RECIPE_INTEL_PRE_ICL, "INTEL_SANDYBRIDGE 0x2A: pre-ICL" },
	{ MI, 6, 0xA6, "Skylake", 4, false, 0, false, CPU_RECIPE_INTEL_PRE_ICL, "INTEL_COMETLAKE_L 0xA6: pre-ICL" },
	{ MI, 6, 0x66, "Palm Cove", 4, false, 0, false, NULL, "INTEL_CANNONLAKE_L 0x66: no kernel topdown attrs" },
	{ MI, 6, 0x9D, "Sunny Cove", 5, false, 0, false, NULL, "INTEL_ICELAKE_NNPI 0x9D: no PERF_METRICS" },
	{ MI, 6, 0x8A, "Sunny Cove", 5, false, 0, false, NULL, "INTEL_LAKEFIELD 0x8A: no PERF_METRICS" },
	{ MI, 6, 0xBE, "Gracemont", 5, false, 0, false, CPU_RECIPE_INTEL_ECORE, "INTEL_ATOM_GRACEMONT 0xBE (ADL-N)" },
	{ MI, 6, 0x9C, "Tremont", 4, false, 0, false, NULL, "INTEL_ATOM_TREMONT_L 0x9C (Jasper Lake): no recipe" },
	{ MI, 6, 0xAF, "Crestmont", 6, false, 0, false, CPU_RECIPE_INTEL_ECORE, "INTEL_ATOM_CRESTMONT_X 0xAF (SRF)" },
	{ MI, 6, 0xB6, "Crestmont", 6, false, 0, false, CPU_RECIPE_INTEL_ECORE, "INTEL_ATOM_CRESTMONT 0xB6 (GRR)" },
	{ MI, 6, 0xDD, "Darkmont", 8, false, 0, false, CPU_RECIPE_INTEL_ECORE, "INTEL_ATOM_DARKMONT_X 0xDD (CWF)" },
	{ MA, 0x19, 0x61, "Zen 4", 6, false, 0, false, CPU_RECIPE_AMD_ZEN4, "AMD 19h model 0x61 (Raphael): Zen 4, 6 slots (§7)" },
	{ MA, 0x19, 0x21, "Zen 3", 6, false, 0, false, NULL, "AMD 19h model 0x21 (Vermeer): Zen 3, no recipe (§7)" },
	{ MA, 0x17, 0x71, "Zen 2", 6, false, 0, false, NULL, "AMD 17h model 0x71 (Matisse): Zen 2, no recipe" },
	{ MA, 0x1A, 0x02, "Zen 5", 8, false, 0, false, CPU_RECIPE_AMD_ZEN5, "AMD 1Ah model 0x02 (Turin): Zen 5, 8 slots (§7)" },
	{ MA, 0x1A, 0x24, "Zen 5", 8, false, 0, false, CPU_RECIPE_AMD_ZEN5, "AMD 1Ah model 0x24 (Strix Point): Zen 5" },
};

/* Every Intel family-6 model of pmu-reference §2.5 and §6.1 (Sandy Bridge ..
 * Comet Lake) and the Tremont parts ([FAM] INTEL_ATOM_TREMONT*). */
static const unsigned intel_fam6_models[] = {
	0x6A, 0x6C, 0x7D, 0x7E, 0x8C, 0x8D, 0xA7, 0x8F, 0xCF, 0xAD, 0xAE, 0x97, 0x9A, 0xB7,
	0xBA, 0xBF, 0xAC, 0xAA, 0xB5, 0xBD, 0xC6, 0xC5, 0xCC, 0xD5, 0x9D, 0x8A, 0xBE, 0xAF,
	0xB6, 0xDD, 0x2A, 0x2D, 0x3A, 0x3E, 0x3C, 0x3F, 0x45, 0x46, 0x3D, 0x47, 0x4F, 0x56,
	0x4E, 0x5E, 0x55, 0x8E, 0x9E, 0xA5, 0xA6, 0x86, 0x96, 0x9C,
};

static void test_model_table(void)
{
	const struct cpu_model *m, *t;
	size_t n;
	bool unique = true, sourced = true, covered = true, unconfirmed_said = true;

	for (size_t i = 0; i < sizeof(model_cases) / sizeof(model_cases[0]); i++) {
		const struct model_case *c = &model_cases[i];

		m = cpu_model_lookup(c->v, c->family, c->model);
		ok(m && !strcmp(m->uarch, c->uarch) && m->pipeline_width == c->width &&
		   m->fixed_ctr3 == c->fc3 && m->topdown_level == c->level &&
		   m->metrics_clear == c->metrics_clear && str_eq(m->recipe, c->recipe), "%s", c->why);
	}
	m = cpu_model_lookup(CPU_VENDOR_INTEL, 6, 0x9A);
	ok(m && m->hybrid && m->counter_rule == CPU_CTR_ADL_HYBRID && !strcmp(m->e_uarch, "Gracemont") &&
	   m->e_pipeline_width == 5 && str_eq(m->e_recipe, CPU_RECIPE_INTEL_ECORE),
	   "INTEL_ALDERLAKE_L 0x9A: kernel ADL counter rule, Gracemont E-cores, width 5 (§6.3)");
	m = cpu_model_lookup(CPU_VENDOR_INTEL, 6, 0xAA);
	ok(m && m->hybrid && m->counter_rule == CPU_CTR_CPUID && !strcmp(m->e_uarch, "Crestmont"),
	   "INTEL_METEORLAKE_L 0xAA: counters from leaf 0x23, Crestmont E-cores");
	m = cpu_model_lookup(CPU_VENDOR_INTEL, 6, 0xC6);
	ok(m && m->hybrid && !strcmp(m->e_uarch, "Skymont") && m->e_pipeline_width == 8,
	   "INTEL_ARROWLAKE 0xC6: Skymont E-cores, width 8 (§6.3)");
	ok(cpu_model_lookup(CPU_VENDOR_INTEL, 6, 0xF1) == NULL, "family 6 model 0xF1: not in the table");
	ok(cpu_model_lookup(CPU_VENDOR_AMD, 6, 0x8F) == NULL, "vendor is part of the key");
	for (size_t i = 0; i < sizeof(intel_fam6_models) / sizeof(intel_fam6_models[0]); i++)
		if (!cpu_model_lookup(CPU_VENDOR_INTEL, 6, intel_fam6_models[i])) {
			covered = false;
			printf("# family 6 model 0x%02X missing\n", intel_fam6_models[i]);
		}
	ok(covered, "every §2.5 / §6.1 / Tremont model is in the table");
	t = cpu_model_table(&n);
	for (size_t i = 0; i < n; i++) {
		if (!t[i].source || !t[i].source[0] || !t[i].uarch)
			sourced = false;
		if (t[i].topdown_level == CPU_TD_UNCONFIRMED && !strstr(t[i].source, "UNCONFIRMED"))
			unconfirmed_said = false;
		for (size_t j = i + 1; j < n; j++)
			if (t[i].vendor == t[j].vendor && t[i].family == t[j].family && t[i].model == t[j].model)
				unique = false;
	}
	ok(sourced, "every table row names its source and uarch");
	ok(unconfirmed_said, "every row with an unconfirmed level says UNCONFIRMED in its source");
	ok(unique, "no (vendor, family, model) key twice in the table");
}

/* ------------------------------------------------------------ leaf 0xA */

static void test_leafA_decode(void)
{
	/* Ice Lake (INDEX.tsv ice-lake-i7 raw): EAX 0x08300805 = ebx_len 8,
	 * width 0x30 = 48, 8 GP, v5; EDX 0x8604 = [4:0] 4 fixed, [12:5] 0x30. */
	const uint32_t icl[4] = { 0x08300805, 0, 0xF, 0x8604 };
	/* Alder Lake hybrid common subset: ebx_len 7 (bit 7 not enumerated). */
	const uint32_t adl[4] = { 0x07300605, 0, 0x7, 0x8603 };
	/* Arrow Lake: v6, ebx_len 13, EBX 0x280 has bit 7 set (not available). */
	const uint32_t arl[4] = { 0x0D300806, 0x280, 0x7, 0x8603 };
	/* v5, ECX = 0x9 (FC0, FC3), EDX[4:0] = 0: ECX[i] || EDX[4:0] > i. */
	const uint32_t sparse[4] = { 0x08300805, 0, 0x9, 0 };
	/* v4 with ECX garbage: ECX is not the fixed mask before v5. */
	const uint32_t v4[4] = { 0x07300404, 0, 0xF, 0x0603 };
	struct cpu_pmu_arch p;

	cpu_pmu_arch_decode(icl, &p);
	ok(p.version == 5 && p.gp_counters == 8 && p.gp_width == 48 && p.ebx_len == 8 &&
	   p.fixed_counters == 4 && p.fixed_width == 48 && p.fixed_mask == 0xF && p.topdown_slots,
	   "ICL 0x08300805/0/0xF/0x8604: v5, 8x48 GP, 4x48 fixed, TOPDOWN.SLOTS");
	ok(cpu_pmu_has_fixed(&p, 3) && !cpu_pmu_has_fixed(&p, 4), "ICL: FC3 exists, FC4 not");
	cpu_pmu_arch_decode(adl, &p);
	ok(p.version == 5 && p.gp_counters == 6 && p.fixed_counters == 3 && !p.topdown_slots,
	   "ADL common subset: 6 GP, 3 fixed, TOPDOWN.SLOTS not enumerated");
	ok(!cpu_pmu_has_fixed(&p, 3), "ADL common subset: no FC3 in leaf 0xA");
	cpu_pmu_arch_decode(arl, &p);
	ok(p.version == 6 && p.ebx_len == 13 && !p.topdown_slots, "ARL: v6, EBX bit 7 set: no TOPDOWN.SLOTS");
	cpu_pmu_arch_decode(sparse, &p);
	ok(cpu_pmu_has_fixed(&p, 0) && !cpu_pmu_has_fixed(&p, 1) && cpu_pmu_has_fixed(&p, 3),
	   "v5 ECX 0x9: FC0 and FC3 only");
	cpu_pmu_arch_decode(v4, &p);
	ok(p.fixed_mask == 0 && p.fixed_counters == 3 && p.fixed_width == 48 && !cpu_pmu_has_fixed(&p, 3),
	   "v4: ECX ignored, 3 fixed counters from EDX");
}

/* --------------------------------------------------------------- sysfs */

static void test_sysfs(void)
{
	char dir[] = "/tmp/baretma-0200-root.XXXXXX", path[PATH_MAX], buf[64];
	FILE *f;

	if (!mkdtemp(dir)) {
		skip(3, "mkdtemp failed");
		return;
	}
	t_path(path, "%s/sys", dir);
	mkdir(path, 0700);
	t_path(path, "%s/sys/rdpmc", dir);
	f = fopen(path, "w");
	fputs("2\nsecond line\n", f);
	fclose(f);
	setenv("BARETMA_SYSROOT", dir, 1);
	check_str(cpu_sysfs_path(buf, sizeof(buf), "/sys/rdpmc") + strlen(dir), "/sys/rdpmc",
		  "sysfs path under $BARETMA_SYSROOT");
	ok(cpu_sysfs_read_line("/sys/rdpmc", buf, sizeof(buf)) == 0 && !strcmp(buf, "2"),
	   "first line without newline ('%s')", buf);
	check_int(cpu_sysfs_read_line("/sys/absent", buf, sizeof(buf)), ==, -ENOENT, "absent file: -ENOENT");
	unsetenv("BARETMA_SYSROOT");
	unlink(path);
	t_path(path, "%s/sys", dir);
	rmdir(path);
	rmdir(dir);
}

/* ------------------------------------------------------------ topology */

/* One register set from an hwloc-gather-cpuid "puN" file: lines are
 * "mask eax ebx ecx edx => eax ebx ecx edx" (inputs, then outputs). */
static int pu_cpuid(const char *dir, unsigned pu, unsigned leaf, unsigned sub, uint32_t r[4])
{
	char path[PATH_MAX], line[256];
	unsigned m, in[4];
	int found = -1;
	FILE *f;

	t_path(path, "%s/pu%u", dir, pu);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (found < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%x %x %x %x %x => %x %x %x %x", &m, &in[0], &in[1], &in[2], &in[3],
			   &r[0], &r[1], &r[2], &r[3]) == 9 && in[0] == leaf && in[2] == sub)
			found = 0;
	fclose(f);
	return found;
}

/* Largest data/unified cache from leaf 4 (SDM Vol. 2A CPUID leaf 04H:
 * ways * partitions * line size * sets, each field + 1). */
static uint64_t pu_llc(const char *dir)
{
	uint64_t best = 0;
	uint32_t r[4];

	for (unsigned s = 0; !pu_cpuid(dir, 0, 4, s, r) && (r[0] & 0x1f); s++) {
		uint64_t sz = (uint64_t)((r[1] >> 22) + 1) * (((r[1] >> 12) & 0x3ff) + 1) *
			      ((r[1] & 0xfff) + 1) * ((uint64_t)r[2] + 1);

		if ((r[0] & 0x1f) != 2 && sz > best) /* type 2 = instruction cache */
			best = sz;
	}
	return best;
}

static struct cpu_info topo_ci;

/* The Raptor Lake-P hwloc dump (i7-1370P): hwloc builds its topology from
 * it; the P/E split comes from the dump's own CPUID.1AH lines. */
static void test_choose_hybrid(const char *shared)
{
	char dir[PATH_MAX];
	struct cpu_kind *p = &topo_ci.kinds[0], *e = &topo_ci.kinds[1];
	hwloc_topology_t topo;
	int want = -1;
	uint32_t r[4];

	t_path(dir, "%s/hwloc/Intel-RaptorLake-Corei7-1370P", shared);
	memset(&topo_ci, 0, sizeof(topo_ci));
	topo_ci.vendor = CPU_VENDOR_INTEL;
	topo_ci.hybrid = true;
	topo_ci.nkinds = 2;
	p->core_type = 0x40, p->topdown_level = 2, p->fixed_ctr3 = true;
	e->core_type = 0x20;
	for (unsigned pu = 0; !pu_cpuid(dir, pu, 0x1a, 0, r); pu++) {
		struct cpu_kind *k = (r[0] >> 24) == 0x40 ? p : e;

		k->cpus[k->ncpus++] = pu;
		topo_ci.ncpus++;
		if (k == p)
			want = (int)pu;
	}
	if (!ok(p->ncpus == 12 && e->ncpus == 8, "RPL-P hwloc dump: 12 P + 8 E CPUs (INDEX.tsv)")) {
		skip(6, "hwloc dump not readable");
		return;
	}
	setenv("HWLOC_CPUID_PATH", dir, 1);
	setenv("HWLOC_COMPONENTS", "x86,stop", 1);
	if (!ok(cpu_topo_load(&topo) == 0, "hwloc topology from the RPL-P CPUID dump")) {
		skip(5, "no topology");
		goto out;
	}
	check_int(cpu_choose(topo, &topo_ci, -1), ==, want, "default: the last P-core of the dump");
	check_int(cpu_choose(topo, &topo_ci, 15), ==, 15, "--cpu 15 (an E-core) is honoured when asked");
	check_int(cpu_choose(topo, &topo_ci, 20), ==, -ENXIO, "cpu 20 of a 20-CPU dump: -ENXIO");
	check_u64(cpu_llc_bytes(topo, 0), ==, pu_llc(dir), "LLC size = leaf 4 formula");
	/* P-cores that the topology lacks: never fall back to an E-core. */
	for (unsigned i = 0; i < p->ncpus; i++)
		p->cpus[i] = 100 + i;
	check_int(cpu_choose(topo, &topo_ci, -1), ==, -ENXIO, "no P-core available: -ENXIO, not an E-core");
	hwloc_topology_destroy(topo);
out:
	unsetenv("HWLOC_CPUID_PATH");
	unsetenv("HWLOC_COMPONENTS");
}

static void test_pin_live(void)
{
	hwloc_topology_t topo;
	bool membind_ok = false;
	int cpu;

	if (!ok(cpu_topo_load(&topo) == 0, "live hwloc topology")) {
		skip(3, "no topology");
		return;
	}
	cpu = cpu_choose(topo, NULL, -1);
	ok(cpu >= 0, "live default CPU %d", cpu);
	check_int(cpu_choose(topo, NULL, CPU_MAX_CPUS + 7), ==, -ENXIO, "absent CPU: -ENXIO");
	if (cpu >= 0) {
		int rc = cpu_pin_self(topo, (unsigned)cpu, &membind_ok), now = sched_getcpu();

		ok(rc == 0 && now == cpu, "pinned to cpu %d (rc %d, sched_getcpu %d, membind %s)",
		   cpu, rc, now, membind_ok ? "ok" : "not applied");
	} else {
		skip(1, "no CPU");
	}
	hwloc_topology_destroy(topo);
}

int main(void)
{
	const char *dir = getenv("SHARED_CPUID");
	struct stat st;

	test_leafA_decode();
	test_model_table();
	test_bad_files();
	test_unknown_intel();
	test_max_leaf_and_hypervisor();
	test_sysfs();
	test_pin_live();
	if (!dir || stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		skip(1, "no $SHARED_CPUID directory: real-dump known answers not checked");
	} else {
		shared_dir = dir;
		test_index(dir);
		test_all_dumps(dir);
		test_kernel_rules();
		test_choose_hybrid(dir);
	}
	return done_testing();
}
