/* SPDX-License-Identifier: MIT */
/* How the command line reports a usage error: one `carrera: error: ...` line on stderr and the
 * exit status 2, so scripts can tell a bad invocation (2) from a failed run (1). */
#ifndef CARRERA_CLI_ERROR_H
#define CARRERA_CLI_ERROR_H

#include "exit_status.h"

/* Prints `carrera: error: ` and the formatted message on stderr; returns EXIT_USAGE. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
