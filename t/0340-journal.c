/*
 * t/0340-journal.c - the crash-safe run journal (msr/journal/journal.h) from begin
 * to end: on disk before every write, restore order and bytes, a journal
 * left on purpose (detach), settings saved beside the registers.  Killed
 * runs and liveness: t/0341; the parser: t/0342; the state directory:
 * t/0343.
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

static void test_save_restore_end(void)
{
	struct journal *j = NULL;
	struct msr_dev *dev;
	struct stat st;
	char want[PATH_MAX + 2048], head[PATH_MAX + 512];
	const char *text;
	long long t0, t1, tj = -1;
	const char *tl;

	fixtures();
	dev = open_dev();
	t0 = (long long)time(NULL);
	check_int(journal_begin(&j, "baretma bench --backend msr", spec, JOURNAL_RUN, false), ==, 0,
		  "journal_begin");
	t1 = (long long)time(NULL);
	check_str(journal_path(j), journal_file(getpid()), "journal path is <state dir>/run-<pid>.journal");
	ok(stat(journal_file(getpid()), &st) == 0 && S_ISREG(st.st_mode), "journal file exists after begin");
	check_int(st.st_mode & 07777, ==, 0600, "journal mode 0600");
	check_int(st.st_uid, ==, geteuid(), "journal owned by the effective user");
	text = get_file(journal_file(getpid()));
	tl = strstr(text, "\ntime ");
	if (tl)
		tj = atoll(tl + 6);
	ok(tj >= t0 && tj <= t1, "time line is the Unix time of begin (%lld in [%lld, %lld])", tj, t0, t1);
	snprintf(head, sizeof(head),
		 "# baretma journal v2\npid %ld\nstarttime %llu\ntime %lld\n"
		 "cmd baretma bench --backend msr\nbackend %s\nkind run\nuser_only 0\n",
		 (long)getpid(), starttime_of(getpid()), tj, spec);
	check_str(text, head, "header after begin, starttime from /proc/self/stat");
	check_int(journal_begin(&(struct journal *){ NULL }, "x", spec, JOURNAL_RUN, false), ==, -EBUSY,
		  "a second journal in the same process: -EBUSY");

	/* Each value is in the file before the register is written. */
	check_int(journal_save_reg(j, 0, IA32_FIXED_CTR_CTRL, 0x333), ==, 0, "save cpu 0 FIXED_CTR_CTRL");
	ok(strstr(get_file(journal_file(getpid())), "reg 0 0x38d 0x333\n") != NULL,
	   "saved FIXED_CTR_CTRL on disk before the write");
	ok(strstr(get_file(state), "0 0x38d 0x333\n") != NULL, "register not written yet");
	msr_write(dev, 0, IA32_FIXED_CTR_CTRL, 0x3333);
	check_int(journal_save_reg(j, 0, IA32_PERF_GLOBAL_CTRL, 0x70000000full), ==, 0, "save cpu 0 GLOBAL_CTRL");
	ok(strstr(get_file(journal_file(getpid())), "reg 0 0x38f 0x70000000f\n") != NULL,
	   "saved GLOBAL_CTRL on disk before the write");
	msr_write(dev, 0, IA32_PERF_GLOBAL_CTRL, 0);
	check_int(journal_save_reg(j, 0, IA32_FIXED_CTR3, 0x2f1a3c0), ==, 0, "save cpu 0 FIXED_CTR3");
	msr_write(dev, 0, IA32_FIXED_CTR3, 0);
	check_int(journal_save_reg(j, 0, IA32_PERF_METRICS, 0x1f3a5c47), ==, 0, "save cpu 0 PERF_METRICS");
	msr_write(dev, 0, IA32_PERF_METRICS, 0);
	/* cpu 1 in one batch, GLOBAL_CTRL saved first this time */
	check_int(journal_save_regs(j, (struct journal_reg[]){
			{ 1, IA32_PERF_GLOBAL_CTRL, 0x3, false }, { 1, IA32_FIXED_CTR_CTRL, 0xb0, false } }, 2), ==, 0,
		  "save cpu 1 GLOBAL_CTRL + FIXED_CTR_CTRL in one batch");
	ok(strstr(get_file(journal_file(getpid())), "reg 1 0x38f 0x3\nreg 1 0x38d 0xb0\n") != NULL,
	   "batch on disk before the writes");
	msr_write(dev, 1, IA32_PERF_GLOBAL_CTRL, 0x800000003ull);
	msr_write(dev, 1, IA32_FIXED_CTR_CTRL, 0x30b0);
	/* Saving again (the programmed value) changes nothing: first value wins. */
	check_int(journal_save_reg(j, 0, IA32_FIXED_CTR_CTRL, 0x3333), ==, 0, "saving again is a no-op");
	check_int(journal_save_reg(j, JOURNAL_MAX_CPUS, IA32_FIXED_CTR_CTRL, 0), ==, -EINVAL,
		  "CPU beyond JOURNAL_MAX_CPUS: -EINVAL");
	snprintf(want, sizeof(want), "%s"
		 "reg 0 0x38d 0x333\n"
		 "reg 0 0x38f 0x70000000f\n"
		 "reg 0 0x30c 0x2f1a3c0\n"
		 "reg 0 0x329 0x1f3a5c47\n"
		 "reg 1 0x38f 0x3\n"
		 "reg 1 0x38d 0xb0\n", head);
	check_str(get_file(journal_file(getpid())), want, "journal text: every first value in save order");
	ok(strcmp(get_file(state), state_text) != 0, "registers programmed");

	/* fixed counter 3 and PERF_METRICS overflowed during the run: the
	 * hardware set IA32_PERF_GLOBAL_STATUS bits 35 and 48 (modelled with
	 * IA32_PERF_GLOBAL_STATUS_SET, linux msr-index.h) */
	msr_write(dev, 0, IA32_PERF_GLOBAL_STATUS_SET, 1ull << 35 | 1ull << 48);
	ok(strstr(get_file(state), "0 0x38e 0x1000800000000\n") != NULL, "overflow bits set");
	put_file(trace, "");
	check_int(journal_restore(j, dev), ==, 0, "journal_restore");
	/* Per CPU: GLOBAL_CTRL 0 first, the rest in save order; on cpu 0,
	 * which saved FIXED_CTR_CTRL, FIXED_CTR3 and PERF_METRICS (it ran
	 * fixed counter 3 and PERF_METRICS), the overflow bits 35 | 48 =
	 * 0x1000800000000 cleared through IA32_PERF_GLOBAL_STATUS_RESET
	 * (write-1-to-clear, intel_pmu_ack_status); GLOBAL_CTRL last.  cpu 1 saved no
	 * FC3: nothing to clear. */
	check_str(get_file(trace),
		  "wr 0 0x38f 0x0\n"
		  "wr 0 0x38d 0x333\n"
		  "wr 0 0x30c 0x2f1a3c0\n"
		  "wr 0 0x329 0x1f3a5c47\n"
		  "wr 0 0x390 0x1000800000000\n"
		  "wr 0 0x38f 0x70000000f\n"
		  "wr 1 0x38f 0x0\n"
		  "wr 1 0x38d 0xb0\n"
		  "wr 1 0x38f 0x3\n",
		  "restore order: freeze, saved order, GLOBAL_CTRL last");
	check_str(get_file(state), state_text, "state file back byte for byte");
	check_int(journal_end(j), ==, 0, "journal_end after restore");
	ok(!exists(journal_file(getpid())), "journal removed by journal_end");
	check_str(dir_names(), "", "nothing left in the state dir (no temp file)");
	msr_close(dev);
}

/*
 * A run journal of counters other than fixed counter 3 (msr/pmu/pmu_gp.h): its
 * restore clears the overflow bits those counters may have set, each at
 * its GLOBAL_STATUS position (SDM Vol. 3B 21.2.2, linux
 * arch/x86/include/asm/perf_event.h: IA32_PMCx and IA32_A_PMCx bit x,
 * IA32_FIXED_CTRi bit 32 + i; AMD's PerfCntrGlobalStatus, linux
 * arch/x86/events/amd/core.c: PERF_CTRx, 0xc0010201 + 2x, bit x):
 *   cpu 0, GP counters only (no IA32_FIXED_CTR_CTRL): IA32_PMC0 (0xc1) and
 *     IA32_A_PMC2 (0x4c3): bits 0 and 2, 0x5, through
 *     IA32_PERF_GLOBAL_STATUS_RESET, which the journal permits for its
 *     saved IA32_PERF_GLOBAL_CTRL (msr/journal/journal.h journal_data_permits);
 *   cpu 1: IA32_FIXED_CTR1 (0x30a): bit 33, 0x200000000 (no FIXED_CTR3
 *     saved: not bit 35);
 *   AMD, cpu 0: PERF_CTR1 (0xc0010203) and PERF_CTR2 (0xc0010205): bits 1
 *     and 2, 0x6, through PERF_CNTR_GLOBAL_STATUS_CLR (0xc0000302).
 * The restore is journal_restore_data's (`pmu restore`'s; the device here
 * has no gate, so journal_data_permits is asked directly).  A register
 * saved twice in one batch keeps its first value, as across batches.
 */
static void test_counter_overflow_bits(void)
{
	static const char ctr_text[] =
		"# baretma 0340 counters\n"
		"0 0x38e 0x0\n0 0x38f 0x70000000f\n0 0x390 0x0\n0 0x4c3 0x44\n0 0xc1 0x11\n"
		"0 0xc0000300 0x0\n0 0xc0000301 0x3f\n0 0xc0000302 0x0\n"
		"0 0xc0010203 0x7\n0 0xc0010205 0x8\n"
		"1 0x30a 0x0\n1 0x38d 0xb0\n1 0x38e 0x0\n1 0x38f 0x3\n1 0x390 0x0\n";
	struct journal *j = NULL;
	struct msr_dev *dev;

	fixtures();
	put_file(state, ctr_text);
	dev = open_dev();
	check_int(journal_begin(&j, "t0340 counters", spec, JOURNAL_RUN, false), ==, 0, "begin");
	check_int(journal_save_regs(j, (struct journal_reg[]){
			{ 0, IA32_PERF_GLOBAL_CTRL, 0x70000000full, false }, { 0, 0xc1, 0x11, false },
			{ 0, 0xc1, 0x99, false }, { 0, 0x4c3, 0x44, false } }, 4), ==, 0,
		  "save cpu 0's GLOBAL_CTRL, IA32_PMC0 (twice), IA32_A_PMC2");
	ok(strstr(get_file(journal_file(getpid())),
		  "reg 0 0x38f 0x70000000f\nreg 0 0xc1 0x11\nreg 0 0x4c3 0x44\n") != NULL &&
	   !strstr(get_file(journal_file(getpid())), "0x99"),
	   "IA32_PMC0 saved twice in one batch: its first value only");
	check_int(journal_save_regs(j, (struct journal_reg[]){
			{ 1, IA32_PERF_GLOBAL_CTRL, 0x3, false }, { 1, IA32_FIXED_CTR_CTRL, 0xb0, false },
			{ 1, 0x30a, 0x0, false } }, 3), ==, 0,
		  "save cpu 1's GLOBAL_CTRL, FIXED_CTR_CTRL, IA32_FIXED_CTR1");
	ok(journal_data_permits(journal_data_of(j), 0, IA32_PERF_GLOBAL_STATUS_RESET) &&
	   journal_data_permits(journal_data_of(j), 1, IA32_PERF_GLOBAL_STATUS_RESET) &&
	   !journal_data_permits(journal_data_of(j), 2, IA32_PERF_GLOBAL_STATUS_RESET),
	   "the status reset permitted on cpu 0 (GLOBAL_CTRL saved, no FIXED_CTR_CTRL) and 1, "
	   "not on cpu 2 (nothing saved)");
	msr_write(dev, 0, 0xc1, 0x1234);
	msr_write(dev, 0, 0x4c3, 0x5678);
	msr_write(dev, 1, 0x30a, 0x9abc);
	put_file(trace, "");
	check_int(journal_restore_data(journal_data_of(j), dev), ==, 0, "restore through the gate");
	check_str(get_file(trace),
		  "wr 0 0x38f 0x0\n"
		  "wr 0 0xc1 0x11\n"
		  "wr 0 0x4c3 0x44\n"
		  "wr 0 0x390 0x5\n"
		  "wr 0 0x38f 0x70000000f\n"
		  "wr 1 0x38f 0x0\n"
		  "wr 1 0x38d 0xb0\n"
		  "wr 1 0x30a 0x0\n"
		  "wr 1 0x390 0x200000000\n"
		  "wr 1 0x38f 0x3\n",
		  "GP counters' bits 0 and 2, fixed counter 1's bit 33, each cleared");
	check_str(get_file(state), ctr_text, "state file back byte for byte");
	check_int(journal_restore(j, dev), ==, 0, "restored (for journal_end)");
	check_int(journal_end(j), ==, 0, "end");

	check_int(journal_begin(&j, "t0340 amd", spec, JOURNAL_RUN, false), ==, 0, "begin (AMD)");
	check_int(journal_save_regs(j, (struct journal_reg[]){
			{ 0, 0xc0000301, 0x3f, false }, { 0, 0xc0010203, 0x7, false },
			{ 0, 0xc0010205, 0x8, false } }, 3), ==, 0,
		  "save PERF_CNTR_GLOBAL_CTL, PERF_CTR1, PERF_CTR2");
	msr_write(dev, 0, 0xc0010203, 0x70);
	put_file(trace, "");
	check_int(journal_restore_data(journal_data_of(j), dev), ==, 0, "restore (AMD)");
	check_str(get_file(trace),
		  "wr 0 0xc0000301 0x0\n"
		  "wr 0 0xc0010203 0x7\n"
		  "wr 0 0xc0010205 0x8\n"
		  "wr 0 0xc0000302 0x6\n"
		  "wr 0 0xc0000301 0x3f\n", "AMD: PERF_CTR1's and PERF_CTR2's bits 1 and 2 cleared");
	check_int(journal_restore(j, dev), ==, 0, "restored (AMD, for journal_end)");
	check_int(journal_end(j), ==, 0, "end (AMD)");
	msr_close(dev);
}

/* GLOBAL_CTRL saved alone (as `msr write` saves it): restored with one
 * write of its saved value, no freeze (nothing else to guard, msr/journal/journal.h). */
static void test_global_ctrl_alone(void)
{
	struct journal *j = NULL;
	struct msr_dev *dev;

	fixtures();
	dev = open_dev();
	check_int(journal_begin(&j, "baretma msr write 0-1 0x38f 0x1", spec, JOURNAL_RUN, false),
		  ==, 0, "begin");
	check_int(journal_save_regs(j, (struct journal_reg[]){
			{ 0, IA32_PERF_GLOBAL_CTRL, 0x70000000full, false },
			{ 1, IA32_PERF_GLOBAL_CTRL, 0x3, false } },
			2), ==, 0, "save GLOBAL_CTRL of cpus 0 and 1");
	msr_write(dev, 0, IA32_PERF_GLOBAL_CTRL, 0x1);
	msr_write(dev, 1, IA32_PERF_GLOBAL_CTRL, 0x1);
	put_file(trace, "");
	check_int(journal_restore(j, dev), ==, 0, "journal_restore");
	check_str(get_file(trace), "wr 0 0x38f 0x70000000f\nwr 1 0x38f 0x3\n",
		  "GLOBAL_CTRL alone: each written once, its saved value");
	check_str(get_file(state), state_text, "state file back byte for byte");
	check_int(journal_end(j), ==, 0, "journal_end");
	msr_close(dev);
}

static void test_end_unrestored_and_detach(void)
{
	struct journal *j = NULL;
	struct journal_data d;
	struct msr_dev *dev;

	fixtures();
	dev = open_dev();
	check_int(journal_begin(&j, "run", spec, JOURNAL_RUN, true), ==, 0, "begin");
	check_int(journal_end(j), ==, 0, "journal_end of an empty journal");
	ok(!exists(journal_file(getpid())), "empty journal removed");

	check_int(journal_begin(&j, "run", spec, JOURNAL_RUN, true), ==, 0, "begin again");
	journal_save_reg(j, 1, IA32_FIXED_CTR3, 0x51);
	msr_write(dev, 1, IA32_FIXED_CTR3, 0);
	check_int(journal_end(j), ==, -EBUSY, "journal_end without restore: -EBUSY");
	ok(exists(journal_file(getpid())), "unrestored journal kept on disk");
	check_int(journal_load(journal_file(getpid()), &d), ==, 0, "load the kept journal");
	ok(d.user_only && d.kind == JOURNAL_RUN && d.nregs == 1 && d.regs[0].cpu == 1 &&
	   d.regs[0].msr == IA32_FIXED_CTR3 && d.regs[0].saved == 0x51, "kept journal: the saved FC3");
	check_int(journal_restore_data(&d, dev), ==, 0, "restore from the file");
	check_str(get_file(state), state_text, "state file back");
	journal_data_free(&d);
	check_int(journal_remove(getpid()), ==, 0, "journal_remove");
	check_int(journal_remove(getpid()), ==, -ENOENT, "journal_remove again: -ENOENT");

	/* pmu enable: the journal stays on purpose. */
	check_int(journal_begin(&j, "baretma pmu enable", spec, JOURNAL_ENABLE, false), ==, 0,
		  "begin kind enable");
	journal_save_reg(j, 0, IA32_FIXED_CTR_CTRL, 0x333);
	journal_detach(j);
	ok(strstr(get_file(journal_file(getpid())), "\nkind enable\n") != NULL, "detached journal on disk, kind enable");
	check_int(journal_load(journal_file(getpid()), &d), ==, 0, "load it");
	ok(d.kind == JOURNAL_ENABLE, "loaded kind is enable");
	journal_data_free(&d);
	journal_remove(getpid());

	/* msr write: a kind of its own (it is not "pmu enable"), kept too. */
	check_int(journal_begin(&j, "baretma msr write 0 0x38d 0x3333", spec, JOURNAL_MSR_WRITE,
				false), ==, 0, "begin kind write");
	journal_save_reg(j, 0, IA32_FIXED_CTR_CTRL, 0x333);
	journal_detach(j);
	ok(strstr(get_file(journal_file(getpid())), "\nkind write\nuser_only 0\nreg 0 0x38d 0x333\n")
	   != NULL, "detached journal on disk, kind write");
	check_int(journal_load(journal_file(getpid()), &d), ==, 0, "load it");
	ok(d.kind == JOURNAL_MSR_WRITE, "loaded kind is write");
	journal_data_free(&d);
	journal_remove(getpid());
	check_str(journal_kind_name(JOURNAL_RUN), "run", "kind name run");
	check_str(journal_kind_name(JOURNAL_ENABLE), "enable", "kind name enable");
	check_str(journal_kind_name(JOURNAL_MSR_WRITE), "write", "kind name write");
	ok(journal_kind_name((enum journal_kind)7) == NULL, "no name for a value that is no kind");
	check_int(journal_begin(&j, "x", spec, (enum journal_kind)7, false), ==, -EINVAL,
		  "begin with no kind: -EINVAL");

	/* A journal of an earlier process with our PID is never overwritten. */
	put_journal(journal_name(getpid()), "left by a dead run\n");
	check_int(journal_begin(&j, "x", spec, JOURNAL_RUN, false), ==, -EEXIST, "same-PID journal exists: -EEXIST");
	check_str(get_file(journal_file(getpid())), "left by a dead run\n", "and it is untouched");
	journal_remove(getpid());
	check_int(journal_begin(&j, "x", "", JOURNAL_RUN, false), ==, -EINVAL, "empty backend: -EINVAL");
	check_int(journal_begin(&j, "x", "a\nb", JOURNAL_RUN, false), ==, -EINVAL, "backend with a newline: -EINVAL");
	check_str(dir_names(), "", "failed begins leave nothing");
	msr_close(dev);
}

static void test_settings_in_journal(void)
{
	struct journal *j = NULL;
	struct msr_dev *dev;
	char want[PATH_MAX];

	fixtures();
	setenv("BARETMA_SYSROOT", root, 1);
	dev = open_dev();
	check_int(journal_begin(&j, "s", spec, JOURNAL_RUN, false), ==, 0, "begin");
	check_int(journal_save_setting(j, RDPMC_PATH, "1"), ==, 0, "save rdpmc");
	ok(strstr(get_file(journal_file(getpid())),
		  "\nsetting /sys/bus/event_source/devices/cpu/rdpmc 1\n") != NULL,
	   "setting line on disk");
	check_int(journal_save_setting(j, NMI_PATH, "1"), ==, 0, "save nmi_watchdog");
	check_int(journal_save_setting(j, NMI_PATH, "0"), ==, 0, "save it again: no-op");
	ok(strstr(get_file(journal_file(getpid())), "setting /proc/sys/kernel/nmi_watchdog 1\n") != NULL,
	   "first value kept");
	check_int(journal_save_setting(j, "/etc/passwd", "x"), ==, -EINVAL, "path outside /sys, /proc/sys: -EINVAL");
	check_int(journal_save_setting(j, "/sys/../etc/x", "x"), ==, -EINVAL, "'..' component: -EINVAL");
	check_int(journal_save_setting(j, NMI_PATH, ""), ==, -EINVAL, "empty value: -EINVAL");
	/* Only the files baretma changes (msr/guard/settings.h), with their values. */
	check_int(journal_save_setting(j, "/proc/sys/kernel/core_pattern", "core"), ==, -EINVAL,
		  "core_pattern is no setting of baretma's: -EINVAL");
	check_int(journal_save_setting(j, "/sys/kernel/mm/transparent_hugepage/enabled",
				       "always [madvise] never"), ==, -EINVAL,
		  "a sysfs file baretma does not change: -EINVAL");
	check_int(journal_save_setting(j, "/proc/sys/kernel/nmi_watchdog/", "1"), ==, -EINVAL,
		  "nmi_watchdog's path with a trailing slash: -EINVAL");
	check_int(journal_save_setting(j, "/sys/bus/event_source/devices/cpu_core/rdpmc", "3"), ==,
		  -EINVAL, "rdpmc 3 (it takes 0, 1, 2): -EINVAL");
	check_int(journal_save_setting(j, "/sys/module/msr/parameters/allow_writes", "1"), ==,
		  -EINVAL, "allow_writes 1 (it takes on, off, default): -EINVAL");
	put_file(t_in(root, NMI_PATH), "0\n");
	put_file(t_in(root, RDPMC_PATH), "2\n");
	check_int(journal_restore(j, dev), ==, 0, "restore settings");
	check_str(get_file(t_in(root, NMI_PATH)), nmi_text, "nmi_watchdog bytes back");
	check_str(get_file(t_in(root, RDPMC_PATH)), rdpmc_text, "rdpmc bytes back");
	t_path(want, "%s%s", root, NMI_PATH);
	check_str(journal_data_of(j)->settings[1].full, want, "full path under $BARETMA_SYSROOT");
	check_int(journal_end(j), ==, 0, "end");
	msr_close(dev);
}

int main(void)
{
	t_journal_fixture("0340");
	test_save_restore_end();
	test_global_ctrl_alone();
	test_counter_overflow_bits();
	test_end_unrestored_and_detach();
	test_settings_in_journal();
	t_rm_rf(base);
	return done_testing();
}
