/* SPDX-License-Identifier: MIT */
/* The open perft result file as perft_file.c keeps it, shared with the files that do a part of
 * its work: the resume's checks and reading (perft_resume.c) and the results
 * (perft_results.c). Internal to h5/. */
#ifndef CARRERA_PERFT_FILE_IMPL_H
#define CARRERA_PERFT_FILE_IMPL_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perft_file.h"
#include "perft_rows.h"
#include "result_file.h"
#include "variant.h"

typedef struct IdRow {
    uint64_t id;
    size_t row;
} IdRow;

struct PerftFile {
    ResultFile rf;     /* the file, its names and runs */
    hid_t units;       /* /perft/units */
    hid_t units_space; /* its dataspace, for selecting one row */
    hid_t one_space;   /* a dataspace of one element */
    hid_t done_type;   /* memory type of DoneRow */
    hid_t one_xfer;    /* transfer list for one row: small conversion buffers */
    const Variant *variant;
    size_t n_units;
    IdRow *index;    /* (id, row) sorted by id */
    uint64_t *nodes; /* per row, what the file holds: UNIT_NOT_DONE or the count */
    double interval; /* seconds a recorded unit may stay unflushed */
    WorkRow *work;   /* per rank, for /perft/work when the job completes; NULL: none */
    size_t n_work;
    bool dirty; /* units recorded since the last flush */
    double dirty_since;
};

/* The row of unit id, or -1. */
long long perft_file_row_of(const PerftFile *h, uint64_t id);

/* Sorts h's index and checks that the ids are distinct. Returns 0, or -1 with a message. */
int perft_file_index_ready(PerftFile *h, char *err, size_t errlen);

/* Compares the job of the checkpoint open in file with the job expected (the Carrera that wrote
 * it aside: result_file.c compares that): diffs receives every difference. Returns 0, or -1 when
 * the job's parameters are missing. */
int perft_resume_compare(hid_t file, const PerftFileInfo *expected, char *diffs, size_t len);

/* Reads /perft/root_turns and /perft/units of h->rf.file into split and h (index, nodes).
 * Returns 0, or -1 with a message. */
int perft_resume_read_split(PerftFile *h, Split *split, char *err, size_t errlen);

/* Sums the split into *total and divide (per root turn), checking it against what h holds.
 * Returns 0, or -1 with a message. */
int perft_results_sum(const PerftFile *h, const Split *split, uint64_t *divide, uint64_t *total,
                      char *err, size_t errlen);

/* Writes the results into h->rf.file: /perft/divide, /perft/stats (stats[0..n_stats) when
 * stats), /perft/work (when h has it) and the total on /perft. Returns 0 or -1. */
int perft_results_write(PerftFile *h, const Split *split, const uint64_t *divide,
                        const PerftStats *stats, int n_stats, uint64_t total);

#endif
