/* SPDX-License-Identifier: MIT */
/* The HDF5 result and checkpoint file of a match (layout: docs/result-files.md). Only rank 0 uses
 * it, with the serial library; its life (made, published, resumed, completed) is result_file.c's
 * as for every result file, what it shares with them is in h5file.c, its rows are in
 * match_rows.c, the resume's reading in match_resume.c, the summary in match_summary.c.
 *
 * Crash safety. A match does not know its games in advance, so unlike the perft file its table
 * grows: every pair appends two rows and their moves to chunked datasets and is flushed (H5Fflush,
 * fsync) before the call returns. Between two calls HDF5 writes nothing, so a match killed while it
 * plays leaves the file of the last flush. A kill during a flush may leave the rows being appended
 * unreadable, empty or naming moves that are not there; only the last pair can be so, and a
 * resume drops it (it is played again).
 * A full disk is another matter: HDF5 keeps no journal, and an append that runs out of space
 * half-way leaves the file's metadata pointing past its end, the whole file unreadable ("truncated
 * file" on the next open). So every append first claims the
 * room it may need past the end of the file and gives it back at once; when the claim fails the
 * pair is not written and the file stays as the last flush left it. What changes the file in other
 * ways (a resume, the summary) is done on a copy that then replaces it (result_file.c). */
#define _POSIX_C_SOURCE 200809L

#include "match_file.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "h5file.h"
#include "match_file_impl.h"
#include "match_rows.h"
#include "tune_group.h"
#include "turn.h"
#include "variant.h"

/* Room claimed before an append beyond what its rows and texts need: HDF5's metadata (the chunk
 * indexes, object headers), with a margin. */
#define ROOM_SLACK (16 * 1024)

/* Names of the pentanomial classes, from player 1's view (core/stats/stats.h). */
static const char *const class_names[PAIR_CLASSES] = { "LL", "LD", "WL+DD", "WD", "WW" };

/* ---- the result ---- */

bool match_file_is_done(const MatchFile *h, uint64_t pair)
{
    return h->done[pair / 8] >> (pair % 8) & 1;
}

void match_file_count_pair(MatchFile *h, uint64_t pair, const double score[2])
{
    h->done[pair / 8] |= (uint8_t)(1u << (pair % 8));
    for (int k = 0; k < 2; k++) {
        h->wins += score[k] == 1.0;
        h->draws += score[k] == 0.5;
        h->losses += score[k] == 0.0;
    }
    h->counts[stats_pair_class(score[0], score[1])]++;
}

/* Closes what recording keeps open in the file. */
static void close_records(void *owner)
{
    MatchFile *h = owner;
    if (h->row_type >= 0)
        H5Tclose(h->row_type);
    if (h->games >= 0)
        H5Dclose(h->games);
    if (h->moves >= 0)
        H5Dclose(h->moves);
    if (h->penta >= 0)
        H5Dclose(h->penta);
    h->row_type = h->games = h->moves = h->penta = H5I_INVALID_HID;
}

/* Opens what recording needs: the three datasets and the row type. h->bytes is the caller's. */
static int open_records(void *owner)
{
    MatchFile *h = owner;
    h->games = H5Dopen2(h->rf.file, "/match/games", H5P_DEFAULT);
    h->moves = H5Dopen2(h->rf.file, "/match/moves", H5P_DEFAULT);
    h->penta = H5Dopen2(h->rf.file, "/match/pentanomial", H5P_DEFAULT);
    h->row_type = match_rows_type();
    long long rows = h->games >= 0 ? h5file_table_rows(h->games) : -1;
    h->rows = rows > 0 ? (uint64_t)rows : 0;
    return (h->games < 0 || h->moves < 0 || h->penta < 0 || h->row_type < 0 || rows < 0) ? -1 : 0;
}

static const ResultKind match_kind = {
    .check = { MATCH_ROWS_FORMAT, "match", MATCH_FILE_FORMAT_VERSION, "match checkpoint",
               "finish it" },
    .words = { "game", "the match's parameters", "the summary" },
    .open_records = open_records,
    .close_records = close_records,
};

static void match_free(MatchFile *h)
{
    if (!h)
        return;
    result_file_free(&h->rf);
    free(h->done);
    free(h);
}

static MatchFile *match_new(const char *path, uint64_t n_pairs, char *err, size_t errlen)
{
    MatchFile *h = calloc(1, sizeof *h);
    if (h) {
        h->games = h->moves = h->penta = h->row_type = H5I_INVALID_HID;
        h->n_pairs = n_pairs;
        h->done = calloc(n_pairs / 8 + 1, 1);
    }
    if (!h || result_file_init(&h->rf, &match_kind, h, path) < 0 || !h->done) {
        match_free(h);
        h5file_fail(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    return h;
}

int match_file_write_counts(MatchFile *h)
{
    herr_t rc = H5Dwrite(h->penta, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, h->counts);
    return rc < 0 ? -1 : 0;
}

Provenance match_file_provenance(const MatchFileInfo *info)
{
    Provenance p = *info->prov;
    p.config = info->cfg->text;
    return p;
}

/* ---- creating ---- */

/* What match_file_create gives write_header. */
typedef struct Creating {
    MatchFile *h;
    const MatchFileInfo *info;
} Creating;

/* Writes the header below the provenance: the match's facts, its empty tables. */
static int write_header(void *ctx, char *err, size_t errlen)
{
    const Creating *x = ctx;
    MatchFile *h = x->h;
    const MatchConfig *c = x->info->cfg;
    const char *path = h->rf.path;

    hid_t g = H5Gcreate2(h->rf.file, "match", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = g < 0 ? -1 : 0;
    if (rc == 0) {
        rc |= h5file_put_str(g, "variant", c->variant->name);
        rc |= h5file_put_str(g, "turn_rules", turn_rules_name(c->rules.turns));
        rc |= h5file_put_str(g, "ep_rule", ep_rule_name(c->rules.ep));
        rc |= h5file_put_i32(g, "games", c->games);
        rc |= h5file_put_str(g, "player1", c->players[0].name);
        rc |= h5file_put_str(g, "player2", c->players[1].name);
        rc |= h5file_put_u64(g, "seed", c->seed);
    }
    if (rc != 0) {
        if (g >= 0)
            H5Gclose(g);
        return h5file_fail(err, errlen, "cannot write the match's parameters to %s", path);
    }

    /* /match/games and /match/moves: nothing yet, growing by pairs */
    if (match_rows_create(g) < 0) {
        H5Gclose(g);
        return h5file_fail(err, errlen, "cannot create /match/games in %s", path);
    }

    /* /match/pentanomial: five counts rewritten in place, allocated now */
    hsize_t classes = PAIR_CLASSES;
    hid_t sp = H5Screate_simple(1, &classes, NULL);
    hid_t pl = H5Pcreate(H5P_DATASET_CREATE);
    hid_t d = -1;
    if (sp >= 0 && pl >= 0 && H5Pset_layout(pl, H5D_CONTIGUOUS) >= 0 &&
        H5Pset_alloc_time(pl, H5D_ALLOC_TIME_EARLY) >= 0 && H5Pset_obj_track_times(pl, false) >= 0)
        d = H5Dcreate2(g, "pentanomial", H5T_STD_U64LE, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
    rc = d < 0 ? -1 : 0;
    if (rc == 0 && (H5Dwrite(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, h->counts) < 0 ||
                    h5file_put_strs(d, "classes", class_names, PAIR_CLASSES) < 0))
        rc = -1;
    if (d >= 0 && H5Dclose(d) < 0)
        rc = -1;
    if (sp >= 0)
        H5Sclose(sp);
    if (pl >= 0)
        H5Pclose(pl);
    if (H5Gclose(g) < 0)
        rc = -1;
    if (rc != 0)
        return h5file_fail(err, errlen, "cannot create /match/pentanomial in %s", path);
    return 0;
}

/* What both match_file_create and match_file_open_resume need of the match. */
static int check_info(const char *path, const MatchFileInfo *info, char *err, size_t errlen)
{
    const MatchConfig *c = info ? info->cfg : NULL;
    if (!c || !info->prov || !c->variant || !c->text)
        return h5file_fail(err, errlen, "%s: incomplete match description", path);
    if (c->games <= 0 || c->games % 2 != 0)
        return h5file_fail(err, errlen, "%s: %d games is not a positive number of pairs", path,
                           c->games);
    return 0;
}

MatchFile *match_file_create(const char *path, const MatchFileInfo *info, char *err, size_t errlen)
{
    h5file_quiet();
    if (check_info(path, info, err, errlen) < 0)
        return NULL;
    MatchFile *h = match_new(path, (uint64_t)info->cfg->games / 2, err, errlen);
    if (!h)
        return NULL;
    Provenance prov = match_file_provenance(info);
    Creating x = { h, info };
    if (result_file_create(&h->rf, &prov, info->overwrite, write_header, &x, err, errlen) < 0) {
        match_free(h);
        return NULL;
    }
    return h;
}

/* ---- resume ---- */

/* What match_file_open_resume gives the resume's steps. */
typedef struct Resuming {
    MatchFile *h;
    const MatchFileInfo *expected;
    MatchFileDone *done;
    uint64_t keep; /* the rows to keep: a pair a kill cut short at the end is dropped */
} Resuming;

static int compare_match(void *ctx, hid_t file, char *diffs, size_t len)
{
    return match_resume_compare(file, ((const Resuming *)ctx)->expected, diffs, len);
}

/* Reads the games; what is done is the pairs in the file. */
static int read_games(void *ctx, uint64_t *done, char *err, size_t errlen)
{
    Resuming *x = ctx;
    if (open_records(x->h) < 0)
        return h5file_fail(err, errlen,
                           "%s: damaged checkpoint (cannot open /match/games, /match/moves or "
                           "/match/pentanomial)",
                           x->h->rf.path);
    if (match_resume_read(x->h, x->done, &x->keep, err, errlen) < 0)
        return -1;
    *done = x->done->n;
    return 0;
}

/* The file's plan raised to this match's games (an extension): /match's games and the root's
 * configuration become this match's, and /match's `extensions` gains a line for the resume. */
static int extend_plan(hid_t file, const MatchConfig *c)
{
    long long before = 0, resumed = 0;
    hid_t g = H5Gopen2(file, "/match", H5P_DEFAULT);
    if (g < 0)
        return -1;
    int rc =
        h5file_get_int(g, "games", &before) < 0 || h5file_get_int(file, "resumed", &resumed) < 0
            ? -1
            : 0;
    if (rc == 0 && before != c->games) {
        char *history =
            H5Aexists(g, "extensions") > 0 ? h5file_get_str_alloc(g, "extensions") : strdup("");
        size_t n = history ? strlen(history) + 80 : 0;
        char *text = history ? malloc(n) : NULL;
        if (text)
            snprintf(text, n, "%sresume %lld: %lld to %d games\n", history, resumed + 1, before,
                     c->games);
        rc = !text || h5file_put_i32(g, "games", c->games) < 0 ||
                     h5file_put_str(g, "extensions", text) < 0 ||
                     h5file_put_str(file, "configuration", c->text) < 0
                 ? -1
                 : 0;
        free(text);
        free(history);
    }
    if (H5Gclose(g) < 0)
        rc = -1;
    return rc;
}

/* Trims the rows to those kept; an extension's file plans this match's games from now on. */
static int prepare(void *ctx)
{
    Resuming *x = ctx;
    if (match_resume_prepare(x->h, x->keep) < 0)
        return -1;
    return x->expected->extend ? extend_plan(x->h->rf.file, x->expected->cfg) : 0;
}

MatchFile *match_file_open_resume(const char *path, const MatchFileInfo *expected,
                                  MatchFileDone *done, char *err, size_t errlen)
{
    h5file_quiet();
    memset(done, 0, sizeof *done);
    if (check_info(path, expected, err, errlen) < 0)
        return NULL;
    MatchFile *h = match_new(path, (uint64_t)expected->cfg->games / 2, err, errlen);
    if (!h)
        return NULL;
    Provenance prov = match_file_provenance(expected);
    const ResultResume how = { .prov = &prov,
                               .done_name = "pairs_done_at_start",
                               .lock_wait = expected->lock_wait,
                               .compare = compare_match,
                               .read = read_games,
                               .prepare = prepare };
    Resuming x = { h, expected, done, 0 };
    if (result_file_resume(&h->rf, &how, &x, err, errlen) < 0) {
        match_file_done_free(done);
        match_free(h);
        return NULL;
    }
    return h;
}

void match_file_done_free(MatchFileDone *done)
{
    free(done->pairs);
    memset(done, 0, sizeof *done);
}

static int cmp_pair(const void *a, const void *b)
{
    uint64_t x = ((const MatchFilePair *)a)->pair, y = ((const MatchFilePair *)b)->pair;
    return (x > y) - (x < y);
}

bool match_file_done_has(const MatchFileDone *done, uint64_t pair)
{
    MatchFilePair key = { .pair = pair };
    return done->n && bsearch(&key, done->pairs, done->n, sizeof key, cmp_pair);
}

int match_file_resume_count(const MatchFile *h) { return h->rf.run; }

/* ---- recording and finishing ---- */

/* Claims bytes past the end of the file and gives them back (see the top of the file): 0 when
 * they were there, or -1 with a message naming what would have been written, `what`. A file
 * system that cannot claim space (posix_fallocate unsupported) is written as before. */
static int check_room(const MatchFile *h, size_t bytes, const char *what, char *err, size_t errlen)
{
    void *handle = NULL;
    struct stat st;
    if (H5Fget_vfd_handle(h->rf.file, H5P_DEFAULT, &handle) < 0 || !handle)
        return 0;
    int fd = *(int *)handle;
    if (fstat(fd, &st) != 0)
        return 0;
    /* The file holds only what the last flush wrote: its size is HDF5's end of file. */
    int rc = posix_fallocate(fd, st.st_size, (off_t)bytes);
    if (ftruncate(fd, st.st_size) != 0 && rc == 0)
        rc = errno;
    if (rc == 0 || rc == EINVAL || rc == EOPNOTSUPP)
        return 0;
    return h5file_fail(
        err, errlen,
        "no room to write %s to %s (%zu bytes): %s; the file keeps what was recorded "
        "before",
        what, h->rf.path, bytes, strerror(rc));
}

int match_file_record_pair(MatchFile *h, uint64_t pair, const GameRecord g[2], char *err,
                           size_t errlen)
{
    h5file_quiet();
    unsigned long long p = (unsigned long long)pair;
    if (pair >= h->n_pairs)
        return h5file_fail(err, errlen, "%s: pair %llu is not in the match (%llu pairs)",
                           h->rf.path, p, (unsigned long long)h->n_pairs);
    if (match_file_is_done(h, pair))
        return h5file_fail(err, errlen, "%s: pair %llu is recorded already", h->rf.path, p);
    for (int k = 0; k < 2; k++)
        if (g[k].result < -1 || g[k].result > 1 || g[k].ending >= END_NB)
            return h5file_fail(err, errlen, "%s: game %d of pair %llu has no valid result",
                               h->rf.path, k + 1, p);
    GameRow rows[2];
    char *text[2];
    text[0] = match_rows_fill(&rows[0], pair, 0, &g[0], h->bytes);
    text[1] = match_rows_fill(&rows[1], pair, 1, &g[1], h->bytes + rows[0].moves_length);
    int rc = 0;
    char what[48];
    snprintf(what, sizeof what, "pair %llu", p);
    if (!text[0] || !text[1])
        rc = h5file_fail(err, errlen, "%s: out of memory writing pair %llu", h->rf.path, p);
    else if (check_room(h, match_rows_append_bytes(rows) + ROOM_SLACK, what, err, errlen) < 0)
        rc = -1;
    else if (match_rows_append(h->games, h->moves, h->rows, h->bytes, rows, text) < 0)
        rc = h5file_fail(err, errlen, "cannot write pair %llu to %s", p, h->rf.path);
    free(text[0]);
    free(text[1]);
    if (rc != 0)
        return rc;
    h->rows += 2;
    h->bytes += (uint64_t)rows[0].moves_length + rows[1].moves_length;
    double score[2] = { rows[0].player1_score, rows[1].player1_score };
    match_file_count_pair(h, pair, score);
    if (match_file_write_counts(h) < 0)
        return h5file_fail(err, errlen, "cannot write the pair counts to %s", h->rf.path);
    return result_file_flush(&h->rf, err, errlen);
}

/* What match_file_finish gives write_summary. */
typedef struct Finishing {
    MatchFile *h;
    const MatchFileSummary *s;
} Finishing;

static int write_summary(void *ctx)
{
    const Finishing *f = ctx;
    return match_summary_write(f->h, f->s);
}

int match_file_finish(MatchFile *h, const MatchFileSummary *s, char *err, size_t errlen)
{
    h5file_quiet();
    Finishing f = { h, s };
    int rc = result_file_finish(&h->rf, s->end_time, write_summary, &f, err, errlen);
    match_free(h);
    return rc;
}

int match_file_close(MatchFile *h, char *err, size_t errlen)
{
    h5file_quiet();
    int rc = result_file_close(&h->rf, err, errlen);
    match_free(h);
    return rc;
}

int match_file_write_tune(MatchFile *h, const Tuner *t, char *err, size_t errlen)
{
    h5file_quiet();
    /* /tune is written anew: its arrays grow with the stages */
    size_t per_stage = TUNE_MAX_PARAMS * (sizeof(double) + sizeof(int8_t)) + sizeof(double);
    size_t bytes = (size_t)(t->cfg->stages + 1) * per_stage +
                   (size_t)t->n_iterations * sizeof(TuneIteration) + ROOM_SLACK;
    if (check_room(h, bytes, "/tune", err, errlen) < 0)
        return -1;
    if (tune_group_write(h->rf.file, t) != 0)
        return h5file_fail(err, errlen, "cannot write /tune to %s", h->rf.path);
    return result_file_flush(&h->rf, err, errlen);
}

int match_file_flush(MatchFile *h, char *err, size_t errlen)
{
    h5file_quiet();
    return result_file_flush(&h->rf, err, errlen);
}
