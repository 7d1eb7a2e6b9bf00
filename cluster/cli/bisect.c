/* SPDX-License-Identifier: MIT */
/* The `carrera bisect` command: the options, the engine, and the finding of the search
 * (bisect_search.h) printed on stdout. */
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

int bisect_command(int argc, char **argv)
{
    PositionArgs pos = { 0 };
    const char *engine = NULL, *depth_text = NULL, *timeout = NULL;
    bool quiet = false;
    const Option options[] = {
        { "--engine", &engine, NULL },     { "--variant", &pos.variant, NULL },
        { "--fen", &pos.fen, NULL },       { "--chess960", &pos.chess960, NULL },
        { "--random", &pos.random, NULL }, { "--startpos", NULL, &pos.startpos },
        { "--turns", &pos.turns, NULL },   { "--ep-rule", &pos.ep_rule, NULL },
        { "--depth", &depth_text, NULL },  { "--timeout", &timeout, NULL },
        { "--quiet", NULL, &quiet },       { NULL, NULL, NULL },
    };
    int parsed = options_parse(argc, argv, "bisect", options);
    if (parsed < 0)
        return EXIT_USAGE;
    if (parsed > 0) {
        bisect_usage(stdout);
        return EXIT_OK;
    }

    if (!engine)
        return cli_error(
            "bisect needs --engine COMMAND (e.g. --engine /usr/games/fairy-stockfish)");
    if (strspn(engine, " \t\r\n") == strlen(engine))
        return cli_error("the --engine command is empty");
    Setup s;
    Rules rules;
    if (options_position(&pos, "bisect", &s, &rules) != 0)
        return EXIT_USAGE;
    const Variant *v = s.variant;
    if (!depth_text)
        return cli_error("bisect needs --depth D");
    int depth;
    char err[ERRMSG_LEN];
    if (divide_parse_depth(depth_text, &depth, err, sizeof err) != 0)
        return cli_error("%s", err);
    if (depth == 0)
        return cli_error("bisect needs --depth of at least 1 (depth 0 has no moves to compare)");
    long timeout_s = DEFAULT_TIMEOUT_S;
    if (timeout && !number_parse(timeout, 1, MAX_TIMEOUT_S, &timeout_s))
        return cli_error("bad timeout '%s': must be a whole number of seconds from 1 to %d",
                         timeout, MAX_TIMEOUT_S);

    OracleOptions oo = {
        .protocol = ORACLE_UCI,
        .command = engine,
        .variant = v,
        .rules = rules,
        .send_turns = pos.turns != NULL,
        .send_ep = pos.ep_rule != NULL,
        .timeout_ms = (int)(timeout_s * 1000),
    };
    Oracle e;
    if (oracle_start(&e, &oo, err, sizeof err) != 0)
        return run_error(BISECT_FAILED, "%s", err);
    if (!quiet)
        fprintf(stderr, "bisect: engine %s (%s), %s, %s rules, depth %d\n",
                e.uci.id_name[0] ? e.uci.id_name : "without a name", engine, v->name,
                turn_rules_name(rules.turns), depth);

    BisectRules b = bisect_rules(v, rules);
    Position root;
    position_from_setup(&root, &s);
    Finding f;
    int status = bisect_search(&b, &e, &root, depth, quiet, &f, err, sizeof err);
    oracle_stop(&e);
    if (status == BISECT_FAILED)
        run_error(status, "%s", err);
    else if (status == BISECT_SAME)
        printf("no difference: carrera and the engine agree on all %zu %s at depth %d "
               "(%" PRIu64 " nodes)\n",
               f.n_moves, rules.turns == TURNS_SINGLE ? "moves" : "turns", depth, f.nodes);
    else
        fputs(f.report, stdout);
    finding_free(&f);
    if (fflush(stdout) != 0 || ferror(stdout))
        return run_error(EXIT_FAILED, "the report could not be written");
    return status;
}
