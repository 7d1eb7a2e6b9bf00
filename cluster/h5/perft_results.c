/* SPDX-License-Identifier: MIT */
/* The results of a perft result file (perft_file_impl.h): the total and the divide summed from
 * the units and checked against the file, written with the statistics when the job ends. */
#include <stdlib.h>

#include "h5file.h"
#include "perft_file_impl.h"
#include "perft_rows.h"

int perft_results_sum(const PerftFile *h, const Split *split, uint64_t *divide, uint64_t *total,
                      char *err, size_t errlen)
{
    if (split->n_units != h->n_units)
        return h5file_fail(err, errlen, "%s: the split has %zu units, the file %zu", h->rf.path,
                           split->n_units, h->n_units);
    uint64_t sum = 0;
    for (size_t i = 0; i < split->n_units; i++) {
        const WorkUnit *u = &split->units[i];
        long long row = perft_file_row_of(h, u->id);
        unsigned long long id = (unsigned long long)u->id;
        if (row < 0)
            return h5file_fail(err, errlen, "%s: unit %llu is not in the file", h->rf.path, id);
        if (u->nodes == UNIT_NOT_DONE)
            return h5file_fail(err, errlen, "%s: unit %llu is not counted yet", h->rf.path, id);
        if (h->nodes[row] != u->nodes)
            return h5file_fail(err, errlen, "%s: unit %llu was counted (%llu) but not recorded",
                               h->rf.path, id, (unsigned long long)u->nodes);
        uint64_t part;
        if (__builtin_mul_overflow(u->nodes, u->multiplicity, &part) ||
            __builtin_add_overflow(sum, part, &sum))
            return h5file_fail(err, errlen, "%s: the total exceeds 64 bits", h->rf.path);
        if (split->n_root && u->root < split->n_root)
            divide[u->root] += part;
    }
    *total = sum;
    return 0;
}

int perft_results_write(PerftFile *h, const Split *split, const uint64_t *divide,
                        const PerftStats *stats, int n_stats, uint64_t total)
{
    hid_t g = H5Gopen2(h->rf.file, "/perft", H5P_DEFAULT);
    if (g < 0)
        return -1;
    int rc = 0;
    hid_t dt = perft_rows_divide_type();
    /* Below a split depth of 0 the one unit is the root itself: no divide to give. */
    size_t n_div = split->split_depth >= 1 ? split->n_root : 0;
    DivideRow *rows = calloc(n_div + 1, sizeof *rows);
    if (dt >= 0 && rows) {
        for (size_t i = 0; i < n_div; i++) {
            turn_to_uci(&split->root_turns[i], h->variant, h->variant->castle960, rows[i].move);
            rows[i].nodes = divide[i];
        }
        rc |= perft_rows_write_table(g, "divide", dt, n_div, rows);
    } else {
        rc = -1;
    }
    free(rows);
    if (dt >= 0)
        H5Tclose(dt);
    if (rc == 0 && stats && n_stats > 0) {
        hid_t st = perft_rows_stats_type();
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
            rc |= perft_rows_write_table(g, "stats", st, (size_t)n_stats, sr);
        } else {
            rc = -1;
        }
        free(sr);
        if (st >= 0)
            H5Tclose(st);
    }
    if (rc == 0 && h->work) {
        hid_t wt = perft_rows_work_type();
        rc |= wt >= 0 ? perft_rows_write_table(g, "work", wt, h->n_work, h->work) : -1;
        if (wt >= 0)
            H5Tclose(wt);
    }
    if (rc == 0)
        rc |= h5file_put_u64(g, "nodes", total);
    H5Gclose(g);
    return rc;
}
