/* SPDX-License-Identifier: MIT */
/* `carrera xboard`: Carrera's engine over the xboard protocol (CECP v2) on stdin and stdout
 * (uci/xboard_server.h). */
#ifndef CARRERA_XBOARD_COMMAND_H
#define CARRERA_XBOARD_COMMAND_H

#include <stdio.h>

/* `carrera xboard [--eval FILE]` (argv[0] is "xboard"); returns the exit status. */
int xboard_command(int argc, char **argv);

/* Writes the help text of `carrera xboard`. */
void xboard_usage(FILE *out);

#endif
