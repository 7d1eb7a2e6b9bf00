/* SPDX-License-Identifier: MIT */
/* `carrera texel-data`, `carrera texel-label` and `carrera texel-fit` end to end: two tiny matches
 * (chess and Capablanca under the classic Marseillais rules) into a data file whose record names
 * both and whose rows read back; the same rows labelled by `carrera uci`'s search (the same labels
 * from one engine or two, a weight of 1 giving back the games' results, White's expectation on
 * either side to move) and by Fairy-Stockfish's on Capablanca random arrays; a short fit of it
 * whose [eval] file `carrera bench --eval` loads and whose summary gives every class; bad files and
 * options refused with status 2 naming the cause. */
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
#include <unistd.h>

#include "files.h"
#include "run.h"

#if !defined(CARRERA_BIN) || !defined(CARRERA_FAIRY_STOCKFISH)
#error "CARRERA_BIN and CARRERA_FAIRY_STOCKFISH must be defined"
#endif

/* Node limits make the games the same at every run; the players differ so the two games of a
 * pair do. */
static const char *const MATCH =
    "[match]\nvariant = %s\nturns = %s\ngames = %d\nrandom_plies = 6\nseed = 3\n"
    "max_plies = 160\nresign_score = 800\nresign_moves = 2\n"
    "[player1]\nnodes = 300\n[player2]\nnodes = 400\n";

static char chess_h5[512], capa_h5[512], data[512];

static void path_of(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", scratch_dir, name);
}

static Run carrera(const char *const *args)
{
    const char *argv[16] = { CARRERA_BIN };
    int n = 1;
    while (args[n - 1] && n < 15) {
        argv[n] = args[n - 1];
        n++;
    }
    argv[n] = NULL;
    return run_program(argv);
}

static int play(const char *name, const char *variant, const char *turns, int games, char *h5,
                size_t len)
{
    char ini[512], pgn[512], config[512];
    path_of(ini, sizeof ini, name);
    strcat(ini, ".ini");
    snprintf(h5, len, "%s/%s.h5", scratch_dir, name);
    snprintf(pgn, sizeof pgn, "%s/%s.pgn", scratch_dir, name);
    snprintf(config, sizeof config, MATCH, variant, turns, games);
    write_bytes(ini, config, strlen(config));
    Run r = carrera(
        (const char *[]){ "match", "--config", ini, "--out", h5, "--pgn", pgn, "--quiet", NULL });
    int status = r.status;
    if (status != 0)
        fprintf(stderr, "carrera match: status %d\n%s\n", r.status, r.err);
    run_free(&r);
    return status;
}

static int setup(void **state)
{
    if (scratch_setup(state) != 0)
        return -1;
    path_of(data, sizeof data, "positions.tsv");
    return play("chess", "chess", "single", 8, chess_h5, sizeof chess_h5) ||
           play("capa", "capablanca", "marseillais", 4, capa_h5, sizeof capa_h5);
}

static void data_file_is_made_with_its_record(void **state)
{
    (void)state;
    Run r = carrera((const char *[]){ "texel-data", chess_h5, capa_h5, "--out", data,
                                      "--skip-plies", "8", "--quiet", NULL });
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "games: 12 in 6 pairs");
    run_free(&r);
    size_t n;
    char *text = read_bytes(data, &n);
    assert_true(strncmp(text, "# carrera texel positions 1\n# made: ", 36) == 0);
    assert_contains(text, "# command: carrera texel-data ");
    assert_contains(text, ": chess, single turns, 8 games, played by carrera ");
    assert_contains(text, ": capablanca, marseillais turns, 4 games");
    assert_contains(text, "(carrera, nodes 300) against player2 (carrera, nodes 400)");
    assert_contains(text, "from turn 9 on");
    assert_contains(text, "\nresult\tvariant\tturns\tpair\tfen\n");
    assert_contains(text, "\tchess\tsingle\t0\t");
    /* the double-move games give positions too, from either of their pairs (4 and 5) */
    assert_true(strstr(text, "\tcapablanca\tmarseillais\t4\t") ||
                strstr(text, "\tcapablanca\tmarseillais\t5\t"));
    free(text);
}

/* The rows of the data file at path after its column header, and their count. */
static char *rows_of(const char *path, int *count)
{
    size_t n;
    char *text = read_bytes(path, &n);
    char *rows = strstr(text, "result\tvariant\tturns\tpair\tfen\n");
    assert_non_null(rows);
    rows = strdup(rows);
    free(text);
    *count = 0;
    for (const char *c = rows; *c; c++)
        *count += *c == '\n';
    return rows;
}

static Run label(const char *in, const char *out, const char *jobs, const char *weight)
{
    return carrera((const char *[]){ "texel-label", in, "--engine", CARRERA_BIN " uci", "--go",
                                     "depth 2", "--jobs", jobs, "--weight", weight, "--out", out,
                                     "--quiet", NULL });
}

static void labels_come_from_a_search(void **state)
{
    (void)state;
    char one[512], two[512], same[512];
    path_of(one, sizeof one, "labelled1.tsv");
    path_of(two, sizeof two, "labelled2.tsv");
    path_of(same, sizeof same, "weight1.tsv");
    Run r = label(data, one, "1", "0");
    if (r.status != 0)
        fail_msg("status %d: %s", r.status, r.err);
    assert_contains(r.out, "labels: White's expectation from Carrera ");
    run_free(&r);
    r = label(data, two, "2", "0");
    assert_int_equal(r.status, 0);
    run_free(&r);
    r = label(data, same, "2", "1");
    assert_int_equal(r.status, 0);
    run_free(&r);
    int n_data, n_one, n_two, n_same;
    char *rows = rows_of(data, &n_data), *rows1 = rows_of(one, &n_one),
         *rows2 = rows_of(two, &n_two), *rows_same = rows_of(same, &n_same);
    assert_true(n_data > 20);
    assert_int_equal(n_one, n_data);
    assert_int_equal(n_two, n_data);
    assert_string_equal(rows1, rows2); /* each position from a new game: jobs change nothing */
    assert_string_equal(rows_same, rows);
    /* labels are expectations, not results: some lie strictly between them */
    int between = 0;
    for (const char *line = strchr(rows1, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
        double v = strtod(line, NULL);
        assert_true(v >= 0 && v <= 1);
        between += v > 0 && v < 1 && v != 0.5;
    }
    assert_true(between > n_data / 2);
    char *text = read_bytes(one, &(size_t){ 0 });
    assert_contains(text, "# command: carrera texel-data "); /* the source's record kept */
    assert_contains(text, "# labelled: ");
    assert_contains(text, "`go depth 2` from a new game in each position");
    free(text);
    free(rows);
    free(rows1);
    free(rows2);
    free(rows_same);
}

/* White a queen up: White's expectation near 1 with either side to move. */
static void labels_are_whites(void **state)
{
    (void)state;
    char in[512], out[512];
    path_of(in, sizeof in, "queen.tsv");
    path_of(out, sizeof out, "queen-labelled.tsv");
    const char *text = "# carrera texel positions 1\nresult\tvariant\tturns\tpair\tfen\n"
                       "0\tchess\tsingle\t0\t4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 30\n"
                       "0\tchess\tsingle\t0\t4k3/pppp4/8/8/8/8/PPPP4/3QK3 b - - 0 30\n";
    write_bytes(in, text, strlen(text));
    Run r = label(in, out, "1", "0.5");
    assert_int_equal(r.status, 0);
    run_free(&r);
    int n;
    char *rows = rows_of(out, &n);
    assert_int_equal(n, 3);
    const char *line = strchr(rows, '\n') + 1;
    for (int i = 0; i < 2; i++, line = strchr(line, '\n') + 1) {
        double v = strtod(line, NULL); /* half the game's 0, half an expectation near 1 */
        if (!(v > 0.45 && v <= 0.5))
            fail_msg("row %d: label %g", i, v);
    }
    free(rows);
}

/* The engine the labels are for: Fairy-Stockfish on Capablanca random arrays (UCI_Variant
 * caparandom with UCI_Chess960). */
static void fairy_stockfish_labels(void **state)
{
    (void)state;
    if (access(CARRERA_FAIRY_STOCKFISH, X_OK) != 0)
        skip();
    char in[512], out[512];
    path_of(in, sizeof in, "caparandom.tsv");
    path_of(out, sizeof out, "caparandom-labelled.tsv");
    const char *text =
        "# carrera texel positions 1\nresult\tvariant\tturns\tpair\tfen\n"
        "1\tcaparandom\tsingle\t0\trbqnkcnabr/pppppppppp/10/10/10/10/PPPPPPPPPP/RBQNKCNABR w "
        "KQkq - 0 1\n"
        "1\tcaparandom\tsingle\t0\trb1nkcnabr/pppppppppp/10/10/10/10/PPPPPPPPPP/RBQNKCNABR b "
        "KQkq - 0 1\n";
    write_bytes(in, text, strlen(text));
    Run r = carrera((const char *[]){ "texel-label", in, "--engine", CARRERA_FAIRY_STOCKFISH,
                                      "--go", "nodes 2000", "--out", out, NULL });
    if (r.status != 0)
        fail_msg("status %d: %s", r.status, r.err);
    assert_contains(r.out, "Fairy-Stockfish");
    run_free(&r);
    int n;
    char *rows = rows_of(out, &n);
    assert_int_equal(n, 3);
    const char *line = strchr(rows, '\n') + 1;
    double start = strtod(line, NULL), queen_up = strtod(strchr(line, '\n') + 1, NULL);
    if (!(start > 0.3 && start < 0.7 && queen_up > 0.9))
        fail_msg("labels %g (the start) and %g (White a queen up)", start, queen_up);
    free(rows);
}

static void fit_writes_an_eval_file_the_engine_loads(void **state)
{
    (void)state;
    char out[512];
    path_of(out, sizeof out, "fitted.ini");
    Run r = carrera((const char *[]){ "texel-fit", data, "--out", out, "--iterations", "30",
                                      "--validation", "30", "--params",
                                      "ValuePawnMg,ValuePawnEg,Tempo", "--quiet", NULL });
    if (r.status != 0)
        fail_msg("status %d: %s", r.status, r.err);
    assert_contains(r.out, "K = ");
    assert_contains(r.out, "  8x8 single-move ");
    assert_contains(r.out, "  double-move ");
    assert_contains(r.out, "fitted: ");
    run_free(&r);
    size_t n;
    char *text = read_bytes(out, &n);
    assert_contains(text, "\n[eval]\nValuePawnMg = ");
    assert_contains(text, "ValueKnightMg = 300 ; not fitted\n");
    assert_contains(text, ";   source: ");
    free(text);
    r = carrera((const char *[]){ "bench", "--depth", "2", "--eval", out, NULL });
    assert_int_equal(r.status, 0);
    run_free(&r);
}

static void bad_input_is_refused(void **state)
{
    (void)state;
    char text_file[512], out[512];
    path_of(text_file, sizeof text_file, "not-data.tsv");
    path_of(out, sizeof out, "x.ini");
    write_bytes(text_file, "hello\n", 6);
    const struct {
        const char *args[12];
        const char *says;
    } cases[] = {
        { { "texel-data", chess_h5, NULL }, "--out" },
        { { "texel-data", "--out", out, NULL }, "match result files" },
        { { "texel-data", "missing.h5", "--out", out, NULL }, "missing.h5" },
        { { "texel-data", text_file, "--out", out, NULL }, "not-data.tsv" },
        { { "texel-data", chess_h5, "--out", out, "--skip-plies", "-1", NULL }, "--skip-plies" },
        { { "texel-fit", data, NULL }, "--out" },
        { { "texel-fit", text_file, "--out", out, NULL }, "not a Texel data file" },
        { { "texel-fit", data, "--out", out, "--params", "ValuePawn", NULL }, "'ValuePawn'" },
        { { "texel-fit", data, "--out", out, "--validation", "0", NULL }, "--validation" },
        { { "texel-fit", data, "--out", out, "--rate", "x", NULL }, "--rate" },
        { { "texel-fit", data, "--out", out, "--bogus", NULL }, "--bogus" },
        { { "texel-label", data, "--out", out, NULL }, "--engine" },
        { { "texel-label", data, "--engine", "carrera-no-such-engine", "--out", out, NULL },
          "carrera-no-such-engine" },
        { { "texel-label", data, "--engine", CARRERA_BIN " uci", "--out", out, "--weight", "2",
            NULL },
          "--weight" },
        { { "texel-label", data, "--engine", CARRERA_BIN " uci", "--out", out, "--jobs", "0",
            NULL },
          "--jobs" },
        { { "texel-label", text_file, "--engine", CARRERA_BIN " uci", "--out", out, NULL },
          "not a Texel data file" },
        { { "texel-label", data, "--engine", CARRERA_BIN " uci", "--out", out, "--go", "bogus 3",
            NULL },
          "--go" },
        { { "texel-label", data, "--engine", CARRERA_BIN " uci", "--out", out, "--go",
            "nodes 100 depth", NULL },
          "--go" },
        { { "texel-label", data, "--engine", "/bin/false", "--out", out, NULL }, "position 1" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Run r = carrera(cases[i].args);
        if (r.status != 2 || !strstr(r.err, cases[i].says))
            fail_msg("case %zu: status %d, stderr '%s' (want 2 and '%s')", i, r.status, r.err,
                     cases[i].says);
        run_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(data_file_is_made_with_its_record),
        cmocka_unit_test(labels_come_from_a_search),
        cmocka_unit_test(labels_are_whites),
        cmocka_unit_test(fairy_stockfish_labels),
        cmocka_unit_test(fit_writes_an_eval_file_the_engine_loads),
        cmocka_unit_test(bad_input_is_refused),
    };
    return cmocka_run_group_tests(tests, setup, scratch_teardown);
}
