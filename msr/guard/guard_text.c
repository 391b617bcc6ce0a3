/*
 * msr/guard/guard_text.c - the messages of the guarded run (msr/guard/guard.h): a
 * failed MSR access named by register and CPU, a state directory that
 * cannot hold the files, another run's journal and who holds it.  Built
 * into the caller's buffer, never printed: the CLI prints them after
 * "baretma: ", libbaretma keeps them for baretma_last_error().
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/escape.h"
#include "cpu/text.h"
#include "msr/guard/guard.h"
#include "msr/regs/msr_names.h"
#include "msr/journal/state_dir.h"

char *guard_cpus_text(const unsigned *cpus, unsigned ncpus)
{
	char *s = NULL;

	if (text_setf(&s, "%s", ""))
		return NULL;
	for (unsigned i = 0; i < ncpus;) {
		unsigned j = i;
		int rc;

		while (j + 1 < ncpus && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (j > i)
			rc = text_appendf(&s, NULL, "%s%u-%u", i ? "," : "", cpus[i], cpus[j]);
		else
			rc = text_appendf(&s, NULL, "%s%u", i ? "," : "", cpus[i]);
		if (rc) {
			free(s);
			return NULL;
		}
		i = j + 1;
	}
	return s;
}

void guard_fmt_cpus(char *buf, size_t n, const unsigned *cpus, unsigned ncpus)
{
	char *s = guard_cpus_text(cpus, ncpus);
	size_t len = s ? strlen(s) : 0;

	if (!n) {
		free(s);
		return;
	}
	if (!s || len >= n) { /* cut visibly, after a comma: "0,2,4,..." */
		size_t keep = s && n > 5 ? n - 5 : 0;

		while (keep && s[keep] != ',')
			keep--;
		if (s && s[keep] == ',')
			keep++;
		snprintf(buf, n, "%.*s%s", (int)keep, s ? s : "", n > 3 ? "..." : "");
	} else {
		memcpy(buf, s, len + 1);
	}
	free(s);
}

/* ----------------------------------------------------------- MSR access */

void guard_msr_fail_text(struct msr_dev *dev, unsigned cpu, const char *what, int err,
			 char *buf, size_t n)
{
	char path[PATH_MAX];
	const char *remedy = msr_remedy(err);

	msr_describe(dev, cpu, path, sizeof(path));
	if (*remedy)
		snprintf(buf, n, "cannot %s '%s': %s (%s)", what, path, strerror(-err), remedy);
	else
		snprintf(buf, n, "cannot %s '%s': %s", what, path, strerror(-err));
}

enum guard_class guard_msr_cpu_fail_text(struct msr_dev *dev, unsigned cpu, const char *verb,
					 int err, char *buf, size_t n)
{
	char what[160];
	bool state = !strcmp(msr_backend_name(dev), "state");

	if (state)
		snprintf(what, sizeof(what), "%s cpu %u in", verb, cpu);
	else
		snprintf(what, sizeof(what), "%s", verb);
	guard_msr_fail_text(dev, cpu, what, err, buf, n);
	return !state && err == -ENOENT ? GUARD_UNAVAILABLE : GUARD_ERRNO;
}

/* The remedy for a failed access: a write refused with EIO is a #GP on
 * WRMSR, which reserved bits cause as well as a missing register
 * (linux arch/x86/kernel/msr.c: wrmsr_safe_on_cpu's fault is EIO). */
static const char *access_remedy(const struct msr_fault *f)
{
	if (f->op == MSR_OP_WRITE && f->err == -EIO)
		return "the CPU refused the write (#GP): the register does not exist on this "
		       "CPU or the value sets a reserved bit";
	return msr_remedy(f->err);
}

void guard_access_text(struct msr_dev *dev, int err, unsigned cpu, char *buf, size_t n)
{
	struct msr_fault f;
	char path[PATH_MAX], label[64]; /* fixed: msr_describe's path (PATH_MAX), a
					 * register's label (msr_reg_label: 42 bytes) */
	const char *remedy;

	if (!msr_last_fault(dev, &f) || f.err != err || f.op == MSR_OP_OPEN)
		f = (struct msr_fault){ .op = 0, .cpu = cpu, .err = err };
	msr_describe(dev, f.cpu, path, sizeof(path));
	remedy = f.op ? access_remedy(&f) : msr_remedy(err);
	msr_reg_label(f.msr, label, sizeof(label));
	if (f.op == MSR_OP_WRITE)
		snprintf(buf, n, "cannot write %s = 0x%" PRIx64 " on cpu %u through '%s': %s%s%s%s",
			 label, f.value, f.cpu, path, err == -ENOLCK ? "not saved in the run's "
			 "journal first" : strerror(-err), *remedy ? " (" : "", remedy,
			 *remedy ? ")" : "");
	else if (f.op == MSR_OP_READ)
		snprintf(buf, n, "cannot read %s on cpu %u through '%s': %s%s%s%s", label, f.cpu,
			 path, strerror(-err), *remedy ? " (" : "", remedy, *remedy ? ")" : "");
	else
		snprintf(buf, n, "cannot access the MSRs of cpu %u through '%s': %s%s%s%s", cpu,
			 path, strerror(-err), *remedy ? " (" : "", remedy, *remedy ? ")" : "");
}

enum guard_class guard_access_fail_text(struct msr_dev *dev, int err, const char *ctx,
					unsigned cpu, char **out)
{
	char text[GUARD_ACCESS_TEXT_MAX];
	enum guard_class cls = GUARD_ERRNO;
	struct msr_fault f;

	if (msr_last_fault(dev, &f) && f.err == err && f.op == MSR_OP_OPEN) {
		cls = guard_msr_cpu_fail_text(dev, f.cpu, "open", err, text, sizeof(text));
		ctx = NULL;
	} else {
		guard_access_text(dev, err, cpu, text, sizeof(text));
	}
	if (text_setf(out, "%s%s%s", ctx ? ctx : "", ctx ? ": " : "", text)) {
		free(*out);
		*out = NULL;
	}
	return cls;
}

void guard_restore_cause(struct msr_dev *dev, int err, char *buf, size_t n)
{
	struct msr_fault f;

	if (dev && msr_last_fault(dev, &f) && f.err == err && f.op != MSR_OP_OPEN)
		guard_access_text(dev, err, f.cpu, buf, n);
	else
		snprintf(buf, n, "%s", strerror(-err));
}

/* ------------------------------------------------------ state directory */

/* "group", "others" or "group and others": who may write @mode. */
static const char *writers(unsigned mode)
{
	return (mode & S_IWGRP) && (mode & S_IWOTH) ? "group and others" :
	       mode & S_IWGRP ? "group" : "others";
}

/* The message for a directory on the way to the state directory @dir that
 * others could change (state_dir_open's rule, msr/journal/state_dir.h). */
static int parent_text(const char *dir, const struct state_dir_refusal *r, char **out)
{
	unsigned me = (unsigned)geteuid();

	if (r->why == STATE_DIR_OWNER)
		return text_setf(out, "state dir '%s': '%s' in its path is owned by uid %u "
			 "(mode %04o), not by root or uid %u: refused (its owner could move the state dir aside "
			 "and hide its journals, and 'pmu restore' would find nothing to restore; "
			 "give a path whose every directory is root's or uid %u's)", dir, r->path,
			 r->uid, r->mode, me, me);
	return text_setf(out, "state dir '%s': '%s' in its path is writable by %s (mode %04o) "
			 "and not sticky: refused (they could move the state dir aside and hide "
			 "its journals, and 'pmu restore' would find nothing to restore; chmod "
			 "go-w '%s', or chmod +t it as /tmp is, or give a path whose every "
			 "directory only root or uid %u can change)", dir, r->path,
			 writers(r->mode), r->mode, r->path, me);
}

/* The message, raw, in *@out (left NULL when memory runs out). */
static enum guard_class state_dir_text(const char *what, int err, char **out)
{
	const char *dir = state_dir_path();
	struct state_dir_refusal r;
	bool refused = (err == -ELOOP || err == -EPERM) && !state_dir_refused(&r);

	switch (-err) {
	case ELOOP:
		if (!refused || r.last || r.why != STATE_DIR_LINK) {
			text_setf(out, "state dir '%s' is a symbolic link: refused (journals "
				 "decide what is written to MSRs; use a real directory)", dir);
			return GUARD_DENIED;
		}
		text_setf(out, "state dir '%s': '%s' in its path is a symbolic link someone "
			 "other than root could have made: refused (it could make root create "
			 "the journals anywhere; give a path of real directories: only root's "
			 "links in directories only root can write, like /var/run, are "
			 "followed)", dir, r.path);
		return GUARD_DENIED;
	case EPERM:
		if (refused && !r.last && r.why != STATE_DIR_LINK) {
			parent_text(dir, &r, out);
			return GUARD_DENIED;
		}
		text_setf(out, "state dir '%s' or a file in it is not owned by uid %u or is "
			 "writable by others: refused (chown it to uid %u and chmod 700)", dir,
			 (unsigned)geteuid(), (unsigned)geteuid());
		return GUARD_DENIED;
	case ENOENT:
	case ENOTDIR:
	case EROFS:
		text_setf(out, "cannot %s in state dir '%s': %s (baretma creates the directory "
			 "itself, 0700, when its parent exists: set BARETMA_STATE_DIR to a "
			 "directory on a writable file system, default /run/baretma)", what, dir,
			 strerror(-err));
		return GUARD_CANTCREAT;
	case ENOSPC:
	case EDQUOT:
	case EFBIG:
		/* write(2): no room on the device, the quota, RLIMIT_FSIZE */
		text_setf(out, "cannot %s in state dir '%s': %s (baretma writes its locks "
			 "and journals there before any change: free space on its file system, "
			 "raise the quota or the file size limit, or set BARETMA_STATE_DIR to a "
			 "directory with room)", what, dir, strerror(-err));
		return GUARD_CANTCREAT;
	case ENAMETOOLONG:
		text_setf(out, "cannot %s in state dir '%s': %s (%zu bytes; the paths of the "
			 "files in it must fit in %d bytes: set BARETMA_STATE_DIR to a directory "
			 "of at most %d bytes)", what, dir, strerror(-err), strlen(dir), PATH_MAX,
			 PATH_MAX - 2 - STATE_DIR_NAME_MAX);
		return GUARD_CANTCREAT;
	default:
		text_setf(out, "cannot %s in state dir '%s': %s", what, dir, strerror(-err));
		return GUARD_ERRNO;
	}
}

/* The message, escaped (cpu/escape.h): the paths come from
 * $BARETMA_STATE_DIR and from links' targets; on the heap, whole (three
 * paths of up to PATH_MAX, escaped). */
enum guard_class guard_state_dir_text(const char *what, int err, char **out)
{
	char *raw = NULL;
	enum guard_class cls = state_dir_text(what, err, &raw);

	free(*out);
	*out = raw ? esc_strdup(raw) : NULL;
	free(raw);
	return cls;
}

/* ------------------------------------------------------------ journals */

void guard_journal_short_cmd(const char *cmd, char *buf, size_t n)
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

void guard_journal_holder(const struct journal_info *who, char *buf, size_t n)
{
	const struct journal_data *d = &who->data;
	const char *args = strchr(d->cmd, ' '); /* after argv[0], a path as typed */
	char sc[96];

	guard_journal_short_cmd(d->cmd, sc, sizeof(sc));
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

enum guard_class guard_journal_bad_text(const struct journal_info *who, char **out)
{
	enum guard_class cls = GUARD_ERRNO;
	char *t = NULL;

	if (who->error == -EINVAL) {
		cls = GUARD_DATA;
		text_setf(&t, "journal '%s' is malformed: %s (inspect it; remove it by hand once "
			  "the registers and settings it names are known to be right)", who->path,
			  who->detail ? who->detail : journal_last_error());
	} else if (who->error == -EPERM) {
		cls = GUARD_DENIED;
		state_dir_file_text(&t, "journal", who->path, who->detail ? who->detail :
				    "not a regular file of ours, or writable by others");
	} else {
		text_setf(&t, "cannot read journal '%s': %s", who->path, strerror(-who->error));
	}
	free(*out);
	*out = t;
	return cls;
}
