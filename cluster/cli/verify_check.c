/* SPDX-License-Identifier: MIT */
/* One position of `carrera verify` (verify_check.h). */
#define _POSIX_C_SOURCE 200809L

#include "verify_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "position.h"
#include "turn.h"

void outcome_free(Outcome *o)
{
    finding_free(&o->finding);
    free(o->message);
    o->message = NULL;
}

static uint64_t count(const CheckPlan *plan, const Position *p, int depth)
{
    if (plan->b.rules.turns == TURNS_SINGLE)
        return perft(p, depth);
    return perft_turns(p, &plan->b.rules, depth);
}

/* The deepest depth whose perft fits the budget (at least 1): the next depth is tried only when
 * the growth so far says it may fit, so little is counted beyond the budget. */
static int budget_depth(const CheckPlan *plan, const Position *p, const VerifyPosition *vp,
                        uint64_t *nodes)
{
    int depth = 1;
    uint64_t here = vp->given[1] ? vp->given[1] : count(plan, p, 1), before = 1;
    while (depth < PERFT_MAX_DEPTH && here > 0) {
        uint64_t growth = here / before ? here / before : 1;
        if (here > plan->budget / growth)
            break;
        uint64_t next = depth + 1 <= vp->given_max && vp->given[depth + 1]
                            ? vp->given[depth + 1]
                            : count(plan, p, depth + 1);
        if (next > plan->budget)
            break;
        before = here;
        here = next;
        depth++;
    }
    *nodes = here;
    return depth;
}

static void fail(Outcome *out, OutcomeStatus status, const char *message)
{
    out->status = status;
    out->message = strdup(message);
}

void verify_check(const CheckPlan *plan, Oracle *engine, const VerifyPosition *vp, Outcome *out)
{
    *out = (Outcome){ .done = true };
    Position p;
    position_from_setup(&p, &vp->setup);
    uint64_t nodes = 0;
    out->depth = plan->depth > 0 ? plan->depth : budget_depth(plan, &p, vp, &nodes);
    /* A suite's counts are Carrera's before they are anyone's test: every one given up to the
     * depth checked is counted (a budget's depth may have taken them on trust). */
    char err[ERRMSG_LEN];
    for (int d = 1; d <= out->depth && d <= vp->given_max; d++) {
        if (!vp->given[d])
            continue;
        uint64_t ours = count(plan, &p, d);
        if (ours != vp->given[d]) {
            snprintf(err, sizeof err,
                     "the suite gives D%d %" PRIu64 ", Carrera counts %" PRIu64
                     ": the suite is wrong or not for these rules; not used",
                     d, vp->given[d], ours);
            fail(out, OUTCOME_SUITE_WRONG, err);
            return;
        }
    }
    int rc = bisect_search(&plan->b, engine, &p, out->depth, true, &out->finding, err, sizeof err);
    if (rc == BISECT_FAILED) {
        fail(out, OUTCOME_ENGINE_FAILED, err);
        return;
    }
    out->nodes = out->finding.kind == FINDING_NONE ? out->finding.nodes : nodes;
    if (rc == BISECT_SAME) {
        out->status = OUTCOME_AGREE;
        return;
    }
    out->status = OUTCOME_DIFFER;
    group_key(&plan->b, &out->finding, out->group);
}
