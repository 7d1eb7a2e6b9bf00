/* SPDX-License-Identifier: MIT */
/* The HDF5 result and checkpoint file of a distributed perft (layout: README, "Result files
 * (HDF5)"). Only rank 0 uses it, with the serial library; what it shares with the match result
 * (match_file.c) is in h5file.c.
 *
 * Crash safety rests on five choices. The file keeps the layout of HDF5 1.8 (no 1.10
 * superblock, whose "file open for writing" flag would make a killed job's file unreadable
 * without h5clear). Every dataset is contiguous and allocated when it is created, so recording
 * a unit rewrites bytes at a fixed place and changes no metadata: a job killed between two
 * flushes leaves a file whose structure is that of the last flush. A flush is H5Fflush
 * followed by fsync, so a flushed unit survives the node too. And what does change the
 * structure of a file holding counts (a resume, the results) is done on a copy that then
 * replaces it: HDF5 keeps no journal, and such a change cut short by a full disk or a kill
 * could leave the only record of days of counting unreadable. A new file, likewise, is made
 * under a name of its own and appears at its path only once its header is on disk: a job
 * killed in its first moments leaves no half-made file that a resume would refuse and a new
 * start too (found by killing rank 0 as it created the file). */
#define _POSIX_C_SOURCE 200809L

#include "perft_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "h5file.h"
#include "variant.h"

/* What marks a file as ours, in the root attribute "format". */
#define FORMAT_NAME "carrera-perft"

/* Rows read or written per HDF5 call when moving the units table: bounded memory. */
#define BATCH_ROWS 1024

/* ---- rows as they are in memory; the file holds the same columns packed ---- */

typedef struct UnitRow {
    uint64_t id;
    uint32_t root;
    int32_t depth;
    uint64_t multiplicity;
    char fen[FEN_MAX];
    uint64_t nodes;
    int32_t rank;
    double seconds;
    int32_t run; /* 0 for the first run, k for the k-th resume */
} UnitRow;

/* The columns a finished unit sets: HDF5 writes just these members of the row. */
typedef struct DoneRow {
    uint64_t nodes;
    int32_t rank;
    double seconds;
    int32_t run;
} DoneRow;

typedef struct TurnRow {
    char turn[TURN_TEXT_MAX];
    int32_t movements;
    uint32_t move1, move2; /* Carrera's move encoding (core/types.h), for resume */
} TurnRow;

typedef struct DivideRow {
    char move[TURN_TEXT_MAX];
    uint64_t nodes;
} DivideRow;

typedef struct StatsRow {
    int32_t depth;
    uint64_t nodes, captures, en_passant, castles, promotions;
    uint64_t checks, discovered_checks, double_checks, checkmates;
    uint64_t one_movement, two_movement;
} StatsRow;

typedef struct IdRow {
    uint64_t id;
    size_t row;
} IdRow;

struct PerftFile {
    hid_t file, units; /* the file and /perft/units */
    hid_t units_space; /* its dataspace, for selecting one row */
    hid_t one_space;   /* a dataspace of one element */
    hid_t done_type;   /* memory type of DoneRow */
    hid_t one_xfer;    /* transfer list for one row: small conversion buffers */
    char *path;
    char *tmp; /* path.tmp, where the file's replacements are built */
    const Variant *variant;
    size_t n_units;
    IdRow *index;    /* (id, row) sorted by id */
    uint64_t *nodes; /* per row, what the file holds: UNIT_NOT_DONE or the count */
    int run;         /* 0 for a new file, k after the k-th resume */
    double interval; /* seconds a recorded unit may stay unflushed */
    bool dirty;      /* units recorded since the last flush */
    double dirty_since;
};

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* ---- types ---- */

static hid_t unit_type(void)
{
    const H5FileMember m[] = {
        { "id", offsetof(UnitRow, id), H5T_NATIVE_UINT64 },
        { "root", offsetof(UnitRow, root), H5T_NATIVE_UINT32 },
        { "depth", offsetof(UnitRow, depth), H5T_NATIVE_INT32 },
        { "multiplicity", offsetof(UnitRow, multiplicity), H5T_NATIVE_UINT64 },
        { "fen", offsetof(UnitRow, fen), 0 },
        { "nodes", offsetof(UnitRow, nodes), H5T_NATIVE_UINT64 },
        { "rank", offsetof(UnitRow, rank), H5T_NATIVE_INT32 },
        { "seconds", offsetof(UnitRow, seconds), H5T_NATIVE_DOUBLE },
        { "run", offsetof(UnitRow, run), H5T_NATIVE_INT32 },
    };
    return h5file_compound(sizeof(UnitRow), m, 9, FEN_MAX);
}

static hid_t done_type(void)
{
    const H5FileMember m[] = {
        { "nodes", offsetof(DoneRow, nodes), H5T_NATIVE_UINT64 },
        { "rank", offsetof(DoneRow, rank), H5T_NATIVE_INT32 },
        { "seconds", offsetof(DoneRow, seconds), H5T_NATIVE_DOUBLE },
        { "run", offsetof(DoneRow, run), H5T_NATIVE_INT32 },
    };
    return h5file_compound(sizeof(DoneRow), m, 4, 0);
}

static hid_t turn_type(void)
{
    const H5FileMember m[] = {
        { "turn", offsetof(TurnRow, turn), 0 },
        { "movements", offsetof(TurnRow, movements), H5T_NATIVE_INT32 },
        { "move1", offsetof(TurnRow, move1), H5T_NATIVE_UINT32 },
        { "move2", offsetof(TurnRow, move2), H5T_NATIVE_UINT32 },
    };
    return h5file_compound(sizeof(TurnRow), m, 4, TURN_TEXT_MAX);
}

static hid_t divide_type(void)
{
    const H5FileMember m[] = {
        { "move", offsetof(DivideRow, move), 0 },
        { "nodes", offsetof(DivideRow, nodes), H5T_NATIVE_UINT64 },
    };
    return h5file_compound(sizeof(DivideRow), m, 2, TURN_TEXT_MAX);
}

static hid_t stats_type(void)
{
#define S(f)                                                                                       \
    {                                                                                              \
#f, offsetof(StatsRow, f), H5T_NATIVE_UINT64                                               \
    }
    const H5FileMember m[] = {
        { "depth", offsetof(StatsRow, depth), H5T_NATIVE_INT32 },
        S(nodes),
        S(captures),
        S(en_passant),
        S(castles),
        S(promotions),
        S(checks),
        S(discovered_checks),
        S(double_checks),
        S(checkmates),
        S(one_movement),
        S(two_movement),
    };
#undef S
    return h5file_compound(sizeof(StatsRow), m, (int)(sizeof m / sizeof m[0]), 0);
}

/* ---- datasets ---- */

/* A one-dimensional dataset of n rows of memory type mt, stored packed, contiguous and
 * allocated now (see the top of the file). Returns the dataset or -1. */
static hid_t create_table(hid_t loc, const char *name, hid_t mt, size_t n)
{
    if (H5Lexists(loc, name, H5P_DEFAULT) > 0 && H5Ldelete(loc, name, H5P_DEFAULT) < 0)
        return -1;
    hsize_t dim = n;
    hid_t ft = H5Tcopy(mt);
    hid_t sp = H5Screate_simple(1, &dim, NULL);
    hid_t pl = H5Pcreate(H5P_DATASET_CREATE);
    hid_t d = -1;
    if (ft >= 0 && sp >= 0 && pl >= 0 && H5Tpack(ft) >= 0 &&
        H5Pset_layout(pl, H5D_CONTIGUOUS) >= 0 &&
        H5Pset_alloc_time(pl, H5D_ALLOC_TIME_EARLY) >= 0 && H5Pset_obj_track_times(pl, false) >= 0)
        d = H5Dcreate2(loc, name, ft, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
    if (pl >= 0)
        H5Pclose(pl);
    if (sp >= 0)
        H5Sclose(sp);
    if (ft >= 0)
        H5Tclose(ft);
    return d;
}

/* Writes (or reads) rows [start, start+n) of dataset d from (into) buf, memory type mt. */
static int write_table(hid_t loc, const char *name, hid_t mt, size_t n, const void *rows)
{
    hid_t d = create_table(loc, name, mt, n);
    if (d < 0)
        return -1;
    int rc = h5file_write_rows(d, mt, 0, n, rows);
    return (H5Dclose(d) < 0 || rc < 0) ? -1 : rc;
}

/* ---- the result ---- */

static int cmp_id(const void *a, const void *b)
{
    uint64_t x = ((const IdRow *)a)->id, y = ((const IdRow *)b)->id;
    return (x > y) - (x < y);
}

static long long row_of(const PerftFile *h, uint64_t id)
{
    IdRow key = { id, 0 };
    const IdRow *r = bsearch(&key, h->index, h->n_units, sizeof *h->index, cmp_id);
    return r ? (long long)r->row : -1;
}

/* Closes the file and what recording keeps open in it. Returns -1 when HDF5 could not write
 * what it still held. */
static int close_file(PerftFile *h)
{
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
    int rc = h->file >= 0 ? H5Fclose(h->file) : 0;
    h->done_type = h->one_space = h->one_xfer = h->units_space = h->units = h->file =
        H5I_INVALID_HID;
    return rc < 0 ? -1 : 0;
}

static void result_free(PerftFile *h)
{
    if (!h)
        return;
    close_file(h);
    free(h->path);
    free(h->tmp);
    free(h->index);
    free(h->nodes);
    free(h);
}

/* A result with room for n units; the index and nodes are filled by the caller. */
static PerftFile *result_new(const char *path, size_t n, char *err, size_t errlen)
{
    PerftFile *h = calloc(1, sizeof *h);
    if (h) {
        h->file = h->units = h->units_space = h->one_space = h->one_xfer = h->done_type =
            H5I_INVALID_HID;
        h->path = strdup(path);
        h->tmp = h5file_copy_name(path);
        h->index = malloc((n ? n : 1) * sizeof *h->index);
        h->nodes = malloc((n ? n : 1) * sizeof *h->nodes);
    }
    if (!h || !h->path || !h->tmp || !h->index || !h->nodes) {
        result_free(h);
        h5file_fail(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    h->n_units = n;
    return h;
}

/* Sorts the index and checks that the ids are distinct. */
static int index_ready(PerftFile *h, char *err, size_t errlen)
{
    qsort(h->index, h->n_units, sizeof *h->index, cmp_id);
    for (size_t i = 1; i < h->n_units; i++)
        if (h->index[i].id == h->index[i - 1].id)
            return h5file_fail(err, errlen, "%s: unit id %llu appears twice", h->path,
                               (unsigned long long)h->index[i].id);
    return 0;
}

/* Opens what recording needs: /perft/units, its dataspace, the row types. */
static int open_for_records(PerftFile *h)
{
    hsize_t one = 1;
    h->units = H5Dopen2(h->file, "/perft/units", H5P_DEFAULT);
    h->units_space = h->units >= 0 ? H5Dget_space(h->units) : -1;
    h->one_space = H5Screate_simple(1, &one, NULL);
    h->done_type = done_type();
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

int perft_file_flush(PerftFile *h, char *err, size_t errlen)
{
    h5file_quiet();
    if (h5file_flush(h->file, h->path, err, errlen) < 0)
        return -1;
    h->dirty = false;
    return 0;
}

int perft_file_flush_if_due(PerftFile *h, char *err, size_t errlen)
{
    if (!h->dirty || now_seconds() - h->dirty_since < h->interval)
        return 0;
    return perft_file_flush(h, err, errlen);
}

int perft_file_resume_count(const PerftFile *h) { return h->run; }

/* Writes the header: provenance, job parameters, root turns and the units table. */
static int write_header(PerftFile *h, const PerftFileInfo *info, const Split *split, char *err,
                        size_t errlen)
{
    const char *path = h->path;
    hid_t root = h->file;
    if (h5file_put_str(root, "format", FORMAT_NAME) < 0 ||
        h5file_put_i32(root, "format_version", H5_FORMAT_VERSION) < 0 ||
        h5file_put_provenance(root, info->prov) < 0 || h5file_put_i32(root, "resumed", 0) < 0)
        return h5file_fail(err, errlen, "cannot write the provenance to %s", path);

    hid_t g = H5Gcreate2(root, "perft", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = g < 0 ? -1 : 0;
    if (rc == 0) {
        rc |= h5file_put_str(g, "variant", info->variant);
        rc |= h5file_put_str(g, "turn_rules", turn_rules_name(info->rules.turns));
        rc |= h5file_put_str(g, "ep_rule", ep_rule_name(info->rules.ep));
        rc |= h5file_put_str(g, "position", info->fen);
        rc |= h5file_put_i32(g, "depth", info->depth);
        rc |= h5file_put_i32(g, "split_depth", split->split_depth);
    }
    if (rc != 0) {
        if (g >= 0)
            H5Gclose(g);
        return h5file_fail(err, errlen, "cannot write the job parameters to %s", path);
    }

    hid_t tt = turn_type();
    TurnRow *turns = calloc(split->n_root ? split->n_root : 1, sizeof *turns);
    if (tt >= 0 && turns) {
        for (size_t i = 0; i < split->n_root; i++) {
            const Turn *t = &split->root_turns[i];
            turn_to_uci(t, h->variant, h->variant->castle960, turns[i].turn);
            turns[i].movements = t->n;
            turns[i].move1 = t->m[0];
            turns[i].move2 = t->n == 2 ? t->m[1] : MOVE_NONE;
        }
        rc = write_table(g, "root_turns", tt, split->n_root, turns);
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

    hid_t ut = unit_type();
    UnitRow *rows = calloc(BATCH_ROWS, sizeof *rows);
    hid_t d = ut >= 0 && rows ? create_table(g, "units", ut, split->n_units) : -1;
    rc = d < 0 ? -1 : 0;
    for (size_t start = 0; rc == 0 && start < split->n_units; start += BATCH_ROWS) {
        size_t n = split->n_units - start < BATCH_ROWS ? split->n_units - start : BATCH_ROWS;
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
    struct stat st;
    if (!info->overwrite && stat(path, &st) == 0) {
        h5file_fail(err, errlen, "%s already exists: resume it, or remove it to start again", path);
        return NULL;
    }
    PerftFile *h = result_new(path, split->n_units, err, errlen);
    if (!h)
        return NULL;
    h->variant = variant_by_name(info->variant);
    h->interval = info->checkpoint_interval > 0 ? info->checkpoint_interval : 0;
    for (size_t i = 0; i < split->n_units; i++) {
        h->index[i] = (IdRow){ split->units[i].id, i };
        h->nodes[i] = split->units[i].nodes;
    }
    if (index_ready(h, err, errlen) < 0) {
        result_free(h);
        return NULL;
    }

    /* The file is made under a name of its own and appears at path once its header is on disk
     * (h5file_create_new): a job killed meanwhile leaves no half-made checkpoint that a resume
     * would refuse and a new start too. Publishing it refuses an existing file even after the
     * check above (two jobs given the same file); a replacement is renamed over the old file,
     * so a failure leaves the old one. */
    char *made = NULL;
    h->file = h5file_create_new(path, &made, err, errlen);
    if (h->file < 0) {
        result_free(h);
        return NULL;
    }
    int rc = write_header(h, info, split, err, errlen);
    if (rc == 0 && open_for_records(h) < 0)
        rc = h5file_fail(err, errlen, "cannot reopen the units of %s", path);
    if (rc == 0)
        rc = perft_file_flush(h, err, errlen);
    rc = h5file_settle_new(made, path, rc == 0, info->overwrite, err, errlen);
    if (rc != 0) {
        close_file(h);
        result_free(h);
        return NULL;
    }
    return h;
}

/* ---- resume ---- */

/* Appends "; " and a formatted difference to the list in buf. */
/* Compares the checkpoint's job with the expected one; diffs receives every difference. */
static int compare_job(hid_t file, const PerftFileInfo *e, char *diffs, size_t len)
{
    char have[FEN_MAX + 64];
    long long n;
    hid_t g = H5Gopen2(file, "/perft", H5P_DEFAULT);
    if (g < 0 || h5file_get_str(file, "carrera_version", have, sizeof have) < 0)
        goto bad;
    if (strcmp(have, e->prov->version) != 0)
        h5file_add_diff(diffs, len, "the checkpoint was written by Carrera %s, this is Carrera %s",
                        have, e->prov->version);
    if (h5file_get_str(g, "variant", have, sizeof have) < 0)
        goto bad;
    if (strcmp(have, e->variant) != 0)
        h5file_add_diff(diffs, len, "the checkpoint is for variant %s, this job asks for %s", have,
                        e->variant);
    if (h5file_get_str(g, "turn_rules", have, sizeof have) < 0)
        goto bad;
    if (strcmp(have, turn_rules_name(e->rules.turns)) != 0)
        h5file_add_diff(diffs, len, "the checkpoint is for turn rules %s, this job asks for %s",
                        have, turn_rules_name(e->rules.turns));
    if (h5file_get_str(g, "ep_rule", have, sizeof have) < 0)
        goto bad;
    if (strcmp(have, ep_rule_name(e->rules.ep)) != 0)
        h5file_add_diff(diffs, len,
                        "the checkpoint is for en passant rule %s, this job asks for %s", have,
                        ep_rule_name(e->rules.ep));
    if (h5file_get_str(g, "position", have, sizeof have) < 0)
        goto bad;
    if (strcmp(have, e->fen) != 0)
        h5file_add_diff(diffs, len, "the checkpoint is for position %s, this job asks for %s", have,
                        e->fen);
    if (h5file_get_int(g, "depth", &n) < 0)
        goto bad;
    if (n != e->depth)
        h5file_add_diff(diffs, len, "the checkpoint is for depth %lld, this job asks for depth %d",
                        n, e->depth);
    if (h5file_get_int(g, "split_depth", &n) < 0)
        goto bad;
    if (e->split_depth > 0 && n != e->split_depth)
        h5file_add_diff(diffs, len,
                        "the checkpoint has split depth %lld, this job asks for split depth %d", n,
                        e->split_depth);
    H5Gclose(g);
    return 0;
bad:
    if (g >= 0)
        H5Gclose(g);
    return -1;
}

/* Reads /perft/root_turns and /perft/units into split and h. */
static int read_split(PerftFile *h, Split *split, char *err, size_t errlen)
{
    const char *path = h->path;
    long long n;
    hid_t g = H5Gopen2(h->file, "/perft", H5P_DEFAULT);
    if (g < 0 || h5file_get_int(g, "split_depth", &n) < 0 || n < 0) {
        if (g >= 0)
            H5Gclose(g);
        return h5file_fail(err, errlen, "%s: damaged checkpoint (no split depth)", path);
    }
    split->split_depth = (int)n;

    hid_t tt = turn_type();
    hid_t d = H5Dopen2(g, "root_turns", H5P_DEFAULT);
    long long nr = d >= 0 ? h5file_table_rows(d) : -1;
    TurnRow *turns = nr >= 0 ? calloc((size_t)nr + 1, sizeof *turns) : NULL;
    split->root_turns = nr >= 0 ? calloc((size_t)nr + 1, sizeof *split->root_turns) : NULL;
    int rc = (tt >= 0 && turns && split->root_turns &&
              h5file_read_rows(d, tt, 0, (size_t)nr, turns) == 0)
                 ? 0
                 : -1;
    for (long long i = 0; rc == 0 && i < nr; i++) {
        if (turns[i].movements < 1 || turns[i].movements > 2)
            rc = -1;
        split->root_turns[i] = (Turn){ { turns[i].move1, turns[i].move2 }, turns[i].movements };
    }
    split->n_root = rc == 0 ? (size_t)nr : 0;
    free(turns);
    if (d >= 0)
        H5Dclose(d);
    if (tt >= 0)
        H5Tclose(tt);
    H5Gclose(g);
    if (rc != 0)
        return h5file_fail(err, errlen, "%s: damaged checkpoint (cannot read /perft/root_turns)",
                           path);

    hid_t units = H5Dopen2(h->file, "/perft/units", H5P_DEFAULT);
    long long nu = units >= 0 ? h5file_table_rows(units) : -1;
    if (nu < 0) {
        if (units >= 0)
            H5Dclose(units);
        return h5file_fail(err, errlen, "%s: damaged checkpoint (cannot read /perft/units)", path);
    }
    h->n_units = (size_t)nu;
    free(h->index);
    free(h->nodes);
    h->index = malloc(((size_t)nu + 1) * sizeof *h->index);
    h->nodes = malloc(((size_t)nu + 1) * sizeof *h->nodes);
    split->units = malloc(((size_t)nu + 1) * sizeof *split->units);
    UnitRow *rows = malloc(BATCH_ROWS * sizeof *rows);
    hid_t ut = unit_type();
    if (!h->index || !h->nodes || !split->units || !rows || ut < 0) {
        free(rows);
        if (ut >= 0)
            H5Tclose(ut);
        H5Dclose(units);
        return h5file_fail(err, errlen, "%s: out of memory for %lld units", path, nu);
    }
    rc = 0;
    const char *why = NULL;
    for (size_t start = 0; rc == 0 && start < (size_t)nu; start += BATCH_ROWS) {
        size_t cnt = (size_t)nu - start < BATCH_ROWS ? (size_t)nu - start : BATCH_ROWS;
        if (h5file_read_rows(units, ut, start, cnt, rows) < 0) {
            rc = -1;
            break;
        }
        for (size_t i = 0; i < cnt; i++) {
            const UnitRow *r = &rows[i];
            WorkUnit *u = &split->units[start + i];
            if ((split->n_root && r->root >= split->n_root) || r->multiplicity == 0 ||
                r->depth < 0) {
                why = "a unit's row is inconsistent";
                rc = -1;
                break;
            }
            *u = (WorkUnit){ .id = r->id,
                             .root = r->root,
                             .depth = r->depth,
                             .multiplicity = r->multiplicity,
                             .nodes = r->nodes,
                             .rank = r->nodes == UNIT_NOT_DONE ? -1 : r->rank,
                             .seconds = r->nodes == UNIT_NOT_DONE ? 0 : r->seconds };
            memcpy(u->fen, r->fen, FEN_MAX);
            u->fen[FEN_MAX - 1] = '\0';
            h->index[start + i] = (IdRow){ r->id, start + i };
            h->nodes[start + i] = r->nodes;
        }
    }
    free(rows);
    H5Tclose(ut);
    H5Dclose(units);
    split->n_units = (size_t)nu;
    if (rc != 0)
        return h5file_fail(err, errlen, "%s: damaged checkpoint (%s)", path,
                           why ? why : "cannot read /perft/units");
    return index_ready(h, err, errlen);
}

/* Records this run as the next resume: the count on the root, the provenance in /resumes/K. */
static int record_resume(PerftFile *h, const Provenance *prov)
{
    size_t done = 0;
    for (size_t i = 0; i < h->n_units; i++)
        done += h->nodes[i] != UNIT_NOT_DONE;
    return h5file_record_resume(h->file, prov, "units_done_at_start", done, &h->run);
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
    bool copied = false;
    h->file =
        h5file_open_checked(path, FORMAT_NAME, H5_FORMAT_VERSION, "checkpoint", NULL, err, errlen);
    if (h->file < 0)
        goto out;
    char diffs[1024] = "";
    if (compare_job(h->file, expected, diffs, sizeof diffs) < 0) {
        h5file_fail(err, errlen, "%s: damaged checkpoint (the job parameters are missing)", path);
        goto out;
    }
    if (diffs[0]) {
        h5file_fail(err, errlen, "%s: %s", path, diffs);
        goto out;
    }
    h->variant = variant_by_name(expected->variant);
    if (!h->variant) {
        h5file_fail(err, errlen, "%s: unknown variant '%s'", path, expected->variant);
        goto out;
    }
    if (read_split(h, split_out, err, errlen) < 0)
        goto out;
    /* The checkpoint is good: the resume is recorded in a copy that then replaces it. */
    if (close_file(h) < 0) {
        h5file_fail(err, errlen, "cannot close %s", path);
        goto out;
    }
    if ((h->file = h5file_open_copy(path, h->tmp, err, errlen)) < 0)
        goto out;
    copied = true;
    if (record_resume(h, expected->prov) < 0 || open_for_records(h) < 0) {
        h5file_fail(err, errlen, "cannot record the resume in %s", h->tmp);
        goto out;
    }
    if (perft_file_flush(h, err, errlen) < 0 || h5file_replace_with(h->tmp, path, err, errlen) < 0)
        goto out;
    return h;
out:
    close_file(h);
    if (copied)
        unlink(h->tmp);
    free(split_out->root_turns);
    free(split_out->units);
    memset(split_out, 0, sizeof *split_out);
    result_free(h);
    return NULL;
}

/* ---- recording and finishing ---- */

int perft_file_record_unit(PerftFile *h, const WorkUnit *u, char *err, size_t errlen)
{
    h5file_quiet();
    long long row = row_of(h, u->id);
    if (row < 0)
        return h5file_fail(err, errlen, "%s: unit %llu is not in the job", h->path,
                           (unsigned long long)u->id);
    if (u->nodes == UNIT_NOT_DONE)
        return h5file_fail(err, errlen, "%s: unit %llu has no count to record", h->path,
                           (unsigned long long)u->id);
    if (h->nodes[row] != UNIT_NOT_DONE) {
        if (h->nodes[row] == u->nodes)
            return 0;
        return h5file_fail(err, errlen,
                           "%s: unit %llu counted twice with different counts (%llu, then %llu)",
                           h->path, (unsigned long long)u->id, (unsigned long long)h->nodes[row],
                           (unsigned long long)u->nodes);
    }
    DoneRow r = { u->nodes, u->rank, u->seconds, h->run };
    hsize_t off = (hsize_t)row, cnt = 1;
    if (H5Sselect_hyperslab(h->units_space, H5S_SELECT_SET, &off, NULL, &cnt, NULL) < 0 ||
        H5Dwrite(h->units, h->done_type, h->one_space, h->units_space, h->one_xfer, &r) < 0)
        return h5file_fail(err, errlen, "cannot record unit %llu in %s", (unsigned long long)u->id,
                           h->path);
    h->nodes[row] = u->nodes;
    if (!h->dirty) {
        h->dirty = true;
        h->dirty_since = now_seconds();
    }
    return perft_file_flush_if_due(h, err, errlen);
}

/* Sums the split into the total and the divide, checking it against what the file holds. */
static int sum_split(const PerftFile *h, const Split *split, uint64_t *divide, uint64_t *total,
                     char *err, size_t errlen)
{
    if (split->n_units != h->n_units)
        return h5file_fail(err, errlen, "%s: the split has %zu units, the file %zu", h->path,
                           split->n_units, h->n_units);
    uint64_t sum = 0;
    for (size_t i = 0; i < split->n_units; i++) {
        const WorkUnit *u = &split->units[i];
        long long row = row_of(h, u->id);
        unsigned long long id = (unsigned long long)u->id;
        if (row < 0)
            return h5file_fail(err, errlen, "%s: unit %llu is not in the file", h->path, id);
        if (u->nodes == UNIT_NOT_DONE)
            return h5file_fail(err, errlen, "%s: unit %llu is not counted yet", h->path, id);
        if (h->nodes[row] != u->nodes)
            return h5file_fail(err, errlen, "%s: unit %llu was counted (%llu) but not recorded",
                               h->path, id, (unsigned long long)u->nodes);
        uint64_t part;
        if (__builtin_mul_overflow(u->nodes, u->multiplicity, &part) ||
            __builtin_add_overflow(sum, part, &sum))
            return h5file_fail(err, errlen, "%s: the total exceeds 64 bits", h->path);
        if (split->n_root && u->root < split->n_root)
            divide[u->root] += part;
    }
    *total = sum;
    return 0;
}

static int write_results(PerftFile *h, const Split *split, const uint64_t *divide,
                         const PerftStats *stats, int n_stats, uint64_t total, const char *end)
{
    hid_t g = H5Gopen2(h->file, "/perft", H5P_DEFAULT);
    if (g < 0)
        return -1;
    int rc = 0;
    hid_t dt = divide_type();
    /* Below a split depth of 0 the one unit is the root itself: no divide to give. */
    size_t n_div = split->split_depth >= 1 ? split->n_root : 0;
    DivideRow *rows = calloc(n_div + 1, sizeof *rows);
    if (dt >= 0 && rows) {
        for (size_t i = 0; i < n_div; i++) {
            turn_to_uci(&split->root_turns[i], h->variant, h->variant->castle960, rows[i].move);
            rows[i].nodes = divide[i];
        }
        rc |= write_table(g, "divide", dt, n_div, rows);
    } else {
        rc = -1;
    }
    free(rows);
    if (dt >= 0)
        H5Tclose(dt);
    if (rc == 0 && stats && n_stats > 0) {
        hid_t st = stats_type();
        StatsRow *sr = calloc((size_t)n_stats, sizeof *sr);
        if (st >= 0 && sr) {
            for (int i = 0; i < n_stats; i++) {
                const PerftStats *s = &stats[i];
                sr[i] = (StatsRow){ i + 1,
                                    s->nodes,
                                    s->captures,
                                    s->en_passant,
                                    s->castles,
                                    s->promotions,
                                    s->checks,
                                    s->discovered_checks,
                                    s->double_checks,
                                    s->checkmates,
                                    s->one_movement,
                                    s->two_movement };
            }
            rc |= write_table(g, "stats", st, (size_t)n_stats, sr);
        } else {
            rc = -1;
        }
        free(sr);
        if (st >= 0)
            H5Tclose(st);
    }
    if (rc == 0)
        rc |= h5file_put_u64(g, "nodes", total);
    H5Gclose(g);
    if (rc == 0)
        rc |= h5file_put_end_time(h->file, h->run, end);
    return rc;
}

int perft_file_finish(PerftFile *h, const Split *split, const PerftStats *stats, int n_stats,
                      const char *end_time, uint64_t *total, char *err, size_t errlen)
{
    h5file_quiet();
    char now[PROV_TIME_MAX];
    if (!end_time) {
        provenance_now(now);
        end_time = now;
    }
    uint64_t sum = 0;
    uint64_t *divide = calloc(split->n_root + 1, sizeof *divide);
    if (!divide || sum_split(h, split, divide, &sum, err, errlen) < 0) {
        if (!divide)
            h5file_fail(err, errlen, "%s: out of memory", h->path);
        free(divide);
        perft_file_close(h, NULL, 0);
        return -1;
    }
    /* The checkpoint complete on disk, the results are written to a copy that replaces it. */
    int rc = perft_file_flush(h, err, errlen);
    if (rc == 0 && close_file(h) < 0)
        rc = h5file_fail(err, errlen, "cannot close %s", h->path);
    if (rc == 0 && (h->file = h5file_open_copy(h->path, h->tmp, err, errlen)) < 0)
        rc = -1;
    bool copied = rc == 0;
    if (rc == 0 && write_results(h, split, divide, stats, n_stats, sum, end_time) < 0)
        rc = h5file_fail(err, errlen, "cannot write the results to %s", h->tmp);
    else if (rc == 0 && close_file(h) < 0)
        rc = h5file_fail(err, errlen, "cannot write %s", h->tmp);
    if (rc == 0)
        rc = h5file_replace_with(h->tmp, h->path, err, errlen);
    free(divide);
    if (rc != 0 && copied) {
        close_file(h);
        h5file_drop_copy(h->tmp, h->path, "unit", err, errlen);
    }
    if (rc == 0 && total)
        *total = sum;
    result_free(h);
    return rc;
}

int perft_file_close(PerftFile *h, char *err, size_t errlen)
{
    h5file_quiet();
    int rc = perft_file_flush(h, err, errlen);
    if (close_file(h) < 0 && rc == 0)
        rc = h5file_fail(err, errlen, "cannot close %s", h->path);
    result_free(h);
    return rc;
}
