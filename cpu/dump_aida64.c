/*
 * cpu/dump_aida64.c - the AIDA64 CPUID dump reader, both variants:
 *
 *   "aida64"          `------[ CPUID Registers / Logical CPU #N ]------` (or
 *                     `------[ Logical CPU #N ]------`) sections of lines
 *                     `CPUID 0000000A: EAX-EBX-ECX-EDX [SL nn] [comment]`;
 *                     no [SL] = subleaf 0; nn is hex (AIDA64 writes [SL 0B]).
 *                     Other `------[ ... ]------` sections (Versions, CPU Info,
 *                     MSR Registers, ...) and prose lines are skipped.
 *   "aida64-affmask"  AIDA64 sections opened by
 *                     `CPU#000 AffMask: 0x<high 64 bits>:<low 64 bits>`.
 *
 * AIDA64 CPU numbers are those of the section headers; in the affinity
 * mask variant, the CPU#NNN number.  The mask is not a flat 128-bit mask:
 * its two halves are Windows processor groups (the 112-CPU Ice Lake dump
 * has 56 per group, so CPU#056 is bit 0 of the high half).
 * Records go to the common reader (cpu/cpu_dump.c: first record of a key
 * wins, so an old AIDA64's untagged subleaves after the first are dropped).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cpu/dump_int.h"

/*
 * "------[ CPUID Registers / Logical CPU #3 ]------" or
 * "------[ Logical CPU #3 ]------": 1 and *cpu; another "------[ ... ]------"
 * section: 0; not a section header: -1.
 */
static int dump_aida_header(const char *s, unsigned long *cpu)
{
	const char *t;

	if (!starts(s, "------[ ") || !strstr(s, " ]------"))
		return -1;
	s += strlen("------[ ");
	if (starts(s, "CPUID Registers / "))
		s += strlen("CPUID Registers / ");
	if (!starts(s, "Logical CPU #"))
		return 0;
	t = dec(s + strlen("Logical CPU #"), cpu);
	return t && starts(t, " ]------") && at_end(t + strlen(" ]------")) ? 1 : 0;
}

/* Exactly @n hex digits. */
static const char *hex_run(const char *s, int n)
{
	for (int i = 0; i < n; i++)
		if (hexval(*s++) < 0)
			return NULL;
	return s;
}

/* "CPU#000 AffMask: 0x0000000000000000:0000000000000001": 1 and *cpu, else -1.
 * The mask (two Windows processor groups) is checked for shape only. */
static int dump_affmask_header(const char *s, unsigned long *cpu)
{
	if (!starts(s, "CPU#") || !(s = dec(s + 4, cpu)) || !starts(s, " AffMask: 0x"))
		return -1;
	s = hex_run(s + strlen(" AffMask: 0x"), 16);
	if (!s || *s != ':' || !(s = hex_run(s + 1, 16)))
		return -1;
	return at_end(s) ? 1 : -1;
}

/* "CPUID 0000000A:" - the start of an AIDA64 record line. */
static bool dump_aida_record_shaped(const char *s)
{
	uint32_t leaf;

	if (!starts(s, "CPUID "))
		return false;
	s = hex32(s + strlen("CPUID "), 8, 8, &leaf);
	return s && *s == ':';
}

/*
 * "CPUID 0000000A: 07300805-00000000-00000007-00008603 [SL 01] [comment]".
 * Every register has its 8 digits, so a line cut short never parses.
 */
static bool aida_record(const char *s, struct dump_rec *r)
{
	memset(r, 0, sizeof(*r));
	s = hex32(s + strlen("CPUID "), 8, 8, &r->leaf);
	if (!s || !starts(s, ": "))
		return false;
	s += 2;
	for (int i = 0; i < 4; i++) {
		if (i && *s++ != '-')
			return false;
		if (!(s = hex32(s, 8, 8, &r->regs[i])))
			return false;
	}
	if (*s && *s != ' ')
		return false;
	s = skip_spaces(s);
	if (starts(s, "[SL ")) {
		s = hex32(s + strlen("[SL "), 1, 8, &r->subleaf);
		if (!s || *s != ']')
			return false;
	}
	return true;
}

/* One line inside or outside a CPU section. */
static int aida_line(struct parse *p, const char *s)
{
	struct dump_rec r;

	if (p->cur < 0) {
		/* Prose such as "CPUID Manufacturer: GenuineIntel" is fine here. */
		return dump_aida_record_shaped(s)
		       ? dump_perr(p, "CPUID record outside a 'Logical CPU' section") : 0;
	}
	if (!starts(s, "CPUID "))
		return 0; /* "allcpu: ...", cache descriptions, blank lines */
	if (!aida_record(s, &r))
		return dump_perr(p, "truncated or malformed CPUID record '%.60s'", s);
	return dump_rec_add(p, &r);
}

/* @s is "------[" and more, or a prefix of "------[ " (a header cut short). */
static bool header_like(const char *s, bool affmask)
{
	const char *h = affmask ? "CPU#" : "------[ ";
	size_t n = strlen(s);

	return n && (n < strlen(h) ? !strncmp(s, h, n) : starts(s, affmask ? "CPU#" : "------["));
}

static int dump_parse_aida(struct parse *p, char **lines, unsigned n, bool affmask)
{
	int err = 0;

	for (unsigned i = 0; i < n && !err; i++) {
		unsigned long cpu;
		int hdr = affmask ? dump_affmask_header(lines[i], &cpu)
				  : dump_aida_header(lines[i], &cpu);

		p->line = i + 1;
		if (hdr == 1)
			err = dump_cpu_begin(p, cpu);
		else if (hdr == 0)
			p->cur = -1; /* another AIDA64 section */
		else if (header_like(lines[i], affmask))
			err = dump_perr(p, "malformed section header '%.60s' (truncated?)",
					lines[i]);
		else
			err = aida_line(p, lines[i]);
	}
	return err;
}

/* ------------------------------------------------------------- the formats */

/* A "Logical CPU #N" section header, or a line shaped like a record. */
static bool aida64_detect(const char *s, bool first)
{
	unsigned long cpu;

	(void)first;
	return dump_aida_header(s, &cpu) == 1 || dump_aida_record_shaped(s);
}

static bool affmask_detect(const char *s, bool first)
{
	unsigned long cpu;

	(void)first;
	return dump_affmask_header(s, &cpu) == 1;
}

static int aida64_parse(struct parse *p, char **lines, unsigned n)
{
	return dump_parse_aida(p, lines, n, false);
}

static int affmask_parse(struct parse *p, char **lines, unsigned n)
{
	return dump_parse_aida(p, lines, n, true);
}

const struct dump_format dump_format_aida64 = {
	.name = "aida64", .detect_line = aida64_detect, .parse_lines = aida64_parse,
	.cpu_label = "logical CPU #",
};

const struct dump_format dump_format_aida64_affmask = {
	.name = "aida64-affmask", .detect_line = affmask_detect, .parse_lines = affmask_parse,
	.cpu_label = "logical CPU #",
};
