/* SPDX-License-Identifier: MIT */
/* A game being played: the position, every turn played, and the keys of every position reached
 * at a turn boundary, so that the rule-based ends of docs/rules.md (checkmate, stalemate, Galvin's
 * king capture, threefold repetition, the 50-move rule, insufficient material) can be decided. Used
 * by the UCI front end (repetition history for the search) and by anything that referees games. */
#ifndef CARRERA_GAME_H
#define CARRERA_GAME_H

#include "position.h"
#include "rules.h"
#include "turn.h"

typedef enum Termination {
    TERM_NONE, /* the game goes on */
    TERM_CHECKMATE,
    TERM_STALEMATE,
    TERM_KING_CAPTURED, /* Galvin's game */
    TERM_REPETITION,    /* threefold */
    TERM_FIFTY_MOVES,   /* 50 turns of each side without capture or pawn movement */
    TERM_MATERIAL,      /* neither side can mate */
    TERM_NB
} Termination;

/* "checkmate", "stalemate", "king captured", "threefold repetition", "50-move rule",
 * "insufficient material", "none". */
const char *termination_name(Termination t);

typedef struct Game {
    Rules rules;
    bool castle960; /* how castling is written in UCI text */
    Position start, pos;
    Turn *turns; /* turns[0..n_turns) played from start */
    size_t n_turns, cap_turns;
    u128 *keys; /* keys[i]: the key after i turns; keys[0] the start's */
    size_t cap_keys;
} Game;

/* Starts a game from p (a turn boundary). Returns false when memory runs out. */
bool game_init(Game *g, const Position *start, const Rules *r, bool castle960);
void game_free(Game *g);

/* Plays t if it is one of the current position's legal turns; false otherwise (or when memory
 * runs out), the game unchanged. */
bool game_play(Game *g, const Turn *t);

/* The same from UCI text: a move, or a turn's movements joined by ',' or '/'. */
bool game_play_text(Game *g, const char *text);

/* Reads UCI text as game_play_text does, without playing it: true with *out a legal turn of the
 * current position, false when the text is none. */
bool game_parse_turn(const Game *g, const char *text, Turn *out);

/* How the game stands now. *winner receives WHITE or BLACK for a decisive end, -1 otherwise. */
Termination game_status(const Game *g, int *winner);

/* How often the current position has occurred (1 the first time): same key at a turn boundary,
 * same side to move, since the last capture or pawn movement. */
int game_repetitions(const Game *g);

/* Whether neither side can ever mate (docs/rules.md 3): K v K, K+B v K, K+N v K, and kings with
 * bishops all on squares of one colour. Never true in Galvin's game (kings are captured, not
 * mated). K+A v K and K+C v K are not draws. */
bool position_insufficient_material(const Position *p, const Rules *r);

#endif
