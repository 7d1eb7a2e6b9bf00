/* SPDX-License-Identifier: MIT */
/* strtok for ThreadSanitizer builds of the carrera binary. glibc's strtok keeps its position in
 * the string it splits in a static variable of glibc, which TSan does not instrument: two threads
 * calling strtok at once corrupt each other's splitting without TSan seeing a thing. This strtok
 * keeps the position in a variable of ours, read and written by instrumented code, so the same
 * misuse is reported as the data race it is (test_match_external under the tsan preset). The
 * splitting itself is glibc's strtok_r. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */

#include <string.h>

static char *position; /* shared by every caller on purpose: that is strtok's contract */

char *strtok(char *restrict s, const char *restrict delim)
{
    char *at = s ? s : position, *next = NULL;
    char *token = at ? strtok_r(at, delim, &next) : NULL;
    position = next;
    return token;
}
