/* SPDX-License-Identifier: MIT */
/* The `carrera check-config FILE` command: reads and validates a job configuration without
 * running it, so a mistake shows before the job waits in a queue. */
#ifndef CARRERA_CHECK_CONFIG_H
#define CARRERA_CHECK_CONFIG_H

#include <stdio.h>

/* argv[0] is "check-config". Prints a one-line summary and returns 0 when the file is valid;
 * otherwise reports the error (`carrera: error: FILE:LINE: ...`) and returns EXIT_USAGE. */
int check_config_command(int argc, char **argv);

/* Writes the command's help text. */
void check_config_usage(FILE *out);

#endif
