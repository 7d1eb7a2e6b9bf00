/* SPDX-License-Identifier: MIT */
/* The evaluation under each rule set of turns. Moving twice a turn changes what a position is
 * worth (a threat is met or carried out in one turn, a piece reaches twice as far), so a
 * double-move rule set may have its own fitted values: Texel's method on that rule set's
 * self-play games, kept by SPRT under it (docs/texel.md). Single-move rules use eval_defaults. */
#ifndef CARRERA_EVAL_TURNS_H
#define CARRERA_EVAL_TURNS_H

#include "eval.h"
#include "rules.h"

/* The built-in parameters under rule set t: eval_defaults with t's fitted values over them. */
void eval_turns_defaults(EvalParams *p, TurnRules t);

/* The parameters a session uses under rule set t: each parameter the session has set away from
 * the single-move default (eval_defaults) keeps the session's value, every other one takes t's
 * default. So a custom value (an evaluation file, an option, a tuning arm's material) holds under
 * every rule set, and what was left alone follows the rule set; a parameter set to exactly its
 * single-move default counts as left alone. */
void eval_turns_resolve(const EvalParams *session, TurnRules t, EvalParams *out);

#endif
