/* SPDX-License-Identifier: MIT */
/* The [tune] section of a tune file: which method `carrera tune` runs and its settings (README
 * "Tune files"). The match the methods play is the file's [match] and players (match_config.h);
 * the regression method can instead read the games of earlier result files, and then needs no
 * match at all. */
#ifndef CARRERA_TUNE_CONFIG_H
#define CARRERA_TUNE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "perft_config.h"
#include "eval.h"
#include "ini_file.h"
#include "ini_keys.h"
#include "player_config.h"

typedef enum TuneMethod {
    TUNE_IMBALANCE, /* material-odds matches, one least-squares fit per iteration */
    TUNE_SPSA,      /* SPSA over evaluation or search parameters, a block of pairs per iteration */
    TUNE_REGRESSION /* ordered logit of results on material, from recorded games */
} TuneMethod;

#define TUNE_MAX_PARAMS     16
#define TUNE_MAX_SOURCES    16
#define TUNE_MAX_ITERATIONS 100000
#define TUNE_MAX_SWEEP      16

/* One SPSA parameter: an evaluation or a search parameter, its bounds and fishtest's c_end and
 * r_end. The start is each player's own value (read from the players, not from [tune]). */
typedef struct TuneParam {
    const ParamInfo *info;
    bool search; /* info is a search parameter's (search_params.h), else an evaluation one's */
    double min, max, c_end, r_end;
    bool bounds_given; /* min, max, c_end, r_end written in [tune]; else derived from the start */
} TuneParam;

typedef struct TuneConfig {
    bool given;              /* the file has a [tune] section */
    TuneMethod method;       /* default imbalance */
    int iterations;          /* imbalance: most matches (default 1); spsa: N (required) */
    int pairs_per_iteration; /* spsa: game pairs per iteration (default 2) */
    double A, alpha, gamma;  /* spsa: A default 0.1 N, fishtest's 0.602 and 0.101 */
    bool A_given;
    TuneParam params[TUNE_MAX_PARAMS]; /* spsa */
    int n_params;
    char sources[TUNE_MAX_SOURCES][CONFIG_PATH_MAX]; /* regression: result files to read */
    int n_sources;
    int skip_plies; /* regression: turns at the start of each game not sampled (default 16) */
    /* imbalance: a convergence study, `nodes = 1000, 4000, 16000`: the design played once per
     * entry (a stage each, both players searching that many nodes per turn), each fitted alone;
     * n_sweep 0 without one */
    uint64_t sweep[TUNE_MAX_SWEEP];
    int n_sweep;
    /* imbalance: what check-config's plan assumes a pawn is worth (logits of the score, default
     * 0.4) and the draw rate of an even game (default 0.15) */
    double plan_pawn_logit, plan_draw_rate;
} TuneConfig;

const char *tune_method_name(TuneMethod m);

/* The nodes per turn both players search in stage `stage` of a sweep; 0 without a sweep. */
uint64_t tune_sweep_nodes(const TuneConfig *t, int stage);

/* The defaults: imbalance, 1 iteration, no parameters (spsa takes the Archbishop's and the
 * Chancellor's values when none are named). */
void tune_config_defaults(TuneConfig *t);

/* The keys of [tune]. */
extern const IniKeys tune_config_keys;

/* One entry of [tune] (a key of another section is not looked at); errors go to check. */
void tune_config_key(TuneConfig *t, IniCheck *check, const IniEntry *e);

/* The checks that need the whole section, once every key is read; section_line is [tune]'s. */
void tune_config_check(TuneConfig *t, IniCheck *check, const Ini *ini);

/* A tune file without [match]: only [tune], method = regression with games = FILES. Returns 0,
 * or -1 with the first error in err. */
int tune_config_read_sources(const Ini *ini, TuneConfig *t, char *err, size_t errlen);

/* The value of parameter p in e, as a double. */
double tune_param_get(const TuneParam *p, const EngineParams *e);

/* Sets parameter p of e to x rounded to the nearest integer within the parameter's range. */
void tune_param_set(const TuneParam *p, EngineParams *e, double x);

/* Fills the bounds not given of every parameter from its start value (the player's): min and
 * max at half and one and a half times the start within the parameter's range, c_end a
 * twentieth of that span, r_end 0.002. */
void tune_params_complete(TuneConfig *t, const EngineParams *start);

#endif
