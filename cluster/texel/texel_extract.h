/* SPDX-License-Identifier: MIT */
/* `carrera texel-data` (docs/texel.md): the games of match result files turned into the data
 * file of Texel's method, with the record of how it was made at its head. */
#ifndef CARRERA_TEXEL_EXTRACT_H
#define CARRERA_TEXEL_EXTRACT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct TexelExtractRequest {
    const char *const *paths; /* match result files */
    size_t n_paths;
    const char *out; /* the data file */
    int skip_plies;  /* turns at the start of each game left out */
    bool quiet;      /* no progress */
    const char *command_line;
} TexelExtractRequest;

/* Writes the data file (into a temporary beside it, renamed when complete, so a failed or
 * stopped run leaves no partial file) and prints what it holds on stdout. Returns the exit
 * status: 0, or 2 (a file that cannot be read, a bad game) or 3 (the output cannot be written),
 * after printing the error. */
int texel_extract_run(const TexelExtractRequest *r);

#endif
