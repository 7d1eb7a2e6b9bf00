/* SPDX-License-Identifier: MIT */
/* The games of match result files read for the regression (match_games.h): /match/games in
 * batches of rows, each row's texts checked against the file's heap before HDF5 reads them. */
#include "match_games.h"

#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "h5file.h"
#include "match_file.h"
#include "position.h"

/* match_file.c's mark of a match result (root attribute "format"), and its termination
 * column. */
#define FORMAT_NAME     "carrera-match"
#define TERMINATION_MAX 32

/* Rows read per HDF5 call: bounded memory whatever the file. */
#define BATCH_ROWS 256

#if H5_VERSION_GE(1, 12, 0)
#define reclaim_vlen H5Treclaim
#else
#define reclaim_vlen H5Dvlen_reclaim
#endif

/* The columns of a /match/games row that are read; HDF5 picks them out of the file's row by
 * name. */
typedef struct Row {
    char opening[FEN_MAX];
    int8_t result; /* for White */
    uint32_t plies;
    char termination[TERMINATION_MAX];
    char *moves;
} Row;

static hid_t row_type(void)
{
    hid_t fen = h5file_string_type(FEN_MAX);
    hid_t term = h5file_string_type(TERMINATION_MAX);
    hid_t vs = h5file_vlen_string_type();
    hid_t t = -1;
    if (fen >= 0 && term >= 0 && vs >= 0) {
        const H5FileMember m[] = {
            { "opening", offsetof(Row, opening), fen },
            { "result", offsetof(Row, result), H5T_NATIVE_INT8 },
            { "plies", offsetof(Row, plies), H5T_NATIVE_UINT32 },
            { "termination", offsetof(Row, termination), term },
            { "moves", offsetof(Row, moves), vs },
        };
        t = h5file_compound(sizeof(Row), m, (int)(sizeof m / sizeof m[0]), 0);
    }
    hid_t parts[] = { fen, term, vs };
    for (int i = 0; i < 3; i++)
        if (parts[i] >= 0)
            H5Tclose(parts[i]);
    return t;
}

/* Whether row is what a match killed while appending a pair leaves: no text at all. */
static bool empty_row(const Row *r) { return !r->moves && r->opening[0] == '\0'; }

/* Reads the games of the open /match/games dataset, its texts checked first in heap. */
static int read_rows(RegressionData *d, const char *path, const H5Heap *heap, hid_t games,
                     char *err, size_t errlen)
{
    const long long rows = h5file_table_rows(games);
    hid_t mt = row_type();
    Row *batch = malloc(BATCH_ROWS * sizeof *batch);
    int rc = 0;
    /* the first row of the last pair: the only one a kill can leave torn */
    const uint64_t n = rows > 0 ? (uint64_t)rows : 0, last_pair = n ? (n - 1) / 2 * 2 : 0;
    const int64_t good = rows >= 0 ? h5heap_first_bad_row(heap, games, n) : -1;
    if (good < 0 || mt < 0 || !batch)
        rc = h5file_fail(err, errlen, "%s: cannot read /match/games", path);
    for (uint64_t start = 0; start < n && rc == 0; start += BATCH_ROWS) {
        const size_t cnt = (size_t)(n - start < BATCH_ROWS ? n - start : BATCH_ROWS);
        memset(batch, 0, cnt * sizeof *batch);
        if ((uint64_t)good < start + cnt || h5file_read_rows(games, mt, start, cnt, batch) < 0) {
            rc =
                h5file_fail(err, errlen,
                            "%s: cannot read rows %llu to %llu of /match/games (a match killed "
                            "while writing them? resuming it repairs the file)",
                            path, (unsigned long long)start, (unsigned long long)(start + cnt - 1));
            break;
        }
        for (size_t i = 0; i < cnt && rc == 0; i++) {
            const uint64_t row = start + i;
            const Row *r = &batch[i];
            RegressionGame g = { .path = path,
                                 .row = row,
                                 .opening = r->opening,
                                 .result = r->result,
                                 .plies = r->plies,
                                 .termination = r->termination,
                                 .moves = r->moves };
            if (empty_row(r) && row >= last_pair)
                d->dropped++;
            else if (!r->moves || !memchr(r->opening, '\0', sizeof r->opening))
                rc = errmsg_fail(err, errlen, "%s: row %llu of /match/games: a missing text", path,
                                 (unsigned long long)row);
            else if (!memchr(r->termination, '\0', sizeof r->termination))
                rc = errmsg_fail(err, errlen,
                                 "%s: row %llu of /match/games: the termination is not a string",
                                 path, (unsigned long long)row);
            else
                rc = regression_add_game(d, &g, err, errlen);
        }
        hsize_t dim = cnt;
        hid_t sp = H5Screate_simple(1, &dim, NULL);
        if (sp >= 0) {
            reclaim_vlen(mt, sp, H5P_DEFAULT, batch);
            H5Sclose(sp);
        }
    }
    free(batch);
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
    H5Heap *heap = NULL;
    hid_t file = h5file_open_checked(path, FORMAT_NAME, MATCH_FILE_FORMAT_VERSION, "match result",
                                     &heap, err, errlen);
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
        rc = read_rows(d, path, heap, games, err, errlen);
    if (games >= 0)
        H5Dclose(games);
    if (match >= 0)
        H5Gclose(match);
    H5Fclose(file);
    h5heap_close(heap);
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
