/* SPDX-License-Identifier: MIT */
/* The positions a node's turns have led to (private to the search's files). Under the double-move
 * rules many turns of a node lead to one position: two movements of different pieces in either
 * order, one piece's two paths to the same square (Bennekom's rule makes most of its turns such),
 * a movement and its way back. A node lists and orders all of them (their legality differs), but
 * a position searched once from a node is not searched again from it: its value is the same. A
 * set of children's keys per ply, found by the key's low bits, emptied for each node by a stamp
 * instead of a clearing. */
#ifndef CARRERA_SEARCH_MADE_H
#define CARRERA_SEARCH_MADE_H

#include <stdbool.h>
#include <stdint.h>

#include "types.h"

typedef struct MadeSlot {
    u128 key;
    uint32_t stamp;
} MadeSlot;

typedef struct MadeSet {
    MadeSlot *slot; /* SEARCH_MADE_SLOTS of them, allocated at the ply's first use */
    uint32_t stamp, count;
} MadeSet;

/* A node's distinct children remembered, at most; beyond them every child counts as new. */
#define SEARCH_MADE_SLOTS 4096

/* The set emptied for a new node at its ply. */
void search_made_new_node(MadeSet *m);

/* Whether no turn of the node has led to the position of key yet (it is remembered now). True
 * too, and nothing remembered, when the set has no memory or is three-quarters full: a child
 * searched twice costs time, never a wrong value. */
bool search_made_first(MadeSet *m, u128 key);

void search_made_free(MadeSet *m);

#endif
