/* SPDX-License-Identifier: MIT */
/* The samples of the regression method of `carrera tune` (regression.h says which positions are
 * sampled and why). Each game is replayed with the core, as the match played it, so that a turn
 * the rules do not allow is found here and not fitted. */
#include "regression_data.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "game.h"
#include "game_record.h"
#include "position.h"
#include "setup.h"

/* Longest turn text read: a turn's movements and their separator, with room for garbage to be
 * shown cut rather than overflow. */
#define TOKEN_MAX 48

/* A position at a turn boundary as the sampling sees it. */
struct RegressionPoint {
    int16_t pieces[2][TUNE_PIECES]; /* White's and Black's, in tune order */
    bool check;                     /* the side to move is in check */
};
typedef struct RegressionPoint Point;

/* A message about the game g. */
static int row_fail(const RecordedGame *g, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int row_fail(const RecordedGame *g, char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return -1;
    int k = snprintf(err, errlen, "%s: row %llu of /match/games: ", g->path,
                     (unsigned long long)g->row);
    if (k >= 0 && (size_t)k < errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static void point_of(const Position *p, Point *pt)
{
    memset(pt, 0, sizeof *pt);
    const int squares = p->variant->files * RANKS;
    for (int s = 0; s < squares; s++) {
        const Piece pc = position_piece_at(p, s);
        const int i = pc == NO_PIECE ? -1 : tune_piece_index(piece_type(pc));
        if (i >= 0)
            pt->pieces[piece_color(pc)][i]++;
    }
    pt->check = position_in_check(p);
}

/* Appends the current game's position to d->points[n]; false when memory runs out. */
static bool add_point(RegressionData *d, size_t n, const Position *p)
{
    if (n == d->points_cap) {
        size_t cap = d->points_cap ? 2 * d->points_cap : 256;
        Point *grown = realloc(d->points, cap * sizeof *grown);
        if (!grown)
            return false;
        d->points = grown;
        d->points_cap = cap;
    }
    point_of(p, &d->points[n]);
    return true;
}

static bool add_sample(RegressionData *d, const TuneSample *s)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 1024;
        TuneSample *grown = realloc(d->samples, cap * sizeof *grown);
        if (!grown)
            return false;
        d->samples = grown;
        d->cap = cap;
    }
    d->samples[d->n++] = *s;
    return true;
}

static bool same_pieces(const Point *a, const Point *b)
{
    return memcmp(a->pieces, b->pieces, sizeof a->pieces) == 0;
}

/* Samples the game of n turns in d->points[0..n] (regression.h). Returns the number of
 * samples added, or -1 when memory runs out. */
static long sample_game(RegressionData *d, size_t n, double result, uint64_t group)
{
    const size_t r = REGRESSION_STABLE_TURNS, first = d->n;
    const Point *pt = d->points;
    for (size_t i = (size_t)d->skip_plies > r ? (size_t)d->skip_plies : r; i + r <= n; i++) {
        bool stable = !pt[i].check;
        for (size_t j = i - r; j <= i + r && stable; j++)
            stable = same_pieces(&pt[j], &pt[i]);
        if (!stable)
            continue;
        TuneSample s = { .result = result, .group = group };
        for (int k = 0; k < TUNE_PIECES; k++)
            s.material[k] = pt[i].pieces[WHITE][k] - pt[i].pieces[BLACK][k];
        bool seen = false;
        for (size_t k = first; k < d->n && !seen; k++)
            seen = memcmp(d->samples[k].material, s.material, sizeof s.material) == 0;
        if (!seen && !add_sample(d, &s))
            return -1;
    }
    return (long)(d->n - first);
}

/* Replays the moves of row r from start into d->points; *n receives the number of turns. */
static int replay(RegressionData *d, const RecordedGame *r, const Position *start, size_t *n,
                  char *err, size_t errlen)
{
    *n = 0;
    Game g;
    if (!game_init(&g, start, &d->rules, d->variant->castle960) || !add_point(d, 0, start)) {
        game_free(&g);
        return row_fail(r, err, errlen, "out of memory");
    }
    int rc = 0;
    size_t turns = 0;
    const char *t = r->moves;
    while (*r->moves && rc == 0) {
        const size_t len = strcspn(t, " ");
        char text[TOKEN_MAX];
        snprintf(text, sizeof text, "%.*s", (int)len, t);
        turns++;
        if (len == 0 || len >= sizeof text || !game_play_text(&g, text)) {
            Turn parsed;
            char fen[FEN_MAX];
            Setup s;
            position_to_setup(&g.pos, &s);
            setup_to_fen(&s, s.castling_text, fen, sizeof fen);
            if (len > 0 && len < sizeof text && game_parse_turn(&g, text, &parsed))
                rc = row_fail(r, err, errlen, "out of memory");
            else
                rc = row_fail(r, err, errlen,
                              "turn %zu (\"%.*s%s\") is not a legal turn of %s under %s rules",
                              turns, len < 20 ? (int)len : 20, t, len < 20 ? "" : "...", fen,
                              turn_rules_name(d->rules.turns));
        } else if (!add_point(d, turns, &g.pos)) {
            rc = row_fail(r, err, errlen, "out of memory");
        }
        t += len;
        if (*t == '\0')
            break;
        t++;
    }
    game_free(&g);
    *n = turns;
    if (rc == 0 && turns != r->plies)
        rc = row_fail(r, err, errlen, "the moves hold %zu turns, the plies column says %u", turns,
                      r->plies);
    return rc;
}

int regression_add_game(RegressionData *d, const RecordedGame *r, char *err, size_t errlen)
{
    if (!d->variant)
        return row_fail(r, err, errlen, "a game before its file's variant and rules");
    if (r->result < -1 || r->result > 1)
        return row_fail(r, err, errlen, "result %d is none of 1, 0, -1", r->result);
    GameEnding ending = game_ending_by_name(r->termination);
    if (ending == END_NB)
        return row_fail(r, err, errlen, "unknown termination \"%s\"", r->termination);
    bool fault = game_ending_is_fault(ending);

    Setup s;
    char why[ERRMSG_LEN];
    if (setup_from_fen_rules(&s, d->variant, &d->rules, r->opening, why, sizeof why) != 0)
        return row_fail(r, err, errlen, "opening \"%s\": %s", r->opening, why);
    Position start;
    position_from_setup(&start, &s);
    size_t n;
    if (replay(d, r, &start, &n, err, errlen) != 0)
        return -1;

    if (d->games == 0 || r->path != d->last_path || r->pair != d->last_pair)
        d->pairs++;
    d->last_path = r->path;
    d->last_pair = r->pair;
    d->games++;
    const uint64_t group = d->pairs - 1;
    if (fault) {
        d->faults++;
        return 0;
    }
    const long added = sample_game(d, n, (r->result + 1) / 2.0, group);
    if (added < 0)
        return row_fail(r, err, errlen, "out of memory for %zu samples", d->n);
    d->games_used += added > 0;
    return 0;
}

int regression_start(RegressionData *d, int skip_plies, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    if (skip_plies < 0)
        return errmsg_fail(err, errlen, "%d plies to skip: it cannot be negative", skip_plies);
    d->skip_plies = skip_plies;
    return 0;
}

int regression_file(RegressionData *d, const char *path, const char *variant, const char *turns,
                    const char *ep, char *err, size_t errlen)
{
    const Variant *v = variant_by_name(variant);
    Rules r;
    if (!v)
        return errmsg_fail(err, errlen, "%s: unknown variant \"%s\"", path, variant);
    if (!turn_rules_parse(turns, &r.turns))
        return errmsg_fail(err, errlen, "%s: unknown turn rules \"%s\"", path, turns);
    if (!ep_rule_parse(ep, &r.ep))
        return errmsg_fail(err, errlen, "%s: unknown en passant rule \"%s\"", path, ep);
    if (!d->variant) {
        d->variant = v;
        d->rules = r;
    } else if (v != d->variant || r.turns != d->rules.turns || r.ep != d->rules.ep) {
        return errmsg_fail(err, errlen,
                           "%s is a match of %s under %s rules (en passant %s), the files before "
                           "it of %s under %s rules (en passant %s): the values of different "
                           "games cannot be fitted together",
                           path, v->name, turn_rules_name(r.turns), ep_rule_name(r.ep),
                           d->variant->name, turn_rules_name(d->rules.turns),
                           ep_rule_name(d->rules.ep));
    }
    return 0;
}

void regression_free(RegressionData *d)
{
    free(d->samples);
    free(d->points);
    memset(d, 0, sizeof *d);
}
