/* SPDX-License-Identifier: MIT */
/* Tests of the split into work units (core/perft/split.c): on reference positions of every
 * variant family and under the double-move rule sets, counting every unit and adding nodes times
 * multiplicity gives the perft and the divide; the units are exactly the positions the paths
 * reach, one per position and root turn, with multiplicities that count the paths (checked by an
 * independent walk); FENs rebuild the same positions; ids and order follow the estimate; the
 * local split (perft on threads) has the same units, with positions instead of FENs, root turn by
 * root turn. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "epd.h"
#include "errmsg.h"
#include "split.h"

/* Leaves of the split paths a case may walk (twice: split and check), to keep the test quick. */
#define MAX_SPLIT_PATHS 30000
/* Deepest reference depth a position is tested at: at most this many nodes. */
#define MAX_NODES 20000

static void position_of(const char *variant, const char *fen, const Rules *r, Position *p)
{
    Setup s;
    char err[ERRMSG_LEN];
    const Variant *v = variant_by_name(variant);
    assert_non_null(v);
    if (!fen)
        setup_start(&s, v);
    else if (setup_from_fen_rules(&s, v, r, fen, err, sizeof err) != 0)
        fail_msg("%s: %s", fen, err);
    position_from_setup(p, &s);
}

/* A position below a root turn, as the test's own walk or a unit sees it. */
typedef struct Seen {
    uint32_t root;
    bool first;
    u128 key;
    uint64_t count;
} Seen;

typedef struct SeenList {
    Seen *v;
    size_t n, cap;
} SeenList;

static void seen_push(SeenList *l, uint32_t root, const Position *p, const Rules *r, uint64_t count)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        assert_non_null(l->v);
    }
    l->v[l->n++] = (Seen){ root, position_first_turn(p, r), position_key128(p), count };
}

static int seen_order(const void *a, const void *b)
{
    const Seen *x = a, *y = b;
    if (x->root != y->root)
        return x->root < y->root ? -1 : 1;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return 0;
}

/* Sorts and adds up the counts of equal entries. */
static void seen_merge(SeenList *l)
{
    qsort(l->v, l->n, sizeof *l->v, seen_order);
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (n > 0 && seen_order(&l->v[n - 1], &l->v[i]) == 0)
            l->v[n - 1].count += l->v[i].count;
        else
            l->v[n++] = l->v[i];
    }
    l->n = n;
}

/* Every path of level more turns below p: one entry per path. lists: one per level. */
static void walk(const Position *p, const Rules *r, int level, uint32_t root, TurnList *lists,
                 SeenList *out)
{
    if (level == 0) {
        seen_push(out, root, p, r, 1);
        return;
    }
    TurnList *turns = &lists[level - 1];
    assert_true(position_turns(p, r, turns));
    for (size_t i = 0; i < turns->n; i++) {
        Position child;
        position_make_turn(p, r, &turns->v[i], &child);
        walk(&child, r, level - 1, root, lists, out);
    }
}

/* The local split of the same job, with estimates or without: the same units as s (its merged
 * list `units`) with positions instead of FENs, root turn by root turn, largest estimate first
 * within each when asked. */
static void check_local(const Position *root, const Rules *r, int depth, int split_depth,
                        const Split *s, const SeenList *units, bool estimates)
{
    Split local;
    assert_int_equal(split_make_local(root, r, depth, split_depth, estimates, &local), 0);
    assert_int_equal(local.split_depth, s->split_depth);
    assert_int_equal(local.n_root, s->n_root);
    assert_int_equal(local.n_units, s->n_units);
    SeenList seen = { 0 };
    for (size_t i = 0; i < local.n_units; i++) {
        const WorkUnit *u = &local.units[i], *before = i ? &local.units[i - 1] : NULL;
        const Position *p = &local.positions[i];
        assert_true(u->id == i);
        assert_string_equal(u->fen, "");
        assert_int_equal(u->depth, s->units[i].depth);
        assert_true(u->nodes == UNIT_NOT_DONE && u->multiplicity >= 1);
        assert_int_equal(u->rank, -1);
        const uint64_t estimate = depth == 0  ? 1
                                  : estimates ? split_unit_estimate(p, r, u->depth)
                                              : 0;
        assert_true(u->estimate == estimate);
        assert_true(!before || before->root < u->root ||
                    (before->root == u->root && before->estimate >= u->estimate));
        seen_push(&seen, u->root, p, r, u->multiplicity);
    }
    seen_merge(&seen);
    assert_int_equal(seen.n, units->n);
    for (size_t i = 0; i < seen.n; i++) {
        assert_int_equal(seen_order(&seen.v[i], &units->v[i]), 0);
        assert_true(seen.v[i].count == units->v[i].count);
    }
    free(seen.v);
    split_free(&local);
    assert_null(local.positions);
}

/* Splits, checks the units against an independent walk, counts them and compares the total
 * and the divide with plain perft. Returns the largest multiplicity. */
static uint64_t check_split(const Position *root, const Rules *r, int depth, int split_depth,
                            uint64_t want)
{
    const int used = depth == 0            ? 0
                     : split_depth < 1     ? 1
                     : split_depth > depth ? depth
                                           : split_depth;
    Split s;
    assert_int_equal(split_make(root, r, depth, split_depth, &s), 0);
    assert_int_equal(s.split_depth, used);
    assert_null(s.positions);

    TurnList turns = { 0 };
    assert_true(position_turns(root, r, &turns));
    assert_int_equal(s.n_root, depth == 0 ? 0 : turns.n);
    for (size_t i = 0; i < s.n_root; i++)
        assert_true(s.root_turns[i].n == turns.v[i].n && s.root_turns[i].m[0] == turns.v[i].m[0] &&
                    (turns.v[i].n == 1 || s.root_turns[i].m[1] == turns.v[i].m[1]));

    /* The walk's positions and the units' positions, with paths and multiplicities. */
    SeenList walked = { 0 }, units = { 0 };
    if (depth == 0) {
        seen_push(&walked, UNIT_NO_ROOT, root, r, 1);
    } else {
        TurnList lists[31] = { { 0 } };
        for (size_t i = 0; i < turns.n; i++) {
            Position child;
            position_make_turn(root, r, &turns.v[i], &child);
            walk(&child, r, used - 1, (uint32_t)i, lists, &walked);
        }
        for (int i = 0; i < 31; i++)
            turn_list_free(&lists[i]);
    }
    seen_merge(&walked);

    assert_true(split_total(&s) == (s.n_units ? UNIT_NOT_DONE : 0));
    uint64_t previous = UINT64_MAX, most = 0;
    double previous_work = HUGE_VAL;
    for (size_t i = 0; i < s.n_units; i++) {
        WorkUnit *u = &s.units[i];
        assert_true(u->id == i);
        assert_int_equal(u->depth, depth - used);
        assert_true(u->nodes == UNIT_NOT_DONE);
        assert_int_equal(u->rank, -1);
        assert_true(u->multiplicity >= 1);
        assert_true(depth == 0 ? u->root == UNIT_NO_ROOT : u->root < s.n_root);
        Position p;
        char err[ERRMSG_LEN];
        if (split_unit_position(u, root->variant, r, &p, err, sizeof err) != 0)
            fail_msg("unit %zu: %s: %s", i, u->fen, err);
        Setup setup;
        char fen[FEN_MAX];
        position_to_setup(&p, &setup);
        setup_to_fen(&setup, FEN_CASTLING_SHREDDER, fen, sizeof fen);
        assert_string_equal(fen, u->fen);
        uint64_t estimate = split_unit_estimate(&p, r, u->depth);
        assert_true(u->estimate == estimate);
        assert_true(estimate <= previous);
        previous = estimate;
        /* perft 2 under single-move rules, else perft 1; the work grows with it and is the
         * estimate itself at the depth the estimate counts */
        const int counted = u->depth >= 2 && r->turns == TURNS_SINGLE ? 2 : u->depth ? 1 : 0;
        assert_true(estimate == (counted ? perft_turns(&p, r, counted) : 1));
        const double work = split_unit_work(estimate, r, u->depth);
        assert_true(work <= previous_work);
        previous_work = work;
        if (u->depth == counted)
            assert_true(work == (double)estimate);
        seen_push(&units, u->root, &p, r, u->multiplicity);
        u->nodes = perft_turns(&p, r, u->depth);
        if (u->multiplicity > most)
            most = u->multiplicity;
    }
    /* No two units for one position under one root turn, and the same positions and path
     * counts as the walk. */
    size_t n_units = units.n;
    seen_merge(&units);
    assert_int_equal(units.n, n_units);
    assert_int_equal(units.n, walked.n);
    for (size_t i = 0; i < units.n; i++) {
        assert_int_equal(seen_order(&units.v[i], &walked.v[i]), 0);
        assert_true(units.v[i].count == walked.v[i].count);
    }
    check_local(root, r, depth, split_depth, &s, &units, true);
    check_local(root, r, depth, split_depth, &s, &units, false);

    if (split_total(&s) != want)
        fail_msg("%s %s depth %d split %d: total %llu, expected %llu", root->variant->name,
                 turn_rules_name(r->turns), depth, split_depth, (unsigned long long)split_total(&s),
                 (unsigned long long)want);
    uint64_t *per_root = calloc(s.n_root + 1, sizeof *per_root);
    assert_non_null(per_root);
    assert_int_equal(split_divide(&s, per_root), 0);
    for (size_t i = 0; i < s.n_root; i++) {
        Position child;
        position_make_turn(root, r, &turns.v[i], &child);
        assert_true(per_root[i] == perft_turns(&child, r, depth - 1));
    }
    if (s.n_units > 0) {
        s.units[0].nodes = UNIT_NOT_DONE;
        assert_true(split_total(&s) == UNIT_NOT_DONE);
        assert_int_equal(split_divide(&s, per_root), -1);
    }
    free(per_root);
    free(walked.v);
    free(units.v);
    turn_list_free(&turns);
    split_free(&s);
    assert_null(s.units);
    return most;
}

/* Split depths 1 to 3 (where the paths to the units stay few), and one beyond the depth. */
static void check_splits(const Position *p, const Rules *r, int depth, uint64_t want)
{
    for (int split = 1; split <= 3; split++) {
        int level = split < depth ? split : depth;
        if (level > 1 && perft_turns(p, r, level) > MAX_SPLIT_PATHS)
            break;
        check_split(p, r, depth, split, want);
    }
}

static void reference_positions(void **state)
{
    (void)state;
    static const struct {
        const char *file, *variant;
        int step; /* every step-th position */
    } files[] = {
        { "standard.epd", "chess", 12 },
        { "chess960.epd", "chess960", 120 },
        { "chess960_startpos.epd", "chess960", 240 },
        { "chess960_tricky.epd", "chess960", 4 },
        { "capablanca.epd", "capablanca", 1 },
    };
    const Rules single = { TURNS_SINGLE, EP_CLASSIC };
    int tested = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        EpdEntry *e;
        int n = epd_read(files[f].file, &e);
        assert_true(n > 0);
        for (int i = 0; i < n; i += files[f].step) {
            int d = e[i].max_depth;
            while (d > 1 && (e[i].nodes[d] == 0 || e[i].nodes[d] > MAX_NODES))
                d--;
            Position p;
            position_of(e[i].variant[0] ? e[i].variant : files[f].variant, e[i].fen, &single, &p);
            check_splits(&p, &single, d, e[i].nodes[d]);
            tested++;
        }
        free(e);
    }
    assert_true(tested > 40);
}

static void double_move_rules(void **state)
{
    (void)state;
    for (int t = TURNS_MARSEILLAIS; t < TURNS_NB; t++)
        for (int ep = EP_CLASSIC; ep <= EP_MODERN; ep++) {
            Rules r = { (TurnRules)t, (EpRule)ep };
            Position p;
            position_of("chess", NULL, &r, &p);
            /* Bennekom's turns are few: one level more. */
            int depth = t == TURNS_BENNEKOM ? 3 : 2;
            check_splits(&p, &r, depth, perft_turns(&p, &r, depth));
            position_of("capablanca", NULL, &r, &p);
            check_splits(&p, &r, 2, perft_turns(&p, &r, 2));
        }
    /* After 1.e4 under balanced rules: Black's turn, then White's first two-movement one. */
    Rules balanced = { TURNS_BALANCED, EP_CLASSIC };
    Position p;
    position_of("chess", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", &balanced,
                &p);
    check_splits(&p, &balanced, 2, perft_turns(&p, &balanced, 2));
}

/* Transpositions under one root turn are merged: 1.Nf3 a6 2.Nc3 h6 and 1.Nf3 h6 2.Nc3 a6. */
static void transpositions_merged(void **state)
{
    (void)state;
    const Rules single = { TURNS_SINGLE, EP_CLASSIC };
    Position p;
    position_of("chess", NULL, &single, &p);
    assert_true(check_split(&p, &single, 5, 4, 4865609) > 1);
    /* A double-move turn and its movements in the other order reach one position: Black's
     * first turn under balanced rules. */
    const Rules balanced = { TURNS_BALANCED, EP_CLASSIC };
    position_of("chess", NULL, &balanced, &p);
    assert_true(check_split(&p, &balanced, 2, 2, 8902) > 1);
}

/* Depth 0, split depths outside 1..depth, a root with no move. */
static void edge_cases(void **state)
{
    (void)state;
    const Rules single = { TURNS_SINGLE, EP_CLASSIC };
    Position p;
    position_of("chess", NULL, &single, &p);
    check_split(&p, &single, 0, 3, 1);
    Split s;
    assert_int_equal(split_make(&p, &single, 0, 0, &s), 0);
    assert_int_equal(s.n_units, 1);
    assert_int_equal(s.n_root, 0);
    assert_true(s.units[0].root == UNIT_NO_ROOT);
    assert_string_equal(s.units[0].fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    split_free(&s);
    check_split(&p, &single, 3, 0, 8902);
    check_split(&p, &single, 3, -5, 8902);
    check_split(&p, &single, 2, 7, 400);
    check_split(&p, &single, 1, 1, 20);
    /* Fool's mate: White is mated, no root turn, no unit. */
    position_of("chess", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", &single,
                &p);
    assert_int_equal(split_make(&p, &single, 3, 2, &s), 0);
    assert_int_equal(s.n_root, 0);
    assert_int_equal(s.n_units, 0);
    assert_true(split_total(&s) == 0);
    split_free(&s);
    /* Mates inside the split leave their paths out: Black mates after 1.f3 e5 2.g4 Qh4#. */
    position_of("chess", "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", &single,
                &p);
    check_split(&p, &single, 4, 2, perft_turns(&p, &single, 4));
    check_split(&p, &single, 4, 3, perft_turns(&p, &single, 4));
}

static void choose_depth(void **state)
{
    (void)state;
    const Rules single = { TURNS_SINGLE, EP_CLASSIC },
                marseillais = { TURNS_MARSEILLAIS, EP_CLASSIC };
    Position p;
    position_of("chess", NULL, &single, &p);
    assert_int_equal(split_choose_depth(&p, &single, 0, 1, 1), 0);
    assert_int_equal(split_choose_depth(&p, &single, 1, 4, 4), 1);
    assert_int_equal(split_choose_depth(&p, &single, 7, 1, 0), 2);     /* threads 0 counts as 1 */
    assert_int_equal(split_choose_depth(&p, &single, 7, 1, 1), 2);     /* 20 < 64 <= 400 */
    assert_int_equal(split_choose_depth(&p, &single, 7, 2, 8), 3);     /* 1024 <= 8902 */
    assert_int_equal(split_choose_depth(&p, &single, 4, 2, 8), 1);     /* depth cap */
    assert_int_equal(split_choose_depth(&p, &single, 9, 1000, 64), 4); /* 4.8M paths at 5 */
    for (int d = 1; d <= 8; d++)
        for (int t = 1; t <= 4096; t *= 4) {
            int s = split_choose_depth(&p, &single, d, 1, t);
            assert_true(s >= 1 && s <= d);
            assert_true(s <= split_choose_depth(&p, &single, d, 2, t));
        }
    position_of("chess", NULL, &marseillais, &p);
    assert_int_equal(split_choose_depth(&p, &marseillais, 6, 1, 2), 1);
    assert_int_equal(split_choose_depth(&p, &marseillais, 6, 4, 4), 2);
}

/* An argument runs only the tests whose names match it (cmocka's filter, * for any text). */
int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(choose_depth),          cmocka_unit_test(edge_cases),
        cmocka_unit_test(transpositions_merged), cmocka_unit_test(reference_positions),
        cmocka_unit_test(double_move_rules),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
