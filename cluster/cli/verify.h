/* SPDX-License-Identifier: MIT */
/* The `carrera verify` command: many positions of a rule set against an external engine's
 * perft, every disagreement bisected to its smallest position and grouped by what differs. */
#ifndef CARRERA_VERIFY_H
#define CARRERA_VERIFY_H

#include <stdio.h>

/* argv[0] is "verify". Returns the exit status (exit_status.h): EXIT_OK every position agrees,
 * EXIT_NEGATIVE a disagreement (or an engine failure on some position, or a wrong suite line),
 * EXIT_USAGE, EXIT_FAILED when the engine cannot be used at all or the run fails. */
int verify_command(int argc, char **argv);

/* Writes the command's help text. */
void verify_usage(FILE *out);

#endif
