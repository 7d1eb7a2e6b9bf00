/* SPDX-License-Identifier: MIT */
/* The `carrera bisect` command: the options parsed and validated into a request, then the
 * engine started and the finding of the search (bisect_search.h) printed on stdout. */
#define _POSIX_C_SOURCE 200809L

#include "bisect.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bisect_search.h"
#include "cli_error.h"
#include "errmsg.h"
#include "number.h"
#include "options.h"
#include "oracle.h"
#include "variant.h"

#define DEFAULT_TIMEOUT_S 600
#define MAX_TIMEOUT_S     1000000

void bisect_usage(FILE *out)
{
    fputs("usage: carrera bisect --engine COMMAND [--variant NAME]\n"
          "                      (--startpos | --fen FEN | --chess960 N) --depth D\n"
          "                      [--turns RULES] [--ep-rule classic|modern]\n"
          "                      [--timeout SECONDS] [--quiet]\n"
          "\n"
          "Finds where a UCI engine's perft differs from Carrera's: compares the divides,\n"
          "descends into a differing move (the one with the smallest subtree) one ply at a\n"
          "time, and prints the position where the move lists differ.\n"
          "\n"
          "  --engine COMMAND  the engine and its arguments, split at spaces (no shell)\n"
          "  --variant NAME    rule set (default chess); `carrera --help` lists them\n"
          "  --startpos        the variant's standard start position\n"
          "  --fen FEN         a position as FEN, quoted as one argument\n"
          "  --chess960 N      Chess960 start array number N; only with --variant chess960\n"
          "  --depth D         depth in plies (turns under double-move rules), 1 to 30\n"
          "  --turns RULES     turn rules, sent as the engine's TurnRules option: single,\n"
          "                    marseillais, marseillais-balanced, galvin, bennekom, extramove\n"
          "  --ep-rule R       en passant under double-move rules (EnPassantRule option)\n"
          "  --timeout S       seconds to wait for each `go perft` answer (default 600)\n"
          "  --quiet           no progress on stderr\n"
          "\n"
          "Exit status: 0 no difference, 1 a difference (reported on stdout), 2 usage error,\n"
          "3 the engine failed (cannot start, exited, timed out, unreadable output) or the\n"
          "run failed (the report cannot be written, memory).\n",
          out);
}

/* The options as given. */
typedef struct BisectArgs {
    PositionArgs pos;
    const char *engine, *depth, *timeout;
    bool quiet;
} BisectArgs;

/* The request once validated. */
typedef struct BisectRequest {
    OracleOptions engine;
    Setup setup;
    Rules rules;
    int depth;
    bool quiet;
} BisectRequest;

/* Fills a from argv; returns as options_parse does. */
static int parse(int argc, char **argv, BisectArgs *a)
{
    *a = (BisectArgs){ 0 };
    const Option options[] = {
        { "--engine", &a->engine, NULL },     { "--variant", &a->pos.variant, NULL },
        { "--fen", &a->pos.fen, NULL },       { "--chess960", &a->pos.chess960, NULL },
        { "--random", &a->pos.random, NULL }, { "--startpos", NULL, &a->pos.startpos },
        { "--turns", &a->pos.turns, NULL },   { "--ep-rule", &a->pos.ep_rule, NULL },
        { "--depth", &a->depth, NULL },       { "--timeout", &a->timeout, NULL },
        { "--quiet", NULL, &a->quiet },       { NULL, NULL, NULL },
    };
    return options_parse(argc, argv, "bisect", options);
}

/* Checks every option and reads them into *r. Returns 0, or the exit status of the usage error
 * (reported). */
static int validate(const BisectArgs *a, BisectRequest *r)
{
    *r = (BisectRequest){ .quiet = a->quiet };
    if (!a->engine)
        return cli_error(
            "bisect needs --engine COMMAND (e.g. --engine /usr/games/fairy-stockfish)");
    if (strspn(a->engine, " \t\r\n") == strlen(a->engine))
        return cli_error("the --engine command is empty");
    if (options_position(&a->pos, "bisect", &r->setup, &r->rules) != 0)
        return EXIT_USAGE;
    if (!a->depth)
        return cli_error("bisect needs --depth D");
    char err[ERRMSG_LEN];
    if (divide_parse_depth(a->depth, &r->depth, err, sizeof err) != 0)
        return cli_error("%s", err);
    if (r->depth == 0)
        return cli_error("bisect needs --depth of at least 1 (depth 0 has no moves to compare)");
    long timeout_s = DEFAULT_TIMEOUT_S;
    if (a->timeout && !number_parse(a->timeout, 1, MAX_TIMEOUT_S, &timeout_s))
        return cli_error("bad timeout '%s': must be a whole number of seconds from 1 to %d",
                         a->timeout, MAX_TIMEOUT_S);
    r->engine = (OracleOptions){
        .protocol = ORACLE_UCI,
        .command = a->engine,
        .variant = r->setup.variant,
        .rules = r->rules,
        .send_turns = a->pos.turns != NULL,
        .send_ep = a->pos.ep_rule != NULL,
        .timeout_ms = (int)(timeout_s * 1000),
    };
    return EXIT_OK;
}

/* Starts the engine, searches and prints the finding. Returns the exit status. */
static int run(const BisectRequest *r)
{
    const Variant *v = r->setup.variant;
    char err[ERRMSG_LEN];
    Oracle e;
    if (oracle_start(&e, &r->engine, err, sizeof err) != 0)
        return run_error(BISECT_FAILED, "%s", err);
    if (!r->quiet)
        fprintf(stderr, "bisect: engine %s (%s), %s, %s rules, depth %d\n",
                e.uci.id_name[0] ? e.uci.id_name : "without a name", r->engine.command, v->name,
                turn_rules_name(r->rules.turns), r->depth);

    BisectRules b = bisect_rules(v, r->rules);
    Position root;
    position_from_setup(&root, &r->setup);
    Finding f;
    int status = bisect_search(&b, &e, &root, r->depth, r->quiet, &f, err, sizeof err);
    oracle_stop(&e);
    if (status == BISECT_FAILED)
        run_error(status, "%s", err);
    else if (status == BISECT_SAME)
        printf("no difference: carrera and the engine agree on all %zu %s at depth %d "
               "(%" PRIu64 " nodes)\n",
               f.n_moves, r->rules.turns == TURNS_SINGLE ? "moves" : "turns", r->depth, f.nodes);
    else
        fputs(f.report, stdout);
    finding_free(&f);
    if (fflush(stdout) != 0 || ferror(stdout))
        return run_error(EXIT_FAILED, "the report could not be written");
    return status;
}

int bisect_command(int argc, char **argv)
{
    BisectArgs a;
    int parsed = parse(argc, argv, &a);
    if (parsed < 0)
        return EXIT_USAGE;
    if (parsed > 0) {
        bisect_usage(stdout);
        return EXIT_OK;
    }
    BisectRequest r;
    int status = validate(&a, &r);
    return status != EXIT_OK ? status : run(&r);
}
