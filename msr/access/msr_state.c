/*
 * msr/access/msr_state.c - the state-file backend: registers kept in a text file
 * keyed by (cpu, msr), one "CPU 0xMSR 0xVALUE" line each (msr/access/msr.h).
 *
 * A regular file is not an MSR fake (offsets are bytes, so 0x186 and 0x187
 * would overlap: STYLE.md); this backend parses lines instead.
 *
 * Persistence: every successful write rewrites the whole file before
 * returning: the new text goes into FILE.tmp in the same directory, and
 * renameat2(RENAME_EXCHANGE) swaps the two names, so FILE is the new text
 * at once and FILE.tmp keeps the old one as the spare for the next write
 * (Linux 3.15; ext4, tmpfs, xfs, btrfs).  Creating a new FILE.tmp and
 * renaming it over FILE each time cost 270-730 us a write on the
 * development VM's ext4, the exchange 15 us: a simulated validate makes
 * tens of thousands.  Where the file system cannot exchange, the spare is
 * renamed over FILE as before.  A spare found at the name is reused only
 * when it is a regular file with one link owned by this user; it is
 * removed when the handle closes (a killed run leaves it, which the next
 * run reuses or replaces).  No fsync: a process killed at any point leaves
 * FILE as it was before or after a whole write (the rename is atomic, the
 * page cache outlives the process), which is all a stand-in for registers
 * needs - a power cut resets real registers too - and an fsync per write
 * made a simulated run of thousands of writes take seconds.  The text is rebuilt
 * from the original bytes with only changed value tokens replaced, so a
 * file whose values are all back to their originals is byte-identical.
 * The new FILE gets the old one's permission bits (mode & 0777: never a
 * set-user-ID, set-group-ID or sticky bit).  FILE is never reached through
 * a symbolic link: opened with O_NOFOLLOW at open and at every reload (a
 * link at the name is refused at open, -ELOOP at an access), so a link
 * planted at the name cannot make baretma read or rewrite its target.
 * The read-modify-write runs under flock(LOCK_EX) of the directory, so two
 * baretma processes on one state file (runs on different CPUs) neither
 * lose each other's writes nor collide on FILE.tmp.
 *
 * Other writers: before every access the file is stat()ed (fstatat of the
 * name, not following a link: device, inode, size, mtime); when that differs from what this
 * handle last read or wrote, the file is read and parsed again, so a write
 * made by another process (a test playing "perf started on this CPU")
 * is seen.  The new text then becomes the "original" whose bytes are kept.
 *
 * Every buffer is allocated at open, with room for the file to grow (the
 * larger of its size and 64 KiB; a reload of a bigger file is -EFBIG),
 * and numbers are formatted by hand, so open/read/write are
 * async-signal-safe (the restore path runs from a signal handler,
 * msr/journal/journal_restore.c).  A reload parses into the spare of two views
 * and then switches one index, so a handler that interrupts it sees a
 * whole view.  Parsing and the (cpu, msr) index: msr/access/msr_state_parse.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/escape.h"
#include "cpu/text.h"
#include "cpu/userfile.h"
#include "msr/regs/amd_regs.h"
#include "msr/regs/intel_regs.h"
#include "msr/access/msr.h"
#include "msr/access/msr_state_int.h"
#include "msr/access/sigsafe.h"

#define STATE_GROW_MIN (64u << 10)   /* room to grow by, at least */
#define HEX_TOKEN_MAX 18             /* "0x" + 16 hex digits */
/* The mode a rewrite gives FILE: its permission bits only.  Set-user-ID,
 * set-group-ID and sticky bits are dropped: a root process must not hand
 * out a set-user-ID file because one stood at the name. */
#define PERM_BITS (S_IRWXU | S_IRWXG | S_IRWXO)

/* What identifies the file's content on disk (stat). */
struct st_stamp {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtim;
};

struct state_ctx {
	char *path;       /* as given */
	char *shown;      /* path escaped for messages (cpu/escape.h) */
	char *base;       /* file name inside dirfd */
	char *tmp;        /* base + ".tmp" */
	int dirfd;
	mode_t mode;
	size_t cap;       /* bytes of text a view can hold */
	size_t regcap;    /* registers a view can hold */
	struct st_view v[2];
	volatile sig_atomic_t cur; /* the view in use; the other is for reloads */
	struct st_stamp seen;      /* the file as last read or written */
	bool wrote;                /* a write made the spare FILE.tmp: removed at close */
	char *out;        /* rewrite buffer, cap + regcap * HEX_TOKEN_MAX */
};

static struct st_view *view(struct state_ctx *c)
{
	return &c->v[c->cur];
}

/* ---------------------------------------------------------- persisting */


/* Rebuild the text into c->out: original bytes, changed values replaced. */
static size_t render(struct state_ctx *c)
{
	const struct st_view *v = view(c);
	size_t o = 0, pos = 0;

	for (size_t i = 0; i < v->nregs; i++) {
		const struct st_reg *r = &v->regs[i];

		memcpy(c->out + o, v->text + pos, r->vstart - pos);
		o += r->vstart - pos;
		if (r->val == r->orig) {
			memcpy(c->out + o, v->text + r->vstart, r->vend - r->vstart);
			o += r->vend - r->vstart;
		} else {
			o += sigsafe_put_hex(c->out + o, r->val);
		}
		pos = r->vend;
	}
	memcpy(c->out + o, v->text + pos, v->textlen - pos);
	return o + v->textlen - pos;
}

static void stamp_of(const struct stat *st, struct st_stamp *s)
{
	s->dev = st->st_dev;
	s->ino = st->st_ino;
	s->size = st->st_size;
	s->mtim = st->st_mtim;
}

static bool stamp_same(const struct st_stamp *a, const struct stat *st)
{
	return a->dev == st->st_dev && a->ino == st->st_ino && a->size == st->st_size &&
	       a->mtim.tv_sec == st->st_mtim.tv_sec && a->mtim.tv_nsec == st->st_mtim.tv_nsec;
}

/* Read all of @fd (a regular file of @size bytes) into @buf; 0 or -errno. */
static int read_all(int fd, char *buf, size_t size, size_t *got)
{
	*got = 0;
	while (*got < size) {
		ssize_t r = read(fd, buf + *got, size - *got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break; /* shrunk meanwhile: parse what is there */
		*got += (size_t)r;
	}
	return 0;
}

/*
 * The file changed under us: read and parse it into the spare view, then
 * switch.  Async-signal-safe.  On error the current view stays (and the
 * stamp too, so the next access tries again): -EFBIG (grew beyond the room
 * allocated at open), -EINVAL (malformed now, or not a regular file),
 * -ELOOP (a symbolic link now stands at the name: not followed), -errno.
 * O_NONBLOCK: a FIFO put at the name must not block a signal handler.
 */
static int reload(struct state_ctx *c)
{
	int spare = !c->cur, fd, rc;
	struct st_view *v = &c->v[spare];
	struct stat st;
	size_t got = 0;

	fd = openat(c->dirfd, c->base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		rc = -errno;
		goto out;
	}
	rc = !S_ISREG(st.st_mode) ? -EINVAL : (size_t)st.st_size > c->cap ? -EFBIG : 0;
	if (!rc)
		rc = read_all(fd, v->text, (size_t)st.st_size, &got);
	if (rc)
		goto out;
	v->textlen = got;
	rc = state_parse(v, c->regcap, c->shown, NULL);
	if (rc)
		goto out;
	c->mode = st.st_mode & PERM_BITS;
	stamp_of(&st, &c->seen);
	atomic_signal_fence(memory_order_seq_cst);
	c->cur = spare;
	atomic_signal_fence(memory_order_seq_cst);
out:
	close(fd);
	return rc;
}

static int dir_lock(struct state_ctx *c, int op);

/* Reload when the file on disk is not what this handle last saw (a
 * symbolic link at the name differs: its reload fails -ELOOP).  A reader
 * reads under the directory's shared lock: the inode it opens as FILE
 * can be the spare a writer rewrites once the names have been swapped
 * again (it was read torn without).  A writer (@locked) holds the
 * exclusive lock already. */
static int refresh(struct state_ctx *c, bool locked)
{
	struct stat st;
	int rc;

	if (fstatat(c->dirfd, c->base, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	if (stamp_same(&c->seen, &st))
		return 0;
	if (locked)
		return reload(c);
	rc = dir_lock(c, LOCK_SH);
	if (rc)
		return rc;
	rc = reload(c);
	dir_lock(c, LOCK_UN);
	return rc;
}


/* The spare FILE.tmp for writing, open: reused when it is one this user
 * could have left (a regular file, one link, our euid: never a hard link
 * planted at the name, which O_NOFOLLOW does not catch), else created new
 * (O_EXCL).  With FILE's permission bits.  -errno. */
static int spare_open(struct state_ctx *c)
{
	struct stat st;
	int fd = openat(c->dirfd, c->tmp, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
			st.st_uid != geteuid())) {
		close(fd);
		fd = -1;
		errno = EEXIST;
	}
	if (fd < 0) {
		if (errno != ENOENT && unlinkat(c->dirfd, c->tmp, 0) < 0 && errno != ENOENT)
			return -errno;
		fd = openat(c->dirfd, c->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			    O_CLOEXEC, 0600);
		if (fd < 0)
			return -errno;
		st.st_mode = 0600;
	}
	if ((st.st_mode & PERM_BITS) != c->mode && fchmod(fd, c->mode) < 0) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	return fd;
}

/* Write the new text into FILE.tmp and swap the two names (the header says
 * how; no fsync: it says why). */
static int persist(struct state_ctx *c)
{
	size_t len = render(c);
	struct stat st;
	int fd, rc;

	fd = spare_open(c);
	if (fd < 0)
		return fd;
	rc = sigsafe_write_all(fd, c->out, len); /* a fresh descriptor: from offset 0 */
	if (!rc && ftruncate(fd, (off_t)len) < 0)
		rc = -errno;
	/* a rename keeps the inode and its mtime: this is what FILE will be */
	if (!rc && fstat(fd, &st) < 0)
		rc = -errno;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (rc) {
		unlinkat(c->dirfd, c->tmp, 0);
		return rc;
	}
	if (renameat2(c->dirfd, c->tmp, c->dirfd, c->base, RENAME_EXCHANGE) < 0) {
		if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
			return -errno;
		/* a file system that cannot exchange: the new text replaces FILE,
		 * and the next write makes a new spare */
		if (renameat(c->dirfd, c->tmp, c->dirfd, c->base) < 0) {
			rc = -errno;
			unlinkat(c->dirfd, c->tmp, 0);
			return rc;
		}
	}
	stamp_of(&st, &c->seen);
	c->wrote = true;
	return 0;
}

/* ------------------------------------------------------------------ ops */

static int st_open(void *ctx, unsigned cpu)
{
	int rc = refresh(ctx, false);

	if (rc)
		return rc;
	return state_cpu_listed(view(ctx), cpu) ? 0 : -ENXIO;
}

/* The register, or NULL with *rc = -ENXIO (no such CPU) / -EIO (#GP). */
static struct st_reg *lookup(struct state_ctx *c, unsigned cpu, uint32_t msr, int *rc)
{
	const struct st_view *v = view(c);
	struct st_reg *r = state_find(v, cpu, msr);

	if (!r)
		*rc = state_cpu_listed(v, cpu) ? -EIO : -ENXIO;
	return r;
}

static int st_read(void *ctx, unsigned cpu, uint32_t msr, uint64_t *val)
{
	int rc = refresh(ctx, false);
	struct st_reg *r = rc ? NULL : lookup(ctx, cpu, msr, &rc);

	if (r)
		*val = r->val;
	return rc;
}

int msr_state_peek(void *ctx, unsigned cpu, uint32_t msr, uint64_t *val)
{
	int rc = 0;
	struct st_reg *r = lookup(ctx, cpu, msr, &rc);

	if (r)
		*val = r->val;
	return rc;
}

uint64_t msr_state_cpu_hash(void *ctx, unsigned cpu)
{
	return state_cpu_hash(view(ctx), cpu);
}

/* flock of the directory around a read-modify-write (EINTR retried). */
static int dir_lock(struct state_ctx *c, int op)
{
	while (flock(c->dirfd, op) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/*
 * IA32_PERF_GLOBAL_STATUS is read-only; a WRMSR to it is modelled as #GP
 * (-EIO), as KVM does ("Intel generates #GP on attempts to write
 * reserved/RO MSRs": linux arch/x86/kvm/pmu.c kvm_pmu_set_msr; the SDM
 * text itself not read).  _STATUS_RESET clears and _STATUS_SET sets bits of
 * GLOBAL_STATUS (linux arch/x86/events/intel/core.c
 * intel_pmu_ack_status); their own lines keep their value.  AMD's
 * PerfMonV2 status registers follow the same rules (msr/regs/amd_regs.h):
 * PERF_CNTR_GLOBAL_STATUS is read-only ("PerfCntrGlobalStatus is
 * read-only", linux arch/x86/events/amd/core.c), _STATUS_CLR clears
 * (amd_pmu_ack_global_status) and _STATUS_SET sets its bits.
 */
static const struct {
	uint32_t status, clear, set;
} status_regs[] = {
	{ IA32_PERF_GLOBAL_STATUS, IA32_PERF_GLOBAL_STATUS_RESET, IA32_PERF_GLOBAL_STATUS_SET },
	{ AMD_PERF_CNTR_GLOBAL_STATUS, AMD_PERF_CNTR_GLOBAL_STATUS_CLR,
	  AMD_PERF_CNTR_GLOBAL_STATUS_SET },
};

static int write_locked(struct state_ctx *c, unsigned cpu, uint32_t msr, uint64_t val)
{
	int rc = refresh(c, true);
	struct st_reg *r = rc ? NULL : lookup(c, cpu, msr, &rc), *st;
	uint64_t old;

	if (!r)
		return rc;
	for (size_t i = 0; i < sizeof(status_regs) / sizeof(status_regs[0]); i++) {
		if (msr == status_regs[i].status)
			return -EIO;
		if (msr != status_regs[i].clear && msr != status_regs[i].set)
			continue;
		st = lookup(c, cpu, status_regs[i].status, &rc);
		if (!st)
			return 0; /* nothing modelled to clear or set */
		r = st;
		val = msr == status_regs[i].set ? st->val | val : st->val & ~val;
		break;
	}
	old = r->val;
	r->val = val;
	rc = persist(c);
	if (rc)
		r->val = old;
	return rc;
}

static int st_write(void *ctx, unsigned cpu, uint32_t msr, uint64_t val)
{
	struct state_ctx *c = ctx;
	int rc = dir_lock(c, LOCK_EX);

	if (rc)
		return rc;
	rc = write_locked(c, cpu, msr, val);
	dir_lock(c, LOCK_UN);
	return rc;
}

static void st_close(void *ctx)
{
	struct state_ctx *c = ctx;

	if (!c)
		return;
	if (c->dirfd >= 0) {
		/* the spare this handle's writes made, under the lock a writer of
		 * another process holds (a handle that only read takes no lock) */
		if (c->wrote && c->tmp && !dir_lock(c, LOCK_EX)) {
			unlinkat(c->dirfd, c->tmp, 0);
			dir_lock(c, LOCK_UN);
		}
		close(c->dirfd);
	}
	free(c->path);
	free(c->shown);
	free(c->base);
	free(c->tmp);
	for (int i = 0; i < 2; i++) {
		free(c->v[i].text);
		free(c->v[i].regs);
		free(c->v[i].idx);
	}
	free(c->out);
	free(c);
}

/* ------------------------------------------------------------- creation */

/* Room for the file to grow to: its size again, at least STATE_GROW_MIN. */
static size_t room_for(size_t size)
{
	size_t grow = size > STATE_GROW_MIN ? size : STATE_GROW_MIN;

	if (size + grow <= MSR_STATE_FILE_MAX)
		return size + grow;
	return size > MSR_STATE_FILE_MAX ? size : MSR_STATE_FILE_MAX;
}

/* Allocate both views and the rewrite buffer for c->cap bytes. */
static int alloc_views(struct state_ctx *c)
{
	/* The shortest register line, "0 0x0 0x0\n", is 10 bytes; a file
	 * has at most MSR_STATE_LINES_MAX lines. */
	c->regcap = c->cap / 10 + 1;
	if (c->regcap > MSR_STATE_LINES_MAX)
		c->regcap = MSR_STATE_LINES_MAX;
	for (int i = 0; i < 2; i++) {
		c->v[i].text = malloc(c->cap + 1);
		c->v[i].regs = calloc(c->regcap, sizeof(struct st_reg));
		c->v[i].idx = calloc(c->regcap, sizeof(struct st_key));
		if (!c->v[i].text || !c->v[i].regs || !c->v[i].idx)
			return -ENOMEM;
	}
	c->out = malloc(c->cap + c->regcap * HEX_TOKEN_MAX + 1);
	return c->out ? 0 : -ENOMEM;
}

/* Read the whole file into the first view; sets c->mode and c->seen. */
static int load_text(struct state_ctx *c, char **err)
{
	struct stat st;
	size_t got = 0;
	/* Looked at before it is opened: a FIFO or device is never opened. */
	int rc = 0, fd = userfile_open_read(AT_FDCWD, c->path, O_NOFOLLOW);

	if (fd == -ELOOP) {
		text_setf(err, "state file '%s' is a symbolic link: refused (writes "
			 "replace the file at that name; name the file itself)", c->shown);
		return -EPERM;
	}
	if (fd == -EINVAL) {
		text_setf(err, "state file '%s': %s (name a file of 'CPU 0xMSR 0xVALUE' "
			 "lines)", c->shown, USERFILE_NOT_REGULAR);
		return fd;
	}
	if (fd == -EACCES) { /* under sudo: one the invoking user could not read */
		char why[400];

		userfile_read_denied(why, sizeof(why));
		text_setf(err, "state file '%s': %s", c->shown, why);
		return fd;
	}
	if (fd < 0) {
		text_setf(err, "state file '%s': %s", c->shown, strerror(-fd));
		return fd;
	}
	if (fstat(fd, &st) < 0) {
		rc = -errno;
		text_setf(err, "state file '%s': %s", c->shown, strerror(-rc));
		goto out;
	}
	if (st.st_size > MSR_STATE_FILE_MAX) { /* read: st_size bytes at most */
		char why[160];

		rc = -EINVAL;
		userfile_cap_text(why, sizeof(why), (uint64_t)st.st_size, MSR_STATE_FILE_MAX,
				  "a state file");
		text_setf(err, "state file '%s': %s (a state file lists registers as 'CPU "
			  "0xMSR 0xVALUE' lines: doc/state-file.md)", c->shown, why);
		goto out;
	}
	c->mode = st.st_mode & PERM_BITS;
	stamp_of(&st, &c->seen);
	c->cap = room_for((size_t)st.st_size);
	rc = alloc_views(c);
	if (rc)
		goto out;
	rc = read_all(fd, c->v[0].text, (size_t)st.st_size, &got);
	if (!rc && got != (size_t)st.st_size)
		rc = -EIO;
	if (rc) {
		text_setf(err, "state file '%s': read: %s", c->shown, strerror(-rc));
		goto out;
	}
	c->v[0].textlen = got;
out:
	close(fd);
	return rc;
}

/* Split c->path into a directory descriptor and the names inside it. */
static int open_dir(struct state_ctx *c, char **err)
{
	const char *slash = strrchr(c->path, '/');
	char *dir = slash ? strndup(c->path, (size_t)(slash - c->path)) : strdup(".");
	int rc = 0;

	c->base = strdup(slash ? slash + 1 : c->path);
	c->tmp = malloc(strlen(c->base) + sizeof(".tmp"));
	if (!dir || !c->base || !c->tmp) {
		rc = -ENOMEM;
		goto out;
	}
	strcpy(c->tmp, c->base);
	strcat(c->tmp, ".tmp");
	c->dirfd = open(*dir ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->dirfd < 0) {
		rc = -errno;
		text_setf(err, "state file '%s': directory: %s", c->shown,
			 strerror(-rc));
	}
out:
	free(dir);
	return rc;
}

int msr_state_ctx_new(const char *file, void **ctx, char **err)
{
	struct state_ctx *c = calloc(1, sizeof(*c));
	char *dummy = NULL;
	int rc;

	if (!err)
		err = &dummy;
	if (!c)
		return -ENOMEM;
	c->dirfd = -1;
	c->path = strdup(file ? file : "");
	if (c->path) {
		size_t n = esc_str(NULL, 0, c->path) + 1;

		c->shown = malloc(n);
		if (c->shown)
			esc_str(c->shown, n, c->path);
	}
	rc = c->path && c->shown ? 0 : -ENOMEM;
	if (!rc && !*file) {
		text_setf(err, "state file '': empty file name");
		rc = -EINVAL;
	}
	if (!rc) {
		/* the directory first, for its lock: the text is read under it
		 * (refresh says why); a message about the file itself comes
		 * before one about its directory */
		char *derr = NULL;
		int drc = open_dir(c, &derr), locked = !drc && !dir_lock(c, LOCK_SH);

		rc = load_text(c, err);
		if (locked)
			dir_lock(c, LOCK_UN);
		if (!rc && drc) {
			rc = drc;
			text_setf(err, "%s", text_or_empty(derr));
		}
		free(derr);
	}
	if (rc)
		goto out;
	rc = state_parse(&c->v[0], c->regcap, c->shown, err);
out:
	free(dummy);
	if (rc)
		st_close(c);
	else
		*ctx = c;
	return rc;
}

const struct msr_ops msr_state_ops = {
	.name = "state",
	.open = st_open,
	.read = st_read,
	.write = st_write,
	.close = st_close,
};
