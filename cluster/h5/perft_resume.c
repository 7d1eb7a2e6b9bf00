/* SPDX-License-Identifier: MIT */
/* A perft checkpoint read back for a resume (perft_file_impl.h): its job compared with the one
 * that would continue it, its root turns and units read into the split. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "h5check.h"
#include "h5file.h"
#include "perft_file_impl.h"
#include "perft_rows.h"

/* Compares the checkpoint's job with the expected one; diffs receives every difference. */
int perft_resume_compare(hid_t file, const PerftFileInfo *e, char *diffs, size_t len)
{
    char have[FEN_MAX + 64];
    long long n;
    hid_t g = H5Gopen2(file, "/perft", H5P_DEFAULT);
    if (g < 0 || h5file_get_str(g, "variant", have, sizeof have) < 0)
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
    /* A checkpoint from before key seeds was counted with the keys of seed 0. Another seed is
     * refused: the units were merged and part of them counted with the checkpoint's keys, so the
     * rest counted with other keys would be neither run, and no verification of either. */
    uint64_t seed = 0;
    if (H5Aexists(g, "key_seed") > 0 && h5file_get_u64(g, "key_seed", &seed) < 0)
        goto bad;
    if (seed != e->key_seed)
        h5file_add_diff(
            diffs, len,
            "the checkpoint was counted with key seed %" PRIu64
            ", this job asks for key seed %" PRIu64
            " (one count must come from one set of keys: resume it with key seed %" PRIu64
            ", or count seed %" PRIu64 " into another file)",
            seed, e->key_seed, seed, e->key_seed);
    H5Gclose(g);
    return 0;
bad:
    if (g >= 0)
        H5Gclose(g);
    return -1;
}

/* Reads /perft/root_turns and /perft/units into split and h. */
int perft_resume_read_split(PerftFile *h, Split *split, char *err, size_t errlen)
{
    const char *path = h->rf.path;
    long long n;
    hid_t g = H5Gopen2(h->rf.file, "/perft", H5P_DEFAULT);
    if (g < 0 || h5file_get_int(g, "split_depth", &n) < 0 || n < 0) {
        if (g >= 0)
            H5Gclose(g);
        return h5file_fail(err, errlen, "%s: damaged checkpoint (no split depth)", path);
    }
    split->split_depth = (int)n;

    hid_t tt = perft_rows_turn_type();
    hid_t d = H5Dopen2(g, "root_turns", H5P_DEFAULT);
    long long nr = d >= 0 ? h5file_table_rows(d) : -1;
    TurnRow *turns = nr >= 0 ? calloc((size_t)nr + 1, sizeof *turns) : NULL;
    split->root_turns = nr >= 0 ? calloc((size_t)nr + 1, sizeof *split->root_turns) : NULL;
    int rc = (tt >= 0 && turns && split->root_turns && h5check_stored_as(d, tt) &&
              h5check_contiguous_whole(d) && h5file_read_rows(d, tt, 0, (size_t)nr, turns) == 0)
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

    hid_t units = H5Dopen2(h->rf.file, "/perft/units", H5P_DEFAULT);
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
    UnitRow *rows = malloc(PERFT_ROWS_BATCH * sizeof *rows);
    hid_t ut = perft_rows_unit_type();
    if (ut >= 0 && (!h5check_stored_as(units, ut) || !h5check_contiguous_whole(units))) {
        free(rows);
        H5Tclose(ut);
        H5Dclose(units);
        return h5file_fail(err, errlen,
                           "%s: damaged checkpoint (/perft/units is not stored as Carrera stores "
                           "it)",
                           path);
    }
    if (!h->index || !h->nodes || !split->units || !rows || ut < 0) {
        free(rows);
        if (ut >= 0)
            H5Tclose(ut);
        H5Dclose(units);
        return h5file_fail(err, errlen, "%s: out of memory for %lld units", path, nu);
    }
    rc = 0;
    const char *why = NULL;
    for (size_t start = 0; rc == 0 && start < (size_t)nu; start += PERFT_ROWS_BATCH) {
        size_t cnt = (size_t)nu - start < PERFT_ROWS_BATCH ? (size_t)nu - start : PERFT_ROWS_BATCH;
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
    return perft_file_index_ready(h, err, errlen);
}
