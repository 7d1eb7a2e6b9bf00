/* SPDX-License-Identifier: MIT */
/* Fuzz target: the xboard (CECP) front end. The input is a stream of protocol lines for
 * xboard_loop, which answers into /dev/null. Searches are kept tiny by the harness, not by the
 * engine: the script starts with `sd 2` and has it again after every `new` (which clears the
 * depth limit), every `sd` asks for 2 plies at most, and `memory` for 4 MiB at most; everything
 * else reaches the loop as written, analysis, `?`, `ping` and clocks included. */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "xboard_server.h"

/* One line as the loop will read it (up to the first NUL or CR), with its limits cut. */
static bool rewrite(const char *line, char **buf, size_t *len, size_t *cap)
{
    char *copy = strdup(line), *scan = strdup(line);
    if (!copy || !scan) {
        free(copy);
        free(scan);
        return false;
    }
    copy[strcspn(copy, "\r")] = '\0';
    scan[strcspn(scan, "\r")] = '\0';
    char *tokens[3], *save = NULL;
    int n = 0;
    for (char *t = strtok_r(scan, " \t", &save); t && n < 3; t = strtok_r(NULL, " \t", &save))
        tokens[n++] = t;
    const char *text = copy, *after = "";
    if (n == 2 && strcmp(tokens[0], "sd") == 0 && fuzz_all_digits(tokens[1]) &&
        (strlen(tokens[1]) > 1 || tokens[1][0] > '2'))
        text = "sd 2";
    else if (n == 2 && strcmp(tokens[0], "memory") == 0 && fuzz_all_digits(tokens[1]) &&
             (strlen(tokens[1]) > 1 || tokens[1][0] > '4'))
        text = "memory 4";
    else if (n >= 1 && strcmp(tokens[0], "new") == 0)
        after = "\nsd 2";
    bool ok = fuzz_append(buf, len, cap, text, strlen(text)) &&
              fuzz_append(buf, len, cap, after, strlen(after)) &&
              fuzz_append(buf, len, cap, "\n", 1);
    free(scan);
    free(copy);
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_protocol(data, size, "sd 2\n", rewrite, xboard_loop);
    return 0;
}
