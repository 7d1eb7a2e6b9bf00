/* SPDX-License-Identifier: MIT */
/* The perft table shared over MPI ranks (cluster/mpi/shared_table.c), run under the launcher
 * (`mpiexec -n 2 test_shared_table`, `-n 3 --oversubscribe`): what one rank stores every rank
 * finds, and only under its whole key; a table of no buckets finds nothing; and perft through a
 * rank's own table with the shared one below it counts exactly while every thread of every rank
 * counts the same tree at once (single and Marseillais turns), so that the same buckets are read
 * and written concurrently:
 * through a table of one bucket per rank (entries overwritten all the time), one that holds
 * nothing (every shared probe misses) and a roomy one (shared counts found). The ranks of one
 * node reach each other's parts through shared memory; with CARRERA_SHARED_TABLE_MPI=1 (the
 * test's second registration) every access goes through MPI, as between nodes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "comm.h"
#include "errmsg.h"
#include "perft.h"
#include "perft_tt.h"
#include "position.h"
#include "setup.h"
#include "shared_table.h"
#include "variant.h"

#define BUCKET_BYTES 64

/* A key of rank r's i-th store: spread over every bucket of every rank. */
static void key_of(int r, int i, uint64_t *lo, uint64_t *hi)
{
    *lo = ((uint64_t)r * 0x9E3779B97F4A7C15ull + (uint64_t)i * 0xD1B54A32D192ED03ull) ^
          0x0123456789abcdefull;
    *hi = *lo * 0xff51afd7ed558ccdull + (uint64_t)r;
}

/* Each rank stores its own keys; after a barrier every rank finds every rank's, and a key with
 * another high half (the same bucket) is not found. */
static void stores_are_seen_everywhere(void **state)
{
    (void)state;
    char err[ERRMSG_LEN];
    SharedTable *t = shared_table_new((size_t)1 << 20, err, sizeof err);
    if (!t)
        fail_msg("%s", err);
    assert_int_equal(shared_table_bytes(t), 1 << 20);
    /* Under the test's launcher every rank is on this node. */
    const char *mpi = getenv("CARRERA_SHARED_TABLE_MPI");
    assert_int_equal(shared_table_direct_ranks(t), mpi && strcmp(mpi, "1") == 0 ? 0 : comm_size());
    PerftTTWork w = { 0 };
    for (int i = 0; i < 64; i++) {
        uint64_t lo, hi;
        key_of(comm_rank(), i, &lo, &hi);
        shared_table_store(t, lo, hi, 5, 1000 + (uint64_t)i, &w);
    }
    comm_max(0); /* a barrier: every rank's stores are complete */
    for (int r = 0; r < comm_size(); r++)
        for (int i = 0; i < 64; i++) {
            uint64_t lo, hi, count = 0;
            key_of(r, i, &lo, &hi);
            assert_true(shared_table_probe(t, lo, hi, &count, &w));
            assert_true(count == 1000 + (uint64_t)i);
            assert_false(shared_table_probe(t, lo, hi ^ 1, &count, &w));
        }
    /* Some of the buckets are another rank's: those accesses are counted. */
    assert_true(w.shared_remote > 0 && w.shared_bytes > 0);
    assert_true(shared_table_latency(t, 10) >= 0);
    shared_table_free(t);
}

/* A table of no buckets: every probe misses, stores are dropped. */
static void empty_table_finds_nothing(void **state)
{
    (void)state;
    char err[ERRMSG_LEN];
    SharedTable *t = shared_table_new(0, err, sizeof err);
    if (!t)
        fail_msg("%s", err);
    PerftTTWork w = { 0 };
    uint64_t count;
    shared_table_store(t, 1, 2, 5, 77, &w);
    comm_max(0);
    assert_false(shared_table_probe(t, 1, 2, &count, &w));
    assert_true(w.shared_remote == 0);
    shared_table_free(t);
}

typedef struct Tree {
    const char *variant, *fen; /* fen NULL: the start position */
    TurnRules turns;
    int depth;
    uint64_t nodes; /* 0: as perft without a table counts it */
} Tree;

static const Tree TREES[] = {
    { "capablanca", NULL, TURNS_SINGLE, 5, 28741319 },
    { "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", TURNS_SINGLE,
      4, 4085603 },
    { "chess", NULL, TURNS_MARSEILLAIS, 3, 0 },
};

/* Every tree counted on two threads of every rank through a rank's table of own_bytes with a
 * shared table of shared_bytes per rank below it from depth 2: exact. Returns the work of this
 * rank. */
static PerftTTWork count_trees(size_t own_bytes, size_t shared_bytes)
{
    char err[ERRMSG_LEN];
    SharedTable *t = shared_table_new(shared_bytes, err, sizeof err);
    if (!t)
        fail_msg("%s", err);
    PerftTTWork all = { 0 };
    for (size_t i = 0; i < sizeof TREES / sizeof *TREES; i++) {
        const Tree *tree = &TREES[i];
        const Variant *v = variant_by_name(tree->variant);
        const Rules r = { tree->turns, EP_CLASSIC };
        Setup s;
        if (tree->fen)
            assert_int_equal(setup_from_fen_rules(&s, v, &r, tree->fen, err, sizeof err), 0);
        else
            setup_start(&s, v);
        Position p;
        position_from_setup(&p, &s);
        PerftTT *tt = perft_tt_new(own_bytes);
        assert_non_null(tt);
        const PerftTTShared level = { t, 2, shared_table_probe, shared_table_store,
                                      shared_table_prefetch };
        perft_tt_set_shared(tt, &level);
        PerftJob job = { .root = &p, .rules = r, .depth = tree->depth, .threads = 2, .tt = tt };
        PerftResult res;
        assert_int_equal(perft_job_run(&job, &res), 0);
        const uint64_t want = tree->nodes ? tree->nodes : perft_turns(&p, &r, tree->depth);
        if (res.nodes != want)
            fail_msg("rank %d: %s perft %d: %llu, not %llu", comm_rank(), tree->variant,
                     tree->depth, (unsigned long long)res.nodes, (unsigned long long)want);
        perft_tt_work_add(&all, &res.work);
        perft_result_free(&res);
        perft_tt_free(tt);
    }
    comm_max(0); /* no rank frees the table while another still counts */
    shared_table_free(t);
    return all;
}

static void tiny_table_counts_exactly(void **state)
{
    (void)state;
    const PerftTTWork w = count_trees(BUCKET_BYTES, BUCKET_BYTES);
    assert_true(w.shared_probes > 0 && w.shared_stores > 0);
}

static void empty_table_counts_exactly(void **state)
{
    (void)state;
    const PerftTTWork w = count_trees(BUCKET_BYTES, 0);
    assert_true(w.shared_probes > 0 && w.shared_hits == 0);
}

static void roomy_table_counts_exactly(void **state)
{
    (void)state;
    const PerftTTWork w = count_trees(BUCKET_BYTES, (size_t)4 << 20);
    /* The own table of one bucket keeps almost nothing: the counts come from the shared one. */
    assert_true(w.shared_hits > 0);
    assert_true(comm_size() == 1 || w.shared_remote > 0);
}

int main(int argc, char **argv)
{
    char err[ERRMSG_LEN];
    if (comm_init(&argc, &argv, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stores_are_seen_everywhere), cmocka_unit_test(empty_table_finds_nothing),
        cmocka_unit_test(tiny_table_counts_exactly),  cmocka_unit_test(empty_table_counts_exactly),
        cmocka_unit_test(roomy_table_counts_exactly),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    if (failed)
        comm_abort(1);
    comm_finalize();
    return 0;
}
