/* SPDX-License-Identifier: MIT */
/* An engine driven through perftree's script protocol: the program is run once per question as
 * `PROGRAM [ARGS...] DEPTH FEN [MOVES]` (MOVES one argument, the moves space-separated in UCI
 * notation) and prints one `move count` line per legal move, an empty line and the total. It is
 * how engines without UCI, or with a perft command of their own, are checked through a wrapper
 * of a few lines. Every failure of the program is an error with a message, never a hang. */
#ifndef CARRERA_PERFTREE_H
#define CARRERA_PERFTREE_H

#include <stdbool.h>

#include "divide.h"
#include "subprocess.h"

typedef struct PerftreeClient {
    char command[512]; /* as the user gave it */
    Subprocess proc;
    bool running;
    char asked[1024]; /* the last question, for messages */
} PerftreeClient;

/* Notes the command (the program and its arguments, split at white space, no shell). */
void perftree_init(PerftreeClient *c, const char *command);

/* Starts the program for one question and returns at once, so that the caller can count
 * meanwhile; moves may be NULL or empty. Returns 0, or -1 with a message in err when it cannot
 * be run. */
int perftree_ask(PerftreeClient *c, const char *fen, const char *moves, int depth, char *err,
                 size_t errlen);

/* Reads the answer to the last perftree_ask into d and waits for the program to exit. Fails
 * when a line is not `move count`, the total is not the sum of the lines, the program exits
 * with a status other than 0, or it has not finished within timeout_ms (it is then killed).
 * Returns 0 or -1 with a message. */
int perftree_answer(PerftreeClient *c, int timeout_ms, Divide *d, char *err, size_t errlen);

/* Kills a program still running (after a failure of the caller's). Safe to call twice. */
void perftree_stop(PerftreeClient *c);

#endif
