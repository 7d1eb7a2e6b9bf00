/* SPDX-License-Identifier: MIT */
/* The upper tail of the chi-square distribution, for the goodness of fit of the imbalance fit
 * (docs/statistics.md, section 4): the regularized incomplete gamma function Q(a, x) by its
 * series (x < a + 1) or Lentz's continued fraction (Numerical Recipes, 6.2), to a relative
 * 1e-15 per term, so that the results are good to about 1e-12 absolute. */
#ifndef CARRERA_CHI2_H
#define CARRERA_CHI2_H

/* Q(a, x) = Gamma(a, x) / Gamma(a) for a > 0, x >= 0 (1 at x = 0). NaN when a <= 0 or x < 0 or
 * either is NaN; 0 at x = +infinity. */
double chi2_gamma_q(double a, double x);

/* P(X >= chi2) for X chi-square with dof degrees of freedom: Q(dof/2, chi2/2). 1 when dof is 0
 * (no freedom left: nothing to test) or chi2 <= 0; NaN when dof < 0 or chi2 is NaN. */
double chi2_p_value(double chi2, int dof);

#endif
