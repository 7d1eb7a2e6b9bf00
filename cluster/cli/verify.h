/* SPDX-License-Identifier: MIT */
/* The `carrera verify` command: many positions of a rule set against an external engine's
 * perft, every disagreement bisected to its smallest position and grouped by what differs. */
#ifndef CARRERA_VERIFY_H
#define CARRERA_VERIFY_H

#include <stdio.h>

/* Exit statuses: 0 every position agrees, 1 a disagreement (or an engine failure on some
 * position, or a wrong suite line), EXIT_USAGE (2), VERIFY_UNUSABLE when the engine could not be
 * used at all. */
#define VERIFY_UNUSABLE 3

/* argv[0] is "verify". Returns the exit status. */
int verify_command(int argc, char **argv);

/* Writes the command's help text. */
void verify_usage(FILE *out);

#endif
