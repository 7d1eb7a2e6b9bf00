/* SPDX-License-Identifier: MIT */
/* How a command or a rank tells the user that something went wrong: one line on stderr,
 * `carrera: error: MESSAGE` or `carrera: warning: MESSAGE`, in the same words from a usage error
 * of the command line to a worker rank's failure, so that a script or a search through a batch
 * job's log finds them all by their prefix. */
#ifndef CARRERA_RUN_ERROR_H
#define CARRERA_RUN_ERROR_H

#include <stdarg.h>

#include "exit_status.h"

/* Prints `carrera: error: ` and the formatted message on stderr; returns status (one of
 * exit_status.h), so that `return run_error(EXIT_FAILED, ...)` ends a command. */
int run_error(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The same with the arguments as a va_list. */
int run_verror(int status, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* Prints `carrera: warning: ` and the formatted message on stderr: the run goes on. */
void run_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
