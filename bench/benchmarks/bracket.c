/*
 * bench/benchmarks/bracket.c - the empty bracket of each Top-down recipe's
 * RDPMC read set against the PERF_METRICS pair, side by side in one run
 * (issue 18, "Speed": programming general-purpose counters adds nothing
 * between the two bracket reads but the reads themselves).  Run by
 * `make benchmark`, never by `make check` (HACKING.md "Benchmarks").
 *
 * An empty bracket is two readings with nothing between; its cost is
 * b.tsc - a.tsc in TSC ticks, what lies between the two readings' RDTSCs.
 * The readings are the harness's own inline bodies: baretma_read
 * (<baretma.h>: LFENCE; RDPMC (1<<30)|3; RDPMC 1<<29; RDTSC; LFENCE), each
 * recipe's level-1 read set through source_read_rdpmc_set
 * (bench/source/source.h: LFENCE; one RDPMC per value; RDTSC; LFENCE;
 * the sets: bench/benchmarks/bracket_sets.h), and the TSC-only reading
 * (source_read_tsc), the floor of every bracket.  Each pair is a function
 * of its own (not inlined, not cloned) with labels around the two
 * readings, so that the code timed is the code counted: the same function
 * is called for every repetition, and single-stepped once
 * (bench/benchmarks/stepcount.h) for the instructions it executes between
 * the labels and between its two RDTSCs - the count from the compiled code
 * that is reported where RDPMC cannot run.  The sets are timed interleaved,
 * a block of BLOCK brackets each in turn, so that they share the
 * machine's conditions; per set the median and the 5th-95th percentiles
 * of every bracket.
 *
 * RDPMC needs user RDPMC (CR4.PCE: the rdpmc sysfs value 2, or 1 with a
 * perf event of this process mapped, which this program tries:
 * msr/regs/rdpmc.h rdpmc_enable_self) and counters that exist; each set's
 * RDPMCs are probed in a child first (rdpmc_probe).  Where one faults the
 * set is not timed, with the reason (no PMU at all - a hypervisor without
 * a virtual PMU -, the rdpmc value, a counter the core lacks) and never
 * reported as 0.
 *
 * usage: bracket [--reps N]   (N brackets per set, default 100000)
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bench/benchmarks/bracket_sets.h"
#include "bench/benchmarks/machine.h"
#include "bench/benchmarks/stepcount.h"
#include "bench/source/source.h"
#include "bench/stats.h"
#include "cpu/cpu.h"
#include "cpu/machine.h"
#include "include/baretma.h"
#include "msr/regs/rdpmc.h"
#include "msr/recipe/recipe.h"

#define BLOCK 1000u
#define ROWS_MAX 32

/* One pair's readings (the stepped functions' argument). */
struct pair {
	const struct read_set *rs;
	struct reading a, b;
	struct baretma_reading pa, pb;
};

/* The pairs, each between its labels (the stretch stepcount counts). */
#define LABEL(name) __asm__ __volatile__(".globl " #name "\n.hidden " #name "\n" #name ":" \
					 ::: "memory")
extern const char bm_tsc_begin[], bm_tsc_end[], bm_pm_begin[], bm_pm_end[], bm_set_begin[],
	bm_set_end[];

static __attribute__((noinline, noclone)) void pair_tsc(void *arg)
{
	struct pair *p = arg;

	LABEL(bm_tsc_begin);
	source_read_tsc(&p->a);
	source_read_tsc(&p->b);
	LABEL(bm_tsc_end);
}

static __attribute__((noinline, noclone)) void pair_pm(void *arg)
{
	struct pair *p = arg;

	LABEL(bm_pm_begin);
	baretma_read(&p->pa);
	baretma_read(&p->pb);
	LABEL(bm_pm_end);
	p->a.tsc = p->pa.tsc;
	p->b.tsc = p->pb.tsc;
}

static __attribute__((noinline, noclone)) void pair_set(void *arg)
{
	struct pair *p = arg;

	LABEL(bm_set_begin);
	source_read_rdpmc_set(p->rs, &p->a);
	source_read_rdpmc_set(p->rs, &p->b);
	LABEL(bm_set_end);
}

/* One line of the table. */
struct row {
	char label[64];
	void (*fn)(void *);
	const char *begin, *end;
	struct read_set rs;
	int npasses;
	const char *other_vendor; /* the recipe's vendor when not this CPU's */
	char why[400];            /* not timed: why ("" when timed; fault_reason's
				   * longest, with strerror's, is under 300) */
	double *ticks;
	size_t n;
	struct step_count sc;
	int step_rc;
};

/* ------------------------------------------------------- the machine */

struct machine {
	struct cpu_info ci;
	bool ci_ok;
	int cpu;                  /* pinned to */
	char rdpmc[16];           /* the rdpmc sysfs value, "" when there is no 'cpu' PMU */
	int key_rc;               /* rdpmc_enable_self's, when tried */
	bool key_tried;
	char why[400];            /* why RDPMC faults, where it does */
};

static void identify(struct machine *m)
{
	struct cpu_machine *cm = NULL;
	cpu_set_t set;

	m->cpu = sched_getcpu();
	CPU_ZERO(&set);
	if (m->cpu >= 0) {
		CPU_SET((unsigned)m->cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			m->cpu = -1;
	}
	if (!cpu_machine_open(NULL, &cm, NULL)) {
		m->ci_ok = !cpu_info_identify(cpu_machine_source(cm), NULL, &m->ci);
		cpu_machine_free(cm);
	}
	if (cpu_sysfs_read_line("/sys/bus/event_source/devices/cpu/rdpmc", m->rdpmc,
				sizeof(m->rdpmc)) &&
	    cpu_sysfs_read_line("/sys/bus/event_source/devices/cpu_core/rdpmc", m->rdpmc,
				sizeof(m->rdpmc)))
		m->rdpmc[0] = '\0';
	if (!strcmp(m->rdpmc, "1")) { /* RDPMC for a process with a perf event mapped */
		int fd;

		m->key_tried = true;
		m->key_rc = rdpmc_enable_self(&fd);
	}
}

static void print_machine(const struct machine *m, size_t reps)
{
	struct utsname u;
	char model[256];

	uname(&u);
	file_field("/proc/cpuinfo", "model name", model, sizeof(model));
	printf("machine: %s %s %s; %s", u.sysname, u.release, u.machine, model);
	if (m->ci_ok)
		printf(" (%s family %u model 0x%X stepping %u%s%s%s)", m->ci.vendor_str, m->ci.family,
		       m->ci.model, m->ci.stepping, m->ci.row ? ", " : "",
		       m->ci.row ? m->ci.row->name : "", m->ci.hypervisor ? ", a guest" : "");
	printf("; %ld CPUs online; pinned to cpu %d\n", sysconf(_SC_NPROCESSORS_ONLN), m->cpu);
	if (m->ci_ok && m->ci.nkinds)
		printf("PMU (CPUID): %u general-purpose and %u fixed counters (%s)%s%s\n",
		       m->ci.kinds[0].gp_counters, m->ci.kinds[0].fixed_counters,
		       m->ci.kinds[0].counters_source, m->ci.hypervisor ? "; hypervisor " : "",
		       m->ci.hypervisor ? m->ci.hypervisor : "");
	printf("rdpmc sysfs value: %s%s%s\n", m->rdpmc[0] ? m->rdpmc : "none (no 'cpu' PMU)",
	       m->key_tried ? (m->key_rc ? "; mapping a perf event to allow RDPMC failed: " :
			       "; a perf event of this process mapped: RDPMC allowed") : "",
	       m->key_tried && m->key_rc ? strerror(-m->key_rc) : "");
	printf("build: %s; %zu brackets per read set, interleaved in blocks of %u\n",
#if defined(__SANITIZE_ADDRESS__)
	       "AddressSanitizer",
#else
	       "plain",
#endif
	       reps, BLOCK);
}

/* Why RDPMC of @ecx faults here: the machine's facts that say why. */
static void fault_reason(const struct machine *m, uint32_t ecx, char *buf, size_t n)
{
	const struct cpu_info *ci = &m->ci;
	int len = snprintf(buf, n, "RDPMC 0x%x faults (#GP: SIGSEGV in a probe child):", ecx);

	if (m->ci_ok && ci->hypervisor)
		len += snprintf(buf + len, n - (size_t)len, " a %s guest;", ci->hypervisor);
	if (m->ci_ok && ci->nkinds && !ci->kinds[0].gp_counters)
		len += snprintf(buf + len, n - (size_t)len, " CPUID enumerates no counter (%s);",
				ci->kinds[0].counters_source);
	if (!m->rdpmc[0])
		snprintf(buf + len, n - (size_t)len, " the kernel registers no 'cpu' PMU "
			 "(/sys/bus/event_source/devices/cpu), so nothing enables user RDPMC "
			 "(CR4.PCE)");
	else if (!strcmp(m->rdpmc, "0"))
		snprintf(buf + len, n - (size_t)len, " the rdpmc sysfs value is 0: user RDPMC is off "
			 "(2 allows it: baretma pmu enable --rdpmc-always)");
	else if (m->key_tried && m->key_rc)
		snprintf(buf + len, n - (size_t)len, " rdpmc is 1 and no perf event could be mapped "
			 "(%s)", strerror(-m->key_rc));
	else
		snprintf(buf + len, n - (size_t)len, " user RDPMC is allowed: the core has no such "
			 "counter");
}

/* -------------------------------------------------------------- rows */

static void set_row(struct row *w, const char *label, void (*fn)(void *), const char *begin,
		    const char *end)
{
	snprintf(w->label, sizeof(w->label), "%s", label);
	w->fn = fn;
	w->begin = begin;
	w->end = end;
	w->npasses = 1;
}

/* The rows: the TSC floor, baretma_read, then every recipe's set. */
static unsigned make_rows(struct row *rows, const struct machine *m)
{
	unsigned n = 0;

	set_row(&rows[n], "TSC only (LFENCE; RDTSC; LFENCE)", pair_tsc, bm_tsc_begin, bm_tsc_end);
	read_set_init(&rows[n++].rs, "TSC");
	set_row(&rows[n], "PERF_METRICS pair (baretma_read)", pair_pm, bm_pm_begin, bm_pm_end);
	read_set_perf_metrics(&rows[n++].rs);
	for (size_t i = 0; i < recipe_count() && n < ROWS_MAX; i++) {
		const struct recipe *r = recipe_at(i);
		struct row *w = &rows[n];
		uint32_t gp, fixed;
		char label[64];

		snprintf(label, sizeof(label), "%s/%s", r->name, r->variant);
		set_row(w, label, pair_set, bm_set_begin, bm_set_end);
		bracket_counters(r, &gp, &fixed);
		if (bracket_read_set(r, gp, fixed, &w->rs, &w->npasses))
			continue; /* no level-1 set: left out */
		if (m->ci_ok && r->vendor != m->ci.vendor)
			w->other_vendor = r->vendor == CPU_VENDOR_AMD ? "an AMD recipe" :
					  "an Intel recipe";
		n++;
	}
	return n;
}

/* Can @w be timed here?  Its reason in w->why when not. */
static void decide(struct row *w, const struct machine *m)
{
	for (unsigned i = 0; i < w->rs.n; i++) {
		if (!rdpmc_probe(w->rs.ecx[i]))
			continue;
		fault_reason(m, w->rs.ecx[i], w->why, sizeof(w->why));
		return;
	}
	if (w->other_vendor)
		snprintf(w->why, sizeof(w->why), "%s on a %s CPU: its RDPMCs would read other "
			 "counters", w->other_vendor, m->ci.vendor_str);
}

static int time_rows(struct row *rows, unsigned n, size_t reps)
{
	struct pair p;

	for (unsigned k = 0; k < n; k++)
		if (!rows[k].why[0] && !(rows[k].ticks = calloc(reps, sizeof(double))))
			return -ENOMEM;
	for (size_t done = 0; done < reps; done += BLOCK)
		for (unsigned k = 0; k < n; k++) {
			struct row *w = &rows[k];

			if (w->why[0])
				continue;
			p.rs = &w->rs;
			for (size_t i = 0; i < BLOCK && w->n < reps; i++) {
				w->fn(&p);
				w->ticks[w->n++] = (double)(p.b.tsc - p.a.tsc);
			}
		}
	return 0;
}

/* The distinct reasons of the rows not timed, each with its number. */
static unsigned reason_of(const char *why, const char **reasons, unsigned *n)
{
	for (unsigned i = 0; i < *n; i++)
		if (!strcmp(reasons[i], why))
			return i + 1;
	reasons[*n] = why;
	return ++*n;
}

static void print_rows(const struct row *rows, unsigned n, double floor)
{
	const char *reasons[ROWS_MAX];
	unsigned nreasons = 0;

	printf("\n%-36s %6s %9s %13s %8s %8s\n", "read set (level 1)", "RDPMCs", "median",
	       "p5-p95", "instr.", "between");
	for (unsigned k = 0; k < n; k++) {
		const struct row *w = &rows[k];
		struct bench_stats s;
		char stepped[32] = "-", between[16] = "-", spread[32];

		if (!w->step_rc) {
			snprintf(stepped, sizeof(stepped), "%u", w->sc.n);
			if (w->sc.between >= 0)
				snprintf(between, sizeof(between), "%d", w->sc.between);
		}
		printf("%-36s %6u ", w->label, w->rs.n);
		if (!w->why[0] && !bench_stats_compute(w->ticks, w->n, &s)) {
			snprintf(spread, sizeof(spread), "%.0f-%.0f", s.p05, s.p95);
			printf("%9.0f %13s", s.median, spread);
		} else {
			snprintf(spread, sizeof(spread), "[%u]", reason_of(w->why, reasons, &nreasons));
			printf("%9s %13s", "not timed", spread);
		}
		printf(" %8s %8s%s\n", stepped, between, w->npasses > 1 ? "  (level 1 in passes: "
		       "the first)" : "");
	}
	printf("\nmedian, p5-p95: b.tsc - a.tsc of an empty bracket (two readings, nothing "
	       "between), TSC ticks.\ninstr.: the instructions the pair executes as compiled, "
	       "counted by single-stepping it\n(an RDPMC that faults is stepped over and "
	       "counted); between: those after its first RDTSC\nup to the second, the span the "
	       "ticks measure; \"-\": not counted (%s).\n", "single-stepping failed");
	if (floor > 0)
		printf("floor: no bracket is shorter than the TSC-only one, %.0f ticks (median).\n",
		       floor);
	for (unsigned i = 0; i < nreasons; i++)
		printf("[%u] not timed: %s\n", i + 1, reasons[i]);
}

int main(int argc, char **argv)
{
	static struct row rows[ROWS_MAX];
	struct machine m = { .cpu = -1 };
	size_t reps = 100000;
	unsigned n;
	double floor = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--reps") && i + 1 < argc && atol(argv[i + 1]) > 0) {
			reps = (size_t)atol(argv[++i]);
		} else {
			fprintf(stderr, "usage: bracket [--reps N]\n");
			return 64;
		}
	}
	identify(&m);
	print_machine(&m, reps);
	n = make_rows(rows, &m);
	for (unsigned k = 0; k < n; k++) {
		struct pair p = { .rs = &rows[k].rs };

		decide(&rows[k], &m);
		rows[k].step_rc = step_count(rows[k].fn, &p, rows[k].begin, rows[k].end,
					     &rows[k].sc);
	}
	if (time_rows(rows, n, reps)) {
		fprintf(stderr, "bracket: %s\n", strerror(ENOMEM));
		return 1;
	}
	if (rows[0].n)
		floor = bench_median(rows[0].ticks, rows[0].n);
	print_rows(rows, n, floor);
	for (unsigned k = 0; k < n; k++)
		free(rows[k].ticks);
	return 0;
}
