/*
 * bench/cmd_pmu.c - `baretma pmu enable | status | restore`: program fixed
 * counter 3 (TOPDOWN.SLOTS) and IA32_PERF_METRICS and leave them running for
 * another harness, keeping a journal of the saved registers per CPU so that
 * `pmu restore` (another process, later) can write them back.
 *
 * enable refuses the whole command before any write when a target CPU is in
 * use (without --force), already has a journal, lacks fixed counter 3, or
 * is a hybrid part's E-core (no PERF_METRICS while the P-cores have it: a
 * harness would find no Top-down there); a failure midway restores the
 * CPUs already programmed.  IA32_PERF_GLOBAL_CTRL bit 48 is set per CPU
 * from its own kind (pmu_config.perf_metrics), never from the machine's.
 * Hardware facts: msr/pmu.h, pmu-reference §1.2-1.6 and §5.4.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "bench/cli.h"
#include "cpu/cpu.h"
#include "msr/intel_regs.h"
#include "msr/pmu.h"

#define MSR_DEFAULT_SPEC "/dev/cpu/%u/msr" /* msr/msr.h */

enum { OPT_CPU = 1, OPT_USER = 2, OPT_FORCE = 4, OPT_DUMP = 8, OPT_JSON = 16 };

struct pmu_opts {
	const char *sub;
	const char *cpu_list;
	const char *dump;
	bool user_only, force, json;
};

static void pmu_usage(FILE *f)
{
	fprintf(f,
"usage: baretma pmu enable [--cpu LIST] [--user-only] [--force] [--cpuid-dump FILE]\n"
"       baretma pmu status [--cpu LIST] [--json]\n"
"       baretma pmu restore [--cpu LIST]\n"
"\n"
"enable   program fixed counter 3 (TOPDOWN.SLOTS) and, where the CPU has it,\n"
"         IA32_PERF_METRICS on every CPU that can (or on --cpu LIST), and leave\n"
"         them running for another harness (RDPMC); the saved registers go to a\n"
"         journal per CPU under $BARETMA_STATE_DIR (default /run/baretma)\n"
"status   the journals: who enabled which CPU and when, the saved values, and\n"
"         the fixed counter 3 / PERF_METRICS enables as they are now\n"
"restore  write the saved values back and remove the journals\n"
"\n"
"  --cpu LIST         OS CPUs, e.g. 0-3,6 (enable: default every CPU with\n"
"                     PERF_METRICS, else every CPU with fixed counter 3; on\n"
"                     hybrid parts a CPU without PERF_METRICS, i.e. an E-core,\n"
"                     is refused: exit 64, nothing written)\n"
"  --user-only        count at CPL > 0 only (fixed counter 3 field 0x2)\n"
"  --force            take over fixed counter 3 / PERF_METRICS already in use\n"
"  --cpuid-dump FILE  identify from a CPUID dump (also: BARETMA_CPUID_DUMP)\n"
"  --json             status as one JSON document\n"
"\n"
"exit status: 0 ok, 64 usage (also: an E-core in --cpu), 65 bad state file/\n"
"  journal/dump, 66 file missing, 69 no fixed counter 3 or no device, 71 system\n"
"  error, 75 in use or already enabled, 77 permission denied\n");
}

/* --------------------------------------------------------------- helpers */

/* The MSR spec msr_open(NULL) would use (msr/msr.h); recorded in journals. */
static const char *msr_spec(void)
{
	const char *s = getenv("BARETMA_MSR");

	return s && *s ? s : MSR_DEFAULT_SPEC;
}

static void fmt_time(char *buf, size_t n, long long t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, n, "%lld", t);
}

static void fmt_saved(char *buf, size_t n, const struct pmu_saved *s)
{
	int w = snprintf(buf, n, "IA32_PERF_GLOBAL_CTRL=0x%" PRIx64 " IA32_FIXED_CTR_CTRL=0x%"
			 PRIx64 " IA32_FIXED_CTR3=0x%" PRIx64, s->global_ctrl,
			 s->fixed_ctr_ctrl, s->fixed_ctr3);

	if (s->perf_metrics && w > 0 && (size_t)w < n)
		snprintf(buf + w, n - (size_t)w, " IA32_PERF_METRICS=0x%" PRIx64,
			 s->perf_metrics_val);
}

static bool pid_alive(pid_t pid)
{
	return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

static int open_msr(struct msr_dev **dev)
{
	int rc = msr_open(msr_spec(), dev);

	if (!rc)
		return EX_OK;
	if (*msr_last_error())
		cli_err("%s", msr_last_error());
	else
		cli_err("cannot open MSR backend '%s': %s", msr_spec(), strerror(-rc));
	return cli_exit_for_errno(rc);
}

/* A message for a journal/state-dir error; returns the exit status. */
static int journal_fail(const char *what, unsigned cpu, int err)
{
	const char *dir = pmu_state_dir();

	switch (-err) {
	case ELOOP:
		cli_err("state dir '%s' is a symbolic link: refused (journals decide what "
			"is written to MSRs; use a real directory)", dir);
		return EX_NOPERM;
	case EPERM:
		cli_err("state dir '%s' is not owned by uid %u or is writable by others: "
			"refused (chown it to uid %u and chmod 700)", dir,
			(unsigned)geteuid(), (unsigned)geteuid());
		return EX_NOPERM;
	case EINVAL:
		cli_err("journal '%s/cpu%u.journal' is malformed (inspect it; remove it by "
			"hand once cpu %u's registers are known to be right)", dir, cpu, cpu);
		return EX_DATAERR;
	default:
		cli_err("cannot %s journal '%s/cpu%u.journal': %s", what, dir, cpu,
			strerror(-err));
		return cli_exit_for_errno(err);
	}
}

/* ------------------------------------------------------------- options */

/* Returns 0 to go on, -1 after --help, or an exit status. */
static int parse_args(int argc, char **argv, int allowed, struct pmu_opts *o)
{
	static const struct option longopts[] = {
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "user-only", no_argument, NULL, OPT_USER },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "cpuid-dump", required_argument, NULL, OPT_DUMP },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'h') {
			pmu_usage(stdout);
			return -1;
		}
		if (c == '?' || c == ':' || !(c & allowed)) {
			cli_err("pmu %s: unknown, incomplete or inapplicable option '%s' "
				"(try: baretma pmu --help)", o->sub, argv[optind - 1]);
			return EX_USAGE;
		}
		o->cpu_list = c == OPT_CPU ? optarg : o->cpu_list;
		o->dump = c == OPT_DUMP ? optarg : o->dump;
		o->user_only |= c == OPT_USER;
		o->force |= c == OPT_FORCE;
		o->json |= c == OPT_JSON;
	}
	if (optind < argc) {
		cli_err("pmu %s: unexpected argument '%s' (try: baretma pmu --help)", o->sub,
			argv[optind]);
		return EX_USAGE;
	}
	return 0;
}

/* --cpu LIST into @cpus; returns the count or -(exit status). */
static int parse_cpus(const char *list, unsigned *cpus)
{
	int n = cli_parse_cpu_list(list, cpus, CPU_MAX_CPUS);

	if (n < 0) {
		cli_err("bad --cpu '%s': give OS CPU numbers below %d, e.g. 0-3,6", list,
			CPU_MAX_CPUS);
		return -EX_USAGE;
	}
	return n;
}

/* ------------------------------------------------------ identification */

/* "efficiency core, Gracemont" or just "Skylake" where not hybrid. */
static void fmt_kind(char *buf, size_t n, const struct cpu_kind *k)
{
	const char *uarch = k->uarch ? k->uarch : "unknown microarchitecture";

	if (!strcmp(k->kind, "general"))
		snprintf(buf, n, "%s", uarch);
	else
		snprintf(buf, n, "%s core, %s", k->kind, uarch);
}

/*
 * What enable programs by default, ascending: every CPU with PERF_METRICS
 * where the machine has any (on hybrid parts the P-cores: the E-cores'
 * kinds have none, pmu-reference §2.5), else every CPU with fixed counter 3
 * (slots only).
 */
static int capable_cpus(const struct cpu_info *ci, unsigned *cpus)
{
	int n = (int)cpu_topdown_cpus(ci, cpus, CPU_MAX_CPUS);

	if (n > 0)
		return n;
	for (unsigned c = 0; c < ci->ncpus && c < CPU_MAX_CPUS; c++) {
		const struct cpu_kind *k = cpu_info_kind_of(ci, c);

		if (k && k->fixed_ctr3)
			cpus[n++] = c;
	}
	return n;
}

/*
 * Identify from --cpuid-dump / $BARETMA_CPUID_DUMP / the live CPU.  With
 * CPUID.1:ECX[15] PDCM, IA32_PERF_CAPABILITIES is read (pmu-reference §1.6)
 * on @cpu0 and passed on; a failed read passes NULL.
 */
static int identify(const struct pmu_opts *o, struct msr_dev *dev, int cpu0,
		    struct cpu_info *ci)
{
	struct cpu_source *src;
	uint32_t regs[4];
	uint64_t caps;
	bool have_caps = false;
	int rc = cli_check_dump(o->dump);

	if (rc)
		return rc;
	src = cpu_source_from_env(o->dump);
	if (!src) {
		cli_err("cannot read CPUID: %s", strerror(errno));
		return cli_exit_for_errno(-errno);
	}
	if (!cpu_source_cpuid(src, 0, 1, 0, regs) && (regs[2] & CPUID_01_ECX_PDCM))
		have_caps = msr_read(dev, cpu0 < 0 ? 0 : (unsigned)cpu0,
				     IA32_PERF_CAPABILITIES, &caps) == 0;
	rc = cpu_info_identify(src, have_caps ? &caps : NULL, ci);
	if (rc) {
		cli_err("cannot identify the CPU from '%s': %s", cpu_source_name(src),
			rc == -EINVAL ? "libcpuid does not recognise the CPUID data" : strerror(-rc));
		rc = cli_exit_for_errno(rc);
	} else {
		cli_warn_kinds("pmu enable", src, ci);
	}
	cpu_source_free(src);
	return rc;
}

/*
 * The CPUs to program: the @n CPUs already in @cpus (--cpu), each checked,
 * or (@n < 0) capable_cpus().  Returns the count or -(exit status).
 */
static int pick_targets(const struct cpu_info *ci, unsigned *cpus, int n)
{
	static unsigned capable[CPU_MAX_CPUS];
	char list[256], kind[96];
	int ncap = capable_cpus(ci, capable);

	cli_fmt_cpus(list, sizeof(list), capable, (unsigned)ncap);
	if (n < 0 && ncap == 0) {
		cli_err("pmu enable: %s (%s) has no fixed counter 3 (TOPDOWN.SLOTS) on any "
			"CPU: nothing to program (Top-down slots need an Intel Ice Lake or "
			"later P-core)", ci->brand,
			ci->nkinds && ci->kinds[0].uarch ? ci->kinds[0].uarch : "unknown");
		return -EX_UNAVAILABLE;
	}
	if (n < 0) {
		memcpy(cpus, capable, (size_t)ncap * sizeof(*cpus));
		return ncap;
	}
	for (int i = 0; i < n; i++) {
		const struct cpu_kind *k = cpu_info_kind_of(ci, cpus[i]);

		if (!k) {
			cli_err("cpu %u: no such CPU (the CPU described has CPUs 0-%u)", cpus[i],
				ci->ncpus ? ci->ncpus - 1 : 0);
			return -EX_USAGE;
		}
		/* A hybrid part's E-core: refuse the whole list (README, pmu). */
		if (cpu_topdown_check_cpu(ci, cpus[i], NULL) == -EOPNOTSUPP)
			return -cli_refuse_kind("pmu enable", ci, cpus[i],
						", or no --cpu for every CPU that can");
		if (!k->fixed_ctr3) {
			fmt_kind(kind, sizeof(kind), k);
			cli_err("cpu %u (%s) has no fixed counter 3 (TOPDOWN.SLOTS); CPUs that "
				"can: %s", cpus[i], kind, ncap ? list : "none");
			return -EX_UNAVAILABLE;
		}
	}
	return n;
}

/* ------------------------------------------------------------- enable */

/*
 * cli_msr_fail naming the CPU where the backend's path does not (state
 * file).  A missing device node is EX_UNAVAILABLE like in `baretma bench`
 * (README: 69 = no device for what was asked), not "input file missing".
 */
static int msr_fail(struct msr_dev *dev, unsigned cpu, const char *verb, int err)
{
	char what[96];
	bool state = !strcmp(msr_backend_name(dev), "state");
	int rc;

	if (state)
		snprintf(what, sizeof(what), "%s cpu %u in", verb, cpu);
	else
		snprintf(what, sizeof(what), "%s", verb);
	rc = cli_msr_fail(dev, cpu, what, err);
	return !state && err == -ENOENT ? EX_UNAVAILABLE : rc;
}

/* Refuse when any target has a journal: all of them named in one message. */
static int check_journals(const unsigned *cpus, int n)
{
	static unsigned had[CPU_MAX_CPUS];
	struct pmu_journal_entry e, first;
	char list[256];
	int nhad = 0;

	for (int i = 0; i < n; i++) {
		int rc = pmu_journal_read(cpus[i], &e);

		if (rc && rc != -ENOENT)
			return journal_fail("read", cpus[i], rc);
		if (!rc && nhad++ == 0)
			first = e;
		if (!rc)
			had[nhad - 1] = cpus[i];
	}
	if (!nhad)
		return EX_OK;
	cli_fmt_cpus(list, sizeof(list), had, (unsigned)nhad);
	cli_err("cpu %s already enabled (journals in '%s', first by pid %ld, '%s'): "
		"run 'baretma pmu restore' first", list, pmu_state_dir(), (long)first.pid,
		first.cmd);
	return EX_TEMPFAIL;
}

/* Nothing is written unless every target is reachable, unjournaled and free. */
static int preflight(struct msr_dev *dev, const struct pmu_opts *o, const unsigned *cpus,
		     int n)
{
	char why[256];
	int rc, status;

	for (int i = 0; i < n; i++) {
		rc = msr_open_cpu(dev, cpus[i]);
		if (rc)
			return msr_fail(dev, cpus[i], "open", rc);
	}
	status = check_journals(cpus, n);
	for (int i = 0; i < n && status == EX_OK; i++) {
		rc = pmu_check_in_use(dev, cpus[i], why, sizeof(why));
		if (rc == -EBUSY && o->force) {
			cli_warn("cpu %u: taking over: %s", cpus[i], why);
		} else if (rc == -EBUSY) {
			cli_err("cpu %u: fixed counter 3 / PERF_METRICS in use: %s (perf or "
				"another tool may own it; --force takes over; if baretma left it, "
				"'baretma pmu restore')", cpus[i], why);
			status = EX_TEMPFAIL;
		} else if (rc) {
			return msr_fail(dev, cpus[i], "read IA32_FIXED_CTR_CTRL of", rc);
		}
	}
	return status;
}

/* Restore t[0..n) (newest first) and drop their journals. */
static void rollback(struct msr_dev *dev, struct pmu_saved *t, int n)
{
	char saved[256];

	for (int i = n - 1; i >= 0; i--) {
		int rc = pmu_restore(dev, &t[i]);

		pmu_guard_release(&t[i]);
		if (rc) {
			fmt_saved(saved, sizeof(saved), &t[i]);
			cli_err("cpu %u: could not restore (%s): saved %s; journal kept "
				"if written", t[i].cpu, strerror(-rc), saved);
			continue;
		}
		rc = pmu_journal_remove(t[i].cpu);
		if (rc && rc != -ENOENT)
			cli_warn("cpu %u restored, but its journal could not be removed: %s",
				 t[i].cpu, strerror(-rc));
	}
}

static int journal_one(const struct pmu_opts *o, const struct pmu_saved *s)
{
	struct pmu_journal_entry e = { .saved = *s, .pid = getpid(),
				       .time = (long long)time(NULL), .user_only = o->user_only };

	snprintf(e.cmd, sizeof(e.cmd), "%s", cli_cmdline());
	snprintf(e.backend, sizeof(e.backend), "%s", msr_spec());
	return pmu_journal_write(&e);
}

static int program_all(struct msr_dev *dev, const struct pmu_opts *o,
		       const struct cpu_info *ci, const unsigned *cpus, int n,
		       struct pmu_saved *t)
{
	char why[256];
	int rc, i;

	rc = pmu_guard_install();
	if (rc) {
		cli_err("cannot install signal handlers: %s", strerror(-rc));
		return EX_OSERR;
	}
	for (i = 0; i < n; i++) {
		const struct cpu_kind *k = cpu_info_kind_of(ci, cpus[i]);
		struct pmu_config cfg = { .user_only = o->user_only, .force = o->force,
					  .fixed_ctr3 = k->fixed_ctr3,
					  .perf_metrics = k->topdown_level > 0 };

		pmu_guard_register(dev, &t[i]);
		rc = pmu_program(dev, cpus[i], &cfg, &t[i], why, sizeof(why));
		if (rc) {
			if (rc == -EBUSY)
				cli_err("cpu %u became busy: %s", cpus[i], why);
			rc = rc == -EBUSY ? EX_TEMPFAIL : msr_fail(dev, cpus[i], "program", rc);
			break;
		}
		rc = journal_one(o, &t[i]);
		if (rc) {
			rc = journal_fail("write", cpus[i], rc);
			break;
		}
	}
	if (i < n) {
		rollback(dev, t, i + 1);
		return rc;
	}
	for (i = 0; i < n; i++)
		pmu_guard_release(&t[i]);
	return EX_OK;
}

static void report_enabled(const struct pmu_opts *o, const unsigned *cpus, int n,
			   const struct pmu_saved *t)
{
	char saved[256], list[256];

	for (int i = 0; i < n; i++) {
		fmt_saved(saved, sizeof(saved), &t[i]);
		printf("cpu %u: fixed counter 3 counting (%s)%s; saved %s\n", cpus[i],
		       o->user_only ? "user only" : "OS+user",
		       t[i].perf_metrics ? " and PERF_METRICS enabled" : "", saved);
	}
	cli_fmt_cpus(list, sizeof(list), cpus, (unsigned)n);
	printf("enabled on cpu %s; journals in '%s'; run 'baretma pmu restore' to put "
	       "the saved values back\n", list, pmu_state_dir());
}

static int pmu_enable(const struct pmu_opts *o)
{
	static unsigned cpus[CPU_MAX_CPUS];
	struct cpu_info *ci = calloc(1, sizeof(*ci));
	struct pmu_saved *t = NULL;
	struct msr_dev *dev = NULL;
	int rc, n = -1;

	if (!ci)
		return EX_OSERR;
	if (o->cpu_list && (n = parse_cpus(o->cpu_list, cpus)) < 0) {
		rc = -n;
		goto out;
	}
	rc = open_msr(&dev);
	if (rc)
		goto out;
	rc = identify(o, dev, n > 0 ? (int)cpus[0] : -1, ci);
	if (rc)
		goto out;
	n = pick_targets(ci, cpus, n);
	if (n < 0) {
		rc = -n;
		goto out;
	}
	t = calloc((size_t)n, sizeof(*t));
	rc = t ? preflight(dev, o, cpus, n) : EX_OSERR;
	if (!rc)
		rc = program_all(dev, o, ci, cpus, n, t);
	if (!rc)
		report_enabled(o, cpus, n, t);
out:
	free(t);
	msr_close(dev);
	free(ci);
	return rc;
}

/* ------------------------------------------------------------- status */

/* Journal CPUs, filtered by --cpu; returns the count or -(exit status). */
static int journal_cpus(const struct pmu_opts *o, unsigned *cpus)
{
	static unsigned want[CPU_MAX_CPUS];
	int n = pmu_journal_list(cpus, CPU_MAX_CPUS), nw, m = 0;

	if (n < 0)
		return -journal_fail("list", 0, n);
	if (!o->cpu_list)
		return n;
	nw = parse_cpus(o->cpu_list, want);
	if (nw < 0)
		return nw;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < nw; j++)
			if (cpus[i] == want[j])
				cpus[m++] = cpus[i];
	return m;
}

struct live {
	int rc;
	uint64_t fixed_ctr_ctrl, global_ctrl;
};

static struct live read_live(struct msr_dev *dev, unsigned cpu)
{
	struct live l = { .rc = dev ? 0 : -ENODEV };

	if (!l.rc)
		l.rc = msr_read(dev, cpu, IA32_FIXED_CTR_CTRL, &l.fixed_ctr_ctrl);
	if (!l.rc)
		l.rc = msr_read(dev, cpu, IA32_PERF_GLOBAL_CTRL, &l.global_ctrl);
	return l;
}

static void print_entry(const struct pmu_journal_entry *e, const struct live *l)
{
	char when[64], saved[256];

	fmt_time(when, sizeof(when), e->time);
	fmt_saved(saved, sizeof(saved), &e->saved);
	printf("cpu %u: enabled by pid %ld (%s) at %s%s\n", e->saved.cpu, (long)e->pid,
	       pid_alive(e->pid) ? "running" : "not running", when,
	       e->user_only ? ", user only" : "");
	printf("  command: %s\n  backend: %s\n  saved:   %s\n", e->cmd, e->backend, saved);
	if (l->rc == -EXDEV)
		printf("  now:     not read (the current MSR backend is '%s')\n", msr_spec());
	else if (l->rc)
		printf("  now:     unreadable (%s)\n", strerror(-l->rc));
	else
		printf("  now:     IA32_FIXED_CTR_CTRL[15:12]=0x%x IA32_PERF_GLOBAL_CTRL "
		       "bit 35=%d bit 48=%d\n",
		       (unsigned)((l->fixed_ctr_ctrl & FIXED_CTR3_FIELD_MASK) >> FIXED_CTR3_FIELD_SHIFT),
		       !!(l->global_ctrl & GLOBAL_CTRL_EN_FIXED3),
		       !!(l->global_ctrl & GLOBAL_CTRL_EN_PERF_METRICS));
}

static json_t *hex_json(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_string(buf);
}

/* Values as "0x.." strings: JSON numbers lose bits above 2^53. */
static json_t *entry_json(const struct pmu_journal_entry *e, const struct live *l)
{
	const struct pmu_saved *s = &e->saved;
	json_t *j = json_pack("{s:i, s:I, s:b, s:s, s:I, s:s, s:b, s:{s:o, s:o, s:o, s:o?}}",
			      "cpu", (int)s->cpu, "pid", (json_int_t)e->pid,
			      "alive", pid_alive(e->pid), "cmd", e->cmd,
			      "time", (json_int_t)e->time, "backend", e->backend,
			      "user_only", e->user_only, "saved",
			      "global_ctrl", hex_json(s->global_ctrl),
			      "fixed_ctr_ctrl", hex_json(s->fixed_ctr_ctrl),
			      "fixed_ctr3", hex_json(s->fixed_ctr3),
			      "perf_metrics", s->perf_metrics ? hex_json(s->perf_metrics_val) : NULL);

	if (j && !l->rc)
		json_object_set_new(j, "now", json_pack("{s:i, s:b, s:b}",
			"fixed_ctr3_field",
			(int)((l->fixed_ctr_ctrl & FIXED_CTR3_FIELD_MASK) >> FIXED_CTR3_FIELD_SHIFT),
			"global_ctrl_en_fixed3", !!(l->global_ctrl & GLOBAL_CTRL_EN_FIXED3),
			"global_ctrl_en_perf_metrics",
			!!(l->global_ctrl & GLOBAL_CTRL_EN_PERF_METRICS)));
	else if (j)
		json_object_set_new(j, "now_error", json_string(l->rc == -EXDEV ?
			"not read: the journal's MSR backend is not the current one" :
			strerror(-l->rc)));
	return j;
}

static int pmu_status(const struct pmu_opts *o)
{
	static unsigned cpus[CPU_MAX_CPUS];
	struct msr_dev *dev = NULL;
	json_t *doc = NULL, *arr = NULL;
	int n = 0, rc = open_msr(&dev);

	if (rc)
		goto out;
	n = journal_cpus(o, cpus);
	if (n < 0) {
		rc = -n;
		goto out;
	}
	if (o->json) {
		arr = json_array();
		doc = json_pack("{s:s, s:o}", "state_dir", pmu_state_dir(), "journals", arr);
	} else if (n == 0) {
		printf("no journal in '%s': no CPU enabled by 'baretma pmu enable'\n",
		       pmu_state_dir());
	}
	for (int i = 0; i < n; i++) {
		struct pmu_journal_entry e;
		struct live l;
		int r = pmu_journal_read(cpus[i], &e);

		if (r) {
			rc = journal_fail("read", cpus[i], r);
			continue;
		}
		/* Live values only through the backend the journal was made with. */
		l = strcmp(e.backend, msr_spec()) ? (struct live){ .rc = -EXDEV }
						  : read_live(dev, cpus[i]);
		if (o->json)
			json_array_append_new(arr, entry_json(&e, &l));
		else
			print_entry(&e, &l);
	}
	if (o->json && (!doc || json_dumpf(doc, stdout, JSON_INDENT(2)) != 0)) {
		cli_err("pmu status: cannot build the JSON document (out of memory)");
		rc = EX_SOFTWARE;
	} else if (o->json) {
		fputc('\n', stdout);
	}
out:
	json_decref(doc);
	msr_close(dev);
	return rc;
}

/* ------------------------------------------------------------ restore */

/* Read every journal and open every CPU before writing anything. */
static int restore_preflight(struct msr_dev *dev, const unsigned *cpus, int n,
			     struct pmu_journal_entry *e)
{
	for (int i = 0; i < n; i++) {
		int rc = pmu_journal_read(cpus[i], &e[i]);

		if (rc == -ENOENT) {
			cli_err("cpu %u has no journal in '%s': nothing to restore", cpus[i],
				pmu_state_dir());
			return EX_NOINPUT;
		}
		if (rc)
			return journal_fail("read", cpus[i], rc);
		if (strcmp(e[i].backend, msr_spec())) {
			cli_err("cpu %u: journal was written through MSR backend '%s', but the "
				"current one is '%s' (set BARETMA_MSR='%s' to restore it)",
				cpus[i], e[i].backend, msr_spec(), e[i].backend);
			return EX_USAGE;
		}
		rc = msr_open_cpu(dev, cpus[i]);
		if (rc)
			return msr_fail(dev, cpus[i], "open", rc);
	}
	return EX_OK;
}

static int restore_all(struct msr_dev *dev, const unsigned *cpus, int n,
		       struct pmu_journal_entry *e)
{
	char saved[256];
	int status = EX_OK;

	for (int i = 0; i < n; i++) {
		int rc = pmu_restore(dev, &e[i].saved);

		if (rc) {
			rc = msr_fail(dev, cpus[i], "restore", rc);
			cli_err("cpu %u: journal kept; run 'baretma pmu restore --cpu %u' again",
				cpus[i], cpus[i]);
			status = status ? status : rc;
			continue;
		}
		fmt_saved(saved, sizeof(saved), &e[i].saved);
		printf("cpu %u: restored %s (saved by pid %ld, '%s')\n", cpus[i], saved,
		       (long)e[i].pid, e[i].cmd);
		rc = pmu_journal_remove(cpus[i]);
		if (rc) {
			status = status ? status : journal_fail("remove", cpus[i], rc);
		}
	}
	return status;
}

static int pmu_restore_cmd(const struct pmu_opts *o)
{
	static unsigned cpus[CPU_MAX_CPUS];
	struct pmu_journal_entry *e = NULL;
	struct msr_dev *dev = NULL;
	int n, rc;

	n = o->cpu_list ? parse_cpus(o->cpu_list, cpus) : journal_cpus(o, cpus);
	if (n < 0)
		return -n;
	if (n == 0) {
		printf("nothing to restore: no journal in '%s'\n", pmu_state_dir());
		return EX_OK;
	}
	e = calloc((size_t)n, sizeof(*e));
	rc = e ? open_msr(&dev) : EX_OSERR;
	if (!rc)
		rc = restore_preflight(dev, cpus, n, e);
	if (!rc)
		rc = restore_all(dev, cpus, n, e);
	msr_close(dev);
	free(e);
	return rc;
}

/* --------------------------------------------------------------- entry */

int cmd_pmu(int argc, char **argv)
{
	static const struct { const char *name; int allowed; int (*fn)(const struct pmu_opts *); } subs[] = {
		{ "enable", OPT_CPU | OPT_USER | OPT_FORCE | OPT_DUMP, pmu_enable },
		{ "status", OPT_CPU | OPT_JSON, pmu_status },
		{ "restore", OPT_CPU, pmu_restore_cmd },
	};
	struct pmu_opts o = { 0 };
	int rc;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		pmu_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EX_USAGE : EX_OK;
	}
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		if (strcmp(argv[1], subs[i].name))
			continue;
		o.sub = subs[i].name;
		rc = parse_args(argc - 1, argv + 1, subs[i].allowed, &o);
		if (rc)
			return rc < 0 ? EX_OK : rc;
		return subs[i].fn(&o);
	}
	cli_err("pmu: unknown command '%s' (try: baretma pmu --help)", argv[1]);
	return EX_USAGE;
}
