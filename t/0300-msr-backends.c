/*
 * t/0300-msr-backends.c - the MSR access layer (msr/access/msr.h): the state-file
 * backend (parse, keyed registers, persistence), device path templates, the
 * device backend's errors, the $BARETMA_MSR_TRACE lines and the remedies.
 *
 * Expected values are written out by hand from msr/access/msr.h and
 * linux arch/x86/kernel/msr.c (the driver's errors); none is computed by the code
 * under test.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "msr/regs/intel_regs.h"
#include "msr/access/msr.h"
#include "msr/open/msr_open.h"
#include "t/fixture.h"

static char dir[PATH_MAX];




/* msr_open(@prefix @arg). */
static struct msr_dev *open_spec(const char *prefix, const char *arg, int *rc)
{
	char spec[PATH_MAX + 8];
	struct msr_dev *dev = NULL;

	t_path(spec, "%s%s", prefix, arg);
	*rc = msr_open(spec, &dev);
	/* the backends' own behaviour: no journal's gate in front (the gate:
	 * t/0311) */
	if (!*rc && strcmp(prefix, "") && msr_ungate(dev))
		*rc = -EPERM;
	return dev;
}

/* Registers of two CPUs; 0x186 and 0x187 are adjacent MSRs. */
static const char good_text[] =
	"# two CPUs\n"
	"0 0x186 0x1\n"
	"0 0x187 0x2\n"
	"\n"
	"0 0x38f 0x70000000f\n"
	"1 0x38F 0X00FF   # upper case, leading zeros and a comment\n";

static void test_good_file(void)
{
	const char *f = t_in(dir, "good");
	uint64_t v = 0;
	int rc;
	struct msr_dev *dev;

	put_file(f, good_text);
	dev = open_spec("state:", f, &rc);
	check_int(rc, ==, 0, "state: good file opens");
	check_str(msr_last_error(), "", "no error text after a good open");
	check_str(msr_backend_name(dev), "state", "backend name is state");
	check_int(msr_read(dev, 0, 0x186, &v), ==, 0, "read cpu 0 0x186");
	check_u64(v, ==, 0x1, "cpu 0 0x186 = 0x1");
	check_int(msr_read(dev, 0, 0x187, &v), ==, 0, "read cpu 0 0x187");
	check_u64(v, ==, 0x2, "cpu 0 0x187 = 0x2 (its own line, not bytes of 0x186)");
	check_int(msr_read(dev, 1, 0x38f, &v), ==, 0, "read cpu 1 0x38f");
	check_u64(v, ==, 0xff, "cpu 1 0x38f = 0xff (0X00FF)");
	v = 0x5a;
	check_int(msr_read(dev, 0, 0x188, &v), ==, -EIO, "unlisted register reads -EIO");
	check_u64(v, ==, 0x5a, "failed read leaves the output alone");
	check_int(msr_read(dev, 2, 0x186, &v), ==, -ENXIO, "unknown CPU reads -ENXIO");
	check_int(msr_open_cpu(dev, 1), ==, 0, "msr_open_cpu(1) ok");
	check_int(msr_open_cpu(dev, 2), ==, -ENXIO, "msr_open_cpu(2) -ENXIO");
	check_int(msr_write(dev, 0, 0x188, 1), ==, -EIO, "unlisted register write -EIO");
	check_int(msr_write(dev, 3, 0x186, 1), ==, -ENXIO, "unknown CPU write -ENXIO");
	check_str(get_file(f), good_text, "failed writes leave the file as it was");

	/* Keyed by (cpu, msr): writing 0x186 must not touch 0x187. */
	check_int(msr_write(dev, 0, 0x186, 0xffffffffffffffffull), ==, 0, "write 0x186");
	check_int(msr_read(dev, 0, 0x187, &v), ==, 0, "read 0x187 after writing 0x186");
	check_u64(v, ==, 0x2, "0x187 unchanged by a write to 0x186");
	check_str(get_file(f),
		  "# two CPUs\n"
		  "0 0x186 0xffffffffffffffff\n"
		  "0 0x187 0x2\n"
		  "\n"
		  "0 0x38f 0x70000000f\n"
		  "1 0x38F 0X00FF   # upper case, leading zeros and a comment\n",
		  "the write is in the file when msr_write returns");

	/* A second handle sees the persisted value. */
	{
		struct msr_dev *d2 = open_spec("state:", f, &rc);

		check_int(rc, ==, 0, "re-open while the first handle is open");
		check_int(msr_read(d2, 0, 0x186, &v), ==, 0, "re-opened read 0x186");
		check_u64(v, ==, 0xffffffffffffffffull, "re-opened handle reads the write");
		msr_close(d2);
	}
	check_int(msr_write(dev, 1, 0x38f, 0x1000800000000ull), ==, 0, "write cpu 1 0x38f");
	check_str(get_file(f),
		  "# two CPUs\n"
		  "0 0x186 0xffffffffffffffff\n"
		  "0 0x187 0x2\n"
		  "\n"
		  "0 0x38f 0x70000000f\n"
		  "1 0x38F 0x1000800000000   # upper case, leading zeros and a comment\n",
		  "only the value token is rewritten; comment kept");
	check_int(msr_write(dev, 0, 0x186, 0x1), ==, 0, "write 0x186 back");
	check_int(msr_write(dev, 1, 0x38f, 0xff), ==, 0, "write cpu 1 0x38f back");
	check_str(get_file(f), good_text, "original values give back the original bytes");
	msr_close(dev);
	/* a write swaps FILE with its spare FILE.tmp (msr/access/msr_state.c);
	 * the handle that wrote removes it at close */
	check_int(access(t_in(dir, "good.tmp"), F_OK), ==, -1, "no FILE.tmp left behind once closed");
}

static void test_malformed(void)
{
	static const char *bad[] = {
		"0 0x38f\n",                     /* no value */
		"0 38f 0x1\n",                   /* MSR without 0x */
		"x 0x38f 0x1\n",                 /* CPU not decimal */
		"-1 0x38f 0x1\n",                /* negative CPU */
		"0 0x38f 0x1 junk\n",            /* trailing text */
		"0 0x100000000 0x1\n",           /* MSR wider than 32 bits */
		"0 0x38f 0x10000000000000000\n", /* value wider than 64 bits */
		"0 0x38f 0xzz\n",                /* not hex */
		"0 0x38f 0x\n",                  /* no digits */
		"0 0x38f 0x1z\n",                /* junk glued to the value */
		"0x0 0x38f 0x1\n",               /* CPU in hex */
	};
	const char *f = t_in(dir, "bad");
	char want[PATH_MAX + 512];
	int rc;

	t_path(want, "state file '%s': line 3: ", f);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		char text[128];
		struct msr_dev *dev;

		snprintf(text, sizeof(text), "# header\n0 0x186 0x0\n%s0 0x187 0x0\n", bad[i]);
		put_file(f, text);
		dev = open_spec("state:", f, &rc);
		check_int(rc, ==, -EINVAL, "malformed line rejected");
		ok(dev == NULL, "no handle for a malformed file");
		ok(strncmp(msr_last_error(), want, strlen(want)) == 0,
		   "message names the file and line 3 for '%.*s'",
		   (int)strlen(bad[i]) - 1, bad[i]);
		if (strncmp(msr_last_error(), want, strlen(want)))
			printf("#   got '%s'\n", msr_last_error());
	}
	put_file(f, "0 0x38f 0x1\n1 0x38f 0x1\n0 0x38F 0x2\n");
	open_spec("state:", f, &rc);
	check_int(rc, ==, -EINVAL, "duplicate (cpu, msr) rejected");
	t_path(want, "state file '%s': line 3: cpu 0 msr 0x38f listed twice (first at line 1)", f);
	check_str(msr_last_error(), want, "duplicate message names both lines");

	open_spec("state:", t_in(dir, "missing"), &rc);
	check_int(rc, ==, -ENOENT, "missing state file -ENOENT");
	open_spec("state:", "", &rc);
	check_int(rc, ==, -EINVAL, "empty state file name -EINVAL");
}

/* IA32_PERF_GLOBAL_STATUS read-only, _RESET write-1-to-clear, _SET sets. */
static void test_status_model(void)
{
	const char *f = t_in(dir, "status");
	static const char text[] =
		"0 0x38e 0x8000000800000001\n"
		"0 0x390 0x0\n"
		"0 0x391 0x0\n";
	uint64_t v = 0;
	int rc;
	struct msr_dev *dev;

	put_file(f, text);
	dev = open_spec("state:", f, &rc);
	check_int(rc, ==, 0, "status file opens");
	check_int(msr_write(dev, 0, IA32_PERF_GLOBAL_STATUS, 0), ==, -EIO,
		  "GLOBAL_STATUS is read-only (-EIO)");
	check_int(msr_write(dev, 0, IA32_PERF_GLOBAL_STATUS_RESET, 1ull << 35), ==, 0,
		  "write bit 35 to GLOBAL_STATUS_RESET");
	msr_read(dev, 0, IA32_PERF_GLOBAL_STATUS, &v);
	check_u64(v, ==, 0x8000000000000001ull, "bit 35 cleared, bits 63 and 0 kept");
	msr_read(dev, 0, IA32_PERF_GLOBAL_STATUS_RESET, &v);
	check_u64(v, ==, 0, "GLOBAL_STATUS_RESET line unchanged");
	check_int(msr_write(dev, 0, IA32_PERF_GLOBAL_STATUS_SET, 1ull << 35), ==, 0,
		  "write bit 35 to GLOBAL_STATUS_SET");
	check_str(get_file(f), text, "status set back: original bytes");
	msr_close(dev);
}

/* Replace @path with @text the way msr/access/msr.h asks other writers to: a new
 * file renamed over it. */
static void replace_file(const char *path, const char *text)
{
	char tmp[PATH_MAX];

	t_path(tmp, "%s.other", path);
	put_file(tmp, text);
	if (rename(tmp, path)) {
		perror(path);
		exit(1);
	}
}

/* Another process's writes are seen: the file is read again when its
 * stat (device, inode, size, mtime) changed (msr/access/msr.h). */
static void test_reload(void)
{
	const char *f = t_in(dir, "shared");
	uint64_t v = 0;
	int rc;
	struct msr_dev *dev;
	char big[80 * 1024];

	put_file(f, "0 0x38d 0x3333\n0 0x38f 0x1000f0000000f\n");
	dev = open_spec("state:", f, &rc);
	check_int(rc, ==, 0, "reload: open");
	check_int(msr_read(dev, 0, 0x38d, &v), ==, 0, "reload: read");
	check_u64(v, ==, 0x3333, "reload: 0x3333 as in the file");
	replace_file(f, "# changed by another process\n0 0x38d 0x333\n0 0x38f 0x1000f0000000f\n");
	check_int(msr_read(dev, 0, 0x38d, &v), ==, 0, "reload: read after another writer");
	check_u64(v, ==, 0x333, "reload: the other writer's 0x333 is seen");
	check_int(msr_write(dev, 0, 0x38f, 0x70000000f), ==, 0, "reload: write another register");
	check_str(get_file(f), "# changed by another process\n0 0x38d 0x333\n0 0x38f 0x70000000f\n",
		  "reload: the write keeps the other writer's text and value");
	/* The same size and a new inode still count as a change. */
	replace_file(f, "# changed by another process\n0 0x38d 0x444\n0 0x38f 0x70000000f\n");
	check_int(msr_read(dev, 0, 0x38d, &v), ==, 0, "reload: same size, new file");
	check_u64(v, ==, 0x444, "reload: 0x444 seen");
	replace_file(f, "0 0x38d zz\n");
	check_int(msr_read(dev, 0, 0x38d, &v), ==, -EINVAL, "reload: malformed now: -EINVAL");
	check_int(msr_write(dev, 0, 0x38d, 0x1), ==, -EINVAL, "reload: malformed: writes refused too");
	check_str(get_file(f), "0 0x38d zz\n", "reload: a malformed file is never overwritten");
	replace_file(f, "0 0x38d 0x555\n");
	check_int(msr_read(dev, 0, 0x38d, &v), ==, 0, "reload: good again");
	check_u64(v, ==, 0x555, "reload: 0x555");
	check_int(msr_read(dev, 0, 0x38f, &v), ==, -EIO, "reload: a register gone from the file: -EIO");
	/* Room to grow: the file's size again, at least 64 KiB. */
	memset(big, '#', sizeof(big) - 16);
	snprintf(big + sizeof(big) - 16, 16, "\n0 0x38d 0x6\n");
	replace_file(f, big);
	check_int(msr_read(dev, 0, 0x38d, &v), ==, -EFBIG, "reload: grown past the room: -EFBIG");
	msr_close(dev);
	dev = open_spec("state:", f, &rc);
	check_int(rc, ==, 0, "reload: a new handle opens the big file");
	check_int(msr_read(dev, 0, 0x38d, &v), ==, 0, "reload: and reads it");
	check_u64(v, ==, 0x6, "reload: 0x6");
	msr_close(dev);
}

static void test_templates(void)
{
	char buf[256];
	int rc;
	struct msr_dev *dev = open_spec("", "/dev/cpu/%u/msr", &rc);

	/* msr_open opens no CPU: nothing here touches a device. */
	check_int(rc, ==, 0, "'/dev/cpu/%u/msr' accepted");
	check_str(msr_backend_name(dev), "device", "backend name is device");
	msr_describe(dev, 3, buf, sizeof(buf));
	check_str(buf, "/dev/cpu/3/msr", "describe cpu 3");
	msr_describe(dev, 3, buf, 8);
	check_str(buf, "/dev...", "describe into 8 bytes: cut, and ends in '...'");
	msr_close(dev);
	open_spec("", "/x/%u/%u", &rc);
	check_int(rc, ==, -EINVAL, "two %u rejected");
	ok(strstr(msr_last_error(), "/x/%u/%u") != NULL, "message names the template");
	open_spec("", "/x/%s", &rc);
	check_int(rc, ==, -EINVAL, "%s rejected");
	open_spec("", "/x/%u/%d", &rc);
	check_int(rc, ==, -EINVAL, "%u plus %d rejected");
	open_spec("", "/x/msr", &rc);
	check_int(rc, ==, -EINVAL, "no %u rejected");
	open_spec("", "/x/%", &rc);
	check_int(rc, ==, -EINVAL, "trailing % rejected");
	dev = open_spec("", "/x/100%%/%u/msr_safe", &rc);
	check_int(rc, ==, 0, "%% is a literal percent");
	msr_describe(dev, 12, buf, sizeof(buf));
	check_str(buf, "/x/100%/12/msr_safe", "describe with %% and cpu 12");
	msr_close(dev);
	check_int(msr_device_path("/d/%u/msr", 4294967295u, buf, sizeof(buf)), ==, 0,
		  "largest CPU number expands");
	check_str(buf, "/d/4294967295/msr", "cpu 4294967295 in full");
	check_int(msr_device_path("/d/%u/msr", 10, buf, 9), ==, -ENAMETOOLONG,
		  "too long for the buffer");

	/* spec NULL: $BARETMA_MSR, then the default. */
	setenv("BARETMA_MSR", "/env/%u/msr", 1);
	check_int(msr_open(NULL, &dev), ==, 0, "NULL spec takes $BARETMA_MSR");
	msr_describe(dev, 1, buf, sizeof(buf));
	check_str(buf, "/env/1/msr", "$BARETMA_MSR template used");
	msr_close(dev);
	unsetenv("BARETMA_MSR");
	check_int(msr_open(NULL, &dev), ==, 0, "NULL spec, no env: default");
	msr_describe(dev, 2, buf, sizeof(buf));
	check_str(buf, "/dev/cpu/2/msr", "default template /dev/cpu/%u/msr");
	msr_close(dev);
}

/*
 * The device backend only uses MSR device nodes (msr_device_node_ok); no
 * test machine has one it could use safely, so the offset mapping and the
 * read-only fallback are checked through a context that takes a regular
 * file for a node (msr_device_ctx_new_checked: the seam for tests).  That
 * msr_open() refuses the same file is checked here and in t/0641.
 */
static int regular_as_node(const struct stat *st, unsigned cpu)
{
	return S_ISREG(st->st_mode) ? 0 : -ENODEV;
}

/*
 * The read-only fallback through template @spec (cpu 0's node mode 0400,
 * bytes 0..0x1f): 0, or a bit per failed check: 1 the node opens
 * read-write after all (the check would prove nothing), 2 the read fails,
 * 4 it reads another value than bytes 0x10..0x17, 8 the write is not
 * -EPERM.  Plain exits: it also runs in a child.
 */
static int readonly_checks(const char *spec)
{
	const struct msr_ops *ops = &msr_device_ops;
	void *ctx = NULL;
	char node[PATH_MAX];
	uint64_t v = 0;
	int rc = 0, fd;

	if (msr_device_path(spec, 0, node, sizeof(node)) ||
	    msr_device_ctx_new_checked(spec, regular_as_node, &ctx))
		return 16;
	fd = open(node, O_RDWR);
	if (fd >= 0) {
		close(fd);
		rc |= 1;
	}
	if (ops->read(ctx, 0, 0x10, &v))
		rc |= 2;
	else if (v != 0x1716151413121110ull)
		rc |= 4;
	if (ops->write(ctx, 0, 0x10, 0) != -EPERM)
		rc |= 8;
	ops->close(ctx);
	return rc;
}

/*
 * readonly_checks() as uid/gid 65534 in a child: the tree dev/0/msr is
 * given to 65534 (node 0400, directories 0700) and the child, still root,
 * enters dev/ first, so the template is relative ("%u/msr") and no
 * directory above dev/ (TMPDIR's, maybe 0700) needs to let 65534 through.
 * Returns readonly_checks()'s answer, or 32 when the child could not
 * drop to 65534 or enter dev/.
 */
static int readonly_as_nobody(void)
{
	int status = 0;
	pid_t pid;

	if (chown(t_in(dir, "dev"), 65534, 65534) || chown(t_in(dir, "dev/0"), 65534, 65534) ||
	    chown(t_in(dir, "dev/0/msr"), 65534, 65534))
		return 32;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (chdir(t_in(dir, "dev")) || setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(32);
		_exit(readonly_checks("%u/msr"));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 64;
	return WEXITSTATUS(status);
}

static void test_device(void)
{
	const struct msr_ops *ops = &msr_device_ops;
	char spec[PATH_MAX], path[PATH_MAX];
	uint64_t v = 0;
	int rc, fd;
	struct msr_dev *dev;
	void *ctx = NULL;

	t_path(spec, "%s/nonexistent/%%u/msr", dir);
	dev = open_spec("", spec, &rc);
	check_int(rc, ==, 0, "missing device: msr_open still succeeds");
	check_int(msr_open_cpu(dev, 0), ==, -ENOENT, "missing node: -ENOENT at msr_open_cpu");
	check_int(msr_read(dev, 0, IA32_PERF_GLOBAL_CTRL, &v), ==, -ENOENT,
		  "missing node: read -ENOENT");
	msr_describe(dev, 0, path, sizeof(path));
	t_path(spec, "%s/nonexistent/0/msr", dir);
	check_str(path, spec, "describe names the node path");
	msr_close(dev);

	/* pread/pwrite of 8 bytes at offset = MSR index (linux arch/x86/kernel/msr.c).
	 * A regular file stands in for the node only to check that mapping. */
	mkdir(t_in(dir, "dev"), 0700);
	mkdir(t_in(dir, "dev/0"), 0700);
	fd = open(t_in(dir, "dev/0/msr"), O_RDWR | O_CREAT | O_TRUNC, 0600);
	for (unsigned i = 0; i < 0x20; i++) {
		unsigned char b = (unsigned char)i;
		if (write(fd, &b, 1) != 1)
			exit(1);
	}
	close(fd);
	t_path(spec, "%s/dev/%%u/msr", dir);
	dev = open_spec("", spec, &rc);
	check_int(msr_read(dev, 0, 0x10, &v), ==, -ENODEV,
		  "msr_open's context refuses a regular file for a node: -ENODEV");
	msr_close(dev);
	check_int(msr_device_ctx_new_checked(spec, regular_as_node, &ctx), ==, 0,
		  "a context that takes regular files for nodes");
	check_int(ops->read(ctx, 0, 0x10, &v), ==, 0, "device read at offset 0x10");
	check_u64(v, ==, 0x1716151413121110ull, "8 bytes little-endian from offset 0x10");
	check_int(ops->write(ctx, 0, 0x8, 0x1122334455667788ull), ==, 0, "device write at 0x8");
	check_int(ops->read(ctx, 0, 0x8, &v), ==, 0, "device read back 0x8");
	check_u64(v, ==, 0x1122334455667788ull, "value written at offset 0x8");
	check_int(ops->read(ctx, 0, 0x100, &v), ==, -EIO, "short read past the end -EIO");
	check_int(ops->read(ctx, 1, 0x0, &v), ==, -ENOENT, "cpu 1 has no node: -ENOENT");
	ops->close(ctx);

	/* Read-only fallback: a 0400 node.  Root (CAP_DAC_OVERRIDE) opens it
	 * read-write anyway, so as root the check runs in a child that has
	 * dropped to uid/gid 65534 (no capabilities left), as t/0343 does. */
	chmod(t_in(dir, "dev/0/msr"), 0400);
	fd = open(t_in(dir, "dev/0/msr"), O_RDWR);
	if (fd < 0) {
		check_int(readonly_checks(spec), ==, 0, "read-only node: reads, writes -EPERM");
	} else if (geteuid() == 0) {
		close(fd);
		check_int(readonly_as_nobody(), ==, 0,
			  "read-only node as uid 65534: reads, writes -EPERM");
	} else {
		close(fd);
		skip(1, "not root, yet a 0400 file opens read-write (capabilities): cannot drop them");
	}
}

static void test_trace(void)
{
	const char *f = t_in(dir, "traced"), *tr = t_in(dir, "trace");
	uint64_t v;
	int rc;
	struct msr_dev *dev;

	put_file(f, good_text);
	setenv("BARETMA_MSR_TRACE", tr, 1);
	dev = open_spec("state:", f, &rc);
	check_int(rc, ==, 0, "open with a trace file");
	msr_read(dev, 0, 0x186, &v);
	msr_write(dev, 0, 0x38f, 0x70000000full);
	msr_read(dev, 0, 0x188, &v);
	msr_write(dev, 7, 0x38f, 0x1);
	msr_write(dev, 0, 0x187, 0x0);
	msr_close(dev);
	unsetenv("BARETMA_MSR_TRACE");
	check_str(get_file(tr),
		  "rd 0 0x186 0x1\n"
		  "wr 0 0x38f 0x70000000f\n"
		  "rd 0 0x188 0x0 EIO\n"
		  "wr 7 0x38f 0x1 ENXIO\n"
		  "wr 0 0x187 0x0\n",
		  "trace lines, errno names on failures");

	setenv("BARETMA_MSR_TRACE", t_in(dir, "no/such/dir/trace"), 1);
	dev = open_spec("state:", f, &rc);
	unsetenv("BARETMA_MSR_TRACE");
	check_int(rc, ==, -ENOENT, "unopenable trace file fails msr_open");
	ok(strstr(msr_last_error(), "BARETMA_MSR_TRACE") != NULL, "message names the variable");
}

/* msr_last_fault: the last failed access, kept across successful ones. */
static void test_fault(void)
{
	const char *f = t_in(dir, "fault");
	struct msr_fault ft = { 0 };
	uint64_t v;
	int rc;
	struct msr_dev *dev;

	put_file(f, good_text);
	dev = open_spec("state:", f, &rc);
	ok(!msr_last_fault(dev, &ft), "no fault after msr_open");
	msr_read(dev, 0, 0x186, &v);
	ok(!msr_last_fault(dev, &ft), "no fault after a good read");
	check_int(msr_read(dev, 0, 0x188, &v), ==, -EIO, "read of a missing register: -EIO");
	msr_read(dev, 0, 0x186, &v);
	ok(msr_last_fault(dev, &ft) && ft.op == MSR_OP_READ && ft.cpu == 0 && ft.msr == 0x188 &&
	   ft.err == -EIO, "the failed read (cpu 0, 0x188, -EIO) outlives a good read");
	check_int(msr_write(dev, 1, 0x38e, 0x5), ==, -EIO, "write of a missing register: -EIO");
	ok(msr_last_fault(dev, &ft) && ft.op == MSR_OP_WRITE && ft.cpu == 1 && ft.msr == 0x38e &&
	   ft.value == 0x5 && ft.err == -EIO, "the failed write: cpu 1, 0x38e, value 0x5, -EIO");
	check_int(msr_open_cpu(dev, 7), ==, -ENXIO, "open of a CPU the file lacks: -ENXIO");
	ok(msr_last_fault(dev, &ft) && ft.op == MSR_OP_OPEN && ft.cpu == 7 && ft.err == -ENXIO,
	   "the failed open: cpu 7, -ENXIO");
	msr_fault_clear(dev);
	ok(!msr_last_fault(dev, &ft), "msr_fault_clear forgets it");
	msr_close(dev);
}

static void test_remedy(void)
{
	check_str(msr_remedy(-ENOENT), "try: modprobe msr", "remedy ENOENT");
	check_str(msr_remedy(-EACCES), "run as root with CAP_SYS_RAWIO; check kernel "
		  "lockdown and msr.allow_writes", "remedy EACCES");
	check_str(msr_remedy(-EPERM), "run as root with CAP_SYS_RAWIO; check kernel "
		  "lockdown and msr.allow_writes", "remedy EPERM");
	check_str(msr_remedy(-EIO), "this register does not exist on this CPU",
		  "remedy EIO");
	check_str(msr_remedy(-ENXIO), "the CPU is offline or absent", "remedy ENXIO");
	check_str(msr_remedy(-EINVAL), "", "no remedy for EINVAL");
}

int main(void)
{
	t_scratch(dir, "0300");
	unsetenv("BARETMA_MSR_TRACE");
	test_good_file();
	test_malformed();
	test_status_model();
	test_reload();
	test_templates();
	test_device();
	test_trace();
	test_fault();
	test_remedy();
	if (t_rm_rf(dir))
		printf("# could not remove %s\n", dir);
	return done_testing();
}
