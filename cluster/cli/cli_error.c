/* SPDX-License-Identifier: MIT */
/* Usage errors of the command line, in the one format of every error (run_error.h). */
#include "cli_error.h"

int cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int status = run_verror(EXIT_USAGE, fmt, ap);
    va_end(ap);
    return status;
}
