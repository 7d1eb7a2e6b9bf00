/* SPDX-License-Identifier: MIT */
/* The global heap of a Carrera HDF5 file, checked before the HDF5 library reads it.
 *
 * HDF5 1.10 (Debian 12) trusts what a file says about its variable-length strings: a heap
 * collection whose objects overrun it makes the library read past its buffer, a free-space
 * object of size 0 makes it loop for ever, and a string in a dataset row whose length or heap
 * reference is damaged makes it allocate whatever the length says (gigabytes) or read an object
 * that is not there (a segmentation fault). All were found by tests/fuzz/h5.c in checkpoints
 * given to --resume. So a file is mapped and walked here first, as the library would walk it,
 * and refused with a message where it does not add up.
 *
 * Collections are found by their signature and version, anywhere in the file: the structures
 * that say where they are (attribute messages, rows) are what the library trusts. So raw data
 * that happens to spell them (an aligned 64-bit count of exactly 5,574,263,623 does) followed
 * by bytes that do not add up makes a good file refused. That is rare enough to accept: every
 * rule tried for skipping such places by their bytes let damaged collections through (the
 * fuzzer found a collection with changed reserved bytes, which the library ignores). */
#ifndef CARRERA_H5HEAP_H
#define CARRERA_H5HEAP_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

typedef struct H5Heap H5Heap;

/* Maps the file at path and walks every global heap collection in it. Returns the heap, or NULL
 * with a message naming the file as a kind ("match checkpoint") when it cannot be read, is not
 * laid out as Carrera writes its files (superblock at byte 0, 8-byte addresses and lengths) or
 * holds a collection that does not add up. */
H5Heap *h5heap_open(const char *path, const char *kind, char *err, size_t errlen);

void h5heap_close(H5Heap *hp);

/* The first of the rows [0, n) of the one-dimensional dataset d, of the file hp was opened on,
 * with a variable-length string that is not an object of its length in a collection of the
 * heap (or whose storage lies outside the file): HDF5 must not read that row. n when every row
 * is good. -1 when the dataset is not one this check understands (compact or filtered storage,
 * variable-length members other than strings): the caller refuses it. */
int64_t h5heap_first_bad_row(const H5Heap *hp, hid_t d, uint64_t n);

#endif
