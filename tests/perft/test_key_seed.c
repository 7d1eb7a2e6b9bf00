/* SPDX-License-Identifier: MIT */
/* Key seeds (`carrera perft --key-seed N`, `key_seed` in a job file): two seeds give unrelated
 * Zobrist keys and the same counts with a hash table, on both board sizes and under double-move
 * rules; seed 0 keeps the keys of every earlier version; the result file records the seed; bad
 * seeds are usage errors. The keys of one process are built once, so each seed is counted in a
 * child process of its own. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "errmsg.h"
#include "files.h"
#include "h5read.h"
#include "perft.h"
#include "position.h"
#include "run.h"
#include "setup.h"
#include "variant.h"
#include "zobrist.h"

#ifndef CARRERA_BIN
#error "CARRERA_BIN must name the carrera binary"
#endif

/* Positions of both board sizes, single and double-move rules, each with its count (from
 * tests/data/perft and configs/perft/marseillais.epd). */
static const struct {
    const char *variant, *fen; /* fen NULL: the start position */
    TurnRules turns;
    int depth;
    uint64_t nodes;
} CASES[] = {
    { "chess", NULL, TURNS_SINGLE, 5, 4865609 },
    { "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", TURNS_SINGLE,
      4, 4085603 },
    { "chess", NULL, TURNS_BALANCED, 3, 4866854 },
    { "capablanca", NULL, TURNS_SINGLE, 5, 28741319 },
    { "capablanca", "1nabqkbcn1/p1ppppppp1/1r6r1/1p6p1/3PP5/2N4N2/PPP2PPPPP/R1ABQKBC1R w KQ - 0 5",
      TURNS_SINGLE, 4, 3514971 },
    { "gothic", NULL, TURNS_SINGLE, 5, 28946187 },
    { "capablanca", NULL, TURNS_BENNEKOM, 3, 356256 },
};
#define N_CASES (sizeof CASES / sizeof CASES[0])

/* The start position's key under seed 0 in every version before key seeds (chess, Capablanca):
 * a change of the default keys would change the bench signature and every stored key. */
static const uint64_t DEFAULT_KEY[2][2] = {
    { 0x92431f2fb8d0ad8aull, 0xdb596b8cf6714fb3ull },
    { 0x601f96343ffc8a05ull, 0xf046387826227c27ull },
};

typedef struct Counted {
    u128 key[N_CASES];
    uint64_t nodes[N_CASES];
    bool built, other_refused;
} Counted;

static void position_of(int i, Position *p)
{
    const Variant *v = variant_by_name(CASES[i].variant);
    const Rules r = { CASES[i].turns, EP_CLASSIC };
    Setup s;
    char err[ERRMSG_LEN];
    if (!CASES[i].fen)
        setup_start(&s, v);
    else if (setup_from_fen_rules(&s, v, &r, CASES[i].fen, err, sizeof err) != 0)
        exit(3);
    position_from_setup(p, &s);
}

/* In the child: the tables built with seed, every case counted on 2 threads with a small table
 * (1 MB: replacements and shared buckets all the time). */
static void count_in_child(uint64_t seed, int fd)
{
    Counted c = { 0 };
    c.built = position_init_tables(seed);
    c.other_refused = !position_init_tables(seed + 1);
    for (size_t i = 0; i < N_CASES; i++) {
        Position p;
        position_of((int)i, &p);
        c.key[i] = position_key128(&p);
        PerftJob job = { .root = &p,
                         .rules = { CASES[i].turns, EP_CLASSIC },
                         .depth = CASES[i].depth,
                         .threads = 2,
                         .hash_bytes = 1 << 20 };
        PerftResult res;
        if (perft_job_run(&job, &res) != 0)
            exit(4);
        c.nodes[i] = res.nodes;
        perft_result_free(&res);
    }
    exit(write(fd, &c, sizeof c) == (ssize_t)sizeof c ? 0 : 5);
}

static Counted counted_with(uint64_t seed)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        count_in_child(seed, fds[1]);
    }
    close(fds[1]);
    Counted c;
    size_t got = 0;
    while (got < sizeof c) {
        ssize_t n = read(fds[0], (char *)&c + got, sizeof c - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fds[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got != sizeof c)
        fail_msg("the child counting with key seed %llu failed (status %d)",
                 (unsigned long long)seed, status);
    assert_true(c.built);
    assert_true(c.other_refused);
    return c;
}

static void test_counts_agree(void **state)
{
    (void)state;
    static const uint64_t SEEDS[] = { 0, 1, 2, 9223372036854775807ull };
    Counted c[sizeof SEEDS / sizeof SEEDS[0]];
    for (size_t k = 0; k < sizeof SEEDS / sizeof SEEDS[0]; k++) {
        c[k] = counted_with(SEEDS[k]);
        for (size_t i = 0; i < N_CASES; i++) {
            if (c[k].nodes[i] != CASES[i].nodes)
                fail_msg("%s %s depth %d with key seed %llu: %llu, expected %llu", CASES[i].variant,
                         CASES[i].fen ? CASES[i].fen : "startpos", CASES[i].depth,
                         (unsigned long long)SEEDS[k], (unsigned long long)c[k].nodes[i],
                         (unsigned long long)CASES[i].nodes);
            for (size_t l = 0; l < k; l++) {
                /* Both 64-bit halves differ: the table uses one as index, the other to verify. */
                assert_true((uint64_t)c[k].key[i] != (uint64_t)c[l].key[i]);
                assert_true((uint64_t)(c[k].key[i] >> 64) != (uint64_t)(c[l].key[i] >> 64));
            }
        }
    }
    /* Seed 0 is the default: today's keys. */
    const size_t start[2] = { 0, 3 };
    for (int b = 0; b < 2; b++) {
        const u128 key = c[0].key[start[b]];
        if ((uint64_t)key != DEFAULT_KEY[b][0] || (uint64_t)(key >> 64) != DEFAULT_KEY[b][1])
            fail_msg("the default keys changed: the %s start position's key is 0x%016llx%016llx",
                     CASES[start[b]].variant, (unsigned long long)(key >> 64),
                     (unsigned long long)key);
    }
}

/* No key of one seed appears anywhere in the table of another. */
static void test_keys_unrelated(void **state)
{
    (void)state;
    static const uint64_t SEEDS[] = { 0, 1, 2, 3, 1ull << 40 };
    enum { N = sizeof SEEDS / sizeof SEEDS[0] };
    static Zobrist z[N];
    for (int k = 0; k < N; k++)
        zobrist_fill(&z[k], SEEDS[k]);
    /* The keys of one table as a flat list of nonzero halves (the empty type's and the empty
     * castling set's keys are zero by design). */
    enum { HALVES = sizeof(Zobrist) / sizeof(uint64_t) };
    for (int k = 0; k < N; k++)
        for (int l = 0; l < k; l++) {
            const uint64_t *a = (const uint64_t *)&z[k], *b = (const uint64_t *)&z[l];
            for (int i = 0; i < HALVES; i++)
                for (int j = 0; a[i] && j < HALVES; j++)
                    if (a[i] == b[j])
                        fail_msg("seeds %llu and %llu share a key half",
                                 (unsigned long long)SEEDS[k], (unsigned long long)SEEDS[l]);
        }
}

static void path_in(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", scratch_dir, name);
}

static uint64_t file_key_seed(const char *path)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    uint64_t seed = h5read_u64(f, "/perft", "key_seed");
    H5Fclose(f);
    return seed;
}

/* The seed of the command line and of the job file in the result read back; a resume under
 * another seed refused. */
static void test_result_file(void **state)
{
    (void)state;
    char a[300], b[300], c[300], ini[300];
    path_in(a, sizeof a, "a.h5");
    path_in(b, sizeof b, "b.h5");
    path_in(c, sizeof c, "c.h5");
    path_in(ini, sizeof ini, "job.ini");
    const char *with_seed[] = {
        CARRERA_BIN, "perft",  "--variant", "capablanca", "--startpos",          "--depth",
        "3",         "--hash", "1",         "--key-seed", "4611686018427387904", "--quiet",
        "--out",     a,        NULL
    };
    Run r = run_program(with_seed);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "Nodes searched: 25228");
    run_free(&r);
    assert_true(file_key_seed(a) == 4611686018427387904ull);

    const char *plain[] = { CARRERA_BIN, "perft", "--startpos", "--depth", "2", "--quiet",
                            "--out",     b,       NULL };
    r = run_program(plain);
    assert_int_equal(r.status, 0);
    run_free(&r);
    assert_true(file_key_seed(b) == 0);

    const char *text = "[perft]\nposition = startpos\ndepth = 3\nturns = marseillais\n"
                       "hash_mb = 1\nkey_seed = 77\n";
    write_bytes(ini, text, strlen(text));
    const char *job[] = { CARRERA_BIN, "perft", "--config", ini, "--quiet", "--out", c, NULL };
    r = run_program(job);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "Nodes searched: 130996799");
    run_free(&r);
    assert_true(file_key_seed(c) == 77);

    const char *resume[] = { CARRERA_BIN, "perft",    "--startpos", "--depth", "2", "--key-seed",
                             "3",         "--resume", "--quiet",    "--out",   b,   NULL };
    r = run_program(resume);
    assert_int_equal(r.status, 2);
    assert_contains(r.err, "the checkpoint was counted with key seed 0, this job asks for key "
                           "seed 3");
    run_free(&r);
}

static void test_bad_values(void **state)
{
    (void)state;
    static const char *const BAD[] = { "x",
                                       "-1",
                                       "",
                                       "1e3",
                                       " 1",
                                       "9223372036854775808",
                                       "99999999999999999999",
                                       "18446744073709551617" };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        const char *argv[] = { CARRERA_BIN, "perft",      "--startpos", "--depth",
                               "1",         "--key-seed", BAD[i],       NULL };
        Run r = run_program(argv);
        if (r.status != 2)
            fail_msg("--key-seed '%s': status %d, expected 2", BAD[i], r.status);
        char want[128];
        snprintf(want, sizeof want,
                 "bad key seed '%s': must be a whole number from 0 to 9223372036854775807", BAD[i]);
        assert_contains(r.err, want);
        run_free(&r);
    }
    char ini[300];
    path_in(ini, sizeof ini, "bad.ini");
    const char *text = "[perft]\nposition = startpos\ndepth = 1\nkey_seed = -5\n";
    write_bytes(ini, text, strlen(text));
    const char *job[] = { CARRERA_BIN, "perft", "--config", ini, NULL };
    Run r = run_program(job);
    assert_int_equal(r.status, 2);
    assert_contains(r.err, "bad.ini:4: bad value '-5' for key_seed: must be a whole number from 0 "
                           "to 9223372036854775807");
    run_free(&r);
    /* The job file says which keys: the command line cannot say otherwise. */
    text = "[perft]\nposition = startpos\ndepth = 1\n";
    write_bytes(ini, text, strlen(text));
    const char *both[] = { CARRERA_BIN, "perft", "--config", ini, "--key-seed", "1", NULL };
    r = run_program(both);
    assert_int_equal(r.status, 2);
    assert_contains(r.err, "--config takes the position, depth, threads, hash and key seed");
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys_unrelated),
        cmocka_unit_test(test_counts_agree),
        cmocka_unit_test(test_result_file),
        cmocka_unit_test(test_bad_values),
    };
    return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
