/*
 * t/0230-cpu-topo.c - hwloc topologies built from hwloc-gather-cpuid dumps
 * (cpu_topo_load_dump), the cross-check of core kinds against hwloc's CPU
 * kinds (cpu_topo_check_kinds), CPU choice in a dump topology, the E-core
 * check, and that a dump topology is never bound to.
 *
 * Known answers come from outside the code under test:
 *   - logical CPUs: $SHARED_CPUID/INDEX.tsv column logical_cpus_in_dump
 *     (a dump without a row: its puN files, counted here);
 *   - core kinds: each puN file's CPUID leaf 0x1A line, read here
 *     ("mask 1a 0 0 0 => eax ebx ecx edx"; EAX[31:24] 0x40 = Core,
 *     0x20 = Atom, EAX[23:0] native model: linux intel-family.h INTEL_CPU_TYPE_ATOM/CORE); the
 *     Top-down level of the Core (or only) kind from INDEX.tsv
 *     expect_topdown_levels (2 on Raptor Lake-P and Sapphire Rapids; Arrow
 *     Lake-U 0xB5 takes Meteor Lake's path in linux intel_pmu_init; AMD 0:
 *     no PERF_METRICS, arch/x86/events/amd/core.c), 0 on Atom kinds (no
 *     intel_pmu_init case gives cpu_atom PERF_METRICS);
 *   - packages and cores: the products' specifications, named by the dump
 *     directories: 2 x Xeon Max 9460 (40 cores each), 2 x EPYC 9654 (96
 *     cores each), Core i7-1370P (6 P + 8 E cores), Core Ultra 5 225U
 *     (2 P + 8 E + 2 LP E cores, 14 threads).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "cpu/cpu_topo.h"
#include "t/fixture.h"

static char shared[PATH_MAX];
static struct cpu_info hand, alt; /* large: kept off the stack */

struct dump {
	const char *dir;      /* under $SHARED_CPUID/hwloc */
	int packages, cores;  /* product specification */
	int level;            /* Top-down level of the Core (or only) kind */
};

static const struct dump dumps[] = {
	{ "Intel-RaptorLake-Corei7-1370P", 1, 14, 2 },
	{ "Intel-ArrowLake-CoreUltra5-225U", 1, 12, 2 },
	{ "Intel-SapphireRapids-2xXeonMax9460", 2, 80, 2 },
	{ "AMD-19h-Zen4-2xEpyc-9654", 2, 192, 0 },
};

static void dump_path(char *buf, size_t n, const struct dump *d)
{
	t_path_(buf, n, "%s/hwloc/%s", shared, d->dir);
}

/* cpu_topo_load_dump(@path) and cpu_topo_load_for(@src) under the
 * environment the command line sets for a dump directory (hwloc takes the
 * directory from its environment only; the library never writes it). */
static int load_dump(const char *path, hwloc_topology_t *topo)
{
	struct t_env saved[CPU_TOPO_DUMP_ENV_MAX];
	size_t n = t_hwloc_dump_env(saved, path);
	int rc = cpu_topo_load_dump(path, topo);

	t_hwloc_dump_env_put_back(saved, n);
	return rc;
}

static int load_for(const struct cpu_source *src, hwloc_topology_t *topo)
{
	struct t_env saved[CPU_TOPO_DUMP_ENV_MAX];
	size_t n = t_hwloc_dump_env(saved, cpu_source_name(src));
	int rc = cpu_topo_load_for(src, topo);

	t_hwloc_dump_env_put_back(saved, n);
	return rc;
}

/* ----------------------------------------------------- outside answers */

/* Tab-separated field @idx of @line (empty fields kept), or NULL. */
static char *field(char *line, int idx)
{
	char *p = line, *tok = NULL;

	line[strcspn(line, "\r\n")] = '\0';
	for (int i = 0; i <= idx && p; i++)
		tok = strsep(&p, "\t");
	return tok;
}

/* INDEX.tsv logical_cpus_in_dump of "hwloc/<dir>", or -1 without a row. */
static int index_cpus(const char *dir)
{
	char path[PATH_MAX], line[8192], row[8192], want[512];
	int col = -1, n = -1;
	FILE *f;

	t_path(path, "%s/INDEX.tsv", shared);
	snprintf(want, sizeof(want), "hwloc/%s", dir);
	if (!(f = fopen(path, "r")))
		return -1;
	for (int i = 0; col < 0 && fgets(line, sizeof(line), f); ) {
		for (char *tok = NULL; (tok = field(strcpy(row, line), i)); i++)
			if (!strcmp(tok, "logical_cpus_in_dump")) {
				col = i;
				break;
			}
	}
	while (col >= 0 && n < 0 && fgets(line, sizeof(line), f)) {
		char *name = field(strcpy(row, line), 0), *v;

		if (name && !strcmp(name, want) && (v = field(strcpy(row, line), col)))
			n = atoi(v);
	}
	fclose(f);
	return n;
}

/* CPUID.1AH:EAX of @cpu read from the dump's pu<cpu> file; -1 if none. */
static long long leaf1a_eax(const char *dir, unsigned cpu)
{
	char path[PATH_MAX], line[256];
	unsigned mask, in[4], out[4];
	long long eax = -1;
	FILE *f;

	t_path(path, "%s/pu%u", dir, cpu);
	if (!(f = fopen(path, "r")))
		return -1;
	while (eax < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%x %x %x %x %x => %x %x %x %x", &mask, &in[0], &in[1], &in[2],
			   &in[3], &out[0], &out[1], &out[2], &out[3]) == 9 &&
		    in[0] == 0x1a && in[2] == 0)
			eax = out[0];
	fclose(f);
	return eax;
}

/* puN files in @dir. */
static unsigned count_pus(const char *dir)
{
	char path[PATH_MAX];
	unsigned n = 0;
	struct stat st;

	for (;; n++) {
		t_path(path, "%s/pu%u", dir, n);
		if (stat(path, &st))
			return n;
	}
}

/*
 * @ci as CPUID leaf 0x1A of the dump says, built here without
 * cpu_info_identify: one kind per distinct EAX (Core kinds first), or one
 * "general" kind when every EAX is 0 (not hybrid).
 */
static void build_kinds(const char *dir, unsigned ncpus, int level, struct cpu_info *ci)
{
	memset(ci, 0, sizeof(*ci));
	ci->ncpus = ncpus;
	for (unsigned c = 0; c < ncpus; c++) {
		long long eax = leaf1a_eax(dir, c);
		uint32_t v = eax < 0 ? 0 : (uint32_t)eax;
		unsigned k;

		for (k = 0; k < ci->nkinds; k++)
			if (((uint32_t)ci->kinds[k].core_type << 24 | ci->kinds[k].native_model) == v)
				break;
		if (k == ci->nkinds && k == CPU_MAX_KINDS)
			continue;
		if (k == ci->nkinds) {
			ci->nkinds++;
			ci->kinds[k].core_type = (uint8_t)(v >> 24);
			ci->kinds[k].native_model = v & 0xffffff;
			ci->kinds[k].topdown_level = (v >> 24) == 0x20 ? 0 : level;
			snprintf(ci->kinds[k].kind, sizeof(ci->kinds[k].kind), "%s",
				 (v >> 24) == 0x40 ? "performance" : (v >> 24) == 0x20 ?
				 "efficiency" : "general");
		}
		ci->kinds[k].cpus[ci->kinds[k].ncpus++] = c;
	}
	ci->hybrid = ci->nkinds > 1 || (ci->nkinds == 1 && ci->kinds[0].core_type);
}

/* The last CPU whose leaf 0x1A core type is 0x40 (Core), or the last CPU
 * when there is none (not hybrid); *ncore gets the count of Core CPUs. */
static int last_core(const struct cpu_info *ci, unsigned *ncore, int *first_atom)
{
	int last = (int)ci->ncpus - 1, lastcore = -1;

	*ncore = 0;
	*first_atom = -1;
	for (unsigned k = 0; k < ci->nkinds; k++)
		for (unsigned j = 0; j < ci->kinds[k].ncpus; j++) {
			unsigned c = ci->kinds[k].cpus[j];

			if (ci->kinds[k].core_type == 0x40) {
				(*ncore)++;
				if ((int)c > lastcore)
					lastcore = (int)c;
			} else if (ci->kinds[k].core_type == 0x20 &&
				   (*first_atom < 0 || (int)c < *first_atom)) {
				*first_atom = (int)c;
			}
		}
	return lastcore >= 0 ? lastcore : last;
}

/* ------------------------------------------------------------- checks */

/* The current thread's affinity as a string, to see it unchanged. */
static void affinity(char *buf, size_t n)
{
	cpu_set_t set;
	size_t o = 0;

	buf[0] = '\0';
	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	for (int c = 0; c < CPU_SETSIZE && o + 8 < n; c++)
		if (CPU_ISSET(c, &set))
			o += (size_t)snprintf(buf + o, n - o, "%d,", c);
}

static void check_shape(const struct dump *d, hwloc_topology_t topo, const char *path)
{
	int want = index_cpus(d->dir);

	if (want < 0)
		want = (int)count_pus(path);
	ok(cpu_topo_is_dump(topo) && !hwloc_topology_is_thissystem(topo),
	   "%s: the topology is not this system", d->dir);
	check_int(hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU), ==, want,
		  "PUs = logical CPUs of the dump");
	check_int(hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE), ==, d->packages,
		  "packages = the product's sockets");
	check_int(hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE), ==, d->cores,
		  "cores = the product's cores");
}

static void check_choice(const struct dump *d, hwloc_topology_t topo)
{
	char before[4096], after[4096], *why = NULL;
	unsigned ncore, td[CPU_MAX_CPUS];
	int atom, want = last_core(&hand, &ncore, &atom), cpu;
	bool mem = true;

	check_int(cpu_topo_check_kinds(topo, &hand, &why), ==, 0,
		  "kinds from leaf 0x1A agree with hwloc's CPU kinds");
	ok(why == NULL, "no note when they agree exactly");
	free(why);
	cpu = cpu_choose(topo, &hand, -1);
	check_int(cpu, ==, want, ncore ? "default choice: the last P-core (leaf 0x1A type 0x40)"
				       : "default choice: the last CPU (one kind)");
	check_int(cpu_choose(topo, &hand, (int)hand.ncpus - 1), ==, (int)hand.ncpus - 1,
		  "--cpu of the dump's last CPU exists in the dump topology");
	check_int(cpu_choose(topo, &hand, (int)hand.ncpus), ==, -ENXIO,
		  "a CPU past the dump: -ENXIO");
	affinity(before, sizeof(before));
	check_int(cpu_pin_self(topo, (unsigned)cpu, &mem), ==, -EXDEV,
		  "pinning to a dump topology's CPU is refused (-EXDEV)");
	affinity(after, sizeof(after));
	ok(!strcmp(before, after) && !mem, "and the thread's affinity is unchanged (%s)", after);
	check_int(cpu_topdown_cpus(&hand, td, CPU_MAX_CPUS), ==, d->level ? (ncore ? ncore :
		  hand.ncpus) : 0, "CPUs that can measure Top-down: the Core kind's (one kind: all, or none on AMD)");
	if (atom >= 0) {
		check_int(cpu_topdown_check_cpu(&hand, (unsigned)atom, NULL), ==, -EOPNOTSUPP,
			  "the first Atom CPU is refused for Top-down (-EOPNOTSUPP)");
		check_int(cpu_topdown_check_cpu(&hand, (unsigned)want, NULL), ==, 0,
			  "the chosen P-core is fine");
	} else {
		check_int(cpu_topdown_check_cpu(&hand, 0, NULL), ==, 0,
			  "one kind: any CPU is as good as the others");
	}
	check_int(cpu_topdown_check_cpu(&hand, hand.ncpus, NULL), ==, -ENXIO,
		  "a CPU in no kind: -ENXIO");
}

/* Kinds that do not match hwloc's must be reported, not accepted. */
static void check_mismatch(hwloc_topology_t topo)
{
	char *why = NULL;
	unsigned ncore;
	int atom;

	last_core(&hand, &ncore, &atom);
	if (atom < 0) {
		/* Not hybrid: claiming two kinds contradicts hwloc's none/one. */
		alt = hand;
		alt.nkinds = 2;
		alt.kinds[1] = alt.kinds[0];
		alt.kinds[0].ncpus = 1; /* cpu 0 alone, the rest in kinds[1] */
		memmove(&alt.kinds[1].cpus[0], &alt.kinds[1].cpus[1],
			(alt.kinds[1].ncpus - 1) * sizeof(unsigned));
		alt.kinds[1].ncpus--;
		check_int(cpu_topo_check_kinds(topo, &alt, &why), ==, -EPROTO,
			  "two made-up kinds on a one-kind part: -EPROTO");
		ok(why && strlen(why) > 0, "with a reason: %s", why ? why : "(none)");
		free(why);
		return;
	}
	/* The first Atom CPU moved into the Core kind (kinds[0]: Core first). */
	alt = hand;
	alt.kinds[0].cpus[alt.kinds[0].ncpus++] = (unsigned)atom;
	for (unsigned k = 1; k < alt.nkinds; k++)
		for (unsigned j = 0; j < alt.kinds[k].ncpus; j++)
			if (alt.kinds[k].cpus[j] == (unsigned)atom) {
				memmove(&alt.kinds[k].cpus[j], &alt.kinds[k].cpus[j + 1],
					(alt.kinds[k].ncpus - j - 1) * sizeof(unsigned));
				alt.kinds[k].ncpus--;
			}
	check_int(cpu_topo_check_kinds(topo, &alt, &why), ==, -EPROTO,
		  "an Atom CPU claimed as Core: -EPROTO");
	ok(why && strstr(why, "IntelAtom") != NULL, "the reason names hwloc's IntelAtom kind: %s",
	   why ? why : "(none)");
	/* One "general" kind over a hybrid dump. */
	alt = hand;
	alt.nkinds = 1;
	alt.kinds[0].core_type = 0;
	snprintf(alt.kinds[0].kind, sizeof(alt.kinds[0].kind), "general");
	alt.kinds[0].ncpus = 0;
	for (unsigned c = 0; c < hand.ncpus; c++)
		alt.kinds[0].cpus[alt.kinds[0].ncpus++] = c;
	check_int(cpu_topo_check_kinds(topo, &alt, &why), ==, -EPROTO,
		  "one kind over a hybrid dump: -EPROTO");
	ok(why && strlen(why) > 0, "with a reason: %s", why ? why : "(none)");
	free(why);
}

/* hwloc splitting a kind further (favoured cores) is agreement with a note. */
static void check_split(hwloc_topology_t topo)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	struct hwloc_info_s info = { (char *)"FrequencyMaxMHz", (char *)"5200" };
	char *why = NULL;
	unsigned ncore;
	int atom, last = last_core(&hand, &ncore, &atom);

	hwloc_bitmap_set(set, (unsigned)last);
	ok(set && hwloc_cpukinds_register(topo, set, -1, 1, &info, 0) == 0,
	   "hwloc: cpu %d registered as a kind of its own (favoured core)", last);
	hwloc_bitmap_free(set);
	check_int(cpu_topo_check_kinds(topo, &hand, &why), ==, 0,
		  "hwloc splitting a kind is still agreement");
	ok(why && strstr(why, "splits") != NULL, "with a note: %s", why ? why : "(none)");
	free(why);
}

/*
 * Two Atom kinds of one core type (ARL-H: Skymont E-cores, native model 3,
 * and Crestmont LP E-cores, 2; INDEX.tsv row intel-core-ultra-9-285h) are
 * one IntelAtom kind to hwloc: agreement, with a note.  Simulated on this
 * dump by moving its last Atom CPU to a second Atom kind.
 */
static void check_two_atom_kinds(hwloc_topology_t topo)
{
	struct cpu_kind *e, *lp;
	char *why = NULL;

	alt = hand;
	e = &alt.kinds[alt.nkinds - 1];
	if (alt.nkinds >= CPU_MAX_KINDS || e->core_type != 0x20 || e->ncpus < 2) {
		skip(2, "no Atom kind to split");
		return;
	}
	lp = &alt.kinds[alt.nkinds++];
	*lp = *e;
	snprintf(lp->kind, sizeof(lp->kind), "lowpower");
	lp->native_model = e->native_model + 1;
	lp->cpus[0] = e->cpus[--e->ncpus];
	lp->ncpus = 1;
	check_int(cpu_topo_check_kinds(topo, &alt, &why), ==, 0,
		  "two Atom kinds (different native models) against one IntelAtom kind: agreement");
	ok(why && strstr(why, "one kind for the efficiency+lowpower kinds") != NULL,
	   "with a note: %s", why ? why : "(none)");
	free(why);
}

/* Once cpu_source_dump() loads hwloc directories: the same through
 * cpu_info_identify and cpu_topo_load_for. */
static void check_identified(const struct dump *d, const char *path)
{
	struct cpu_source *src = cpu_source_dump(path);
	hwloc_topology_t topo;
	char *why = NULL;

	if (!src) {
		skip(4, "cpu_source_dump() does not load hwloc directories (yet)");
		return;
	}
	ok(cpu_info_identify(src, NULL, &alt) == 0, "%s: identified from the directory", d->dir);
	check_int(alt.nkinds, ==, hand.nkinds, "as many kinds as leaf 0x1A says");
	if (load_for(src, &topo) == 0) {
		ok(cpu_topo_is_dump(topo), "cpu_topo_load_for: the dump's own topology");
		check_int(cpu_topo_check_kinds(topo, &alt, &why), ==, 0,
			  "identified kinds agree with hwloc's");
		free(why);
		hwloc_topology_destroy(topo);
	} else {
		ok(0, "cpu_topo_load_for the directory");
		skip(1, "no topology");
	}
	cpu_source_free(src);
}

static void one_dump(const struct dump *d)
{
	char path[PATH_MAX];
	hwloc_topology_t topo;
	struct stat st;

	dump_path(path, sizeof(path), d);
	if (stat(path, &st)) {
		skip(1, d->dir);
		return;
	}
	build_kinds(path, count_pus(path), d->level, &hand);
	if (!ok(load_dump(path, &topo) == 0, "%s: loaded", d->dir))
		return;
	check_shape(d, topo, path);
	check_choice(d, topo);
	check_mismatch(topo);
	if (hand.nkinds > 1) {
		check_two_atom_kinds(topo);
		check_split(topo);
	}
	hwloc_topology_destroy(topo);
	check_identified(d, path);
}

/* ------------------------------------------------------ bad input, env */

/* Run cpu_topo_load_dump(@dir) with stderr captured: library code never
 * prints, and hwloc must not get to complain either. */
static int load_quiet(const char *dir, long *printed)
{
	char path[] = "/tmp/baretma-0220-err.XXXXXX";
	int fd = mkstemp(path), saved = dup(2), rc;
	hwloc_topology_t topo;
	struct stat st;

	fflush(stderr);
	dup2(fd, 2);
	rc = cpu_topo_load_dump(dir, &topo);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	*printed = fstat(fd, &st) ? -1 : (long)st.st_size;
	close(fd);
	unlink(path);
	if (!rc)
		hwloc_topology_destroy(topo);
	return rc;
}

static void check_bad_input(void)
{
	char dir[] = "/tmp/baretma-0220.XXXXXX", p[PATH_MAX];
	long printed;

	if (!mkdtemp(dir)) {
		skip(10, "mkdtemp");
		return;
	}
	t_path(p, "%s/none", dir);
	check_int(load_quiet(p, &printed), ==, -ENOENT, "missing directory: -ENOENT");
	check_int(load_quiet(dir, &printed), ==, -EINVAL, "no hwloc-cpuid-info: -EINVAL");
	check_int(printed, ==, 0, "nothing printed");
	t_path(p, "%s/hwloc-cpuid-info", dir);
	put_file(p, "Architecture: x86\n");
	check_int(load_quiet(dir, &printed), ==, -EINVAL, "no puN file: -EINVAL");
	t_path(p, "%s/pu0", dir);
	put_file(p, "# mask e[abcd]x => e[abcd]x\n");
	t_path(p, "%s/pu2", dir);
	put_file(p, "# mask e[abcd]x => e[abcd]x\n");
	check_int(load_quiet(dir, &printed), ==, -EINVAL, "pu0, pu2 (not contiguous): -EINVAL");
	check_int(printed, ==, 0, "nothing printed (hwloc would have complained)");
	t_path(p, "%s/hwloc-cpuid-info", dir);
	put_file(p, "Architecture: arm\n");
	check_int(load_quiet(dir, &printed), ==, -EINVAL, "not x86: -EINVAL");
	check_int(load_quiet(p, &printed), ==, -ENOTDIR, "a file, not a directory: -ENOTDIR");
	t_path(p, "rm -rf '%s'", dir);
	ok(system(p) == 0, "scratch directory removed");
	check_int(printed, ==, 0, "nothing printed");
}

/* The library reads hwloc's environment and never writes it: a dump
 * directory loads only under cpu_topo_dump_env's environment, which the
 * caller sets (and puts back). */
static void check_env_read_only(void)
{
	struct t_env saved[CPU_TOPO_DUMP_ENV_MAX], sys;
	char path[PATH_MAX];
	hwloc_topology_t topo;
	size_t n;

	dump_path(path, sizeof(path), &dumps[0]);
	setenv("HWLOC_COMPONENTS", "sentinel-value", 1);
	unsetenv("HWLOC_CPUID_PATH");
	check_int(cpu_topo_load_dump(path, &topo), ==, -EINVAL,
		  "environment not set for the directory: -EINVAL (hwloc would read this machine)");
	check_str(getenv("HWLOC_COMPONENTS"), "sentinel-value", "HWLOC_COMPONENTS left as it was");
	ok(getenv("HWLOC_CPUID_PATH") == NULL, "HWLOC_CPUID_PATH left unset");
	n = t_hwloc_dump_env(saved, path);
	t_env_set(&sys, "HWLOC_THISSYSTEM", "1"); /* would make the dump look bindable */
	check_int(cpu_topo_load_dump(path, &topo), ==, -EINVAL,
		  "HWLOC_THISSYSTEM=1 beside the dump's environment: -EINVAL");
	check_str(getenv("HWLOC_THISSYSTEM"), "1", "HWLOC_THISSYSTEM left as it was");
	t_env_put_back(&sys);
	if (ok(cpu_topo_load_dump(path, &topo) == 0, "loaded under the dump's environment")) {
		ok(!hwloc_topology_is_thissystem(topo), "not this system");
		hwloc_topology_destroy(topo);
	} else {
		skip(1, "not loaded");
	}
	check_str(getenv("HWLOC_CPUID_PATH"), path, "HWLOC_CPUID_PATH left as the caller set it");
	check_str(getenv("HWLOC_COMPONENTS"), "x86,stop", "HWLOC_COMPONENTS left as the caller set it");
	t_hwloc_dump_env_put_back(saved, n);
	check_str(getenv("HWLOC_COMPONENTS"), "sentinel-value", "the caller put its own back");
	unsetenv("HWLOC_COMPONENTS");
}

/* A single-file dump has no topology: this machine's is used. */
static void check_file_source(void)
{
	char path[PATH_MAX];
	struct cpu_source *src;
	hwloc_topology_t topo;

	t_path(path, "%s/libcpuid/v0.6.2/intel/core_12th_gen/alder-lake-p-i7.test",
		 shared);
	src = cpu_source_dump(path);
	if (!src) {
		skip(2, "no Alder Lake-P libcpuid dump");
		return;
	}
	ok(cpu_topo_load_for(src, &topo) == 0, "cpu_topo_load_for a libcpuid dump file");
	ok(!cpu_topo_is_dump(topo), "gets this machine's topology");
	hwloc_topology_destroy(topo);
	cpu_source_free(src);
}

int main(void)
{
	const char *s = getenv("SHARED_CPUID");
	char probe[PATH_MAX];
	struct stat st;

	t_path(shared, "%s", s ? s : BARETMA_SRCDIR "/../shared/cpuid");
	t_path(probe, "%s/hwloc/%s", shared, dumps[0].dir);
	if (stat(probe, &st))
		skip_all("no ../shared/cpuid/hwloc dumps");
	unsetenv("HWLOC_CPUID_PATH");
	unsetenv("HWLOC_COMPONENTS");
	for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++)
		one_dump(&dumps[i]);
	check_bad_input();
	check_env_read_only();
	check_file_source();
	return done_testing();
}
