/* SPDX-License-Identifier: MIT */
/* Reading the [tune] section (tune_config.h) through its table of keys (ini_keys.h). */
#define _POSIX_C_SOURCE 200809L /* strtok_r, strcasecmp */
#include "tune_config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ini_keys.h"
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

/* The evaluation or search parameter of this name (info NULL when there is none: the two
 * tables share no name). */
static TuneParam lookup_param(const char *name)
{
    const ParamInfo *eval = eval_param_find(name);
    return eval ? (TuneParam){ .info = eval }
                : (TuneParam){ .info = search_param_find(name), .search = true };
}

static TuneParam *param_named(TuneConfig *t, const char *name)
{
    for (int i = 0; i < t->n_params; i++)
        if (strcasecmp(t->params[i].info->name, name) == 0)
            return &t->params[i];
    return NULL;
}

static void read_params(void *target, const IniKey *k, const IniEntry *e, IniCheck *check)
{
    TuneConfig *t = target;
    (void)k;
    char buf[4096], *items[TUNE_MAX_PARAMS + 1];
    int n = split(e->value, buf, sizeof buf, items, TUNE_MAX_PARAMS);
    if (n <= 0) {
        char must[96];
        snprintf(must, sizeof must, "1 to %d evaluation or search parameters, separated by commas",
                 TUNE_MAX_PARAMS);
        ini_bad_value(check, e, must);
        return;
    }
    t->n_params = 0;
    for (int i = 0; i < n; i++) {
        const TuneParam p = lookup_param(items[i]);
        if (!p.info) {
            ini_fail(check, e->line,
                     "params: '%s' is no evaluation or search parameter (`carrera check-config "
                     "--keys` lists them)",
                     items[i]);
            return;
        }
        if (param_named(t, p.info->name)) {
            ini_fail(check, e->line, "params: %s named twice", p.info->name);
            return;
        }
        t->params[t->n_params++] = p;
    }
}

static bool is_param(const char *key) { return lookup_param(key).info != NULL; }

/* "MIN, MAX, C_END, R_END" for a parameter (its name is the key). */
static void read_bounds(void *target, const IniKey *k, const IniEntry *e, IniCheck *check)
{
    TuneConfig *t = target;
    const TuneParam named = lookup_param(e->key);
    const ParamInfo *info = named.info;
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
        ini_bad_value(check, e, k->must);
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
    *p = (TuneParam){ .info = info,
                      .search = named.search,
                      .min = v[0],
                      .max = v[1],
                      .c_end = v[2],
                      .r_end = v[3],
                      .bounds_given = true };
}

static void read_A(void *target, const IniKey *k, const IniEntry *e, IniCheck *check)
{
    TuneConfig *t = target;
    double x;
    if (number(e->value, &x) && x >= 0) {
        t->A = x;
        t->A_given = true;
    } else {
        ini_bad_value(check, e, k->must);
    }
}

/* alpha, gamma: exponents of SPSA's schedule. */
static void read_exponent(void *target, const IniKey *k, const IniEntry *e, IniCheck *check)
{
    double x;
    if (number(e->value, &x) && x > 0 && x <= 1)
        *(double *)ini_key_field(target, k) = x;
    else
        ini_bad_value(check, e, k->must);
}

static void read_sources(void *target, const IniKey *k, const IniEntry *e, IniCheck *check)
{
    TuneConfig *t = target;
    char buf[TUNE_MAX_SOURCES * CONFIG_PATH_MAX], *items[TUNE_MAX_SOURCES + 1];
    int count = split(e->value, buf, sizeof buf, items, TUNE_MAX_SOURCES);
    if (count <= 0) {
        ini_bad_value(check, e, k->must);
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
}

static void read_sweep(void *target, const IniKey *k, const IniEntry *e, IniCheck *check)
{
    TuneConfig *t = target;
    char buf[TUNE_MAX_SWEEP * 24], *items[TUNE_MAX_SWEEP + 1];
    int count = split(e->value, buf, sizeof buf, items, TUNE_MAX_SWEEP);
    long n;
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
        ini_bad_value(check, e, k->must);
}

static void read_pawn_logit(void *target, const IniKey *k, const IniEntry *e, IniCheck *check)
{
    TuneConfig *t = target;
    double x;
    if (number(e->value, &x) && x > 0 && x <= 5)
        t->plan_pawn_logit = x;
    else
        ini_bad_value(check, e, k->must);
}

static void read_draw_rate(void *target, const IniKey *k, const IniEntry *e, IniCheck *check)
{
    TuneConfig *t = target;
    double x;
    if (number(e->value, &x) && x >= 0 && x < 1)
        t->plan_draw_rate = x;
    else
        ini_bad_value(check, e, k->must);
}

static const IniWord METHODS[] = {
    { "imbalance", TUNE_IMBALANCE }, { "spsa", TUNE_SPSA }, { "regression", TUNE_REGRESSION }, { 0 }
};

static const IniKey TUNE_KEY_LIST[] = {
    INI_KEY_WORD(TuneConfig, "method", method, METHODS, "imbalance (default), spsa or regression"),
    INI_KEY_WHOLE(TuneConfig, "iterations", iterations, 1, TUNE_MAX_ITERATIONS,
                  "imbalance: at most this many rounds (default 1); spsa: N (required)"),
    INI_KEY_WHOLE(TuneConfig, "pairs_per_iteration", pairs_per_iteration, 1, 1000000,
                  "spsa: game pairs per iteration (default 2)"),
    INI_KEY_CALL(TuneConfig, "A", A, read_A, "a number >= 0", "spsa: A (default 0.1 N)"),
    INI_KEY_CALL(TuneConfig, "alpha", alpha, read_exponent, "a number in (0, 1]",
                 "spsa: alpha (default 0.602)"),
    INI_KEY_CALL(TuneConfig, "gamma", gamma, read_exponent, "a number in (0, 1]",
                 "spsa: gamma (default 0.101)"),
    INI_KEY_CALL(TuneConfig, "params", params, read_params, NULL,
                 "spsa: the evaluation and search parameters tuned (default: the A and C "
                 "values)"),
    INI_KEY_FAMILY(TuneConfig, "PARAMETER", params, is_param, read_bounds,
                   "MIN, MAX, C_END, R_END (four numbers, as fishtest writes them)",
                   "spsa: a parameter's MIN, MAX, C_END, R_END"),
    INI_KEY_CALL(TuneConfig, "games", sources, read_sources,
                 "1 to 16 result files (.h5) separated by commas",
                 "regression: fit these result files' games, play none"),
    INI_KEY_WHOLE(TuneConfig, "skip_plies", skip_plies, 0, 1000,
                  "regression: turns at the start of each game not sampled (default 16)"),
    INI_KEY_CALL(TuneConfig, "nodes", sweep, read_sweep,
                 "2 to 16 node counts per turn, rising, separated by commas (1000, 4000, 16000)",
                 "imbalance: a convergence sweep, the design once per node count"),
    INI_KEY_CALL(TuneConfig, "plan_pawn_logit", plan_pawn_logit, read_pawn_logit,
                 "a pawn's worth in logits of the score, in (0, 5]",
                 "imbalance: check-config's plan assumes a pawn worth this (default 0.4)"),
    INI_KEY_CALL(TuneConfig, "plan_draw_rate", plan_draw_rate, read_draw_rate,
                 "a draw rate in [0, 1)",
                 "imbalance: and even games drawn this often (default 0.15)"),
};

const IniKeys tune_config_keys = { "[tune]", "the method of carrera tune", TUNE_KEY_LIST,
                                   sizeof TUNE_KEY_LIST / sizeof *TUNE_KEY_LIST };

void tune_config_key(TuneConfig *t, IniCheck *check, const IniEntry *e)
{
    if (strcmp(e->section, "tune") != 0)
        return;
    t->given = true;
    ini_keys_read(&tune_config_keys, t, e, check);
}

void tune_config_check(TuneConfig *t, IniCheck *check, const Ini *ini)
{
    static const char *const spsa_only[] = { "pairs_per_iteration", "A", "alpha", "gamma",
                                             "params" };
    static const char *const regression_only[] = { "games", "skip_plies" };
    for (size_t i = 0; i < sizeof spsa_only / sizeof *spsa_only; i++)
        if (t->method != TUNE_SPSA && ini_file_line(ini, "tune", spsa_only[i]))
            ini_fail(check, ini_file_line(ini, "tune", spsa_only[i]),
                     "%s is a setting of method = spsa", spsa_only[i]);
    for (size_t i = 0; i < sizeof regression_only / sizeof *regression_only; i++)
        if (t->method == TUNE_SPSA && ini_file_line(ini, "tune", regression_only[i]))
            ini_fail(check, ini_file_line(ini, "tune", regression_only[i]),
                     "%s is a setting of the regression (method = regression or imbalance)",
                     regression_only[i]);
    if (t->method == TUNE_REGRESSION && ini_file_line(ini, "tune", "iterations"))
        ini_fail(check, ini_file_line(ini, "tune", "iterations"),
                 "method = regression has no iterations");
    if (t->method == TUNE_IMBALANCE && ini_file_line(ini, "tune", "games"))
        ini_fail(check, ini_file_line(ini, "tune", "games"),
                 "games = FILES is for method = regression (the imbalance method plays its own)");
    static const char *const plan_keys[] = { "plan_pawn_logit", "plan_draw_rate" };
    for (size_t i = 0; i < 2; i++)
        if (t->method != TUNE_IMBALANCE && ini_file_line(ini, "tune", plan_keys[i]))
            ini_fail(check, ini_file_line(ini, "tune", plan_keys[i]),
                     "%s is a setting of method = imbalance", plan_keys[i]);
    if (t->method != TUNE_IMBALANCE && ini_file_line(ini, "tune", "nodes"))
        ini_fail(check, ini_file_line(ini, "tune", "nodes"),
                 "nodes = N1, N2, ... (a convergence study) is for method = imbalance");
    if (t->n_sweep && t->method == TUNE_IMBALANCE && ini_file_line(ini, "tune", "iterations"))
        ini_fail(check, ini_file_line(ini, "tune", "iterations"),
                 "nodes = ... plays the design once per node count, each fitted alone: it has no "
                 "iterations");
    if (t->method == TUNE_SPSA) {
        if (!ini_file_line(ini, "tune", "iterations"))
            ini_fail(check, ini_file_section(ini, "tune")->line,
                     "method = spsa needs iterations = N");
        if (t->n_params == 0) {
            static const char *const standard[] = { "ValueArchbishopMg", "ValueArchbishopEg",
                                                    "ValueChancellorMg", "ValueChancellorEg" };
            for (int i = 0; i < 4; i++)
                t->params[t->n_params++] = lookup_param(standard[i]);
        }
        if (!t->A_given)
            t->A = 0.1 * t->iterations;
    }
}

uint64_t tune_sweep_nodes(const TuneConfig *t, int stage)
{
    return stage >= 0 && stage < t->n_sweep ? t->sweep[stage] : 0;
}

/* Where p lives in e. */
static int *param_in(const TuneParam *p, EngineParams *e)
{
    return p->search ? param_ref(&e->search, p->info) : param_ref(&e->eval, p->info);
}

double tune_param_get(const TuneParam *p, const EngineParams *e)
{
    return *param_in(p, (EngineParams *)e);
}

void tune_param_set(const TuneParam *p, EngineParams *e, double x)
{
    double r = floor(x + 0.5);
    if (r < p->info->min)
        r = p->info->min;
    if (r > p->info->max)
        r = p->info->max;
    *param_in(p, e) = (int)r;
}

void tune_params_complete(TuneConfig *t, const EngineParams *start)
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
