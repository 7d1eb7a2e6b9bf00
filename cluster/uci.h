/* The UCI protocol front end: a thin adapter that turns protocol lines into calls on the core
 * (variant choice, positions, moves, perft) and knows nothing the core should know. */
#ifndef CARRERA_UCI_H
#define CARRERA_UCI_H

#include <stdio.h>

/* Reads commands from in until `quit` or end of input, answering on out; returns 0. */
int uci_loop(FILE *in, FILE *out);

/* Writes the help text of `carrera uci`. */
void uci_usage(FILE *out);

#endif
