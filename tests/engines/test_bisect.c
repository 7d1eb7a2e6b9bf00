/* SPDX-License-Identifier: MIT */
/* `carrera bisect` as a user meets it, driving the built program: against
 * tests/engines/fake_engine.c with a planted bug it must name the exact position and move; against
 * an engine that crashes, hangs or prints garbage it must fail with a message and status 3; against
 * `carrera uci` it must find nothing; every usage error is status 2. With the argument `oracle`,
 * the same against Fairy-Stockfish and Stockfish on positions where they agree with Carrera. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h> /* access */

#include "errmsg.h"
#include "move.h"
#include "position.h"
#include "run.h"
#include "setup.h"
#include "variant.h"

#if !defined(CARRERA_BIN) || !defined(FAKE_ENGINE)
#error "CARRERA_BIN and FAKE_ENGINE must name the carrera and fake_engine binaries"
#endif
#ifndef CARRERA_FAIRY_STOCKFISH
#define CARRERA_FAIRY_STOCKFISH "/usr/games/fairy-stockfish"
#endif
#ifndef CARRERA_STOCKFISH
#define CARRERA_STOCKFISH "/usr/games/stockfish"
#endif

#define KIWIPETE "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
#define MAX_ARGS 24

/* Runs `carrera bisect` with the NULL-terminated arguments after "bisect", stdin empty. */
static Run bisect(const char *first, ...)
{
    const char *argv[MAX_ARGS + 3] = { CARRERA_BIN, "bisect" };
    int argc = 2;
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a; a = va_arg(ap, const char *)) {
        assert_true(argc < MAX_ARGS + 2);
        argv[argc++] = a;
    }
    va_end(ap);
    argv[argc] = NULL;

    return run_program(argv);
}

/* The report must hold this whole line. */
static void expect_line(const Run *r, const char *line)
{
    size_t len = strlen(line);
    for (const char *at = strstr(r->out, line); at; at = strstr(at + 1, line))
        if ((at == r->out || at[-1] == '\n') && (at[len] == '\n' || at[len] == '\0'))
            return;
    fail_msg("expected the line '%s' in the report:\n%s\nstderr:\n%s", line, r->out, r->err);
}

static void expect_status(const Run *r, int status)
{
    if (r->status != status)
        fail_msg("exit status %d, expected %d\nstdout:\n%s\nstderr:\n%s", r->status, status, r->out,
                 r->err);
}

/* A planted difference: status 1 and the report's position, path and moves. */
static void expect_finding(const Run *r, const char *path, const char *fen, const char *ours,
                           const char *theirs)
{
    expect_status(r, 1);
    expect_line(r, path);
    expect_line(r, fen);
    expect_line(r, ours);
    expect_line(r, theirs);
}

static void expect_failure(const Run *r, const char *message)
{
    expect_status(r, 3);
    if (!strstr(r->err, "carrera: error: ") || !strstr(r->err, message))
        fail_msg("expected 'carrera: error: ...%s...' on stderr, got:\n%s", message, r->err);
    assert_string_equal(r->out, "");
}

static void expect_no_difference(const Run *r)
{
    expect_status(r, 0);
    if (strncmp(r->out, "no difference: ", 15) != 0)
        fail_msg("expected 'no difference', got:\n%s\nstderr:\n%s", r->out, r->err);
}

/* ---- planted bugs ---- */

/* A move dropped only after 1.Nf3 e5 2.e4 (or 1.e4 e5 2.Nf3), three plies below the root. */
static void test_dropped_move_deep(void **state)
{
    (void)state;
    Run r =
        bisect("--engine",
               FAKE_ENGINE " --drop g8f6 --at rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R",
               "--startpos", "--depth", "4", NULL);
    /* Both move orders reach the position; 1.Nf3 has the smaller subtree. */
    expect_finding(&r, "path: g1f3 e7e5 e2e4",
                   "fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 0 2",
                   "carrera only: g8f6", "engine only: (none)");
    expect_line(&r, "depth: 1");
    expect_line(&r, "root: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    /* Progress: one line per step, each naming the move taken. */
    assert_non_null(strstr(r.err, "bisect: depth 4 at the root: carrera 197281, engine 197279"));
    assert_non_null(strstr(r.err, "next g1f3"));
    assert_non_null(strstr(r.err, "bisect: depth 1 after g1f3 e7e5 e2e4"));
    run_free(&r);
}

/* Whether text is an en passant capture in fen. */
static bool is_en_passant(const char *fen, const char *text)
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
    return m != MOVE_NONE && move_kind(m) == MOVE_EN_PASSANT;
}

/* Every en passant capture missing: Kiwipete has them two and three plies deep. */
static void test_no_en_passant(void **state)
{
    (void)state;
    Run r = bisect("--engine", FAKE_ENGINE " --bug no-ep", "--fen", KIWIPETE, "--depth", "3", NULL);
    expect_finding(&r, "path: e2d1 c7c5",
                   "fen: r3k2r/p2pqpb1/bn2pnp1/2pPN3/1p2P3/2N2Q1p/PPPB1PPP/R2BK2R w KQkq c6 0 2",
                   "carrera only: d5c6", "engine only: (none)");
    assert_true(is_en_passant("r3k2r/p2pqpb1/bn2pnp1/2pPN3/1p2P3/2N2Q1p/PPPB1PPP/R2BK2R w KQkq "
                              "c6 0 2",
                              "d5c6"));
    run_free(&r);
}

/* A king move into check (stepping back along the checking rook's line), two plies deep. */
static void test_king_into_check(void **state)
{
    (void)state;
    Run r = bisect("--engine", FAKE_ENGINE " --bug xray-king", "--fen",
                   "r3k3/8/8/8/8/8/8/4K2R w K - 0 1", "--depth", "3", NULL);
    expect_finding(&r, "path: e1f1 a8a1", "fen: 4k3/8/8/8/8/8/8/r4K1R w - - 2 2",
                   "carrera only: (none)", "engine only: f1g1");
    run_free(&r);
}

/* A move text Carrera cannot read in the position is a move only the engine has. */
static void test_unknown_move_text(void **state)
{
    (void)state;
    Run r = bisect("--engine",
                   FAKE_ENGINE " --extra e7e4 --at rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR",
                   "--startpos", "--depth", "2", NULL);
    expect_finding(&r, "path: e2e4",
                   "fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                   "carrera only: (none)", "engine only: e7e4");
    run_free(&r);
}

/* The engine forgets the en passant square when it plays a double step but reads it from a FEN:
 * the position after the move agrees, the move's count does not. */
static void test_make_move_bug(void **state)
{
    (void)state;
    Run r = bisect("--engine", FAKE_ENGINE " --bug forget-ep-square", "--fen", KIWIPETE, "--depth",
                   "2", NULL);
    expect_status(&r, 1);
    expect_line(&r, "difference: the engine counts the move differently from the position it "
                    "leads to");
    expect_line(&r, "path: (root)");
    expect_line(&r, "fen: " KIWIPETE);
    expect_line(&r, "move: a2a4");
    expect_line(&r, "after: r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 1");
    expect_line(&r, "carrera: 44 below a2a4");
    expect_line(&r, "engine: 43 below a2a4 in its divide, 43 after 'position fen ... moves a2a4', "
                    "44 from the FEN after it");
    run_free(&r);
}

/* Under Marseillais rules the engine drops the turns a first-movement check ends: after
 * 2.d3/Bg5 Black's Bb4+ is such a turn. */
static void test_turn_bug(void **state)
{
    (void)state;
    Run r = bisect("--engine", FAKE_ENGINE " --bug one-movement-turns", "--turns", "marseillais",
                   "--fen", "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2", "--depth",
                   "2", NULL);
    expect_finding(&r, "path: d2d3/c1g5",
                   "fen: rnbqkbnr/pppp1ppp/8/4p1B1/8/3P4/PPP1PPPP/RN1QKBNR b KQkq - 0 2",
                   "carrera only: f8b4", "engine only: (none)");
    expect_line(&r, "difference: the turn lists differ");
    run_free(&r);
}

/* ---- no difference ---- */

static void test_against_carrera_uci(void **state)
{
    (void)state;
    Run r = bisect("--engine", CARRERA_BIN " uci", "--turns", "marseillais", "--startpos",
                   "--depth", "2", NULL);
    expect_no_difference(&r);
    assert_non_null(strstr(r.out, "196646 nodes"));
    run_free(&r);
    /* The 960 options, Shredder-FEN and the modern en passant rule on the 10x8 board. */
    r = bisect("--engine", CARRERA_BIN " uci", "--variant", "caparandom", "--turns",
               "marseillais-balanced", "--ep-rule", "modern", "--fen",
               "bqrnkcnrab/pppppppppp/10/10/10/10/PPPPPPPPPP/BQRNKCNRAB w HChc - 0 1", "--depth",
               "2", "--quiet", NULL);
    expect_no_difference(&r);
    assert_string_equal(r.err, "");
    run_free(&r);
}

static void test_fake_without_bug(void **state)
{
    (void)state;
    Run r = bisect("--engine", FAKE_ENGINE, "--variant", "chess960", "--chess960", "0", "--depth",
                   "3", NULL);
    expect_no_difference(&r);
    run_free(&r);
    r = bisect("--engine", FAKE_ENGINE, "--variant", "janus", "--startpos", "--depth", "2", NULL);
    expect_no_difference(&r);
    run_free(&r);
    /* A chess-only engine without options does for chess. */
    r = bisect("--engine", FAKE_ENGINE " --plain", "--startpos", "--depth", "2", "--turns",
               "single", NULL);
    expect_no_difference(&r);
    run_free(&r);
}

/* ---- the engine fails ---- */

static void test_engine_crashes(void **state)
{
    (void)state;
    Run r = bisect("--engine", FAKE_ENGINE " --crash", "--startpos", "--depth", "2", NULL);
    expect_failure(&r, "the engine exited (exit status 3) in the middle of its answer to "
                       "'go perft 2' for 'position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/"
                       "RNBQKBNR w KQkq - 0 1', after 10 move lines");
    run_free(&r);
}

static void test_engine_hangs(void **state)
{
    (void)state;
    Run r = bisect("--engine", FAKE_ENGINE " --hang", "--startpos", "--depth", "3", "--timeout",
                   "2", NULL);
    expect_failure(&r, "did not finish its answer to 'go perft 3'");
    expect_failure(&r, "within 2 s"); /* it returns at all: the fake engine never answers */
    run_free(&r);
}

static void test_engine_prints_garbage(void **state)
{
    (void)state;
    Run r = bisect("--engine", FAKE_ENGINE " --garbage", "--startpos", "--depth", "1", NULL);
    expect_failure(&r, "not perft output");
    expect_failure(&r, "'this is not perft output'");
    run_free(&r);
}

static void test_engine_cannot_start(void **state)
{
    (void)state;
    Run r = bisect("--engine", "/nonexistent/engine --flag", "--startpos", "--depth", "1", NULL);
    expect_failure(&r, "cannot run '/nonexistent/engine': No such file or directory");
    run_free(&r);
    r = bisect("--engine", "carrera-no-such-engine", "--startpos", "--depth", "1", NULL);
    expect_failure(&r, "cannot run 'carrera-no-such-engine'");
    run_free(&r);
    /* An engine that refuses its arguments and exits before uciok. */
    r = bisect("--engine", FAKE_ENGINE " --nonsense", "--startpos", "--depth", "1", NULL);
    expect_failure(&r, "exited before answering 'uci' with 'uciok' (exit status 2)");
    run_free(&r);
    /* A program that is no UCI engine at all: the handshake limit is the timeout, if shorter. */
    r = bisect("--engine", "/bin/cat", "--startpos", "--depth", "1", "--timeout", "1", NULL);
    expect_failure(&r, "did not answer 'uci' with 'uciok' within 1 s");
    run_free(&r);
}

static void test_engine_lacks_option(void **state)
{
    (void)state;
    Run r = bisect("--engine", FAKE_ENGINE " --plain", "--variant", "capablanca", "--startpos",
                   "--depth", "1", NULL);
    expect_failure(&r, "has no UCI_Variant option, so it cannot play capablanca");
    run_free(&r);
    r = bisect("--engine", FAKE_ENGINE " --plain", "--turns", "marseillais", "--startpos",
               "--depth", "1", NULL);
    expect_failure(&r, "has no TurnRules option, so it cannot count under marseillais rules");
    run_free(&r);
    r = bisect("--engine", FAKE_ENGINE " --plain", "--variant", "chess960", "--startpos", "--depth",
               "1", NULL);
    expect_failure(&r, "has no UCI_Chess960 option");
    run_free(&r);
}

/* ---- usage ---- */

static void expect_usage_error(const char *message, ...)
{
    const char *args[MAX_ARGS + 1];
    int n = 0;
    va_list ap;
    va_start(ap, message);
    for (const char *a = va_arg(ap, const char *); a; a = va_arg(ap, const char *)) {
        assert_true(n < MAX_ARGS);
        args[n++] = a;
    }
    va_end(ap);
    for (int i = n; i <= MAX_ARGS; i++)
        args[i] = NULL;
    Run r = bisect(args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7], args[8],
                   args[9], args[10], args[11], args[12], args[13], args[14], NULL);
    assert_true(n <= 14);
    if (r.status != 2 || strncmp(r.err, "carrera: error: ", 16) != 0 || !strstr(r.err, message) ||
        strchr(r.err, '\n') != r.err + strlen(r.err) - 1 || r.out[0] != '\0')
        fail_msg("expected status 2 and one line 'carrera: error: ...%s...', got status %d:\n%s%s",
                 message, r.status, r.err, r.out);
    run_free(&r);
}

#define FAKE FAKE_ENGINE

static void test_usage_errors(void **state)
{
    (void)state;
    expect_usage_error("needs --engine", "--startpos", "--depth", "2", NULL);
    expect_usage_error("command is empty", "--engine", " ", "--startpos", "--depth", "2", NULL);
    expect_usage_error("needs a position", "--engine", FAKE, "--depth", "2", NULL);
    expect_usage_error("only one of", "--engine", FAKE, "--startpos", "--fen", KIWIPETE, "--depth",
                       "2", NULL);
    expect_usage_error("needs --depth", "--engine", FAKE, "--startpos", NULL);
    expect_usage_error("at least 1", "--engine", FAKE, "--startpos", "--depth", "0", NULL);
    expect_usage_error("bad depth '31'", "--engine", FAKE, "--startpos", "--depth", "31", NULL);
    expect_usage_error("bad depth 'x'", "--engine", FAKE, "--startpos", "--depth=x", NULL);
    expect_usage_error("unknown variant 'chesss'", "--engine", FAKE, "--variant", "chesss",
                       "--startpos", "--depth", "1", NULL);
    expect_usage_error("bad FEN", "--engine", FAKE, "--fen", "8/8 w", "--depth", "1", NULL);
    expect_usage_error("bad FEN", "--engine", FAKE, "--variant", "capablanca", "--fen", KIWIPETE,
                       "--depth", "1", NULL);
    expect_usage_error("unknown option '--divide'", "--engine", FAKE, "--startpos", "--depth", "1",
                       "--divide", NULL);
    expect_usage_error("unexpected argument 'e2e4'", "--engine", FAKE, "--startpos", "--depth", "1",
                       "e2e4", NULL);
    expect_usage_error("bad timeout '0'", "--engine", FAKE, "--startpos", "--depth", "1",
                       "--timeout", "0", NULL);
    expect_usage_error("bad timeout '1.5'", "--engine", FAKE, "--startpos", "--depth", "1",
                       "--timeout=1.5", NULL);
    expect_usage_error("unknown turn rules 'double'", "--engine", FAKE, "--startpos", "--depth",
                       "1", "--turns", "double", NULL);
    expect_usage_error("unknown en passant rule 'old'", "--engine", FAKE, "--startpos", "--depth",
                       "1", "--ep-rule", "old", NULL);
    expect_usage_error("--depth given twice", "--engine", FAKE, "--startpos", "--depth", "1",
                       "--depth", "2", NULL);
    expect_usage_error("--startpos given twice", "--engine", FAKE, "--startpos", "--startpos",
                       "--depth", "1", NULL);
    expect_usage_error("--engine needs a value", "--startpos", "--depth", "1", "--engine", NULL);
    expect_usage_error("needs --variant chess960", "--engine", FAKE, "--chess960", "5", "--depth",
                       "1", NULL);
    expect_usage_error("bad Chess960 number '960'", "--engine", FAKE, "--variant", "chess960",
                       "--chess960", "960", "--depth", "1", NULL);

    Run r = bisect("--help", NULL);
    expect_status(&r, 0);
    assert_non_null(strstr(r.out, "usage: carrera bisect --engine COMMAND"));
    run_free(&r);
}

/* ---- against real engines (the `oracle` group) ---- */

static void need(const char *engine)
{
    if (access(engine, X_OK) != 0)
        fail_msg("%s is not installed (scripts/setup installs it)", engine);
}

static void test_fairy_stockfish(void **state)
{
    (void)state;
    need(CARRERA_FAIRY_STOCKFISH);
    Run r = bisect("--engine", CARRERA_FAIRY_STOCKFISH, "--fen", KIWIPETE, "--depth", "3", NULL);
    expect_no_difference(&r);
    assert_non_null(strstr(r.out, "97862 nodes"));
    run_free(&r);
    r = bisect("--engine", CARRERA_FAIRY_STOCKFISH, "--variant", "capablanca", "--startpos",
               "--depth", "3", NULL);
    expect_no_difference(&r);
    assert_non_null(strstr(r.out, "25228 nodes"));
    run_free(&r);
    /* Castling through the rooks of the 10x8 board. */
    r = bisect("--engine", CARRERA_FAIRY_STOCKFISH, "--variant", "capablanca", "--fen",
               "r4k3r/10/10/7r2/10/10/10/R4K3R w KQkq - 0 1", "--depth", "3", NULL);
    expect_no_difference(&r);
    run_free(&r);
    /* UCI_Chess960 and Shredder-FEN: chess960 as chess, caparandom as itself. */
    r = bisect("--engine", CARRERA_FAIRY_STOCKFISH, "--variant", "chess960", "--fen",
               "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1", "--depth", "3", NULL);
    expect_no_difference(&r);
    assert_non_null(strstr(r.out, "12333 nodes"));
    run_free(&r);
    r = bisect("--engine", CARRERA_FAIRY_STOCKFISH, "--variant", "caparandom", "--fen",
               "bqrnkcnrab/pppppppppp/10/10/10/10/PPPPPPPPPP/BQRNKCNRAB w HChc - 0 1", "--depth",
               "3", NULL);
    expect_no_difference(&r);
    run_free(&r);
    /* Fairy-Stockfish knows no double-move rules. */
    r = bisect("--engine", CARRERA_FAIRY_STOCKFISH, "--turns", "marseillais", "--startpos",
               "--depth", "1", NULL);
    expect_failure(&r, "has no TurnRules option");
    run_free(&r);
}

static void test_stockfish(void **state)
{
    (void)state;
    need(CARRERA_STOCKFISH);
    Run r = bisect("--engine", CARRERA_STOCKFISH, "--fen", KIWIPETE, "--depth", "3", NULL);
    expect_no_difference(&r);
    run_free(&r);
    /* Stockfish has UCI_Chess960 but no UCI_Variant: chess960 needs only the former. */
    r = bisect("--engine", CARRERA_STOCKFISH, "--variant", "chess960", "--chess960", "0", "--depth",
               "3", NULL);
    expect_no_difference(&r);
    run_free(&r);
    r = bisect("--engine", CARRERA_STOCKFISH, "--variant", "capablanca", "--startpos", "--depth",
               "1", NULL);
    expect_failure(&r, "has no UCI_Variant option, so it cannot play capablanca");
    run_free(&r);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "oracle") == 0) {
        // clang-format off: one test per line
        const struct CMUnitTest oracle[] = {
            cmocka_unit_test(test_fairy_stockfish),
            cmocka_unit_test(test_stockfish),
        };
        // clang-format on
        return cmocka_run_group_tests_name("bisect oracle", oracle, NULL, NULL);
    }
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dropped_move_deep),     cmocka_unit_test(test_no_en_passant),
        cmocka_unit_test(test_king_into_check),       cmocka_unit_test(test_unknown_move_text),
        cmocka_unit_test(test_make_move_bug),         cmocka_unit_test(test_turn_bug),
        cmocka_unit_test(test_against_carrera_uci),   cmocka_unit_test(test_fake_without_bug),
        cmocka_unit_test(test_engine_crashes),        cmocka_unit_test(test_engine_hangs),
        cmocka_unit_test(test_engine_prints_garbage), cmocka_unit_test(test_engine_cannot_start),
        cmocka_unit_test(test_engine_lacks_option),   cmocka_unit_test(test_usage_errors),
    };
    // clang-format on
    return cmocka_run_group_tests_name("bisect", tests, NULL, NULL);
}
