/*
 * t/0232-cpu-kinds-disagree.c - which source decides the CPU measured on
 * when hwloc's CPU kinds disagree with CPUID leaf 0x1A: leaf 0x1A, read for
 * each CPU, names its core type (linux intel-family.h INTEL_CPU_TYPE_*) and so whether it has
 * IA32_PERF_METRICS (E-cores never do: linux intel_pmu_init); hwloc's kinds only
 * narrow the choice among the P-cores (cpu_choose), and every disagreement
 * is reported (cpu_topo_check_kinds: -EPROTO and its text, which bench
 * prints as its kinds warning).  Agreement and hwloc knowing no kinds at
 * all (an old kernel or hwloc) give no warning.
 *
 * The topologies are real ones: hwloc's x86 backend reads a
 * hwloc-gather-cpuid directory (cpu_topo_load_dump), hwloc exports it as
 * XML, its <cpukind> elements are replaced here, and hwloc loads it back.
 * Known answers come from outside the code under test:
 *   - which CPUs are P-cores: each puN file's leaf 0x1A line ("mask 1a 0 0
 *     0 => eax ..."; EAX[31:24] 0x40 = Core, 0x20 = Atom, intel-family.h), read here
 *     and checked against $SHARED_CPUID/INDEX.tsv (logical_cpus_in_dump,
 *     dump_leaf1A_core_types: "0x20/000001 x8,0x40/000001 x12" for the
 *     Raptor Lake-P i7-1370P; the Arrow Lake-U 225U directory has no row);
 *   - hwloc's semantics (hwloc_cpukinds_get_info, hwloc's XML format): a
 *     kind's efficiency is a rank, 0 the most energy-efficient, higher more
 *     performant, -1 when hwloc cannot rank; "forced_efficiency" sets it;
 *     the CoreType info is IntelCore or IntelAtom; without <cpukind>
 *     hwloc_cpukinds_get_nr() is 0.  Each topology's kinds are read back
 *     from hwloc before they are used.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/session.h"
#include "cpu/cpu.h"
#include "cpu/machine.h"
#include "t/fixture.h"

static char shared[PATH_MAX];
static struct cpu_info ci; /* large: kept off the stack */

struct dump {
	const char *dir;     /* under $SHARED_CPUID/hwloc */
	hwloc_bitmap_t p, e; /* CPUs of leaf 0x1A core type 0x40 / 0x20 */
	unsigned ncpus;
	char *xml;           /* the dump's topology as hwloc exports it */
	char plist[64], elist[64];
};

/* A test name from a format: one of 4 static buffers, reused in turn. */
static __attribute__((format(printf, 1, 2))) const char *nm(const char *fmt, ...)
{
	static char buf[4][512];
	static int i;
	va_list ap;

	i = (i + 1) % 4;
	va_start(ap, fmt);
	vsnprintf(buf[i], sizeof(buf[i]), fmt, ap);
	va_end(ap);
	return buf[i];
}

/* ----------------------------------------------------- outside answers */

/* CPUID.1AH:EAX of the dump's pu<cpu> file; -1 when there is no such file. */
static long long leaf1a_eax(const char *dir, unsigned cpu)
{
	char path[PATH_MAX], line[256];
	unsigned mask, in[4], out[4];
	long long eax = -1;
	FILE *f;

	t_path(path, "%s/pu%u", dir, cpu);
	if (!(f = fopen(path, "r")))
		return -1;
	eax = 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%x %x %x %x %x => %x %x %x %x", &mask, &in[0], &in[1], &in[2],
			   &in[3], &out[0], &out[1], &out[2], &out[3]) == 9 &&
		    in[0] == 0x1a && in[2] == 0)
			eax = out[0];
	fclose(f);
	return eax;
}

/* INDEX.tsv's "logical_cpus_in_dump|dump_leaf1A_core_types" (columns 11
 * and 17) of "hwloc/@dir" into @buf; "" without a row. */
static void index_row(const char *dir, char *buf, size_t n)
{
	char path[PATH_MAX], line[8192], want[512];
	FILE *f;

	buf[0] = '\0';
	t_path(path, "%s/INDEX.tsv", shared);
	snprintf(want, sizeof(want), "hwloc/%s", dir);
	if (!(f = fopen(path, "r")))
		return;
	while (!buf[0] && fgets(line, sizeof(line), f)) {
		char *p = line, *tok = strsep(&p, "\t"), *cpus = NULL;

		if (strcmp(tok, want))
			continue;
		for (int i = 1; i <= 16 && p; i++) {
			tok = strsep(&p, "\t");
			if (i == 10)
				cpus = tok;
		}
		if (cpus && tok)
			snprintf(buf, n, "%s|%s", cpus, tok);
	}
	fclose(f);
}

/* The CPUs of each core type from the pu files, checked against INDEX.tsv. */
static bool read_dump(struct dump *d, const char *path)
{
	char want[128], got[128];
	long long eax;

	d->p = hwloc_bitmap_alloc();
	d->e = hwloc_bitmap_alloc();
	for (d->ncpus = 0; (eax = leaf1a_eax(path, d->ncpus)) >= 0; d->ncpus++)
		hwloc_bitmap_set((eax >> 24) == 0x40 ? d->p : d->e, d->ncpus);
	hwloc_bitmap_list_snprintf(d->plist, sizeof(d->plist), d->p);
	hwloc_bitmap_list_snprintf(d->elist, sizeof(d->elist), d->e);
	index_row(d->dir, want, sizeof(want));
	snprintf(got, sizeof(got), "%u|0x20/000001 x%d,0x40/000001 x%d", d->ncpus,
		 hwloc_bitmap_weight(d->e), hwloc_bitmap_weight(d->p));
	if (want[0])
		check_str(got, want, nm("%s: leaf 0x1A of each puN agrees with INDEX.tsv", d->dir));
	else
		ok(hwloc_bitmap_weight(d->p) > 0 && hwloc_bitmap_weight(d->e) > 0,
		   "%s: no INDEX.tsv row; leaf 0x1A of its %u puN files: P %s, E %s", d->dir,
		   d->ncpus, d->plist, d->elist);
	return hwloc_bitmap_weight(d->p) > 0 && hwloc_bitmap_weight(d->e) > 0;
}

/* ------------------------------------------------------------ topologies */

/* The dump's topology as hwloc's x86 backend builds it, exported as XML. */
static bool export_dump(struct dump *d, const char *path)
{
	struct t_env saved[CPU_TOPO_DUMP_ENV_MAX];
	size_t n = t_hwloc_dump_env(saved, path);
	hwloc_topology_t topo;
	char *buf;
	int len, rc = cpu_topo_load_dump(path, &topo);

	t_hwloc_dump_env_put_back(saved, n);
	if (rc)
		return false;
	rc = hwloc_topology_export_xmlbuffer(topo, &buf, &len, 0);
	if (!rc) {
		d->xml = strdup(buf);
		hwloc_free_xmlbuffer(topo, buf);
	}
	hwloc_topology_destroy(topo);
	return !rc && d->xml && strstr(d->xml, "</topology>");
}

/* One <cpukind> of @set: efficiency @eff (-1: none forced), CoreType @ct
 * (NULL: none), appended to @xml. */
static void add_kind(char *xml, size_t n, hwloc_const_bitmap_t set, int eff, const char *ct)
{
	char cpuset[128], e[48] = "";
	size_t used = strlen(xml);

	hwloc_bitmap_snprintf(cpuset, sizeof(cpuset), set);
	if (eff >= 0)
		snprintf(e, sizeof(e), " forced_efficiency=\"%d\"", eff);
	if (ct)
		snprintf(xml + used, n - used, "  <cpukind cpuset=\"%s\"%s>\n    <info name=\"CoreType\" "
			 "value=\"%s\"/>\n  </cpukind>\n", cpuset, e, ct);
	else
		snprintf(xml + used, n - used, "  <cpukind cpuset=\"%s\"%s/>\n", cpuset, e);
}

/* The dump's topology with hwloc's CPU kinds replaced by @kinds. */
static hwloc_topology_t topo_with(const struct dump *d, const char *kinds)
{
	const char *first = strstr(d->xml, "  <cpukind"), *end = strstr(d->xml, "</topology>");
	size_t n = strlen(d->xml) + strlen(kinds) + 1;
	char *xml = malloc(n);
	hwloc_topology_t topo = NULL;

	if (!first || first > end)
		first = end;
	snprintf(xml, n, "%.*s%s%s", (int)(first - d->xml), d->xml, kinds, end);
	if (hwloc_topology_init(&topo) ||
	    hwloc_topology_set_xmlbuffer(topo, xml, (int)strlen(xml) + 1) ||
	    hwloc_topology_load(topo)) {
		printf("Bail out! hwloc cannot load the edited XML of %s\n", d->dir);
		exit(1);
	}
	free(xml);
	return topo;
}

/* hwloc's efficiency of the kind holding @cpu (-2: in no kind), read back. */
static int hwloc_eff_of(hwloc_topology_t topo, unsigned cpu)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	int nr = hwloc_cpukinds_get_nr(topo, 0), found = -2;

	hwloc_bitmap_set(set, cpu);
	for (int i = 0; found == -2 && i < nr; i++) {
		int eff = -1;

		if (hwloc_cpukinds_get_info(topo, (unsigned)i, set, &eff, NULL, NULL, 0) == 0 &&
		    hwloc_bitmap_isset(set, cpu))
			found = eff;
		hwloc_bitmap_only(set, cpu);
	}
	hwloc_bitmap_free(set);
	return found;
}

/* ---------------------------------------------------------------- checks */

/* @rc/@why of cpu_topo_check_kinds and the CPU chosen with these kinds.
 * @choice: the expected default CPU. */
static void check_kinds_and_choice(const struct dump *d, hwloc_topology_t topo, bool agree,
				   int choice, const char *what)
{
	char *why = NULL;
	int rc = cpu_topo_check_kinds(topo, &ci, &why), cpu;

	if (agree) {
		check_int(rc, ==, 0, nm("%s: agreement", what));
		ok(why == NULL, "%s: no warning", what);
	} else {
		check_int(rc, ==, -EPROTO, nm("%s: a disagreement (-EPROTO)", what));
		ok(why && why[0] != '\0', "%s: the warning says why: %s", what, why ? why : "(none)");
	}
	free(why);
	cpu = cpu_choose(topo, &ci, -1);
	check_int(cpu, ==, choice, nm("%s: cpu %d chosen", what, choice));
	ok(cpu >= 0 && hwloc_bitmap_isset(d->p, (unsigned)cpu),
	   "%s: a P-core by its leaf 0x1A (P-cores %s)", what, d->plist);
}

/* Agreement: as hwloc's x86 backend registers them, and ranked only. */
static void check_agree(const struct dump *d, int lastp)
{
	char kinds[1024] = "";
	hwloc_topology_t topo;

	add_kind(kinds, sizeof(kinds), d->e, 0, "IntelAtom");
	add_kind(kinds, sizeof(kinds), d->p, 1, "IntelCore");
	topo = topo_with(d, kinds);
	ok(hwloc_cpukinds_get_nr(topo, 0) == 2 && hwloc_eff_of(topo, (unsigned)lastp) == 1 &&
	   hwloc_eff_of(topo, (unsigned)hwloc_bitmap_first(d->e)) == 0,
	   "hwloc reads back: P %s IntelCore efficiency 1, E %s IntelAtom efficiency 0",
	   d->plist, d->elist);
	check_kinds_and_choice(d, topo, true, lastp, "kinds agree (CoreType and rank)");
	hwloc_topology_destroy(topo);

	kinds[0] = '\0';
	add_kind(kinds, sizeof(kinds), d->e, 0, NULL);
	add_kind(kinds, sizeof(kinds), d->p, 1, NULL);
	topo = topo_with(d, kinds);
	check_kinds_and_choice(d, topo, true, lastp, "kinds agree (rank only, no CoreType)");
	hwloc_topology_destroy(topo);
}

/* hwloc's CoreType swapped: hwloc calls the P-cores IntelAtom. */
static void check_coretype_swapped(const struct dump *d, int lastp)
{
	int firstp = hwloc_bitmap_first(d->p), firste = hwloc_bitmap_first(d->e);
	char kinds[1024] = "", *why = NULL, want[128];
	hwloc_topology_t topo;

	add_kind(kinds, sizeof(kinds), d->p, 0, "IntelAtom");
	add_kind(kinds, sizeof(kinds), d->e, 1, "IntelCore");
	topo = topo_with(d, kinds);
	ok(hwloc_eff_of(topo, (unsigned)firste) == 1 && hwloc_eff_of(topo, (unsigned)firstp) == 0,
	   "hwloc reads back: its most performant kind is the E-cores %s", d->elist);
	check_kinds_and_choice(d, topo, false, lastp, "P-cores called IntelAtom, E-cores IntelCore");
	cpu_topo_check_kinds(topo, &ci, &why);
	snprintf(want, sizeof(want), "cpus %s) has CoreType IntelAtom", d->plist);
	ok(why && strstr(why, want) && strstr(why, "0x40"),
	   "the warning names hwloc's IntelAtom P-cores and leaf 0x1A's 0x40: %s", why);
	free(why);
	/* The Top-down check goes by leaf 0x1A alone, whatever hwloc says. */
	check_int(cpu_topdown_check_cpu(&ci, (unsigned)firstp, NULL), ==, 0,
		  nm("cpu %d (hwloc: IntelAtom; leaf 0x1A: 0x40) may measure Top-down", firstp));
	check_int(cpu_topdown_check_cpu(&ci, (unsigned)firste, NULL), ==, -EOPNOTSUPP,
		  nm("--cpu %d (hwloc: IntelCore; leaf 0x1A: 0x20) is refused for Top-down "
		     "(-EOPNOTSUPP)", firste));
	check_int(cpu_choose(topo, &ci, firste), ==, firste,
		  "cpu_choose only validates a requested CPU (it exists)");
	hwloc_topology_destroy(topo);
}

/* The example: hwloc says CPUs 0-7 are the efficient kind. */
static void check_first_eight(const struct dump *d, int lastp)
{
	hwloc_bitmap_t low = hwloc_bitmap_alloc(), high = hwloc_bitmap_alloc();
	char kinds[1024] = "", *why = NULL;
	hwloc_topology_t topo;

	hwloc_bitmap_set_range(low, 0, 7);
	hwloc_bitmap_set_range(high, 8, (int)d->ncpus - 1);
	add_kind(kinds, sizeof(kinds), low, 0, "IntelAtom");
	add_kind(kinds, sizeof(kinds), high, 1, "IntelCore");
	topo = topo_with(d, kinds);
	check_kinds_and_choice(d, topo, false, lastp,
			       "hwloc: cpus 0-7 IntelAtom (efficiency 0), the rest IntelCore");
	cpu_topo_check_kinds(topo, &ci, &why);
	ok(why && strstr(why, "CoreType IntelAtom") && strstr(why, "cpus 0-7"),
	   "the warning names hwloc's kind of cpus 0-7: %s", why);
	free(why);
	hwloc_topology_destroy(topo);
	hwloc_bitmap_free(low);
	hwloc_bitmap_free(high);
}

/* hwloc splits the CPUs as leaf 0x1A does but ranks the E-cores higher. */
static void check_rank_swapped(const struct dump *d, int lastp)
{
	char kinds[1024] = "", *why = NULL;
	hwloc_topology_t topo;

	add_kind(kinds, sizeof(kinds), d->p, 0, NULL);
	add_kind(kinds, sizeof(kinds), d->e, 1, NULL);
	topo = topo_with(d, kinds);
	ok(hwloc_eff_of(topo, (unsigned)lastp) == 0, "hwloc reads back: P-cores efficiency 0");
	check_kinds_and_choice(d, topo, false, lastp, "E-cores ranked above P-cores");
	cpu_topo_check_kinds(topo, &ci, &why);
	ok(why && strstr(why, "rank") && strstr(why, d->plist) && strstr(why, d->elist),
	   "the warning names the ranking and both sets of CPUs: %s", why);
	free(why);
	hwloc_topology_destroy(topo);
}

/* hwloc's most performant kind holds the E-cores and one P-core: the
 * choice is narrowed to that P-core, never an E-core. */
static void check_narrowed(const struct dump *d)
{
	hwloc_bitmap_t best = hwloc_bitmap_dup(d->e), rest = hwloc_bitmap_dup(d->p);
	int firstp = hwloc_bitmap_first(d->p);
	char kinds[1024] = "";
	hwloc_topology_t topo;

	hwloc_bitmap_set(best, (unsigned)firstp);
	hwloc_bitmap_clr(rest, (unsigned)firstp);
	add_kind(kinds, sizeof(kinds), rest, 0, NULL);
	add_kind(kinds, sizeof(kinds), best, 1, NULL);
	topo = topo_with(d, kinds);
	check_kinds_and_choice(d, topo, false, firstp,
			       "hwloc's best kind: the E-cores and the first P-core");
	hwloc_topology_destroy(topo);
	hwloc_bitmap_free(best);
	hwloc_bitmap_free(rest);
}

/* No kinds at all (old kernel or hwloc), or kinds hwloc cannot rank. */
static void check_no_kinds(const struct dump *d, int lastp)
{
	char kinds[1024] = "";
	hwloc_topology_t topo = topo_with(d, "");

	check_int(hwloc_cpukinds_get_nr(topo, 0), ==, 0, "hwloc reads back: no CPU kinds");
	check_kinds_and_choice(d, topo, true, lastp, "hwloc has no kinds (leaf 0x1A alone)");
	hwloc_topology_destroy(topo);

	add_kind(kinds, sizeof(kinds), d->e, -1, NULL);
	add_kind(kinds, sizeof(kinds), d->p, -1, NULL);
	topo = topo_with(d, kinds);
	check_int(hwloc_eff_of(topo, (unsigned)lastp), ==, -1,
		  "hwloc reads back: two kinds, efficiency -1 (not ranked)");
	check_kinds_and_choice(d, topo, true, lastp, "hwloc's kinds unranked");
	hwloc_topology_destroy(topo);
}

/* The session: no warning on the dump's own (agreeing) topology; an E-core
 * asked for is refused for every Top-down backend, not for tsc. */
static void check_session(const struct dump *d, const char *path, int lastp)
{
	static const enum bench_backend_id topdown[] = {
		BENCH_BACKEND_AUTO, BENCH_BACKEND_RDPMC, BENCH_BACKEND_MSR,
	};
	struct t_env saved[CPU_TOPO_DUMP_ENV_MAX];
	int firste = hwloc_bitmap_first(d->e);
	size_t n = t_hwloc_dump_env(saved, path);
	struct session_options o = { .cpu = -1, .backend = BENCH_BACKEND_TSC };
	struct cpu_machine *m = NULL;
	struct session *s;
	int rc = cpu_machine_open(path, &m, NULL);

	t_hwloc_dump_env_put_back(saved, n);
	if (!ok(rc == 0 && cpu_machine_topo(m), "%s: the machine, with its own topology", d->dir)) {
		skip(7, "no machine");
		return;
	}
	o.machine = m;
	rc = session_open(&o, &s);
	check_int(rc, ==, 0, "session (tsc) on the dump");
	if (s) {
		ok(session_info(s)->kinds_warning == NULL, "no kinds warning: hwloc agrees");
		check_int((int)session_info(s)->cpu_used, ==, lastp, "default: the last P-core");
	}
	session_close(s);
	o.cpu = firste;
	for (size_t i = 0; i < sizeof(topdown) / sizeof(topdown[0]); i++) {
		o.backend = topdown[i];
		rc = session_open(&o, &s);
		/* its kind's Top-down comes from an event recipe (cpu_kind.topdown_recipe,
		 * intel-ecore-l1): no longer refused for its kind; this machine's
		 * MSR device cannot reach the dump's CPU, which is another matter */
		ok(rc != -EOPNOTSUPP && s && (int)session_info(s)->cpu_used == firste,
		   "--cpu %d (E-core) --backend %s: taken, not refused for its kind (rc %d)",
		   firste, bench_backend_name(o.backend), rc);
		session_close(s);
	}
	o.backend = BENCH_BACKEND_TSC;
	rc = session_open(&o, &s);
	ok(rc == 0 && s && (int)session_info(s)->cpu_used == firste,
	   "--cpu %d --backend tsc: measured there (rc %d)", firste, rc);
	session_close(s);
	cpu_machine_free(m);
}

static void one_dump(struct dump *d)
{
	char path[PATH_MAX];
	struct cpu_source *src;
	struct stat st;
	int lastp;

	t_path(path, "%s/hwloc/%s", shared, d->dir);
	if (stat(path, &st)) {
		skip(1, d->dir);
		return;
	}
	if (!read_dump(d, path) || !ok(export_dump(d, path), "%s: hwloc builds its topology", d->dir))
		return;
	lastp = hwloc_bitmap_last(d->p);
	src = cpu_source_dump(path);
	if (!ok(src && cpu_info_identify(src, NULL, &ci) == 0 && ci.hybrid,
		"identified from the directory: hybrid")) {
		cpu_source_free(src);
		return;
	}
	cpu_source_free(src);
	check_agree(d, lastp);
	check_coretype_swapped(d, lastp);
	check_first_eight(d, lastp);
	check_rank_swapped(d, lastp);
	check_narrowed(d);
	check_no_kinds(d, lastp);
	check_session(d, path, lastp);
	free(d->xml);
	hwloc_bitmap_free(d->p);
	hwloc_bitmap_free(d->e);
}

int main(void)
{
	static struct dump dumps[] = {
		{ .dir = "Intel-RaptorLake-Corei7-1370P" },
		{ .dir = "Intel-ArrowLake-CoreUltra5-225U" },
	};
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
	return done_testing();
}
