/* SPDX-License-Identifier: MIT */
/* The evaluation's fitted parameter set: the values Texel's method fitted to self-play games and
 * SPRT kept, laid over the hand-made starting values of eval_defaults (eval.c). */
#ifndef CARRERA_EVAL_FITTED_H
#define CARRERA_EVAL_FITTED_H

#include "eval.h"

/* Sets every parameter of the fitted set in p, the others left as they are. */
void eval_fitted_apply(EvalParams *p);

#endif
