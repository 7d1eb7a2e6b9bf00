/* SPDX-License-Identifier: MIT */
/* The quiet leaf of a position, as Texel's method of fitting the evaluation wants its positions
 * (docs/texel.md): where the exchanges under way have been played out, so that the static
 * evaluation measures the position and not a capture half made. */
#ifndef CARRERA_QUIET_H
#define CARRERA_QUIET_H

#include "eval.h"
#include "position.h"

/* Captures and promotions deeper than this are not followed: the leaf stands there. */
#define QUIET_MAX_PLIES 16

/* Resolves p (single-move rules, the side to move not in check) by a quiescence search with the
 * static evaluation e: at every node the side to move may stand pat or play a capture or a
 * promotion that does not lose material by static exchange, most valuable victim first; no
 * pruning beyond alpha-beta, no table. *leaf receives the position at the end of the principal
 * variation (p itself when standing pat is best; it may be in check after a capture that gives
 * one, which the search does not resolve); the return is the search's score from p's side to
 * move, which is evaluate(e, leaf) from the side to move there. */
int quiet_leaf(const Eval *e, const Position *p, Position *leaf);

#endif
