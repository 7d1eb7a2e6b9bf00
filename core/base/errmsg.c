/* SPDX-License-Identifier: MIT */
/* Error messages into the caller's buffer (errmsg.h). */
#include "errmsg.h"

#include <stdarg.h>
#include <stdio.h>

static void format(char *err, size_t errlen, const char *fmt, va_list ap)
{
    if (err && errlen > 0)
        vsnprintf(err, errlen, fmt, ap);
}

void errmsg_set(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    format(err, errlen, fmt, ap);
    va_end(ap);
}

int errmsg_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    format(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}
