/* SPDX-License-Identifier: MIT */
/* `carrera texel-label` (docs/texel.md): a data file's positions labelled again by an external
 * UCI engine's search instead of (or besides) their games' results. A game's result labels every
 * position of the game alike, and between players of unequal strength it says more about who
 * played a position than about what it is worth; a stronger engine's search score, turned into
 * White's expectation, labels each position by itself. */
#ifndef CARRERA_TEXEL_LABEL_H
#define CARRERA_TEXEL_LABEL_H

#include <stdbool.h>

typedef struct TexelLabelRequest {
    const char *data;    /* the data file read (carrera texel-data's or texel-label's) */
    const char *out;     /* the data file written */
    const char *command; /* the engine's command line (split at white space, no shell) */
    const char *go;      /* what the engine is asked for each position: "nodes 5000" */
    int jobs;            /* engines searching at once */
    int hash_mb;         /* the engine's Hash, 0: its default */
    double scale;        /* centipawns that make a 10:1 expectation (400: an Elo's 400) */
    double weight;       /* the game's result's share of the label, 0 to 1 */
    bool quiet;          /* no progress */
    const char *command_line;
} TexelLabelRequest;

/* Labels every position of r->data by the engine's score of a search of it (from a new game,
 * so that the label does not depend on the order or the jobs): White's expectation
 * 1 / (1 + 10^(-score / scale)), 1 or 0 for a mate, mixed with the game's result as
 * weight * result + (1 - weight) * expectation. Writes r->out (into a temporary beside it, renamed
 * when complete) headed by the source's record and this run's, and prints the record on stdout.
 * Returns the exit status: 0, 2 (a data file that cannot be read, an engine that cannot start,
 * play the variant or answer) or 3 (out of memory, the output cannot be written), after printing
 * the error. */
int texel_label_run(const TexelLabelRequest *r);

#endif
