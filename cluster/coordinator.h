/* Rank 0 of a distributed perft: hands the work units out, largest first, to the workers as they
 * ask (each holds up to two, so it never waits for its next one), counts units itself on a
 * second thread meanwhile, and records every count in the result file as it arrives. */
#ifndef CARRERA_COORDINATOR_H
#define CARRERA_COORDINATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "h5out.h"
#include "worker.h"
#include "workunit.h"

typedef struct CoordinatorStats {
    size_t units;         /* units counted by this run (the others were in the checkpoint) */
    size_t units_local;   /* of those, counted by rank 0 itself */
    double seconds;       /* wall time of the whole distribution */
    double local_seconds; /* time rank 0's counting thread spent counting */
} CoordinatorStats;

/* Counts every unit of split not yet done (nodes == UNIT_NOT_DONE), on the workers (ranks 1 to
 * comm_size() - 1) and on counter, recording each into h as it arrives (h5_record_unit; the
 * checkpoint flush follows h's interval). Sends every worker the stop message when all are done.
 * Progress on stderr unless quiet. Returns 0 with every unit of split done and recorded; -1
 * with a message in err (a unit a worker could not count, the file could not be written): the
 * workers are then still running, and the caller ends the job with comm_abort. */
int coordinator_run(Split *split, H5Result *h, UnitCounter *counter, bool quiet,
                    CoordinatorStats *stats, char *err, size_t errlen);

#endif
