/* SPDX-License-Identifier: MIT */
/* Error messages of the core: every function that can refuse its input writes why into a buffer
 * the caller owns (err, errlen), never to a stream, so the command line, the UCI loop and the
 * tests each show it their own way. */
#ifndef CARRERA_ERRMSG_H
#define CARRERA_ERRMSG_H

#include <stddef.h>

/* The size of every error buffer: room for a message that quotes another (a file, line and key
 * in front of what the value's parser said). */
#define ERRMSG_LEN 1024

/* Formats the message into err (nothing when err is NULL or errlen 0). */
void errmsg_set(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The same, returning -1: `return errmsg_fail(err, errlen, "...")`. */
int errmsg_fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
