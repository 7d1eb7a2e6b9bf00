/* SPDX-License-Identifier: MIT */
/* The evaluation's coefficients by probing (eval_linear.h). */
#include "eval_linear.h"

#include <stdlib.h>

#include "errmsg.h"

int eval_linear_init(EvalLinear *l, const EvalParams *base, const bool *which, char *err,
                     size_t errlen)
{
    const EvalParamInfo *info = eval_param_list(&l->n);
    l->base = *base;
    eval_prepare(&l->at_base, base);
    l->probe = malloc((size_t)l->n * sizeof *l->probe);
    l->probed = malloc((size_t)l->n * sizeof *l->probed);
    if (!l->probe || !l->probed) {
        eval_linear_free(l);
        return errmsg_fail(err, errlen, "out of memory for %d evaluations", l->n);
    }
    for (int j = 0; j < l->n; j++) {
        l->probed[j] = !which || which[j];
        if (!l->probed[j])
            continue;
        EvalParams raised = *base;
        *eval_param_ref(&raised, &info[j]) += EVAL_LINEAR_STEP;
        eval_prepare(&l->probe[j], &raised);
    }
    return 0;
}

void eval_linear_free(EvalLinear *l)
{
    free(l->probe);
    free(l->probed);
    l->probe = NULL;
    l->probed = NULL;
}

int eval_white(const Eval *e, const Position *p)
{
    int v = evaluate(e, p);
    return position_side(p) == WHITE ? v : -v;
}

int eval_linear_at(const EvalLinear *l, const Position *p, float *coef)
{
    const int b = eval_white(&l->at_base, p);
    for (int j = 0; j < l->n; j++)
        coef[j] = l->probed[j] ? (float)(eval_white(&l->probe[j], p) - b) / EVAL_LINEAR_STEP : 0;
    return b;
}
