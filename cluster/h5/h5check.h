/* SPDX-License-Identifier: MIT */
/* What Carrera checks before it trusts a result file (docs/result-files.md): that it is one of
 * the kind and layout this build reads, and that the tables it reads are stored as Carrera
 * stores them. HDF5 1.10 trusts what a file says about its own structures (a row type, the size
 * of a chunk) and a damaged one made it copy past its buffers; these checks come first. Internal
 * to h5/. */
#ifndef CARRERA_H5CHECK_H
#define CARRERA_H5CHECK_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a kind of result file is, for h5check_open. */
typedef struct H5CheckKind {
    const char *format; /* the root attribute "format": "carrera-match" */
    const char *group;  /* its top group ("match"): a file of layout 1, whose "format" this
                           build cannot read, is known by it and its format_version */
    int version;        /* the layout this build reads */
    const char *name;   /* in messages: "match checkpoint" ("... is not a Carrera match
                           checkpoint") */
    const char *todo;   /* what to do with a file of another layout: "finish it" (with the
                           Carrera that wrote it) */
} H5CheckKind;

/* Opens the file at path read-only after checking that it is a regular file, HDF5, of root
 * attribute format = kind->format and format_version = kind->version ("... was written in layout
 * 1 of carrera-match files; this Carrera reads layout 2: finish it with the Carrera that wrote
 * it"). A file another process holds locked (a job writing it, or one still ending) is waited
 * for up to lock_wait seconds, then refused as in use, not as damaged. Returns the file, or -1
 * with a message. */
hid_t h5check_open(const char *path, const H5CheckKind *kind, double lock_wait, char *err,
                   size_t errlen);

/* Whether the dataset d is stored as Carrera stores rows of memory type mt (packed), member for
 * member: HDF5 converts rows by the row type the file gives, offsets and sizes trusted. Checked
 * before rows are read. */
bool h5check_stored_as(hid_t d, hid_t mt);

/* Whether the chunks of the one-dimensional dataset d that hold elements [start, start+n) are
 * stored as Carrera stores them: the dataset chunked and unfiltered, each chunk in the index whole.
 * HDF5 trusts the size a chunk index gives a chunk, and reads one whose size was damaged into a
 * buffer of that size and then copies a whole chunk out of it (found by tests/fuzz/h5.c).
 * Checked before the elements are read. */
bool h5check_chunks_whole(hid_t d, uint64_t start, uint64_t n);

/* Whether the one-dimensional dataset d is stored contiguous, unfiltered and whole (its storage
 * the size of its rows), as Carrera stores the tables of a perft file. */
bool h5check_contiguous_whole(hid_t d);

#endif
