/*
 * bench/cli/cmd_cpuid.c - `baretma cpuid dump [-o FILE]`: the CPUID of every
 * online logical CPU of this machine in AIDA64's layout (cpu/dump_write.c),
 * so that a user can send one file, which `baretma info --cpuid-dump FILE`
 * and libcpuid read back.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench/study/bundle.h"
#include "bench/cli/cli_cmd.h"
#include "bench/cli/cli_opt.h"
#include "bench/output/output.h"
#include "config.h"
#include "cpu/cpu.h"
#include "cpu/cpu_dump.h"
#include "cpu/knobs.h"

static void cpuid_usage(FILE *f);

struct dump_opts {
	const char *out; /* NULL: stdout */
};

static const struct cli_opt cpuid_opts[] = {
	{ CLI_OPT_OUTPUT, .set = cli_opt_str, .field = offsetof(struct dump_opts, out),
	  .help = "write FILE instead of standard output: a temporary file in the same "
		  "directory renamed over FILE, never written through a symbolic link; FILE, "
		  "when it exists, must be a regular file" },
	{ .name = NULL },
};

static const struct cli_form cpuid_forms[] = { { .sub = "dump" } };

static const struct cli_optset cpuid_optset = {
	.cmd = "cpuid", .opts = cpuid_opts, .forms = cpuid_forms, .nforms = 1,
	.usage = cpuid_usage,
};

static void cpuid_usage(FILE *f)
{
	cli_opts_synopsis(f, &cpuid_optset);
	fputs(
"\n"
"Write the CPUID of every online logical CPU of this machine: every basic\n"
"leaf up to CPUID.0:EAX, the hypervisor leaves under a hypervisor, every\n"
"extended leaf up to CPUID.80000000H:EAX, with their subleaves (4, 7, 0xB,\n"
"0xD, 0x12, 0x14, 0x18, 0x1F, 0x23, 0x8000001D, ...), as an AIDA64-style\n"
"dump.  'baretma info --cpuid-dump FILE' and libcpuid read it back: send it\n"
"when reporting a CPU that baretma gets wrong.  CPUID is read through\n"
"/dev/cpu/N/cpuid, or with the instruction on a thread pinned to each CPU.\n"
"\n", f);
	cli_opts_list(f, &cpuid_optset);
	fputs(
"\n"
"exit status: 0 ok, 64 usage, 66 BARETMA_SYSROOT is missing, 69 a CPU cannot be\n"
"  read (not allowed for this process), 70 internal error, 71 system error,\n"
"  73 cannot create FILE, 74 cannot write it\n", f);
}

static int dump_parse(int argc, char **argv, void *opts, struct cli_ctx *ctx)
{
	return cli_opts_parse(&cpuid_optset, "dump", argc, argv, opts, ctx);
}

/* The online CPUs (ascending).  Returns their count or an exit status < 0. */
static int online_cpus(unsigned *cpus, char *list, size_t n)
{
	int err = cpu_sysfs_read_line(CPU_SYS_ONLINE_CPUS, list, n), count;

	if (err) {
		cli_err("cannot read '%s': %s", CPU_SYS_ONLINE_CPUS, strerror(-err));
		return -EX_OSERR;
	}
	count = cli_parse_cpu_list(list, cpus, CPU_MAX_CPUS);
	if (count <= 0) {
		cli_err("cannot parse '%s': '%s'", CPU_SYS_ONLINE_CPUS, list);
		return -EX_OSERR;
	}
	return count;
}


/* Read every CPU's leaf 0 first, so that nothing is written when one fails. */
static int check_cpus(const struct cpu_source *src, const unsigned *cpus, int n)
{
	for (int i = 0; i < n; i++) {
		uint32_t r[4];
		int err = cpu_source_cpuid(src, cpus[i], 0, 0, r);

		if (err) {
			cli_err("cannot read CPUID of cpu %u: %s (it must be online and allowed "
				"for this process; as root, try: modprobe cpuid)", cpus[i],
				err == -ENXIO ? "no such CPU, or not allowed for this process"
					      : strerror(-err));
			return err == -ENXIO || err == -EIO ? EX_UNAVAILABLE : EX_OSERR;
		}
	}
	return 0;
}

/* -------------------------------------------------------------- the file */

struct out_file {
	const char *path;       /* NULL: stdout */
	struct output_file *of; /* -o's file (output.h: the rule of every file) */
	FILE *f;
};

/* stdout, or -o's file begun. */
static int out_open(struct out_file *o)
{
	const char *why;
	int rc;

	if (!o->path) {
		o->f = stdout;
		return 0;
	}
	if ((rc = output_file_open_atomic(o->path, &o->of, &why)))
		return cli_output_file_fail("cpuid dump", o->path, rc, why);
	if (!(o->f = output_file_stream(o->of))) {
		output_file_abort(o->of);
		cli_err("cpuid dump: cannot write '%s': out of memory", o->path);
		return EX_OSERR;
	}
	return 0;
}

/* Flush stdout, or put -o's file in place; on @failed (or any error)
 * leave FILE as it was.  Returns 0 or the exit status after the message. */
static int out_close(struct out_file *o, bool failed)
{
	int err;

	if (!o->path) {
		err = fflush(o->f) ? errno : ferror(o->f) ? EIO : 0;
		if (err && !failed)
			cli_err("cannot write the dump to standard output: %s", strerror(err));
		return err || failed ? EX_IOERR : 0;
	}
	if (failed) {
		output_file_abort(o->of);
		return EX_IOERR;
	}
	return cli_output_file_end("cpuid dump", o->path, o->of, ferror(o->f) ? -EIO : 0);
}

/* The dump for its view (text only: AIDA64's layout); *@at says where a
 * failure stopped it: -1 the header, else the index of the CPU. */
struct dump_result {
	const struct cpu_source *src;
	const unsigned *cpus;
	int n;
	const char *versions;
	int *at;
};

static int dump_text(FILE *f, const void *result)
{
	const struct dump_result *r = result;
	int err = cpu_dump_write_header(f, r->versions);

	*r->at = -1;
	for (int i = 0; i < r->n && !err; i++) {
		*r->at = i;
		err = cpu_dump_write_cpu(f, r->src, r->cpus[i]);
	}
	return err;
}

static const struct output_view dump_view = { .text = dump_text };

/* Header and sections, then the file closed (and renamed) or removed. */
static int write_dump(const struct cpu_source *src, const unsigned *cpus, int n,
		      const char *versions, struct out_file *o)
{
	int at = -1;
	int err = output_write(o->f, &output_format_text, &dump_view,
			       &(struct dump_result){ src, cpus, n, versions, &at }, NULL);
	bool read_failed;

	if (err && !ferror(o->f) && at < 0) { /* -EINVAL: a line of ours looks like a record */
		cli_err("cpuid dump: bad header text: %s", strerror(-err));
		out_close(o, true);
		return EX_SOFTWARE;
	}
	/* A stream error is out_close()'s to report; anything else is CPUID's. */
	read_failed = err && !ferror(o->f);
	if (read_failed)
		cli_err("cannot read CPUID of cpu %u: %s", cpus[at], strerror(-err));
	err = out_close(o, read_failed);
	return read_failed ? EX_UNAVAILABLE : err;
}

static int dump_run(void *opts, struct cli_ctx *ctx)
{
	static unsigned cpus[CPU_MAX_CPUS];
	const struct dump_opts *opt = opts;
	struct out_file out = { .path = opt->out };
	char online[1024], versions[1024];
	int rc, n = online_cpus(cpus, online, sizeof(online));

	if (n < 0)
		return -n;
	if ((rc = check_cpus(ctx->cpuid, cpus, n)))
		return rc;
	bench_dump_versions(versions, sizeof(versions), "baretma cpuid dump", "Online CPUs", online);
	if ((rc = out_open(&out)))
		return rc;
	return write_dump(ctx->cpuid, cpus, n, versions, &out);
}

/* "cpuid" with no subcommand, help, or one it does not have. */
static int cpuid_parse(int argc, char **argv, void *opts, struct cli_ctx *ctx)
{
	return cli_group_usage(argc, argv, "help", cpuid_usage, "cpuid",
			       "unknown cpuid subcommand");
}

const struct cli_cmd_ops cmd_cpuid = { .parse = cpuid_parse, .usage = cpuid_usage,
				       .optset = &cpuid_optset };

const struct cli_cmd_ops cmd_cpuid_dump = {
	.parse = dump_parse, .run = dump_run, .usage = cpuid_usage,
	.opts_size = sizeof(struct dump_opts), .optset = &cpuid_optset,
};
