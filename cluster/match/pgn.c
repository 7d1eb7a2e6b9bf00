/* SPDX-License-Identifier: MIT */
/* PGN writing (pgn.h). The movetext comes from the game notation of the core (movetext.h), which
 * already writes both single-move SAN and the double-move source notation; this file adds the
 * tags, the line breaks and the result. */
#include "pgn.h"

#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "movetext.h"
#include "setup.h"

const char *pgn_result(int result) { return result > 0 ? "1-0" : result < 0 ? "0-1" : "1/2-1/2"; }

/* A tag value with '"' and '\\' escaped as PGN requires. */
static void tag(FILE *out, const char *name, const char *value)
{
    fprintf(out, "[%s \"", name);
    for (const char *c = value; *c; c++) {
        if (*c == '"' || *c == '\\')
            fputc('\\', out);
        fputc(*c, out);
    }
    fputs("\"]\n", out);
}

/* Writes text broken at spaces into lines of at most 79 characters. */
static void wrap(FILE *out, const char *text)
{
    size_t column = 0;
    while (*text) {
        size_t word = strcspn(text, " ");
        if (column > 0 && column + 1 + word > 79) {
            fputc('\n', out);
            column = 0;
        } else if (column > 0) {
            fputc(' ', out);
            column++;
        }
        fwrite(text, 1, word, out);
        column += word;
        text += word;
        text += strspn(text, " ");
    }
    fputc('\n', out);
}

int pgn_write(FILE *out, const PgnGame *g, char *err, size_t errlen)
{
    const GameRecord *r = g->record;
    const Game *game = &r->game;
    size_t cap = RECORD_TEXT_MAX(game->n_turns) + 256;
    char *moves = malloc(cap);
    if (!moves)
        return errmsg_fail(err, errlen, "out of memory writing a game");
    if (!notation_game_to_text(&game->start, &game->rules, game->turns, game->n_turns, moves, cap,
                               err, errlen)) {
        free(moves);
        return -1;
    }
    const char *result = pgn_result(r->result);
    tag(out, "Event", g->event);
    tag(out, "Site", g->site);
    tag(out, "Date", g->date);
    tag(out, "Round", g->round);
    tag(out, "White", g->white);
    tag(out, "Black", g->black);
    tag(out, "Result", result);
    tag(out, "Variant", game->start.variant->name);
    if (game->rules.turns != TURNS_SINGLE) {
        tag(out, "TurnRules", turn_rules_name(game->rules.turns));
        tag(out, "EnPassantRule", ep_rule_name(game->rules.ep));
    }
    Setup s;
    char fen[FEN_MAX], count[32];
    position_to_setup(&game->start, &s);
    setup_to_fen(&s, s.castling_text, fen, sizeof fen);
    tag(out, "SetUp", "1");
    tag(out, "FEN", fen);
    snprintf(count, sizeof count, "%zu", game->n_turns);
    tag(out, "PlyCount", count);
    char termination[320];
    snprintf(termination, sizeof termination, "%s%s%s", game_ending_name(r->ending),
             r->detail[0] ? ": " : "", r->detail);
    tag(out, "Termination", termination);
    fputc('\n', out);
    if (g->limits)
        fprintf(out, "{%s}\n", g->limits);
    size_t used = strlen(moves);
    snprintf(moves + used, cap - used, "%s%s", used ? " " : "", result);
    wrap(out, moves);
    fputc('\n', out);
    free(moves);
    if (ferror(out))
        return errmsg_fail(err, errlen, "cannot write the PGN file");
    return 0;
}
