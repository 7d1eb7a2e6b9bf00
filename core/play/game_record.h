/* SPDX-License-Identifier: MIT */
/* A finished game as a match records it: the game itself (start, every turn, final position),
 * its result and how it ended (by the rules of play, by an adjudication or by a player's fault),
 * and what each side spent and kept. Plain data shared by the referee that fills it, the result
 * file that stores it and the regression that reads it back. */
#ifndef CARRERA_GAME_RECORD_H
#define CARRERA_GAME_RECORD_H

#include <stdint.h>

#include "game.h"

/* How a game ended: the rules of play, an adjudication, or a player's fault. */
typedef enum GameEnding {
    END_CHECKMATE,
    END_STALEMATE,
    END_KING_CAPTURED,
    END_REPETITION,
    END_FIFTY_MOVES,
    END_MATERIAL,
    END_RESIGN, /* score adjudication */
    END_DRAW,   /* score adjudication */
    END_MAX_LENGTH,
    END_TIME, /* a clock ran out */
    END_CRASH,
    END_STALL, /* no answer within the match's stall_factor times the turn's limit */
    END_GARBAGE,
    END_ILLEGAL,
    END_NB
} GameEnding;

/* "checkmate", "stalemate", "king captured", "threefold repetition", "50-move rule",
 * "insufficient material", "resign adjudication", "draw adjudication", "maximum length",
 * "time forfeit", "engine crash", "engine stall", "engine garbage", "illegal move". */
const char *game_ending_name(GameEnding e);

/* The ending named name, as a result file records it, or END_NB. "engine timeout", what files
 * of earlier versions call a stall, is END_STALL. */
GameEnding game_ending_by_name(const char *name);

/* Whether e is a player's fault (time, crash, stall, garbage, an illegal move): such a result
 * says nothing about the position, and the fits of recorded games leave the game out. */
bool game_ending_is_fault(GameEnding e);

/* A finished game. game holds the start, every turn and the final position. */
typedef struct GameRecord {
    Game game;
    int result; /* 1: White won, 0: draw, -1: Black won */
    GameEnding ending;
    int loser_fault;          /* for faults and time: the colour at fault, else -1 */
    char detail[256];         /* the fault's details, or empty */
    uint64_t nodes[2];        /* searched by White's and Black's player over the game */
    double seconds[2];        /* their thinking time */
    int material[2][TYPE_NB]; /* the pieces each side has at the end */
} GameRecord;

void game_record_free(GameRecord *g);

/* Fills g->material from the final position. */
void game_record_count_material(GameRecord *g);

/* A finished game as a result file stores it, read back as text by the fits of recorded games
 * (the regression of `carrera tune`, Texel's method of `carrera texel-data`), with where it was
 * read for their messages. */
typedef struct RecordedGame {
    const char *path;        /* the file */
    uint64_t row;            /* its row in the file's /match/games */
    uint64_t pair;           /* its pair in that file */
    const char *opening;     /* FEN */
    int result;              /* for White: 1, 0, -1 */
    uint32_t plies;          /* the turns the record says it has */
    const char *termination; /* game_ending_name */
    const char *moves;       /* the turns in UCI text, separated by single blanks */
} RecordedGame;

#endif
