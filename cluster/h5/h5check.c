/* SPDX-License-Identifier: MIT */
/* What Carrera checks before it trusts a result file (h5check.h). */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* flock */

#include "h5check.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "h5file.h"

bool h5check_stored_as(hid_t d, hid_t mt)
{
    hid_t ft = H5Dget_type(d);
    hid_t want = H5Tcopy(mt);
    bool same = ft >= 0 && want >= 0 && H5Tpack(want) >= 0 && H5Tequal(ft, want) > 0;
    if (want >= 0)
        H5Tclose(want);
    if (ft >= 0)
        H5Tclose(ft);
    return same;
}

bool h5check_contiguous_whole(hid_t d)
{
    hid_t pl = H5Dget_create_plist(d);
    hid_t t = H5Dget_type(d);
    long long n = h5file_table_rows(d);
    size_t size = t >= 0 ? H5Tget_size(t) : 0;
    bool ok = pl >= 0 && size > 0 && n >= 0 && H5Pget_layout(pl) == H5D_CONTIGUOUS &&
              H5Pget_nfilters(pl) == 0 && H5Dget_storage_size(d) == (hsize_t)n * size;
    if (t >= 0)
        H5Tclose(t);
    if (pl >= 0)
        H5Pclose(pl);
    return ok;
}

bool h5check_chunks_whole(hid_t d, uint64_t start, uint64_t n)
{
    hid_t pl = H5Dget_create_plist(d);
    hid_t t = H5Dget_type(d);
    hsize_t chunk = 0;
    size_t size = t >= 0 ? H5Tget_size(t) : 0;
    bool ok = pl >= 0 && size > 0 && H5Pget_layout(pl) == H5D_CHUNKED && H5Pget_nfilters(pl) == 0 &&
              H5Pget_chunk(pl, 1, &chunk) == 1 && chunk > 0;
    for (hsize_t c = ok ? start / chunk * chunk : 0; ok && n && c < start + n; c += chunk) {
        unsigned mask = 0;
        haddr_t addr = HADDR_UNDEF;
        hsize_t bytes = 0;
        /* a chunk not in the index reads as fill values */
        ok = H5Dget_chunk_info_by_coord(d, &c, &mask, &addr, &bytes) >= 0 &&
             (addr == HADDR_UNDEF || bytes == chunk * size);
    }
    if (t >= 0)
        H5Tclose(t);
    if (pl >= 0)
        H5Pclose(pl);
    return ok;
}

/* Refuses a file of another layout with what to do about it; a layout-1 file's "format" is a
 * variable-length string that this build does not read, so such a file is known by its integer
 * format_version and its top group. Returns 0 for a file of kind's format and layout. */
static int check_layout(hid_t file, const char *path, const H5CheckKind *k, char *err,
                        size_t errlen)
{
    char have[64];
    long long v = -1;
    bool has_version = h5file_get_int(file, "format_version", &v) == 0;
    bool readable = h5file_get_str(file, "format", have, sizeof have) == 0;
    h5file_forget(); /* a layout-1 "format" does not read: the reason is said below */
    bool ours = readable ? strcmp(have, k->format) == 0
                         : H5Aexists(file, "format") > 0 && has_version &&
                               H5Lexists(file, k->group, H5P_DEFAULT) > 0;
    if (!ours && readable)
        return h5file_fail(err, errlen, "%s is an HDF5 file but not a Carrera %s (it is a %s file)",
                           path, k->name, have);
    if (!ours)
        return h5file_fail(err, errlen, "%s is an HDF5 file but not a Carrera %s", path, k->name);
    if (!has_version)
        return h5file_fail(err, errlen,
                           "%s: damaged %s (no layout version; this Carrera reads layout %d of %s "
                           "files)",
                           path, k->name, k->version, k->format);
    if (v != k->version)
        return h5file_fail(err, errlen,
                           "%s was written in layout %lld of %s files; this Carrera reads layout "
                           "%d: %s with the Carrera that wrote it",
                           path, v, k->format, k->version, k->todo);
    return 0;
}

/* Whether another process holds path locked (HDF5 locks a file it writes with flock, as a job
 * does its checkpoint until its last rank exits). A file system without locks has none. */
static bool locked_elsewhere(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    int rc;
    while ((rc = flock(fd, LOCK_SH | LOCK_NB)) != 0 && errno == EINTR)
        ;
    bool locked = rc != 0 && errno == EWOULDBLOCK;
    close(fd); /* a shared lock of ours goes with it */
    return locked;
}

static hid_t open_read_only(const char *path)
{
    hid_t fa = h5file_file_access();
    hid_t file = fa < 0 ? -1 : h5file_close_on_exec(H5Fopen(path, H5F_ACC_RDONLY, fa));
    if (fa >= 0)
        H5Pclose(fa);
    return file;
}

/* Waits up to lock_wait seconds for another process to release path, saying so on stderr. Returns
 * 0 once it is released, or -1 with a message naming the file as in use. */
static int wait_unlocked(const char *path, const H5CheckKind *kind, double lock_wait, char *err,
                         size_t errlen)
{
    if (lock_wait > 0)
        fprintf(stderr,
                "carrera: the %s %s is in use by another process (a job still ending?); waiting "
                "up to %g s for it\n",
                kind->name, path, lock_wait);
    const double start = monotonic_seconds();
    for (;;) {
        if (monotonic_seconds() - start >= lock_wait)
            return h5file_fail(err, errlen,
                               "the %s %s is in use by another process: a job still running or "
                               "still ending? (waited %g s for its lock)",
                               kind->name, path, lock_wait);
        nanosleep(&(struct timespec){ 0, 200 * 1000 * 1000 }, NULL);
        if (!locked_elsewhere(path))
            return 0;
    }
}

/* HDF5 refuses a file another process holds locked as it refuses a damaged one: the lock is asked
 * for after a refusal, and waited for, so that a locked file is named as one and never sent for
 * repair. (HDF5 opens a file this process already has open without a second lock, which is why
 * the lock is not probed first.) Returns the file, or -1 with a message. */
static hid_t open_when_unlocked(const char *path, const H5CheckKind *kind, double lock_wait,
                                char *err, size_t errlen)
{
    hid_t file = open_read_only(path);
    if (file < 0 && locked_elsewhere(path)) {
        if (wait_unlocked(path, kind, lock_wait, err, errlen) != 0)
            return -1;
        file = open_read_only(path);
    }
    if (file < 0)
        return h5file_fail(err, errlen, "cannot open the %s %s (truncated or damaged?)", kind->name,
                           path);
    return file;
}

hid_t h5check_open(const char *path, const H5CheckKind *kind, double lock_wait, char *err,
                   size_t errlen)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return h5file_fail(err, errlen, "cannot open the %s %s: %s", kind->name, path,
                           strerror(errno));
    if (!S_ISREG(st.st_mode))
        return h5file_fail(err, errlen, "the %s %s is not a regular file", kind->name, path);
    htri_t is = H5Fis_hdf5(path);
    if (is == 0)
        return h5file_fail(err, errlen, "%s is not an HDF5 file, so not a Carrera %s", path,
                           kind->name);
    if (is < 0)
        return h5file_fail(err, errlen, "cannot read the %s %s", kind->name, path);
    hid_t file = open_when_unlocked(path, kind, lock_wait, err, errlen);
    if (file < 0)
        return -1;
    if (check_layout(file, path, kind, err, errlen) < 0) {
        H5Fclose(file);
        return -1;
    }
    return file;
}
