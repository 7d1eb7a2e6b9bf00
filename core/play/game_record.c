/* SPDX-License-Identifier: MIT */
/* Finished games (game_record.h). */
#include "game_record.h"

#include <string.h>

const char *game_ending_name(GameEnding e)
{
    static const char *const names[END_NB] = {
        "checkmate",           "stalemate",
        "king captured",       "threefold repetition",
        "50-move rule",        "insufficient material",
        "resign adjudication", "draw adjudication",
        "maximum length",      "time forfeit",
        "engine crash",        "engine stall",
        "engine garbage",      "illegal move",
    };
    return e < END_NB ? names[e] : "unknown";
}

GameEnding game_ending_by_name(const char *name)
{
    for (int e = 0; e < END_NB; e++)
        if (strcmp(game_ending_name((GameEnding)e), name) == 0)
            return (GameEnding)e;
    return strcmp(name, "engine timeout") == 0 ? END_STALL : END_NB;
}

bool game_ending_is_fault(GameEnding e)
{
    return e == END_TIME || e == END_CRASH || e == END_STALL || e == END_GARBAGE ||
           e == END_ILLEGAL;
}

void game_record_count_material(GameRecord *out)
{
    const Position *p = &out->game.pos;
    int squares = p->variant->files * RANKS;
    for (int s = 0; s < squares; s++) {
        Piece pc = position_piece_at(p, s);
        if (pc != NO_PIECE)
            out->material[piece_color(pc)][piece_type(pc)]++;
    }
}

void game_record_free(GameRecord *g) { game_free(&g->game); }
