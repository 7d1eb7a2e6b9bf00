/* SPDX-License-Identifier: MIT */
/* The UCI protocol front end: a thin adapter that turns protocol lines into calls on the core's
 * engine session (engine.h: positions, moves, options, searches) and on its perft, and knows
 * nothing the core should know. */
#ifndef CARRERA_UCI_SERVER_H
#define CARRERA_UCI_SERVER_H

#include <stdio.h>

#include "eval.h"

/* Reads commands from in until `quit` or end of input, answering on out, with the evaluation
 * parameters starting as params (options change them); returns the exit status: EXIT_OK, or
 * EXIT_FAILED without memory. */
int uci_loop(FILE *in, FILE *out, const EvalParams *params);

#endif
