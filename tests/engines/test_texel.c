/* SPDX-License-Identifier: MIT */
/* `carrera texel-data` and `carrera texel-fit` end to end: two tiny matches (chess and
 * Capablanca under the classic Marseillais rules) into a data file whose record names both and
 * whose rows read back; a short fit of it whose [eval] file `carrera bench --eval` loads and whose
 * summary gives every class; bad files and options refused with status 2 naming the cause. */
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

#include "files.h"
#include "run.h"

#ifndef CARRERA_BIN
#error "CARRERA_BIN must be defined"
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
        cmocka_unit_test(fit_writes_an_eval_file_the_engine_loads),
        cmocka_unit_test(bad_input_is_refused),
    };
    return cmocka_run_group_tests(tests, setup, scratch_teardown);
}
