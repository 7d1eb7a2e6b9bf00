/* SPDX-License-Identifier: MIT */
/* Runs a program to completion for a test: stdin empty, stdout and stderr captured whole, the
 * exit status kept. Shared by the tests that drive the carrera binary. */
#ifndef CARRERA_TEST_RUN_H
#define CARRERA_TEST_RUN_H

#include <stdbool.h>

typedef struct Run {
    int status; /* exit status, or 128 + the signal that ended it */
    char *out, *err;
} Run;

/* argv[0] is the program (a path, or a name looked up in PATH); argv ends with NULL. Fails the
 * test when it cannot run. */
Run run_program(const char *const *argv);
void run_free(Run *r);

/* Starts argv with its output thrown away, waits until the file at watch holds at least
 * `events` lines starting "[Event " (a PGN file's games; at most 60 s), then kills it with
 * SIGKILL. Returns true when the kill ended it (false: it had finished before). */
bool run_killed(const char *const *argv, const char *watch, int events);

/* The same, waiting until the file holds at least `lines` lines that hold text. */
bool run_killed_at(const char *const *argv, const char *watch, const char *text, int lines);

#endif
