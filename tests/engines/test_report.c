/* SPDX-License-Identifier: MIT */
/* `carrera report` end to end: a tiny real tune run reported (every section there, the pair
 * counts of the page those the file's /tune stored, the values those `carrera tune` printed,
 * the SVG files whole); two runs at other nodes per turn compared (the comparison table and the
 * convergence plot); files that cannot be analysed (a plain match, a perft result, a missing
 * file, a file that is not HDF5) and bad options refused with status 2, the former naming the
 * file and the cause. */
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

#include <hdf5.h>

#include "files.h"
#include "run.h"

#ifndef CARRERA_BIN
#error "CARRERA_BIN must be defined"
#endif

/* Six imbalance tests over P N R A Q (one degree of freedom), 48 games at 400 nodes per turn;
 * the second run the same at 200 nodes. Node limits make the games the same at every run. */
static const char *const RUN =
    "[match]\nvariant = caparandom\nopenings = random\nseed = 7\n"
    "imbalances = PPP*3, N:PP, R:N, R:PPPP, A:RN, Q:A\ngames = 6\nmax_plies = 100\n"
    "resign_score = 500\nresign_moves = 3\n"
    "[tune]\nmethod = imbalance\n"
    "[player1]\nnodes = %d\n[player2]\nnodes = %d\n";
static const char *const TESTS[] = { "PPP", "N:PP", "R:N", "R:PPPP", "A:RN", "Q:A" };
enum { N_TESTS = 6 };

/* What `carrera tune` printed for the first run. */
static char *tune_out;

static void path_of(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", scratch_dir, name);
}

/* Writes scratch_dir/name.ini and plays it with `carrera COMMAND` into name.h5. */
static Run play(const char *command, const char *name, const char *config)
{
    char ini[512], pgn[512], h5[512];
    snprintf(ini, sizeof ini, "%s/%s.ini", scratch_dir, name);
    snprintf(pgn, sizeof pgn, "%s/%s.pgn", scratch_dir, name);
    snprintf(h5, sizeof h5, "%s/%s.h5", scratch_dir, name);
    write_bytes(ini, config, strlen(config));
    const char *argv[] = { CARRERA_BIN, command, "--config", ini,       "--pgn",
                           pgn,         "--out", h5,         "--quiet", NULL };
    return run_program(argv);
}

static int setup(void **state)
{
    if (scratch_setup(state) != 0)
        return -1;
    char config[1024];
    snprintf(config, sizeof config, RUN, 400, 400);
    Run r = play("tune", "run400", config);
    /* exit status 1 only when the fit failed: the report must then say so too */
    if (r.status != 0 && !strstr(r.out, "no piece values")) {
        fprintf(stderr, "carrera tune: status %d\n%s\n%s\n", r.status, r.out, r.err);
        return -1;
    }
    tune_out = r.out;
    r.out = NULL;
    run_free(&r);
    snprintf(config, sizeof config, RUN, 200, 200);
    r = play("tune", "run200", config);
    int status = r.status;
    run_free(&r);
    return status <= 1 ? 0 : -1;
}

static int teardown(void **state)
{
    free(tune_out);
    return scratch_teardown(state);
}

/* Runs carrera report with the arguments (NULL-terminated). */
static Run report(const char *first, ...)
{
    const char *argv[32] = { CARRERA_BIN, "report", first };
    int n = 3;
    va_list ap;
    va_start(ap, first);
    for (const char *a = first ? va_arg(ap, const char *) : NULL; a && n < 31;
         a = va_arg(ap, const char *))
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    return run_program(argv);
}

/* The SVG files the report printed are there and whole; returns how many. */
static int expect_svgs(const char *out)
{
    int n = 0;
    for (const char *line = out; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > 4 && strncmp(line + len - 4, ".svg", 4) == 0) {
            char path[1024];
            snprintf(path, sizeof path, "%.*s", (int)len, line);
            size_t size;
            char *svg = read_bytes(path, &size);
            if (size < 200 || strncmp(svg, "<svg", 4) != 0 || !strstr(svg + size - 8, "</svg>"))
                fail_msg("%s is not a whole SVG file", path);
            free(svg);
            n++;
        }
        line = end ? end + 1 : line + len;
    }
    return n;
}

/* /tune/pairs of the file at path, [N_TESTS][5]. */
static void tune_pairs(const char *path, uint64_t pairs[N_TESTS][5])
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t d = H5Dopen2(f, "/tune/pairs", H5P_DEFAULT);
    assert_true(d >= 0);
    hid_t s = H5Dget_space(d);
    hsize_t dims[2];
    assert_int_equal(H5Sget_simple_extent_dims(s, dims, NULL), 2);
    assert_int_equal(dims[0], N_TESTS);
    assert_int_equal(dims[1], 5);
    assert_true(H5Dread(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, pairs) >= 0);
    H5Sclose(s);
    H5Dclose(d);
    H5Fclose(f);
}

/* The cells of the table row of md that begins "| first |", as numbers: cells[0] is the first
 * cell after it. Returns how many were read. */
static int row_numbers(const char *md, const char *first, double *cells, int max)
{
    char start[64];
    snprintf(start, sizeof start, "\n| %s |", first);
    const char *row = strstr(md, start);
    if (!row)
        fail_msg("the report has no row '%s'", first);
    row += strlen(start);
    int n = 0;
    while (n < max && *row && *row != '\n') {
        char *end;
        cells[n] = strtod(row, &end);
        if (end == row)
            cells[n] = -1;
        n++;
        row = strchr(row, '|');
        if (!row)
            break;
        row++;
    }
    return n;
}

static void test_one_run(void **state)
{
    (void)state;
    char h5[512], md[512];
    path_of(h5, sizeof h5, "run400.h5");
    path_of(md, sizeof md, "run400-report/report.md");
    Run r = report(h5, "--replicates", "300", NULL);
    if (r.status != 0)
        fail_msg("status %d\n%s\n%s", r.status, r.out, r.err);
    assert_contains(r.out, md);
    assert_true(expect_svgs(r.out) >= 2);
    char *page = read_bytes(md, NULL);
    static const char *const sections[] = { "# Piece values", "## Run 1",
                                            "| imbalance |",  "#### What would falsify this",
                                            "## Provenance",  "| git revision |",
                                            "carrera report " };
    for (size_t i = 0; i < sizeof sections / sizeof *sections; i++)
        assert_contains(page, sections[i]);
    assert_true(strstr(page, "## Comparison") == NULL);
    /* the pair counts of the page are /tune's */
    uint64_t pairs[N_TESTS][5];
    tune_pairs(h5, pairs);
    for (int t = 0; t < N_TESTS; t++) {
        double cells[8];
        assert_true(row_numbers(page, TESTS[t], cells, 8) >= 7);
        for (int c = 0; c < 5; c++)
            if (cells[2 + c] != (double)pairs[t][c])
                fail_msg("%s: class %d has %g pairs in the report, %llu in /tune/pairs", TESTS[t],
                         c, cells[2 + c], (unsigned long long)pairs[t][c]);
    }
    assert_contains(page, "equal to the games of the last complete stage");
    /* the values are those carrera tune printed (2 decimals) */
    /* Which of the fit's three outcomes these few games give depends on the engine's play: no
     * fit, a fit whose pawn is not bounded (ratios only, the tables still printed), values. */
    const char *values = strstr(tune_out, "piece values (pawns");
    if (!values && !strstr(tune_out, "(ratios only: the pawn is not yet bounded")) {
        assert_contains(page, "**No piece values:**");
    } else if (!values) {
        assert_contains(page, "**No piece values in pawns:**");
        assert_contains(page, "#### Fit");
        assert_contains(page, "#### Residuals");
    } else {
        static const char *const fitted[] = { "N", "R", "A", "Q" };
        for (int k = 0; k < 4; k++) {
            char line[16];
            snprintf(line, sizeof line, "\n  %s ", fitted[k]);
            const char *at = strstr(values, line);
            assert_non_null(at);
            double printed = strtod(at + strlen(line), NULL), cells[2];
            assert_true(row_numbers(page, fitted[k], cells, 2) >= 1);
            if (cells[0] != printed)
                fail_msg("%s: %.2f in the report, %.2f printed by carrera tune", fitted[k],
                         cells[0], printed);
        }
        static const char *const tables[] = { "#### Fit",       "| chi² |",
                                              "#### Residuals", "#### Leave one test out",
                                              "#### Brackets",  "Fieller 95%",
                                              "bootstrap 95%" };
        for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
            assert_contains(page, tables[i]);
    }
    free(page);
    run_free(&r);
}

static void test_two_runs(void **state)
{
    (void)state;
    char a[512], b[512], out[512], md[512];
    path_of(a, sizeof a, "run400.h5");
    path_of(b, sizeof b, "run200.h5");
    path_of(out, sizeof out, "both");
    Run r = report(a, b, "--out", out, "--replicates", "200", "--title", "Two <runs> & more", NULL);
    if (r.status != 0)
        fail_msg("status %d\n%s\n%s", r.status, r.out, r.err);
    path_of(md, sizeof md, "both/report.md");
    assert_contains(r.out, md);
    assert_contains(r.out, "both/convergence.svg");
    assert_true(expect_svgs(r.out) >= 1);
    char *page = read_bytes(md, NULL);
    assert_contains(page, "# Two <runs> & more");
    assert_contains(page, "## Run 2");
    assert_contains(page, "## Comparison");
    assert_contains(page, "400 nodes | #2 player1, 200 nodes |");
    assert_contains(page, "![convergence](convergence.svg)");
    assert_contains(page, "Against player 1's nodes per turn (log2 axis)");
    free(page);
    run_free(&r);
}

/* A copy of the run whose /tune/pairs no longer match its games: a warning on the page and on
 * stderr, the games' counts reported. */
static void test_cross_check(void **state)
{
    (void)state;
    char a[512], copy[512], out[512], md[512];
    path_of(a, sizeof a, "run400.h5");
    path_of(copy, sizeof copy, "altered.h5");
    path_of(out, sizeof out, "altered");
    size_t n;
    void *bytes = read_bytes(a, &n);
    write_bytes(copy, bytes, n);
    free(bytes);
    uint64_t pairs[N_TESTS][5];
    tune_pairs(copy, pairs);
    pairs[1][0] += 7;
    hid_t f = H5Fopen(copy, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t d = H5Dopen2(f, "/tune/pairs", H5P_DEFAULT);
    assert_true(d >= 0 &&
                H5Dwrite(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, pairs) >= 0);
    H5Dclose(d);
    H5Fclose(f);
    Run r = report(copy, "--out", out, "--replicates", "50", NULL);
    assert_int_equal(r.status, 0);
    assert_contains(r.err, "warning");
    assert_contains(r.err, "N:PP: /tune/pairs");
    path_of(md, sizeof md, "altered/report.md");
    char *page = read_bytes(md, NULL);
    assert_contains(page, "## Warnings");
    assert_contains(page, "**DIFFERS**");
    free(page);
    run_free(&r);
}

static void expect_refused(const char *path, const char *cause)
{
    Run r = report(path, NULL);
    if (r.status != 2 || !strstr(r.err, path) || !strstr(r.err, cause))
        fail_msg("status %d, stderr '%s'; expected 2, '%s' and '%s'", r.status, r.err, path, cause);
    run_free(&r);
}

static void test_files_refused(void **state)
{
    (void)state;
    char path[512];
    Run r = play("match", "plain",
                 "[match]\nvariant = capablanca\ngames = 2\nmax_plies = 20\n"
                 "[player1]\nnodes = 50\n[player2]\nnodes = 50\n");
    assert_int_equal(r.status, 0);
    run_free(&r);
    path_of(path, sizeof path, "plain.h5");
    expect_refused(path, "has no imbalances");
    path_of(path, sizeof path, "perft.h5");
    const char *perft[] = { CARRERA_BIN, "perft", "--startpos", "--depth", "2",
                            "--out",     path,    "--quiet",    NULL };
    r = run_program(perft);
    assert_int_equal(r.status, 0);
    run_free(&r);
    expect_refused(path, "carrera-perft");
    path_of(path, sizeof path, "missing.h5");
    expect_refused(path, "missing.h5");
    path_of(path, sizeof path, "text.h5");
    write_bytes(path, "not hdf5\n", 9);
    expect_refused(path, "not an HDF5 file");
}

static void expect_usage(const char *first, ...)
{
    const char *argv[8] = { CARRERA_BIN, "report" };
    int n = 2;
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && n < 7; a = va_arg(ap, const char *))
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    Run r = run_program(argv);
    if (r.status != 2 || !strstr(r.err, "carrera: error: "))
        fail_msg("%s: status %d, stderr '%s'; expected a usage error", first ? first : "(none)",
                 r.status, r.err);
    run_free(&r);
}

static void test_usage(void **state)
{
    (void)state;
    expect_usage(NULL, NULL);
    expect_usage("a.h5", "--replicates", "0", NULL);
    expect_usage("a.h5", "--replicates", "many", NULL);
    expect_usage("a.h5", "--bogus", NULL);
    expect_usage("a.h5", "--out", NULL);
    expect_usage("a.h5", "--title", "x", "--title", "y", NULL);
    const char *help[] = { CARRERA_BIN, "report", "--help", NULL };
    Run r = run_program(help);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "usage: carrera report RESULT.h5...");
    run_free(&r);
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_run),     cmocka_unit_test(test_two_runs),
        cmocka_unit_test(test_cross_check), cmocka_unit_test(test_files_refused),
        cmocka_unit_test(test_usage),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, setup, teardown);
}
