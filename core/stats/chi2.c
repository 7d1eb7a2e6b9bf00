/* SPDX-License-Identifier: MIT */
/* The regularized upper incomplete gamma function and the chi-square tail (chi2.h). */
#include "chi2.h"

#include <math.h>

#define EPS       1e-15
#define MAX_TERMS 100000
/* Lentz's guard against a zero denominator. */
#define TINY 1e-300

/* P(a, x) by its series e^-x x^a / Gamma(a + 1) sum x^n / ((a + 1) ... (a + n)), for x < a + 1. */
static double lower_series(double a, double x)
{
    double term = 1.0 / a, sum = term;
    for (int n = 1; n < MAX_TERMS; n++) {
        term *= x / (a + n);
        sum += term;
        if (fabs(term) < fabs(sum) * EPS)
            break;
    }
    return sum * exp(-x + a * log(x) - lgamma(a));
}

/* Q(a, x) by the continued fraction e^-x x^a / Gamma(a) 1/(x+1-a- 1(1-a)/(x+3-a- ...)), modified
 * Lentz, for x >= a + 1. */
static double upper_fraction(double a, double x)
{
    double b = x + 1.0 - a, c = 1.0 / TINY, d = 1.0 / b, h = d;
    for (int i = 1; i < MAX_TERMS; i++) {
        const double an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        if (fabs(d) < TINY)
            d = TINY;
        c = b + an / c;
        if (fabs(c) < TINY)
            c = TINY;
        d = 1.0 / d;
        const double step = d * c;
        h *= step;
        if (fabs(step - 1.0) < EPS)
            break;
    }
    return exp(-x + a * log(x) - lgamma(a)) * h;
}

double chi2_gamma_q(double a, double x)
{
    if (!(a > 0.0) || !(x >= 0.0))
        return NAN;
    if (x == 0.0)
        return 1.0;
    if (isinf(x))
        return 0.0;
    if (x < a + 1.0)
        return 1.0 - lower_series(a, x);
    return upper_fraction(a, x);
}

double chi2_p_value(double chi2, int dof)
{
    if (dof < 0 || isnan(chi2))
        return NAN;
    if (dof == 0 || chi2 <= 0.0)
        return 1.0;
    return chi2_gamma_q(0.5 * dof, 0.5 * chi2);
}
