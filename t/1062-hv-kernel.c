/*
 * t/1062-hv-kernel - the hypervisor by its two sources, and the phrase
 * that shows them (cpu/environ.h cpu_env_hv_kernel, cpu_kmsg_hypervisor;
 * cpu/cpu.h cpu_hypervisor_signature, cpu_hypervisor_agree; bench/bench.h
 * bench_hypervisor_text).  Known answers, each from outside the code:
 *   - CPUID.40000000H signatures: KVM "KVMKVMKVM\0\0\0" (linux
 *     include/uapi/linux/kvm_para.h KVM_SIGNATURE), bhyve "bhyve bhyve "
 *     (FreeBSD sys/amd64/vmm/x86.c bhyve_id), Hyper-V "Microsoft Hv"
 *     (linux arch/x86/kernel/cpu/mshyperv.c), as EBX, ECX, EDX little-endian
 *     words worked here by hand from their ASCII bytes;
 *   - the kernel's names: hypervisor.c init_hypervisor_platform prints
 *     "Hypervisor detected: %s" with .name "KVM" (kvm.c), "Microsoft
 *     Hyper-V" (mshyperv.c), "Xen HVM" (xen/enlighten_hvm.c), "Bhyve"
 *     (bhyve.c); /sys/hypervisor/type says "xen" (drivers/xen/sys-hypervisor.c);
 *   - the /dev/kmsg record "PRIO,SEQ,TIME,FLAGS[,...];TEXT" with
 *     continuation lines " KEY=VALUE" (Documentation/ABI/testing/dev-kmsg),
 *     PRIO = facility << 3 | level, user space's records LOG_USER (1)
 *     (kernel/printk/printk.c devkmsg_write);
 *   - the caps HV_KMSG_MAX_RECORDS lines: a record past it is not found.
 * The kernel's view is read under a fake root (BARETMA_SYSROOT).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench.h"
#include "cpu/cpu.h"
#include "cpu/environ.h"
#include "t/fixture.h"
#include "t/tap.h"

static char root[PATH_MAX];

/* {eax, ebx, ecx, edx} of CPUID.40000000H, EBX..EDX from the signature's
 * ASCII bytes, lowest byte first. */
static const uint32_t kvm_regs[4] = { 0x40000001, 0x4b4d564b, 0x564b4d56, 0x0000004d };
static const uint32_t bhyve_regs[4] = { 0x40000001, 0x76796862, 0x68622065, 0x20657679 };
static const uint32_t hyperv_regs[4] = { 0x4000000b, 0x7263694d, 0x666f736f, 0x76482074 };

static void signatures(void)
{
	char sig[CPU_HV_SIG_LEN];

	cpu_hypervisor_signature(kvm_regs, sig);
	check_str(sig, "KVMKVMKVM", "KVM's signature ends at its first NUL");
	check_str(cpu_hypervisor_name(kvm_regs), "KVM", "KVM's signature names KVM");
	cpu_hypervisor_signature(bhyve_regs, sig);
	check_str(sig, "bhyve bhyve ", "bhyve's signature keeps its spaces");
	check_str(cpu_hypervisor_name(bhyve_regs), "bhyve", "bhyve's signature names bhyve");
	cpu_hypervisor_signature(hyperv_regs, sig);
	check_str(sig, "Microsoft Hv", "Hyper-V's signature");
}

static void records(void)
{
	char name[32];

	ok(cpu_kmsg_hypervisor("6,123,4567,-;Hypervisor detected: KVM", name, sizeof(name)) &&
	   !strcmp(name, "KVM"), "a kernel record (facility 0, level 6): KVM");
	ok(cpu_kmsg_hypervisor("6,9,0,-,caller=T0;Hypervisor detected: Microsoft Hyper-V\n",
			       name, sizeof(name)) && !strcmp(name, "Microsoft Hyper-V"),
	   "a record with a caller field and its newline: the whole name, no newline");
	ok(!cpu_kmsg_hypervisor("14,10,0,-;Hypervisor detected: VMware", name, sizeof(name)),
	   "a record user space wrote (facility 1, LOG_USER) is not the kernel's");
	ok(!cpu_kmsg_hypervisor(" SUBSYSTEM=cpu Hypervisor detected: KVM", name, sizeof(name)),
	   "a continuation line is not a record");
	ok(!cpu_kmsg_hypervisor("6,11,0,-;Hypervisor detected: ", name, sizeof(name)),
	   "a record without a name names nothing");
	ok(!cpu_kmsg_hypervisor("6,12,0,-;kvm-clock: Using msrs 4b564d01", name, sizeof(name)),
	   "another message is not the detection");
	ok(!cpu_kmsg_hypervisor("6,13,0,-;Hypervisor detected: KVM", name, 3),
	   "a name longer than the buffer is refused, not cut");
}

static void agree(void)
{
	ok(cpu_hypervisor_agree("KVM", "KVM"), "KVM and KVM agree");
	ok(cpu_hypervisor_agree("Hyper-V", "Microsoft Hyper-V"), "Hyper-V by both names agrees");
	ok(cpu_hypervisor_agree("Xen", "Xen HVM") && cpu_hypervisor_agree("Xen", "xen"),
	   "Xen by its CPUID name, the kernel's and /sys/hypervisor/type's agrees");
	ok(cpu_hypervisor_agree("bhyve", "Bhyve"), "bhyve and the kernel's Bhyve agree");
	ok(!cpu_hypervisor_agree("bhyve", "KVM"), "bhyve's signature and the kernel's KVM differ");
	ok(!cpu_hypervisor_agree("Hyper-V", "KVM"), "Hyper-V and KVM differ");
	ok(!cpu_hypervisor_agree(NULL, "KVM") && !cpu_hypervisor_agree("KVM", NULL),
	   "an unknown side agrees with nothing");
}

/* cpu_env_hv_kernel under the fake root holding @kmsg (NULL: no file) and
 * @type (NULL: no /sys/hypervisor/type). */
static int kernel_view(const char *kmsg, const char *type, char *name, size_t n,
		       const char **src)
{
	t_put_tree(t_in(root, "/dev/kmsg"), "");
	unlink(t_in(root, "/dev/kmsg"));
	unlink(t_in(root, "/sys/hypervisor/type"));
	if (kmsg)
		t_put_tree(t_in(root, "/dev/kmsg"), kmsg);
	if (type)
		t_put_tree(t_in(root, "/sys/hypervisor/type"), type);
	return cpu_env_hv_kernel(name, n, src);
}

/* A log of @lines lines of another message, then the detection. */
static char *log_after(unsigned lines)
{
	size_t cap = (size_t)lines * 40 + 64, len = 0;
	char *s = malloc(cap);

	if (!s)
		exit(1);
	for (unsigned i = 0; i < lines; i++)
		len += (size_t)snprintf(s + len, cap - len, "6,%u,0,-;BIOS-e820: usable\n", i);
	snprintf(s + len, cap - len, "6,%u,0,-;Hypervisor detected: KVM\n", lines);
	return s;
}

static void kernel(void)
{
	const char *src;
	char name[32], *big, line[1300];
	int rc;

	rc = kernel_view("5,0,0,-;Linux version 6.1.0\n6,1,0,-;Hypervisor detected: KVM\n"
			 " SUBSYSTEM=cpu\n6,2,0,-;kvm-clock: Using msrs\n", NULL, name,
			 sizeof(name), &src);
	ok(rc == 0 && !strcmp(name, "KVM") && src && strstr(src, "/dev/kmsg"),
	   "the kernel log's record: KVM, from /dev/kmsg");
	rc = kernel_view("6,1,0,-;Hypervisor detected: Xen HVM\n", "xen\n", name, sizeof(name), &src);
	ok(rc == 0 && !strcmp(name, "xen") && src && !strcmp(src, "/sys/hypervisor/type"),
	   "/sys/hypervisor/type before the log");
	rc = kernel_view("14,1,0,-;Hypervisor detected: VMware\n", NULL, name, sizeof(name), &src);
	ok(rc == -ENOENT && !name[0] && !src, "only a user record: unknown (-ENOENT)");
	rc = kernel_view(NULL, NULL, name, sizeof(name), &src);
	ok(rc == -ENOENT && !name[0] && !src, "no log, no /sys/hypervisor: unknown (-ENOENT)");
	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	big = t_strf("6,0,0,-;%s\n6,1,0,-;Hypervisor detected: KVM\n", line);
	rc = kernel_view(big, NULL, name, sizeof(name), &src);
	ok(rc == 0 && !strcmp(name, "KVM"), "a line longer than any record is skipped whole");
	free(big);
	big = log_after(HV_KMSG_MAX_RECORDS - 1);
	rc = kernel_view(big, NULL, name, sizeof(name), &src);
	ok(rc == 0 && !strcmp(name, "KVM"), "the detection as line HV_KMSG_MAX_RECORDS: found");
	free(big);
	big = log_after(HV_KMSG_MAX_RECORDS);
	rc = kernel_view(big, NULL, name, sizeof(name), &src);
	ok(rc == -ENOENT, "the detection one line past the cap: not read (-ENOENT)");
	free(big);
	unlink(t_in(root, "/dev/kmsg"));
	if (mkfifo(t_in(root, "/dev/kmsg"), 0600) == 0) {
		rc = cpu_env_hv_kernel(name, sizeof(name), &src);
		ok(rc == -ENOENT, "a FIFO without a writer: no wait, unknown");
		unlink(t_in(root, "/dev/kmsg"));
	} else {
		skip(1, "mkfifo refused here");
	}
}

/* bench_hypervisor_text with the kernel's @kname from @ksrc (NULL: unknown). */
static const char *phrase(const char *cpuid, const char *sig, const char *kname, const char *ksrc)
{
	static char buf[BENCH_HV_TEXT_MAX];
	struct cpu_env e;

	memset(&e, 0, sizeof(e));
	if (kname) {
		snprintf(e.hv_kernel, sizeof(e.hv_kernel), "%s", kname);
		e.hv_kernel_source = ksrc;
	}
	return bench_hypervisor_text(buf, sizeof(buf), cpuid, sig, &e);
}

static void phrases(void)
{
	static char buf[BENCH_HV_TEXT_MAX];

	check_str(phrase("KVM", "KVMKVMKVM", "KVM", "/dev/kmsg"), "KVM",
		  "agreeing sources: one name");
	check_str(phrase("Hyper-V", "Microsoft Hv", "Microsoft Hyper-V", "/dev/kmsg"), "Hyper-V",
		  "agreeing by two names: one name");
	check_str(phrase("bhyve", "bhyve bhyve ", "KVM", "/dev/kmsg 'Hypervisor detected: ...'"),
		  "KVM (the kernel, by /dev/kmsg 'Hypervisor detected: ...'), CPUID 0x40000000 says "
		  "'bhyve bhyve '", "disagreeing sources: both, each with its source");
	check_str(phrase(NULL, "", "xen", "/sys/hypervisor/type"),
		  "xen (the kernel, by /sys/hypervisor/type), CPUID.1:ECX[31] clear (no hypervisor "
		  "by CPUID)", "the kernel's hypervisor where CPUID says none: both");
	check_str(phrase("bhyve", "bhyve bhyve ", NULL, NULL), "bhyve",
		  "the kernel's view unknown: CPUID's name");
	check_str(phrase(NULL, "", NULL, NULL), "none (bare metal)", "bare metal by CPUID alone");
	check_str(phrase("unknown", "ACRNACRNACRN", NULL, NULL),
		  "unknown (CPUID 0x40000000 says 'ACRNACRNACRN')",
		  "a signature not in the list is shown");
	check_str(bench_hypervisor_text(buf, sizeof(buf), "bhyve", "bhyve bhyve ", NULL), "bhyve",
		  "a dump (no kernel to ask): CPUID's name");
}

int main(void)
{
	t_scratch(root, "1062");
	setenv("BARETMA_SYSROOT", root, 1);
	unsetenv("SUDO_USER");
	signatures();
	records();
	agree();
	kernel();
	phrases();
	t_rm_rf(root);
	return done_testing();
}
