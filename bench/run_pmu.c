/*
 * bench/run_pmu.c - the steps of `pmu enable`, `pmu status` and `pmu
 * restore` that neither parse nor print (bench/run.h): enable's targets
 * and programming, the journals of the state directory, what status reads
 * now, restore's selection, check and order.  Library code: 0 or -errno or
 * a structured result, never prints; includes cpu/, msr/.
 * Hardware facts: msr/pmu/pmu.h and the kernel and PCM sources it cites.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/run.h"
#include "cpu/machine.h"
#include "msr/regs/intel_regs.h"

/* ---------------------------------------------------------- pmu enable */

/* Every CPU of @m with PERF_METRICS where the machine has any, else every
 * CPU with fixed counter 3, ascending. */
static int capable_cpus(const struct cpu_machine *m, const struct cpu_info *ci, unsigned *cpus)
{
	unsigned td = cpu_topdown_cpus(ci, cpus, CPU_MAX_CPUS);
	int n = 0;

	for (unsigned c = 0; c < ci->ncpus && c < CPU_MAX_CPUS; c++) {
		const struct cpu_kind *k = cpu_info_kind_of(ci, c);

		if (k && (td ? k->topdown_level > 0 : k->fixed_ctr3) &&
		    !cpu_machine_check_cpu(m, c))
			cpus[n++] = c;
	}
	return n;
}

/* Refuse target @cpu for @why; -1. */
static int refuse(struct run_pmu_targets *t, enum run_pmu_refusal why, unsigned cpu, int err)
{
	t->why = why;
	t->cpu = cpu;
	t->err = err;
	return -1;
}

int run_pmu_targets(const struct cpu_machine *m, const struct cpu_info *ci, unsigned *cpus,
		    int n, struct run_pmu_targets *t)
{
	t->ncapable = capable_cpus(m, ci, t->capable);
	if (n < 0 && t->ncapable == 0)
		return refuse(t, RUN_PMU_NONE_CAPABLE, 0, -ENODEV);
	if (n < 0) {
		memcpy(cpus, t->capable, (size_t)t->ncapable * sizeof(*cpus));
		return t->ncapable;
	}
	for (int i = 0; i < n; i++) {
		const struct cpu_kind *k = cpu_info_kind_of(ci, cpus[i]);
		int rc = cpu_machine_check_cpu(m, cpus[i]);

		if (rc || !k)
			return refuse(t, RUN_PMU_NOT_A_CPU, cpus[i], rc ? rc : -ENXIO);
		/* A hybrid part's E-core: refuse the whole list (man baretma-pmu). */
		if (cpu_topdown_check_cpu(ci, cpus[i], NULL) == -EOPNOTSUPP)
			return refuse(t, RUN_PMU_NO_METRICS, cpus[i], -EOPNOTSUPP);
		if (!k->fixed_ctr3)
			return refuse(t, RUN_PMU_NO_FC3, cpus[i], -ENODEV);
	}
	return n;
}

int run_pmu_program_all(struct msr_dev *dev, struct journal *j, const struct cpu_info *ci,
			const unsigned *cpus, int n, bool user_only, bool force,
			struct pmu_saved *t, int *at, char *why, size_t nwhy)
{
	for (int i = 0; i < n; i++) {
		const struct cpu_kind *k = cpu_info_kind_of(ci, cpus[i]);
		struct pmu_config cfg = { .user_only = user_only, .force = force,
					  .fixed_ctr3 = k->fixed_ctr3,
					  .perf_metrics = k->topdown_level > 0, .journal = j };
		int rc;

		msr_fault_clear(dev);
		rc = pmu_program(dev, cpus[i], &cfg, &t[i], why, nwhy);
		if (rc) {
			*at = i;
			return rc;
		}
	}
	return 0;
}

/* -------------------------------------------------- the run journals */

int run_pmu_journals_load(struct journal_info **out, int *n)
{
	int max = 64, rc;

	for (;;) {
		struct journal_info *v = calloc((size_t)max, sizeof(*v));

		if (!v)
			return -ENOMEM;
		rc = journal_list(v, max);
		if (rc >= 0) {
			*out = v;
			*n = rc;
			return 0;
		}
		free(v);
		if (rc != -ERANGE)
			return rc;
		max *= 2;
	}
}

void run_pmu_journals_free(struct journal_info *v, int n)
{
	journal_info_free(v, n);
	free(v);
}

bool run_pmu_holds(const struct journal_data *d, unsigned cpu)
{
	for (int i = 0; i < d->ncpus; i++)
		if (d->cpus[i] == cpu)
			return true;
	return false;
}

bool run_pmu_wanted(const unsigned *want, int nwant, unsigned cpu)
{
	for (int i = 0; i < nwant; i++)
		if (want[i] == cpu)
			return true;
	return nwant < 0;
}

bool run_pmu_holds_wanted(const struct journal_data *d, const unsigned *want, int nwant)
{
	for (int i = 0; i < d->ncpus; i++)
		if (run_pmu_wanted(want, nwant, d->cpus[i]))
			return true;
	return false;
}

bool run_pmu_concerns(const struct journal_data *d, const unsigned *want, int nwant)
{
	return d->ncpus == 0 || run_pmu_holds_wanted(d, want, nwant);
}

struct run_pmu_live run_pmu_live(struct msr_dev *dev, const char *spec,
				 const struct journal_data *d, unsigned cpu)
{
	struct run_pmu_live l = { .rc = dev ? 0 : -ENODEV };

	if (strcmp(d->backend, spec))
		return (struct run_pmu_live){ .rc = -EXDEV };
	if (d->kind == JOURNAL_MSR_WRITE)
		return l;
	if (!l.rc)
		l.rc = msr_read(dev, cpu, IA32_FIXED_CTR_CTRL, &l.fixed_ctr_ctrl);
	if (!l.rc)
		l.rc = msr_read(dev, cpu, IA32_PERF_GLOBAL_CTRL, &l.global_ctrl);
	return l;
}

/* ---------------------------------------------------------- pmu restore */

int run_pmu_select(const struct journal_info *v, int n, const unsigned *want, int nwant,
		   bool *sel, struct run_pmu_selection *s)
{
	int nsel = 0;

	*s = (struct run_pmu_selection){ .bad = -1, .missing = -1 };
	for (int i = 0; i < n; i++)
		if (v[i].error) {
			s->bad = i;
			return 0;
		}
	for (int i = 0; i < n; i++) {
		sel[i] = !v[i].alive && run_pmu_concerns(&v[i].data, want, nwant);
		nsel += sel[i];
	}
	for (int k = 0; k < nwant && s->missing < 0; k++) {
		bool any = false, dead = false;

		for (int i = 0; i < n; i++) {
			any |= run_pmu_holds(&v[i].data, want[k]);
			dead |= sel[i] && run_pmu_holds(&v[i].data, want[k]);
		}
		if (!any)
			s->missing = k;
		else if (!dead)
			s->busy = true; /* only a running baretma holds it */
	}
	return nsel;
}

int run_pmu_restore_check(struct msr_dev *dev, const char *spec, const struct journal_info *v,
			  int n, const bool *sel, int *ji, unsigned *cpu)
{
	for (int i = 0; i < n; i++) {
		const struct journal_data *d = &v[i].data;
		int at, rc;

		if (!sel[i] || d->nregs == 0) /* settings only: no backend involved */
			continue;
		*ji = i;
		if (strcmp(d->backend, spec))
			return -EXDEV;
		rc = run_cpus_open(dev, d->cpus, d->ncpus, &at);
		if (rc) {
			*cpu = d->cpus[at];
			return rc;
		}
	}
	return 0;
}

int run_pmu_restore_cpus(const struct journal_info *v, int n, const bool *sel, unsigned *cpus,
			 bool *settings)
{
	int m = 0;

	for (int i = 0; i < n; i++) {
		if (!sel[i])
			continue;
		*settings |= v[i].data.nsettings > 0;
		for (int c = 0; c < v[i].data.ncpus && m < CPU_MAX_CPUS; c++)
			cpus[m++] = v[i].data.cpus[c];
	}
	return m;
}

/* Is journal @x newer than @y (run_pmu_newest_first's order)? */
static bool newer(const struct journal_info *ix, const struct journal_info *iy)
{
	const struct journal_data *x = &ix->data, *y = &iy->data;

	if (x->time != y->time)
		return x->time > y->time;
	if (x->starttime != y->starttime)
		return x->starttime > y->starttime;
	if (x->pid != y->pid)
		return x->pid > y->pid;
	return ix->seq > iy->seq; /* one process's: N descending */
}

void run_pmu_newest_first(const struct journal_info *v, int n, int *order)
{
	/* insertion sort: a state directory holds a few journals, and the
	 * order is total (pid and N name one journal) */
	for (int i = 0; i < n; i++) {
		int k = i;

		for (; k > 0 && newer(&v[i], &v[order[k - 1]]); k--)
			order[k] = order[k - 1];
		order[k] = i;
	}
}
