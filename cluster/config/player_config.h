/* SPDX-License-Identifier: MIT */
/* A player of a match as its configuration section ([player1], [player2]) describes it:
 * Carrera's engine with its evaluation and search parameters, or an external engine (UCI or xboard)
 * with its command and options, and the limits of each turn. Read by match_config.c, played by
 * match/player.c. */
#ifndef CARRERA_PLAYER_CONFIG_H
#define CARRERA_PLAYER_CONFIG_H

#include <stdint.h>

#include "eval.h"
#include "search.h"

typedef enum PlayerKind {
    PLAYER_CARRERA, /* the engine of core/engine/search.c, in this process */
    PLAYER_UCI,     /* an external program speaking UCI */
    PLAYER_XBOARD   /* an external program speaking the xboard protocol (CECP) */
} PlayerKind;

#define PLAYER_NAME_MAX    64
#define PLAYER_COMMAND_MAX 1024
#define PLAYER_MAX_OPTIONS 32

typedef struct PlayerOption {
    char name[64];
    char value[256];
} PlayerOption;

/* What the player may spend per turn. A clock (base_ms > 0) runs for the whole game; otherwise
 * each turn has the fixed limits that are set (nodes, depth, movetime; at least one). */
typedef struct PlayerLimits {
    uint64_t nodes;
    int depth;
    int64_t movetime_ms;
    int64_t base_ms, inc_ms;
} PlayerLimits;

/* What Carrera's engine plays with: its evaluation and search parameters (a tuner's stage
 * changes them). */
typedef struct EngineParams {
    EvalParams eval;
    SearchParams search;
} EngineParams;

typedef struct PlayerConfig {
    char name[PLAYER_NAME_MAX];
    PlayerKind kind;
    PlayerLimits limits;
    int hash_mb;     /* the transposition table (Hash of a UCI engine, memory of an xboard one) */
    int cores;       /* PLAYER_XBOARD: sent with cores (0: not sent) */
    int threads;     /* PLAYER_CARRERA: the search's threads (0: one) */
    EvalParams eval; /* PLAYER_CARRERA */
    SearchParams search;                      /* PLAYER_CARRERA */
    char command[PLAYER_COMMAND_MAX];         /* external: program and arguments, split at blanks */
    PlayerOption options[PLAYER_MAX_OPTIONS]; /* external: setoption (UCI), option (xboard) */
    int n_options;
} PlayerConfig;

#endif
