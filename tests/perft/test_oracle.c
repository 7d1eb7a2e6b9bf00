/* SPDX-License-Identifier: MIT */
/* Carrera's perft against an independent program: Fairy-Stockfish, over UCI. For each variant,
 * seeded random games from the start array (random arrays for the 960 variants) stop at a random
 * ply; at each such position both programs divide perft at a small depth and every root move's
 * count must agree. Catches what fixed suites miss: odd piece placements, promotions, en passant
 * and castling rights in the middle of a game. */
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
#include "move.h"
#include "position.h"
#include "rng.h"
#include "setup.h"
#include "subprocess.h"
#include "variant.h"

#ifndef CARRERA_FAIRY_STOCKFISH
#define CARRERA_FAIRY_STOCKFISH "/usr/games/fairy-stockfish"
#endif
#ifndef CARRERA_FSF_VARIANTS
#define CARRERA_FSF_VARIANTS "tests/data/fairy-stockfish/variants.ini"
#endif

#define MAX_PLIES 40
/* Generous: one answer is a depth-3 perft of a few ten thousand nodes. */
#define REPLY_TIMEOUT_MS 60000
/* Mismatching positions printed in full per variant; the rest are only counted. */
#define MAX_REPORTED       5
#define MAX_LINES_REPORTED 12

typedef struct OracleCase {
    const char *variant;     /* Carrera's name */
    const char *fsf_variant; /* Fairy-Stockfish's UCI_Variant (tests/data/fairy-stockfish's own
                              * variants.ini defines those it lacks) */
    bool chess960;           /* Fairy-Stockfish's UCI_Chess960 */
    int depth;
    int positions;
    uint64_t seed;
    /* Every position of the tree down to depth - 1 plies given as FEN without en passant
     * squares and its moves compared, instead of the divide at depth: for a variant without en
     * passant, which Fairy-Stockfish 11.1 cannot switch off but never offers from such a FEN.
     * The same moves at every node give the same perft at depth. */
    bool per_node;
} OracleCase;

typedef struct DivideLine {
    char move[MOVE_TEXT_MAX + 8];
    uint64_t count;
} DivideLine;

typedef struct Divide {
    DivideLine lines[MAX_MOVES];
    int n;
    uint64_t total;
} Divide;

/* The engine stays up across the variants: its start-up costs more than a position. */
static Subprocess engine;
static bool engine_up;
static char engine_error[ERRMSG_LEN + 128]; /* the error and the advice after it */

static int start_engine(void **state)
{
    (void)state;
    char *const argv[] = { CARRERA_FAIRY_STOCKFISH, NULL };
    char err[ERRMSG_LEN];
    if (subprocess_start(&engine, argv, err, sizeof err) != 0) {
        snprintf(engine_error, sizeof engine_error,
                 "%s. The oracle test needs Fairy-Stockfish (Debian package fairy-stockfish; "
                 "scripts/setup installs it).",
                 err);
        return 0;
    }
    subprocess_send(&engine, "uci\nsetoption name VariantPath value " CARRERA_FSF_VARIANTS "\n");
    char line[4096];
    int got;
    while ((got = subprocess_read_line(&engine, line, sizeof line, REPLY_TIMEOUT_MS)) == 1)
        if (strcmp(line, "uciok") == 0) {
            engine_up = true;
            return 0;
        }
    snprintf(engine_error, sizeof engine_error, "%s did not answer 'uci' with 'uciok'",
             CARRERA_FAIRY_STOCKFISH);
    return 0;
}

static int stop_engine(void **state)
{
    (void)state;
    if (engine.pid > 0) {
        subprocess_send(&engine, "quit\n");
        subprocess_finish(&engine, 5000);
    }
    return 0;
}

/* Sends the commands and reads until a line starting with until; returns that line in last. */
static void engine_ask(const char *commands, const char *until, char *last, size_t lastlen,
                       Divide *divide)
{
    if (subprocess_send(&engine, commands) != 0)
        fail_msg("Fairy-Stockfish has gone (writing '%s')", commands);
    if (divide) {
        divide->n = 0;
        divide->total = 0;
    }
    char line[4096];
    for (;;) {
        int got = subprocess_read_line(&engine, line, sizeof line, REPLY_TIMEOUT_MS);
        if (got != 1)
            fail_msg("Fairy-Stockfish %s after '%s'", got == 0 ? "exited" : "went silent",
                     commands);
        if (strncmp(line, until, strlen(until)) == 0)
            break;
        char move[sizeof divide->lines[0].move];
        uint64_t count;
        if (divide && sscanf(line, "%15[a-z0-9]: %" SCNu64, move, &count) == 2) {
            assert_true(divide->n < MAX_MOVES);
            DivideLine *d = &divide->lines[divide->n++];
            snprintf(d->move, sizeof d->move, "%s", move);
            d->count = count;
            divide->total += count;
        }
    }
    snprintf(last, lastlen, "%s", line);
}

static int by_move(const void *a, const void *b)
{
    return strcmp(((const DivideLine *)a)->move, ((const DivideLine *)b)->move);
}

/* Carrera's divide of p, castling written as the oracle writes it. */
static void carrera_divide(const Position *p, int depth, bool castle960, Divide *d)
{
    Move moves[MAX_MOVES];
    Position child;
    d->n = position_legal_moves(p, moves);
    d->total = 0;
    for (int i = 0; i < d->n; i++) {
        position_make(p, moves[i], &child);
        d->lines[i].count = depth > 1 ? perft(&child, depth - 1) : 1;
        move_to_uci(moves[i], p->variant, castle960, d->lines[i].move);
        d->total += d->lines[i].count;
    }
}

/* Whether two divides agree move by move; with report, prints how they differ. */
static bool same_divide(Divide *ours, Divide *theirs, const char *fen, bool report)
{
    qsort(ours->lines, (size_t)ours->n, sizeof ours->lines[0], by_move);
    qsort(theirs->lines, (size_t)theirs->n, sizeof theirs->lines[0], by_move);
    bool same = ours->total == theirs->total && ours->n == theirs->n;
    for (int i = 1; i < ours->n; i++)
        if (strcmp(ours->lines[i].move, ours->lines[i - 1].move) == 0) {
            same = false;
            if (report)
                print_error("    %s: carrera lists this move text twice\n", ours->lines[i].move);
        }
    int i = 0, j = 0, shown = 0;
    while (i < ours->n || j < theirs->n) {
        int c = i == ours->n     ? 1
                : j == theirs->n ? -1
                                 : strcmp(ours->lines[i].move, theirs->lines[j].move);
        if (c == 0 && ours->lines[i].count == theirs->lines[j].count) {
            i++, j++;
            continue;
        }
        same = false;
        if (report && shown++ < MAX_LINES_REPORTED) {
            if (c == 0)
                print_error("    %s: carrera %" PRIu64 ", fairy-stockfish %" PRIu64 "\n",
                            ours->lines[i].move, ours->lines[i].count, theirs->lines[j].count);
            else if (c < 0)
                print_error("    %s: carrera %" PRIu64 ", not a fairy-stockfish move\n",
                            ours->lines[i].move, ours->lines[i].count);
            else
                print_error("    %s: not a carrera move, fairy-stockfish %" PRIu64 "\n",
                            theirs->lines[j].move, theirs->lines[j].count);
        }
        if (c <= 0)
            i++;
        if (c >= 0)
            j++;
    }
    if (!same && report)
        print_error("    totals: carrera %" PRIu64 " (%d moves), fairy-stockfish %" PRIu64
                    " (%d moves)\n    position: %s\n",
                    ours->total, ours->n, theirs->total, theirs->n, fen);
    return same;
}

/* A position after 0..MAX_PLIES random moves that still has a legal move. */
static void random_position(const Variant *v, Rng *rng, Position *p)
{
    for (;;) {
        Setup s;
        if (v->random_array)
            setup_random(&s, v, rng_next(rng));
        else
            setup_start(&s, v);
        position_from_setup(p, &s);
        int plies = (int)rng_below(rng, MAX_PLIES + 1);
        Move moves[MAX_MOVES];
        int n = position_legal_moves(p, moves);
        for (int ply = 0; ply < plies && n > 0; ply++) {
            position_make(p, moves[rng_below(rng, (uint64_t)n)], p);
            n = position_legal_moves(p, moves);
        }
        if (n > 0)
            return;
        /* The game ended on the way: perft of a finished game says little. Draw again. */
    }
}

/* Fairy-Stockfish's divide of the position fen at depth. */
static void engine_divide(const char *fen, int depth, Divide *theirs)
{
    char commands[512], last[4096];
    snprintf(commands, sizeof commands, "position fen %s\ngo perft %d\n", fen, depth);
    engine_ask(commands, "Nodes searched:", last, sizeof last, theirs);
    uint64_t reported;
    if (sscanf(last, "Nodes searched: %" SCNu64, &reported) != 1 || reported != theirs->total)
        fail_msg("cannot read Fairy-Stockfish's divide ('%s', lines sum to %" PRIu64 ") for %s",
                 last, theirs->total, fen);
}

/* p's FEN; with no_ep, without en passant squares, so that Fairy-Stockfish offers none
 * whatever Carrera's position holds. */
static void position_fen(const Position *p, bool castle960, bool no_ep, char fen[FEN_MAX])
{
    Setup s;
    position_to_setup(p, &s);
    if (no_ep)
        s.ep[0] = s.ep[1] = NO_SQUARE;
    /* Shredder-FEN names the rook of each right: no ambiguity for random arrays. */
    setup_to_fen(&s, castle960 ? FEN_CASTLING_SHREDDER : FEN_CASTLING_KQ, fen, FEN_MAX);
}

/* The positions of the tree below p down to plies, each one's moves compared with Fairy-
 * Stockfish's from its FEN; the differing positions are counted into *failures and the first
 * reported. Returns the positions compared. */
static uint64_t compare_nodes(const Position *p, int plies, const OracleCase *c, int *failures)
{
    static Divide ours, theirs;
    char fen[FEN_MAX];
    position_fen(p, c->chess960, true, fen);
    engine_divide(fen, 1, &theirs);
    carrera_divide(p, 1, p->variant->castle960, &ours);
    if (!same_divide(&ours, &theirs, fen, false)) {
        if (*failures < MAX_REPORTED) {
            print_error("%s: the moves differ:\n", c->variant);
            same_divide(&ours, &theirs, fen, true);
        }
        ++*failures;
    }
    uint64_t nodes = 1;
    if (plies > 0) {
        Move moves[MAX_MOVES];
        const int n = position_legal_moves(p, moves);
        for (int i = 0; i < n; i++) {
            Position child;
            position_make(p, moves[i], &child);
            nodes += compare_nodes(&child, plies - 1, c, failures);
        }
    }
    return nodes;
}

static void test_variant(void **state)
{
    const OracleCase *c = *state;
    if (!engine_up)
        fail_msg("%s", engine_error);
    const Variant *v = variant_by_name(c->variant);
    if (!v)
        fail_msg("Carrera has no variant '%s'", c->variant);

    char commands[512], last[4096];
    snprintf(commands, sizeof commands,
             "setoption name UCI_Chess960 value %s\nsetoption name UCI_Variant value %s\n"
             "isready\n",
             c->chess960 ? "true" : "false", c->fsf_variant);
    engine_ask(commands, "readyok", last, sizeof last, NULL);

    static Divide ours, theirs;
    Rng rng = rng_new(c->seed);
    int failures = 0;
    uint64_t nodes = 0;
    for (int i = 0; i < c->positions; i++) {
        Position p;
        char fen[FEN_MAX];
        random_position(v, &rng, &p);
        if (c->per_node) {
            nodes += compare_nodes(&p, c->depth - 1, c, &failures);
            continue;
        }
        position_fen(&p, c->chess960, false, fen);
        engine_divide(fen, c->depth, &theirs);
        carrera_divide(&p, c->depth, v->castle960, &ours);
        nodes += ours.total;
        if (!same_divide(&ours, &theirs, fen, false)) {
            if (failures < MAX_REPORTED) {
                print_error("%s position %d, perft %d differs:\n", c->variant, i, c->depth);
                same_divide(&ours, &theirs, fen, true);
            }
            failures++;
        }
    }
    print_message("%s: %d positions at depth %d, %" PRIu64 " %s, %d differ\n", c->variant,
                  c->positions, c->depth, nodes,
                  c->per_node ? "positions' moves compared" : "nodes", failures);
    if (failures)
        fail_msg("%s: %d of %d positions differ from Fairy-Stockfish", c->variant, failures,
                 c->positions);
}

int main(void)
{
    /* clang-format off */
    static const OracleCase cases[] = {
        { "chess",      "chess",      false, 3, 200, 1, false },
        { "chess960",   "chess",      true,  3, 200, 2, false },
        { "capablanca", "capablanca", false, 3, 200, 3, false },
        { "gothic",     "gothic",     false, 3, 200, 4, false },
        { "embassy",    "embassy",    false, 3, 200, 5, false },
        { "janus",      "janus",      false, 3, 200, 6, false },
        { "caparandom", "caparandom", true,  3, 200, 7, false },
        { "bird",       "bird",       false, 3, 200, 8, false },
        { "carrera",    "carrera",    false, 3, 40,  9, true },
    };
    /* clang-format on */
    struct CMUnitTest tests[sizeof cases / sizeof cases[0]];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        tests[i] = (struct CMUnitTest){ .name = cases[i].variant,
                                        .test_func = test_variant,
                                        .initial_state = (void *)&cases[i] };
    return cmocka_run_group_tests_name("oracle", tests, start_engine, stop_engine);
}
