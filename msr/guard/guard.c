/*
 * msr/guard/guard.c - the guarded run as a library (msr/guard/guard.h): the guard
 * object and what it keeps to say, the locks, other runs' journals, what
 * the kernel refuses, the journal, the settings, and the restore at the
 * end.  Who owns the PMU and the NMI watchdog: msr/guard/guard_owner.c; the
 * texts shared with the CLI: msr/guard/guard_text.c.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "cpu/environ.h"
#include "cpu/knobs.h"
#include "cpu/text.h"
#include "msr/guard/guard.h"
#include "msr/guard/guard_int.h"
#include "msr/guard/lock.h"
#include "msr/regs/intel_regs.h"
#include "msr/pmu/pmu.h"
#include "msr/recipe/recipe.h"
#include "msr/guard/settings.h"
#include "msr/journal/state_dir.h"


/* ---------------------------------------------------------- the object */

int guard_new(struct guard **out, const struct guard_opts *o)
{
	struct guard *g;

	if (!o)
		return -EINVAL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->o = *o;
	g->cmd = strdup(o->cmd ? o->cmd : "");
	g->backend = strdup(o->backend ? o->backend : "");
	if (!g->cmd || !g->backend) {
		guard_free(g);
		return -ENOMEM;
	}
	g->o.cmd = g->cmd;
	g->o.backend = g->backend;
	g->kind = o->kind;
	g->pid = getpid();
	*out = g;
	return 0;
}

void guard_free(struct guard *g)
{
	if (!g)
		return;
	if (g->j || g->cpu_lock || g->settings_lock)
		guard_finish(g, false);
	guard_lines_clear(g);
	free(g->lines);
	free(g->msg);
	free(g->cmd);
	free(g->backend);
	free(g);
}

void guard_keep(struct guard *g, char *text)
{
	free(g->msg);
	g->msg = text;
	g->msg_lost = !text;
}

int guard_fail(struct guard *g, enum guard_class cls, int err, const char *fmt, ...)
{
	char *text = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (text_vsetf(&text, fmt, ap))
		text = NULL;
	va_end(ap);
	guard_keep(g, text);
	g->cls = cls;
	return err;
}

void guard_say(struct guard *g, enum guard_line_kind kind, const char *fmt, ...)
{
	va_list ap;
	char *text = NULL;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (r < 0)
		return; /* out of memory: the line is lost, never the run */
	if (g->nlines == g->cap) {
		int cap = g->cap ? 2 * g->cap : 8;
		struct guard_said *v = realloc(g->lines, (size_t)cap * sizeof(*v));

		if (!v) {
			free(text);
			return;
		}
		g->lines = v;
		g->cap = cap;
	}
	g->lines[g->nlines++] = (struct guard_said){ .kind = kind, .text = text };
}

const char *guard_message(const struct guard *g)
{
	return g->msg ? g->msg : g->msg_lost ? strerror(ENOMEM) : "";
}

enum guard_class guard_class(const struct guard *g)
{
	return g->cls;
}

int guard_nlines(const struct guard *g)
{
	return g->nlines;
}

const char *guard_line(const struct guard *g, int i, enum guard_line_kind *kind)
{
	if (i < 0 || i >= g->nlines)
		return NULL;
	if (kind)
		*kind = g->lines[i].kind;
	return g->lines[i].text;
}

void guard_lines_clear(struct guard *g)
{
	for (int i = 0; i < g->nlines; i++)
		free(g->lines[i].text);
	g->nlines = 0;
}

struct journal *guard_journal(const struct guard *g)
{
	return g->j;
}

bool guard_settings_any(const struct guard_settings *s)
{
	return s->rdpmc_always || s->stop_nmi_watchdog || s->allow_msr_writes;
}

/* The message for a state directory error; returns @err. */
static int state_dir_fail(struct guard *g, const char *what, int err)
{
	char *text = NULL;

	g->cls = guard_state_dir_text(what, err, &text);
	guard_keep(g, text);
	return err;
}

/* --------------------------------------------------------------- locks */

/* A lock file the state directory's rule refuses (@h names it and why),
 * said as a refused journal is; returns @err. */
static int lock_refused(struct guard *g, const struct lock_holder *h, int err)
{
	char path[PATH_MAX + sizeof(h->file)];
	char *text = NULL;

	snprintf(path, sizeof(path), "%s/%s", state_dir_path(), h->file);
	if (state_dir_file_text(&text, "lock file", path, h->why))
		text = NULL;
	guard_keep(g, text);
	g->cls = GUARD_DENIED;
	return err;
}

static bool pid_alive(pid_t pid)
{
	return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

/* A signal of g->o.stop ended the wait for @what, which @h holds. */
static int wait_ended(struct guard *g, int rc, const char *what, const struct lock_holder *h)
{
	if (h->pid)
		return guard_fail(g, GUARD_BUSY, rc, "%s: held by pid %ld (%s); a signal ended the "
				  "wait for it (--wait) before anything was changed", what,
				  (long)h->pid, h->cmd);
	return guard_fail(g, GUARD_BUSY, rc, "%s: held by another baretma run; a signal ended "
			  "the wait for it (--wait) before anything was changed", what);
}

static int settings_lock(struct guard *g, bool msrs)
{
	bool excl = guard_settings_any(&g->o.set) || g->o.settings_exclusive;
	struct lock_holder h;
	int rc;

	if (!excl && !msrs)
		return 0;
	h.file[0] = '\0';
	rc = settings_lock_take(excl, g->o.wait, g->o.stop, &g->settings_lock, &h);
	if (rc == -EPERM && h.file[0])
		return lock_refused(g, &h, rc);
	if (rc == -EINTR)
		return wait_ended(g, rc, "the system settings (rdpmc, nmi_watchdog, "
				  "msr.allow_writes)", &h);
	if (rc != -EBUSY)
		return rc ? state_dir_fail(g, "lock the settings", rc) : 0;
	if (pid_alive(h.pid))
		return guard_fail(g, GUARD_BUSY, rc, "the system settings (rdpmc, nmi_watchdog, "
				  "msr.allow_writes) are being changed by pid %ld (%s) (try: "
				  "--wait)", (long)h.pid, h.cmd);
	if (excl)
		return guard_fail(g, GUARD_BUSY, rc, "the system settings (rdpmc, nmi_watchdog, "
				  "msr.allow_writes) are in use by another baretma run measuring "
				  "with them as they are (try: --wait)");
	return guard_fail(g, GUARD_BUSY, rc, "the system settings (rdpmc, nmi_watchdog, "
			  "msr.allow_writes) are being changed by another baretma run (try: "
			  "--wait)");
}

/* A dry run keeps its locks and journals out of the real state directory
 * (msr/journal/state_dir.h state_dir_path): said once, where they go, as a
 * detail (every dry run would say it; `pmu restore` and `pmu status` of a
 * dry run look there by themselves). */
static void say_dry(struct guard *g)
{
	char real[PATH_MAX];

	if (g->dry_said || !state_dir_is_dry())
		return;
	g->dry_said = true;
	snprintf(real, sizeof(real), "%s", state_dir_default());
	guard_say(g, GUARD_LINE_DETAIL, "a dry run: its locks, journals and calibrations are "
		  "in '%s', not in '%s' (BARETMA_STATE_DIR chooses another)", state_dir_path(),
		  real);
}

int guard_lock(struct guard *g, const unsigned *cpus, int n, bool msrs)
{
	struct lock_holder h;
	int rc;

	say_dry(g);
	rc = settings_lock(g, msrs);

	if (rc || n <= 0)
		return rc;
	h.file[0] = '\0';
	rc = cpu_lock_take(cpus, n, g->o.wait, g->o.stop, &g->cpu_lock, &h);
	if (rc == -EPERM && h.file[0])
		return lock_refused(g, &h, rc);
	if (rc == -EINTR) {
		char what[32];

		snprintf(what, sizeof(what), "cpu %u", h.cpu);
		return wait_ended(g, rc, what, &h);
	}
	if (rc == -EBUSY && h.pid)
		return guard_fail(g, GUARD_BUSY, rc, "cpu %u is being programmed by pid %ld (%s) "
				  "(try: --wait)", h.cpu, (long)h.pid, h.cmd);
	if (rc == -EBUSY)
		return guard_fail(g, GUARD_BUSY, rc, "cpu %u is being programmed by another "
				  "baretma (try: --wait)", h.cpu);
	return rc ? state_dir_fail(g, "lock the CPUs", rc) : 0;
}

/* ------------------------------------------------------------ journals */

/* One journal holding some of the CPUs: refuse, or go on with force. */
static int journal_hit(struct guard *g, const struct journal_info *who,
		       const unsigned *cpus, unsigned n)
{
	char *list = guard_cpus_text(cpus, n);
	char holder[1300]; /* fixed: guard_journal_holder quotes a cmd of at most
			    * JOURNAL_CMD_MAX (1024) bytes and 80 of its own */
	int rc = 0;

	if (!list)
		return guard_fail(g, GUARD_OSERR, -ENOMEM, "%s", strerror(ENOMEM));
	guard_journal_holder(who, holder, sizeof(holder));
	if (g->o.force)
		guard_say(g, GUARD_LINE_WARNING, "cpu %s: %s; journal '%s'; going on (--force): %s",
			  list, holder, who->path, g->kind != JOURNAL_RUN ? "this run journals "
			  "the registers as they are now and leaves them as written; both "
			  "journals stay for 'baretma pmu restore'" : "this run saves and restores "
			  "the registers as they are now, the journal stays for 'baretma pmu "
			  "restore'");
	else
		rc = guard_fail(g, GUARD_BUSY, -EBUSY, "cpu %s: %s; journal '%s' (run: baretma pmu "
				"restore%s)", list, holder, who->path,
				who->alive ? " once it has ended, or --force" : "");
	free(list);
	return rc;
}

/* Every CPU of @cpus (from @i on) that @who holds, into @hits and @same. */
static unsigned held_by(const struct journal_info *who, const unsigned *cpus, int i, int n,
			struct guard_hit *hits, unsigned *same)
{
	unsigned m = 0;

	for (int k = i; k < n; k++) {
		bool held = false;

		for (int c = 0; c < who->data.ncpus; c++)
			held |= who->data.cpus[c] == cpus[k];
		if (!held)
			continue;
		hits[k] = (struct guard_hit){ .pid = who->pid, .alive = who->alive,
					      .kind = who->data.kind };
		same[m++] = cpus[k];
	}
	return m;
}

int guard_check_journals(struct guard *g, const unsigned *cpus, int n, struct guard_hit *hits)
{
	unsigned *same = calloc((size_t)(n > 0 ? n : 1), sizeof(*same));
	struct journal_info who;
	int rc = 0;

	if (!same)
		return guard_fail(g, GUARD_OSERR, -ENOMEM, "%s", strerror(ENOMEM));
	for (int i = 0; i < n; i++)
		hits[i] = (struct guard_hit){ 0 };
	for (int i = 0; i < n && !rc; i++) {
		int found;

		if (hits[i].pid)
			continue; /* named with an earlier CPU */
		found = journal_find_cpu(cpus[i], &who);
		if (found == -EINVAL || found == -EPERM) {
			char *text = NULL;

			g->cls = guard_journal_bad_text(&who, &text);
			guard_keep(g, text);
			rc = found;
		} else if (found < 0) {
			rc = state_dir_fail(g, "read the journals", found);
		} else if (found == 1) {
			/* every CPU of this list the same journal holds, in one message */
			rc = journal_hit(g, &who, same, held_by(&who, cpus, i, n, hits, same));
		}
		journal_info_free(&who, 1);
	}
	free(same);
	return rc;
}

/* ------------------------------------------------- what the kernel refuses */

/* Lockdown (integrity and above) blocks every write through the device,
 * whatever msr.allow_writes says (linux msr.c msr_write, cpu/environ.h). */
static int lockdown(struct guard *g)
{
	char path[PATH_MAX];
	struct cpu_env *env = calloc(1, sizeof(*env));
	int rc = 0;

	if (!env)
		return guard_fail(g, GUARD_OSERR, -ENOMEM, "%s", strerror(ENOMEM));
	cpu_env_read(0, env);
	if (cpu_env_lockdown_blocks_msr(env))
		rc = guard_fail(g, GUARD_DENIED, -EPERM, "kernel lockdown is '%s' ('%s'): the "
				"kernel refuses MSR writes; nothing written (MSR writes need a "
				"kernel without lockdown, e.g. Secure Boot off)", env->lockdown,
				cpu_sysfs_path(path, sizeof(path), CPU_KNOB_LOCKDOWN));
	free(env);
	return rc;
}

/* msr.allow_writes=off blocks every write through the device (msr.c). */
int guard_check_writes(struct guard *g, struct msr_dev *dev)
{
	char v[32], where[JOURNAL_PATH_MAX];
	int rc;

	if (strcmp(msr_backend_name(dev), "device"))
		return 0;
	if ((rc = lockdown(g)))
		return rc;
	if (g->o.set.allow_msr_writes ||
	    setting_read(SETTING_MSR_ALLOW_WRITES, v, sizeof(v), where, sizeof(where)) ||
	    strcmp(v, "off"))
		return 0;
	if (g->o.no_settings_flags)
		return guard_fail(g, GUARD_DENIED, -EACCES, "MSR writes are disabled: '%s' is "
				  "'off': the kernel refuses them; nothing written (try: echo on > "
				  "%s, and 'off' again after)", where, CPU_KNOB_MSR_ALLOW_WRITES);
	return guard_fail(g, GUARD_DENIED, -EACCES, "MSR writes are disabled: '%s' is 'off' "
			  "(try: --allow-msr-writes, which sets it to 'on' for this run and puts "
			  "it back)", where);
}

/* ------------------------------------------------------------- the run */

int guard_begin(struct guard *g, struct msr_dev *dev, enum journal_kind kind, bool user_only)
{
	int rc = journal_create(&g->j, g->cmd, g->backend, kind, user_only);

	if (rc == -EEXIST)
		return guard_fail(g, GUARD_BUSY, rc, "a journal of an earlier process with pid "
				  "%ld is in '%s' (run: baretma pmu restore)", (long)getpid(),
				  state_dir_path());
	if (rc == -EMFILE)
		return guard_fail(g, GUARD_BUSY, rc, "%d journals are open in this process "
				  "already: cannot begin another (close a session first)",
				  JOURNAL_MAX_OPEN);
	if (rc) {
		g->j = NULL;
		return state_dir_fail(g, "create the journal", rc);
	}
	g->kind = kind;
	g->dev = dev;
	journal_set_dev(g->j, dev);
	return 0;
}

/* The journal could not record a setting's value (a full state directory,
 * say): the directory is to blame, not the setting, which is unchanged. */
static int journal_setting_fail(struct guard *g, const char *flag, const char *where, int err)
{
	char what[JOURNAL_PATH_MAX + 128];

	snprintf(what, sizeof(what), "save the value of '%s' (for %s) in the journal", where,
		 flag);
	state_dir_fail(g, what, err);
	if (g->msg && text_appendf(&g->msg, NULL, "; '%s' was not changed", where))
		guard_keep(g, NULL);
	return err;
}

static int change(struct guard *g, enum setting s, const char *value, const char *flag)
{
	char where[JOURNAL_PATH_MAX] = "";
	int before = journal_data_of(g->j)->nsettings;
	bool in_journal = false;
	int rc = setting_change(g->j, s, value, where, sizeof(where), &in_journal);

	if (rc && in_journal && rc != -EINVAL && rc != -ENAMETOOLONG)
		return journal_setting_fail(g, flag, where, rc);
	if (rc == -ENOENT)
		return guard_fail(g, GUARD_UNAVAILABLE, rc, "%s: no '%s' to change%s", flag, where,
				  s == SETTING_RDPMC ? " (no core PMU driver registered: a VM "
				  "without a virtual PMU?)" : s == SETTING_MSR_ALLOW_WRITES ?
				  " (msr module not loaded: modprobe msr)" : "");
	if (rc)
		return guard_fail(g, GUARD_ERRNO, rc, "%s: cannot set '%s' to %s: %s", flag, where,
				  value, strerror(-rc));
	if (journal_data_of(g->j)->nsettings == before)
		guard_say(g, GUARD_LINE_NOTE, "%s: '%s' is %s already: left alone", flag, where,
			  value);
	else
		guard_say(g, GUARD_LINE_NOTE, "%s: '%s' is %s for this %s", flag, where, value,
			  g->kind != JOURNAL_RUN ? "enable (put back by 'baretma pmu restore')"
						 : "run (put back at the end)");
	return 0;
}

int guard_settings(struct guard *g)
{
	int rc = 0;

	if (!g->j)
		return guard_fail(g, GUARD_ERRNO, -EINVAL, "the settings change before the "
				  "journal begins: refused");
	if (g->o.set.allow_msr_writes)
		rc = change(g, SETTING_MSR_ALLOW_WRITES, SETTING_ALLOW_WRITES_ON,
			    "--allow-msr-writes");
	if (!rc && g->o.set.stop_nmi_watchdog)
		rc = change(g, SETTING_NMI_WATCHDOG, SETTING_NMI_WATCHDOG_OFF,
			    "--stop-nmi-watchdog");
	if (!rc && g->o.set.rdpmc_always)
		rc = change(g, SETTING_RDPMC, SETTING_RDPMC_ALWAYS, "--rdpmc-always");
	return rc;
}

/* Does the PERF_METRICS recipe of @k count general-purpose events beside
 * fixed counter 3 (Sunny Cove: msr/recipe/recipes_intel_pm.c)?  Then perf_event's
 * group for it, which a compare or calibrate starts, programs them. */
static bool pm_counts_gp(const struct cpu_kind *k)
{
	const struct recipe *r = k && k->fixed_ctr3 && k->topdown_level > 0 ?
				 recipe_find("intel-perf-metrics", k->uarch) : NULL;

	for (unsigned e = 0; r && e < r->nevents; e++)
		if (r->events[e].ctr == RECIPE_CTR_GP)
			return true;
	return false;
}

/* ... then the kind's IA32_PERFEVTSELx and IA32_PMCx, as found - of the
 * free counters only (a select 0): one another tool programmed counts on
 * for it, and putting its count back would take its events away. */
static int save_gp(struct guard *g, struct msr_dev *dev, const struct cpu_kind *k, unsigned cpu)
{
	struct journal_reg r[2 * 32];
	int n = 0, rc = 0;

	for (unsigned i = 0; i < 32 && !rc; i++) {
		if (!(k->gp_mask & (1u << i)))
			continue;
		r[n] = (struct journal_reg){ .cpu = cpu, .msr = IA32_PERFEVTSEL0 + i };
		rc = msr_read(dev, cpu, r[n].msr, &r[n].saved);
		if (rc || r[n].saved)
			continue;
		n++;
		r[n] = (struct journal_reg){ .cpu = cpu, .msr = IA32_PMC0 + i };
		rc = msr_read(dev, cpu, r[n].msr, &r[n].saved);
		n++;
	}
	return rc ? rc : journal_save_regs(g->j, r, n);
}

/* The journal holds @cpu's counter registers before anything of the run
 * (or the kernel's perf_event, which a run may start) can change them. */
static int save_pmu(struct guard *g, struct msr_dev *dev, const struct cpu_info *ci,
		    unsigned cpu)
{
	const struct cpu_kind *k = cpu_info_kind_of(ci, cpu);
	struct pmu_config cfg = { .journal = g->j, .fixed_ctr3 = k && k->fixed_ctr3,
				  .perf_metrics = k && k->topdown_level > 0 };
	int rc;

	msr_fault_clear(dev);
	rc = pmu_journal_save(dev, cpu, &cfg);
	if (!rc && pm_counts_gp(k))
		rc = save_gp(g, dev, k, cpu);
	if (rc) {
		char *text = NULL;

		g->cls = guard_access_fail_text(dev, rc, "cannot save the counter registers "
						"in the journal", cpu, &text);
		guard_keep(g, text);
	}
	return rc;
}

int guard_start(struct guard *g, struct msr_dev *dev, const struct cpu_info *ci,
		const unsigned *cpus, int n, bool msrs, enum journal_kind kind, bool user_only)
{
	struct guard_hit *hits = NULL;
	int rc = guard_lock(g, cpus, n, msrs);

	if (!rc && msrs && n > 0) {
		hits = calloc((size_t)n, sizeof(*hits));
		rc = hits ? guard_check_journals(g, cpus, n, hits)
			  : guard_fail(g, GUARD_OSERR, -ENOMEM, "cannot check the journals: %s",
				       strerror(ENOMEM));
		if (!rc)
			rc = guard_check_owners(g, dev, ci, cpus, n, hits);
		free(hits);
	}
	if (!rc && msrs)
		guard_check_watchdog(g);
	if (!rc && msrs)
		rc = guard_check_writes(g, dev);
	if (!rc)
		rc = guard_begin(g, dev, kind, user_only);
	for (int i = 0; !rc && msrs && g->o.save_counters && i < n; i++)
		rc = save_pmu(g, dev, ci, cpus[i]);
	return rc;
}

/* Restore and end the journal; 0 or the restore's -errno. */
static int restore_end(struct guard *g)
{
	char cause[GUARD_ACCESS_TEXT_MAX];
	int rc, end;

	msr_fault_clear(g->dev);
	rc = journal_restore(g->j, g->dev);
	if (rc) {
		guard_restore_cause(g->dev, rc, cause, sizeof(cause));
		guard_fail(g, GUARD_ERRNO, rc, "could not put everything back (%s): journal '%s' "
			   "kept (run: baretma pmu restore)", cause, journal_path(g->j));
	}
	end = journal_end(g->j);
	if (end && end != -EBUSY)
		guard_say(g, GUARD_LINE_WARNING, "restored, but the journal could not be "
			  "removed: %s", strerror(-end));
	return rc;
}

int guard_finish(struct guard *g, bool detach)
{
	int rc = 0;

	if (g->pid != getpid()) {
		/* A fork()ed child: the parent's session; free the copy only. */
		journal_end(g->j);
	} else if (g->j && detach) {
		journal_detach(g->j);
	} else if (g->j) {
		rc = restore_end(g);
	}
	g->j = NULL;
	cpu_lock_release(g->cpu_lock);
	cpu_lock_release(g->settings_lock);
	g->cpu_lock = g->settings_lock = NULL;
	return rc;
}
