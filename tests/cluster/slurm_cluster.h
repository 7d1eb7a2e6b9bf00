/* SPDX-License-Identifier: MIT */
/* A one-node Slurm cluster on this machine for the batch-script tests: munged, slurmctld and
 * slurmd started by the test as its own processes, on ports and in a scratch directory of their
 * own, and stopped by process id (also when the test fails; and killed with the test process if
 * it dies first). Jobs are submitted with sbatch and followed with scontrol. */
#ifndef CARRERA_TEST_SLURM_CLUSTER_H
#define CARRERA_TEST_SLURM_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>

/* Why this machine cannot run the daemons (not root: slurmd starts jobs as their users), or NULL
 * when it can. */
const char *slurm_cluster_unavailable(void);

/* Starts the cluster under dir (which must exist): one node, this machine as slurmd sees it.
 * Returns 0, or -1 with a message in err (the daemons' logs are under dir). */
int slurm_cluster_start(const char *dir, char *err, size_t errlen);

/* Cancels every job, waits for them to end and stops the daemons the start started, by process
 * id. Safe to call when the start failed half way, or twice. */
void slurm_cluster_stop(void);

/* A job (or one task of a job array) as scontrol shows it. */
typedef struct SlurmJob {
    int task;       /* ArrayTaskId, or -1 */
    char state[32]; /* JobState: COMPLETED, FAILED, TIMEOUT, ... */
    int restarts;   /* Restarts: how many times the job was requeued */
    int exit_code;  /* the script's exit status (ExitCode=S:sig) */
    int signal;     /* the signal that ended it, or 0 */
} SlurmJob;

/* Submits `sbatch --parsable ARGS...` (args NULL-terminated) and returns the job id, or fails
 * the running test. */
long slurm_submit(const char *const *args);

/* Waits until the job, or every task of the job array, has ended for good (a requeued job has
 * not), at most timeout seconds (then fails the test), and fills tasks with up to max of them.
 * Returns how many there are. */
int slurm_wait(long id, int timeout, SlurmJob *tasks, int max);

#endif
