/* SPDX-License-Identifier: MIT */
/* How the command line reports a usage error: one `carrera: error: ...` line on stderr
 * (run_error.h) and the exit status EXIT_USAGE, so scripts can tell a bad invocation from an
 * answer or a failed run. */
#ifndef CARRERA_CLI_ERROR_H
#define CARRERA_CLI_ERROR_H

#include "run_error.h"

/* Prints `carrera: error: ` and the formatted message on stderr; returns EXIT_USAGE. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
