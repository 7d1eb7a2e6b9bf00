/* SPDX-License-Identifier: MIT */
/* A perft job's tables: each rank's own (the unit counter's) and, over several ranks, the shared
 * table of the whole job (mpi/shared_table.h) as its second level, which the counts of a depth
 * at or above a threshold go to. The threshold is the job's setting; or 2 when every rank's part
 * is in shared memory (a shared probe then costs what an own one does); or chosen from two
 * measurements: the time of a probe of another rank's part, and the time of a subtree at each
 * depth; the least depth whose subtree takes many probes' time. What was used is one line of
 * text for the provenance, and what every rank did with its tables is gathered at rank 0. */
#ifndef CARRERA_JOB_TABLES_H
#define CARRERA_JOB_TABLES_H

#include <stddef.h>

#include "perft_run.h"
#include "perft_tt.h"
#include "position.h"
#include "shared_table.h"
#include "unit_counter.h"

typedef struct JobTables {
    SharedTable *shared; /* NULL: no shared table */
    int min_depth;       /* the least depth of a shared count */
    char text[400];      /* what the job's tables are, for the provenance and stderr */
} JobTables;

/* The own table's part of the hash: all of it, or what the shared table leaves. Collective when
 * the job has a shared table (several ranks, a table, no setting against it). */
size_t job_tables_own_bytes(const PerftRun *job, int ranks);

/* Sets up the shared table for counter's table when the job has several ranks, a table and no
 * setting against it (collective; root is the job's root, for the measurement of a subtree's
 * time). A shared table MPI cannot give is no failure: the job runs without it, and the text and
 * a warning on rank 0 say why. */
void job_tables_init(JobTables *t, const PerftRun *job, UnitCounter *counter, const Position *root);

/* Frees the shared table once every rank has stopped counting (collective). */
void job_tables_free(JobTables *t, UnitCounter *counter);

/* Every rank's work with its tables, at rank 0 in all[rank] (all: comm_size() entries, NULL on
 * the other ranks). Collective. */
void job_tables_gather(const UnitCounter *counter, PerftTTWork *all);

/* The work of every rank summed, as a line of stderr: `work: ...`. */
void job_tables_print(const PerftTTWork *all, int ranks);

#endif
