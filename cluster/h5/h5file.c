/* SPDX-License-Identifier: MIT */
/* What Carrera's HDF5 result files share (h5file.h): errors with HDF5's own words, types,
 * attributes, provenance and rows. The files themselves (access list, making, copying,
 * replacing, flushing) are h5file_files.c's. */
#define _POSIX_C_SOURCE 200809L

#include "h5file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ---- */

/* What the HDF5 library said about the first failure since the last message: its error stack is
 * cleared by the next API call (a cleanup H5Sclose, say), so it is read when the failure happens,
 * by the callback HDF5 calls then instead of printing the stack on stderr. Only rank 0's one
 * thread writes result files. */
static struct {
    char text[256];
    bool from_errno; /* the text is the system's ("No space left on device") */
} h5_said;

/* Keeps the system's error text if some level of the stack carries one, else the most
 * specific description (the walk starts there). */
static herr_t said_walk(unsigned n, const H5E_error2_t *e, void *data)
{
    (void)n, (void)data;
    const char *key = "error message = '";
    const char *m = e->desc ? strstr(e->desc, key) : NULL;
    if (m && !h5_said.from_errno) {
        m += strlen(key);
        const char *end = strchr(m, '\'');
        int len = end ? (int)(end - m) : (int)strlen(m);
        snprintf(h5_said.text, sizeof h5_said.text, "%.*s", len, m);
        h5_said.from_errno = true;
    } else if (!h5_said.text[0] && e->desc) {
        snprintf(h5_said.text, sizeof h5_said.text, "%s", e->desc);
    }
    return 0;
}

static herr_t said_capture(hid_t stack, void *data)
{
    (void)data;
    if (!h5_said.from_errno)
        H5Ewalk2(stack, H5E_WALK_UPWARD, said_walk, NULL);
    return 0;
}

/* The first call also keeps HDF5 from closing its files at exit: after a failed H5Fclose (a full
 * disk) HDF5 1.10 crashes doing so, and every file of ours is closed explicitly anyway (one left
 * open is a killed job: its last flush counts). */
void h5file_quiet(void)
{
    H5dont_atexit(); /* effective before the library starts, harmless after */
    H5Eset_auto2(H5E_DEFAULT, said_capture, NULL);
    h5_said.text[0] = '\0';
    h5_said.from_errno = false;
}

void h5file_forget(void)
{
    h5_said.text[0] = '\0';
    h5_said.from_errno = false;
}

int h5file_fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
        size_t k = strlen(err);
        if (h5_said.text[0] && k < errlen)
            snprintf(err + k, errlen - k, ": %s", h5_said.text);
    }
    h5_said.text[0] = '\0';
    h5_said.from_errno = false;
    return -1;
}

void h5file_add_diff(char *buf, size_t len, const char *fmt, ...)
{
    size_t k = strlen(buf);
    if (k && k + 2 < len) {
        strcpy(buf + k, "; ");
        k += 2;
    }
    if (k >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + k, len - k, fmt, ap);
    va_end(ap);
}

/* ---- types ---- */

hid_t h5file_string_type(size_t size)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t >= 0 && (H5Tset_size(t, size) < 0 || H5Tset_strpad(t, H5T_STR_NULLTERM) < 0)) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

/* The type of a text of len bytes as attributes and string datasets store it: fixed-length,
 * NUL-terminated, UTF-8 (a configuration may hold any text), sized to the text (HDF5 has no string
 * of size 0, so an empty text takes one byte). */
static hid_t text_type(size_t len)
{
    hid_t t = h5file_string_type(len + 1);
    if (t >= 0 && H5Tset_cset(t, H5T_CSET_UTF8) < 0) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

/* The longest of the n texts v (NULL counts as empty). */
static size_t longest(const char *const *v, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = v[i] ? strlen(v[i]) : 0;
        m = k > m ? k : m;
    }
    return m;
}

/* The n texts v packed as an array of fixed-length strings of size bytes each (NUL-padded), as
 * HDF5 reads and writes them. malloc'd, or NULL. */
static char *pack_texts(const char *const *v, size_t n, size_t size)
{
    char *buf = calloc(n ? n : 1, size);
    for (size_t i = 0; buf && i < n; i++)
        if (v[i])
            memcpy(buf + i * size, v[i], strlen(v[i]));
    return buf;
}

hid_t h5file_compound(size_t size, const H5FileMember *m, int n, size_t str_size)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, size);
    hid_t s = str_size ? h5file_string_type(str_size) : H5I_INVALID_HID;
    bool ok = t >= 0 && (!str_size || s >= 0);
    for (int i = 0; ok && i < n; i++)
        ok = H5Tinsert(t, m[i].name, m[i].offset, m[i].type ? m[i].type : s) >= 0;
    if (s >= 0)
        H5Tclose(s);
    if (!ok && t >= 0) {
        H5Tclose(t);
        t = -1;
    }
    return t;
}

/* ---- attributes ---- */

/* Creates (or replaces) attribute name on loc and writes buf of memory type mt into it. */
static int put_attr(hid_t loc, const char *name, hid_t ft, hid_t mt, hid_t space, const void *buf)
{
    if (H5Aexists(loc, name) > 0 && H5Adelete(loc, name) < 0)
        return -1;
    hid_t a = H5Acreate2(loc, name, ft, space, H5P_DEFAULT, H5P_DEFAULT);
    if (a < 0)
        return -1;
    herr_t w = H5Awrite(a, mt, buf);
    return (H5Aclose(a) < 0 || w < 0) ? -1 : 0;
}

static int put_scalar(hid_t loc, const char *name, hid_t ft, hid_t mt, const void *buf)
{
    hid_t s = H5Screate(H5S_SCALAR);
    int rc = s < 0 ? -1 : put_attr(loc, name, ft, mt, s, buf);
    if (s >= 0)
        H5Sclose(s);
    return rc;
}

int h5file_put_i32(hid_t loc, const char *name, int32_t v)
{
    return put_scalar(loc, name, H5T_STD_I32LE, H5T_NATIVE_INT32, &v);
}

int h5file_put_u64(hid_t loc, const char *name, uint64_t v)
{
    return put_scalar(loc, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, &v);
}

int h5file_put_f64(hid_t loc, const char *name, double v)
{
    return put_scalar(loc, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &v);
}

/* Texts are fixed-length strings sized to the text: no variable-length type, so no global heap
 * in the file, which HDF5 would trust when it reads one (docs/result-files.md). */
int h5file_put_str(hid_t loc, const char *name, const char *v)
{
    const char *p = v ? v : "";
    hid_t t = text_type(strlen(p));
    int rc = t < 0 ? -1 : put_scalar(loc, name, t, t, p);
    if (t >= 0)
        H5Tclose(t);
    return rc;
}

int h5file_put_strs(hid_t loc, const char *name, const char *const *v, size_t n)
{
    hsize_t dim = n;
    size_t size = longest(v, n) + 1;
    hid_t t = text_type(size - 1);
    hid_t s = H5Screate_simple(1, &dim, NULL);
    char *buf = pack_texts(v, n, size);
    int rc = (t < 0 || s < 0 || !buf) ? -1 : put_attr(loc, name, t, t, s, buf);
    free(buf);
    if (s >= 0)
        H5Sclose(s);
    if (t >= 0)
        H5Tclose(t);
    return rc;
}

int h5file_put_array(hid_t loc, const char *name, hid_t file_type, hid_t mem_type, int rank,
                     const hsize_t *dims, const void *data)
{
    hid_t space = H5Screate_simple(rank, dims, NULL);
    if (space < 0)
        return -1;
    hid_t d = H5Dcreate2(loc, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hssize_t points = H5Sget_simple_extent_npoints(space);
    int rc = d < 0 || (points > 0 && H5Dwrite(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
                 ? -1
                 : 0;
    if (d >= 0)
        H5Dclose(d);
    H5Sclose(space);
    return rc;
}

int h5file_put_str_array(hid_t loc, const char *name, const char *const *v, size_t n)
{
    size_t size = longest(v, n) + 1;
    hid_t t = text_type(size - 1);
    char *buf = pack_texts(v, n, size);
    hsize_t dim = n;
    int rc = t < 0 || !buf ? -1 : h5file_put_array(loc, name, t, t, 1, &dim, buf);
    free(buf);
    if (t >= 0)
        H5Tclose(t);
    return rc;
}

/* The size of the file that holds loc, or 0 when unknown: no text in it is longer. */
static uint64_t file_size_of(hid_t loc)
{
    hid_t f = H5Iget_file_id(loc);
    hsize_t size = 0;
    if (f < 0 || H5Fget_filesize(f, &size) < 0)
        size = 0;
    if (f >= 0)
        H5Fclose(f);
    return (uint64_t)size;
}

/* The most texts an attribute of texts is read with (the hosts of 65,536 ranks). */
#define HOSTS_MAX 65536

/* The texts of a fixed-length string attribute of at most max_n points, each NUL-terminated in
 * a slot of *slot bytes of the malloc'd result, their number in *n; NULL when missing or
 * unreadable. Sizes beyond what the file can hold are not allocated (a damaged size); a
 * variable-length attribute (layout 1 of the result files) does not convert to the
 * fixed-length memory type, so HDF5 refuses to read it without looking at its heap. */
static char *read_texts(hid_t loc, const char *name, hssize_t max_n, size_t *n, size_t *slot)
{
    if (H5Aexists(loc, name) <= 0)
        return NULL;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t ft = a >= 0 ? H5Aget_type(a) : -1;
    hid_t sp = a >= 0 ? H5Aget_space(a) : -1;
    char *out = NULL;
    const size_t size = ft >= 0 ? H5Tget_size(ft) : 0;
    const hssize_t points = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
    if (ft >= 0 && H5Tget_class(ft) == H5T_STRING && points > 0 && points <= max_n && size > 0 &&
        size <= file_size_of(loc) / (uint64_t)points) {
        /* HDF5 converts between strings of one character set only */
        hid_t mt = h5file_string_type(size + 1);
        out = calloc((size_t)points, size + 1);
        if (mt < 0 || !out || H5Tset_cset(mt, H5Tget_cset(ft)) < 0 || H5Aread(a, mt, out) < 0) {
            free(out);
            out = NULL;
        }
        *n = (size_t)points;
        *slot = size + 1;
        if (mt >= 0)
            H5Tclose(mt);
    }
    if (sp >= 0)
        H5Sclose(sp);
    if (ft >= 0)
        H5Tclose(ft);
    if (a >= 0)
        H5Aclose(a);
    return out;
}

char *h5file_get_str_alloc(hid_t loc, const char *name)
{
    size_t n, slot;
    return read_texts(loc, name, 1, &n, &slot);
}

void h5file_get_strs_joined(hid_t loc, const char *name, const char *sep, char *out, size_t len)
{
    out[0] = '\0';
    size_t n = 0, slot = 0, used = 0;
    char *v = read_texts(loc, name, HOSTS_MAX, &n, &slot);
    for (size_t i = 0; v && i < n && used < len; i++)
        used += (size_t)snprintf(out + used, len - used, "%s%s", i ? sep : "", v + i * slot);
    free(v);
}

int h5file_get_str(hid_t loc, const char *name, char *out, size_t outlen)
{
    char *s = h5file_get_str_alloc(loc, name);
    snprintf(out, outlen, "%s", s ? s : "");
    free(s);
    return s ? 0 : -1;
}

/* Reads a scalar integer attribute into out, of memory type mt. */
static int get_integer(hid_t loc, const char *name, hid_t mt, void *out)
{
    if (H5Aexists(loc, name) <= 0)
        return -1;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t ft = a >= 0 ? H5Aget_type(a) : -1;
    int rc = -1;
    if (ft >= 0 && H5Tget_class(ft) == H5T_INTEGER && H5Aread(a, mt, out) >= 0)
        rc = 0;
    if (ft >= 0)
        H5Tclose(ft);
    if (a >= 0)
        H5Aclose(a);
    return rc;
}

int h5file_get_int(hid_t loc, const char *name, long long *out)
{
    return get_integer(loc, name, H5T_NATIVE_LLONG, out);
}

int h5file_get_u64(hid_t loc, const char *name, uint64_t *out)
{
    return get_integer(loc, name, H5T_NATIVE_UINT64, out);
}

int h5file_put_provenance(hid_t loc, const Provenance *p)
{
    int rc = 0;
    rc |= h5file_put_str(loc, "carrera_version", p->version);
    rc |= h5file_put_str(loc, "git_revision", p->revision);
    rc |= h5file_put_str(loc, "compiler", p->compiler);
    rc |= h5file_put_str(loc, "build_flags", p->build);
    rc |= h5file_put_i32(loc, "ranks", p->ranks);
    rc |= h5file_put_i32(loc, "threads_per_rank", p->threads_per_rank);
    rc |= h5file_put_strs(loc, "hosts", p->hosts, p->hosts ? p->n_hosts : 0);
    rc |= h5file_put_str(loc, "configuration", p->config);
    rc |= h5file_put_str(loc, "start_time", p->start_time);
    if (p->tables)
        rc |= h5file_put_str(loc, "tables", p->tables);
    return rc ? -1 : 0;
}

int h5file_record_resume(hid_t file, const Provenance *prov, const char *done_name, uint64_t done,
                         int *run)
{
    long long count = 0;
    if (h5file_get_int(file, "resumed", &count) < 0 || count < 0)
        return -1;
    *run = (int)count + 1;
    hid_t rs = H5Lexists(file, "resumes", H5P_DEFAULT) > 0
                   ? H5Gopen2(file, "resumes", H5P_DEFAULT)
                   : H5Gcreate2(file, "resumes", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (rs < 0)
        return -1;
    char name[24];
    snprintf(name, sizeof name, "%d", *run);
    if (H5Lexists(rs, name, H5P_DEFAULT) > 0) /* a resume that failed after this point */
        H5Ldelete(rs, name, H5P_DEFAULT);
    hid_t g = H5Gcreate2(rs, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = (g < 0 || h5file_put_provenance(g, prov) < 0 ||
              h5file_put_u64(g, done_name, done) < 0 || h5file_put_i32(file, "resumed", *run) < 0)
                 ? -1
                 : 0;
    if (g >= 0)
        H5Gclose(g);
    H5Gclose(rs);
    return rc;
}

int h5file_put_end_time(hid_t file, int run, const char *end_time)
{
    if (h5file_put_str(file, "end_time", end_time) < 0)
        return -1;
    if (run <= 0)
        return 0;
    char name[40];
    snprintf(name, sizeof name, "/resumes/%d", run);
    hid_t r = H5Gopen2(file, name, H5P_DEFAULT);
    int rc = r < 0 ? -1 : h5file_put_str(r, "end_time", end_time);
    if (r >= 0 && H5Gclose(r) < 0)
        rc = -1;
    return rc;
}

/* ---- rows ---- */

static int transfer_rows(hid_t d, hid_t mt, size_t start, size_t n, void *buf, bool write)
{
    if (n == 0)
        return 0;
    hsize_t off = start, cnt = n;
    hid_t fs = H5Dget_space(d);
    hid_t ms = H5Screate_simple(1, &cnt, NULL);
    int rc = -1;
    if (fs >= 0 && ms >= 0 &&
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, &off, NULL, &cnt, NULL) >= 0 &&
        (write ? H5Dwrite(d, mt, ms, fs, H5P_DEFAULT, buf)
               : H5Dread(d, mt, ms, fs, H5P_DEFAULT, buf)) >= 0)
        rc = 0;
    if (ms >= 0)
        H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    return rc;
}

int h5file_write_rows(hid_t d, hid_t mt, size_t start, size_t n, const void *buf)
{
    return transfer_rows(d, mt, start, n, (void *)buf, true);
}

int h5file_read_rows(hid_t d, hid_t mt, size_t start, size_t n, void *buf)
{
    return transfer_rows(d, mt, start, n, buf, false);
}

long long h5file_table_rows(hid_t d)
{
    hid_t sp = H5Dget_space(d);
    hsize_t dim = 0;
    long long n = -1;
    if (sp >= 0 && H5Sget_simple_extent_ndims(sp) == 1 &&
        H5Sget_simple_extent_dims(sp, &dim, NULL) == 1)
        n = (long long)dim;
    if (sp >= 0)
        H5Sclose(sp);
    return n;
}
