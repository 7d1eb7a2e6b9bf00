/* SPDX-License-Identifier: MIT */
/* The split of a perft into work units (split.h), for threads and ranks alike: below each root
 * turn the tree is walked depth first down to the split depth, positions reached twice under the
 * same root turn are merged through their keys into one unit with a multiplicity, and the units
 * are sorted by a cheap size estimate, largest first (within each root turn for threads). Depth
 * first, so memory grows with the units and not with the paths leading to them. */
#include "split.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What makes two positions at a turn boundary count the same: the board key (pieces, side,
 * castling rights, en passant squares) and, under the balanced rule sets, whether White's
 * one-movement first turn is still to come, which the board key leaves out. */
typedef struct UnitKey {
    u128 key;
    bool first;
} UnitKey;

typedef struct Builder {
    const Rules *r;
    int remaining; /* depth of every unit */
    uint32_t root; /* the root turn being walked */
    WorkUnit *units;
    UnitKey *keys;       /* per unit */
    Position *positions; /* per unit when the split is local (else NULL and a FEN per unit) */
    bool local, estimates;
    size_t n, cap;
    size_t root_start; /* first unit of the current root turn */
    /* Open addressing with linear probing: unit index + 1, 0 for empty. Entries of earlier
     * root turns (index < root_start) count as empty, so the table needs no clearing between
     * root turns: every entry of the current root turn was placed at the first slot that was
     * empty in that sense, and a lookup walks the same slots. */
    size_t *slots;
    size_t n_slots, used;
    TurnList *lists; /* one per level of the walk, reused */
} Builder;

int split_choose_depth(const Position *root, const Rules *r, int depth, int ranks, int threads)
{
    if (depth <= 0)
        return 0;
    const uint64_t wanted = SPLIT_UNITS_PER_THREAD * (uint64_t)(ranks > 1 ? ranks : 1) *
                            (uint64_t)(threads > 1 ? threads : 1);
    const int most = depth - 3 > 1 ? depth - 3 : 1;
    uint64_t paths[31] = { 0 };
    int s = 1;
    paths[1] = perft_turns(root, r, 1);
    while (s < most && s < 30 && paths[s] < wanted) {
        s++;
        paths[s] = perft_turns(root, r, s);
    }
    while (s > 1 && paths[s] > SPLIT_MAX_PATHS)
        s--;
    return s;
}

uint64_t split_unit_estimate(const Position *p, const Rules *r, int depth)
{
    if (depth >= 2 && r->turns == TURNS_SINGLE)
        return perft_turns(p, r, 2);
    return depth >= 1 ? perft_turns(p, r, 1) : 1;
}

/* How fast the exponent of split_unit_work grows with the depth below what the estimate
 * counts: fitted on Capablanca perft 9's units (2.15 at 5 plies below perft 2). */
#define WORK_EXPONENT_PER_PLY 0.23

double split_unit_work(uint64_t estimate, const Rules *r, int depth)
{
    if (depth <= 0)
        return 1;
    const double e = (double)estimate;
    const int counted = depth >= 2 && r->turns == TURNS_SINGLE ? 2 : 1;
    return e < 1 ? 0 : pow(e, 1 + WORK_EXPONENT_PER_PLY * (depth - counted));
}

static UnitKey key_of(const Position *p, const Rules *r)
{
    return (UnitKey){ position_key128(p), position_first_turn(p, r) };
}

static bool same_key(UnitKey a, UnitKey b) { return a.key == b.key && a.first == b.first; }

static size_t slot_of(const Builder *b, UnitKey k)
{
    /* The low half of the key is uniform already; the flag only has to move twins apart. */
    uint64_t h = (uint64_t)k.key ^ (k.first ? 0x9E3779B97F4A7C15ull : 0);
    return (size_t)h & (b->n_slots - 1);
}

/* Whether the slot holds a unit of the current root turn. */
static bool slot_live(const Builder *b, size_t slot)
{
    return b->slots[slot] != 0 && b->slots[slot] - 1 >= b->root_start;
}

/* The table twice as large (or a first one), holding the current root turn's units. */
static bool grow_slots(Builder *b)
{
    size_t n_slots = b->n_slots ? 2 * b->n_slots : 64;
    size_t *slots = calloc(n_slots, sizeof *slots);
    if (!slots)
        return false;
    free(b->slots);
    b->slots = slots;
    b->n_slots = n_slots;
    for (size_t i = b->root_start; i < b->n; i++) {
        size_t s = slot_of(b, b->keys[i]);
        while (b->slots[s] != 0)
            s = (s + 1) & (n_slots - 1);
        b->slots[s] = i + 1;
    }
    return true;
}

static bool reserve_unit(Builder *b)
{
    if (b->n < b->cap)
        return true;
    size_t cap = b->cap ? 2 * b->cap : 256;
    WorkUnit *units = realloc(b->units, cap * sizeof *units);
    if (units)
        b->units = units;
    UnitKey *keys = realloc(b->keys, cap * sizeof *keys);
    if (keys)
        b->keys = keys;
    bool ok = units && keys;
    if (b->local) {
        Position *positions = realloc(b->positions, cap * sizeof *positions);
        if (positions)
            b->positions = positions;
        ok = ok && positions;
    }
    if (!ok)
        return false;
    b->cap = cap;
    return true;
}

/* One more path to p under the current root turn: a new unit, or one more on its twin. */
static bool add_path(Builder *b, const Position *p)
{
    if ((b->used + 1) * 2 > b->n_slots && !grow_slots(b))
        return false;
    UnitKey k = key_of(p, b->r);
    size_t s = slot_of(b, k);
    for (; slot_live(b, s); s = (s + 1) & (b->n_slots - 1))
        if (same_key(b->keys[b->slots[s] - 1], k)) {
            b->units[b->slots[s] - 1].multiplicity++;
            return true;
        }
    if (!reserve_unit(b))
        return false;
    WorkUnit *u = &b->units[b->n];
    memset(u, 0, sizeof *u);
    u->root = b->root;
    u->depth = b->remaining;
    u->multiplicity = 1;
    u->nodes = UNIT_NOT_DONE;
    u->rank = -1;
    if (b->local) {
        b->positions[b->n] = *p;
    } else {
        Setup setup;
        position_to_setup(p, &setup);
        setup_to_fen(&setup, FEN_CASTLING_SHREDDER, u->fen, sizeof u->fen);
    }
    b->keys[b->n] = k;
    u->estimate = b->estimates ? split_unit_estimate(p, b->r, b->remaining) : 0;
    b->slots[s] = ++b->n;
    b->used++;
    return true;
}

/* Every path of `level` more turns from p. */
static bool walk(Builder *b, const Position *p, int level)
{
    if (level == 0)
        return add_path(b, p);
    TurnList *list = &b->lists[level - 1];
    if (!position_turns(p, b->r, list))
        return false;
    for (size_t i = 0; i < list->n; i++) {
        Position child;
        position_make_turn(p, b->r, &list->v[i], &child);
        if (!walk(b, &child, level - 1))
            return false;
    }
    return true;
}

typedef struct Order {
    uint64_t estimate;
    uint32_t root;
    size_t found; /* index in the order the walk found the units */
} Order;

static int by_estimate(const void *a, const void *b)
{
    const Order *x = a, *y = b;
    if (x->estimate != y->estimate)
        return x->estimate > y->estimate ? -1 : 1;
    return x->found < y->found ? -1 : x->found > y->found;
}

static int by_root(const void *a, const void *b)
{
    const Order *x = a, *y = b;
    if (x->root != y->root)
        return x->root < y->root ? -1 : 1;
    return by_estimate(a, b);
}

/* Reorders b's units (and positions) as split.h says, largest estimate first or root turn by
 * root turn, and numbers them. */
static bool sort_units(Builder *b, Split *out)
{
    /* Without estimates the walk's order, root turn by root turn, is the one wanted: the units
     * are handed over as they are. */
    if (!b->estimates) {
        for (size_t i = 0; i < b->n; i++)
            b->units[i].id = i;
        out->units = b->units;
        out->positions = b->positions;
        out->n_units = b->n;
        b->units = NULL;
        b->positions = NULL;
        return true;
    }
    const size_t room = b->n ? b->n : 1;
    Order *order = malloc(room * sizeof *order);
    WorkUnit *units = malloc(room * sizeof *units);
    Position *positions = b->local ? malloc(room * sizeof *positions) : NULL;
    if (!order || !units || (b->local && !positions)) {
        free(order);
        free(units);
        free(positions);
        return false;
    }
    for (size_t i = 0; i < b->n; i++)
        order[i] = (Order){ b->units[i].estimate, b->units[i].root, i };
    qsort(order, b->n, sizeof *order, b->local ? by_root : by_estimate);
    for (size_t i = 0; i < b->n; i++) {
        units[i] = b->units[order[i].found];
        units[i].id = i;
        if (positions)
            positions[i] = b->positions[order[i].found];
    }
    free(order);
    out->units = units;
    out->positions = positions;
    out->n_units = b->n;
    return true;
}

/* The split of depth 0: the root is the only unit. */
static int split_root_only(const Position *root, bool local, Split *out)
{
    out->units = calloc(1, sizeof *out->units);
    out->positions = local ? malloc(sizeof *out->positions) : NULL;
    if (!out->units || (local && !out->positions)) {
        split_free(out);
        return -1;
    }
    WorkUnit *u = &out->units[0];
    u->root = UNIT_NO_ROOT;
    u->multiplicity = 1;
    u->nodes = UNIT_NOT_DONE;
    u->rank = -1;
    u->estimate = 1;
    if (local) {
        out->positions[0] = *root;
    } else {
        Setup setup;
        position_to_setup(root, &setup);
        setup_to_fen(&setup, FEN_CASTLING_SHREDDER, u->fen, sizeof u->fen);
    }
    out->n_units = 1;
    return 0;
}

static int split_build(const Position *root, const Rules *r, int depth, int split_depth, bool local,
                       bool estimates, Split *out)
{
    *out = (Split){ 0 };
    if (depth <= 0)
        return split_root_only(root, local, out);
    if (split_depth < 1)
        split_depth = 1;
    if (split_depth > depth)
        split_depth = depth;
    out->split_depth = split_depth;

    Builder b = {
        .r = r, .remaining = depth - split_depth, .local = local, .estimates = estimates
    };
    TurnList roots = { 0 };
    bool ok = (b.lists = calloc((size_t)split_depth, sizeof *b.lists)) != NULL &&
              position_turns(root, r, &roots);
    if (ok && roots.n > 0) {
        out->root_turns = malloc(roots.n * sizeof *out->root_turns);
        ok = out->root_turns != NULL;
        if (ok) {
            memcpy(out->root_turns, roots.v, roots.n * sizeof *roots.v);
            out->n_root = roots.n;
        }
    }
    for (size_t i = 0; ok && i < roots.n; i++) {
        Position child;
        position_make_turn(root, r, &roots.v[i], &child);
        b.root = (uint32_t)i;
        b.root_start = b.n;
        b.used = 0;
        ok = walk(&b, &child, split_depth - 1);
    }
    ok = ok && sort_units(&b, out);

    turn_list_free(&roots);
    for (int i = 0; b.lists && i < split_depth; i++)
        turn_list_free(&b.lists[i]);
    free(b.lists);
    free(b.units);
    free(b.keys);
    free(b.positions);
    free(b.slots);
    if (!ok) {
        split_free(out);
        return -1;
    }
    return 0;
}

int split_make(const Position *root, const Rules *r, int depth, int split_depth, Split *out)
{
    return split_build(root, r, depth, split_depth, false, true, out);
}

int split_make_local(const Position *root, const Rules *r, int depth, int split_depth,
                     bool estimates, Split *out)
{
    return split_build(root, r, depth, split_depth, true, estimates, out);
}

void split_free(Split *s)
{
    free(s->root_turns);
    free(s->units);
    free(s->positions);
    *s = (Split){ 0 };
}

int split_unit_position(const WorkUnit *u, const Variant *v, const Rules *r, Position *out,
                        char *err, size_t errlen)
{
    Setup s;
    if (setup_from_fen_rules(&s, v, r, u->fen, err, errlen) != 0)
        return -1;
    position_from_setup(out, &s);
    return 0;
}

uint64_t split_total(const Split *s)
{
    uint64_t total = 0;
    for (size_t i = 0; i < s->n_units; i++) {
        if (s->units[i].nodes == UNIT_NOT_DONE)
            return UNIT_NOT_DONE;
        total += s->units[i].nodes * s->units[i].multiplicity;
    }
    return total;
}

int split_divide(const Split *s, uint64_t *per_root)
{
    int done = 0;
    for (size_t i = 0; i < s->n_root; i++)
        per_root[i] = 0;
    for (size_t i = 0; i < s->n_units; i++) {
        const WorkUnit *u = &s->units[i];
        if (u->nodes == UNIT_NOT_DONE)
            done = -1;
        else if (u->root < s->n_root)
            per_root[u->root] += u->nodes * u->multiplicity;
    }
    return done;
}
