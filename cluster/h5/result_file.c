/* SPDX-License-Identifier: MIT */
/* The life of a result file (result_file.h). Why each step is made as it is: HDF5 keeps no
 * journal, so a change to a file's structure cut short by a kill or a full disk can leave it
 * unreadable. A new file is therefore made under a name of its own and appears at its path only
 * once its header is on disk (a job killed in its first moments leaves no half-made file that a
 * resume would refuse and a new start too: found by killing rank 0 as it created the file), and
 * every later change other than a kind's own records (a resume, the results) is made in a copy
 * that then replaces the file (the only record of days of work is never half changed). */
#define _POSIX_C_SOURCE 200809L

#include "result_file.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "h5file.h"

int result_file_init(ResultFile *r, const ResultKind *kind, void *owner, const char *path)
{
    *r = (ResultFile){ .kind = kind, .owner = owner, .file = H5I_INVALID_HID };
    r->path = strdup(path);
    r->tmp = h5file_copy_name(path);
    return r->path && r->tmp ? 0 : -1;
}

/* Closes the kind's records and the file. Returns -1 when HDF5 could not write what it still
 * held. */
static int close_file(ResultFile *r)
{
    if (r->kind->close_records)
        r->kind->close_records(r->owner);
    int rc = r->file >= 0 ? H5Fclose(r->file) : 0;
    r->file = H5I_INVALID_HID;
    return rc < 0 ? -1 : 0;
}

void result_file_free(ResultFile *r)
{
    close_file(r);
    free(r->path);
    free(r->tmp);
    r->path = r->tmp = NULL;
}

static int open_records(ResultFile *r)
{
    return r->kind->open_records ? r->kind->open_records(r->owner) : 0;
}

int result_file_flush(ResultFile *r, char *err, size_t errlen)
{
    return h5file_flush(r->file, r->path, err, errlen);
}

int result_file_close(ResultFile *r, char *err, size_t errlen)
{
    int rc = result_file_flush(r, err, errlen);
    if (close_file(r) < 0 && rc == 0)
        rc = h5file_fail(err, errlen, "cannot close %s", r->path);
    return rc;
}

/* Closes the file, complete on disk, and opens a copy of it at r->tmp for writing. Returns 0, or
 * -1 with a message (no copy left behind). */
static int reopen_as_copy(ResultFile *r, char *err, size_t errlen)
{
    if (close_file(r) < 0)
        return h5file_fail(err, errlen, "cannot close %s", r->path);
    r->file = h5file_open_copy(r->path, r->tmp, err, errlen);
    return r->file < 0 ? -1 : 0;
}

/* ---- creating ---- */

/* What every file says of itself on its root: its kind and layout, and how the run that made it
 * was built and started. */
static int put_root(ResultFile *r, const Provenance *prov)
{
    const ResultKind *k = r->kind;
    if (h5file_put_str(r->file, "format", k->check.format) < 0 ||
        h5file_put_i32(r->file, "format_version", k->check.version) < 0 ||
        h5file_put_provenance(r->file, prov) < 0 ||
        (!k->once && h5file_put_i32(r->file, "resumed", 0) < 0))
        return -1;
    return 0;
}

int result_file_create(ResultFile *r, const Provenance *prov, bool overwrite, ResultHeader header,
                       void *ctx, char *err, size_t errlen)
{
    const ResultKind *k = r->kind;
    const char *exists = k->once ? k->once : "resume it, or remove it to start again";
    struct stat st;
    if (!overwrite && stat(r->path, &st) == 0)
        return h5file_fail(err, errlen, "%s already exists: %s", r->path, exists);
    /* Publishing refuses an existing file even after the check above (two jobs given the same
     * file); a replacement is renamed over the old file, so a failure leaves the old one. */
    char *made = NULL;
    r->file = h5file_create_new(r->path, &made, err, errlen);
    if (r->file < 0)
        return -1;
    int rc = 0;
    if (put_root(r, prov) < 0)
        rc = h5file_fail(err, errlen, "cannot write the provenance to %s", r->path);
    if (rc == 0)
        rc = header(ctx, err, errlen);
    if (rc == 0 && open_records(r) < 0)
        rc = h5file_fail(err, errlen, "cannot reopen the %ss of %s", k->words.kept, r->path);
    if (rc == 0)
        rc = result_file_flush(r, err, errlen);
    rc = h5file_settle_new(made, r->path, rc == 0, overwrite, exists, err, errlen);
    if (rc != 0)
        close_file(r);
    return rc;
}

/* ---- resuming ---- */

/* Compares the job of the checkpoint open in r->file with this one's: the Carrera that wrote it
 * (a count or a game must come from one program), then the kind's facts. */
static int check_job(ResultFile *r, const ResultResume *how, void *ctx, char *err, size_t errlen)
{
    char have[256], diffs[1024] = "";
    bool missing = h5file_get_str(r->file, "carrera_version", have, sizeof have) < 0;
    if (!missing && strcmp(have, how->prov->version) != 0)
        h5file_add_diff(diffs, sizeof diffs,
                        "the checkpoint was written by Carrera %s, this is Carrera %s", have,
                        how->prov->version);
    if (missing || how->compare(ctx, r->file, diffs, sizeof diffs) < 0)
        return h5file_fail(err, errlen, "%s: damaged checkpoint (%s are missing)", r->path,
                           r->kind->words.facts);
    if (diffs[0])
        return h5file_fail(err, errlen, "%s: %s", r->path, diffs);
    return 0;
}

int result_file_resume(ResultFile *r, const ResultResume *how, void *ctx, char *err, size_t errlen)
{
    r->file = h5check_open(r->path, &r->kind->check, how->lock_wait, err, errlen);
    if (r->file < 0)
        return -1;
    uint64_t done = 0;
    int rc = check_job(r, how, ctx, err, errlen);
    if (rc == 0)
        rc = how->read(ctx, &done, err, errlen);
    /* The checkpoint is good: the resume is recorded in a copy that then replaces it. */
    if (rc != 0 || reopen_as_copy(r, err, errlen) < 0) {
        close_file(r);
        return -1;
    }
    if (open_records(r) < 0 || (how->prepare && how->prepare(ctx) < 0) ||
        h5file_record_resume(r->file, how->prov, how->done_name, done, &r->run) < 0)
        rc = h5file_fail(err, errlen, "cannot record the resume in %s", r->tmp);
    if (rc == 0)
        rc = h5file_flush(r->file, r->tmp, err, errlen);
    if (rc == 0)
        rc = h5file_replace_with(r->tmp, r->path, err, errlen);
    if (rc != 0) {
        close_file(r);
        unlink(r->tmp);
    }
    return rc;
}

/* ---- completing ---- */

int result_file_finish(ResultFile *r, const char *end_time, int (*results)(void *ctx), void *ctx,
                       char *err, size_t errlen)
{
    char now[PROV_TIME_MAX];
    if (!end_time) {
        provenance_now(now);
        end_time = now;
    }
    /* The checkpoint complete on disk, the results are written to a copy that replaces it. */
    if (result_file_flush(r, err, errlen) < 0 || reopen_as_copy(r, err, errlen) < 0) {
        close_file(r);
        return -1;
    }
    int rc = 0;
    if (results(ctx) < 0 || h5file_put_end_time(r->file, r->run, end_time) < 0)
        rc = h5file_fail(err, errlen, "cannot write %s to %s", r->kind->words.results, r->tmp);
    else if (close_file(r) < 0)
        rc = h5file_fail(err, errlen, "cannot write %s", r->tmp);
    if (rc == 0)
        rc = h5file_replace_with(r->tmp, r->path, err, errlen);
    if (rc != 0) {
        close_file(r);
        h5file_drop_copy(r->tmp, r->path, r->kind->words.kept, err, errlen);
    }
    return rc;
}
