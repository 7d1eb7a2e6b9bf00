/* SPDX-License-Identifier: MIT */
/* How a job treats the checkpoint at its output: start it, resume it, or resume it only when it
 * is there (what a batch job that may be requeued runs: docs/cluster.md). */
#ifndef CARRERA_RESUME_H
#define CARRERA_RESUME_H

#include <stdbool.h>

typedef enum ResumeMode {
    RESUME_NEVER,     /* start: the output must not exist */
    RESUME_ALWAYS,    /* --resume: the output must be a checkpoint of the same job */
    RESUME_IF_PRESENT /* --continue: resume the output when it exists, else start */
} ResumeMode;

/* Seconds a resume waits for a checkpoint that another process holds locked: the job that was
 * killed may still be ending. */
#define RESUME_LOCK_WAIT 60

/* Whether the job resumes its output, by mode and whether the output exists. */
static inline bool resume_wanted(ResumeMode mode, bool output_exists)
{
    return mode == RESUME_ALWAYS || (mode == RESUME_IF_PRESENT && output_exists);
}

#endif
