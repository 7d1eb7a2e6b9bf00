/* SPDX-License-Identifier: MIT */
/* Detailed perft: per depth the counts the chessprogramming wiki's perft tables list (nodes,
 * captures, en passant, castles, promotions, checks, discovered checks, double checks,
 * checkmates), and for double-move rules the one- and two-movement turns. Slower than perft:
 * every leaf is made and examined. */
#ifndef CARRERA_PERFT_STATS_H
#define CARRERA_PERFT_STATS_H

#include "turn.h"

/* Counts at one depth, with the conventions of the published tables: a discovered check is a
 * single check by a piece that did not move (a double check counts only as a double check).
 * Under double-move rules a turn counts as a capture (en passant, castle, promotion) when any of
 * its movements is one; checks, discovered and double checks and checkmates describe the
 * position after the turn. Galvin's game has no checks. */
typedef struct PerftStats {
    uint64_t nodes, captures, en_passant, castles, promotions;
    uint64_t checks, discovered_checks, double_checks, checkmates;
    uint64_t one_movement, two_movement; /* turns of one and of two movements */
} PerftStats;

/* Fills stats[0..depth-1] with the counts at depths 1..depth, using threads threads (0: the
 * OpenMP default). Returns 0, or -1 when memory runs out. */
int perft_stats(const Position *p, const Rules *r, int depth, int threads, PerftStats *stats);

#endif
