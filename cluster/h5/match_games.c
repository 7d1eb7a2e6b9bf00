/* SPDX-License-Identifier: MIT */
/* The games of match result files read for the regression (match_games.h): /match/games in
 * batches of rows, each row's moves checked against /match/moves before they are read
 * (match_rows.h). */
#include "match_games.h"

#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "h5check.h"
#include "h5file.h"
#include "match_file.h"
#include "match_rows.h"

/* Rows read per HDF5 call: bounded memory whatever the file. */
#define BATCH_ROWS 256

/* Whether row is what a match killed while appending a pair leaves: HDF5's fill values. */
static bool empty_row(const GameRow *r)
{
    return r->game == 0 && r->opening[0] == '\0' && r->moves_length == 0;
}

/* Samples row r (row i of the file) into d, its moves beginning at *at (then where they end);
 * torn: r is in the last pair, which a kill may have cut short. */
static int add_row(RegressionData *d, const char *path, MatchMoves *mv, const GameRow *r,
                   uint64_t i, bool torn, uint64_t *at, char *err, size_t errlen)
{
    const char *why = NULL;
    if (!memchr(r->opening, '\0', sizeof r->opening))
        why = "the opening is not a string";
    else if (!memchr(r->termination, '\0', sizeof r->termination))
        why = "the termination is not a string";
    else
        why = match_rows_moves_read(mv, r, *at);
    if (why)
        return errmsg_fail(
            err, errlen, "%s: row %llu of /match/games: %s%s", path, (unsigned long long)i, why,
            torn ? " (a match killed while writing it? resuming it repairs the file)" : "");
    *at += r->moves_length;
    RegressionGame g = { .path = path,
                         .row = i,
                         .pair = r->pair,
                         .opening = r->opening,
                         .result = r->result,
                         .plies = r->plies,
                         .termination = r->termination,
                         .moves = mv->text };
    return regression_add_game(d, &g, err, errlen);
}

/* Reads the games of the open /match/games dataset, their moves checked and read from
 * /match/moves. */
static int read_rows(RegressionData *d, const char *path, hid_t file, hid_t games, char *err,
                     size_t errlen)
{
    const long long rows = h5file_table_rows(games);
    hid_t mt = match_rows_type();
    GameRow *batch = malloc(BATCH_ROWS * sizeof *batch);
    MatchMoves mv;
    bool moves = match_rows_moves_open(&mv, file) == 0;
    int rc = 0;
    /* the first row of the last pair: the only one a kill can leave torn */
    const uint64_t n = rows > 0 ? (uint64_t)rows : 0, last_pair = n ? (n - 1) / 2 * 2 : 0;
    uint64_t at = 0;
    if (rows < 0 || mt < 0 || !batch || !moves)
        rc = h5file_fail(err, errlen, "%s: cannot read /match/games and /match/moves", path);
    else if (!h5check_stored_as(games, mt))
        rc = h5file_fail(err, errlen, "%s: /match/games is not stored as Carrera stores it", path);
    for (uint64_t start = 0; start < n && rc == 0; start += BATCH_ROWS) {
        const size_t cnt = (size_t)(n - start < BATCH_ROWS ? n - start : BATCH_ROWS);
        memset(batch, 0, cnt * sizeof *batch);
        if (!h5check_chunks_whole(games, start, cnt)) {
            rc = h5file_fail(
                err, errlen,
                "%s: row %llu of /match/games: a damaged chunk of /match/games holds it", path,
                (unsigned long long)start);
            break;
        }
        if (h5file_read_rows(games, mt, start, cnt, batch) < 0) {
            rc =
                h5file_fail(err, errlen,
                            "%s: cannot read rows %llu to %llu of /match/games (a match killed "
                            "while writing them? resuming it repairs the file)",
                            path, (unsigned long long)start, (unsigned long long)(start + cnt - 1));
            break;
        }
        for (size_t i = 0; i < cnt && rc == 0; i++) {
            const uint64_t row = start + i;
            if (empty_row(&batch[i]) && row >= last_pair)
                d->dropped++;
            else
                rc = add_row(d, path, &mv, &batch[i], row, row >= last_pair, &at, err, errlen);
        }
    }
    free(batch);
    if (moves)
        match_rows_moves_close(&mv);
    if (mt >= 0)
        H5Tclose(mt);
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
    static const H5CheckKind kind = { MATCH_ROWS_FORMAT, "match", MATCH_FILE_FORMAT_VERSION,
                                      "match result", "read it" };
    hid_t file = h5check_open(path, &kind, err, errlen);
    if (file < 0)
        return -1;
    int rc = 0;
    hid_t match = -1, games = -1;
    if (H5Lexists(file, "match", H5P_DEFAULT) <= 0 ||
        (match = H5Gopen2(file, "match", H5P_DEFAULT)) < 0 ||
        H5Lexists(match, "games", H5P_DEFAULT) <= 0 ||
        (games = H5Dopen2(match, "games", H5P_DEFAULT)) < 0)
        rc = h5file_fail(err, errlen, "%s has no /match/games: not a complete match result", path);
    if (rc == 0)
        rc = read_match(d, path, match, err, errlen);
    if (rc == 0)
        rc = read_rows(d, path, file, games, err, errlen);
    if (games >= 0)
        H5Dclose(games);
    if (match >= 0)
        H5Gclose(match);
    H5Fclose(file);
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
    char why[512];
    if (match_games_sample(paths, n_paths, skip_plies, &d, why, sizeof why) != 0) {
        tune_regress(t, NULL, skip_plies, why);
        return;
    }
    tune_regress(t, &d, skip_plies, NULL);
    regression_free(&d);
}
