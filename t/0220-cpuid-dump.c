/*
 * t/0220-cpuid-dump.c - baretma's own CPUID dump reader and writer
 * (cpu/cpu_dump.c through cpu_source) on every real dump and by hand.
 *
 * Known answers come from outside the code under test:
 *   - $SHARED_CPUID/INDEX.tsv: dump_format, logical_cpus_in_dump,
 *     max_basic_leaf, leafA_raw_cpu0, leaf7.1_eax8_archperfmonext,
 *     leaf23_present and leaf23_per_core_type (GP and fixed counter bitmaps,
 *     CPUID.23H.1:EAX/EBX, and the events of 23H.3:EAX, per core type of
 *     CPUID.1AH:EAX), parsed at run time;
 *   - libcpuid 0.6.2's own loader, cpuid_deserialize_all_raw_data(), as the
 *     oracle for leaves 0..0x1f and 0x80000000..0x8000001f subleaf 0 of every
 *     CPU of every file it can load.  Its two known misreadings are modelled,
 *     not hidden: it reads "[SL nn]" with sscanf's %i, so [SL 08]..[SL 0F]
 *     become subleaf 0 and, the last one winning, overwrite subleaf 0 (the
 *     XSAVE components of leaf 0xD, the TLB subleaves of leaf 0x18); and it
 *     keeps the last of a leaf repeated without [SL] (old AIDA64 dumps:
 *     the Sandy Bridge i7-2600 file), where baretma keeps the first;
 *   - SDM facts for the old AIDA64 dump (leaf 0xB ECX[7:0] echoes the
 *     subleaf; leaf 4 subleaf 0 of that part is its L1 data cache).
 * The writer is checked by round trips: every real dump and this machine
 * written out (cpu_dump_write_*) and read back, by baretma and by libcpuid.
 * Hand-written dumps are t/0222; which format reads each dump, t/0221.
 */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libcpuid/libcpuid.h>

#include "cpu/cpu.h"
#include "cpu/cpu_dump.h"
#include "t/fixture.h"

#define MAX_DUMPS 256
#define LEAF_EXT 0x80000000u
/* ---------------------------------------------------------------- helpers */

static void quiet_warn(const char *msg)
{
	(void)msg;
}

/* ---------------------------------------------------------- INDEX.tsv */

static struct t_index ix;

static const char *field(const struct t_index_row *r, const char *name)
{
	return t_index_field(&ix, r, name);
}

static const struct t_index_row *index_row(const char *rel)
{
	for (int i = 0; i < ix.nrows; i++)
		if (!strcmp(ix.rows[i].col[0], rel))
			return &ix.rows[i];
	return NULL;
}

static void index_load(const char *dir)
{
	if (!ok(t_index_load(&ix, dir), "INDEX.tsv opens"))
		return;
	ok(ix.nrows > 40, "INDEX.tsv has %d rows", ix.nrows);
}

/* ---------------------------------------------------------------- walk */

static char *dumps[MAX_DUMPS];
static int ndumps;

static bool is_hwloc_dir(const char *path)
{
	char pu0[PATH_MAX];
	struct stat st;

	t_path(pu0, "%s/pu0", path);
	return !stat(pu0, &st) && S_ISREG(st.st_mode);
}

static bool skipped_name(const char *name)
{
	return name[0] == '.' || !strcmp(name, "COPYING") || !strcmp(name, "README.md") ||
	       !strcmp(name, "INDEX.tsv") || !strcmp(name, "hwloc-cpuid-info");
}

/* Every file, and every hwloc-gather-cpuid directory as one dump. */
static void walk(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) != NULL && ndumps < MAX_DUMPS) {
		char path[PATH_MAX];
		struct stat st;

		if (skipped_name(de->d_name))
			continue;
		t_path(path, "%s/%s", dir, de->d_name);
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode) && !is_hwloc_dir(path))
			walk(path);
		else
			dumps[ndumps++] = strdup(path);
	}
	closedir(d);
}

static int path_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ------------------------------------------------------ INDEX answers */

static bool parse_regs(const char *s, uint32_t r[4])
{
	return s && sscanf(s, "%8x-%8x-%8x-%8x", &r[0], &r[1], &r[2], &r[3]) == 4;
}

/* "0x40/000003:gp=3FF,fixed=F,ev3=1DFF 0x20/000003:gp=FF,fixed=77,ev3=1F7F":
 * every CPU's leaf 0x23 matches the group of its CPUID.1AH:EAX. */
static bool check_leaf23_kinds(const struct cpu_source *s, const char *col, char *why, size_t n)
{
	for (unsigned cpu = 0; cpu < cpu_source_ncpus(s); cpu++) {
		uint32_t k[4], want_gp = 0, want_fixed = 0, want_ev = 0;
		char key[32];
		const char *g;

		if (cpu_source_cpuid(s, cpu, 0x1a, 0, k))
			continue;
		snprintf(key, sizeof(key), "0x%02X/%06X:", k[0] >> 24, k[0] & 0xffffff);
		g = strstr(col, key);
		if (!g || sscanf(g + strlen(key), "gp=%x,fixed=%x,ev3=%x", &want_gp, &want_fixed, &want_ev) != 3) {
			snprintf(why, n, "cpu %u: core type %s not in INDEX", cpu, key);
			return false;
		}
		if (t_cpuid_reg(s, cpu, 0x23, 1, 0) != want_gp || t_cpuid_reg(s, cpu, 0x23, 1, 1) != want_fixed ||
		    t_cpuid_reg(s, cpu, 0x23, 3, 0) != want_ev) {
			snprintf(why, n, "cpu %u: 23.1 %x/%x 23.3 %x, want %x/%x %x", cpu,
				 t_cpuid_reg(s, cpu, 0x23, 1, 0), t_cpuid_reg(s, cpu, 0x23, 1, 1), t_cpuid_reg(s, cpu, 0x23, 3, 0),
				 want_gp, want_fixed, want_ev);
			return false;
		}
	}
	return true;
}

static void check_index(const struct cpu_source *s, const struct t_index_row *r, const char *rel)
{
	uint32_t a[4], want[4], max = t_cpuid_reg(s, 0, 0, 0, 0);
	bool pm_ext = !cpu_source_cpuid(s, 0, 7, 1, a) && (a[0] & (1u << 8));
	bool has23 = max >= 0x23 && !cpu_source_cpuid(s, 0, 0x23, 0, a);
	const char *leafA = field(r, "leafA_raw_cpu0"), *l23 = field(r, "leaf23_present");
	char why[160] = "";

	check_str(cpu_source_format(s), field(r, "dump_format"), rel);
	check_u64(cpu_source_ncpus(s), ==, strtoul(field(r, "logical_cpus_in_dump"), NULL, 0),
		  "  logical_cpus_in_dump");
	check_u64(max, ==, strtoul(field(r, "max_basic_leaf"), NULL, 0), "  max_basic_leaf");
	if (parse_regs(leafA, want))
		ok(t_cpuid_eq(s, 0, 0xa, 0, want[0], want[1], want[2], want[3]), "  leafA_raw_cpu0 %s", leafA);
	ok(pm_ext == !strcmp(field(r, "leaf7.1_eax8_archperfmonext"), "yes"),
	   "  leaf 7.1 EAX[8] ArchPerfmonExt %s", pm_ext ? "set" : "clear or absent");
	ok(has23 == !strcmp(l23, "yes"), "  leaf 0x23 present: %s", l23);
	if (has23)
		ok(check_leaf23_kinds(s, field(r, "leaf23_per_core_type(gp_bitmap,fixed_bitmap,subleaf3_events)"),
				       why, sizeof(why)), "  leaf 0x23.1/0x23.3 per core type %s", why);
}

/* ------------------------------------------------------ libcpuid oracle */

/* Old AIDA64 dumps without [SL]: libcpuid keeps the last repeat of a leaf. */
static bool untagged_repeat(const char *rel, uint32_t leaf)
{
	return strstr(rel, "sandy-bridge/intel-core-i7-2600-cpu.test") &&
	       (leaf == 0x4 || leaf == 0xb || leaf == 0xd);
}

/* libcpuid 0.6.2 reads [SL 08]..[SL 0F] as subleaf 0: its row is the last
 * (highest) of them that the dump holds. */
static bool octal_misread(const struct cpu_source *s, unsigned cpu, uint32_t leaf, const uint32_t lib[4])
{
	uint32_t r[4];

	for (uint32_t sub = 15; sub >= 8; sub--)
		if (!cpu_source_cpuid(s, cpu, leaf, sub, r))
			return !memcmp(r, lib, sizeof(r));
	return false;
}

struct oracle_count {
	unsigned compared, octal, repeats, bad;
	char first_bad[160];
};

static void oracle_leaf(const struct cpu_source *s, const char *rel, unsigned cpu, uint32_t leaf,
			const uint32_t lib[4], struct oracle_count *c)
{
	uint32_t ours[4] = { 0 };
	int rc = cpu_source_cpuid(s, cpu, leaf, 0, ours);

	c->compared++;
	if (rc == -ENODATA)
		memset(ours, 0, sizeof(ours));
	if (!memcmp(ours, lib, sizeof(ours)))
		return;
	if (octal_misread(s, cpu, leaf, lib)) {
		c->octal++;
		return;
	}
	if (untagged_repeat(rel, leaf)) {
		c->repeats++;
		return;
	}
	if (!c->bad++)
		snprintf(c->first_bad, sizeof(c->first_bad), "cpu %u leaf 0x%x: ours %08x-%08x-%08x-%08x "
			 "libcpuid %08x-%08x-%08x-%08x", cpu, leaf, ours[0], ours[1], ours[2], ours[3],
			 lib[0], lib[1], lib[2], lib[3]);
}

/* Leaves up to each range's maximum (above it both hold garbage or nothing). */
static void oracle_cpu(const struct cpu_source *s, const char *rel, unsigned cpu,
		       const struct cpu_raw_data_t *raw, struct oracle_count *c)
{
	uint32_t max = t_cpuid_reg(s, cpu, 0, 0, 0), ext = t_cpuid_reg(s, cpu, LEAF_EXT, 0, 0);

	if (ext == 0xdeadbeefu || ext < LEAF_EXT)
		ext = LEAF_EXT;
	for (uint32_t l = 0; l < MAX_CPUID_LEVEL && l <= max; l++)
		oracle_leaf(s, rel, cpu, l, raw->basic_cpuid[l], c);
	for (uint32_t l = 0; l < MAX_EXT_CPUID_LEVEL && LEAF_EXT + l <= ext; l++)
		oracle_leaf(s, rel, cpu, LEAF_EXT + l, raw->ext_cpuid[l], c);
}

/* Returns false when libcpuid cannot load @path (no oracle). */
static bool oracle(const char *path, const char *rel, const struct cpu_source *s)
{
	struct cpu_raw_data_array_t raw = { 0 };
	struct oracle_count c = { 0 };
	libcpuid_warn_fn_t old = cpuid_set_warn_function(quiet_warn);
	int r = cpuid_deserialize_all_raw_data(&raw, path);
	unsigned present = 0;

	cpuid_set_warn_function(old);
	if (r < 0 || raw.num_raw == 0) {
		printf("# %s: libcpuid 0.6.2 cannot load it (no oracle)\n", rel);
		if (raw.raw)
			cpuid_free_raw_data_array(&raw);
		return false;
	}
	check_u64(raw.num_raw, ==, cpu_source_ncpus(s), "  libcpuid sees as many logical CPUs");
	for (unsigned cpu = 0; cpu < cpu_source_ncpus(s) && cpu < (unsigned)raw.num_raw; cpu++) {
		uint32_t r0[4];

		if (cpu_source_cpuid(s, cpu, 0, 0, r0))
			continue; /* a CPU number the dump lacks */
		present++;
		oracle_cpu(s, rel, cpu, &raw.raw[cpu], &c);
	}
	ok(c.bad == 0 && c.compared > 0, "  leaves 0..0x1f, 0x80000000..0x8000001f equal libcpuid's on %u "
	   "CPUs (%u rows; %u libcpuid [SL] misreads, %u untagged repeats) %s", present, c.compared,
	   c.octal, c.repeats, c.first_bad);
	cpuid_free_raw_data_array(&raw);
	return true;
}

/* ----------------------------------------------------------- round trip */

static const char *write_all(const struct cpu_source *s, const char *tag)
{
	const char *p = t_tmp_file(tag);
	FILE *f = fopen(p, "w");
	int err = f ? cpu_dump_write_header(f, "Program Version : t/0220-cpuid-dump round trip\n") : -errno;

	for (unsigned cpu = 0; cpu < cpu_source_ncpus(s) && !err; cpu++) {
		err = cpu_dump_write_cpu(f, s, cpu);
		if (err == -ENXIO) /* a CPU number the source lacks */
			err = 0;
	}
	if (f && fclose(f) && !err)
		err = -errno;
	return err ? NULL : p;
}

/* The records a dump must keep through the writer: those baretma reads. */
static bool key_record(const struct cpu_source *s, unsigned cpu, uint32_t leaf, uint32_t sub)
{
	uint32_t r[4];

	if (leaf == 0 || leaf == 1 || leaf == 0xa || leaf == 0x1a || leaf == LEAF_EXT)
		return sub == 0;
	if (leaf == 7)
		return sub == 0 || (sub == 1 && !cpu_source_cpuid(s, cpu, 7, 0, r) && r[0] >= 1);
	if (leaf == 0x23)
		return sub == 0 || (sub < 32 && !cpu_source_cpuid(s, cpu, 0x23, 0, r) && (r[0] >> sub & 1));
	return false;
}

struct trip_count {
	unsigned same, kept_keys, bad;
	char first_bad[128];
};

static void trip_record(const struct cpu_source *a, const struct cpu_source *b, unsigned cpu,
			uint32_t leaf, uint32_t sub, struct trip_count *c)
{
	uint32_t ra[4], rb[4];
	int ea = cpu_source_cpuid(a, cpu, leaf, sub, ra), eb = cpu_source_cpuid(b, cpu, leaf, sub, rb);
	bool key = ea == 0 && key_record(a, cpu, leaf, sub);

	if (eb == 0 && (ea != 0 || memcmp(ra, rb, sizeof(ra)))) {
		if (!c->bad++)
			snprintf(c->first_bad, sizeof(c->first_bad), "cpu %u 0x%x.%u differs", cpu, leaf, sub);
	} else if (key && eb != 0) {
		if (!c->bad++)
			snprintf(c->first_bad, sizeof(c->first_bad), "cpu %u 0x%x.%u lost", cpu, leaf, sub);
	} else if (eb == 0) {
		c->same++;
		c->kept_keys += key;
	}
}

static void trip_compare(const struct cpu_source *a, const struct cpu_source *b, struct trip_count *c)
{
	static const uint32_t bases[] = { 0, 0x40000000u, LEAF_EXT };

	for (unsigned cpu = 0; cpu < cpu_source_ncpus(a); cpu++) {
		for (size_t i = 0; i < 3; i++) {
			uint32_t max = t_cpuid_reg(a, cpu, bases[i], 0, 0);

			if (max == 0xdeadbeefu || max < bases[i])
				max = bases[i];
			for (uint32_t l = bases[i]; l <= max && l - bases[i] < 0x100; l++)
				for (uint32_t sub = 0; sub < 64; sub++)
					trip_record(a, b, cpu, l, sub, c);
		}
	}
}

/* Written out and read back: every record read back is the original's,
 * and the records baretma reads (0, 1, 7.0, 7.1, 0xA, 0x1A, 0x23.*) are kept. */
static const char *round_trip(const struct cpu_source *s, const char *rel)
{
	const char *p = write_all(s, "0220-trip");
	struct cpu_source *back = p ? cpu_source_dump(p) : NULL;
	struct trip_count c = { 0 };

	if (!ok(back != NULL, "  written (AIDA64 layout) and read back (%s)", back ? "ok" : cpu_source_error()))
		return p;
	check_str(cpu_source_format(back), "aida64", "  written as aida64");
	check_u64(cpu_source_ncpus(back), ==, cpu_source_ncpus(s), "  as many CPUs read back");
	trip_compare(s, back, &c);
	ok(c.bad == 0 && c.same > 0, "  %u records read back equal, %u of them key records %s", c.same,
	   c.kept_keys, c.first_bad);
	cpu_source_free(back);
	(void)rel;
	return p;
}

/* ---------------------------------------------------------- real dumps */

static void test_real_dump(const char *dir, const char *path)
{
	const char *rel = path + strlen(dir) + 1;
	struct cpu_source *s = cpu_source_dump(path);
	const struct t_index_row *r = index_row(rel);
	const char *written;
	struct stat st;

	if (!ok(s && cpu_source_ncpus(s) >= 1, "%s loads (%s, %u CPUs)", rel,
		s ? cpu_source_format(s) : cpu_source_error(), s ? cpu_source_ncpus(s) : 0))
		return;
	ok(cpu_source_is_hwloc_dir(s) == (!stat(path, &st) && S_ISDIR(st.st_mode)),
	   "  hwloc directory: %s", cpu_source_is_hwloc_dir(s) ? "yes" : "no");
	if (r)
		check_index(s, r, rel);
	else
		printf("# %s: no INDEX.tsv row\n", rel);
	if (!cpu_source_is_hwloc_dir(s))
		oracle(path, rel, s);
	written = round_trip(s, rel);
	/* What baretma writes (hwloc directories included), libcpuid reads. */
	if (written) {
		struct cpu_source *back = cpu_source_dump(written);

		if (back)
			oracle(written, "  (written back)", back);
		cpu_source_free(back);
	}
	if (written)
		unlink(written);
	cpu_source_free(s);
}

static void test_real_dumps(const char *dir)
{
	index_load(dir);
	walk(dir);
	qsort(dumps, (size_t)ndumps, sizeof(dumps[0]), path_cmp);
	ok(ndumps >= 60, "%d dumps under $SHARED_CPUID", ndumps);
	for (int i = 0; i < ndumps; i++) {
		test_real_dump(dir, dumps[i]);
		free(dumps[i]);
	}
	t_index_free(&ix);
}

/* Two dumps whose layout needs a decision, values typed from the files. */
static void test_special_dumps(const char *dir)
{
	char path[PATH_MAX];
	struct cpu_source *s;
	uint32_t r[4];

	/* CPU#NNN AffMask: the number is the CPU's (the mask's two halves are
	 * Windows processor groups of 56): CPU#056 is the second socket's first
	 * thread, initial APIC ID 0x80 in CPUID.1:EBX[31:24]. */
	t_path(path, "%s/instlatx64/GenuineIntel/GenuineIntel00606A6_ICX_CPUID2.txt", dir);
	s = cpu_source_dump(path);
	if (ok(s != NULL, "ICX affinity-mask dump loads")) {
		check_u64(t_cpuid_reg(s, 55, 1, 0, 1), ==, 0x37800800, "  CPU#055: leaf 1 EBX 37800800");
		check_u64(t_cpuid_reg(s, 56, 1, 0, 1), ==, 0x80800800, "  CPU#056 (AffMask 1:0) is CPU 56: EBX 80800800");
		check_u64(t_cpuid_reg(s, 111, 1, 0, 1), ==, 0xB7800800, "  CPU#111: EBX B7800800");
		check_int(cpu_source_cpuid(s, 112, 1, 0, r), ==, -ENXIO, "  no CPU 112");
	}
	cpu_source_free(s);
	/* Old AIDA64: leaves 4, 0xB, 0xD repeated without [SL]; the first line
	 * is subleaf 0 (SDM: 0xB ECX[7:0] echoes the subleaf, ECX[15:8] = 1 is
	 * the SMT level; 0xD.0 EAX has XCR0 bits 0 and 1, x87 and SSE). */
	t_path(path, "%s/libcpuid/master-history/intel/x86-64/sandy-bridge/"
		 "intel-core-i7-2600-cpu.test", dir);
	s = cpu_source_dump(path);
	if (ok(s != NULL, "Sandy Bridge dump without [SL] tags loads")) {
		check_u64(t_cpuid_reg(s, 0, 4, 0, 0), ==, 0x1C004121,
			  "  leaf 4: the first line, L1 data (EAX[7:5] 1, [4:0] 1)");
		check_u64(t_cpuid_reg(s, 0, 0xb, 0, 2) & 0xffff, ==, 0x0100,
			  "  leaf 0xB: ECX[7:0] 0 (subleaf 0), SMT level");
		check_u64(t_cpuid_reg(s, 0, 0xd, 0, 0), ==, 0x7, "  leaf 0xD: EAX 7 (x87, SSE, AVX in XCR0)");
		check_int(cpu_source_cpuid(s, 0, 4, 1, r), ==, -ENODATA, "  the repeats cannot be numbered: dropped");
	}
	cpu_source_free(s);
}

/* ------------------------------------------------------------ this machine */

/* The live machine written out (the CPUs this process may run on) and read
 * back by baretma and by libcpuid. */
static void test_live(void)
{
	struct cpu_source *live = cpu_source_live();
	cpu_set_t allowed;
	const char *p = t_tmp_file("0220-live");
	FILE *f = fopen(p, "w");
	int err = f ? cpu_dump_write_header(f, "Program Version : t/0220 live\n") : -errno;
	unsigned n = 0, first = 0;
	struct cpu_source *back;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	for (unsigned cpu = 0; cpu < cpu_source_ncpus(live) && !err; cpu++)
		if (CPU_ISSET(cpu, &allowed) && !(err = cpu_dump_write_cpu(f, live, cpu)))
			first = n++ ? first : cpu;
	if (f)
		fclose(f);
	ok(!err && n > 0, "live machine written: %u CPUs (%s)", n, err ? strerror(-err) : "ok");
	back = cpu_source_dump(p);
	if (ok(back != NULL, "live dump reads back (%s)", back ? cpu_source_format(back) : cpu_source_error())) {
		struct trip_count c = { 0 };
		uint32_t a[4] = { 0 }, b[4] = { 0 };
		/* the first CPU written: one this process may run on (under
		 * `taskset -c 1` CPU 0 is neither in the dump nor readable);
		 * read before ok(), whose arguments are evaluated in any order */
		bool read = !cpu_source_cpuid(live, first, 1, 0, a) &&
			    !cpu_source_cpuid(back, first, 1, 0, b);

		ok(read && a[0] == b[0], "live leaf 1 EAX (family/model/stepping) of cpu %u read "
		   "back: 0x%08x (live 0x%08x)", first, b[0], a[0]);
		/* Read back = what the machine says (the APIC ID fields may
		 * differ between two reads only across CPUs, not here). */
		for (unsigned cpu = 0; cpu < cpu_source_ncpus(back); cpu++)
			for (uint32_t l = 0; l <= t_cpuid_reg(back, cpu, 0, 0, 0) && l < 0x100; l++)
				if (!cpu_source_cpuid(back, cpu, l, 0, b) && CPU_ISSET(cpu, &allowed)) {
					c.same++;
					if (cpu_source_cpuid(live, cpu, l, 0, a) || memcmp(a, b, sizeof(a)))
						c.bad++;
				}
		ok(c.bad == 0, "live basic leaves read back equal the machine's (%u compared)", c.same);
		oracle(p, "live dump", back);
	}
	cpu_source_free(back);
	cpu_source_free(live);
	unlink(p);
}
int main(void)
{
	const char *dir = getenv("SHARED_CPUID");
	struct stat st;

	test_live();
	if (!dir || stat(dir, &st) || !S_ISDIR(st.st_mode))
		skip(1, "no $SHARED_CPUID directory: real dumps not checked");
	else {
		test_special_dumps(dir);
		test_real_dumps(dir);
	}
	return done_testing();
}
