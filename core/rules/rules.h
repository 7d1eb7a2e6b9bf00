/* SPDX-License-Identifier: MIT */
/* The choice of turn rules (docs/rules.md section 4): plain data shared by the FEN reader, the fast
 * core and the command line. The turn logic itself is in turn.h. */
#ifndef CARRERA_RULES_H
#define CARRERA_RULES_H

#include "types.h"

typedef enum TurnRules {
    TURNS_SINGLE,      /* one movement per turn: ordinary chess */
    TURNS_MARSEILLAIS, /* classic Marseillais: two movements, a first-movement check ends it */
    TURNS_BALANCED,    /* as classic, but White's first turn is one movement */
    TURNS_GALVIN,      /* balanced, no check: the game is won by capturing the king */
    TURNS_BENNEKOM,    /* balanced, the second movement by the same piece, skipped if it has none */
    TURNS_EXTRAMOVE,   /* the second movement optional, by another piece, never a capture */
    TURNS_NB
} TurnRules;

typedef enum EpRule {
    EP_CLASSIC, /* any pawn that double-stepped in the opponent's last turn, up to two */
    EP_MODERN   /* only a pawn that double-stepped with the opponent's second movement */
} EpRule;

typedef struct Rules {
    TurnRules turns;
    EpRule ep;
} Rules;

/* Rule-set names as the command line and UCI write them: single, marseillais,
 * marseillais-balanced, galvin, bennekom, extramove; and classic, modern. */
const char *turn_rules_name(TurnRules t);
bool turn_rules_parse(const char *name, TurnRules *out);
const char *ep_rule_name(EpRule e);
bool ep_rule_parse(const char *name, EpRule *out);

/* Whether White's first turn is a single movement (balanced-style rule sets). */
static inline bool rules_balanced(const Rules *r)
{
    return r->turns == TURNS_BALANCED || r->turns == TURNS_GALVIN || r->turns == TURNS_BENNEKOM ||
           r->turns == TURNS_EXTRAMOVE;
}

/* How many en passant squares a position at a turn boundary may carry (docs/rules.md 4.7). */
static inline int rules_max_ep(const Rules *r)
{
    if (r->turns == TURNS_GALVIN)
        return 0;
    if (r->turns == TURNS_SINGLE || r->turns == TURNS_EXTRAMOVE || r->ep == EP_MODERN)
        return 1;
    return 2;
}

#endif
