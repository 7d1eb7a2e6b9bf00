/* SPDX-License-Identifier: MIT */
/* `carrera match` end to end: configuration errors name file, line and key; a match with node
 * limits plays the same games with one thread and with two; a match against Fairy-Stockfish
 * runs clean; an external engine that crashes, plays an illegal move, prints garbage or hangs
 * loses that game with the reason recorded, is restarted, and the match still plays every game;
 * Carrera's engine on two threads against itself on one plays clean games at a move time;
 * two external engines on two game threads at once play a clean match (`test_match external`). */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <hdf5.h>

#include "files.h"
#include "pgn_games.h"
#include "h5read.h"
#include "run.h"
#include "types.h"

#if !defined(CARRERA_BIN) || !defined(CARRERA_MATCH_DATA) || !defined(CARRERA_FAIRY_STOCKFISH)
#error "CARRERA_BIN, CARRERA_MATCH_DATA and CARRERA_FAIRY_STOCKFISH must be defined"
#endif

/* The MPI launcher and its arguments (test_match mpi ..., test_match external GAMES ...),
 * NULL-padded. */
static const char *mpi_launcher[7];
/* The games of test_external_engines_threads (test_match external [GAMES [LAUNCHER...]]). */
static int external_games = 8;

static void write_text(const char *path, const char *text)
{
    write_bytes(path, text, strlen(text));
}

/* Runs carrera match with flag (--resume, --extend; NULL: none); the result file goes beside the
 * PGN file (same name, .h5). */
static Run match_with(const char *config, const char *pgn, const char *flag)
{
    char h5[512];
    snprintf(h5, sizeof h5, "%.*s.h5", (int)(strlen(pgn) - 4), pgn);
    const char *argv[] = { CARRERA_BIN, "match", "--config", config, "--pgn", pgn,
                           "--out",     h5,      "--quiet",  flag,   NULL };
    return run_program(argv);
}

static Run match(const char *config, const char *pgn) { return match_with(config, pgn, NULL); }

/* Runs carrera match under the launcher of mpi_launcher (none: in this process's way). */
static Run launched_match(const char *config, const char *pgn, const char *h5)
{
    const char *argv[24];
    int n = 0;
    for (int i = 0; i < 7 && mpi_launcher[i]; i++)
        argv[n++] = mpi_launcher[i];
    const char *rest[] = { CARRERA_BIN, "match", "--config", config,    "--pgn",
                           pgn,         "--out", h5,         "--quiet", NULL };
    for (int i = 0; i < 10; i++)
        argv[n++] = rest[i];
    return run_program(argv);
}

/* Writes text as the configuration scratch/NAME.ini into path, its PGN scratch/NAME.pgn into
 * out (both 512 characters). */
static void scratch_config(const char *name, char *path, char *out, const char *text)
{
    snprintf(path, 512, "%s/%s.ini", scratch_dir, name);
    snprintf(out, 512, "%s/%s.pgn", scratch_dir, name);
    write_text(path, text);
}

static void expect_config_error(const char *file, const char *message)
{
    char path[512], pgn[512];
    snprintf(path, sizeof path, "%s/%s", CARRERA_MATCH_DATA, file);
    snprintf(pgn, sizeof pgn, "%s/unused.pgn", scratch_dir);
    Run r = match(path, pgn);
    if (r.status != 2 || !strstr(r.err, message))
        fail_msg("%s: status %d, stderr '%s'; expected 2 and '%s'", file, r.status, r.err, message);
    run_free(&r);
}

static void test_config_errors(void **state)
{
    (void)state;
    expect_config_error("bad-no-limit.ini", "bad-no-limit.ini:3: [player1] has no limit");
    expect_config_error(
        "bad-uci-without-command.ini",
        "bad-uci-without-command.ini:6: [player2] is a UCI engine without a command");
    expect_config_error("bad-eval-for-uci.ini",
                        "bad-eval-for-uci.ini:10: [player2.eval] sets Carrera's evaluation");
    expect_config_error("bad-unknown-key.ini",
                        "bad-unknown-key.ini:4: key 'gamez' is unknown in [match]");
    expect_config_error("bad-tc.ini", "bad-tc.ini:4: bad value '60' for tc");
    expect_config_error("bad-sprt.ini",
                        "bad-sprt.ini:3: an SPRT needs both sprt_elo0 and sprt_elo1");
    expect_config_error("bad-eval-key.ini",
                        "bad-eval-key.ini:6: key 'ValueArchbishop' is unknown in [player1.eval]");
    expect_config_error("bad-search-value.ini",
                        "bad-search-value.ini:6: RfpStep: 5 is out of range 10..1000");
    expect_config_error("bad-random-openings.ini",
                        "bad-random-openings.ini:4: openings = random needs");
    expect_config_error("bad-section.ini", "bad-section.ini:7: section [player3] is unknown");
    expect_config_error("no-such-file.ini", "no-such-file.ini");
    expect_config_error("bad-hash-memory.ini", "hash tables (hash, per game at once) would need "
                                               "262144 MB, more than this machine's memory");
}

static const char *const SELF_PLAY = "[match]\n"
                                     "variant = capablanca\n"
                                     "games = 8\n"
                                     "random_plies = 4\n"
                                     "seed = 7\n"
                                     "concurrency = %d\n"
                                     "max_plies = 120\n"
                                     "[player1]\nname = A\nnodes = 1500\n"
                                     "[player2]\nname = B\nnodes = 1500\n"
                                     "[player2.eval]\nValueArchbishopMg = 700\n"
                                     "[player2.search]\nLmrDivisor = 200\n";

static void test_same_games_any_threads(void **state)
{
    (void)state;
    char pgn[2][512];
    for (int threads = 1; threads <= 2; threads++) {
        char config[512], path[512];
        snprintf(config, sizeof config, SELF_PLAY, threads);
        snprintf(path, sizeof path, "%s/self%d.ini", scratch_dir, threads);
        snprintf(pgn[threads - 1], sizeof pgn[0], "%s/self%d.pgn", scratch_dir, threads);
        write_text(path, config);
        Run r = match(path, pgn[threads - 1]);
        if (r.status != 0)
            fail_msg("match with %d threads: status %d, stderr %s", threads, r.status, r.err);
        assert_non_null(strstr(r.out, "8 games (4 pairs)"));
        run_free(&r);
    }
    expect_same_games(pgn[0], pgn[1], 4);
}

/* A player's [player2.search] reaches its games: the same match without it plays other games
 * (the games with it are those of test_same_games_any_threads, one thread). */
static void test_search_section_plays(void **state)
{
    (void)state;
    char config[512], path[2][512], pgn[2][512];
    for (int k = 0; k < 2; k++) {
        snprintf(config, sizeof config, SELF_PLAY, 1);
        if (k == 1)
            *strstr(config, "[player2.search]") = '\0';
        snprintf(path[k], sizeof path[k], "%s/search%d.ini", scratch_dir, k);
        snprintf(pgn[k], sizeof pgn[k], "%s/search%d.pgn", scratch_dir, k);
        write_text(path[k], config);
        Run r = match(path[k], pgn[k]);
        if (r.status != 0)
            fail_msg("match %d: status %d, stderr %s", k, r.status, r.err);
        run_free(&r);
    }
    const int same = count_same_games(pgn[0], pgn[1], 4);
    if (same == 8)
        fail_msg("[player2.search] LmrDivisor = 200 changed none of the 8 games");
}

/* Runs the match of config (4 games) into pgn: every game played, nobody at fault (every game
 * ended by the rules or adjudication). */
static void expect_clean_match(const char *config, const char *pgn)
{
    Run r = match(config, pgn);
    if (r.status != 0)
        fail_msg("status %d, stderr %s", r.status, r.err);
    assert_non_null(strstr(r.out, "4 games (2 pairs)"));
    assert_null(strstr(r.out, "engine "));
    assert_null(strstr(r.out, "illegal move"));
    run_free(&r);
}

/* Carrera against Fairy-Stockfish in Capablanca chess, and in Chess960 from random arrays, which
 * Fairy-Stockfish plays as chess with UCI_Chess960 (it has no variant named chess960). */
static void test_against_fairy_stockfish(void **state)
{
    (void)state;
    if (access(CARRERA_FAIRY_STOCKFISH, X_OK) != 0)
        skip();
    const char *variants[] = { "capablanca", "chess960" };
    for (int i = 0; i < 2; i++) {
        char config[1024], path[512], out[512], tag[64];
        snprintf(config, sizeof config,
                 "[match]\nvariant = %s\nopenings = %s\ngames = 4\nrandom_plies = 2\n"
                 "max_plies = 200\n"
                 "[player1]\nname = carrera\nnodes = 2000\n"
                 "[player2]\nname = fsf\nengine = uci\ncommand = %s\nnodes = 2000\n"
                 "option.Threads = 1\n",
                 variants[i], i == 0 ? "startpos" : "random", CARRERA_FAIRY_STOCKFISH);
        snprintf(path, sizeof path, "%s/fsf-%s.ini", scratch_dir, variants[i]);
        snprintf(out, sizeof out, "%s/fsf-%s.pgn", scratch_dir, variants[i]);
        write_text(path, config);
        expect_clean_match(path, out);
        char *pgn = read_bytes(out, NULL);
        snprintf(tag, sizeof tag, "[Variant \"%s\"]", variants[i]);
        assert_non_null(strstr(pgn, tag));
        free(pgn);
    }
}

/* Carrera on two threads (Lazy SMP) against Carrera on one, at a move time: every game ends by
 * the rules or adjudication, nobody at fault; threads is refused for an external engine. */
static void test_threads_player(void **state)
{
    (void)state;
    char path[512], out[512];
    scratch_config("threads", path, out,
                   "[match]\nvariant = capablanca\ngames = 4\nrandom_plies = 2\nseed = 3\n"
                   "max_plies = 80\nconcurrency = 1\n"
                   "[player1]\nname = smp\nthreads = 2\nmovetime = 40\n"
                   "[player2]\nname = single\nmovetime = 40\n");
    expect_clean_match(path, out);
    char *pgn = read_bytes(out, NULL);
    assert_non_null(strstr(pgn, "[White \"smp\"]"));
    assert_non_null(strstr(pgn, "[Black \"smp\"]"));
    free(pgn);

    write_text(path, "[match]\ngames = 2\n[player1]\nnodes = 100\n"
                     "[player2]\nengine = uci\ncommand = " CARRERA_BIN " uci\nnodes = 100\n"
                     "threads = 2\n");
    Run r = match(path, out);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "threads.ini:9: [player2]: threads is for engine = carrera"));
    run_free(&r);
}

/* A faulty engine (speaking protocol, uci or xboard) as player 2 over 4 games: the fault at its
 * second `go` loses that game, and the restarted engine plays the rest. */
static void faulty(const char *protocol, const char *fault, const char *limit, const char *ending)
{
    char config[1024], path[512], out[512];
    snprintf(config, sizeof config,
             "[match]\nvariant = chess\ngames = 4\nmax_plies = 40\nconcurrency = 1\n"
             "[player1]\nname = carrera\nnodes = 500\n"
             "[player2]\nname = faulty\nengine = %s\n"
             "command = %s/faulty_engine.py %s %s 2 %s/faulty-%s-%s.marker %s\n%s\n",
             protocol, CARRERA_MATCH_DATA, CARRERA_BIN, fault, scratch_dir, protocol, fault,
             protocol, limit);
    snprintf(path, sizeof path, "%s/faulty-%s-%s.ini", scratch_dir, protocol, fault);
    snprintf(out, sizeof out, "%s/faulty-%s-%s.pgn", scratch_dir, protocol, fault);
    write_text(path, config);
    Run r = match(path, out);
    if (r.status != 0)
        fail_msg("%s: status %d, stderr %s", fault, r.status, r.err);
    assert_non_null(strstr(r.out, "4 games (2 pairs)"));
    char want[64];
    snprintf(want, sizeof want, "%s 1", ending);
    const char *listed = strstr(r.out, want);
    if (!listed || (listed[strlen(want)] != ',' && listed[strlen(want)] != '\n'))
        fail_msg("%s: expected '%s' among the endings:\n%s", fault, want, r.out);
    run_free(&r);
    /* the faulty engine lost the game with that ending, whatever its colour */
    char *pgn = read_bytes(out, NULL), term[128];
    snprintf(term, sizeof term, "[Termination \"%s", ending);
    int found = 0;
    for (char *game = pgn; game; game = strstr(game + 1, "[Event ")) {
        char *next = strstr(game + 1, "[Event ");
        char saved = next ? *next : '\0';
        if (next)
            *next = '\0';
        if (strstr(game, term)) {
            found++;
            bool faulty_white = strstr(game, "[White \"faulty\"]") != NULL;
            assert_non_null(strstr(game, faulty_white ? "[Result \"0-1\"]" : "[Result \"1-0\"]"));
        }
        if (next)
            *next = saved;
    }
    assert_int_equal(found, 1);
    free(pgn);
}

static void test_faulty_engines(void **state)
{
    (void)state;
    faulty("uci", "crash", "nodes = 500", "engine crash");
    faulty("uci", "illegal", "nodes = 500", "illegal move");
    faulty("uci", "garbage", "nodes = 500", "engine garbage");
    faulty("uci", "hang", "movetime = 50", "engine stall");
    /* the same of an xboard engine (carrera xboard behind the faulty front) */
    faulty("xboard", "crash", "depth = 2", "engine crash");
    faulty("xboard", "illegal", "depth = 2", "illegal move");
    faulty("xboard", "garbage", "depth = 2", "engine garbage");
    faulty("xboard", "hang", "movetime = 1000", "engine stall");
}

/* Writes to path the match of the resume tests: A against B (an Archbishop worth 700), Capablanca
 * chess at 2000 nodes, games games from the openings of seed, the result file output (NULL: the
 * command line's). */
static void write_ab_match(const char *path, int games, int seed, const char *output)
{
    char config[1024], out[600] = "";
    if (output)
        snprintf(out, sizeof out, "output = %s\n", output);
    snprintf(config, sizeof config,
             "[match]\nvariant = capablanca\ngames = %d\nrandom_plies = 4\nseed = %d\n"
             "concurrency = 2\nmax_plies = 160\n%s"
             "[player1]\nname = A\nnodes = 2000\n[player2]\nname = B\nnodes = 2000\n"
             "[player2.eval]\nValueArchbishopMg = 700\n",
             games, seed, out);
    write_text(path, config);
}

/* A match killed with SIGKILL in the middle and resumed: the same games as a run that was never
 * interrupted, each pair exactly once in the PGN file, the result file's totals complete. */
static void test_kill_and_resume(void **state)
{
    (void)state;
    char path[512], pgn[512], h5[512], whole[512];
    snprintf(path, sizeof path, "%s/resume.ini", scratch_dir);
    snprintf(pgn, sizeof pgn, "%s/resume.pgn", scratch_dir);
    snprintf(h5, sizeof h5, "%s/resume.h5", scratch_dir);
    snprintf(whole, sizeof whole, "%s/whole.pgn", scratch_dir);
    write_ab_match(path, 24, 3, h5);
    /* the uninterrupted run (its result whole.h5), to compare with */
    Run r = match(path, whole);
    assert_int_equal(r.status, 0);
    run_free(&r);

    /* killed once a few pairs are in the PGN file */
    const char *argv_k[] = {
        CARRERA_BIN, "match", "--config", path, "--pgn", pgn, "--quiet", NULL
    };
    assert_true(run_killed(argv_k, pgn, 6));

    const char *argv_r[] = { CARRERA_BIN, "match",    "--config", path, "--pgn",
                             pgn,         "--resume", "--quiet",  NULL };
    r = run_program(argv_r);
    if (r.status != 0)
        fail_msg("resume: status %d, stderr %s", r.status, r.err);
    assert_non_null(strstr(r.out, "24 games (12 pairs)"));
    run_free(&r);
    assert_int_equal(pgn_game_count(pgn), 24);
    expect_same_games(whole, pgn, 12);
    /* the result file read back: every game once, the pair counts, the summary */
    hid_t file = H5Fopen(h5, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(file >= 0);
    hid_t games = H5Dopen2(file, "/match/games", H5P_DEFAULT);
    assert_true(games >= 0);
    hid_t space = H5Dget_space(games);
    hsize_t rows = 0;
    H5Sget_simple_extent_dims(space, &rows, NULL);
    assert_int_equal(rows, 24);
    H5Sclose(space);
    H5Dclose(games);
    uint64_t penta[5] = { 0 }, played = 0;
    hid_t counts = H5Dopen2(file, "/match/pentanomial", H5P_DEFAULT);
    assert_true(counts >= 0);
    assert_true(H5Dread(counts, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, penta) >= 0);
    H5Dclose(counts);
    assert_int_equal(penta[0] + penta[1] + penta[2] + penta[3] + penta[4], 12);
    hid_t attr = H5Aopen_by_name(file, "/match", "games_played", H5P_DEFAULT, H5P_DEFAULT);
    assert_true(attr >= 0);
    assert_true(H5Aread(attr, H5T_NATIVE_UINT64, &played) >= 0);
    H5Aclose(attr);
    assert_int_equal(played, 24);
    /* every game's moves where its row says, in a file without a global heap */
    for (hsize_t i = 0; i < rows; i++) {
        char *moves = h5read_moves(file, i);
        assert_true(strlen(moves) > 0);
        free(moves);
    }
    H5Fclose(file);
    h5read_no_global_heap(h5);
    /* resuming a finished match plays nothing more; a different match is refused */
    r = run_program(argv_r);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "24 games (12 pairs)"));
    run_free(&r);
    write_ab_match(path, 26, 3, h5);
    r = run_program(argv_r);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "games"));
    run_free(&r);
}

/* The games of [match] in the file at path set to n. */
static void set_games(const char *path, int n)
{
    char *text = read_bytes(path, NULL), *line = strstr(text, "\ngames = ");
    assert_non_null(line);
    char out[2048];
    snprintf(out, sizeof out, "%.*s\ngames = %d%s", (int)(line - text), text, n,
             line + strcspn(line + 1, "\n") + 1);
    write_text(path, out);
    free(text);
}

/* A match of 8 games extended to 16 with --extend: the pairs played are kept, the new ones are
 * those of a 16-game match played whole, and the file plans 16 games from then on. A plain
 * resume of the longer file is refused, as are an extension to fewer games and one that changes
 * anything else. */
static void test_extend(void **state)
{
    (void)state;
    char path[512], pgn[512], h5[512], whole[512];
    snprintf(path, sizeof path, "%s/extend.ini", scratch_dir);
    snprintf(pgn, sizeof pgn, "%s/extend.pgn", scratch_dir);
    snprintf(h5, sizeof h5, "%s/extend.h5", scratch_dir);
    snprintf(whole, sizeof whole, "%s/extend-whole.pgn", scratch_dir);
    write_ab_match(path, 16, 5, NULL);
    Run r = match(path, whole);
    assert_int_equal(r.status, 0);
    run_free(&r);

    set_games(path, 8);
    r = match(path, pgn);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "8 games (4 pairs)"));
    run_free(&r);

    set_games(path, 16);
    r = match_with(path, pgn, "--resume");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "the checkpoint plans 8 games, this match 16"));
    run_free(&r);
    r = match_with(path, pgn, "--extend");
    if (r.status != 0)
        fail_msg("extend: status %d, stderr %s", r.status, r.err);
    assert_non_null(strstr(r.out, "16 games (8 pairs)"));
    run_free(&r);
    expect_same_games(whole, pgn, 8);
    hid_t file = H5Fopen(h5, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(file >= 0);
    assert_int_equal(h5read_u64(file, "/match", "games"), 16);
    char text[1024];
    h5read_str(file, "configuration", text, sizeof text);
    assert_non_null(strstr(text, "\ngames = 16\n"));
    hid_t group = H5Gopen2(file, "/match", H5P_DEFAULT);
    assert_true(group >= 0);
    h5read_str(group, "extensions", text, sizeof text);
    assert_string_equal(text, "resume 1: 8 to 16 games\n");
    H5Gclose(group);
    hid_t resume = H5Gopen2(file, "/resumes/1", H5P_DEFAULT);
    assert_true(resume >= 0);
    h5read_str(resume, "configuration", text, sizeof text);
    assert_non_null(strstr(text, "\ngames = 16\n"));
    H5Gclose(resume);
    H5Fclose(file);

    set_games(path, 12);
    r = match_with(path, pgn, "--extend");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "an extension cannot plan fewer"));
    run_free(&r);
    write_ab_match(path, 24, 6, NULL); /* more games, and another seed */
    r = match_with(path, pgn, "--extend");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "the configuration differs at line 5"));
    run_free(&r);
}

/* Openings from an EPD file, one line per pair in order; and a Marseillais match, whose PGN
 * writes turns in the source notation (1.e4/Nf3//e5/Nc6). */
static void test_openings_file_and_marseillais(void **state)
{
    (void)state;
    char openings[512], path[512], out[512], config[1024];
    snprintf(openings, sizeof openings, "%s/openings.epd", scratch_dir);
    write_text(openings,
               "# two openings\n"
               "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
               "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - ;c0 \"open game\"\n");
    snprintf(path, sizeof path, "%s/file.ini", scratch_dir);
    snprintf(out, sizeof out, "%s/file.pgn", scratch_dir);
    snprintf(config, sizeof config,
             "[match]\ngames = 4\nopenings = file %s\nmax_plies = 12\n"
             "[player1]\nnodes = 300\n[player2]\nnodes = 300\n",
             openings);
    write_text(path, config);
    Run r = match(path, out);
    if (r.status != 0)
        fail_msg("status %d, stderr %s", r.status, r.err);
    run_free(&r);
    char *pgn = read_bytes(out, NULL);
    char *first = game_of_round(pgn, "1.2"), *second = game_of_round(pgn, "2.1");
    assert_non_null(first);
    assert_non_null(second);
    assert_non_null(
        strstr(first, "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]"));
    assert_non_null(
        strstr(second, "[FEN \"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1\"]"));
    free(first);
    free(second);
    free(pgn);

    snprintf(path, sizeof path, "%s/marseillais.ini", scratch_dir);
    snprintf(out, sizeof out, "%s/marseillais.pgn", scratch_dir);
    write_text(path, "[match]\nturns = marseillais\ngames = 2\nmax_plies = 6\n"
                     "[player1]\nnodes = 300\n[player2]\nnodes = 300\n");
    r = match(path, out);
    if (r.status != 0)
        fail_msg("status %d, stderr %s", r.status, r.err);
    run_free(&r);
    pgn = read_bytes(out, NULL);
    assert_non_null(strstr(pgn, "[TurnRules \"marseillais\"]"));
    assert_non_null(strstr(pgn, "1."));
    assert_non_null(strstr(pgn, "//"));
    free(pgn);
}

/* A material-odds match: one block of pairs per imbalance, the other side loses what the side
 * under test (player 1) keeps, on both colours; a result line per imbalance; --extend refused. */
static void test_imbalances(void **state)
{
    (void)state;
    char path[512], out[512];
    snprintf(path, sizeof path, "%s/imbalance.ini", scratch_dir);
    snprintf(out, sizeof out, "%s/imbalance.pgn", scratch_dir);
    write_text(path, "[match]\nvariant = caparandom\nopenings = random\nimbalances = Q:A, P\n"
                     "games = 2\nmax_plies = 16\n[player1]\nnodes = 300\n[player2]\nnodes = 300\n");
    Run r = match(path, out);
    if (r.status != 0)
        fail_msg("status %d, stderr %s", r.status, r.err);
    assert_non_null(strstr(r.out, "4 games (2 pairs)"));
    assert_non_null(strstr(r.out, "\nQ:A             2  "));
    assert_non_null(strstr(r.out, "\nP               2  "));
    run_free(&r);
    char *pgn = read_bytes(out, NULL);
    /* pair 1 is Q:A: Black (the other side in game 1) has its Archbishop and no Queen, White its
     * Queen and no Archbishop; the colours reversed in game 2 */
    for (int game = 1; game <= 2; game++) {
        char round[8];
        snprintf(round, sizeof round, "1.%d", game);
        char *g = game_of_round(pgn, round);
        assert_non_null(g);
        const char *tag = strstr(g, "[FEN \"");
        assert_non_null(tag);
        char fen[FEN_MAX] = "";
        memcpy(fen, tag + 6, strcspn(tag + 6, "\""));
        const char *last_rank = strrchr(fen, '/') + 1;
        size_t first_len = strcspn(fen, "/"), last_len = strcspn(last_rank, " ");
        char black[16] = "", white[16] = "";
        memcpy(black, fen, first_len);
        memcpy(white, last_rank, last_len);
        const char *changed = game == 1 ? black : white, *kept = game == 1 ? white : black;
        char q = game == 1 ? 'q' : 'Q', a = game == 1 ? 'a' : 'A';
        char kq = game == 1 ? 'Q' : 'q', ka = game == 1 ? 'A' : 'a';
        assert_null(strchr(changed, q));
        assert_non_null(strchr(changed, a));
        assert_non_null(strchr(kept, kq));
        assert_null(strchr(kept, ka));
        free(g);
    }
    free(pgn);
    /* its pairs go to the imbalances by the number of games: it cannot be extended */
    r = match_with(path, out, "--extend");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--extend adds games to a plain match, not to a match of "
                                  "material imbalances"));
    run_free(&r);
    /* an imbalance the army cannot make is refused with the file's line */
    write_text(path, "[match]\nvariant = janus\ngames = 2\nimbalances = C:A\n"
                     "[player1]\nnodes = 300\n[player2]\nnodes = 300\n");
    r = match(path, out);
    assert_int_equal(r.status, 2);
    assert_non_null(
        strstr(r.err, "imbalance.ini:4: imbalance C:A: Black has no C to give up in janus"));
    run_free(&r);
}

/* A much stronger player 1 (many more nodes): an SPRT for 0 against 150 Elo accepts H1 long
 * before the 400 games, and the match stops handing out pairs. */
static void test_sprt_stops(void **state)
{
    (void)state;
    char path[512], out[512];
    snprintf(path, sizeof path, "%s/sprt.ini", scratch_dir);
    snprintf(out, sizeof out, "%s/sprt.pgn", scratch_dir);
    write_text(path, "[match]\nvariant = chess\ngames = 400\nrandom_plies = 6\nmax_plies = 200\n"
                     "resign_score = 800\nresign_moves = 2\n"
                     "sprt_elo0 = 0\nsprt_elo1 = 150\n"
                     "[player1]\nname = strong\nnodes = 4000\n"
                     "[player2]\nname = weak\nnodes = 50\n");
    Run r = match(path, out);
    if (r.status != 0)
        fail_msg("status %d, stderr %s", r.status, r.err);
    assert_non_null(strstr(r.out, "accept H1"));
    unsigned games = 0;
    const char *at = strstr(r.out, "games (");
    assert_non_null(at);
    while (at > r.out && at[-1] == ' ')
        at--;
    while (at > r.out && at[-1] >= '0' && at[-1] <= '9')
        at--;
    games = (unsigned)strtoul(at, NULL, 10);
    if (games == 0 || games >= 400)
        fail_msg("the SPRT did not stop the match: %u games\n%s", games, r.out);
    run_free(&r);
    /* extended to more games, the decided test plays none */
    set_games(path, 800);
    r = match_with(path, out, "--extend");
    if (r.status != 0)
        fail_msg("extend: status %d, stderr %s", r.status, r.err);
    assert_non_null(strstr(r.err, "the SPRT has decided"));
    assert_non_null(strstr(r.out, "accept H1"));
    char want[32];
    snprintf(want, sizeof want, " %u games (", games);
    assert_non_null(strstr(r.out, want));
    run_free(&r);
}

/* The same match under `mpiexec -n 2`: rank 0 and a worker play the pairs, and the games are
 * those of one process with one thread. */
static void test_mpi_same_games(void **state)
{
    (void)state;
    char config[512], path[512], one[512], two[512];
    snprintf(config, sizeof config, SELF_PLAY, 1);
    snprintf(path, sizeof path, "%s/mpi.ini", scratch_dir);
    snprintf(one, sizeof one, "%s/mpi-1.pgn", scratch_dir);
    snprintf(two, sizeof two, "%s/mpi-2.pgn", scratch_dir);
    write_text(path, config);
    Run r = match(path, one);
    assert_int_equal(r.status, 0);
    run_free(&r);
    char h5[512];
    snprintf(h5, sizeof h5, "%s/mpi-2.h5", scratch_dir);
    r = launched_match(path, two, h5);
    if (r.status != 0)
        fail_msg("mpiexec: status %d, stderr %s", r.status, r.err);
    assert_non_null(strstr(r.out, "8 games (4 pairs)"));
    run_free(&r);
    expect_same_games(one, two, 4);
}

/* Two external engines (`carrera uci`, each player its own process per game thread) over two
 * game threads at once: the UCI client then starts, sets up and questions engines from both
 * threads concurrently. Run under ThreadSanitizer (the tsan preset) it shows any state the client
 * shares between threads, such as strtok's hidden position in the string it splits; in any build
 * it checks that such a match plays every game without a fault. With hundreds of games, and under
 * mpiexec, it is the match that hung for good before issue #36 (an engine holding the pipes of
 * one another thread was starting): it must finish within its CTest TIMEOUT. */
static void test_external_engines_threads(void **state)
{
    (void)state;
    char config[1024], path[512], pgn[512], h5[512];
    snprintf(config, sizeof config,
             "[match]\nvariant = capablanca\ngames = %d\nrandom_plies = 4\nseed = 5\n"
             "concurrency = 2\nmax_plies = 60\n"
             "[player1]\nname = uci-a\nengine = uci\ncommand = %s uci\nnodes = 300\n"
             "[player2]\nname = uci-b\nengine = uci\ncommand = %s uci\nnodes = 300\n"
             "option.ValueArchbishopMg = 700\n",
             external_games, CARRERA_BIN, CARRERA_BIN);
    snprintf(path, sizeof path, "%s/external.ini", scratch_dir);
    snprintf(pgn, sizeof pgn, "%s/external.pgn", scratch_dir);
    snprintf(h5, sizeof h5, "%s/external.h5", scratch_dir);
    write_text(path, config);
    Run r = launched_match(path, pgn, h5);
    if (r.status != 0 || strstr(r.err, "ThreadSanitizer"))
        fail_msg("status %d, stderr %s", r.status, r.err);
    char played[64];
    snprintf(played, sizeof played, "%d games (%d pairs)", external_games, external_games / 2);
    if (!strstr(r.out, played))
        fail_msg("expected '%s' in:\n%s", played, r.out);
    /* nobody at fault: every game ended by the rules or adjudication */
    assert_null(strstr(r.out, "engine "));
    assert_null(strstr(r.out, "illegal move"));
    run_free(&r);
}

/* `test_match` runs the single-process tests; `test_match mpi MPIEXEC ARGS...` (up to seven
 * launcher words) the MPI one; `test_match external [GAMES [MPIEXEC ARGS...]]` the match of two
 * external engines on two threads alone (8 games: what the tsan preset runs, the whole suite
 * being too slow under ThreadSanitizer), on every rank of the launcher's when one is given. */
int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "external") == 0) {
        if (argc >= 3 && (external_games = atoi(argv[2])) < 2) {
            fprintf(stderr, "test_match external: GAMES must be 2 or more\n");
            return 2;
        }
        for (int i = 3; i < argc && i - 3 < 7; i++)
            mpi_launcher[i - 3] = argv[i];
        const struct CMUnitTest external[] = { cmocka_unit_test(test_external_engines_threads) };
        return cmocka_run_group_tests(external, scratch_setup, scratch_teardown);
    }
    if (argc >= 3 && strcmp(argv[1], "mpi") == 0) {
        for (int i = 2; i < argc && i - 2 < 7; i++)
            mpi_launcher[i - 2] = argv[i];
        const struct CMUnitTest mpi[] = { cmocka_unit_test(test_mpi_same_games) };
        return cmocka_run_group_tests(mpi, scratch_setup, scratch_teardown);
    }
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_same_games_any_threads),
        cmocka_unit_test(test_search_section_plays),
        cmocka_unit_test(test_against_fairy_stockfish),
        cmocka_unit_test(test_threads_player),
        cmocka_unit_test(test_faulty_engines),
        cmocka_unit_test(test_openings_file_and_marseillais),
        cmocka_unit_test(test_imbalances),
        cmocka_unit_test(test_sprt_stops),
        cmocka_unit_test(test_kill_and_resume),
        cmocka_unit_test(test_extend),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
