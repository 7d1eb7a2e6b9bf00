/* SPDX-License-Identifier: MIT */
/* The reference turn rules (docs/rules.md section 4): a second implementation of the Marseillais
 * family on the mailbox Setup, written from docs/rules.md alone, slow and plain, built on the
 * reference move generator (perft_ref.h). The tests compare the fast core (turn.h) with it. */
#ifndef CARRERA_TURN_REF_H
#define CARRERA_TURN_REF_H

#include "rules.h"
#include "setup.h"
#include "turn.h"

/* Whether s is White's very first turn under a rule set where that turn is one movement. */
bool ref_first_turn(const Setup *s, const Rules *r);

/* Every complete legal turn of s (a position at a turn boundary, docs/rules.md 4.7), appended to
 * list (cleared first; list->v may be NULL with cap 0). Returns false when memory runs out. */
bool ref_turns(const Setup *s, const Rules *r, TurnList *list);
void ref_turn_list_free(TurnList *list);

/* Plays the complete turn t of s: out receives the next turn boundary (docs/rules.md 4.6/4.7: the
 * en passant set for the opponent, in ascending square order; the clocks counted in turns). */
void ref_make_turn(const Setup *s, const Rules *r, const Turn *t, Setup *out);

/* How a position at a turn boundary stands. */
typedef enum RefStatus {
    REF_PLAYING,      /* at least one complete turn */
    REF_CHECKMATE,    /* in check and no first movement parries it */
    REF_STALEMATE,    /* no complete turn otherwise */
    REF_KING_CAPTURED /* Galvin: the side to move has lost its king */
} RefStatus;
RefStatus ref_status(const Setup *s, const Rules *r);

/* Turn perft (docs/rules.md section 6): sequences of depth complete turns. */
uint64_t ref_perft_turns(const Setup *s, const Rules *r, int depth);

/* Movement perft: distinct sequences of depth movements that begin sequences of complete turns. */
uint64_t ref_perft_movements(const Setup *s, const Rules *r, int depth);

#endif
