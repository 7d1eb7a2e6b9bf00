# SPDX-License-Identifier: MIT
# What the batch scripts in this directory share (sourced by perft.sbatch, match.sbatch,
# tune.sbatch and perft-array.sbatch, which install the time-limit trap before they source it):
# the threads of each rank, the check of the configuration before the allocation is spent, and
# the job step, run so that the trap can act while it counts.

# The threads of each rank: what Slurm gave the task (threads = 0 in a configuration means
# OMP_NUM_THREADS, set here), placed on the task's own cores.
export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}
export OMP_PROC_BIND=close OMP_PLACES=cores
carrera=${CARRERA:-build/carrera}

# The time-limit trap's action (the scripts install `trap carrera_requeue USR1` first thing):
# put the job back in the queue. Slurm ends the running job at once; the result file is a
# checkpoint at every moment, and the requeued job runs the script again, which continues it.
carrera_requeue() {
    echo "carrera: $(date '+%F %T') time limit near (SIGUSR1): requeueing job" \
        "${SLURM_JOB_ID:-?} (restart ${SLURM_RESTART_COUNT:-0}); its checkpoint is kept" >&2
    scontrol requeue "${SLURM_JOB_ID}" ||
        echo "carrera: scontrol requeue failed: submit the same command again" \
            "(or a chain with --dependency=afterany:${SLURM_JOB_ID}); the checkpoint is kept" >&2
}

# carrera_step ARGS...: `carrera ARGS` as the job step on every task. srun -c gives each task its
# cores (Slurm 22.05 and later no longer pass --cpus-per-task on to srun); --mpi=pmix lets Open
# MPI see the tasks as one job. The step runs in the background so that the trap runs as soon as
# the signal comes; the script's status is the step's.
carrera_step() {
    echo "carrera: $(date '+%F %T') job ${SLURM_JOB_ID:-?} restart ${SLURM_RESTART_COUNT:-0}:" \
        "carrera $*" >&2
    srun --mpi=pmix -c "${SLURM_CPUS_PER_TASK:-1}" --cpu-bind=cores "$carrera" "$@" &
    local step=$! status
    set +e
    wait "$step"
    status=$?
    # A signal ends a wait early (after the trap has run): wait for the step itself.
    while kill -0 "$step" 2>/dev/null; do
        wait "$step"
        status=$?
    done
    set -e
    return "$status"
}
