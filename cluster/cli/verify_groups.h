/* SPDX-License-Identifier: MIT */
/* What a finding of `carrera verify` is about, so that findings of the same bug are grouped:
 * the kinds of the moves only one side lists (castling, en passant, promotion, or the piece that
 * moves). A finding with moves of several kinds counts in the group of each; a group's example
 * is its smallest finding (of fewest kinds, then fewest pieces, then the lowest depth). */
#ifndef CARRERA_VERIFY_GROUPS_H
#define CARRERA_VERIFY_GROUPS_H

#include <stddef.h>

#include "bisect_search.h"

#define GROUP_KEY_MAX 256

/* The groups of finding f (made under the rules b), joined by "; ": "carrera only: en passant",
 * "carrera only: castling; engine only: king move", "engine plays wrongly: pawn move", ... */
void group_key(const BisectRules *b, const Finding *f, char key[GROUP_KEY_MAX]);

typedef struct Group {
    char key[GROUP_KEY_MAX];
    size_t count;               /* positions behind it */
    size_t example;             /* the caller's index of the smallest example */
    int classes, pieces, depth; /* of the example */
} Group;

typedef struct Groups {
    Group *v;
    size_t n, cap;
} Groups;

/* Counts a finding (its groups as group_key gives them, the caller's index, its position fen and
 * depth) in each of its groups. Returns false when memory runs out. */
bool groups_add(Groups *g, const char *key, size_t index, const char *fen, int depth);

void groups_free(Groups *g);

#endif
