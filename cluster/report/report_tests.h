/* SPDX-License-Identifier: MIT */
/* The games of one stage of a run as a Markdown table, a row per imbalance test: pair counts,
 * results, the score with its per-pair and per-game standard errors, the colour split, draws,
 * terminations, lengths and nodes (report.h). */
#ifndef CARRERA_REPORT_TESTS_H
#define CARRERA_REPORT_TESTS_H

#include <stdio.h>

#include "report_run.h"

/* The material of an imbalance, side under test minus the other: "+Q -A", "+3P". */
void report_material_text(const int material[TUNE_PIECES], char *out, size_t len);

void report_tests_table(FILE *f, const ReportRun *r, const ReportStage *s);

#endif
