/* SPDX-License-Identifier: MIT */
/* The tables of a perft result file (docs/result-files.md) as they are in memory, their HDF5
 * types and their datasets: /perft/units, /perft/root_turns, /perft/divide, /perft/stats,
 * /perft/work. Every
 * text in them is a fixed-length, NUL-terminated string. Internal to h5/. */
#ifndef CARRERA_PERFT_ROWS_H
#define CARRERA_PERFT_ROWS_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

#include "turn.h"
#include "types.h"

/* What marks a perft result file, in the root attribute "format". */
#define PERFT_ROWS_FORMAT "carrera-perft"

/* Rows read or written per HDF5 call when moving the units table: bounded memory. */
#define PERFT_ROWS_BATCH 1024

/* Rows as they are in memory; the file holds the same columns packed. */

typedef struct UnitRow {
    uint64_t id;
    uint32_t root;
    int32_t depth;
    uint64_t multiplicity;
    char fen[FEN_MAX];
    uint64_t nodes;
    int32_t rank;
    double seconds;
    int32_t run; /* 0 for the first run, k for the k-th resume */
} UnitRow;

/* The columns a finished unit sets: HDF5 writes just these members of the row. */
typedef struct DoneRow {
    uint64_t nodes;
    int32_t rank;
    double seconds;
    int32_t run;
} DoneRow;

typedef struct TurnRow {
    char turn[TURN_TEXT_MAX];
    int32_t movements;
    uint32_t move1, move2; /* Carrera's move encoding (core/base/types.h), for resume */
} TurnRow;

typedef struct DivideRow {
    char move[TURN_TEXT_MAX];
    uint64_t nodes;
} DivideRow;

typedef struct StatsRow {
    int32_t depth;
    uint64_t nodes, captures, en_passant, castles, promotions;
    uint64_t checks, discovered_checks, double_checks, checkmates;
    uint64_t one_movement, two_movement;
} StatsRow;

/* What one rank did with its tables in the run that completed the job (perft_tt.h's
 * PerftTTWork). */
typedef struct WorkRow {
    int32_t rank, run;
    uint64_t probes, hits, shared_probes, shared_hits, shared_stores, shared_remote, shared_bytes;
} WorkRow;

/* The memory types of the rows (close them with H5Tclose), or -1. */
hid_t perft_rows_unit_type(void);
hid_t perft_rows_done_type(void);
hid_t perft_rows_turn_type(void);
hid_t perft_rows_divide_type(void);
hid_t perft_rows_stats_type(void);
hid_t perft_rows_work_type(void);

/* A one-dimensional dataset name in loc of n rows of memory type mt (one there is replaced),
 * stored packed, contiguous and allocated now: recording a unit then rewrites bytes in place and
 * changes no metadata (perft_file.c). Returns the dataset or -1. */
hid_t perft_rows_create_table(hid_t loc, const char *name, hid_t mt, size_t n);

/* Such a dataset holding the n rows. Returns 0 or -1. */
int perft_rows_write_table(hid_t loc, const char *name, hid_t mt, size_t n, const void *rows);

#endif
