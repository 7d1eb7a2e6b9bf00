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

/* The quantities of an analysis: names, estimates, delta, Fieller and bootstrap intervals. */
static int put_quantities(hid_t g, const TuneAnalysis *a)
{
    const int nq = a->nq;
    const char *names[TUNE_QUANTITIES_MAX];
    double col[9][TUNE_QUANTITIES_MAX];
    int32_t kind[TUNE_QUANTITIES_MAX];
    for (int k = 0; k < nq; k++) {
        const TuneEstimate *e = &a->estimate[k];
        names[k] = a->q[k].name;
        col[0][k] = e->value;
        col[1][k] = e->se;
        col[2][k] = e->delta_lo;
        col[3][k] = e->delta_hi;
        col[4][k] = e->lo;
        col[5][k] = e->hi;
        col[6][k] = a->boot_ok ? a->boot.lo[k] : NAN;
        col[7][k] = a->boot_ok ? a->boot.hi[k] : NAN;
        col[8][k] = a->boot_ok ? a->boot.infinite[k] : NAN;
        kind[k] = (int32_t)e->kind;
    }
    static const char *const col_names[9] = { "q_value",    "q_se",         "q_delta_lo",
                                              "q_delta_hi", "q_fieller_lo", "q_fieller_hi",
                                              "q_boot_lo",  "q_boot_hi",    "q_boot_infinite" };
    hsize_t dq[1] = { (hsize_t)nq };
    int rc = h5file_put_str_array(g, "quantities", names, (size_t)nq);
    for (int c = 0; c < 9; c++)
        rc |= h5file_put_array(g, col_names[c], F64, 1, dq, col[c]);
    rc |= h5file_put_array(g, "q_fieller_kind", I32, 1, dq, kind);
    rc |= h5file_put_i32(g, "bootstrap_replicates", a->boot_ok ? a->boot.replicates : 0);
    rc |= h5file_put_i32(g, "bootstrap_failed", a->boot_ok ? a->boot.failed : 0);
    rc |= h5file_put_u64(g, "bootstrap_seed", a->boot_seed);
    return rc;
}

/* Each test's residual and its leave-one-out refit. */
static int put_tests(hid_t g, const TuneAnalysis *a)
{
    const size_t n = a->count, nq = (size_t)a->nq;
    double col[5][TUNE_ANALYSIS_TESTS];
    double *loo = calloc(3 * n * nq + 1, sizeof *loo);
    if (!loo)
        return -1;
    for (size_t t = 0; t < n; t++) {
        const TuneResidual *r = &a->residual[t];
        const TuneLeaveOut *l = &a->loo[t];
        const bool out = a->loo_ok && l->possible;
        col[0][t] = r->fitted_score;
        col[1][t] = r->leverage;
        col[2][t] = r->determined ? NAN : r->standardised;
        col[3][t] = out ? l->predicted_score : NAN;
        col[4][t] = out ? l->prediction_z : NAN;
        for (size_t k = 0; k < nq; k++) {
            loo[t * nq + k] = out ? l->estimate[k].value : NAN;
            loo[(n + t) * nq + k] = out ? l->estimate[k].lo : NAN;
            loo[(2 * n + t) * nq + k] = out ? l->estimate[k].hi : NAN;
        }
    }
    static const char *const col_names[5] = { "fitted_score", "leverage", "residual_std",
                                              "loo_score", "loo_z" };
    hsize_t dn[1] = { n }, dnq[2] = { n, nq };
    int rc = 0;
    for (int c = 0; c < 5; c++)
        rc |= h5file_put_array(g, col_names[c], F64, 1, dn, col[c]);
    rc |= h5file_put_array(g, "loo_q_value", F64, 2, dnq, loo);
    rc |= h5file_put_array(g, "loo_q_fieller_lo", F64, 2, dnq, loo + n * nq);
    rc |= h5file_put_array(g, "loo_q_fieller_hi", F64, 2, dnq, loo + 2 * n * nq);
    free(loo);
    return rc;
}

/* The fit of a stage with everything its analysis gives. */
static int put_analysis(hid_t g, const TuneAnalysis *a)
{
    int rc = put_values(g, &a->values);
    rc |= h5file_put_f64(g, "chi2", a->quality.chi2);
    rc |= h5file_put_i32(g, "dof", a->quality.dof);
    rc |= h5file_put_f64(g, "p_value", a->quality.p_value);
    rc |= h5file_put_f64(g, "scale", a->quality.scale);
    rc |= h5file_put_i32(g, "corrected", a->corrected);
    rc |= put_quantities(g, a);
    rc |= put_tests(g, a);
    return rc;
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
    if (fit && fit->analysis) {
        const TuneAnalysis *a = fit->analysis;
        double score[MATCH_MAX_IMBALANCES], se[MATCH_MAX_IMBALANCES];
        for (int i = 0; i < n; i++) {
            score[i] = a->tests[i].score;
            se[i] = a->tests[i].se;
        }
        rc |= h5file_put_array(g, "pairs", H5T_STD_U64LE, H5T_NATIVE_UINT64, 2, penta, fit->pairs);
        rc |= h5file_put_array(g, "score", F64, 1, rows, score);
        rc |= h5file_put_array(g, "score_se", F64, 1, rows, se);
        if (a->ok)
            rc |= put_analysis(g, a);
    }
    hid_t it = H5Gcreate2(g, "iterations", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (it < 0)
        return -1;
    size_t kk = (size_t)k_n;
    const TuneFit *last = tuner_final_fit(t);
    const size_t nq = last && last->analysis && last->analysis->ok ? (size_t)last->analysis->nq : 0;
    double *buf = calloc(kk * (5 * TUNE_PIECES + 2 * (size_t)n + 3 * nq) + 1, sizeof *buf);
    uint64_t *nodes = calloc(kk + 1, sizeof *nodes);
    const char **fits = calloc(kk + 1, sizeof *fits);
    if (!buf || !fits || !nodes) {
        free(buf);
        free(fits);
        free(nodes);
        H5Gclose(it);
        return -1;
    }
    double *played = buf, *value = played + kk * TUNE_PIECES, *lo = value + kk * TUNE_PIECES,
           *hi = lo + kk * TUNE_PIECES, *sc = hi + kk * TUNE_PIECES, *sse = sc + kk * (size_t)n,
           *qv = sse + kk * (size_t)n, *qlo = qv + kk * nq, *qhi = qlo + kk * nq;
    for (size_t k = 0; k < kk; k++) {
        const TuneIteration *x = &t->iterations[k];
        const TuneAnalysis *a = x->fit.analysis;
        const bool ok = x->fit.ok;
        fits[k] = ok ? "ok" : x->fit.reason;
        nodes[k] = x->nodes;
        for (int p = 0; p < TUNE_PIECES; p++) {
            played[k * TUNE_PIECES + (size_t)p] = x->played[p];
            value[k * TUNE_PIECES + (size_t)p] = ok ? a->values.value[p] : NAN;
            lo[k * TUNE_PIECES + (size_t)p] = ok ? a->values.lo[p] : NAN;
            hi[k * TUNE_PIECES + (size_t)p] = ok ? a->values.hi[p] : NAN;
        }
        for (int i = 0; i < n; i++) {
            sc[k * (size_t)n + (size_t)i] = a ? a->tests[i].score : NAN;
            sse[k * (size_t)n + (size_t)i] = a ? a->tests[i].se : NAN;
        }
        for (size_t q = 0; q < nq; q++) {
            const bool has = a && a->ok && (size_t)a->nq == nq;
            qv[k * nq + q] = has ? a->estimate[q].value : NAN;
            qlo[k * nq + q] = has ? a->estimate[q].lo : NAN;
            qhi[k * nq + q] = has ? a->estimate[q].hi : NAN;
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
    hsize_t dk[1] = { kk }, kq[2] = { kk, nq };
    rc |= h5file_put_array(it, "nodes", H5T_STD_U64LE, H5T_NATIVE_UINT64, 1, dk, nodes);
    if (nq) {
        rc |= h5file_put_array(it, "q_value", F64, 2, kq, qv);
        rc |= h5file_put_array(it, "q_fieller_lo", F64, 2, kq, qlo);
        rc |= h5file_put_array(it, "q_fieller_hi", F64, 2, kq, qhi);
    }
    free(buf);
    free(fits);
    free(nodes);
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
