/* SPDX-License-Identifier: MIT */
/* The positions `carrera verify` checks, from its three sources: EPD perft suites, seeded
 * random play (random_position.h) and the variant's start arrays. Each position remembers its
 * source, so that the summary can be given per source. */
#ifndef CARRERA_VERIFY_SOURCES_H
#define CARRERA_VERIFY_SOURCES_H

#include <stddef.h>
#include <stdint.h>

#include "rules.h"
#include "setup.h"

/* Deepest count a suite line may give (;D1 to ;D30). */
#define SUITE_MAX_DEPTH 30

typedef struct VerifyPosition {
    int source;     /* index into the sources' labels */
    char name[128]; /* "random 17", "chess960 518", a suite line's id or FILE:LINE */
    Setup setup;
    char fen[FEN_MAX];
    /* From a suite: given[d] for d = 1..given_max, 0 where not given. */
    int given_max;
    uint64_t given[SUITE_MAX_DEPTH + 1];
} VerifyPosition;

#define SOURCE_LABEL_MAX 160

typedef struct VerifyPositions {
    VerifyPosition *v;
    size_t n, cap;
    char (*labels)[SOURCE_LABEL_MAX]; /* per source: "random (seed 1)", "starts", a file */
    int n_sources;
    size_t skipped; /* suite lines whose `;V` names another variant */
} VerifyPositions;

/* Each appends the positions of one source under the variant v and the rules r (a suite's lines
 * for another variant, by their `;V NAME` field, are skipped and counted); returns 0, or
 * -1 with a message in err (a suite that cannot be read, a line that is not FEN and counts,
 * memory). */
int sources_add_suite(VerifyPositions *ps, const char *path, const Variant *v, const Rules *r,
                      char *err, size_t errlen);
int sources_add_random(VerifyPositions *ps, long n, uint64_t seed, const Variant *v, const Rules *r,
                       char *err, size_t errlen);
/* chess960: the 960 arrays; caparandom: 960 random arrays from seed, each once; any other
 * variant: its start position. */
int sources_add_starts(VerifyPositions *ps, uint64_t seed, const Variant *v, char *err,
                       size_t errlen);

void sources_free(VerifyPositions *ps);

#endif
