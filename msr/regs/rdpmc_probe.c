/*
 * msr/regs/rdpmc_probe.c - can this process execute RDPMC, and how to make it.
 *
 * At CPL 3 RDPMC needs CR4.PCE, else #GP, which Linux delivers as SIGSEGV
 * (linux arch/x86/kernel/traps.c exc_general_protection).  The kernel sets CR4.PCE
 * per mm: always with sysfs rdpmc=2, never with 0, and with 1 only while
 * the running mm has a perf event mmapped (arch/x86/events/core.c
 * x86_pmu_event_mapped -> mm->context.perf_rdpmc_allowed, cr4_update_pce).
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "cpu/cpu.h"
#include "msr/regs/rdpmc.h"

/* ------------------------------------------------------------- probe */

/* Child exit codes. */
enum { PROBE_OK = 0, PROBE_FAULTED = 2, PROBE_NO_HANDLER = 3 };

#define PROBE_STACK_BYTES (64 * 1024)

/*
 * The kernel's struct sigaction for rt_sigaction(2) on x86-64
 * (arch/x86/include/uapi/asm/signal.h); x86-64 signal frames need
 * SA_RESTORER (arch/x86/kernel/signal_64.c), 0x04000000 in that header.
 */
struct probe_ksigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};
#define PROBE_SA_RESTORER 0x04000000ul

/* Raw exit_group: not glibc's _exit, which sanitizers intercept (leak
 * checks) in an address space the child shares with its parent. */
static __attribute__((noreturn)) void probe_exit(int code)
{
	for (;;)
		syscall(SYS_exit_group, code);
}

/* Not instrumented: it runs on the child's own stack, which ASan's
 * noreturn bookkeeping (__asan_handle_no_return) would warn about. */
__attribute__((no_sanitize_address))
static void probe_on_segv(int sig)
{
	(void)sig;
	probe_exit(PROBE_FAULTED);
}

/* Never reached: the handler exits instead of returning. */
__attribute__((no_sanitize_address))
static void probe_restorer(void)
{
	probe_exit(PROBE_NO_HANDLER);
}

/*
 * The child shares the parent's mm (CLONE_VM), so it runs under exactly
 * the CR4.PCE decision the parent would get: with rdpmc=1 the permission
 * belongs to the mm that mmapped the perf event, and a fork()ed copy does
 * not have that mapping (perf_mmap marks it VM_DONTCOPY,
 * kernel/events/core.c).  Its signal handlers are its own (no
 * CLONE_SIGHAND), installed with the raw syscall so no library state in
 * the shared memory changes.  A handler that exits also keeps the kernel
 * from logging the fault and from dumping core.
 */
__attribute__((no_sanitize_address))
static int probe_child(void *arg)
{
	const uint32_t *ecx = arg;
	struct probe_ksigaction sa = {
		.handler = probe_on_segv,
		.flags = PROBE_SA_RESTORER,
		.restorer = probe_restorer,
	};

	if (syscall(SYS_rt_sigaction, SIGSEGV, &sa, NULL, sizeof(sa.mask)) != 0)
		probe_exit(PROBE_NO_HANDLER);
	(void)rdpmc_raw(*ecx);
	probe_exit(PROBE_OK);
}

int rdpmc_probe(uint32_t ecx)
{
	void *stack;
	int status, rc;
	pid_t pid;

	stack = mmap(NULL, PROBE_STACK_BYTES, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED)
		return -errno;
	/* the child inherits the calling thread's CPU affinity, so it probes
	 * the CPU the caller is pinned to.  Exit signal 0, not SIGCHLD: the
	 * host's SIGCHLD disposition never sees the child, neither a handler
	 * that reaps with waitpid(-1) nor SIG_IGN, whose auto-reaping applies
	 * to SIGCHLD children only (kernel/signal.c do_notify_parent).  Such
	 * a "clone" child is waited for with __WCLONE alone (wait(2)), which
	 * the host's waitpid(-1, ...) without __WCLONE/__WALL never matches. */
	pid = clone(probe_child, (char *)stack + PROBE_STACK_BYTES, CLONE_VM, &ecx);
	if (pid < 0) {
		rc = -errno;
		goto out;
	}
	while (waitpid(pid, &status, __WCLONE) < 0) {
		if (errno != EINTR) {
			rc = -errno;
			goto out;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == PROBE_OK)
		rc = 0;
	else if (WIFEXITED(status) && WEXITSTATUS(status) == PROBE_FAULTED)
		rc = -EFAULT;
	else
		rc = -EIO;
out:
	munmap(stack, PROBE_STACK_BYTES);
	return rc;
}

/* ------------------------------------------------------ enable / disable */

/* TOPDOWN.SLOTS as perf's raw encoding: event 0x00, umask 0x04 (fixed
 * counter pseudo-encodings use umask = index + 1; linux
 * arch/x86/events/intel/core.c's FIXED_EVENT_CONSTRAINT(0x0400, 3) "SLOTS"). */
#define PERF_CONFIG_TOPDOWN_SLOTS 0x0400

/* The page each key fd has mapped: unmapping it is what drops the
 * permission (x86_pmu_event_unmapped), closing the fd alone does not.
 * Not thread-safe: the bench enables and disables from one thread. */
#define RDPMC_SELF_MAX 4
static struct { int fd; void *page; } self_keys[RDPMC_SELF_MAX];

static int open_key(uint32_t type, uint64_t config)
{
	struct perf_event_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	/* a key, never enabled: it takes no counter.  User-only counting
	 * keeps it legal at perf_event_paranoid 2 for non-root callers. */
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &a, 0 /* this task */, -1 /* any CPU */, -1,
		     PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

static int key_slot(int fd)
{
	for (int i = 0; i < RDPMC_SELF_MAX; i++)
		if (self_keys[i].page && self_keys[i].fd == fd)
			return i;
	return -1;
}

int rdpmc_enable_self(int *fd_out)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	void *page = MAP_FAILED;
	int fd, slot, rc;

	fd = open_key(PERF_TYPE_RAW, PERF_CONFIG_TOPDOWN_SLOTS);
	if (fd < 0)
		fd = open_key(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	if (fd < 0) {
		rc = fd;
		goto out;
	}
	/* mapping the user page is what sets CR4.PCE under rdpmc=1 */
	page = mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, 0);
	if (page == MAP_FAILED) {
		rc = -errno;
		goto out;
	}
	/* cap_user_rdpmc: the kernel lets this event be read with RDPMC
	 * (arch_perf_update_userpage; clear with rdpmc=0) */
	rc = -EOPNOTSUPP;
	if (!((volatile struct perf_event_mmap_page *)page)->cap_user_rdpmc)
		goto out;
	rc = -EMFILE;
	for (slot = 0; slot < RDPMC_SELF_MAX && self_keys[slot].page; slot++)
		;
	if (slot == RDPMC_SELF_MAX)
		goto out;
	self_keys[slot].fd = fd;
	self_keys[slot].page = page;
	*fd_out = fd;
	return 0;
out:
	if (page != MAP_FAILED)
		munmap(page, pg);
	if (fd >= 0)
		close(fd);
	return rc;
}

void rdpmc_disable_self(int fd)
{
	int slot = key_slot(fd);

	if (slot >= 0) {
		munmap(self_keys[slot].page, (size_t)sysconf(_SC_PAGESIZE));
		self_keys[slot].page = NULL;
		self_keys[slot].fd = -1;
	}
	if (fd >= 0)
		close(fd);
}
