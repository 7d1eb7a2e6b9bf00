/* SPDX-License-Identifier: MIT */
/* `carrera xboard` (xboard_command.h): its help text, and the start shared with `carrera uci`. */
#include "xboard_command.h"

#include "protocol_command.h"
#include "xboard_server.h"

void xboard_usage(FILE *out)
{
    fputs("usage: carrera xboard [--eval FILE]\n"
          "\n"
          "--eval FILE starts the evaluation parameters from the [eval] section of FILE (INI;\n"
          "configs/eval/default.ini lists them all); options still change them.\n"
          "Speaks the xboard protocol (CECP v2) on stdin and stdout, for XBoard, WinBoard and\n"
          "cutechess (proto=xboard); start it as `xboard -fcp \"carrera xboard\"`.\n"
          "Variants: normal, fischerandom, capablanca, gothic, janus, caparandom, and embassy\n"
          "(engine-defined: described to the GUI by a setup line). Moves in coordinates\n"
          "(e2e4, e7e8q, b7b8c; castling as the king's move, O-O/O-O-O in the shuffle variants).\n"
          "The double-move rule sets are refused: a turn of two movements is not a CECP move;\n"
          "play them with `carrera uci`. docs/xboard.md lists every command.\n",
          out);
}

int xboard_command(int argc, char **argv)
{
    return protocol_command(argc, argv, "xboard", xboard_usage, xboard_loop);
}
