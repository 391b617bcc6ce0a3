/*
 * bench/cli_run.c - "leave every machine exactly as found" for the commands
 * that write MSRs or system settings (bench with a Top-down backend,
 * pmu enable, pmu restore, msr write): one guard and one journal per run.
 *
 * Order (README "Leaving the machine as found"):
 *   1. the settings lock (msr/lock.h settings_lock_take: exclusive when a
 *      setting is to change, shared when only MSRs are), then the CPU
 *      locks, ascending; busy is exit 75 naming the holder, or --wait;
 *   2. per CPU, another run's journal holding it (journal_find_cpu):
 *      refused (exit 75, naming it and "baretma pmu restore"), --force goes
 *      on after saying so; a malformed journal is exit 65, always;
 *   3. per CPU, who owns the PMU (pmu_check_owner, bench/cli_owner.c): FC3
 *      / PERF_METRICS in use is refused (exit 75) unless --force, and so
 *      is a check that could not read its registers; other counters in
 *      use are information; the NMI watchdog on is a warning unless
 *      --stop-nmi-watchdog;
 *      through the device, kernel lockdown or msr.allow_writes=off (without
 *      --allow-msr-writes) is refused (exit 77);
 *   4. journal_begin before the first write, and its signal guard;
 *   5. the settings the user consented to (setting_change: journaled, on
 *      disk, then written);
 *   6. the caller programs, every register saved in the journal first;
 *   7. journal_restore (registers, then settings) on every way out, then
 *      journal_end; "pmu enable" and "msr write" detach instead (the journal
 *      stays).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/cli.h"
#include "bench/cli_run.h"
#include "cpu/cpu.h"
#include "cpu/machine.h"
#include "cpu/environ.h"
#include "cpu/knobs.h"
#include "msr/journal.h"
#include "msr/lock.h"
#include "msr/msr_names.h"
#include "msr/settings.h"
#include "msr/state_dir.h"


const char *cli_msr_spec(void)
{
	return msr_env_spec();
}

int cli_msr_open(struct msr_dev **dev)
{
	int rc = msr_open(cli_msr_spec(), dev);

	if (!rc)
		return EX_OK;
	if (*msr_last_error())
		cli_err("%s", msr_last_error());
	else
		cli_err("cannot open MSR backend '%s': %s", cli_msr_spec(), strerror(-rc));
	return cli_exit_for_errno(rc);
}

int cli_msr_fail_cpu(struct msr_dev *dev, unsigned cpu, const char *verb, int err)
{
	char what[160];
	bool state = !strcmp(msr_backend_name(dev), "state");
	int rc;

	if (state)
		snprintf(what, sizeof(what), "%s cpu %u in", verb, cpu);
	else
		snprintf(what, sizeof(what), "%s", verb);
	rc = cli_msr_fail(dev, cpu, what, err);
	return !state && err == -ENOENT ? EX_UNAVAILABLE : rc;
}

/* The remedy for a failed access: a write refused with EIO is a #GP on
 * WRMSR, which reserved bits cause as well as a missing register
 * (pmu-reference §4). */
static const char *access_remedy(const struct msr_fault *f)
{
	if (f->op == MSR_OP_WRITE && f->err == -EIO)
		return "the CPU refused the write (#GP): the register does not exist on this "
		       "CPU or the value sets a reserved bit";
	return msr_remedy(f->err);
}

void cli_msr_access_text(struct msr_dev *dev, int err, unsigned cpu, char *buf, size_t n)
{
	struct msr_fault f;
	char path[512], label[64];
	const char *remedy;

	if (!msr_last_fault(dev, &f) || f.err != err || f.op == MSR_OP_OPEN)
		f = (struct msr_fault){ .op = 0, .cpu = cpu, .err = err };
	msr_describe(dev, f.cpu, path, sizeof(path));
	remedy = f.op ? access_remedy(&f) : msr_remedy(err);
	msr_reg_label(f.msr, label, sizeof(label));
	if (f.op == MSR_OP_WRITE)
		snprintf(buf, n, "cannot write %s = 0x%" PRIx64 " on cpu %u through '%s': %s%s%s%s",
			 label, f.value, f.cpu, path, strerror(-err), *remedy ? " (" : "", remedy,
			 *remedy ? ")" : "");
	else if (f.op == MSR_OP_READ)
		snprintf(buf, n, "cannot read %s on cpu %u through '%s': %s%s%s%s", label, f.cpu,
			 path, strerror(-err), *remedy ? " (" : "", remedy, *remedy ? ")" : "");
	else
		snprintf(buf, n, "cannot access the MSRs of cpu %u through '%s': %s%s%s%s", cpu,
			 path, strerror(-err), *remedy ? " (" : "", remedy, *remedy ? ")" : "");
}

void cli_restore_cause(struct msr_dev *dev, int err, char *buf, size_t n)
{
	struct msr_fault f;

	if (dev && msr_last_fault(dev, &f) && f.err == err && f.op != MSR_OP_OPEN)
		cli_msr_access_text(dev, err, f.cpu, buf, n);
	else
		snprintf(buf, n, "%s", strerror(-err));
}

int cli_msr_access_fail(struct msr_dev *dev, int err, const char *ctx, unsigned cpu)
{
	char text[1024];
	struct msr_fault f;

	if (msr_last_fault(dev, &f) && f.err == err && f.op == MSR_OP_OPEN)
		return cli_msr_fail_cpu(dev, f.cpu, "open", err);
	cli_msr_access_text(dev, err, cpu, text, sizeof(text));
	cli_err("%s%s%s", ctx ? ctx : "", ctx ? ": " : "", text);
	return cli_exit_for_errno(err);
}

void cli_note(const char *fmt, ...)
{
	va_list ap;

	fputs("baretma: note: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_state_dir_fail(const char *what, int err)
{
	const char *dir = state_dir_path();
	char link[PATH_MAX];

	switch (-err) {
	case ELOOP:
		if (state_dir_symlink(link, sizeof(link)) || !strcmp(link, dir)) {
			cli_err("state dir '%s' is a symbolic link: refused (journals decide what "
				"is written to MSRs; use a real directory)", dir);
			return EX_NOPERM;
		}
		cli_err("state dir '%s': '%s' in its path is a symbolic link someone other than "
			"root could have made: refused (it could make root create the journals "
			"anywhere; give a path of real directories: only root's links in "
			"directories only root can write, like /var/run, are followed)", dir, link);
		return EX_NOPERM;
	case EPERM:
		cli_err("state dir '%s' or a file in it is not owned by uid %u or is "
			"writable by others: refused (chown it to uid %u and chmod 700)", dir,
			(unsigned)geteuid(), (unsigned)geteuid());
		return EX_NOPERM;
	case ENOENT:
	case ENOTDIR:
	case EROFS:
		cli_err("cannot %s in state dir '%s': %s (baretma creates the directory "
			"itself, 0700, when its parent exists: set BARETMA_STATE_DIR to a "
			"directory on a writable file system, default /run/baretma)", what, dir,
			strerror(-err));
		return EX_CANTCREAT;
	case ENAMETOOLONG:
		cli_err("cannot %s in state dir '%s': %s (%zu bytes; the paths of the files "
			"in it must fit in %d bytes: set BARETMA_STATE_DIR to a directory of at "
			"most %d bytes)", what, dir, strerror(-err), strlen(dir), PATH_MAX,
			PATH_MAX - 2 - STATE_DIR_NAME_MAX);
		return EX_CANTCREAT;
	default:
		cli_err("cannot %s in state dir '%s': %s", what, dir, strerror(-err));
		return cli_exit_for_errno(err);
	}
}

bool cli_settings_any(const struct cli_settings *s)
{
	return s->rdpmc_always || s->stop_nmi_watchdog || s->allow_msr_writes;
}

/* ---------------------------------------------------------------- dump */

int cli_refuse_dump_device(const char *who, const struct cpu_machine *m, struct msr_dev *dev)
{
	if (!cpu_machine_is_dump(m) || bench_msr_reaches(m, dev))
		return EX_OK;
	cli_err("%s: refusing to write MSRs through '%s' with a CPUID dump ('%s'): the "
		"dump describes another machine (use BARETMA_MSR=state:FILE for a dry run, "
		"or drop the dump to measure this machine)", who, cli_msr_spec(),
		cpu_machine_name(m));
	return EX_USAGE;
}

/* --------------------------------------------------------------- locks */

static bool pid_alive(pid_t pid)
{
	return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

static int settings_lock(struct cli_run *r, bool msrs)
{
	bool excl = cli_settings_any(&r->set) || r->settings_exclusive;
	struct lock_holder h;
	int rc;

	if (!excl && !msrs)
		return EX_OK;
	rc = settings_lock_take(excl, r->wait, &r->settings_lock, &h);
	if (rc != -EBUSY)
		return rc ? cli_state_dir_fail("lock the settings", rc) : EX_OK;
	if (pid_alive(h.pid))
		cli_err("the system settings (rdpmc, nmi_watchdog, msr.allow_writes) are "
			"being changed by pid %ld (%s) (try: --wait)", (long)h.pid, h.cmd);
	else if (excl)
		cli_err("the system settings (rdpmc, nmi_watchdog, msr.allow_writes) are in "
			"use by another baretma run measuring with them as they are (try: --wait)");
	else
		cli_err("the system settings (rdpmc, nmi_watchdog, msr.allow_writes) are "
			"being changed by another baretma run (try: --wait)");
	return EX_TEMPFAIL;
}

int cli_run_lock(struct cli_run *r, const unsigned *cpus, int n, bool msrs)
{
	struct lock_holder h;
	int st = settings_lock(r, msrs), rc;

	if (st || n <= 0)
		return st;
	rc = cpu_lock_take(cpus, n, r->wait, &r->cpu_lock, &h);
	if (rc == -EBUSY) {
		if (h.pid)
			cli_err("cpu %u is being programmed by pid %ld (%s) (try: --wait)", h.cpu,
				(long)h.pid, h.cmd);
		else
			cli_err("cpu %u is being programmed by another baretma (try: --wait)",
				h.cpu);
		return EX_TEMPFAIL;
	}
	return rc ? cli_state_dir_fail("lock the CPUs", rc) : EX_OK;
}

/* ------------------------------------------------------------ journals */

void cli_journal_short_cmd(const char *cmd, char *buf, size_t n)
{
	char w[2][32] = { "", "" };
	const char *p = strchr(cmd, ' '); /* after argv[0], a path as typed */
	bool two;

	if (!p || sscanf(p, "%31s %31s", w[0], w[1]) < 1) {
		snprintf(buf, n, "%s", cmd);
		return;
	}
	two = !strcmp(w[0], "pmu") || !strcmp(w[0], "msr") || !strcmp(w[0], "cpuid");
	snprintf(buf, n, "baretma %s%s%s", w[0], two && w[1][0] ? " " : "", two ? w[1] : "");
}

void cli_journal_holder(const struct journal_info *who, char *buf, size_t n)
{
	const struct journal_data *d = &who->data;
	const char *args = strchr(d->cmd, ' '); /* after argv[0], a path as typed */
	char sc[96];

	cli_journal_short_cmd(d->cmd, sc, sizeof(sc));
	if (d->kind == JOURNAL_MSR_WRITE)
		snprintf(buf, n, "registers written by 'baretma%s' (pid %ld, %s)",
			 args ? args : " msr write", (long)who->pid,
			 who->alive ? "running" : "not running");
	else if (d->kind == JOURNAL_ENABLE)
		snprintf(buf, n, "counters enabled by '%s' (pid %ld, %s)", sc, (long)who->pid,
			 who->alive ? "running" : "not running");
	else if (who->alive)
		snprintf(buf, n, "in use by a baretma run (pid %ld, running, cmd %s)",
			 (long)who->pid, d->cmd);
	else
		snprintf(buf, n, "left by a baretma run that did not finish (pid %ld, cmd %s)",
			 (long)who->pid, d->cmd);
}

int cli_journal_bad(const struct journal_info *who)
{
	if (who->error == -EINVAL) {
		cli_err("journal '%s' is malformed: %s (inspect it; remove it by hand once the "
			"registers and settings it names are known to be right)", who->path,
			who->detail[0] ? who->detail : journal_last_error());
		return EX_DATAERR;
	}
	if (who->error == -EPERM) {
		cli_err("journal '%s' is not a regular file of uid %u, or is writable by "
			"others: refused (journals decide what is written to MSRs)", who->path,
			(unsigned)geteuid());
		return EX_NOPERM;
	}
	cli_err("cannot read journal '%s': %s", who->path, strerror(-who->error));
	return cli_exit_for_errno(who->error);
}

/* One journal holding some of the CPUs: refuse, or go on with --force. */
static int journal_hit(const struct cli_run *r, const struct journal_info *who,
		       const unsigned *cpus, unsigned n)
{
	char list[256], holder[1300];

	cli_fmt_cpus(list, sizeof(list), cpus, n);
	cli_journal_holder(who, holder, sizeof(holder));
	if (r->force) {
		cli_warn("cpu %s: %s; journal '%s'; going on (--force): %s", list, holder,
			 who->path, r->kind != JOURNAL_RUN ? "this run journals the registers "
			 "as they are now and leaves them as written; both journals stay for "
			 "'baretma pmu restore'" : "this run saves and restores the registers as "
			 "they are now, the journal stays for 'baretma pmu restore'");
		return EX_OK;
	}
	cli_err("cpu %s: %s; journal '%s' (run: baretma pmu restore%s)", list, holder,
		who->path, who->alive ? " once it has ended, or --force" : "");
	return EX_TEMPFAIL;
}

int cli_run_check_journals(struct cli_run *r, const unsigned *cpus, int n,
			   struct cli_journal_hit *hits)
{
	static unsigned same[CPU_MAX_CPUS];
	struct journal_info who;
	int st = EX_OK;

	for (int i = 0; i < n; i++)
		hits[i] = (struct cli_journal_hit){ 0 };
	for (int i = 0; i < n && st == EX_OK; i++) {
		unsigned m = 0;
		int rc;

		if (hits[i].pid)
			continue; /* named with an earlier CPU */
		rc = journal_find_cpu(cpus[i], &who);
		if (rc < 0 && (rc == -EINVAL || rc == -EPERM)) {
			st = cli_journal_bad(&who);
		} else if (rc < 0) {
			st = cli_state_dir_fail("read the journals", rc);
		} else if (rc == 1) {
			/* every CPU of this list the same journal holds, in one message */
			for (int k = i; k < n; k++) {
				bool held = false;

				for (int c = 0; c < who.data.ncpus; c++)
					held |= who.data.cpus[c] == cpus[k];
				if (!held)
					continue;
				hits[k] = (struct cli_journal_hit){ .pid = who.pid, .alive = who.alive,
								    .kind = who.data.kind };
				same[m++] = cpus[k];
			}
			st = journal_hit(r, &who, same, m);
		}
		journal_info_free(&who, 1);
	}
	return st;
}

/* Lockdown (integrity and above) blocks every write through the device,
 * whatever msr.allow_writes says (linux msr.c msr_write, cpu/environ.h). */
static int lockdown(void)
{
	char path[PATH_MAX];
	struct cpu_env *env = calloc(1, sizeof(*env));
	int st = EX_OK;

	if (!env)
		return EX_OSERR;
	cpu_env_read(0, env);
	if (cpu_env_lockdown_blocks_msr(env)) {
		cli_err("kernel lockdown is '%s' ('%s'): the kernel refuses MSR writes; nothing "
			"written (MSR writes need a kernel without lockdown, e.g. Secure Boot "
			"off)", env->lockdown, cpu_sysfs_path(path, sizeof(path), CPU_KNOB_LOCKDOWN));
		st = EX_NOPERM;
	}
	free(env);
	return st;
}

/* msr.allow_writes=off blocks every write through the device (msr.c). */
int cli_run_allow_writes(const struct cli_run *r, struct msr_dev *dev)
{
	char v[32], where[JOURNAL_PATH_MAX];
	int st;

	if (strcmp(msr_backend_name(dev), "device"))
		return EX_OK;
	if ((st = lockdown()))
		return st;
	if (r->set.allow_msr_writes ||
	    setting_read(SETTING_MSR_ALLOW_WRITES, v, sizeof(v), where, sizeof(where)) ||
	    strcmp(v, "off"))
		return EX_OK;
	if (r->no_settings_flags)
		cli_err("MSR writes are disabled: '%s' is 'off': the kernel refuses them; "
			"nothing written (try: echo on > %s, and 'off' again after)", where,
			CPU_KNOB_MSR_ALLOW_WRITES);
	else
		cli_err("MSR writes are disabled: '%s' is 'off' (try: --allow-msr-writes, "
			"which sets it to 'on' for this run and puts it back)", where);
	return EX_NOPERM;
}

/* ------------------------------------------------------------ the run */

int cli_run_begin(struct cli_run *r, struct msr_dev *dev, enum journal_kind kind,
		  bool user_only)
{
	int rc = journal_begin(&r->j, cli_cmdline(), cli_msr_spec(), kind, user_only);

	if (rc == -EEXIST) {
		cli_err("a journal of an earlier process with pid %ld is in '%s' (run: "
			"baretma pmu restore)", (long)getpid(), state_dir_path());
		return EX_TEMPFAIL;
	}
	if (rc)
		return cli_state_dir_fail("create the journal", rc);
	r->kind = kind;
	r->dev = dev;
	rc = journal_guard_install(r->j, dev);
	if (rc) {
		cli_err("cannot install the restore signal handlers: %s", strerror(-rc));
		return EX_OSERR;
	}
	return EX_OK;
}

static int change(struct cli_run *r, enum setting s, const char *value, const char *flag)
{
	char where[JOURNAL_PATH_MAX] = "";
	int before = journal_data_of(r->j)->nsettings;
	int rc = setting_change(r->j, s, value, where, sizeof(where));

	if (rc == -ENOENT) {
		cli_err("%s: no '%s' to change%s", flag, where, s == SETTING_RDPMC ?
			" (no core PMU driver registered: a VM without a virtual PMU?)" :
			s == SETTING_MSR_ALLOW_WRITES ? " (msr module not loaded: modprobe msr)" : "");
		return EX_UNAVAILABLE;
	}
	if (rc) {
		cli_err("%s: cannot set '%s' to %s: %s", flag, where, value, strerror(-rc));
		return cli_exit_for_errno(rc);
	}
	if (journal_data_of(r->j)->nsettings == before)
		cli_note("%s: '%s' is %s already: left alone", flag, where, value);
	else
		cli_note("%s: '%s' is %s for this %s", flag, where, value,
			 r->kind != JOURNAL_RUN ? "enable (put back by 'baretma pmu restore')"
						   : "run (put back at the end)");
	return EX_OK;
}

int cli_run_settings(struct cli_run *r)
{
	int st = EX_OK;

	if (r->set.allow_msr_writes)
		st = change(r, SETTING_MSR_ALLOW_WRITES, SETTING_ALLOW_WRITES_ON,
			    "--allow-msr-writes");
	if (!st && r->set.stop_nmi_watchdog)
		st = change(r, SETTING_NMI_WATCHDOG, SETTING_NMI_WATCHDOG_OFF,
			    "--stop-nmi-watchdog");
	if (!st && r->set.rdpmc_always)
		st = change(r, SETTING_RDPMC, SETTING_RDPMC_ALWAYS, "--rdpmc-always");
	return st;
}

int cli_run_finish(struct cli_run *r, int status, bool detach)
{
	char cause[1024];
	int rc;

	if (r->j && detach) {
		journal_detach(r->j);
	} else if (r->j) {
		msr_fault_clear(r->dev);
		rc = journal_restore(r->j, r->dev);
		if (rc) {
			cli_restore_cause(r->dev, rc, cause, sizeof(cause));
			cli_err("could not put everything back (%s): journal '%s' kept (run: "
				"baretma pmu restore)", cause, journal_path(r->j));
			status = status ? status : cli_exit_for_errno(rc);
		}
		rc = journal_end(r->j);
		if (rc && rc != -EBUSY) {
			cli_warn("restored, but the journal could not be removed: %s", strerror(-rc));
		}
	}
	r->j = NULL;
	cpu_lock_release(r->cpu_lock);
	cpu_lock_release(r->settings_lock);
	r->cpu_lock = r->settings_lock = NULL;
	return status;
}
