/* SPDX-License-Identifier: MIT */
/* The `carrera bisect` command: finds where an external UCI engine's perft departs from
 * Carrera's, by comparing divides and descending into a differing move until the position where
 * the two move lists differ. */
#ifndef CARRERA_BISECT_H
#define CARRERA_BISECT_H

#include <stdio.h>

/* Exit statuses of bisect (usage errors are EXIT_USAGE, 2, as for every command). */
#define BISECT_SAME      0 /* the divides agree at the root */
#define BISECT_DIFFERENT 1 /* a difference was found and reported */
#define BISECT_FAILED    3 /* the engine failed (or the report could not be written) */

/* argv[0] is "bisect". Returns the exit status. */
int bisect_command(int argc, char **argv);

/* Writes the command's help text. */
void bisect_usage(FILE *out);

#endif
