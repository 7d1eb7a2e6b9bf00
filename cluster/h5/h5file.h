/* SPDX-License-Identifier: MIT */
/* What Carrera's HDF5 result files share (the perft, match and tune files): messages that carry
 * what HDF5 said about a failure, attributes and row types, the provenance of a run, the file
 * access list, flushing to disk, and replacing a file by a completed copy (the order a result
 * file's life takes them in is result_file.h's; what is checked before a file is trusted is in
 * h5check.h). Internal to h5/, the only folder that includes HDF5. Single-threaded: one thread of
 * rank 0 writes result files. */
#ifndef CARRERA_H5FILE_H
#define CARRERA_H5FILE_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "provenance.h"

/* ---- errors ---- */

/* Installs the capture of HDF5's error stack (silencing its printing on stderr) and forgets
 * earlier failures: called on entry to every public function of a result file. */
void h5file_quiet(void);

/* Forgets what HDF5 said about a failure that is expected (a message of one's own follows). */
void h5file_forget(void);

/* Writes the message to err, followed by what HDF5 (or the system under it) said about the
 * failure since h5file_quiet, if anything. Returns -1, for `return h5file_fail(...)`. */
int h5file_fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Appends "; " and a formatted difference to the list in buf (a message naming every way a
 * checkpoint differs from the job that would resume it). */
void h5file_add_diff(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- types ---- */

/* A fixed-length, NUL-terminated string type of size bytes. Every text of a result file is
 * fixed-length: a variable-length one would put a global heap in the file, whose lengths and
 * references HDF5 1.10 trusts when it reads them (a damaged one crashes it or makes it allocate
 * gigabytes), so no file Carrera writes has one. */
hid_t h5file_string_type(size_t size);

typedef struct H5FileMember {
    const char *name;
    size_t offset;
    hid_t type; /* 0: the fixed-length string type given to h5file_compound */
} H5FileMember;

/* A compound memory type of n members; string members use a string type of str_size. Returns
 * the type (close it with H5Tclose) or -1. */
hid_t h5file_compound(size_t size, const H5FileMember *m, int n, size_t str_size);

/* ---- attributes ---- */

/* Each creates (or replaces) a scalar attribute; a string is fixed-length UTF-8 of its own size
 * plus a NUL (h5py reads it as bytes). Return 0 or -1. */
int h5file_put_i32(hid_t loc, const char *name, int32_t v);
int h5file_put_u64(hid_t loc, const char *name, uint64_t v);
int h5file_put_f64(hid_t loc, const char *name, double v);
int h5file_put_str(hid_t loc, const char *name, const char *v);
/* A one-dimensional attribute of n strings, each of the size of the longest plus a NUL. */
int h5file_put_strs(hid_t loc, const char *name, const char *const *v, size_t n);

/* ---- datasets ---- */

/* A dataset of the given shape from memory of mem_type, stored as file_type (H5T_IEEE_F64LE,
 * H5T_STD_I32LE, ...). Returns 0 or -1. */
int h5file_put_array(hid_t loc, const char *name, hid_t file_type, hid_t mem_type, int rank,
                     const hsize_t *dims, const void *data);
/* A one-dimensional dataset of n fixed-length UTF-8 strings, each of the size of the longest
 * plus a NUL. Returns 0 or -1. */
int h5file_put_str_array(hid_t loc, const char *name, const char *const *v, size_t n);

/* Read a scalar attribute: a fixed-length string into out, cut to outlen, an integer. Return 0,
 * or -1 when it is missing, of another class or a variable-length string (layout 1). */
int h5file_get_str(hid_t loc, const char *name, char *out, size_t outlen);
int h5file_get_int(hid_t loc, const char *name, long long *out);
int h5file_get_u64(hid_t loc, const char *name, uint64_t *out);
/* A fixed-length string attribute of any length the file can hold, malloc'd (free it), or NULL
 * when missing or unreadable. */
char *h5file_get_str_alloc(hid_t loc, const char *name);
/* The texts of a one-dimensional fixed-length string attribute (hosts), joined with sep into
 * out (cut to fit); empty when missing or unreadable. */
void h5file_get_strs_joined(hid_t loc, const char *name, const char *sep, char *out, size_t len);

/* The provenance of one run (version, revision, compiler, flags, ranks, threads, hosts,
 * configuration, start time): on the root group for the first run, on /resumes/K for the K-th
 * resume. */
int h5file_put_provenance(hid_t loc, const Provenance *p);

/* Records a resume: increments the root's "resumed" count (*run receives the new value) and
 * writes this run's provenance, with done_name = done (what was already done when it started),
 * to /resumes/K. Returns 0 or -1. */
int h5file_record_resume(hid_t file, const Provenance *prov, const char *done_name, uint64_t done,
                         int *run);

/* Writes end_time on the root and, for a resumed run (run > 0), on /resumes/run. */
int h5file_put_end_time(hid_t file, int run, const char *end_time);

/* ---- rows ---- */

/* Writes (reads) rows [start, start+n) of the one-dimensional dataset d from (into) buf, of
 * memory type mt. Return 0 or -1. */
int h5file_write_rows(hid_t d, hid_t mt, size_t start, size_t n, const void *buf);
int h5file_read_rows(hid_t d, hid_t mt, size_t start, size_t n, void *buf);

/* Number of rows of a one-dimensional dataset, or -1. */
long long h5file_table_rows(hid_t d);

/* ---- files ---- */

/* The file access list of every result file: the layout of HDF5 1.8 (no 1.10 superblock, whose
 * "open for writing" flag would make a killed job's file unreadable without h5clear), objects
 * closed with the file, file locks where the file system has them. Close it with H5Pclose. */
hid_t h5file_file_access(void);

/* Marks the descriptor HDF5 opened for file (its sec2 driver opens without O_CLOEXEC)
 * close-on-exec, so that no program started while the file is open holds it; returns file. */
hid_t h5file_close_on_exec(hid_t file);

/* H5Fflush, then fsync: a flushed record survives the node too. Returns 0, or -1 with a message
 * naming path. */
int h5file_flush(hid_t file, const char *path, char *err, size_t errlen);

/* Every change to a result file other than an append (a resume recorded, the results written)
 * is made in a copy that then replaces it, so that a kill leaves the file as it was or as it
 * became, never half changed. The copy's name: path with ".tmp" added (malloc'd), or NULL. */
char *h5file_copy_name(const char *path);

/* Copies the file at path to tmp (replaced), synced to disk, and opens the copy for writing.
 * Returns the copy, or -1 with a message (no copy left behind). */
hid_t h5file_open_copy(const char *path, const char *tmp, char *err, size_t errlen);

/* Makes tmp, complete and synced, the file at path (rename). Returns 0, or -1 with a message
 * (tmp removed). */
int h5file_replace_with(const char *tmp, const char *path, char *err, size_t errlen);

/* Gives up a copy that could not be completed (closed by the caller): removes tmp and adds to
 * the message in err that path still holds every recorded kept ("unit", "game"). */
void h5file_drop_copy(const char *tmp, const char *path, const char *kept, char *err,
                      size_t errlen);

/* A new result file is written under a name of its own beside path (path.new-PID-K, in *made,
 * malloc'd) and appears at path only once its header is on disk (h5file_settle_new): a job killed
 * while it makes the file leaves nothing at path that a start would refuse and a resume could not
 * read. Returns the file (created with the file access list), or -1 with a message naming path. */
hid_t h5file_create_new(const char *path, char **made, char *err, size_t errlen);

/* The end of making a new file: when its header is written and flushed (ready), made becomes
 * the file at path, replacing one there when replace (h5file_replace_with), else only when path
 * does not exist by then (another job given the same file: a hard link, which unlike rename
 * refuses an existing name; the message says what to do about it, exists); when not ready made
 * is removed. made is freed either way. Returns 0, or -1 (with a message when ready). */
int h5file_settle_new(char *made, const char *path, bool ready, bool replace, const char *exists,
                      char *err, size_t errlen);

#endif
