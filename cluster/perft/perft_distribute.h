/* SPDX-License-Identifier: MIT */
/* The units of a perft job counted over every rank (mpi/farm.h): rank 0 hands them out, largest
 * first (with own tables only, a rank's next unit lies below the root turn of its last while
 * there are any), and counts units itself on a thread of its own meanwhile; every count is
 * recorded in the result file as it arrives. */
#ifndef CARRERA_PERFT_DISTRIBUTE_H
#define CARRERA_PERFT_DISTRIBUTE_H

#include <stdbool.h>
#include <stddef.h>

#include "farm.h"
#include "perft_file.h"
#include "split.h"
#include "unit_counter.h"

/* Counts every unit of split not yet done (nodes == UNIT_NOT_DONE) on every rank's counter
 * (every rank calls this; split and h are rank 0's, NULL elsewhere; shared_table: whether the
 * counters' tables have the job's shared table as their second level), recording each into h as it
 * arrives (perft_file_record_unit; the checkpoint flush follows h's interval). Progress on stderr
 * unless quiet. Returns 0 with every unit of split done and recorded (stats filled on rank 0);
 * -1 with a message in err (a unit a rank could not count, the file could not be written): the
 * other ranks are then still running, and the caller ends the job with comm_abort. */
int perft_distribute_run(Split *split, PerftFile *h, UnitCounter *counter, bool shared_table,
                         bool quiet, FarmStats *stats, char *err, size_t errlen);

#endif
