/*
 * msr/sim/msr_sim_machine.c - the simulated machine's CPUs: each one's core
 * kind (from the CPUID the simulator models), pipeline width, the rows of
 * the event table that apply (SIM_FAM_*: msr/sim/sim_events.c), AMD's or
 * Intel's registers, `smt on`; and what the rest of baretma may ask of the
 * machine (msr/sim/msr_sim.h: its profile, width, perfmon version, level).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "cpu/text.h"
#include "msr/sim/msr_sim.h"
#include "msr/sim/msr_sim_int.h"

/* Intel E-core microarchitectures (cpu/cpu_models.c, cpu/cpu_kinds.c):
 * a kind is one by its CPUID.1AH core type, or by name on parts that are
 * E-cores only (Jasper Lake, Alder Lake-N, Sierra Forest). */
static bool kind_is_atom(const struct cpu_kind *k)
{
	static const char *const atoms[] = {
		"Tremont", "Gracemont", "Crestmont", "Skymont", "Darkmont",
	};

	if (k->core_type == 0x20) /* INTEL_CPU_TYPE_ATOM, linux intel-family.h */
		return true;
	for (size_t i = 0; k->uarch && i < sizeof(atoms) / sizeof(atoms[0]); i++)
		if (!strcmp(k->uarch, atoms[i]))
			return true;
	return false;
}

/* Which rows of the event table apply to @c (msr/sim/msr_sim_int.h SIM_FAM_*),
 * AMD's registers or Intel's, and whether `smt on` does. */
static void cpu_family(const struct sim *s, struct sim_cpu *c)
{
	const struct cpu_kind *k = c->kind;

	c->amd = s->ci.vendor == CPU_VENDOR_AMD && k->perfmon_v2;
	if (c->amd)
		c->fam = s->ci.family >= 0x1a ? SIM_FAM_ZEN5 : SIM_FAM_ZEN4;
	else if (s->ci.vendor != CPU_VENDOR_INTEL)
		c->fam = 0;
	else if (kind_is_atom(k))
		c->fam = SIM_FAM_ATOM;
	else if (k->fixed_ctr3)
		c->fam = k->topdown_level >= 2 ? SIM_FAM_GLC : SIM_FAM_ICL;
	else
		c->fam = SIM_FAM_PRE_ICL;
	c->smt = s->p.smt && (c->fam & (SIM_FAM_PRE_ICL | SIM_FAM_ICL | SIM_FAM_GLC));
}

int sim_make_cpus(struct sim *s, char **err)
{
	if (!(s->cpus = calloc(s->ncpus ? s->ncpus : 1, sizeof(*s->cpus))))
		return -ENOMEM;
	for (unsigned cpu = 0; cpu < s->ncpus; cpu++) {
		struct sim_cpu *c = &s->cpus[cpu];

		if (!(c->kind = cpu_info_kind_of(&s->ci, cpu)))
			continue;
		c->width = s->p.width ? s->p.width : c->kind->pipeline_width;
		cpu_family(s, c);
		if (s->p.smt_contention && !c->amd) {
			text_setf(err, "simulated PMU: 'smt_contention' is AMD's "
				 "(de_no_dispatch_per_slot.smt_contention), and this %s CPU has no "
				 "such node: give the level-1 nodes alone", cpu_vendor_name(s->ci.vendor));
			return -EINVAL;
		}
		if (c->kind->fixed_ctr3 && !c->width) {
			text_setf(err, "simulated PMU: the model table has no pipeline "
				 "width for %s cores: give `width N` in the profile", c->kind->uarch);
			return -EINVAL;
		}
		if (!s->state)
			sim_mem_clean(s, c);
	}
	return 0;
}

const struct sim_profile *msr_sim_profile_of(const struct msr_dev *dev)
{
	const struct sim *s = msr_backend_ctx(dev, &msr_sim_ops);

	return s ? &s->p : NULL;
}

unsigned msr_sim_width(const struct msr_dev *dev, unsigned cpu)
{
	const struct sim *s = msr_backend_ctx(dev, &msr_sim_ops);

	return s && cpu < s->ncpus ? s->cpus[cpu].width : 0;
}

unsigned msr_sim_pmu_version(const struct msr_dev *dev)
{
	const struct sim *s = msr_backend_ctx(dev, &msr_sim_ops);

	return s ? s->ci.pmu.version : 0;
}

int msr_sim_level(const struct msr_dev *dev, unsigned cpu)
{
	const struct sim *s = msr_backend_ctx(dev, &msr_sim_ops);

	return s && cpu < s->ncpus && s->cpus[cpu].kind ? s->cpus[cpu].kind->topdown_level : 0;
}
