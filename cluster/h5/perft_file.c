/* SPDX-License-Identifier: MIT */
/* The HDF5 result and checkpoint file of a distributed perft (layout: docs/result-files.md).
 * Only rank 0 uses it, with the serial library; its life (made, published, resumed, completed)
 * is result_file.c's as for every result file, what it shares with them is in h5file.c, its
 * tables are in perft_rows.c, the resume's reading in perft_resume.c, the results in
 * perft_results.c.
 *
 * Crash safety rests on five choices. The file keeps the layout of HDF5 1.8 (no 1.10
 * superblock, whose "file open for writing" flag would make a killed job's file unreadable
 * without h5clear). Every dataset is contiguous and allocated when it is created, so recording
 * a unit rewrites bytes at a fixed place and changes no metadata: a job killed between two
 * flushes leaves a file whose structure is that of the last flush. A flush is H5Fflush
 * followed by fsync, so a flushed unit survives the node too. And what does change the
 * structure of a file holding counts (a resume, the results) is done on a copy that then
 * replaces it, and a new file appears at its path only once its header is on disk
 * (result_file.c says why). */
#define _POSIX_C_SOURCE 200809L

#include "perft_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "h5file.h"
#include "perft_file_impl.h"
#include "perft_rows.h"

static int cmp_id(const void *a, const void *b)
{
    uint64_t x = ((const IdRow *)a)->id, y = ((const IdRow *)b)->id;
    return (x > y) - (x < y);
}

long long perft_file_row_of(const PerftFile *h, uint64_t id)
{
    IdRow key = { id, 0 };
    const IdRow *r = bsearch(&key, h->index, h->n_units, sizeof *h->index, cmp_id);
    return r ? (long long)r->row : -1;
}

/* Closes what recording keeps open in the file. */
static void close_records(void *owner)
{
    PerftFile *h = owner;
    if (h->done_type >= 0)
        H5Tclose(h->done_type);
    if (h->one_space >= 0)
        H5Sclose(h->one_space);
    if (h->one_xfer >= 0)
        H5Pclose(h->one_xfer);
    if (h->units_space >= 0)
        H5Sclose(h->units_space);
    if (h->units >= 0)
        H5Dclose(h->units);
    h->done_type = h->one_space = h->one_xfer = h->units_space = h->units = H5I_INVALID_HID;
}

/* Opens what recording needs: /perft/units, its dataspace, the row types. */
static int open_records(void *owner)
{
    PerftFile *h = owner;
    hsize_t one = 1;
    h->units = H5Dopen2(h->rf.file, "/perft/units", H5P_DEFAULT);
    h->units_space = h->units >= 0 ? H5Dget_space(h->units) : -1;
    h->one_space = H5Screate_simple(1, &one, NULL);
    h->done_type = perft_rows_done_type();
    /* Writing some members of a row converts through buffers of 1 MB by default, cleared on
     * every write: a thousand units would clear gigabytes. */
    h->one_xfer = H5Pcreate(H5P_DATASET_XFER);
    if (h->one_xfer >= 0 && H5Pset_buffer(h->one_xfer, 4 * sizeof(UnitRow), NULL, NULL) < 0)
        return -1;
    return (h->units < 0 || h->units_space < 0 || h->one_space < 0 || h->done_type < 0 ||
            h->one_xfer < 0)
               ? -1
               : 0;
}

static const ResultKind perft_kind = {
    .check = { PERFT_ROWS_FORMAT, "perft", H5_FORMAT_VERSION, "checkpoint", "finish it" },
    .words = { "unit", "the job parameters", "the results" },
    .open_records = open_records,
    .close_records = close_records,
};

static void result_free(PerftFile *h)
{
    if (!h)
        return;
    result_file_free(&h->rf);
    free(h->work);
    free(h->index);
    free(h->nodes);
    free(h);
}

/* A result with room for n units; the index and nodes are filled by the caller. */
static PerftFile *result_new(const char *path, size_t n, char *err, size_t errlen)
{
    PerftFile *h = calloc(1, sizeof *h);
    if (h) {
        h->units = h->units_space = h->one_space = h->one_xfer = h->done_type = H5I_INVALID_HID;
        h->index = malloc((n ? n : 1) * sizeof *h->index);
        h->nodes = malloc((n ? n : 1) * sizeof *h->nodes);
    }
    if (!h || result_file_init(&h->rf, &perft_kind, h, path) < 0 || !h->index || !h->nodes) {
        result_free(h);
        h5file_fail(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    h->n_units = n;
    return h;
}

/* Sorts the index and checks that the ids are distinct. */
int perft_file_index_ready(PerftFile *h, char *err, size_t errlen)
{
    qsort(h->index, h->n_units, sizeof *h->index, cmp_id);
    for (size_t i = 1; i < h->n_units; i++)
        if (h->index[i].id == h->index[i - 1].id)
            return h5file_fail(err, errlen, "%s: unit id %llu appears twice", h->rf.path,
                               (unsigned long long)h->index[i].id);
    return 0;
}

int perft_file_flush(PerftFile *h, char *err, size_t errlen)
{
    h5file_quiet();
    if (result_file_flush(&h->rf, err, errlen) < 0)
        return -1;
    h->dirty = false;
    return 0;
}

int perft_file_flush_if_due(PerftFile *h, char *err, size_t errlen)
{
    if (!h->dirty || monotonic_seconds() - h->dirty_since < h->interval)
        return 0;
    return perft_file_flush(h, err, errlen);
}

int perft_file_resume_count(const PerftFile *h) { return h->rf.run; }

/* What perft_file_create gives write_header. */
typedef struct Creating {
    PerftFile *h;
    const PerftFileInfo *info;
    const Split *split;
} Creating;

/* Writes the header below the provenance: job parameters, root turns and the units table. */
static int write_header(void *ctx, char *err, size_t errlen)
{
    const Creating *c = ctx;
    PerftFile *h = c->h;
    const PerftFileInfo *info = c->info;
    const Split *split = c->split;
    const char *path = h->rf.path;

    hid_t g = H5Gcreate2(h->rf.file, "perft", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = g < 0 ? -1 : 0;
    if (rc == 0) {
        rc |= h5file_put_str(g, "variant", info->variant);
        rc |= h5file_put_str(g, "turn_rules", turn_rules_name(info->rules.turns));
        rc |= h5file_put_str(g, "ep_rule", ep_rule_name(info->rules.ep));
        rc |= h5file_put_str(g, "position", info->fen);
        rc |= h5file_put_i32(g, "depth", info->depth);
        rc |= h5file_put_i32(g, "split_depth", split->split_depth);
        rc |= h5file_put_u64(g, "key_seed", info->key_seed);
    }
    if (rc != 0) {
        if (g >= 0)
            H5Gclose(g);
        return h5file_fail(err, errlen, "cannot write the job parameters to %s", path);
    }

    hid_t tt = perft_rows_turn_type();
    TurnRow *turns = calloc(split->n_root ? split->n_root : 1, sizeof *turns);
    if (tt >= 0 && turns) {
        for (size_t i = 0; i < split->n_root; i++) {
            const Turn *t = &split->root_turns[i];
            turn_to_uci(t, h->variant, h->variant->castle960, turns[i].turn);
            turns[i].movements = t->n;
            turns[i].move1 = t->m[0];
            turns[i].move2 = t->n == 2 ? t->m[1] : MOVE_NONE;
        }
        rc = perft_rows_write_table(g, "root_turns", tt, split->n_root, turns);
    } else {
        rc = -1;
    }
    free(turns);
    if (tt >= 0)
        H5Tclose(tt);
    if (rc != 0) {
        H5Gclose(g);
        return h5file_fail(err, errlen, "cannot write the root turns to %s", path);
    }

    hid_t ut = perft_rows_unit_type();
    UnitRow *rows = calloc(PERFT_ROWS_BATCH, sizeof *rows);
    hid_t d = ut >= 0 && rows ? perft_rows_create_table(g, "units", ut, split->n_units) : -1;
    rc = d < 0 ? -1 : 0;
    for (size_t start = 0; rc == 0 && start < split->n_units; start += PERFT_ROWS_BATCH) {
        size_t n =
            split->n_units - start < PERFT_ROWS_BATCH ? split->n_units - start : PERFT_ROWS_BATCH;
        for (size_t i = 0; i < n; i++) {
            const WorkUnit *u = &split->units[start + i];
            rows[i] = (UnitRow){ .id = u->id,
                                 .root = u->root,
                                 .depth = u->depth,
                                 .multiplicity = u->multiplicity,
                                 .nodes = u->nodes,
                                 .rank = u->rank,
                                 .seconds = u->seconds,
                                 .run = 0 };
            memcpy(rows[i].fen, u->fen, FEN_MAX);
        }
        rc = h5file_write_rows(d, ut, start, n, rows);
    }
    free(rows);
    if (d >= 0 && H5Dclose(d) < 0)
        rc = -1;
    if (ut >= 0)
        H5Tclose(ut);
    if (H5Gclose(g) < 0)
        rc = -1;
    if (rc != 0)
        return h5file_fail(err, errlen, "cannot write the units to %s", path);
    return 0;
}

/* What perft_file_create checks before touching the disk. */
static int check_job(const char *path, const PerftFileInfo *info, const Split *split, char *err,
                     size_t errlen)
{
    if (!info || !info->prov || !info->variant || !info->fen || !split)
        return h5file_fail(err, errlen, "%s: incomplete job description", path);
    if (!variant_by_name(info->variant))
        return h5file_fail(err, errlen, "%s: unknown variant '%s'", path, info->variant);
    if (strlen(info->fen) >= FEN_MAX)
        return h5file_fail(err, errlen, "%s: the position is longer than a FEN can be", path);
    if (split->n_root && !split->root_turns)
        return h5file_fail(err, errlen, "%s: the split has no root turns", path);
    if (split->n_units && !split->units)
        return h5file_fail(err, errlen, "%s: the split has no units", path);
    for (size_t i = 0; i < split->n_units; i++) {
        const WorkUnit *u = &split->units[i];
        if (!memchr(u->fen, '\0', FEN_MAX))
            return h5file_fail(err, errlen, "%s: unit %llu has no FEN", path,
                               (unsigned long long)u->id);
        if (split->n_root && u->root >= split->n_root)
            return h5file_fail(err, errlen, "%s: unit %llu lies below root turn %u of %zu", path,
                               (unsigned long long)u->id, (unsigned)u->root, split->n_root);
    }
    return 0;
}

PerftFile *perft_file_create(const char *path, const PerftFileInfo *info, const Split *split,
                             char *err, size_t errlen)
{
    h5file_quiet();
    if (check_job(path, info, split, err, errlen) < 0)
        return NULL;
    PerftFile *h = result_new(path, split->n_units, err, errlen);
    if (!h)
        return NULL;
    h->variant = variant_by_name(info->variant);
    h->interval = info->checkpoint_interval > 0 ? info->checkpoint_interval : 0;
    for (size_t i = 0; i < split->n_units; i++) {
        h->index[i] = (IdRow){ split->units[i].id, i };
        h->nodes[i] = split->units[i].nodes;
    }
    Creating c = { h, info, split };
    if (perft_file_index_ready(h, err, errlen) < 0 ||
        result_file_create(&h->rf, info->prov, info->overwrite, write_header, &c, err, errlen) <
            0) {
        result_free(h);
        return NULL;
    }
    return h;
}

/* ---- resume ---- */

/* What perft_file_open_resume gives the resume's steps. */
typedef struct Resuming {
    PerftFile *h;
    const PerftFileInfo *expected;
    Split *split;
} Resuming;

static int compare_job(void *ctx, hid_t file, char *diffs, size_t len)
{
    return perft_resume_compare(file, ((const Resuming *)ctx)->expected, diffs, len);
}

/* Reads the split; what is done is the units counted. */
static int read_split(void *ctx, uint64_t *done, char *err, size_t errlen)
{
    Resuming *x = ctx;
    PerftFile *h = x->h;
    h->variant = variant_by_name(x->expected->variant);
    if (!h->variant)
        return h5file_fail(err, errlen, "%s: unknown variant '%s'", h->rf.path,
                           x->expected->variant);
    if (perft_resume_read_split(h, x->split, err, errlen) < 0)
        return -1;
    *done = 0;
    for (size_t i = 0; i < h->n_units; i++)
        *done += h->nodes[i] != UNIT_NOT_DONE;
    return 0;
}

PerftFile *perft_file_open_resume(const char *path, const PerftFileInfo *expected, Split *split_out,
                                  char *err, size_t errlen)
{
    h5file_quiet();
    memset(split_out, 0, sizeof *split_out);
    if (!expected || !expected->prov || !expected->variant || !expected->fen) {
        h5file_fail(err, errlen, "%s: incomplete job description", path);
        return NULL;
    }
    PerftFile *h = result_new(path, 0, err, errlen);
    if (!h)
        return NULL;
    h->interval = expected->checkpoint_interval > 0 ? expected->checkpoint_interval : 0;
    const ResultResume how = { .prov = expected->prov,
                               .done_name = "units_done_at_start",
                               .lock_wait = expected->lock_wait,
                               .compare = compare_job,
                               .read = read_split };
    Resuming x = { h, expected, split_out };
    if (result_file_resume(&h->rf, &how, &x, err, errlen) < 0) {
        free(split_out->root_turns);
        free(split_out->units);
        memset(split_out, 0, sizeof *split_out);
        result_free(h);
        return NULL;
    }
    return h;
}

/* ---- recording and finishing ---- */

int perft_file_record_unit(PerftFile *h, const WorkUnit *u, char *err, size_t errlen)
{
    h5file_quiet();
    long long row = perft_file_row_of(h, u->id);
    if (row < 0)
        return h5file_fail(err, errlen, "%s: unit %llu is not in the job", h->rf.path,
                           (unsigned long long)u->id);
    if (u->nodes == UNIT_NOT_DONE)
        return h5file_fail(err, errlen, "%s: unit %llu has no count to record", h->rf.path,
                           (unsigned long long)u->id);
    if (h->nodes[row] != UNIT_NOT_DONE) {
        if (h->nodes[row] == u->nodes)
            return 0;
        return h5file_fail(err, errlen,
                           "%s: unit %llu counted twice with different counts (%llu, then %llu)",
                           h->rf.path, (unsigned long long)u->id, (unsigned long long)h->nodes[row],
                           (unsigned long long)u->nodes);
    }
    DoneRow r = { u->nodes, u->rank, u->seconds, h->rf.run };
    hsize_t off = (hsize_t)row, cnt = 1;
    if (H5Sselect_hyperslab(h->units_space, H5S_SELECT_SET, &off, NULL, &cnt, NULL) < 0 ||
        H5Dwrite(h->units, h->done_type, h->one_space, h->units_space, h->one_xfer, &r) < 0)
        return h5file_fail(err, errlen, "cannot record unit %llu in %s", (unsigned long long)u->id,
                           h->rf.path);
    h->nodes[row] = u->nodes;
    if (!h->dirty) {
        h->dirty = true;
        h->dirty_since = monotonic_seconds();
    }
    return perft_file_flush_if_due(h, err, errlen);
}

int perft_file_set_work(PerftFile *h, const PerftTTWork *work, size_t n)
{
    free(h->work);
    h->n_work = 0;
    h->work = malloc((n ? n : 1) * sizeof *h->work);
    if (!h->work)
        return -1;
    for (size_t r = 0; r < n; r++) {
        const PerftTTWork *w = &work[r];
        h->work[r] = (WorkRow){ (int32_t)r,       h->rf.run,        w->probes,
                                w->hits,          w->shared_probes, w->shared_hits,
                                w->shared_stores, w->shared_remote, w->shared_bytes };
    }
    h->n_work = n;
    return 0;
}

/* What perft_file_finish gives write_results. */
typedef struct Finishing {
    PerftFile *h;
    const Split *split;
    const uint64_t *divide;
    const PerftStats *stats;
    int n_stats;
    uint64_t total;
} Finishing;

static int write_results(void *ctx)
{
    const Finishing *f = ctx;
    return perft_results_write(f->h, f->split, f->divide, f->stats, f->n_stats, f->total);
}

int perft_file_finish(PerftFile *h, const Split *split, const PerftStats *stats, int n_stats,
                      const char *end_time, uint64_t *total, char *err, size_t errlen)
{
    h5file_quiet();
    uint64_t sum = 0;
    uint64_t *divide = calloc(split->n_root + 1, sizeof *divide);
    if (!divide || perft_results_sum(h, split, divide, &sum, err, errlen) < 0) {
        if (!divide)
            h5file_fail(err, errlen, "%s: out of memory", h->rf.path);
        free(divide);
        perft_file_close(h, NULL, 0);
        return -1;
    }
    Finishing f = { h, split, divide, stats, n_stats, sum };
    int rc = result_file_finish(&h->rf, end_time, write_results, &f, err, errlen);
    free(divide);
    if (rc == 0 && total)
        *total = sum;
    result_free(h);
    return rc;
}

int perft_file_close(PerftFile *h, char *err, size_t errlen)
{
    h5file_quiet();
    int rc = result_file_close(&h->rf, err, errlen);
    result_free(h);
    return rc;
}
