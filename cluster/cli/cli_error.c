/* SPDX-License-Identifier: MIT */
/* Usage errors of the command line, in one format for every command. */
#include "cli_error.h"

#include <stdarg.h>
#include <stdio.h>

int cli_error(const char *fmt, ...)
{
    va_list ap;
    fputs("carrera: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return EXIT_USAGE;
}
