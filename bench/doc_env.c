/*
 * bench/doc_env.c - the environment preflight as the "environment" JSON
 * object and as the block `info` prints (facts and their sources:
 * cpu/environ.h).
 */
#include <errno.h>
#include <jansson.h>
#include <string.h>

#include "bench/bench.h"
#include "cpu/environ.h"
#include "cpu/escape.h"
#include "cpu/host_id.h"
#include "msr/regs/rdpmc.h"

/* "" -> null: an unknown value is never printed as a zero or an empty word. */
static json_t *str_or_null(const char *s)
{
	return bench_json_text(s && *s ? s : NULL);
}

static json_t *int_or_null(int v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

static json_t *bool_or_null(int v)
{
	return v >= 0 ? json_boolean(v) : json_null();
}

/*
 * Virtual PMU under the hypervisor of the machine baretma runs on: on Intel
 * the guest's CPUID leaf 0xA version (0 = none, linux intel_pmu_init);
 * elsewhere whether the kernel registered a core PMU driver.  -1 on bare
 * metal (not applicable) or when unknown.
 */
static int vpmu(const struct cpu_env *e, const struct cpu_host *h)
{
	if (!h || !h->hypervisor)
		return -1;
	if (h->vendor == CPU_VENDOR_INTEL)
		return h->pmu_version > 0;
	return e->core_pmu;
}

/* The Top-down RDPMC probe of bench_topdown_check, when it ran (never for
 * a CPUID dump's CPU). */
static const char *topdown_probe(const struct bench_avail *a)
{
	if (!a || a->why != TD_OK || a->rdpmc_dump)
		return NULL;
	return a->rdpmc_ok ? "ok" : "faults";
}

/* RDPMC of general counter 0 in a forked child: tells whether user-space
 * RDPMC is allowed at all (CR4.PCE; linux arch/x86/kernel/traps.c). */
static const char *user_rdpmc(void)
{
	int rc = rdpmc_probe(0);

	return rc == 0 ? "ok" : rc == -EFAULT ? "faults" : "unknown";
}

const char *bench_hypervisor_text(char *buf, size_t n, const char *cpuid_name,
				  const char *sig, const struct cpu_env *e)
{
	const char *kernel = e && e->hv_kernel[0] ? e->hv_kernel : NULL;

	if (!kernel || cpu_hypervisor_agree(cpuid_name, kernel)) {
		if (!cpuid_name)
			snprintf(buf, n, "none (bare metal)");
		else if (!strcmp(cpuid_name, "unknown") && sig && sig[0])
			snprintf(buf, n, "unknown (CPUID 0x40000000 says '%s')", sig);
		else
			snprintf(buf, n, "%s", cpuid_name);
	} else if (!cpuid_name) {
		snprintf(buf, n, "%s (the kernel, by %s), CPUID.1:ECX[31] clear (no hypervisor "
			 "by CPUID)", kernel, e->hv_kernel_source);
	} else if (sig && sig[0]) {
		snprintf(buf, n, "%s (the kernel, by %s), CPUID 0x40000000 says '%s'", kernel,
			 e->hv_kernel_source, sig);
	} else {
		snprintf(buf, n, "%s (the kernel, by %s), CPUID says %s", kernel,
			 e->hv_kernel_source, cpuid_name);
	}
	return buf;
}

json_t *host_to_json(void)
{
	/* Read once per process: a command's documents all name the host it
	 * started on (a hostname changed while it runs is not followed). */
	static struct cpu_host_id id;
	static int read;
	json_t *doc;

	if (!read) {
		(void)cpu_host_id_read(&id); /* "" where unknown: null below */
		read = 1;
	}
	doc = json_pack("{s:o, s:o}", "hostname", str_or_null(id.hostname),
			"machine_id", str_or_null(id.machine_id));
	return doc;
}

json_t *env_to_json(const struct cpu_env *e, const struct cpu_host *host,
		    const struct bench_avail *a)
{
	const char *td = topdown_probe(a);

	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s,"
			 " s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "hypervisor", str_or_null(host ? host->hypervisor : NULL),
			 "hypervisor_signature", str_or_null(host ? host->hypervisor_sig : NULL),
			 "hypervisor_kernel", str_or_null(e->hv_kernel),
			 "hypervisor_kernel_source", str_or_null(e->hv_kernel_source),
			 "vpmu", bool_or_null(vpmu(e, host)),
			 "core_pmu_driver", bool_or_null(e->core_pmu),
			 "kernel", str_or_null(e->kernel),
			 "lockdown", str_or_null(e->lockdown),
			 "msr_module", bool_or_null(e->msr_module),
			 "msr_allow_writes", str_or_null(e->msr_allow_writes),
			 "rdpmc", int_or_null(e->rdpmc),
			 "rdpmc_topdown_probe", str_or_null(td),
			 "rdpmc_user_probe", user_rdpmc(),
			 "nmi_watchdog", int_or_null(e->nmi_watchdog),
			 "smt_control", str_or_null(e->smt_control),
			 "smt_active", bool_or_null(e->smt_active),
			 "governor", str_or_null(e->governor),
			 "freq_driver", str_or_null(e->freq_driver),
			 "turbo", bool_or_null(e->turbo),
			 "isolated_cpus", e->isolated_known ? json_string(e->isolated) : json_null(),
			 "nohz_full", e->nohz_full_known ? json_string(e->nohz_full) : json_null(),
			 "microcode", str_or_null(e->microcode));
}

static const char *word(const char *s)
{
	return s && *s ? s : "unknown";
}

static const char *yes_no(int v, const char *yes, const char *no)
{
	return v < 0 ? "unknown" : v ? yes : no;
}

/* Every value read from /sys, /proc or CPUID is escaped (cpu/escape.h). */
void env_print(FILE *f, const struct cpu_env *e, const struct cpu_host *host,
	       const struct bench_avail *a)
{
	const char *td = topdown_probe(a);
	char rdpmc[16], hv[BENCH_HV_TEXT_MAX];

	snprintf(rdpmc, sizeof(rdpmc), "%d", e->rdpmc);
	fprintf(f, "environment:\n");
	esc_fprintf(f, "  kernel:        %s\n", word(e->kernel));
	if (!host)
		fprintf(f, "  hypervisor:    unknown\n");
	else if (host->hypervisor)
		esc_fprintf(f, "  hypervisor:    %s, virtual PMU %s\n",
			    bench_hypervisor_text(hv, sizeof(hv), host->hypervisor,
						  host->hypervisor_sig, e),
			    yes_no(vpmu(e, host), "yes", "no"));
	else
		esc_fprintf(f, "  hypervisor:    %s\n", bench_hypervisor_text(hv, sizeof(hv),
			    NULL, NULL, e));
	esc_fprintf(f, "  lockdown:      %s%s\n", word(e->lockdown),
		    cpu_env_lockdown_blocks_msr(e) ? " (MSR writes forbidden)" : "");
	esc_fprintf(f, "  msr module:    %s, allow_writes %s\n",
		    yes_no(e->msr_module, "loaded", "not loaded (modprobe msr)"),
		    word(e->msr_allow_writes));
	esc_fprintf(f, "  rdpmc:         sysfs %s, user RDPMC %s%s%s\n",
		    e->rdpmc >= 0 ? rdpmc : "unknown (no core PMU driver)", user_rdpmc(),
		    td ? ", Top-down RDPMC " : "", td ? td : "");
	fprintf(f, "  nmi_watchdog:  %s\n", yes_no(e->nmi_watchdog, "1 (holds a fixed counter)", "0"));
	esc_fprintf(f, "  smt:           %s%s\n", word(e->smt_control),
		    e->smt_active < 0 ? "" : e->smt_active ? ", active" : ", inactive");
	esc_fprintf(f, "  frequency:     governor %s, driver %s, turbo %s\n", word(e->governor),
		    word(e->freq_driver), yes_no(e->turbo, "on", "off"));
	esc_fprintf(f, "  isolation:     isolated %s, nohz_full %s\n",
		    !e->isolated_known ? "unknown" : *e->isolated ? e->isolated : "none",
		    !e->nohz_full_known ? "unknown" : *e->nohz_full ? e->nohz_full : "none");
	esc_fprintf(f, "  microcode:     %s\n", word(e->microcode));
}
