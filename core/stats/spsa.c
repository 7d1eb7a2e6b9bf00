/* SPDX-License-Identifier: MIT */
/* SPSA's schedule, perturbation and update (see spsa.h and docs/statistics.md for the
 * formulas and where they come from). */
#include "spsa.h"

#include <math.h>
#include <string.h>

#include "errmsg.h"

SpsaSchedule spsa_schedule_default(long iterations)
{
    return (SpsaSchedule){
        .iterations = iterations, .A = 0.1 * (double)iterations, .alpha = 0.602, .gamma = 0.101
    };
}

int spsa_init(Spsa *s, const SpsaSchedule *schedule, SpsaParam *params, int count, char *err,
              size_t errlen)
{
    memset(s, 0, sizeof *s);
    const SpsaSchedule *g = schedule;
    if (g->iterations < 1)
        return errmsg_fail(err, errlen, "SPSA: %ld iterations, need at least 1", g->iterations);
    if (!(g->A >= 0.0 && isfinite(g->A)) || !(g->alpha > 0.0 && isfinite(g->alpha)) ||
        !(g->gamma > 0.0 && isfinite(g->gamma)))
        return errmsg_fail(err, errlen,
                           "SPSA: A (%g) must be finite and not negative, alpha "
                           "(%g) and gamma (%g) finite and positive",
                           g->A, g->alpha, g->gamma);
    if (count < 1)
        return errmsg_fail(err, errlen, "SPSA: no parameters");
    for (int i = 0; i < count; i++) {
        const SpsaParam *p = &params[i];
        if (!(isfinite(p->min) && isfinite(p->max) && p->min < p->max))
            return errmsg_fail(err, errlen,
                               "SPSA parameter %d: bounds [%g, %g] must be finite "
                               "with min < max",
                               i, p->min, p->max);
        if (!(p->theta >= p->min && p->theta <= p->max))
            return errmsg_fail(err, errlen, "SPSA parameter %d: start %g is outside [%g, %g]", i,
                               p->theta, p->min, p->max);
        if (!(p->c_end > 0.0 && isfinite(p->c_end)) || !(p->r_end > 0.0 && isfinite(p->r_end)))
            return errmsg_fail(err, errlen,
                               "SPSA parameter %d: c_end (%g) and r_end (%g) must "
                               "be finite and positive",
                               i, p->c_end, p->r_end);
    }
    const double n = (double)g->iterations;
    for (int i = 0; i < count; i++) {
        SpsaParam *p = &params[i];
        p->c = p->c_end * pow(n, g->gamma);
        p->a = p->r_end * p->c_end * p->c_end * pow(g->A + n, g->alpha);
    }
    s->schedule = *g;
    s->params = params;
    s->count = count;
    return 0;
}

void spsa_gains(const Spsa *s, int i, long k, double *a_k, double *c_k)
{
    const double kk = k < 1 ? 1.0 : (double)k;
    *c_k = s->params[i].c / pow(kk, s->schedule.gamma);
    *a_k = s->params[i].a / pow(s->schedule.A + kk, s->schedule.alpha);
}

static double clip(const SpsaParam *p, double x) { return fmin(fmax(x, p->min), p->max); }

void spsa_perturb(const Spsa *s, Rng *rng, double *delta, double *plus, double *minus)
{
    for (int i = 0; i < s->count; i++) {
        double a_k, c_k;
        spsa_gains(s, i, s->done + 1, &a_k, &c_k);
        delta[i] = rng_next(rng) >> 63 ? 1.0 : -1.0;
        plus[i] = clip(&s->params[i], s->params[i].theta + c_k * delta[i]);
        minus[i] = clip(&s->params[i], s->params[i].theta - c_k * delta[i]);
    }
}

void spsa_update(Spsa *s, const double *delta, double r)
{
    for (int i = 0; i < s->count; i++) {
        double a_k, c_k;
        spsa_gains(s, i, s->done + 1, &a_k, &c_k);
        SpsaParam *p = &s->params[i];
        p->theta = clip(p, p->theta + a_k / c_k * r * delta[i]);
    }
    s->done++;
}
