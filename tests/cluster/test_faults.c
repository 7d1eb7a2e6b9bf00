/* SPDX-License-Identifier: MIT */
/* Carrera against outputs it cannot write (issue 9, fault injection): a result or PGN path whose
 * parent is a regular file (root ignores permissions, not that), and a full disk, simulated by a
 * file size limit set in the child after fork (RLIMIT_FSIZE, with SIGXFSZ ignored so that a write
 * past the limit fails with EFBIG instead of killing the process). Each ends with one clear
 * `carrera: error:` line naming the file and a non-zero status, never a crash; after a full disk
 * the file keeps what it recorded before, and the same command with --resume and no limit
 * completes the job without playing or counting that again. Kills at random moments are
 * scripts/fault-inject's. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hdf5.h>

#include "files.h"
#include "h5read.h"
#include "run.h"

#ifndef CARRERA_BIN
#error "CARRERA_BIN must be defined"
#endif

/* Capablanca perft 4 from the start, split at depth 2: 784 units, a fraction of a second. */
#define PERFT_TOTAL 805128ULL
#define NOT_COUNTED UINT64_MAX

/* scratch_dir/name */
static void in_dir(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", scratch_dir, name);
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Runs argv with files limited to limit bytes, output captured as run_program does. */
static Run run_limited(const char *const *argv, rlim_t limit)
{
    char out[512], err[512];
    in_dir(out, sizeof out, "limited.out");
    in_dir(err, sizeof err, "limited.err");
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = { limit, limit };
        int in = open("/dev/null", O_RDONLY);
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0 || in < 0 || o < 0 || e < 0 ||
            dup2(in, STDIN_FILENO) < 0 || dup2(o, STDOUT_FILENO) < 0 || dup2(e, STDERR_FILENO) < 0)
            _exit(126);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status;
    assert_true(waitpid(pid, &status, 0) == pid);
    Run r = { .status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status) };
    r.out = read_bytes(out, NULL);
    r.err = read_bytes(err, NULL);
    return r;
}

/* A failure as it must look: an exit status (not a signal, not 0) and exactly one
 * `carrera: error:` line, naming path and containing also (when given). */
static void expect_error(const Run *r, const char *what, const char *path, const char *also)
{
    if (r->status == 0 || r->status >= 126)
        fail_msg("%s: status %d, expected an error; stderr:\n%s", what, r->status, r->err);
    int errors = 0;
    const char *line = NULL;
    for (const char *at = strstr(r->err, "carrera: error: "); at;
         at = strstr(at + 1, "carrera: error: ")) {
        errors++;
        line = at;
    }
    if (errors != 1)
        fail_msg("%s: %d error lines, expected one:\n%s", what, errors, r->err);
    size_t len = strcspn(line, "\n");
    char message[2048];
    snprintf(message, sizeof message, "%.*s", (int)len, line);
    if (!strstr(message, path) || (also && !strstr(message, also)))
        fail_msg("%s: the error does not name %s%s%s: %s", what, path, also ? " with " : "",
                 also ? also : "", message);
}

static const char *const MATCH = "[match]\n"
                                 "variant = capablanca\n"
                                 "games = %d\n"
                                 "random_plies = 4\n"
                                 "seed = 9\n"
                                 "concurrency = 2\n"
                                 "max_plies = %d\n"
                                 "[player1]\nname = A\nnodes = 300\n"
                                 "[player2]\nname = B\nnodes = 300\n";

static void write_match(const char *path, int games, int max_plies)
{
    char text[512];
    snprintf(text, sizeof text, MATCH, games, max_plies);
    write_bytes(path, text, strlen(text));
}

/* ---- a path that cannot be created ---- */

static void test_unwritable_paths(void **state)
{
    (void)state;
    char plain[512], bad_h5[512], bad_pgn[512], config[512], h5[512], pgn[512];
    in_dir(plain, sizeof plain, "plain");
    write_bytes(plain, "not a directory\n", 16);
    in_dir(bad_h5, sizeof bad_h5, "plain/x.h5");
    in_dir(bad_pgn, sizeof bad_pgn, "plain/x.pgn");
    in_dir(config, sizeof config, "small.ini");
    in_dir(h5, sizeof h5, "small.h5");
    in_dir(pgn, sizeof pgn, "small.pgn");
    write_match(config, 2, 20);

    const char *perft[] = { CARRERA_BIN, "perft", "--startpos", "--depth", "2", "--threads",
                            "1",         "--out", bad_h5,       "--quiet", NULL };
    Run r = run_program(perft);
    expect_error(&r, "perft --out", bad_h5, NULL);
    run_free(&r);

    const char *match_out[] = { CARRERA_BIN, "match", "--config", config,    "--out",
                                bad_h5,      "--pgn", pgn,        "--quiet", NULL };
    r = run_program(match_out);
    expect_error(&r, "match --out", bad_h5, NULL);
    run_free(&r);

    const char *match_pgn[] = { CARRERA_BIN, "match", "--config", config,    "--out",
                                h5,          "--pgn", bad_pgn,    "--quiet", NULL };
    r = run_program(match_pgn);
    expect_error(&r, "match --pgn", bad_pgn, NULL);
    run_free(&r);
}

/* ---- a full disk: perft ---- */

typedef struct UnitCols {
    uint64_t nodes;
    int32_t run;
} UnitCols;

/* The units' counts and runs, *resumed the file's resume count; the rows, malloc'd. */
static UnitCols *read_units(const char *path, size_t *n, long long *resumed)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        fail_msg("cannot open %s", path);
    hid_t d = H5Dopen2(f, "/perft/units", H5P_DEFAULT);
    assert_true(d >= 0);
    hid_t sp = H5Dget_space(d);
    hsize_t rows = 0;
    H5Sget_simple_extent_dims(sp, &rows, NULL);
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(UnitCols));
    H5Tinsert(t, "nodes", offsetof(UnitCols, nodes), H5T_NATIVE_UINT64);
    H5Tinsert(t, "run", offsetof(UnitCols, run), H5T_NATIVE_INT32);
    UnitCols *u = calloc(rows + 1, sizeof *u);
    assert_non_null(u);
    assert_true(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, u) >= 0);
    hid_t a = H5Aopen(f, "resumed", H5P_DEFAULT);
    assert_true(a >= 0 && H5Aread(a, H5T_NATIVE_LLONG, resumed) >= 0);
    H5Aclose(a);
    H5Tclose(t);
    H5Sclose(sp);
    H5Dclose(d);
    H5Fclose(f);
    *n = rows;
    return u;
}

/* The perft file is all there from the start (every unit's row): it grows only when the results
 * are written at the end, on a copy. A limit between the two sizes fails the job at its end, the
 * checkpoint complete; a limit below the first fails its start and leaves no file. */
static void test_perft_full_disk(void **state)
{
    (void)state;
    char out[512], ref[512], tmp[512];
    in_dir(out, sizeof out, "perft.h5");
    in_dir(ref, sizeof ref, "perft-ref.h5");
    in_dir(tmp, sizeof tmp, "perft.h5.tmp");
    const char *job[] = { CARRERA_BIN,  "perft",     "--variant", "capablanca",
                          "--startpos", "--depth",   "4",         "--split-depth",
                          "2",          "--threads", "1",         "--quiet",
                          "--out",      out,         NULL,        NULL };
    const char *reference[] = { CARRERA_BIN, "perft",   "--variant",     "capablanca", "--startpos",
                                "--depth",   "4",       "--split-depth", "2",          "--threads",
                                "1",         "--quiet", "--out",         ref,          NULL };
    Run r = run_program(reference);
    assert_int_equal(r.status, 0);
    run_free(&r);
    struct stat st;
    assert_int_equal(stat(ref, &st), 0);

    r = run_limited(job, 4096);
    expect_error(&r, "perft under 4 KiB", out, "File too large");
    run_free(&r);
    assert_false(exists(out));

    r = run_limited(job, (rlim_t)st.st_size - 1);
    expect_error(&r, "perft at its end", out, "File too large");
    run_free(&r);
    assert_false(exists(tmp));
    size_t n;
    long long resumed;
    UnitCols *u = read_units(out, &n, &resumed);
    assert_int_equal(n, 784);
    for (size_t i = 0; i < n; i++)
        assert_true(u[i].nodes != NOT_COUNTED);
    free(u);

    job[14] = "--resume";
    r = run_program(job);
    if (r.status != 0)
        fail_msg("resume: status %d, stderr %s", r.status, r.err);
    char want[64];
    snprintf(want, sizeof want, "Nodes searched: %llu\n", PERFT_TOTAL);
    assert_non_null(strstr(r.out, want));
    run_free(&r);
    u = read_units(out, &n, &resumed);
    assert_int_equal(resumed, 1);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(u[i].run, 0); /* counted before the failure, not again */
    free(u);
    hid_t f = H5Fopen(out, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    uint64_t nodes = 0;
    hid_t a = H5Aopen_by_name(f, "/perft", "nodes", H5P_DEFAULT, H5P_DEFAULT);
    assert_true(a >= 0 && H5Aread(a, H5T_NATIVE_UINT64, &nodes) >= 0);
    H5Aclose(a);
    H5Fclose(f);
    assert_int_equal(nodes, PERFT_TOTAL);
}

/* ---- a full disk: match ---- */

typedef struct GameCols {
    uint64_t pair;
    uint8_t game;
    double seconds_white, seconds_black;
    char *moves;
} GameCols;

/* The rows of /match/games (moves copied, malloc'd), *n of them. */
static GameCols *read_games(const char *path, size_t *n)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        fail_msg("cannot open %s", path);
    hid_t d = H5Dopen2(f, "/match/games", H5P_DEFAULT);
    assert_true(d >= 0);
    hid_t sp = H5Dget_space(d);
    hsize_t rows = 0;
    H5Sget_simple_extent_dims(sp, &rows, NULL);
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(GameCols));
    H5Tinsert(t, "pair", offsetof(GameCols, pair), H5T_NATIVE_UINT64);
    H5Tinsert(t, "game", offsetof(GameCols, game), H5T_NATIVE_UINT8);
    H5Tinsert(t, "seconds_white", offsetof(GameCols, seconds_white), H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "seconds_black", offsetof(GameCols, seconds_black), H5T_NATIVE_DOUBLE);
    GameCols *g = calloc(rows + 1, sizeof *g);
    assert_non_null(g);
    if (rows)
        assert_true(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, g) >= 0);
    for (hsize_t i = 0; i < rows; i++)
        g[i].moves = h5read_moves(f, i);
    H5Tclose(t);
    H5Sclose(sp);
    H5Dclose(d);
    H5Fclose(f);
    *n = rows;
    return g;
}

static void free_games(GameCols *g, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(g[i].moves);
    free(g);
}

/* The game of round "P.G" in a PGN file from the blank line after its tags (the tags name the
 * run's files and date), or NULL; *count receives how many games have that round. */
static char *round_moves(const char *pgn, const char *round, int *count)
{
    char tag[64];
    snprintf(tag, sizeof tag, "[Round \"%s\"]", round);
    *count = 0;
    const char *found = NULL;
    for (const char *at = strstr(pgn, tag); at; at = strstr(at + 1, tag)) {
        (*count)++;
        found = at;
    }
    if (!found)
        return NULL;
    const char *body = strstr(found, "\n\n");
    assert_non_null(body);
    const char *end = strstr(body, "\n[Event ");
    size_t len = end ? (size_t)(end - body) : strlen(body);
    while (len > 0 && (body[len - 1] == '\n' || body[len - 1] == ' '))
        len--;
    char *moves = malloc(len + 1);
    assert_non_null(moves);
    memcpy(moves, body, len);
    moves[len] = '\0';
    return moves;
}

/* A match stopped part-way (killed), then resumed with its files limited to the result file's
 * size and 16 KiB: enough to record the resume, not for the pairs after it (a pair needs a few
 * KiB, a new chunk of rows more); the limit is measured from the file, not from what match_file.c
 * claims before a pair, so it holds whatever that margin is. */
#define MATCH_ROOM  (16 * 1024)
#define MATCH_GAMES 40

static void test_match_full_disk(void **state)
{
    (void)state;
    char config[512], h5[512], pgn[512], ref_h5[512], ref_pgn[512], tmp[512];
    in_dir(config, sizeof config, "disk.ini");
    in_dir(h5, sizeof h5, "disk.h5");
    in_dir(pgn, sizeof pgn, "disk.pgn");
    in_dir(ref_h5, sizeof ref_h5, "disk-ref.h5");
    in_dir(ref_pgn, sizeof ref_pgn, "disk-ref.pgn");
    in_dir(tmp, sizeof tmp, "disk.h5.tmp");
    write_match(config, MATCH_GAMES, 200);
    const char *reference[] = { CARRERA_BIN, "match", "--config", config,    "--out",
                                ref_h5,      "--pgn", ref_pgn,    "--quiet", NULL };
    Run r = run_program(reference);
    if (r.status != 0)
        fail_msg("reference: status %d, stderr %s", r.status, r.err);
    run_free(&r);

    const char *match[] = { CARRERA_BIN, "match", "--config", config, "--out", h5,
                            "--pgn",     pgn,     "--quiet",  NULL,   NULL };
    assert_true(run_killed(match, pgn, 12));
    match[9] = "--resume";
    struct stat st;
    assert_int_equal(stat(h5, &st), 0);
    r = run_limited(match, (rlim_t)st.st_size + MATCH_ROOM);
    expect_error(&r, "match resumed under a file size limit", h5, "File too large");
    run_free(&r);
    assert_false(exists(tmp));
    size_t kept;
    GameCols *before = read_games(h5, &kept);
    /* killed with 12 games in the PGN file: at least 5 pairs in the result file (the pair
     * between the two files, or torn by the kill, is played again) */
    printf("the result file held %zu games of %d after the full disk\n", kept, MATCH_GAMES);
    if (kept < 10 || kept >= MATCH_GAMES)
        fail_msg("the result file held %zu games after the full disk", kept);

    r = run_program(match);
    if (r.status != 0)
        fail_msg("resume: status %d, stderr %s", r.status, r.err);
    char played[64];
    snprintf(played, sizeof played, "%d games (%d pairs)", MATCH_GAMES, MATCH_GAMES / 2);
    assert_non_null(strstr(r.out, played));
    run_free(&r);

    /* the games recorded before the failure are the first rows still, times and all: not
     * played again; then every (pair, game) once */
    size_t n;
    GameCols *after = read_games(h5, &n);
    assert_int_equal(n, MATCH_GAMES);
    for (size_t i = 0; i < kept; i++) {
        assert_int_equal(after[i].pair, before[i].pair);
        assert_int_equal(after[i].game, before[i].game);
        assert_true(after[i].seconds_white == before[i].seconds_white);
        assert_true(after[i].seconds_black == before[i].seconds_black);
        assert_string_equal(after[i].moves, before[i].moves);
    }
    bool seen[MATCH_GAMES] = { false };
    for (size_t i = 0; i < n; i++) {
        assert_true(after[i].pair < MATCH_GAMES / 2 && (after[i].game == 1 || after[i].game == 2));
        size_t k = 2 * after[i].pair + after[i].game - 1;
        assert_false(seen[k]);
        seen[k] = true;
    }
    free_games(before, kept);
    free_games(after, n);

    /* the PGN file: every round once, each game the uninterrupted run's */
    char *a = read_bytes(pgn, NULL), *b = read_bytes(ref_pgn, NULL);
    for (int pair = 1; pair <= MATCH_GAMES / 2; pair++)
        for (int game = 1; game <= 2; game++) {
            char round[32];
            snprintf(round, sizeof round, "%d.%d", pair, game);
            int count, ref_count;
            char *mine = round_moves(a, round, &count), *theirs = round_moves(b, round, &ref_count);
            if (count != 1 || ref_count != 1)
                fail_msg("round %s is %d times in the PGN file (%d in the reference's)", round,
                         count, ref_count);
            assert_string_equal(mine, theirs);
            free(mine);
            free(theirs);
        }
    free(a);
    free(b);

    /* the summary counts every game */
    hid_t f = H5Fopen(h5, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    uint64_t games = 0, penta[5] = { 0 };
    hid_t attr = H5Aopen_by_name(f, "/match", "games_played", H5P_DEFAULT, H5P_DEFAULT);
    assert_true(attr >= 0 && H5Aread(attr, H5T_NATIVE_UINT64, &games) >= 0);
    H5Aclose(attr);
    hid_t d = H5Dopen2(f, "/match/pentanomial", H5P_DEFAULT);
    assert_true(d >= 0 && H5Dread(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, penta) >= 0);
    H5Dclose(d);
    H5Fclose(f);
    assert_int_equal(games, MATCH_GAMES);
    assert_int_equal(penta[0] + penta[1] + penta[2] + penta[3] + penta[4], MATCH_GAMES / 2);
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unwritable_paths),
        cmocka_unit_test(test_perft_full_disk),
        cmocka_unit_test(test_match_full_disk),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
