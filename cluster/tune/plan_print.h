/* SPDX-License-Identifier: MIT */
/* What `carrera check-config` says about an imbalance design before a game is played
 * (docs/statistics.md, section 4, "Planning"): under stated assumptions, the 95 % half-widths
 * the planned games should give every quantity, and the weights of the imbalances that would
 * give the targets (A, C and the contrasts about them) the smallest summed variance for the
 * same number of games. */
#ifndef CARRERA_PLAN_PRINT_H
#define CARRERA_PLAN_PRINT_H

#include <stdio.h>

#include "match_config.h"
#include "tune_plan.h"

/* The assumptions: the values player 1's engine plays with (pawns), a pawn worth [tune]'s
 * plan_pawn_logit in logits (default 0.4, a pawn-odds score of about 60 %), an even game drawn
 * at plan_draw_rate (default 0.15), and this pentanomial factor. */
#define PLAN_FACTOR 0.8

/* Prints the plan of c's imbalances (method imbalance). Returns 0, or -1 with a message when the
 * design cannot be planned (the fit's design errors: a singular design, say). */
int plan_print(FILE *out, const MatchConfig *c, char *err, size_t errlen);

#endif
