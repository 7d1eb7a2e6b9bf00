/* SPDX-License-Identifier: MIT */
/* Perft with per-root-move counts, printed the way Stockfish's `go perft` prints them. */
#include "divide.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "move.h"
#include "progress.h"
#include "run_error.h"

bool divide_parse_count(const char *c, uint64_t *count)
{
    while (*c == ' ' || *c == '\t')
        c++;
    if (!isdigit((unsigned char)*c))
        return false;
    uint64_t value = 0;
    for (; isdigit((unsigned char)*c); c++) {
        if (value > (UINT64_MAX - 9) / 10)
            return false;
        value = value * 10 + (uint64_t)(*c - '0');
    }
    *count = value;
    return *c == '\0';
}

bool divide_parse_line(const char *line, char sep, char move[DIVIDE_MOVE_MAX], uint64_t *count)
{
    const char *end = strchr(line, sep);
    if (!end || end == line || (size_t)(end - line) >= DIVIDE_MOVE_MAX)
        return false;
    for (const char *c = line; c < end; c++)
        if (isspace((unsigned char)*c) || *c == ':')
            return false;
    if (!divide_parse_count(end + 1, count))
        return false;
    memcpy(move, line, (size_t)(end - line));
    move[end - line] = '\0';
    return true;
}

int divide_parse_depth(const char *text, int *depth, char *err, size_t errlen)
{
    /* Digits only: strtol would take " 5", "+5" and "5x" apart silently. */
    int value = 0;
    const char *c = text;
    if (*c == '\0')
        goto bad;
    for (; *c; c++) {
        if (*c < '0' || *c > '9')
            goto bad;
        value = value * 10 + (*c - '0');
        if (value > PERFT_MAX_DEPTH)
            goto bad;
    }
    *depth = value;
    return 0;
bad:
    return errmsg_fail(err, errlen, "bad depth '%s': must be a whole number from 0 to %d", text,
                       PERFT_MAX_DEPTH);
}

/* By movement: the count below each first movement (its one-movement turn if that is
 * complete, and each of its second movements). */
static uint64_t divide_movements(FILE *out, const Position *p, const Rules *r, int depth,
                                 bool castle960)
{
    TurnList turns = { 0 };
    if (!position_turns(p, r, &turns))
        exit(run_error(EXIT_FAILED, "out of memory listing the turns"));
    uint64_t total = 0;
    Position child;
    for (size_t i = 0; i < turns.n; i++) {
        const Turn *t = &turns.v[i];
        char text[TURN_TEXT_MAX];
        /* Turns come grouped by first movement: count the group at its first member. */
        if (i > 0 && turns.v[i - 1].m[0] == t->m[0])
            continue;
        uint64_t count = depth == 1 ? 1 : 0;
        for (size_t j = i; depth > 1 && j < turns.n && turns.v[j].m[0] == t->m[0]; j++) {
            const Turn *u = &turns.v[j];
            if (u->n == 2 && depth == 2) {
                count++;
                continue;
            }
            position_make_turn(p, r, u, &child);
            count += perft_movements(&child, r, depth - u->n);
        }
        move_to_uci(t->m[0], p->variant, castle960, text);
        fprintf(out, "%s: %" PRIu64 "\n", text, count);
        fflush(out);
        total += count;
    }
    turn_list_free(&turns);
    return total;
}

int divide_print(FILE *out, const Position *p, const Rules *r, PerftUnit unit, int depth,
                 bool divide, bool castle960, const PerftRunOptions *o)
{
    uint64_t total;
    if (unit == UNIT_MOVEMENT) {
        if (depth == 0)
            total = 1;
        else if (divide)
            total = divide_movements(out, p, r, depth, castle960);
        else
            total = perft_movements(p, r, depth);
    } else {
        Progress progress;
        progress_start(&progress, "perft", o->quiet);
        PerftJob job = { .root = p,
                         .rules = *r,
                         .depth = depth,
                         .threads = o->threads,
                         .hash_bytes = o->hash_bytes,
                         .progress = progress_perft,
                         .progress_ctx = &progress };
        PerftResult res;
        int rc = perft_job_run(&job, &res);
        progress_finish(&progress);
        if (rc != 0) {
            run_error(EXIT_FAILED, "out of memory (hash table of %zu MB or work units)",
                      o->hash_bytes >> 20);
            return -1;
        }
        for (size_t i = 0; divide && i < res.n_root; i++) {
            char text[TURN_TEXT_MAX];
            turn_to_uci(&res.root[i].turn, p->variant, castle960, text);
            fprintf(out, "%s: %" PRIu64 "\n", text, res.root[i].nodes);
        }
        total = res.nodes;
        perft_result_free(&res);
    }
    if (divide)
        fputc('\n', out);
    if (r->turns != TURNS_SINGLE || unit == UNIT_MOVEMENT)
        fprintf(out, "Unit: %s (%s, %s en passant)\n", unit == UNIT_TURN ? "turns" : "movements",
                turn_rules_name(r->turns), ep_rule_name(r->ep));
    fprintf(out, "Nodes searched: %" PRIu64 "\n", total);
    fflush(out);
    return 0;
}

bool divide_add(Divide *d, const char *move, uint64_t count)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 64;
        DivideLine *grown = realloc(d->v, cap * sizeof *grown);
        if (!grown)
            return false;
        d->v = grown;
        d->cap = cap;
    }
    DivideLine *l = &d->v[d->n++];
    snprintf(l->move, sizeof l->move, "%s", move);
    l->count = count;
    d->total += count;
    return true;
}

void divide_clear(Divide *d)
{
    d->n = 0;
    d->total = 0;
}

void divide_free(Divide *d)
{
    free(d->v);
    *d = (Divide){ 0 };
}
