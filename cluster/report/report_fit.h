/* SPDX-License-Identifier: MIT */
/* The analysis of one stage's imbalance tests (core/stats/tune_analysis.h) as Markdown: the fit's
 * quality, the quantities with their delta, Fieller and bootstrap intervals, each test's
 * residuals, the leave-one-out table, the brackets, and what would falsify the result, said from
 * the numbers (report.h). */
#ifndef CARRERA_REPORT_FIT_H
#define CARRERA_REPORT_FIT_H

#include <stdio.h>

#include "report_run.h"

/* The quantities the leave-one-out, the comparison and the convergence plot follow, in order. */
#define REPORT_MAIN_QUANTITIES 8
extern const char *const report_main_quantities[REPORT_MAIN_QUANTITIES];

/* |z| above this is flagged in the residual and leave-one-out tables. */
#define REPORT_FLAG_Z 2.5

/* The index of the quantity named name in a->q, or -1. */
int report_quantity_index(const TuneAnalysis *a, const char *name);

/* A quantity's Fieller interval as text, 2 decimals. */
void report_fieller_text(const TuneEstimate *e, char *out, size_t len);

/* Every table of the analysis of stage s, or why there is none. */
void report_fit_tables(FILE *f, const ReportRun *r, const ReportStage *s);

/* The "What would falsify this" paragraph of stage s. */
void report_falsify(FILE *f, const ReportRun *r, const ReportStage *s);

#endif
