/*
 * bench/study/report.h - `baretma report PATH...`: one view of a lab's
 * fleet from the documents its hosts wrote (doc/report.md).
 *
 * What it reads, as the untrusted files they are (report_read.c): each
 * PATH a file or a directory read recursively (regular files only; a
 * symbolic link inside a directory is named and not followed; one named
 * as a PATH is, as find -H does), each file at most REPORT_FILE_MAX bytes,
 * parsed with jansson (duplicate keys refused) and its schema checked:
 *   baretma-bundle/1       validate --bundle: identity, environment, checks,
 *                          and its calibration member
 *   baretma-calibration/3  the calibration file (calibrate, --json, -o)
 *   baretma-bench/2        bench --json: Top-down level 1 per kernel
 *   baretma-compare/2      compare --json: its verdicts, as one check
 *   baretma-stat/1         stat --json (the end document): Top-down level 1
 *   baretma-validate/1     validate --json: the checks
 * A file of another schema, an older or a newer version, truncated or not
 * JSON, missing a required field or of the wrong type, naming no host
 * (written before `host` was recorded) is named with the reason and
 * skipped (struct report_skip).  Only a small summary of each host is
 * kept, never the documents.
 *
 * Hosts are told apart by (host.hostname, host.machine_id), never by file
 * names.  A host's files of different kinds are its parts, merged: the
 * checks from its validate document, else its bundle's member; the
 * calibration from its calibration file, else its bundle's member; the
 * environment from its bundle, else its bench, else its calibration.  Two
 * files of one kind claiming one host are both named and skipped (never
 * merged, never "the last wins"); files of one host naming different CPUs
 * are all named and skipped.
 *
 * What it finds (report_group.c): hosts grouped by CPU (vendor, family,
 * model, stepping); in each group every setting of the environment that
 * differs, with the hosts on each side; per check its PASS / FAIL / SKIP
 * counts and each failing host's message; per figure (the calibration's
 * bracket cost, noise floor and resolution per backend; Top-down level 1
 * per kernel) the median, quartiles and range over the group's hosts and
 * the hosts beyond the robust limit of the median (report_robust).
 *
 * Library code (bench/study/): never prints, never exits; 0 or -errno.
 */
#ifndef BARETMA_REPORT_H
#define BARETMA_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/stats.h"

/* The largest file read, in bytes: a 512-CPU bundle is a few MiB (a 72-CPU
 * one about 380 KiB, most of it its cpuid_dump); past this a file is
 * named and skipped unread. */
#define REPORT_FILE_MAX (32u << 20)
/* The deepest directory read below a PATH. */
#define REPORT_DEPTH_MAX 32
/* The robust limit: |x - median| > k * REPORT_MAD_SCALE * MAD, k by default
 * REPORT_K_DEFAULT (Iglewicz and Hoaglin, "How to Detect and Handle
 * Outliers", ASQC 1993: the modified z-score 0.6745 (x - median) / MAD
 * beyond 3.5; 1.4826 = 1 / 0.6745 makes the MAD a consistent estimate of
 * a normal distribution's standard deviation). */
#define REPORT_K_DEFAULT 3.5
#define REPORT_MAD_SCALE 1.4826
/* Fewer hosts than this in a group: no robust limit, no outlier judged. */
#define REPORT_MIN_HOSTS 3
/* The longest string kept from a document (a hostname, a setting, a
 * check's message is cut there, at a UTF-8 boundary). */
#define REPORT_TEXT_MAX 400

/* ------------------------------------------------- the robust limit */

/*
 * One figure over a group's hosts: its statistics (bench/stats.h: median,
 * type-7 quartiles, min, max, unscaled MAD), the scale 1.4826 MAD, the
 * limit k x scale, the floor, and the cut each host is judged by:
 * max(limit, floor).  @judged: at least REPORT_MIN_HOSTS values and a
 * finite k x scale (else no limit: @limit and @cut NAN, no outlier; the
 * reader refuses values that could overflow it, report_parts.c).
 */
struct report_robust {
	struct bench_stats st;
	double scale;   /* REPORT_MAD_SCALE * st.mad */
	double limit;   /* k * scale; NAN when not judged */
	double floor;   /* the figure's floor, in its unit */
	double cut;     /* max(limit, floor); NAN when not judged */
	bool judged;
};

/*
 * report_robust - judge @v[0..n-1] (not modified) with @k and @floor (>=
 * 0: the smallest cut, so that a MAD of 0 - more than half the hosts alike
 * - judges a host by a difference that shows, not by any): *@out, and per
 * value @dir[i] +1 (above: v[i] - median > cut), -1 (below), 0 (within,
 * or not judged).  @dir may be NULL.  Returns 0, or -EINVAL (n == 0, @k
 * not positive, @floor negative or not finite), -ENOMEM.  Pure.
 */
int report_robust(const double *v, size_t n, double k, double floor, struct report_robust *out,
		  signed char *dir);

/* ------------------------------------------------------- the fleet */

/* What a file is: its schema's kind. */
enum report_kind {
	REPORT_BUNDLE, REPORT_CALIBRATION, REPORT_BENCH, REPORT_COMPARE, REPORT_STAT,
	REPORT_VALIDATE, REPORT_NKINDS
};

/* report_kind_name - "bundle", "calibration", "bench", "compare", "stat",
 * "validate". */
const char *report_kind_name(enum report_kind k);

/* The settings compared within a group: the brand (CPUID), then the
 * "environment" object's (doc/json.md "Environment"). */
enum report_setting {
	REPORT_SET_BRAND, REPORT_SET_MICROCODE, REPORT_SET_KERNEL, REPORT_SET_SMT_CONTROL,
	REPORT_SET_SMT_ACTIVE, REPORT_SET_GOVERNOR, REPORT_SET_NMI_WATCHDOG,
	REPORT_SET_MSR_ALLOW_WRITES, REPORT_SET_HYPERVISOR, REPORT_NSETTINGS
};

/* report_setting_name - the JSON key: "brand", "microcode", "kernel",
 * "smt_control", "smt_active", "governor", "nmi_watchdog",
 * "msr_allow_writes", "hypervisor". */
const char *report_setting_name(enum report_setting s);

enum report_status { REPORT_PASS, REPORT_FAIL, REPORT_SKIP };

/* report_status_name - "PASS", "FAIL", "SKIP". */
const char *report_status_name(enum report_status s);

/* A CPU as a document names it: -1 where it does not (compare names no
 * vendor or stepping); vendor "" then. */
struct report_cpu {
	char vendor[16];      /* CPUID leaf 0's "GenuineIntel" */
	int family, model, stepping; /* display family and model, decimal */
};

/* A file named and skipped, or (@quiet) left out as no document of a host
 * (a file that is not JSON in a directory, a report's own document):
 * named only with -v.  @cause and @remedy on the heap (free with the
 * report); bytes from the file may be in @cause: escape before printing. */
struct report_skip {
	char *path;
	char *cause;
	char *remedy;
	bool quiet;
};

/* A figure: what is compared across a group's hosts. */
enum report_section { REPORT_SEC_CALIBRATION, REPORT_SEC_TOPDOWN };
struct report_figure {
	enum report_section section;
	char *subject;        /* the backend ("rdpmc"), or the kernel ("retire-light",
			       * "stat: sleep 1") */
	const char *item;     /* "bracket_tsc_ticks", "bracket_slots", "noise_floor_pp",
			       * "resolution_cycles"; "tma_retiring", ... */
	const char *unit;     /* "TSC ticks", "slots", "pp", "cycles", "percent" */
	const char *source;   /* the kind of document: "calibration", "bench", "stat" */
};

/* One host's check. */
struct report_check {
	unsigned id;          /* report.checks[id] */
	enum report_status status; /* FAIL if any CPU failed it, else PASS if any
				    * passed, else SKIP */
	char *message;        /* FAIL: "cpu 0: measured ...; expected ..."; else NULL */
};

/* One host's value of a figure. */
struct report_value {
	unsigned fig;         /* report.figs[fig] */
	double value;         /* in the figure's unit */
	double bound;         /* Top-down: its bound_pp; NAN: none */
};

/* A host: its identity, CPU, settings, checks and values, and its files. */
struct report_host {
	char *hostname;
	char *machine_id;     /* NULL: null in the documents */
	char *name;           /* how the output names it: the hostname, or
			       * "hostname[machine-id's first 8]" where two hosts
			       * share a hostname */
	struct report_cpu cpu;
	char *uarch;          /* "Golden Cove", "Golden Cove + Gracemont"; NULL unknown */
	bool has_env;         /* some part gave an environment */
	char *setting[REPORT_NSETTINGS]; /* NULL: null or not recorded */
	char *path[REPORT_NKINDS];       /* its file of each kind, NULL: none */
	struct report_check *checks;
	unsigned nchecks;
	struct report_value *values;
	unsigned nvalues;
	bool has_source[3];   /* calibration, bench, stat: it has that document */
	bool unchecked;       /* it has checks, every one SKIP: none could be made
			       * (no PMU, a hypervisor hid it): no pass, no FAIL */
};

/* One distinct value of a setting in a group, and its hosts. */
struct report_setting_value {
	const char *value;    /* NULL: null (unknown) */
	unsigned n;
	unsigned *hosts;      /* indices into report.hosts */
};
struct report_setting_group {
	unsigned nvalues;     /* > 1: it differs; most hosts first */
	struct report_setting_value *v;
};

/* One check over a group: its counts and the failing hosts. */
struct report_check_group {
	unsigned id;
	unsigned count[3];    /* by enum report_status */
	unsigned nfail;
	unsigned *fail_hosts; /* indices into report.hosts; the message is the
			       * host's check's */
	const char **fail_messages;
};

/* One figure over a group. */
struct report_figure_group {
	unsigned fig;
	struct report_robust r;
	size_t n;
	unsigned *hosts;      /* the hosts with a value, in the group's order */
	double *values, *bounds;
	signed char *dir;     /* +1 above, -1 below, 0 */
	unsigned noutliers;
	unsigned nmissing;    /* hosts with the figure's document but no value */
	unsigned *missing;
	unsigned nabsent;     /* hosts of the group without the figure's document */
	unsigned *absent;
};

struct report_group {
	struct report_cpu cpu;
	const char *brand;    /* the brand of most of its hosts (NULL none) */
	const char *uarch;
	unsigned nhosts;
	unsigned *hosts;      /* indices into report.hosts, by name */
	unsigned nenv;        /* hosts with an environment (the settings' hosts) */
	struct report_setting_group set[REPORT_NSETTINGS];
	unsigned nchecks;
	struct report_check_group *checks;
	unsigned nfigs;
	struct report_figure_group *figs;
	unsigned fails;       /* failing (host, check) pairs */
	unsigned outliers;    /* (host, figure) pairs beyond the cut */
	unsigned unchecked;   /* hosts whose every check is SKIP (report_host.unchecked) */
};

struct report_priv;

/* The fleet: what was read, then (report_finish) what was found. */
struct report {
	double k;             /* the robust limit's k (REPORT_K_DEFAULT) */
	unsigned files;       /* regular files read (or tried) */
	unsigned used;        /* files that gave a host's part */
	size_t nskips;
	struct report_skip *skips;
	unsigned nbad;        /* skips that are not quiet */
	size_t nhosts;
	struct report_host *hosts;
	unsigned nchecks_names;
	char **checks;        /* check names: validate's ids, "compare" */
	unsigned nfigs;
	struct report_figure *figs;
	unsigned ngroups;
	struct report_group *groups;
	unsigned fails, outliers, unchecked; /* over all groups */
	struct report_priv *priv;
};

/* report_new - an empty fleet, judged with @k (> 0).  NULL: -ENOMEM or
 * -EINVAL in errno. */
struct report *report_new(double k);

/*
 * report_add_path - read @path: a file, or a directory recursively
 * (sorted by name; regular files only, no symbolic link inside followed;
 * at most REPORT_DEPTH_MAX deep; a directory met again through a bind
 * mount is not read twice).  A file that cannot be used is a skip, not
 * an error.  Returns 0; -ENOENT, -ENOTDIR, -EACCES... when @path itself
 * cannot be opened (the caller names it); -ENOMEM.
 */
int report_add_path(struct report *r, const char *path);

/*
 * report_add_data - one file's contents, read as report_add_path reads
 * each regular file once it has its bytes (it calls this code): the @len
 * bytes at @data, followed by a NUL at @data[@len], named @path in the
 * skips and as the host's file (@path copied); @named: given as a PATH on
 * the command line (then a document that does not start with '{' is
 * named, not left out quietly when @path does not end in ".json").  @data
 * is rewritten in place (a bundle's cpuid_dump made null before the
 * parse) and stays the caller's.  Counted in r->files; over
 * REPORT_FILE_MAX, named and skipped unread.  The seam for fuzz/fuzz_report.c:
 * what a host wrote, without a file.  Returns 0 (used or skipped), -EINVAL
 * (after report_finish, or no NUL at @data[@len]), -ENOMEM.
 */
int report_add_data(struct report *r, const char *path, char *data, size_t len, bool named);

/*
 * report_finish - after the last path: duplicate and conflicting files
 * named and skipped, each host's parts merged, hosts named and grouped,
 * and each group's settings, checks and figures judged.  Returns 0 or
 * -ENOMEM.  Call once.
 */
int report_finish(struct report *r);

/* report_exit_status - 1 when a host failed a check, a host is an
 * outlier, a host's every check is SKIP (a check that could not be made
 * is no pass) or a file was skipped (the view is incomplete), else 0. */
int report_exit_status(const struct report *r);

/* report_free - everything @r holds (NULL: nothing). */
void report_free(struct report *r);

#endif
