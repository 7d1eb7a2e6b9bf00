/* SPDX-License-Identifier: MIT */
/* `carrera match`: a self-play or engine-against-engine match from a match file (match/). */
#ifndef CARRERA_MATCH_COMMAND_H
#define CARRERA_MATCH_COMMAND_H

#include <stdbool.h>
#include <stdio.h>

#include "match_run.h"

/* Runs `carrera match ARGS` (argv[0] is "match"); returns the exit status. */
int match_command(int argc, char **argv);

void match_usage(FILE *out);

/* The options match and tune share (--config, --out, --pgn, --resume, --quiet) into *r, for the
 * command named in argv[0] (usage prints its help). Returns 0 to run r; otherwise the command is
 * over (help printed, or a usage error reported) and *status is its exit status. */
int match_command_read(int argc, char **argv, void (*usage)(FILE *), MatchRequest *r, int *status);

#endif
