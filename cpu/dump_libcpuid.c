/*
 * cpu/dump_libcpuid.c - the libcpuid raw CPUID dump reader:
 *
 *   "libcpuid"        libcpuid's raw format, `basic_cpuid[i]=eax ebx ecx edx`,
 *                     `ext_cpuid[i]`, and the subleaf arrays `intel_fn4[i]`
 *                     (leaf 4), `intel_fn11[i]` (0xB), `intel_fn12h[i]`
 *                     (0x12), `intel_fn14h[i]` (0x14), `amd_fn8000001dh[i]`
 *                     (0x8000001D), with optional `version=` header lines and
 *                     `_________________ Logical CPU #N _________________`
 *                     separators (libcpuid 0.6's cpuid_serialize_all_raw_data;
 *                     records before any separator are CPU 0).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cpu/dump_int.h"

static const struct {
	const char *name;
	uint32_t leaf;
	bool subleaf_array; /* [i] is the subleaf, not the leaf offset */
} native_arrays[] = {
	{ "basic_cpuid", 0x0, false },
	{ "ext_cpuid", LEAF_EXT_BASE, false },
	{ "intel_fn4", 0x4, true },
	{ "intel_fn11", 0xb, true },
	{ "intel_fn12h", 0x12, true },
	{ "intel_fn14h", 0x14, true },
	{ "amd_fn8000001dh", 0x8000001du, true },
};

/* "_________________ Logical CPU #3 _________________" */
static bool dump_native_separator(const char *s, unsigned long *cpu)
{
	static const char bar[] = "_________________";

	if (!starts(s, bar) || !starts(s + strlen(bar), " Logical CPU #"))
		return false;
	s = dec(s + strlen(bar) + strlen(" Logical CPU #"), cpu);
	return s && *s == ' ' && starts(skip_spaces(s), bar) &&
	       at_end(skip_spaces(s) + strlen(bar));
}

/* Length of the identifier NAME of "NAME[i]=...", 0 if the line is not one. */
static size_t dump_native_name_len(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_");

	return n && s[n] == '[' ? n : 0;
}

static int dump_native_array(const char *s, size_t len)
{
	for (size_t i = 0; i < sizeof(native_arrays) / sizeof(native_arrays[0]); i++)
		if (strlen(native_arrays[i].name) == len && !strncmp(s, native_arrays[i].name, len))
			return (int)i;
	return -1;
}

/* "[i]=eeeeeeee bbbbbbbb cccccccc dddddddd" (libcpuid writes %08x). */
static bool native_values(const char *s, unsigned long *idx, uint32_t regs[4])
{
	if (!(s = dec(s + 1, idx)) || !starts(s, "]="))
		return false;
	s += 2;
	for (int i = 0; i < 4; i++) {
		if (i && *s++ != ' ')
			return false;
		if (!(s = hex32(s, 8, 8, &regs[i])))
			return false;
	}
	return at_end(s);
}

static int native_record(struct parse *p, const char *s, size_t len)
{
	int a = dump_native_array(s, len);
	unsigned long idx;
	struct dump_rec r = { 0 };
	int err;

	if (!native_values(s + len, &idx, r.regs))
		return dump_perr(p, "truncated or malformed libcpuid record '%.60s'", s);
	if (a < 0)
		return 0; /* an array of a newer libcpuid: not mapped to a leaf */
	if (idx > UINT32_MAX - native_arrays[a].leaf)
		return dump_perr(p, "index %lu out of range", idx);
	r.leaf = native_arrays[a].leaf + (native_arrays[a].subleaf_array ? 0 : (uint32_t)idx);
	r.subleaf = native_arrays[a].subleaf_array ? (uint32_t)idx : 0;
	if (p->cur < 0 && (err = dump_cpu_begin(p, 0))) /* no separator: CPU 0 */
		return err;
	return dump_rec_add(p, &r);
}

static int native_line(struct parse *p, const char *s)
{
	size_t len = dump_native_name_len(s);
	unsigned long cpu;
	const char *eq = strchr(s, '=');

	if (at_end(s))
		return 0;
	if (dump_native_separator(s, &cpu))
		return dump_cpu_begin(p, cpu);
	if (len)
		return native_record(p, s, len);
	/* "version=0.6.2" and other header lines of libcpuid */
	if (eq && eq > s && strspn(s, "abcdefghijklmnopqrstuvwxyz_") == (size_t)(eq - s))
		return 0;
	return dump_perr(p, "not libcpuid raw data: '%.60s'", s);
}

static int dump_parse_native(struct parse *p, char **lines, unsigned n)
{
	int err = 0;

	for (unsigned i = 0; i < n && !err; i++) {
		p->line = i + 1;
		err = native_line(p, lines[i]);
	}
	return err;
}

/* A "Logical CPU #N" separator, a known array's record, or a first line
 * "version=..." (libcpuid's header). */
static bool native_detect(const char *s, bool first)
{
	unsigned long cpu;

	return dump_native_separator(s, &cpu) || dump_native_array(s, dump_native_name_len(s)) >= 0 ||
	       (first && starts(s, "version="));
}

const struct dump_format dump_format_libcpuid = {
	.name = "libcpuid", .detect_line = native_detect, .parse_lines = dump_parse_native,
	.cpu_label = "logical CPU #",
};
