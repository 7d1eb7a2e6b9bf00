/* SPDX-License-Identifier: MIT */
/* The `carrera` program as a user meets it: output formats, exit status of every error, and a
 * UCI session over pipes. Expected divides are computed in-process from the core, so the test
 * pins the format and the move order, not the move generator (the perft tests do that). */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "files.h"
#include "move.h"
#include "position.h"
#include "run.h"
#include "setup.h"
#include "subprocess.h"
#include "variant.h"

#ifndef CARRERA_BIN
#error "CARRERA_BIN must name the carrera binary"
#endif

#define KIWIPETE        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
#define LINE_TIMEOUT_MS 20000

#define MAX_ARGS 16

/* Collects the NULL-terminated variable arguments after first into args. */
#define COLLECT_ARGS(args, first)                                                                  \
    do {                                                                                           \
        va_list ap;                                                                                \
        int n_ = 0;                                                                                \
        va_start(ap, first);                                                                       \
        for (const char *a_ = first; a_; a_ = va_arg(ap, const char *)) {                          \
            assert_true(n_ < MAX_ARGS - 1);                                                        \
            args[n_++] = a_;                                                                       \
        }                                                                                          \
        va_end(ap);                                                                                \
        args[n_] = NULL;                                                                           \
    } while (0)

/* Runs carrera with args (NULL-terminated, after the program name), stdin empty. */
static Run run_args(const char *const *args)
{
    const char *argv[MAX_ARGS + 1] = { CARRERA_BIN };
    int argc = 1;
    for (; args[argc - 1]; argc++)
        argv[argc] = args[argc - 1];
    argv[argc] = NULL;
    return run_program(argv);
}

static Run run(const char *first, ...)
{
    const char *args[MAX_ARGS];
    COLLECT_ARGS(args, first);
    return run_args(args);
}

/* What `perft --divide` must print for fen, computed with the core directly. */
static char *expected_divide(const char *variant, const char *fen, int depth)
{
    const Variant *v = variant_by_name(variant);
    assert_non_null(v);
    Setup s;
    char err[ERRMSG_LEN];
    if (fen)
        assert_int_equal(setup_from_fen(&s, v, fen, err, sizeof err), 0);
    else
        setup_start(&s, v);
    Position p, child;
    position_from_setup(&p, &s);
    Move moves[MAX_MOVES];
    int n = position_legal_moves(&p, moves);
    size_t cap = (size_t)n * 32 + 64, used = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        position_make(&p, moves[i], &child);
        uint64_t count = depth > 1 ? perft(&child, depth - 1) : 1;
        char mv[MOVE_TEXT_MAX];
        move_to_uci(moves[i], v, v->castle960, mv);
        used += (size_t)snprintf(text + used, cap - used, "%s: %" PRIu64 "\n", mv, count);
        total += count;
    }
    snprintf(text + used, cap - used, "\nNodes searched: %" PRIu64 "\n", total);
    return text;
}

static void test_perft_plain(void **state)
{
    (void)state;
    Run r = run("perft", "--startpos", "--depth", "3", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "Nodes searched: 8902\n");
    assert_string_equal(r.err, "");
    run_free(&r);

    /* Options in any order, --opt=value, depth 0. */
    r = run("perft", "--depth=2", "--fen", KIWIPETE, NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "Nodes searched: 2039\n");
    run_free(&r);
    r = run("perft", "--depth", "0", "--variant", "capablanca", "--startpos", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "Nodes searched: 1\n");
    run_free(&r);
    r = run("perft", "--variant", "chess960", "--chess960", "0", "--depth", "2", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "Nodes searched: 400\n");
    run_free(&r);
}

static void test_perft_divide(void **state)
{
    (void)state;
    Run r = run("perft", "--startpos", "--depth", "2", "--divide", NULL);
    assert_int_equal(r.status, 0);
    char *want = expected_divide("chess", NULL, 2);
    assert_string_equal(r.out, want);
    assert_non_null(strstr(r.out, "\ne2e4: 20\n"));
    assert_non_null(strstr(r.out, "\n\nNodes searched: 400\n"));
    free(want);
    run_free(&r);

    r = run("perft", "--divide", "--variant", "capablanca", "--depth", "2", "--startpos", NULL);
    assert_int_equal(r.status, 0);
    want = expected_divide("capablanca", NULL, 2);
    assert_string_equal(r.out, want);
    assert_non_null(strstr(r.out, "\nNodes searched: 784\n"));
    free(want);
    run_free(&r);

    /* Castling text: the king's destination in chess, king takes rook in Chess960. */
    r = run("perft", "--fen", KIWIPETE, "--depth", "1", "--divide", NULL);
    assert_non_null(strstr(r.out, "e1g1: 1\n"));
    assert_non_null(strstr(r.out, "e1c1: 1\n"));
    assert_non_null(strstr(r.out, "\nNodes searched: 48\n"));
    run_free(&r);
    r = run("perft", "--variant", "chess960", "--fen",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w HAha - 0 1", "--depth", "1",
            "--divide", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "e1h1: 1\n"));
    assert_non_null(strstr(r.out, "e1a1: 1\n"));
    assert_non_null(strstr(r.out, "\nNodes searched: 48\n"));
    run_free(&r);

    /* Under turn rules, divide lines are turns (or first movements by movement unit), their sum
     * is the total of the plain count, and a Unit line says what was counted. */
    static const char *const units[][3] = {
        { "turn", "e2e4/g1f3: ", "Unit: turns (marseillais, classic en passant)\n" },
        { "movement", "e2e4: ", "Unit: movements (marseillais, classic en passant)\n" },
    };
    for (int u = 0; u < 2; u++) {
        Run plain = run("perft", "--turns", "marseillais", "--unit", units[u][0], "--startpos",
                        "--depth", "2", NULL);
        r = run("perft", "--turns", "marseillais", "--unit", units[u][0], "--startpos", "--depth",
                "2", "--divide", NULL);
        assert_int_equal(plain.status, 0);
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, units[u][1]));
        const char *unit_line = strstr(r.out, units[u][2]);
        assert_non_null(unit_line);
        unsigned long long sum = 0;
        for (const char *line = r.out; line < unit_line; line = strchr(line, '\n') + 1) {
            const char *colon = strstr(line, ": ");
            if (colon && colon < strchr(line, '\n'))
                sum += strtoull(colon + 2, NULL, 10);
        }
        char total[64];
        snprintf(total, sizeof total, "Nodes searched: %llu\n", sum);
        assert_non_null(strstr(r.out, total));
        assert_non_null(strstr(plain.out, total));
        run_free(&plain);
        run_free(&r);
    }
}

/* --random SEED: the array is named on stderr, the same for the same seed, and its count is the
 * count of that FEN. */
static void test_random_array(void **state)
{
    (void)state;
    Run a = run("perft", "--variant", "caparandom", "--random", "42", "--depth", "2", NULL);
    Run b = run("perft", "--variant", "caparandom", "--random", "42", "--depth", "2", NULL);
    assert_int_equal(a.status, 0);
    assert_string_equal(a.out, b.out);
    assert_string_equal(a.err, b.err);
    const char *fen = strstr(a.err, "random start array of seed 42: ");
    assert_non_null(fen);
    char text[FEN_MAX];
    snprintf(text, sizeof text, "%s", fen + strlen("random start array of seed 42: "));
    text[strcspn(text, "\n")] = '\0';
    Run c = run("perft", "--variant", "caparandom", "--fen", text, "--depth", "2", NULL);
    assert_string_equal(a.out, c.out);
    run_free(&a);
    run_free(&b);
    run_free(&c);
}

static void test_help_and_version(void **state)
{
    (void)state;
    Run r = run("--help", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "perft"));
    assert_non_null(strstr(r.out, "capablanca"));
    run_free(&r);
    r = run("perft", "--help", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "--divide"));
    run_free(&r);
    /* the keys of every configuration file, from the tables they are read with */
    r = run("check-config", "--keys", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "checkpoint_interval"));
    assert_non_null(strstr(r.out, "option.NAME"));
    assert_non_null(strstr(r.out, "ValueArchbishopMg"));
    run_free(&r);
    r = run("--version", NULL);
    assert_int_equal(r.status, 0);
    assert_true(strncmp(r.out, "carrera ", 8) == 0);
    run_free(&r);
}

/* Each must exit 2 with a `carrera: error:` line on stderr containing `mention`. */
static void expect_error(const char *mention, const char *first, ...)
{
    const char *args[MAX_ARGS];
    COLLECT_ARGS(args, first);
    Run r = run_args(args);
    if (r.status != 2 || strncmp(r.err, "carrera: error: ", 16) != 0 || !strstr(r.err, mention))
        fail_msg("carrera %s %s ...: status %d, stderr '%s' (want 2 and '%s')",
                 args[0] ? args[0] : "", args[0] && args[1] ? args[1] : "", r.status, r.err,
                 mention);
    assert_string_equal(r.out, "");
    run_free(&r);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("no command", NULL);
    expect_error("unknown command 'frobnicate'", "frobnicate", NULL);
    expect_error("unknown option '--frob'", "--frob", NULL);
    expect_error("unknown option '--bogus'", "perft", "--startpos", "--depth", "1", "--bogus",
                 NULL);
    expect_error("needs a value", "perft", "--startpos", "--depth", NULL);
    expect_error("needs a value", "perft", "--depth", "1", "--fen", NULL);
    expect_error("bad depth '-1'", "perft", "--startpos", "--depth", "-1", NULL);
    expect_error("bad depth 'abc'", "perft", "--startpos", "--depth", "abc", NULL);
    expect_error("bad depth '31'", "perft", "--startpos", "--depth", "31", NULL);
    expect_error("--depth", "perft", "--startpos", NULL);
    expect_error("--startpos", "perft", "--depth", "1", NULL);
    expect_error("only one", "perft", "--startpos", "--fen", KIWIPETE, "--depth", "1", NULL);
    expect_error("unknown variant 'shogi'", "perft", "--variant", "shogi", "--startpos", "--depth",
                 "1", NULL);
    expect_error("capablanca", "perft", "--variant", "shogi", "--startpos", "--depth", "1", NULL);
    expect_error("bad FEN", "perft", "--fen", "rnbqkbnr/pppppppp/8/8 w", "--depth", "1", NULL);
    expect_error("bad FEN", "perft", "--fen",
                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", "--depth", "1",
                 NULL);
    expect_error("chess960", "perft", "--chess960", "5", "--depth", "1", NULL);
    expect_error("960", "perft", "--variant", "chess960", "--chess960", "960", "--depth", "1",
                 NULL);
    expect_error("bad Chess960 number", "perft", "--variant", "chess960", "--chess960", "x",
                 "--depth", "1", NULL);
    expect_error("given twice", "perft", "--depth", "1", "--depth", "2", "--startpos", NULL);
    expect_error("unexpected argument 'extra'", "perft", "--startpos", "--depth", "1", "extra",
                 NULL);
    expect_error("unexpected argument 'extra' for uci", "uci", "extra", NULL);
    expect_error("no-such.ini", "uci", "--eval", "/no-such.ini", NULL);
    expect_error("is unknown in [eval]", "uci", "--eval",
                 CARRERA_SOURCE "/tests/data/config/eval-bad-unknown-key.ini", NULL);
    expect_error("is unknown in [eval]", "bench", "--eval",
                 CARRERA_SOURCE "/tests/data/config/eval-bad-unknown-key.ini", NULL);
    expect_error("--depth takes a whole number", "bench", "--depth", "0", NULL);
    expect_error("--random needs a variant with random start arrays", "perft", "--random", "4",
                 "--depth", "1", NULL);
    expect_error("bad seed", "perft", "--variant", "chess960", "--random", "x", "--depth", "1",
                 NULL);
    expect_error("only one of", "perft", "--variant", "chess960", "--random", "1", "--startpos",
                 "--depth", "1", NULL);
    expect_error("unknown turn rules 'double'", "perft", "--turns", "double", "--startpos",
                 "--depth", "1", NULL);
    expect_error("unknown en passant rule", "perft", "--turns", "marseillais", "--ep-rule", "old",
                 "--startpos", "--depth", "1", NULL);
    expect_error("unknown unit", "perft", "--turns", "marseillais", "--unit", "ply", "--startpos",
                 "--depth", "1", NULL);
    /* Two en passant squares are a classic-Marseillais state, not a modern or single-move one. */
    expect_error("more than 1 square", "perft", "--turns", "marseillais", "--ep-rule", "modern",
                 "--fen", "rnbqkbnr/pppppppp/8/8/4P1P1/8/PPPP1P1P/RNBQKBNR b KQkq e3,g3 0 1",
                 "--depth", "1", NULL);
    expect_error("bad FEN", "perft", "--fen",
                 "rnbqkbnr/pppppppp/8/8/4P1P1/8/PPPP1P1P/RNBQKBNR b KQkq e3,g3 0 1", "--depth", "1",
                 NULL);
}

/* --estimate: exact when the count is cheap, else extrapolated from the exact levels (here within
 * a factor of two of the published Capablanca perft 6, 1,015,802,437), with a table timed on
 * smaller levels with the table scaled down to the byte and spread over the table's memory (so
 * does check-config of a job file with hash_mb); a
 * hash table larger than the machine's memory is refused before anything is allocated. */
static void test_estimate(void **state)
{
    (void)state;
    Run r = run("perft", "--startpos", "--depth", "4", "--estimate", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "perft 4: 197281 nodes exactly (counted just now)\n");
    run_free(&r);
    r = run("perft", "--variant", "capablanca", "--startpos", "--depth", "6", "--estimate",
            "--threads", "1", NULL);
    assert_int_equal(r.status, 0);
    const char *about = strstr(r.out, "perft 6: about ");
    assert_non_null(about);
    double nodes = strtod(about + strlen("perft 6: about "), NULL);
    if (!(nodes > 0.5 * 1015802437.0 && nodes < 2.0 * 1015802437.0))
        fail_msg("estimate %g for Capablanca perft 6 (1015802437): %s", nodes, r.out);
    assert_non_null(strstr(r.out, "on 1 thread at"));
    run_free(&r);
    /* With a table the time comes from two smaller levels counted with a table scaled down. */
    r = run("perft", "--variant", "capablanca", "--startpos", "--depth", "7", "--hash", "64",
            "--threads", "2", "--estimate", NULL);
    assert_int_equal(r.status, 0);
    if (!strstr(r.out, "perft 7 with a 64 MB table: roughly ") || !strstr(r.out, "on 2 threads") ||
        !strstr(r.out, "perft 5 with 0.0625 MB in ") || !strstr(r.out, "perft 6 with 1.79 MB in "))
        fail_msg("no table estimate: %s", r.out);
    run_free(&r);
    /* check-config of a job file with a table gives the same timed estimate. */
    char job[1024];
    snprintf(job, sizeof job, "%s/table.ini", scratch_dir);
    const char *text = "[perft]\nvariant = capablanca\nposition = startpos\ndepth = 7\n"
                       "threads = 2\nhash_mb = 64\n";
    write_bytes(job, text, strlen(text));
    r = run("check-config", job, NULL);
    assert_int_equal(r.status, 0);
    if (!strstr(r.out, "perft 7 with a 64 MB table: roughly ") || !strstr(r.out, "on 2 threads") ||
        !strstr(r.out, "perft 6 with 1.79 MB in "))
        fail_msg("no table estimate from check-config: %s", r.out);
    run_free(&r);
    expect_error("more than this machine's memory", "perft", "--startpos", "--depth", "1", "--hash",
                 "4000000", NULL);
}

/* Reads the next line and checks it starts with prefix. */
static void expect_line(Subprocess *p, const char *prefix)
{
    char line[4096];
    int got = subprocess_read_line(p, line, sizeof line, LINE_TIMEOUT_MS);
    if (got != 1)
        fail_msg("expected a line starting '%s', got %s", prefix,
                 got == 0 ? "end of output" : "nothing (timeout)");
    if (strncmp(line, prefix, strlen(prefix)) != 0)
        fail_msg("expected a line starting '%s', got '%s'", prefix, line);
}

static void expect_exact(Subprocess *p, const char *want)
{
    char line[4096];
    int got = subprocess_read_line(p, line, sizeof line, LINE_TIMEOUT_MS);
    if (got != 1)
        fail_msg("expected the line '%s', got %s", want,
                 got == 0 ? "end of output" : "nothing (timeout)");
    if (strcmp(line, want) != 0)
        fail_msg("expected the line '%s', got '%s'", want, line);
}

static void start_uci(Subprocess *p)
{
    char *const argv[] = { CARRERA_BIN, "uci", NULL };
    char err[ERRMSG_LEN];
    if (subprocess_start(p, argv, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static void test_uci_session(void **state)
{
    (void)state;
    Subprocess p;
    start_uci(&p);
    /* One command at a time: each answer must arrive (flushed) before the next is sent. */
    subprocess_send(&p, "uci\n");
    expect_line(&p, "id name Carrera ");
    expect_line(&p, "id author ");
    expect_line(&p, "option name UCI_Variant type combo default chess var chess var chess960 ");
    expect_line(&p, "option name UCI_Chess960 type check default false");
    expect_exact(&p, "option name TurnRules type combo default single var single var marseillais "
                     "var marseillais-balanced var galvin var bennekom var extramove");
    expect_exact(&p, "option name EnPassantRule type combo default classic var classic var modern");
    /* then Hash and the evaluation parameters (tests/engines/test_uci.c checks them) */
    char option[4096];
    do
        assert_int_equal(subprocess_read_line(&p, option, sizeof option, LINE_TIMEOUT_MS), 1);
    while (strncmp(option, "option name ", 12) == 0);
    assert_string_equal(option, "uciok");
    subprocess_send(&p, "isready\n");
    expect_line(&p, "readyok");

    subprocess_send(&p, "position startpos moves e2e4\ngo perft 2\n");
    static const char *const replies[] = {
        "a7a6: 30", "b7b6: 30", "c7c6: 30", "d7d6: 30", "e7e6: 30", "f7f6: 30", "g7g6: 30",
        "h7h6: 30", "a7a5: 30", "b7b5: 29", "c7c5: 30", "d7d5: 31", "e7e5: 29", "f7f5: 31",
        "g7g5: 30", "h7h5: 30", "b8a6: 30", "b8c6: 30", "g8f6: 30", "g8h6: 30",
    };
    bool seen[20] = { false };
    char line[4096];
    for (int i = 0; i < 20; i++) {
        assert_int_equal(subprocess_read_line(&p, line, sizeof line, LINE_TIMEOUT_MS), 1);
        int k = 0;
        while (k < 20 && strcmp(line, replies[k]) != 0)
            k++;
        if (k == 20 || seen[k])
            fail_msg("unexpected divide line '%s'", line);
        seen[k] = true;
    }
    expect_exact(&p, "");
    expect_exact(&p, "Nodes searched: 600");

    subprocess_send(&p, "d\n");
    expect_line(&p, "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq ");
    subprocess_send(&p, "frobnicate now\n");
    expect_line(&p, "info string unknown command: frobnicate now");
    /* A bad move keeps the position reached before it. */
    subprocess_send(&p, "position startpos moves e2e4 e7e5 e1e3 g1f3\nd\n");
    expect_line(&p, "info string error: illegal move 'e1e3'");
    expect_line(&p, "Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq ");
    /* A bad FEN keeps the position as it was. */
    subprocess_send(&p, "position fen 8/8 w\nd\n");
    expect_line(&p, "info string error: bad FEN");
    expect_line(&p, "Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq ");

    /* Variants and Chess960 castling text. */
    subprocess_send(&p, "setoption name UCI_Variant value capablanca\nposition startpos\n"
                        "go perft 1\n");
    for (int i = 0; i < 28; i++)
        expect_line(&p, "");
    expect_exact(&p, "");
    expect_exact(&p, "Nodes searched: 28");
    subprocess_send(&p, "setoption name UCI_Variant value chess\n"
                        "setoption name UCI_Chess960 value true\n"
                        "position fen " KIWIPETE "\ngo perft 1\n");
    bool castle_h = false, castle_a = false;
    for (int i = 0; i < 48; i++) {
        assert_int_equal(subprocess_read_line(&p, line, sizeof line, LINE_TIMEOUT_MS), 1);
        castle_h |= strcmp(line, "e1h1: 1") == 0;
        castle_a |= strcmp(line, "e1a1: 1") == 0;
    }
    assert_true(castle_h && castle_a);
    expect_exact(&p, "");
    expect_exact(&p, "Nodes searched: 48");
    subprocess_send(&p, "setoption name UCI_Variant value nosuch\n");
    expect_line(&p, "info string error: unknown variant 'nosuch'");

    /* Turns under Marseillais rules: movements joined by '/' or ','; the en passant set of two
     * squares (docs/rules.md 4.7) in the FEN. */
    subprocess_send(&p, "setoption name UCI_Chess960 value false\n"
                        "setoption name TurnRules value marseillais\n"
                        "position startpos moves e2e4/g2g4\nd\n");
    expect_exact(&p, "Fen: rnbqkbnr/pppppppp/8/8/4P1P1/8/PPPP1P1P/RNBQKBNR b KQkq e3,g3 0 1");
    subprocess_send(&p, "position startpos moves e2e4,g2g4 d7d5/d5d4\nd\n");
    expect_exact(&p, "Fen: rnbqkbnr/ppp1pppp/8/8/3pP1P1/8/PPPP1P1P/RNBQKBNR w KQkq - 0 2");
    subprocess_send(&p, "position startpos moves e2e4\n");
    expect_line(&p, "info string error: illegal turn 'e2e4'");
    subprocess_send(&p, "setoption name TurnRules value nosuch\n");
    expect_line(&p, "info string error: unknown turn rules 'nosuch'");

    subprocess_send(&p, "quit\n");
    assert_int_equal(subprocess_read_line(&p, line, sizeof line, LINE_TIMEOUT_MS), 0);
    assert_int_equal(subprocess_finish(&p, LINE_TIMEOUT_MS), 0);
}

static void test_uci_eof_quits(void **state)
{
    (void)state;
    Subprocess p;
    start_uci(&p);
    subprocess_send(&p, "isready\n");
    expect_line(&p, "readyok");
    assert_int_equal(subprocess_finish(&p, LINE_TIMEOUT_MS), 0);
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_plain),   cmocka_unit_test(test_random_array),
        cmocka_unit_test(test_perft_divide),  cmocka_unit_test(test_help_and_version),
        cmocka_unit_test(test_errors),        cmocka_unit_test(test_uci_session),
        cmocka_unit_test(test_uci_eof_quits), cmocka_unit_test(test_estimate),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
