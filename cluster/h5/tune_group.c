/* SPDX-License-Identifier: MIT */
/* The /tune group (tune_group.h). */
#include "tune_group.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h5file.h"

#define F64 H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE
#define I32 H5T_STD_I32LE, H5T_NATIVE_INT32

/* A fit's values, intervals, logits and covariance (pieces not fitted: 0). */
static int put_values(hid_t g, const TuneValues *v)
{
    hsize_t seven[1] = { TUNE_PIECES }, square[2] = { TUNE_PIECES, TUNE_PIECES };
    int rc = 0;
    rc |= h5file_put_array(g, "value", F64, 1, seven, v->value);
    rc |= h5file_put_array(g, "value_lo", F64, 1, seven, v->lo);
    rc |= h5file_put_array(g, "value_hi", F64, 1, seven, v->hi);
    rc |= h5file_put_array(g, "logit", F64, 1, seven, v->logit);
    rc |= h5file_put_array(g, "covariance", F64, 2, square, v->cov);
    return rc;
}

static int put_pieces(hid_t g)
{
    const char *pieces[TUNE_PIECES];
    for (int p = 0; p < TUNE_PIECES; p++)
        pieces[p] = tune_piece_name(p);
    return h5file_put_str_array(g, "pieces", pieces, TUNE_PIECES);
}

/* The imbalances, the last iteration's tests and fit, and /tune/iterations. */
static int put_imbalance(hid_t g, const Tuner *t)
{
    const MatchConfig *c = t->cfg;
    int n = c->n_imbalances, k_n = t->n_iterations, rc = 0;
    const char *names[MATCH_MAX_IMBALANCES];
    int32_t material[MATCH_MAX_IMBALANCES][TUNE_PIECES], weights[MATCH_MAX_IMBALANCES];
    for (int i = 0; i < n; i++) {
        names[i] = c->imbalances[i].name;
        weights[i] = c->weights[i];
        int m[TUNE_PIECES];
        imbalance_vector(&c->imbalances[i], m);
        for (int p = 0; p < TUNE_PIECES; p++)
            material[i][p] = m[p];
    }
    hsize_t rows[1] = { (hsize_t)n }, table[2] = { (hsize_t)n, TUNE_PIECES },
            penta[2] = { (hsize_t)n, PAIR_CLASSES };
    rc |= h5file_put_str_array(g, "imbalances", names, (size_t)n);
    rc |= h5file_put_array(g, "weights", I32, 1, rows, weights);
    rc |= h5file_put_array(g, "material", I32, 2, table, material);
    rc |= h5file_put_i32(g, "converged", t->converged);
    rc |= h5file_put_i32(g, "iterations_planned", c->stages);
    const TuneFit *fit = tuner_final_fit(t);
    if (fit) {
        double score[MATCH_MAX_IMBALANCES], se[MATCH_MAX_IMBALANCES];
        for (int i = 0; i < n; i++) {
            score[i] = fit->tests[i].score;
            se[i] = fit->tests[i].se;
        }
        rc |= h5file_put_array(g, "pairs", H5T_STD_U64LE, H5T_NATIVE_UINT64, 2, penta, fit->pairs);
        rc |= h5file_put_array(g, "score", F64, 1, rows, score);
        rc |= h5file_put_array(g, "score_se", F64, 1, rows, se);
        if (fit->ok) {
            rc |= put_values(g, &fit->values);
            rc |= h5file_put_f64(g, "chi2", fit->chi2);
            rc |= h5file_put_i32(g, "dof", fit->dof);
            rc |= h5file_put_i32(g, "corrected", fit->corrected);
        }
    }
    hid_t it = H5Gcreate2(g, "iterations", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (it < 0)
        return -1;
    size_t kk = (size_t)k_n;
    double *buf = calloc(kk * (5 * TUNE_PIECES + 2 * (size_t)n) + 1, sizeof *buf);
    const char **fits = calloc(kk + 1, sizeof *fits);
    if (!buf || !fits) {
        free(buf);
        free(fits);
        H5Gclose(it);
        return -1;
    }
    double *played = buf, *value = played + kk * TUNE_PIECES, *lo = value + kk * TUNE_PIECES,
           *hi = lo + kk * TUNE_PIECES, *sc = hi + kk * TUNE_PIECES, *sse = sc + kk * (size_t)n;
    for (size_t k = 0; k < kk; k++) {
        const TuneIteration *x = &t->iterations[k];
        fits[k] = x->fit.ok ? "ok" : x->fit.reason;
        for (int p = 0; p < TUNE_PIECES; p++) {
            played[k * TUNE_PIECES + (size_t)p] = x->played[p];
            value[k * TUNE_PIECES + (size_t)p] = x->fit.ok ? x->fit.values.value[p] : NAN;
            lo[k * TUNE_PIECES + (size_t)p] = x->fit.ok ? x->fit.values.lo[p] : NAN;
            hi[k * TUNE_PIECES + (size_t)p] = x->fit.ok ? x->fit.values.hi[p] : NAN;
        }
        for (int i = 0; i < n; i++) {
            sc[k * (size_t)n + (size_t)i] = x->fit.tests[i].score;
            sse[k * (size_t)n + (size_t)i] = x->fit.tests[i].se;
        }
    }
    hsize_t kp[2] = { kk, TUNE_PIECES }, kn[2] = { kk, (hsize_t)n };
    rc |= h5file_put_array(it, "played", F64, 2, kp, played);
    rc |= h5file_put_array(it, "value", F64, 2, kp, value);
    rc |= h5file_put_array(it, "value_lo", F64, 2, kp, lo);
    rc |= h5file_put_array(it, "value_hi", F64, 2, kp, hi);
    rc |= h5file_put_array(it, "score", F64, 2, kn, sc);
    rc |= h5file_put_array(it, "score_se", F64, 2, kn, sse);
    rc |= h5file_put_str_array(it, "fit", fits, kk);
    free(buf);
    free(fits);
    if (H5Gclose(it) < 0)
        rc = -1;
    return rc;
}

static int put_spsa(hid_t g, const Tuner *t)
{
    const TuneConfig *tc = &t->cfg->tune;
    int m = tc->n_params, rc = 0;
    size_t done = (size_t)t->spsa.done;
    const char *names[TUNE_MAX_PARAMS];
    double start[TUNE_MAX_PARAMS], min[TUNE_MAX_PARAMS], max[TUNE_MAX_PARAMS],
        c_end[TUNE_MAX_PARAMS], r_end[TUNE_MAX_PARAMS], a[TUNE_MAX_PARAMS], c[TUNE_MAX_PARAMS],
        value[TUNE_MAX_PARAMS];
    for (int i = 0; i < m; i++) {
        names[i] = tc->params[i].info->name;
        start[i] = t->theta[i];
        min[i] = t->sp[i].min;
        max[i] = t->sp[i].max;
        c_end[i] = t->sp[i].c_end;
        r_end[i] = t->sp[i].r_end;
        a[i] = t->sp[i].a;
        c[i] = t->sp[i].c;
        value[i] = t->sp[i].theta;
    }
    hsize_t dm[1] = { (hsize_t)m }, theta[2] = { done + 1, (hsize_t)m },
            signs[2] = { done, (hsize_t)m }, results[1] = { done };
    rc |= h5file_put_str_array(g, "params", names, (size_t)m);
    rc |= h5file_put_array(g, "start", F64, 1, dm, start);
    rc |= h5file_put_array(g, "min", F64, 1, dm, min);
    rc |= h5file_put_array(g, "max", F64, 1, dm, max);
    rc |= h5file_put_array(g, "c_end", F64, 1, dm, c_end);
    rc |= h5file_put_array(g, "r_end", F64, 1, dm, r_end);
    rc |= h5file_put_array(g, "a", F64, 1, dm, a);
    rc |= h5file_put_array(g, "c", F64, 1, dm, c);
    rc |= h5file_put_array(g, "value", F64, 1, dm, value);
    rc |= h5file_put_array(g, "theta", F64, 2, theta, t->theta);
    rc |= h5file_put_array(g, "delta", H5T_STD_I8LE, H5T_NATIVE_INT8, 2, signs, t->signs);
    rc |= h5file_put_array(g, "result", F64, 1, results, t->result);
    rc |= h5file_put_u64(g, "iterations", (uint64_t)t->cfg->stages);
    rc |= h5file_put_u64(g, "done", done);
    rc |= h5file_put_u64(g, "pairs_per_iteration", (uint64_t)tc->pairs_per_iteration);
    rc |= h5file_put_f64(g, "A", tc->A);
    rc |= h5file_put_f64(g, "alpha", tc->alpha);
    rc |= h5file_put_f64(g, "gamma", tc->gamma);
    return rc;
}

static int put_regression(hid_t g, const TuneRegressionRun *r)
{
    hid_t rg = H5Gcreate2(g, "regression", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (rg < 0)
        return -1;
    int rc = h5file_put_str(rg, "fit", r->ok ? "ok" : r->reason);
    rc |= h5file_put_u64(rg, "games", r->games);
    rc |= h5file_put_u64(rg, "games_used", r->games_used);
    rc |= h5file_put_u64(rg, "pairs", r->pairs);
    rc |= h5file_put_u64(rg, "samples", r->samples);
    rc |= h5file_put_i32(rg, "skip_plies", r->skip_plies);
    if (r->ok) {
        rc |= put_values(rg, &r->fit.values);
        rc |= h5file_put_f64(rg, "advantage", r->fit.advantage);
        rc |= h5file_put_f64(rg, "advantage_se", r->fit.advantage_se);
        rc |= h5file_put_f64(rg, "draw_width", r->fit.draw_width);
        rc |= h5file_put_f64(rg, "draw_width_se", r->fit.draw_width_se);
        rc |= h5file_put_f64(rg, "loglik", r->fit.loglik);
    }
    if (H5Gclose(rg) < 0)
        rc = -1;
    return rc;
}

int tune_group_write(hid_t file, const Tuner *t)
{
    if (H5Lexists(file, "/tune", H5P_DEFAULT) > 0 && H5Ldelete(file, "/tune", H5P_DEFAULT) < 0)
        return -1;
    hid_t g = H5Gcreate2(file, "/tune", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0)
        return -1;
    TuneMethod method = t->cfg->tune.method;
    char fit[600];
    if (method == TUNE_IMBALANCE) {
        const TuneFit *f = tuner_final_fit(t);
        snprintf(fit, sizeof fit, "%s",
                 !f      ? "no iteration finished yet"
                 : f->ok ? "ok"
                         : f->reason);
    } else if (method == TUNE_SPSA) {
        if (tuner_ok(t))
            snprintf(fit, sizeof fit, "ok");
        else
            snprintf(fit, sizeof fit, "%ld of %d iterations done", t->spsa.done, t->cfg->stages);
    } else {
        snprintf(fit, sizeof fit, "%s",
                 t->regression.ok     ? "ok"
                 : t->regression.done ? t->regression.reason
                                      : "the games are not all played yet");
    }
    int rc = h5file_put_str(g, "method", tune_method_name(method));
    rc |= h5file_put_str(g, "fit", fit);
    rc |= put_pieces(g);
    if (method == TUNE_IMBALANCE)
        rc |= put_imbalance(g, t);
    else if (method == TUNE_SPSA)
        rc |= put_spsa(g, t);
    else if (t->regression.ok)
        rc |= put_values(g, &t->regression.fit.values);
    if (t->regression.done)
        rc |= put_regression(g, &t->regression);
    if (H5Gclose(g) < 0)
        rc = -1;
    return rc ? -1 : 0;
}
