/* SPDX-License-Identifier: MIT */
/* `carrera verify` as an engine author meets it, driving the built program: against
 * tests/engines/fake_engine.c with several planted bugs at once (each found, grouped, each group's
 * example checked in the core and by bisect), through the perftree script protocol, against an
 * engine that crashes or hangs on one position, a suite with a wrong count, a run killed and
 * resumed, every usage error (status 2) and engines that cannot be used (status 3). With the
 * argument `oracle`, hundreds of positions per variant against Fairy-Stockfish and Stockfish,
 * where nothing may be found. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errmsg.h"
#include "files.h"
#include "move.h"
#include "position.h"
#include "run.h"
#include "setup.h"
#include "turn.h"
#include "variant.h"

#if !defined(CARRERA_BIN) || !defined(FAKE_ENGINE) || !defined(CARRERA_SOURCE)
#error "CARRERA_BIN, FAKE_ENGINE and CARRERA_SOURCE must be defined"
#endif
#ifndef CARRERA_FAIRY_STOCKFISH
#define CARRERA_FAIRY_STOCKFISH "/usr/games/fairy-stockfish"
#endif
#ifndef CARRERA_STOCKFISH
#define CARRERA_STOCKFISH "/usr/games/stockfish"
#endif

#define PERFTREE_UCI CARRERA_SOURCE "/scripts/perftree-uci"
#define UCI_PERFT    CARRERA_SOURCE "/scripts/uci-perft"
#define START        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#define KIWIPETE     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
#define POSITION3    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
#define MAX_ARGS     32

/* Runs `carrera COMMAND` with the NULL-terminated arguments after it. */
static Run carrera(const char *command, ...)
{
    va_list ap;
    va_start(ap, command);
    const char *argv[MAX_ARGS + 3] = { CARRERA_BIN, command };
    int argc = 2;
    for (const char *a = va_arg(ap, const char *); a; a = va_arg(ap, const char *)) {
        assert_true(argc < MAX_ARGS + 2);
        argv[argc++] = a;
    }
    va_end(ap);
    argv[argc] = NULL;
    return run_program(argv);
}

#define verify(...) carrera("verify", __VA_ARGS__)
#define bisect(...) carrera("bisect", __VA_ARGS__)

static void expect_status(const Run *r, int status)
{
    if (r->status != status)
        fail_msg("exit status %d, expected %d\nstdout:\n%s\nstderr:\n%s", r->status, status, r->out,
                 r->err);
}

/* The usage error's one line names the cause. */
static void expect_usage(const Run *r, const char *message)
{
    expect_status(r, 2);
    if (!strstr(r->err, "carrera: error: ") || !strstr(r->err, message))
        fail_msg("expected 'carrera: error: ...%s...', got:\n%s", message, r->err);
}

/* The value of the line starting with label (label included) at or after from, into out. */
static void line_value(const char *from, const char *label, char *out, size_t outlen)
{
    const char *at = strstr(from, label);
    if (!at)
        fail_msg("no line '%s...' in:\n%s", label, from);
    at += strlen(label);
    size_t len = strcspn(at, "\n");
    assert_true(len < outlen);
    memcpy(out, at, len);
    out[len] = '\0';
}

static int count_of(const char *text, const char *part)
{
    int n = 0;
    for (const char *at = strstr(text, part); at; at = strstr(at + 1, part))
        n++;
    return n;
}

/* ---- planted bugs ---- */

/* What a move text is in fen: its kind, and for a promotion whether it is to a queen. */
static int kind_in(const char *fen, const char *text, bool *to_queen)
{
    const Variant *v = variant_by_name("chess");
    Setup s;
    char err[ERRMSG_LEN];
    assert_int_equal(setup_from_fen(&s, v, fen, err, sizeof err), 0);
    Position p;
    position_from_setup(&p, &s);
    Move legal[MAX_MOVES];
    int n = position_legal_moves(&p, legal);
    Move m = move_from_uci(text, legal, n, v, false);
    if (m == MOVE_NONE)
        fail_msg("'%s' is not legal in %s", text, fen);
    *to_queen = move_promo(m) == QUEEN;
    return move_kind(m);
}

/* The group's example: its moves are all of the group's kind, and bisect from its own position
 * at its depth finds the same moves at the root (nothing smaller lies below it). */
static void check_example(const char *report, const char *key, int kind)
{
    char head[128], fen[FEN_MAX], depth[8], ours[512], theirs[512];
    snprintf(head, sizeof head, ": %s: ", key);
    const char *group = strstr(report, head);
    if (!group)
        fail_msg("no group '%s' in:\n%s", key, report);
    line_value(group, "\nfen: ", fen, sizeof fen);
    line_value(group, "\ndepth: ", depth, sizeof depth);
    line_value(group, "\ncarrera only:", ours, sizeof ours);
    line_value(group, "\nengine only:", theirs, sizeof theirs);
    assert_string_equal(theirs, " (none)");
    for (char *save = NULL, *t = strtok_r(ours, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        if (t[0] == '(')
            continue; /* a count */
        bool to_queen;
        assert_int_equal(kind_in(fen, t, &to_queen), kind);
        if (kind == MOVE_PROMOTION)
            assert_false(to_queen);
    }
    Run b =
        bisect("--engine", FAKE_ENGINE " --bug no-ep --bug no-long-castle --bug no-underpromotion",
               "--fen", fen, "--depth", depth, "--quiet", NULL);
    expect_status(&b, 1);
    assert_contains(b.out, "path: (root)\n");
    line_value(group, "\ncarrera only:", ours, sizeof ours);
    char line[600];
    snprintf(line, sizeof line, "carrera only:%s\n", ours);
    assert_contains(b.out, line);
    run_free(&b);
}

/* Three bugs at once: every one found, each its own group, with its smallest example; the
 * machine-readable reports carry every finding. */
static void test_planted_bugs(void **state)
{
    (void)state;
    char json[512], junit[512];
    snprintf(json, sizeof json, "%s/bugs.json", scratch_dir);
    snprintf(junit, sizeof junit, "%s/bugs.xml", scratch_dir);
    Run r =
        verify("--engine", FAKE_ENGINE " --bug no-ep --bug no-long-castle --bug no-underpromotion",
               "--random", "300", "--nodes", "20000", "--jobs", "2", "--json", json, "--junit",
               junit, NULL);
    expect_status(&r, 1);
    assert_int_equal(count_of(r.out, "\ngroup ") + (strncmp(r.out, "group ", 6) == 0), 3);
    check_example(r.out, "carrera only: en passant", MOVE_EN_PASSANT);
    check_example(r.out, "carrera only: castling", MOVE_CASTLING);
    check_example(r.out, "carrera only: promotion", MOVE_PROMOTION);
    assert_null(strstr(r.out, "engine failure: "));
    assert_contains(r.out, "| chess, single | random (seed 1) | 300 |");
    /* Progress and the start line on stderr. */
    assert_contains(r.err, "verify: 300 positions of chess (single rules), 0 already checked");

    char *text = read_bytes(json, NULL);
    assert_contains(text, "\"positions\": 300");
    assert_contains(text, "\"group\": \"carrera only: castling\"");
    assert_contains(text, "\"carrera_only\": [\"");
    assert_contains(text, "\"engine_only\": []");
    /* Every finding in the JSON: as many as the text's disagreements. */
    char summary[256];
    line_value(r.out, "| chess, single | random (seed 1) | 300 | ", summary, sizeof summary);
    int agreed, disagreed;
    assert_int_equal(sscanf(summary, "%d | %d", &agreed, &disagreed), 2);
    assert_int_equal(count_of(text, "\"status\": \"disagree\""), disagreed);
    free(text);
    text = read_bytes(junit, NULL);
    assert_contains(text, "<testsuites tests=\"300\"");
    assert_int_equal(count_of(text, "<failure message="), disagreed);
    assert_contains(text, "<failure message=\"carrera only: en passant\">");
    free(text);
    run_free(&r);
}

/* Under Marseillais rules the turns a check by the first movement ends are a group of their
 * own; Carrera against itself (`carrera uci`) finds nothing under the same rules. */
static void test_turn_rules(void **state)
{
    (void)state;
    Run r = verify("--engine", FAKE_ENGINE " --bug one-movement-turns", "--turns", "marseillais",
                   "--random", "30", "--nodes", "5000", "--quiet", NULL);
    expect_status(&r, 1);
    assert_contains(r.out, ": carrera only: one-movement turn: ");
    assert_contains(r.out, "difference: the turn lists differ\n");
    run_free(&r);
    r = verify("--engine", CARRERA_BIN " uci", "--turns", "marseillais", "--random", "30",
               "--nodes", "5000", "--quiet", NULL);
    expect_status(&r, 0);
    assert_contains(r.out,
                    "| chess, marseillais, classic en passant | random (seed 1) | 30 | 30 |");
    run_free(&r);
}

/* ---- the script protocol, and the example wrappers of both protocols ---- */

static void test_script(void **state)
{
    (void)state;
    setenv("ENGINE", FAKE_ENGINE " --bug no-long-castle", 1);
    Run r = verify("--script", PERFTREE_UCI, "--random", "40", "--nodes", "10000", "--quiet", NULL);
    expect_status(&r, 1);
    assert_contains(r.out, "group 1: carrera only: castling: ");
    run_free(&r);
    setenv("ENGINE", FAKE_ENGINE, 1);
    r = verify("--script", PERFTREE_UCI, "--random", "20", "--nodes", "10000", "--quiet", NULL);
    expect_status(&r, 0);
    assert_contains(r.out, "| chess, single | random (seed 1) | 20 | 20 | 0 | 0 | 0 |");
    run_free(&r);
    /* The UCI example wrapper around the script one: both protocols' wrappers at once. */
    setenv("ENGINE", FAKE_ENGINE " --bug no-ep", 1);
    r = verify("--engine", UCI_PERFT " " PERFTREE_UCI, "--random", "20", "--nodes", "10000",
               "--quiet", NULL);
    expect_status(&r, 1);
    assert_contains(r.out, "group 1: carrera only: en passant: ");
    run_free(&r);
    unsetenv("ENGINE");
}

/* ---- failures ---- */

static void write_suite(const char *path, const char *text)
{
    write_bytes(path, text, strlen(text));
}

#define SUITE3                                                                                     \
    START " ;D1 20 ;D2 400 ;D3 8902 ;id start\n" KIWIPETE " ;D1 48 ;D2 2039 ;id kiwipete\n"        \
          "# a comment\n" POSITION3 " ;D1 14 ;D2 191\n"

/* An engine that crashes (or hangs) on one position: that position is an engine failure, the
 * others are still checked, and the status says the run did not pass. */
static void test_engine_failure(void **state)
{
    (void)state;
    char suite[512];
    snprintf(suite, sizeof suite, "%s/three.epd", scratch_dir);
    write_suite(suite, SUITE3);
    Run r = verify("--engine",
                   FAKE_ENGINE " --crash --at r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP",
                   "--suite", suite, "--depth", "2", "--jobs", "2", NULL);
    expect_status(&r, 1);
    assert_contains(r.out, "engine failure: kiwipete (" KIWIPETE ") at depth 2: the engine exited");
    assert_contains(r.out, "| 3 | 2 | 0 | 1 | 0 |");
    run_free(&r);
    r = verify("--engine",
               FAKE_ENGINE " --hang --at r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP",
               "--suite", suite, "--depth", "2", "--timeout", "1", "--quiet", NULL);
    expect_status(&r, 1);
    assert_contains(r.out, "engine failure: kiwipete");
    assert_contains(r.out, "within 1 s");
    assert_contains(r.out, "| 3 | 2 | 0 | 1 | 0 |");
    run_free(&r);
}

/* A suite whose count Carrera disagrees with is reported, and that line is not used. */
static void test_suite_wrong(void **state)
{
    (void)state;
    char suite[512];
    snprintf(suite, sizeof suite, "%s/wrong.epd", scratch_dir);
    write_suite(suite, START " ;D1 20 ;D2 401\n" KIWIPETE " ;D1 48\n");
    Run r = verify("--engine", FAKE_ENGINE, "--suite", suite, "--quiet", NULL);
    expect_status(&r, 1);
    assert_contains(r.out, "suite wrong: ");
    assert_contains(r.out, "the suite gives D2 401, Carrera counts 400");
    assert_contains(r.out, "| 2 | 1 | 0 | 0 | 1 |");
    run_free(&r);
}

/* Killed at any moment and run again with the same journal: only the positions not recorded
 * are checked, each once, and the report is that of a run never killed. */
static void test_resume(void **state)
{
    (void)state;
    char journal[512];
    snprintf(journal, sizeof journal, "%s/journal", scratch_dir);
    const char *argv[] = { CARRERA_BIN, "verify",  "--engine", FAKE_ENGINE, "--random",
                           "300",       "--nodes", "200000",   "--jobs",    "1",
                           "--resume",  journal,   NULL };
    assert_true(run_killed_at(argv, journal, "\tagree\t", 10));
    /* A kill in the middle of a write leaves a line cut short: the next run drops it. */
    FILE *f = fopen(journal, "a");
    assert_non_null(f);
    fputs("299\tagree\t3\t12", f);
    fclose(f);
    Run r = run_program(argv);
    expect_status(&r, 0);
    char already[32];
    line_value(r.err, "positions of chess (single rules), ", already, sizeof already);
    assert_true(atoi(already) >= 10 && atoi(already) < 300);
    char *text = read_bytes(journal, NULL);
    /* Every position once. */
    bool seen[300] = { false };
    int records = 0;
    for (char *line = strchr(text, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        if (line[1] < '0' || line[1] > '9')
            continue;
        int index = atoi(line + 1);
        assert_true(index >= 0 && index < 300);
        assert_false(seen[index]);
        seen[index] = true;
        records++;
    }
    assert_int_equal(records, 300);
    free(text);
    Run fresh = verify("--engine", FAKE_ENGINE, "--random", "300", "--nodes", "200000", NULL);
    expect_status(&fresh, 0);
    assert_string_equal(r.out, fresh.out);
    run_free(&fresh);
    run_free(&r);

    /* Another run's journal is refused. */
    r = verify("--engine", FAKE_ENGINE, "--random", "301", "--nodes", "200000", "--resume", journal,
               NULL);
    expect_usage(&r, "belongs to another run");
    run_free(&r);
}

static void test_usage(void **state)
{
    (void)state;
    Run r = verify("--random", "10", NULL);
    expect_usage(&r, "verify needs --engine COMMAND");
    run_free(&r);
    r = verify("--engine", FAKE_ENGINE, "--script", FAKE_ENGINE, "--random", "10", NULL);
    expect_usage(&r, "give --engine or --script, not both");
    run_free(&r);
    r = verify("--engine", FAKE_ENGINE, NULL);
    expect_usage(&r, "verify needs positions");
    run_free(&r);
    r = verify("--engine", FAKE_ENGINE, "--random", "10", "--depth", "2", "--nodes", "5", NULL);
    expect_usage(&r, "give --depth or --nodes, not both");
    run_free(&r);
    r = verify("--engine", FAKE_ENGINE, "--random", "ten", NULL);
    expect_usage(&r, "bad --random 'ten'");
    run_free(&r);
    r = verify("--engine", FAKE_ENGINE, "--random", "10", "--variant", "shogi", NULL);
    expect_usage(&r, "unknown variant 'shogi'");
    run_free(&r);
    r = verify("--engine", FAKE_ENGINE, "--suite", "/nonexistent/suite.epd", NULL);
    expect_usage(&r, "cannot read the suite '/nonexistent/suite.epd'");
    run_free(&r);
    char suite[512];
    snprintf(suite, sizeof suite, "%s/bad.epd", scratch_dir);
    write_suite(suite, START " ;D1 20\nnot a fen ;D1 3\n");
    r = verify("--engine", FAKE_ENGINE, "--suite", suite, NULL);
    expect_usage(&r, "bad.epd:2: not a position of chess");
    run_free(&r);
    write_suite(suite, START " ;D1 twenty\n");
    r = verify("--engine", FAKE_ENGINE, "--suite", suite, NULL);
    expect_usage(&r, "bad.epd:1: bad count 'twenty' for D1");
    run_free(&r);
    r = verify("--engine", FAKE_ENGINE, "--random", "10", "--jobs", "0", NULL);
    expect_usage(&r, "bad --jobs '0'");
    run_free(&r);
    r = verify("--engine", FAKE_ENGINE, "--fen", START, NULL);
    expect_usage(&r, "verify takes its positions from --suite, --random and --starts");
    run_free(&r);
    r = verify("--engine", FAKE_ENGINE, "--starts", "--seed", "3", NULL);
    expect_usage(&r, "--seed needs --random N");
    run_free(&r);
}

/* An engine that cannot be used at all: status 3 and why. */
static void test_unusable(void **state)
{
    (void)state;
    Run r = verify("--engine", "/nonexistent/engine", "--random", "5", NULL);
    expect_status(&r, 3);
    assert_contains(r.err, "carrera: error: the engine cannot be used: cannot start the engine");
    run_free(&r);
    r = verify("--script", "/nonexistent/script", "--random", "5", NULL);
    expect_status(&r, 3);
    assert_contains(r.err, "cannot start the script");
    run_free(&r);
    r = verify("--engine", FAKE_ENGINE " --plain", "--variant", "capablanca", "--random", "5",
               NULL);
    expect_status(&r, 3);
    assert_contains(r.err, "UCI_Variant");
    run_free(&r);
    r = verify("--engine", FAKE_ENGINE " --crash", "--random", "5", NULL);
    expect_status(&r, 3);
    assert_contains(r.err, "the engine exited");
    run_free(&r);
}

/* ---- against real engines (the `oracle` group) ---- */

static bool have(const char *path)
{
    if (access(path, X_OK) == 0)
        return true;
    fprintf(stderr, "(%s not installed: skipped)\n", path);
    return false;
}

/* Hundreds of random positions of every variant, nothing found. */
static void test_fairy_stockfish(void **state)
{
    (void)state;
    if (!have(CARRERA_FAIRY_STOCKFISH))
        skip();
    int count;
    const Variant *const *all = variant_all(&count);
    for (int i = 0; i < count; i++) {
        /* Carrera's and Bird's games are not built into Fairy-Stockfish: test_oracle compares
         * them through a variants.ini of its own, which verify has no way to load. */
        if (strcmp(all[i]->name, "carrera") == 0 || strcmp(all[i]->name, "bird") == 0)
            continue;
        Run r = verify("--engine", CARRERA_FAIRY_STOCKFISH, "--variant", all[i]->name, "--random",
                       "200", "--nodes", "20000", "--quiet", NULL);
        expect_status(&r, 0);
        char row[128];
        snprintf(row, sizeof row, "| %s, single | random (seed 1) | 200 | 200 | 0 | 0 | 0 |",
                 all[i]->name);
        assert_contains(r.out, row);
        run_free(&r);
    }
    /* Every Chess960 start array, and the script protocol around the same engine. */
    Run r = verify("--engine", CARRERA_FAIRY_STOCKFISH, "--variant", "chess960", "--starts",
                   "--depth", "2", "--quiet", NULL);
    expect_status(&r, 0);
    assert_contains(r.out, "| chess960, single | starts | 960 | 960 | 0 | 0 | 0 |");
    run_free(&r);
    setenv("ENGINE", CARRERA_FAIRY_STOCKFISH, 1);
    setenv("VARIANT", "capablanca", 1);
    r = verify("--script", PERFTREE_UCI, "--variant", "capablanca", "--random", "30", "--nodes",
               "20000", "--quiet", NULL);
    expect_status(&r, 0);
    assert_contains(r.out, "| capablanca, single | random (seed 1) | 30 | 30 | 0 | 0 | 0 |");
    run_free(&r);
    unsetenv("ENGINE");
    unsetenv("VARIANT");
}

static void test_stockfish(void **state)
{
    (void)state;
    if (!have(CARRERA_STOCKFISH))
        skip();
    const char *variants[] = { "chess", "chess960" };
    for (int i = 0; i < 2; i++) {
        Run r = verify("--engine", CARRERA_STOCKFISH, "--variant", variants[i], "--random", "200",
                       "--nodes", "20000", "--quiet", NULL);
        expect_status(&r, 0);
        run_free(&r);
    }
    Run r = verify("--engine", CARRERA_STOCKFISH, "--suite",
                   CARRERA_SOURCE "/tests/data/perft/standard.epd", "--nodes", "20000", "--quiet",
                   NULL);
    expect_status(&r, 0);
    assert_contains(r.out, " | 0 | 0 | 0 |");
    run_free(&r);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "oracle") == 0) {
        const struct CMUnitTest oracle[] = {
            cmocka_unit_test(test_fairy_stockfish),
            cmocka_unit_test(test_stockfish),
        };
        return cmocka_run_group_tests_name("verify oracle", oracle, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_planted_bugs), cmocka_unit_test(test_turn_rules),
        cmocka_unit_test(test_script),       cmocka_unit_test(test_engine_failure),
        cmocka_unit_test(test_suite_wrong),  cmocka_unit_test(test_resume),
        cmocka_unit_test(test_usage),        cmocka_unit_test(test_unusable),
    };
    return cmocka_run_group_tests_name("verify", tests, scratch_setup, scratch_teardown);
}
