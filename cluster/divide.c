/* Perft with per-root-move counts, printed the way Stockfish's `go perft` prints them. */
#include "divide.h"

#include <inttypes.h>

#include "move.h"

int divide_parse_depth(const char *text, int *depth, char *err, size_t errlen)
{
    /* Digits only: strtol would take " 5", "+5" and "5x" apart silently. */
    int value = 0;
    const char *c = text;
    if (*c == '\0')
        goto bad;
    for (; *c; c++) {
        if (*c < '0' || *c > '9')
            goto bad;
        value = value * 10 + (*c - '0');
        if (value > PERFT_MAX_DEPTH)
            goto bad;
    }
    *depth = value;
    return 0;
bad:
    snprintf(err, errlen, "bad depth '%s': must be a whole number from 0 to %d", text,
             PERFT_MAX_DEPTH);
    return -1;
}

uint64_t divide_print(FILE *out, const Position *p, int depth, bool divide, bool castle960)
{
    uint64_t total;
    if (!divide || depth == 0) {
        total = depth == 0 ? 1 : perft(p, depth);
    } else {
        Move moves[MAX_MOVES];
        Position child;
        int n = position_legal_moves(p, moves);
        total = 0;
        for (int i = 0; i < n; i++) {
            uint64_t count = 1;
            if (depth > 1) {
                position_make(p, moves[i], &child);
                count = perft(&child, depth - 1);
            }
            char text[MOVE_TEXT_MAX];
            move_to_uci(moves[i], p->variant, castle960, text);
            fprintf(out, "%s: %" PRIu64 "\n", text, count);
            /* Long divides report as they go, so a watcher sees progress. */
            fflush(out);
            total += count;
        }
    }
    if (divide)
        fputc('\n', out);
    fprintf(out, "Nodes searched: %" PRIu64 "\n", total);
    fflush(out);
    return total;
}
