/*
 * bench/cli/cli_util.c - messages, exit statuses and argument parsing shared by
 * the subcommands.  The only layer that prints.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/cli/cli.h"
#include "bench/bench.h"
#include "bench/output/output.h"
#include "cpu/cpu.h"
#include "cpu/escape.h"
#include "cpu/text.h"
#include "cpu/trust.h"
#include "msr/guard/guard.h"
#include "msr/journal/state_dir.h"

static char cmdline[1024];
static int cmd_argc;
static char *const *cmd_argv;

char *const *cli_argv(int *argc)
{
	*argc = cmd_argc;
	return cmd_argv;
}

void cli_set_cmdline(int argc, char **argv)
{
	static const char cut[] = "...";
	size_t used = 0;

	cmd_argc = argc;
	cmd_argv = argv;
	cmdline[0] = '\0';
	for (int i = 0; i < argc; i++) {
		size_t w = strlen(argv[i]) + (i ? 1 : 0);

		if (used + w >= sizeof(cmdline)) { /* does not fit: keep what does, marked */
			snprintf(cmdline + used, sizeof(cmdline) - used, "%s%s", i ? " " : "", argv[i]);
			used = sizeof(cmdline) - sizeof(cut);
			while (used > 0 && ((unsigned char)cmdline[used] & 0xc0) == 0x80)
				used--; /* never half a UTF-8 character */
			memcpy(cmdline + used, cut, sizeof(cut));
			return;
		}
		used += (size_t)snprintf(cmdline + used, sizeof(cmdline) - used, "%s%s",
					 i ? " " : "", argv[i]);
	}
}

const char *cli_cmdline(void)
{
	return cmdline;
}

static void vsay(const char *prefix, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* Every message is one line, escaped whole (cpu/escape.h): what it quotes
 * (a path, a dump's line, a CPU's brand, a profile's key) may come from a
 * file, CPUID or the environment. */
static void vsay(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(stderr, "baretma: %s", prefix);
	esc_vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_err(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay("", fmt, ap);
	va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay("warning: ", fmt, ap);
	va_end(ap);
}

int cli_exit_for_errno(int err)
{
	switch (-err) {
	case 0: return EX_OK;
	case EACCES: case EPERM: return EX_NOPERM;
	case ENOENT: return EX_NOINPUT;
	case EBUSY: case EAGAIN: return EX_TEMPFAIL;
	case ENODEV: case ENXIO: case EIO: case EOPNOTSUPP: return EX_UNAVAILABLE;
	case EINVAL: case ERANGE: return EX_DATAERR;
	default: return EX_OSERR;
	}
}

int cli_msr_fail(struct msr_dev *dev, unsigned cpu, const char *what, int err)
{
	char msg[GUARD_ACCESS_TEXT_MAX];

	guard_msr_fail_text(dev, cpu, what, err, msg, sizeof(msg)); /* the guard's text */
	cli_err("%s", msg);
	return cli_exit_for_errno(err);
}

int cli_parse_u64(const char *s, uint64_t *v)
{
	char *end;
	int base = 10;

	if (!s || !*s || !isxdigit((unsigned char)*s))
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		if (!isxdigit((unsigned char)s[2]))
			return -EINVAL;
	} else if (!isdigit((unsigned char)*s)) {
		return -EINVAL;
	}
	errno = 0;
	unsigned long long x = strtoull(s, &end, base);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end != '\0')
		return -EINVAL;
	*v = x;
	return 0;
}

int cli_parse_cpu_number(const char *s, uint64_t *v)
{
	if (s && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return -EDOM;
	for (const char *p = s; p && *p; p++)
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
	return cli_parse_u64(s, v); /* all digits: decimal, overflow checked */
}

/* Add CPUs lo..hi to a sorted, duplicate-free set. */
static int add_range(unsigned *cpus, int *n, int max, uint64_t lo, uint64_t hi)
{
	if (lo > hi || hi >= CPU_MAX_CPUS)
		return lo > hi ? -EINVAL : -ERANGE;
	for (uint64_t c = lo; c <= hi; c++) {
		int i = 0;
		while (i < *n && cpus[i] < c)
			i++;
		if (i < *n && cpus[i] == c)
			continue;
		if (*n >= max)
			return -ERANGE;
		memmove(cpus + i + 1, cpus + i, (size_t)(*n - i) * sizeof(*cpus));
		cpus[i] = (unsigned)c;
		(*n)++;
	}
	return 0;
}

int cli_parse_cpu_list(const char *s, unsigned *cpus, int max)
{
	char buf[1024];
	int n = 0, rc = 0;

	if (!s || !*s || strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	/* Split by hand: strtok_r would skip empty elements, and "0,,1", ",1"
	 * or "1," is a typo to name, not a list to guess at. */
	for (char *tok = buf, *next; tok; tok = next) {
		uint64_t lo, hi;
		char *dash;

		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		if (!*tok)
			return -EINVAL;
		dash = strchr(tok, '-');
		if (dash)
			*dash = '\0';
		rc = cli_parse_cpu_number(tok, &lo);
		if (!rc && dash)
			rc = cli_parse_cpu_number(dash + 1, &hi);
		else if (!rc)
			hi = lo;
		if (rc)
			return rc == -ERANGE ? -EINVAL : rc;
		rc = add_range(cpus, &n, max, lo, hi);
		if (rc)
			return rc;
	}
	return n ? n : -EINVAL;
}

/* ------------------------------------------------------------- options */

int cli_usage_err(const char *cmd, const char *fmt, ...)
{
	char *msg = NULL; /* it quotes arguments: any length */
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = text_vsetf(&msg, fmt, ap);
	va_end(ap);
	cli_err("%s: %s (try: baretma %s --help)", cmd, rc ? strerror(ENOMEM) : msg, cmd);
	free(msg);
	return EX_USAGE;
}

int cli_refuse_together(const char *cmd, const char *a, const char *b)
{
	return cli_usage_err(cmd, "%s and %s exclude each other: give one", a, b);
}

/* --------------------------------------------------------- environment */

#define SAFE_ROOT_DOC "see doc/safety.md, \"Running as root safely\""

void cli_warn_env(const char *const *dropped, int n)
{
	char why[160];

	for (int i = 0; i < n; i++) {
		if (!strcmp(dropped[i], "HWLOC_PLUGINS_PATH")) {
			cli_warn("ignoring HWLOC_PLUGINS_PATH: baretma loads no hwloc plugin (its "
				 "code would run as root; %s)", SAFE_ROOT_DOC);
			continue;
		}
		trust_env_untrusted(why, sizeof(why));
		cli_warn("ignoring %s: %s; hwloc describes this machine (%s)", dropped[i], why,
			 SAFE_ROOT_DOC);
	}
	if (cpu_sysfs_root_ignored(why, sizeof(why)))
		cli_warn("ignoring BARETMA_SYSROOT: %s; reading / (%s)", why, SAFE_ROOT_DOC);
	if (bench_test_hooks_ignored(why, sizeof(why)))
		cli_warn("ignoring BARETMA_TEST_HOOKS: %s; no hidden test kernels (%s)", why,
			 SAFE_ROOT_DOC);
}

int cli_check_env(unsigned need)
{
	const char *root = getenv("BARETMA_SYSROOT");
	char *cwd;
	int err;

	if ((need & CLI_ENV_SYSROOT) && (err = cpu_sysfs_root_check()) == -EINVAL) {
		cli_err("BARETMA_SYSROOT '%s': a relative path: refused (journals name the "
			"settings files relative to the root, and 'baretma pmu restore' run from "
			"another directory would write other files; give an absolute path)", root);
		return EX_USAGE;
	}
	if ((need & CLI_ENV_SYSROOT) && err) {
		cli_err("BARETMA_SYSROOT '%s': %s (give an existing directory that holds the "
			"sys/ and proc/ trees to read, or unset it to read /sys and /proc)", root,
			err == -ENOTDIR ? "not a directory" : strerror(-err));
		return err == -ENOENT || err == -ENOTDIR ? EX_NOINPUT : cli_exit_for_errno(err);
	}
	if ((need & CLI_ENV_STATE_DIR) && state_dir_check()) {
		cwd = getcwd(NULL, 0); /* glibc: as long as it is */
		cli_err("BARETMA_STATE_DIR '%s': a relative path: refused (journals must be "
			"found again from any directory, e.g. by 'baretma pmu restore' after a "
			"crash; give an absolute path, e.g. BARETMA_STATE_DIR=%s/%s)",
			state_dir_path(), !cwd ? "/ABSOLUTE/PATH" : strcmp(cwd, "/") ? cwd : "",
			state_dir_path());
		free(cwd);
		return EX_USAGE;
	}
	return 0;
}

int cli_parse_count(const char *opt, const char *s, unsigned min, unsigned max, unsigned *out)
{
	uint64_t v;

	if (cli_parse_u64(s, &v) || v < min || v > max) {
		cli_err("bad %s '%s': expected a whole number from %u to %u", opt, s, min, max);
		return EX_USAGE;
	}
	*out = (unsigned)v;
	return 0;
}

int cli_parse_cpu_opt(const char *s, unsigned *out)
{
	uint64_t v;

	if (cli_parse_cpu_number(s, &v) == -EDOM) {
		cli_err("bad --cpu '%s': expected a whole number from 0 to %u; %s", s,
			CPU_MAX_CPUS - 1, CLI_CPU_HEX_HINT);
		return EX_USAGE;
	}
	return cli_parse_count("--cpu", s, 0, CPU_MAX_CPUS - 1, out);
}

int cli_parse_level(const char *s, int *out)
{
	if (strcmp(s, "1") && strcmp(s, "2")) {
		cli_err("bad --level '%s': Top-down level 1 or 2", s);
		return EX_USAGE;
	}
	*out = s[0] - '0';
	return 0;
}
