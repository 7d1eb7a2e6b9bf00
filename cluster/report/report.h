/* SPDX-License-Identifier: MIT */
/* `carrera report`: one self-contained Markdown page on piece-value runs (carrera tune's
 * imbalance method, or any match with imbalances), recomputed from the games of each result
 * file and never from the values it stored: per stage and test the pair counts, results, score
 * with both standard errors, colour split, draws, terminations; the fit's values, contrasts and
 * ratios with delta, Fieller and bootstrap intervals; chi2, residuals, leave-one-out and
 * brackets; what would falsify it; with several runs a comparison and a convergence plot; SVG
 * plots beside the page; and the provenance of every number. */
#ifndef CARRERA_REPORT_H
#define CARRERA_REPORT_H

#include <stddef.h>
#include <stdio.h>

typedef struct ReportRequest {
    const char *const *paths; /* the result files */
    size_t n_paths;
    const char *out_dir;      /* NULL: beside the first file, its name without .h5 and -report */
    int replicates;           /* of the bootstrap */
    const char *title;        /* NULL: a default */
    const char *command_line; /* how the report was asked for, for its provenance */
} ReportRequest;

/* Writes DIR/report.md and its SVG files, printing each path written on out. Returns the exit
 * status, after a `carrera: error:` line naming the file and the cause unless EXIT_OK:
 * EXIT_USAGE for a file that cannot be analysed, EXIT_FAILED for an output that cannot be
 * written or memory. */
int report_write(const ReportRequest *req, FILE *out);

#endif
