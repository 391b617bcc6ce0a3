/*
 * msr/recipe/recipe.h - Top-down recipes as data: the events a recipe counts
 * (with their encodings and sources), its formulas from counts to the
 * tma_* nodes (text, like perf's MetricExpr, each with its source), an
 * evaluator of those formulas, and the split of a recipe's events into
 * passes for a core with fewer counters than events.
 *
 * Pure functions, no hardware, safe from many threads at once.  No
 * allocation but one: a table recipe's formulas are cut into tokens at its
 * first evaluation and kept for the process (msr/recipe/recipe_tokens.c); a
 * formula outside the tables longer than 64 tokens is cut into memory
 * freed before the call returns.  The tables live in
 * msr/recipe/recipes_intel.c, msr/recipe/recipes_intel_pm.c and msr/recipe/recipes_amd.c
 * (libpfm4's per-PMU event headers beside its validate tables are the
 * model); t/0800 checks every entry.
 *
 * Counts.  A recipe is evaluated on one count per event, in r->events
 * order, as a double: the events' deltas over a region (summed over the
 * region's valid reading pairs), in the unit of the event (cycles, uops,
 * slots).  For the intel-perf-metrics recipe the "events" are perf's
 * pseudo-events (topdown-retiring ...): slot counts, as perf reports them
 * (linux tools/perf/Documentation/topdown.txt), plus TOPDOWN.SLOTS.  A count
 * that is NAN means "not measured": a formula that needs it fails
 * (-ENODATA).  A count below 0 is a count: a region's counts net of the
 * empty bracket's (bench/measure_int.h) may be, and a node computed from
 * them then says so (a negative fraction), as perf prints its metrics.
 *
 * Formulas.  The grammar, perf's MetricExpr where they overlap:
 *   expr    := cmp [ "if" cmp "else" expr ]    (perf's "A if COND else B";
 *                                                COND true when non-zero)
 *   cmp     := sum [ ("<" | ">") sum ]         (1 or 0, as perf's expr.y, where
 *                                                they bind less than "+", "-")
 *   sum     := product { ("+" | "-") product }
 *   product := unary { ("*" | "/") unary }
 *   unary   := "-" unary | primary
 *   primary := NUMBER | "(" expr ")" | FUNC "(" expr "," expr ")" | NAME
 *   FUNC    := min | max | d_ratio             (d_ratio(a, b): a/b, 0 when
 *                                                b is 0, as perf's)
 *   NAME    := an event of the recipe, a node of the recipe (its metric:
 *              "tma_retiring", or an auxiliary node such as "SLOTS" or
 *              "CORE_CLKS"), or the variable "width" (r->width, slots per
 *              cycle) or "smt_on" (1 or 0, struct recipe_env).
 * A NAME is letters, digits and "_.:" (event names are Intel's
 * "UOPS_RETIRED.RETIRE_SLOTS", AMD's "de_src_op_disp.all", and
 * "EVENT:cN" for an event with counter mask N, as TMA_Metrics-full.csv
 * writes them); a backslash takes the next character into the name, as
 * perf's "topdown\-retiring".  "/" by zero is an error (-EDOM): nothing
 * counted is no Top-down breakdown (recipe_eval: the node is NAN).  Only the branch an "if" takes counts:
 * an event used only by the other branch need not be measured - where the
 * condition is on variables (smt_on); a condition on counts (perf's
 * "tma_info_thread_ipc > 1.8") needs both branches' events
 * (recipe_needed), the counts choosing the branch.
 */
#ifndef BARETMA_RECIPE_H
#define BARETMA_RECIPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu/cpu.h"
#include "msr/recipe/topdown.h"

#define RECIPE_EVENTS_MAX 24 /* events of one recipe (bits of a uint32_t mask) */
#define RECIPE_NODES_MAX  24 /* nodes of one recipe, auxiliary ones included */
#define RECIPE_EXTRA_MAX  4  /* nodes outside the twelve tma_* (enum td_metric) */

/* Where an event is counted. */
enum recipe_ctr {
	RECIPE_CTR_FIXED,   /* IA32_FIXED_CTRn, n = .fixed (SDM Vol. 3B, Fixed-Function
			     * Performance Counters; Skymont's 4..6: CPUID leaf 0x23) */
	RECIPE_CTR_GP,      /* a general-purpose counter: IA32_PERFEVTSELx/IA32_PMCx, AMD
			     * PERF_CTLx/PERF_CTRx (linux arch/x86/include/asm/perf_event.h
			     * ARCH_PERFMON_EVENTSEL_*, AMD64_EVENTSEL_*) */
	RECIPE_CTR_METRICS, /* a field of IA32_PERF_METRICS (0x329), byte .fixed */
};

/* One event of a recipe. */
struct recipe_event {
	const char *name;     /* "UOPS_ISSUED.ANY", "de_src_op_disp.all", "TOPDOWN.SLOTS";
			       * unique in its recipe (case-insensitively) */
	enum recipe_ctr ctr;
	unsigned fixed;       /* RECIPE_CTR_FIXED: fixed counter index; RECIPE_CTR_METRICS:
			       * PERF_METRICS byte (0..7, msr/recipe/topdown.h enum td_field) */
	uint16_t event;       /* event select: Intel 8 bits (EVTSEL[7:0]); AMD 12 bits
			       * (PERF_CTL[7:0] and [35:32]); fixed: the pseudo-encoding */
	uint8_t umask, cmask; /* unit mask; counter mask (0: count every increment) */
	bool inv, edge, any;  /* EVTSEL INV (23), EDGE (18), AnyThread (21: pre-Ice Lake
			       * only; for a fixed counter its FIXED_CTR_CTRL AnyThread bit) */
	uint32_t counters;    /* GP counters it may use with SMT on (bit i = counter i; 0:
			       * any): intel/perfmon's "Counter" ("0,1,2,3": 0xF) */
	uint32_t counters_ht_off; /* the same with SMT off: perfmon's "CounterHTOff" (its
			       * "Counter" where the file has none: Ice Lake and later,
			       * E-cores); 0: any.  Both 0 for a fixed-counter event
			       * and for AMD (linux arch/x86/events/amd/core.c: any
			       * counter on family 17h and later); t/1040 checks every
			       * row against t/data/vendor-events.tsv */
	const char *source;   /* where the encoding comes from */
};

/*
 * recipe_event_counters - the GP counters event @e may use (bit i =
 * counter i, 0: any) with SMT on (@smt_on: perfmon's "Counter") or off
 * ("CounterHTOff"): the pre-Ice Lake cores have 8 GP counters a thread
 * with SMT off, where some events count only on counters 0-3 (perfmon
 * SKL CYCLE_ACTIVITY.STALLS_MEM_ANY, HSW IDQ_UOPS_NOT_DELIVERED.CORE).
 */
static inline uint32_t recipe_event_counters(const struct recipe_event *e, bool smt_on)
{
	return smt_on ? e->counters : e->counters_ht_off;
}

/* One node: a formula over the recipe's events, nodes and variables. */
struct recipe_node {
	const char *metric;   /* perf's name: "tma_retiring" (AMD's and E-cores' nodes mapped
			       * onto the tma_* tree, their own name in .source), or a node
			       * outside the twelve ("smt_contention"), or an auxiliary
			       * value at level 0 ("SLOTS", "CORE_CLKS") */
	int level;            /* 0 (auxiliary: not reported), 1 or 2 */
	const char *parent;   /* level 2: the level-1 metric it splits; else NULL */
	const char *expr;     /* the formula (grammar above); its unit: a fraction of
			       * SLOTS for levels 1 and 2, the node's own for level 0 */
	const char *source;   /* where the formula comes from */
};

/* One recipe for one microarchitecture variant. */
struct recipe {
	const char *name;     /* "intel-perf-metrics", "intel-pre-icl-l1", "intel-icl-events",
			       * "intel-ecore-l1", "amd-zen4", "amd-zen5" (CPU_RECIPE_*) */
	const char *variant;  /* "skylake", "haswell", "gracemont", ...; the first of a
			       * name is its default */
	const char *const *uarchs; /* cpu_kind.uarch strings it serves, NULL-terminated */
	enum cpu_vendor vendor;
	unsigned width;       /* pipeline width: slots (AMD: dispatch slots) per cycle */
	const struct recipe_event *events;
	unsigned nevents;
	const struct recipe_node *nodes; /* one level-0 node "SLOTS" at least */
	unsigned nnodes;
	const char *bound;    /* what bounds it, one line: quantisation, or counter width,
			       * passes and SMT */
	const char *notes;    /* nodes left out and why, one line, or NULL */
};

/* What the formulas may ask of the run. */
struct recipe_env {
	bool smt_on;          /* SMT (Hyper-Threading) active on the core: formula "smt_on" */
};

/* A node outside the twelve tma_* of enum td_metric. */
struct recipe_extra {
	const char *metric;   /* the node's .metric, e.g. "smt_contention" */
	const char *parent;   /* its .parent, or NULL at level 1 */
	int level;
	double frac;          /* fraction of SLOTS */
};

/* Where a formula failed: a formula of the table, its position, why. */
struct recipe_error {
	const char *metric;   /* the node whose formula failed, or NULL (recipe_expr_eval) */
	const char *expr;     /* that formula's text */
	size_t pos;           /* byte offset of the failure in .expr */
	const char *what;     /* "missing count", "division by zero", "unknown name",
			       * "expected ')'", ... (static text) */
	const char *name;     /* the name concerned (an event, node), or NULL */
	const char *event;    /* for "missing count": the table's event name; else NULL */
};

/* The result of recipe_eval. */
struct recipe_result {
	int level;                  /* the level asked for (1 or 2) */
	double slots;               /* the "SLOTS" node: slots of the region */
	double frac[TMA_NMETRICS];  /* fractions of SLOTS (0..1 when consistent; not
				     * clamped); NAN where the recipe has no such node
				     * or its level is above .level */
	unsigned nextra;
	struct recipe_extra extra[RECIPE_EXTRA_MAX];
	struct recipe_error undefined; /* .what != NULL: the first node that came out
					* NAN, and why (a division by zero in a split of
					* a level-1 node, say); the nodes using it are
					* NAN too, as perf prints them */
};

/* recipe_count, recipe_at - every recipe of every vendor, i < recipe_count(). */
size_t recipe_count(void);
const struct recipe *recipe_at(size_t i);

/*
 * recipe_find - the recipe @name for the microarchitecture @uarch (a
 * cpu_kind.uarch string such as "Skylake", "Gracemont", "Zen 4"), or its
 * default variant when @uarch is NULL.  NULL with errno ENOENT (no recipe
 * of that name) or ENODEV (none of its variants serves @uarch).
 */
const struct recipe *recipe_find(const char *name, const char *uarch);

/*
 * recipe_find_variant - the recipe @name, variant @variant: a variant name
 * ("skylake") or a uarch it serves ("Skylake", as cpu/cpu_models.c names
 * it), case-insensitively; @variant NULL: the default.  NULL with errno
 * ENOENT (no such name) or ENODEV (no such variant).
 */
const struct recipe *recipe_find_variant(const char *name, const char *variant);

/*
 * recipe_smt_matters - does SMT change what @r counts or computes: a
 * formula reads "smt_on" (the pre-Ice Lake per-core halving) or an
 * event's counters differ with SMT on and off (counters, counters_ht_off)?
 */
bool recipe_smt_matters(const struct recipe *r);

/* recipe_event_index - the index of event @name in @r (case-insensitive), or -ENOENT. */
int recipe_event_index(const struct recipe *r, const char *name);

/* recipe_node_index - the index of the node @metric in @r, or -ENOENT. */
int recipe_node_index(const struct recipe *r, const char *metric);

/*
 * recipe_prepare - cut a table recipe's formulas into tokens now (kept for
 * the process), so that no later recipe_eval of @r allocates: the library
 * calls it when a session opens, before the first region.  Returns 0 (a
 * recipe outside the tables, or NULL: nothing to keep) or -ENOMEM (its
 * evaluations then cut the formulas at each call, on the stack).
 */
int recipe_prepare(const struct recipe *r);

/*
 * recipe_eval - every node of @r up to @level from @counts (r->nevents
 * values, r->events order; NAN: not measured) into @out: fractions of the
 * "SLOTS" node, the twelve tma_* in out->frac, the others in out->extra.
 * @err (may be NULL) says which formula failed where.
 * Returns 0, -EINVAL (@level not 1 or 2, a NULL argument, or a formula of
 * the table that does not parse or names what the recipe lacks: err says
 * where), -ENODATA (a count a formula needs is NAN: err->event names it),
 * or -EDOM (SLOTS is 0 or cannot be computed: nothing counted).  A
 * division by zero in another node makes it NAN (out->undefined).
 */
int recipe_eval(const struct recipe *r, const double *counts, const struct recipe_env *env,
		int level, struct recipe_result *out, struct recipe_error *err);

/*
 * recipe_expr_eval - one formula @expr on the names of @r (may be NULL:
 * numbers, functions and variables only; width is then 0) and @counts.
 * Returns 0 and stores the value in @out, or the errors of recipe_eval.
 */
int recipe_expr_eval(const char *expr, const struct recipe *r, const double *counts,
		     const struct recipe_env *env, double *out, struct recipe_error *err);

/*
 * recipe_needed - the events (bit i = r->events[i]) that the nodes up to
 * @level use under @env (only the branch an "if" takes on @env's
 * variables; both branches and the condition's events where the condition
 * is on counts), into @mask.  0 or -EINVAL (bad level, a formula that does
 * not parse).
 */
int recipe_needed(const struct recipe *r, const struct recipe_env *env, int level, uint32_t *mask);

/*
 * recipe_expr_needed - the events (bit i = r->events[i]) that the formula
 * @expr uses under @env (as recipe_needed: only the branch an "if" takes),
 * e.g. "SLOTS": the events the slots of a region come from (its base).
 * 0 or -EINVAL (a NULL argument, a formula that does not parse).
 */
int recipe_expr_needed(const struct recipe *r, const struct recipe_env *env, const char *expr,
		       uint32_t *mask);

/* One pass: the events counted together, and the counter of each. */
struct recipe_pass {
	unsigned n;
	uint8_t event[RECIPE_EVENTS_MAX];  /* indices into r->events */
	int8_t counter[RECIPE_EVENTS_MAX]; /* GP counter index (RECIPE_CTR_GP), fixed counter
					    * index (FIXED), PERF_METRICS byte (METRICS) */
};

/*
 * recipe_passes - split the events @mask of @r into passes for a core
 * whose general-purpose counters are @gp_mask (bit i = counter i: a core
 * with N counters is (1u << N) - 1) and fixed counters @fixed_mask
 * (cpu_kind.fixed_mask).  First fit over the passes, the events the
 * level-1 nodes use under @env first (so that level 1 is counted in one
 * interval when it fits), then the others, each group in table order;
 * within a pass the GP counters are a matching (every GP event of the
 * pass placed again, by backtracking, when one joins it: an event
 * constrained to counters 0-3 gets one of them though an unconstrained
 * one came first); each event's constraint for @env's SMT state honoured
 * (recipe_event_counters; @env NULL: SMT off); one event per fixed
 * counter and pass (THREAD and THREAD_ANY both on fixed counter 1 go to
 * different passes); every event in exactly one pass; PERF_METRICS fields
 * with the pass that holds fixed counter 3 (the first when none).  @mask
 * is typically recipe_needed's.
 * Returns the number of passes (0 for an empty @mask), or -EINVAL (bad
 * arguments, @mask outside the table), -ENODEV (an event no counter of the
 * core can take: a fixed counter absent from @fixed_mask, a GP constraint
 * outside @gp_mask: recipe_unplaceable names it), -ENOSPC (more than @max
 * passes).
 */
int recipe_passes(const struct recipe *r, const struct recipe_env *env, uint32_t mask,
		  uint32_t gp_mask, uint32_t fixed_mask, struct recipe_pass *passes, unsigned max);

/*
 * recipe_passes_base - recipe_passes for the events @mask with the events
 * @base (a subset of @mask: the SLOTS node's, which every pass counts so
 * that passes can be scaled to one another) in every pass, placed first
 * in each; the counters of each pass a matching of all its events, base
 * ones included, so a constrained base event is honoured too.  The
 * errors of recipe_passes; -ENODEV also when the base events alone do
 * not fit one pass.
 */
int recipe_passes_base(const struct recipe *r, const struct recipe_env *env, uint32_t mask,
		       uint32_t base, uint32_t gp_mask, uint32_t fixed_mask,
		       struct recipe_pass *passes, unsigned max);

/*
 * recipe_unplaceable - the first event of @mask (r->events order) that no
 * counter of a core with @gp_mask and @fixed_mask can take under @env's
 * SMT state (a fixed counter it lacks, a GP constraint outside @gp_mask):
 * its index, or -ENOENT when every event has a counter, -EINVAL (bad
 * arguments).  What recipe_passes' -ENODEV is about, for a message.
 */
int recipe_unplaceable(const struct recipe *r, const struct recipe_env *env, uint32_t mask,
		       uint32_t gp_mask, uint32_t fixed_mask);

#endif
