/* SPDX-License-Identifier: MIT */
/* Match configurations: an INI file with a [match] section (variant, rules, games, openings,
 * adjudication, SPRT, outputs) and two players, [player1] and [player2], each Carrera's engine
 * with its own [playerN.eval] parameters or an external UCI engine with its options. Validated
 * whole before anything runs; every error names the file, the line and the key. */
#ifndef CARRERA_MATCH_CONFIG_H
#define CARRERA_MATCH_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perft_config.h"
#include "imbalance.h"
#include "ini_keys.h"
#include "player_config.h"
#include "tune_config.h"

/* Score adjudication (a match setting, recorded as such). Zero turns a rule
 * off. */
typedef struct Adjudication {
    int resign_cp, resign_moves; /* both players agree one side is ahead by resign_cp for
                                    resign_moves turns of each side: that side wins */
    int draw_cp, draw_moves;     /* both scores within draw_cp for draw_moves turns of each */
    int draw_min_plies;          /* ... and not before this many turns were played */
    int max_plies;               /* a game this long is drawn */
} Adjudication;

typedef enum OpeningKind {
    OPENINGS_STARTPOS, /* the variant's start position */
    OPENINGS_RANDOM,   /* a random start array per pair (chess960, caparandom) */
    OPENINGS_FILE      /* FEN or EPD lines of a file, in order, cycled */
} OpeningKind;

#define MATCH_MAX_GAMES      100000000
#define MATCH_MAX_IMBALANCES 32
#define MATCH_OPENING_NODES  20000 /* opening_nodes' default */

typedef struct MatchConfig {
    char *file;             /* as given, for messages */
    char *text;             /* the whole file: provenance */
    const Variant *variant; /* variant (default chess) */
    Rules rules;            /* turns, ep_rule */
    bool castle960;         /* castling text king-takes-rook (chess960 variants) */
    int games;              /* games: even (pairs of games, colours reversed) */
    OpeningKind openings;
    char openings_file[CONFIG_PATH_MAX];
    int random_plies; /* random legal turns played after the opening position */
    /* Balanced openings: random turns drawn again until Carrera's own search of opening_nodes
     * nodes scores the position within +-opening_balance centipawns (0: any opening). */
    int opening_balance;
    uint64_t opening_nodes;
    uint64_t seed;
    int concurrency; /* games at once per process; 0: one per core */
    Adjudication adjudication;
    int stall_factor; /* an engine silent this many times a turn's limit has stalled */
    bool sprt;        /* an SPRT stops the match early */
    double sprt_elo0, sprt_elo1, sprt_alpha, sprt_beta;
    char output[CONFIG_PATH_MAX]; /* HDF5 result (default: the file's name with .h5) */
    char pgn[CONFIG_PATH_MAX];    /* PGN of every game (default: the file's name with .pgn) */
    PlayerConfig players[2];
    /* Material-odds matches (piece-value tests): imbalance i gets weights[i] * games games per
     * stage, its pairs numbered in one block per imbalance, in the order given; player 1 plays
     * the side under test (its material unchanged). */
    Imbalance imbalances[MATCH_MAX_IMBALANCES];
    int weights[MATCH_MAX_IMBALANCES];
    int n_imbalances;
    /* A tune file's [tune] (tune.given false for a plain match). */
    TuneConfig tune;
    /* Stages: the pairs are played in `stages` blocks of pairs_per_stage pairs (numbered
     * stage by stage); a tune method sets the players' evaluation for each from the results of
     * the ones before. A plain match is one stage. */
    int stages;
    uint64_t pairs_per_stage;
} MatchConfig;

/* The keys of [match] and of each player's section. */
extern const IniKeys match_config_keys;
extern const IniKeys player_config_keys;

/* Reads and validates the match in the file at path. Returns 0; or -1 with one message in err
 * (`FILE:LINE: ...`), *out then holding nothing to free. */
int match_config_read(const char *path, MatchConfig *out, char *err, size_t errlen);

/* The same for the text of a configuration (a result file's `configuration`), named `name` in
 * messages. */
int match_config_parse(const char *text, const char *name, MatchConfig *out, char *err,
                       size_t errlen);

void match_config_free(MatchConfig *c);

/* The imbalance (index into c->imbalances) that pair plays; -1 when the match has none. */
int match_imbalance_of(const MatchConfig *c, uint64_t pair);

/* The pairs of imbalance i in one stage. */
uint64_t match_imbalance_pairs(const MatchConfig *c, int i);

#endif
