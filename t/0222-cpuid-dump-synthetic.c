/*
 * t/0222-cpuid-dump-synthetic.c - baretma's own CPUID dump reader on
 * hand-written dumps (split from t/0220, which reads every real dump): the
 * errors (cut files, junk, an empty file, one hwloc puN file alone), and
 * AIDA64, hwloc-gather-cpuid and libcpuid raw dumps typed by hand.
 *
 * Known answers come from outside the code under test: the dumps in
 * t/data (each says what it stands for) and the register values typed
 * from them; libcpuid 0.6.2's own loader, cpuid_deserialize_all_raw_data(),
 * for the AIDA64 one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libcpuid/libcpuid.h>

#include "cpu/cpu.h"
#include "t/fixture.h"

/* ---------------------------------------------------------------- helpers */

static void quiet_warn(const char *msg)
{
	(void)msg;
}

/* ----------------------------------------------------------- synthetic */

static struct cpu_source *load_data(const char *name)
{
	char path[PATH_MAX];

	t_path(path, "%s/%s", t_data_dir(), name);
	errno = 0;
	return cpu_source_dump(path);
}

static void expect_error(const char *name, const char *detail)
{
	struct cpu_source *s = load_data(name);
	int e = errno;

	ok(!s && e == EINVAL, "%s: refused with EINVAL (errno %d)", name, e);
	ok(strstr(cpu_source_error(), detail) != NULL, "%s: says '%s' (%s)", name, detail, cpu_source_error());
	cpu_source_free(s);
}

static void test_bad_dumps(void)
{
	char *p;
	struct cpu_source *s;

	expect_error("cpuid-unrecognised.txt", "not a CPUID dump");
	expect_error("cpuid-aida64-cut-record.txt", "line 15: truncated or malformed CPUID record");
	expect_error("cpuid-aida64-cut-section.txt", "line 12: logical CPU #1 has no CPUID record");
	expect_error("cpuid-aida64-no-leaf0.txt", "line 12: logical CPU #1 has no leaf 0");
	expect_error("cpuid-aida64-cut-line.txt",
		     "line 13: logical CPU #1 has no leaf 0x80000000, which logical CPU #0 has");
	expect_error("cpuid-hwloc-cut", "pu1 line 7: truncated or malformed hwloc-gather-cpuid record");
	expect_error("cpuid-hwloc-garbled", "pu1 line 7: truncated or malformed hwloc-gather-cpuid record");
	/* An empty file stands for a dump whose copy never started. */
	p = t_tmp_file("0222-empty");
	errno = 0;
	s = cpu_source_dump(p);
	ok(!s && errno == EINVAL && !strcmp(cpu_source_error(), "empty file"), "empty file: EINVAL, '%s'",
	   cpu_source_error());
	unlink(p);
	errno = 0;
	s = cpu_source_dump("/nonexistent/baretma-0220/dump.txt");
	ok(!s && errno == ENOENT, "missing file: ENOENT (errno %d)", errno);
	/* One pu file of a hwloc directory: the message says to give the directory. */
	p = t_tmp_file("0222-pu");
	put_file(p, "1 0 0 0 0 => 1 756e6547 6c65746e 49656e69\n");
	errno = 0;
	s = cpu_source_dump(p);
	ok(!s && errno == EINVAL && strstr(cpu_source_error(), "give the directory"), "lone pu file: %s",
	   cpu_source_error());
	unlink(p);
}

/* t/data/cpuid-aida64-synthetic.txt, values typed from the file. */
static void check_aida64_synthetic(const struct cpu_source *s, const char *what)
{
	uint32_t r[4];

	check_str(cpu_source_format(s), "aida64", what);
	check_u64(cpu_source_ncpus(s), ==, 3, "  CPUs #0 and #2: ncpus 3");
	check_int(cpu_source_cpuid(s, 1, 0, 0, r), ==, -ENXIO, "  CPU 1 is not in the dump: -ENXIO");
	ok(t_cpuid_eq(s, 0, 4, 0, 0xFC004121, 0x02C0003F, 0x3F, 0), "  leaf 4 without [SL]: the first line wins");
	check_int(cpu_source_cpuid(s, 0, 4, 1, r), ==, -ENODATA, "  leaf 4 subleaf 1: not numbered, -ENODATA");
	ok(t_cpuid_eq(s, 0, 0xd, 0xb, 0x10, 0, 1, 0), "  [SL 0B] is subleaf 11 (hex)");
	ok(t_cpuid_eq(s, 0, 0xd, 0, 0x207, 0x340, 0xA88, 0), "  leaf 0xD subleaf 0 untouched by [SL 0B]");
	check_u64(t_cpuid_reg(s, 0, 7, 1, 0) >> 8 & 1, ==, 1, "  7.1:EAX[8] ArchPerfmonExt");
	ok(t_cpuid_eq(s, 0, 0x23, 1, 0x3FF, 0xF, 0, 0) && t_cpuid_eq(s, 2, 0x23, 1, 0xFF, 0x77, 0, 0),
	   "  leaf 0x23.1 per CPU (P-core, E-core)");
	check_int(cpu_source_cpuid(s, 0, 0x23, 2, r), ==, -ENODATA, "  0x23.2 absent on CPU #0");
	check_u64(t_cpuid_reg(s, 2, 0x1a, 0, 0), ==, 0x20000001, "  CPU #2 leaf 0x1A: Atom");
	ok(t_cpuid_eq(s, 0, 0x80000009u, 0, 0, 0, 0, 0), "  leaf above CPUID.80000000H:EAX reads as zeros");
	ok(t_cpuid_eq(s, 2, 0x40000000u, 0, 0x40000001, 0x4B4D564B, 0x564B4D56, 0x4D),
	   "  hypervisor leaf 0x40000000 passed through");
	ok(t_cpuid_eq(s, 0, 0x80000008u, 0, 0x3027, 0, 0, 0), "  leaf 0x80000008 after a comment line");
}

static void test_aida64_synthetic(void)
{
	char path[PATH_MAX];
	struct cpu_source *s = load_data("cpuid-aida64-synthetic.txt");
	struct cpu_raw_data_array_t raw = { 0 };
	FILE *in, *out;
	char *p, line[512];
	libcpuid_warn_fn_t old;

	if (!ok(s != NULL, "cpuid-aida64-synthetic.txt loads (%s)", s ? "ok" : cpu_source_error()))
		return;
	check_aida64_synthetic(s, "cpuid-aida64-synthetic.txt: aida64");
	cpu_source_free(s);
	/* The premise of the oracle model: libcpuid 0.6.2 takes [SL 0B] for subleaf 0. */
	t_path(path, "%s/cpuid-aida64-synthetic.txt", t_data_dir());
	old = cpuid_set_warn_function(quiet_warn);
	if (!cpuid_deserialize_all_raw_data(&raw, path) && raw.num_raw == 3) {
		check_u64(raw.raw[0].basic_cpuid[0xd][0], ==, 0x10, "libcpuid 0.6.2 reads [SL 0B] as subleaf 0");
		check_u64(raw.raw[0].basic_cpuid[4][0], ==, 0xFC004122, "libcpuid 0.6.2 keeps the last untagged leaf 4");
	} else {
		ok(0, "libcpuid loads cpuid-aida64-synthetic.txt");
	}
	cpuid_set_warn_function(old);
	if (raw.raw)
		cpuid_free_raw_data_array(&raw);
	/* Windows line ends (AIDA64 runs on Windows): the same records. */
	p = t_tmp_file("0222-crlf");
	in = fopen(path, "r");
	out = fopen(p, "w");
	while (in && out && fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = '\0';
		fprintf(out, "%s\r\n", line);
	}
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	s = cpu_source_dump(p);
	if (ok(s != NULL, "the same dump with CRLF line ends loads (%s)", s ? "ok" : cpu_source_error()))
		check_aida64_synthetic(s, "CRLF: aida64");
	cpu_source_free(s);
	unlink(p);
}

static void test_hwloc_synthetic(void)
{
	struct cpu_source *s = load_data("cpuid-hwloc-synthetic");
	uint32_t r[4];

	if (!ok(s != NULL, "cpuid-hwloc-synthetic loads (%s)", s ? "ok" : cpu_source_error()))
		return;
	check_str(cpu_source_format(s), "hwloc", "format hwloc");
	ok(cpu_source_is_hwloc_dir(s), "cpu_source_is_hwloc_dir");
	check_u64(cpu_source_ncpus(s), ==, 2, "pu0 and pu1: 2 CPUs");
	check_u64(t_cpuid_reg(s, 1, 1, 0, 1), ==, 0x1000800, "pu1's leaf 1 EBX (its own file)");
	check_u64(t_cpuid_reg(s, 0, 4, 1, 0), ==, 0xfc004122, "mask 5: leaf 4 subleaf 1");
	check_int(cpu_source_cpuid(s, 0, 4, 2, r), ==, -ENODATA, "mask 5: leaf 4 subleaf 2 absent");
	check_u64(t_cpuid_reg(s, 0, 0xa, 5, 0), ==, 0x7300805, "mask 1: leaf 0xA answers any subleaf");
	check_u64(t_cpuid_reg(s, 0, 0xb, 1, 0), ==, 1, "first matching line wins: 0xB.1 from the mask-1 line");
	check_int(cpu_source_cpuid(s, 2, 0, 0, r), ==, -ENXIO, "no pu2: -ENXIO");
	cpu_source_free(s);
}

/* libcpuid's raw format: separators, subleaf arrays, the live source's name. */
static void test_native_synthetic(void)
{
	char *p = t_tmp_file("0222-native");
	struct cpu_source *s, *live = cpu_source_live();

	/* Two CPUs; intel_fn4[1] is leaf 4 subleaf 1, ext_cpuid[1] is 0x80000001,
	 * amd_fn8000001dh[2] is 0x8000001D subleaf 2; a newer libcpuid's array
	 * (intel_fn99h) is skipped. */
	put_file(p, "version=0.6.2\n"
		    "\n_________________ Logical CPU #0 _________________\n"
		    "basic_cpuid[0]=00000004 756e6547 6c65746e 49656e69\n"
		    "basic_cpuid[1]=000906a3 00000800 00000000 00000000\n"
		    "ext_cpuid[0]=80000001 00000000 00000000 00000000\n"
		    "ext_cpuid[1]=00000000 00000000 00000121 2c100800\n"
		    "intel_fn4[1]=fc004122 01c0003f 0000003f 00000000\n"
		    "amd_fn8000001dh[2]=00004143 01c0003f 000007ff 00000002\n"
		    "intel_fn99h[0]=11111111 22222222 33333333 44444444\n"
		    "\n_________________ Logical CPU #1 _________________\n"
		    "basic_cpuid[0]=00000004 756e6547 6c65746e 49656e69\n"
		    "basic_cpuid[1]=000906a3 01000800 00000000 00000000\n"
		    "ext_cpuid[0]=80000001 00000000 00000000 00000000\n"
		    "ext_cpuid[1]=00000000 00000000 00000121 2c100800\n"
		    "intel_fn4[1]=fc004122 01c0003f 0000003f 00000000\n"
		    "amd_fn8000001dh[2]=00004143 01c0003f 000007ff 00000002\n");
	s = cpu_source_dump(p);
	if (ok(s != NULL, "libcpuid raw dump with separators loads (%s)", s ? "ok" : cpu_source_error())) {
		check_str(cpu_source_format(s), "libcpuid", "format libcpuid");
		check_u64(cpu_source_ncpus(s), ==, 2, "2 CPUs");
		check_u64(t_cpuid_reg(s, 1, 1, 0, 1), ==, 0x01000800, "CPU 1's leaf 1");
		check_u64(t_cpuid_reg(s, 0, 4, 1, 0), ==, 0xfc004122, "intel_fn4[1] = leaf 4 subleaf 1");
		check_u64(t_cpuid_reg(s, 0, 0x80000001u, 0, 2), ==, 0x121, "ext_cpuid[1] = leaf 0x80000001");
		ok(!cpu_source_is_hwloc_dir(s), "not a hwloc directory");
	}
	cpu_source_free(s);
	put_file(p, "basic_cpuid[0]=00000004 756e6547 6c65746e 49656e69\n"
		    "basic_cpuid[1]=000906a3 00000800 0000\n");
	errno = 0;
	s = cpu_source_dump(p);
	ok(!s && errno == EINVAL && strstr(cpu_source_error(), "line 2: truncated or malformed libcpuid record"),
	   "libcpuid record cut short: %s", cpu_source_error());
	unlink(p);
	check_str(cpu_source_format(live), "live", "the live source's format is 'live'");
	ok(!cpu_source_is_hwloc_dir(live), "the live source is no hwloc directory");
	cpu_source_free(live);
}
int main(void)
{
	test_bad_dumps();
	test_aida64_synthetic();
	test_hwloc_synthetic();
	test_native_synthetic();
	return done_testing();
}
