/* SPDX-License-Identifier: MIT */
/* Whole decimal numbers (number.h). */
#include "number.h"

bool number_parse(const char *text, long min, long max, long *out)
{
    long v = 0;
    const char *c = text;
    for (; *c >= '0' && *c <= '9'; c++) {
        v = v * 10 + (*c - '0');
        if (v > max)
            return false;
    }
    if (*c != '\0' || c == text || v < min)
        return false;
    *out = v;
    return true;
}
