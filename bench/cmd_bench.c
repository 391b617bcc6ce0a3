/*
 * bench/cmd_bench.c - "baretma bench": the main job.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/cli.h"
#include "bench/cli_run.h"

/* What only the command line needs (the guard, the consent flags). */
struct bench_cli {
	bool wait;
	struct cli_settings set;
};

static void bench_usage(FILE *f)
{
	size_t n;
	const struct bench_kernel *k = bench_kernels(&n);

	fprintf(f,
"usage: baretma bench [--kernel LIST] [--cpu N] [--backend B] [--reps N]\n"
"                     [--warmup N] [--level 1|2] [--user-only] [--force] [--wait]\n"
"                     [--rdpmc-always] [--stop-nmi-watchdog] [--allow-msr-writes]\n"
"                     [--cpuid-dump FILE] [--json | --csv]\n"
"  --kernel LIST   comma-separated kernels (default: all); 'empty' always runs\n"
"                  first: its cost is subtracted from the others\n"
"  --cpu N         measure on OS CPU N (default: a P-core / a core with PERF_METRICS;\n"
"                  a hybrid part's E-core has none: refused unless --backend tsc)\n"
"  --backend B     auto (default: rdpmc, else msr, else tsc), rdpmc, msr, tsc\n"
"  --reps N        measured repetitions per kernel (default %u)\n"
"  --warmup N      unmeasured repetitions before them (default %u)\n"
"  --level L       Top-down level 1 or 2 (default: the highest the CPU has)\n"
"  --user-only     fixed counter 3 counts at CPL > 0 only\n"
"  --force         take over fixed counter 3 / PERF_METRICS already in use, or a\n"
"                  CPU another run's journal holds (saying so first)\n"
"  --wait          wait for another baretma on the CPU (or the settings) to end\n"
"                  (default: exit 75 naming it)\n"
"  --rdpmc-always  set perf's rdpmc sysfs value to 2 for the run (RDPMC without\n"
"                  perf's mmap), then put it back\n"
"  --stop-nmi-watchdog  set /proc/sys/kernel/nmi_watchdog to 0 for the run, then\n"
"                  put it back\n"
"  --allow-msr-writes   set msr.allow_writes to on for the run, then put it back\n"
"  --cpuid-dump F  identify from a CPUID dump (dry runs with BARETMA_MSR=state:FILE;\n"
"                  a real MSR device is refused: the dump is another machine)\n"
"Registers and settings are saved in a journal under $BARETMA_STATE_DIR before\n"
"they change and put back at the end, on errors and on fatal signals; after a\n"
"crash: baretma pmu restore.  A repetition during which someone else changed\n"
"fixed counter 3 / PERF_METRICS is invalid (tampered); such a run exits 75.\n"
"exit status: 0 ok, 64 usage, 65 bad data, 69 unavailable, 75 busy or tampered,\n"
"  77 permission denied\n"
"kernels:\n", BENCH_DEFAULT_REPS, BENCH_DEFAULT_WARMUP);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %-13s %s\n", k[i].name, k[i].node);
}

static int parse_count(const char *opt, const char *s, unsigned min, unsigned max,
		       unsigned *out)
{
	uint64_t v;

	if (cli_parse_u64(s, &v) || v < min || v > max) {
		cli_err("bad %s '%s': expected a whole number from %u to %u", opt, s, min, max);
		return EX_USAGE;
	}
	*out = (unsigned)v;
	return 0;
}

enum { OPT_WAIT = 1000, OPT_RDPMC_ALWAYS, OPT_STOP_WD, OPT_ALLOW_WRITES };

static int parse_args(int argc, char **argv, struct bench_options *o, enum bench_format *fmt,
		      struct bench_cli *cl)
{
	static const struct option opts[] = {
		{ "kernel", required_argument, NULL, 'k' }, { "cpu", required_argument, NULL, 'c' },
		{ "backend", required_argument, NULL, 'b' }, { "reps", required_argument, NULL, 'r' },
		{ "warmup", required_argument, NULL, 'w' }, { "level", required_argument, NULL, 'l' },
		{ "user-only", no_argument, NULL, 'u' }, { "force", no_argument, NULL, 'F' },
		{ "cpuid-dump", required_argument, NULL, 'd' }, { "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'C' }, { "help", no_argument, NULL, 'h' },
		{ "wait", no_argument, NULL, OPT_WAIT },
		{ "rdpmc-always", no_argument, NULL, OPT_RDPMC_ALWAYS },
		{ "stop-nmi-watchdog", no_argument, NULL, OPT_STOP_WD },
		{ "allow-msr-writes", no_argument, NULL, OPT_ALLOW_WRITES },
		{ NULL, 0, NULL, 0 },
	};
	unsigned v;
	int c, rc = 0;

	optind = 1;
	while (!rc && (c = getopt_long(argc, argv, "k:c:b:r:w:l:uFd:jCh", opts, NULL)) != -1) {
		switch (c) {
		case 'k': o->kernels = optarg; break;
		case 'c':
			if (!(rc = parse_count("--cpu", optarg, 0, CPU_MAX_CPUS - 1, &v)))
				o->cpu = (int)v;
			break;
		case 'b':
			if (bench_backend_parse(optarg, &o->backend)) {
				cli_err("bad --backend '%s': expected auto, rdpmc, msr or tsc", optarg);
				rc = EX_USAGE;
			}
			break;
		case 'r': rc = parse_count("--reps", optarg, 1, BENCH_MAX_REPS, &o->reps); break;
		case 'w': rc = parse_count("--warmup", optarg, 0, BENCH_MAX_REPS, &o->warmup); break;
		case 'l':
			if (strcmp(optarg, "1") && strcmp(optarg, "2")) {
				cli_err("bad --level '%s': Top-down level 1 or 2", optarg);
				rc = EX_USAGE;
			}
			o->level = optarg[0] - '0';
			break;
		case 'u': o->user_only = true; break;
		case 'F': o->force = true; break;
		case 'd': o->cpuid_dump = optarg; break;
		case 'j': *fmt = BENCH_FMT_JSON; break;
		case OPT_WAIT: cl->wait = true; break;
		case OPT_RDPMC_ALWAYS: cl->set.rdpmc_always = o->rdpmc_always = true; break;
		case OPT_STOP_WD: cl->set.stop_nmi_watchdog = true; break;
		case OPT_ALLOW_WRITES: cl->set.allow_msr_writes = true; break;
		case 'C': *fmt = BENCH_FMT_CSV; break;
		case 'h': bench_usage(stdout); return -1;
		default: bench_usage(stderr); return EX_USAGE;
		}
	}
	if (!rc && optind < argc) {
		cli_err("unexpected argument '%s' (try: baretma bench --help)", argv[optind]);
		rc = EX_USAGE;
	}
	return rc;
}

static int check_kernels(const char *list)
{
	char buf[512], *save = NULL;

	if (!list)
		return 0;
	if (!*list || strlen(list) >= sizeof(buf)) {
		cli_err("bad --kernel '%s': give a comma-separated list of kernel names", list);
		return EX_USAGE;
	}
	strcpy(buf, list);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (!bench_kernel_find(t)) {
			cli_err("unknown kernel '%s' in --kernel (try: baretma bench --help for the list)", t);
			return EX_USAGE;
		}
	return 0;
}

/* A CPUID dump named by --cpuid-dump or BARETMA_CPUID_DUMP must load. */
int cli_check_dump(const char *path)
{
	const char *p = path ? path : getenv("BARETMA_CPUID_DUMP");
	struct cpu_source *src;

	if (!p)
		return 0;
	src = cpu_source_dump(p);
	if (src) {
		cpu_source_free(src);
		return 0;
	}
	int err = errno;
	cli_err("cannot load CPUID dump '%s': %s (give a libcpuid raw dump, an AIDA64 CPUID dump, a hwloc-gather-cpuid directory or a file from 'baretma cpuid dump')",
		p, err == EINVAL && *cpu_source_error() ? cpu_source_error() : strerror(err));
	return err == ENOENT ? EX_NOINPUT : err == EACCES ? EX_NOPERM : EX_DATAERR;
}

static int report_failure(const struct bench_options *o, struct bench_session *s,
			  const struct bench_result *res, int rc)
{
	struct msr_dev *dev = bench_session_dev(s);
	struct msr_fault f;
	char more[128];

	switch (-rc) {
	case EOPNOTSUPP:
		snprintf(more, sizeof(more), ", or no --cpu to let baretma choose, or --backend "
			 "tsc to time cpu %u without Top-down", res->cpu_used);
		return cli_refuse_kind(NULL, &res->cpu, res->cpu_used, more);
	case ENXIO:
		if (o->cpu < 0)
			cli_err("no CPU this process may run on has a core kind that can measure "
				"(on hybrid parts: no P-core in the allowed set; choose one with --cpu N)");
		else
			cli_err("cannot measure on cpu %d: no such CPU, or it is offline or not "
				"allowed for this process (see: hwloc-ls)", o->cpu);
		return EX_USAGE;
	case ENODEV:
		cli_err("cannot use --backend %s on cpu %u: %s", bench_backend_name(o->backend),
			res->cpu_used, res->avail.reason);
		return EX_UNAVAILABLE;
	case EBUSY:
		/* pmu_program's own check: in use since the ownership check */
		cli_err("cpu %u: fixed counter 3 / PERF_METRICS in use: %s (it became busy "
			"after baretma checked; --force takes over, saving and restoring the "
			"registers)", res->cpu_used, res->avail.reason);
		return EX_TEMPFAIL;
	case EINVAL:
		if (res->avail.reason[0]) {
			cli_err("%s", res->avail.reason);
			return EX_USAGE;
		}
		break;
	case ERANGE:
		cli_err("bad repetition count: --reps 1..%u and --warmup 0..%u", BENCH_MAX_REPS,
			BENCH_MAX_REPS);
		return EX_USAGE;
	}
	/* A failed MSR access names its register and CPU (msr_last_fault). */
	if (dev && msr_last_fault(dev, &f) && f.err == rc)
		return cli_msr_access_fail(dev, rc, "bench", res->cpu_used);
	cli_err("bench failed on cpu %u: %s", res->cpu_used, strerror(-rc));
	return cli_exit_for_errno(rc);
}

/*
 * The guarded part of a run that writes MSRs or settings: locks, other
 * runs' journals, ownership, the journal, the settings, the measurement,
 * the restore (bench/cli_run.c).  Returns the exit status; 0 when @res is
 * to be printed.
 */
static int run_guarded(const struct bench_options *o, const struct bench_cli *cl,
		       struct bench_session *s, struct bench_result *res)
{
	struct cli_run r = { .wait = cl->wait, .force = o->force, .set = cl->set };
	struct msr_dev *dev = bench_session_dev(s);
	bool programs = bench_session_programs(s);
	struct cli_journal_hit hit;
	unsigned cpu = res->cpu_used;
	int st = EX_OK, rc = 0;

	if (programs)
		st = cli_refuse_dump_device("bench", o->cpuid_dump, dev);
	if (!st)
		st = cli_run_lock(&r, &cpu, programs ? 1 : 0, programs);
	if (!st && programs)
		st = cli_run_check_journals(&r, &cpu, 1, &hit);
	if (!st && programs)
		st = cli_run_owners(&r, dev, &res->cpu, &cpu, 1, &hit);
	if (!st && programs)
		st = cli_run_watchdog(&r);
	if (!st && programs)
		st = cli_run_allow_writes(&r, dev);
	if (!st)
		st = cli_run_begin(&r, dev, JOURNAL_RUN, o->user_only);
	if (!st)
		st = cli_run_settings(&r);
	/* rdpmc is 2 now: probe again, choose again (reads only) */
	if (!st && o->rdpmc_always && (rc = bench_recheck(s)))
		st = report_failure(o, s, res, rc);
	if (!st && programs != bench_session_programs(s))
		st = EX_SOFTWARE; /* the recheck never turns Top-down off */
	msr_fault_clear(dev);
	if (!st && (rc = bench_measure(s, r.j)))
		st = report_failure(o, s, res, rc);
	return cli_run_finish(&r, st, false);
}

static void print_result(enum bench_format fmt, const struct bench_result *res, int *rc)
{
	if (!res->level && fmt != BENCH_FMT_JSON)
		fprintf(stderr, "baretma: top-down unavailable on cpu %u: %s; timing with the TSC only\n",
			res->cpu_used, res->avail.reason);
	if (fmt == BENCH_FMT_JSON) {
		json_t *doc = bench_to_json(res);
		*rc = doc ? *rc : EX_SOFTWARE;
		if (doc) {
			json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
			fputc('\n', stdout);
			json_decref(doc);
		}
	} else if (fmt == BENCH_FMT_CSV) {
		bench_print_csv(stdout, res);
	} else {
		bench_print_table(stdout, res);
	}
}

int cmd_bench(int argc, char **argv)
{
	struct bench_options o = { .cpu = -1, .reps = BENCH_DEFAULT_REPS,
				   .warmup = BENCH_DEFAULT_WARMUP };
	enum bench_format fmt = BENCH_FMT_TABLE;
	struct bench_cli cl = { 0 };
	struct bench_session *s = NULL;
	struct bench_result res;
	int rc = parse_args(argc, argv, &o, &fmt, &cl);

	if (rc)
		return rc < 0 ? EX_OK : rc;
	if ((rc = check_kernels(o.kernels)) || (rc = cli_check_dump(o.cpuid_dump)))
		return rc;
	rc = bench_open(&o, &res, &s);
	if (res.kinds_warning[0])
		cli_warn("hwloc's CPU kinds disagree with CPUID: %s (going by CPUID leaf "
			 "0x1A, which names each CPU's core type)", res.kinds_warning);
	if (rc)
		rc = report_failure(&o, s, &res, rc);
	else if (bench_session_programs(s) || cli_settings_any(&cl.set))
		rc = run_guarded(&o, &cl, s, &res);
	else if ((rc = bench_measure(s, NULL)))
		rc = report_failure(&o, s, &res, rc);
	bench_close(s);
	if (rc) {
		bench_result_free(&res);
		return rc;
	}
	/* Tampered samples are left out of every number; the run says so and
	 * exits 75 (counters taken by someone else), after its output. */
	if (res.tamper.detected) {
		cli_warn("%s", res.tamper.message);
		rc = EX_TEMPFAIL;
	}
	print_result(fmt, &res, &rc);
	bench_result_free(&res);
	return rc;
}
