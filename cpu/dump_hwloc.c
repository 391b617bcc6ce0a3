/*
 * cpu/dump_hwloc.c - the hwloc-gather-cpuid CPUID dump reader:
 *
 *   "hwloc"           a hwloc-gather-cpuid directory: one file puN per
 *                     logical CPU N, lines `mask eax ebx ecx edx => eax ebx
 *                     ecx edx` in hex (hwloc topology-x86.c: mask bit 0 =
 *                     input EAX given, bit 2 = input ECX given; without bit 2
 *                     the record answers every subleaf).
 *
 * A directory, not a file: recognised by its puN files; the common reader
 * (cpu/cpu_dump.c) reads each puN file into lines.  One puN file given
 * alone is recognised by its records, and refused.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/dump_int.h"
#include "cpu/text.h"
#include "cpu/userfile.h"

#define HWLOC_MASK_EAX     0x1u /* input EAX given (hwloc topology-x86.c) */
#define HWLOC_MASK_ECX     0x4u /* input ECX given */
#define HWLOC_MASK_ALL     0xfu /* EAX, EBX, ECX, EDX */

/* ----------------------------------------------------------------- hwloc */

/* "5 4 0 1 0 => 3c004122 1c0003f 3f 0" (hwloc-gather-cpuid prints %x). */
static bool dump_hwloc_record(const char *s, uint32_t *mask, struct dump_rec *r)
{
	uint32_t in[4];

	memset(r, 0, sizeof(*r));
	if (!(s = hex32(s, 1, 8, mask)))
		return false;
	for (int i = 0; i < 4; i++)
		if (*s++ != ' ' || !(s = hex32(s, 1, 8, &in[i])))
			return false;
	if (!starts(s, " => "))
		return false;
	s += strlen(" =>");
	for (int i = 0; i < 4; i++)
		if (*s++ != ' ' || !(s = hex32(s, 1, 8, &r->regs[i])))
			return false;
	r->leaf = in[0];
	r->any_subleaf = !(*mask & HWLOC_MASK_ECX);
	r->subleaf = r->any_subleaf ? 0 : in[2];
	return at_end(s);
}

static int hwloc_line(struct parse *p, const char *s)
{
	struct dump_rec r;
	uint32_t mask;

	if (*s == '#' || at_end(s))
		return 0;
	if (!dump_hwloc_record(s, &mask, &r))
		return dump_perr(p, "truncated or malformed hwloc-gather-cpuid record '%.60s'", s);
	/* Input EBX/EDX (bits 1, 3) are ignored by CPUID; EAX must be given. */
	if (!(mask & HWLOC_MASK_EAX) || (mask & ~HWLOC_MASK_ALL))
		return dump_perr(p, "unsupported input mask 0x%x", mask);
	return dump_rec_add(p, &r);
}

/* ------------------------------------------------------------ hwloc dirs */

/* "pu17" (hwloc-gather-cpuid's names: no sign, no leading zero). */
static bool pu_name(const char *name, unsigned long *cpu)
{
	const char *end;

	if (!starts(name, "pu") || (name[2] == '0' && name[3]) || !(end = dec(name + 2, cpu)))
		return false;
	return !*end;
}

static int parse_pu(struct parse *p, const char *path, unsigned long cpu)
{
	char *buf = NULL, **lines = NULL;
	size_t len = 0;
	unsigned n = 0;
	bool unterminated = false;
	int err = dump_read_lines(p, path, p->pu, &buf, &lines, &n, &unterminated, &len);

	p->line = 0;
	if (err || (err = dump_cpu_begin(p, cpu)))
		goto out;
	for (unsigned i = 0; i < n && !err; i++) {
		p->line = i + 1;
		err = hwloc_line(p, lines[i]);
	}
	/* hwloc-gather-cpuid ends every line: a last line without one was cut. */
	if (!err && unterminated && n && !at_end(lines[n - 1]))
		err = dump_perr(p, "no newline at the end of the file (truncated?)");
out:
	free(lines);
	free(buf);
	return err;
}

/*
 * hwloc's x86 backend reads the directory too (cpu/machine.c builds its
 * topology from it after this parse): the puN files read here and its
 * summary "hwloc-cpuid-info" (hwloc topology-x86.c, fopen of
 * "%s/hwloc-cpuid-info"), which baretma does not read.  A FIFO there would
 * block hwloc forever, and hwloc reads as root: present, it must be a
 * regular file the invoking user could read (cpu/userfile.h), of at most
 * CPU_DUMP_PU_MAX_BYTES.  0, or -EINVAL / -EACCES with the message.
 */
static int info_file_check(struct parse *p, const char *path)
{
	int dfd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC), fd, rc = 0;
	const char *name = "hwloc-cpuid-info";
	struct stat st;
	char why[400];

	if (dfd < 0) {
		rc = -errno;
		text_setf(p->err, "%s", strerror(-rc));
		return rc;
	}
	fd = userfile_open_read(dfd, name, 0);
	close(dfd);
	if (fd == -ENOENT)
		return 0; /* hwloc's topology is not built then (cpu/machine.c) */
	if (fd >= 0 && fstat(fd, &st) == 0 && (uint64_t)st.st_size > CPU_DUMP_PU_MAX_BYTES) {
		userfile_cap_text(why, sizeof(why), (uint64_t)st.st_size, CPU_DUMP_PU_MAX_BYTES,
				  "a hwloc-cpuid-info summary");
		rc = -EINVAL;
	} else if (fd < 0) {
		if (fd == -EACCES)
			userfile_read_denied(why, sizeof(why));
		else
			snprintf(why, sizeof(why), "%s", fd == -EINVAL ? USERFILE_NOT_REGULAR :
				 strerror(-fd));
		rc = fd;
	}
	if (fd >= 0)
		close(fd);
	if (rc)
		text_setf(p->err, "%s: %s", name, why);
	return rc;
}

static int dump_parse_hwloc_dir(struct parse *p, const char *path)
{
	bool seen[CPU_MAX_CPUS] = { false };
	DIR *dir = opendir(path);
	struct dirent *de;
	unsigned found = 0;
	int err = 0;

	if (!dir) {
		text_setf(p->err, "%s", strerror(errno));
		return -errno;
	}
	while ((de = readdir(dir)) != NULL) {
		unsigned long cpu;

		if (!pu_name(de->d_name, &cpu))
			continue; /* hwloc-cpuid-info, XML exports, ... */
		if (cpu >= CPU_MAX_CPUS) {
			closedir(dir);
			return dump_perr(p, "%s is above baretma's limit of %u CPUs", de->d_name,
					 CPU_MAX_CPUS);
		}
		seen[cpu] = true;
		found++;
	}
	closedir(dir);
	if (!found)
		return dump_perr(p,
				 "not a CPUID dump: a directory without hwloc-gather-cpuid puN files");
	if ((err = info_file_check(p, path)))
		return err;
	/* In CPU order, so that the first broken file reported is always the same. */
	for (unsigned cpu = 0; cpu < CPU_MAX_CPUS && !err; cpu++) {
		char file[PATH_MAX], pu[16];

		if (!seen[cpu])
			continue;
		snprintf(pu, sizeof(pu), "pu%u", cpu);
		if ((size_t)snprintf(file, sizeof(file), "%s/%s", path, pu) >= sizeof(file)) {
			text_setf(p->err, "%s: %s", pu, strerror(ENAMETOOLONG));
			return -ENAMETOOLONG; /* cut, it could name another file */
		}
		p->pu = pu;
		err = parse_pu(p, file, cpu);
	}
	p->pu = NULL;
	return err;
}

/* ------------------------------------------------------------- the format */

/* A directory holding a puN file: 1; none: 0; unreadable: -errno. */
static int hwloc_detect_dir(const char *path)
{
	DIR *dir = opendir(path);
	struct dirent *de;
	unsigned long cpu;
	int found = 0;

	if (!dir)
		return -errno;
	while (!found && (de = readdir(dir)) != NULL)
		found = pu_name(de->d_name, &cpu);
	closedir(dir);
	return found;
}

/* A record line: one puN file given alone. */
static bool hwloc_detect_line(const char *s, bool first)
{
	struct dump_rec r;
	uint32_t mask;

	(void)first;
	return dump_hwloc_record(s, &mask, &r);
}

static int hwloc_parse_file(struct parse *p, char **lines, unsigned n)
{
	(void)lines;
	(void)n;
	return dump_perr(p, "one file of a hwloc-gather-cpuid directory: give the directory");
}

const struct dump_format dump_format_hwloc = {
	.name = "hwloc", .detect_dir = hwloc_detect_dir, .parse_dir = dump_parse_hwloc_dir,
	.detect_line = hwloc_detect_line, .parse_lines = hwloc_parse_file,
	.cpu_label = "pu", .cpu_per_file = true,
};
