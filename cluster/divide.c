/* Perft with per-root-move counts, printed the way Stockfish's `go perft` prints them. */
#include "divide.h"

#include <inttypes.h>
#include <stdlib.h>

#include "move.h"

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
    snprintf(err, errlen, "bad depth '%s': must be a whole number from 0 to %d", text,
             PERFT_MAX_DEPTH);
    return -1;
}

/* Plain chess: the count below each legal move. */
static uint64_t divide_moves(FILE *out, const Position *p, int depth, bool castle960)
{
    Move moves[MAX_MOVES];
    Position child;
    int n = position_legal_moves(p, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        uint64_t count = 1;
        if (depth > 1) {
            position_make(p, moves[i], &child);
            count = perft(&child, depth - 1);
        }
        char text[MOVE_TEXT_MAX];
        move_to_uci(moves[i], p->variant, castle960, text);
        fprintf(out, "%s: %" PRIu64 "\n", text, count);
        /* Long divides report as they go, so a watcher sees progress. */
        fflush(out);
        total += count;
    }
    return total;
}

/* Double-move rules: the count below each complete turn, or, by movement, below each first
 * movement (its one-movement turn if that is complete, and each of its second movements). */
static uint64_t divide_turns(FILE *out, const Position *p, const Rules *r, PerftUnit unit,
                             int depth, bool castle960)
{
    TurnList turns = { 0 };
    if (!position_turns(p, r, &turns)) {
        fputs("carrera: error: out of memory listing the turns\n", stderr);
        exit(1);
    }
    uint64_t total = 0;
    Position child;
    for (size_t i = 0; i < turns.n; i++) {
        const Turn *t = &turns.v[i];
        char text[TURN_TEXT_MAX];
        uint64_t count;
        if (unit == UNIT_TURN) {
            position_make_turn(p, r, t, &child);
            count = depth > 1 ? perft_turns(&child, r, depth - 1) : 1;
            turn_to_uci(t, p->variant, castle960, text);
        } else {
            /* Turns come grouped by first movement: count the group at its first member. */
            if (i > 0 && turns.v[i - 1].m[0] == t->m[0])
                continue;
            count = depth == 1 ? 1 : 0;
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
        }
        fprintf(out, "%s: %" PRIu64 "\n", text, count);
        fflush(out);
        total += count;
    }
    turn_list_free(&turns);
    return total;
}

uint64_t divide_print(FILE *out, const Position *p, const Rules *r, PerftUnit unit, int depth,
                      bool divide, bool castle960)
{
    const bool single = r->turns == TURNS_SINGLE;
    uint64_t total;
    if (depth == 0)
        total = 1;
    else if (divide)
        total = single ? divide_moves(out, p, depth, castle960)
                       : divide_turns(out, p, r, unit, depth, castle960);
    else if (unit == UNIT_MOVEMENT)
        total = perft_movements(p, r, depth);
    else
        total = perft_turns(p, r, depth);
    if (divide)
        fputc('\n', out);
    if (!single || unit == UNIT_MOVEMENT)
        fprintf(out, "Unit: %s (%s, %s en passant)\n", unit == UNIT_TURN ? "turns" : "movements",
                turn_rules_name(r->turns), ep_rule_name(r->ep));
    fprintf(out, "Nodes searched: %" PRIu64 "\n", total);
    fflush(out);
    return total;
}
