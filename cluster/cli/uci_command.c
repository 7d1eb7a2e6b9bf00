/* SPDX-License-Identifier: MIT */
/* `carrera uci` (uci_command.h): the evaluation file read, then the server's loop. */
#include "uci_command.h"

#include "cli_error.h"
#include "errmsg.h"
#include "eval.h"
#include "eval_config.h"
#include "options.h"
#include "uci_server.h"

void uci_usage(FILE *out)
{
    fputs("usage: carrera uci [--eval FILE]\n"
          "\n"
          "--eval FILE starts the evaluation parameters from the [eval] section of FILE (INI;\n"
          "configs/eval/default.ini lists them all); options still change them.\n"
          "Reads UCI commands on stdin, one per line, and answers on stdout:\n"
          "  uci | isready | ucinewgame | stop | quit\n"
          "  setoption name UCI_Variant value NAME\n"
          "  setoption name UCI_Chess960 value true|false\n"
          "  setoption name TurnRules value single|marseillais|marseillais-balanced|galvin|\n"
          "                                  bennekom|extramove\n"
          "  setoption name EnPassantRule value classic|modern\n"
          "  setoption name Hash value MB        (also: Clear Hash, and every evaluation\n"
          "                                       parameter, listed by `uci`)\n"
          "  position (startpos | fen FEN) [moves M1 M2 ...]\n"
          "  go [depth N] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS]\n"
          "     [movestogo N] [infinite]   searches; info lines, then bestmove\n"
          "  go perft N      prints what `carrera perft --divide` prints\n"
          "  d               prints the current position as FEN\n"
          "\n"
          "Under the double-move rules a turn is written as its movements joined by a comma,\n"
          "e.g. `bestmove e2e4,g1f3` and `position startpos moves e2e4,d2d4 e7e5,d7d5`.\n",
          out);
}

int uci_command(int argc, char **argv)
{
    const char *eval_file = NULL;
    const Option options[] = { { "--eval", &eval_file, NULL }, { NULL, NULL, NULL } };
    int parsed = options_parse(argc, argv, "uci", options);
    if (parsed == 1) {
        uci_usage(stdout);
        return EXIT_OK;
    }
    if (parsed < 0)
        return EXIT_USAGE;
    EvalParams params;
    eval_defaults(&params);
    char err[ERRMSG_LEN];
    if (eval_file && eval_config_read(eval_file, &params, err, sizeof err) != 0)
        return cli_error("%s", err);
    return uci_loop(stdin, stdout, &params);
}
