/* SPDX-License-Identifier: MIT */
/* The reference move generator and perft: slow and obviously correct, on the mailbox Setup.
 * Pseudo-legal moves by walking the board, make, then reject a move that leaves the own king
 * attacked (mailbox.h). No bitboards, no bulk counting, nothing shared with the fast core
 * beyond Setup, its mailbox view and the move encoding. A test oracle. */
#ifndef CARRERA_PERFT_REF_H
#define CARRERA_PERFT_REF_H

#include "mailbox.h"

/* Writes the legal moves of s to moves (room for MAX_MOVES) and returns their number. */
int ref_legal_moves(const Setup *s, Move *moves);

/* Plays the (legal) move m in s, writing the new position to out (s and out may not alias). */
void ref_make(const Setup *s, Move m, Setup *out);

/* Number of legal move paths of length depth from s. */
uint64_t perft_ref(const Setup *s, int depth);

#endif
