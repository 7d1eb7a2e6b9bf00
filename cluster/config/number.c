/* SPDX-License-Identifier: MIT */
/* Whole decimal numbers (number.h). */
#include "number.h"

bool number_parse(const char *text, long min, long max, long *out)
{
    long v = 0;
    const char *c = text;
    for (; *c >= '0' && *c <= '9'; c++) {
        /* v * 10 + d > max, tested without computing it: near LONG_MAX it would overflow and
         * could come back below max (99999999999999999999 was taken as a key seed). */
        const int d = *c - '0';
        if (d > max || v > (max - d) / 10)
            return false;
        v = v * 10 + d;
    }
    if (*c != '\0' || c == text || v < min)
        return false;
    *out = v;
    return true;
}
