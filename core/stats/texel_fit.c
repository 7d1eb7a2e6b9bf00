/* SPDX-License-Identifier: MIT */
/* Texel's method's fit (texel_fit.h): the error, the scale K, and Adam on the analytic
 * gradient, dE/dtheta_j = -2/n sum_i (r_i - p_i) p_i (1 - p_i) ln(10) K / 400 a_ij with
 * p_i = sigma(K s_i / 400). */
#include "texel_fit.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"

/* Adam's constants, as Kingma and Ba give them. */
#define ADAM_BETA1 0.9
#define ADAM_BETA2 0.999
#define ADAM_EPS   1e-8

int texel_set_init(TexelSet *s, int params, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    if (params < 1 || params > UINT16_MAX)
        return errmsg_fail(err, errlen, "%d parameters: there must be 1 to %d", params, UINT16_MAX);
    s->params = params;
    s->first = malloc(sizeof *s->first);
    if (!s->first)
        return errmsg_fail(err, errlen, "out of memory");
    s->first[0] = 0;
    return 0;
}

void texel_set_free(TexelSet *s)
{
    free(s->result);
    free(s->base);
    free(s->first);
    free(s->index);
    free(s->coef);
    memset(s, 0, sizeof *s);
}

/* Resizes the array *p to count elements of size bytes (it keeps *p when memory runs out). */
static bool resize(void **p, size_t count, size_t size)
{
    void *q = realloc(*p, count * size);
    if (!q)
        return false;
    *p = q;
    return true;
}

bool texel_set_add(TexelSet *s, double result, double base, const float *coef)
{
    size_t nz = 0;
    for (int j = 0; j < s->params; j++)
        nz += coef[j] != 0;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 1024;
        if (!resize((void **)&s->result, cap, sizeof *s->result) ||
            !resize((void **)&s->base, cap, sizeof *s->base) ||
            !resize((void **)&s->first, cap + 1, sizeof *s->first))
            return false;
        s->cap = cap;
    }
    if (s->nnz + nz > s->nnz_cap) {
        size_t cap = s->nnz_cap ? 2 * s->nnz_cap : 16384;
        while (cap < s->nnz + nz)
            cap *= 2;
        if (!resize((void **)&s->index, cap, sizeof *s->index) ||
            !resize((void **)&s->coef, cap, sizeof *s->coef))
            return false;
        s->nnz_cap = cap;
    }
    for (int j = 0; j < s->params; j++)
        if (coef[j] != 0) {
            s->index[s->nnz] = (uint16_t)j;
            s->coef[s->nnz++] = coef[j];
        }
    s->result[s->n] = (float)result;
    s->base[s->n] = (float)base;
    s->first[++s->n] = s->nnz;
    return true;
}

double texel_score(const TexelSet *s, size_t i, const double *delta)
{
    double v = s->base[i];
    for (uint64_t k = s->first[i]; k < s->first[i + 1]; k++)
        v += s->coef[k] * delta[s->index[k]];
    return v;
}

double texel_sigmoid(double k, double score) { return 1.0 / (1.0 + pow(10.0, -k * score / 400)); }

double texel_mse(const TexelSet *s, const double *delta, double k)
{
    if (s->n == 0)
        return 0;
    double sum = 0;
    for (size_t i = 0; i < s->n; i++) {
        double e = s->result[i] - texel_sigmoid(k, texel_score(s, i, delta));
        sum += e * e;
    }
    return sum / (double)s->n;
}

double texel_fit_k(const TexelSet *s, const double *delta)
{
    const double g = (sqrt(5.0) - 1) / 2;
    double a = log(TEXEL_K_MIN), b = log(TEXEL_K_MAX);
    double c = b - g * (b - a), d = a + g * (b - a);
    double fc = texel_mse(s, delta, exp(c)), fd = texel_mse(s, delta, exp(d));
    while (b - a > 1e-6) {
        if (fc < fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = texel_mse(s, delta, exp(c));
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = texel_mse(s, delta, exp(d));
        }
    }
    return exp((a + b) / 2);
}

/* The gradient of the training error at delta into grad[params]. */
static void gradient(const TexelSet *s, const double *delta, double k, double *grad)
{
    memset(grad, 0, (size_t)s->params * sizeof *grad);
    if (s->n == 0)
        return;
    const double scale = -2 * log(10.0) * k / 400 / (double)s->n;
    for (size_t i = 0; i < s->n; i++) {
        double p = texel_sigmoid(k, texel_score(s, i, delta)), e = s->result[i] - p;
        double w = scale * e * p * (1 - p);
        for (uint64_t j = s->first[i]; j < s->first[i + 1]; j++)
            grad[s->index[j]] += w * s->coef[j];
    }
}

static int check_options(const TexelSet *train, const TexelSet *valid, const TexelFitOptions *o,
                         const double *delta, char *err, size_t errlen)
{
    if (valid->params != train->params)
        return errmsg_fail(err, errlen, "the validation set has %d parameters, training %d",
                           valid->params, train->params);
    if (!(o->k > 0) || o->iterations < 0 || !(o->rate > 0) || o->patience < 1)
        return errmsg_fail(err, errlen,
                           "bad fit options: K %g, %d iterations, rate %g, patience %d (K and "
                           "the rate must be positive, the patience at least 1)",
                           o->k, o->iterations, o->rate, o->patience);
    for (int j = 0; j < train->params; j++)
        if (!(o->lo[j] <= delta[j] && delta[j] <= o->hi[j]))
            return errmsg_fail(err, errlen, "parameter %d starts at %g, outside its bounds %g..%g",
                               j, delta[j], o->lo[j], o->hi[j]);
    return 0;
}

int texel_fit(const TexelSet *train, const TexelSet *valid, const TexelFitOptions *o, double *delta,
              TexelFitReport report, void *ctx, TexelFitResult *out, char *err, size_t errlen)
{
    if (check_options(train, valid, o, delta, err, errlen) != 0)
        return -1;
    const int p = train->params;
    double *m = calloc((size_t)p, sizeof *m), *v = calloc((size_t)p, sizeof *v);
    double *grad = calloc((size_t)p, sizeof *grad);
    /* the training error of every step, for the convergence test */
    double *history = malloc(((size_t)o->iterations + 1) * sizeof *history);
    if (!m || !v || !grad || !history) {
        free(m);
        free(v);
        free(grad);
        free(history);
        return errmsg_fail(err, errlen, "out of memory for %d parameters", p);
    }
    *out = (TexelFitResult){ .train0 = texel_mse(train, delta, o->k),
                             .valid0 = texel_mse(valid, delta, o->k) };
    out->train = out->train0;
    out->valid = out->best_valid = out->valid0;
    history[0] = out->train0;
    int it;
    for (it = 1; it <= o->iterations && !out->converged; it++) {
        gradient(train, delta, o->k, grad);
        const double c1 = 1 - pow(ADAM_BETA1, it), c2 = 1 - pow(ADAM_BETA2, it);
        for (int j = 0; j < p; j++) {
            if (!o->fit[j])
                continue;
            m[j] = ADAM_BETA1 * m[j] + (1 - ADAM_BETA1) * grad[j];
            v[j] = ADAM_BETA2 * v[j] + (1 - ADAM_BETA2) * grad[j] * grad[j];
            delta[j] -= o->rate * (m[j] / c1) / (sqrt(v[j] / c2) + ADAM_EPS);
            delta[j] = fmin(fmax(delta[j], o->lo[j]), o->hi[j]);
        }
        out->train = history[it] = texel_mse(train, delta, o->k);
        out->valid = texel_mse(valid, delta, o->k);
        if (out->valid < out->best_valid) {
            out->best_valid = out->valid;
            out->best_iteration = it;
        }
        out->converged = it >= o->patience &&
                         history[it - o->patience] - out->train < TEXEL_CONVERGED * out->train;
        if (report)
            report(&(TexelFitStep){ it, o->iterations, out->train, out->valid, out->best_valid,
                                    out->best_iteration },
                   ctx);
    }
    out->iterations = it - 1;
    free(m);
    free(v);
    free(grad);
    free(history);
    return 0;
}
