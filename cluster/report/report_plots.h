/* SPDX-License-Identifier: MIT */
/* The report's pictures (svg_plot.h): per analysed stage, the values and contrasts with their
 * Fieller and bootstrap intervals, and each test's observed logit against the fitted one; over
 * several runs or stages, each main quantity against player 1's nodes per turn (log2), a series
 * per engine so that a replication by an external engine stands beside Carrera's runs. */
#ifndef CARRERA_REPORT_PLOTS_H
#define CARRERA_REPORT_PLOTS_H

#include <stddef.h>

#include "report_run.h"

/* One analysed stage as a column of the comparison. */
typedef struct ReportColumn {
    const ReportRun *run;
    const ReportStage *stage;
    char label[160]; /* player 1's engine and nodes per turn, and the stage */
} ReportColumn;

/* Writes the values plot to values_path and the fit plot to fit_path for stage s of r (titled
 * with label). Returns 0, or -1 with a message. */
int report_plot_stage(const char *values_path, const char *fit_path, const ReportRun *r,
                      const ReportStage *s, const char *label, char *err, size_t errlen);

/* The convergence plot of the columns (against player 1's nodes when they differ in it, else
 * column by column). Returns 0, or -1 with a message. */
int report_plot_convergence(const char *path, const ReportColumn *c, int n, char *err,
                            size_t errlen);

/* Whether the columns differ in player 1's nodes per turn (all set), so that the convergence is
 * plotted against them. */
bool report_columns_by_nodes(const ReportColumn *c, int n);

#endif
