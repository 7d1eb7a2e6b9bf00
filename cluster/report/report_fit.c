/* SPDX-License-Identifier: MIT */
/* The analysis tables of a stage (report_fit.h). */
#include "report_fit.h"

#include <math.h>
#include <string.h>

const char *const report_main_quantities[REPORT_MAIN_QUANTITIES] = {
    "A", "C", "C-A", "Q-A", "A-(R+N)", "A/Q", "C/Q", "A/C"
};

int report_quantity_index(const TuneAnalysis *a, const char *name)
{
    for (int k = 0; k < a->nq; k++)
        if (strcmp(a->q[k].name, name) == 0)
            return k;
    return -1;
}

void report_fieller_text(const TuneEstimate *e, char *out, size_t len)
{
    tune_analysis_interval_text(e->lo, e->hi, e->kind, 2, out, len);
}

static const char *test_name(const ReportRun *r, size_t t) { return r->cfg.imbalances[t].name; }

static void quality_table(FILE *f, const TuneAnalysis *a)
{
    const TuneFitQuality *q = &a->quality;
    fprintf(f,
            "| chi² | dof | p-value | Birge scale applied | corrected tests |\n"
            "|--:|--:|--:|--:|---|\n"
            "| %.3f | %d | %.4g | %.3f | %s |\n\n",
            q->chi2, q->dof, q->p_value, q->scale,
            a->corrected ? "yes: a test with a one-sided score got one WW and one LL pair more"
                         : "none");
    for (size_t t = 0; t < a->count; t++)
        if (a->tests[t].corrected)
            fprintf(f, "- corrected: test %zu (score %.4f after the correction)\n", t + 1,
                    a->tests[t].score);
    if (a->corrected)
        fputc('\n', f);
    if (a->values.has_pawn)
        fprintf(f, "The pawn's worth: u_P = %.4f ± %.4f logits of the score (SE, scaled).\n\n",
                a->values.logit[TUNE_P], sqrt(a->values.logit_cov[TUNE_P][TUNE_P]));
}

static void quantities_table(FILE *f, const TuneAnalysis *a)
{
    if (a->boot_ok)
        fprintf(f,
                "Bootstrap: %d replicates over game pairs, stratified by test, seed %llu; %d "
                "refits failed.\n\n",
                a->boot.replicates, (unsigned long long)a->boot_seed, a->boot.failed);
    else
        fprintf(f, "Bootstrap: none (%s).\n\n", a->boot_reason);
    fputs("| quantity | estimate | delta SE | delta 95% | Fieller 95% | bootstrap 95% | "
          "infinite replicates |\n|---|--:|--:|---|---|---|--:|\n",
          f);
    for (int k = 0; k < a->nq; k++) {
        const TuneEstimate *e = &a->estimate[k];
        char fieller[96], boot[96] = "-", inf[32] = "";
        report_fieller_text(e, fieller, sizeof fieller);
        if (a->boot_ok) {
            tune_analysis_interval_text(a->boot.lo[k], a->boot.hi[k], TUNE_INTERVAL_BOUNDED, 2,
                                        boot, sizeof boot);
            if (a->boot.infinite[k] > 0)
                snprintf(inf, sizeof inf, "%d", a->boot.infinite[k]);
        }
        fprintf(f, "| %s | %.2f | %.3f | [%.2f, %.2f] | %s | %s | %s |\n", a->q[k].name, e->value,
                e->se, e->delta_lo, e->delta_hi, fieller, boot, inf);
    }
    fputs("\nValues and contrasts are in pawns (a ratio such as A/Q has no unit); the SEs and "
          "the delta and Fieller intervals use the covariance scaled by the Birge ratio.\n\n",
          f);
}

static void residuals_table(FILE *f, const ReportRun *r, const TuneAnalysis *a)
{
    fputs("| test | observed score | observed logit | σ | fitted logit | predicted score | "
          "leverage | standardised residual | |\n|---|--:|--:|--:|--:|--:|--:|--:|---|\n",
          f);
    for (size_t t = 0; t < a->count; t++) {
        const TuneResidual *e = &a->residual[t];
        char z[32] = "determined";
        if (!e->determined)
            snprintf(z, sizeof z, "%+.2f", e->standardised);
        fprintf(f, "| %s | %.4f | %+.3f | %.3f | %+.3f | %.4f | %.3f | %s | %s |\n",
                test_name(r, t), a->tests[t].score, e->logit, e->sigma, e->fitted, e->fitted_score,
                e->leverage, z,
                !e->determined && fabs(e->standardised) > REPORT_FLAG_Z ? "**|z| > 2.5**" : "");
    }
    fputs("\nA test of leverage 1 alone determines some combination of the values: nothing "
          "checks it (its residual is 0).\n\n",
          f);
}

static void loo_table(FILE *f, const ReportRun *r, const TuneAnalysis *a)
{
    if (!a->loo_ok) {
        fprintf(f, "No leave-one-out table: %s.\n\n", a->loo_reason);
        return;
    }
    int idx[REPORT_MAIN_QUANTITIES], n = 0;
    fputs("| left out | observed score | predicted by the others | prediction z | |", f);
    for (int i = 0; i < REPORT_MAIN_QUANTITIES; i++)
        if ((idx[n] = report_quantity_index(a, report_main_quantities[i])) >= 0) {
            fprintf(f, " %s |", report_main_quantities[i]);
            n++;
        }
    fputs("\n|---|--:|--:|--:|---|", f);
    for (int i = 0; i < n; i++)
        fputs("---|", f);
    fputc('\n', f);
    for (size_t t = 0; t < a->count; t++) {
        const TuneLeaveOut *l = &a->loo[t];
        if (!l->possible) {
            fprintf(f, "| %s | %.4f | cannot be left out: %s | | |", test_name(r, t),
                    a->tests[t].score, l->reason);
            for (int i = 0; i < n; i++)
                fputs(" |", f);
            fputc('\n', f);
            continue;
        }
        fprintf(f, "| %s | %.4f | %.4f | %+.2f | %s |", test_name(r, t), a->tests[t].score,
                l->predicted_score, l->prediction_z,
                fabs(l->prediction_z) > REPORT_FLAG_Z ? "**|z| > 2.5**" : "");
        for (int i = 0; i < n; i++) {
            char iv[96];
            report_fieller_text(&l->estimate[idx[i]], iv, sizeof iv);
            fprintf(f, " %.2f %s |", l->estimate[idx[i]].value, iv);
        }
        fputc('\n', f);
    }
    fputs("\nEach row refits without the test (covariance scaled by the refit's own Birge ratio) "
          "and predicts it; z is the observed logit's distance from that prediction in its "
          "standard errors. The quantities are the refit's, with Fieller 95% intervals.\n\n",
          f);
}

static void brackets_table(FILE *f, const ReportRun *r, const TuneAnalysis *a)
{
    if (a->n_brackets == 0) {
        fputs("No two tests a pawn apart (X v Y and X v Y+P): no brackets.\n\n", f);
        return;
    }
    fputs("| X v Y | X v Y+P | v(X) - v(Y), pawns | SE |\n|---|---|--:|--:|\n", f);
    for (int i = 0; i < a->n_brackets; i++) {
        const TuneBracketPair *b = &a->brackets[i];
        if (b->ok)
            fprintf(f, "| %s | %s | %.2f | %.2f |\n", test_name(r, (size_t)b->test),
                    test_name(r, (size_t)b->plus), b->value, b->se);
        else
            fprintf(f, "| %s | %s | no bracket: %s | |\n", test_name(r, (size_t)b->test),
                    test_name(r, (size_t)b->plus), b->reason);
    }
    fputs("\nEach bracket reads the two tests alone (Elo ratio E1 / (E1 - E2)), independent of "
          "the fit.\n\n",
          f);
}

void report_fit_tables(FILE *f, const ReportRun *r, const ReportStage *s)
{
    const TuneAnalysis *a = s->analysis;
    if (!a->ok) {
        fprintf(f, "**No piece values:** %s.\n\n", a->reason);
        return;
    }
    if (a->pawn_unclear)
        fprintf(f,
                "**No piece values in pawns:** %s. The fit below stands, and so do its ratios "
                "(A/Q, A/C, ...) where their intervals are bounded.\n\n",
                a->pawn_note);
    fputs("#### Fit\n\n", f);
    quality_table(f, a);
    fputs("#### Values, contrasts and ratios\n\n", f);
    quantities_table(f, a);
    fputs("#### Residuals\n\n", f);
    residuals_table(f, r, a);
    fputs("#### Leave one test out\n\n", f);
    loo_table(f, r, a);
    fputs("#### Brackets\n\n", f);
    brackets_table(f, r, a);
}

/* The tests whose |z| exceeds limit, "Q:A (+3.4), R:N (-3.1)", or "" */
static void names_over(const ReportRun *r, const TuneAnalysis *a, bool loo, double limit, char *out,
                       size_t len, double *largest, size_t *at)
{
    size_t used = 0;
    out[0] = '\0';
    *largest = 0;
    *at = 0;
    for (size_t t = 0; t < a->count; t++) {
        double z = NAN;
        if (loo && a->loo_ok && a->loo[t].possible)
            z = a->loo[t].prediction_z;
        else if (!loo && !a->residual[t].determined)
            z = a->residual[t].standardised;
        if (!isfinite(z))
            continue;
        if (fabs(z) > fabs(*largest)) {
            *largest = z;
            *at = t;
        }
        if (fabs(z) > limit && used < len)
            used += (size_t)snprintf(out + used, len - used, "%s%s (%+.2f)", used ? ", " : "",
                                     test_name(r, t), z);
    }
}

void report_falsify(FILE *f, const ReportRun *r, const ReportStage *s)
{
    const TuneAnalysis *a = s->analysis;
    fputs("#### What would falsify this\n\n", f);
    if (!a->ok) {
        fputs("Nothing was fitted, so nothing can be falsified yet: play more pairs per "
              "test.\n\n",
              f);
        return;
    }
    if (r->warning[0])
        fputs("**The pair counts stored in /tune disagree with the games (see the warning "
              "above): the numbers of `carrera tune` for this file are not these.** ",
              f);
    const TuneFitQuality *q = &a->quality;
    if (q->dof == 0)
        fputs("The fit has no degrees of freedom: every test is needed to determine the values, "
              "so the linear model is not tested at all (add tests). ",
              f);
    else if (q->p_value < 0.01)
        fprintf(f,
                "**The linear model is rejected**: chi² %.2f on %d dof has p = %.3g < 0.01 (the "
                "values depend on the surrounding material, or the SEs are too small). ",
                q->chi2, q->dof, q->p_value);
    else
        fprintf(f,
                "The linear model stands: chi² %.2f on %d dof, p = %.3g; a p-value below 0.01 "
                "would reject it. ",
                q->chi2, q->dof, q->p_value);
    char names[1024];
    double largest;
    size_t at;
    names_over(r, a, false, 3, names, sizeof names, &largest, &at);
    if (names[0])
        fprintf(f, "**Standardised residuals beyond 3**: %s. ", names);
    else if (largest != 0)
        fprintf(f, "No standardised residual is beyond ±3 (the largest: %s, %+.2f). ",
                test_name(r, at), largest);
    names_over(r, a, true, 3, names, sizeof names, &largest, &at);
    if (names[0])
        fprintf(f, "**Tests the others do not predict (leave-one-out |z| > 3)**: %s. ", names);
    else if (largest != 0)
        fprintf(f,
                "Every test the others can predict is within 3 SE of it (the farthest: %s, "
                "z %+.2f). ",
                test_name(r, at), largest);
    size_t used = 0;
    names[0] = '\0';
    for (int k = 0; k < a->nq && a->boot_ok; k++) {
        const TuneEstimate *e = &a->estimate[k];
        double blo = a->boot.lo[k], bhi = a->boot.hi[k];
        if (e->kind != TUNE_INTERVAL_BOUNDED || !isfinite(blo) || !isfinite(bhi))
            continue;
        double width = e->hi - e->lo;
        if (fmax(fabs(e->lo - blo), fabs(e->hi - bhi)) > 0.25 * width && used < sizeof names)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "",
                                     a->q[k].name);
    }
    if (!a->boot_ok)
        fputs("Without a bootstrap the intervals are not cross-checked.", f);
    else if (names[0])
        fprintf(f,
                "**Fieller and bootstrap disagree** by more than a quarter of the interval's "
                "width for %s: the normal approximation is not to be trusted there (more pairs).",
                names);
    else
        fputs("Fieller and bootstrap intervals agree within a quarter of their width wherever "
              "both are bounded.",
              f);
    fputs("\n\n", f);
}
