/* SPDX-License-Identifier: MIT */
/* The result files as files (h5file.h): the file access list, a new file made under a name of its
 * own and published whole, every other change made in a copy that replaces the file, and flushes
 * that reach the disk. */
#define _POSIX_C_SOURCE 200809L

#include "h5file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- files ---- */

/* The file access list: the oldest layout HDF5 1.8 reads (dense attribute storage, so hosts of
 * thousands of ranks fit; no 1.10 superblock), every object closed with the file, and file
 * locks where the file system has them (cluster file systems often do not). */
hid_t h5file_file_access(void)
{
    hid_t fa = H5Pcreate(H5P_FILE_ACCESS);
    if (fa >= 0 && (H5Pset_libver_bounds(fa, H5F_LIBVER_V18, H5F_LIBVER_V18) < 0 ||
                    H5Pset_fclose_degree(fa, H5F_CLOSE_STRONG) < 0 ||
                    H5Pset_file_locking(fa, true, true) < 0)) {
        H5Pclose(fa);
        return -1;
    }
    return fa;
}

hid_t h5file_close_on_exec(hid_t file)
{
    void *handle = NULL;
    if (file >= 0 && H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) >= 0 && handle) {
        int fd = *(int *)handle;
        fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC);
    }
    return file;
}

/* ---- replacing the file ---- */

/* fsync by name; errors of file systems that cannot sync (EINVAL) do not count. */
static int sync_path(const char *path, int flags)
{
    int fd = open(path, flags | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = (fsync(fd) == 0 || errno == EINVAL || errno == EROFS) ? 0 : -1;
    int e = errno;
    close(fd);
    errno = e;
    return rc;
}

/* Syncs the directory of path, so that a rename in it survives a crash. Best effort. */
static void sync_dir(const char *path)
{
    char *dir = malloc(strlen(path) + 2);
    if (!dir)
        return;
    strcpy(dir, path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        strcpy(dir, ".");
    else
        slash[slash == dir ? 1 : 0] = '\0';
    sync_path(dir, O_RDONLY | O_DIRECTORY);
    free(dir);
}

char *h5file_copy_name(const char *path)
{
    size_t n = strlen(path) + sizeof ".tmp";
    char *tmp = malloc(n);
    if (tmp)
        snprintf(tmp, n, "%s.tmp", path);
    return tmp;
}

static int copy_file(const char *from, const char *to, char *err, size_t errlen)
{
    enum { CHUNK = 1 << 20 };
    char *buf = malloc(CHUNK);
    int in = open(from, O_RDONLY | O_CLOEXEC);
    int out = in >= 0 ? open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666) : -1;
    const char *failed = !buf ? "out of memory" : NULL;
    while (!failed && in >= 0 && out >= 0) {
        ssize_t n = read(in, buf, CHUNK);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            failed = strerror(errno);
        if (n <= 0)
            break;
        for (ssize_t done = 0; !failed && done < n;) {
            ssize_t w = write(out, buf + done, (size_t)(n - done));
            if (w < 0 && errno != EINTR)
                failed = strerror(errno);
            done += w > 0 ? w : 0;
        }
    }
    if (!failed && (in < 0 || out < 0))
        failed = strerror(errno);
    if (!failed && fsync(out) != 0 && errno != EINVAL)
        failed = strerror(errno);
    if (out >= 0 && close(out) != 0 && !failed)
        failed = strerror(errno);
    if (in >= 0)
        close(in);
    free(buf);
    if (failed) {
        if (out >= 0)
            unlink(to);
        return h5file_fail(err, errlen, "cannot copy %s to %s: %s", from, to, failed);
    }
    return 0;
}

hid_t h5file_open_copy(const char *path, const char *tmp, char *err, size_t errlen)
{
    if (copy_file(path, tmp, err, errlen) < 0)
        return -1;
    hid_t fa = h5file_file_access();
    hid_t file = fa < 0 ? -1 : h5file_close_on_exec(H5Fopen(tmp, H5F_ACC_RDWR, fa));
    if (fa >= 0)
        H5Pclose(fa);
    if (file < 0) {
        h5file_fail(err, errlen, "cannot open %s", tmp);
        unlink(tmp);
    }
    return file;
}

void h5file_drop_copy(const char *tmp, const char *path, const char *kept, char *err, size_t errlen)
{
    unlink(tmp);
    size_t k = err ? strlen(err) : 0;
    if (err && k < errlen)
        snprintf(err + k, errlen - k, " (%s still holds every recorded %s)", path, kept);
}

int h5file_replace_with(const char *tmp, const char *path, char *err, size_t errlen)
{
    if (sync_path(tmp, O_RDONLY) != 0 || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return h5file_fail(err, errlen, "cannot replace %s: %s", path, strerror(e));
    }
    sync_dir(path);
    return 0;
}

hid_t h5file_create_new(const char *path, char **made, char *err, size_t errlen)
{
    size_t len = strlen(path) + 40;
    *made = malloc(len);
    if (!*made)
        return h5file_fail(err, errlen, "cannot create %s: out of memory", path);
    /* not mkstemp: its file would be readable by its owner alone, whatever the umask */
    int fd = -1;
    for (unsigned k = 0; fd < 0 && k < 100; k++) {
        snprintf(*made, len, "%s.new-%ld-%u", path, (long)getpid(), k);
        fd = open(*made, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int e = errno;
        free(*made);
        *made = NULL;
        return h5file_fail(err, errlen, "cannot create %s: %s", path, strerror(e));
    }
    close(fd);
    hid_t fa = h5file_file_access();
    hid_t file =
        fa < 0 ? -1 : h5file_close_on_exec(H5Fcreate(*made, H5F_ACC_TRUNC, H5P_DEFAULT, fa));
    if (fa >= 0)
        H5Pclose(fa);
    if (file < 0) {
        unlink(*made);
        free(*made);
        *made = NULL;
        return h5file_fail(err, errlen, "cannot create %s", path);
    }
    return file;
}

/* Makes made the file at path unless path exists by then (a message with what to do about it,
 * exists); made is removed either way. */
static int publish(const char *made, const char *path, const char *exists, char *err, size_t errlen)
{
    int rc = link(made, path);
    /* a file system without hard links: rename, which would replace a file made meanwhile */
    if (rc != 0 && errno != EEXIST && access(path, F_OK) != 0)
        rc = rename(made, path);
    int e = errno;
    unlink(made);
    if (rc != 0 && e == EEXIST)
        return h5file_fail(err, errlen, "%s already exists: %s", path, exists);
    if (rc != 0)
        return h5file_fail(err, errlen, "cannot create %s: %s", path, strerror(e));
    sync_dir(path);
    return 0;
}

int h5file_settle_new(char *made, const char *path, bool ready, bool replace, const char *exists,
                      char *err, size_t errlen)
{
    int rc = -1;
    if (!ready)
        unlink(made);
    else
        rc = replace ? h5file_replace_with(made, path, err, errlen)
                     : publish(made, path, exists, err, errlen);
    free(made);
    return rc;
}

int h5file_flush(hid_t file, const char *path, char *err, size_t errlen)
{
    if (H5Fflush(file, H5F_SCOPE_GLOBAL) < 0)
        return h5file_fail(err, errlen, "cannot write %s", path);
    void *handle = NULL;
    /* H5Fflush hands the data to the kernel; fsync makes it survive the node. */
    if (H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) >= 0 && handle &&
        fsync(*(int *)handle) != 0 && errno != EINVAL && errno != EROFS)
        return h5file_fail(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return 0;
}
