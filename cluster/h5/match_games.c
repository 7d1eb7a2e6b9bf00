/* SPDX-License-Identifier: MIT */
/* The games of match result files read for the fits of recorded games (match_games.h): /match/games
 * visited row by row (match_visit.h), each row's moves checked against /match/moves before they are
 * read (match_rows.h). */
#include "match_games.h"

#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "h5file.h"
#include "match_rows.h"
#include "match_visit.h"

/* What the visit of a file's rows hands its games to. */
typedef struct Visit {
    const MatchGamesReader *reader;
    const char *path;
    MatchMoves mv;
    uint64_t at; /* where the next row's moves begin */
} Visit;

/* Hands row r (row i of the file) to the reader, its moves beginning at s->at (then where they
 * end); torn: r is in the last pair, which a kill may have cut short. */
static int add_row(void *ctx, const GameRow *r, uint64_t i, bool torn, char *err, size_t errlen)
{
    Visit *s = ctx;
    const char *why = NULL;
    if (!memchr(r->opening, '\0', sizeof r->opening))
        why = "the opening is not a string";
    else if (!memchr(r->termination, '\0', sizeof r->termination))
        why = "the termination is not a string";
    else
        why = match_rows_moves_read(&s->mv, r, s->at);
    if (why)
        return errmsg_fail(
            err, errlen, "%s: row %llu of /match/games: %s%s", s->path, (unsigned long long)i, why,
            torn ? " (a match killed while writing it? resuming it repairs the file)" : "");
    s->at += r->moves_length;
    RecordedGame g = { .path = s->path,
                       .row = i,
                       .pair = r->pair,
                       .opening = r->opening,
                       .result = r->result,
                       .plies = r->plies,
                       .termination = r->termination,
                       .moves = s->mv.text };
    return s->reader->game(s->reader->ctx, &g, err, errlen);
}

/* Reads the games of the open file, their moves checked and read from /match/moves. */
static int read_rows(const MatchGamesReader *reader, const MatchVisitFile *f, uint64_t *dropped,
                     char *err, size_t errlen)
{
    Visit s = { .reader = reader, .path = f->path };
    if (match_rows_moves_open(&s.mv, f->file) != 0)
        return h5file_fail(err, errlen, "%s: cannot read /match/games and /match/moves", f->path);
    uint64_t n = 0;
    int rc = match_visit_rows(f, add_row, &s, &n, err, errlen);
    *dropped += n;
    match_rows_moves_close(&s.mv);
    return rc;
}

/* The variant and rules of the match in file, for the reader. */
static int read_match(const MatchGamesReader *reader, const char *path, hid_t match, char *err,
                      size_t errlen)
{
    char variant[64], turns[64], ep[64];
    if (h5file_get_str(match, "variant", variant, sizeof variant) < 0 ||
        h5file_get_str(match, "turn_rules", turns, sizeof turns) < 0 ||
        h5file_get_str(match, "ep_rule", ep, sizeof ep) < 0)
        return h5file_fail(err, errlen, "%s: /match lacks the variant or the rules", path);
    return reader->file(reader->ctx, path, variant, turns, ep, err, errlen);
}

int match_games_read(const char *const *paths, size_t n_paths, const MatchGamesReader *reader,
                     uint64_t *dropped, char *err, size_t errlen)
{
    h5file_quiet();
    if (n_paths == 0)
        return errmsg_fail(err, errlen, "no match result files to read");
    for (size_t i = 0; i < n_paths; i++) {
        MatchVisitFile f;
        if (match_visit_open(&f, paths[i], err, errlen) != 0)
            return -1;
        int rc = read_match(reader, paths[i], f.match, err, errlen);
        if (rc == 0)
            rc = read_rows(reader, &f, dropped, err, errlen);
        match_visit_close(&f);
        if (rc != 0)
            return -1;
    }
    return 0;
}

static int sample_file(void *ctx, const char *path, const char *variant, const char *turns,
                       const char *ep, char *err, size_t errlen)
{
    return regression_file(ctx, path, variant, turns, ep, err, errlen);
}

static int sample_game(void *ctx, const RecordedGame *g, char *err, size_t errlen)
{
    return regression_add_game(ctx, g, err, errlen);
}

int match_games_sample(const char *const *paths, size_t n_paths, int skip_plies,
                       RegressionData *out, char *err, size_t errlen)
{
    if (regression_start(out, skip_plies, err, errlen) != 0)
        return -1;
    const MatchGamesReader reader = { sample_file, sample_game, out };
    if (match_games_read(paths, n_paths, &reader, &out->dropped, err, errlen) != 0) {
        regression_free(out);
        return -1;
    }
    return 0;
}

void match_games_regress(Tuner *t, const char *const *paths, size_t n_paths, int skip_plies)
{
    RegressionData d;
    char why[ERRMSG_LEN];
    if (match_games_sample(paths, n_paths, skip_plies, &d, why, sizeof why) != 0) {
        tune_regress(t, NULL, skip_plies, why);
        return;
    }
    tune_regress(t, &d, skip_plies, NULL);
    regression_free(&d);
}
