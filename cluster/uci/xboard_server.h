/* SPDX-License-Identifier: MIT */
/* The xboard protocol front end (CECP v2, for XBoard, WinBoard and cutechess): a thin adapter
 * that turns protocol lines into calls on the core's engine session (engine.h), beside the UCI
 * server on the same session. docs/xboard.md says what it speaks and what it refuses. */
#ifndef CARRERA_XBOARD_SERVER_H
#define CARRERA_XBOARD_SERVER_H

#include <stdio.h>

#include "eval.h"

/* Reads commands from in until `quit` or end of input, answering on out, with the evaluation
 * parameters starting as params (options change them); returns the exit status: EXIT_OK, or
 * EXIT_FAILED without memory. */
int xboard_loop(FILE *in, FILE *out, const EvalParams *params);

#endif
