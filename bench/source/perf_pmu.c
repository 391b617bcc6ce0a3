/*
 * bench/source/perf_pmu.c - the core PMU as sysfs describes it to perf (see
 * bench/source/perf_pmu.h): which PMU, its type, the `slots` and `topdown-*`
 * configs from events/ through format/, its CPUs, and what
 * kernel.perf_event_paranoid allows.  Reads files under the sysroot only.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/source/perf_pmu.h"
#include "cpu/cpu.h"
#include "cpu/knobs.h"

/* The core PMU's own formats, for a PMU whose format/ lacks them
 * (arch/x86/events/intel/core.c: PMU_FORMAT_ATTR(event, "config:0-7"),
 * PMU_FORMAT_ATTR(umask, "config:8-15")). */
#define PERF_FORMAT_EVENT "config:0-7"
#define PERF_FORMAT_UMASK "config:8-15"

int perf_pmu_why(char *why, size_t n, int err, const char *fmt, ...)
{
	va_list ap;

	if (!why || n == 0)
		return err;
	va_start(ap, fmt);
	vsnprintf(why, n, fmt, ap);
	va_end(ap);
	return err;
}

const char *perf_pmu_errno_name(int err)
{
	static const struct { int e; const char *name; } names[] = {
		{ ENOENT, "ENOENT" }, { EACCES, "EACCES" }, { EPERM, "EPERM" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { EINVAL, "EINVAL" }, { ENODEV, "ENODEV" },
		{ ENOSYS, "ENOSYS" }, { EBUSY, "EBUSY" }, { EMFILE, "EMFILE" },
		{ E2BIG, "E2BIG" }, { ENOSPC, "ENOSPC" },
	};
	static char other[24];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == err)
			return names[i].name;
	snprintf(other, sizeof(other), "errno %d", err);
	return other;
}

/* 1 when <root>@path is a directory, 0 when nothing is there, or -errno. */
static int dir_exists(const char *path)
{
	char full[PATH_MAX];
	struct stat st;
	int rc = cpu_sysfs_resolve(full, sizeof(full), path);

	if (rc)
		return rc;
	if (stat(full, &st) < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	return S_ISDIR(st.st_mode) ? 1 : 0;
}

/* The first line of <root><p->dir>/@rel. */
static int pmu_read(const struct perf_pmu *p, const char *rel, char *buf, size_t n)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", p->dir, rel) >= sizeof(path))
		return -ENAMETOOLONG;
	return cpu_sysfs_read_line(path, buf, n);
}

/* pmu_read's failure @err on @rel as one line. */
static int pmu_read_why(const struct perf_pmu *p, const char *rel, int err, char *why, size_t n)
{
	char rel_path[PATH_MAX], path[PATH_MAX];

	snprintf(rel_path, sizeof(rel_path), "%s/%s", p->dir, rel);
	return perf_pmu_why(why, n, err, "cannot read '%s': %s",
			    cpu_sysfs_path(path, sizeof(path), rel_path), strerror(-err));
}

/* ------------------------------------------------------------- encoding */

/* An unsigned number in C notation (0x.., 0.., decimal), nothing after it. */
static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

/* One bit range "LO" or "LO-HI" (0..63) at *@s, which moves past it. */
static int parse_range(const char **s, unsigned *lo, unsigned *hi)
{
	char *end;
	unsigned long a, b;

	if (!isdigit((unsigned char)**s))
		return -EINVAL;
	a = b = strtoul(*s, &end, 10);
	if (*end == '-') {
		if (!isdigit((unsigned char)end[1]))
			return -EINVAL;
		b = strtoul(end + 1, &end, 10);
	}
	if (b < a || b > 63)
		return -EINVAL;
	*lo = (unsigned)a;
	*hi = (unsigned)b;
	*s = end;
	return 0;
}

/*
 * Put @value into *@config through the format @fmt ("config:0-7",
 * "config:0-7,32-35": the value's low bits fill the first range, the next
 * bits the next, as perf's pmu_format_value does).  Only perf_event_attr
 * .config: a term in config1/config2 is -EOPNOTSUPP.
 */
static int format_put(const char *fmt, uint64_t value, uint64_t *config)
{
	const char *s = fmt + strlen("config:");
	unsigned lo, hi, used = 0;

	if (strncmp(fmt, "config:", strlen("config:")))
		return strncmp(fmt, "config", strlen("config")) ? -EINVAL : -EOPNOTSUPP;
	for (;;) {
		unsigned width;
		uint64_t mask;

		if (parse_range(&s, &lo, &hi) || used >= 64)
			return -EINVAL;
		width = hi - lo + 1;
		mask = width == 64 ? ~0ull : (1ull << width) - 1;
		*config |= ((value >> used) & mask) << lo;
		used += width;
		if (*s == '\0')
			break;
		if (*s++ != ',')
			return -EINVAL;
	}
	return used < 64 && (value >> used) ? -ERANGE : 0;
}

/* A term name as sysfs names format files: [a-z0-9_], not empty. */
static bool term_name_ok(const char *name)
{
	if (!*name)
		return false;
	for (; *name; name++)
		if (!islower((unsigned char)*name) && !isdigit((unsigned char)*name) && *name != '_')
			return false;
	return true;
}

/* The format of term @name: format/@name, or the core PMU's own for event
 * and umask; -EOPNOTSUPP with @why for any other term without one. */
static int term_format(const struct perf_pmu *p, const char *name, char *fmt, size_t len,
		       char *why, size_t n)
{
	char rel[64];
	int rc;

	snprintf(rel, sizeof(rel), "format/%s", name);
	rc = pmu_read(p, rel, fmt, len);
	if (rc != -ENOENT)
		return rc ? pmu_read_why(p, rel, rc, why, n) : 0;
	if (!strcmp(name, "event") || !strcmp(name, "umask")) {
		snprintf(fmt, len, "%s", !strcmp(name, "event") ? PERF_FORMAT_EVENT : PERF_FORMAT_UMASK);
		return 0;
	}
	return perf_pmu_why(why, n, -EOPNOTSUPP,
			    "the '%s' PMU has no format for the term '%s' (sysfs format/): "
			    "baretma cannot encode it", p->name, name);
}

/* One term "name=value" or "name" (value 1) into *@config. */
static int encode_term(const struct perf_pmu *p, char *term, uint64_t *config, char *why, size_t n)
{
	char *eq = strchr(term, '='), fmt[128];
	uint64_t value = 1;
	int rc;

	if (eq) {
		*eq = '\0';
		if (parse_u64(eq + 1, &value))
			return perf_pmu_why(why, n, -EINVAL, "the term '%s=%s' has no number",
					    term, eq + 1);
	}
	if (!term_name_ok(term))
		return perf_pmu_why(why, n, -EINVAL, "'%s' is no term name", term);
	rc = term_format(p, term, fmt, sizeof(fmt), why, n);
	if (rc)
		return rc;
	rc = format_put(fmt, value, config);
	if (rc == -EOPNOTSUPP)
		return perf_pmu_why(why, n, rc, "the term '%s' is in '%s', not in config: "
				    "baretma encodes config terms only", term, fmt);
	if (rc == -ERANGE)
		return perf_pmu_why(why, n, rc, "the term '%s=%#" PRIx64 "' does not fit "
				    "its field '%s'", term, value, fmt);
	if (rc)
		return perf_pmu_why(why, n, rc, "the format of '%s' does not parse: '%s'",
				    term, fmt);
	return 0;
}

int perf_pmu_encode(const struct perf_pmu *p, const char *terms, uint64_t *config,
		    char *why, size_t n)
{
	char buf[256], *save = NULL, *term;
	int rc = 0;

	if (!p || !terms || !config)
		return -EINVAL;
	if ((size_t)snprintf(buf, sizeof(buf), "%s", terms) >= sizeof(buf))
		return perf_pmu_why(why, n, -EINVAL, "an event string of %zu bytes",
				    strlen(terms));
	*config = 0;
	for (term = strtok_r(buf, ",", &save); term && !rc; term = strtok_r(NULL, ",", &save))
		rc = encode_term(p, term, config, why, n);
	return rc;
}

/* --------------------------------------------------------------- the PMU */

int perf_pmu_cpu_listed(const char *list, unsigned cpu)
{
	const char *s = list;
	int found = 0;

	if (!s)
		return -EINVAL;
	while (*s) {
		unsigned long a, b;
		char *end;

		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		a = b = strtoul(s, &end, 10);
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -EINVAL;
			b = strtoul(end + 1, &end, 10);
		}
		if (b < a)
			return -EINVAL;
		found |= cpu >= a && cpu <= b;
		s = end;
		if (*s == ',' && *++s == '\0')
			return -EINVAL;
		else if (*s && !isdigit((unsigned char)*s))
			return -EINVAL;
	}
	return found;
}

/* cpu_core (hybrid) when present, else cpu; -ENOENT when neither is. */
static int pmu_pick(struct perf_pmu *p, char *why, size_t n)
{
	char path[PATH_MAX];
	int rc = dir_exists(CPU_SYS_CORE_PMU_HYBRID);

	if (rc == 0)
		rc = dir_exists(CPU_SYS_CORE_PMU);
	else if (rc > 0) {
		p->name = "cpu_core";
		p->dir = CPU_SYS_CORE_PMU_HYBRID;
		return 0;
	}
	if (rc > 0) {
		p->name = "cpu";
		p->dir = CPU_SYS_CORE_PMU;
		return 0;
	}
	cpu_sysfs_path(path, sizeof(path), PERF_PMU_DEVICES);
	if (rc < 0)
		return perf_pmu_why(why, n, rc, "cannot look under '%s': %s", path, strerror(-rc));
	return perf_pmu_why(why, n, -ENOENT, "no 'cpu' or 'cpu_core' PMU under '%s': the kernel "
			    "has no hardware PMU driver here (a VM without a virtual PMU?)", path);
}

static int pmu_type(struct perf_pmu *p, char *why, size_t n)
{
	char line[32];
	uint64_t v;
	int rc = pmu_read(p, "type", line, sizeof(line));

	if (rc)
		return pmu_read_why(p, "type", rc, why, n);
	if (parse_u64(line, &v) || v > UINT32_MAX)
		return perf_pmu_why(why, n, -EINVAL, "the '%s' PMU's type is not a number: '%s'",
				    p->name, line);
	p->type = (uint32_t)v;
	return 0;
}

/* A hybrid part's cpu_core PMU counts on its P-cores only: its `cpus`. */
static int pmu_check_cpu(const struct perf_pmu *p, unsigned cpu, char *why, size_t n)
{
	char list[4096];
	int rc;

	if (strcmp(p->name, "cpu_core"))
		return 0;
	rc = pmu_read(p, "cpus", list, sizeof(list));
	if (rc)
		return pmu_read_why(p, "cpus", rc, why, n);
	rc = perf_pmu_cpu_listed(list, cpu);
	if (rc < 0)
		return perf_pmu_why(why, n, -EINVAL, "the cpu_core PMU's cpus list does not "
				    "parse: '%s'", list);
	if (rc == 0)
		return perf_pmu_why(why, n, -EOPNOTSUPP, "cpu %u is not a cpu_core CPU (cpu_core "
				    "cpus: %s): a hybrid E-core has no PERF_METRICS (pin to a "
				    "P-core)", cpu, list);
	return 0;
}

/* The config of events/@event: -ENOENT (no @why) when it is not listed. */
static int pmu_event(const struct perf_pmu *p, const char *event, uint64_t *config,
		     char *why, size_t n)
{
	char rel[64], terms[256];
	int rc;

	snprintf(rel, sizeof(rel), "events/%s", event);
	rc = pmu_read(p, rel, terms, sizeof(terms));
	if (rc == -ENOENT)
		return rc;
	if (rc)
		return pmu_read_why(p, rel, rc, why, n);
	return perf_pmu_encode(p, terms, config, why, n);
}

static int pmu_events(struct perf_pmu *p, int level, char *why, size_t n)
{
	unsigned want = level == 2 ? PERF_TD_NODES : PERF_TD_NODES / 2;
	int rc = pmu_event(p, "slots", &p->slots, why, n);

	if (rc == -ENOENT)
		return perf_pmu_why(why, n, -EOPNOTSUPP, "the '%s' PMU lists no 'slots' event "
				    "(sysfs events/): Top-down through perf needs an Intel core "
				    "with PERF_METRICS (Ice Lake or later)", p->name);
	for (unsigned i = 0; !rc && i < want; i++) {
		const char *name = perf_td_event_name(i);

		rc = pmu_event(p, name, &p->td[i], why, n);
		if (rc == -ENOENT && i >= PERF_TD_NODES / 2)
			return perf_pmu_why(why, n, -EOPNOTSUPP, "level 2 needs '%s', not listed "
					    "by the '%s' PMU (sysfs events/): the level-2 "
					    "metrics are on Golden Cove P-cores and later "
					    "(Sapphire Rapids, Alder Lake); try level 1", name,
					    p->name);
		if (rc == -ENOENT)
			return perf_pmu_why(why, n, -EOPNOTSUPP, "the '%s' PMU lists 'slots' but "
					    "not '%s' (sysfs events/): the kernel exposes no "
					    "PERF_METRICS here", p->name, name);
	}
	p->ntd = want;
	return rc;
}

/* A raw group's PMU on a hybrid part: cpu_core when its `cpus` lists
 * @cpu, else cpu_atom (the E-cores' PMU, arch/x86/events/intel/core.c
 * intel_pmu_init's hybrid_big / hybrid_small). */
static int pmu_pick_raw(struct perf_pmu *p, unsigned cpu, char *why, size_t n)
{
	int rc = pmu_pick(p, why, n);

	if (rc || strcmp(p->name, "cpu_core"))
		return rc;
	rc = pmu_check_cpu(p, cpu, why, n);
	if (rc != -EOPNOTSUPP)
		return rc;
	if (why && n)
		why[0] = '\0';
	p->name = "cpu_atom";
	p->dir = CPU_SYS_ATOM_PMU_HYBRID;
	return 0;
}

int perf_pmu_find(const struct perf_group_spec *spec, struct perf_pmu *p, char *why, size_t n)
{
	int rc;

	if (spec && p && spec->nraw) {
		if (why && n)
			why[0] = '\0';
		memset(p, 0, sizeof(*p));
		rc = pmu_pick_raw(p, spec->cpu, why, n);
		return rc ? rc : pmu_type(p, why, n);
	}

	if (why && n)
		why[0] = '\0';
	if (!spec || !p || (spec->level != 1 && spec->level != 2))
		return perf_pmu_why(why, n, -EINVAL, "the Top-down level is 1 or 2");
	memset(p, 0, sizeof(*p));
	rc = pmu_pick(p, why, n);
	if (!rc)
		rc = pmu_type(p, why, n);
	if (!rc)
		rc = pmu_check_cpu(p, spec->cpu, why, n);
	if (!rc)
		rc = pmu_events(p, spec->level, why, n);
	return rc;
}

/* ------------------------------------------------------------- paranoid */

/* What level @level lets a user without CAP_PERFMON do with this group
 * (the calling thread on one CPU) (kernel/events/core.c perf_allow_kernel,
 * perf_allow_cpu; Documentation/admin-guide/perf-security.rst). */
static const char *paranoid_allows(long level)
{
	if (level >= 3)
		return "no perf events at all to a user without CAP_PERFMON (Debian's and "
		       "Ubuntu's restriction)";
	if (level == 2)
		return "a user without CAP_PERFMON to count user space only, in its own threads";
	if (level == 1)
		return "kernel and user counting of one's own threads, no CPU-wide events";
	if (level == 0)
		return "kernel and user counting, CPU-wide events too, no raw tracepoints";
	return "everything";
}

void perf_pmu_paranoid_why(int err, const char *what, bool user_only, char *why, size_t n)
{
	char line[32], path[PATH_MAX];
	const char *ename = perf_pmu_errno_name(-err);
	long level;
	char *end;
	int rc = cpu_sysfs_read_line(CPU_KNOB_PERF_EVENT_PARANOID, line, sizeof(line));

	cpu_sysfs_path(path, sizeof(path), CPU_KNOB_PERF_EVENT_PARANOID);
	level = rc ? 0 : strtol(line, &end, 10);
	if (rc || end == line || *end) {
		perf_pmu_why(why, n, err, "perf_event_open of %s refused (%s), and '%s' could not "
			     "be read (try: run as root or with CAP_PERFMON)", what, ename, path);
		return;
	}
	if (level >= 3 || (level == 2 && !user_only)) {
		perf_pmu_why(why, n, err, "perf_event_open of %s refused (%s): "
			     "kernel.perf_event_paranoid is %ld, which allows %s (try: %s, or run "
			     "as root or with CAP_PERFMON)", what, ename, level,
			     paranoid_allows(level), level >= 3 ?
			     "sysctl kernel.perf_event_paranoid=2 and --user-only" :
			     "--user-only, or sysctl kernel.perf_event_paranoid=1");
		return;
	}
	perf_pmu_why(why, n, err, "perf_event_open of %s refused (%s): "
		     "kernel.perf_event_paranoid is %ld, which allows %s, so the refusal comes "
		     "from elsewhere: a security module (SELinux, AppArmor) or a container's "
		     "seccomp profile (try: run as root or with CAP_PERFMON, or allow "
		     "perf_event_open in the container)", what, ename, level,
		     paranoid_allows(level));
}
