/* SPDX-License-Identifier: MIT */
/* `carrera texel-fit` (texel_tune.h). Three passes over the data file: one counts its rows (the
 * progress's total), one builds the training and validation sets on the evaluation linearised
 * about the start, and after the fit one scores every position with evaluate() itself at the
 * start and at the fitted parameters, so that the errors reported are the evaluation's own, not
 * the linear model's, and the model's deviation from it is measured. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "texel_tune.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "errmsg.h"
#include "eval_linear.h"
#include "progress.h"
#include "provenance.h"
#include "rng.h"
#include "run_error.h"
#include "texel_file.h"
#include "texel_fit.h"
#include "version.h"

/* The positions are reported in three classes: single-move 8x8, single-move 10x8, and every
 * double-move rule set (the evaluation is the same; the games are not). */
enum { CLASS_8, CLASS_10, CLASS_DOUBLE, CLASSES };
static const char *const class_names[CLASSES] = { "8x8 single-move", "10x8 single-move",
                                                  "double-move" };

static int class_of(const TexelRow *row)
{
    if (row->turns != TURNS_SINGLE)
        return CLASS_DOUBLE;
    return row->variant->files == 10 ? CLASS_10 : CLASS_8;
}

/* Whether the pair goes to the validation set: a hash of the pair and the seed, so that the
 * split is the same for every run with the same seed and keeps both games of a pair (one opening)
 * on one side. */
static bool held_out(uint64_t pair, uint64_t seed, int percent)
{
    Rng r = rng_new(seed ^ (pair * 0xD1B54A32D192ED03ull));
    return (int)rng_below(&r, 100) < percent;
}

/* ---- pass 1: the rows ---------------------------------------------------------------------- */

static int count_row(void *ctx, const TexelRow *row, uint64_t line, char *err, size_t errlen)
{
    (void)row, (void)line, (void)err, (void)errlen;
    ++*(uint64_t *)ctx;
    return 0;
}

/* ---- pass 2: the sets ---------------------------------------------------------------------- */

typedef struct Load {
    const TexelTuneRequest *r;
    EvalLinear lin;
    float *coef;
    TexelSet train, valid;
    Progress progress;
    uint64_t rows, total;
} Load;

static int load_row(void *ctx, const TexelRow *row, uint64_t line, char *err, size_t errlen)
{
    Load *l = ctx;
    const int base = eval_linear_at(&l->lin, row->pos, l->coef);
    TexelSet *s = held_out(row->pair, l->r->seed, l->r->valid_percent) ? &l->valid : &l->train;
    if (!texel_set_add(s, row->result, base, l->coef))
        return errmsg_fail(err, errlen, "%s:%llu: out of memory for %llu positions", l->r->data,
                           (unsigned long long)line, (unsigned long long)l->rows);
    char eta[32];
    if (progress_due(&l->progress, ++l->rows, l->total, eta) > 0)
        progress_print(&l->progress, "reading %llu/%llu positions, ETA %s",
                       (unsigned long long)l->rows, (unsigned long long)l->total, eta);
    return 0;
}

/* ---- pass 3: the check --------------------------------------------------------------------- */

/* Squared errors and counts by [validation][class][start, fitted]. */
typedef struct Check {
    const TexelTuneRequest *r;
    double k;
    Eval start, fitted;
    const TexelSet *sets[2]; /* train, valid: their samples in the file's order */
    const double *delta;     /* the fitted parameters, rounded, minus the start */
    size_t next[2];
    double sq[2][CLASSES][2];
    uint64_t n[2][CLASSES];
    double dev_sum, dev_max; /* |linear model - evaluate()| at the fitted parameters */
} Check;

static int check_row(void *ctx, const TexelRow *row, uint64_t line, char *err, size_t errlen)
{
    (void)line, (void)err, (void)errlen;
    Check *c = ctx;
    const int v = held_out(row->pair, c->r->seed, c->r->valid_percent), k = class_of(row);
    const double before = eval_white(&c->start, row->pos), after = eval_white(&c->fitted, row->pos);
    const double e0 = row->result - texel_sigmoid(c->k, before);
    const double e1 = row->result - texel_sigmoid(c->k, after);
    c->sq[v][k][0] += e0 * e0;
    c->sq[v][k][1] += e1 * e1;
    c->n[v][k]++;
    const double dev = fabs(texel_score(c->sets[v], c->next[v]++, c->delta) - after);
    c->dev_sum += dev;
    c->dev_max = fmax(c->dev_max, dev);
    return 0;
}

static double mse_of(const Check *c, int v, int k, int when)
{
    double sq = 0;
    uint64_t n = 0;
    for (int j = 0; j < CLASSES; j++)
        if (k < 0 || j == k) {
            sq += c->sq[v][j][when];
            n += c->n[v][j];
        }
    return n ? sq / (double)n : NAN;
}

/* ---- the fit's progress -------------------------------------------------------------------- */

static void report_step(const TexelFitStep *s, void *ctx)
{
    Progress *p = ctx;
    char eta[32];
    if (progress_due(p, (uint64_t)s->iteration, (uint64_t)s->iterations, eta) > 0)
        progress_print(p,
                       "step %d/%d, %.1f steps/s, train %.6f, validation %.6f (best %.6f at "
                       "step %d), ETA %s",
                       s->iteration, s->iterations, s->iteration / (monotonic_seconds() - p->start),
                       s->train, s->valid, s->best_valid, s->best_iteration, eta);
}

/* ---- the output ---------------------------------------------------------------------------- */

typedef struct Outcome {
    double k, seconds;
    TexelFitResult fit;
    size_t n_train, n_valid;
    const EvalParams *fitted;
} Outcome;

/* The summary: on stdout and, behind "; ", at the head of the [eval] file. */
static void summary(FILE *out, const TexelTuneRequest *r, const Check *c, const Outcome *o,
                    const char *now)
{
    fprintf(out,
            "Texel fit of the evaluation (docs/texel.md), made %s by carrera %s "
            "(revision %s)\n",
            now, carrera_version, carrera_revision);
    fprintf(out, "command: %s\n", r->command_line);
    fprintf(out,
            "data: %s: %zu positions, %zu to fit and %zu held out for validation (%d%% of "
            "the pairs of games, seed %llu)\n",
            r->data, o->n_train + o->n_valid, o->n_train, o->n_valid, r->valid_percent,
            (unsigned long long)r->seed);
    fprintf(out, "start: %s; K = %.4f (fitted at the start: sigmoid(K eval / 400))\n",
            r->eval_file ? r->eval_file : "the defaults", o->k);
    fprintf(out, "fit: Adam, rate %g, %d steps (%s), %.1f s\n", r->rate, o->fit.iterations,
            o->fit.converged ? "converged" : "the limit: not converged", o->seconds);
    fprintf(out,
            "validation error on the way (linear form): %.6f at the start, least %.6f at step "
            "%d, %.6f at the end (%+.2f%% of the least)\n",
            o->fit.valid0, o->fit.best_valid, o->fit.best_iteration, o->fit.valid,
            100 * (o->fit.valid / o->fit.best_valid - 1));
    fprintf(out, "mean squared error, evaluate() itself, start -> fitted:\n");
    fprintf(out, "  %-18s %-24s %s\n", "", "training", "validation");
    for (int k = -1; k < CLASSES; k++) {
        fprintf(out, "  %-18s", k < 0 ? "all" : class_names[k]);
        for (int v = 0; v < 2; v++) {
            char cell[64];
            if (k >= 0 && c->n[v][k] == 0)
                snprintf(cell, sizeof cell, "-");
            else
                snprintf(cell, sizeof cell, "%.6f -> %.6f", mse_of(c, v, k, 0), mse_of(c, v, k, 1));
            fprintf(out, " %-24s", cell);
        }
        fprintf(out, " (%llu + %llu positions)\n",
                (unsigned long long)(k < 0 ? o->n_train : c->n[0][k]),
                (unsigned long long)(k < 0 ? o->n_valid : c->n[1][k]));
    }
    fprintf(out,
            "linear model against evaluate() at the fitted parameters: mean %.3f cp, at "
            "most %.1f cp\n",
            c->dev_sum / (double)(o->n_train + o->n_valid), c->dev_max);
}

/* Writes each line of text behind lead, wrapped at spaces to keep the INI reader's line
 * length (continuations indented by two more). */
#define COMMENT_WIDTH 120
static void write_comment(FILE *f, const char *lead, const char *text)
{
    for (const char *s = text; *s;) {
        size_t len = strcspn(s, "\n");
        const char *end = s + len;
        bool first = true;
        while (s < end) {
            size_t room = COMMENT_WIDTH - strlen(lead) - (first ? 0 : 2), n = (size_t)(end - s);
            if (n > room) {
                n = room;
                while (n > 0 && s[n] != ' ')
                    n--;
                if (n == 0)
                    n = room;
            }
            fprintf(f, "%s%s%.*s\n", lead, first ? "" : "  ", (int)n, s);
            s += n;
            while (s < end && *s == ' ')
                s++;
            first = false;
        }
        s = end + (*end == '\n');
    }
}

static int write_eval(const TexelTuneRequest *r, const char *summary_text, const Outcome *o,
                      const char *record)
{
    char part[4096];
    snprintf(part, sizeof part, "%s.part", r->out);
    FILE *f = fopen(part, "w");
    if (!f)
        return run_error(EXIT_FAILED, "%s: %s", part, strerror(errno));
    write_comment(f, "; ", summary_text);
    fprintf(f, "; the data set's record:\n");
    write_comment(f, ";   ", record ? record : "");
    fprintf(f, "[eval]\n");
    int n;
    const EvalParamInfo *info = eval_param_list(&n);
    for (int j = 0; j < n; j++) {
        int v = *eval_param_ref((EvalParams *)o->fitted, &info[j]);
        int s = *eval_param_ref((EvalParams *)&r->start, &info[j]);
        fprintf(f, "%s = %d", info[j].name, v);
        if (!r->fit[j])
            fprintf(f, " ; not fitted");
        else if (v != s)
            fprintf(f, " ; start %d", s);
        fputc('\n', f);
    }
    if (ferror(f) | (fclose(f) != 0) || rename(part, r->out) != 0) {
        remove(part);
        return run_error(EXIT_FAILED, "%s: cannot write: %s", r->out, strerror(errno));
    }
    return EXIT_OK;
}

/* ---- the run ------------------------------------------------------------------------------- */

/* Reads the data file into l's sets. Returns the exit status. */
static int load(Load *l, char **record)
{
    char err[ERRMSG_LEN];
    if (texel_file_read(l->r->data, count_row, &l->total, NULL, err, sizeof err) != 0)
        return run_error(EXIT_USAGE, "%s", err);
    if (eval_linear_init(&l->lin, &l->r->start, l->r->fit, err, sizeof err) != 0)
        return run_error(EXIT_FAILED, "%s", err);
    l->coef = malloc((size_t)l->lin.n * sizeof *l->coef);
    if (!l->coef || texel_set_init(&l->train, l->lin.n, err, sizeof err) != 0 ||
        texel_set_init(&l->valid, l->lin.n, err, sizeof err) != 0)
        return run_error(EXIT_FAILED, "out of memory");
    progress_start(&l->progress, "texel-fit", l->r->quiet);
    int rc = texel_file_read(l->r->data, load_row, l, record, err, sizeof err);
    progress_finish(&l->progress);
    if (rc != 0)
        return run_error(strstr(err, "out of memory") ? EXIT_FAILED : EXIT_USAGE, "%s", err);
    if (l->train.n == 0 || l->valid.n == 0)
        return run_error(EXIT_USAGE,
                         "%s: %zu positions to fit and %zu to validate with: both sets need "
                         "some (a larger data file, or another --validation share)",
                         l->r->data, l->train.n, l->valid.n);
    return EXIT_OK;
}

/* Fits delta on l's sets; o receives K and the fit's outcome. Returns the exit status. */
static int fit(const Load *l, double *delta, Outcome *o)
{
    const TexelTuneRequest *r = l->r;
    const int n = l->lin.n;
    const EvalParamInfo *info = eval_param_list(&(int){ 0 });
    double *lo = malloc((size_t)n * sizeof *lo), *hi = malloc((size_t)n * sizeof *hi);
    if (!lo || !hi) {
        free(lo);
        free(hi);
        return run_error(EXIT_FAILED, "out of memory");
    }
    for (int j = 0; j < n; j++) {
        const int s = *eval_param_ref((EvalParams *)&r->start, &info[j]);
        lo[j] = info[j].min - s;
        hi[j] = info[j].max - s;
    }
    o->k = texel_fit_k(&l->train, delta);
    TexelFitOptions opt = { .k = o->k,
                            .iterations = r->iterations,
                            .rate = r->rate,
                            .patience = r->patience,
                            .lo = lo,
                            .hi = hi,
                            .fit = r->fit };
    Progress p;
    progress_start(&p, "texel-fit", r->quiet);
    char err[ERRMSG_LEN];
    const double t0 = monotonic_seconds();
    int rc =
        texel_fit(&l->train, &l->valid, &opt, delta, report_step, &p, &o->fit, err, sizeof err);
    o->seconds = monotonic_seconds() - t0;
    progress_finish(&p);
    free(lo);
    free(hi);
    return rc == 0 ? EXIT_OK : run_error(EXIT_FAILED, "%s", err);
}

/* The fitted parameters: the start plus delta, rounded to whole centipawns (within the ranges,
 * which the fit kept); delta is set to what the rounding made of it. */
static void round_params(const TexelTuneRequest *r, double *delta, EvalParams *out)
{
    int n;
    const EvalParamInfo *info = eval_param_list(&n);
    *out = r->start;
    for (int j = 0; j < n; j++) {
        int *v = eval_param_ref(out, &info[j]);
        *v = (int)lround(*v + delta[j]);
        delta[j] = *v - *eval_param_ref((EvalParams *)&r->start, &info[j]);
    }
}

int texel_tune_run(const TexelTuneRequest *r)
{
    Load l = { .r = r };
    char *record = NULL, now[PROV_TIME_MAX], err[ERRMSG_LEN];
    double *delta = NULL;
    provenance_now(now);
    int status = load(&l, &record);
    if (status == EXIT_OK && !(delta = calloc((size_t)l.lin.n, sizeof *delta)))
        status = run_error(EXIT_FAILED, "out of memory");
    Outcome o = { .n_train = l.train.n, .n_valid = l.valid.n };
    if (status == EXIT_OK)
        status = fit(&l, delta, &o);
    EvalParams fitted;
    Check c = { .r = r, .sets = { &l.train, &l.valid } };
    if (status == EXIT_OK) {
        round_params(r, delta, &fitted);
        o.fitted = &fitted;
        c.k = o.k;
        c.delta = delta;
        eval_prepare(&c.start, &r->start);
        eval_prepare(&c.fitted, &fitted);
        if (texel_file_read(r->data, check_row, &c, NULL, err, sizeof err) != 0)
            status = run_error(EXIT_USAGE, "%s", err);
    }
    char *text = NULL;
    size_t text_len = 0;
    if (status == EXIT_OK) {
        FILE *mem = open_memstream(&text, &text_len);
        if (!mem)
            status = run_error(EXIT_FAILED, "out of memory");
        else {
            summary(mem, r, &c, &o, now);
            if (fclose(mem) != 0)
                status = run_error(EXIT_FAILED, "out of memory");
        }
    }
    if (status == EXIT_OK && (status = write_eval(r, text, &o, record)) == EXIT_OK) {
        printf("%sfitted: %s\n", text, r->out);
        if (o.fit.valid >= o.fit.valid0)
            run_warning("the validation error did not fall (%.6f at the start, %.6f fitted): "
                        "the fit learned the training games, not the evaluation",
                        o.fit.valid0, o.fit.valid);
    }
    free(text);
    free(delta);
    free(record);
    free(l.coef);
    texel_set_free(&l.train);
    texel_set_free(&l.valid);
    eval_linear_free(&l.lin);
    return status;
}
