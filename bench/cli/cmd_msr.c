/*
 * bench/cli/cmd_msr.c - `baretma msr read CPU MSR` and `baretma msr write CPU
 * MSR VALUE`: one register of a list of CPUs, through the same MSR backend
 * ($BARETMA_MSR), trace, locks and journal as every other command.
 *
 * CPU is a list ("3", "0-3", "0,2"): every CPU must be in the CPUID source
 * (live: also online) or nothing is read or written.  read is rdmsr: any
 * register.  write is allowed without --unsafe-msr only for the PMU
 * registers msr_write_check() knows, with each CPU's own capabilities (its
 * core kind; full-width writes from IA32_PERF_CAPABILITIES[13],
 * linux arch/x86/kvm/vmx/pmu_intel.c intel_pmu_set_msr); reserved bits and read-only registers are
 * refused even with --unsafe-msr.  Two flags for two risks: --unsafe-msr
 * for a register outside that policy, --force for a CPU another run's
 * journal holds (ownership); neither implies the other.  A register
 * written with --unsafe-msr is marked so in the journal, and `pmu restore`
 * needs --unsafe-msr to put it back.  Every write goes through the run
 * guard of bench and pmu (bench/cli/cli_run.c), all CPUs at once: lock them (the settings lock
 * shared, then the CPU locks), refuse a CPU another run's journal holds,
 * refuse what the kernel would (lockdown, msr.allow_writes=off), read the
 * current values, journal them (kind "write": the register is left as
 * written on purpose, `baretma pmu restore` puts the saved value back),
 * and only then write.  A write that fails midway restores the CPUs
 * already written and ends the journal.
 *
 * This file parses and prints; the steps (the CPU list checked and
 * opened, the policy, the journal of the old values, the reads and
 * writes) are bench/run_msr.c's, the MSR backend, the machine and the
 * guard's close the command table's (bench/cli/cli_cmds.c).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "bench/bench.h"
#include "bench/output/output.h"
#include "bench/cli/cli_cmd.h"
#include "bench/cli/cli_opt.h"
#include "bench/run.h"
#include "cpu/cpu.h"
#include "cpu/escape.h"
#include "msr/journal/journal.h"
#include "msr/regs/msr_names.h"
#include "msr/regs/msr_policy.h"

#define MSR_INDEX_MAX    0xffffffffull     /* RDMSR/WRMSR take ECX: 32 bits */

struct msr_opts {
	const char *sub;       /* "read" or "write" */
	struct cli_output out; /* read: --json */
	bool force, wait;
	bool unsafe_msr;       /* --unsafe-msr: a register outside the write policy */
	bool unknown;          /* write: a register baretma does not know (--unsafe-msr) */
	unsigned cpus[CPU_MAX_CPUS];
	int ncpus;
	uint32_t msr;
	uint64_t value;        /* write */
};

/* "NAME0-7 (0xc1-0xc8)": a run of the table's names that differ only in
 * a trailing number counting up with the index, from entry @i; returns the
 * entries it covers. */
static size_t name_run(size_t i, char *buf, size_t n)
{
	uint32_t first, m;
	const char *name = msr_reg_at(i, &first), *next;
	size_t stem = strlen(name), k = 1;

	while (stem && isdigit((unsigned char)name[stem - 1]))
		stem--; /* the trailing number: IA32_PMC7 -> IA32_PMC */

	while (name[stem] && (next = msr_reg_at(i + k, &m)) && !strncmp(next, name, stem) &&
	       m == first + k && (unsigned)atoi(next + stem) == (unsigned)atoi(name + stem) + k)
		k++;
	if (k == 1)
		snprintf(buf, n, "%s (0x%" PRIx32 ")", name, first);
	else
		snprintf(buf, n, "%.*s%d-%d (0x%" PRIx32 "-0x%" PRIx32 ")", (int)stem, name,
			 atoi(name + stem), atoi(name + stem) + (int)k - 1, first, first + (uint32_t)k - 1);
	return k;
}

/* The register names MSR may be given as (msr/regs/msr_names.h), wrapped. */
static void print_names(FILE *f)
{
	char run[96];
	uint32_t m;
	size_t col = 0;

	fputs("Register names (any case; IA32_PERF_GLOBAL_OVF_CTRL is 0x390 too):\n", f);
	for (size_t i = 0; msr_reg_at(i, &m); ) {
		i += name_run(i, run, sizeof(run));
		if (col && col + strlen(run) + 2 > 78) {
			fputs(",\n", f);
			col = 0;
		} else if (col) {
			fputs(", ", f);
			col += 2;
		}
		col += (size_t)fprintf(f, "%s%s", col ? "" : "  ", run);
	}
	fputs("\n", f);
}

static void msr_usage(FILE *f);

/* The subcommands: each option names those it applies to. */
#define READ 1u
#define WRITE 2u

static const struct cli_opt msr_opts_table[] = {
	{ CLI_OPT_JSON, .forms = READ, .help = "read: one JSON document" },
	{ CLI_OPT_UNSAFE_MSR, .field = offsetof(struct msr_opts, unsafe_msr), .forms = WRITE,
	  .help = "write: a register baretma does not know (thermal, power, microcode, "
		  "security registers can hang or damage the machine); never reserved bits "
		  "or a read-only register; marked in the journal: 'pmu restore "
		  "--unsafe-msr' undoes it" },
	{ CLI_OPT_FORCE, .forms = WRITE,
	  .help = "write: a CPU another run's journal holds (not a register)" },
	{ CLI_OPT_WAIT, .forms = WRITE, .help = "write: wait for another baretma using the CPU" },
	{ CLI_OPT_CPUID_DUMP,
	  .help = "check CPU against a CPUID dump (also: BARETMA_CPUID_DUMP); write then "
		  "needs BARETMA_MSR=state:FILE" },
	{ CLI_OPT_VERBOSE, .forms = WRITE, .help = "write: " CLI_HELP_VERBOSE },
	{ .name = NULL },
};

static const struct cli_form msr_forms[] = {
	{ .sub = "read", .post = "CPU MSR" }, { .sub = "write", .post = "CPU MSR VALUE" },
};

static const struct cli_optset msr_optset = {
	.cmd = "msr", .opts = msr_opts_table, .forms = msr_forms, .nforms = 2,
	.out = offsetof(struct msr_opts, out), .operands = true, .usage = msr_usage,
};

static void msr_usage(FILE *f)
{
	cli_opts_synopsis(f, &msr_optset);
	fputs(
"\n"
"read   print MSR of every CPU in CPU (as rdmsr: any register)\n"
"write  write VALUE to MSR of every CPU in CPU, after saving the current\n"
"       values in a journal under $BARETMA_STATE_DIR (default /run/baretma);\n"
"       the register stays as written: 'baretma pmu restore' puts the saved\n"
"       value back\n"
"\n"
"  CPU   OS CPU numbers: 3, 0-3 or 0,2,4-7; each must be in the CPUID source\n"
"        (and online on the live machine)\n"
"  MSR   register index, hex (0x38f) or decimal, up to 0xffffffff, or the\n"
"        name of a register baretma knows (any case; list below)\n"
"  VALUE 64-bit value, hex (0x3333) or decimal\n"
"\n"
"Without --unsafe-msr, write only takes the Intel architectural PMU registers\n"
"baretma knows (IA32_PERFEVTSELx, IA32_PMCx, IA32_A_PMCx, IA32_FIXED_CTRx,\n"
"IA32_FIXED_CTR_CTRL, IA32_PERF_GLOBAL_CTRL, IA32_PERF_GLOBAL_STATUS_RESET/SET,\n"
"IA32_PERF_METRICS) with only the bits each CPU defines; PMI bits are refused,\n"
"and so is fixed counter 3's METRICS_CLEAR_EN (IA32_FIXED_CTR_CTRL bit 14)\n"
"unless the CPU's IA32_PERF_CAPABILITIES[19] enumerates RDPMC metrics-clear.\n"
"\n", f);
	cli_opts_list(f, &msr_optset);
	fputs("\n", f);
	print_names(f);
	fputs(
"\n"
"exit status: 0 ok, 64 usage (bad CPU/MSR/VALUE, no such or offline CPU,\n"
"  unknown register without --unsafe-msr, a dump with a real MSR device, a relative\n"
"  BARETMA_STATE_DIR), 65 value refused (reserved bits, read-only register) or\n"
"  bad state file/dump/journal, 66 file missing (dump, BARETMA_SYSROOT),\n"
"  69 no msr device or no such register, 70 internal error, 71 system error,\n"
"  73 write: cannot create the state directory, 75 CPU in use by another\n"
"  baretma or held by another run's journal, 77 permission denied (also:\n"
"  kernel lockdown, msr.allow_writes=off)\n", f);
}

/* --------------------------------------------------------------- helpers */

/* ------------------------------------------------------------- arguments */

/* The message for a bad positional argument (@slot 0 CPU, 1 MSR, 2 VALUE). */
static int bad_arg(const struct msr_opts *o, int slot, const char *arg, int err)
{
	if (slot == 0)
		cli_err("msr %s: bad CPU '%s': give OS CPU numbers below %d, e.g. 3, 0-3 or "
			"0,2%s%s", o->sub, arg, CPU_MAX_CPUS, err == -EDOM ? "; " : "",
			err == -EDOM ? CLI_CPU_HEX_HINT : "");
	else if (slot == 1 && err == -ERANGE)
		cli_err("msr %s: bad MSR '%s': MSR index out of range (0..0xffffffff)",
			o->sub, arg);
	else if (slot == 1 && err == -ENOENT)
		cli_err("msr %s: unknown register '%s': give an MSR index in hex (0x38f) or "
			"decimal, or a register name baretma knows (try: baretma msr --help)",
			o->sub, arg);
	else if (slot == 1)
		cli_err("msr %s: bad MSR '%s': give an MSR index in hex (0x38f) or decimal",
			o->sub, arg);
	else
		cli_err("msr %s: bad VALUE '%s': %s", o->sub, arg, err == -ERANGE ?
			"more than 64 bits" : "give a 64-bit value in hex (0x3333) or decimal");
	return EX_USAGE;
}

/* MSR: an index (hex or decimal, 32 bits: RDMSR/WRMSR take ECX) or a
 * register name (a letter first).  0, -EINVAL, -ERANGE or -ENOENT. */
static int parse_msr(const char *arg, uint32_t *msr)
{
	uint64_t v;
	int rc;

	if (isalpha((unsigned char)arg[0]) || arg[0] == '_')
		return msr_reg_lookup(arg, msr);
	rc = cli_parse_u64(arg, &v);
	if (!rc && v > MSR_INDEX_MAX)
		rc = -ERANGE;
	if (!rc)
		*msr = (uint32_t)v;
	return rc;
}

/* CPU, MSR [, VALUE] from the @n positional arguments. */
static int parse_positional(struct msr_opts *o, char **args, int n)
{
	int want = strcmp(o->sub, "write") ? 2 : 3, rc;

	if (n != want) {
		cli_err("msr %s: expected %s, got %d argument%s (try: baretma msr --help)",
			o->sub, want == 2 ? "CPU MSR" : "CPU MSR VALUE", n, n == 1 ? "" : "s");
		return EX_USAGE;
	}
	o->ncpus = cli_parse_cpu_list(args[0], o->cpus, CPU_MAX_CPUS);
	if (o->ncpus < 0)
		return bad_arg(o, 0, args[0], o->ncpus);
	rc = parse_msr(args[1], &o->msr);
	if (rc)
		return bad_arg(o, 1, args[1], rc);
	if (want == 3 && (rc = cli_parse_u64(args[2], &o->value)))
		return bad_arg(o, 2, args[2], rc);
	return 0;
}

/*
 * getopt would take "-1" for an option: a negative number in an argument's
 * place is that argument's junk (named like any other), not "unknown option".
 */
static int negative_arg(struct msr_opts *o, int argc, char **argv)
{
	int pos = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--"))
			break;
		if (cli_opts_takes_arg(&msr_optset, a)) {
			i++;
			continue;
		}
		if (a[0] == '-' && isdigit((unsigned char)a[1]))
			return bad_arg(o, pos < 3 ? pos : 2, a, -EINVAL);
		if (a[0] != '-' || !a[1])
			pos++;
	}
	return 0;
}

/* Returns 0 to go on, CLI_HELP_SHOWN, or an exit status. */
static int parse_args(int argc, char **argv, struct msr_opts *o, struct cli_ctx *ctx)
{
	int rc = negative_arg(o, argc, argv);

	if (rc || (rc = cli_opts_parse(&msr_optset, o->sub, argc, argv, o, ctx)))
		return rc;
	o->force = ctx->run.force;
	o->wait = ctx->run.wait;
	return parse_positional(o, argv + optind, argc - optind);
}

/* -------------------------------------------------------------- the CPUs */

/* Every CPU of the list is one of the machine @m describes (a dump's; live:
 * configured and online), else the message naming that machine's CPUs. */
static int check_cpus(const struct msr_opts *o, const struct cpu_machine *m)
{
	char subject[64];
	int at, rc = run_cpus_check(m, o->cpus, o->ncpus, &at);

	if (!rc)
		return EX_OK;
	snprintf(subject, sizeof(subject), "msr %s: cpu %u", o->sub, o->cpus[at]);
	return cli_bad_cpu(subject, m, rc, false);
}

/* Read the register of every CPU into @vals; the first failure ends it,
 * named with its register and CPU. */
static int read_all(const struct msr_opts *o, struct msr_dev *dev, uint64_t *vals)
{
	int at, rc = run_msr_read_all(dev, o->cpus, o->ncpus, o->msr, vals, &at);

	return rc ? cli_msr_access_fail(dev, rc, NULL, o->cpus[at]) : EX_OK;
}

/* ------------------------------------------------------------------ read */

static json_t *hex_json(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_string(buf);
}

/* What msr read read: the register of each CPU (@ci names it by each
 * CPU's own counters; NULL: by the architectural ranges). */
struct read_result {
	const struct msr_opts *o;
	const struct cpu_info *ci;
	const uint64_t *vals;
};

/* "cpu N NAME (0xMSR) = 0xVALUE", one line per CPU. */
static int read_text(FILE *f, const void *result)
{
	const struct read_result *r = result;
	const struct msr_opts *o = r->o;
	struct msr_counters c;
	char label[64];

	for (int i = 0; i < o->ncpus; i++)
		fprintf(f, "cpu %u %s = 0x%" PRIx64 "\n", o->cpus[i],
			msr_reg_label_cpu(o->msr, cli_msr_counters(r->ci, o->cpus[i], &c), label,
					  sizeof(label)), r->vals[i]);
	return 0;
}

/* Values as "0x.." strings: JSON numbers lose bits above 2^53.  "name":
 * the register's on every CPU listed (by its own counters, @ci), else null. */
static json_t *read_json(const void *result)
{
	const struct read_result *r = result;
	const struct msr_opts *o = r->o;
	const char *name = msr_reg_name(o->msr);
	json_t *arr = json_array(), *doc;
	struct msr_counters c;

	for (int i = 0; i < o->ncpus; i++)
		if (!msr_reg_name_cpu(o->msr, cli_msr_counters(r->ci, o->cpus[i], &c)))
			name = NULL;

	doc = json_pack("{s:o, s:o, s:o}", "msr", hex_json(o->msr), "name",
			name ? json_string(name) : json_null(), "cpus", arr);
	for (int i = 0; doc && i < o->ncpus; i++)
		json_array_append_new(arr, json_pack("{s:i, s:o}", "cpu", (int)o->cpus[i],
						     "value", hex_json(r->vals[i])));
	return doc;
}

static const struct output_view read_view = { .text = read_text, .json = read_json };

static int read_parse(int argc, char **argv, void *opts, struct cli_ctx *ctx)
{
	struct msr_opts *o = opts;
	int rc;

	o->sub = "read";
	rc = parse_args(argc, argv, o, ctx);
	return rc ? rc : cli_output_check("msr read", &o->out, &read_view);
}

static int read_run(void *opts, struct cli_ctx *ctx)
{
	const struct msr_opts *o = opts;
	struct cpu_info *ci = NULL;
	uint64_t *vals = calloc((size_t)o->ncpus, sizeof(*vals));
	int rc = vals ? check_cpus(o, ctx->machine) : EX_OSERR;

	if (!rc)
		rc = cli_msr_open_cpus(ctx->dev, o->cpus, o->ncpus);
	if (!rc)
		rc = read_all(o, ctx->dev, vals);
	if (!rc) /* names by each CPU's own counters (msr_reg_name_cpu) */
		ci = cli_names_identify(ctx->machine);
	if (!rc)
		rc = cli_output("msr read", &o->out, &read_view,
				&(struct read_result){ o, ci, vals }, NULL);
	free(ci);
	free(vals);
	return rc;
}

/* ------------------------------------------------------- write: the policy */

/* Identify the CPUs, with IA32_PERF_CAPABILITIES of the first one (as pmu
 * enable does: it decides PERF_METRICS where the model table cannot). */
static int identify(const struct msr_opts *o, const struct cpu_machine *m,
		    struct msr_dev *dev, struct cpu_info *ci)
{
	int rc = bench_identify(m, dev, (int)o->cpus[0], ci);

	return rc ? cli_identify_failed(m, rc) : EX_OK;
}

/* The write policy for every CPU (run_msr_policy); the refusal said. */
static int check_policy(struct msr_opts *o, const struct cpu_machine *m,
			struct msr_dev *dev, const struct cpu_info *ci)
{
	struct run_msr_verdict v;

	if (!run_msr_policy(m, dev, ci, o->cpus, o->ncpus, o->msr, o->value, o->unsafe_msr, &v)) {
		o->unknown = v.unknown;
		return EX_OK;
	}
	if (v.verdict == MSR_WRITE_RESERVED || v.verdict == MSR_WRITE_READ_ONLY) {
		cli_err("msr write: cpu %u: refused: %s; nothing written (--unsafe-msr does "
			"not override this: the CPU would fault or the bits mean what baretma "
			"does not know)", v.cpu, v.why);
		return EX_DATAERR;
	}
	cli_err("msr write: MSR 0x%" PRIx32 " is not a PMU register baretma knows%s: "
		"writing it can hang or damage the machine (thermal, power, microcode, "
		"security registers); give --unsafe-msr if you know what it does%s", o->msr,
		ci->vendor == CPU_VENDOR_INTEL ? "" : " (it knows Intel's only)",
		o->force ? " (--force is for CPUs another run's journal holds, not for "
		"registers)" : "");
	return EX_USAGE;
}

/* ------------------------------------------------------- write: the run */

/* The old values, in the journal before the first write. */
static int save_old(const struct msr_opts *o, const struct cli_run *r, const uint64_t *old)
{
	int rc = run_msr_journal_old(r->j, o->cpus, o->ncpus, o->msr, old, o->unknown);

	return rc ? cli_state_dir_fail("write the journal", rc) : EX_OK;
}

/* Write every CPU; the first failure ends it (the close puts back). */
static int write_all(const struct msr_opts *o, struct msr_dev *dev)
{
	int at, rc = run_msr_write_all(dev, o->cpus, o->ncpus, o->msr, o->value, &at);

	return rc ? cli_msr_access_fail(dev, rc, "msr write", o->cpus[at]) : EX_OK;
}

static void report_written(const struct msr_opts *o, const uint64_t *old, const char *path)
{
	char label[64];

	msr_reg_label(o->msr, label, sizeof(label));
	for (int i = 0; i < o->ncpus; i++)
		esc_fprintf(stdout, "cpu %u %s: 0x%" PRIx64 " -> 0x%" PRIx64 " (saved in %s; undo: "
			    "baretma pmu restore%s)\n", o->cpus[i], label, old[i], o->value, path,
			    o->unknown ? " --unsafe-msr" : "");
}

/*
 * Guarded (bench/cli/cli_run.c): locks, other runs' journals, what the kernel
 * refuses, then read, journal (kind write), write.  Success leaves the
 * journal for "pmu restore"; a failure puts back what was written.
 */
static int write_guarded(const struct msr_opts *o, struct cli_run *r, struct msr_dev *dev,
			 uint64_t *old)
{
	struct guard_hit *hits = calloc((size_t)o->ncpus, sizeof(*hits));
	int rc = hits ? cli_run_lock(r, o->cpus, o->ncpus, true) : EX_OSERR;

	if (!rc)
		rc = cli_run_check_journals(r, o->cpus, o->ncpus, hits);
	if (!rc)
		rc = cli_run_allow_writes(r, dev);
	if (!rc)
		rc = read_all(o, dev, old);
	if (!rc && o->unknown)
		cli_warn("MSR 0x%" PRIx32 " is not a PMU register baretma knows: writing 0x%"
			 PRIx64 " anyway (--unsafe-msr); the old value is journaled first, marked "
			 "unsafe-msr ('pmu restore --unsafe-msr' puts it back)", o->msr, o->value);
	if (!rc)
		rc = cli_run_begin(r, dev, JOURNAL_MSR_WRITE, false);
	if (!rc)
		rc = save_old(o, r, old);
	if (!rc)
		rc = write_all(o, dev);
	if (!rc)
		report_written(o, old, journal_path(r->j));
	free(hits);
	return rc; /* the close (CLI_GUARD_DETACH) ends or leaves the journal */
}

static int write_parse(int argc, char **argv, void *opts, struct cli_ctx *ctx)
{
	struct msr_opts *o = opts;

	o->sub = "write";
	ctx->run = (struct cli_run){ .no_settings_flags = true, .kind = JOURNAL_MSR_WRITE };
	return parse_args(argc, argv, o, ctx);
}

static int write_run(void *opts, struct cli_ctx *ctx)
{
	struct msr_opts *o = opts;
	struct cpu_info *ci = calloc(1, sizeof(*ci));
	uint64_t *old = calloc((size_t)o->ncpus, sizeof(*old));
	struct cpu_machine *m = ctx->machine;
	struct msr_dev *dev = ctx->dev;
	int rc = ci && old ? check_cpus(o, m) : EX_OSERR;

	if (!rc)
		rc = cli_refuse_dump_device("msr write", m, dev);
	if (!rc)
		rc = cli_msr_open_cpus(dev, o->cpus, o->ncpus);
	if (!rc)
		rc = identify(o, m, dev, ci);
	if (!rc)
		rc = check_policy(o, m, dev, ci);
	if (!rc)
		rc = write_guarded(o, &ctx->run, dev, old);
	free(old);
	free(ci);
	return rc;
}

/* "msr" with no subcommand, help, or one it does not have. */
static int msr_parse(int argc, char **argv, void *opts, struct cli_ctx *ctx)
{
	return cli_group_usage(argc, argv, NULL, msr_usage, "msr", "msr: unknown command");
}

const struct cli_cmd_ops cmd_msr = { .parse = msr_parse, .usage = msr_usage,
				     .optset = &msr_optset };

const struct cli_cmd_ops cmd_msr_read = {
	.parse = read_parse, .run = read_run, .usage = msr_usage,
	.opts_size = sizeof(struct msr_opts), .optset = &msr_optset,
};

const struct cli_cmd_ops cmd_msr_write = {
	.parse = write_parse, .run = write_run, .usage = msr_usage,
	.opts_size = sizeof(struct msr_opts), .optset = &msr_optset,
};
