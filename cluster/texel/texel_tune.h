/* SPDX-License-Identifier: MIT */
/* `carrera texel-fit` (docs/texel.md): the evaluation's parameters fitted to a Texel data file
 * (texel_file.h) by the fit of core/stats/texel_fit.h, on the evaluation linearised about the
 * start (core/engine/eval_linear.h), then checked with the evaluation itself; written as an
 * [eval] file that `carrera uci --eval`, `carrera bench --eval` and match files read. */
#ifndef CARRERA_TEXEL_TUNE_H
#define CARRERA_TEXEL_TUNE_H

#include <stdbool.h>
#include <stdint.h>

#include "eval.h"

typedef struct TexelTuneRequest {
    const char *data;      /* the data file */
    const char *out;       /* the [eval] file written */
    const char *eval_file; /* the start (NULL: the defaults) */
    EvalParams start;      /* read from eval_file by the front end */
    const bool *fit;       /* [eval_param_list order]: the parameters fitted */
    int iterations, patience;
    double rate;
    int valid_percent; /* of the pairs of games, held out */
    uint64_t seed;     /* of the split */
    bool quiet;
    const char *command_line;
} TexelTuneRequest;

/* Fits, prints the errors before and after and the parameters that moved on stdout, and writes
 * r->out (complete or not at all). Returns the exit status: 0, 2 (a data file that cannot be
 * read, no positions to fit) or 3 (out of memory, the output cannot be written), after printing
 * the error. */
int texel_tune_run(const TexelTuneRequest *r);

#endif
