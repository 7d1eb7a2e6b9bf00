/* SPDX-License-Identifier: MIT */
/* `carrera tune` end to end: the [tune] section's errors; the imbalance method iterated (the
 * second iteration plays with the first one's values, both recorded); SPSA with its whole
 * trajectory recomputed here from the games in the file, the same with one thread, two threads
 * and two ranks, and after a kill and --resume; what a killed tune run and a killed regression
 * leave at their files' names; the regression over the games of earlier result files;
 * scripts/plot-tuning drawing each kind of result. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
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
#include "pgn_games.h"
#include "run.h"

#if !defined(CARRERA_BIN) || !defined(CARRERA_PLOT_TUNING)
#error "CARRERA_BIN and CARRERA_PLOT_TUNING must be defined"
#endif

/* The MPI launcher and its arguments (test_tune mpi ...), NULL-padded. */
static const char *mpi_launcher[7];

/* scratch_dir/name.ext */
static void path_of(char *out, size_t len, const char *name, const char *ext)
{
    snprintf(out, len, "%s/%s.%s", scratch_dir, name, ext);
}

/* Writes scratch_dir/name.ini and runs carrera tune on it (PGN and result file
 * scratch_dir/name.pgn, .h5), under the MPI launcher when mpi is set. */
static Run tune(const char *name, const char *config, bool mpi)
{
    char ini[512], pgn[512], h5[512];
    path_of(ini, sizeof ini, name, "ini");
    path_of(pgn, sizeof pgn, name, "pgn");
    path_of(h5, sizeof h5, name, "h5");
    write_bytes(ini, config, strlen(config));
    const char *argv[24];
    int n = 0;
    for (int i = 0; mpi && i < 7 && mpi_launcher[i]; i++)
        argv[n++] = mpi_launcher[i];
    const char *rest[] = { CARRERA_BIN, "tune",  "--config", ini,       "--pgn",
                           pgn,         "--out", h5,         "--quiet", NULL };
    memcpy(argv + n, rest, sizeof rest);
    return run_program(argv);
}

static void expect_error(const char *config, int status, const char *message)
{
    Run r = tune("bad", config, false);
    if (r.status != status || !strstr(r.err, message))
        fail_msg("status %d, stderr '%s'; expected %d and '%s'", r.status, r.err, status, message);
    run_free(&r);
}

/* ---- reading result files ---- */

/* A dataset of doubles, malloc'd, with its dimensions (rank 1 or 2; dims[1] = 1 for rank 1). */
static double *read_doubles(const char *path, const char *name, hsize_t dims[2])
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        fail_msg("cannot open %s", path);
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    if (d < 0)
        fail_msg("%s: no dataset %s", path, name);
    hid_t s = H5Dget_space(d);
    dims[0] = dims[1] = 1;
    assert_true(H5Sget_simple_extent_ndims(s) <= 2);
    H5Sget_simple_extent_dims(s, dims, NULL);
    double *v = calloc(dims[0] * dims[1] + 1, sizeof *v);
    assert_non_null(v);
    assert_true(dims[0] * dims[1] == 0 ||
                H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    H5Sclose(s);
    H5Dclose(d);
    H5Fclose(f);
    return v;
}

/* A scalar attribute as a double (numbers) or into text (strings). */
static double read_number(const char *path, const char *object, const char *name)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t a = H5Aopen_by_name(f, object, name, H5P_DEFAULT, H5P_DEFAULT);
    if (a < 0)
        fail_msg("%s: no attribute %s on %s", path, name, object);
    double v = NAN;
    assert_true(H5Aread(a, H5T_NATIVE_DOUBLE, &v) >= 0);
    H5Aclose(a);
    H5Fclose(f);
    return v;
}

static void read_text(const char *path, const char *object, const char *name, char *out, size_t len)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t o = H5Oopen(f, object, H5P_DEFAULT);
    if (o < 0)
        fail_msg("%s: no %s", path, object);
    h5read_str(o, name, out, len);
    H5Oclose(o);
    H5Fclose(f);
}

/* Player 1's score in every game of /match/games, by pair (2 per pair), and the pairs' count. */
static double *pair_scores(const char *path, size_t *pairs)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t d = H5Dopen2(f, "/match/games", H5P_DEFAULT);
    assert_true(d >= 0);
    hid_t s = H5Dget_space(d);
    hsize_t rows;
    H5Sget_simple_extent_dims(s, &rows, NULL);
    typedef struct Row {
        uint64_t pair;
        uint8_t game;
        double score;
    } Row;
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(Row));
    H5Tinsert(t, "pair", offsetof(Row, pair), H5T_NATIVE_UINT64);
    H5Tinsert(t, "game", offsetof(Row, game), H5T_NATIVE_UINT8);
    H5Tinsert(t, "player1_score", offsetof(Row, score), H5T_NATIVE_DOUBLE);
    Row *r = calloc(rows + 1, sizeof *r);
    assert_non_null(r);
    assert_true(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, r) >= 0);
    *pairs = rows / 2;
    double *scores = calloc(rows + 1, sizeof *scores);
    bool *seen = calloc(rows + 1, sizeof *seen);
    assert_non_null(scores);
    assert_non_null(seen);
    for (hsize_t i = 0; i < rows; i++) {
        assert_true(r[i].pair < *pairs && (r[i].game == 1 || r[i].game == 2));
        size_t at = 2 * r[i].pair + r[i].game - 1;
        if (seen[at])
            fail_msg("%s: game %u of pair %llu recorded twice", path, r[i].game,
                     (unsigned long long)r[i].pair + 1);
        seen[at] = true;
        scores[at] = r[i].score;
    }
    free(seen);
    free(r);
    H5Tclose(t);
    H5Sclose(s);
    H5Dclose(d);
    H5Fclose(f);
    return scores;
}

static void expect_same_doubles(const char *a, const char *b, const char *name)
{
    hsize_t da[2], db[2];
    double *x = read_doubles(a, name, da), *y = read_doubles(b, name, db);
    assert_int_equal(da[0], db[0]);
    assert_int_equal(da[1], db[1]);
    for (hsize_t i = 0; i < da[0] * da[1]; i++)
        if (x[i] != y[i])
            fail_msg("%s differs at %llu: %.17g in %s, %.17g in %s", name, (unsigned long long)i,
                     x[i], a, y[i], b);
    free(x);
    free(y);
}

/* Runs scripts/plot-tuning on a result file and checks the PNGs it says it wrote. */
static void expect_plots(const char *h5, int at_least)
{
    char out[512];
    snprintf(out, sizeof out, "%s/plots", scratch_dir);
    const char *argv[] = { CARRERA_PLOT_TUNING, h5, "--out", out, NULL };
    Run r = run_program(argv);
    if (r.status != 0)
        fail_msg("plot-tuning %s: status %d\n%s\n%s", h5, r.status, r.out, r.err);
    int pngs = 0;
    for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
        char *png = strstr(line, ".png");
        if (!png)
            continue;
        png[4] = '\0';
        char *start = strchr(line, '/');
        struct stat st;
        if (!start || stat(start, &st) != 0 || st.st_size < 1000)
            fail_msg("plot-tuning said '%s' but wrote no picture there", line);
        static const unsigned char magic[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
        size_t len;
        unsigned char *bytes = (unsigned char *)read_bytes(start, &len);
        assert_true(len > 8 && memcmp(bytes, magic, 8) == 0);
        free(bytes);
        pngs++;
    }
    if (pngs < at_least)
        fail_msg("plot-tuning %s wrote %d pictures, expected %d or more", h5, pngs, at_least);
    run_free(&r);
}

/* ---- the tests ---- */

static void test_config_errors(void **state)
{
    (void)state;
    const char *players = "[player1]\nnodes = 100\n[player2]\nnodes = 100\n";
    char c[1024];
    expect_error("[match]\ngames = 2\n[player1]\nnodes = 100\n[player2]\nnodes = 100\n", 2,
                 "a tune run needs imbalances");
    snprintf(c, sizeof c, "[match]\ngames = 2\n[tune]\nmethod = annealing\n%s", players);
    expect_error(c, 2, "bad.ini:4: bad value 'annealing' for method");
    snprintf(c, sizeof c, "[match]\ngames = 2\n[tune]\nmethod = spsa\niterations = 3\n%s", players);
    expect_error(c, 2, "bad.ini:2: method = spsa plays iterations x pairs_per_iteration");
    snprintf(c, sizeof c, "[match]\n[tune]\nmethod = spsa\n%s", players);
    expect_error(c, 2, "bad.ini:2: method = spsa needs iterations = N");
    snprintf(c, sizeof c,
             "[match]\n[tune]\nmethod = spsa\niterations = 2\nparams = ValueWizardMg\n%s", players);
    expect_error(c, 2, "bad.ini:5: params: 'ValueWizardMg' is no evaluation or search parameter");
    snprintf(c, sizeof c,
             "[match]\n[tune]\nmethod = spsa\niterations = 2\nparams = RfpStep\n"
             "RfpStep = 5, 300, 20, 0.002\n%s",
             players);
    expect_error(c, 2, "bad.ini:6: RfpStep: bounds 5, 300 must satisfy 10 <= MIN < MAX <= 1000");
    snprintf(c, sizeof c,
             "[match]\n[tune]\nmethod = spsa\niterations = 2\nparams = RfpStep, rfpstep\n%s",
             players);
    expect_error(c, 2, "bad.ini:5: params: RfpStep named twice");
    snprintf(c, sizeof c,
             "[match]\n[tune]\nmethod = spsa\niterations = 2\nparams = ValueArchbishopMg\n"
             "ValueArchbishopMg = 900, 800, 20, 0.002\n%s",
             players);
    expect_error(c, 2, "bad.ini:6: ValueArchbishopMg: bounds 900, 800 must satisfy");
    snprintf(c, sizeof c,
             "[match]\n[tune]\nmethod = spsa\niterations = 2\nparams = ValueArchbishopMg\n"
             "ValueArchbishopMg = 500, 800, 20, 0.002\n%s",
             players);
    expect_error(c, 2, "[tune]: ");
    expect_error("[match]\n[tune]\nmethod = spsa\niterations = 2\n[player1]\nnodes = 100\n"
                 "[player2]\nengine = uci\ncommand = /bin/false\nnodes = 100\n",
                 2, "both must be Carrera's engine");
    snprintf(c, sizeof c, "[match]\ngames = 2\n[tune]\nmethod = imbalance\n%s", players);
    expect_error(c, 2, "method = imbalance needs imbalances");
    snprintf(c, sizeof c, "[match]\ngames = 2\nimbalances = Q:A*0, P\n%s", players);
    expect_error(c, 2, "the weight after * must be a whole number from 1 to 100");
    snprintf(c, sizeof c, "[match]\ngames = 2\n[tune]\nmethod = regression\ngames = a.h5\n%s",
             players);
    expect_error(c, 2, "games = FILES reads recorded games and plays none");
    expect_error("[tune]\nmethod = spsa\niterations = 2\n", 2, "no [match] section");
    /* a sweep: rising node counts, no iterations, players limited by nodes alone */
    const char *sweep_errors[][2] = {
        { "nodes = 800, 200", "bad.ini:5: bad value '800, 200' for nodes" },
        { "nodes = 200", "bad.ini:5: bad value '200' for nodes" },
        { "nodes = 200, 800\niterations = 2", "bad.ini:6: nodes = ... plays the design once" },
        { "plan_pawn_logit = 0", "bad.ini:5: bad value '0' for plan_pawn_logit" },
        { "plan_draw_rate = 1", "bad.ini:5: bad value '1' for plan_draw_rate" },
        { "method = regression\nplan_draw_rate = 0.2", "plan_draw_rate is a setting of method = "
                                                       "imbalance" },
    };
    for (size_t i = 0; i < sizeof sweep_errors / sizeof *sweep_errors; i++) {
        snprintf(c, sizeof c, "[match]\ngames = 2\nimbalances = P\n[tune]\n%s\n%s",
                 sweep_errors[i][0], players);
        expect_error(c, 2, sweep_errors[i][1]);
    }
    snprintf(c, sizeof c, "[match]\n[tune]\nmethod = spsa\niterations = 2\nnodes = 200, 800\n%s",
             players);
    expect_error(c, 2,
                 "bad.ini:5: nodes = N1, N2, ... (a convergence study) is for method = "
                 "imbalance");
    expect_error("[match]\ngames = 2\nimbalances = P\n[tune]\nnodes = 200, 800\n[player1]\n"
                 "depth = 3\n[player2]\nnodes = 100\n",
                 2,
                 "bad.ini:5: nodes = ... in [tune] sets the nodes per turn of each stage: "
                 "[player1] must be limited by nodes alone");
    expect_error("[tune]\nmethod = regression\ngames = /nonexistent/a.h5\n", 2,
                 "/nonexistent/a.h5");
    /* a design that cannot separate the pieces is refused after its games */
    Run r = tune("singular",
                 "[match]\nvariant = capablanca\nimbalances = Q:A, P\ngames = 2\n"
                 "max_plies = 20\n[player1]\nnodes = 200\n[player2]\nnodes = 200\n",
                 false);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "no piece values: the imbalance tests cannot separate"));
    run_free(&r);
}

/* Iterations: both players start with an Archbishop worth 25 pawns, far outside what the first
 * iteration measures, so the second plays with the first one's values. (Player 1 searches far
 * deeper than player 2, a lopsided match whose scores are clear after few games: the values only
 * show the mechanics; that the fit recovers values is test_tune_stats'.) */
static const char *const ITERATED =
    "[match]\nvariant = caparandom\nopenings = random\n"
    "imbalances = Q:A, A:RN, R:NP, N:PPP, P*2\ngames = 8\nmax_plies = 150\n"
    "resign_score = 800\nresign_moves = 2\n"
    "[tune]\niterations = 3\n"
    "[player1]\nnodes = 1500\n[player2]\nnodes = 30\n"
    "[player1.eval]\nValueArchbishopMg = 2500\nValueArchbishopEg = 2500\n"
    "[player2.eval]\nValueArchbishopMg = 2500\nValueArchbishopEg = 2500\n";

static void test_imbalance_iterations(void **state)
{
    (void)state;
    Run r = tune("iterated", ITERATED, false);
    if (r.status != 0)
        fail_msg("status %d\n%s\n%s", r.status, r.out, r.err);
    assert_non_null(strstr(r.out, "iteration 1 played with: N 3.00 B 3.50 R 4.75 A 25.00"));
    assert_non_null(strstr(r.out, "piece values of iteration 1"));
    assert_non_null(strstr(r.out, "iteration 2 played with:"));
    run_free(&r);
    char h5[512];
    path_of(h5, sizeof h5, "iterated", "h5");
    hsize_t dp[2], dv[2], dl[2], dh[2], ds[2];
    double *played = read_doubles(h5, "/tune/iterations/played", dp);
    double *value = read_doubles(h5, "/tune/iterations/value", dv);
    double *lo = read_doubles(h5, "/tune/iterations/value_lo", dl);
    double *hi = read_doubles(h5, "/tune/iterations/value_hi", dh);
    double *score = read_doubles(h5, "/tune/iterations/score", ds);
    assert_true(dp[0] >= 2 && dp[0] <= 3 && dp[1] == 7);
    assert_int_equal(dv[0], dp[0]);
    assert_int_equal(ds[1], 5);
    assert_true(played[4] == 25.0);
    for (hsize_t k = 0; k < dp[0]; k++) {
        assert_true(value[k * 7] == 1.0);
        for (int p = 1; p < 7; p++)
            if (value[k * 7 + p] != 0)
                assert_true(lo[k * 7 + p] < value[k * 7 + p] && value[k * 7 + p] < hi[k * 7 + p]);
    }
    /* iteration 2 plays what iteration 1 measured (its piece values rounded to the centipawn) */
    static const int fitted[] = { 1, 3, 4, 6 }; /* N R A Q */
    for (int i = 0; i < 4; i++)
        assert_true(fabs(played[7 + fitted[i]] - value[fitted[i]]) <= 0.005 + 1e-9);
    /* the final values are the last iteration's */
    hsize_t dfin[2];
    double *final = read_doubles(h5, "/tune/value", dfin);
    assert_int_equal(dfin[0], 7);
    for (int p = 0; p < 7; p++)
        assert_true(final[p] == value[(dp[0] - 1) * 7 + p]);
    /* every game of every iteration is in /match/games, each pair once */
    size_t pairs;
    free(pair_scores(h5, &pairs));
    assert_int_equal(pairs, dp[0] * 24);
    free(final);
    free(played);
    free(value);
    free(lo);
    free(hi);
    free(score);
    expect_plots(h5, 2);
}

/* A convergence sweep: the design once at 150 and once at 600 nodes per turn, each stage fitted
 * alone with its own nodes, recorded per stage, in the PGN's limits, and in the games' nodes;
 * check-config prints the sweep and the plan. */
static void test_imbalance_sweep(void **state)
{
    (void)state;
    const char *config = "[match]\nvariant = caparandom\nopenings = random\n"
                         "imbalances = Q:A, A:RN, R:NPP, N:PPP, P*2\ngames = 4\nmax_plies = 120\n"
                         "resign_score = 800\nresign_moves = 2\n"
                         "[tune]\nnodes = 150, 600\n"
                         "[player1]\nnodes = 5000\n[player2]\nnodes = 5000\n";
    Run r = tune("sweep", config, false);
    if (r.status > 1)
        fail_msg("status %d\n%s\n%s", r.status, r.out, r.err);
    assert_non_null(strstr(r.out, "of stage 1 at 150 nodes per turn"));
    assert_non_null(strstr(r.out, "of stage 2 at 600 nodes per turn"));
    run_free(&r);
    char h5[512], pgn_path[512], ini[512];
    path_of(h5, sizeof h5, "sweep", "h5");
    path_of(pgn_path, sizeof pgn_path, "sweep", "pgn");
    path_of(ini, sizeof ini, "sweep", "ini");
    hsize_t dn[2];
    double *nodes = read_doubles(h5, "/tune/iterations/nodes", dn);
    assert_int_equal(dn[0], 2);
    assert_true(nodes[0] == 150 && nodes[1] == 600);
    free(nodes);
    size_t pairs;
    free(pair_scores(h5, &pairs));
    assert_int_equal(pairs, 2 * 12); /* 12 pairs a stage: 2 games x 6 units of weight */
    /* the PGN's games say their stage's limits: pairs 1 to 12 at 150, 13 to 24 at 600 */
    char *pgn = read_bytes(pgn_path, NULL);
    assert_non_null(strstr(pgn, "[Round \"1.1\"]"));
    int low = 0, high = 0;
    for (const char *at = pgn; (at = strstr(at, "nodes ")) != NULL; at++) {
        low += strncmp(at, "nodes 150;", 10) == 0 || strncmp(at, "nodes 150}", 10) == 0;
        high += strncmp(at, "nodes 600;", 10) == 0 || strncmp(at, "nodes 600}", 10) == 0;
        assert_true(strncmp(at, "nodes 5000", 10) != 0);
    }
    assert_int_equal(low, 2 * 24); /* two players in each of 24 games */
    assert_int_equal(high, 2 * 24);
    free(pgn);
    const char *argv[] = { CARRERA_BIN, "check-config", ini, NULL };
    r = run_program(argv);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "tune imbalance, a sweep over 2 node counts"));
    assert_non_null(strstr(r.out, "plan of the 5 imbalances"));
    assert_non_null(strstr(r.out, "a pawn worth 0.40 logits, draw rate 0.15"));
    assert_non_null(strstr(r.out, "optimal weight"));
    assert_non_null(strstr(r.out, "\n  A-(R+N) "));
    run_free(&r);
}

/* The plan of a design played by external engines, whose values Carrera cannot know, assumes
 * Carrera's defaults and says so (it once divided by a pawn of 0 and refused the file). */
static void test_plan_of_external_engines(void **state)
{
    (void)state;
    static const char *const engines[] = { "uci", "xboard" };
    for (int i = 0; i < 2; i++) {
        char config[1024], ini[512];
        snprintf(config, sizeof config,
                 "[match]\nvariant = capablanca\nimbalances = Q:A, A:RN, R:NPP, N:PPP, P*2\n"
                 "games = 20\n[tune]\nmethod = imbalance\n"
                 "[player1]\nengine = %s\ncommand = /usr/games/fairymax\ndepth = 4\n"
                 "[player2]\nengine = %s\ncommand = /usr/games/fairymax\ndepth = 4\n",
                 engines[i], engines[i]);
        path_of(ini, sizeof ini, engines[i], "ini");
        write_bytes(ini, config, strlen(config));
        const char *argv[] = { CARRERA_BIN, "check-config", ini, NULL };
        Run r = run_program(argv);
        if (r.status != 0)
            fail_msg("%s: status %d\n%s\n%s", engines[i], r.status, r.out, r.err);
        assert_contains(r.out, "plan of the 5 imbalances");
        assert_contains(r.out, "of Carrera's default evaluation (player 1 is an external engine)");
        assert_contains(r.out, "\n  A-(R+N) ");
        run_free(&r);
    }
}

/* A design without pawns is fitted all the same: its results are ratios, to the Queen, with
 * Fieller's and the bootstrap's intervals, stored as such. */
static void test_pawn_free(void **state)
{
    (void)state;
    Run r = tune("pawn-free",
                 "[match]\nvariant = caparandom\nopenings = random\nseed = 3\n"
                 "imbalances = Q:A, Q:RR, A:RN, R:BN, C:A, RR:AN, B:N\ngames = 8\n"
                 "max_plies = 120\nresign_score = 800\nresign_moves = 2\n"
                 "[player1]\nnodes = 200\n[player2]\nnodes = 200\n",
                 false);
    if (r.status != 0)
        fail_msg("status %d\n%s\n%s", r.status, r.out, r.err);
    assert_non_null(strstr(r.out, "piece values (ratios: no pawn in the design;"));
    /* the fit's table: ratios only, no value in pawns */
    char *table = strstr(r.out, "piece values (ratios"), *end = strstr(r.out, "(bootstrap:");
    assert_true(table && end && end > table);
    *end = '\0';
    assert_non_null(strstr(table, "\n  A/Q "));
    assert_non_null(strstr(table, "\n  R/Q "));
    assert_null(strstr(table, "\n  A "));
    run_free(&r);
    char h5[512];
    path_of(h5, sizeof h5, "pawn-free", "h5");
    hid_t f = H5Fopen(h5, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t d = H5Dopen2(f, "/tune/quantities", H5P_DEFAULT), t = H5Dget_type(d),
          sp = H5Dget_space(d);
    assert_true(d >= 0 && t >= 0 && sp >= 0);
    const size_t size = H5Tget_size(t), n = (size_t)H5Sget_simple_extent_npoints(sp);
    char *names = calloc(n * size + 1, 1);
    assert_true(names && H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, names) >= 0);
    bool ratio = false;
    for (size_t i = 0; i < n; i++) {
        assert_non_null(strchr(names + i * size, '/'));
        ratio = ratio || strcmp(names + i * size, "A/C") == 0;
    }
    assert_true(n > 0 && ratio);
    free(names);
    H5Sclose(sp);
    H5Tclose(t);
    H5Dclose(d);
    H5Fclose(f);
}

/* SPSA over the Archbishop's value and the search's reverse futility margin (an evaluation and
 * a search parameter, so that the players' search parameters too must reach every game, over
 * MPI as well): 5 iterations of 2 pairs. */
static const char *const SPSA =
    "[match]\nvariant = caparandom\nopenings = random\nseed = 11\nmax_plies = 120\n"
    "resign_score = 800\nresign_moves = 2\nconcurrency = %d\n"
    "[tune]\nmethod = spsa\niterations = %d\npairs_per_iteration = 2\n"
    "params = ValueArchbishopMg, RfpStep\n"
    "ValueArchbishopMg = 600, 1200, 40, 0.05\n"
    "RfpStep = 20, 400, 60, 0.05\n"
    "[player1]\nnodes = 400\n[player2]\nnodes = 400\n";

/* theta of every iteration recomputed from the file's games, schedule and signs, as
 * docs/statistics.md's SPSA says: theta_k+1 = clip(theta_k + a_k / c_k r_k delta_k). */
static void expect_spsa_trajectory(const char *h5, int iterations)
{
    hsize_t dt[2], dd[2], dr[2], dx[2];
    double *theta = read_doubles(h5, "/tune/theta", dt);
    double *delta = read_doubles(h5, "/tune/delta", dd);
    double *result = read_doubles(h5, "/tune/result", dr);
    double *a = read_doubles(h5, "/tune/a", dx), *c = read_doubles(h5, "/tune/c", dx);
    double *min = read_doubles(h5, "/tune/min", dx), *max = read_doubles(h5, "/tune/max", dx);
    double A = read_number(h5, "/tune", "A"), alpha = read_number(h5, "/tune", "alpha"),
           gamma = read_number(h5, "/tune", "gamma");
    size_t m = dx[0];
    assert_int_equal(m, 2);
    assert_int_equal(dt[0], (hsize_t)iterations + 1);
    assert_int_equal(dd[0], (hsize_t)iterations);
    assert_int_equal(dr[0], (hsize_t)iterations);
    assert_true(theta[0] == 875 && theta[1] == 120); /* the default values */
    assert_true(min[0] == 600 && max[0] == 1200 && min[1] == 20 && max[1] == 400);
    size_t pairs;
    double *score = pair_scores(h5, &pairs);
    assert_int_equal(pairs, 2 * (size_t)iterations);
    for (int k = 0; k < iterations; k++) {
        double r = 0;
        for (int g = 0; g < 4; g++)
            r += 2 * score[4 * k + g] - 1;
        assert_true(result[k] == r);
        for (size_t i = 0; i < m; i++) {
            double d = delta[(size_t)k * m + i];
            assert_true(d == 1 || d == -1);
            double a_k = a[i] / pow(A + k + 1, alpha), c_k = c[i] / pow(k + 1, gamma);
            double want = theta[(size_t)k * m + i] + a_k / c_k * r * d;
            want = want < min[i] ? min[i] : want > max[i] ? max[i] : want;
            assert_true(fabs(theta[(size_t)(k + 1) * m + i] - want) < 1e-9);
        }
    }
    char fit[64];
    read_text(h5, "/tune", "fit", fit, sizeof fit);
    assert_string_equal(fit, "ok");
    free(score);
    free(theta);
    free(delta);
    free(result);
    free(a);
    free(c);
    free(min);
    free(max);
}

static void test_spsa(void **state)
{
    (void)state;
    char config[1024];
    for (int threads = 1; threads <= 2; threads++) {
        snprintf(config, sizeof config, SPSA, threads, 5);
        Run r = tune(threads == 1 ? "spsa-1" : "spsa-2", config, false);
        if (r.status != 0)
            fail_msg("status %d\n%s\n%s", r.status, r.out, r.err);
        assert_non_null(strstr(r.out, "SPSA: 5 of 5 iterations (2 game pairs each)"));
        run_free(&r);
    }
    char one[512], two[512];
    path_of(one, sizeof one, "spsa-1", "h5");
    path_of(two, sizeof two, "spsa-2", "h5");
    expect_spsa_trajectory(one, 5);
    expect_same_doubles(one, two, "/tune/theta");
    expect_plots(one, 1);
    path_of(one, sizeof one, "spsa-1", "pgn");
    path_of(two, sizeof two, "spsa-2", "pgn");
    expect_same_games(one, two, 10);
}

/* Killed in the middle and resumed: the same trajectory as a run never killed, each pair once. */
static void test_spsa_kill_and_resume(void **state)
{
    (void)state;
    char config[1024], ini[512], pgn[512], h5[512], whole[512];
    snprintf(config, sizeof config, SPSA, 2, 8);
    Run r = tune("spsa-whole", config, false);
    assert_int_equal(r.status, 0);
    run_free(&r);
    path_of(ini, sizeof ini, "spsa-killed", "ini");
    path_of(pgn, sizeof pgn, "spsa-killed", "pgn");
    path_of(h5, sizeof h5, "spsa-killed", "h5");
    path_of(whole, sizeof whole, "spsa-whole", "h5");
    write_bytes(ini, config, strlen(config));
    const char *argv[] = { CARRERA_BIN, "tune",  "--config", ini,       "--pgn",
                           pgn,         "--out", h5,         "--quiet", NULL };
    assert_true(run_killed(argv, pgn, 13)); /* in the middle of the fourth iteration */
    const char *resume[] = { CARRERA_BIN, "tune", "--config", ini,       "--pgn", pgn,
                             "--out",     h5,     "--resume", "--quiet", NULL };
    r = run_program(resume);
    if (r.status != 0)
        fail_msg("resume: status %d\n%s\n%s", r.status, r.out, r.err);
    run_free(&r);
    expect_spsa_trajectory(h5, 8);
    expect_same_doubles(whole, h5, "/tune/theta");
}

/* Whether the root of the file at path has the attribute name. */
static bool root_has(const char *path, const char *name)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        fail_msg("cannot open %s", path);
    htri_t has = H5Aexists(f, name);
    H5Fclose(f);
    return has > 0;
}

/* How many files lie beside path under its name and a suffix: the temporaries of its making,
 * path.new-PID-K, and of its replacing, path.tmp. */
static int temporaries_of(const char *path)
{
    const char *name = strrchr(path, '/') + 1;
    size_t n = strlen(name);
    DIR *d = opendir(scratch_dir);
    assert_non_null(d);
    int found = 0;
    for (struct dirent *e = readdir(d); e; e = readdir(d))
        found += strncmp(e->d_name, name, n) == 0 && e->d_name[n] == '.';
    closedir(d);
    return found;
}

/* Runs argv, its output thrown away, with files limited to limit bytes and SIGXFSZ left to kill
 * it: a write past the limit ends it there, as a kill in the middle of writing a file would.
 * Returns its exit status, or 128 + the signal that ended it. */
static int run_killed_writing(const char *const *argv, rlim_t limit)
{
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit size = { limit, limit }, core = { 0, 0 };
        int null = open("/dev/null", O_RDWR);
        signal(SIGXFSZ, SIG_DFL);
        if (setrlimit(RLIMIT_FSIZE, &size) != 0 || setrlimit(RLIMIT_CORE, &core) != 0 || null < 0 ||
            dup2(null, STDIN_FILENO) < 0 || dup2(null, STDOUT_FILENO) < 0 ||
            dup2(null, STDERR_FILENO) < 0)
            _exit(126);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status;
    assert_true(waitpid(pid, &status, 0) == pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* What a killed tune job leaves at its file's name (docs/result-files.md, "Tune results"): a tune
 * run killed midway nothing but a checkpoint, which --resume completes and publishes; a
 * regression killed while it writes its file nothing at all, and the same command then publishes
 * the file whole, the killed one's temporary file notwithstanding. */
static void test_killed_files(void **state)
{
    (void)state;
    char config[1024], ini[512], pgn[512], h5[512], text[32];
    snprintf(config, sizeof config, SPSA, 1, 4);
    path_of(ini, sizeof ini, "killed-run", "ini");
    path_of(pgn, sizeof pgn, "killed-run", "pgn");
    path_of(h5, sizeof h5, "killed-run", "h5");
    write_bytes(ini, config, strlen(config));
    const char *argv[] = { CARRERA_BIN, "tune", "--config", ini,  "--pgn", pgn,
                           "--out",     h5,     "--quiet",  NULL, NULL };
    assert_true(run_killed(argv, pgn, 6)); /* in the second of four iterations */
    read_text(h5, "/", "format", text, sizeof text);
    assert_string_equal(text, "carrera-match");
    assert_false(root_has(h5, "end_time"));
    assert_int_equal(temporaries_of(h5), 0);
    argv[9] = "--resume";
    Run r = run_program(argv);
    if (r.status != 0)
        fail_msg("resume: status %d\n%s\n%s", r.status, r.out, r.err);
    run_free(&r);
    assert_true(root_has(h5, "end_time"));
    assert_true(read_number(h5, "/", "resumed") == 1);
    expect_spsa_trajectory(h5, 4);
    assert_int_equal(temporaries_of(h5), 0);

    char out[512];
    path_of(ini, sizeof ini, "killed-regression", "ini");
    path_of(out, sizeof out, "killed-regression", "h5");
    snprintf(config, sizeof config, "[tune]\nmethod = regression\ngames = %s\n", h5);
    write_bytes(ini, config, strlen(config));
    const char *fit[] = { CARRERA_BIN, "tune", "--config", ini, "--out", out, NULL };
    assert_int_equal(run_killed_writing(fit, 2048), 128 + SIGXFSZ);
    assert_int_equal(access(out, F_OK), -1);
    assert_int_equal(temporaries_of(out), 1);
    r = run_program(fit);
    if (!strstr(r.err, "result: "))
        fail_msg("again: status %d\n%s\n%s", r.status, r.out, r.err);
    run_free(&r);
    read_text(out, "/", "format", text, sizeof text);
    assert_string_equal(text, "carrera-tune");
    assert_int_equal(temporaries_of(out), 1);
}

/* The regression over the games of the earlier runs' files: a result file of its own, with the
 * numbers of the regression the iterated run made over the same games. */
static void test_regression_sources(void **state)
{
    (void)state;
    char iterated[512], config[1024];
    path_of(iterated, sizeof iterated, "iterated", "h5");
    snprintf(config, sizeof config, "[tune]\nmethod = regression\ngames = %s\n", iterated);
    char ini[512], out[512];
    path_of(ini, sizeof ini, "regression", "ini");
    path_of(out, sizeof out, "regression", "h5");
    write_bytes(ini, config, strlen(config));
    const char *argv[] = { CARRERA_BIN, "tune", "--config", ini, "--out", out, NULL };
    Run r = run_program(argv);
    /* a lopsided match's games may separate the results by material: then no values, and exit 1 */
    char fit[600], own[600];
    read_text(out, "/tune/regression", "fit", fit, sizeof fit);
    read_text(iterated, "/tune/regression", "fit", own, sizeof own);
    assert_string_equal(fit, own);
    /* a tune file of its own: its format and layout, no global heap in it or in the match's */
    char format[32];
    read_text(out, "/", "format", format, sizeof format);
    assert_string_equal(format, "carrera-tune");
    assert_true(read_number(out, "/", "format_version") == 2);
    h5read_no_global_heap(out);
    h5read_no_global_heap(iterated);
    assert_int_equal(r.status, strcmp(fit, "ok") == 0 ? 0 : 1);
    assert_true(read_number(out, "/tune/regression", "samples") ==
                read_number(iterated, "/tune/regression", "samples"));
    assert_true(read_number(out, "/tune/regression", "games") == 3 * 2 * 24 ||
                read_number(out, "/tune/regression", "games") == 2 * 2 * 24);
    if (strcmp(fit, "ok") == 0) {
        expect_same_doubles(out, iterated, "/tune/regression/value");
        expect_plots(out, 1);
    }
    run_free(&r);
    /* the same file again is refused: a result is never overwritten */
    r = run_program(argv);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "already exists"));
    run_free(&r);
}

/* Bad files for the plotting script: clear messages, no traceback. */
static void test_plot_errors(void **state)
{
    (void)state;
    char text[512], match[512];
    path_of(text, sizeof text, "not-hdf5", "h5");
    write_bytes(text, "hello\n", 6);
    const char *missing[] = { CARRERA_PLOT_TUNING, "/nonexistent.h5", NULL };
    const char *garbage[] = { CARRERA_PLOT_TUNING, text, NULL };
    const char *const *cases[] = { missing, garbage };
    for (int i = 0; i < 2; i++) {
        Run r = run_program(cases[i]);
        assert_true(r.status != 0);
        assert_null(strstr(r.err, "Traceback"));
        assert_true(strlen(r.err) > 0);
        run_free(&r);
    }
    /* a match result without /tune */
    snprintf(match, sizeof match, "%s/plain.ini", scratch_dir);
    const char *plain = "[match]\ngames = 2\nmax_plies = 10\n[player1]\nnodes = 50\n"
                        "[player2]\nnodes = 50\n";
    write_bytes(match, plain, strlen(plain));
    char h5[512], pgn[512];
    path_of(h5, sizeof h5, "plain", "h5");
    path_of(pgn, sizeof pgn, "plain", "pgn");
    const char *play[] = { CARRERA_BIN, "match", "--config", match,     "--out",
                           h5,          "--pgn", pgn,        "--quiet", NULL };
    Run r = run_program(play);
    assert_int_equal(r.status, 0);
    run_free(&r);
    const char *plot[] = { CARRERA_PLOT_TUNING, h5, NULL };
    r = run_program(plot);
    assert_true(r.status != 0);
    assert_non_null(strstr(r.err, "carrera tune"));
    assert_null(strstr(r.err, "Traceback"));
    run_free(&r);
}

/* The same SPSA run under `mpiexec -n 2`: rank 0 hands out each iteration's pairs with its
 * players' values, and the trajectory is the single process's. */
static void test_mpi_spsa(void **state)
{
    (void)state;
    char config[1024], one[512], two[512];
    snprintf(config, sizeof config, SPSA, 1, 4);
    Run r = tune("mpi-1", config, false);
    assert_int_equal(r.status, 0);
    run_free(&r);
    r = tune("mpi-2", config, true);
    if (r.status != 0)
        fail_msg("mpiexec: status %d\n%s\n%s", r.status, r.out, r.err);
    run_free(&r);
    path_of(one, sizeof one, "mpi-1", "h5");
    path_of(two, sizeof two, "mpi-2", "h5");
    expect_spsa_trajectory(two, 4);
    expect_same_doubles(one, two, "/tune/theta");
    /* the same games: the players' parameters reached the other rank's games as they reached
     * rank 0's */
    path_of(one, sizeof one, "mpi-1", "pgn");
    path_of(two, sizeof two, "mpi-2", "pgn");
    expect_same_games(one, two, 8);
}

/* `test_tune` runs the single-process tests; `test_tune mpi MPIEXEC ARGS...` the MPI one. */
int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "mpi") == 0) {
        for (int i = 2; i < argc && i - 2 < 7; i++)
            mpi_launcher[i - 2] = argv[i];
        const struct CMUnitTest mpi[] = { cmocka_unit_test(test_mpi_spsa) };
        return cmocka_run_group_tests(mpi, scratch_setup, scratch_teardown);
    }
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_imbalance_iterations),
        cmocka_unit_test(test_imbalance_sweep),
        cmocka_unit_test(test_plan_of_external_engines),
        cmocka_unit_test(test_pawn_free),
        cmocka_unit_test(test_spsa),
        cmocka_unit_test(test_spsa_kill_and_resume),
        cmocka_unit_test(test_killed_files),
        cmocka_unit_test(test_regression_sources),
        cmocka_unit_test(test_plot_errors),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
