/* SPDX-License-Identifier: MIT */
/* Reading the [tune] section (tune_config.h). */
#define _POSIX_C_SOURCE 200809L /* strtok_r, strcasecmp */
#include "tune_config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "number.h"

const char *tune_method_name(TuneMethod m)
{
    return m == TUNE_SPSA ? "spsa" : m == TUNE_REGRESSION ? "regression" : "imbalance";
}

void tune_config_defaults(TuneConfig *t)
{
    *t = (TuneConfig){ .method = TUNE_IMBALANCE,
                       .iterations = 1,
                       .plan_pawn_logit = 0.4,
                       .plan_draw_rate = 0.15,
                       .pairs_per_iteration = 2,
                       .alpha = 0.602,
                       .gamma = 0.101,
                       .skip_plies = 16 };
}

static void bad(IniCheck *check, const IniEntry *e, const char *must)
{
    ini_fail(check, e->line, "bad value '%s' for %s: must be %s", e->value, e->key, must);
}

/* A finite number, the whole text. */
static bool number(const char *text, double *out)
{
    char *end;
    *out = strtod(text, &end);
    return end != text && *end == '\0' && isfinite(*out);
}

/* Splits a comma-separated value into trimmed items (in buf, at most max); their number, or
 * -1 when there are more or one is empty. */
static int split(const char *value, char *buf, size_t buflen, char **items, int max)
{
    snprintf(buf, buflen, "%s", value);
    int n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        while (*t == ' ' || *t == '\t')
            t++;
        char *end = t + strlen(t);
        while (end > t && (end[-1] == ' ' || end[-1] == '\t'))
            *--end = '\0';
        if (!*t || n == max)
            return -1;
        items[n++] = t;
    }
    return n;
}

static TuneParam *param_named(TuneConfig *t, const char *name)
{
    for (int i = 0; i < t->n_params; i++)
        if (strcasecmp(t->params[i].info->name, name) == 0)
            return &t->params[i];
    return NULL;
}

static void params_key(TuneConfig *t, IniCheck *check, const IniEntry *e)
{
    char buf[4096], *items[TUNE_MAX_PARAMS + 1];
    int n = split(e->value, buf, sizeof buf, items, TUNE_MAX_PARAMS);
    if (n <= 0) {
        char must[96];
        snprintf(must, sizeof must, "1 to %d evaluation parameters, separated by commas",
                 TUNE_MAX_PARAMS);
        bad(check, e, must);
        return;
    }
    t->n_params = 0;
    for (int i = 0; i < n; i++) {
        const EvalParamInfo *info = eval_param_find(items[i]);
        if (!info) {
            ini_fail(check, e->line,
                     "params: '%s' is no evaluation parameter (configs/eval/"
                     "default.ini lists them)",
                     items[i]);
            return;
        }
        if (param_named(t, info->name)) {
            ini_fail(check, e->line, "params: %s named twice", info->name);
            return;
        }
        t->params[t->n_params++] = (TuneParam){ .info = info };
    }
}

/* "MIN, MAX, C_END, R_END" for a parameter (its name is the key). */
static void bounds_key(TuneConfig *t, IniCheck *check, const IniEntry *e, const EvalParamInfo *info)
{
    TuneParam *p = param_named(t, info->name);
    if (!p) {
        ini_fail(check, e->line, "%s has bounds but is not in params (params = ... comes first)",
                 info->name);
        return;
    }
    char buf[512], *items[5];
    double v[4];
    int n = split(e->value, buf, sizeof buf, items, 4);
    bool ok = n == 4;
    for (int i = 0; ok && i < 4; i++)
        ok = number(items[i], &v[i]);
    if (!ok) {
        bad(check, e, "MIN, MAX, C_END, R_END (four numbers, as fishtest writes them)");
        return;
    }
    if (!(v[0] < v[1]) || v[0] < info->min || v[1] > info->max) {
        ini_fail(check, e->line, "%s: bounds %g, %g must satisfy %d <= MIN < MAX <= %d", info->name,
                 v[0], v[1], info->min, info->max);
        return;
    }
    if (!(v[2] > 0) || !(v[3] > 0)) {
        ini_fail(check, e->line, "%s: C_END and R_END must be positive", info->name);
        return;
    }
    *p = (TuneParam){
        .info = info, .min = v[0], .max = v[1], .c_end = v[2], .r_end = v[3], .bounds_given = true
    };
}

void tune_config_key(TuneConfig *t, IniCheck *check, const IniEntry *e)
{
    if (strcmp(e->section, "tune") != 0)
        return;
    t->given = true;
    const char *k = e->key;
    long n;
    double x;
    if (strcmp(k, "method") == 0) {
        if (strcmp(e->value, "imbalance") == 0)
            t->method = TUNE_IMBALANCE;
        else if (strcmp(e->value, "spsa") == 0)
            t->method = TUNE_SPSA;
        else if (strcmp(e->value, "regression") == 0)
            t->method = TUNE_REGRESSION;
        else
            bad(check, e, "imbalance, spsa or regression");
    } else if (strcmp(k, "iterations") == 0) {
        if (number_parse(e->value, 1, TUNE_MAX_ITERATIONS, &n))
            t->iterations = (int)n;
        else
            bad(check, e, "a whole number from 1 to 100000");
    } else if (strcmp(k, "pairs_per_iteration") == 0) {
        if (number_parse(e->value, 1, 1000000, &n))
            t->pairs_per_iteration = (int)n;
        else
            bad(check, e, "a whole number from 1 to 1000000");
    } else if (strcmp(k, "A") == 0) {
        if (number(e->value, &x) && x >= 0) {
            t->A = x;
            t->A_given = true;
        } else {
            bad(check, e, "a number >= 0");
        }
    } else if (strcmp(k, "alpha") == 0 || strcmp(k, "gamma") == 0) {
        if (number(e->value, &x) && x > 0 && x <= 1)
            *(k[0] == 'a' ? &t->alpha : &t->gamma) = x;
        else
            bad(check, e, "a number in (0, 1]");
    } else if (strcmp(k, "params") == 0) {
        params_key(t, check, e);
    } else if (strcmp(k, "games") == 0) {
        char buf[TUNE_MAX_SOURCES * CONFIG_PATH_MAX], *items[TUNE_MAX_SOURCES + 1];
        int count = split(e->value, buf, sizeof buf, items, TUNE_MAX_SOURCES);
        if (count <= 0) {
            bad(check, e, "1 to 16 result files (.h5) separated by commas");
            return;
        }
        for (int i = 0; i < count; i++)
            if (strlen(items[i]) >= CONFIG_PATH_MAX) {
                ini_fail(check, e->line, "games: a path longer than %d characters",
                         CONFIG_PATH_MAX - 1);
                return;
            }
        t->n_sources = count;
        for (int i = 0; i < count; i++)
            snprintf(t->sources[i], sizeof t->sources[i], "%s", items[i]);
    } else if (strcmp(k, "nodes") == 0) {
        char buf[TUNE_MAX_SWEEP * 24], *items[TUNE_MAX_SWEEP + 1];
        int count = split(e->value, buf, sizeof buf, items, TUNE_MAX_SWEEP);
        t->n_sweep = 0;
        for (int i = 0; i < count; i++) {
            if (!number_parse(items[i], 1, 1000000000, &n) ||
                (i > 0 && (uint64_t)n <= t->sweep[i - 1])) {
                t->n_sweep = 0;
                break;
            }
            t->sweep[t->n_sweep++] = (uint64_t)n;
        }
        if (t->n_sweep < 2)
            bad(check, e,
                "2 to 16 node counts per turn, rising, separated by commas (1000, 4000, 16000)");
    } else if (strcmp(k, "plan_pawn_logit") == 0) {
        if (number(e->value, &x) && x > 0 && x <= 5)
            t->plan_pawn_logit = x;
        else
            bad(check, e, "a pawn's worth in logits of the score, in (0, 5]");
    } else if (strcmp(k, "plan_draw_rate") == 0) {
        if (number(e->value, &x) && x >= 0 && x < 1)
            t->plan_draw_rate = x;
        else
            bad(check, e, "a draw rate in [0, 1)");
    } else if (strcmp(k, "skip_plies") == 0) {
        if (number_parse(e->value, 0, 1000, &n))
            t->skip_plies = (int)n;
        else
            bad(check, e, "a whole number from 0 to 1000");
    } else if (eval_param_find(k)) {
        bounds_key(t, check, e, eval_param_find(k));
    } else {
        ini_unknown_key(check, e,
                        "[tune] takes method, iterations, pairs_per_iteration, A, alpha, gamma, "
                        "params, one line per parameter's bounds, games, skip_plies, nodes, "
                        "plan_pawn_logit, plan_draw_rate");
    }
}

/* The line of key in [tune], 0 when absent. */
static int line_of(const Ini *ini, const char *key)
{
    for (int i = 0; i < ini->entry_count; i++)
        if (strcmp(ini->entries[i].section, "tune") == 0 && strcmp(ini->entries[i].key, key) == 0)
            return ini->entries[i].line;
    return 0;
}

void tune_config_check(TuneConfig *t, IniCheck *check, const Ini *ini)
{
    static const char *const spsa_only[] = { "pairs_per_iteration", "A", "alpha", "gamma",
                                             "params" };
    static const char *const regression_only[] = { "games", "skip_plies" };
    for (size_t i = 0; i < sizeof spsa_only / sizeof *spsa_only; i++)
        if (t->method != TUNE_SPSA && line_of(ini, spsa_only[i]))
            ini_fail(check, line_of(ini, spsa_only[i]), "%s is a setting of method = spsa",
                     spsa_only[i]);
    for (size_t i = 0; i < sizeof regression_only / sizeof *regression_only; i++)
        if (t->method == TUNE_SPSA && line_of(ini, regression_only[i]))
            ini_fail(check, line_of(ini, regression_only[i]),
                     "%s is a setting of the regression (method = regression or imbalance)",
                     regression_only[i]);
    if (t->method == TUNE_REGRESSION && line_of(ini, "iterations"))
        ini_fail(check, line_of(ini, "iterations"), "method = regression has no iterations");
    if (t->method == TUNE_IMBALANCE && line_of(ini, "games"))
        ini_fail(check, line_of(ini, "games"),
                 "games = FILES is for method = regression (the imbalance method plays its own)");
    static const char *const plan_keys[] = { "plan_pawn_logit", "plan_draw_rate" };
    for (size_t i = 0; i < 2; i++)
        if (t->method != TUNE_IMBALANCE && line_of(ini, plan_keys[i]))
            ini_fail(check, line_of(ini, plan_keys[i]), "%s is a setting of method = imbalance",
                     plan_keys[i]);
    if (t->method != TUNE_IMBALANCE && line_of(ini, "nodes"))
        ini_fail(check, line_of(ini, "nodes"),
                 "nodes = N1, N2, ... (a convergence study) is for method = imbalance");
    if (t->n_sweep && t->method == TUNE_IMBALANCE && line_of(ini, "iterations"))
        ini_fail(check, line_of(ini, "iterations"),
                 "nodes = ... plays the design once per node count, each fitted alone: it has no "
                 "iterations");
    if (t->method == TUNE_SPSA) {
        if (!line_of(ini, "iterations"))
            ini_fail(check, ini_file_section(ini, "tune")->line,
                     "method = spsa needs iterations = N");
        if (t->n_params == 0) {
            static const char *const standard[] = { "ValueArchbishopMg", "ValueArchbishopEg",
                                                    "ValueChancellorMg", "ValueChancellorEg" };
            for (int i = 0; i < 4; i++)
                t->params[t->n_params++] = (TuneParam){ .info = eval_param_find(standard[i]) };
        }
        if (!t->A_given)
            t->A = 0.1 * t->iterations;
    }
}

uint64_t tune_sweep_nodes(const TuneConfig *t, int stage)
{
    return stage >= 0 && stage < t->n_sweep ? t->sweep[stage] : 0;
}

double tune_param_get(const TuneParam *p, const EvalParams *e)
{
    return *eval_param_ref((EvalParams *)e, p->info);
}

void tune_param_set(const TuneParam *p, EvalParams *e, double x)
{
    double r = floor(x + 0.5);
    if (r < p->info->min)
        r = p->info->min;
    if (r > p->info->max)
        r = p->info->max;
    *eval_param_ref(e, p->info) = (int)r;
}

void tune_params_complete(TuneConfig *t, const EvalParams *start)
{
    for (int i = 0; i < t->n_params; i++) {
        TuneParam *p = &t->params[i];
        if (p->bounds_given)
            continue;
        double s = tune_param_get(p, start);
        double lo = s > 0 ? 0.5 * s : 0, hi = s > 0 ? 1.5 * s : 100;
        p->min = lo < p->info->min ? p->info->min : lo;
        p->max = hi > p->info->max ? p->info->max : hi;
        p->c_end = (p->max - p->min) / 20;
        p->r_end = 0.002;
    }
}

int tune_config_read_sources(const Ini *ini, TuneConfig *t, char *err, size_t errlen)
{
    tune_config_defaults(t);
    IniCheck check;
    ini_check_start(&check, ini, err, errlen);
    for (int i = 0; i < ini->section_count; i++)
        if (strcmp(ini->sections[i].name, "tune") != 0)
            ini_unknown_section(&check, &ini->sections[i],
                                "a regression over recorded games (games = FILES) has only [tune]");
    for (int i = 0; i < ini->entry_count; i++) {
        const IniEntry *e = &ini->entries[i];
        if (e->section[0] == '\0')
            ini_outside_section(&check, e, "tune");
        else
            tune_config_key(t, &check, e);
    }
    if (!check.failed)
        tune_config_check(t, &check, ini);
    if (!check.failed && (t->method != TUNE_REGRESSION || t->n_sources == 0))
        ini_fail(&check, 0,
                 "no [match] section: a tune file plays a match, unless it is method = "
                 "regression with games = FILES");
    return check.failed ? -1 : 0;
}
