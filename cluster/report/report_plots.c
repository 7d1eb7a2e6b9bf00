/* SPDX-License-Identifier: MIT */
/* The report's SVG pictures (report_plots.h). */
#include "report_plots.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "report_fit.h"
#include "svg_plot.h"

/* A Fieller interval as an error bar: its ends when bounded, else open both ways. */
static void fieller_bar(const TuneEstimate *e, SvgPoint *p)
{
    bool bounded = e->kind == TUNE_INTERVAL_BOUNDED;
    p->lo = bounded ? e->lo : -INFINITY;
    p->hi = bounded ? e->hi : INFINITY;
}

int report_plot_stage(const char *values_path, const char *fit_path, const ReportRun *r,
                      const ReportStage *s, const char *label, char *err, size_t errlen)
{
    const TuneAnalysis *a = s->analysis;
    SvgPoint fieller[TUNE_QUANTITIES_MAX], boot[TUNE_QUANTITIES_MAX];
    const char *names[TUNE_QUANTITIES_MAX];
    size_t n = 0;
    /* the quantities in pawns (all of them in a pawn-free design, which has ratios only) */
    for (int k = 0; k < a->nq; k++) {
        if (a->values.has_pawn && strchr(a->q[k].name, '/'))
            continue;
        const TuneEstimate *e = &a->estimate[k];
        names[n] = a->q[k].name;
        fieller[n] = (SvgPoint){ .x = (double)n - 0.12, .y = e->value };
        fieller_bar(e, &fieller[n]);
        boot[n] = (SvgPoint){ .x = (double)n + 0.12,
                              .y = e->value,
                              .lo = a->boot_ok ? a->boot.lo[k] : NAN,
                              .hi = a->boot_ok ? a->boot.hi[k] : NAN };
        n++;
    }
    char title[256];
    snprintf(title, sizeof title, "%s: values and contrasts (95%%)", label);
    SvgPanel values = { .title = title,
                        .ylabel = a->values.has_pawn ? "pawns" : "ratio",
                        .categories = names,
                        .n_categories = n,
                        .series = { { "estimate, Fieller 95%", fieller, n },
                                    { "bootstrap 95%", boot, a->boot_ok ? n : 0 } },
                        .n_series = 2 };
    if (svg_plot_write(values_path, NULL, &values, 1, 1, err, errlen) != 0)
        return -1;
    SvgPoint obs[TUNE_ANALYSIS_TESTS], fit[TUNE_ANALYSIS_TESTS], scatter[TUNE_ANALYSIS_TESTS];
    const char *tests[TUNE_ANALYSIS_TESTS];
    for (size_t t = 0; t < a->count; t++) {
        const TuneResidual *e = &a->residual[t];
        const double half = TUNE_Z95 * e->sigma;
        tests[t] = r->cfg.imbalances[t].name;
        obs[t] = (SvgPoint){ (double)t - 0.1, e->logit, e->logit - half, e->logit + half };
        fit[t] = (SvgPoint){ (double)t + 0.1, e->fitted, NAN, NAN };
        scatter[t] = (SvgPoint){ e->fitted, e->logit, e->logit - half, e->logit + half };
    }
    SvgPanel panels[2] = {
        { .title = "observed and fitted logit per test",
          .ylabel = "logit of player 1's score",
          .categories = tests,
          .n_categories = a->count,
          .series = { { "observed ±1.96 σ", obs, a->count }, { "fitted", fit, a->count } },
          .n_series = 2 },
        { .title = "observed against fitted",
          .xlabel = "fitted logit",
          .ylabel = "observed logit",
          .diagonal = true,
          .series = { { "tests, ±1.96 σ", scatter, a->count } },
          .n_series = 1 },
    };
    snprintf(title, sizeof title, "%s: the fit", label);
    return svg_plot_write(fit_path, title, panels, 2, 2, err, errlen);
}

bool report_columns_by_nodes(const ReportColumn *c, int n)
{
    bool differ = false;
    for (int i = 0; i < n; i++) {
        uint64_t nodes = report_stage_nodes(c[i].run, c[i].stage);
        if (nodes == 0)
            return false;
        differ = differ || nodes != report_stage_nodes(c[0].run, c[0].stage);
    }
    return differ;
}

/* The series of column i: Carrera's engine, or the external engine by its name. */
static const char *series_name(const ReportColumn *c)
{
    const PlayerConfig *p = &c->run->cfg.players[0];
    return p->kind == PLAYER_CARRERA ? "Carrera" : p->name;
}

/* The panel of one quantity (name; "u_P" for the pawn's logit) over the columns. */
static void quantity_panel(SvgPanel *panel, const char *name, const ReportColumn *c, int n,
                           bool by_nodes, SvgPoint *points, const char **labels)
{
    int ns = 0;
    const char *which[SVG_MAX_SERIES];
    size_t count[SVG_MAX_SERIES] = { 0 };
    for (int i = 0; i < n; i++) {
        const char *s = series_name(&c[i]);
        int k = 0;
        while (k < ns && strcmp(which[k], s) != 0)
            k++;
        if (k == ns && ns < SVG_MAX_SERIES)
            which[ns++] = s;
        if (k == SVG_MAX_SERIES)
            k = SVG_MAX_SERIES - 1;
        const TuneAnalysis *a = c[i].stage->analysis;
        double x = by_nodes ? (double)report_stage_nodes(c[i].run, c[i].stage) : (double)i;
        SvgPoint p = { x, NAN, NAN, NAN };
        int q = strcmp(name, "u_P") == 0 ? -2 : report_quantity_index(a, name);
        if (a->ok && q == -2 && (a->pieces & TUNE_BIT(TUNE_P))) {
            double se = sqrt(a->values.logit_cov[TUNE_P][TUNE_P]);
            p = (SvgPoint){ x, a->values.logit[TUNE_P], a->values.logit[TUNE_P] - TUNE_Z95 * se,
                            a->values.logit[TUNE_P] + TUNE_Z95 * se };
        } else if (a->ok && q >= 0) {
            p.y = a->estimate[q].value;
            fieller_bar(&a->estimate[q], &p);
        }
        points[(size_t)k * (size_t)n + count[k]++] = p;
    }
    *panel = (SvgPanel){ .title = name,
                         .xlabel = by_nodes ? "player 1's nodes per turn" : NULL,
                         .ylabel = strcmp(name, "u_P") == 0 ? "logit (95%)"
                                   : strchr(name, '/')      ? "ratio (Fieller 95%)"
                                                            : "pawns (Fieller 95%)",
                         .log2x = by_nodes,
                         .categories = by_nodes ? NULL : labels,
                         .n_categories = by_nodes ? 0 : (size_t)n,
                         .n_series = ns };
    for (int k = 0; k < ns; k++)
        panel->series[k] = (SvgSeries){ which[k], points + (size_t)k * (size_t)n, count[k] };
}

int report_plot_convergence(const char *path, const ReportColumn *c, int n, char *err,
                            size_t errlen)
{
    static const char *const quantities[] = {
        "u_P", "C-A", "Q-A", "A-(R+N)", "A", "C", "A/Q", "A/C"
    };
    enum { NQ = sizeof quantities / sizeof quantities[0] };
    bool by_nodes = report_columns_by_nodes(c, n);
    SvgPoint *points = calloc((size_t)NQ * SVG_MAX_SERIES * (size_t)n, sizeof *points);
    const char **labels = calloc((size_t)n, sizeof *labels);
    if (!points || !labels) {
        free(points);
        free(labels);
        return errmsg_fail(err, errlen, "out of memory for the convergence plot");
    }
    for (int i = 0; i < n; i++)
        labels[i] = c[i].label;
    SvgPanel panels[NQ];
    for (int q = 0; q < NQ; q++)
        quantity_panel(&panels[q], quantities[q], c, n, by_nodes,
                       points + (size_t)q * SVG_MAX_SERIES * (size_t)n, labels);
    int rc = svg_plot_write(path,
                            by_nodes ? "The main quantities against player 1's nodes per turn"
                                     : "The main quantities, run by run",
                            panels, NQ, 2, err, errlen);
    free(points);
    free(labels);
    return rc;
}
