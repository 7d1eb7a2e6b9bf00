/* SPDX-License-Identifier: MIT */
/* Tests of the parallel perft driver (core/perft/perft.c) and its table (core/rules/perft_tt.c):
 * whatever the number of threads and the table size, even a table of one bucket that every position
 * fights over, counts and divides equal the plain single-threaded perft, for single-move chess
 * on reference positions, for the double-move rule sets and with transpositions merged into
 * one unit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "epd.h"
#include "errmsg.h"
#include "perft.h"
#include "split.h"

static const int THREADS[] = { 1, 2, 3 };
/* No table, one 64-byte bucket (constant collisions), a small and a roomy table, and the small
 * one spread over the roomy one's memory, as --estimate times a large table. */
static const size_t HASH[] = { 0, 64, 1 << 16, 1 << 24, 1 << 16 };
static const size_t SPAN[] = { 0, 0, 0, 0, 1 << 24 };

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

/* Runs the job in every configuration and checks total and divide against plain perft. */
static void check_all_configurations(const Position *p, const Rules *r, int depth, uint64_t want)
{
    TurnList turns = { 0 };
    assert_true(position_turns(p, r, &turns));
    for (size_t t = 0; t < sizeof THREADS / sizeof THREADS[0]; t++)
        for (size_t h = 0; h < sizeof HASH / sizeof HASH[0]; h++) {
            PerftJob job = { .root = p,
                             .rules = *r,
                             .depth = depth,
                             .threads = THREADS[t],
                             .hash_bytes = HASH[h],
                             .hash_span = SPAN[h] };
            PerftResult res;
            assert_int_equal(perft_job_run(&job, &res), 0);
            if (res.nodes != want)
                fail_msg("%s depth %d, %d threads, %zu-byte table: %llu, expected %llu",
                         turn_rules_name(r->turns), depth, THREADS[t], HASH[h],
                         (unsigned long long)res.nodes, (unsigned long long)want);
            assert_true(HASH[h] == 0 || res.hash_bytes <= HASH[h] || HASH[h] < 64);
            assert_int_equal(res.n_root, turns.n);
            for (size_t i = 0; i < res.n_root && depth > 1; i++) {
                Position child;
                position_make_turn(p, r, &res.root[i].turn, &child);
                if (t == 0 && h == 0)
                    assert_true(res.root[i].nodes == perft_turns(&child, r, depth - 1));
            }
            perft_result_free(&res);
        }
    turn_list_free(&turns);
}

static void reference_positions(void **state)
{
    (void)state;
    static const struct {
        const char *file, *variant;
        uint64_t max_nodes;
    } files[] = {
        { "standard.epd", "chess", 3000000 },
        { "chess960_tricky.epd", "chess960", 3000000 },
        { "capablanca.epd", "capablanca", 3000000 },
    };
    const Rules single = { TURNS_SINGLE, EP_CLASSIC };
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        EpdEntry *e;
        int n = epd_read(files[f].file, &e);
        assert_true(n > 0);
        /* Every fourth position, at its deepest depth within the node limit. */
        for (int i = 0; i < n; i += 4) {
            int d = e[i].max_depth;
            while (d > 1 && (e[i].nodes[d] == 0 || e[i].nodes[d] > files[f].max_nodes))
                d--;
            Position p;
            position_of(e[i].variant[0] ? e[i].variant : files[f].variant, e[i].fen, &single, &p);
            check_all_configurations(&p, &single, d, e[i].nodes[d]);
        }
        free(e);
    }
}

static void double_move_rules(void **state)
{
    (void)state;
    for (int t = TURNS_MARSEILLAIS; t < TURNS_NB; t++)
        for (int ep = EP_CLASSIC; ep <= EP_MODERN; ep++) {
            Rules r = { (TurnRules)t, (EpRule)ep };
            Position p;
            position_of("chess", NULL, &r, &p);
            int depth = t == TURNS_MARSEILLAIS ? 2 : 3;
            check_all_configurations(&p, &r, depth, perft_turns(&p, &r, depth));
            position_of("capablanca", NULL, &r, &p);
            check_all_configurations(&p, &r, 2, perft_turns(&p, &r, 2));
        }
}

static void keep_progress(const PerftProgress *progress, void *ctx)
{
    *(PerftProgress *)ctx = *progress;
}

/* Units reached by several paths count once, times their paths: 64 threads split depth 7 four
 * plies deep, where a pawn endgame transposes often (and an en passant square keeps apart
 * positions that look alike). With and without progress reports (which sort by estimates). */
static void merged_units(void **state)
{
    (void)state;
    const Rules single = { TURNS_SINGLE, EP_CLASSIC };
    Position p;
    position_of("chess", "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", &single, &p);
    const int depth = 7, threads = 64;
    const int split_depth = split_choose_depth(&p, &single, depth, 1, threads);
    assert_int_equal(split_depth, 4);
    const uint64_t paths = perft_turns(&p, &single, split_depth);
    const uint64_t want = perft_turns(&p, &single, depth);
    for (size_t h = 0; h < 3; h++)
        for (int reports = 0; reports < 2; reports++) {
            PerftProgress last = { 0 };
            PerftJob job = { .root = &p,
                             .rules = single,
                             .depth = depth,
                             .threads = threads,
                             .hash_bytes = HASH[h],
                             .progress = reports ? keep_progress : NULL,
                             .progress_ctx = &last };
            PerftResult res;
            assert_int_equal(perft_job_run(&job, &res), 0);
            assert_true(res.nodes == want);
            assert_true(res.units < paths);
            if (reports)
                assert_true(last.units_done == res.units && last.units_total == res.units &&
                            last.nodes == want && last.work_total > 0 &&
                            fabs(last.work_done - last.work_total) < 1e-9 * last.work_total);
            for (size_t i = 0; i < res.n_root; i++) {
                Position child;
                position_make_turn(&p, &single, &res.root[i].turn, &child);
                assert_true(res.root[i].nodes == perft_turns(&child, &single, depth - 1));
            }
            perft_result_free(&res);
        }
}

/* The table alone: what is stored is found, a different depth or key is not, and a full bucket
 * (four entries) gives way at its shallowest entry. */
static void table_entries(void **state)
{
    (void)state;
    PerftTT *tt = perft_tt_new(64);
    assert_non_null(tt);
    assert_int_equal(perft_tt_bytes(tt), 64);
    PerftTTThread t = { tt, { 0 } };
    uint64_t c = 0;
    u128 k1 = ((u128)0x0123456789abcdefull << 64) | 0xfedcba9876543210ull;
    u128 k2 = k1 ^ ((u128)1 << 64); /* same slot, other verification half */
    u128 k3 = k1 ^ ((u128)2 << 64), k4 = k1 ^ ((u128)3 << 64), k5 = k1 ^ ((u128)4 << 64);
    assert_false(perft_tt_probe(&t, k1, 3, &c));
    perft_tt_store(&t, k1, 3, 12345);
    assert_true(perft_tt_probe(&t, k1, 3, &c));
    assert_true(c == 12345);
    assert_false(perft_tt_probe(&t, k1, 4, &c));
    assert_false(perft_tt_probe(&t, k2, 3, &c));
    perft_tt_store(&t, k2, 5, 777);
    perft_tt_store(&t, k3, 4, 888);
    perft_tt_store(&t, k4, 6, (uint64_t)1 << 50); /* large counts are kept whole */
    assert_true(perft_tt_probe(&t, k2, 5, &c) && c == 777);
    assert_true(perft_tt_probe(&t, k1, 3, &c) && c == 12345);
    assert_true(perft_tt_probe(&t, k4, 6, &c) && c == (uint64_t)1 << 50);
    perft_tt_store(&t, k5, 2, 1); /* the bucket is full: replaces the shallowest (depth 3) */
    assert_false(perft_tt_probe(&t, k1, 3, &c));
    assert_true(perft_tt_probe(&t, k5, 2, &c) && c == 1);
    assert_true(perft_tt_probe(&t, k2, 5, &c) && c == 777);
    assert_true(perft_tt_probe(&t, k3, 4, &c) && c == 888);
    perft_tt_store(&t, k1, 7, (uint64_t)1 << 56); /* too large for an entry: not stored */
    assert_false(perft_tt_probe(&t, k1, 7, &c));
    assert_true(t.work.probes == 12 && t.work.hits == 7 && t.work.shared_probes == 0);
    perft_tt_free(tt);
    tt = perft_tt_new((size_t)100 << 20);
    assert_non_null(tt);
    assert_true(perft_tt_bytes(tt) <= (size_t)100 << 20 && perft_tt_bytes(tt) > (size_t)50 << 20);
    perft_tt_free(tt);
    /* Spread over 1 MB, two buckets keep their size and their entries apart. */
    tt = perft_tt_new_spread(128, (size_t)1 << 20);
    assert_non_null(tt);
    assert_int_equal(perft_tt_bytes(tt), 128);
    t.tt = tt;
    u128 other = k1 ^ ((u128)1 << 63); /* the other bucket: the top bit of the low half */
    perft_tt_store(&t, k1, 3, 11);
    perft_tt_store(&t, other, 3, 22);
    assert_true(perft_tt_probe(&t, k1, 3, &c) && c == 11);
    assert_true(perft_tt_probe(&t, other, 3, &c) && c == 22);
    for (int i = 0; i < 4; i++) /* four more in k1's bucket push it out, not other's */
        perft_tt_store(&t, k1 ^ ((u128)(i + 1) << 64), 3, 1);
    assert_false(perft_tt_probe(&t, k1, 3, &c));
    assert_true(perft_tt_probe(&t, other, 3, &c) && c == 22);
    perft_tt_free(tt);
}

/* A second level for the test: eight entries by the key's low half, each access counted as if
 * it had left the process. */
typedef struct FakeLevel {
    uint64_t lo[8], hi[8], count[8];
    uint64_t prefetches;
} FakeLevel;

static bool fake_probe(void *ctx, uint64_t lo, uint64_t hi, uint64_t *count, PerftTTWork *w)
{
    FakeLevel *f = ctx;
    w->shared_remote++;
    w->shared_bytes += 24;
    if (f->lo[lo % 8] != lo || f->hi[lo % 8] != hi || !f->count[lo % 8])
        return false;
    *count = f->count[lo % 8];
    return true;
}

static void fake_store(void *ctx, uint64_t lo, uint64_t hi, int depth, uint64_t count,
                       PerftTTWork *w)
{
    FakeLevel *f = ctx;
    (void)depth;
    w->shared_remote++;
    f->lo[lo % 8] = lo;
    f->hi[lo % 8] = hi;
    f->count[lo % 8] = count;
}

static void fake_prefetch(void *ctx, uint64_t lo)
{
    FakeLevel *f = ctx;
    (void)lo;
    f->prefetches++;
}

/* The second level: deep counts go there too, a miss at its depths asks it, what it finds is
 * kept in the table, shallow counts never reach it; and perft with it counts exactly. */
static void table_second_level(void **state)
{
    (void)state;
    FakeLevel level = { 0 };
    const PerftTTShared shared = { &level, 4, fake_probe, fake_store, fake_prefetch };
    PerftTTThread a = { perft_tt_new(1 << 12), { 0 } }, b = { perft_tt_new(1 << 12), { 0 } };
    assert_non_null(a.tt);
    assert_non_null(b.tt);
    perft_tt_set_shared(a.tt, &shared);
    perft_tt_set_shared(b.tt, &shared);
    u128 deep = ((u128)0x1111222233334444ull << 64) | 0x5555666677778888ull, shallow = deep ^ 1;
    uint64_t c = 0;
    perft_tt_store(&a, deep, 5, 4242);
    perft_tt_store(&a, shallow, 3, 99);
    assert_true(a.work.shared_stores == 1 && a.work.shared_remote == 1);
    assert_true(perft_tt_probe(&b, deep, 5, &c) && c == 4242);
    assert_true(b.work.probes == 1 && b.work.hits == 0 && b.work.shared_probes == 1 &&
                b.work.shared_hits == 1);
    assert_true(perft_tt_probe(&b, deep, 5, &c) && c == 4242); /* kept in b's own table */
    assert_true(b.work.hits == 1 && b.work.shared_probes == 1);
    assert_false(perft_tt_probe(&b, shallow, 3, &c));
    assert_false(perft_tt_probe(&b, deep, 4, &c)); /* another depth: another key */
    assert_true(b.work.shared_probes == 2 && b.work.shared_hits == 1);
    /* Its place is prefetched at its depths only. */
    perft_tt_prefetch(a.tt, shallow, 3);
    assert_true(level.prefetches == 0);
    perft_tt_prefetch(a.tt, deep, 5);
    assert_true(level.prefetches == 1);
    perft_tt_free(a.tt);
    perft_tt_free(b.tt);

    /* Capablanca perft 4 through a table of one bucket whose second level holds eight. */
    Position p;
    const Rules r = { TURNS_SINGLE, EP_CLASSIC };
    position_of("capablanca", NULL, &r, &p);
    memset(&level, 0, sizeof level);
    PerftTT *tt = perft_tt_new(64);
    assert_non_null(tt);
    const PerftTTShared low = { &level, 2, fake_probe, fake_store, fake_prefetch };
    perft_tt_set_shared(tt, &low);
    PerftTTWork w = { 0 };
    assert_true(perft_turns_hashed(&p, &r, 4, tt, &w) == 805128);
    assert_true(w.probes > 0 && w.shared_probes > 0 && w.shared_stores > 0);
    assert_true(level.prefetches > 0);
    /* A second level with nothing to prefetch. */
    const PerftTTShared plain = { &level, 2, fake_probe, fake_store, NULL };
    perft_tt_set_shared(tt, &plain);
    assert_true(perft_turns_hashed(&p, &r, 4, tt, &w) == 805128);
    perft_tt_free(tt);
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_entries),       cmocka_unit_test(table_second_level),
        cmocka_unit_test(reference_positions), cmocka_unit_test(double_move_rules),
        cmocka_unit_test(merged_units),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
