/* SPDX-License-Identifier: MIT */
/* The games of match result files read for the regression (match_games.h): /match/games visited
 * row by row (match_visit.h), each row's moves checked against /match/moves before they are read
 * (match_rows.h). */
#include "match_games.h"

#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "h5file.h"
#include "match_rows.h"
#include "match_visit.h"

/* What the visit of a file's rows samples into. */
typedef struct Sampling {
    RegressionData *d;
    const char *path;
    MatchMoves mv;
    uint64_t at; /* where the next row's moves begin */
} Sampling;

/* Samples row r (row i of the file) into s->d, its moves beginning at s->at (then where they
 * end); torn: r is in the last pair, which a kill may have cut short. */
static int add_row(void *ctx, const GameRow *r, uint64_t i, bool torn, char *err, size_t errlen)
{
    Sampling *s = ctx;
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
    RegressionGame g = { .path = s->path,
                         .row = i,
                         .pair = r->pair,
                         .opening = r->opening,
                         .result = r->result,
                         .plies = r->plies,
                         .termination = r->termination,
                         .moves = s->mv.text };
    return regression_add_game(s->d, &g, err, errlen);
}

/* Reads the games of the open file, their moves checked and read from /match/moves. */
static int read_rows(RegressionData *d, const MatchVisitFile *f, char *err, size_t errlen)
{
    Sampling s = { .d = d, .path = f->path };
    if (match_rows_moves_open(&s.mv, f->file) != 0)
        return h5file_fail(err, errlen, "%s: cannot read /match/games and /match/moves", f->path);
    int rc = match_visit_rows(f, add_row, &s, &d->dropped, err, errlen);
    match_rows_moves_close(&s.mv);
    return rc;
}

/* The variant and rules of the match in file, for the samples. */
static int read_match(RegressionData *d, const char *path, hid_t match, char *err, size_t errlen)
{
    char variant[64], turns[64], ep[64];
    if (h5file_get_str(match, "variant", variant, sizeof variant) < 0 ||
        h5file_get_str(match, "turn_rules", turns, sizeof turns) < 0 ||
        h5file_get_str(match, "ep_rule", ep, sizeof ep) < 0)
        return h5file_fail(err, errlen, "%s: /match lacks the variant or the rules", path);
    return regression_file(d, path, variant, turns, ep, err, errlen);
}

static int read_file(RegressionData *d, const char *path, char *err, size_t errlen)
{
    MatchVisitFile f;
    if (match_visit_open(&f, path, err, errlen) != 0)
        return -1;
    int rc = read_match(d, path, f.match, err, errlen);
    if (rc == 0)
        rc = read_rows(d, &f, err, errlen);
    match_visit_close(&f);
    return rc;
}

int match_games_sample(const char *const *paths, size_t n_paths, int skip_plies,
                       RegressionData *out, char *err, size_t errlen)
{
    h5file_quiet();
    if (regression_start(out, skip_plies, err, errlen) != 0)
        return -1;
    if (n_paths == 0)
        return errmsg_fail(err, errlen, "no match result files to read");
    int rc = 0;
    for (size_t i = 0; i < n_paths && rc == 0; i++)
        rc = read_file(out, paths[i], err, errlen);
    if (rc != 0)
        regression_free(out);
    return rc;
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
