/* SPDX-License-Identifier: MIT */
/* The reports of `carrera verify`: for people on stdout (the findings grouped, each group's
 * smallest example in bisect's words, engine failures, wrong suite lines, and the summary table
 * per source), and for CI systems as JUnit XML or JSON files with every finding. */
#ifndef CARRERA_VERIFY_REPORT_H
#define CARRERA_VERIFY_REPORT_H

#include <stdio.h>

#include "verify_check.h"
#include "verify_groups.h"
#include "verify_sources.h"

/* What every report says about the run. */
typedef struct VerifyRun {
    const VerifyPositions *ps;
    const Outcome *outcomes;
    const Groups *groups;
    const char *rules; /* "capablanca, single" */
    const char *engine;
} VerifyRun;

/* The findings, failures and the summary table. */
void report_text(FILE *out, const VerifyRun *r);

/* Write the file; 0, or -1 with a message in err. */
int report_junit(const char *path, const VerifyRun *r, char *err, size_t errlen);
int report_json(const char *path, const VerifyRun *r, char *err, size_t errlen);

#endif
