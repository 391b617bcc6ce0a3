/*
 * cpu/dump_write.c - baretma's own CPUID dump writer, behind
 * `baretma cpuid dump`.
 *
 * Writing: AIDA64's layout (cpu_dump_write_header, cpu_dump_write_cpu), so
 * that libcpuid 0.6.2's loader reads it too.  Subleaves per SDM Vol. 2A
 * CPUID and the AMD APM Vol. 3 appendix E (table sub_rules below); the
 * invalid subleaf that ends a list is not written (as AIDA64 does; libcpuid
 * 0.6.2's fixed subleaf arrays have no room for it).  libcpuid 0.6.2 reads
 * "[SL nn]" with sscanf's %i: [SL 08]..[SL 0F] (leaf 0xD's XSAVE
 * components, leaf 0x18's TLBs) become subleaf 0 for it, in AIDA64's files
 * as in these; baretma reads them as hex.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cpu/cpu_dump.h"
#include "cpu/dump_int.h"

#define LEAF_HV_BASE       0x40000000u
#define LEAF_RANGE_MAX     0xffu /* leaves written per range at most */
#define CPUID_1_ECX_HYPERVISOR (1u << 31)

/* Subleaf list ends (SDM Vol. 2A CPUID; AMD APM Vol. 3 E.3 for 8000001DH, 80000026H) */
#define CPUID_4_EAX_CACHE_TYPE    0x1fu   /* leaves 4, 8000001DH: 0 = no more caches */
#define CPUID_B_ECX_LEVEL_TYPE    0xff00u /* leaves 0BH, 1FH, 80000026H: 0 = invalid level */
#define CPUID_12_EAX_SUBLEAF_TYPE 0xfu    /* leaf 12H subleaf >= 2: 1 = EPC section */
#define CPUID_12_EPC_SECTION      0x1u
#define CPUID_1B_EAX_SUBLEAF_TYPE 0xfffu  /* leaf 1BH: 0 = invalid (no more targets) */
#define XSAVE_COMPONENTS          63      /* leaf 0DH: state components 0..62 */

enum sub_rule {
	SUB_EAX_MAX,    /* subleaves 0..(subleaf 0 EAX) */
	SUB_CACHE,      /* until EAX[4:0] (cache type) = 0 */
	SUB_LEVEL,      /* until ECX[15:8] (level type) = 0 */
	SUB_XSAVE,      /* 0, 1, and each component of XCR0 | IA32_XSS */
	SUB_BITS_EAX,   /* 0 and each bit set in subleaf 0 EAX */
	SUB_BITS_EBX,   /* 0 and each bit set in subleaf 0 EBX (resource IDs) */
	SUB_BITS_EDX,   /* 0 and each bit set in subleaf 0 EDX (resource IDs) */
	SUB_SGX,        /* 0, 1, then EPC sections while EAX[3:0] = 1 */
	SUB_PCONFIG,    /* until EAX[11:0] (target type) = 0 */
};

/* Leaves with subleaves (SDM Vol. 2A CPUID, Table 3-8; AMD APM Vol. 3 E.3). */
static const struct {
	uint32_t leaf;
	enum sub_rule rule;
} sub_rules[] = {
	{ 0x4, SUB_CACHE },         /* deterministic cache parameters */
	{ 0x7, SUB_EAX_MAX },       /* structured extended features (7.1: ArchPerfmonExt) */
	{ 0xb, SUB_LEVEL },         /* extended topology */
	{ 0xd, SUB_XSAVE },         /* processor extended state */
	{ 0xf, SUB_BITS_EDX },      /* RDT monitoring */
	{ 0x10, SUB_BITS_EBX },     /* RDT allocation */
	{ 0x12, SUB_SGX },          /* SGX capabilities and EPC sections */
	{ 0x14, SUB_EAX_MAX },      /* processor trace */
	{ 0x17, SUB_EAX_MAX },      /* SoC vendor attributes */
	{ 0x18, SUB_EAX_MAX },      /* deterministic address translation */
	{ 0x1b, SUB_PCONFIG },      /* PCONFIG */
	{ 0x1d, SUB_EAX_MAX },      /* tile information */
	{ 0x1e, SUB_EAX_MAX },      /* TMUL information */
	{ 0x1f, SUB_LEVEL },        /* V2 extended topology */
	{ 0x20, SUB_EAX_MAX },      /* HRESET */
	{ 0x23, SUB_BITS_EAX },     /* architectural perfmon extended: EAX = valid subleaves */
	{ 0x24, SUB_EAX_MAX },      /* AVX10 */
	{ 0x8000001du, SUB_CACHE }, /* AMD cache topology */
	{ 0x80000020u, SUB_BITS_EBX }, /* AMD platform QoS */
	{ 0x80000026u, SUB_LEVEL }, /* AMD extended CPU topology */
};

#define SUB_MAX 64 /* subleaves written per leaf at most (garbage bound) */

static int sub_rule_of(uint32_t leaf)
{
	for (size_t i = 0; i < sizeof(sub_rules) / sizeof(sub_rules[0]); i++)
		if (sub_rules[i].leaf == leaf)
			return (int)sub_rules[i].rule;
	return -1;
}

/* Rules decided by subleaf 0 alone: is subleaf @s (> 0) listed?
 * @x1: subleaf 1 of leaf 0xD (IA32_XSS bits in ECX, EDX). */
static bool sub_listed(enum sub_rule rule, uint32_t s, const uint32_t r0[4], const uint32_t x1[4])
{
	uint64_t xsave = ((uint64_t)r0[3] << 32 | r0[0]) | ((uint64_t)x1[3] << 32 | x1[2]);

	switch (rule) {
	case SUB_EAX_MAX: return s <= r0[0];
	case SUB_XSAVE: return s == 1 || (s < XSAVE_COMPONENTS && (xsave >> s & 1));
	case SUB_BITS_EAX: return s < 32 && (r0[0] >> s & 1);
	case SUB_BITS_EBX: return s < 32 && (r0[1] >> s & 1);
	case SUB_BITS_EDX: return s < 32 && (r0[3] >> s & 1);
	default: return true;
	}
}

/* Rules that enumerate until a subleaf says it is invalid: is @r (subleaf
 * @s > 0) valid?  The invalid one that ends the list is not written, as
 * AIDA64 does (and libcpuid 0.6.2's fixed arrays have no room for it). */
static bool sub_valid(enum sub_rule rule, uint32_t s, const uint32_t r[4])
{
	switch (rule) {
	case SUB_CACHE: return (r[0] & CPUID_4_EAX_CACHE_TYPE) != 0;
	case SUB_LEVEL: return (r[2] & CPUID_B_ECX_LEVEL_TYPE) != 0;
	case SUB_SGX: return s == 1 || (r[0] & CPUID_12_EAX_SUBLEAF_TYPE) == CPUID_12_EPC_SECTION;
	case SUB_PCONFIG: return (r[0] & CPUID_1B_EAX_SUBLEAF_TYPE) != 0;
	default: return true;
	}
}

static void write_record(FILE *f, uint32_t leaf, const uint32_t r[4], int subleaf)
{
	fprintf(f, "CPUID %08X: %08X-%08X-%08X-%08X", leaf, r[0], r[1], r[2], r[3]);
	if (subleaf >= 0)
		fprintf(f, " [SL %02X]", (unsigned)subleaf);
	fputc('\n', f);
}

/* Subleaves 1.. of @leaf by its rule. */
static int write_subleaves(FILE *f, const struct cpu_source *src, unsigned cpu, uint32_t leaf,
			   enum sub_rule rule, const uint32_t r0[4])
{
	uint32_t r[4], x1[4] = { 0 };
	int err;

	if (rule == SUB_XSAVE && (err = cpu_source_cpuid(src, cpu, leaf, 1, x1)) && err != -ENODATA)
		return err;
	for (uint32_t s = 1; s < SUB_MAX; s++) {
		if (!sub_listed(rule, s, r0, x1))
			continue;
		err = cpu_source_cpuid(src, cpu, leaf, s, r);
		if (err == -ENODATA)
			continue; /* a dump without it */
		if (err)
			return err;
		if (!sub_valid(rule, s, r))
			break;
		write_record(f, leaf, r, (int)s);
	}
	return 0;
}

/* One leaf with its subleaves; a leaf the source lacks (-ENODATA: a dump
 * without it) is left out. */
static int write_leaf(FILE *f, const struct cpu_source *src, unsigned cpu, uint32_t leaf)
{
	int rule = sub_rule_of(leaf), err;
	uint32_t r0[4];

	err = cpu_source_cpuid(src, cpu, leaf, 0, r0);
	if (err)
		return err == -ENODATA ? 0 : err;
	write_record(f, leaf, r0, rule < 0 ? -1 : 0);
	return rule < 0 ? 0 : write_subleaves(f, src, cpu, leaf, (enum sub_rule)rule, r0);
}

/* Leaves @base..max of a range, max = CPUID.@base:EAX, at most @base + 0xff. */
static int write_range(FILE *f, const struct cpu_source *src, unsigned cpu, uint32_t base)
{
	uint32_t r[4], max;
	int err = cpu_source_cpuid(src, cpu, base, 0, r);

	if (err)
		return err == -ENODATA && base != LEAF_VENDOR ? 0 : err;
	max = r[0] < base ? base : r[0] - base > LEAF_RANGE_MAX ? base + LEAF_RANGE_MAX : r[0];
	for (uint32_t leaf = base; leaf <= max && !err; leaf++)
		err = write_leaf(f, src, cpu, leaf);
	return err;
}

int cpu_dump_write_header(FILE *f, const char *versions)
{
	static const char *const reserved[] = { "------[", "CPUID ", "CPU#", "_________________" };
	const char *s = versions ? versions : "";

	/* Nothing in the Versions section may look like a section or a record. */
	for (const char *l = s; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
		for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
			if (starts(l, reserved[i]) || starts(l, DUMP_END_LINE))
				return -EINVAL;
	/* libcpuid 0.6.2 recognises AIDA64 by this exact first line. */
	fprintf(f, "------[ Versions ]------\n\n%s%s\n", s, *s && s[strlen(s) - 1] != '\n' ? "\n" : "");
	return ferror(f) ? -EIO : 0;
}

int cpu_dump_write_cpu(FILE *f, const struct cpu_source *src, unsigned cpu)
{
	uint32_t r[4];
	int err = cpu_source_cpuid(src, cpu, LEAF_VENDOR, 0, r);

	if (err)
		return err;
	fprintf(f, "------[ CPUID Registers / Logical CPU #%u ]------\n\n", cpu);
	err = write_range(f, src, cpu, LEAF_VENDOR);
	/* Hypervisor leaves when CPUID.1:ECX[31] says there is one. */
	if (!err && !cpu_source_cpuid(src, cpu, LEAF_FEATURES, 0, r) &&
	    (r[2] & CPUID_1_ECX_HYPERVISOR))
		err = write_range(f, src, cpu, LEAF_HV_BASE);
	if (!err)
		err = write_range(f, src, cpu, LEAF_EXT_BASE);
	fputc('\n', f);
	if (!err && ferror(f))
		err = -EIO;
	return err;
}
