/* SPDX-License-Identifier: MIT */
/* `carrera uci`: Carrera's engine over UCI on stdin and stdout (uci/uci_server.h). */
#ifndef CARRERA_UCI_COMMAND_H
#define CARRERA_UCI_COMMAND_H

#include <stdio.h>

/* `carrera uci [--eval FILE]` (argv[0] is "uci"); returns the exit status. */
int uci_command(int argc, char **argv);

/* Writes the help text of `carrera uci`. */
void uci_usage(FILE *out);

#endif
