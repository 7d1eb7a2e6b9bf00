/* SPDX-License-Identifier: MIT */
/* What a finding of `carrera verify` is about, so that findings of the same bug are grouped:
 * the kinds of the moves only one side lists (castling, en passant, promotion, or the piece that
 * moves), and for each group the smallest example (fewest pieces, then the lowest depth). */
#ifndef CARRERA_VERIFY_GROUPS_H
#define CARRERA_VERIFY_GROUPS_H

#include <stddef.h>

#include "bisect_search.h"

#define GROUP_KEY_MAX 256

/* The group of finding f (made under the rules b): "carrera only: en passant",
 * "engine only: castling; carrera only: king move", "engine plays wrongly: pawn move", ... */
void group_key(const BisectRules *b, const Finding *f, char key[GROUP_KEY_MAX]);

typedef struct Group {
    char key[GROUP_KEY_MAX];
    size_t count;   /* positions behind it */
    size_t example; /* the caller's index of the smallest example */
    int pieces, depth;
} Group;

typedef struct Groups {
    Group *v;
    size_t n, cap;
} Groups;

/* Counts a finding (the caller's index, its position fen and depth) in its group. Returns false
 * when memory runs out. */
bool groups_add(Groups *g, const char *key, size_t index, const char *fen, int depth);

void groups_free(Groups *g);

#endif
