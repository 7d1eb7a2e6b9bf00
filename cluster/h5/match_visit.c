/* SPDX-License-Identifier: MIT */
/* The rows of /match/games read in batches and visited (match_visit.h). */
#include "match_visit.h"

#include <stdlib.h>
#include <string.h>

#include "h5check.h"
#include "h5file.h"
#include "match_file.h"

/* Rows read per HDF5 call: bounded memory whatever the file. */
#define BATCH_ROWS 256

int match_visit_open(MatchVisitFile *f, const char *path, char *err, size_t errlen)
{
    static const H5CheckKind kind = { MATCH_ROWS_FORMAT, "match", MATCH_FILE_FORMAT_VERSION,
                                      "match result", "read it" };
    *f = (MatchVisitFile){ .path = path, .file = -1, .match = -1, .games = -1 };
    h5file_quiet();
    f->file = h5check_open(path, &kind, 0, err, errlen);
    if (f->file < 0)
        return -1;
    if (H5Lexists(f->file, "match", H5P_DEFAULT) <= 0 ||
        (f->match = H5Gopen2(f->file, "match", H5P_DEFAULT)) < 0 ||
        H5Lexists(f->match, "games", H5P_DEFAULT) <= 0 ||
        (f->games = H5Dopen2(f->match, "games", H5P_DEFAULT)) < 0) {
        h5file_fail(err, errlen, "%s has no /match/games: not a complete match result", path);
        match_visit_close(f);
        return -1;
    }
    return 0;
}

void match_visit_close(MatchVisitFile *f)
{
    if (f->games >= 0)
        H5Dclose(f->games);
    if (f->match >= 0)
        H5Gclose(f->match);
    if (f->file >= 0)
        H5Fclose(f->file);
    f->file = f->match = f->games = -1;
}

/* Whether row is what a match killed while appending a pair leaves: HDF5's fill values. */
static bool empty_row(const GameRow *r)
{
    return r->game == 0 && r->opening[0] == '\0' && r->moves_length == 0;
}

int match_visit_rows(const MatchVisitFile *f, MatchRowVisitor visit, void *ctx, uint64_t *dropped,
                     char *err, size_t errlen)
{
    const char *path = f->path;
    const long long rows = h5file_table_rows(f->games);
    hid_t mt = match_rows_type();
    GameRow *batch = malloc(BATCH_ROWS * sizeof *batch);
    int rc = 0;
    /* the first row of the last pair: the only one a kill can leave torn */
    const uint64_t n = rows > 0 ? (uint64_t)rows : 0, last_pair = n ? (n - 1) / 2 * 2 : 0;
    if (rows < 0 || mt < 0 || !batch)
        rc = h5file_fail(err, errlen, "%s: cannot read /match/games", path);
    else if (!h5check_stored_as(f->games, mt))
        rc = h5file_fail(err, errlen, "%s: /match/games is not stored as Carrera stores it", path);
    for (uint64_t start = 0; start < n && rc == 0; start += BATCH_ROWS) {
        const size_t cnt = (size_t)(n - start < BATCH_ROWS ? n - start : BATCH_ROWS);
        memset(batch, 0, cnt * sizeof *batch);
        if (!h5check_chunks_whole(f->games, start, cnt)) {
            rc = h5file_fail(
                err, errlen,
                "%s: row %llu of /match/games: a damaged chunk of /match/games holds it", path,
                (unsigned long long)start);
            break;
        }
        if (h5file_read_rows(f->games, mt, start, cnt, batch) < 0) {
            rc =
                h5file_fail(err, errlen,
                            "%s: cannot read rows %llu to %llu of /match/games (a match killed "
                            "while writing them? resuming it repairs the file)",
                            path, (unsigned long long)start, (unsigned long long)(start + cnt - 1));
            break;
        }
        for (size_t i = 0; i < cnt && rc == 0; i++) {
            const uint64_t row = start + i;
            if (empty_row(&batch[i]) && row >= last_pair) {
                if (dropped)
                    (*dropped)++;
            } else
                rc = visit(ctx, &batch[i], row, row >= last_pair, err, errlen);
        }
    }
    free(batch);
    if (mt >= 0)
        H5Tclose(mt);
    return rc;
}
