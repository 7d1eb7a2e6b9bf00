/* SPDX-License-Identifier: MIT */
/* `carrera uci` (uci_command.h): its help text, and the start shared with `carrera xboard`. */
#include "uci_command.h"

#include "protocol_command.h"
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
          "                                       parameter; `uci` lists all but the\n"
          "                                       piece-square and mobility shapes' terms)\n"
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
    return protocol_command(argc, argv, "uci", uci_usage, uci_loop);
}
