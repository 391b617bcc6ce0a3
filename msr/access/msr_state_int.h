/*
 * msr/access/msr_state_int.h - what the two files of the state-file backend
 * share, private to them (the format: msr/access/msr.h):
 *   msr/access/msr_state.c        the backend: loading, reloading, persisting, ops
 *   msr/access/msr_state_parse.c  the text: lines into registers, and the index
 *                          that finds a register in O(log n)
 * Nothing else includes it.  Everything here is async-signal-safe except
 * where said: a reload parses from the restore path's signal handler.
 */
#ifndef BARETMA_MSR_STATE_INT_H
#define BARETMA_MSR_STATE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct st_reg {
	unsigned cpu;
	uint32_t msr;
	uint64_t val;     /* current value */
	uint64_t orig;    /* value as written in the file at open */
	size_t vstart;    /* value token [vstart, vend) in text */
	size_t vend;
	unsigned line;
};

/* One entry of the index: a register's (cpu, msr) and where it is. */
struct st_key {
	uint64_t key;     /* cpu << 32 | msr */
	uint32_t reg;     /* index into regs (file order) */
};

/* One parse of the file: its bytes, its registers and their index. */
struct st_view {
	char *text;       /* original bytes, cap + 1 */
	size_t textlen;
	struct st_reg *regs; /* in file order, regcap */
	struct st_key *idx;  /* regs sorted by (cpu, msr), regcap */
	size_t nregs;
};

/*
 * state_parse - parse @v->text into @v->regs and @v->idx (room for
 * @regcap registers).  At most MSR_STATE_LINES_MAX lines (msr/access/msr.h).
 * When @err is not NULL (never from a reload, which may run in a signal
 * handler: no snprintf there) it receives the reason, naming the file
 * as @shown (already escaped) and the line.  Returns 0, -EINVAL
 * (malformed, a register listed twice, too many lines) or -EFBIG (more
 * registers than @regcap: only a reload of a grown file gets there).
 * O(n log n) in the number of lines.
 */
int state_parse(struct st_view *v, size_t regcap, const char *shown, char **err);

/* state_find - the register (@cpu, @msr) of a parsed view, or NULL. */
struct st_reg *state_find(const struct st_view *v, unsigned cpu, uint32_t msr);

/* state_cpu_hash - FNV-1a over the (cpu << 32 | msr, value) of every
 * register of @cpu in a parsed view, in (cpu, msr) order: a fingerprint of
 * that CPU's registers. */
uint64_t state_cpu_hash(const struct st_view *v, unsigned cpu);

/* state_cpu_listed - whether a parsed view has a register of @cpu. */
bool state_cpu_listed(const struct st_view *v, unsigned cpu);

#endif
