/* SPDX-License-Identifier: MIT */
/* Message passing for distributed jobs (comm.h): MPI under a launcher, a single process
 * otherwise. With shared_table.c, the only file that includes <mpi.h>. Packets are plain bytes:
 * every rank runs the same binary on the same kind of machine, which a cluster job is. */
#define _POSIX_C_SOURCE 200809L

#include "comm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "errmsg.h"
#include "run_error.h"

enum { TAG_PACKET = 1 };

/* How long a poll sleeps when nothing has arrived: short beside any unit worth sending (a worker
 * waits only when its queue ran dry), long enough that a waiting rank takes no CPU time from
 * the ranks still counting on the same cores. */
#define POLL_SLEEP_NS 1000000L

/* The process's place in the job: set once by comm_init, read-only after. */
static struct {
    bool started, mpi, multiple;
    int rank, size;
} self = { false, false, false, 0, 1 };

/* Whether a launcher started this process as a task of a parallel job. Open MPI's mpiexec sets
 * OMPI_COMM_WORLD_SIZE, PMIx launchers (srun --mpi=pmix, prterun) PMIX_RANK, PMI-1/2 launchers
 * (MPICH's Hydra, srun --mpi=pmi2) PMI_RANK; srun alone sets SLURM_STEP_NUM_TASKS. */
static bool launched(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK") ||
           getenv("PMI_SIZE") || getenv("SLURM_STEP_NUM_TASKS");
}

/* The number of tasks the launcher says it started, or 0 when it does not say. */
static long launched_tasks(void)
{
    const char *names[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const char *v = getenv(names[i]);
        if (v && *v)
            return strtol(v, NULL, 10);
    }
    return 0;
}

int comm_init(int *argc, char ***argv, char *err, size_t errlen)
{
    if (self.started)
        return 0;
    self.started = true;
    if (!launched())
        return 0;
    /* FUNNELED at least: rank 0 counts on a second thread while the main thread talks. MULTIPLE
     * when the library has it: the counting threads of a perft then reach the shared table
     * themselves (shared_table.c). */
    int provided;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
        return errmsg_fail(err, errlen, "MPI did not start");
    self.mpi = true;
    self.multiple = provided >= MPI_THREAD_MULTIPLE;
    MPI_Comm_rank(MPI_COMM_WORLD, &self.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &self.size);
    if (provided < MPI_THREAD_FUNNELED)
        return errmsg_fail(err, errlen,
                           "this MPI library does not support threads (MPI_THREAD_FUNNELED)");
    long tasks = launched_tasks();
    if (self.size == 1 && tasks > 1) {
        /* Every task would believe it is rank 0 and write the same result file. */
        return errmsg_fail(
            err, errlen,
            "the launcher started %ld tasks but MPI sees each as a job of its own (with "
            "srun, pass --mpi=pmix or --mpi=pmi2)",
            tasks);
    }
    return 0;
}

void comm_finalize(void)
{
    if (self.mpi)
        MPI_Finalize();
}

_Noreturn void comm_abort(int code)
{
    fflush(stdout);
    fflush(stderr);
    if (self.mpi)
        MPI_Abort(MPI_COMM_WORLD, code);
    exit(code);
}

int comm_rank(void) { return self.rank; }
int comm_size(void) { return self.size; }
bool comm_threads_multiple(void) { return self.multiple; }

#define HOST_MAX 256

int comm_gather_hosts(char ***hosts)
{
    *hosts = NULL;
    char name[HOST_MAX] = "";
    if (gethostname(name, sizeof name - 1) != 0)
        strcpy(name, "unknown");
    char *all = NULL;
    if (self.rank == 0) {
        all = calloc((size_t)self.size, HOST_MAX);
        if (!all)
            return -1;
    }
    if (self.mpi)
        MPI_Gather(name, HOST_MAX, MPI_CHAR, all, HOST_MAX, MPI_CHAR, 0, MPI_COMM_WORLD);
    else
        memcpy(all, name, HOST_MAX);
    if (self.rank != 0)
        return 0;
    char **out = calloc((size_t)self.size, sizeof *out);
    for (int i = 0; out && i < self.size; i++) {
        all[(size_t)i * HOST_MAX + HOST_MAX - 1] = '\0';
        out[i] = strdup(all + (size_t)i * HOST_MAX);
        if (!out[i]) {
            comm_free_hosts(out, i);
            out = NULL;
        }
    }
    free(all);
    *hosts = out;
    return out ? 0 : -1;
}

void comm_free_hosts(char **hosts, int n)
{
    for (int i = 0; hosts && i < n; i++)
        free(hosts[i]);
    free(hosts);
}

int comm_max(int value)
{
    if (self.mpi) {
        int out = value;
        MPI_Allreduce(&value, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        return out;
    }
    return value;
}

long long comm_broadcast(long long value)
{
    if (self.mpi)
        MPI_Bcast(&value, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    return value;
}

void comm_gather_u64(const uint64_t *mine, size_t n, uint64_t *all)
{
    if (self.mpi)
        MPI_Gather(mine, (int)n, MPI_UINT64_T, all, (int)n, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    else
        memcpy(all, mine, n * sizeof *mine);
}

void comm_send_packet(int to, const void *data, size_t len)
{
    if (self.mpi)
        MPI_Send(data, (int)len, MPI_BYTE, to, TAG_PACKET, MPI_COMM_WORLD);
}

void *comm_poll_packet(bool wait, size_t *len, int *from)
{
    if (!self.mpi)
        return NULL;
    for (;;) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_PACKET, MPI_COMM_WORLD, &flag, &st);
        if (flag) {
            int count;
            MPI_Get_count(&st, MPI_BYTE, &count);
            unsigned char *data = malloc(count > 0 ? (size_t)count : 1);
            if (!data)
                comm_abort(
                    run_error(EXIT_FAILED, "rank %d: out of memory for a message", self.rank));
            MPI_Recv(data, count, MPI_BYTE, st.MPI_SOURCE, TAG_PACKET, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            *len = (size_t)count;
            if (from)
                *from = st.MPI_SOURCE;
            return data;
        }
        if (!wait)
            return NULL;
        struct timespec ts = { 0, POLL_SLEEP_NS };
        nanosleep(&ts, NULL);
    }
}

/* All ranks learn the status; a failed rank's message is printed once, by rank 0 when it failed,
 * else by the workers that failed. The status is that of the message printed: rank 0's when it
 * failed, else the workers' worst. Collective. */
int comm_agree(int status, const char *message)
{
    int worst = comm_max(status);
    int root_status = comm_max(comm_rank() == 0 ? status : 0);
    if (status != 0 && (comm_rank() == 0 || root_status == 0))
        run_error(status, "%s%s", message, comm_rank() == 0 ? "" : " (on a worker rank)");
    return root_status != 0 ? root_status : worst;
}
