/* SPDX-License-Identifier: MIT */
/* scripts/sprt --extend end to end, without the builds a whole test needs: a test's directory set
 * up as the script leaves it (its match file, result files, summary and test.json, both players
 * this build's `carrera uci`), continued to more games as one test, its row logged; an extension
 * to no more games, one that would change the test, one of a test that has decided and one whose
 * build has changed since are refused (status 2). */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "files.h"
#include "pgn_games.h"
#include "run.h"

#if !defined(CARRERA_BIN) || !defined(CARRERA_SPRT)
#error "CARRERA_BIN and CARRERA_SPRT must be defined"
#endif

static char cache[600], run_dir[700], log_path[600];

static void write_text(const char *path, const char *text)
{
    write_bytes(path, text, strlen(text));
}

/* This build's bench signature, as the script measures it. */
static long bench(void)
{
    const char *argv[] = { CARRERA_BIN, "bench", NULL };
    Run r = run_program(argv);
    assert_int_equal(r.status, 0);
    const char *at = strstr(r.out, "Nodes searched");
    assert_non_null(at);
    long n = strtol(strchr(at, ':') + 1, NULL, 10);
    run_free(&r);
    return n;
}

/* test.json of the test, with the benches given. */
static void write_test(long new_bench, long base_bench)
{
    char path[800], text[2048];
    snprintf(path, sizeof path, "%s/test.json", run_dir);
    snprintf(text, sizeof text,
             "{\"row\": {\"change\": \"a change\", \"base\": \"base0\", \"new\": \"new0\", "
             "\"new_bench\": %ld, \"base_bench\": %ld, \"variant\": \"capablanca\", "
             "\"limit\": \"nodes=300\", \"bounds\": \"[0, 10]\", \"seed\": 7}, "
             "\"new_binary\": \"%s\", \"base_binary\": \"%s\", \"new_eval\": null}\n",
             new_bench, base_bench, CARRERA_BIN, CARRERA_BIN);
    write_text(path, text);
}

/* The 4-game test of the run directory, played. */
static void start_test(void)
{
    snprintf(cache, sizeof cache, "%s/cache", scratch_dir);
    snprintf(run_dir, sizeof run_dir, "%s/runs/t1", cache);
    snprintf(log_path, sizeof log_path, "%s/log.tsv", scratch_dir);
    char runs[700];
    snprintf(runs, sizeof runs, "%s/runs", cache);
    assert_int_equal(mkdir(cache, 0700), 0);
    assert_int_equal(mkdir(runs, 0700), 0);
    assert_int_equal(mkdir(run_dir, 0700), 0);
    char ini[800], config[2048], out[800];
    snprintf(ini, sizeof ini, "%s/match.ini", run_dir);
    snprintf(config, sizeof config,
             "[match]\nvariant = capablanca\ngames = 4\nrandom_plies = 4\nseed = 7\n"
             "concurrency = 2\nmax_plies = 120\nsprt_elo0 = 0\nsprt_elo1 = 10\n"
             "output = %s/match.h5\npgn = %s/match.pgn\n\n"
             "[player1]\nname = new\nengine = uci\ncommand = %s uci\nnodes = 300\n\n"
             "[player2]\nname = base\nengine = uci\ncommand = %s uci\nnodes = 300\n",
             run_dir, run_dir, CARRERA_BIN, CARRERA_BIN);
    write_text(ini, config);
    const char *argv[] = { CARRERA_BIN, "match", "--config", ini, "--quiet", NULL };
    Run r = run_program(argv);
    if (r.status != 0)
        fail_msg("match: status %d, stderr %s", r.status, r.err);
    assert_non_null(strstr(r.out, "4 games (2 pairs)"));
    snprintf(out, sizeof out, "%s/match.out", run_dir);
    write_text(out, r.out);
    run_free(&r);
}

static Run sprt(const char *games, const char *extra)
{
    const char *argv[] = { CARRERA_SPRT, "--extend", run_dir,  "--games-max", games, "--cache",
                           cache,        "--log",    log_path, extra,         NULL };
    return run_program(argv);
}

static void test_extend(void **state)
{
    (void)state;
    start_test();
    const long signature = bench();
    write_test(signature, signature);

    Run r = sprt("8", NULL);
    if (r.status != 1) /* 1: undecided at its games */
        fail_msg("status %d, stderr %s", r.status, r.err);
    assert_non_null(strstr(r.out, "8 games (4 pairs)"));
    run_free(&r);
    char *log = read_bytes(log_path, NULL);
    const char *row = strchr(log, '\n');
    assert_non_null(row);
    assert_non_null(strstr(row, "\ta change; continued to 8 games (the same test, its first 4 "
                                "kept)\tbase0\tnew0\t"));
    assert_non_null(strstr(row, "\tcapablanca\tnodes=300\t[0, 10]\t8\t"));
    assert_non_null(strstr(row, "\tundecided at games-max\t7\n"));
    free(log);
    char pgn[800];
    snprintf(pgn, sizeof pgn, "%s/match.pgn", run_dir);
    assert_int_equal(pgn_game_count(pgn), 8);

    r = sprt("8", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "played 8 games; an extension needs more"));
    run_free(&r);
    r = sprt("12", "--nodes=5");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--nodes cannot change it"));
    run_free(&r);
    /* a test that has decided goes no further */
    char out_path[800];
    snprintf(out_path, sizeof out_path, "%s/match.out", run_dir);
    char *summary = read_bytes(out_path, NULL), *verdict = strstr(summary, "], continue");
    assert_non_null(verdict);
    char decided[8192];
    snprintf(decided, sizeof decided, "%.*s], accept H1%s", (int)(verdict - summary), summary,
             verdict + strlen("], continue"));
    write_text(out_path, decided);
    r = sprt("12", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "has decided (accept H1)"));
    run_free(&r);
    write_text(out_path, summary);
    free(summary);
    write_test(signature, signature + 1);
    r = sprt("12", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "has changed since the test began"));
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_extend) };
    return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
