/*
 * bench/study/report_read.c - the files of `baretma report` (report.h): each
 * PATH, a directory read recursively without following a link inside it,
 * each regular file read whole up to REPORT_FILE_MAX, parsed with jansson
 * and its schema checked before its part is taken (report_parts.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/calibration.h"
#include "bench/study/report_int.h"
#include "cpu/cpu.h"
#include "cpu/cpu_dump.h"

/* The schemas read, and their versions (doc/json.md; CPU_BUNDLE_SCHEMA and
 * CALIB_SCHEMA name theirs where they are written).  A version below is
 * an older document, above a newer one: neither is read, as their keys
 * may mean something else.  @kind -1: a baretma document that is no
 * host's part (a report's own, the markers'): left out quietly. */
static const struct {
	const char *name;
	unsigned version;
	int kind;
	const char *schema;
} schemas[] = {
	{ "bundle", 1, REPORT_BUNDLE, CPU_BUNDLE_SCHEMA },
	{ "calibration", 3, REPORT_CALIBRATION, CALIB_SCHEMA },
	{ "bench", 2, REPORT_BENCH, "baretma-bench/2" },
	{ "compare", 2, REPORT_COMPARE, "baretma-compare/2" },
	{ "stat", 1, REPORT_STAT, "baretma-stat/1" },
	{ "validate", 1, REPORT_VALIDATE, "baretma-validate/1" },
	{ "report", 1, -1, "baretma-report/1" },
	{ "markers", 1, -1, "baretma-markers/1" },
};
#define NSCHEMAS (sizeof(schemas) / sizeof(schemas[0]))

#define READS "report reads baretma-bundle/1, baretma-calibration/3, baretma-bench/2, " \
	      "baretma-compare/2, baretma-stat/1 and baretma-validate/1"

/* ------------------------------------------------------- the scanner */

static size_t ws(const char *s, size_t i, size_t len)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	return i;
}

/* After the string opening at @s[i]: the index past its closing quote, or
 * @len when it does not end. */
static size_t skip_string(const char *s, size_t i, size_t len)
{
	for (i++; i < len; ) {
		const char *q = memchr(s + i, '"', len - i);
		size_t j, bs = 0;

		if (!q)
			return len;
		j = (size_t)(q - s);
		while (j - bs > i && s[j - bs - 1] == '\\')
			bs++;
		if (!(bs & 1))
			return j + 1;
		i = j + 1;
	}
	return len;
}

/* After the value at @s[i] (a string, an object, an array, a scalar), or
 * @len when it does not end. */
static size_t skip_value(const char *s, size_t i, size_t len)
{
	unsigned depth = 0;

	if (i < len && s[i] == '"')
		return skip_string(s, i, len);
	if (i < len && s[i] != '{' && s[i] != '[') {
		while (i < len && !strchr(",}] \t\r\n", s[i]))
			i++;
		return i;
	}
	while (i < len) {
		if (s[i] == '"') {
			i = skip_string(s, i, len);
			continue;
		}
		if (s[i] == '{' || s[i] == '[')
			depth++;
		else if ((s[i] == '}' || s[i] == ']') && !--depth)
			return i + 1;
		i++;
	}
	return len;
}

/*
 * The top-level member @key's string value made `null` before jansson
 * parses @s (the text after it moved up: jansson reads spaces no faster
 * than a string's bytes): a bundle's cpuid_dump is most of its bytes (a
 * 72-CPU one, 320 of 380 KiB), and a report reads nothing of it; jansson
 * would spend 85 % of the parse on it.  Returns @s's new length; anything
 * unexpected on the way leaves @s as it is, for jansson to judge.
 */
static size_t blank_member(char *s, size_t len, const char *key)
{
	size_t klen = strlen(key), i = ws(s, 0, len);

	if (i >= len || s[i++] != '{')
		return len;
	for (;;) {
		size_t k0 = ws(s, i, len), k1;
		bool match;

		if (k0 >= len || s[k0] != '"' || (k1 = skip_string(s, k0, len)) >= len)
			return len;
		match = k1 - k0 - 2 == klen && !memcmp(s + k0 + 1, key, klen);
		i = ws(s, k1, len);
		if (i >= len || s[i] != ':')
			return len;
		i = ws(s, i + 1, len);
		if (match) {
			size_t e = i < len && s[i] == '"' ? skip_string(s, i, len) : len;

			if (e >= len || e - i < 4)
				return len;
			memcpy(s + i, "null", 4);
			memmove(s + i + 4, s + e, len - e + 1); /* its NUL too */
			return len - (e - i - 4);
		}
		i = ws(s, skip_value(s, i, len), len);
		if (i >= len || s[i++] != ',')
			return len;
	}
}

/* ------------------------------------------------------- a file */

static bool ends_with(const char *path, const char *tail)
{
	size_t n = strlen(path), t = strlen(tail);

	return n >= t && !strcmp(path + n - t, tail);
}

static bool ends_json(const char *path)
{
	return ends_with(path, ".json");
}

/* @fd's bytes (at most REPORT_FILE_MAX) into *@buf (malloc'd, NUL-ended).
 * Returns 0, -EFBIG (over the cap), -ENOMEM, -errno of read(2). */
static int read_all(int fd, off_t size, char **buf, size_t *len)
{
	size_t cap = (size_t)size + 1, n = 0;
	char *b;

	if ((unsigned long long)size > REPORT_FILE_MAX)
		return -EFBIG;
	if (!(b = malloc(cap + 1)))
		return -ENOMEM;
	for (;;) {
		ssize_t got;

		if (n == cap) { /* it grew since fstat */
			char *g;

			if (cap > REPORT_FILE_MAX) {
				free(b);
				return -EFBIG;
			}
			cap = cap * 2 > REPORT_FILE_MAX + 1u ? REPORT_FILE_MAX + 1u : cap * 2;
			if (!(g = realloc(b, cap + 1))) {
				free(b);
				return -ENOMEM;
			}
			b = g;
		}
		got = read(fd, b + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = -errno;

			free(b);
			return e;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	if (n > REPORT_FILE_MAX) {
		free(b);
		return -EFBIG;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

/* The kind of @doc's schema, or -1 (*@cause, *@remedy: why not; *@quiet:
 * a baretma document that is no host's). */
static int schema_kind(json_t *doc, char *buf, size_t n, const char **cause,
		       const char **remedy, bool *quiet)
{
	const char *s = json_string_value(json_object_get(doc, "schema")), *slash;
	unsigned long v;
	char *end;

	*remedy = READS;
	if (!s) {
		*cause = json_object_get(doc, "schema") ? "its schema is not a string"
							: "it names no schema: not a document of "
							  "baretma's that report reads";
		return -1;
	}
	slash = strrchr(s, '/');
	if (strncmp(s, "baretma-", 8) || !slash || slash == s + 8 || !slash[1] ||
	    (v = strtoul(slash + 1, &end, 10), *end) || slash[1] < '0' || slash[1] > '9') {
		snprintf(buf, n, "schema '%.200s' is not one of baretma's (baretma-NAME/N)", s);
		*cause = buf;
		return -1;
	}
	for (size_t i = 0; i < NSCHEMAS; i++) {
		if (strlen(schemas[i].name) != (size_t)(slash - s - 8) ||
		    strncmp(s + 8, schemas[i].name, (size_t)(slash - s - 8)))
			continue;
		if (v == schemas[i].version) {
			*quiet = schemas[i].kind < 0;
			*cause = *quiet ? "a baretma document that is no host's part" : NULL;
			*remedy = NULL;
			return schemas[i].kind;
		}
		snprintf(buf, n, "schema %.200s is %s than the %s this baretma reads", s,
			 v > schemas[i].version ? "newer" : "older", schemas[i].schema);
		*cause = buf;
		*remedy = v > schemas[i].version ? "read it with a baretma as new as the one "
						   "that wrote it"
						 : "run the command that wrote it again with this "
						   "baretma";
		return -1;
	}
	snprintf(buf, n, "unknown schema '%.200s'", s);
	*cause = buf;
	return -1;
}

/* Why jansson refused the @len bytes it was given (of a file of @size). */
static const char *parse_cause(const json_error_t *e, size_t len, size_t size, char *buf,
			       size_t n, const char **remedy)
{
	if (strstr(e->text, "end of file expected")) {
		snprintf(buf, n, "more than one JSON document (line %d: %.120s)", e->line, e->text);
		*remedy = "give stat's document without -I (its JSON Lines are a stream of "
			  "records), one document a file";
	} else if ((size_t)e->position >= len || strstr(e->text, "premature end") ||
		   strstr(e->text, "end of file")) {
		snprintf(buf, n, "truncated JSON: it ends at byte %zu (%.120s)", size, e->text);
		*remedy = "the file was cut short (a full disk, a copy stopped): write it again";
	} else {
		snprintf(buf, n, "not valid JSON: %.160s (line %d, column %d)", e->text, e->line,
			 e->column);
		*remedy = "give the file as baretma wrote it";
	}
	return buf;
}

/* The file at @path skipped unread: @size bytes, over the cap. */
static int too_big(struct report *r, const char *path, unsigned long long size)
{
	char cause[96];

	snprintf(cause, sizeof(cause), "%llu bytes: over the %u MiB a report reads", size,
		 REPORT_FILE_MAX >> 20);
	return report_skip_add(r, path, cause, "a baretma document is at most a few MiB "
			       "(a 512-CPU bundle): is it one?", false);
}

/* One file's @len bytes at @buf (NUL-ended, at most REPORT_FILE_MAX,
 * rewritten in place), already counted in r->files: report_add_data. */
static int read_buf(struct report *r, const char *path, char *buf, size_t len, bool named)
{
	char why[512];
	const char *cause = NULL, *remedy = NULL;
	json_error_t jerr;
	json_t *doc = NULL;
	bool quiet = false;
	size_t blen;
	int rc, kind;

	if (ws(buf, 0, len) >= len || buf[ws(buf, 0, len)] != '{') {
		quiet = !named && !ends_json(path);
		return report_skip_add(r, path, len ? "not a JSON document" : "empty",
				       quiet ? NULL : "give a document baretma wrote: " READS,
				       quiet);
	}
	blen = blank_member(buf, len, "cpuid_dump");
	doc = json_loadb(buf, blen, JSON_REJECT_DUPLICATES, &jerr);
	if (!doc) {
		cause = parse_cause(&jerr, blen, len, why, sizeof(why), &remedy);
		return report_skip_add(r, path, cause, remedy, false);
	}
	kind = schema_kind(doc, why, sizeof(why), &cause, &remedy, &quiet);
	if (kind < 0)
		rc = report_skip_add(r, path, cause, remedy, quiet);
	else if ((rc = report_read_doc(r, path, (enum report_kind)kind, doc, why, sizeof(why),
				       &cause, &remedy)) == -EINVAL)
		rc = report_skip_add(r, path, cause, remedy, false);
	json_decref(doc);
	return rc;
}

/* The regular file @fd (@st its fstat) at @path: @named on the command
 * line (then a file that is not JSON is a bad one). */
/* A writer that renames its output once whole (examples/slurm/host.sh
 * writes .NAME.part) and was stopped leaves the part, empty or a log's
 * text or half a document: a host's file that is not there, skipped
 * unread (doc/report.md "What it reads"). */
static bool partial(struct report *r, const char *path, int *rc)
{
	if (!ends_with(path, ".part"))
		return false;
	*rc = report_skip_add(r, path, "a partial file: its writer did not finish (killed?)",
			      "run that host's task again: the file is renamed once it is whole",
			      false);
	return true;
}

static int read_file(struct report *r, int fd, const struct stat *st, const char *path,
		     bool named)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	r->files++;
	if (partial(r, path, &rc))
		return rc;
	rc = read_all(fd, st->st_size, &buf, &len);
	if (rc == -EFBIG)
		return too_big(r, path, (unsigned long long)st->st_size);
	if (rc == -ENOMEM)
		return rc;
	if (rc)
		return report_skip_add(r, path, strerror(-rc), "can the file be read?", false);
	rc = read_buf(r, path, buf, len, named);
	free(buf);
	return rc;
}

int report_add_data(struct report *r, const char *path, char *data, size_t len, bool named)
{
	int rc;

	if (r->priv->finished || data[len])
		return -EINVAL;
	r->files++;
	if (partial(r, path, &rc))
		return rc;
	if (len > REPORT_FILE_MAX)
		return too_big(r, path, len);
	return read_buf(r, path, data, len, named);
}

/* ------------------------------------------------------- a directory */

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	char *p = malloc(n + strlen(name) + 2);

	if (p)
		sprintf(p, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
	return p;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in the directory @dfd, sorted (*@names, *@n; free each). */
static int list_dir(int dfd, char ***names, size_t *n)
{
	int fd = dup(dfd);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	size_t cap = 0;
	struct dirent *de;
	int rc = 0;

	*names = NULL;
	*n = 0;
	if (!d) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		return rc;
	}
	while (!rc && (errno = 0, de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (*n == cap) {
			char **g = realloc(*names, (cap = cap ? 2 * cap : 64) * sizeof(*g));

			if (!g) {
				rc = -ENOMEM;
				break;
			}
			*names = g;
		}
		if (!((*names)[*n] = strdup(de->d_name)))
			rc = -ENOMEM;
		else
			(*n)++;
	}
	if (!rc && errno)
		rc = -errno;
	closedir(d);
	if (*n)
		qsort(*names, *n, sizeof(**names), cmp_names);
	return rc;
}

static int walk(struct report *r, int dfd, const struct stat *dst, const char *path,
		unsigned depth);

/* The entry @name of the directory @dfd (at @path). */
static int entry(struct report *r, int dfd, const char *name, const char *path, unsigned depth)
{
	struct stat st, fst;
	int fd, rc = 0;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return report_skip_add(r, path, strerror(errno), "can the directory be read?",
				       false);
	if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
		r->files++; /* an entry not read is still one of the files named */
	if (S_ISLNK(st.st_mode))
		return report_skip_add(r, path, "a symbolic link inside a directory: not followed",
				       "give the file it points to as a PATH of its own", false);
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return report_skip_add(r, path, "not a regular file (a FIFO, socket or device): "
				       "not read", "report reads regular files", false);
	if (S_ISDIR(st.st_mode) && depth >= REPORT_DEPTH_MAX) {
		char cause[64];

		snprintf(cause, sizeof(cause), "deeper than %u directories: not read",
			 REPORT_DEPTH_MAX);
		return report_skip_add(r, path, cause, "give it as a PATH of its own", false);
	}
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY |
		    (S_ISDIR(st.st_mode) ? O_DIRECTORY : 0));
	if (fd < 0)
		return errno == ENOMEM ? -ENOMEM : report_skip_add(r, path, strerror(errno),
								    "can it be read?", false);
	if (fstat(fd, &fst) || fst.st_ino != st.st_ino || fst.st_dev != st.st_dev)
		rc = report_skip_add(r, path, "changed while it was read: not read",
				     "read the results once they are written", false);
	else if (S_ISDIR(fst.st_mode))
		rc = walk(r, fd, &fst, path, depth + 1);
	else
		rc = read_file(r, fd, &fst, path, false);
	close(fd);
	return rc;
}

static int walk(struct report *r, int dfd, const struct stat *dst, const char *path,
		unsigned depth)
{
	struct report_priv *v = r->priv;
	char **names;
	size_t n;
	int rc;

	for (unsigned i = 0; i < v->ndirs; i++)
		if (v->dirs_dev[i] == dst->st_dev && v->dirs_ino[i] == dst->st_ino)
			return report_skip_add(r, path, "a directory met again inside itself (a "
					       "bind mount): not read twice", NULL, false);
	if ((rc = list_dir(dfd, &names, &n)) && rc != -ENOMEM)
		rc = report_skip_add(r, path, strerror(-rc), "can the directory be read?", false);
	v->dirs_dev[v->ndirs] = dst->st_dev;
	v->dirs_ino[v->ndirs++] = dst->st_ino;
	for (size_t i = 0; i < n; i++) {
		char *p = rc ? NULL : join(path, names[i]);

		if (!rc && !p)
			rc = -ENOMEM;
		if (!rc)
			rc = entry(r, dfd, names[i], p, depth);
		free(p);
		free(names[i]);
	}
	free(names);
	v->ndirs--;
	return rc;
}

int report_add_path(struct report *r, const char *path)
{
	struct stat st, fst;
	int fd, rc;

	if (r->priv->finished)
		return -EINVAL;
	/* a PATH named is followed, as find -H does: the user chose it */
	if (stat(path, &st))
		return -errno;
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return report_skip_add(r, path, "not a regular file or a directory: not read",
				       "report reads regular files and directories", false);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &fst))
		rc = -errno;
	else if (S_ISDIR(fst.st_mode))
		rc = walk(r, fd, &fst, path, 0);
	else if (S_ISREG(fst.st_mode))
		rc = read_file(r, fd, &fst, path, true);
	else
		rc = report_skip_add(r, path, "not a regular file or a directory: not read",
				     "report reads regular files and directories", false);
	close(fd);
	return rc;
}
