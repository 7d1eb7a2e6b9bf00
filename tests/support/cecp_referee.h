/* SPDX-License-Identifier: MIT */
/* A small referee for engines that speak the xboard protocol (CECP v2), for the tests that play
 * `carrera xboard` against Fairy-Max and Sjaak II: both engines started over pipes and
 * handshaken (protover 2, their features read until done=1), told the variant, the time control
 * and the start position (setboard), then driven move by move as XBoard drives them (time and
 * otim, the opponent's move, go), every move checked against Carrera's rules, the clocks kept,
 * and the game ended by the rules, by an engine's claim, or after a number of plies. Test code:
 * it stops at the first thing that goes wrong and says what it was. */
#ifndef CARRERA_TEST_CECP_REFEREE_H
#define CARRERA_TEST_CECP_REFEREE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct CecpGameSpec {
    const char *variant; /* the xboard name: normal, capablanca, fischerandom, ... */
    const char *fen;     /* the start position (sent with setboard), or NULL for the variant's */
    int base_s, inc_s;   /* level 0 BASE INC: seconds for the game and per move */
    int depth;           /* sd, 0 for none */
    int max_plies;       /* ended unfinished (*) after as many */
} CecpGameSpec;

typedef struct CecpOutcome {
    bool ok;           /* false: error says what went wrong (an illegal move, a forfeit...) */
    char error[512];   /* ok == false: what went wrong, with the engine's name */
    char result[8];    /* 1-0, 0-1, 1/2-1/2, or * (after max_plies) */
    char reason[128];  /* how the game ended */
    int plies;         /* moves played */
    char names[2][64]; /* the engines' myname, White's first */
    char moves[8192];  /* the moves as sent, separated by spaces */
} CecpOutcome;

/* Plays one game, argv[0] White, argv[1] Black (each a NULL-terminated argument list).
 * Returns out->ok. */
bool cecp_play(char *const *const argv[2], const CecpGameSpec *spec, CecpOutcome *out);

#endif
