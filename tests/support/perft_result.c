/* SPDX-License-Identifier: MIT */
/* A perft result file read back in tests (perft_result.h). */
#include "perft_result.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>

#include <hdf5.h>

static int read_i32_attr(hid_t obj, const char *name, int32_t *v)
{
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    if (a < 0)
        return -1;
    herr_t rc = H5Aread(a, H5T_NATIVE_INT32, v);
    H5Aclose(a);
    return rc < 0 ? -1 : 0;
}

/* The root's text attribute name into out ("" when absent). */
static void read_text_attr(hid_t obj, const char *name, char *out, size_t len)
{
    out[0] = '\0';
    if (H5Aexists(obj, name) <= 0)
        return;
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    hid_t ft = H5Aget_type(a);
    size_t size = H5Tget_size(ft);
    char *buf = calloc(size + 1, 1);
    if (buf && H5Aread(a, ft, buf) >= 0) /* the file's own type: a fixed-length string */
        snprintf(out, len, "%s", buf);
    free(buf);
    H5Tclose(ft);
    H5Aclose(a);
}

/* Sums the columns of /perft/work into r. */
static void read_work(hid_t p, Result *r)
{
    if (H5Lexists(p, "work", H5P_DEFAULT) <= 0)
        return;
    typedef struct Row {
        uint64_t probes, shared_probes, shared_hits, shared_remote;
    } Row;
    hid_t d = H5Dopen2(p, "work", H5P_DEFAULT);
    hid_t s = H5Dget_space(d);
    hssize_t n = H5Sget_simple_extent_npoints(s);
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(Row));
    H5Tinsert(t, "probes", offsetof(Row, probes), H5T_NATIVE_UINT64);
    H5Tinsert(t, "shared_probes", offsetof(Row, shared_probes), H5T_NATIVE_UINT64);
    H5Tinsert(t, "shared_hits", offsetof(Row, shared_hits), H5T_NATIVE_UINT64);
    H5Tinsert(t, "shared_remote", offsetof(Row, shared_remote), H5T_NATIVE_UINT64);
    Row *rows = calloc(n > 0 ? (size_t)n : 1, sizeof *rows);
    if (rows && n > 0 && H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) >= 0) {
        r->n_work = (size_t)n;
        for (hssize_t i = 0; i < n; i++) {
            r->probes += rows[i].probes;
            r->shared_probes += rows[i].shared_probes;
            r->shared_hits += rows[i].shared_hits;
            r->shared_remote += rows[i].shared_remote;
        }
    }
    free(rows);
    H5Tclose(t);
    H5Sclose(s);
    H5Dclose(d);
}

/* Reads the units (and, when complete, the total and divide) of the file; -1 if it cannot be
 * read (a writer in the middle of a write, when polling a running job). */
int read_result(const char *path, bool complete, Result *r)
{
    memset(r, 0, sizeof *r);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        return -1;
    int rc = -1;
    hid_t p = H5Gopen2(f, "/perft", H5P_DEFAULT);
    hid_t d = p >= 0 ? H5Dopen2(p, "units", H5P_DEFAULT) : -1;
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(UnitRow));
    H5Tinsert(t, "id", offsetof(UnitRow, id), H5T_NATIVE_UINT64);
    H5Tinsert(t, "multiplicity", offsetof(UnitRow, multiplicity), H5T_NATIVE_UINT64);
    H5Tinsert(t, "nodes", offsetof(UnitRow, nodes), H5T_NATIVE_UINT64);
    H5Tinsert(t, "run", offsetof(UnitRow, run), H5T_NATIVE_INT32);
    if (d >= 0) {
        hid_t s = H5Dget_space(d);
        hssize_t n = H5Sget_simple_extent_npoints(s);
        H5Sclose(s);
        r->units = calloc(n > 0 ? (size_t)n : 1, sizeof *r->units);
        r->n_units = n > 0 ? (size_t)n : 0;
        if (n > 0 && H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, r->units) >= 0)
            rc = 0;
        H5Dclose(d);
    }
    H5Tclose(t);
    if (rc == 0 && complete) {
        rc = -1;
        hid_t a = H5Aopen(p, "nodes", H5P_DEFAULT);
        if (a >= 0 && H5Aread(a, H5T_NATIVE_UINT64, &r->nodes) >= 0)
            rc = 0;
        if (a >= 0)
            H5Aclose(a);
        a = H5Aopen(p, "key_seed", H5P_DEFAULT);
        if (a >= 0 && H5Aread(a, H5T_NATIVE_UINT64, &r->key_seed) < 0)
            rc = -1;
        if (a >= 0)
            H5Aclose(a);
        hid_t dv = H5Dopen2(p, "divide", H5P_DEFAULT);
        if (dv >= 0) {
            hid_t s = H5Dget_space(dv);
            hssize_t n = H5Sget_simple_extent_npoints(s);
            H5Sclose(s);
            uint64_t *nodes = calloc(n > 0 ? (size_t)n : 1, sizeof *nodes);
            hid_t tn = H5Tcreate(H5T_COMPOUND, sizeof(uint64_t));
            H5Tinsert(tn, "nodes", 0, H5T_NATIVE_UINT64);
            if (n > 0 && H5Dread(dv, tn, H5S_ALL, H5S_ALL, H5P_DEFAULT, nodes) < 0)
                rc = -1;
            for (hssize_t i = 0; i < n; i++)
                r->divide_sum += nodes[i];
            r->n_divide = n > 0 ? (size_t)n : 0;
            free(nodes);
            H5Tclose(tn);
            H5Dclose(dv);
        } else {
            rc = -1;
        }
        read_text_attr(f, "tables", r->tables, sizeof r->tables);
        read_work(p, r);
        if (read_i32_attr(f, "ranks", &r->ranks) < 0 ||
            read_i32_attr(f, "resumed", &r->resumed) < 0)
            rc = -1;
        hid_t h = H5Aopen(f, "hosts", H5P_DEFAULT);
        if (h >= 0) {
            hid_t s = H5Aget_space(h);
            r->n_hosts = (size_t)H5Sget_simple_extent_npoints(s);
            H5Sclose(s);
            H5Aclose(h);
        } else {
            rc = -1;
        }
    }
    if (p >= 0)
        H5Gclose(p);
    H5Fclose(f);
    if (rc != 0) {
        free(r->units);
        r->units = NULL;
    }
    return rc;
}

size_t units_done(const Result *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_units; i++)
        n += r->units[i].nodes != NOT_DONE;
    return n;
}

/* Every unit counted, each id 0..n-1 exactly once, and the units add up to total. */
void check_units(const Result *r, uint64_t total)
{
    assert_true(r->n_units > 0);
    char *seen = calloc(r->n_units, 1);
    uint64_t sum = 0;
    for (size_t i = 0; i < r->n_units; i++) {
        const UnitRow *u = &r->units[i];
        assert_true(u->id < r->n_units);
        assert_int_equal(seen[u->id], 0);
        seen[u->id] = 1;
        assert_true(u->nodes != NOT_DONE);
        sum += u->nodes * u->multiplicity;
    }
    free(seen);
    assert_int_equal(sum, total);
}
