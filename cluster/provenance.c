/* Provenance of a result: what this build is (version, revision, compiler, flags) and the shape
 * of the run, gathered in one place so every result file records the same facts. */
#define _POSIX_C_SOURCE 200809L

#include "provenance.h"

#include <string.h>

/* Both come from the build (CMakeLists.txt): a binary that cannot say what it is must not
 * write results. */
#ifndef CARRERA_VERSION
#error "CARRERA_VERSION must be defined by the build"
#endif
#ifndef CARRERA_BUILD_FLAGS
#error "CARRERA_BUILD_FLAGS must be defined by the build"
#endif

/* Written at build time by scripts/revision.cmake. */
extern const char carrera_revision[];

#if defined(__clang__)
#define COMPILER __VERSION__ /* already "Debian Clang 14.0.6 ..." */
#elif defined(__GNUC__)
#define COMPILER "gcc " __VERSION__
#elif defined(__VERSION__)
#define COMPILER __VERSION__
#else
#define COMPILER "unknown"
#endif

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
    p->version = CARRERA_VERSION;
    p->revision = carrera_revision;
    p->compiler = COMPILER;
    p->build = CARRERA_BUILD_FLAGS;
    p->ranks = ranks;
    p->threads_per_rank = threads_per_rank;
    p->hosts = hosts;
    p->n_hosts = n_hosts;
    p->config = config ? config : "";
    provenance_now(p->start_time);
}
