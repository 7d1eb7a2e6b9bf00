/* SPDX-License-Identifier: MIT */
/* `carrera tune`: piece values from self-play (a material-odds match, SPSA or the regression,
 * tune/), or the regression alone over the games of earlier result files (a tune file without
 * [match]: `[tune] method = regression`, `games = A.h5, B.h5`; no game is played). */
#ifndef CARRERA_TUNE_COMMAND_H
#define CARRERA_TUNE_COMMAND_H

#include <stdio.h>

/* Runs `carrera tune ARGS` (argv[0] is "tune"); returns the exit status. */
int tune_command(int argc, char **argv);

void tune_usage(FILE *out);

#endif
