/* SPDX-License-Identifier: MIT */
/* The one clock every duration is measured on (search limits, timeouts, rates, progress): the
 * monotonic clock, which a change of the system's date cannot move, so a search, a timeout or a
 * rate is never stretched or cut by it. Its zero is arbitrary: only differences mean anything.
 * Dates (provenance, PGN headers) come from time() instead. */
#ifndef CARRERA_CLOCK_H
#define CARRERA_CLOCK_H

#include <stdint.h>

/* Seconds, for rates and elapsed times. */
double monotonic_seconds(void);

/* Whole milliseconds, for deadlines and time limits compared with integers. */
int64_t monotonic_ms(void);

#endif
