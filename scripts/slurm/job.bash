# SPDX-License-Identifier: MIT
# What the batch scripts in this directory share (sourced by perft.sbatch, match.sbatch,
# tune.sbatch and perft-array.sbatch from the source tree: CARRERA_SOURCE, by default the
# directory the job was submitted from): the threads of each rank, the time-limit trap's
# requeue, and the job step, run so that the trap can act while it counts. Each script's first
# command is `trap 'carrera_requeue_asked=1' USR1`, so that a signal that comes before this file
# is read is not lost: it is acted on below.

# The threads of each rank: what Slurm gave the task (threads = 0 in a configuration means
# OMP_NUM_THREADS, set here), placed on the task's own cores.
export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}
export OMP_PROC_BIND=close OMP_PLACES=cores
carrera=${CARRERA:-build/carrera}

# The time-limit trap's action: put the job back in the queue, CARRERA_REQUEUE_MARGIN seconds
# (default 15) before the limit. Slurm sends the --signal warning up to a minute before the time
# asked for (it checks limits every 30 s and sends it when due before its next check), so a
# requeue on the signal itself could end every run of a short job before it had counted anything;
# the requeue is deferred to the margin instead. Slurm then ends the running step with SIGTERM,
# on which Carrera writes its checkpoint, and the requeued job runs the script again, which
# continues it. A job that ends before its requeue cancels it.
carrera_requeue_pid=
carrera_requeue() {
    local left secs=0 part margin=${CARRERA_REQUEUE_MARGIN:-15}
    # Slurm's clients wait on the controller: bounded, so that a controller that stopped answering
    # costs the requeue its timing (an unknown time left requeues at once), never the job a hang.
    left=$(timeout 10 squeue -h -j "${SLURM_JOB_ID}" -o %L 2>/dev/null || true)
    # %L is [days-][hours:]minutes:seconds, or UNLIMITED/INVALID (then: requeue at once)
    if [[ $left =~ ^(([0-9]+)-)?([0-9:]+)$ ]]; then
        secs=$((${BASH_REMATCH[2]:-0} * 86400))
        local rest=0 field
        IFS=: read -ra part <<<"${BASH_REMATCH[3]}"
        for field in "${part[@]}"; do
            rest=$((rest * 60 + 10#$field))
        done
        secs=$((secs + rest))
    fi
    # At least a few seconds even when the margin has passed: a step that ends as the signal comes
    # (its processes still exiting) then cancels the requeue instead of being run again for nothing.
    local delay=$((secs - margin))
    [ "$delay" -gt 3 ] || delay=3
    echo "carrera: $(date '+%F %T') time limit near (SIGUSR1, ${left:-unknown} left): job" \
        "${SLURM_JOB_ID:-?} (restart ${SLURM_RESTART_COUNT:-0}) requeues itself in ${delay} s;" \
        "its checkpoint is kept" >&2
    [ -z "$carrera_requeue_pid" ] || return 0
    (
        sleep "$delay"
        echo "carrera: $(date '+%F %T') requeueing job ${SLURM_JOB_ID}" >&2
        timeout 30 scontrol requeue "${SLURM_JOB_ID}" ||
            echo "carrera: scontrol requeue failed: submit the same command again (or a chain" \
                "with --dependency=afterany:${SLURM_JOB_ID}); the checkpoint is kept" >&2
    ) &
    carrera_requeue_pid=$!
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
    if [ -n "$carrera_requeue_pid" ]; then
        kill "$carrera_requeue_pid" 2>/dev/null || true
    fi
    return "$status"
}

trap carrera_requeue USR1
if [ -n "${carrera_requeue_asked:-}" ]; then
    carrera_requeue
fi
