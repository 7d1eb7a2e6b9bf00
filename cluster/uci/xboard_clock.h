/* SPDX-License-Identifier: MIT */
/* The time controls of the xboard protocol (CECP), as the engine's search limits: a conventional
 * or incremental clock (`level MPS BASE INC` with `time` and `otim`), a fixed time per move
 * (`st`), a depth limit beside either (`sd`), and node-counted time (`nps`), where a move's time
 * budget becomes a node budget. Plain data: the server keeps one and asks it for the limits of
 * each search. */
#ifndef CARRERA_XBOARD_CLOCK_H
#define CARRERA_XBOARD_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "search.h"

typedef struct XboardClock {
    bool per_move;       /* st: every move gets move_ms, the clocks are not used */
    int64_t move_ms;     /* st */
    int mps;             /* level: moves per session, 0 for the whole game */
    int64_t base_ms;     /* level: a session's time */
    int64_t inc_ms;      /* level: added after every move */
    size_t level_turns;  /* turns of the game when level came: sessions count from there */
    int64_t own_ms;      /* time: the engine's clock; -1 until told (then base_ms) */
    int64_t opponent_ms; /* otim: the opponent's clock; -1 until told */
    int depth;           /* sd, in plies; 0: none */
    int64_t nps;         /* nps: nodes counted as one second; 0: wall-clock time */
} XboardClock;

/* The clock of a new game: xboard's default control (40 moves in 5 minutes), the clocks not yet
 * told, no depth limit, wall-clock time. The `new` command; `level` and `st` survive it in the
 * server, which keeps them across games as xboard expects. */
void xboard_clock_init(XboardClock *c);

/* `new`: the clocks forgotten, sd and nps cleared, the time control kept. */
void xboard_clock_new_game(XboardClock *c);

/* The commands, each with its arguments as text. 0, or -1 with a message in err (the clock
 * unchanged) for a missing, malformed or out-of-range argument. `level` reads BASE as minutes or
 * MINUTES:SECONDS, ignoring characters after it (the protocol reserves them), and INC as seconds
 * with a fraction; turns is the number of turns played when it arrives. */
int xboard_clock_level(XboardClock *c, const char *mps, const char *base, const char *inc,
                       size_t turns, char *err, size_t errlen);
int xboard_clock_st(XboardClock *c, const char *seconds, char *err, size_t errlen);
int xboard_clock_sd(XboardClock *c, const char *depth, char *err, size_t errlen);
int xboard_clock_nps(XboardClock *c, const char *nps, char *err, size_t errlen);
/* `time` (own) and `otim` (!own), in centiseconds; a negative reading is a spent clock. */
int xboard_clock_time(XboardClock *c, bool own, const char *centiseconds, char *err, size_t errlen);

/* The limits of a search for the engine playing side after turns turns of the game. */
SearchLimits xboard_clock_limits(const XboardClock *c, int side, size_t turns);

#endif
