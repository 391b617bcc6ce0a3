/*
 * msr/journal/journal.c - the crash-safe run journal, the store: journal_begin,
 * saving registers and settings, writing the file (persist), end and
 * detach (API, format and rules: msr/journal/journal.h).  The text itself is in
 * msr/journal/journal_format.c, restoring in msr/journal/journal_restore.c, other runs'
 * journals in msr/journal/journal_list.c, the registry of this process's open
 * journals and the signal guard in msr/journal/guard_signals.c.
 *
 * A journal is an object: everything it needs is in it, no process-wide
 * "current" one; several may be open in one process (one per session,
 * on any thread), each in its own file named by its registry slot.
 *
 * Memory: every array is allocated at journal_begin() at full capacity,
 * so saving never reallocates what a signal handler may be reading, and
 * journal_restore() only reads them (no malloc, no stdio: the registers go
 * through msr_write, async-signal-safe for both backends, and the settings
 * through setting_write_path).  An entry is complete before the count that
 * makes it visible is raised (signal fences), so the handler sees whole
 * entries only.  An entry becomes visible only once it is on disk (staged
 * past the count, rendered, persisted, then counted): the handler restores
 * and the write gate (msr/access/msr.h) lets through exactly what the file holds.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cpu/proc.h"
#include "msr/journal/guard_signals.h"
#include "msr/journal/journal.h"
#include "msr/journal/journal_int.h"
#include "msr/journal/leftovers.h"
#include "msr/journal/state_dir.h"
#include "msr/access/sigsafe.h"

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/* -------------------------------------------------------------- writing */

/* Write the text to the temporary file, fsync'd, mode 0600. */
static int write_tmp(struct journal *j, size_t len)
{
	return state_dir_write_tmp(j->dirfd, j->tmp, j->text, len);
}

/* Rename the new text over the journal (or link it, the first time, so an
 * existing journal is never replaced), then fsync the directory. */
static int persist(struct journal *j, bool first)
{
	int rc = write_tmp(j, journal_render(j));

	if (rc)
		return rc;
	if (first) {
		if (linkat(j->dirfd, j->tmp, j->dirfd, j->name, 0) < 0)
			rc = -errno;
		unlinkat(j->dirfd, j->tmp, 0);
	} else if (renameat(j->dirfd, j->tmp, j->dirfd, j->name) < 0) {
		rc = -errno;
		unlinkat(j->dirfd, j->tmp, 0);
	}
	if (!rc && fsync(j->dirfd) < 0)
		rc = -errno;
	return rc;
}

/* ------------------------------------------------------------ the run */

/* Out of the registry (when in it), then freed. */
static void journal_free(struct journal *j)
{
	if (!j)
		return;
	journal_registry_release(j);
	if (j->dirfd >= 0)
		close(j->dirfd);
	data_free(&j->d);
	free(j->text);
	free(j);
}

/* Header fields of a new journal. */
static int fill_header(struct journal *j, const char *cmd, const char *backend,
		       enum journal_kind kind, bool user_only)
{
	struct journal_data *d = &j->d;
	char state;
	size_t i;

	if (!backend || !*backend || has_control(backend) || !journal_kind_name(kind))
		return -EINVAL;
	if (strlen(backend) >= sizeof(d->backend))
		return -ENAMETOOLONG;
	strcpy(d->backend, backend);
	for (i = 0; cmd && cmd[i] && i + 1 < sizeof(d->cmd); i++)
		d->cmd[i] = ((unsigned char)cmd[i] < 0x20 || cmd[i] == 0x7f) ? '?' : cmd[i];
	d->cmd[i] = '\0';
	d->pid = getpid();
	/* Without /proc, 0 = unknown: liveness then rests on kill() alone. */
	if (cpu_proc_stat(d->pid, &state, &d->starttime))
		d->starttime = 0;
	d->time = (long long)time(NULL);
	d->kind = kind;
	d->user_only = user_only;
	journal_file_name(d->pid, j->seq, j->name, sizeof(j->name));
	snprintf(j->tmp, sizeof(j->tmp), ".%s.tmp", j->name);
	snprintf(j->path, sizeof(j->path), "%s/%s", state_dir_path(), j->name);
	return 0;
}

/* journal_begin (@first_only) and journal_create. */
static int begin(struct journal **out, const char *cmd, const char *backend,
		 enum journal_kind kind, bool user_only, bool first_only)
{
	struct journal *j = calloc(1, sizeof(*j));
	int rc;

	if (!j)
		return -ENOMEM;
	j->dirfd = -1;
	/* A slot of a journal inherited through fork() is free here: that
	 * journal belongs to the parent. */
	j->seq = rc = journal_registry_claim(j, first_only);
	if (rc < 0) {
		j->seq = -1;
		goto out;
	}
	rc = fill_header(j, cmd, backend, kind, user_only);
	if (rc)
		goto out;
	j->text = malloc(JOURNAL_TEXT_MAX);
	rc = j->text ? data_alloc(&j->d, JOURNAL_MAX_REGS, JOURNAL_MAX_SETTINGS) : -ENOMEM;
	if (!rc)
		rc = state_dir_open(true, &j->dirfd);
	if (!rc)
		rc = persist(j, true);
	if (!rc) /* the run's unfinished writes, for pmu restore too */
		leftovers_sync();
out:
	if (rc) {
		journal_free(j);
		return rc;
	}
	*out = j;
	return 0;
}

int journal_begin(struct journal **out, const char *cmd, const char *backend,
		  enum journal_kind kind, bool user_only)
{
	return begin(out, cmd, backend, kind, user_only, true);
}

int journal_create(struct journal **out, const char *cmd, const char *backend,
		   enum journal_kind kind, bool user_only)
{
	return begin(out, cmd, backend, kind, user_only, false);
}

static bool journal_gate(const void *arg, unsigned cpu, uint32_t msr)
{
	return journal_data_permits(&((const struct journal *)arg)->d, cpu, msr);
}

/* Shut the gate of the device the journal opened (journal_set_dev). */
static void gate_down(struct journal *j)
{
	if (j->dev && j->d.pid == getpid())
		msr_gate_set(j->dev, NULL, NULL, NULL, NULL);
}

void journal_set_dev(struct journal *j, struct msr_dev *dev)
{
	if (j->dev && j->dev != dev)
		gate_down(j);
	j->dev = dev;
	fence();
	if (dev)
		msr_gate_set(dev, journal_gate, j, NULL, NULL);
}

int journal_guard_install(struct journal *j, struct msr_dev *dev)
{
	int rc;

	if (!j || j->d.pid != getpid())
		return -EINVAL;
	journal_set_dev(j, dev);
	if (j->guarded)
		return 0;
	rc = guard_signals_install(GUARD_SIGNALS_DIE);
	j->guarded = rc == 0;
	return rc;
}

/* Whether a save added entries: the journal is live again. */
static void saved_more(struct journal *j)
{
	j->restored = false;
	atomic_store(&j->fired, 0);
}

/*
 * Staged, persisted, then published: the new entries are written past
 * d->nregs, rendered into the file, and made visible (to the signal
 * handler's restore and to the write gate) only once the file holds
 * them.  So the gate lets a register through exactly when its saved value
 * is on disk, and a signal meanwhile restores only what is.
 */
int journal_save_regs(struct journal *j, const struct journal_reg *regs, int n)
{
	struct journal_data *d = &j->d;
	int rc;

	for (int i = 0; i < n; i++)
		if (regs[i].cpu >= JOURNAL_MAX_CPUS || journal_reg_check(d->kind, &regs[i]))
			return -EINVAL;
	j->staged_regs = 0;
	for (int i = 0; i < n; i++) {
		if (find_reg(d, d->nregs + j->staged_regs, regs[i].cpu, regs[i].msr) >= 0)
			continue;
		if (d->nregs + j->staged_regs >= JOURNAL_MAX_REGS) {
			j->staged_regs = 0;
			return -ENOSPC;
		}
		d->regs[d->nregs + j->staged_regs++] = regs[i];
	}
	if (!j->staged_regs)
		return 0;
	rc = persist(j, false);
	if (!rc) {
		for (int k = j->staged_regs; k > 0; k--) {
			const struct journal_reg *r = &d->regs[d->nregs];

			publish_reg(d);
			msr_trace_saved(j->dev, r->cpu, r->msr, r->saved);
		}
		saved_more(j);
	}
	j->staged_regs = 0;
	return rc;
}

int journal_save_reg(struct journal *j, unsigned cpu, uint32_t msr, uint64_t saved)
{
	struct journal_reg r = { .cpu = cpu, .msr = msr, .saved = saved };

	return journal_save_regs(j, &r, 1);
}

static int check_setting(const char *path, const char *saved)
{
	if (!path || !saved)
		return -EINVAL;
	if (strlen(path) >= JOURNAL_SETTING_MAX || strlen(saved) >= JOURNAL_SETTING_MAX)
		return -ENAMETOOLONG;
	return journal_setting_check(path, saved) ? -EINVAL : 0;
}

int journal_save_setting(struct journal *j, const char *path, const char *saved)
{
	struct journal_data *d = &j->d;
	struct journal_setting *s;
	int rc = check_setting(path, saved);

	if (rc)
		return rc;
	for (int i = 0; i < d->nsettings; i++)
		if (strcmp(d->settings[i].path, path) == 0)
			return 0;
	if (d->nsettings >= JOURNAL_MAX_SETTINGS)
		return -ENOSPC;
	s = &d->settings[d->nsettings];
	strcpy(s->path, path);
	strcpy(s->value, saved);
	rc = journal_resolve(path, s->full, sizeof(s->full));
	if (rc)
		return rc;
	/* staged, persisted, then published (journal_save_regs) */
	j->staged_settings = 1;
	rc = persist(j, false);
	j->staged_settings = 0;
	if (rc)
		return rc;
	fence();
	d->nsettings++;
	fence();
	saved_more(j);
	return 0;
}

/* The guard journal_guard_install put up comes down with the journal. */
static void guard_down(struct journal *j)
{
	if (j->guarded)
		guard_signals_remove(GUARD_SIGNALS_DIE);
	j->guarded = false;
}

int journal_end(struct journal *j)
{
	int rc = 0;

	if (!j)
		return 0;
	if (j->d.pid != getpid()) { /* a fork()ed child: the parent's file */
		journal_free(j);
		return 0;
	}
	/* Unlink before the guard goes: a signal in between restores again
	 * (the same values) rather than leaving a journal of a finished run.
	 * Restored by the signal handler: its file is gone already. */
	if (j->restored || (j->d.nregs == 0 && j->d.nsettings == 0))
		rc = journal_unlink_file(j);
	else
		rc = -EBUSY;
	if (rc == -ENOENT && atomic_load(&j->fired))
		rc = 0;
	gate_down(j);
	guard_down(j);
	journal_free(j);
	return rc;
}

void journal_detach(struct journal *j)
{
	if (!j)
		return;
	gate_down(j);
	if (j->d.pid == getpid())
		guard_down(j);
	journal_free(j);
}

const char *journal_path(const struct journal *j)
{
	return j->path;
}

const struct journal_data *journal_data_of(const struct journal *j)
{
	return &j->d;
}
