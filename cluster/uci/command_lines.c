/* SPDX-License-Identifier: MIT */
/* The protocol servers' input loop (command_lines.h). */
#define _POSIX_C_SOURCE 200809L /* getline */
#include "command_lines.h"

#include <stdlib.h>
#include <sys/types.h>

void command_lines_read(FILE *in, CommandLineHandler handle, void (*no_memory)(void *ctx),
                        void *ctx)
{
    char *line = NULL;
    size_t cap = 0;
    char **tokens = NULL;
    size_t tokens_cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, in)) >= 0) {
        /* a token takes a character and a separator, so a line has at most len / 2 + 1 */
        size_t need = (size_t)len / 2 + 2;
        if (need > tokens_cap) {
            char **grown = realloc(tokens, need * sizeof *tokens);
            if (!grown) {
                no_memory(ctx);
                continue;
            }
            tokens = grown;
            tokens_cap = need;
        }
        if (!handle(ctx, line, tokens))
            break;
    }
    free(line);
    free(tokens);
}
