/* SPDX-License-Identifier: MIT */
/* `carrera bench`: a fixed search over positions of every board and rule set, one thread, fixed
 * depth, a fresh table per position. The total node count is the engine's signature: it changes
 * exactly when the search or the evaluation changes, so a test compares it with the value kept
 * in the repository (tests/data/bench_signature) and a commit that changes play must say so by
 * updating it. The speed printed beside it is for information only. */
#define _POSIX_C_SOURCE 200809L

#include "bench.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_error.h"
#include "clock.h"
#include "engine.h"
#include "errmsg.h"
#include "eval.h"
#include "eval_config.h"
#include "number.h"
#include "options.h"
#include "setup.h"
#include "variant.h"

typedef struct BenchPosition {
    const char *variant;
    TurnRules turns;
    const char *fen; /* NULL: the variant's start (random arrays: from seed) */
    uint64_t seed;
} BenchPosition;

/* Openings, middlegames and endings of the single-move variants, then the double-move rule sets
 * from their usual starts. Searched to the depth given; double-move positions to a third of it
 * (a turn of theirs holds two movements and thousands of turns). */
static const BenchPosition positions[] = {
    { "chess", TURNS_SINGLE, NULL, 0 },
    { "chess", TURNS_SINGLE, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      0 },
    { "chess", TURNS_SINGLE, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
      0 },
    { "chess", TURNS_SINGLE, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 0 },
    { "chess", TURNS_SINGLE, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 0 },
    { "chess960", TURNS_SINGLE, NULL, 7 },
    { "capablanca", TURNS_SINGLE, NULL, 0 },
    { "capablanca", TURNS_SINGLE,
      "r1a1qkbc1r/ppp1pppppp/2nb3n2/3p6/3P6/2NB3N2/PPP1PPPPPP/R1A1QKBC1R w KQkq - 4 5", 0 },
    { "capablanca", TURNS_SINGLE, "6k3/5ppp2/10/10/10/10/5PPP2/2A3K3 w - - 0 1", 0 },
    { "gothic", TURNS_SINGLE, NULL, 0 },
    { "embassy", TURNS_SINGLE, NULL, 0 },
    { "janus", TURNS_SINGLE, NULL, 0 },
    { "caparandom", TURNS_SINGLE, NULL, 11 },
    { "chess", TURNS_MARSEILLAIS, NULL, 0 },
    { "chess", TURNS_BALANCED, NULL, 0 },
    { "capablanca", TURNS_BALANCED, NULL, 0 },
    { "chess", TURNS_GALVIN, NULL, 0 },
    { "chess", TURNS_BENNEKOM, NULL, 0 },
    { "chess", TURNS_EXTRAMOVE, NULL, 0 },
};

#define BENCH_DEPTH   9
#define BENCH_HASH_MB 16

void bench_usage(FILE *out)
{
    fprintf(
        out,
        "usage: carrera bench [--depth N] [--eval FILE]\n"
        "\n"
        "Searches %zu fixed positions (every board, every rule set) with one thread to depth N\n"
        "(default %d; double-move rule sets to N/3 turns) with a fresh %d MiB table each, and\n"
        "prints the nodes of each and their total: the engine's signature, which changes\n"
        "exactly when its search or evaluation changes. --eval FILE: evaluation parameters\n"
        "from the [eval] section of FILE instead of the defaults (the signature then differs).\n",
        sizeof positions / sizeof *positions, BENCH_DEPTH, BENCH_HASH_MB);
}

/* The position of b in p. Returns the exit status: one of the bench's own positions that cannot
 * be read is a fault of the program, not of the request. */
static int build(const BenchPosition *b, Position *p)
{
    const Variant *v = variant_by_name(b->variant);
    Rules r = { b->turns, EP_CLASSIC };
    Setup s;
    char err[ERRMSG_LEN];
    if (b->fen) {
        if (setup_from_fen_rules(&s, v, &r, b->fen, err, sizeof err) != 0)
            return run_error(EXIT_FAILED, "bench position '%s' is invalid: %s", b->fen, err);
    } else if (v->random_array) {
        setup_random(&s, v, b->seed);
    } else {
        setup_start(&s, v);
    }
    position_from_setup(p, &s);
    return EXIT_OK;
}

/* The request once validated: the depth and the evaluation searched with. */
typedef struct BenchRequest {
    int depth;
    EvalParams params;
} BenchRequest;

/* Reads and checks the options into *r. Returns 0, or the exit status of the usage error
 * (reported). */
static int validate(const char *depth_text, const char *eval_file, BenchRequest *r)
{
    long depth = BENCH_DEPTH;
    if (depth_text && !number_parse(depth_text, 1, MAX_PLY - 1, &depth))
        return cli_error("--depth takes a whole number from 1 to %d, not '%s'", MAX_PLY - 1,
                         depth_text);
    r->depth = (int)depth;
    eval_defaults(&r->params);
    char err[ERRMSG_LEN];
    if (eval_file && eval_config_read(eval_file, &r->params, err, sizeof err) != 0)
        return cli_error("%s", err);
    return EXIT_OK;
}

/* The depth position b is searched to: a third of a double-move rule set's (a turn of theirs holds
 * two movements and thousands of turns). */
static int depth_of(const BenchPosition *b, int depth)
{
    return b->turns == TURNS_SINGLE ? depth : (depth + 2) / 3;
}

/* Searches position b to depth with a new game of engine; its nodes into *nodes. Returns the
 * exit status. */
static int search(Engine *engine, const BenchPosition *b, int depth, uint64_t *nodes)
{
    Position p;
    int status = build(b, &p);
    if (status != EXIT_OK)
        return status;
    Rules rules = { b->turns, EP_CLASSIC };
    char err[ERRMSG_LEN];
    /* a new game each: an empty table, no history */
    if (engine_new_game(engine, &p, &rules, false, err, sizeof err) != 0)
        return run_error(EXIT_FAILED, "%s", err);
    EngineGo go = { .limits = search_limits_none() };
    go.limits.depth = depth;
    EngineResult r;
    if (engine_search(engine, &go, &r, err, sizeof err) != 0)
        return run_error(EXIT_FAILED, "%s", err);
    *nodes = r.final.nodes;
    return EXIT_OK;
}

static int run(const BenchRequest *r)
{
    char err[ERRMSG_LEN];
    Engine *engine = engine_new(BENCH_HASH_MB, &r->params, err, sizeof err);
    if (!engine)
        return run_error(EXIT_FAILED, "out of memory");
    uint64_t total = 0;
    int64_t start = monotonic_ms();
    int status = EXIT_OK;
    size_t count = sizeof positions / sizeof *positions;
    for (size_t i = 0; i < count; i++) {
        const BenchPosition *b = &positions[i];
        const int depth = depth_of(b, r->depth);
        uint64_t nodes = 0;
        int64_t t0 = monotonic_ms();
        status = search(engine, b, depth, &nodes);
        if (status != EXIT_OK)
            break;
        fprintf(stderr, "%2zu/%zu %-10s %-20s depth %2d nodes %10" PRIu64 " %6" PRId64 " ms\n",
                i + 1, count, b->variant, turn_rules_name(b->turns), depth, nodes,
                monotonic_ms() - t0);
        total += nodes;
    }
    if (status == EXIT_OK) {
        int64_t ms = monotonic_ms() - start;
        printf("Total time (ms) : %" PRId64 "\n", ms);
        printf("Nodes searched  : %" PRIu64 "\n", total);
        printf("Nodes/second    : %" PRIu64 "\n", ms > 0 ? total * 1000 / (uint64_t)ms : total);
        /* the signature a test or script reads: lost, it is a failure like any other output's */
        if (fflush(stdout) != 0 || ferror(stdout))
            status = run_error(EXIT_FAILED, "cannot write the output");
    }
    engine_free(engine);
    return status;
}

int bench_command(int argc, char **argv)
{
    const char *depth_text = NULL, *eval_file = NULL;
    const Option options[] = { { "--depth", &depth_text, NULL },
                               { "--eval", &eval_file, NULL },
                               { NULL, NULL, NULL } };
    int parsed = options_parse(argc, argv, "bench", options);
    if (parsed == 1) {
        bench_usage(stdout);
        return EXIT_OK;
    }
    if (parsed < 0)
        return EXIT_USAGE;
    BenchRequest r;
    int status = validate(depth_text, eval_file, &r);
    return status != EXIT_OK ? status : run(&r);
}
