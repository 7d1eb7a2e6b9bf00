/* SPDX-License-Identifier: MIT */
/* Work units of a perft: the tree cut at a split depth into subtrees, transpositions under the
 * same root move merged into one unit with a multiplicity, largest first. The one splitter: the
 * threads of perft.c share its units, and a distributed job sends them to the ranks. Plain data:
 * built, merged and summed without MPI, so it is tested on its own. */
#ifndef CARRERA_SPLIT_H
#define CARRERA_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "turn.h"

#define UNIT_NOT_DONE UINT64_MAX

typedef struct WorkUnit {
    uint64_t id;           /* index in the split: stable for the same job, used by checkpoints */
    uint32_t root;         /* index of the root turn (move) the unit lies below, for divide */
    int32_t depth;         /* depth still to count below the unit's position */
    uint64_t multiplicity; /* how many paths from the root turn reach this position */
    char fen[FEN_MAX];     /* the position (a turn boundary), castling in Shredder-FEN */
    uint64_t nodes;        /* perft of the unit once counted (not multiplied), else UNIT_NOT_DONE */
    int32_t rank;          /* the MPI rank that counted it, -1 before */
    double seconds;        /* how long the count took */
    uint64_t estimate;     /* split_unit_estimate of the position; 0 in a split read from a file
                              or a local one made without estimates */
} WorkUnit;

typedef struct Split {
    Turn *root_turns; /* the root's legal turns (moves), in generation order */
    size_t n_root;
    WorkUnit *units; /* largest estimated subtree first (split_make_local: see there) */
    size_t n_units;
    int split_depth;     /* plies (turns) from the root to the units */
    Position *positions; /* split_make_local: the units' positions, in their order; else NULL */
} Split;

/* The root index of the one unit of a depth-0 split (the root itself, below no root turn). */
#define UNIT_NO_ROOT UINT32_MAX

/* Work units wanted per counting thread: taken one at a time, so many that the last ones to
 * finish are small beside a thread's share and no thread idles long behind another. */
#define SPLIT_UNITS_PER_THREAD 64

/* The split depth for a job of `depth` plies (complete turns) counted by `ranks` processes of
 * `threads` worker threads each (values below 1 count as 1), measured on the job's own tree
 * (branching runs from 20 at the chess start to hundreds under double-move turns): the smallest
 * s with perft_turns(root, s) >= SPLIT_UNITS_PER_THREAD * ranks * threads, at most depth - 3, so
 * every unit keeps 3 plies of work (but at least 1: the root turns, needed for divide); one less
 * when that s has more than SPLIT_MAX_PATHS paths (memory), but never below 1. It counts the
 * tree one level past where it stops at most, so it costs about as many turn generations as
 * units are wanted. 0 at depth 0. split_make takes any other value too: the configuration may
 * override this one. */
#define SPLIT_MAX_PATHS ((uint64_t)1 << 20)
int split_choose_depth(const Position *root, const Rules *r, int depth, int ranks, int threads);

/* Cuts the perft of root to depth under rules r into work units split_depth turns below it.
 * Every legal turn of the root is a root turn (in position_turns order); below each, the
 * positions reached after split_depth - 1 more turns are the units, a position reached by
 * several paths under the same root turn being one unit whose multiplicity counts the paths
 * (positions are the same when their 128-bit Zobrist keys and, under the balanced rule sets,
 * their first-turn flags are). Paths that end early (mate, stalemate) leave no unit: they add
 * nothing to the perft. A unit's FEN is the one of the first path found, castling in
 * Shredder-FEN; clocks can differ between merged paths, which changes no count.
 * Units are sorted by split_unit_estimate (kept in their estimate), largest first (ties in the
 * order they were found), then numbered 0..n-1; nodes = UNIT_NOT_DONE, rank -1, seconds 0. The
 * result depends on nothing but the arguments, so a resumed job finds the same ids. Edge cases:
 * depth 0 gives one unit, the root itself (root UNIT_NO_ROOT, depth 0, no root turns, split_depth
 * 0); otherwise split_depth is brought into 1..depth: below 1 it is 1, above depth it is depth, and
 * split_depth == depth makes every unit a leaf (depth 0, perft 1). out->split_depth holds the value
 * used. Returns 0, or -1 when memory runs out (out then holds nothing to free). */
int split_make(const Position *root, const Rules *r, int depth, int split_depth, Split *out);

/* The same units for counting in this process (perft.c's threads): out->positions holds their
 * positions and their FENs are left empty, which spares writing and reading back a FEN per unit
 * on jobs that take milliseconds. The units come root turn by root turn: those of one root turn
 * transpose into each other most, and counted together they find each other's counts in a small
 * hash table before newer entries push them out (chess perft 6 with a 1 MB table: 6% fewer
 * instructions than in split_make's order). Within a root turn, largest estimate first when
 * `estimates`, else in the order found with estimate 0: the estimate is a perft 2 per unit, as
 * dear as counting a unit that keeps 2 plies and a twentieth or so of one that keeps 3, so only
 * a caller that reports progress asks for it. Ids number the units in this order. */
int split_make_local(const Position *root, const Rules *r, int depth, int split_depth,
                     bool estimates, Split *out);
void split_free(Split *s);

/* The cheap size estimate the units are sorted by: perft 2 of p under single-move rules when
 * depth >= 2, else the number of legal complete turns (perft 1) when depth >= 1, else 1. Perft 2
 * is a few hundred move generations (double-move turns would need hundreds of thousands). Over
 * the 146 first units of Capablanca perft 9 (depth 7 below each), the log of a unit's count
 * correlated 0.97 with the log of its perft 2 and only 0.15 with the log of its perft 1. */
uint64_t split_unit_estimate(const Position *p, const Rules *r, int depth);

/* The estimate of a unit depth plies deep turned into a relative size of its count, for progress
 * and ETA: the estimate to the power 1 + 0.23 per ply below what it counts (exact at that depth),
 * 1 at depth 0, 0 when the estimate is 0 (no legal turn). Only ratios between the units of one job
 * mean anything. The 0.23 is fitted on the Capablanca perft 9 units above, whose counts grew as
 * their perft 2 to the power 2.15 (5 plies below perft 2); other positions and depths follow it
 * only roughly, and a hash table makes later units cheaper than their counts. */
double split_unit_work(uint64_t estimate, const Rules *r, int depth);

/* Rebuilds a unit's position from its FEN (what a worker does) for variant v under rules r.
 * Returns 0, or -1 with a message in err when the FEN is not valid there. */
int split_unit_position(const WorkUnit *u, const Variant *v, const Rules *r, Position *out,
                        char *err, size_t errlen);

/* The perft total: the sum of nodes * multiplicity over the units. UNIT_NOT_DONE while some
 * unit is not done. */
uint64_t split_total(const Split *s);

/* The divide: per_root (s->n_root entries) receives, for each root turn, the sum of nodes *
 * multiplicity over its units. Returns 0 when every unit is done, -1 otherwise (the sums then
 * cover the done units only). */
int split_divide(const Split *s, uint64_t *per_root);

#endif
