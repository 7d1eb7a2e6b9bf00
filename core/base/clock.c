/* SPDX-License-Identifier: MIT */
/* The monotonic clock (clock.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "clock.h"

#include <time.h>

static struct timespec read_clock(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t;
}

double monotonic_seconds(void)
{
    struct timespec t = read_clock();
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int64_t monotonic_ms(void)
{
    struct timespec t = read_clock();
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}
