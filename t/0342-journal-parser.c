/*
 * t/0342-journal-parser.c - the run journal's strict parser
 * (msr/journal/journal.h journal_load): good files, every malformed line, and
 * what a journal may ask to be written back.  Split from t/0340.
 *
 * Expected values are the bytes written into the fixtures (t/journal-fixture.h),
 * the format in msr/journal/journal.h written out by hand, and the kernel's own
 * /proc/PID/stat (read here, not by the code under test).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "msr/regs/intel_regs.h"
#include "msr/journal/journal.h"
#include "msr/access/msr.h"
#include "msr/journal/state_dir.h"
#include "t/fixture.h"
#include "t/journal-fixture.h"

static const char good[] =
	"# baretma journal v2\n"        /* 1 */
	"pid 4242\n"                    /* 2 */
	"starttime 12345\n"             /* 3 */
	"time 1700000000\n"             /* 4 */
	"cmd baretma bench --backend msr\n" /* 5 */
	"backend /dev/cpu/%u/msr\n"     /* 6 */
	"kind run\n"                    /* 7 */
	"user_only 1\n"                 /* 8 */
	"reg 0 0x38f 0x70000000f\n"     /* 9 */
	"reg 2 0x38d 0x333\n"           /* 10 */
	"setting /proc/sys/kernel/nmi_watchdog 1\n"; /* 11 */

static void bad(const char *text, const char *want, const char *name)
{
	const char *path = t_in(base, "parse.journal");
	struct journal_data d;
	FILE *f = fopen(path, "w");

	fwrite(text, 1, strlen(text), f);
	fclose(f);
	chmod(path, 0600);
	check_int(journal_load(path, &d), ==, -EINVAL, name);
	ok(strncmp(journal_last_error(), want, strlen(want)) == 0, "%s: detail '%s'", name,
	   journal_last_error());
}

static void test_parser(void)
{
	const char *path = t_in(base, "parse.journal");
	struct journal_data d;
	char huge[9100], want[PATH_MAX];

	put_file(path, good);
	chmod(path, 0600);
	check_int(journal_load(path, &d), ==, 0, "the good journal loads");
	t_path(want, "%s%s", root, NMI_PATH);
	ok(d.pid == 4242 && d.starttime == 12345 && d.time == 1700000000 && d.kind == JOURNAL_RUN &&
	   d.user_only, "header fields");
	check_str(d.cmd, "baretma bench --backend msr", "cmd");
	check_str(d.backend, "/dev/cpu/%u/msr", "backend");
	ok(d.nregs == 2 && d.regs[0].cpu == 0 && d.regs[0].msr == 0x38f && d.regs[0].saved == 0x70000000full &&
	   d.regs[1].cpu == 2 && d.regs[1].msr == 0x38d && d.regs[1].saved == 0x333, "regs");
	ok(d.ncpus == 2 && d.cpus[0] == 0 && d.cpus[1] == 2, "cpus 0 2");
	ok(d.nsettings == 1 && !strcmp(d.settings[0].path, NMI_PATH) && !strcmp(d.settings[0].value, "1") &&
	   !strcmp(d.settings[0].full, want), "setting, full path under the sysroot");
	journal_data_free(&d);

	bad(t_edit(good, "v2\n", "v1\n"), "line 1: ", "bad magic");
	bad("", "line 1: ", "empty file");
	bad(t_edit(good, "pid 4242\n", ""), "line 2: missing 'pid'", "missing pid");
	bad(t_edit(good, "pid 4242\n", "pid 0\n"), "line 2: pid", "pid 0");
	bad(t_edit(good, "pid 4242\n", "pid 04242\n"), "line 2: pid", "pid with a leading zero");
	bad(t_edit(good, "starttime 12345\n", "starttime 12345\npid 4242\n"), "line 4: duplicate 'pid' (first at line 2)",
	    "duplicate key");
	bad(t_edit(good, "reg 2 0x38d", "foo 2 0x38d"), "line 10: unknown key 'foo'", "unknown key");
	bad(t_edit(good, "0x70000000f", "0x7000g000f"), "line 9: reg: bad hex value", "bad hex digit");
	bad(t_edit(good, "0x38f", "0x38F"), "line 9: reg: bad hex MSR", "upper-case hex");
	bad(t_edit(good, "0x38f", "0x038f"), "line 9: reg: bad hex MSR", "hex with a leading zero");
	bad(t_edit(good, "0x70000000f", "0x170000000000000000"), "line 9: reg: bad hex value", "hex over 64 bits");
	bad(t_edit(good, "reg 0 ", "reg 8192 "), "line 9: reg: CPU", "CPU out of range");
	bad(t_edit(good, "reg 2 0x38d 0x333\n", "reg 0 0x38f 0x1\n"), "line 10: duplicate reg cpu 0 msr 0x38f (first at line 9)",
	    "duplicate register");
	bad(t_edit(good, "nmi_watchdog 1\n", "nmi_watchdog 1"), "line 11: truncated", "truncated last line");
	bad(t_edit(good, "reg 2 0x38d 0x333\nsetting /proc/sys/kernel/nmi_watchdog 1\n", "reg 2 0x3"),
	    "line 10: truncated", "file cut inside a line");
	memset(huge, 'x', sizeof(huge) - 1);
	huge[sizeof(huge) - 1] = '\0';
	bad(t_edit(good, "cmd baretma bench --backend msr", huge), "line 5: longer than 8192 bytes", "huge line");
	bad(t_edit(good, "kind run", "kind walk"), "line 7: kind must be 'run', 'enable' or 'write'",
	    "bad kind");
	bad(t_edit(good, "kind run", "kind Write"), "line 7: kind must be", "kind is case-sensitive");
	bad(t_edit(good, "kind run", "kind write "), "line 7: ", "kind with a trailing space");
	bad(t_edit(good, "kind run", "kind writes"), "line 7: kind must be", "a longer word is no kind");
	bad(t_edit(good, "user_only 1\n", "user_only 1 \n"), "line 8: user_only", "trailing space");
	bad(t_edit(good, "kind run\n", ""), "line 7: missing 'kind' before 'user_only'", "header out of order");
	bad(t_edit(good, "user_only 1\n", "user_only 1\nkind run\n"), "line 9: duplicate 'kind' (first at line 7)",
	    "header key after the header");
	put_file(path, t_edit(good, "reg 0 0x38f 0x70000000f\nreg 2 0x38d 0x333\n"
			    "setting /proc/sys/kernel/nmi_watchdog 1\n", ""));
	check_int(journal_load(path, &d), ==, 0, "a header without registers is valid");
	ok(d.nregs == 0 && d.ncpus == 0 && d.nsettings == 0, "and holds nothing");
	journal_data_free(&d);
}

/* @text loads; its first register is returned in *@r. */
static bool loads(const char *text, struct journal_reg *r, const char *name)
{
	const char *path = t_in(base, "parse.journal");
	struct journal_data d;
	int rc;

	put_file(path, text);
	chmod(path, 0600);
	rc = journal_load(path, &d);
	check_int(rc, ==, 0, name);
	if (rc)
		printf("#   %s\n", journal_last_error());
	else if (r && d.nregs)
		*r = d.regs[0];
	journal_data_free(&d);
	return rc == 0;
}

/*
 * Issue 9 point 4: a journal holds only what baretma changes (msr/journal/journal.h
 * "What a journal may hold").  The registers: run and enable journals the
 * four pmu_program() saves (msr/pmu/pmu.c; IA32_MISC_ENABLE is 0x1a0, SDM Vol.
 * 4); write journals the architectural PMU registers (linux msr-index.h:
 * IA32_PERFEVTSEL0-7 0x186-0x18d, IA32_PMC0-7 0xc1-0xc8, IA32_FIXED_CTR0-6
 * 0x309-0x30f) or any register marked unsafe-msr.  The settings: the files
 * of msr/guard/settings.h with the values the kernel prints there.
 */
static void test_parser_trust(void)
{
	struct journal_reg r = { 0 };
	char wr[sizeof(good)];
	struct journal *j = NULL;
	struct journal_data d;

	/* t_edit()'s buffers are reused: a copy */
	snprintf(wr, sizeof(wr), "%s", t_edit(t_edit(good, "kind run", "kind write"),
					   "setting /proc/sys/kernel/nmi_watchdog 1\n", ""));
	/* settings */
	bad(t_edit(good, "/proc/sys/kernel/nmi_watchdog 1", "/proc/sys/kernel/core_pattern |/tmp/evil%20%25p"),
	    "line 11: setting: path '/proc/sys/kernel/core_pattern' is not a file baretma changes",
	    "core_pattern setting");
	bad(t_edit(good, "/proc/sys/kernel/nmi_watchdog 1", "/sys/kernel/mm/transparent_hugepage/enabled never"),
	    "line 11: setting: path '/sys/kernel/mm/transparent_hugepage/enabled' is not a file",
	    "a sysfs file baretma does not change");
	bad(t_edit(good, "nmi_watchdog 1", "nmi_watchdog 5"),
	    "line 11: setting: value '5' of '/proc/sys/kernel/nmi_watchdog' is not one nmi_watchdog "
	    "takes (0 or 1)", "nmi_watchdog 5");
	bad(t_edit(good, "/proc/sys/kernel/nmi_watchdog 1", "/sys/bus/event_source/devices/cpu_atom/rdpmc 3"),
	    "line 11: setting: value '3' of '/sys/bus/event_source/devices/cpu_atom/rdpmc' is not one "
	    "rdpmc takes (0, 1 or 2)", "rdpmc 3");
	loads(t_edit(good, "/proc/sys/kernel/nmi_watchdog 1", "/sys/module/msr/parameters/allow_writes default"),
	      NULL, "allow_writes default loads");
	loads(t_edit(good, "/proc/sys/kernel/nmi_watchdog 1", "/sys/bus/event_source/devices/cpu_core/rdpmc 2"),
	      NULL, "cpu_core rdpmc 2 loads");

	/* run and enable journals: the four registers of pmu_program() */
	bad(t_edit(good, "reg 2 0x38d 0x333", "reg 2 0x1a0 0xdeadbeef"),
	    "line 10: reg: MSR 0x1a0 is not a register a journal of kind run holds", "run journal, 0x1a0");
	bad(t_edit(t_edit(good, "kind run", "kind enable"), "reg 2 0x38d 0x333", "reg 2 0x391 0x0"),
	    "line 10: reg: IA32_PERF_GLOBAL_STATUS_SET (0x391) is not a register a journal of kind "
	    "enable holds", "enable journal, GLOBAL_STATUS_SET (write-1-to-set: nothing to save)");
	/* gp_program()'s registers (msr/pmu/pmu_gp.h): the event selects and
	 * counters, Intel's architectural ranges (0x186-0x18d, 0xc1-0xc8,
	 * 0x4c1-0x4c8, FC4-6 0x30d-0x30f) and AMD PerfMonV2's (PERF_CTL5
	 * 0xc001020a, PERF_CTR5 0xc001020b, PERF_CNTR_GLOBAL_CTL 0xc0000301:
	 * linux msr-index.h MSR_F15H_PERF_CTL5/CTR5, MSR_AMD64_PERF_CNTR_GLOBAL_CTL) */
	loads(t_edit(t_edit(good, "kind run", "kind enable"), "reg 2 0x38d 0x333", "reg 2 0x186 0x0"),
	      NULL, "enable journal: IA32_PERFEVTSEL0 loads (gp_program saves it)");
	loads(t_edit(good, "reg 2 0x38d 0x333", "reg 2 0x4c8 0x0\nreg 2 0x30f 0x0\nreg 2 0xc1 0x5"),
	      NULL, "run journal: IA32_A_PMC7, IA32_FIXED_CTR6, IA32_PMC0 load");
	loads(t_edit(good, "reg 2 0x38d 0x333", "reg 2 0xc0000301 0x3f\nreg 2 0xc001020a 0x0\n"
		     "reg 2 0xc001020b 0x0"), NULL, "run journal: AMD GLOBAL_CTL, PERF_CTL5, PERF_CTR5 load");
	bad(t_edit(good, "reg 2 0x38d 0x333", "reg 2 0x18e 0x0"),
	    "line 10: reg: MSR 0x18e is not a register a journal of kind run holds",
	    "run journal, 0x18e (no IA32_PERFEVTSEL8)");
	bad(t_edit(good, "reg 2 0x38d 0x333", "reg 2 0xc001020c 0x0"),
	    "line 10: reg: MSR 0xc001020c is not a register a journal of kind run holds",
	    "run journal, 0xc001020c (no seventh AMD core counter)");
	bad(t_edit(good, "reg 2 0x38d 0x333", "reg 2 0xc0000302 0x1"),
	    "line 10: reg: PERF_CNTR_GLOBAL_STATUS_CLR (0xc0000302) is not a register a journal of "
	    "kind run holds", "run journal, AMD STATUS_CLR (write-1-to-clear)");
	bad(t_edit(good, "reg 2 0x38d 0x333", "reg 2 0x38d 0x333 unsafe-msr"),
	    "line 10: reg: 'unsafe-msr' in a journal of kind run", "run journal, the unsafe-msr mark");
	loads(t_edit(good, "reg 2 0x38d 0x333", "reg 2 0x30c 0x0\nreg 2 0x329 0x1"), NULL,
	      "run journal: FIXED_CTR3 and PERF_METRICS load");

	/* write journals: the write policy's registers, or marked */
	loads(wr, NULL, "write journal, GLOBAL_CTRL and FIXED_CTR_CTRL");
	bad(t_edit(wr, "reg 2 0x38d 0x333", "reg 2 0x1a0 0xdeadbeef"),
	    "line 10: reg: MSR 0x1a0 is outside the write policy and not marked 'unsafe-msr'",
	    "write journal, 0x1a0 unmarked");
	bad(t_edit(wr, "reg 2 0x38d 0x333", "reg 2 0x18e 0x0"),
	    "line 10: reg: MSR 0x18e is outside the write policy", "write journal, 0x18e (no PERFEVTSEL8)");
	bad(t_edit(wr, "reg 2 0x38d 0x333", "reg 2 0xc9 0x0"),
	    "line 10: reg: MSR 0xc9 is outside the write policy", "write journal, 0xc9 (no PMC8)");
	bad(t_edit(wr, "reg 2 0x38d 0x333", "reg 2 0x38e 0x0"),
	    "line 10: reg: IA32_PERF_GLOBAL_STATUS (0x38e) is outside the write policy",
	    "write journal, read-only GLOBAL_STATUS");
	loads(t_edit(wr, "reg 0 0x38f 0x70000000f", "reg 0 0x18d 0x0"), &r,
	      "write journal, IA32_PERFEVTSEL7 loads");
	loads(t_edit(wr, "reg 0 0x38f 0x70000000f", "reg 0 0x30f 0x0"), &r,
	      "write journal, IA32_FIXED_CTR6 loads");
	loads(t_edit(wr, "reg 0 0x38f 0x70000000f", "reg 0 0x4c8 0x0"), &r,
	      "write journal, IA32_A_PMC7 loads");
	ok(!r.unsafe, "unmarked");
	loads(t_edit(wr, "reg 0 0x38f 0x70000000f", "reg 0 0x1a0 0x850089 unsafe-msr"), &r,
	      "write journal, 0x1a0 marked unsafe-msr loads");
	ok(r.cpu == 0 && r.msr == 0x1a0 && r.saved == 0x850089 && r.unsafe, "and is marked");
	bad(t_edit(wr, "reg 2 0x38d 0x333", "reg 2 0x1a0 0x1 unsafe"),
	    "line 10: reg: after the value, only ' unsafe-msr'", "a mark that is not 'unsafe-msr'");
	bad(t_edit(wr, "reg 2 0x38d 0x333", "reg 2 0x1a0 0x1 unsafe-msr "),
	    "line 10: reg: after the value", "the mark and a trailing space");
	bad(t_edit(wr, "reg 2 0x38d 0x333", "reg 2 0x1a0 0x1  unsafe-msr"),
	    "line 10: reg: after the value", "two spaces before the mark");
	bad(t_edit(wr, "reg 2 0x38d 0x333", "reg 2 0x1a0 0x1 UNSAFE-MSR"),
	    "line 10: reg: after the value", "the mark is case-sensitive");

	/* the writer keeps the same rules, and marks what it is told to */
	fixtures();
	check_int(journal_begin(&j, "r", spec, JOURNAL_RUN, false), ==, 0, "begin run");
	check_int(journal_save_reg(j, 0, 0x1a0, 0x850089), ==, -EINVAL,
		  "run journal: saving 0x1a0 is -EINVAL");
	check_int(journal_save_regs(j, &(struct journal_reg){ .msr = IA32_FIXED_CTR3, .unsafe = true }, 1),
		  ==, -EINVAL, "run journal: a marked register is -EINVAL");
	ok(strstr(get_file(journal_file(getpid())), "\nreg ") == NULL, "run journal: nothing saved");
	journal_end(j);
	check_int(journal_begin(&j, "w", spec, JOURNAL_MSR_WRITE, false), ==, 0, "begin write");
	check_int(journal_save_reg(j, 0, 0x1a0, 0x850089), ==, -EINVAL,
		  "write journal: 0x1a0 unmarked is -EINVAL");
	check_int(journal_save_regs(j, &(struct journal_reg){ .msr = 0x1a0, .saved = 0x850089, .unsafe = true }, 1), ==, 0,
		  "write journal: 0x1a0 marked is saved");
	ok(strstr(get_file(journal_file(getpid())), "\nreg 0 0x1a0 0x850089 unsafe-msr\n") != NULL,
	   "written as 'reg 0 0x1a0 0x850089 unsafe-msr'");
	check_int(journal_load(journal_file(getpid()), &d), ==, 0, "and loads back");
	ok(d.nregs == 1 && d.regs[0].unsafe && journal_data_unsafe(&d) == 1, "marked, counted");
	journal_data_free(&d);
	journal_detach(j);
	journal_remove(getpid());
}

static void test_parser_more(void)
{
	const char *path = t_in(base, "parse.journal");
	const char *nul_text = "# baretma journal v2\npid 4\0 2\n";
	struct journal_data d;
	FILE *f;

	bad(t_edit(good, "nmi_watchdog 1", "nmi_watchdog%2 1"), "line 11: setting: bad percent", "cut escape");
	bad(t_edit(good, "nmi_watchdog 1", "nmi_watchdog %41"), "line 11: setting: bad percent",
	    "escape of a byte that needs none");
	bad(t_edit(good, "/proc/sys/kernel/nmi_watchdog", "/etc/passwd"), "line 11: setting: path", "path outside");
	bad(t_edit(good, "/proc/sys/kernel/nmi_watchdog", "/sys/%2E%2E/etc"), "line 11: setting: bad percent",
	    "'..' smuggled as an escape");
	bad(t_edit(good, "/proc/sys/kernel/nmi_watchdog", "/sys/../etc"), "line 11: setting: path", "'..' component");
	bad(t_edit(good, "nmi_watchdog 1\n", "nmi_watchdog 1\nsetting /proc/sys/kernel/nmi_watchdog 0\n"),
	    "line 12: duplicate setting", "duplicate setting");
	f = fopen(path, "w");
	fwrite(nul_text, 1, 30, f);
	fclose(f);
	check_int(journal_load(path, &d), ==, -EINVAL, "NUL byte: -EINVAL");
	ok(strncmp(journal_last_error(), "line 2: NUL", 11) == 0, "NUL byte: %s", journal_last_error());
	put_file(path, good);
	chmod(path, 0620);
	check_int(journal_load(path, &d), ==, -EPERM, "group-writable journal file: -EPERM");
	chmod(path, 0600);
	symlink(path, t_in(base, "link.journal"));
	check_int(journal_load(t_in(base, "link.journal"), &d), ==, -EPERM, "journal through a symlink: -EPERM");
	check_int(journal_load(t_in(base, "missing.journal"), &d), ==, -ENOENT, "missing journal: -ENOENT");
}

int main(void)
{
	t_journal_fixture("0342");
	test_parser();
	test_parser_more();
	test_parser_trust();
	t_rm_rf(base);
	return done_testing();
}
