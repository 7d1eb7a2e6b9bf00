/* SPDX-License-Identifier: MIT */
/* The global heap of a Carrera HDF5 file, checked before the HDF5 library reads it (h5heap.h).
 *
 * Layouts (HDF5 File Format Specification, "Global Heap" and "Variable-length data"), with the
 * 8-byte addresses and lengths of every file Carrera writes:
 *   collection  "GCOL", version 1, three reserved bytes (the library reads neither them nor an
 *               object's reserved bytes), its size (8), then its objects;
 *   object      index (2), reference count (2), reserved (4), size (8), the bytes padded to
 *               a multiple of 8; index 0 is the collection's free space, and a remainder too
 *               small for an object header is free space too;
 *   string      in a row: its length (4), its collection's address (8), its object's index
 *               (4); address 0 is the null string, which the library does not look up.
 * The library walks a collection object by object and keeps each object's offset and size by
 * index; it then copies the object a string names into a buffer of the string's length without
 * comparing the two, or looking whether the index is one of the collection's. */
#define _POSIX_C_SOURCE 200809L

#include "h5heap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errmsg.h"

#define ADDR_BYTES     8
#define COLLECTION_HDR 16
#define OBJECT_HDR     16
#define STRING_REF     (4 + ADDR_BYTES + 4)

/* A variable-length string member of a row, at its offset in the row as stored. */
#define MAX_STRINGS 16

typedef struct HeapObject {
    uint64_t collection; /* the collection's address */
    uint64_t size;
    uint32_t index;
} HeapObject;

struct H5Heap {
    const unsigned char *f; /* the file, mapped */
    size_t n;
    HeapObject *obj; /* every object with an index, sorted by collection and index */
    size_t n_obj, cap;
};

static uint64_t get_le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* NULL when the superblock at byte 0 has Carrera's layout, else what differs. */
static const char *superblock_problem(const unsigned char *f, size_t n)
{
    static const unsigned char sig[8] = { 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n' };
    if (n < 48 || memcmp(f, sig, sizeof sig) != 0)
        return "it does not start with its superblock";
    unsigned version = f[8];
    unsigned addr = version <= 1 ? f[13] : f[9], len = version <= 1 ? f[14] : f[10];
    size_t base_at = version == 0 ? 24 : version == 1 ? 28 : 12;
    if (addr != ADDR_BYTES || len != ADDR_BYTES)
        return "its addresses or lengths are not of 8 bytes";
    if (get_le(f + base_at, ADDR_BYTES) != 0)
        return "its base address is not 0";
    return NULL;
}

static int add_object(H5Heap *hp, uint64_t collection, unsigned index, uint64_t size)
{
    if (hp->n_obj == hp->cap) {
        size_t cap = hp->cap ? 2 * hp->cap : 256;
        HeapObject *o = realloc(hp->obj, cap * sizeof *o);
        if (!o)
            return -1;
        hp->obj = o;
        hp->cap = cap;
    }
    hp->obj[hp->n_obj++] = (HeapObject){ collection, size, index };
    return 0;
}

/* Walks the collection at byte at (signature and version matched) as the library does, adding
 * its objects. 1 when it fits the file and its objects fit it, 0 when not, -1 out of memory. */
static int walk_collection(H5Heap *hp, size_t at)
{
    const unsigned char *f = hp->f;
    size_t n = hp->n;
    if (n - at < COLLECTION_HDR)
        return 0;
    uint64_t size = get_le(f + at + 8, ADDR_BYTES);
    if (size < COLLECTION_HDR || size > n - at)
        return 0;
    uint64_t off = COLLECTION_HDR;
    while (off < size) {
        if (size - off < OBJECT_HDR)
            break; /* too small for an object: free space */
        const unsigned char *o = f + at + off;
        unsigned index = (unsigned)get_le(o, 2);
        uint64_t obj = get_le(o + 8, ADDR_BYTES);
        if (obj > size)
            return 0;
        uint64_t need = index > 0 ? OBJECT_HDR + (obj + 7) / 8 * 8 : obj;
        if (need == 0 || need > size - off)
            return 0;
        if (index > 0 && add_object(hp, at, index, obj) < 0)
            return -1;
        off += need;
    }
    return 1;
}

static int cmp_object(const void *a, const void *b)
{
    const HeapObject *x = a, *y = b;
    if (x->collection != y->collection)
        return (x->collection > y->collection) - (x->collection < y->collection);
    return (x->index > y->index) - (x->index < y->index);
}

/* Whether two objects of one collection share an index (the library keeps the last one; the
 * library never writes such a collection). */
static bool has_twins(const H5Heap *hp)
{
    for (size_t i = 1; i < hp->n_obj; i++)
        if (cmp_object(&hp->obj[i - 1], &hp->obj[i]) == 0)
            return true;
    return false;
}

H5Heap *h5heap_open(const char *path, const char *kind, char *err, size_t errlen)
{
    H5Heap *hp = calloc(1, sizeof *hp);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (!hp || fd < 0 || fstat(fd, &st) != 0) {
        errmsg_fail(err, errlen, "cannot open the %s %s: %s", kind, path,
                    hp ? strerror(errno) : "out of memory");
        if (fd >= 0)
            close(fd);
        free(hp);
        return NULL;
    }
    hp->n = (size_t)st.st_size;
    void *m = hp->n ? mmap(NULL, hp->n, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
    int mmap_errno = errno;
    close(fd);
    if (m == MAP_FAILED) {
        errmsg_fail(err, errlen, "cannot read the %s %s: %s", kind, path,
                    hp->n ? strerror(mmap_errno) : "it is empty");
        free(hp);
        return NULL;
    }
    hp->f = m;
    const char *why = superblock_problem(hp->f, hp->n);
    if (why) {
        errmsg_fail(err, errlen, "%s is an HDF5 file but not a Carrera %s (%s)", path, kind, why);
        h5heap_close(hp);
        return NULL;
    }
    /* what the library checks of a collection: the signature and the version, not the
     * reserved bytes after them (a damaged file can change those, and did) */
    static const unsigned char sig[5] = { 'G', 'C', 'O', 'L', 1 };
    for (const unsigned char *p = hp->f; (p = memchr(p, 'G', hp->n - (size_t)(p - hp->f))); p++) {
        size_t at = (size_t)(p - hp->f);
        if (hp->n - at < sizeof sig || memcmp(p, sig, sizeof sig) != 0)
            continue;
        int ok = walk_collection(hp, at);
        if (ok <= 0) {
            if (ok < 0)
                errmsg_fail(err, errlen, "out of memory reading the %s %s", kind, path);
            else
                errmsg_fail(err, errlen,
                            "cannot open the %s %s (damaged: a string heap at byte %zu does not "
                            "add up)",
                            kind, path, at);
            h5heap_close(hp);
            return NULL;
        }
    }
    if (hp->n_obj > 0)
        qsort(hp->obj, hp->n_obj, sizeof *hp->obj, cmp_object);
    if (has_twins(hp)) {
        errmsg_fail(err, errlen,
                    "cannot open the %s %s (damaged: a string heap holds two objects of one "
                    "index)",
                    kind, path);
        h5heap_close(hp);
        return NULL;
    }
    return hp;
}

void h5heap_close(H5Heap *hp)
{
    if (!hp)
        return;
    if (hp->f)
        munmap((void *)hp->f, hp->n);
    free(hp->obj);
    free(hp);
}

/* ---- rows ---- */

/* The stored size of t when it holds no variable-length data, else 0. */
static size_t fixed_size(hid_t t)
{
    switch (H5Tget_class(t)) {
    case H5T_INTEGER:
    case H5T_FLOAT:
    case H5T_BITFIELD:
    case H5T_OPAQUE:
    case H5T_ENUM:
        return H5Tget_size(t);
    case H5T_STRING:
        return H5Tis_variable_str(t) == 0 ? H5Tget_size(t) : 0;
    case H5T_ARRAY: {
        hid_t base = H5Tget_super(t);
        size_t size =
            base >= 0 && H5Tget_size(base) > 0 && fixed_size(base) > 0 ? H5Tget_size(t) : 0;
        if (base >= 0)
            H5Tclose(base);
        return size;
    }
    default:
        return 0;
    }
}

/* How d's rows are stored: their size, and the offsets of their variable-length strings. -1
 * when a member is neither such a string nor of fixed size. */
static int row_layout(hid_t d, size_t *size, size_t strings[MAX_STRINGS], int *n_strings)
{
    hid_t t = H5Dget_type(d);
    if (t < 0)
        return -1;
    bool compound = H5Tget_class(t) == H5T_COMPOUND;
    int members = compound ? H5Tget_nmembers(t) : 1;
    int rc = members > 0 ? 0 : -1;
    *size = 0;
    *n_strings = 0;
    for (int k = 0; k < members && rc == 0; k++) {
        hid_t m = compound ? H5Tget_member_type(t, (unsigned)k) : H5Tcopy(t);
        size_t fixed = m >= 0 ? fixed_size(m) : 0;
        if (fixed > 0) {
            *size += fixed;
        } else if (m >= 0 && H5Tis_variable_str(m) > 0 && *n_strings < MAX_STRINGS) {
            strings[(*n_strings)++] = *size;
            *size += STRING_REF;
        } else {
            rc = -1;
        }
        if (m >= 0)
            H5Tclose(m);
    }
    H5Tclose(t);
    return rc;
}

static bool string_ok(const H5Heap *hp, const unsigned char *s)
{
    uint64_t len = get_le(s, 4);
    HeapObject key = { .collection = get_le(s + 4, ADDR_BYTES),
                       .index = (uint32_t)get_le(s + 4 + ADDR_BYTES, 4) };
    if (key.collection == 0)
        return true; /* the null string */
    const HeapObject *o =
        hp->n_obj > 0 ? bsearch(&key, hp->obj, hp->n_obj, sizeof key, cmp_object) : NULL;
    return o && o->size == len;
}

/* The first of rows rows stored at address at (relative to the first row, rows when all are
 * good) that lies outside the file or has a string that is not an object of its length. */
static uint64_t first_bad_in(const H5Heap *hp, uint64_t at, uint64_t rows, size_t size,
                             const size_t *strings, int n_strings)
{
    for (uint64_t r = 0; r < rows; r++) {
        uint64_t row = at + r * size;
        if (row > hp->n || size > hp->n - row)
            return r;
        for (int k = 0; k < n_strings; k++)
            if (!string_ok(hp, hp->f + row + strings[k]))
                return r;
    }
    return rows;
}

int64_t h5heap_first_bad_row(const H5Heap *hp, hid_t d, uint64_t n)
{
    size_t size, strings[MAX_STRINGS];
    int n_strings;
    if (row_layout(d, &size, strings, &n_strings) < 0)
        return -1;
    hid_t pl = H5Dget_create_plist(d);
    if (pl < 0)
        return -1;
    H5D_layout_t layout = H5Pget_layout(pl);
    hsize_t chunk = 0;
    bool plain = H5Pget_nfilters(pl) == 0 &&
                 (layout == H5D_CONTIGUOUS ||
                  (layout == H5D_CHUNKED && H5Pget_chunk(pl, 1, &chunk) == 1 && chunk > 0));
    H5Pclose(pl);
    if (!plain)
        return -1;
    if (n_strings == 0)
        return (int64_t)n;
    if (layout == H5D_CONTIGUOUS) {
        haddr_t at = H5Dget_offset(d);
        return (int64_t)(at == HADDR_UNDEF ? n : first_bad_in(hp, at, n, size, strings, n_strings));
    }
    for (uint64_t start = 0; start < n; start += chunk) {
        hsize_t offset = start, bytes = 0;
        unsigned filters = 0;
        haddr_t at = HADDR_UNDEF;
        if (H5Dget_chunk_info_by_coord(d, &offset, &filters, &at, &bytes) < 0)
            return (int64_t)start;
        if (at == HADDR_UNDEF)
            continue; /* not written: its rows read as null strings */
        if (bytes != chunk * size)
            return (int64_t)start;
        uint64_t rows = n - start < chunk ? n - start : chunk;
        uint64_t bad = first_bad_in(hp, at, rows, size, strings, n_strings);
        if (bad < rows)
            return (int64_t)(start + bad);
    }
    return (int64_t)n;
}
