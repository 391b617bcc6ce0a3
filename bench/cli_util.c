/*
 * bench/cli_util.c - messages, exit statuses and argument parsing shared by
 * the subcommands.  The only layer that prints.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli.h"
#include "cpu/cpu.h"

static char cmdline[1024];

void cli_set_cmdline(int argc, char **argv)
{
	static const char cut[] = "...";
	size_t used = 0;

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

static void vsay(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(stderr, "baretma: %s", prefix);
	vfprintf(stderr, fmt, ap);
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
	char path[PATH_MAX];
	const char *remedy = msr_remedy(err);

	msr_describe(dev, cpu, path, sizeof(path));
	if (*remedy)
		cli_err("cannot %s '%s': %s (%s)", what, path, strerror(-err), remedy);
	else
		cli_err("cannot %s '%s': %s", what, path, strerror(-err));
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
	char buf[1024], *save = NULL;
	int n = 0, rc = 0;

	if (!s || !*s || strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	if (buf[strlen(buf) - 1] == ',')
		return -EINVAL;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t lo, hi;
		char *dash = strchr(tok, '-');

		if (dash) {
			*dash = '\0';
			if (cli_parse_u64(tok, &lo) || cli_parse_u64(dash + 1, &hi))
				return -EINVAL;
		} else {
			if (cli_parse_u64(tok, &lo))
				return -EINVAL;
			hi = lo;
		}
		rc = add_range(cpus, &n, max, lo, hi);
		if (rc)
			return rc;
	}
	return n ? n : -EINVAL;
}
