/* SPDX-License-Identifier: MIT */
/* Provenance of a result: how it was made (program version and revision, compiler and flags,
 * ranks, threads, hosts, the configuration, when it started), so that a number in a result file
 * can be traced and reproduced. Plain data: the HDF5 writer (result_file.c) stores it. */
#ifndef CARRERA_PROVENANCE_H
#define CARRERA_PROVENANCE_H

#include <stddef.h>
#include <time.h>

/* "2026-11-30T12:34:56Z" and its NUL, with room to spare. */
#define PROV_TIME_MAX 32

typedef struct Provenance {
    const char *version;  /* Carrera's version, "0.1.0" */
    const char *revision; /* git describe of the source tree, "-dirty" for local changes */
    const char *compiler; /* "gcc 12.2.0" */
    const char *build;    /* build type and C flags, "Release: -O3 -DNDEBUG" */
    int ranks;            /* MPI ranks (1 without MPI) */
    int threads_per_rank;
    const char *const *hosts; /* host names, one per rank in rank order; borrowed */
    size_t n_hosts;
    const char *config; /* the whole configuration text (INI file or command line); borrowed */
    char start_time[PROV_TIME_MAX]; /* ISO 8601 UTC */
    const char *tables; /* a perft job's tables, one line (job_tables.h); NULL: not a perft job;
                           borrowed */
} Provenance;

/* Fills p with this build's version, revision, compiler and flags, the given run shape, and the
 * current time as the start time. hosts and config are kept as pointers: they must outlive p. */
void provenance_init(Provenance *p, int ranks, int threads_per_rank, const char *const *hosts,
                     size_t n_hosts, const char *config);

/* Writes t as ISO 8601 UTC with seconds, "2026-11-30T12:34:56Z". */
void provenance_time(time_t t, char out[PROV_TIME_MAX]);

/* The current time, as provenance_time writes it. */
void provenance_now(char out[PROV_TIME_MAX]);

#endif
