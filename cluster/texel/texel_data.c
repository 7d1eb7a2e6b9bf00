/* SPDX-License-Identifier: MIT */
/* Texel positions from recorded games (texel_data.h). */
#include "texel_data.h"

#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "errmsg.h"
#include "game.h"
#include "quiet.h"
#include "setup.h"
#include "texel_file.h"

/* Longest turn text read: a turn's movements and their separator, with room for garbage to be
 * shown cut rather than overflow. */
#define TOKEN_MAX 48

static int row_fail(const RecordedGame *g, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int row_fail(const RecordedGame *g, char *err, size_t errlen, const char *fmt, ...)
{
    char why[ERRMSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return errmsg_fail(err, errlen, "%s: row %llu of /match/games: %s", g->path,
                       (unsigned long long)g->row, why);
}

int texel_data_start(TexelData *d, FILE *out, int skip_plies, const EvalParams *params, char *err,
                     size_t errlen)
{
    memset(d, 0, sizeof *d);
    if (skip_plies < 0)
        return errmsg_fail(err, errlen, "%d plies to skip: it cannot be negative", skip_plies);
    d->out = out;
    d->skip_plies = skip_plies;
    eval_prepare(&d->eval, params);
    return 0;
}

int texel_data_file(TexelData *d, const char *path, const char *variant, const char *turns,
                    const char *ep, char *err, size_t errlen)
{
    const Variant *v = variant_by_name(variant);
    if (!v)
        return errmsg_fail(err, errlen, "%s: unknown variant \"%s\"", path, variant);
    if (!turn_rules_parse(turns, &d->rules.turns))
        return errmsg_fail(err, errlen, "%s: unknown turn rules \"%s\"", path, turns);
    if (!ep_rule_parse(ep, &d->rules.ep))
        return errmsg_fail(err, errlen, "%s: unknown en passant rule \"%s\"", path, ep);
    d->variant = v;
    return 0;
}

/* The position p of a game as single-move chess sees it, its en passant squares dropped (the
 * evaluation does not read them, and a double-move game may have two); false when it is not a
 * legal position there (Galvin's rules leave a king attacked by the side to move). */
static bool single_move_position(const Position *p, Position *out)
{
    Setup s;
    position_to_setup(p, &s);
    s.ep[0] = s.ep[1] = NO_SQUARE;
    char fen[FEN_MAX], why[ERRMSG_LEN];
    setup_to_fen(&s, s.castling_text, fen, sizeof fen);
    if (setup_from_fen(&s, p->variant, fen, why, sizeof why) != 0)
        return false;
    position_from_setup(out, &s);
    return true;
}

/* Counts the position p, the game's position after `turn` turns, and writes its row. */
static int add_position(TexelData *d, const Position *p, int turn, double result, uint64_t pair,
                        char *err, size_t errlen)
{
    TexelCounts *c = &d->counts;
    Position root, leaf;
    if (turn < d->skip_plies) {
        c->opening++;
        return 0;
    }
    if (position_in_check(p)) {
        c->in_check++;
        return 0;
    }
    if (!single_move_position(p, &root)) {
        c->not_single++;
        return 0;
    }
    quiet_leaf(&d->eval, &root, &leaf);
    if (position_in_check(&leaf)) {
        c->leaf_check++;
        return 0;
    }
    c->resolved += position_key128(&leaf) != position_key128(&root);
    c->written++;
    TexelRow row = { d->variant, d->rules.turns, result, pair, &leaf };
    return texel_file_write_row(d->out, &row, err, errlen);
}

/* Replays the moves of g from start, adding each position before a turn. */
static int replay(TexelData *d, const RecordedGame *g, const Position *start, bool fault,
                  double result, uint64_t pair, char *err, size_t errlen)
{
    Game game;
    if (!game_init(&game, start, &d->rules, d->variant->castle960)) {
        game_free(&game);
        return row_fail(g, err, errlen, "out of memory");
    }
    int rc = 0;
    uint32_t turns = 0;
    for (const char *t = g->moves; *t && rc == 0; turns++) {
        const size_t len = strcspn(t, " ");
        char text[TOKEN_MAX];
        snprintf(text, sizeof text, "%.*s", (int)len, t);
        if (!fault)
            rc = add_position(d, &game.pos, (int)turns, result, pair, err, errlen);
        if (rc == 0 && (len == 0 || len >= sizeof text || !game_play_text(&game, text)))
            rc = row_fail(g, err, errlen, "turn %u (\"%.*s%s\") is not a legal turn under %s rules",
                          turns + 1, len < 20 ? (int)len : 20, t, len < 20 ? "" : "...",
                          turn_rules_name(d->rules.turns));
        t += len;
        t += *t == ' ';
    }
    game_free(&game);
    if (rc == 0 && turns != g->plies)
        rc = row_fail(g, err, errlen, "the moves hold %u turns, the plies column says %u", turns,
                      g->plies);
    return rc;
}

int texel_data_game(TexelData *d, const RecordedGame *g, char *err, size_t errlen)
{
    if (!d->variant)
        return row_fail(g, err, errlen, "a game before its file's variant and rules");
    if (g->result < -1 || g->result > 1)
        return row_fail(g, err, errlen, "result %d is none of 1, 0, -1", g->result);
    GameEnding ending = game_ending_by_name(g->termination);
    if (ending == END_NB)
        return row_fail(g, err, errlen, "unknown termination \"%s\"", g->termination);
    const bool fault = game_ending_is_fault(ending);
    Setup s;
    char why[ERRMSG_LEN];
    if (setup_from_fen_rules(&s, d->variant, &d->rules, g->opening, why, sizeof why) != 0)
        return row_fail(g, err, errlen, "opening \"%s\": %s", g->opening, why);
    Position start;
    position_from_setup(&start, &s);
    if (d->counts.games == 0 || g->path != d->last_path || g->pair != d->last_pair)
        d->counts.pairs++;
    d->last_path = g->path;
    d->last_pair = g->pair;
    d->counts.games++;
    d->counts.faults += fault;
    return replay(d, g, &start, fault, (g->result + 1) / 2.0, d->counts.pairs - 1, err, errlen);
}
