/* SPDX-License-Identifier: MIT */
/* `carrera report RESULT.h5... [--out DIR] [--replicates N] [--title TEXT]`: a Markdown report
 * with SVG plots of piece-value runs (report/report.h), recomputed from their games. */
#ifndef CARRERA_REPORT_COMMAND_H
#define CARRERA_REPORT_COMMAND_H

#include <stdio.h>

/* Runs `carrera report ARGS` (argv[0] is "report"); returns the exit status. */
int report_command(int argc, char **argv);

void report_usage(FILE *out);

#endif
