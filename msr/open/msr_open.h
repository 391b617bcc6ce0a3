/*
 * msr/open/msr_open.h - opening the MSR backend a spec names: the table of
 * backends (msr_backends.c, one entry per backend: the state file, the
 * simulated PMU, the msr driver's device) and the spec's checks before
 * one is opened.  A room above msr/access (the handle, its ops, the
 * device and state-file backends) and msr/sim (the simulated PMU), since
 * its table names both; everything that opens a backend by its spec -
 * the journal, the guarded run, bench, the library - is above it.
 *
 * Library code: 0 or -errno, the reason in msr_last_error()
 * (msr/access/msr.h), which also documents the handle, the backends'
 * errors and $BARETMA_MSR_TRACE.
 */
#ifndef BARETMA_MSR_OPEN_H
#define BARETMA_MSR_OPEN_H

#include "msr/access/msr.h"

/*
 * msr_env_spec - the backend $BARETMA_MSR names, or the default
 * "/dev/cpu/%u/msr" when it is unset or empty: the one place that reads
 * the variable (msr_open(NULL) and the command line use it).  A static
 * string or the environment's own; not checked (msr_open does that).
 */
const char *msr_env_spec(void);


/*
 * msr_open - open an MSR backend.
 * @spec: NULL or "" for msr_env_spec(); otherwise a path template or
 *        "state:FILE".
 * @out:  receives the handle.
 * Opens no CPU yet (that happens at the first access or msr_open_cpu()).
 * Returns 0, or -EINVAL (template without exactly one %u; state file
 * malformed: the message from msr_last_error() names the line), -ENOENT or
 * -EACCES (state file missing or unreadable), -EPERM (a spec other than
 * the standard templates while the environment may come from another
 * user; a state file that is a symbolic link; a trace file refused, see
 * $BARETMA_MSR_TRACE above), -ENOMEM.
 */
int msr_open(const char *spec, struct msr_dev **out);

/*
 * msr_open_on - msr_open() for the machine of CPUID dump @cpuid_dump (NULL:
 * $BARETMA_CPUID_DUMP, else the live CPU): the simulated PMU ("sim:")
 * models that machine, so that the dump a command or session was given is
 * the machine its simulator counts on (doc/simulator.md).  The
 * other backends do not depend on it.  Returns as msr_open().
 */
int msr_open_on(const char *spec, const char *cpuid_dump, struct msr_dev **out);

/* msr_spec_backend - the backend a spec names, as msr_open() would choose
 * it, without opening anything: "state" ("state:FILE"), "sim"
 * ("sim:PROFILE"), else "device" (a path template: this machine's MSRs). */
const char *msr_spec_backend(const char *spec);

/* msr_backends - the table, ending with the entry whose prefix is NULL. */
extern const struct msr_backend msr_backends[];

/* msr_backend_of - the entry of the table that @spec names (never NULL). */
const struct msr_backend *msr_backend_of(const char *spec);

#endif
