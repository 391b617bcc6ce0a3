/*
 * bench/benchmarks/report_scale.c - what `baretma report` costs over a
 * lab's fleet (issue 31 of the project, "At the scale of a fleet": at most
 * 5 s and 200 MiB for 1,000 host bundles on the 2-core machine, growing
 * linearly), measured at each --hosts count (make benchmark: 100, 1,000
 * and 10,000).
 *
 * The fleet is made from real bundles: for each --dump (10 CPUs, 10 CPU
 * groups), the simulated PMU of --profile runs `baretma calibrate` and
 * then `baretma validate --bundle` in a state directory of its own, so the
 * bundle embeds its calibration (doc/json.md, the bundle's "calibration").  Host k
 * is a copy of group k mod G's bundle that names host k ("host":
 * hostname node%05u, machine_id k in 32 hex digits) with what a real fleet
 * varies:
 *   - every figure of its calibration's brackets and lengths (each "median"
 *     under "bracket" and under "lengths"' "tsc_ticks") scaled by
 *     1 + 0.02 u, u uniform in [-1, 1] from a generator seeded by k, so
 *     that a group's MAD is not 0;
 *   - one host in 97 (k mod 97 = 5) an outlier: those figures times 3;
 *   - one host in 89 (k mod 89 = 7) a validate FAIL (its first PASS check
 *     FAIL, the summary's counts following);
 *   - one host in 7 of each group another microcode (+1).
 * Each bundle goes to DIR/hosts/node%05u/bundle.json (the campaign's
 * layout: one directory per host), and `baretma report DIR/hosts --json
 * >/dev/null` is timed --runs times after one warm-up run (the files are in
 * the page cache: what is timed is the report, not the disk): wall
 * (CLOCK_MONOTONIC around fork to wait4), CPU (user + sys) and maximum
 * resident set size (wait4's ru_maxrss), min / median / max over the runs;
 * then the per-host wall time of each count and its ratio to the smallest
 * count's (1.0: linear).  report exits 1 (the outliers and the FAILs): a
 * status other than 0 or 1 is the benchmark's failure.
 * Run by `make benchmark`, never by `make check`.
 *
 * usage: report_scale --baretma PATH --profile FILE --dump FILE... --hosts N...
 *                     [--runs N] [--dir DIR] [--keep]
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/benchmarks/machine.h"
#include "bench/stats.h"

#define MAX_DUMPS  16
#define MAX_COUNTS 8
#define MAX_RUNS   64

struct opts {
	const char *baretma, *profile, *dir;
	const char *dumps[MAX_DUMPS];
	unsigned ndumps, counts[MAX_COUNTS], ncounts, runs;
	int keep;
};

static void die(const char *what, const char *why)
{
	fprintf(stderr, "report_scale: %s: %s\n", what, why);
	exit(1);
}


/* run - @argv with @env added, stdout to @out (NULL: /dev/null), stderr to
 * /dev/null; its exit status (-1 when killed), and its rusage and wall
 * time in *@ru and *@wall when given. */
static int run(char *const argv[], char *const env[], const char *out, struct rusage *ru,
	       double *wall)
{
	double t0 = mono_s();
	int status;
	pid_t pid = fork();

	if (pid < 0)
		die("fork", strerror(errno));
	if (pid == 0) {
		int fd = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (fd < 0 || null < 0)
			_exit(127);
		dup2(fd, 1);
		dup2(null, 2);
		for (unsigned i = 0; env && env[i]; i++)
			putenv(env[i]);
		execv(argv[0], argv);
		_exit(127);
	}
	struct rusage r;

	if (wait4(pid, &status, 0, &r) < 0)
		die("wait4", strerror(errno));
	if (wall)
		*wall = mono_s() - t0;
	if (ru)
		*ru = r;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A path into @buf, or the benchmark's end where it does not fit. */
#define PATHF(buf, ...) \
	do { \
		if (snprintf((buf), sizeof(buf), __VA_ARGS__) >= (int)sizeof(buf)) \
			die("path", "too long"); \
	} while (0)

static void mkdir_or_die(const char *path)
{
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		die(path, strerror(errno));
}

/* The template of group @g: calibrate, then validate --bundle, on the
 * simulator of @o->profile as the CPU of dump @g. */
static json_t *make_template(const struct opts *o, unsigned g)
{
	char state[PATH_MAX], bundle[PATH_MAX], e_state[PATH_MAX + 32], e_msr[PATH_MAX + 32],
		e_dump[PATH_MAX + 32], baretma[PATH_MAX];
	char *env[] = { e_state, e_msr, e_dump, NULL };
	json_error_t err;
	json_t *doc;
	int rc;

	PATHF(state, "%s/state-%u", o->dir, g);
	PATHF(bundle, "%s/template-%u.json", o->dir, g);
	mkdir_or_die(state);
	snprintf(e_state, sizeof(e_state), "BARETMA_STATE_DIR=%s", state);
	snprintf(e_msr, sizeof(e_msr), "BARETMA_MSR=sim:%s", o->profile);
	snprintf(e_dump, sizeof(e_dump), "BARETMA_CPUID_DUMP=%s", o->dumps[g]);
	snprintf(baretma, sizeof(baretma), "%s", o->baretma);
	char *cal[] = { baretma, "calibrate", NULL };
	char *val[] = { baretma, "validate", "--bundle", bundle, NULL };

	rc = run(cal, env, NULL, NULL, NULL);
	if (rc != 0)
		die(o->dumps[g], "baretma calibrate on the simulator failed");
	rc = run(val, env, NULL, NULL, NULL);
	if (rc != 0 && rc != 1)
		die(o->dumps[g], "baretma validate --bundle on the simulator failed");
	doc = json_load_file(bundle, 0, &err);
	if (!doc)
		die(bundle, err.text);
	return doc;
}

/* A generator of host @k's variation (xorshift64*, seeded by k). */
static double uniform(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (double)((*s * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

/* Every "median" under @v scaled by @f() in turn (each its own draw). */
static void scale_medians(json_t *v, uint64_t *seed, double outlier)
{
	const char *key;
	json_t *x;
	size_t i;

	if (json_is_array(v)) {
		json_array_foreach(v, i, x)
			scale_medians(x, seed, outlier);
		return;
	}
	if (!json_is_object(v))
		return;
	json_object_foreach(v, key, x) {
		if (!strcmp(key, "median") && json_is_number(x))
			json_object_set_new(v, key, json_real(json_number_value(x) * outlier *
							      (1 + 0.02 * (2 * uniform(seed) - 1))));
		else
			scale_medians(x, seed, outlier);
	}
}

/* Host @k of the fleet of @groups CPU groups: its group's template @t as
 * host k would write it. */
static json_t *make_host(const json_t *t, unsigned k, unsigned groups)
{
	json_t *h = json_deep_copy(t), *cal, *env, *val, *b;
	uint64_t seed = 0x9e3779b97f4a7c15ull ^ ((uint64_t)k * 0xbf58476d1ce4e5b9ull);
	double outlier = k % 97 == 5 ? 3.0 : 1.0;
	char name[32], id[40];
	size_t i;

	if (!h)
		die("json_deep_copy", "out of memory");
	snprintf(name, sizeof(name), "node%05u", k);
	snprintf(id, sizeof(id), "%032x", k + 1);
	json_object_set_new(h, "host", json_pack("{s:s,s:s}", "hostname", name, "machine_id", id));
	cal = json_object_get(h, "calibration");
	/* the bundle's calibration is the host's own: report leaves out one
	 * that names another host (doc/report.md, "Hosts") */
	if (json_is_object(cal))
		json_object_set_new(cal, "host", json_pack("{s:s,s:s}", "hostname", name,
							    "machine_id", id));
	json_array_foreach(json_object_get(cal, "backends"), i, b) {
		scale_medians(json_object_get(b, "bracket"), &seed, outlier);
		json_t *l, *len = json_object_get(b, "lengths");
		size_t j;

		json_array_foreach(len, j, l)
			scale_medians(json_object_get(l, "tsc_ticks"), &seed, outlier);
	}
	env = json_object_get(h, "environment");
	if ((k / groups) % 7 == 3 && json_is_object(env)) { /* one host in 7 of each group */
		const char *mc = json_string_value(json_object_get(env, "microcode"));
		char other[32];

		snprintf(other, sizeof(other), "0x%lx", mc ? strtoul(mc, NULL, 16) + 1 : 1ul);
		json_object_set_new(env, "microcode", json_string(other));
		/* its calibration was measured under that microcode too */
		if (json_is_object(cal) && json_object_get(cal, "microcode"))
			json_object_set_new(cal, "microcode", json_string(other));
		env = json_object_get(cal, "environment");
		if (json_is_object(env) && json_object_get(env, "microcode"))
			json_object_set_new(env, "microcode", json_string(other));
	}
	val = json_object_get(h, "validate");
	if (k % 89 == 7 && json_is_object(val)) {
		json_t *c, *sum = json_object_get(val, "summary");

		json_array_foreach(json_object_get(val, "checks"), i, c) {
			if (strcmp(json_string_value(json_object_get(c, "status")) ?: "", "PASS"))
				continue;
			json_object_set_new(c, "status", json_string("FAIL"));
			json_object_set_new(c, "reason", json_string("generated failure"));
			json_object_set_new(sum, "pass", json_integer(json_integer_value(
				json_object_get(sum, "pass")) - 1));
			json_object_set_new(sum, "fail", json_integer(json_integer_value(
				json_object_get(sum, "fail")) + 1));
			break;
		}
	}
	return h;
}

/* The fleet of @n hosts under @dir/hosts-@n; its bytes in all. */
static unsigned long long make_fleet(const struct opts *o, json_t **t, unsigned n, char *dir,
				     size_t dn)
{
	unsigned long long bytes = 0;
	char path[PATH_MAX];

	if (snprintf(dir, dn, "%s/hosts-%u", o->dir, n) >= (int)dn)
		die("path", "too long");
	mkdir_or_die(dir);
	for (unsigned k = 0; k < n; k++) {
		unsigned g = k % o->ndumps;
		json_t *h = make_host(t[g], k, o->ndumps);
		struct stat st;

		PATHF(path, "%s/node%05u", dir, k);
		mkdir_or_die(path);
		PATHF(path, "%s/node%05u/bundle.json", dir, k);
		if (json_dump_file(h, path, JSON_INDENT(2) | JSON_ENSURE_ASCII |
				   JSON_REAL_PRECISION(10)))
			die(path, "cannot write");
		if (stat(path, &st) == 0)
			bytes += (unsigned long long)st.st_size;
		json_decref(h);
	}
	return bytes;
}

/* The budget of issue 31 ("At the scale of a fleet"): 1,000 host bundles
 * in 5 s and 200 MiB on the 2-core machine. */
#define BUDGET_HOSTS   1000u
#define BUDGET_WALL_S  5.0
#define BUDGET_RSS_MIB 200.0

/* check_found - the report of @path (the warm-up's, schema
 * baretma-report/1) found what make_host put in the fleet of @n hosts and
 * @groups CPU groups: every host, every group, one failing check per host
 * k mod 89 = 7, and at least one outlier figure per host k mod 97 = 5 that
 * lies in a group of three or more (the report judges none below).  A
 * report that read less than the fleet would time less than the fleet:
 * the benchmark's failure. */
static void check_found(const char *path, unsigned n, unsigned groups)
{
	json_error_t e;
	json_t *d = json_load_file(path, 0, &e);
	unsigned fails = 0, outl = 0;
	char why[160];

	if (!d)
		die(path, e.text);
	for (unsigned k = 0; k < n; k++) {
		fails += k % 89 == 7;
		outl += k % 97 == 5 && (n - 1 - k % groups) / groups + 1 >= 3;
	}
	json_int_t h = json_integer_value(json_object_get(d, "hosts")),
		   f = json_integer_value(json_object_get(d, "fails")),
		   x = json_integer_value(json_object_get(d, "outliers"));
	size_t g = json_array_size(json_object_get(d, "groups"));

	snprintf(why, sizeof(why),
		 "the report found %lld hosts in %zu groups, %lld failing checks, %lld outliers; "
		 "the fleet has %u, %u, %u, at least %u",
		 (long long)h, g, (long long)f, (long long)x, n, groups, fails, outl);
	if (h != n || g != groups || f != fails || x < outl)
		die(path, why);
	printf("%8s found: %lld hosts, %zu groups, %lld failing checks, %lld outlier figures "
	       "(of %u outlier hosts)\n", "", (long long)h, g, (long long)f, (long long)x, outl);
	json_decref(d);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* @path and everything under it, never following a link (nftw(3),
 * FTW_PHYS; children before their directory, FTW_DEPTH). */
static int rm_tree(const char *path)
{
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void usage(void)
{
	fprintf(stderr, "usage: report_scale --baretma PATH --profile FILE --dump FILE... "
			"--hosts N... [--runs N] [--dir DIR] [--keep]\n");
	exit(64);
}

static void parse(int argc, char **argv, struct opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--keep")) {
			o->keep = 1;
			continue;
		}
		if (!v)
			usage();
		i++;
		if (!strcmp(a, "--baretma"))
			o->baretma = v;
		else if (!strcmp(a, "--profile"))
			o->profile = v;
		else if (!strcmp(a, "--dir"))
			o->dir = v;
		else if (!strcmp(a, "--dump") && o->ndumps < MAX_DUMPS)
			o->dumps[o->ndumps++] = v;
		else if (!strcmp(a, "--hosts") && o->ncounts < MAX_COUNTS)
			o->counts[o->ncounts++] = (unsigned)strtoul(v, NULL, 10);
		else if (!strcmp(a, "--runs"))
			o->runs = (unsigned)strtoul(v, NULL, 10);
		else
			usage();
	}
	if (!o->baretma || !o->profile || !o->ndumps || !o->ncounts || !o->runs ||
	    o->runs > MAX_RUNS)
		usage();
}

int main(int argc, char **argv)
{
	struct opts o = { .runs = 5 };
	char scratch[PATH_MAX], cpu[128], dir[PATH_MAX], baretma[PATH_MAX], out[PATH_MAX];
	char load[128];
	double per_host[MAX_COUNTS];
	json_t *t[MAX_DUMPS];
	struct utsname u;
	const char *tmp = getenv("TMPDIR");

	parse(argc, argv, &o);
	if (!o.dir) {
		snprintf(scratch, sizeof(scratch), "%s/baretma-report-scale.XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(scratch))
			die(scratch, strerror(errno));
		o.dir = scratch;
	} else {
		mkdir_or_die(o.dir);
	}
	file_field("/proc/cpuinfo", "model name", cpu, sizeof(cpu));
	uname(&u);
	printf("report_scale: baretma report over a generated fleet (%u CPU groups)\n", o.ndumps);
	loadavg(load, sizeof(load));
	printf("machine: %s, %ld CPUs online, %s %s; load average at start %s\n", cpu,
	       sysconf(_SC_NPROCESSORS_ONLN), u.sysname, u.release, load);
	for (unsigned g = 0; g < o.ndumps; g++)
		t[g] = make_template(&o, g);
	printf("%8s %10s %22s %22s %20s %12s\n", "hosts", "MiB", "wall s (min-max)",
	       "CPU s (min-max)", "max RSS MiB", "ms per host");
	snprintf(baretma, sizeof(baretma), "%s", o.baretma);
	for (unsigned c = 0; c < o.ncounts; c++) {
		unsigned n = o.counts[c];
		unsigned long long bytes = make_fleet(&o, t, n, dir, sizeof(dir));
		double wall[MAX_RUNS], cpu_s[MAX_RUNS], rss[MAX_RUNS];
		/* standard output to /dev/null (run's default): report's -o
		 * refuses a path that is not a regular file */
		char *argv_r[] = { baretma, "report", dir, "--json", NULL };
		struct rusage ru;

		PATHF(out, "%s/report-%u.json", o.dir, n);
		for (unsigned r = 0; r <= o.runs; r++) { /* run 0: the warm-up */
			double w;
			/* the warm-up's document is kept: what the report found */
			int rc = run(argv_r, NULL, r ? NULL : out, &ru, &w);

			if (rc != 0 && rc != 1) {
				char why[64];

				snprintf(why, sizeof(why), rc < 0 ? "killed" : "exit status %d, not 0 or 1", rc);
				die("baretma report", why);
			}
			if (!r)
				continue;
			wall[r - 1] = w;
			cpu_s[r - 1] = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
				       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
			rss[r - 1] = (double)ru.ru_maxrss / 1024.0;
		}
		struct bench_stats sw, sc, sr;
		char ws[40], cs[40], rs[40];

		bench_stats_compute(wall, o.runs, &sw);
		bench_stats_compute(cpu_s, o.runs, &sc);
		bench_stats_compute(rss, o.runs, &sr);
		double wm = sw.median, rm = sr.median;

		snprintf(ws, sizeof(ws), "%.3f (%.3f-%.3f)", wm, sw.min, sw.max);
		snprintf(cs, sizeof(cs), "%.3f (%.3f-%.3f)", sc.median, sc.min, sc.max);
		snprintf(rs, sizeof(rs), "%.1f (%.1f-%.1f)", rm, sr.min, sr.max);
		per_host[c] = wm / n * 1e3;
		printf("%8u %10.1f %22s %22s %20s %12.3f\n", n, (double)bytes / 1048576.0, ws, cs,
		       rs, per_host[c]);
		check_found(out, n, o.ndumps);
		if (n == BUDGET_HOSTS)
			printf("%8s budget at %u hosts (median): %.0f s wall %s, %.0f MiB %s\n", "",
			       BUDGET_HOSTS, BUDGET_WALL_S, wm <= BUDGET_WALL_S ? "ok" : "OVER",
			       BUDGET_RSS_MIB, rm <= BUDGET_RSS_MIB ? "ok" : "OVER");
		fflush(stdout);
		if (!o.keep)
			rm_tree(dir);
	}
	for (unsigned c = 1; c < o.ncounts; c++)
		printf("per-host time at %u hosts / at %u: %.2f (1.00: linear)\n", o.counts[c],
		       o.counts[0], per_host[c] / per_host[0]);
	loadavg(load, sizeof(load));
	printf("load average at end: %s\n", load);
	for (unsigned g = 0; g < o.ndumps; g++)
		json_decref(t[g]);
	if (!o.keep && o.dir == scratch)
		rm_tree(scratch);
	return 0;
}
