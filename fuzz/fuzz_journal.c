/*
 * fuzz/fuzz_journal.c - the run journal reader (msr/journal/journal_format.c,
 * msr/journal/journal_list.c): the input is written as "<state dir>/run-4242.journal"
 * and read with journal_load() and, as `msr write` and `pmu restore` find
 * journals, journal_find_cpu(); the empty input leaves the state directory
 * without a journal.
 *
 * Besides crashes, leaks and undefined behaviour, two properties abort:
 *   - what journal_load() accepts is within the limits of msr/journal/journal.h
 *     (counts, CPU numbers, distinct registers, the CPU list,
 *     NUL-terminated strings) and holds only what baretma changes ("What a
 *     journal may hold", restated here from its sources, not taken from
 *     the code under test): the settings files of msr/guard/settings.h with
 *     their kernel values, run/enable journals pmu_program()'s four
 *     registers unmarked, write journals the architectural PMU registers
 *     (msr/regs/intel_regs.h, after linux msr-index.h) or any register marked unsafe-msr;
 *   - the format is canonical (msr/journal/journal.h: "single spaces, nothing
 *     else", hex without leading zeros, exact percent-encoding), so a
 *     journal it accepts, written out again by the rules of the header,
 *     is the input byte for byte (a reg's " unsafe-msr" mark included),
 *     once the input's reg and setting lines
 *     (which may come in any mix) are put regs first, each kind in its
 *     order, as the writer puts them.
 * Never restores anything: journal_restore_data() would write MSRs and
 * /sys files.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msr/journal/journal.h"

#define FUZZ_PID 4242 /* the journal's name; kill(4242, 0) only looks */

static char dir[64], path[128];

static int setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/baretma-fuzz-state.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/run-%d.journal", dir, FUZZ_PID);
	setenv("BARETMA_STATE_DIR", dir, 1);
	setenv("BARETMA_SYSROOT", "/nonexistent-sysroot", 1);
	return 0;
}

/* An empty input stands for an empty state directory (no journal at all). */
static int put(const uint8_t *data, size_t size)
{
	if (!size)
		return unlink(path) && errno != ENOENT ? -1 : 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int rc = fd >= 0 && write(fd, data, size) == (ssize_t)size ? 0 : -1;

	if (fd >= 0)
		close(fd);
	return rc;
}

/* encode() of msr/journal/journal.h's rules, appended at @o. */
static size_t enc(char *t, size_t o, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= 0x20 || c >= 0x7f || c == '%')
			o += (size_t)sprintf(t + o, "%%%02X", c);
		else
			t[o++] = (char)c;
	}
	return o;
}

/* The text of @d by the rules of msr/journal/journal.h. */
static char *render(const struct journal_data *d, size_t *len)
{
	size_t cap = 8192 + (size_t)d->nregs * 64 + (size_t)d->nsettings * 2048, o;
	char *t = malloc(cap);

	if (!t)
		abort();
	o = (size_t)sprintf(t, "# baretma journal v2\npid %ld\nstarttime %llu\ntime %lld\n"
			    "cmd %s\nbackend %s\nkind %s\nuser_only %d\n", (long)d->pid,
			    d->starttime, d->time, d->cmd, d->backend,
			    journal_kind_name(d->kind), d->user_only);
	for (int i = 0; i < d->nregs; i++)
		o += (size_t)sprintf(t + o, "reg %u 0x%" PRIx32 " 0x%" PRIx64 "%s\n", d->regs[i].cpu,
				     d->regs[i].msr, d->regs[i].saved,
				     d->regs[i].unsafe ? " unsafe-msr" : "");
	for (int i = 0; i < d->nsettings; i++) {
		memcpy(t + o, "setting ", 8);
		o = enc(t, o + 8, d->settings[i].path);
		t[o++] = ' ';
		o = enc(t, o, d->settings[i].value);
		t[o++] = '\n';
	}
	*len = o;
	return t;
}

/* The accepted input with its setting lines moved after its reg lines. */
static char *regs_first(const uint8_t *data, size_t size)
{
	char *t = malloc(size + 1);
	size_t o = 0;

	if (!t)
		abort();
	for (int pass = 0; pass < 3; pass++) {
		int line = 0;

		for (size_t s = 0; s < size; line++) {
			const uint8_t *nl = memchr(data + s, '\n', size - s);
			size_t n = nl ? (size_t)(nl - (data + s)) + 1 : size - s;
			int kind = line < 8 ? 0 : !memcmp(data + s, "reg ", 4) ? 1 : 2;

			if (kind == pass) {
				memcpy(t + o, data + s, n);
				o += n;
			}
			s += n;
		}
	}
	return t;
}

/* The files and values baretma changes (msr/guard/settings.h, from the kernel:
 * arch/x86/events/core.c set_attr_rdpmc, kernel/watchdog.c, arch/x86/kernel/msr.c). */
static bool setting_ok(const char *file, const char *value)
{
	static const struct { const char *path, *values[4]; } files[] = {
		{ "/sys/bus/event_source/devices/cpu/rdpmc", { "0", "1", "2" } },
		{ "/sys/bus/event_source/devices/cpu_core/rdpmc", { "0", "1", "2" } },
		{ "/sys/bus/event_source/devices/cpu_atom/rdpmc", { "0", "1", "2" } },
		{ "/proc/sys/kernel/nmi_watchdog", { "0", "1" } },
		{ "/sys/module/msr/parameters/allow_writes", { "on", "off", "default" } },
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		for (int v = 0; !strcmp(files[i].path, file) && v < 4 && files[i].values[v]; v++)
			if (!strcmp(files[i].values[v], value))
				return true;
	return false;
}

/* What a journal of @kind may hold (linux msr-index.h addresses; AMD's
 * from linux msr-index.h: MSR_F15H_PERF_CTL0-5 / CTR0-5 at 0xc0010200-
 * 0xc001020b, MSR_AMD64_PERF_CNTR_GLOBAL_CTL 0xc0000301, _STATUS_CLR
 * 0xc0000302). */
static bool reg_ok(enum journal_kind kind, const struct journal_reg *r)
{
	uint32_t m = r->msr;
	bool counters = (m >= 0xc1 && m <= 0xc8) ||     /* IA32_PMC0-7 */
			(m >= 0x186 && m <= 0x18d) ||   /* IA32_PERFEVTSEL0-7 */
			(m >= 0x4c1 && m <= 0x4c8) ||   /* IA32_A_PMC0-7 */
			(m >= 0x309 && m <= 0x30f) ||   /* IA32_FIXED_CTR0-6 */
			(m >= 0xc0010200 && m <= 0xc001020b) || /* AMD PERF_CTL0-5 / CTR0-5 */
			m == 0xc0000301 ||              /* AMD PERF_CNTR_GLOBAL_CTL */
			m == 0x38d || m == 0x38f || m == 0x329;

	/* run, enable: what pmu_program and gp_program save - the counters,
	 * selects, controls and PERF_METRICS, never a status register */
	if (kind != JOURNAL_MSR_WRITE)
		return !r->unsafe && counters;
	/* write: the write policy's, the two write-1-to-clear status registers
	 * included */
	return r->unsafe || counters || m == 0x390 || m == 0xc0000302;
}

static void check(const struct journal_data *d, const uint8_t *data, size_t size)
{
	size_t len;
	char *t, *want;

	if (d->nregs < 0 || d->nregs > JOURNAL_MAX_REGS || d->ncpus < 0 ||
	    d->ncpus > d->nregs || d->nsettings < 0 || d->nsettings > JOURNAL_MAX_SETTINGS ||
	    d->pid <= 0 || !memchr(d->cmd, 0, sizeof(d->cmd)) ||
	    !memchr(d->backend, 0, sizeof(d->backend)) || !d->backend[0])
		abort();
	for (int i = 0; i < d->nregs; i++) {
		bool listed = false;

		if (d->regs[i].cpu >= JOURNAL_MAX_CPUS || !reg_ok(d->kind, &d->regs[i]))
			abort();
		for (int k = 0; k < i; k++)
			if (d->regs[k].cpu == d->regs[i].cpu && d->regs[k].msr == d->regs[i].msr)
				abort(); /* the same register twice */
		for (int c = 0; c < d->ncpus; c++)
			listed |= d->cpus[c] == d->regs[i].cpu;
		if (!listed)
			abort();
	}
	for (int i = 0; i < d->nsettings; i++) {
		const struct journal_setting *s = &d->settings[i];

		if (!memchr(s->path, 0, sizeof(s->path)) || !memchr(s->value, 0, sizeof(s->value)) ||
		    !setting_ok(s->path, s->value))
			abort();
	}
	t = render(d, &len);
	want = regs_first(data, size);
	if (len != size || memcmp(t, want, size))
		abort(); /* accepted, but not what the journal writer would write */
	free(want);
	free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct journal_data d;
	struct journal_info who;
	unsigned cpu = 0;

	if ((!dir[0] && setup()) || put(data, size))
		return 0;
	if (journal_load(path, &d) == 0) {
		check(&d, data, size);
		cpu = d.ncpus ? d.cpus[d.ncpus - 1] : 0;
		journal_data_free(&d);
	}
	journal_find_cpu(cpu, &who);
	journal_info_free(&who, 1);
	return 0;
}
