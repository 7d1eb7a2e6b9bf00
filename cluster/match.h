/* `carrera match`: a self-play or engine-against-engine match from a match file. */
#ifndef CARRERA_MATCH_H
#define CARRERA_MATCH_H

#include <stdio.h>

/* Runs `carrera match ARGS` (argv[0] is "match"); returns the exit status. */
int match_command(int argc, char **argv);

void match_usage(FILE *out);

/* Runs `carrera tune ARGS` (argv[0] is "tune"): a material-odds match and the piece values
 * fitted from it (tune.h). */
int tune_command(int argc, char **argv);

void tune_usage(FILE *out);

#endif
