/* SPDX-License-Identifier: MIT */
/* Texel's method for the evaluation (texel/, docs/texel.md):
 *   `carrera texel-data RESULT.h5... --out DATA [--skip-plies N] [--quiet]`: the positions of
 *   recorded games with their results;
 *   `carrera texel-label DATA --engine CMD --out DATA2 [--go LIMIT] [--jobs N] ...`: the same
 *   positions labelled by an engine's search;
 *   `carrera texel-fit DATA --out EVAL.ini [--eval START.ini] [--params LIST] ...`: the
 *   evaluation's parameters fitted to them. */
#ifndef CARRERA_TEXEL_COMMAND_H
#define CARRERA_TEXEL_COMMAND_H

#include <stdio.h>

/* Run `carrera texel-data ARGS`, `carrera texel-fit ARGS`, `carrera texel-label ARGS` (argv[0] the
 * command); return the exit status. */
int texel_data_command(int argc, char **argv);
int texel_fit_command(int argc, char **argv);
int texel_label_command(int argc, char **argv);

void texel_data_usage(FILE *out);
void texel_fit_usage(FILE *out);
void texel_label_usage(FILE *out);

#endif
