/* SPDX-License-Identifier: MIT */
/* The evaluation as a linear function of its parameters, for Texel's method (docs/texel.md).
 * Every term of eval.inc is a parameter times a count the position alone fixes (a piece on a
 * square, a safe square reached, a passed pawn's squared advance, the king attack's squared
 * units), blended by the phase, which the position fixes too: so White's score is
 * b + sum_j a_j (theta_j - theta0_j) up to the integer divisions' rounding. The coefficients
 * a_j are measured, not derived: each is the change of evaluate() when parameter j alone is
 * raised by EVAL_LINEAR_STEP, so they follow the evaluation as it is written, and a term that
 * stops being linear shows as a deviation between the fitted scores and evaluate() (docs/texel.md).
 */
#ifndef CARRERA_EVAL_LINEAR_H
#define CARRERA_EVAL_LINEAR_H

#include "eval.h"
#include "position.h"

/* The probe's size: the evaluation's rounding (a few centipawns at most) divided by it is the
 * coefficients' error; small enough that no piece-square entry leaves a short (at most a value
 * of 3000 + 256 and 7 steps of 100 + 256 towards the centre). */
#define EVAL_LINEAR_STEP 256

typedef struct EvalLinear {
    EvalParams base; /* theta0 */
    int n;           /* parameters, in eval_param_list's order */
    Eval at_base;
    Eval *probe;  /* [n]: base with parameter j raised by EVAL_LINEAR_STEP, where measured */
    bool *probed; /* [n]: whether coefficient j is measured (the others read 0) */
} EvalLinear;

/* Prepares the probes about base, for the parameters marked in which (NULL: all of them; a fit of
 * a few saves the evaluations of the rest). 0, or -1 with a message when memory runs out. */
int eval_linear_init(EvalLinear *l, const EvalParams *base, const bool *which, char *err,
                     size_t errlen);
void eval_linear_free(EvalLinear *l);

/* White's score of p at the base (the return) and coef[0..l->n), the change of White's score per
 * unit of each parameter (0 for those not probed). */
int eval_linear_at(const EvalLinear *l, const Position *p, float *coef);

/* White's score of p under the evaluation e. */
int eval_white(const Eval *e, const Position *p);

#endif
