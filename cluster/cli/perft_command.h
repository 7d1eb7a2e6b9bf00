/* SPDX-License-Identifier: MIT */
/* The `carrera perft` command: reads its options, builds the position and prints perft. */
#ifndef CARRERA_PERFT_COMMAND_H
#define CARRERA_PERFT_COMMAND_H

#include <stdio.h>

/* argv[0] is "perft". Returns the exit status (0, or EXIT_USAGE after a usage error). */
int perft_command(int argc, char **argv);

/* Writes the command's help text. */
void perft_usage(FILE *out);

#endif
