/* SPDX-License-Identifier: MIT */
/* Result files read back in tests (h5read.h). */
#define _POSIX_C_SOURCE 200809L

#include "h5read.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"

/* A fixed-length string type of size bytes in the character set of attribute a (HDF5 converts
 * strings within one set only). */
static hid_t fixed(hid_t a, size_t size)
{
    hid_t ft = H5Aget_type(a), t = H5Tcopy(H5T_C_S1);
    assert_true(t >= 0 && H5Tset_size(t, size) >= 0 && H5Tset_cset(t, H5Tget_cset(ft)) >= 0);
    H5Tclose(ft);
    return t;
}

/* The file type of attribute a, checked to be a fixed-length NUL-terminated string; its size. */
static size_t string_size(hid_t a, const char *name)
{
    hid_t ft = H5Aget_type(a);
    assert_true(ft >= 0);
    if (H5Tget_class(ft) != H5T_STRING || H5Tget_strpad(ft) != H5T_STR_NULLTERM)
        fail_msg("attribute %s is not a NUL-terminated string", name);
    /* a variable-length string converts to no fixed-length type: refused by the read below */
    size_t size = H5Tget_size(ft);
    H5Tclose(ft);
    return size;
}

void h5read_str(hid_t loc, const char *name, char *out, size_t len)
{
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a < 0)
        fail_msg("no attribute %s", name);
    size_t size = string_size(a, name);
    char *buf = calloc(size + 1, 1);
    hid_t t = fixed(a, size + 1);
    assert_non_null(buf);
    if (H5Aread(a, t, buf) < 0)
        fail_msg("cannot read attribute %s as a fixed-length string", name);
    if (strlen(buf) + 1 != size)
        fail_msg("attribute %s ('%s') is %zu bytes, not its text's size and a NUL", name, buf,
                 size);
    snprintf(out, len, "%s", buf);
    free(buf);
    H5Tclose(t);
    H5Aclose(a);
}

char **h5read_strs(hid_t loc, const char *name, size_t *n)
{
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a < 0)
        fail_msg("no attribute %s", name);
    size_t size = string_size(a, name);
    hid_t sp = H5Aget_space(a);
    hssize_t k = H5Sget_simple_extent_npoints(sp);
    assert_true(k >= 0);
    char *buf = calloc((size_t)k + 1, size);
    hid_t t = fixed(a, size);
    assert_non_null(buf);
    assert_true(H5Aread(a, t, buf) >= 0);
    char **v = calloc((size_t)k + 1, sizeof *v);
    assert_non_null(v);
    for (hssize_t i = 0; i < k; i++) {
        v[i] = strndup(buf + (size_t)i * size, size);
        assert_non_null(v[i]);
    }
    free(buf);
    H5Tclose(t);
    H5Sclose(sp);
    H5Aclose(a);
    *n = (size_t)k;
    return v;
}

void h5read_strs_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

typedef struct MovesRef {
    uint64_t offset;
    uint32_t length;
} MovesRef;

static hid_t ref_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(MovesRef));
    H5Tinsert(t, "moves_offset", offsetof(MovesRef, offset), H5T_NATIVE_UINT64);
    H5Tinsert(t, "moves_length", offsetof(MovesRef, length), H5T_NATIVE_UINT32);
    return t;
}

/* Reads (or writes) n elements of the one-dimensional dataset d from start, memory type mt. */
static void transfer(hid_t d, hid_t mt, hsize_t start, hsize_t n, void *buf, int write)
{
    if (n == 0)
        return;
    hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, &n, NULL);
    assert_true(H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, NULL, &n, NULL) >= 0);
    herr_t rc = write ? H5Dwrite(d, mt, ms, fs, H5P_DEFAULT, buf)
                      : H5Dread(d, mt, ms, fs, H5P_DEFAULT, buf);
    assert_true(rc >= 0);
    H5Sclose(ms);
    H5Sclose(fs);
}

static hsize_t size_of(hid_t d)
{
    hid_t sp = H5Dget_space(d);
    hsize_t n = 0;
    assert_int_equal(H5Sget_simple_extent_dims(sp, &n, NULL), 1);
    H5Sclose(sp);
    return n;
}

char *h5read_moves(hid_t f, uint64_t row)
{
    hid_t games = H5Dopen2(f, "/match/games", H5P_DEFAULT);
    hid_t moves = H5Dopen2(f, "/match/moves", H5P_DEFAULT);
    assert_true(games >= 0 && moves >= 0);
    hid_t t = ref_type();
    MovesRef r;
    transfer(games, t, row, 1, &r, 0);
    assert_true(r.offset <= size_of(moves) && r.length <= size_of(moves) - r.offset);
    char *text = calloc(r.length + 1, 1);
    assert_non_null(text);
    transfer(moves, H5T_NATIVE_UCHAR, r.offset, r.length, text, 0);
    H5Tclose(t);
    H5Dclose(moves);
    H5Dclose(games);
    return text;
}

void h5read_set_moves(const char *path, uint64_t row, const char *text)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t games = H5Dopen2(f, "/match/games", H5P_DEFAULT);
    hid_t moves = H5Dopen2(f, "/match/moves", H5P_DEFAULT);
    assert_true(games >= 0 && moves >= 0);
    hsize_t rows = size_of(games);
    assert_true(row < rows);
    char **texts = calloc(rows, sizeof *texts);
    assert_non_null(texts);
    for (hsize_t i = 0; i < rows; i++)
        texts[i] = i == row ? strdup(text) : h5read_moves(f, i);
    hid_t t = ref_type();
    MovesRef *refs = calloc(rows, sizeof *refs);
    assert_non_null(refs);
    transfer(games, t, 0, rows, refs, 0);
    uint64_t at = 0;
    for (hsize_t i = 0; i < rows; i++) {
        refs[i].offset = at;
        refs[i].length = (uint32_t)strlen(texts[i]);
        at += refs[i].length;
    }
    hsize_t size = at;
    assert_true(H5Dset_extent(moves, &size) >= 0);
    for (hsize_t i = 0; i < rows; i++)
        transfer(moves, H5T_NATIVE_UCHAR, refs[i].offset, refs[i].length, texts[i], 1);
    transfer(games, t, 0, rows, refs, 1);
    for (hsize_t i = 0; i < rows; i++)
        free(texts[i]);
    free(texts);
    free(refs);
    H5Tclose(t);
    H5Dclose(moves);
    H5Dclose(games);
    H5Fclose(f);
}

void h5read_no_global_heap(const char *path)
{
    size_t n;
    unsigned char *bytes = read_bytes(path, &n);
    for (size_t i = 0; i + 4 <= n; i++)
        if (memcmp(bytes + i, "GCOL", 4) == 0)
            fail_msg("%s holds a global heap collection at byte %zu", path, i);
    free(bytes);
}

uint64_t h5read_u64(hid_t loc, const char *obj, const char *name)
{
    uint64_t v = 0;
    hid_t a = H5Aopen_by_name(loc, obj, name, H5P_DEFAULT, H5P_DEFAULT);
    if (a < 0)
        fail_msg("no attribute %s on %s", name, obj);
    assert_true(H5Aread(a, H5T_NATIVE_UINT64, &v) >= 0);
    H5Aclose(a);
    return v;
}
