/* SPDX-License-Identifier: MIT */
/* Files in tests: whole files written and read back, and a message check. Each fails the running
 * cmocka test on any error. */
#ifndef CARRERA_TEST_FILES_H
#define CARRERA_TEST_FILES_H

#include <stddef.h>

/* Writes n bytes of data to path, replacing it. */
void write_bytes(const char *path, const void *data, size_t n);

/* The whole file at path, with a NUL after it (so text can be read as a string); *n (may be
 * NULL) receives its size. Free it. */
void *read_bytes(const char *path, size_t *n);

/* Fails unless text contains part. */
void assert_contains(const char *text, const char *part);

/* A scratch directory for a test program's files, made by scratch_setup (a cmocka group
 * set-up) under /tmp and removed with everything in it by scratch_teardown. */
extern char scratch_dir[];
int scratch_setup(void **state);
int scratch_teardown(void **state);

#endif
