/* SPDX-License-Identifier: MIT */
/* The built program (CARRERA_BIN) driven through its pipes, as a GUI or a match runner drives
 * `carrera uci` and `carrera xboard`. Each call fails the running cmocka test on any error. */
#ifndef CARRERA_TEST_CARRERA_PIPE_H
#define CARRERA_TEST_CARRERA_PIPE_H

#include <stdbool.h>
#include <stddef.h>

#include "subprocess.h"

/* A guard against a hang, not a speed requirement: what the tests ask for takes milliseconds. */
#define PIPE_TIMEOUT_MS 30000

/* Starts `carrera command`. */
void pipe_start(Subprocess *p, const char *command);

/* Sends line and its newline. */
void pipe_send(Subprocess *p, const char *line);

/* Reads the next line (without its newline) into line. */
void pipe_read_line(Subprocess *p, char *line, size_t len);

/* Sends quit and waits for a clean exit. */
void pipe_quit(Subprocess *p);

/* s starts with prefix. */
bool starts_with(const char *s, const char *prefix);

#endif
