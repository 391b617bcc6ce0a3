/*
 * msr/pmu/pmu_gp_int.h - what the two files of msr/pmu/pmu_gp.h share, private to
 * them: each vendor's registers (msr/pmu/pmu_gp.c: the table), and the
 * message helper.  msr/pmu/pmu_gp_owner.c holds the ownership checks.
 */
#ifndef BARETMA_PMU_GP_INT_H
#define BARETMA_PMU_GP_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msr/pmu/pmu_gp.h"

/* One vendor's PMU registers (msr/regs/intel_regs.h, msr/regs/amd_regs.h). */
struct gp_regs {
	uint32_t global_ctl;     /* IA32_PERF_GLOBAL_CTRL / PERF_CNTR_GLOBAL_CTL */
	uint32_t global_status;  /* read-only */
	uint32_t status_clear;   /* write-1-to-clear */
	uint32_t sel0, ctr0;     /* counter 0's select and counter */
	unsigned stride;         /* between counter x and x+1: Intel 1, AMD 2 */
	uint64_t en, intr;       /* the select's EN and INT bits */
	uint64_t event_mask;     /* the select's event code bits */
};

/* The registers of @v (Intel or AMD). */
const struct gp_regs *gp_regs_of(enum gp_vendor v);

/* GP counter @x's select, and its counter as read (IA32_PMCx, PERF_CTRx). */
uint32_t gp_sel_msr(const struct gp_regs *r, unsigned x);
uint32_t gp_ctr_msr(const struct gp_regs *r, unsigned x);

/* The event code of select value @sel ("event 0x3c"; AMD: 12 bits). */
unsigned gp_sel_event(enum gp_vendor v, uint64_t sel);

/* Append @text to @buf (@n bytes) after "; " when not empty; a text that
 * does not fit is cut and ends in "..." (msr/pmu/pmu_gp.h). */
void gp_why_add(char *buf, size_t n, const char *text);

#endif
