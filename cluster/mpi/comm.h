/* SPDX-License-Identifier: MIT */
/* Message passing between the ranks of a distributed job: with the shared perft table
 * (shared_table.c), the only file of Carrera that calls MPI (comm.c). Under a launcher (mpiexec,
 * srun) it runs MPI; started directly, the same binary is one process of rank 0 with no workers and
 * no MPI at all, so a laptop, a test or a single node need neither mpiexec nor a working MPI
 * set-up.
 *
 * Messages are packets of bytes, all between rank 0 and one worker, so MPI's ordering between two
 * ranks is all that is needed (farm.h builds the jobs' coordinator and workers on them). Waiting
 * polls (probe, then a short sleep) instead of blocking: Open MPI's blocking receive spins a core,
 * which on a shared node steals it from the working threads. */
#ifndef CARRERA_COMM_H
#define CARRERA_COMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Starts MPI when a launcher started this process, else the serial mode. MPI is asked for
 * MPI_THREAD_MULTIPLE, which the shared perft table (shared_table.h) needs; MPI_THREAD_FUNNELED
 * (only the main thread calls MPI, as the farm does) is enough for everything else. Returns 0, or
 * -1 with a message in err (MPI would not start, or the launcher started several tasks that MPI
 * does not see as one job). Calling it again does nothing. */
int comm_init(int *argc, char ***argv, char *err, size_t errlen);

/* Ends MPI (nothing in the serial mode). Every rank calls it once, after comm_init. */
void comm_finalize(void);

/* Ends the whole job now, every rank with it, with exit status code (serial mode: exit). */
_Noreturn void comm_abort(int code);

int comm_rank(void);
int comm_size(void);

/* Whether any thread may call MPI (MPI gave MPI_THREAD_MULTIPLE); false in the serial mode. */
bool comm_threads_multiple(void);

/* Gathers each rank's host name at rank 0: there *hosts receives comm_size() malloc'd strings in
 * rank order (free with comm_free_hosts), elsewhere NULL. Collective. Returns 0 or -1 (memory). */
int comm_gather_hosts(char ***hosts);
void comm_free_hosts(char **hosts, int n);

/* The largest of every rank's value, on every rank (collective): rank 0's set-up status and the
 * workers' own, so that all ranks stop together when one of them cannot start. */
int comm_max(int value);

/* Rank 0's value, on every rank (collective). */
long long comm_broadcast(long long value);

/* Gathers n values of every rank at rank 0, into all[rank * n + i] (collective; all is rank 0's,
 * NULL elsewhere). */
void comm_gather_u64(const uint64_t *mine, size_t n, uint64_t *all);

/* All ranks learn one status (collective): each rank's status is 0 or an exit status
 * (exit_status.h). A failed rank's message is printed once, as a `carrera: error:` line, by rank 0
 * when it failed, else by the workers that failed. Returns rank 0's status when it failed, else
 * the workers' worst: the status of the message printed. */
int comm_agree(int status, const char *message);

/* Sends a packet: len bytes of data, packed by their user, to rank to (nothing in the serial
 * mode). */
void comm_send_packet(int to, const void *data, size_t len);

/* The next packet for this rank if one has arrived (wait false) or the next one at all (wait
 * true): its malloc'd bytes (free them) with *len and the sender in *from; NULL when nothing has
 * arrived, and always in the serial mode. */
void *comm_poll_packet(bool wait, size_t *len, int *from);

#endif
