/*
 * msr/journal.c - the crash-safe run journal (format and rules:
 * msr/journal.h).
 *
 * Memory: every array is allocated at journal_begin() at full capacity,
 * so saving never reallocates what a signal handler may be reading, and
 * journal_restore() only reads them (no malloc, no stdio: the registers go
 * through msr_write, async-signal-safe for both backends, and the settings
 * through setting_write_path).  An entry is complete before the count that
 * makes it visible is raised (signal fences), so the handler sees whole
 * entries only.  An entry may be visible in memory a moment before it is
 * on disk; restoring it then writes back the value the register still
 * has, which changes nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "msr/intel_regs.h"
#include "msr/journal.h"
#include "msr/settings.h"
#include "msr/state_dir.h"
#include "sigsafe.h"

#define JOURNAL_MAGIC "# baretma journal v2"
#define REG_LINE_MAX 48       /* "reg 8191 0xffffffff 0xffffffffffffffff\n" is 39 */
#define SETTING_LINE_MAX (sizeof("setting  \n") + 6 * (JOURNAL_SETTING_MAX - 1))
#define HEADER_MAX (512 + JOURNAL_CMD_MAX + JOURNAL_BACKEND_MAX)
#define JOURNAL_TEXT_MAX (HEADER_MAX + (size_t)JOURNAL_MAX_REGS * REG_LINE_MAX + \
			  JOURNAL_MAX_SETTINGS * SETTING_LINE_MAX)

struct journal {
	struct journal_data d;      /* arrays at full capacity */
	int dirfd;                  /* the state directory */
	char name[64];              /* "run-<PID>.journal" */
	char tmp[80];               /* ".run-<PID>.journal.tmp" */
	char path[JOURNAL_PATH_MAX];
	char *text;                 /* JOURNAL_TEXT_MAX bytes for rendering */
	bool restored;              /* restored, nothing saved since */
};

static struct journal *current; /* the one journal of this process */
static char last_error[JOURNAL_PATH_MAX + 512];

static void guard_remove(void);

static void fence(void)
{
	atomic_signal_fence(memory_order_seq_cst);
}

static void keep_first(int *rc, int r)
{
	if (!*rc)
		*rc = r;
}

/* ------------------------------------------------------------ encoding */

static bool needs_escape(unsigned char c)
{
	return c <= 0x20 || c >= 0x7f || c == '%';
}

/* Percent-encode @s into @dst (@n bytes); returns the length or -ENAMETOOLONG. */
static int encode(const char *s, char *dst, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (o + 4 > n)
			return -ENAMETOOLONG;
		if (needs_escape(c)) {
			dst[o++] = '%';
			dst[o++] = hex[c >> 4];
			dst[o++] = hex[c & 0xf];
		} else {
			dst[o++] = (char)c;
		}
	}
	dst[o] = '\0';
	return (int)o;
}

static int hexdigit_upper(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decode [s, s+len) exactly as encode() writes it; 0 or -EINVAL. */
static int decode(const char *s, size_t len, char *dst, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '%') {
			int hi = i + 2 < len ? hexdigit_upper(s[i + 1]) : -1;

			if (hi < 0 || hexdigit_upper(s[i + 2]) < 0)
				return -EINVAL;
			c = (unsigned char)(hi << 4 | hexdigit_upper(s[i + 2]));
			if (c == 0 || !needs_escape(c))
				return -EINVAL; /* not what encode() writes */
			i += 2;
		} else if (needs_escape(c)) {
			return -EINVAL;
		}
		if (o + 1 >= n)
			return -EINVAL;
		dst[o++] = (char)c;
	}
	dst[o] = '\0';
	return 0;
}

/* Under /sys/ or /proc/sys/, components neither empty nor "." nor "..". */
static bool setting_path_ok(const char *p)
{
	if (strncmp(p, "/sys/", 5) && strncmp(p, "/proc/sys/", 10))
		return false;
	while (*p == '/') {
		const char *c = p + 1, *e = strchr(c, '/');
		size_t len = e ? (size_t)(e - c) : strlen(c);

		if (len == 0 || (len == 1 && c[0] == '.') ||
		    (len == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		p = c + len;
	}
	return *p == '\0';
}

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/* ------------------------------------------------------- /proc/PID/stat */

/*
 * Field 3 (state) and field 22 (starttime) of /proc/@pid/stat of the
 * running system (proc(5)); comm (field 2) may hold spaces and ')', so the
 * fields are counted from the last ')'.
 */
static int proc_stat(pid_t pid, char *state, unsigned long long *starttime)
{
	char path[64], buf[2048], *p, *end;
	ssize_t r;
	int fd, field;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		r = read(fd, buf, sizeof(buf) - 1);
	while (r < 0 && errno == EINTR);
	close(fd);
	if (r < 0)
		return errno == ESRCH ? -ENOENT : -errno;
	buf[r] = '\0';
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || !p[2])
		return -EINVAL;
	*state = p[2];
	p += 2;
	for (field = 3; field < 22 && p; field++) {
		p = strchr(p, ' ');
		p = p ? p + 1 : NULL;
	}
	if (!p)
		return -EINVAL;
	errno = 0;
	*starttime = strtoull(p, &end, 10);
	return errno || end == p ? -EINVAL : 0;
}

static bool pid_alive(pid_t pid, unsigned long long starttime)
{
	unsigned long long now = 0;
	char state = '?';
	int rc;

	if (kill(pid, 0) < 0 && errno != EPERM)
		return false;
	rc = proc_stat(pid, &state, &now);
	if (rc == -ENOENT)
		return false;     /* gone between kill() and open() */
	if (rc)
		return true;      /* exists, stat unreadable: assume it runs */
	if (state == 'Z' || state == 'X')
		return false;     /* dead, not yet reaped */
	return starttime == 0 || now == starttime;
}

/* ------------------------------------------------------------ rendering */

const char *journal_kind_name(enum journal_kind kind)
{
	switch (kind) {
	case JOURNAL_RUN: return "run";
	case JOURNAL_ENABLE: return "enable";
	case JOURNAL_MSR_WRITE: return "write";
	}
	return NULL;
}

/* The whole file text into j->text; returns its length. */
static size_t render(const struct journal *j)
{
	const struct journal_data *d = &j->d;
	char *t = j->text, path[3 * JOURNAL_SETTING_MAX], value[3 * JOURNAL_SETTING_MAX];
	size_t o;

	o = (size_t)snprintf(t, HEADER_MAX, JOURNAL_MAGIC "\npid %ld\nstarttime %llu\n"
			     "time %lld\ncmd %s\nbackend %s\nkind %s\nuser_only %d\n",
			     (long)d->pid, d->starttime, d->time, d->cmd, d->backend,
			     journal_kind_name(d->kind), d->user_only ? 1 : 0);
	for (int i = 0; i < d->nregs; i++) {
		const struct journal_reg *r = &d->regs[i];

		memcpy(t + o, "reg ", 4);
		o += 4;
		o += sigsafe_put_dec(t + o, r->cpu);
		t[o++] = ' ';
		o += sigsafe_put_hex(t + o, r->msr);
		t[o++] = ' ';
		o += sigsafe_put_hex(t + o, r->saved);
		t[o++] = '\n';
	}
	for (int i = 0; i < d->nsettings; i++) {
		/* Both fit: checked by journal_save_setting. */
		encode(d->settings[i].path, path, sizeof(path));
		encode(d->settings[i].value, value, sizeof(value));
		o += (size_t)snprintf(t + o, SETTING_LINE_MAX, "setting %s %s\n", path, value);
	}
	return o;
}

/* Write the text to the temporary file, fsync'd, mode 0600. */
static int write_tmp(struct journal *j, size_t len)
{
	int fd, rc = 0;

	if (unlinkat(j->dirfd, j->tmp, 0) < 0 && errno != ENOENT)
		return -errno;
	fd = openat(j->dirfd, j->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    0600);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0600) < 0) /* exactly 0600 whatever the umask */
		rc = -errno;
	if (!rc)
		rc = sigsafe_write_all(fd, j->text, len);
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (rc)
		unlinkat(j->dirfd, j->tmp, 0);
	return rc;
}

/* Rename the new text over the journal (or link it, the first time, so an
 * existing journal is never replaced), then fsync the directory. */
static int persist(struct journal *j, bool first)
{
	int rc = write_tmp(j, render(j));

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

static void data_free(struct journal_data *d)
{
	free(d->regs);
	free(d->cpus);
	free(d->settings);
	d->regs = NULL;
	d->cpus = NULL;
	d->settings = NULL;
	d->nregs = d->ncpus = d->nsettings = 0;
}

static int data_alloc(struct journal_data *d, int regs, int settings)
{
	d->regs = calloc((size_t)regs + 1, sizeof(*d->regs));
	d->cpus = calloc((size_t)(regs < JOURNAL_MAX_CPUS ? regs : JOURNAL_MAX_CPUS) + 1,
			 sizeof(*d->cpus));
	d->settings = calloc((size_t)settings + 1, sizeof(*d->settings));
	if (d->regs && d->cpus && d->settings)
		return 0;
	data_free(d);
	return -ENOMEM;
}

static void journal_free(struct journal *j)
{
	if (!j)
		return;
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
	if (proc_stat(d->pid, &state, &d->starttime))
		d->starttime = 0;
	d->time = (long long)time(NULL);
	d->kind = kind;
	d->user_only = user_only;
	snprintf(j->name, sizeof(j->name), "run-%ld.journal", (long)d->pid);
	snprintf(j->tmp, sizeof(j->tmp), ".run-%ld.journal.tmp", (long)d->pid);
	snprintf(j->path, sizeof(j->path), "%s/%s", state_dir_path(), j->name);
	return 0;
}

int journal_begin(struct journal **out, const char *cmd, const char *backend,
		  enum journal_kind kind, bool user_only)
{
	struct journal *j;
	int rc;

	/* A journal inherited through fork() belongs to the parent. */
	if (current && current->d.pid == getpid())
		return -EBUSY;
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	j->dirfd = -1;
	rc = fill_header(j, cmd, backend, kind, user_only);
	if (rc)
		goto out;
	j->text = malloc(JOURNAL_TEXT_MAX);
	rc = j->text ? data_alloc(&j->d, JOURNAL_MAX_REGS, JOURNAL_MAX_SETTINGS) : -ENOMEM;
	if (!rc)
		rc = state_dir_open(true, &j->dirfd);
	if (!rc)
		rc = persist(j, true);
out:
	if (rc) {
		journal_free(j);
		return rc;
	}
	current = j;
	*out = j;
	return 0;
}

static int find_reg(const struct journal_data *d, int n, unsigned cpu, uint32_t msr)
{
	for (int i = 0; i < n; i++)
		if (d->regs[i].cpu == cpu && d->regs[i].msr == msr)
			return i;
	return -1;
}

static bool has_cpu(const struct journal_data *d, unsigned cpu)
{
	for (int i = 0; i < d->ncpus; i++)
		if (d->cpus[i] == cpu)
			return true;
	return false;
}

/* Make @r visible to the signal handler: entry first, then the count. */
static void add_reg(struct journal_data *d, const struct journal_reg *r)
{
	if (!has_cpu(d, r->cpu)) {
		d->cpus[d->ncpus] = r->cpu;
		fence();
		d->ncpus++;
	}
	d->regs[d->nregs] = *r;
	fence();
	d->nregs++;
	fence();
}

int journal_save_regs(struct journal *j, const struct journal_reg *regs, int n)
{
	struct journal_data *d = &j->d;
	int nregs = d->nregs, ncpus = d->ncpus, rc;

	for (int i = 0; i < n; i++)
		if (regs[i].cpu >= JOURNAL_MAX_CPUS)
			return -EINVAL;
	for (int i = 0; i < n; i++) {
		if (find_reg(d, d->nregs, regs[i].cpu, regs[i].msr) >= 0)
			continue;
		if (d->nregs >= JOURNAL_MAX_REGS) {
			rc = -ENOSPC;
			goto undo;
		}
		add_reg(d, &regs[i]);
	}
	if (d->nregs == nregs)
		return 0;
	rc = persist(j, false);
	if (!rc) {
		j->restored = false;
		return 0;
	}
undo:
	d->nregs = nregs;
	d->ncpus = ncpus;
	fence();
	return rc;
}

int journal_save_reg(struct journal *j, unsigned cpu, uint32_t msr, uint64_t saved)
{
	struct journal_reg r = { .cpu = cpu, .msr = msr, .saved = saved };

	return journal_save_regs(j, &r, 1);
}

/* The full path of @path under $BARETMA_SYSROOT into @full. */
static int resolve(const char *path, char *full, size_t n)
{
	cpu_sysfs_path(full, n, path);
	return strlen(full) + 1 >= n ? -ENAMETOOLONG : 0;
}

static int check_setting(const char *path, const char *saved)
{
	if (!path || !saved)
		return -EINVAL;
	if (strlen(path) >= JOURNAL_SETTING_MAX || strlen(saved) >= JOURNAL_SETTING_MAX)
		return -ENAMETOOLONG;
	if (!setting_path_ok(path) || !*saved || strchr(saved, '\n'))
		return -EINVAL;
	return 0;
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
	rc = resolve(path, s->full, sizeof(s->full));
	if (rc)
		return rc;
	fence();
	d->nsettings++;
	fence();
	rc = persist(j, false);
	if (rc) {
		d->nsettings--;
		fence();
		return rc;
	}
	j->restored = false;
	return 0;
}

/* ------------------------------------------------------------ restoring */

static bool has_reg(const struct journal_data *d, unsigned cpu, uint32_t msr)
{
	for (int i = 0; i < d->nregs; i++)
		if (d->regs[i].cpu == cpu && d->regs[i].msr == msr)
			return true;
	return false;
}

/* The GLOBAL_STATUS overflow bits a run that programmed fixed counter 3
 * (it saved IA32_FIXED_CTR_CTRL and IA32_FIXED_CTR3: msr/pmu.h) may have
 * caused: bit 35, and bit 48 when it saved IA32_PERF_METRICS (writing bit
 * 48 elsewhere could #GP, pmu-reference §1.3).  0 for other journals. */
static uint64_t overflow_bits(const struct journal_data *d, unsigned cpu)
{
	if ((d->kind != JOURNAL_RUN && d->kind != JOURNAL_ENABLE) ||
	    !has_reg(d, cpu, IA32_FIXED_CTR_CTRL) || !has_reg(d, cpu, IA32_FIXED_CTR3))
		return 0;
	return GLOBAL_STATUS_OVF_FIXED3 |
	       (has_reg(d, cpu, IA32_PERF_METRICS) ? GLOBAL_STATUS_OVF_PERF_METRICS : 0);
}

/* One CPU: GLOBAL_CTRL = 0 first (when saved with other registers: the
 * freeze guards them; alone it is written once, its saved value), the
 * rest in saved order, the overflow bits the run caused cleared
 * (pmu-reference §5.4 "Restore", as pmu_restore does), GLOBAL_CTRL's saved
 * value last.  Async-signal-safe. */
static int restore_cpu(const struct journal_data *d, struct msr_dev *dev, unsigned cpu)
{
	uint64_t ovf = overflow_bits(d, cpu);
	int rc = 0, gc = -1, others = 0;

	for (int i = 0; i < d->nregs; i++) {
		if (d->regs[i].cpu != cpu)
			continue;
		if (d->regs[i].msr == IA32_PERF_GLOBAL_CTRL)
			gc = i;
		else
			others++;
	}
	if (gc >= 0 && others)
		keep_first(&rc, msr_write(dev, cpu, IA32_PERF_GLOBAL_CTRL, 0));
	for (int i = 0; i < d->nregs; i++)
		if (d->regs[i].cpu == cpu && i != gc)
			keep_first(&rc, msr_write(dev, cpu, d->regs[i].msr, d->regs[i].saved));
	if (ovf) /* best effort, as pmu_restore: no saved register */
		(void)msr_write(dev, cpu, IA32_PERF_GLOBAL_STATUS_RESET, ovf);
	if (gc >= 0)
		keep_first(&rc, msr_write(dev, cpu, IA32_PERF_GLOBAL_CTRL, d->regs[gc].saved));
	return rc;
}

int journal_restore_data(const struct journal_data *d, struct msr_dev *dev)
{
	int rc = 0, ncpus = d->ncpus, nsettings = d->nsettings;

	for (int c = 0; c < ncpus; c++)
		keep_first(&rc, restore_cpu(d, dev, d->cpus[c]));
	for (int i = 0; i < nsettings; i++)
		keep_first(&rc, setting_write_path(d->settings[i].full, d->settings[i].value));
	return rc;
}

int journal_restore(struct journal *j, struct msr_dev *dev)
{
	int rc = journal_restore_data(&j->d, dev);

	j->restored = rc == 0;
	return rc;
}

/* Unlink the journal file and make that durable.  Async-signal-safe. */
static int unlink_journal(struct journal *j)
{
	if (unlinkat(j->dirfd, j->name, 0) < 0)
		return -errno;
	return fsync(j->dirfd) < 0 ? -errno : 0;
}

int journal_end(struct journal *j)
{
	int rc = 0;

	if (!j)
		return 0;
	/* Unlink before the guard goes: a signal in between restores again
	 * (the same values) rather than leaving a journal of a finished run. */
	if (j->restored || (j->d.nregs == 0 && j->d.nsettings == 0))
		rc = unlink_journal(j);
	else
		rc = -EBUSY;
	if (current == j) {
		guard_remove();
		current = NULL;
	}
	journal_free(j);
	return rc;
}

void journal_detach(struct journal *j)
{
	if (!j)
		return;
	if (current == j) {
		guard_remove();
		current = NULL;
	}
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

/* ---------------------------------------------------------------- guard */

#define GUARD_STACK_BYTES (128u << 10)

/* When a signal is taken over (msr/journal.h). */
enum guard_policy {
	GUARD_ALWAYS,     /* faults of the code under test */
	GUARD_UNLESS_IGN, /* terminal: an ignored one (nohup) stays ignored */
	GUARD_IF_DFL,     /* other deadly ones: only while nobody handles them */
};

static const struct {
	int sig;
	enum guard_policy policy;
} guard_signals[] = {
	{ SIGINT, GUARD_UNLESS_IGN }, { SIGTERM, GUARD_UNLESS_IGN },
	{ SIGHUP, GUARD_UNLESS_IGN }, { SIGQUIT, GUARD_UNLESS_IGN },
	{ SIGSEGV, GUARD_ALWAYS }, { SIGBUS, GUARD_ALWAYS },
	{ SIGFPE, GUARD_ALWAYS }, { SIGILL, GUARD_ALWAYS },
	{ SIGABRT, GUARD_ALWAYS }, { SIGTRAP, GUARD_ALWAYS }, { SIGSYS, GUARD_ALWAYS },
	/* "baretma bench | head", timeout -s, ulimit -t / -f, kill -USR1 */
	{ SIGPIPE, GUARD_IF_DFL }, { SIGALRM, GUARD_IF_DFL }, { SIGUSR1, GUARD_IF_DFL },
	{ SIGUSR2, GUARD_IF_DFL }, { SIGXCPU, GUARD_IF_DFL }, { SIGXFSZ, GUARD_IF_DFL },
	{ SIGVTALRM, GUARD_IF_DFL }, { SIGPROF, GUARD_IF_DFL },
};
#define GUARD_NSIG (sizeof(guard_signals) / sizeof(guard_signals[0]))

static struct {
	struct journal *volatile j;
	struct msr_dev *volatile dev;
	struct sigaction old[GUARD_NSIG];
	bool changed[GUARD_NSIG];
	stack_t old_stack;
	bool stack_set;
} guard;
static volatile sig_atomic_t guard_fired;
static char guard_stack[GUARD_STACK_BYTES] __attribute__((aligned(64)));

/* Die of @sig with its default action (the exit status tells it). */
static void die_of(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t set;

	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig); /* not reached: every guarded signal terminates */
}

static void guard_handler(int sig)
{
	struct journal *j = guard.j;

	/* Only the journal's owner restores (not a fork()ed child), once. */
	if (j && !guard_fired && getpid() == j->d.pid) {
		guard_fired = 1;
		if (journal_restore_data(&j->d, guard.dev) == 0)
			unlink_journal(j);
	}
	die_of(sig);
}

static int guard_stack_set(void)
{
	stack_t ss = { .ss_sp = guard_stack, .ss_size = sizeof(guard_stack) };

	if (guard.stack_set)
		return 0;
	if (sigaltstack(&ss, &guard.old_stack) < 0)
		return -errno;
	guard.stack_set = true;
	return 0;
}

int journal_guard_install(struct journal *j, struct msr_dev *dev)
{
	struct sigaction sa = { .sa_handler = guard_handler, .sa_flags = SA_ONSTACK }, old;
	int rc;

	if (!j || j != current || j->d.pid != getpid())
		return -EINVAL;
	guard.dev = dev;
	fence();
	guard.j = j;
	rc = guard_stack_set();
	if (rc)
		return rc;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < GUARD_NSIG; i++)
		sigaddset(&sa.sa_mask, guard_signals[i].sig);
	for (size_t i = 0; i < GUARD_NSIG; i++) {
		int sig = guard_signals[i].sig;
		enum guard_policy policy = guard_signals[i].policy;

		if (guard.changed[i])
			continue;
		if (sigaction(sig, NULL, &old) < 0)
			return -errno;
		if ((policy == GUARD_UNLESS_IGN && old.sa_handler == SIG_IGN) ||
		    (policy == GUARD_IF_DFL && ((old.sa_flags & SA_SIGINFO) ||
						old.sa_handler != SIG_DFL)))
			continue;
		if (sigaction(sig, &sa, &guard.old[i]) < 0)
			return -errno;
		guard.changed[i] = true;
	}
	return 0;
}

/* Handlers and stack back as they were before journal_guard_install. */
static void guard_remove(void)
{
	guard.j = NULL;
	fence();
	for (size_t i = 0; i < GUARD_NSIG; i++) {
		if (guard.changed[i])
			sigaction(guard_signals[i].sig, &guard.old[i], NULL);
		guard.changed[i] = false;
	}
	if (guard.stack_set)
		sigaltstack(&guard.old_stack, NULL);
	guard.stack_set = false;
	guard.dev = NULL;
}

/* -------------------------------------------------------------- parsing */

static const char *const header_keys[] = {
	"pid", "starttime", "time", "cmd", "backend", "kind", "user_only",
};
#define NHEADER (int)(sizeof(header_keys) / sizeof(header_keys[0]))

struct parser {
	struct journal_data *d;
	unsigned line;
	int next;                 /* index of the header key expected next */
	unsigned seen[NHEADER];   /* line of each header key, 0 = not yet */
	unsigned *reg_line;       /* line of each reg */
	unsigned setting_line[JOURNAL_MAX_SETTINGS];
	char *err;
	size_t errlen;
};

static int fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int o = snprintf(p->err, p->errlen, "line %u: ", p->line);

	va_start(ap, fmt);
	vsnprintf(p->err + o, p->errlen - (size_t)o, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Decimal, no sign, no leading zeros, at most @max, the whole of [s, e). */
static bool dec_exact(const char *s, const char *e, unsigned long long max,
		      unsigned long long *v)
{
	unsigned long long x = 0;

	if (s == e || (*s == '0' && e - s > 1))
		return false;
	for (; s < e; s++) {
		unsigned long long dgt = (unsigned long long)(*s - '0');

		if (*s < '0' || *s > '9' || x > (max - dgt) / 10)
			return false;
		x = x * 10 + dgt;
	}
	*v = x;
	return true;
}

/* "0x" + 1..@digits lower-case hex digits without leading zeros; advances *s. */
static bool hex_token(const char **s, const char *e, int digits, uint64_t *v)
{
	const char *p = *s;
	uint64_t x = 0;
	int n = 0;

	if (e - p < 3 || p[0] != '0' || p[1] != 'x')
		return false;
	p += 2;
	if (*p == '0' && p + 1 < e && p[1] != ' ')
		return false;
	for (; p < e && *p != ' '; p++, n++) {
		int dgt = (*p >= '0' && *p <= '9') ? *p - '0' :
			  (*p >= 'a' && *p <= 'f') ? *p - 'a' + 10 : -1;

		if (dgt < 0 || n >= digits)
			return false;
		x = x << 4 | (uint64_t)dgt;
	}
	if (n == 0)
		return false;
	*s = p;
	*v = x;
	return true;
}

static int parse_reg(struct parser *p, const char *v, const char *e)
{
	struct journal_data *d = p->d;
	const char *sp = memchr(v, ' ', (size_t)(e - v));
	unsigned long long cpu;
	uint64_t msr, val;
	int dup;

	if (!sp || !dec_exact(v, sp, JOURNAL_MAX_CPUS - 1, &cpu))
		return fail(p, "reg: CPU must be a decimal number below %d", JOURNAL_MAX_CPUS);
	v = sp + 1;
	if (!hex_token(&v, e, 8, &msr) || v == e || *v != ' ')
		return fail(p, "reg: bad hex MSR (want 0x and 1-8 lower-case hex digits, "
			    "no leading zeros)");
	v++;
	if (!hex_token(&v, e, 16, &val) || v != e)
		return fail(p, "reg: bad hex value (want 0x and 1-16 lower-case hex digits, "
			    "no leading zeros, then the end of the line)");
	dup = find_reg(d, d->nregs, (unsigned)cpu, (uint32_t)msr);
	if (dup >= 0)
		return fail(p, "duplicate reg cpu %llu msr 0x%" PRIx64 " (first at line %u)",
			    cpu, msr, p->reg_line[dup]);
	if (d->nregs >= JOURNAL_MAX_REGS)
		return fail(p, "more than %d registers", JOURNAL_MAX_REGS);
	p->reg_line[d->nregs] = p->line;
	add_reg(d, &(struct journal_reg){ .cpu = (unsigned)cpu, .msr = (uint32_t)msr,
					  .saved = val });
	return 0;
}

static int parse_setting(struct parser *p, const char *v, const char *e)
{
	struct journal_data *d = p->d;
	const char *sp = memchr(v, ' ', (size_t)(e - v));
	struct journal_setting *s = &d->settings[d->nsettings];

	if (d->nsettings >= JOURNAL_MAX_SETTINGS)
		return fail(p, "more than %d settings", JOURNAL_MAX_SETTINGS);
	if (!sp || sp == v || sp + 1 == e || memchr(sp + 1, ' ', (size_t)(e - sp - 1)))
		return fail(p, "expected 'setting PATH VALUE'");
	if (decode(v, (size_t)(sp - v), s->path, sizeof(s->path)) ||
	    decode(sp + 1, (size_t)(e - sp - 1), s->value, sizeof(s->value)))
		return fail(p, "setting: bad percent-encoding");
	if (!setting_path_ok(s->path))
		return fail(p, "setting: path '%s' is not under /sys/ or /proc/sys/ "
			    "(or has an empty, '.' or '..' component)", s->path);
	for (int i = 0; i < d->nsettings; i++)
		if (strcmp(d->settings[i].path, s->path) == 0)
			return fail(p, "duplicate setting '%s' (first at line %u)", s->path,
				    p->setting_line[i]);
	if (resolve(s->path, s->full, sizeof(s->full)))
		return fail(p, "setting: path too long under $BARETMA_SYSROOT");
	p->setting_line[d->nsettings++] = p->line;
	return 0;
}

/* Header value [v, e) of key number @k. */
static int parse_header(struct parser *p, int k, const char *v, const char *e)
{
	struct journal_data *d = p->d;
	unsigned long long x;
	size_t len = (size_t)(e - v);

	for (const char *c = v; c < e; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return fail(p, "control character in '%s'", header_keys[k]);
	switch (k) {
	case 0:
		if (!dec_exact(v, e, INT32_MAX, &x) || x == 0)
			return fail(p, "pid must be a decimal number 1..2147483647");
		d->pid = (pid_t)x;
		return 0;
	case 1:
		if (!dec_exact(v, e, UINT64_MAX, &x))
			return fail(p, "starttime must be a decimal number");
		d->starttime = x;
		return 0;
	case 2:
		if (!dec_exact(v, e, INT64_MAX, &x))
			return fail(p, "time must be a decimal number");
		d->time = (long long)x;
		return 0;
	case 3:
		if (len >= sizeof(d->cmd))
			return fail(p, "cmd longer than %d bytes", JOURNAL_CMD_MAX - 1);
		memcpy(d->cmd, v, len);
		d->cmd[len] = '\0';
		return 0;
	case 4:
		if (len == 0 || len >= sizeof(d->backend))
			return fail(p, "backend must be 1..%d bytes", JOURNAL_BACKEND_MAX - 1);
		memcpy(d->backend, v, len);
		d->backend[len] = '\0';
		return 0;
	case 5:
		for (int kind = JOURNAL_RUN; journal_kind_name(kind); kind++) {
			const char *name = journal_kind_name(kind);

			if (len == strlen(name) && !memcmp(v, name, len)) {
				d->kind = kind;
				return 0;
			}
		}
		return fail(p, "kind must be 'run', 'enable' or 'write'");
	default:
		if (len != 1 || (*v != '0' && *v != '1'))
			return fail(p, "user_only must be 0 or 1");
		d->user_only = *v == '1';
		return 0;
	}
}

static int header_index(const char *key, size_t len)
{
	for (int k = 0; k < NHEADER; k++)
		if (strlen(header_keys[k]) == len && !memcmp(header_keys[k], key, len))
			return k;
	return -1;
}

/* One line [s, e) after the magic. */
static int parse_line(struct parser *p, const char *s, const char *e)
{
	const char *sp = memchr(s, ' ', (size_t)(e - s));
	size_t klen = sp ? (size_t)(sp - s) : (size_t)(e - s);
	int k = header_index(s, klen);
	bool body = klen == 3 ? !memcmp(s, "reg", 3) : klen == 7 && !memcmp(s, "setting", 7);

	if (k < 0 && !body)
		return fail(p, "unknown key '%.*s'", (int)(klen > 32 ? 32 : klen), s);
	if (k >= 0 && p->seen[k])
		return fail(p, "duplicate '%s' (first at line %u)", header_keys[k], p->seen[k]);
	if (p->next < NHEADER && k != p->next)
		return fail(p, "missing '%s' before '%.*s'", header_keys[p->next], (int)klen, s);
	if (!sp)
		return fail(p, "'%.*s' without a value", (int)klen, s);
	if (k >= 0) {
		p->seen[k] = p->line;
		p->next++;
		return parse_header(p, k, sp + 1, e);
	}
	return *s == 'r' ? parse_reg(p, sp + 1, e) : parse_setting(p, sp + 1, e);
}

/* Parse @text (@len bytes) into @d (arrays allocated by the caller). */
static int parse_text(struct parser *p, const char *text, size_t len)
{
	const char *s = text, *end = text + len;

	for (p->line = 1; s < end; p->line++) {
		const char *e = memchr(s, '\n', (size_t)(end - s));
		size_t n = e ? (size_t)(e - s) : (size_t)(end - s);
		int rc;

		if (n + 1 > JOURNAL_LINE_MAX)
			return fail(p, "longer than %d bytes", JOURNAL_LINE_MAX);
		if (!e)
			return fail(p, "truncated (no newline at the end of the file)");
		if (memchr(s, '\0', n))
			return fail(p, "NUL byte");
		if (p->line == 1) {
			if (n != strlen(JOURNAL_MAGIC) || memcmp(s, JOURNAL_MAGIC, n))
				return fail(p, "not a baretma journal (expected '%s')",
					    JOURNAL_MAGIC);
		} else {
			rc = parse_line(p, s, e);
			if (rc)
				return rc;
		}
		s = e + 1;
	}
	if (p->line == 1)
		return fail(p, "empty file");
	if (p->next < NHEADER)
		return fail(p, "missing '%s' (end of file)", header_keys[p->next]);
	return 0;
}

/* Read the regular file behind @fd (ours, not group/other-writable). */
static int read_file(int fd, char **text, size_t *len)
{
	struct stat st;
	size_t got = 0;
	char *buf;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)))
		return -EPERM;
	if ((size_t)st.st_size > JOURNAL_TEXT_MAX)
		return -EFBIG;
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return -ENOMEM;
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break; /* shrunk meanwhile: parse what is there */
		got += (size_t)r;
	}
	buf[got] = '\0';
	*text = buf;
	*len = got;
	return 0;
}

static size_t count_lines(const char *text, size_t len)
{
	size_t n = 0;

	for (const char *s = text; (s = memchr(s, '\n', len - (size_t)(s - text))); s++)
		n++;
	return n;
}

/* Load the journal open on @fd into @d; @err receives the detail. */
static int load_fd(int fd, struct journal_data *d, char *err, size_t errlen)
{
	struct parser p = { .d = d, .err = err, .errlen = errlen };
	char *text = NULL;
	size_t len = 0, lines;
	int rc;

	memset(d, 0, sizeof(*d));
	err[0] = '\0';
	rc = read_file(fd, &text, &len);
	if (rc == -EFBIG) {
		snprintf(err, errlen, "larger than %zu bytes", (size_t)JOURNAL_TEXT_MAX);
		return -EINVAL;
	}
	if (rc)
		return rc;
	lines = count_lines(text, len);
	if (lines > JOURNAL_MAX_REGS)
		lines = JOURNAL_MAX_REGS;
	rc = data_alloc(d, (int)lines, JOURNAL_MAX_SETTINGS);
	p.reg_line = calloc(lines + 1, sizeof(*p.reg_line));
	if (!rc && !p.reg_line)
		rc = -ENOMEM;
	if (!rc)
		rc = parse_text(&p, text, len);
	if (rc)
		data_free(d);
	free(p.reg_line);
	free(text);
	return rc;
}

int journal_load(const char *path, struct journal_data *out)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK), rc;

	last_error[0] = '\0';
	if (fd < 0)
		return errno == ELOOP ? -EPERM : -errno;
	rc = load_fd(fd, out, last_error, sizeof(last_error));
	close(fd);
	return rc;
}

void journal_data_free(struct journal_data *d)
{
	if (d)
		data_free(d);
}

const char *journal_last_error(void)
{
	return last_error;
}

/* ------------------------------------------------------------- listing */

/* "run-<PID>.journal" exactly. */
static bool journal_name_pid(const char *name, pid_t *pid)
{
	const char *dot = strchr(name, '.');
	unsigned long long v;

	if (strncmp(name, "run-", 4) || !dot || strcmp(dot, ".journal") ||
	    !dec_exact(name + 4, dot, INT32_MAX, &v) || v == 0)
		return false;
	*pid = (pid_t)v;
	return true;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* The PIDs of the journals in the state directory, ascending (malloc'd). */
static int list_pids(int dirfd, pid_t **pids, int *n)
{
	struct dirent *de;
	pid_t *v = NULL, pid;
	int cap = 0, cnt = 0, fd = dup(dirfd), rc = 0;
	DIR *dir;

	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(dir)) != NULL) {
		if (!journal_name_pid(de->d_name, &pid))
			continue;
		if (cnt == cap) {
			pid_t *nv = realloc(v, (size_t)(cap = cap ? 2 * cap : 16) * sizeof(*v));

			if (!nv) {
				rc = -ENOMEM;
				break;
			}
			v = nv;
		}
		v[cnt++] = pid;
	}
	closedir(dir);
	if (rc) {
		free(v);
		return rc;
	}
	if (cnt > 1) /* v is NULL when there is none: qsort(NULL, 0) is undefined */
		qsort(v, (size_t)cnt, sizeof(*v), cmp_pid);
	*pids = v;
	*n = cnt;
	return 0;
}

/* Load the journal of @pid in @dirfd into @info. */
static void info_load(int dirfd, pid_t pid, struct journal_info *info)
{
	char name[64];
	int fd;

	memset(info, 0, sizeof(*info));
	snprintf(name, sizeof(name), "run-%ld.journal", (long)pid);
	snprintf(info->path, sizeof(info->path), "%s/%s", state_dir_path(), name);
	info->pid = pid;
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		info->error = errno == ELOOP ? -EPERM : -errno;
		return;
	}
	info->error = load_fd(fd, &info->data, info->detail, sizeof(info->detail));
	close(fd);
	if (!info->error && info->data.pid != pid) {
		snprintf(info->detail, sizeof(info->detail), "line 2: pid %ld, but the file "
			 "is named for %ld", (long)info->data.pid, (long)pid);
		data_free(&info->data);
		info->error = -EINVAL;
	}
	if (info->error == -EINVAL)
		snprintf(last_error, sizeof(last_error), "%s: %s", info->path, info->detail);
	info->alive = pid_alive(pid, info->error ? 0 : info->data.starttime);
}

/* The directory and its journal PIDs; *n = 0 when there is no directory. */
static int open_list(int *dirfd, pid_t **pids, int *n)
{
	int rc = state_dir_open(false, dirfd);

	*pids = NULL;
	*n = 0;
	if (rc == -ENOENT)
		*dirfd = -1;
	if (rc)
		return rc == -ENOENT ? 0 : rc;
	rc = list_pids(*dirfd, pids, n);
	if (rc)
		close(*dirfd);
	return rc;
}

int journal_list(struct journal_info *out, int max)
{
	pid_t *pids;
	int dirfd, n, rc;

	last_error[0] = '\0';
	rc = open_list(&dirfd, &pids, &n);
	if (rc || dirfd < 0)
		return rc;
	if (n > max) {
		rc = -ERANGE;
	} else {
		for (int i = 0; i < n; i++)
			info_load(dirfd, pids[i], &out[i]);
		rc = n;
	}
	free(pids);
	close(dirfd);
	return rc;
}

void journal_info_free(struct journal_info *info, int n)
{
	for (int i = 0; info && i < n; i++)
		data_free(&info[i].data);
}

int journal_find_cpu(unsigned cpu, struct journal_info *who)
{
	pid_t *pids, self = getpid();
	int dirfd, n, rc;

	memset(who, 0, sizeof(*who));
	last_error[0] = '\0';
	rc = open_list(&dirfd, &pids, &n);
	if (rc || dirfd < 0)
		return rc;
	for (int i = 0; i < n && !rc; i++) {
		if (pids[i] == self)
			continue;
		info_load(dirfd, pids[i], who);
		if (who->error)
			rc = who->error;
		else if (has_cpu(&who->data, cpu))
			rc = 1;
		else
			data_free(&who->data);
	}
	free(pids);
	close(dirfd);
	return rc;
}

int journal_remove(pid_t pid)
{
	char name[64];
	int dirfd, rc;

	rc = state_dir_open(false, &dirfd);
	if (rc)
		return rc;
	snprintf(name, sizeof(name), "run-%ld.journal", (long)pid);
	if (unlinkat(dirfd, name, 0) < 0)
		rc = -errno;
	else if (fsync(dirfd) < 0)
		rc = -errno;
	close(dirfd);
	return rc;
}
