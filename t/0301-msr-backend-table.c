/*
 * t/0301-msr-backend-table.c - the table of MSR backends (msr/access/msr.h
 * msr_backends[], msr/sim/msr_backends.c): it holds the backends README
 * "Environment" documents for $BARETMA_MSR, in the order that decides
 * (state:FILE, sim:PROFILE, then a device path template for any other
 * spec); each prefix reaches its backend through msr_open(); a spec no
 * prefix claims ("foo:x") is a device template, as a relative path with a
 * colon is.
 *
 * Expected names and messages are written out by hand from msr/access/msr.h and
 * man baretma, ENVIRONMENT; none is read from the table under test.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msr/access/msr.h"
#include "t/fixture.h"

static char dir[PATH_MAX];

/* check_str with a formatted name. */
#define check_strf(a, b, ...) do {                                            \
	const char *ga_ = (a), *wb_ = (b);                                      \
	if (!ok(ga_ && wb_ && !strcmp(ga_, wb_), __VA_ARGS__))                  \
		printf("#   got '%s', want '%s'\n", ga_ ? ga_ : "(null)", wb_);  \
} while (0)

/* The documented backends, in the order msr_open() tries them. */
static const struct {
	const char *prefix, *name;
	bool hardware;
} documented[] = {
	{ "state:", "state", false },
	{ "sim:", "sim", false },
	{ NULL, "device", true },
};
#define NDOC (sizeof(documented) / sizeof(documented[0]))

static void test_table(void)
{
	size_t n = 0;

	for (const struct msr_backend *b = msr_backends;; b++, n++) {
		bool last = !b->prefix;

		if (n < NDOC) {
			ok(documented[n].prefix ? b->prefix && !strcmp(b->prefix, documented[n].prefix)
						: !b->prefix,
			   "entry %zu: prefix %s", n, documented[n].prefix ? documented[n].prefix
									  : "none (any other spec)");
			check_strf(b->ops ? b->ops->name : "", documented[n].name,
				   "entry %zu: backend %s", n, documented[n].name);
			ok(b->hardware == documented[n].hardware, "entry %zu: %s", n,
			   documented[n].hardware ? "reaches the hardware" : "writes no hardware");
			ok(b->ctx_new && b->what && *b->what, "entry %zu: a constructor and "
			   "what it is for", n);
		}
		if (last)
			break;
	}
	check_int(n + 1, ==, NDOC, "the table has the 3 documented backends, the catch-all last");
}

/* msr_spec_backend and msr_backend_of: the prefix decides, nothing else. */
static void test_choice(void)
{
	static const struct {
		const char *spec, *name;
	} cases[] = {
		{ "state:/x", "state" },
		{ "state:", "state" },          /* the empty file name is the state backend's to refuse */
		{ "sim:/p", "sim" },
		{ "/dev/cpu/%u/msr", "device" },
		{ "/dev/cpu/%u/msr_safe", "device" },
		{ "foo:x", "device" },          /* an unknown prefix: a path template */
		{ "State:/x", "device" },       /* prefixes are case-sensitive */
		{ "stat:/x", "device" },
		{ "xstate:/x", "device" },
		{ "", "device" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		check_strf(msr_spec_backend(cases[i].spec), cases[i].name,
			   "'%s' names the %s backend", cases[i].spec, cases[i].name);
		check_strf(msr_backend_of(cases[i].spec)->ops->name, cases[i].name,
			   "msr_backend_of('%s') is the %s entry", cases[i].spec, cases[i].name);
	}
}

/* Each prefix reaches its own backend's constructor: its handle, or its
 * own message. */
static void test_open(void)
{
	const char *state = t_in(dir, "regs"), *missing = t_in(dir, "missing");
	char spec[PATH_MAX + 16], want[PATH_MAX + 128], where[PATH_MAX];
	struct msr_dev *dev = NULL;
	uint64_t v = 0;
	int rc;

	put_file(state, "0 0x186 0x5\n");
	t_path(spec, "state:%s", state);
	rc = msr_open(spec, &dev);
	check_int(rc, ==, 0, "state:FILE opens");
	check_str(msr_backend_name(dev), "state", "state:FILE is the state backend");
	check_int(msr_ungate(dev), ==, 0, "the state backend can be ungated (no hardware)");
	ok(!msr_read(dev, 0, 0x186, &v) && v == 0x5, "and reads FILE's register (0x5)");
	msr_describe(dev, 0, where, sizeof(where));
	check_str(where, state, "messages name the state file");
	msr_close(dev);

	t_path(spec, "sim:%s", missing);
	dev = NULL;
	rc = msr_open(spec, &dev);
	check_int(rc, ==, -ENOENT, "sim:PROFILE of a missing profile: -ENOENT");
	t_path(want, "cannot read profile '%s': No such file or directory", missing);
	check_str(msr_last_error(), want, "the simulator's own message");
	ok(!dev, "no handle");

	t_path(spec, "state:%s", missing);
	rc = msr_open(spec, &dev);
	check_int(rc, ==, -ENOENT, "state:FILE of a missing file: -ENOENT");
	ok(strstr(msr_last_error(), "state file '") == msr_last_error(),
	   "the state backend's own message: '%s'", msr_last_error());

	rc = msr_open("foo:x", &dev);
	check_int(rc, ==, -EINVAL, "foo:x: -EINVAL, a template without %u");
	check_str(msr_last_error(), "MSR device template 'foo:x': needs exactly one %u (the "
		  "CPU number) and no other % conversion", "the device template's message");

	t_path(spec, "%s/foo:%%u", dir);
	rc = msr_open(spec, &dev);
	check_int(rc, ==, 0, "DIR/foo:%u opens (a template; no node is opened yet)");
	check_str(msr_backend_name(dev), "device", "DIR/foo:%u is the device backend");
	check_int(msr_ungate(dev), ==, -EPERM, "the device backend is never ungated");
	msr_describe(dev, 3, where, sizeof(where));
	t_path(want, "%s/foo:3", dir);
	check_str(where, want, "messages name CPU 3's node from the template");
	msr_close(dev);
}

int main(void)
{
	t_scratch(dir, "0301");
	unsetenv("BARETMA_MSR_TRACE");
	test_table();
	test_choice();
	test_open();
	if (t_rm_rf(dir))
		printf("# could not remove %s\n", dir);
	return done_testing();
}
