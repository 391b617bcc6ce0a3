/*
 * msr/sim/sim_profile.c - the simulated PMU's profile text (msr/sim/msr_sim.h):
 * one `key value` per line into struct sim_profile.  Pure.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/escape.h"
#include "cpu/text.h"
#include "msr/sim/msr_sim.h"

/* Node names in IA32_PERF_METRICS byte order (linux
 * arch/x86/include/asm/perf_event.h INTEL_PMC_IDX_TD_*), as the
 * profile keys and perf's tma_* metrics name them. */
static const char *const node_keys[SIM_NODES] = {
	"retiring", "bad_speculation", "frontend_bound", "backend_bound",
	"heavy_operations", "branch_mispredicts", "fetch_latency", "memory_bound",
};

int msr_sim_node_index(const char *name)
{
	if (!strncmp(name, "tma_", 4))
		name += 4;
	for (int i = 0; i < SIM_NODES; i++)
		if (!strcmp(name, node_keys[i]))
			return i;
	return -1;
}

struct parse {
	const char *name;   /* the profile, escaped */
	unsigned line;
	char **err;         /* the message, on the heap (cpu/text.h) */
};

static int fail(struct parse *ps, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = text_vsetf(&msg, fmt, ap);
	va_end(ap);
	if (!rc && ps->line)
		rc = text_setf(ps->err, "profile '%s': line %u: %s", ps->name, ps->line, msg);
	else if (!rc)
		rc = text_setf(ps->err, "profile '%s': %s", ps->name, msg);
	free(msg);
	return rc ? rc : -EINVAL;
}

/* A number in [lo, hi]. */
static int num(struct parse *ps, const char *key, const char *v, double lo, double hi, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = v ? strtod(v, &end) : 0;
	if (!v || end == v || *end || errno || !isfinite(d) || d < lo || d > hi)
		return fail(ps, "'%s' needs a number from %g to %g, got '%s'", key, lo, hi,
			    v ? v : "");
	*out = d;
	return 0;
}

/* A whole number in [lo, hi]. */
static int whole(struct parse *ps, const char *key, const char *v, double lo, double hi,
		 double *out)
{
	int rc = num(ps, key, v, lo, hi, out);

	if (!rc && *out != floor(*out))
		return fail(ps, "'%s' needs a whole number, got '%s'", key, v);
	return rc;
}

static int fault(struct parse *ps, struct sim_profile *p, char **tok, int ntok)
{
	const char *f = ntok > 1 ? tok[1] : "";
	double d;
	int rc = 0, want = 2;

	if (!strcmp(f, "metrics_not_cleared"))
		p->faults |= SIM_FAULT_METRICS_NOT_CLEARED;
	else if (!strcmp(f, "slots_stuck"))
		p->faults |= SIM_FAULT_SLOTS_STUCK;
	else if (!strcmp(f, "level2_above_parent"))
		p->faults |= SIM_FAULT_L2_ABOVE_PARENT;
	else if (!strcmp(f, "perf_keeps_counters"))
		p->faults |= SIM_FAULT_PERF_KEEPS;
	else if (!strcmp(f, "sum_off")) {
		want = 3;
		if ((rc = whole(ps, "fault sum_off", ntok > 2 ? tok[2] : NULL, -64, 64, &d)))
			return rc;
		if (d == 0)
			return fail(ps, "'fault sum_off' needs a non-zero offset");
		p->sum_off = (int)d;
		p->faults |= SIM_FAULT_SUM_OFF;
	} else if (!strcmp(f, "overflow_every")) {
		want = 3;
		if ((rc = whole(ps, "fault overflow_every", ntok > 2 ? tok[2] : NULL, 1, 1e9, &d)))
			return rc;
		p->overflow_every = (unsigned)d;
		p->faults |= SIM_FAULT_OVERFLOW_EVERY;
	} else if (!strcmp(f, "perf_offset")) {
		want = 4;
		if (ntok > 2 && (p->perf_offset_node = msr_sim_node_index(tok[2])) < 0)
			return fail(ps, "'fault perf_offset' names no node '%s' (one of "
				    "tma_retiring ... tma_memory_bound)", tok[2]);
		if ((rc = num(ps, "fault perf_offset NODE", ntok > 3 ? tok[3] : NULL, -100, 100, &d)))
			return rc;
		p->perf_offset_pp = d;
		p->faults |= SIM_FAULT_PERF_OFFSET;
	} else if (!strcmp(f, "gp_offset")) {
		want = 4;
		if (ntok > 2 && (p->gp_offset_node = msr_sim_node_index(tok[2])) < 0)
			return fail(ps, "'fault gp_offset' names no node '%s' (one of "
				    "tma_retiring ... tma_memory_bound)", tok[2]);
		if ((rc = num(ps, "fault gp_offset NODE", ntok > 3 ? tok[3] : NULL, -100, 100, &d)))
			return rc;
		p->gp_offset_pp = d;
		p->faults |= SIM_FAULT_GP_OFFSET;
	} else {
		return fail(ps, "unknown fault '%s' (metrics_not_cleared, sum_off N, slots_stuck, "
			    "level2_above_parent, overflow_every N, perf_offset NODE PP, "
			    "perf_keeps_counters, gp_offset NODE PP)", f);
	}
	if (!rc && ntok != want)
		rc = fail(ps, "'fault %s' takes %d value%s", f, want - 2, want == 3 ? "" : "s");
	return rc;
}

static int key_value(struct parse *ps, struct sim_profile *p, char **tok, int ntok)
{
	const char *k = tok[0], *v = ntok > 1 ? tok[1] : NULL;
	int node = msr_sim_node_index(k);
	double d;
	int rc;

	if (!strcmp(k, "fault"))
		return fault(ps, p, tok, ntok);
	if (ntok != 2)
		return fail(ps, "'%s' takes one value (`key value`)", k);
	if (node >= 0 && strncmp(k, "tma_", 4)) {
		if ((rc = num(ps, k, v, 0, 100, &p->pct[node])))
			return rc;
		p->given[node] = true;
		return 0;
	}
	/* access_retiring ...: the shares of the cycles the accesses cost */
	if (!strncmp(k, "access_", 7) && (node = msr_sim_node_index(k + 7)) >= 0 &&
	    strncmp(k + 7, "tma_", 4)) {
		if ((rc = num(ps, k, v, 0, 100, &p->access_pct[node])))
			return rc;
		p->access_given[node] = true;
		return 0;
	}
	/* A number is converted only once accepted: after a refusal @d holds
	 * nothing (or an earlier line's value), which may not fit the field. */
	if (!strcmp(k, "width")) {
		if (!(rc = whole(ps, k, v, 1, 16, &d)))
			p->width = (unsigned)d;
	} else if (!strcmp(k, "ghz")) {
		rc = num(ps, k, v, 0, 10, &p->ghz);
	} else if (!strcmp(k, "ipc")) {
		rc = num(ps, k, v, 0, 16, &p->ipc);
	} else if (!strcmp(k, "access_cycles")) {
		if (!(rc = whole(ps, k, v, 0, 1e12, &d)))
			p->access_cycles = (uint64_t)d;
	} else if (!strcmp(k, "work_cycles")) {
		if (!(rc = whole(ps, k, v, 0, 1e12, &d)))
			p->work_cycles = (uint64_t)d;
	} else if (!strcmp(k, "user_fraction")) {
		rc = num(ps, k, v, 0, 1, &p->user_fraction);
	} else if (!strcmp(k, "noise")) {
		rc = num(ps, k, v, 0, 50, &p->noise);
	} else if (!strcmp(k, "seed")) {
		if (!(rc = whole(ps, k, v, 0, 9007199254740992.0, &d)))
			p->seed = (uint64_t)d;
	} else if (!strcmp(k, "smt")) {
		if (strcmp(v, "on") && strcmp(v, "off"))
			return fail(ps, "'smt' takes 'on' or 'off', got '%s'", v);
		p->smt = !strcmp(v, "on");
		rc = 0;
	} else if (!strcmp(k, "smt_contention")) {
		rc = num(ps, k, v, 0, 100, &p->smt_contention);
	} else if (!strcmp(k, "state")) {
		if (strlen(v) >= sizeof(p->state))
			return fail(ps, "'state' names a path longer than %zu bytes", sizeof(p->state) - 1);
		snprintf(p->state, sizeof(p->state), "%s", v);
		rc = 0;
	} else {
		rc = fail(ps, "unknown key '%s' (the keys are in doc/simulator.md, \"The profile\")", k);
	}
	return rc;
}

/* One set of shares (@pre "" or "access_"): the level-1 nodes given and
 * summing, with @smt (smt_contention, AMD's fifth level-1 node), to 100,
 * each level-2 node at most its parent. */
static int check_set(struct parse *ps, const char *pre, const double pct[SIM_NODES],
		     const bool given[SIM_NODES], double smt)
{
	double sum = smt;

	for (int i = 0; i < 4; i++) {
		if (!given[i])
			return fail(ps, "'%s%s' is missing: give all four level-1 nodes (%sretiring, "
				    "%sbad_speculation, %sfrontend_bound, %sbackend_bound) in percent "
				    "of slots, summing to 100", pre, node_keys[i], pre, pre, pre, pre);
		sum += pct[i];
	}
	if (fabs(sum - 100) > 0.01)
		return fail(ps, "the level-1 nodes%s%s sum to %g, not 100", *pre ? " (access_*)" : "",
			    smt ? " and smt_contention" : "", sum);
	for (int i = 4; i < SIM_NODES; i++)
		if (pct[i] > pct[i - 4] + 1e-9)
			return fail(ps, "'%s%s' (%g) is above its parent '%s%s' (%g): a level-2 "
				    "node is a part of it", pre, node_keys[i], pct[i], pre,
				    node_keys[i - 4], pct[i - 4]);
	return 0;
}

/* The work's shares; the accesses' when any access_* key is given, else
 * the work's own. */
static int check_shares(struct parse *ps, struct sim_profile *p)
{
	bool any = false;
	int rc;

	ps->line = 0;
	if ((rc = check_set(ps, "", p->pct, p->given, p->smt_contention)))
		return rc;
	for (int i = 0; i < SIM_NODES; i++)
		any |= p->access_given[i];
	if (any)
		return check_set(ps, "access_", p->access_pct, p->access_given, p->smt_contention);
	memcpy(p->access_pct, p->pct, sizeof(p->access_pct));
	return 0;
}

/* Split one line into at most 5 blank-separated tokens (in place). */
static int tokens(char *s, char **tok)
{
	char *save = NULL;
	int n = 0;

	for (char *t = strtok_r(s, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save))
		if (n < 5)
			tok[n++] = t;
		else
			return 6;
	return n;
}

int msr_sim_profile_parse(const char *text, size_t len, const char *name,
			  struct sim_profile *p, char **err)
{
	size_t room = esc_str(NULL, 0, name) + 1;
	char *shown = malloc(room), *copy = malloc(len + 1), *l, *next;
	struct parse ps = { shown, 0, err };
	int rc = 0;

	if (!copy || !shown) {
		free(copy);
		free(shown);
		return -ENOMEM;
	}
	esc_str(shown, room, name);
	memcpy(copy, text, len);
	copy[len] = '\0';
	memset(p, 0, sizeof(*p));
	p->ghz = 3.0;
	p->ipc = 1.0;
	p->user_fraction = 1.0;
	if (memchr(text, '\0', len))
		rc = fail(&ps, "a NUL byte: not a text file");
	for (l = copy; l && !rc; l = next) {
		char *hash, *tok[5];
		int n;

		if ((next = strchr(l, '\n')))
			*next++ = '\0';
		hash = strchr(l, '#');
		ps.line++;
		if (hash)
			*hash = '\0';
		n = tokens(l, tok);
		if (n > 5)
			rc = fail(&ps, "too many values (`key value`)");
		else if (n)
			rc = key_value(&ps, p, tok, n);
	}
	if (!rc)
		rc = check_shares(&ps, p);
	free(copy);
	free(shown);
	return rc;
}
