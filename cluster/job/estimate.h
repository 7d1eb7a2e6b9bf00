/* SPDX-License-Identifier: MIT */
/* How long a request will take, said before it starts: perft's node count extrapolated from the
 * exact counts of its first levels, a match's time from its games and per-turn limits; and the
 * memory a run asks for against the machine's. A long request is not refused (a cluster job may
 * well run for days) but announced, with what to do to keep its work. */
#ifndef CARRERA_ESTIMATE_H
#define CARRERA_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "match_config.h"
#include "position.h"
#include "rules.h"

/* Requests estimated to take longer than this get a note. */
#define ESTIMATE_NOTE_SECONDS 3600.0

typedef struct PerftEstimate {
    int exact_depth; /* the deepest level counted exactly (the whole depth when cheap) */
    double exact;    /* its count */
    double per_ply;  /* the growth of the last counted level over the one before */
    double nodes;    /* perft(depth), estimated (exact when exact_depth == depth) */
    double rate;     /* nodes per second of one thread, measured on the levels counted */
} PerftEstimate;

/* Counts the levels of p exactly, at most to count_to, while they are cheap (below 2 million
 * nodes, the next one expected below 30 million) and extrapolates to depth by the last
 * level's growth. The note before a run passes depth - 1, so a small perft is not counted twice. */
void estimate_perft(const Position *p, const Rules *r, int depth, int count_to, PerftEstimate *out);

/* Seconds for the match (every stage) on `threads` games at once in all: the games times the
 * plies a game is taken to last (its maximum, at most 150) times the time a turn takes (its
 * movetime; its clock's share; its nodes at about a million per second of Carrera's engine, a
 * twentieth of that under double-move rules, whose search generates whole turns). 0 when a
 * player's limit is a depth (no estimate). */
double estimate_match_seconds(const MatchConfig *c, int threads);

/* "3.2 hours", "12 days", "41 s". */
void estimate_duration_text(double seconds, char *out, size_t len);

/* The machine's physical memory in bytes (0 when unknown). */
size_t estimate_memory_bytes(void);

/* Error when bytes (what this process will allocate for `what`) exceed the machine's memory:
 * -1 with a message naming both; 0 otherwise. */
int estimate_check_memory(size_t bytes, const char *what, char *err, size_t errlen);

/* The notes printed before a long request starts (stderr), when its estimate passes
 * ESTIMATE_NOTE_SECONDS: for perft of p to depth on threads x ranks (with_table: the estimate,
 * made without one, says so; with_output: it has a checkpoint to resume from), for a match on
 * threads in all. */
void estimate_note_perft(const Position *p, const Rules *r, int depth, int threads, int ranks,
                         bool with_table, bool with_output);
void estimate_note_match(const MatchConfig *c, int threads, int ranks);

/* One line describing the estimate of a perft of p to depth on threads (for --estimate and
 * check-config). Without a table (hash_bytes 0) the count is extrapolated from the exact levels
 * and the time from the speed, e.g. "perft 7: about 4.1e+10 nodes (perft 5 = 4.9e+07 exactly,
 * x 43.2 a ply), about 10 minutes on 2 threads". With a table of hash_bytes the time is
 * measured, not extrapolated from the speed without one: the two levels below the deepest
 * affordable one (at most 6e10 nodes) are counted on threads with the table scaled down by the
 * tree's growth per ply, so that it is as full as in the real run, and spread over the real
 * table's memory (at most half the machine's), so that its probes miss the caches as often; the
 * time is extrapolated by their ratio. That takes about as long as those two counts (half a minute
 * for a Capablanca perft 9); when the levels are too small to time it falls back to the estimate
 * without one. */
void estimate_perft_text(const Position *p, const Rules *r, int depth, int threads,
                         size_t hash_bytes, char *out, size_t len);
void estimate_match_text(const MatchConfig *c, int threads, char *out, size_t len);

#endif
