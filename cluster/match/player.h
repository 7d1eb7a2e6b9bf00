/* SPDX-License-Identifier: MIT */
/* A player of a match: Carrera's own engine in this process (its evaluation parameters and
 * search limits), or an external engine driven over pipes in UCI or the xboard protocol. Either
 * way a player is asked for the turn to play in a game's position and answers with a legal turn
 * or a fault: an external engine that crashes, goes silent past its time, prints garbage or an
 * illegal move is a fault of that player, reported with the reason, and the engine is restarted
 * for its next game. */
#ifndef CARRERA_PLAYER_H
#define CARRERA_PLAYER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errmsg.h"
#include "game.h"
#include "player_config.h"
#include "search.h"

typedef enum PlayerFault {
    FAULT_NONE,
    FAULT_CRASH,   /* the engine exited or could not be (re)started */
    FAULT_STALL,   /* no bestmove within stall_factor times the turn's limit (player_new) */
    FAULT_GARBAGE, /* an answer the protocol does not allow (an xboard engine's refusal of a
                      command, resignation or result claim too) */
    FAULT_ILLEGAL  /* a bestmove that is not a legal turn of the position */
} PlayerFault;

/* A player's answer for one turn. */
typedef struct PlayerMove {
    Turn turn;      /* legal in the position asked about (when fault == FAULT_NONE) */
    bool has_score; /* the last info line carried a score */
    int score_cp;   /* from the mover's view; mates as +-(SCORE_MATE - plies) */
    uint64_t nodes; /* searched for this turn (0 when the engine did not say) */
    double seconds; /* wall time the player took */
    PlayerFault fault;
    char why[ERRMSG_LEN]; /* the fault's details: the engine's exit status, the bad text, ... */
} PlayerMove;

typedef struct Player Player;

/* Makes the player for games of variant v under rules r (castle960: castling written king takes
 * rook). An external engine is started and set up: a UCI engine with UCI_Variant, UCI_Chess960,
 * TurnRules, EnPassantRule when it offers them and they are not the defaults, Hash and the
 * options of c; an xboard engine, which must list the variant's xboard name among its variants
 * (and offer nps when limited by nodes), with memory, cores and `option NAME=VALUE` for the
 * options of c, each of which it must have announced. An engine stalls when it has not answered
 * within stall_factor times a turn's limit (its movetime, else the mover's clock, else its nodes
 * at 20,000 a second) and 5 s more, or 10 minutes for a depth alone. Returns NULL with a message
 * in err when it cannot be. */
Player *player_new(const PlayerConfig *c, const Variant *v, const Rules *r, bool castle960,
                   int stall_factor, char *err, size_t errlen);
void player_free(Player *p);

const PlayerConfig *player_config(const Player *p);

/* Carrera's engine only (an external engine is left as it is): plays from now on with the
 * evaluation and search parameters of e, as a tuner's stage asks. */
void player_set_params(Player *p, const EngineParams *e);

/* Searches `nodes` nodes per turn from now on (a sweep's stage; the player is limited by nodes
 * alone). */
void player_set_nodes(Player *p, uint64_t nodes);

/* Prepares for a new game from start: ucinewgame (an empty table for Carrera); for an xboard
 * engine new, variant, force, its limits (level for a clock, st for a movetime, st 1 and nps for
 * nodes, sd for a depth) and the position, by setboard or, when the engine has none, by edit
 * (refused when edit cannot say the position's castling rights or en passant square); then a
 * ping. An external engine that failed before, or fails now, is restarted once. Returns 0, or -1
 * with a message when the engine cannot be restarted or given the position. */
int player_new_game(Player *p, const Position *start, char *err, size_t errlen);

/* Asks for the turn to play in g's current position; clock_ms[WHITE], clock_ms[BLACK] are the
 * remaining clocks when the player has a clock (ignored otherwise). Returns 0 with out filled, or
 * -1 with out->fault and out->why set. */
int player_think(Player *p, const Game *g, const int64_t clock_ms[2], PlayerMove *out);

#endif
