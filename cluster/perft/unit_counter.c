/* SPDX-License-Identifier: MIT */
/* Work units counted on one rank's threads. A unit is one subtree; the rank's threads share it as
 * perft on threads shares a whole tree (perft.c: the splitter cuts it further, the threads take
 * the pieces one at a time), all probing the rank's one hash table. */
#define _POSIX_C_SOURCE 200809L

#include "unit_counter.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "errmsg.h"
#include "perft.h"

int unit_counter_init(UnitCounter *c, const Variant *v, const Rules *r, int threads,
                      size_t hash_bytes, char *err, size_t errlen)
{
    *c = (UnitCounter){ v, *r, threads > 0 ? threads : 1, NULL, { 0 } };
    if (hash_bytes > 0) {
        c->tt = perft_tt_new(hash_bytes);
        if (!c->tt)
            return errmsg_fail(err, errlen, "out of memory for a hash table of %zu MB",
                               hash_bytes >> 20);
    }
    return 0;
}

void unit_counter_free(UnitCounter *c)
{
    perft_tt_free(c->tt);
    c->tt = NULL;
}

/* perft on the counter's threads. One thread counts directly: the split only serves to share. */
static uint64_t count_threads(UnitCounter *c, const Position *p, int depth)
{
    if (c->threads <= 1)
        return perft_turns_hashed(p, &c->rules, depth, c->tt, &c->work);
    PerftJob job = {
        .root = p, .rules = c->rules, .depth = depth, .threads = c->threads, .tt = c->tt
    };
    PerftResult res;
    /* Out of memory for the pieces, one thread still counts the unit. */
    if (perft_job_run(&job, &res) != 0)
        return perft_turns_hashed(p, &c->rules, depth, c->tt, &c->work);
    const uint64_t nodes = res.nodes;
    perft_tt_work_add(&c->work, &res.work);
    perft_result_free(&res);
    return nodes;
}

int unit_counter_count(UnitCounter *c, const WorkUnit *u, uint64_t *nodes, double *seconds,
                       char *err, size_t errlen)
{
    double start = monotonic_seconds();
    Position p;
    char why[ERRMSG_LEN];
    if (u->depth < 0 || split_unit_position(u, c->variant, &c->rules, &p, why, sizeof why) != 0)
        return errmsg_fail(err, errlen, "unit %llu: bad position '%s' or depth %d: %s",
                           (unsigned long long)u->id, u->fen, (int)u->depth,
                           u->depth < 0 ? "negative depth" : why);
    *nodes = count_threads(c, &p, u->depth);
    *seconds = monotonic_seconds() - start;
    return 0;
}
