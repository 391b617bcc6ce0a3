/* msr/journal/state_dir.c - see state_dir.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "cpu/text.h"
#include "cpu/trust.h"
#include "msr/access/sigsafe.h"
#include "msr/access/msr.h"
#include "msr/open/msr_open.h"
#include "msr/journal/state_dir.h"

/* Links followed in one walk at most: the kernel's MAXSYMLINKS (40,
 * include/linux/namei.h); more is a loop. */
#define STATE_DIR_MAX_LINKS 40

/* The test build's default instead of /run/baretma (msr/journal/state_dir_hooks.c),
 * NULL in the installed library. */
const char *state_dir_test_default(void) __attribute__((weak, visibility("hidden")));

const char *state_dir_default(void)
{
	const char *d = state_dir_test_default ? state_dir_test_default() : NULL;

	return d && *d ? d : "/run/baretma";
}

bool state_dir_dry_run(void)
{
	const char *perf = getenv("BARETMA_PERF");

	if (cpu_source_env_path(NULL))
		return true; /* a CPUID dump: another machine's CPUs */
	if (strcmp(msr_spec_backend(msr_env_spec()), "device"))
		return true; /* state:FILE or sim:PROFILE: no register of this machine */
	/* the perf source's simulator (bench/source/perf_group.h perf_group_env) */
	return perf && !strncmp(perf, "sim:", 4);
}

/* "$TMPDIR/baretma-dry-<euid>" ($TMPDIR only from an environment baretma
 * trusts, else /tmp), in a buffer of the calling thread's. */
static const char *dry_path(void)
{
	static _Thread_local char buf[PATH_MAX];
	const char *t = getenv("TMPDIR");

	if (!t || !*t || t[0] != '/' || trust_env_untrusted(NULL, 0))
		t = "/tmp";
	if ((size_t)snprintf(buf, sizeof(buf), "%s/baretma-dry-%u", t, (unsigned)geteuid()) >=
	    sizeof(buf))
		snprintf(buf, sizeof(buf), "/tmp/baretma-dry-%u", (unsigned)geteuid());
	return buf;
}

const char *state_dir_path(void)
{
	const char *d = getenv("BARETMA_STATE_DIR");

	if (d && *d)
		return d;
	return state_dir_dry_run() ? dry_path() : state_dir_default();
}

bool state_dir_is_dry(void)
{
	const char *d = getenv("BARETMA_STATE_DIR");

	return !(d && *d) && state_dir_dry_run();
}

int state_dir_check(void)
{
	return state_dir_path()[0] == '/' ? 0 : -EINVAL;
}

/*
 * One walk from "/" to the state directory, a component at a time.
 * @rest: what is left to walk (components separated by '/'; a followed
 * link's target is put in front of it).  @shown: the path walked so far as
 * a message would name it (the prefix of $BARETMA_STATE_DIR, or of a
 * followed link's target).  @fd: the directory reached (O_PATH).
 */
struct walk {
	char rest[2 * PATH_MAX];
	char shown[2 * PATH_MAX];
	int fd;
	int links;
	enum state_dir_why refused; /* why it stopped at w->shown */
	struct stat bad;            /* what it stopped at */
};

/* Move the next component of w->rest into @comp (at most NAME_MAX bytes);
 * *last is set when no component follows it.  0, -ENOENT (none left) or
 * -ENAMETOOLONG. */
static int next_comp(struct walk *w, char comp[NAME_MAX + 1], bool *last)
{
	char *p = w->rest, *end;
	size_t len;

	while (*p == '/')
		p++;
	if (!*p)
		return -ENOENT;
	end = strchrnul(p, '/');
	len = (size_t)(end - p);
	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(comp, p, len);
	comp[len] = '\0';
	while (*end == '/')
		end++;
	*last = !*end;
	memmove(w->rest, end, strlen(end) + 1);
	return 0;
}

/* Append "/@comp" to w->shown (cut with "..." where it does not fit). */
static void show(struct walk *w, const char *comp)
{
	size_t len = strlen(w->shown), n = sizeof(w->shown) - len;

	if ((size_t)snprintf(w->shown + len, n, "%s%s", len == 1 ? "" : "/", comp) >= n)
		memcpy(w->shown + sizeof(w->shown) - 4, "...", 4);
}

/*
 * May the link @comp in w->fd be followed?  Only one that no one but root
 * could have made or changed: owned by root, in a directory owned by root
 * that group and others cannot write.  That is /var/run -> /run; a link
 * another user made or could replace (in /tmp, in their own directory) is
 * never followed, whoever runs baretma.
 */
static bool link_trusted(const struct walk *w, const struct stat *link)
{
	struct stat dir;

	if (link->st_uid != 0 || fstat(w->fd, &dir) < 0)
		return false;
	return dir.st_uid == 0 && !(dir.st_mode & (S_IWGRP | S_IWOTH));
}

/*
 * Could anyone but root and the effective user add, rename or remove the
 * entries of the directory @st?  The one rule for every directory from "/"
 * down to the state directory (@last: the state directory itself).  Whoever
 * can rename an entry of a directory on the way can move the state
 * directory aside and put another in its place: its journals hidden,
 * 'pmu restore' would find nothing to restore.
 *   - a parent must be owned by root or the effective user, and not be
 *     writable by group or others unless it is sticky (like /tmp: others
 *     may add entries there but not rename or remove ours, and what they
 *     add is refused at the next step, not being root's or ours);
 *   - the state directory must be the effective user's, writable by no one
 *     else, sticky or not (the journals' and locks' names are fixed).
 * Returns STATE_DIR_OK or why not (STATE_DIR_OWNER, STATE_DIR_WRITABLE).
 */
static enum state_dir_why dir_refusal(const struct stat *st, bool last)
{
	bool owner_ok = st->st_uid == geteuid() || (!last && st->st_uid == 0);
	bool writable = (st->st_mode & (S_IWGRP | S_IWOTH)) && (last || !(st->st_mode & S_ISVTX));

	return !owner_ok ? STATE_DIR_OWNER : writable ? STATE_DIR_WRITABLE : STATE_DIR_OK;
}

/* Check the directory w->fd just reached (@last: the state directory)
 * by dir_refusal: 0, or -EPERM with the refusal in w. */
static int check_dir(struct walk *w, int fd, bool last)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	w->refused = dir_refusal(&st, last);
	if (!w->refused)
		return 0;
	w->bad = st;
	return -EPERM;
}

/* w->fd := "/" (the walk's start, and an absolute link's). */
static int restart(struct walk *w)
{
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (w->fd >= 0)
		close(w->fd);
	w->fd = fd;
	snprintf(w->shown, sizeof(w->shown), "/");
	return check_dir(w, fd, false);
}

/* Follow the trusted link @comp of w->fd: its target goes in front of what
 * is left to walk.  0 or -errno. */
static int follow(struct walk *w, const char *comp)
{
	char target[PATH_MAX];
	size_t rest = strlen(w->rest);
	ssize_t len;
	int rc;

	if (++w->links > STATE_DIR_MAX_LINKS)
		return -ELOOP;
	len = readlinkat(w->fd, comp, target, sizeof(target) - 1);
	if (len < 0)
		return -errno;
	target[len] = '\0';
	if ((size_t)len + 1 + rest + 1 > sizeof(w->rest))
		return -ENAMETOOLONG;
	memmove(w->rest + len + 1, w->rest, rest + 1);
	memcpy(w->rest, target, (size_t)len);
	w->rest[len] = '/';
	if (target[0] == '/' && (rc = restart(w)))
		return rc;
	return 0;
}

/* After an open of @comp with O_NOFOLLOW | O_DIRECTORY failed (errno as it
 * left it): 0 when @comp is a symbolic link (its lstat in @st: O_NOFOLLOW
 * says ELOOP, or O_PATH opened the link itself and O_DIRECTORY said
 * ENOTDIR), -ENOTDIR when it is something else that is no directory, the
 * open's or lstat's -errno otherwise. */
static int is_link(const struct walk *w, const char *comp, struct stat *st)
{
	if (errno != ENOTDIR && errno != ELOOP)
		return -errno;
	if (fstatat(w->fd, comp, st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	return S_ISLNK(st->st_mode) ? 0 : -ENOTDIR;
}

/* Step into the directory @comp of w->fd (not the last component): a
 * directory, or a trusted link to one.  -ELOOP for a link not trusted. */
static int step(struct walk *w, const char *comp)
{
	struct stat st;
	int rc, fd = openat(w->fd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0) {
		close(w->fd);
		w->fd = fd;
		show(w, comp);
		return check_dir(w, fd, false);
	}
	if ((rc = is_link(w, comp, &st)))
		return rc;
	if (!link_trusted(w, &st)) {
		show(w, comp);
		w->refused = STATE_DIR_LINK;
		return -ELOOP;
	}
	return follow(w, comp);
}

static int open_dir(const struct walk *w, const char *comp)
{
	return openat(w->fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* Open (after making it, 0700, when missing and @create) the last
 * component @comp of w->fd: never a link, whoever owns it. */
static int open_last(struct walk *w, const char *comp, bool create, int *dirfd)
{
	struct stat st;
	int fd, rc;

	show(w, comp);
	fd = open_dir(w, comp);
	if (fd < 0 && errno == ENOENT && create) {
		if (mkdirat(w->fd, comp, 0700) < 0 && errno != EEXIST)
			return -errno;
		fd = open_dir(w, comp);
	}
	if (fd < 0) {
		if ((rc = is_link(w, comp, &st)))
			return rc;
		w->refused = STATE_DIR_LINK;
		return -ELOOP;
	}
	/* Checked on the directory opened, not the name (no race with a swap). */
	rc = check_dir(w, fd, true);
	if (rc) {
		close(fd);
		return rc;
	}
	*dirfd = fd;
	return 0;
}

/* The state directory's descriptor in *dirfd, walked from "/"; on -ELOOP
 * or -EPERM what it refused is in @r (may be NULL). */
static int walk_open(bool create, int *dirfd, struct state_dir_refusal *r)
{
	const char *dir = state_dir_path();
	struct walk *w = calloc(1, sizeof(*w));
	char comp[NAME_MAX + 1];
	bool last = false;
	int rc;

	if (!w)
		return -ENOMEM;
	w->fd = -1;
	snprintf(w->rest, sizeof(w->rest), "%s", dir);
	rc = restart(w);
	if (!rc && (rc = next_comp(w, comp, &last)) == -ENOENT) {
		snprintf(comp, sizeof(comp), "."); /* "/" itself */
		last = true;
		rc = 0;
	}
	while (!rc && !last && !(rc = step(w, comp)))
		rc = next_comp(w, comp, &last);
	if (!rc)
		rc = open_last(w, comp, create, dirfd);
	if ((rc == -ELOOP || rc == -EPERM) && w->refused && r) {
		r->why = w->refused;
		/* a followed link's target can make it longer than PATH_MAX: cut, said */
		if ((size_t)snprintf(r->path, sizeof(r->path), "%.*s", (int)sizeof(r->path) - 1,
				     w->shown) < strlen(w->shown))
			memcpy(r->path + sizeof(r->path) - 4, "...", 4);
		r->last = last;
		r->uid = (unsigned)w->bad.st_uid;
		r->mode = (unsigned)w->bad.st_mode & 07777;
	}
	if (w->fd >= 0)
		close(w->fd);
	free(w);
	return rc;
}

int state_dir_refused(struct state_dir_refusal *r)
{
	int fd = -1, rc;

	memset(r, 0, sizeof(*r));
	rc = walk_open(false, &fd, r);
	if (fd >= 0)
		close(fd);
	return (rc == -ELOOP || rc == -EPERM) && r->why ? 0 : -ENOENT;
}

int state_dir_open(bool create, int *dirfd)
{
	const char *dir = state_dir_path();
	int fd = -1, rc = state_dir_check();

	if (rc)
		return rc;
	if (strlen(dir) + 1 + STATE_DIR_NAME_MAX >= PATH_MAX)
		return -ENAMETOOLONG;
	rc = walk_open(create, &fd, NULL);
	if (rc)
		return rc;
	/* Root passes the permission check anyway; others must be able to
	 * create files (the journal, the locks) in it. */
	if (faccessat(fd, ".", W_OK | X_OK, AT_EACCESS) < 0)
		rc = -errno;
	if (rc)
		close(fd);
	else
		*dirfd = fd;
	return rc;
}

int state_dir_write_tmp(int dirfd, const char *tmp, const char *buf, size_t len)
{
	int fd, rc = 0;

	if (unlinkat(dirfd, tmp, 0) < 0 && errno != ENOENT)
		return -errno;
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0600) < 0) /* exactly 0600 whatever the umask */
		rc = -errno;
	if (!rc)
		rc = sigsafe_write_all(fd, buf, len);
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (rc)
		unlinkat(dirfd, tmp, 0);
	return rc;
}

int state_dir_replace(int dirfd, const char *name, const char *buf, size_t len)
{
	char tmp[NAME_MAX + 1];
	struct stat st;
	int rc;

	if ((size_t)snprintf(tmp, sizeof(tmp), ".%s.tmp", name) >= sizeof(tmp))
		return -ENAMETOOLONG;
	/* Only a regular file is replaced: renamed over, a FIFO or a device
	 * node (calibrate -o /dev/null) would be gone. */
	if (!fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) && !S_ISREG(st.st_mode))
		return S_ISLNK(st.st_mode) ? -ELOOP : S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	rc = state_dir_write_tmp(dirfd, tmp, buf, len);
	if (rc)
		return rc;
	if (renameat(dirfd, tmp, dirfd, name) < 0) {
		rc = -errno;
		unlinkat(dirfd, tmp, 0);
	}
	if (!rc && fsync(dirfd) < 0)
		rc = -errno;
	return rc;
}

/* ------------------------------------------------ the files read from it */

int state_dir_file_check(const struct stat *st, char *why, size_t n)
{
	unsigned me = (unsigned)geteuid(), mode = (unsigned)(st->st_mode & 07777);

	if (S_ISLNK(st->st_mode))
		snprintf(why, n, "a symbolic link");
	else if (!S_ISREG(st->st_mode))
		snprintf(why, n, "not a regular file");
	else if (st->st_uid != me)
		snprintf(why, n, "owned by uid %u, not uid %u", (unsigned)st->st_uid, me);
	else if (st->st_mode & (S_IWGRP | S_IWOTH))
		snprintf(why, n, "writable by %s (mode %04o)", (st->st_mode & S_IWGRP) &&
			 (st->st_mode & S_IWOTH) ? "group and others" : st->st_mode & S_IWGRP ?
			 "group" : "others", mode);
	else
		return 0;
	return -EPERM;
}

int state_dir_file_open(int dirfd, const char *name, char *why, size_t n)
{
	struct stat st;
	int fd, rc;

	why[0] = '\0';
	/* Looked at first: a FIFO or a device at the name is never opened. */
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	if ((rc = state_dir_file_check(&st, why, n)))
		return rc;
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return errno == ELOOP ? (snprintf(why, n, "a symbolic link"), -EPERM) : -errno;
	rc = fstat(fd, &st) < 0 ? -errno : state_dir_file_check(&st, why, n);
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

int state_dir_file_text(char **out, const char *kind, const char *path, const char *why)
{
	unsigned me = (unsigned)geteuid();

	return text_setf(out, "%s '%s' is %s: refused (what is in the state directory decides "
			 "what baretma writes to MSRs and what bench subtracts: only regular "
			 "files of uid %u's, writable by no one else, are read there; remove "
			 "it, or chown %u and chmod go-w it if its content is right)", kind, path,
			 why, me, me);
}
