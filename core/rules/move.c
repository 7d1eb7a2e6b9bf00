/* SPDX-License-Identifier: MIT */
/* Moves as UCI text on boards of 8 or 10 files, with both castling notations. */
#include "move.h"

#include <ctype.h>
#include <string.h>

static char *write_square(char *out, const Variant *v, int sq)
{
    *out++ = (char)('a' + sq % v->files);
    *out++ = (char)('1' + sq / v->files);
    return out;
}

void move_to_uci(Move m, const Variant *v, bool castle960, char out[MOVE_TEXT_MAX])
{
    if (m == MOVE_NONE) {
        strcpy(out, "0000"); /* the UCI null move */
        return;
    }
    int from = move_from(m), to = move_to(m);
    if (move_kind(m) == MOVE_CASTLING && !castle960) {
        /* The encoding names the rook; standard notation names the king's destination. */
        int side = to % v->files > from % v->files;
        to = from - from % v->files + v->king_to[side];
    }
    char *p = write_square(out, v, from);
    p = write_square(p, v, to);
    if (move_kind(m) == MOVE_PROMOTION)
        *p++ = (char)tolower((unsigned char)variant_letter(v, move_promo(m)));
    *p = '\0';
}

Move move_from_uci(const char *text, const Move *legal, int n, const Variant *v, bool castle960)
{
    if (!text)
        return MOVE_NONE;
    /* In standard notation a Chess960 castling can read like a one-step king move (king f1,
     * rook h1: both are f1g1); the plain king move is the one meant then. */
    Move castling = MOVE_NONE;
    for (int i = 0; i < n; i++) {
        char buf[MOVE_TEXT_MAX];
        move_to_uci(legal[i], v, castle960, buf);
        if (strcmp(buf, text) != 0)
            continue;
        if (move_kind(legal[i]) != MOVE_CASTLING)
            return legal[i];
        castling = legal[i];
    }
    return castling;
}
