/* SPDX-License-Identifier: MIT */
/* The distributed perft job: `carrera perft ... --out FILE` and `carrera perft --config FILE`,
 * under mpiexec or srun on R ranks, or as one process without them. Ties the split (split.h),
 * the result file (perft_file.h) and the units' distribution (perft_distribute.h) together. */
#ifndef CARRERA_PERFT_RUN_H
#define CARRERA_PERFT_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "resume.h"
#include "rules.h"
#include "setup.h"

/* shared_bytes: a quarter of the hash. */
#define PERFT_SHARED_AUTO SIZE_MAX

typedef struct PerftRun {
    Setup setup; /* the root position and its variant */
    Rules rules;
    int depth;
    int split_depth;     /* 0: chosen (split_choose_depth) */
    int threads;         /* per rank; 0: OMP_NUM_THREADS, else every core */
    size_t hash_bytes;   /* per rank; 0: no table */
    bool no_shared;      /* no shared table (job_tables.h) even over several ranks */
    int shared_depth;    /* the least depth of a shared count; 0: measured */
    size_t shared_bytes; /* this rank's part of the shared table, out of hash_bytes;
                            PERFT_SHARED_AUTO: job_tables.c decides */
    uint64_t key_seed;   /* the Zobrist keys' seed (zobrist.h), the same on every rank */
    const char *output;  /* the HDF5 result file */
    double checkpoint_interval;
    ResumeMode resume; /* RESUME_ALWAYS: continue the checkpoint at output (it must exist) */
    bool divide, quiet;
    const char *config_text; /* the configuration for the provenance (file text or command line) */
} PerftRun;

/* Runs the job on every rank (each rank calls this with the same job). Rank 0 prints what
 * `carrera perft` prints on stdout, and the time and result file on stderr. Returns the exit
 * status (exit_status.h): EXIT_OK, EXIT_USAGE (the job cannot start: the output exists without
 * --resume, no checkpoint to resume, a checkpoint of another job, a table larger than the
 * memory), EXIT_FAILED (MPI does not start, a file cannot be written, memory); a failure while
 * counting (a worker, the disk, a stop by a signal) ends the whole job with EXIT_FAILED. */
int perft_run(const PerftRun *job);

/* `carrera perft --config FILE [--resume | --continue] [--divide] [--quiet] [--out FILE]`: the job
 * from the configuration file (out, when not NULL, replaces its output). Returns the exit
 * status. */
int perft_run_config(const char *path, const char *out, ResumeMode resume, bool divide, bool quiet);

#endif
