/*
 * t/tap.h - a small TAP producer for baretma's C tests (git's t/ style).
 *
 * plan(n) or done_testing(); ok(cond, fmt...); skip(n, why);
 * check_u64(a, op, b, name) and check_dbl(a, b, tol, name) print both values
 * and file:line on failure.  skip_all(why) prints "1..0 # SKIP why" and exits.
 * t_strf(fmt...) builds a path (or any string) in new memory; t_path(buf,
 * fmt...) one in a PATH_MAX array, bailing out rather than cutting it.
 * t_signals_default() puts every signal back to its default action,
 * unblocked: a test that sends signals calls it first in main().
 * Every test here must assert a value that comes from outside the code
 * under test (a hand-worked vector or a real dump's known answer).
 */
#ifndef BARETMA_TAP_H
#define BARETMA_TAP_H

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_n, tap_failed, tap_planned;

static inline void plan(int n)
{
	tap_planned = n;
	printf("1..%d\n", n);
}

/*
 * t_signals_default - every signal at its default action and none blocked,
 * whatever the test inherited: a run in the background, under nohup or
 * below a `trap '' INT` starts with SIGINT, SIGQUIT or SIGHUP ignored, and
 * the library then (rightly) leaves an ignored signal alone, so a test
 * that raises it would see nothing happen (msr/journal/guard_signals.h).
 */
static inline void t_signals_default(void)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t none;

	for (int sig = 1; sig < NSIG; sig++)
		sigaction(sig, &dfl, NULL); /* SIGKILL, SIGSTOP: EINVAL, fine */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static inline void skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	exit(0);
}

static inline int tap_vok(int cond, const char *file, int line, const char *fmt, va_list ap)
{
	tap_n++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	vprintf(fmt, ap);
	printf("\n");
	if (!cond) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	fflush(stdout);
	return cond;
}

static inline int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = tap_vok(cond, file, line, fmt, ap);
	va_end(ap);
	return r;
}

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define check_u64(a, op, b, name) do {                                        \
	uint64_t ta_ = (uint64_t)(a), tb_ = (uint64_t)(b);                     \
	if (!tap_ok(ta_ op tb_, __FILE__, __LINE__, "%s", (name)))             \
		printf("#   got 0x%" PRIx64 " (%" PRIu64 "), want %s 0x%" PRIx64   \
		       " (%" PRIu64 ")\n", ta_, ta_, #op, tb_, tb_);               \
} while (0)

#define check_int(a, op, b, name) do {                                        \
	long long ta_ = (long long)(a), tb_ = (long long)(b);                  \
	if (!tap_ok(ta_ op tb_, __FILE__, __LINE__, "%s", (name)))             \
		printf("#   got %lld, want %s %lld\n", ta_, #op, tb_);         \
} while (0)

#define check_dbl(a, b, tol, name) do {                                       \
	double ta_ = (double)(a), tb_ = (double)(b);                           \
	if (!tap_ok(fabs(ta_ - tb_) <= (tol), __FILE__, __LINE__, "%s", (name))) \
		printf("#   got %.9g, want %.9g (tolerance %g)\n", ta_, tb_,   \
		       (double)(tol));                                           \
} while (0)

#define check_str(a, b, name) do {                                            \
	const char *ta_ = (a), *tb_ = (b);                                     \
	int eq_ = ta_ && tb_ && strcmp(ta_, tb_) == 0;                         \
	if (!tap_ok(eq_, __FILE__, __LINE__, "%s", (name)))                    \
		printf("#   got '%s', want '%s'\n", ta_ ? ta_ : "(null)",     \
		       tb_ ? tb_ : "(null)");                                    \
} while (0)

static inline void skip(int n, const char *why)
{
	for (int i = 0; i < n; i++)
		printf("ok %d # SKIP %s\n", ++tap_n, why);
}

/* Close the run: print the plan if none was given, exit non-zero on failure. */
static inline int done_testing(void)
{
	if (!tap_planned)
		printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

/*
 * t_strf - printf into new memory (vasprintf): a test's paths are built
 * here, never in a fixed buffer, so no length of TMPDIR or of the source
 * and build trees can cut or overflow them.  Out of memory: "Bail out!".
 * The caller may free() the result.
 */
static inline __attribute__((format(printf, 1, 2))) char *t_strf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		printf("Bail out! out of memory formatting '%s'\n", fmt);
		exit(1);
	}
	return s;
}

/*
 * t_path(buf, fmt...) - snprintf a path into the array @buf (PATH_MAX bytes
 * hold any path the kernel takes): one that does not fit is "Bail out!",
 * never a cut path.  Returns @buf.
 */
static inline __attribute__((format(printf, 3, 4))) char *t_path_(char *buf, size_t n,
								   const char *fmt, ...)
{
	va_list ap;
	int w;

	va_start(ap, fmt);
	w = vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	if (w < 0 || (size_t)w >= n) {
		printf("Bail out! a path of %d bytes does not fit in %zu: '%.60s...'\n", w, n, buf);
		exit(1);
	}
	return buf;
}
#define t_path(buf, ...) ({                                                    \
	_Static_assert(!__builtin_types_compatible_p(__typeof__(buf), char *),  \
		       "t_path: buf must be an array");                       \
	t_path_((buf), sizeof(buf), __VA_ARGS__);                              \
})

/* Test fixtures: write @text to @path (exit 1 on failure). */
static inline void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* The file's text (static buffer, up to 8 KiB), or "" when missing. */
static inline const char *get_file(const char *path)
{
	static char buf[8192];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}


#endif
