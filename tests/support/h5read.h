/* SPDX-License-Identifier: MIT */
/* Carrera's result files read back in tests with the plain HDF5 API, as docs/result-files.md
 * describes them: texts are fixed-length strings sized to the text, the moves of /match/games are
 * bytes of /match/moves at each row's moves_offset and moves_length, and no file has a global
 * heap. Each fails the running cmocka test when the file is not so. */
#ifndef CARRERA_TEST_H5READ_H
#define CARRERA_TEST_H5READ_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

/* The scalar string attribute name of loc into out (cut to len): it must be a fixed-length,
 * NUL-terminated string of exactly its text's size plus the NUL. */
void h5read_str(hid_t loc, const char *name, char *out, size_t len);

/* The scalar integer attribute name of the object obj (a path from loc, "." for loc itself),
 * read as uint64. */
uint64_t h5read_u64(hid_t loc, const char *obj, const char *name);

/* The one-dimensional string attribute name of loc: *n strings, malloc'd (h5read_strs_free). */
char **h5read_strs(hid_t loc, const char *name, size_t *n);
void h5read_strs_free(char **v, size_t n);

/* The moves of row of /match/games in the open file f, malloc'd. */
char *h5read_moves(hid_t f, uint64_t row);

/* Replaces the moves of row of /match/games in the file at path by text, as Carrera would have
 * written them: /match/moves rewritten and every row's moves_offset moved accordingly. */
void h5read_set_moves(const char *path, uint64_t row, const char *text);

/* Fails if the file at path holds a global heap collection (its signature "GCOL"): Carrera
 * writes none. */
void h5read_no_global_heap(const char *path);

#endif
