/* SPDX-License-Identifier: MIT */
/* The games and provenance of a match result file for a report (match_tests.h). */
#include "match_tests.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "h5file.h"
#include "match_rows.h"
#include "match_visit.h"

_Static_assert(MATCH_TESTS_TERMINATION_MAX == MATCH_ROWS_TERMINATION_MAX,
               "the termination column's size");

static int get_int(hid_t loc, const char *name)
{
    long long v;
    return h5file_get_int(loc, name, &v) == 0 && v >= -1 && v <= 1000000000 ? (int)v : -1;
}

static void read_provenance(hid_t root, MatchTestsProvenance *p)
{
    h5file_get_str(root, "format", p->format, sizeof p->format);
    h5file_get_str(root, "carrera_version", p->version, sizeof p->version);
    h5file_get_str(root, "git_revision", p->revision, sizeof p->revision);
    h5file_get_str(root, "compiler", p->compiler, sizeof p->compiler);
    h5file_get_str(root, "build_flags", p->build_flags, sizeof p->build_flags);
    h5file_get_str(root, "start_time", p->start_time, sizeof p->start_time);
    h5file_get_str(root, "end_time", p->end_time, sizeof p->end_time);
    p->ranks = get_int(root, "ranks");
    p->threads_per_rank = get_int(root, "threads_per_rank");
    p->resumed = get_int(root, "resumed");
    h5file_get_strs_joined(root, "hosts", ", ", p->hosts, sizeof p->hosts);
    h5file_forget();
}

/* /tune/pairs, when the file has it as Carrera writes it: uint64 [n][5], n at most
 * MATCH_MAX_IMBALANCES. */
static void read_tune_pairs(hid_t file, MatchTestsFile *out)
{
    if (H5Lexists(file, "tune", H5P_DEFAULT) <= 0 ||
        H5Lexists(file, "tune/pairs", H5P_DEFAULT) <= 0) {
        h5file_forget();
        return;
    }
    hid_t d = H5Dopen2(file, "tune/pairs", H5P_DEFAULT);
    hid_t ft = d >= 0 ? H5Dget_type(d) : -1;
    hid_t sp = d >= 0 ? H5Dget_space(d) : -1;
    hsize_t dims[2] = { 0, 0 };
    if (ft >= 0 && sp >= 0 && H5Tget_class(ft) == H5T_INTEGER &&
        H5Sget_simple_extent_ndims(sp) == 2 && H5Sget_simple_extent_dims(sp, dims, NULL) == 2 &&
        dims[0] <= MATCH_MAX_IMBALANCES && dims[1] == PAIR_CLASSES &&
        (dims[0] == 0 ||
         H5Dread(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, out->tune_pairs) >= 0)) {
        out->has_tune_pairs = true;
        out->n_tune_pairs = (size_t)dims[0];
    }
    if (sp >= 0)
        H5Sclose(sp);
    if (ft >= 0)
        H5Tclose(ft);
    if (d >= 0)
        H5Dclose(d);
    h5file_forget();
}

/* Adds row r (row i) to out->games; a bad row in the last pair, which a kill may have torn, is
 * dropped, any other refused. */
static int add_game(void *ctx, const GameRow *r, uint64_t i, bool torn, char *err, size_t errlen)
{
    MatchTestsFile *out = ctx;
    const char *why = match_rows_problem(r, i, UINT64_MAX);
    if (why && torn) {
        out->dropped++;
        return 0;
    }
    if (why)
        return errmsg_fail(err, errlen, "row %llu of /match/games: %s", (unsigned long long)i, why);
    if (out->n_games == out->cap) {
        size_t cap = out->cap ? 2 * out->cap : 256;
        MatchTestGame *more = realloc(out->games, cap * sizeof *more);
        if (!more)
            return errmsg_fail(err, errlen, "out of memory for %zu games", cap);
        out->games = more;
        out->cap = cap;
    }
    MatchTestGame *g = &out->games[out->n_games++];
    *g = (MatchTestGame){ .pair = r->pair,
                          .game = r->game,
                          .white = r->white,
                          .score = r->player1_score,
                          .plies = r->plies,
                          .nodes_white = r->nodes_white,
                          .nodes_black = r->nodes_black,
                          .seconds_white = r->seconds_white,
                          .seconds_black = r->seconds_black };
    memcpy(g->termination, r->termination, sizeof g->termination);
    return 0;
}

int match_tests_read(const char *path, MatchTestsFile *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    MatchVisitFile f;
    if (match_visit_open(&f, path, err, errlen) != 0)
        return -1;
    hid_t root = H5Gopen2(f.file, "/", H5P_DEFAULT);
    int rc = 0;
    read_provenance(root, &out->prov);
    out->configuration = h5file_get_str_alloc(root, "configuration");
    if (!out->configuration)
        rc = h5file_fail(err, errlen, "%s: the root has no configuration text", path);
    if (rc == 0) {
        char why[ERRMSG_LEN];
        rc = match_visit_rows(&f, add_game, out, &out->dropped, why, sizeof why);
        if (rc != 0)
            errmsg_fail(err, errlen, "%s%s%s", strncmp(why, path, strlen(path)) ? path : "",
                        strncmp(why, path, strlen(path)) ? ": " : "", why);
    }
    if (rc == 0)
        read_tune_pairs(f.file, out);
    if (root >= 0)
        H5Gclose(root);
    match_visit_close(&f);
    if (rc != 0)
        match_tests_free(out);
    return rc;
}

void match_tests_free(MatchTestsFile *f)
{
    free(f->configuration);
    free(f->games);
    memset(f, 0, sizeof *f);
}
