/* SPDX-License-Identifier: MIT */
/* Provenance of a result: what this build is (version, revision, compiler, flags) and the shape
 * of the run, gathered in one place so every result file records the same facts. */
#define _POSIX_C_SOURCE 200809L

#include "provenance.h"

#include <string.h>

#include "version.h"

void provenance_time(time_t t, char out[PROV_TIME_MAX])
{
    struct tm tm;
    if (!gmtime_r(&t, &tm) || strftime(out, PROV_TIME_MAX, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        strcpy(out, "unknown");
}

void provenance_now(char out[PROV_TIME_MAX]) { provenance_time(time(NULL), out); }

void provenance_init(Provenance *p, int ranks, int threads_per_rank, const char *const *hosts,
                     size_t n_hosts, const char *config)
{
    memset(p, 0, sizeof *p);
    p->version = carrera_version;
    p->revision = carrera_revision;
    p->compiler = carrera_compiler;
    p->build = carrera_build_flags;
    p->ranks = ranks;
    p->threads_per_rank = threads_per_rank;
    p->hosts = hosts;
    p->n_hosts = n_hosts;
    p->config = config ? config : "";
    provenance_now(p->start_time);
}
