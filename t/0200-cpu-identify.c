/*
 * t/0200-cpu-identify.c - CPU identification against real CPUID dumps.
 *
 * Known answers come from outside the code under test:
 *   - $SHARED_CPUID/INDEX.tsv (one row per real dump: family, model,
 *     stepping, hybrid, Top-down level, leaf 0xA decoded, leaf 0x1A kinds),
 *     parsed at run time;
 *   - model numbers from linux arch/x86/include/asm/intel-family.h and the
 *     kernel's per-model PERF_METRICS setup (pmu-reference.md §2.5, §6, §7);
 *   - leaf 0xA vectors decoded by hand from the layout in pmu-reference §2.1.
 * Synthetic dumps are written as temp files in libcpuid's native raw format.
 */
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
		if (!strcmp(hdr_names[i], name))
			return r->col[i];
	return NULL;
}

static unsigned long num(const char *s)
{
	return s ? strtoul(s, NULL, 0) : ~0ul;
}

static bool starts(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
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

/* "0x20/000001 x8,0x40/000001 x16": one kind per group. */
static void check_hybrid_kinds(const struct row *r, const char *f, int level)
{
	char groups[256];
	unsigned ngroups = 0;

	snprintf(groups, sizeof(groups), "%s", field(r, "dump_leaf1A_core_types"));
	for (char *g = strtok(groups, ","); g; g = strtok(NULL, ",")) {
		unsigned type, native, count;
		const struct cpu_kind *k = NULL;

		if (sscanf(g, "0x%x/%x x%u", &type, &native, &count) != 3) {
			rcheck(0, "%s: INDEX group '%s' parses", f, g);
			continue;
		}
		ngroups++;
		for (unsigned i = 0; i < ci.nkinds; i++)
			if (ci.kinds[i].core_type == type && ci.kinds[i].native_model == native)
				k = &ci.kinds[i];
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
	}
	rcheck(ci.nkinds == ngroups, "%s: %u kinds (want %u)", f, ci.nkinds, ngroups);
}

static void check_kinds(const struct row *r, const char *f, bool hybrid)
{
	int level = (int)num(field(r, "expect_topdown_levels"));
	bool metrics = starts(field(r, "expect_perf_metrics"), "yes");

	if (hybrid) {
		check_hybrid_kinds(r, f, level);
		return;
	}
	rcheck(ci.nkinds == 1 && !strcmp(ci.kinds[0].kind, "general"), "%s: one kind 'general'", f);
	rcheck(ci.kinds[0].ncpus == num(field(r, "logical_cpus_in_dump")), "%s: general kind has all CPUs", f);
	rcheck(ci.kinds[0].topdown_level == level, "%s: general level %d (want %d)", f,
	       ci.kinds[0].topdown_level, level);
	/* PERF_METRICS is derived from FC3 (pmu-reference §3.1); the rows
	 * without it have 3 fixed counters, mask 0 or 7 (INDEX leaf 0xA). */
	rcheck(ci.kinds[0].fixed_ctr3 == metrics, "%s: general FC3 %d", f, ci.kinds[0].fixed_ctr3);
}

static void check_row(const char *dir, const struct row *r, unsigned *matched, unsigned *loadable)
{
	const char *f = field(r, "file"), *fmt = field(r, "dump_format");
	char path[1024];
	struct cpu_source *src;
	bool hybrid = starts(field(r, "expect_hybrid"), "yes");

	if (!strcmp(fmt, "hwloc")) {
		skip(1, "hwloc-gather-cpuid directory: not a libcpuid dump");
		return;
	}
	if (!strcmp(fmt, "aida64-affmask")) {
		skip(1, "AIDA64 dump with affinity masks: libcpuid 0.6.2 cannot load it (out of scope for now)");
		return;
	}
	(*loadable)++;
	row_failed = 0;
	snprintf(path, sizeof(path), "%s/%s", dir, f);
	src = cpu_source_dump(path);
	rcheck(src != NULL, "%s: loads (%s)", f, src ? "ok" : cpu_source_error());
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
	rcheck(ci.hybrid == hybrid, "%s: hybrid %d", f, ci.hybrid);
	rcheck(ci.row != NULL, "%s: model 0x%X in the model table", f, ci.model);
	check_leafA(r, f);
	check_kinds(r, f, hybrid);
	cpu_source_free(src);
	if (!row_failed)
		(*matched)++;
}

static void test_index(const char *dir)
{
	char path[1024], line[4096], hdr[4096];
	unsigned matched = 0, loadable = 0;
	struct row h;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/INDEX.tsv", dir);
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
		check_row(dir, &r, &matched, &loadable);
	}
	fclose(fp);
	printf("# INDEX.tsv: %u of %u loadable rows matched every known answer\n", matched, loadable);
	ok(loadable > 0 && matched == loadable, "every loadable INDEX.tsv row matched (%u/%u)", matched, loadable);
}

/* ----------------------------------------------------------- synthetic */

/* Write a libcpuid native raw dump; returns the path (static buffer). */
static const char *write_dump(const char *text)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/baretma-0200.XXXXXX");
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

static void test_unknown_intel(void)
{
	/* Family 6, display model 0xF0 (not in intel-family.h), stepping 1:
	 * CPUID.1:EAX = ext model 0xF [19:16], family 6 [11:8], model 0 [7:4],
	 * stepping 1; ECX[15] PDCM.  Leaf 0xA as on Ice Lake (v5, ECX = 0xF). */
	const char *p = write_dump(INTEL_LEAF0("0000000a")
				   "basic_cpuid[1]=000f0601 00000800 00008000 00000000\n"
				   "basic_cpuid[10]=08300805 00000000 0000000f 00008604\n");
	struct cpu_source *src = cpu_source_dump(p);
	uint64_t caps_metrics = 1ull << 15, caps_none = 0; /* IA32_PERF_CAPABILITIES[15] (§1.6) */

	ok(src != NULL, "synthetic unknown Intel dump loads");
	if (!src) {
		skip(9, "no source");
		unlink(p);
		return;
	}
	ok(cpu_info_identify(src, NULL, &ci) == 0, "unknown model identifies");
	check_u64(ci.model, ==, 0xF0, "display model 0xF0");
	ok(ci.row == NULL, "model 0xF0 is not in the table");
	ok(ci.pdcm, "PDCM from CPUID.1:ECX[15]");
	ok(ci.hypervisor == NULL, "no hypervisor bit: NULL");
	ok(ci.kinds[0].fixed_ctr3, "FC3 from leaf 0xA (ECX bit 3)");
	check_int(ci.kinds[0].topdown_level, ==, 0, "no PERF_CAPABILITIES: level 0 (undecidable)");
	cpu_info_identify(src, &caps_metrics, &ci);
	check_int(ci.kinds[0].topdown_level, ==, 1, "PERF_CAPABILITIES[15]: level 1");
	cpu_info_identify(src, &caps_none, &ci);
	check_int(ci.kinds[0].topdown_level, ==, 0, "PERF_CAPABILITIES[15] clear: level 0");
	cpu_source_free(src);
	unlink(p);
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

/* --------------------------------------------------------- model table */

struct model_case {
	enum cpu_vendor v;
	unsigned family, model;
	const char *uarch;
	unsigned width;
	bool fc3;
	int level;
	const char *why;
};

static const struct model_case model_cases[] = {
	/* kernel name (intel-family.h), level from intel_pmu_init (§2.5), width §6 */
	{ CPU_VENDOR_INTEL, 6, 0x8F, "Golden Cove", 6, true, 2, "INTEL_SAPPHIRERAPIDS_X 0x8F: L2, width 6" },
	{ CPU_VENDOR_INTEL, 6, 0xCF, "Raptor Cove", 6, true, 2, "INTEL_EMERALDRAPIDS_X 0xCF: L2" },
	{ CPU_VENDOR_INTEL, 6, 0xAD, "Redwood Cove", 6, true, 2, "INTEL_GRANITERAPIDS_X 0xAD: L2" },
	{ CPU_VENDOR_INTEL, 6, 0x7E, "Sunny Cove", 5, true, 1, "INTEL_ICELAKE_L 0x7E: L1, width 5" },
	{ CPU_VENDOR_INTEL, 6, 0x6A, "Sunny Cove", 5, true, 1, "INTEL_ICELAKE_X 0x6A: L1" },
	{ CPU_VENDOR_INTEL, 6, 0xA7, "Cypress Cove", 5, true, 1, "INTEL_ROCKETLAKE 0xA7: L1" },
	{ CPU_VENDOR_INTEL, 6, 0x8D, "Willow Cove", 5, true, 1, "INTEL_TIGERLAKE 0x8D: L1" },
	{ CPU_VENDOR_INTEL, 6, 0x97, "Golden Cove", 6, true, 2, "INTEL_ALDERLAKE 0x97: P-core L2" },
	{ CPU_VENDOR_INTEL, 6, 0xBF, "Raptor Cove", 6, true, 2, "INTEL_RAPTORLAKE_S 0xBF: P-core L2" },
	{ CPU_VENDOR_INTEL, 6, 0xAC, "Redwood Cove", 6, true, 2, "INTEL_METEORLAKE 0xAC: P-core L2" },
	{ CPU_VENDOR_INTEL, 6, 0xBD, "Lion Cove", 8, true, 2, "INTEL_LUNARLAKE_M 0xBD: width 8" },
	{ CPU_VENDOR_INTEL, 6, 0xCC, "Cougar Cove", 8, true, 2, "INTEL_PANTHERLAKE_L 0xCC: Cougar Cove" },
	{ CPU_VENDOR_INTEL, 6, 0x5E, "Skylake", 4, false, 0, "INTEL_SKYLAKE 0x5E: pre-ICL, width 4" },
	{ CPU_VENDOR_INTEL, 6, 0x2A, "Sandy Bridge", 4, false, 0, "INTEL_SANDYBRIDGE 0x2A: pre-ICL" },
	{ CPU_VENDOR_INTEL, 6, 0x9D, "Sunny Cove", 5, false, 0, "INTEL_ICELAKE_NNPI 0x9D: no PERF_METRICS" },
	{ CPU_VENDOR_INTEL, 6, 0xBE, "Gracemont", 5, false, 0, "INTEL_ATOM_GRACEMONT 0xBE (ADL-N): none" },
	{ CPU_VENDOR_INTEL, 6, 0xAF, "Crestmont", 6, false, 0, "INTEL_ATOM_CRESTMONT_X 0xAF (SRF): none" },
	{ CPU_VENDOR_INTEL, 6, 0xDD, "Darkmont", 8, false, 0, "INTEL_ATOM_DARKMONT_X 0xDD (CWF): none" },
	{ CPU_VENDOR_AMD, 0x19, 0x61, "Zen 4", 6, false, 0, "AMD 19h model 0x61 (Raphael): Zen 4, 6 slots (§7)" },
	{ CPU_VENDOR_AMD, 0x1A, 0x02, "Zen 5", 8, false, 0, "AMD 1Ah model 0x02 (Turin): Zen 5, 8 slots (§7)" },
};

static void test_model_table(void)
{
	const struct cpu_model *m, *t;
	size_t n;
	bool unique = true, sourced = true;

	for (size_t i = 0; i < sizeof(model_cases) / sizeof(model_cases[0]); i++) {
		const struct model_case *c = &model_cases[i];

		m = cpu_model_lookup(c->v, c->family, c->model);
		ok(m && !strcmp(m->uarch, c->uarch) && m->pipeline_width == c->width &&
		   m->fixed_ctr3 == c->fc3 && m->topdown_level == c->level, "%s", c->why);
	}
	m = cpu_model_lookup(CPU_VENDOR_INTEL, 6, 0x9A);
	ok(m && m->hybrid && !strcmp(m->e_uarch, "Gracemont") && m->e_pipeline_width == 5,
	   "INTEL_ALDERLAKE_L 0x9A: Gracemont E-cores, width 5 (§6.3)");
	m = cpu_model_lookup(CPU_VENDOR_INTEL, 6, 0xC6);
	ok(m && m->hybrid && !strcmp(m->e_uarch, "Skymont") && m->e_pipeline_width == 8,
	   "INTEL_ARROWLAKE 0xC6: Skymont E-cores, width 8 (§6.3)");
	ok(cpu_model_lookup(CPU_VENDOR_INTEL, 6, 0xF0) == NULL, "family 6 model 0xF0: not in the table");
	ok(cpu_model_lookup(CPU_VENDOR_AMD, 6, 0x8F) == NULL, "vendor is part of the key");
	t = cpu_model_table(&n);
	for (size_t i = 0; i < n; i++) {
		if (!t[i].source || !t[i].source[0] || !t[i].uarch)
			sourced = false;
		for (size_t j = i + 1; j < n; j++)
			if (t[i].vendor == t[j].vendor && t[i].family == t[j].family && t[i].model == t[j].model)
				unique = false;
	}
	ok(sourced, "every table row names its source and uarch");
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
	char dir[] = "/tmp/baretma-0200-root.XXXXXX", path[512], buf[64];
	FILE *f;

	if (!mkdtemp(dir)) {
		skip(3, "mkdtemp failed");
		return;
	}
	snprintf(path, sizeof(path), "%s/sys", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/sys/rdpmc", dir);
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
	snprintf(path, sizeof(path), "%s/sys", dir);
	rmdir(path);
	rmdir(dir);
}

/* ------------------------------------------------------------ topology */

/* One register set from an hwloc-gather-cpuid "puN" file: lines are
 * "mask eax ebx ecx edx => eax ebx ecx edx" (inputs, then outputs). */
static int pu_cpuid(const char *dir, unsigned pu, unsigned leaf, unsigned sub, uint32_t r[4])
{
	char path[1024], line[256];
	unsigned m, in[4];
	int found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/pu%u", dir, pu);
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
	char dir[1024];
	struct cpu_kind *p = &topo_ci.kinds[0], *e = &topo_ci.kinds[1];
	hwloc_topology_t topo;
	int want = -1;
	uint32_t r[4];

	snprintf(dir, sizeof(dir), "%s/hwloc/Intel-RaptorLake-Corei7-1370P", shared);
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
		test_index(dir);
		test_choose_hybrid(dir);
	}
	return done_testing();
}
