/* SPDX-License-Identifier: MIT */
/* A match's pairs played over every rank and thread (mpi/farm.h): rank 0's stage runner hands
 * the pairs out and records them as they finish; every thread of every rank, rank 0's included,
 * plays one pair at a time with two players of its own and holds the next pair already. Without
 * MPI the same code plays on this process's threads alone. */
#ifndef CARRERA_MATCH_DISTRIBUTE_H
#define CARRERA_MATCH_DISTRIBUTE_H

#include "farm.h"
#include "stage_runner.h"

/* Plays the pairs of run on every rank (each rank calls this; on ranks other than 0 only run's
 * cfg, openings and threads are used), until the stage runner has none left, with the farm's
 * figures in stats on rank 0 (may be NULL). Errors of a pair (a player that cannot start, a
 * malformed result) are kept in run->error and stop the run. Returns 0, or -1 with a message
 * when the distribution itself failed: the job must then be ended with comm_abort. */
int match_distribute_run(StageRunner *run, FarmStats *stats, char *err, size_t errlen);

#endif
