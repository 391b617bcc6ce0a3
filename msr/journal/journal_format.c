/*
 * msr/journal/journal_format.c - the text of the run journal (format: msr/journal/journal.h):
 * the percent-encoding of setting PATH and VALUE, rendering a journal to
 * its file text, and the strict parser behind journal_load(),
 * journal_data_free() and journal_last_error().
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "cpu/escape.h"
#include "cpu/knobs.h"
#include "cpu/text.h"
#include "cpu/userfile.h"
#include "msr/journal/journal.h"
#include "msr/journal/journal_int.h"
#include "msr/journal/journal_rules.h"
#include "msr/regs/msr_names.h"
#include "msr/regs/msr_policy.h"
#include "msr/journal/state_dir.h"
#include "msr/access/sigsafe.h"

#define JOURNAL_MAGIC "# baretma journal v2"

_Static_assert(SETTING_VALUE_MAX == JOURNAL_SETTING_MAX,
	       "a saved setting value is written back whole");

/*
 * journal_last_error()'s text, per thread, on the heap (it quotes a line of
 * the file, up to JOURNAL_LINE_MAX bytes before escaping): a thread-specific
 * key whose destructor frees a thread's text when it ends.
 */
static _Thread_local char *last_error;
static struct text_thread error_thread = TEXT_THREAD_INIT;

void journal_error_set(char *text)
{
	text_thread_keep(&error_thread, &last_error, text);
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

/* ----------------------------------------------- what a journal holds */

/* One of the files baretma changes, with a value that setting takes. */
int journal_setting_check(const char *path, const char *value)
{
	enum setting s;

	if (setting_of_file(path, &s))
		return -ENOENT;
	return setting_value_ok(s, value) ? 0 : -EINVAL;
}

/* Run and enable: what pmu_program() and gp_program() save; write: the write policy's
 * registers, or any register marked unsafe-msr. */
int journal_reg_check(enum journal_kind kind, const struct journal_reg *r)
{
	if (kind != JOURNAL_MSR_WRITE)
		return r->unsafe ? -EPERM
				 : pmu_journal_saves(r->msr) || gp_journal_saves(r->msr) ? 0 : -EINVAL;
	return r->unsafe || msr_policy_knows(r->msr) ? 0 : -EINVAL;
}

/* The full path of @path under $BARETMA_SYSROOT into @full. */
int journal_resolve(const char *path, char *full, size_t n)
{
	cpu_sysfs_path(full, n, path);
	return strlen(full) + 1 >= n ? -ENAMETOOLONG : 0;
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
size_t journal_render(const struct journal *j)
{
	const struct journal_data *d = &j->d;
	char *t = j->text, path[3 * JOURNAL_SETTING_MAX], value[3 * JOURNAL_SETTING_MAX];
	size_t o;

	o = (size_t)snprintf(t, HEADER_MAX, JOURNAL_MAGIC "\npid %ld\nstarttime %llu\n"
			     "time %lld\ncmd %s\nbackend %s\nkind %s\nuser_only %d\n",
			     (long)d->pid, d->starttime, d->time, d->cmd, d->backend,
			     journal_kind_name(d->kind), d->user_only ? 1 : 0);
	for (int i = 0; i < d->nregs + j->staged_regs; i++) {
		const struct journal_reg *r = &d->regs[i];

		memcpy(t + o, "reg ", 4);
		o += 4;
		o += sigsafe_put_dec(t + o, r->cpu);
		t[o++] = ' ';
		o += sigsafe_put_hex(t + o, r->msr);
		t[o++] = ' ';
		o += sigsafe_put_hex(t + o, r->saved);
		if (r->unsafe) {
			t[o++] = ' ';
			memcpy(t + o, JOURNAL_UNSAFE_MARK, strlen(JOURNAL_UNSAFE_MARK));
			o += strlen(JOURNAL_UNSAFE_MARK);
		}
		t[o++] = '\n';
	}
	for (int i = 0; i < d->nsettings + j->staged_settings; i++) {
		/* Both fit: checked by journal_save_setting. */
		encode(d->settings[i].path, path, sizeof(path));
		encode(d->settings[i].value, value, sizeof(value));
		o += (size_t)snprintf(t + o, SETTING_LINE_MAX, "setting %s %s\n", path, value);
	}
	return o;
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
	char **err;               /* the detail, on the heap (journal_load_fd) */
};

static int fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The message quotes journal text (a line may be JOURNAL_LINE_MAX bytes):
 * escaped (cpu/escape.h) before it is kept, whole.  -EINVAL, or -ENOMEM
 * when there is no memory to say it. */
static int fail(struct parser *p, const char *fmt, ...)
{
	char *what = NULL, *raw = NULL;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = text_vsetf(&what, fmt, ap);
	va_end(ap);
	if (!rc)
		rc = text_setf(&raw, "line %u: %s", p->line, what);
	free(what);
	if (rc)
		return rc;
	free(*p->err);
	*p->err = esc_strdup(raw);
	free(raw);
	return *p->err ? -EINVAL : -ENOMEM;
}

/* Decimal, no sign, no leading zeros, at most @max, the whole of [s, e). */
bool journal_dec_exact(const char *s, const char *e, unsigned long long max,
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

/* The register may be in a journal of this kind (msr/journal/journal.h). */
static int check_reg(struct parser *p, const struct journal_reg *r)
{
	const char *kind = journal_kind_name(p->d->kind);
	char label[64];

	msr_reg_label(r->msr, label, sizeof(label));
	switch (journal_reg_check(p->d->kind, r)) {
	case 0:
		return 0;
	case -EPERM:
		return fail(p, "reg: '%s' in a journal of kind %s (only 'msr write "
			    "--unsafe-msr' marks a register, in a journal of kind write)",
			    JOURNAL_UNSAFE_MARK, kind);
	default:
		if (p->d->kind == JOURNAL_MSR_WRITE)
			return fail(p, "reg: %s is outside the write policy and not marked '%s' "
				    "(msr write saves no such register without --unsafe-msr)",
				    label, JOURNAL_UNSAFE_MARK);
		return fail(p, "reg: %s is not a register a journal of kind %s holds (only "
			    "the PMU registers baretma programs: global controls, counters, "
			    "event selects, IA32_PERF_METRICS)", label, kind);
	}
}

static int parse_reg(struct parser *p, const char *v, const char *e)
{
	struct journal_data *d = p->d;
	const char *sp = memchr(v, ' ', (size_t)(e - v));
	struct journal_reg r;
	unsigned long long cpu;
	uint64_t msr, val;
	int dup, rc;

	if (!sp || !journal_dec_exact(v, sp, JOURNAL_MAX_CPUS - 1, &cpu))
		return fail(p, "reg: CPU must be a decimal number below %d", JOURNAL_MAX_CPUS);
	v = sp + 1;
	if (!hex_token(&v, e, 8, &msr) || v == e || *v != ' ')
		return fail(p, "reg: bad hex MSR (want 0x and 1-8 lower-case hex digits, "
			    "no leading zeros)");
	v++;
	if (!hex_token(&v, e, 16, &val) || (v != e && *v != ' '))
		return fail(p, "reg: bad hex value (want 0x and 1-16 lower-case hex digits, "
			    "no leading zeros)");
	r = (struct journal_reg){ .cpu = (unsigned)cpu, .msr = (uint32_t)msr, .saved = val };
	if (v != e) {
		if ((size_t)(e - v) != 1 + strlen(JOURNAL_UNSAFE_MARK) ||
		    memcmp(v + 1, JOURNAL_UNSAFE_MARK, strlen(JOURNAL_UNSAFE_MARK)))
			return fail(p, "reg: after the value, only ' %s' or the end of the line",
				    JOURNAL_UNSAFE_MARK);
		r.unsafe = true;
	}
	rc = check_reg(p, &r);
	if (rc)
		return rc;
	dup = find_reg(d, d->nregs, (unsigned)cpu, (uint32_t)msr);
	if (dup >= 0)
		return fail(p, "duplicate reg cpu %llu msr 0x%" PRIx64 " (first at line %u)",
			    cpu, msr, p->reg_line[dup]);
	if (d->nregs >= JOURNAL_MAX_REGS)
		return fail(p, "more than %d registers", JOURNAL_MAX_REGS);
	p->reg_line[d->nregs] = p->line;
	add_reg(d, &r);
	return 0;
}

static int parse_setting(struct parser *p, const char *v, const char *e)
{
	struct journal_data *d = p->d;
	const char *sp = memchr(v, ' ', (size_t)(e - v));
	struct journal_setting *s = &d->settings[d->nsettings];
	enum setting which;

	if (d->nsettings >= JOURNAL_MAX_SETTINGS)
		return fail(p, "more than %d settings", JOURNAL_MAX_SETTINGS);
	if (!sp || sp == v || sp + 1 == e || memchr(sp + 1, ' ', (size_t)(e - sp - 1)))
		return fail(p, "expected 'setting PATH VALUE'");
	if (decode(v, (size_t)(sp - v), s->path, sizeof(s->path)) ||
	    decode(sp + 1, (size_t)(e - sp - 1), s->value, sizeof(s->value)))
		return fail(p, "setting: bad percent-encoding");
	/* journal_setting_check, with the reason for the message */
	if (setting_of_file(s->path, &which))
		return fail(p, "setting: path '%s' is not a file baretma changes (the rdpmc "
			    "files of perf's cpu, cpu_core, cpu_atom PMUs, "
			    CPU_KNOB_NMI_WATCHDOG ", " CPU_KNOB_MSR_ALLOW_WRITES ")", s->path);
	if (!setting_value_ok(which, s->value))
		return fail(p, "setting: value '%s' of '%s' is not one %s takes (%s)", s->value,
			    s->path, setting_name(which), setting_values_text(which));
	for (int i = 0; i < d->nsettings; i++)
		if (strcmp(d->settings[i].path, s->path) == 0)
			return fail(p, "duplicate setting '%s' (first at line %u)", s->path,
				    p->setting_line[i]);
	if (journal_resolve(s->path, s->full, sizeof(s->full)))
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
		if (!journal_dec_exact(v, e, INT32_MAX, &x) || x == 0)
			return fail(p, "pid must be a decimal number 1..2147483647");
		d->pid = (pid_t)x;
		return 0;
	case 1:
		if (!journal_dec_exact(v, e, UINT64_MAX, &x))
			return fail(p, "starttime must be a decimal number");
		d->starttime = x;
		return 0;
	case 2:
		if (!journal_dec_exact(v, e, INT64_MAX, &x))
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

/* Read the regular file behind @fd, by the state directory's rule
 * (msr/journal/state_dir.h: ours, not group/other-writable; else -EPERM, @why
 * says why) and at most JOURNAL_TEXT_MAX bytes (-EFBIG: *@size its size). */
static int read_file(int fd, char **text, size_t *len, uint64_t *size, char *why, size_t n)
{
	struct stat st;
	int rc;

	if (fstat(fd, &st) < 0)
		return -errno;
	if ((rc = state_dir_file_check(&st, why, n)))
		return rc;
	return userfile_read_all(fd, JOURNAL_TEXT_MAX, text, len, size);
}

static size_t count_lines(const char *text, size_t len)
{
	size_t n = 0;

	for (const char *s = text; (s = memchr(s, '\n', len - (size_t)(s - text))); s++)
		n++;
	return n;
}

/* Load the journal open on @fd into @d; *@err receives the detail. */
int journal_load_fd(int fd, struct journal_data *d, char **err)
{
	struct parser p = { .d = d, .err = err };
	char *text = NULL, why[160];
	size_t len = 0, lines;
	uint64_t size = 0;
	int rc;

	memset(d, 0, sizeof(*d));
	free(*err);
	*err = NULL;
	rc = read_file(fd, &text, &len, &size, why, sizeof(why));
	if (rc == -EFBIG) {
		userfile_cap_text(why, sizeof(why), size, JOURNAL_TEXT_MAX, "a journal");
		return text_setf(err, "%s", why) ? -ENOMEM : -EINVAL;
	}
	if (rc == -EPERM && text_setf(err, "%s", why))
		return -ENOMEM;
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

	char *detail = NULL;

	journal_error_set(NULL);
	if (fd < 0)
		return errno == ELOOP ? -EPERM : -errno;
	rc = journal_load_fd(fd, out, &detail);
	close(fd);
	journal_error_set(detail);
	return rc;
}

void journal_data_free(struct journal_data *d)
{
	if (d)
		data_free(d);
}

const char *journal_last_error(void)
{
	return text_or_empty(last_error);
}
