/* SPDX-License-Identifier: MIT */
/* The `carrera bisect` command: finds where an external UCI engine's perft departs from
 * Carrera's, by comparing divides and descending into a differing move until the position where
 * the two move lists differ. */
#ifndef CARRERA_BISECT_H
#define CARRERA_BISECT_H

#include <stdio.h>

/* Exit statuses: BISECT_SAME, BISECT_DIFFERENT, BISECT_FAILED (bisect_search.h), which are
 * EXIT_OK, EXIT_NEGATIVE and EXIT_FAILED; usage errors are EXIT_USAGE, as for every command. */

/* argv[0] is "bisect". Returns the exit status. */
int bisect_command(int argc, char **argv);

/* Writes the command's help text. */
void bisect_usage(FILE *out);

#endif
