/* SPDX-License-Identifier: MIT */
/* Error and warning lines on stderr (run_error.h). */
#define _POSIX_C_SOURCE 200809L

#include "run_error.h"

#include <stdio.h>

/* Room for a message that quotes a path, a FEN and another message. */
#define LINE_MAX_LEN 4096

/* Writes `carrera: KIND: MESSAGE` and a newline. The ranks of a job share one stderr, which is
 * unbuffered: the line goes out in one write when it fits the buffer, so that two ranks failing
 * at once do not interleave their words. */
static void say(const char *kind, const char *fmt, va_list ap)
{
    char line[LINE_MAX_LEN];
    int head = snprintf(line, sizeof line, "carrera: %s: ", kind);
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(line + head, sizeof line - (size_t)head - 1, fmt, copy);
    va_end(copy);
    flockfile(stderr);
    if (n >= 0 && (size_t)(head + n) < sizeof line - 1) {
        line[head + n] = '\n';
        fwrite(line, 1, (size_t)(head + n) + 1, stderr);
    } else {
        fprintf(stderr, "carrera: %s: ", kind);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
    }
    funlockfile(stderr);
}

int run_verror(int status, const char *fmt, va_list ap)
{
    say("error", fmt, ap);
    return status;
}

int run_error(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    run_verror(status, fmt, ap);
    va_end(ap);
    return status;
}

void run_warning(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say("warning", fmt, ap);
    va_end(ap);
}
