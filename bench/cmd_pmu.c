/*
 * bench/cmd_pmu.c - `baretma pmu enable | status | restore`: program fixed
 * counter 3 (TOPDOWN.SLOTS) and IA32_PERF_METRICS and leave them running for
 * another harness, with the saved registers (and settings) in one run
 * journal (msr/journal.h) that `pmu restore` (another process, later)
 * writes back.  `status` and `restore` handle every journal in the state
 * directory: those of `pmu enable`, of `msr write`, and of runs that were
 * killed before they could restore.
 *
 * enable refuses the whole command before any write when a target CPU is
 * locked by another baretma, held by another run's journal, in use (FC3 /
 * PERF_METRICS; without --force), lacks fixed counter 3, or is a hybrid
 * part's E-core (no PERF_METRICS while the P-cores have it: a harness
 * would find no Top-down there); a failure midway restores everything
 * through the journal.  IA32_PERF_GLOBAL_CTRL bit 48 is set per CPU from
 * its own kind (pmu_config.perf_metrics), never from the machine's.
 * Hardware facts: msr/pmu.h, pmu-reference §1.2-1.6 and §5.4.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "bench/bench.h"
#include "bench/cli.h"
#include "bench/cli_run.h"
#include "cpu/cpu.h"
#include "cpu/machine.h"
#include "msr/intel_regs.h"
#include "msr/journal.h"
#include "msr/pmu.h"
#include "msr/state_dir.h"

enum {
	OPT_CPU = 1, OPT_USER = 2, OPT_FORCE = 4, OPT_DUMP = 8, OPT_JSON = 16,
	OPT_WAIT = 32, OPT_RDPMC_ALWAYS = 64, OPT_STOP_WD = 128, OPT_ALLOW_WRITES = 256,
};
#define OPT_SETTINGS (OPT_RDPMC_ALWAYS | OPT_STOP_WD | OPT_ALLOW_WRITES)

struct pmu_opts {
	const char *sub;
	const char *cpu_list;
	const char *dump;
	bool user_only, force, json, wait;
	struct cli_settings set;
};

static void pmu_usage(FILE *f)
{
	fprintf(f,
"usage: baretma pmu enable [--cpu LIST] [--user-only] [--force] [--wait]\n"
"                          [--rdpmc-always] [--stop-nmi-watchdog] [--allow-msr-writes]\n"
"                          [--cpuid-dump FILE]\n"
"       baretma pmu status [--cpu LIST] [--json]\n"
"       baretma pmu restore [--cpu LIST] [--wait]\n"
"\n"
"enable   program fixed counter 3 (TOPDOWN.SLOTS) and, where the CPU has it,\n"
"         IA32_PERF_METRICS on every CPU that can (or on --cpu LIST), and leave\n"
"         them running for another harness (RDPMC); the saved registers (and the\n"
"         settings changed with the flags below) go to one journal\n"
"         'run-PID.journal' under $BARETMA_STATE_DIR (default /run/baretma)\n"
"status   every journal: who made it (pid, running or not, command, time), its\n"
"         backend, its CPUs, each register's saved and current value, settings\n"
"restore  put back every journal whose process has ended (with --cpu LIST:\n"
"         every such journal holding one of those CPUs, whole), then remove it\n"
"\n"
"  --cpu LIST         OS CPUs, e.g. 0-3,6 (enable: default every CPU with\n"
"                     PERF_METRICS, else every CPU with fixed counter 3; on\n"
"                     hybrid parts a CPU without PERF_METRICS, i.e. an E-core,\n"
"                     is refused: exit 64, nothing written)\n"
"  --user-only        count at CPL > 0 only (fixed counter 3 field 0x2)\n"
"  --force            take over fixed counter 3 / PERF_METRICS already in use,\n"
"                     or CPUs another journal holds (saying so first)\n"
"  --wait             wait for another baretma on the CPUs (default: exit 75)\n"
"  --rdpmc-always     set perf's rdpmc sysfs value to 2 (RDPMC without perf's mmap)\n"
"  --stop-nmi-watchdog  set /proc/sys/kernel/nmi_watchdog to 0\n"
"  --allow-msr-writes set msr.allow_writes to on\n"
"                     (enable: these stay until 'pmu restore' puts them back)\n"
"  --cpuid-dump FILE  identify from a CPUID dump (also: BARETMA_CPUID_DUMP); a\n"
"                     real MSR device is then refused: the dump is another machine\n"
"  --json             status as one JSON document\n"
"\n"
"exit status: 0 ok, 64 usage (also: an E-core in --cpu, a dump with a real\n"
"  device, restore through another backend, a relative BARETMA_STATE_DIR),\n"
"  65 bad state file/journal/dump, 66 file missing (dump, BARETMA_SYSROOT) or\n"
"  no journal for --cpu, 69 no fixed counter 3 or no device, 70 internal error,\n"
"  71 system error, 73 cannot create the state directory, 75 in use, locked or\n"
"  held by a journal, 77 permission denied\n");
}

/* --------------------------------------------------------------- helpers */

static void fmt_time(char *buf, size_t n, long long t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, n, "%lld", t);
}

/* The SDM name of a PMU register (msr/intel_regs.h), else "MSR 0x..". */
static const char *reg_name(uint32_t msr, char *buf, size_t n)
{
	static const struct { uint32_t msr; const char *name; } names[] = {
		{ IA32_PERF_GLOBAL_CTRL, "IA32_PERF_GLOBAL_CTRL" },
		{ IA32_FIXED_CTR_CTRL, "IA32_FIXED_CTR_CTRL" },
		{ IA32_PERF_METRICS, "IA32_PERF_METRICS" },
		{ IA32_PERF_GLOBAL_STATUS_SET, "IA32_PERF_GLOBAL_STATUS_SET" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].msr == msr) {
			snprintf(buf, n, "%s", names[i].name);
			return buf;
		}
	if (msr >= IA32_FIXED_CTR0 && msr < IA32_FIXED_CTR0 + 7)
		snprintf(buf, n, "IA32_FIXED_CTR%u", (unsigned)(msr - IA32_FIXED_CTR0));
	else if (msr >= IA32_PERFEVTSEL0 && msr < IA32_PERFEVTSEL0 + 32)
		snprintf(buf, n, "IA32_PERFEVTSEL%u", (unsigned)(msr - IA32_PERFEVTSEL0));
	else if (msr >= IA32_PMC0 && msr < IA32_PMC0 + 32)
		snprintf(buf, n, "IA32_PMC%u", (unsigned)(msr - IA32_PMC0));
	else if (msr >= 0x4c1u && msr < 0x4c1u + 32) /* IA32_A_PMCx, pmu-reference §1.1 */
		snprintf(buf, n, "IA32_A_PMC%u", (unsigned)(msr - 0x4c1u));
	else
		snprintf(buf, n, "MSR 0x%" PRIx32, msr);
	return buf;
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
		{ "wait", no_argument, NULL, OPT_WAIT },
		{ "rdpmc-always", no_argument, NULL, OPT_RDPMC_ALWAYS },
		{ "stop-nmi-watchdog", no_argument, NULL, OPT_STOP_WD },
		{ "allow-msr-writes", no_argument, NULL, OPT_ALLOW_WRITES },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char cmd[32];
	int c;

	snprintf(cmd, sizeof(cmd), "pmu %s", o->sub);
	cli_getopt_reset();
	while ((c = cli_getopt(cmd, argc, argv, "h", longopts)) != -1) {
		if (c == 'h') {
			pmu_usage(stdout);
			return -1;
		}
		if (c == CLI_OPT_ERROR)
			return EX_USAGE;
		if (!(c & allowed))
			return cli_usage_err(cmd, "option '%s' does not apply to '%s'",
					     argv[optind - 1], cmd);
		o->cpu_list = c == OPT_CPU ? optarg : o->cpu_list;
		o->dump = c == OPT_DUMP ? optarg : o->dump;
		o->user_only |= c == OPT_USER;
		o->force |= c == OPT_FORCE;
		o->json |= c == OPT_JSON;
		o->wait |= c == OPT_WAIT;
		o->set.rdpmc_always |= c == OPT_RDPMC_ALWAYS;
		o->set.stop_nmi_watchdog |= c == OPT_STOP_WD;
		o->set.allow_msr_writes |= c == OPT_ALLOW_WRITES;
	}
	if (optind < argc)
		return cli_usage_err(cmd, "unexpected argument '%s'", argv[optind]);
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
 * What enable programs by default, ascending: every CPU of the machine @m
 * describes with PERF_METRICS where the machine has any (on hybrid parts
 * the P-cores: the E-cores' kinds have none, pmu-reference §2.5), else
 * every CPU with fixed counter 3 (slots only).
 */
static int capable_cpus(const struct cpu_machine *m, const struct cpu_info *ci, unsigned *cpus)
{
	unsigned td = cpu_topdown_cpus(ci, cpus, CPU_MAX_CPUS);
	int n = 0;

	for (unsigned c = 0; c < ci->ncpus && c < CPU_MAX_CPUS; c++) {
		const struct cpu_kind *k = cpu_info_kind_of(ci, c);

		if (k && (td ? k->topdown_level > 0 : k->fixed_ctr3) &&
		    !cpu_machine_check_cpu(m, c))
			cpus[n++] = c;
	}
	return n;
}

/*
 * Identify the machine @m describes.  With CPUID.1:ECX[15] PDCM,
 * IA32_PERF_CAPABILITIES of @cpu0 is read where @dev reaches it
 * (bench_identify: never this machine's device for a dump's CPU).
 */
static int identify(const struct cpu_machine *m, struct msr_dev *dev, int cpu0,
		    struct cpu_info *ci)
{
	int rc = bench_identify(m, dev, cpu0 < 0 ? 0 : cpu0, ci);

	if (rc) {
		cli_err("cannot identify the CPU from '%s': %s",
			cpu_source_name(cpu_machine_source(m)),
			rc == -EINVAL ? "libcpuid does not recognise the CPUID data" : strerror(-rc));
		return cli_exit_for_errno(rc);
	}
	cli_warn_kinds("pmu enable", m, ci);
	return EX_OK;
}

/*
 * The CPUs to program: the @n CPUs already in @cpus (--cpu), each checked,
 * or (@n < 0) capable_cpus().  Returns the count or -(exit status).
 */
static int pick_targets(const struct cpu_machine *m, const struct cpu_info *ci,
			unsigned *cpus, int n)
{
	static unsigned capable[CPU_MAX_CPUS];
	char list[256], kind[96], subject[64];
	int ncap = capable_cpus(m, ci, capable);

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
		int rc = cpu_machine_check_cpu(m, cpus[i]);

		if (rc || !k) {
			snprintf(subject, sizeof(subject), "pmu enable: cpu %u", cpus[i]);
			return -cli_bad_cpu(subject, m, rc ? rc : -ENXIO, false);
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

/* The whole list is checked before anything is written. */
static int preflight(struct msr_dev *dev, const struct cpu_machine *m, const unsigned *cpus,
		     int n)
{
	for (int i = 0; i < n; i++) {
		int rc = msr_open_cpu(dev, cpus[i]);

		if (rc)
			return cli_msr_fail_cpu(dev, cpus[i], "open", rc);
	}
	return cli_refuse_dump_device("pmu enable", m, dev);
}

/* Locks, other journals, ownership of every target: refused as a whole. */
static int check_targets(struct cli_run *r, struct msr_dev *dev, const struct cpu_info *ci,
			 const unsigned *cpus, int n)
{
	struct cli_journal_hit *hits = calloc((size_t)n, sizeof(*hits));
	int st = hits ? cli_run_lock(r, cpus, n, true) : EX_OSERR;

	if (!st)
		st = cli_run_check_journals(r, cpus, n, hits);
	if (!st)
		st = cli_run_owners(r, dev, ci, cpus, n, hits);
	if (!st)
		st = cli_run_watchdog(r);
	if (!st)
		st = cli_run_allow_writes(r, dev);
	free(hits);
	return st;
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

static bool journaled_cpu(const struct journal *j, unsigned cpu)
{
	const struct journal_data *d = journal_data_of(j);

	for (int i = 0; i < d->ncpus; i++)
		if (d->cpus[i] == cpu)
			return true;
	return false;
}

/* Program every target, each CPU's registers journaled before its writes. */
static int program_all(struct cli_run *r, const struct pmu_opts *o,
		       const struct cpu_info *ci, const unsigned *cpus, int n,
		       struct pmu_saved *t)
{
	char why[256];

	for (int i = 0; i < n; i++) {
		const struct cpu_kind *k = cpu_info_kind_of(ci, cpus[i]);
		struct pmu_config cfg = { .user_only = o->user_only, .force = o->force,
					  .fixed_ctr3 = k->fixed_ctr3,
					  .perf_metrics = k->topdown_level > 0,
					  .journal = r->j };
		int rc = pmu_program(r->dev, cpus[i], &cfg, &t[i], why, sizeof(why));

		if (rc == -EBUSY) {
			cli_err("cpu %u: fixed counter 3 / PERF_METRICS in use: %s (it became busy "
				"after baretma checked)", cpus[i], why);
			return EX_TEMPFAIL;
		}
		/* Journaled: the writes failed.  Not: a read, or the journal itself. */
		bool journaled = journaled_cpu(r->j, cpus[i]);

		if (rc && !journaled && rc != -EIO && rc != -ENXIO && rc != -EACCES &&
		    rc != -EPERM && rc != -ENOENT)
			return cli_state_dir_fail("write the journal", rc);
		if (rc)
			return cli_msr_fail_cpu(r->dev, cpus[i], journaled ? "program" : "read", rc);
	}
	return EX_OK;
}

static void report_enabled(const struct pmu_opts *o, const struct cli_run *r,
			   const unsigned *cpus, int n, const struct pmu_saved *t)
{
	char saved[256], list[256];

	for (int i = 0; i < n; i++) {
		fmt_saved(saved, sizeof(saved), &t[i]);
		printf("cpu %u: fixed counter 3 counting (%s)%s; saved %s\n", cpus[i],
		       o->user_only ? "user only" : "OS+user",
		       t[i].perf_metrics ? " and PERF_METRICS enabled" : "", saved);
	}
	cli_fmt_cpus(list, sizeof(list), cpus, (unsigned)n);
	printf("enabled on cpu %s; journal '%s'; run 'baretma pmu restore' to put "
	       "the saved values back\n", list, journal_path(r->j));
}

static int pmu_enable(const struct pmu_opts *o)
{
	static unsigned cpus[CPU_MAX_CPUS];
	struct cpu_info *ci = calloc(1, sizeof(*ci));
	struct cli_run r = { .wait = o->wait, .force = o->force, .set = o->set };
	struct pmu_saved *t = NULL;
	struct msr_dev *dev = NULL;
	struct cpu_machine *m = NULL;
	int rc, n = -1;

	if (!ci)
		return EX_OSERR;
	if (o->cpu_list && (n = parse_cpus(o->cpu_list, cpus)) < 0) {
		rc = -n;
		goto out;
	}
	rc = cli_msr_open(&dev);
	if (!rc)
		rc = cli_machine_open(o->dump, &m);
	if (!rc)
		rc = identify(m, dev, n > 0 ? (int)cpus[0] : -1, ci);
	if (rc)
		goto out;
	n = pick_targets(m, ci, cpus, n);
	if (n < 0) {
		rc = -n;
		goto out;
	}
	t = calloc((size_t)n, sizeof(*t));
	rc = t ? preflight(dev, m, cpus, n) : EX_OSERR;
	if (!rc)
		rc = check_targets(&r, dev, ci, cpus, n);
	if (!rc)
		rc = cli_run_begin(&r, dev, JOURNAL_ENABLE, o->user_only);
	if (!rc)
		rc = cli_run_settings(&r);
	if (!rc)
		rc = program_all(&r, o, ci, cpus, n, t);
	if (!rc)
		report_enabled(o, &r, cpus, n, t);
	/* Success leaves the journal for "pmu restore"; failure restores now. */
	rc = cli_run_finish(&r, rc, rc == EX_OK);
out:
	free(t);
	msr_close(dev);
	cpu_machine_free(m);
	free(ci);
	return rc;
}

/* ------------------------------------------------------------ journals */

/* Every journal in the state directory; *n entries (free with journals_free). */
static int journals_load(struct journal_info **out, int *n)
{
	int max = 64, rc;

	for (;;) {
		struct journal_info *v = calloc((size_t)max, sizeof(*v));

		if (!v)
			return -ENOMEM;
		rc = journal_list(v, max);
		if (rc >= 0) {
			*out = v;
			*n = rc;
			return 0;
		}
		free(v);
		if (rc != -ERANGE)
			return rc;
		max *= 2;
	}
}

static void journals_free(struct journal_info *v, int n)
{
	journal_info_free(v, n);
	free(v);
}

static bool holds(const struct journal_data *d, unsigned cpu)
{
	for (int i = 0; i < d->ncpus; i++)
		if (d->cpus[i] == cpu)
			return true;
	return false;
}

/* @cpu in the --cpu list (@want, @nwant; @nwant < 0: no list). */
static bool wanted(const unsigned *want, int nwant, unsigned cpu)
{
	for (int i = 0; i < nwant; i++)
		if (want[i] == cpu)
			return true;
	return nwant < 0;
}

static bool holds_wanted(const struct journal_data *d, const unsigned *want, int nwant)
{
	for (int i = 0; i < d->ncpus; i++)
		if (wanted(want, nwant, d->cpus[i]))
			return true;
	return false;
}

/* ------------------------------------------------------------- status */

struct live {
	int rc;          /* -EXDEV: another backend than the journal's */
	uint64_t fixed_ctr_ctrl, global_ctrl;
};

static struct live read_live(struct msr_dev *dev, const struct journal_data *d, unsigned cpu)
{
	struct live l = { .rc = dev ? 0 : -ENODEV };

	if (strcmp(d->backend, cli_msr_spec()))
		return (struct live){ .rc = -EXDEV };
	if (!l.rc)
		l.rc = msr_read(dev, cpu, IA32_FIXED_CTR_CTRL, &l.fixed_ctr_ctrl);
	if (!l.rc)
		l.rc = msr_read(dev, cpu, IA32_PERF_GLOBAL_CTRL, &l.global_ctrl);
	return l;
}

/* "NAME=0xSAVED ..." (or current values, "?" when unreadable) of @cpu. */
static void fmt_regs(char *buf, size_t n, struct msr_dev *dev, const struct journal_data *d,
		     unsigned cpu, bool current)
{
	char name[40];
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; i < d->nregs && o < n; i++) {
		const struct journal_reg *r = &d->regs[i];
		uint64_t v = r->saved;
		int w, rc = 0;

		if (r->cpu != cpu)
			continue;
		if (current)
			rc = msr_read(dev, cpu, r->msr, &v);
		reg_name(r->msr, name, sizeof(name));
		w = rc ? snprintf(buf + o, n - o, "%s%s=?", o ? " " : "", name)
		       : snprintf(buf + o, n - o, "%s%s=0x%" PRIx64, o ? " " : "", name, v);
		if (w < 0)
			break;
		o += (size_t)w;
	}
}

static unsigned fc3_field(uint64_t fcc)
{
	return (unsigned)((fcc & FIXED_CTR3_FIELD_MASK) >> FIXED_CTR3_FIELD_SHIFT);
}

static void print_cpu(struct msr_dev *dev, const struct journal_info *ji, unsigned cpu)
{
	const struct journal_data *d = &ji->data;
	struct live l = read_live(dev, d, cpu);
	char when[64], buf[1024];

	fmt_time(when, sizeof(when), d->time);
	printf("cpu %u: %s by pid %ld (%s) at %s%s\n", cpu,
	       d->kind == JOURNAL_ENABLE ? "enabled" : "left", (long)ji->pid,
	       ji->alive ? "running" : "not running", when, d->user_only ? ", user only" : "");
	fmt_regs(buf, sizeof(buf), dev, d, cpu, false);
	printf("  saved:   %s\n", buf);
	if (l.rc == -EXDEV) {
		printf("  now:     not read (the current MSR backend is '%s')\n", cli_msr_spec());
		return;
	}
	fmt_regs(buf, sizeof(buf), dev, d, cpu, true);
	printf("  current: %s\n", buf);
	if (l.rc)
		printf("  now:     unreadable (%s)\n", strerror(-l.rc));
	else
		printf("  now:     IA32_FIXED_CTR_CTRL[15:12]=0x%x IA32_PERF_GLOBAL_CTRL "
		       "bit 35=%d bit 48=%d\n", fc3_field(l.fixed_ctr_ctrl),
		       !!(l.global_ctrl & GLOBAL_CTRL_EN_FIXED3),
		       !!(l.global_ctrl & GLOBAL_CTRL_EN_PERF_METRICS));
}

/* A setting's value now (first line), or "unreadable (...)". */
static void setting_now(const struct journal_setting *s, char *buf, size_t n)
{
	FILE *f = fopen(s->full, "re");

	if (!f || !fgets(buf, (int)n, f))
		snprintf(buf, n, "unreadable (%s)", f ? "empty" : strerror(errno));
	else
		buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}

static void print_journal(struct msr_dev *dev, const struct journal_info *ji,
			  const unsigned *want, int nwant)
{
	const struct journal_data *d = &ji->data;
	char holder[1400], when[64], list[256], now[JOURNAL_SETTING_MAX];

	cli_journal_holder(ji, holder, sizeof(holder));
	fmt_time(when, sizeof(when), d->time);
	cli_fmt_cpus(list, sizeof(list), d->cpus, (unsigned)d->ncpus);
	printf("journal '%s': %s\n", ji->path, holder);
	printf("  command: %s\n  time:    %s\n  backend: %s\n  kind:    %s%s\n  cpus:    %s\n",
	       d->cmd, when, d->backend, d->kind == JOURNAL_ENABLE ? "enable" : "run",
	       d->user_only ? ", user only" : "", d->ncpus ? list : "none");
	for (int i = 0; i < d->nsettings; i++) {
		setting_now(&d->settings[i], now, sizeof(now));
		printf("  setting: %s saved '%s', now '%s'\n", d->settings[i].path,
		       d->settings[i].value, now);
	}
	for (int c = 0; c < d->ncpus; c++)
		if (wanted(want, nwant, d->cpus[c]))
			print_cpu(dev, ji, d->cpus[c]);
}

static json_t *hex_json(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_string(buf);
}

/* One CPU: "saved" by field name, "registers" [{msr, name, saved, current}], "now". */
static json_t *cpu_json(struct msr_dev *dev, const struct journal_data *d, unsigned cpu)
{
	static const struct { uint32_t msr; const char *key; } keys[] = {
		{ IA32_PERF_GLOBAL_CTRL, "global_ctrl" }, { IA32_FIXED_CTR_CTRL, "fixed_ctr_ctrl" },
		{ IA32_FIXED_CTR3, "fixed_ctr3" }, { IA32_PERF_METRICS, "perf_metrics" },
	};
	struct live l = read_live(dev, d, cpu);
	json_t *saved = json_object(), *regs = json_array();
	char name[40];

	for (int i = 0; i < d->nregs; i++) {
		const struct journal_reg *r = &d->regs[i];
		uint64_t v;

		if (r->cpu != cpu)
			continue;
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (keys[k].msr == r->msr)
				json_object_set_new(saved, keys[k].key, hex_json(r->saved));
		json_array_append_new(regs, json_pack("{s:o, s:s, s:o, s:o}",
			"msr", hex_json(r->msr), "name", reg_name(r->msr, name, sizeof(name)),
			"saved", hex_json(r->saved), "current",
			l.rc != -EXDEV && !msr_read(dev, cpu, r->msr, &v) ? hex_json(v) : json_null()));
	}
	json_t *j = json_pack("{s:i, s:o, s:o}", "cpu", (int)cpu, "saved", saved,
			      "registers", regs);
	if (j && !l.rc)
		json_object_set_new(j, "now", json_pack("{s:i, s:b, s:b}",
			"fixed_ctr3_field", (int)fc3_field(l.fixed_ctr_ctrl),
			"global_ctrl_en_fixed3", !!(l.global_ctrl & GLOBAL_CTRL_EN_FIXED3),
			"global_ctrl_en_perf_metrics",
			!!(l.global_ctrl & GLOBAL_CTRL_EN_PERF_METRICS)));
	else if (j)
		json_object_set_new(j, "now_error", json_string(l.rc == -EXDEV ?
			"not read: the journal's MSR backend is not the current one" :
			strerror(-l.rc)));
	return j;
}

/* Values as "0x.." strings: JSON numbers lose bits above 2^53. */
static json_t *journal_json(struct msr_dev *dev, const struct journal_info *ji,
			    const unsigned *want, int nwant)
{
	const struct journal_data *d = &ji->data;
	json_t *cpus = json_array(), *sets = json_array();
	char holder[1400], now[JOURNAL_SETTING_MAX];

	cli_journal_holder(ji, holder, sizeof(holder));
	for (int c = 0; c < d->ncpus; c++)
		if (wanted(want, nwant, d->cpus[c]))
			json_array_append_new(cpus, cpu_json(dev, d, d->cpus[c]));
	for (int i = 0; i < d->nsettings; i++) {
		setting_now(&d->settings[i], now, sizeof(now));
		json_array_append_new(sets, json_pack("{s:s, s:s, s:s}", "path",
			d->settings[i].path, "saved", d->settings[i].value, "current", now));
	}
	return json_pack("{s:s, s:I, s:b, s:s, s:s, s:s, s:I, s:s, s:b, s:o, s:o}",
			 "path", ji->path, "pid", (json_int_t)ji->pid, "alive", ji->alive,
			 "kind", d->kind == JOURNAL_ENABLE ? "enable" : "run", "holder", holder,
			 "cmd", d->cmd, "time", (json_int_t)d->time, "backend", d->backend,
			 "user_only", d->user_only, "cpus", cpus, "settings", sets);
}

static int pmu_status(const struct pmu_opts *o)
{
	static unsigned want[CPU_MAX_CPUS];
	struct journal_info *v = NULL;
	struct msr_dev *dev = NULL;
	json_t *doc = NULL, *arr = NULL, *errs = NULL;
	int n = 0, nwant = -1, shown = 0, rc = cli_msr_open(&dev);

	if (!rc && o->cpu_list && (nwant = parse_cpus(o->cpu_list, want)) < 0)
		rc = -nwant;
	if (!rc && (rc = journals_load(&v, &n)))
		rc = cli_state_dir_fail("list the journals", rc);
	if (rc)
		goto out;
	if (o->json) {
		arr = json_array();
		errs = json_array();
		doc = json_pack("{s:s, s:o, s:o}", "state_dir", state_dir_path(), "journals", arr,
				"errors", errs);
	}
	for (int i = 0; i < n; i++) {
		if (v[i].error) {
			/* never skipped silently: named, and the exit status says it */
			int st = cli_journal_bad(&v[i]);

			rc = rc ? rc : st;
			if (errs)
				json_array_append_new(errs, json_pack("{s:s, s:s}", "path", v[i].path,
					"error", v[i].detail[0] ? v[i].detail : strerror(-v[i].error)));
			continue;
		}
		if (!holds_wanted(&v[i].data, want, nwant))
			continue;
		shown++;
		if (o->json)
			json_array_append_new(arr, journal_json(dev, &v[i], want, nwant));
		else
			print_journal(dev, &v[i], want, nwant);
	}
	if (!o->json && !shown && !rc)
		printf("no journal in '%s': no CPU enabled by 'baretma pmu enable' and no run "
		       "left anything to restore\n", state_dir_path());
	if (o->json && (!doc || json_dumpf(doc, stdout, JSON_INDENT(2)) != 0)) {
		cli_err("pmu status: cannot build the JSON document (out of memory)");
		rc = EX_SOFTWARE;
	} else if (o->json) {
		fputc('\n', stdout);
	}
out:
	json_decref(doc);
	journals_free(v, n);
	msr_close(dev);
	return rc;
}

/* ------------------------------------------------------------ restore */

/*
 * Which journals to restore: not alive, holding a --cpu CPU (whole
 * journals: a part would leave the rest of it half put back).  Every
 * journal must load (65/77 otherwise), every --cpu CPU must be held (66),
 * and held by a journal that can be restored (75 when only a running
 * baretma's holds it).  @sel[i] says which.
 */
static int restore_select(struct journal_info *v, int n, const unsigned *want, int nwant,
			  bool *sel)
{
	int st = EX_OK;

	for (int i = 0; i < n; i++)
		if (v[i].error)
			return cli_journal_bad(&v[i]);
	for (int i = 0; i < n; i++) {
		sel[i] = !v[i].alive && holds_wanted(&v[i].data, want, nwant);
		if (v[i].alive && holds_wanted(&v[i].data, want, nwant))
			cli_note("journal '%s' belongs to a running baretma (pid %ld): left to it",
				 v[i].path, (long)v[i].pid);
	}
	for (int k = 0; k < nwant; k++) {
		bool any = false, dead = false;

		for (int i = 0; i < n; i++) {
			any |= holds(&v[i].data, want[k]);
			dead |= sel[i] && holds(&v[i].data, want[k]);
		}
		if (!any) {
			cli_err("cpu %u has no journal in '%s': nothing to restore", want[k],
				state_dir_path());
			return EX_NOINPUT;
		}
		if (!dead)
			st = EX_TEMPFAIL; /* only a running baretma holds it */
	}
	return st;
}

/* The journals' backend must be the current one; their CPUs reachable. */
static int restore_preflight(struct msr_dev *dev, const struct journal_info *v, int n,
			     const bool *sel)
{
	for (int i = 0; i < n; i++) {
		const struct journal_data *d = &v[i].data;

		if (!sel[i] || d->nregs == 0) /* settings only: no backend involved */
			continue;
		if (strcmp(d->backend, cli_msr_spec())) {
			cli_err("journal '%s' (cpu %u%s): journal was written through MSR backend "
				"'%s', but the current one is '%s' (set BARETMA_MSR='%s' to "
				"restore it)", v[i].path, d->ncpus ? d->cpus[0] : 0,
				d->ncpus > 1 ? ", ..." : "", d->backend, cli_msr_spec(), d->backend);
			return EX_USAGE;
		}
		for (int c = 0; c < d->ncpus; c++) {
			int rc = msr_open_cpu(dev, d->cpus[c]);

			if (rc)
				return cli_msr_fail_cpu(dev, d->cpus[c], "open", rc);
		}
	}
	return EX_OK;
}

/* Lock every CPU of the selected journals (and the settings, when any). */
static int restore_lock(struct cli_run *r, const struct journal_info *v, int n,
			const bool *sel)
{
	static unsigned cpus[CPU_MAX_CPUS];
	int m = 0;

	for (int i = 0; i < n; i++) {
		if (!sel[i])
			continue;
		r->settings_exclusive |= v[i].data.nsettings > 0;
		for (int c = 0; c < v[i].data.ncpus && m < CPU_MAX_CPUS; c++)
			cpus[m++] = v[i].data.cpus[c];
	}
	return cli_run_lock(r, cpus, m, true);
}

static int restore_one(struct msr_dev *dev, const struct journal_info *ji)
{
	const struct journal_data *d = &ji->data;
	char buf[1024];
	int rc = journal_restore_data(d, dev);

	if (rc) {
		cli_err("journal '%s': could not put everything back: %s; journal kept (run "
			"'baretma pmu restore' again)", ji->path, strerror(-rc));
		return cli_exit_for_errno(rc);
	}
	for (int c = 0; c < d->ncpus; c++) {
		fmt_regs(buf, sizeof(buf), dev, d, d->cpus[c], false);
		printf("cpu %u: restored %s (saved by pid %ld, '%s')\n", d->cpus[c], buf,
		       (long)ji->pid, d->cmd);
	}
	for (int i = 0; i < d->nsettings; i++)
		printf("setting %s: restored '%s' (saved by pid %ld)\n", d->settings[i].path,
		       d->settings[i].value, (long)ji->pid);
	rc = journal_remove(ji->pid);
	return rc ? cli_state_dir_fail("remove the journal", rc) : EX_OK;
}

/*
 * Newest journal first: when two journals hold the same register (a run
 * with --force on top of another's), the newer one saved the value the
 * older one wrote, so undoing them in reverse order of creation ends at the
 * value from before both.  Order: journal time, then the process start time
 * (clock ticks since boot), then the pid, all descending.
 */
static const struct journal_info *order_base;

static int newest_first(const void *a, const void *b)
{
	const struct journal_data *x = &order_base[*(const int *)a].data;
	const struct journal_data *y = &order_base[*(const int *)b].data;

	if (x->time != y->time)
		return x->time > y->time ? -1 : 1;
	if (x->starttime != y->starttime)
		return x->starttime > y->starttime ? -1 : 1;
	return x->pid > y->pid ? -1 : x->pid < y->pid;
}

static int pmu_restore_cmd(const struct pmu_opts *o)
{
	static unsigned want[CPU_MAX_CPUS];
	struct cli_run r = { .wait = o->wait };
	struct journal_info *v = NULL;
	struct msr_dev *dev = NULL;
	bool *sel = NULL;
	int *order = NULL;
	int n = 0, nwant = -1, rc = 0, st, any = 0;

	if (o->cpu_list && (nwant = parse_cpus(o->cpu_list, want)) < 0)
		return -nwant;
	rc = journals_load(&v, &n);
	if (rc) {
		st = cli_state_dir_fail("list the journals", rc);
		goto out;
	}
	if (n == 0 && nwant < 0) {
		printf("nothing to restore: no journal in '%s'\n", state_dir_path());
		st = EX_OK;
		goto out;
	}
	sel = calloc((size_t)n + 1, sizeof(*sel));
	st = sel ? restore_select(v, n, want, nwant, sel) : EX_OSERR;
	for (int i = 0; i < n && sel; i++)
		any += sel[i];
	if ((st && st != EX_TEMPFAIL) || !any)
		goto out;
	rc = cli_msr_open(&dev);
	if (!rc)
		rc = restore_preflight(dev, v, n, sel);
	if (!rc)
		rc = restore_lock(&r, v, n, sel);
	if (!rc && !(order = calloc((size_t)n, sizeof(*order))))
		rc = EX_OSERR;
	for (int i = 0; i < n && order; i++)
		order[i] = i;
	order_base = v;
	if (order)
		qsort(order, (size_t)n, sizeof(*order), newest_first);
	for (int k = 0; k < n && !rc; k++)
		if (sel[order[k]]) {
			int one = restore_one(dev, &v[order[k]]);
			st = st ? st : one;
		}
	st = rc ? rc : st;
	cli_run_finish(&r, 0, false);
out:
	if (!any && !st && n)
		printf("nothing to restore: every journal in '%s' belongs to a running baretma\n",
		       state_dir_path());
	free(order);
	free(sel);
	journals_free(v, n);
	msr_close(dev);
	return st;
}

/* --------------------------------------------------------------- entry */

int cmd_pmu(int argc, char **argv)
{
	static const struct { const char *name; int allowed; int (*fn)(const struct pmu_opts *); } subs[] = {
		{ "enable", OPT_CPU | OPT_USER | OPT_FORCE | OPT_DUMP | OPT_WAIT | OPT_SETTINGS,
		  pmu_enable },
		{ "status", OPT_CPU | OPT_JSON, pmu_status },
		{ "restore", OPT_CPU | OPT_WAIT, pmu_restore_cmd },
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
