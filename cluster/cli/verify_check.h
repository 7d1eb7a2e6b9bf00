/* SPDX-License-Identifier: MIT */
/* One position of `carrera verify`: its depth (fixed, or the deepest whose perft fits the node
 * budget), a suite's given counts against Carrera's, then bisect's search against the engine.
 * The outcome is data that the journal stores and the reports read. */
#ifndef CARRERA_VERIFY_CHECK_H
#define CARRERA_VERIFY_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "bisect_search.h"
#include "verify_groups.h"
#include "verify_sources.h"

typedef enum OutcomeStatus {
    OUTCOME_AGREE,
    OUTCOME_DIFFER,        /* the engine disagrees: finding and group */
    OUTCOME_ENGINE_FAILED, /* it crashed, hung or printed nonsense: message */
    OUTCOME_SUITE_WRONG    /* the suite's count is not Carrera's: message; not sent on */
} OutcomeStatus;

typedef struct Outcome {
    bool done;
    OutcomeStatus status;
    int depth;      /* the depth checked */
    uint64_t nodes; /* Carrera's perft there (AGREE and DIFFER) */
    Finding finding;
    char group[GROUP_KEY_MAX];
    char *message;
} Outcome;

void outcome_free(Outcome *o);

/* How positions are checked: fixed depth (depth > 0) or the node budget. */
typedef struct CheckPlan {
    BisectRules b;
    int depth;
    uint64_t budget;
} CheckPlan;

/* Checks p against the engine into *out. The engine must be started; after an engine failure it
 * may be stopped (start it again). */
void verify_check(const CheckPlan *plan, Oracle *engine, const VerifyPosition *p, Outcome *out);

#endif
