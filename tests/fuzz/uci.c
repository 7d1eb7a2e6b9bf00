/* SPDX-License-Identifier: MIT */
/* Fuzz target: the UCI front end. The input is a stream of protocol lines for uci_loop, which
 * answers into /dev/null. Searches are kept tiny by the harness, not by the engine: every `go`
 * gets `nodes 1000` appended (the last limit given wins), `go perft N` is cut to depth 2 and a
 * Hash size to 4 MiB; everything else reaches the loop as written. */
#define _POSIX_C_SOURCE 200809L /* strdup */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fuzz.h"
#include "uci_server.h"

/* One line as the loop will read it (up to the first NUL or CR), with its limits cut. */
static bool rewrite(const char *line, char **buf, size_t *len, size_t *cap)
{
    char *copy = strdup(line);
    if (!copy)
        return false;
    copy[strcspn(copy, "\r")] = '\0';
    char *tokens[8];
    int n = 0;
    char *scan = strdup(copy);
    if (!scan) {
        free(copy);
        return false;
    }
    for (char *t = strtok(scan, " \t"); t && n < 8; t = strtok(NULL, " \t"))
        tokens[n++] = t;
    const char *tail = "";
    char cut[64];
    if (n >= 1 && strcmp(tokens[0], "go") == 0) {
        if (n == 3 && strcmp(tokens[1], "perft") == 0 && fuzz_all_digits(tokens[2]) &&
            (strlen(tokens[2]) > 1 || tokens[2][0] > '2')) {
            snprintf(copy, strlen(copy) + 1, "go perft 2");
        } else if (n < 2 || strcmp(tokens[1], "perft") != 0) {
            tail = " nodes 1000";
        }
    } else if (n == 5 && strcmp(tokens[0], "setoption") == 0 && strcmp(tokens[1], "name") == 0 &&
               strcasecmp(tokens[2], "Hash") == 0 && strcmp(tokens[3], "value") == 0 &&
               fuzz_all_digits(tokens[4]) && (strlen(tokens[4]) > 1 || tokens[4][0] > '4')) {
        snprintf(cut, sizeof cut, "setoption name %s value 4", tokens[2]);
        free(copy);
        copy = strdup(cut);
    }
    bool ok = copy && fuzz_append(buf, len, cap, copy, strlen(copy)) &&
              fuzz_append(buf, len, cap, tail, strlen(tail)) && fuzz_append(buf, len, cap, "\n", 1);
    free(scan);
    free(copy);
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_protocol(data, size, "", rewrite, uci_loop);
    return 0;
}
