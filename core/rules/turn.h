/* SPDX-License-Identifier: MIT */
/* Turn rules: who moves how often in a turn (docs/rules.md section 4). Every rule set combines with
 * every variant. A turn is one or two movements of the same side; standard chess is the rule set
 * whose turns are always one movement. The position between turns is a Position whose en passant
 * set follows docs/rules.md 4.7. */
#ifndef CARRERA_TURN_H
#define CARRERA_TURN_H

#include "move.h"
#include "position.h"
#include "perft_tt.h"
#include "rules.h"

typedef struct Turn {
    Move m[2];
    int n; /* 1 or 2 movements */
} Turn;

/* Whether a and b are the same turn (a one-movement turn's unused second movement aside). */
static inline bool turn_same(const Turn *a, const Turn *b)
{
    return a->n == b->n && a->m[0] == b->m[0] && (a->n == 1 || a->m[1] == b->m[1]);
}

/* A growable list of turns (a position can have tens of thousands). */
typedef struct TurnList {
    Turn *v;
    size_t n, cap;
} TurnList;

/* Whether the side to move in p is playing White's very first turn of the game (White to move,
 * fullmove number 1) under a rule set where that turn is a single movement. */
bool position_first_turn(const Position *p, const Rules *r);

/* Every complete legal turn of p, appended to list (cleared first). Returns false when memory
 * runs out. A position where the game is over has none. */
bool position_turns(const Position *p, const Rules *r, TurnList *list);

/* The same restricted to the turns that capture (en passant included) or promote in either
 * movement, in position_turns's order; for a search's quiescence. */
bool position_tactical_turns(const Position *p, const Rules *r, TurnList *list);

/* Whether t is one of position_turns(p, r), found without listing them all: for a turn that comes
 * from elsewhere (a search's table) before it is made. */
bool position_turn_legal(const Position *p, const Rules *r, const Turn *t);
void turn_list_free(TurnList *list);

/* Appends t, growing the list; false when memory runs out (the list is unchanged then). */
bool turn_list_grow_push(TurnList *list, const Turn *t);
static inline bool turn_list_push(TurnList *list, const Turn *t)
{
    if (list->n == list->cap)
        return turn_list_grow_push(list, t);
    list->v[list->n++] = *t;
    return true;
}

/* Plays a complete turn (from position_turns): out receives the position at the next turn
 * boundary, with the en passant set of docs/rules.md 4.7 and the clocks counted in turns. */
void position_make_turn(const Position *p, const Rules *r, const Turn *t, Position *out);

/* Number of sequences of depth complete turns (docs/rules.md section 6). The last turn's second
 * movements are counted by the generator, not made. */
uint64_t perft_turns(const Position *p, const Rules *r, int depth);

/* The same with a transposition table (NULL for none); any rule set, single included. One table
 * serves one root position and rule set at a time. work, when not NULL, has this count's use of
 * the table added to it (perft_tt.h). */
uint64_t perft_turns_hashed(const Position *p, const Rules *r, int depth, PerftTT *tt,
                            PerftTTWork *work);

/* The debugging count: distinct sequences of depth movements that begin sequences of complete
 * turns, each movement one ply. */
uint64_t perft_movements(const Position *p, const Rules *r, int depth);

/* How a position at a turn boundary stands (docs/rules.md 4.1 rules 4-5, 4.3-4.5, section 6). */
typedef enum GameEnd {
    GAME_ON,           /* the side to move has a complete turn */
    GAME_CHECKMATE,    /* in check, and no allowed first movement parries it: lost */
    GAME_STALEMATE,    /* no complete turn otherwise: a draw (Galvin: no movement at all) */
    GAME_KING_CAPTURED /* Galvin's game: the side to move has lost its king */
} GameEnd;

GameEnd position_game_end(const Position *p, const Rules *r);

/* Turn text: movements in UCI notation joined by '/', e.g. "e2e4/g1f3". */
#define TURN_TEXT_MAX (2 * MOVE_TEXT_MAX)
void turn_to_uci(const Turn *t, const Variant *v, bool castle960, char *out);

#endif
