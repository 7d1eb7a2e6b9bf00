/* SPDX-License-Identifier: MIT */
/* The input loop the protocol servers (uci_server.c, xboard_server.c) share: a command per line,
 * each handed over with room for its tokens. */
#ifndef CARRERA_COMMAND_LINES_H
#define CARRERA_COMMAND_LINES_H

#include <stdbool.h>
#include <stdio.h>

/* One line (with its newline) and an array with room for every token a tokeniser can cut from it;
 * false ends the loop. */
typedef bool (*CommandLineHandler)(void *ctx, char *line, char **tokens);

/* Hands every line of in to handle until the end of input or until handle returns false. A line
 * whose tokens find no memory is not handed over: no_memory(ctx) is told instead, and the loop
 * goes on. */
void command_lines_read(FILE *in, CommandLineHandler handle, void (*no_memory)(void *ctx),
                        void *ctx);

#endif
